// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

#include <string>
#include <string_view>
#include <unordered_map>

namespace gpudesk {

// One QString for each distinct UTF-8 text a decoder meets, so that the values 100,000 pods
// repeat (namespaces, node names, phases, images, owners, the default tolerations) are held once
// and shared by reference count instead of once per pod, and are converted from UTF-8 only the
// first time they are seen. Not thread-safe: each decoding thread keeps its own
// (StringPool::local()); the strings it hands out are ordinary QStrings, safe to pass anywhere.
// Bounded: past kMaxEntries it starts again empty (what it gave out stays valid).
class StringPool
{
public:
    static constexpr size_t kMaxEntries = 65536;
    // Texts longer than this are converted, not kept: long unique messages would fill the pool.
    static constexpr size_t kMaxLength = 512;

    const QString &intern(std::string_view utf8);
    // A list of strings, shared as a whole: its key is the strings joined by a byte that UTF-8
    // text never holds (0xFF), built by the caller; `make` builds the list the first time.
    template <class Make> const QStringList &internList(const std::string &key, Make make)
    {
        if (m_lists.size() >= kMaxEntries)
            m_lists.clear();
        auto it = m_lists.find(key);
        if (it == m_lists.end())
            it = m_lists.emplace(key, make()).first;
        return it->second;
    }
    size_t size() const { return m_strings.size() + m_lists.size(); }

    // The calling thread's pool.
    static StringPool &local();

private:
    struct Hash
    {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    std::unordered_map<std::string, QString, Hash, std::equal_to<>> m_strings;
    std::unordered_map<std::string, QStringList, Hash, std::equal_to<>> m_lists;
    QString m_scratch; // holds a long text handed out by reference
};

} // namespace gpudesk
