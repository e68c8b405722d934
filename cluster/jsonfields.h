// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "entities.h"
#include "quantity.h"

#include <QString>

#include <nlohmann/json.hpp>

namespace gpudesk::jsonfields {

// Reading fields of API objects that may be missing or of the wrong type, as a decoder must:
// never throwing, never copying a subtree.

// The member `key` of `o`, or an empty object when `o` has none (ask `o.contains(key)` where
// absent and empty differ).
const nlohmann::json &member(const nlohmann::json &o, const char *key);
// A string member, or "" when it is missing or not a string.
QString text(const nlohmann::json &o, const char *key);
// A map of strings (labels, annotations); entries that are not strings are left out.
Labels stringMap(const nlohmann::json &m);
// A ResourceList (a quota's hard, a queue's capability) as amounts by resource name; entries
// that are not quantities are left out.
ResourceAmounts amounts(const nlohmann::json &list);

// One quantity, written as a string ("8", "16Gi") or a bare number, in thousandths of its unit
// (quantity::parseMilli, the one parser); nullopt when it is neither or not a quantity.
std::optional<qint64> milli(const nlohmann::json &v);

} // namespace gpudesk::jsonfields
