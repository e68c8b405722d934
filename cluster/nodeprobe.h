// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "nodecommands.h"
#include "nodesample.h"

#include <QCoreApplication>
#include <QHash>

#include <atomic>

namespace gpudesk {

class SshConnection;

// Samples one node: the probe command, then the cgroups of GPU processes it has not seen
// before (a process keeps its cgroup for life, so each is read once). The state and start time
// of the GPU processes the last sample listed are read with the probe (a process stuck in D
// state, a PID reused). Keeps what one sample needs from the last (CPU times, known owners);
// used by one worker at a time.
class NodeProbe
{
    Q_DECLARE_TR_FUNCTIONS(NodeProbe)

public:
    explicit NodeProbe(QString node) : m_node(std::move(node)) {}

    // `pods`: the running pods the API places on this node, whose own CPU and memory the
    // sample reads from their cgroups (once the node's cgroup layout is known).
    NodeSample sample(SshConnection &connection, int timeoutMs, const std::atomic<bool> &cancel,
                      const QList<nodecmd::PodRef> &pods = {});

    // The steps of sample(), separately for tests.
    QByteArray command(const QList<nodecmd::PodRef> &pods);
    NodeSample parseProbe(const QByteArray &output, qint64 timeMs);
    QList<qint64> unknownPids(const NodeSample &sample) const;
    void applyCgroups(const QByteArray &output, NodeSample *sample);
    static void joinMig(const QList<MigDeviceSample> &list, const std::optional<probe::MigXml> &xml,
                        NodeSample *sample);

private:
    QString m_node;
    std::optional<CpuTimes> m_lastCpu;
    CgroupLayout m_layout = CgroupLayout::Unknown;
    bool m_migField = true; // the driver answers mig.mode.current (R450 and later)
    bool m_migNode = false; // the last sample had a card in MIG mode: ask for its instances
    int m_samplesSinceLayoutTry = 0;
    struct PodCpu
    {
        quint64 usageNs = 0;
        double uptimeSecs = 0;
    };
    QHash<QString, PodCpu> m_podCpu;
    QHash<qint64, CgroupOwner> m_owners;
    QList<qint64> m_lastPids; // the GPU processes of the last sample: their stat is asked next
    QHash<qint64, probe::PidStat> m_stats; // read in the current sample's execs
};

} // namespace gpudesk
