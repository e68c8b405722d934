// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "nodesample.h"

#include <QCoreApplication>
#include <QHash>

#include <atomic>

namespace gpudesk {

class SshConnection;

// Samples one node: the probe command, then the cgroups of GPU processes it has not seen
// before (a process keeps its cgroup for life, so each is read once). Keeps what one sample
// needs from the last (CPU times, known owners); used by one worker at a time.
class NodeProbe
{
    Q_DECLARE_TR_FUNCTIONS(NodeProbe)

public:
    explicit NodeProbe(QString node) : m_node(std::move(node)) {}

    NodeSample sample(SshConnection &connection, int timeoutMs, const std::atomic<bool> &cancel);

    // The steps of sample(), separately for tests.
    NodeSample parseProbe(const QByteArray &output, qint64 timeMs);
    QList<qint64> unknownPids(const NodeSample &sample) const;
    void applyCgroups(const QByteArray &output, NodeSample *sample);

private:
    QString m_node;
    std::optional<CpuTimes> m_lastCpu;
    QHash<qint64, CgroupOwner> m_owners;
};

} // namespace gpudesk
