// SPDX-License-Identifier: GPL-3.0-or-later
// Will the job start? The submit check against a small cluster: three RTX 4090 nodes with
// 8 cards each (some held), one tainted A800 node, queues nlp (capability 16), cv (Closed) and
// speech (capability 0), and user-alice's quota of 12 GPUs. Jobs are written as the user writes
// them (JSON of a Pod, a Volcano Job, a PyTorchJob) and read by the decoder the check uses.
#include "imagecheck.h"
#include "startcheckcluster.h"
#include "waitingjob.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace gpudesk;

using namespace gpudesk::startcheckcluster;

class TestStartCheck : public QObject, public ClusterFixture
{
    Q_OBJECT

private slots:
    void init() { makeStore(); }

    // The AiArts complaint: a one-pod job bigger than any node waits forever under Volcano.
    void biggerThanAnyNodeNeverStarts()
    {
        const StartVerdict v =
            verdictOf(pyTorchJob(QStringLiteral("big"), 0, 16, QStringLiteral("default")));
        QCOMPARE(v.kind, StartVerdict::Never);
        const StartReason *r = reason(v, QStringLiteral("gpus-per-node"));
        QVERIFY2(r, qPrintable(codes(v)));
        QCOMPARE(r->field, QStringLiteral("gpus"));
        QCOMPARE(r->numbers.value(QStringLiteral("mostPerNode")).toInt(), 8);
        QCOMPARE(r->numbers.value(QStringLiteral("suggestedNodes")).toInt(), 2);
        QCOMPARE(r->numbers.value(QStringLiteral("suggestedGpusPerNode")).toInt(), 8);
        QVERIFY2(r->fix.contains(QStringLiteral("2 nodes × 8 GPUs")), qPrintable(r->fix));
        QVERIFY(v.placement.isEmpty());
        QVERIFY(v.summary().startsWith(QStringLiteral("Never starts")));
    }

    // The tightest fit: one GPU goes where one is free, not to the node with seven.
    void oneGpuTakesTheTightestNode()
    {
        const StartVerdict v =
            verdictOf(pyTorchJob(QStringLiteral("small"), 0, 1, QStringLiteral("nlp")));
        QCOMPARE(v.kind, StartVerdict::Starts);
        QCOMPARE(v.placement.size(), 1);
        QCOMPARE(v.placement.first().node, QStringLiteral("g4090-02"));
        QCOMPARE(v.placement.first().freeBefore, 1);
        QCOMPARE(v.placement.first().freeAfter, 0);
        QVERIFY2(v.summary().contains(QStringLiteral("g4090-02")), qPrintable(v.summary()));
    }

    // Free cards scattered over nodes: the job waits, and the nodes nearest to fitting are named
    // with who holds their cards.
    void scatteredFreeGpusWaitAndSayWho()
    {
        // 10 GPUs free in all (2 + 1 + 7); one pod of 8 fits on no node.
        const StartVerdict v =
            verdictOf(pyTorchJob(QStringLiteral("eight"), 0, 8, QStringLiteral("nlp")));
        QCOMPARE(v.kind, StartVerdict::Waits);
        const StartReason *r = reason(v, QStringLiteral("fragmented"));
        QVERIFY2(r, qPrintable(codes(v)));
        QCOMPARE(r->numbers.value(QStringLiteral("freeGpus")).toInt(), 10);
        QCOMPARE(r->numbers.value(QStringLiteral("mostFreeOnANode")).toInt(), 7);
        QVERIFY2(r->message.contains(QStringLiteral("g4090-03 has 7 free")),
                 qPrintable(r->message));
        QVERIFY2(r->message.contains(QStringLiteral("user-dave/probe-0")), qPrintable(r->message));
        // A one-pod job is offered the split that fits the free cards now: not 2 × 4 (only
        // g4090-03 has 4 free), but 4 × 2 (three on g4090-03, one on g4090-01).
        QCOMPARE(r->numbers.value(QStringLiteral("suggestedPods")).toInt(), 4);
        QCOMPARE(r->numbers.value(QStringLiteral("suggestedGpusPerPod")).toInt(), 2);
        QVERIFY2(r->fix.contains(QStringLiteral("4 pods × 2 GPUs")), qPrintable(r->fix));
    }

    void gangPlacedOverNodes()
    {
        // Master 2 + worker 2 of 2 GPUs each: 7 free on 03 takes three, 2 free on 01 one.
        const StartVerdict v =
            verdictOf(pyTorchJob(QStringLiteral("gang"), 3, 2, QStringLiteral("default")));
        QCOMPARE(v.kind, StartVerdict::Starts);
        int pods = 0;
        QStringList nodes;
        for (const StartPlacement &p : v.placement) {
            pods += p.pods;
            nodes << p.node;
        }
        QCOMPARE(pods, 4);
        QVERIFY2(nodes.contains(QStringLiteral("g4090-01")), qPrintable(nodes.join(u',')));
        QVERIFY2(!nodes.contains(QStringLiteral("a800-01")), "a tainted node was used");
    }

    void queues()
    {
        QCOMPARE(verdictOf(pyTorchJob(QStringLiteral("q"), 0, 1, QStringLiteral("nope"))).kind,
                 StartVerdict::Never);
        QVERIFY(verdictOf(pyTorchJob(QStringLiteral("q"), 0, 1, QStringLiteral("nope")))
                    .has(QStringLiteral("queue-missing")));
        const StartVerdict closed =
            verdictOf(pyTorchJob(QStringLiteral("q"), 0, 1, QStringLiteral("cv")));
        QVERIFY2(closed.has(QStringLiteral("queue-closed")), qPrintable(codes(closed)));
        const StartVerdict speech =
            verdictOf(pyTorchJob(QStringLiteral("q"), 0, 1, QStringLiteral("speech")));
        const StartReason *none = reason(speech, QStringLiteral("queue-capability"));
        QVERIFY(none);
        QCOMPARE(none->numbers.value(QStringLiteral("capability")).toInt(), 0);
        // nlp holds 6 + 1 + 2 = 9 of 16: a job of 8 more waits for the queue, and says who.
        const StartVerdict full =
            verdictOf(pyTorchJob(QStringLiteral("q"), 1, 4, QStringLiteral("nlp")));
        const StartReason *r = reason(full, QStringLiteral("queue-full"));
        QVERIFY2(r, qPrintable(codes(full)));
        QCOMPARE(full.kind, StartVerdict::Waits);
        QCOMPARE(r->numbers.value(QStringLiteral("allocated")).toInt(), 9);
        QVERIFY2(r->message.contains(QStringLiteral("user-bob/llama-ft-0 (6)")),
                 qPrintable(r->message));
        // The quota (12, 2 used) is not the limit here: the queue is.
        QVERIFY(!full.has(QStringLiteral("quota-in-use")));
    }

    void quota()
    {
        const StartVerdict over =
            verdictOf(pyTorchJob(QStringLiteral("q"), 1, 8, QStringLiteral("default")));
        const StartReason *r = reason(over, QStringLiteral("quota-below-request"));
        QVERIFY2(r, qPrintable(codes(over)));
        QCOMPARE(r->numbers.value(QStringLiteral("hard")).toString(), QStringLiteral("12"));
        QCOMPARE(r->numbers.value(QStringLiteral("requested")).toString(), QStringLiteral("16"));
        // 2 used + 12 asked > 12: waits for alice's own eval-0.
        const StartVerdict inUse =
            verdictOf(pyTorchJob(QStringLiteral("q"), 1, 6, QStringLiteral("default")));
        const StartReason *u = reason(inUse, QStringLiteral("quota-in-use"));
        QVERIFY2(u, qPrintable(codes(inUse)));
        QVERIFY2(u->message.contains(QStringLiteral("user-alice/eval-0")), qPrintable(u->message));
    }

    // A quota on limits (limits.memory, limits.cpu): the job's limits against it, and a
    // container that sets none said (the LimitRange's default or a refusal decides).
    void limitsQuota()
    {
        ResourceQuotaInfo limits;
        limits.uid = limits.name = QStringLiteral("limits");
        limits.ns = QStringLiteral("user-alice");
        limits.hard = {{QStringLiteral("limits.memory"), (100ll << 30) * 1000},
                       {QStringLiteral("limits.cpu"), 32000}};
        limits.used = {{QStringLiteral("limits.memory"), (90ll << 30) * 1000},
                       {QStringLiteral("limits.cpu"), 8000}};
        ResourceQuotaInfo gpus =
            m_store->objects<ResourceQuotaInfo>(Resource::ResourceQuotas).begin()->second;
        m_store->apply(relist<ResourceQuotaInfo>(Resource::ResourceQuotas, {gpus, limits}));
        m_store->flush();
        const auto pod = [](const char *cpuLimit, const char *memoryLimit) {
            QJsonObject lim;
            if (*cpuLimit)
                lim.insert(u"cpu"_qs, QString::fromLatin1(cpuLimit));
            if (*memoryLimit)
                lim.insert(u"memory"_qs, QString::fromLatin1(memoryLimit));
            const QJsonObject c{
                {u"name"_qs, u"c"_qs},
                {u"image"_qs, u"x"_qs},
                {u"resources"_qs,
                 QJsonObject{
                     {u"requests"_qs, QJsonObject{{u"cpu"_qs, u"2"_qs}, {u"memory"_qs, u"8Gi"_qs}}},
                     {u"limits"_qs, lim}}}};
            return QJsonDocument(
                       QJsonObject{
                           {u"apiVersion"_qs, u"v1"_qs},
                           {u"kind"_qs, u"Pod"_qs},
                           {u"metadata"_qs, QJsonObject{{u"name"_qs, u"lim"_qs},
                                                        {u"namespace"_qs, u"user-alice"_qs}}},
                           {u"spec"_qs, QJsonObject{{u"containers"_qs, QJsonArray{c}}}}})
                .toJson();
        };
        // 90Gi of 100Gi in use: a 20Gi limit waits, a 200Gi one never fits, 4Gi starts.
        const StartVerdict waits = verdictOf(pod("4", "20Gi"));
        const StartReason *r = reason(waits, QStringLiteral("quota-in-use"));
        QVERIFY2(r, qPrintable(codes(waits)));
        QCOMPARE(r->field, QStringLiteral("memory"));
        QCOMPARE(r->numbers.value(QStringLiteral("resource")).toString(),
                 QStringLiteral("limits.memory"));
        QVERIFY2(r->message.contains(QStringLiteral("of its quota of 100Gi limits.memory")),
                 qPrintable(r->message));
        QCOMPARE(waits.kind, StartVerdict::Waits);
        const StartVerdict never = verdictOf(pod("4", "200Gi"));
        QVERIFY2(never.has(QStringLiteral("quota-below-request")), qPrintable(codes(never)));
        QCOMPARE(never.kind, StartVerdict::Never);
        const StartVerdict fits = verdictOf(pod("4", "4Gi"));
        QVERIFY2(!fits.has(QStringLiteral("quota-in-use")) &&
                     !fits.has(QStringLiteral("quota-limit-missing")),
                 qPrintable(codes(fits)));
        // 8 of 32 CPUs in use: 30 more is over.
        QVERIFY(verdictOf(pod("30", "4Gi")).has(QStringLiteral("quota-in-use")));
        // No limits at all: both said, as warnings.
        const StartVerdict unset = verdictOf(pod("", ""));
        int missing = 0;
        for (const StartReason &m : unset.reasons)
            if (m.code == QStringLiteral("quota-limit-missing")) {
                ++missing;
                QCOMPARE(m.severity, StartReason::Warning);
                QVERIFY2(m.message.contains(QStringLiteral("(LimitRange)")), qPrintable(m.message));
            }
        QCOMPARE(missing, 2);
    }

    void shapeAndModel()
    {
        // /dev/shm bigger than the memory limit.
        const QJsonObject shm{
            {QStringLiteral("volumes"),
             QJsonArray{QJsonObject{
                 {QStringLiteral("name"), QStringLiteral("dshm")},
                 {QStringLiteral("emptyDir"),
                  QJsonObject{{QStringLiteral("medium"), QStringLiteral("Memory")},
                              {QStringLiteral("sizeLimit"), QStringLiteral("200Gi")}}}}}}};
        QJsonObject c = container(1);
        c.insert(
            QStringLiteral("volumeMounts"),
            QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("dshm")},
                                   {QStringLiteral("mountPath"), QStringLiteral("/dev/shm")}}});
        const StartVerdict v =
            verdictOf(pyTorchJob(QStringLiteral("s"), 0, 1, QStringLiteral("nlp"), shm, c));
        QVERIFY2(v.has(QStringLiteral("shm-over-memory-limit")), qPrintable(codes(v)));
        QVERIFY(!v.has(QStringLiteral("shm-default")));
        // Without the volume: the 64 MiB warning only.
        const StartVerdict plain =
            verdictOf(pyTorchJob(QStringLiteral("s"), 0, 1, QStringLiteral("nlp")));
        QVERIFY(plain.has(QStringLiteral("shm-default")));
        QCOMPARE(plain.kind, StartVerdict::Starts);
        // A model the cluster lacks, and the A800 node's taint.
        const QJsonObject h100{
            {QStringLiteral("nodeSelector"), QJsonObject{{QStringLiteral("nvidia.com/gpu.product"),
                                                          QStringLiteral("NVIDIA H100")}}}};
        const StartVerdict unknown =
            verdictOf(pyTorchJob(QStringLiteral("m"), 0, 1, QStringLiteral("nlp"), h100));
        const StartReason *m = reason(unknown, QStringLiteral("gpu-model-unknown"));
        QVERIFY2(m, qPrintable(codes(unknown)));
        QVERIFY(m->numbers.value(QStringLiteral("models")).toStringList().contains(k4090));
        const QJsonObject a800{{QStringLiteral("nodeSelector"),
                                QJsonObject{{QStringLiteral("nvidia.com/gpu.product"),
                                             QStringLiteral("NVIDIA A800-SXM4-80GB")}}}};
        const StartVerdict tainted =
            verdictOf(pyTorchJob(QStringLiteral("m"), 0, 1, QStringLiteral("nlp"), a800));
        const StartReason *t = reason(tainted, QStringLiteral("no-node-matches"));
        QVERIFY2(t, qPrintable(codes(tainted)));
        QVERIFY2(t->message.contains(QStringLiteral("gpudesk.io/reserved=a800:NoSchedule")),
                 qPrintable(t->message));
    }

    void warnings()
    {
        const QJsonArray env{
            QJsonObject{{QStringLiteral("name"), QStringLiteral("NCCL_DEBUG")},
                        {QStringLiteral("value"), QStringLiteral("INFO")}},
            QJsonObject{{QStringLiteral("name"), QStringLiteral("CUDA_LAUNCH_BLOCKING")},
                        {QStringLiteral("value"), QStringLiteral("1")}},
            QJsonObject{{QStringLiteral("name"), QStringLiteral("PYTORCH_NO_CUDA_MEMORY_CACHING")},
                        {QStringLiteral("value"), QStringLiteral("1")}}};
        const QJsonArray command{QStringLiteral("sh"), QStringLiteral("-c"),
                                 QStringLiteral("torchrun --nnodes=$WORLD_SIZE "
                                                "--nproc_per_node=$WORLD_SIZE train.py")};
        const StartVerdict v =
            verdictOf(volcanoJob(QStringLiteral("w"), 2, container(2, env, command), true));
        for (const char *code : {"env-nccl-debug", "env-cuda-launch-blocking",
                                 "env-no-cuda-caching", "world-size-gpus", "shm-default"})
            QVERIFY2(v.has(QLatin1String(code)), qPrintable(codes(v) + u' ' + QLatin1String(code)));
        const StartReason *w = reason(v, QStringLiteral("world-size-gpus"));
        QCOMPARE(w->numbers.value(QStringLiteral("pods")).toInt(), 2);
        QCOMPARE(w->numbers.value(QStringLiteral("gpus")).toInt(), 4);
        // torchrun told of 16 processes in a pod of 2 GPUs.
        const QJsonArray sixteen{QStringLiteral("sh"), QStringLiteral("-c"),
                                 QStringLiteral("torchrun --nproc_per_node=16 train.py")};
        const StartReason *n = nullptr;
        const StartVerdict mismatch =
            verdictOf(volcanoJob(QStringLiteral("w"), 2, container(2, {}, sixteen), false));
        n = reason(mismatch, QStringLiteral("nproc-mismatch"));
        QVERIFY2(n, qPrintable(codes(mismatch)));
        QCOMPARE(n->numbers.value(QStringLiteral("processes")).toInt(), 16);
        QVERIFY(!v.has(QStringLiteral("nproc-mismatch"))); // $WORLD_SIZE is not a number
        // Warnings alone do not hold a job back.
        QCOMPARE(v.kind, StartVerdict::Starts);
        // Without the plugin, WORLD_SIZE is torchrun's own business.
        QVERIFY(!verdictOf(volcanoJob(QStringLiteral("w"), 2, container(2, env, command), false))
                     .has(QStringLiteral("world-size-gpus")));
    }

    // A node cordoned or NotReady carries Kubernetes' own taint for it: the job waits for the
    // node to return, it is not "never".
    void cordonedNodesMakeItWaitNotNever()
    {
        NodeInfo a800 = node(QStringLiteral("a800-01"), QStringLiteral("NVIDIA A800-SXM4-80GB"), 8);
        a800.taints = {QStringLiteral("gpudesk.io/reserved=a800:NoSchedule"),
                       QStringLiteral("node.kubernetes.io/unschedulable:NoSchedule")};
        a800.unschedulable = true;
        Delta d;
        d.resource = Resource::Nodes;
        d.items<NodeInfo>() = {a800};
        m_store->apply(d);
        m_store->flush();
        const QJsonObject spec{
            {QStringLiteral("nodeSelector"),
             QJsonObject{{QStringLiteral("nvidia.com/gpu.product"),
                          QStringLiteral("NVIDIA A800-SXM4-80GB")}}},
            {QStringLiteral("tolerations"),
             QJsonArray{QJsonObject{{QStringLiteral("key"), QStringLiteral("gpudesk.io/reserved")},
                                    {QStringLiteral("operator"), QStringLiteral("Equal")},
                                    {QStringLiteral("value"), QStringLiteral("a800")},
                                    {QStringLiteral("effect"), QStringLiteral("NoSchedule")}}}}};
        const StartVerdict v =
            verdictOf(pyTorchJob(QStringLiteral("c"), 0, 8, QStringLiteral("default"), spec));
        QCOMPARE(v.kind, StartVerdict::Waits);
        QVERIFY2(v.has(QStringLiteral("nodes-unavailable")), qPrintable(codes(v)));
    }

    // A gang whose pods fit the free cards only one by one: 2 × 4 with 2, 1 and 7 free — the
    // first pod takes g4090-03, the second finds no 4. Scattered, counted before placing.
    void gangOfScatteredCardsIsFragmented()
    {
        const StartVerdict v =
            verdictOf(pyTorchJob(QStringLiteral("g"), 1, 4, QStringLiteral("default")));
        QCOMPARE(v.kind, StartVerdict::Waits);
        // Master and Worker are one shape but two roles: the worker is the one left over.
        const StartReason *r = reason(v, QStringLiteral("fragmented"));
        QVERIFY2(r, qPrintable(codes(v)));
        QCOMPARE(r->numbers.value(QStringLiteral("freeGpus")).toInt(), 10);
    }

    // Why a submitted job waits: its own pending pods are not in its own way in the quota.
    void waitingJobIsNotInItsOwnWay()
    {
        PodInfo p = holder(QStringLiteral("mine-0"), QStringLiteral("user-alice"), QString(), 8,
                           QStringLiteral("nlp"));
        p.phase = p.status = QStringLiteral("Pending");
        p.owner = OwnerRef{QStringLiteral("PyTorchJob"), QStringLiteral("mine"),
                           QStringLiteral("uid-mine")};
        JobInfo j;
        j.uid = QStringLiteral("uid-mine");
        j.kind = Resource::PyTorchJobs;
        j.ns = QStringLiteral("user-alice");
        j.name = QStringLiteral("mine");
        j.vc = QStringLiteral("default");
        j.status = QStringLiteral("Pending");
        Delta pods;
        pods.resource = Resource::Pods;
        pods.items<PodInfo>() = {p};
        m_store->apply(pods);
        m_store->apply(relist<JobInfo>(Resource::PyTorchJobs, {j}));
        // The quota's status counts the pending pod: 2 + 8 of 12.
        ResourceQuotaInfo quota = *m_store->quotasIn(QStringLiteral("user-alice")).first();
        quota.used = {{QStringLiteral("requests.nvidia.com/gpu"), 10000}};
        m_store->apply(relist<ResourceQuotaInfo>(Resource::ResourceQuotas, {quota}));
        m_store->flush();
        const auto request = WaitingJob::requestOf(*m_store, QStringLiteral("uid-mine"));
        QVERIFY(request);
        QCOMPARE(request->gpus(), 8);
        const StartVerdict v =
            StartCheck::check(CapacitySnapshot::of(*m_store, *request), *request);
        QVERIFY2(!v.has(QStringLiteral("quota-in-use")), qPrintable(codes(v)));
        // 8 GPUs on one node: g4090-03 has 7 free — no node has 8.
        QVERIFY2(v.has(QStringLiteral("fragmented")), qPrintable(codes(v)));
        // Another job of 8 would wait for the quota (10 + 8 > 12).
        QVERIFY(verdictOf(pyTorchJob(QStringLiteral("other"), 0, 8, QStringLiteral("default")))
                    .has(QStringLiteral("quota-in-use")));
    }

    // The store's index of the pods holding each node's GPUs follows a pod that moves, changes
    // its request, finishes or goes, and a context switch.
    void gpuPodIndexFollowsThePods()
    {
        auto names = [this](const QString &node) {
            QStringList out;
            for (const PodInfo *p : m_store->gpuPodsOnNode(node))
                out << p->name;
            out.sort();
            return out;
        };
        QCOMPARE(names(QStringLiteral("g4090-01")), QStringList{QStringLiteral("llama-ft-0")});
        PodInfo moved = holder(QStringLiteral("llama-ft-0"), QStringLiteral("user-bob"),
                               QStringLiteral("g4090-03"), 2, QStringLiteral("nlp"));
        Delta d;
        d.resource = Resource::Pods;
        d.items<PodInfo>() = {moved};
        m_store->apply(d);
        m_store->flush();
        QVERIFY(names(QStringLiteral("g4090-01")).isEmpty());
        QCOMPARE(names(QStringLiteral("g4090-03")),
                 (QStringList{QStringLiteral("llama-ft-0"), QStringLiteral("probe-0")}));
        moved.gpuRequest = 0; // no longer holds a card
        d.items<PodInfo>() = {moved};
        m_store->apply(d);
        PodInfo done = holder(QStringLiteral("probe-0"), QStringLiteral("user-dave"),
                              QStringLiteral("g4090-03"), 1, QStringLiteral("nlp"));
        done.phase = QStringLiteral("Succeeded");
        d.items<PodInfo>() = {done};
        m_store->apply(d);
        m_store->flush();
        QVERIFY(names(QStringLiteral("g4090-03")).isEmpty());
        QCOMPARE(names(QStringLiteral("g4090-02")), QStringList{QStringLiteral("sd-xl-0")});
        m_store->clear();
        QVERIFY(names(QStringLiteral("g4090-02")).isEmpty());
    }

    void notAJob_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("error");
        QTest::newRow("not json") << QByteArray("{\"kind\": ") << QStringLiteral("not JSON");
        QTest::newRow("array") << QByteArray("[1]") << QStringLiteral("not a JSON or YAML object");
        QTest::newRow("deployment")
            << QByteArray(R"({"apiVersion":"apps/v1","kind":"Deployment","spec":{}})")
            << QStringLiteral("Deployment (apps/v1) is not a job gpudesk submits");
        QTest::newRow("no tasks")
            << QByteArray(R"({"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job","spec":{}})")
            << QStringLiteral("has no pods to run");
        QTest::newRow("deep") << QByteArray(20000, '[') << QStringLiteral("nested deeper");
        QTest::newRow("replicas")
            << QByteArray(
                   R"({"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job","spec":{"tasks":)"
                   R"([{"name":"w","replicas":99999999999,"template":{"spec":{}}}]}})")
            << QStringLiteral("is not a job a cluster runs");
        QTest::newRow("no pods")
            << QByteArray(
                   R"({"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job","spec":{"tasks":)"
                   R"([{"name":"w","replicas":0,"template":{"spec":{}}}]}})")
            << QStringLiteral("has no pods to run");
    }
    void notAJob()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, error);
        JobRequest job;
        QString why;
        QVERIFY(!JobRequestDecoder::decode(json, &job, &why));
        QVERIFY2(why.contains(error), qPrintable(why));
    }

    // The images in their registries (ImageCheck), as the registry answered: a tag it does not
    // have never starts (every pod would sit in ImagePullBackOff), refused credentials and an
    // unreachable registry are said without deciding, a found image is told with its size.
    void imagesInTheirRegistries()
    {
        JobRequest job;
        JobRole master;
        master.image = u"registry.lab:5000/ai/pytorch:2.1"_qs;
        JobRole worker = master;
        JobRole sidecar;
        sidecar.image = u" registry.lab:5000/tools/log:1 "_qs;
        job.roles = {master, worker, sidecar, JobRole{}};
        QCOMPARE(ImageCheck::imagesOf(job), QStringList({u"registry.lab:5000/ai/pytorch:2.1"_qs,
                                                         u"registry.lab:5000/tools/log:1"_qs}));
        ImageLook look;
        look.reference = u"registry.lab:5000/ai/pytorch:2.1"_qs;
        look.httpStatus = 200;
        look.bytes = 3ll << 30;
        StartReason r = ImageCheck::judge(look, 20ll << 30);
        QCOMPARE(r.code, u"image-found"_qs);
        QCOMPARE(r.severity, StartReason::Info);
        QCOMPARE(r.message,
                 u"registry.lab:5000/ai/pytorch:2.1 is in registry.lab:5000 (3Gi to pull)."_qs);
        r = ImageCheck::judge(look, 2ll << 30);
        QCOMPARE(r.code, u"image-huge"_qs);
        QCOMPARE(r.severity, StartReason::Warning);
        QVERIFY2(r.message.contains(u"is 3Gi"_qs), qPrintable(r.message));
        QCOMPARE(ImageCheck::judge(look, 0).code, u"image-found"_qs); // no limit set

        look.bytes = -1;
        look.httpStatus = 404;
        look.errorCode = u"MANIFEST_UNKNOWN"_qs;
        look.error = u"manifest unknown"_qs;
        r = ImageCheck::judge(look, 0);
        QCOMPARE(r.code, u"image-missing"_qs);
        QCOMPARE(r.severity, StartReason::Never);
        QCOMPARE(r.field, u"image"_qs);
        QCOMPARE(r.message, u"registry.lab:5000 has no ai/pytorch:2.1: every pod would stay in "
                            "ImagePullBackOff."_qs);
        look.httpStatus = 404;
        look.errorCode = u"NAME_UNKNOWN"_qs; // the repository itself
        QCOMPARE(ImageCheck::judge(look, 0).code, u"image-missing"_qs);
        look.httpStatus = 401;
        look.errorCode = u"UNAUTHORIZED"_qs;
        look.error = u"authentication required"_qs;
        r = ImageCheck::judge(look, 0);
        QCOMPARE(r.code, u"image-refused"_qs);
        QCOMPARE(r.severity, StartReason::Warning);
        look.httpStatus = 0;
        look.errorCode.clear();
        look.connectionFailed = true;
        look.error = u"No host registry.lab: the name does not resolve"_qs;
        r = ImageCheck::judge(look, 0);
        QCOMPARE(r.code, u"image-unchecked"_qs);
        QCOMPARE(r.severity, StartReason::Info);
        QVERIFY(r.message.endsWith(look.error));

        // Added after the check: a Never makes the verdict Never and places nothing; the
        // weightiest reason first.
        StartVerdict v;
        v.placement = {StartPlacement{u"worker"_qs, u"g4090-03"_qs, 1, 1, 7, 6}};
        v.reasons = {ImageCheck::judge(look, 0)};
        look.httpStatus = 404;
        look.errorCode = u"MANIFEST_UNKNOWN"_qs;
        v.add({ImageCheck::judge(look, 0)});
        QCOMPARE(v.kind, StartVerdict::Never);
        QVERIFY(v.placement.isEmpty());
        QCOMPARE(v.reasons.first().code, u"image-missing"_qs);
        QVERIFY(v.summary().contains(u"ImagePullBackOff"_qs));
    }
};

QTEST_GUILESS_MAIN(TestStartCheck)
#include "tst_startcheck.moc"
