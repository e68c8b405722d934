// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "behavior.h"

#include <nlohmann/json.hpp>

#include <QByteArray>
#include <QString>

#include <optional>

namespace sim {

// One container instance's log, computed line by line from its behaviour and start time
// instead of stored, so that a million-line log costs nothing until it is read.
struct LogSpec
{
    Profile profile = Profile::Train;
    quint64 seed = 0;
    QString pod;
    QString container;
    QString user;
    qint64 startMs = 0;
    qint64 endMs = -1; // -1 while running
    int intervalMs = 2000;
    bool failed = false;
    Failure failure = Failure::None;
    // An MPI launcher reaches its workers over SSH (the MPI operator's v2beta1), else with
    // kubectl exec (the training operator's v1: its kubexec.sh).
    bool mpiOverSsh = true;
    // How NCCL connects, as it says at the start (NCCL_DEBUG=INFO): over the node's InfiniBand
    // or RoCE, over TCP sockets for want of a device, or over sockets because the job set
    // NCCL_IB_DISABLE.
    enum class Nccl
    {
        Socket,
        Ib,
        IbDisabled
    };
    Nccl nccl = Nccl::Socket;
    // The script the container's command gives its interpreter (`bash /workspace/start.sh`),
    // "" for a shell's -c line: what a launch script that cannot be opened names.
    QByteArray script;
};

class PodLogs
{
public:
    // The log of `container` (or its previous instance); `nodeRdma`: the pod's node has
    // InfiniBand or RoCE. On error, code and message are set as the API server answers them.
    static std::optional<LogSpec> spec(const nlohmann::json &pod, const Behavior &behavior,
                                       QString container, bool previous, bool nodeRdma, int *code,
                                       QString *message);
    static qint64 lineCount(const LogSpec &spec, qint64 nowMs);
    static qint64 lineTimeMs(const LogSpec &spec, qint64 index);
    static QByteArray line(const LogSpec &spec, qint64 index);
    static QByteArray timestamp(qint64 ms);
};

} // namespace sim
