// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>

#include <string>
#include <vector>

namespace sim {

class MachineRegistry;
class NasTree;
class NodeRuntime;
struct NodeMachine;

struct CommandOutput
{
    std::string out;
    std::string err;
    int status = 0;
};

// What `sh -c COMMAND` prints on a simulated node: a small POSIX-shell subset (words, quotes,
// ; && ||, 2>/dev/null, 2>&1) over the tools gpudesk's probes use, in their exact formats
// (nvidia-smi in NvidiaSmi, the files in ProcFs), dash's kill, nice and ionice, and find over
// the NAS (NasTree) when there is one.
class NodeTools
{
public:
    explicit NodeTools(MachineRegistry *machines, NodeRuntime *runtime = nullptr,
                       const NasTree *nas = nullptr)
        : m_machines(machines), m_runtime(runtime), m_nas(nas)
    {}
    // `input`: what the client sent on the command's standard input (read by the commands that
    // read it: `nerdctl login --password-stdin`).
    CommandOutput run(const std::string &node, const std::string &commandLine, qint64 nowMs,
                      const std::string &input = {});
    // Whether a command line reads its standard input: the server waits for its end first.
    static bool readsInput(const std::string &commandLine);
    // The NAS the node mounts (null when there is none): its SFTP subsystem serves it too.
    const NasTree *nas() const { return m_nas; }

    // Split a command line into words as sh does; false on an unterminated quote.
    static bool splitWords(const std::string &line, std::vector<std::string> *words,
                           std::string *error);

private:
    CommandOutput runSimple(const std::string &node, std::vector<std::string> argv, qint64 nowMs,
                            const std::string &input);
    CommandOutput kill(const std::string &node, const std::vector<std::string> &argv, qint64 nowMs);
    // util-linux dmesg: the ring buffer as `[seconds since boot] message`, or with
    // --time-format iso as `2026-11-28T09:14:03,512345+00:00 message`.
    static CommandOutput dmesg(const NodeMachine &m, const std::vector<std::string> &argv);
    MachineRegistry *m_machines;
    NodeRuntime *m_runtime;
    const NasTree *m_nas;
};

} // namespace sim
