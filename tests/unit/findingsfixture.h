// SPDX-License-Identifier: GPL-3.0-or-later
// The stores findings are computed from, for the findings and cleanup-plan tests: one node "g1"
// with four cards, namespace user-bob of user bob, a clock the test moves, and samples made of
// a list of processes.
#pragma once

#include "clusterstore.h"
#include "findings.h"
#include "telemetrystore.h"

#include <memory>

namespace gpudesk::findingstest {

constexpr qint64 T0 = 1'800'000'000'000;
constexpr qint64 Minute = 60 * 1000;

inline PodInfo pod(const QString &uid, const QString &name, int gpus,
                   const QString &node = u"g1"_qs)
{
    PodInfo p;
    p.uid = uid;
    p.ns = QStringLiteral("user-bob");
    p.name = name;
    p.nodeName = node;
    p.phase = QStringLiteral("Running");
    p.status = QStringLiteral("Running");
    p.qosClass = QStringLiteral("Guaranteed");
    p.gpuRequest = gpus;
    p.created = T0 - 8 * 3600 * 1000;
    return p;
}

inline NodeProcess proc(qint64 pid, int card, const QString &podUid, char state = 'S')
{
    NodeProcess p;
    p.pid = pid;
    p.cardIndex = card;
    p.gpuUuid = QStringLiteral("GPU-%1").arg(card);
    p.memoryMiB = 20000;
    p.name = QStringLiteral("python train.py");
    p.owner.podUid = podUid;
    p.state = state;
    p.startTicks = 1000 + pid;
    return p;
}

class FindingsFixture
{
protected:
    // A fresh store at T0 (each test's init()).
    void setUpStores();
    // `uptimeSecs`: the node's /proc/uptime in the same probe (processes' start times).
    void sample(qint64 time, const QList<NodeProcess> &procs, const QList<int> &util = {},
                std::optional<double> uptimeSecs = {});
    QList<Finding> find(FindingsOptions o = {}, const QHash<QString, ExternalIdle> &external = {});
    const Finding *of(const QList<Finding> &f, FindingClass c);

    std::unique_ptr<ClusterStore> m_cluster;
    std::unique_ptr<TelemetryStore> m_telemetry;
    qint64 m_now = 0;
};

inline void FindingsFixture::setUpStores()
{
    m_now = T0;
    m_cluster = std::make_unique<ClusterStore>(nullptr, [this] { return m_now; });
    m_telemetry = std::make_unique<TelemetryStore>(m_cluster.get());
    m_telemetry->setClock([this] { return m_now; });
    NodeInfo n;
    n.name = QStringLiteral("g1");
    n.uid = QStringLiteral("node-uid-g1");
    n.ready = true;
    n.gpuAllocatable = 4;
    m_cluster->replaceNodes({n});
    m_cluster->replaceNamespaces(
        {{.name = QStringLiteral("user-bob"), .user = QStringLiteral("bob"), .vc = u"cv"_qs}});
}

inline void FindingsFixture::sample(qint64 time, const QList<NodeProcess> &procs,
                                    const QList<int> &util, std::optional<double> uptimeSecs)
{
    NodeSample s;
    s.node = QStringLiteral("g1");
    s.time = time;
    s.uptimeSecs = uptimeSecs;
    s.cgroupLayout = CgroupLayout::V2Systemd;
    for (int i = 0; i < 4; ++i) {
        GpuCardSample c;
        c.index = i;
        c.uuid = QStringLiteral("GPU-%1").arg(i);
        c.utilization = util.value(i, 0);
        c.memoryUsedMiB = 0;
        c.memoryTotalMiB = 81920;
        for (const NodeProcess &p : procs)
            if (p.cardIndex == i)
                c.memoryUsedMiB = *c.memoryUsedMiB + p.memoryMiB.value_or(0);
        s.cards << c;
    }
    s.processes = procs;
    for (const auto &[uid, p] : m_cluster->pods().asKeyValueRange())
        if (p.phase == QLatin1String("Running") && p.gpuRequest > 0) {
            s.podsAsked << uid;
            if (std::any_of(procs.cbegin(), procs.cend(),
                            [&](const NodeProcess &np) { return np.owner.podUid == uid; }))
                s.pods << PodUsage{uid, 1.0, 1 << 30, 1 << 30};
        }
    m_now = time;
    m_telemetry->apply(s);
}

inline QList<Finding> FindingsFixture::find(FindingsOptions o,
                                            const QHash<QString, ExternalIdle> &external)
{
    return computeFindings(FindingsInput::capture(*m_cluster, m_telemetry.get(), o, external));
}

inline const Finding *FindingsFixture::of(const QList<Finding> &f, FindingClass c)
{
    for (const Finding &x : f)
        if (x.cls == c)
            return &x;
    return nullptr;
}

} // namespace gpudesk::findingstest
