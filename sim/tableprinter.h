// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "resourcetypes.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace sim {

// Server-side printing (meta.k8s.io/v1 Table), which kubectl asks for on `get`: the columns a
// real API server prints for the built-in kinds, and the CRDs' printer columns.
class TablePrinter
{
public:
    enum class IncludeObject
    {
        None,
        Metadata,
        Object
    };

    static nlohmann::json table(const ResourceType &type,
                                const std::vector<const nlohmann::json *> &objects, qint64 nowMs,
                                IncludeObject include, bool withColumns);
    static std::string humanDuration(qint64 seconds);
};

} // namespace sim
