// SPDX-License-Identifier: GPL-3.0-or-later
#include "stringpool.h"

namespace gpudesk {

const QString &StringPool::intern(std::string_view utf8)
{
    if (utf8.size() > kMaxLength) {
        m_scratch = QString::fromUtf8(utf8.data(), qsizetype(utf8.size()));
        return m_scratch;
    }
    if (const auto it = m_strings.find(utf8); it != m_strings.end())
        return it->second;
    if (m_strings.size() >= kMaxEntries)
        m_strings.clear();
    return m_strings
        .emplace(std::string(utf8), QString::fromUtf8(utf8.data(), qsizetype(utf8.size())))
        .first->second;
}

StringPool &StringPool::local()
{
    thread_local StringPool pool;
    return pool;
}

} // namespace gpudesk
