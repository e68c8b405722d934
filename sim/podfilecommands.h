// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "execshell.h"

#include <nlohmann/json.hpp>

#include <QStringList>

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sim {

class ChannelTransport;
class NasTree;

// What a dev environment pod's container answers to the file commands a client execs in it to
// reach the NAS folders the pod mounts (the user's NFS export at /mnt/user/NAME, the share, a
// hostPath): GNU find (NasTree's), `tail -c [+]N -- FILE` streamed as the socket drains,
// `dd of=FILE oflag=append conv=notrunc status=none` written from stdin, `mkdir -- DIR`,
// `mv [-n] [-T] -- FROM TO`, `rm -- FILE`, `rmdir -- DIR`, `realpath -e -- PATH`, with
// coreutils' messages and exit codes. The container runs as
// root, so permissions do not stop it; links are read as the node reads them, and a path on no
// mount of the pod is the container's own disk, which is not simulated (not found).
class PodFileCommands
{
public:
    using Out = std::function<void(QByteArray)>;
    using Err = std::function<void(const QByteArray &)>;
    using Finish = std::function<void(const ExecShell::Result &)>;

    PodFileCommands(const NasTree *nas, const nlohmann::json &pod);

    static bool handles(const QStringList &argv);
    // Runs `argv` (handles() said yes) once the exec's process has started: stdout and stderr
    // through `out` and `err`, then `finish`; dd reads stdin from `ws` until it ends (at once
    // when the client asked for no stdin).
    void run(ChannelTransport *ws, const QStringList &argv, bool stdin, const Out &out,
             const Err &err, const Finish &finish) const;

private:
    // The node's path of a container path, through the deepest mount; nullopt when on none.
    std::optional<std::string> nodePath(const std::string &containerPath) const;
    // The host path to create `containerPath` at: its folder resolved (links read), the last
    // name kept as it is. nullopt with *err (an errno).
    std::optional<std::string> newEntry(const std::string &containerPath, int *err) const;
    ExecShell::Result find(const QStringList &argv) const;
    void tail(ChannelTransport *ws, const QStringList &argv, const Out &out, const Err &err,
              const Finish &finish) const;
    void dd(ChannelTransport *ws, const QStringList &argv, bool stdin, const Err &err,
            const Finish &finish) const;
    ExecShell::Result mkdir(const QStringList &argv) const;
    ExecShell::Result mv(const QStringList &argv) const;
    ExecShell::Result rm(const QStringList &argv) const;
    ExecShell::Result realpath(const QStringList &argv) const;
    // The container's path of a node path (the deepest mount holding it), "" when none does.
    std::string containerPath(const std::string &nodePath) const;

    const NasTree *m_nas;
    std::vector<std::pair<std::string, std::string>> m_mounts; // container path → node path
};

} // namespace sim
