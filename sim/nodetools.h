// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>

#include <string>
#include <vector>

namespace sim {

class MachineRegistry;
struct NodeMachine;

struct CommandOutput
{
    std::string out;
    std::string err;
    int status = 0;
};

// What `sh -c COMMAND` prints on a simulated node: a small POSIX-shell subset (words, quotes,
// ; && ||, 2>/dev/null, 2>&1) over the tools gpudesk's probes use, in their exact formats.
class NodeTools
{
public:
    explicit NodeTools(MachineRegistry *machines) : m_machines(machines) {}
    CommandOutput run(const std::string &node, const std::string &commandLine, qint64 nowMs);

    // Split a command line into words as sh does; false on an unterminated quote.
    static bool splitWords(const std::string &line, std::vector<std::string> *words,
                           std::string *error);

private:
    CommandOutput runSimple(const std::string &node, std::vector<std::string> argv, qint64 nowMs);
    MachineRegistry *m_machines;
};

// The formatters, public for the simulator's unit tests.
std::string nvidiaSmiQueryGpu(const NodeMachine &m, const std::vector<std::string> &fields,
                              bool header, bool units, std::string *error);
std::string nvidiaSmiQueryApps(const NodeMachine &m, const std::vector<std::string> &fields,
                               bool header, bool units, std::string *error);
std::string nvidiaSmiXml(const NodeMachine &m, qint64 nowMs);
std::string procStat(const NodeMachine &m, qint64 nowMs);
std::string procMeminfo(const NodeMachine &m);
std::string dfP(const NodeMachine &m, const std::vector<std::string> &paths, std::string *error);

} // namespace sim
