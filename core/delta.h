// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "entities.h"

#include <QMetaType>

#include <type_traits>
#include <variant>

namespace gpudesk {

// The entity type the objects of a resource decode into (GPUDESK_KINDS).
template <Resource R> struct EntityOf;
#define GPUDESK_KIND_ENTITY(name, type, group, versions, plural, kind, scope)                      \
    template <> struct EntityOf<Resource::name>                                                    \
    {                                                                                              \
        using Type = type;                                                                         \
    };
GPUDESK_KINDS(GPUDESK_KIND_ENTITY)
#undef GPUDESK_KIND_ENTITY

namespace detail {

template <class... T> struct TypeList
{
};
template <class List, class T> struct AppendUnique;
template <class... Ts, class T> struct AppendUnique<TypeList<Ts...>, T>
{
    using Type =
        std::conditional_t<(std::is_same_v<Ts, T> || ...), TypeList<Ts...>, TypeList<Ts..., T>>;
};
template <class List, class... Rest> struct Unique
{
    using Type = List;
};
template <class List, class T, class... Rest> struct Unique<List, T, Rest...>
{
    using Type = typename Unique<typename AppendUnique<List, T>::Type, Rest...>::Type;
};
template <class List> struct ItemsVariant;
template <class... Ts> struct ItemsVariant<TypeList<Ts...>>
{
    using Type = std::variant<std::monostate, QList<Ts>...>;
};

#define GPUDESK_KIND_TYPE(name, type, group, versions, plural, kind, scope) , type
using EntityTypes = Unique<TypeList<> GPUDESK_KINDS(GPUDESK_KIND_TYPE)>::Type;
#undef GPUDESK_KIND_TYPE

} // namespace detail

// What an informer learnt about one collection since its last report: objects added or changed,
// and the keys of objects gone. A relist carries the whole collection and replaces what was known.
// Keys are the name for cluster-scoped kinds and the uid otherwise (ResourceInfo::keyedByName).
// The objects are one list of the resource's entity type: items<PodInfo>() for Resource::Pods.
struct Delta
{
    Resource resource = Resource::Pods;
    bool relist = false;
    // With a relist: the namespace the list was confined to ("" cluster-wide), when the account
    // may not list the kind everywhere. Objects of other namespaces exist but are not seen.
    QString scope;
    QStringList removed;
    // With a relist of pods: the keys of objects the list named whose objects came before it,
    // page by page as upserts (the informer sends a long list's pods as they decode, so that the
    // store fills while the rest arrives); the collection is these and the items, and what else
    // is known is gone.
    QStringList listed;

    template <class T> QList<T> &items()
    {
        if (!std::holds_alternative<QList<T>>(m_items))
            m_items.template emplace<QList<T>>();
        return std::get<QList<T>>(m_items);
    }
    template <class T> const QList<T> &items() const
    {
        static const QList<T> none;
        const auto *list = std::get_if<QList<T>>(&m_items);
        return list ? *list : none;
    }
    qsizetype objectCount() const
    {
        return std::visit(
            [](const auto &l) -> qsizetype {
                if constexpr (std::is_same_v<std::decay_t<decltype(l)>, std::monostate>)
                    return 0;
                else
                    return l.size();
            },
            m_items);
    }
    bool isEmpty() const
    {
        return !relist && objectCount() == 0 && removed.isEmpty() && listed.isEmpty();
    }
    qsizetype size() const { return objectCount() + removed.size(); }
    // Appends another delta of the same resource (a list's pages, a run of watch events).
    void append(Delta &&other)
    {
        removed.append(std::move(other.removed));
        listed.append(std::move(other.listed));
        std::visit(
            [this](auto &&l) {
                using L = std::decay_t<decltype(l)>;
                if constexpr (!std::is_same_v<L, std::monostate>)
                    items<typename L::value_type>().append(std::move(l));
            },
            std::move(other.m_items));
    }

private:
    detail::ItemsVariant<detail::EntityTypes>::Type m_items;
};

} // namespace gpudesk

Q_DECLARE_METATYPE(gpudesk::Delta)
