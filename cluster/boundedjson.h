// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>

#include <nlohmann/json.hpp>

namespace gpudesk {

// The API server refuses objects nested deeper than 10,000 levels; an answer deeper than that
// is not one it sent. Parsed, it would be copied, compared and printed by recursion — 100,000
// levels ended gpudesk (issue 33) — so it is read as malformed instead.
constexpr int MaxJsonDepth = 10000;

// How deeply `text` nests its arrays and objects, counted in one pass over the bytes (strings
// skipped), stopping once past `limit`.
inline int jsonDepth(const QByteArray &text, int limit = MaxJsonDepth)
{
    int depth = 0, deepest = 0;
    bool inString = false, escaped = false;
    for (const char c : text) {
        if (inString) {
            if (escaped)
                escaped = false;
            else if (c == '\\')
                escaped = true;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            deepest = std::max(deepest, ++depth);
            if (deepest > limit)
                return deepest;
        } else if (c == ']' || c == '}') {
            --depth;
        }
    }
    return deepest;
}

// nlohmann::json::parse without exceptions, discarded (is_discarded()) past MaxJsonDepth.
template <typename Json = nlohmann::json> Json parseBoundedJson(const QByteArray &text)
{
    if (jsonDepth(text) > MaxJsonDepth)
        return Json(Json::value_t::discarded);
    return Json::parse(text.begin(), text.end(), nullptr, false);
}

} // namespace gpudesk
