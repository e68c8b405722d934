// SPDX-License-Identifier: GPL-3.0-or-later
#include "jsonfields.h"

namespace gpudesk::jsonfields {

using nlohmann::json;

const json &member(const json &o, const char *key)
{
    static const json empty = json::object();
    if (!o.is_object())
        return empty;
    const auto it = o.find(key);
    return it == o.end() ? empty : *it;
}

QString text(const json &o, const char *key)
{
    const json &v = member(o, key);
    return v.is_string() ? QString::fromStdString(v.get_ref<const std::string &>()) : QString();
}

Labels stringMap(const json &m)
{
    Labels out;
    if (!m.is_object())
        return out;
    for (auto it = m.begin(); it != m.end(); ++it)
        if (it.value().is_string())
            out.append({QString::fromStdString(it.key()),
                        QString::fromStdString(it.value().get_ref<const std::string &>())});
    return out;
}

ResourceAmounts amounts(const json &list)
{
    ResourceAmounts out;
    if (!list.is_object())
        return out;
    for (auto it = list.begin(); it != list.end(); ++it) {
        if (const auto v = milli(it.value()))
            out.insert(QString::fromStdString(it.key()), *v);
    }
    return out;
}

std::optional<qint64> milli(const json &v)
{
    if (v.is_string())
        return quantity::parseMilliOf(std::string_view(v.get_ref<const std::string &>()));
    if (v.is_number())
        return quantity::parseMilli(QString::number(v.get<double>(), 'f'));
    return std::nullopt;
}

} // namespace gpudesk::jsonfields
