// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "nodecommands.h"
#include "nodesample.h"
#include "sshconnection.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <functional>
#include <memory>

namespace gpudesk {

class NodeProbe;
class SshPool;

// Samples every node on a fixed period through an SshPool and hands the parsed samples to the
// UI thread. A node still busy with its previous sample is skipped for this sweep rather than
// queued, so a slow node costs only its own freshness.
class TelemetrySampler : public QObject
{
    Q_OBJECT
public:
    explicit TelemetrySampler(SshPool *pool, QObject *parent = nullptr);
    ~TelemetrySampler() override;

    using PodsOfNode = std::function<QList<nodecmd::PodRef>(const QString &node)>;

    void setTargets(const QList<SshTarget> &targets);
    // Asked on each sweep, on this thread: the pods whose own CPU and memory to read per node.
    void setPodsOfNode(PodsOfNode podsOf) { m_podsOf = std::move(podsOf); }
    void setInterval(int ms);
    void setExecTimeout(int ms) { m_execTimeoutMs = ms; }
    void start();
    void stop();
    void sweep();
    SshPool *pool() const { return m_pool; }

signals:
    void sampled(const gpudesk::NodeSample &sample);
    // Every node asked in one sweep has answered or failed.
    void sweepFinished(int answered, int failed, int skipped, qint64 elapsedMs);

private:
    void finishOne(bool ok);

    SshPool *m_pool;
    QTimer m_timer;
    int m_execTimeoutMs = 5000;
    QHash<QString, std::shared_ptr<NodeProbe>> m_probes;
    PodsOfNode m_podsOf;
    // The sweep in progress.
    QElapsedTimer m_sweepClock;
    int m_outstanding = 0, m_answered = 0, m_failed = 0, m_skipped = 0;
    quint64 m_generation = 0;
};

} // namespace gpudesk
