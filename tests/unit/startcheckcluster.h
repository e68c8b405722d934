// SPDX-License-Identifier: GPL-3.0-or-later
// The small cluster the submit check's tests run on: three RTX 4090 nodes with 8 cards each (some
// held), one tainted A800 node, queues nlp (capability 16), cv (Closed) and speech (capability
// 0), user-alice's quota of 12 GPUs; and jobs written as users write them (JSON of a Pod, a
// Volcano Job, a PyTorchJob), read by the decoder the check uses.
#pragma once

#include "capacitysnapshot.h"
#include "clusterstore.h"
#include "jobrequestdecoder.h"
#include "startcheck.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <memory>

namespace gpudesk::startcheckcluster {

inline constexpr qint64 kNow = 1'790'000'000'000;
inline const QString k4090 = QStringLiteral("NVIDIA GeForce RTX 4090");

inline NodeInfo node(const QString &name, const QString &model, int gpus)
{
    NodeInfo n;
    n.uid = name;
    n.name = name;
    n.ready = true;
    n.gpuModel = model;
    n.gpuAllocatable = n.gpuCapacity = gpus;
    n.cpuAllocatableMilli = 96000;
    n.memoryAllocatableBytes = 1000LL << 30;
    n.labels = {{QStringLiteral("nvidia.com/gpu.product"), model},
                {QStringLiteral("kubernetes.io/hostname"), name}};
    return n;
}

inline PodInfo holder(const QString &name, const QString &ns, const QString &nodeName, int gpus,
                      const QString &vc)
{
    PodInfo p;
    p.uid = QStringLiteral("uid-") + name;
    p.ns = ns;
    p.name = name;
    p.nodeName = nodeName;
    p.phase = p.status = QStringLiteral("Running");
    p.gpuRequest = gpus;
    p.cpuRequestMilli = 8000;
    p.memoryRequestBytes = 64LL << 30;
    p.vc = vc;
    p.created = kNow - 3600 * 1000;
    return p;
}

inline QueueInfo queue(const QString &name, std::optional<int> gpus, const QString &state)
{
    QueueInfo q;
    q.uid = name;
    q.name = name;
    q.state = state;
    q.gpuCapability = gpus;
    if (gpus)
        q.capability.insert(QStringLiteral("nvidia.com/gpu"), *gpus * 1000LL);
    return q;
}

template <class T> Delta relist(Resource r, const QList<T> &items)
{
    Delta d;
    d.resource = r;
    d.relist = true;
    d.items<T>() = items;
    return d;
}

// A container as a job's pod template holds it.
inline QJsonObject container(int gpus, const QJsonArray &env = {}, const QJsonArray &command = {})
{
    QJsonObject limits{{QStringLiteral("nvidia.com/gpu"), QString::number(gpus)},
                       {QStringLiteral("memory"), QStringLiteral("128Gi")}};
    QJsonObject c{
        {QStringLiteral("name"), QStringLiteral("pytorch")},
        {QStringLiteral("image"), QStringLiteral("registry.lab/train:1")},
        {QStringLiteral("resources"),
         QJsonObject{{QStringLiteral("limits"), limits},
                     {QStringLiteral("requests"),
                      QJsonObject{{QStringLiteral("cpu"), QString::number(gpus * 6 + 2)},
                                  {QStringLiteral("memory"), QStringLiteral("128Gi")}}}}}};
    if (!env.isEmpty())
        c.insert(QStringLiteral("env"), env);
    if (!command.isEmpty())
        c.insert(QStringLiteral("command"), command);
    return c;
}

inline QJsonObject podSpec(const QJsonObject &c, const QJsonObject &extra = {})
{
    QJsonObject s{{QStringLiteral("containers"), QJsonArray{c}}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        s.insert(it.key(), it.value());
    return s;
}

inline QByteArray pyTorchJob(const QString &name, int workers, int gpus, const QString &queue,
                             const QJsonObject &extraSpec = {}, const QJsonObject &c = {})
{
    const QJsonObject tmpl{
        {QStringLiteral("spec"), podSpec(c.isEmpty() ? container(gpus) : c, extraSpec)}};
    QJsonObject replicas{
        {QStringLiteral("Master"),
         QJsonObject{{QStringLiteral("replicas"), 1}, {QStringLiteral("template"), tmpl}}}};
    if (workers > 0)
        replicas.insert(QStringLiteral("Worker"), QJsonObject{{QStringLiteral("replicas"), workers},
                                                              {QStringLiteral("template"), tmpl}});
    const QJsonObject job{
        {QStringLiteral("apiVersion"), QStringLiteral("kubeflow.org/v1")},
        {QStringLiteral("kind"), QStringLiteral("PyTorchJob")},
        {QStringLiteral("metadata"),
         QJsonObject{{QStringLiteral("name"), name},
                     {QStringLiteral("namespace"), QStringLiteral("user-alice")}}},
        {QStringLiteral("spec"),
         QJsonObject{{QStringLiteral("pytorchReplicaSpecs"), replicas},
                     {QStringLiteral("runPolicy"),
                      QJsonObject{{QStringLiteral("schedulingPolicy"),
                                   QJsonObject{{QStringLiteral("queue"), queue}}}}}}}};
    return QJsonDocument(job).toJson();
}

inline QByteArray volcanoJob(const QString &name, int replicas, const QJsonObject &c,
                             bool pytorchPlugin)
{
    QJsonObject spec{
        {QStringLiteral("queue"), QStringLiteral("nlp")},
        {QStringLiteral("minAvailable"), replicas},
        {QStringLiteral("tasks"),
         QJsonArray{QJsonObject{
             {QStringLiteral("name"), QStringLiteral("worker")},
             {QStringLiteral("replicas"), replicas},
             {QStringLiteral("template"), QJsonObject{{QStringLiteral("spec"), podSpec(c)}}}}}}};
    if (pytorchPlugin)
        spec.insert(QStringLiteral("plugins"),
                    QJsonObject{{QStringLiteral("pytorch"),
                                 QJsonArray{QStringLiteral("--master=master")}}});
    return QJsonDocument(
               QJsonObject{
                   {QStringLiteral("apiVersion"), QStringLiteral("batch.volcano.sh/v1alpha1")},
                   {QStringLiteral("kind"), QStringLiteral("Job")},
                   {QStringLiteral("metadata"),
                    QJsonObject{{QStringLiteral("name"), name},
                                {QStringLiteral("namespace"), QStringLiteral("user-alice")}}},
                   {QStringLiteral("spec"), spec}})
        .toJson();
}

inline ClusterStore *makeCluster()
{
    auto *store = new ClusterStore(nullptr, [] { return kNow; });
    NodeInfo a800 = node(QStringLiteral("a800-01"), QStringLiteral("NVIDIA A800-SXM4-80GB"), 8);
    a800.taints = {QStringLiteral("gpudesk.io/reserved=a800:NoSchedule")};
    store->apply(
        relist<NodeInfo>(Resource::Nodes, {node(QStringLiteral("g4090-01"), k4090, 8),
                                           node(QStringLiteral("g4090-02"), k4090, 8),
                                           node(QStringLiteral("g4090-03"), k4090, 8), a800}));
    // g4090-01: 2 free (bob's llama holds 6); g4090-02: 1 free (carol 7);
    // g4090-03: 7 free (dave 1).
    store->apply(relist<PodInfo>(Resource::Pods,
                                 {holder(QStringLiteral("llama-ft-0"), QStringLiteral("user-bob"),
                                         QStringLiteral("g4090-01"), 6, QStringLiteral("nlp")),
                                  holder(QStringLiteral("sd-xl-0"), QStringLiteral("user-carol"),
                                         QStringLiteral("g4090-02"), 7, QStringLiteral("cv")),
                                  holder(QStringLiteral("probe-0"), QStringLiteral("user-dave"),
                                         QStringLiteral("g4090-03"), 1, QStringLiteral("nlp")),
                                  holder(QStringLiteral("eval-0"), QStringLiteral("user-alice"),
                                         QStringLiteral("a800-01"), 2, QStringLiteral("nlp"))}));
    store->replaceQueues({queue(QStringLiteral("default"), std::nullopt, QStringLiteral("Open")),
                          queue(QStringLiteral("nlp"), 16, QStringLiteral("Open")),
                          queue(QStringLiteral("cv"), 40, QStringLiteral("Closed")),
                          queue(QStringLiteral("speech"), 0, QStringLiteral("Open"))});
    ResourceQuotaInfo quota;
    quota.uid = quota.name = QStringLiteral("gpudesk-quota");
    quota.ns = QStringLiteral("user-alice");
    quota.hard = {{QStringLiteral("requests.nvidia.com/gpu"), 12000}};
    quota.used = {{QStringLiteral("requests.nvidia.com/gpu"), 2000}};
    store->apply(relist<ResourceQuotaInfo>(Resource::ResourceQuotas, {quota}));
    store->flush();
    return store;
}

inline StartVerdict verdictOf(const ClusterStore &store, const QByteArray &json)
{
    JobRequest job;
    QString error;
    if (!JobRequestDecoder::decode(json, &job, &error))
        qFatal("%s", qPrintable(error));
    return StartCheck::check(CapacitySnapshot::of(store, job), job);
}
// On a verdict that outlives the call only: the reason points into it.
const StartReason *reason(const StartVerdict &&, const QString &) = delete;
inline const StartReason *reason(const StartVerdict &v, const QString &code)
{
    for (const StartReason &r : v.reasons)
        if (r.code == code)
            return &r;
    return nullptr;
}
inline QString codes(const StartVerdict &v)
{
    QStringList out;
    for (const StartReason &r : v.reasons)
        out << r.code;
    return out.join(u',');
}

// What the test classes share: the cluster, made anew before each test function (init()).
class ClusterFixture
{
protected:
    void makeStore() { m_store.reset(makeCluster()); }
    StartVerdict verdictOf(const QByteArray &json) const
    {
        return startcheckcluster::verdictOf(*m_store, json);
    }
    std::unique_ptr<ClusterStore> m_store;
};

} // namespace gpudesk::startcheckcluster
