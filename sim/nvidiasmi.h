// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "nodetools.h"

#include <QtGlobal>

#include <string>
#include <vector>

namespace sim {

struct NodeMachine;

// nvidia-smi on a simulated node, in the driver's real formats: --query-gpu and
// --query-compute-apps (CSV with or without header and units), -q -x (XML), -L; MIG instances
// where a card is in MIG mode ([N/A] utilization, instances in -L and -q -x, processes with
// their GPU and compute instance ids).
class NvidiaSmi
{
public:
    // `argv` without the command name.
    static CommandOutput run(const NodeMachine &m, const std::vector<std::string> &argv,
                             qint64 nowMs);

    static std::string queryGpu(const NodeMachine &m, const std::vector<std::string> &fields,
                                bool header, bool units, std::string *error);
    static std::string queryApps(const NodeMachine &m, const std::vector<std::string> &fields,
                                 bool header, bool units, std::string *error);
    static std::string xml(const NodeMachine &m, qint64 nowMs);
    static std::string list(const NodeMachine &m);
};

} // namespace sim
