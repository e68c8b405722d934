// SPDX-License-Identifier: GPL-3.0-or-later
// The submit check reads the namespace's LimitRanges as the API server applies them: defaults
// filled into containers that name no request or limit (then counted in the fit and the quota),
// the bounds a container or a pod may not pass, and a request left above its defaulted limit.
// On the small cluster of startcheckcluster.h, jobs read by the decoder the check uses.
#include "limitranger.h"
#include "startcheckcluster.h"

#include <QTest>

using namespace gpudesk;
using namespace gpudesk::startcheckcluster;

namespace {

constexpr qint64 Gi = 1LL << 30;

// The ranges a lab gives its users' namespaces (as the simulator's user namespaces have them).
LimitRangeInfo defaults()
{
    LimitRangeInfo lr;
    lr.uid = lr.name = QStringLiteral("gpudesk-defaults");
    lr.ns = QStringLiteral("user-alice");
    lr.defaultRequest = {{QStringLiteral("cpu"), 1000}, {QStringLiteral("memory"), 4 * Gi * 1000}};
    lr.defaultLimit = {{QStringLiteral("memory"), 16 * Gi * 1000}};
    return lr;
}

// A container as a user writes it: only what is given.
QJsonObject written(const QJsonObject &requests, const QJsonObject &limits)
{
    QJsonObject resources;
    if (!requests.isEmpty())
        resources.insert(QStringLiteral("requests"), requests);
    if (!limits.isEmpty())
        resources.insert(QStringLiteral("limits"), limits);
    return QJsonObject{{QStringLiteral("name"), QStringLiteral("pytorch")},
                       {QStringLiteral("image"), QStringLiteral("registry.lab/train:1")},
                       {QStringLiteral("resources"), resources}};
}

QByteArray barePod(const QJsonObject &c)
{
    return QJsonDocument(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                                     {QStringLiteral("kind"), QStringLiteral("Pod")},
                                     {QStringLiteral("metadata"),
                                      QJsonObject{{QStringLiteral("name"), QStringLiteral("p")},
                                                  {QStringLiteral("namespace"),
                                                   QStringLiteral("user-alice")}}},
                                     {QStringLiteral("spec"), podSpec(c)}})
        .toJson();
}

} // namespace

class TestLimitRanges : public QObject, public ClusterFixture
{
    Q_OBJECT

private slots:
    void init() { makeStore(); }

    void withoutRangesNothingChanges()
    {
        const StartVerdict v =
            verdictOf(pyTorchJob(QStringLiteral("j"), 1, 2, QStringLiteral("nlp")));
        QVERIFY2(!v.has(QStringLiteral("limitrange-default")), qPrintable(codes(v)));
        QCOMPARE(v.kind, StartVerdict::Starts);
    }

    // 64 GiB asked, no limit written: the namespace's 16 GiB default limit is put under it, and
    // the pod is invalid. As a PyTorchJob the job is accepted and its pods are not.
    void requestOverDefaultedLimit()
    {
        setRanges({defaults()});
        const QJsonObject asks{{QStringLiteral("cpu"), QStringLiteral("8")},
                               {QStringLiteral("memory"), QStringLiteral("64Gi")}};
        const QJsonObject gpus{{QStringLiteral("nvidia.com/gpu"), QStringLiteral("2")}};
        StartVerdict v = verdictOf(pyTorchJob(QStringLiteral("big"), 1, 2, QStringLiteral("nlp"),
                                              {}, written(asks, gpus)));
        QCOMPARE(v.kind, StartVerdict::Never);
        const StartReason *r = reason(v, QStringLiteral("request-over-limit"));
        QVERIFY2(r, qPrintable(codes(v)));
        QCOMPARE(r->field, QStringLiteral("memory"));
        QVERIFY2(r->message.contains(u"must be less than or equal to memory limit of 16Gi"),
                 qPrintable(r->message));
        QVERIFY2(r->message.contains(u"spec.containers[0].resources.requests"),
                 qPrintable(r->message));
        QVERIFY2(r->message.contains(u"its controller makes"), qPrintable(r->message));
        QCOMPARE(r->numbers.value(QStringLiteral("limit")).toString(), QStringLiteral("16Gi"));
        QVERIFY(r->fix.contains(u"memory limit of at least 64Gi"));
        // What was filled in is said too: the limit it got.
        const StartReason *filled = reason(v, QStringLiteral("limitrange-default"));
        QVERIFY2(filled, qPrintable(codes(v)));
        QVERIFY2(filled->message.contains(u"memory limit 16Gi for pytorch (LimitRange "
                                          u"gpudesk-defaults)"),
                 qPrintable(filled->message));

        // A limit written: nothing refused, nothing filled for memory.
        QJsonObject limits = gpus;
        limits.insert(QStringLiteral("memory"), QStringLiteral("64Gi"));
        v = verdictOf(pyTorchJob(QStringLiteral("big"), 1, 2, QStringLiteral("nlp"), {},
                                 written(asks, limits)));
        QVERIFY2(!v.has(QStringLiteral("request-over-limit")), qPrintable(codes(v)));
        QVERIFY2(!v.has(QStringLiteral("limitrange-default")), qPrintable(codes(v)));
        QCOMPARE(v.kind, StartVerdict::Starts);

        // A bare pod is refused when it is created.
        v = verdictOf(barePod(written(asks, gpus)));
        r = reason(v, QStringLiteral("request-over-limit"));
        QVERIFY2(r, qPrintable(codes(v)));
        QVERIFY2(r->message.contains(u"the API server refuses the pod"), qPrintable(r->message));
    }

    // The defaults are what the rest of the check counts: a container that names no CPU is
    // given 1 core; a quota on limits.memory is met by the default limit, one on limits.cpu is
    // not (the range gives no CPU limit).
    void defaultsCountInTheCheck()
    {
        setRanges({defaults()});
        JobRequest job;
        QString error;
        QVERIFY(JobRequestDecoder::decode(
            barePod(written({}, {{QStringLiteral("nvidia.com/gpu"), QStringLiteral("1")}})), &job,
            &error));
        QCOMPARE(job.roles.first().cpuMilli, 0);
        const QList<StartReason> said = LimitRanger::admit(&job, {defaults()});
        QCOMPARE(said.size(), 1);
        QCOMPARE(said.first().code, QStringLiteral("limitrange-default"));
        QCOMPARE(job.roles.first().cpuMilli, 1000);
        QCOMPARE(job.roles.first().memoryBytes, 4 * Gi);
        QCOMPARE(job.roles.first().memoryLimitBytes, 16 * Gi);
        QVERIFY(job.roles.first().memoryLimitEverywhere);
        QVERIFY(!job.roles.first().cpuLimitEverywhere);
        QCOMPARE(job.roles.first().gpus, 1);

        ResourceQuotaInfo quota;
        quota.uid = quota.name = QStringLiteral("limits");
        quota.ns = QStringLiteral("user-alice");
        quota.hard = {{QStringLiteral("limits.memory"), 500 * Gi * 1000},
                      {QStringLiteral("limits.cpu"), 100000}};
        m_store->apply(relist<ResourceQuotaInfo>(Resource::ResourceQuotas, {quota}));
        m_store->flush();
        const StartVerdict v = verdictOf(
            barePod(written({}, {{QStringLiteral("nvidia.com/gpu"), QStringLiteral("1")}})));
        QStringList missing;
        for (const StartReason &r : v.reasons)
            if (r.code == QLatin1String("quota-limit-missing"))
                missing << r.numbers.value(QStringLiteral("resource")).toString();
        QCOMPARE(missing, QStringList{QStringLiteral("limits.cpu")});
    }

    // The bounds, in the LimitRanger's words: a container's max (over it, or no limit at all),
    // its min, and a pod's max over its containers' sum.
    void boundsRefuse()
    {
        LimitRangeInfo lr;
        lr.uid = lr.name = QStringLiteral("bounds");
        lr.ns = QStringLiteral("user-alice");
        lr.max = {{QStringLiteral("cpu"), 8000}};
        lr.min = {{QStringLiteral("memory"), 1 * Gi * 1000}};
        lr.podMax = {{QStringLiteral("nvidia.com/gpu"), 4000},
                     {QStringLiteral("memory"), 100 * Gi * 1000}};
        // As the server stores it: the maximum is the default limit, the default limit and the
        // minimum the default request.
        lr.defaultLimit = {{QStringLiteral("cpu"), 8000}};
        lr.defaultRequest = {{QStringLiteral("cpu"), 8000},
                             {QStringLiteral("memory"), 1 * Gi * 1000}};
        setRanges({lr});
        const QJsonObject gpus{{QStringLiteral("nvidia.com/gpu"), QStringLiteral("2")},
                               {QStringLiteral("cpu"), QStringLiteral("16")},
                               {QStringLiteral("memory"), QStringLiteral("32Gi")}};
        StartVerdict v = verdictOf(
            pyTorchJob(QStringLiteral("b"), 1, 2, QStringLiteral("nlp"), {}, written({}, gpus)));
        const StartReason *r = reason(v, QStringLiteral("limitrange-refused"));
        QVERIFY2(r, qPrintable(codes(v)));
        QCOMPARE(v.kind, StartVerdict::Never);
        QCOMPARE(r->field, QStringLiteral("cpu"));
        QVERIFY2(r->message.contains(u"maximum cpu usage per Container is 8, but limit is 16"),
                 qPrintable(r->message));

        QJsonObject noCpu = gpus;
        noCpu.remove(QStringLiteral("cpu"));
        v = verdictOf(
            pyTorchJob(QStringLiteral("b"), 1, 2, QStringLiteral("nlp"), {},
                       written({{QStringLiteral("memory"), QStringLiteral("512Mi")}}, noCpu)));
        r = reason(v, QStringLiteral("limitrange-refused"));
        QVERIFY2(r, qPrintable(codes(v)));
        // No CPU limit written: the range's default (its maximum) is given, and is within it.
        QVERIFY2(!r->message.contains(u"cpu"), qPrintable(r->message));
        QVERIFY2(r->message.contains(u"minimum memory usage per Container is 1Gi, but request "
                                     u"is 512Mi"),
                 qPrintable(r->message));
        QCOMPARE(r->field, QStringLiteral("memory"));

        // Two containers of 3 GPUs each: 6 in the pod, over its 4.
        QJsonObject six{{QStringLiteral("nvidia.com/gpu"), QStringLiteral("3")},
                        {QStringLiteral("cpu"), QStringLiteral("4")},
                        {QStringLiteral("memory"), QStringLiteral("8Gi")}};
        // The sidecar writes no memory limit (and the range gives none).
        QJsonObject sidecarLimits = six;
        sidecarLimits.remove(QStringLiteral("memory"));
        QJsonObject second =
            written({{QStringLiteral("memory"), QStringLiteral("1Gi")}}, sidecarLimits);
        second.insert(QStringLiteral("name"), QStringLiteral("sidecar"));
        QJsonObject spec{{QStringLiteral("containers"), QJsonArray{written({}, six), second}}};
        const QByteArray pod =
            QJsonDocument(QJsonObject{{QStringLiteral("apiVersion"), QStringLiteral("v1")},
                                      {QStringLiteral("kind"), QStringLiteral("Pod")},
                                      {QStringLiteral("metadata"),
                                       QJsonObject{{QStringLiteral("name"), u"two"_qs},
                                                   {QStringLiteral("namespace"),
                                                    QStringLiteral("user-alice")}}},
                                      {QStringLiteral("spec"), spec}})
                .toJson();
        v = verdictOf(pod);
        r = reason(v, QStringLiteral("limitrange-refused"));
        QVERIFY2(r, qPrintable(codes(v)));
        QVERIFY2(r->message.contains(u"maximum nvidia.com/gpu usage per Pod is 4, but limit is 6"),
                 qPrintable(r->message));
        QVERIFY2(r->message.contains(u"the API server refuses the pod"), qPrintable(r->message));
        // A pod's sum is what the containers that set it give: the sidecar without a memory
        // limit leaves the pod's 8Gi, within 100Gi; none setting one is "not specified".
        QVERIFY2(!r->message.contains(u"memory"), qPrintable(r->message));
        QJsonArray bare;
        for (const QJsonValue &c : spec[u"containers"_qs].toArray()) {
            QJsonObject o = c.toObject();
            QJsonObject res = o[u"resources"_qs].toObject();
            QJsonObject limits = res[u"limits"_qs].toObject();
            limits.remove(u"memory"_qs);
            limits[u"nvidia.com/gpu"_qs] = u"1"_qs;
            res[u"limits"_qs] = limits;
            res[u"requests"_qs] = QJsonObject{{u"memory"_qs, u"8Gi"_qs}};
            o[u"resources"_qs] = res;
            bare.append(o);
        }
        spec[u"containers"_qs] = bare;
        QJsonObject unlimited = QJsonDocument::fromJson(pod).object();
        unlimited[u"spec"_qs] = spec;
        v = verdictOf(QJsonDocument(unlimited).toJson());
        r = reason(v, QStringLiteral("limitrange-refused"));
        QVERIFY2(r, qPrintable(codes(v)));
        QVERIFY2(r->message.contains(u"maximum memory usage per Pod is 100Gi.  No limit is "
                                     u"specified"),
                 qPrintable(r->message));
        QVERIFY2(!r->message.contains(u"nvidia.com/gpu"), qPrintable(r->message));
    }

    // Without any range the pod's validation still holds: a request written above the limit
    // written is invalid, said as the user's own limit, not a default.
    void requestOverWrittenLimit()
    {
        const StartVerdict v = verdictOf(
            pyTorchJob(QStringLiteral("w"), 1, 2, QStringLiteral("nlp"), {},
                       written({{QStringLiteral("memory"), QStringLiteral("64Gi")}},
                               {{QStringLiteral("memory"), QStringLiteral("16Gi")},
                                {QStringLiteral("nvidia.com/gpu"), QStringLiteral("2")}})));
        const StartReason *r = reason(v, QStringLiteral("request-over-limit"));
        QVERIFY2(r, qPrintable(codes(v)));
        QVERIFY2(r->message.contains(u"above its limit of 16Gi"), qPrintable(r->message));
        QVERIFY2(!r->message.contains(u"default"), qPrintable(r->message));
        QCOMPARE(v.kind, StartVerdict::Never);
        QVERIFY(!v.has(QStringLiteral("limitrange-default")));
    }

    // A Memory /dev/shm without a sizeLimit is bounded by the limit the range gives.
    void shmFollowsTheDefaultedLimit()
    {
        JobRequest job;
        QString error;
        QJsonObject c = written({{QStringLiteral("memory"), QStringLiteral("8Gi")}},
                                {{QStringLiteral("nvidia.com/gpu"), QStringLiteral("1")}});
        c.insert(
            QStringLiteral("volumeMounts"),
            QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("shm")},
                                   {QStringLiteral("mountPath"), QStringLiteral("/dev/shm")}}});
        const QJsonObject extra{
            {QStringLiteral("volumes"),
             QJsonArray{QJsonObject{
                 {QStringLiteral("name"), QStringLiteral("shm")},
                 {QStringLiteral("emptyDir"),
                  QJsonObject{{QStringLiteral("medium"), QStringLiteral("Memory")}}}}}}};
        QJsonObject pod = QJsonDocument::fromJson(barePod(c)).object();
        QJsonObject spec = podSpec(c, extra);
        pod.insert(QStringLiteral("spec"), spec);
        QVERIFY(JobRequestDecoder::decode(QJsonDocument(pod).toJson(), &job, &error));
        QCOMPARE(job.roles.first().shmBytes, 0); // no limit written: unbounded as read
        LimitRanger::admit(&job, {defaults()});
        QCOMPARE(job.roles.first().shmBytes, 16 * Gi);
    }

    // Ranges the account may not read are not taken for none: the check says so, with the
    // server's words and who to ask.
    void unreadableRangesSaid()
    {
        const QByteArray json =
            barePod(written({{QStringLiteral("memory"), QStringLiteral("64Gi")}},
                            {{QStringLiteral("nvidia.com/gpu"), QStringLiteral("1")}}));
        JobRequest job;
        QString error;
        QVERIFY(JobRequestDecoder::decode(json, &job, &error));
        CapacitySnapshot cluster = CapacitySnapshot::of(*m_store, job);
        StartVerdict v = StartCheck::check(cluster, job);
        QVERIFY2(!v.has(QStringLiteral("limitranges-unknown")), qPrintable(codes(v)));
        cluster.limitRangesUnreadable =
            QStringLiteral("limitranges is forbidden: User \"alice\" cannot list resource");
        v = StartCheck::check(cluster, job);
        const StartReason *r = reason(v, QStringLiteral("limitranges-unknown"));
        QVERIFY2(r, qPrintable(codes(v)));
        QCOMPARE(r->severity, StartReason::Info);
        QVERIFY2(r->message.contains(u"(limitranges is forbidden: User \"alice\""),
                 qPrintable(r->message));
        QVERIFY2(r->fix.contains(u"list on limitranges in user-alice"), qPrintable(r->fix));
    }

private:
    void setRanges(const QList<LimitRangeInfo> &ranges)
    {
        m_store->apply(relist<LimitRangeInfo>(Resource::LimitRanges, ranges));
        m_store->flush();
    }
};

QTEST_GUILESS_MAIN(TestLimitRanges)
#include "tst_limitranges.moc"
