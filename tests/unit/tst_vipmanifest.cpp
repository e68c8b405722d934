// SPDX-License-Identifier: GPL-3.0-or-later
// A job made a VIP job (VipJob::manifest): for every kind the form makes, each pod that asks for
// GPUs pinned to the machines, tolerating their reservation and at the class given — the MPI
// launcher (CPU only) left to go anywhere —; made twice, the same; a job that asks for no GPU,
// or is no job, refused. The reservation's taint read back into the job it names.
#include "jobmanifest.h"
#include "vipjob.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace gpudesk;

class TestVipManifest : public QObject
{
    Q_OBJECT
private slots:
    void everyKind_data();
    void everyKind();
    void refused();
    void namespaceFromTheForm();
    void reservationTaint();
};

namespace {

// Every pod spec of the job with whether it asks for GPUs.
QList<std::pair<QJsonObject, bool>> podSpecs(const QJsonObject &job)
{
    QList<QJsonObject> specs;
    const QJsonObject spec = job[u"spec"].toObject();
    const QString kind = job[u"kind"].toString();
    if (kind == u"Pod")
        specs << spec;
    for (const QJsonValue &t : spec[u"tasks"].toArray())
        specs << t[u"template"][u"spec"].toObject();
    for (const char *key : {"pytorchReplicaSpecs", "mpiReplicaSpecs"})
        for (const QJsonValue &r : spec[QLatin1String(key)].toObject())
            specs << r[u"template"][u"spec"].toObject();
    QList<std::pair<QJsonObject, bool>> out;
    for (const QJsonObject &s : specs) {
        const QJsonObject limits = s[u"containers"][0][u"resources"][u"limits"].toObject();
        out.append({s, limits.contains(u"nvidia.com/gpu")});
    }
    return out;
}

} // namespace

void TestVipManifest::everyKind_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("pinnedPods"); // pod specs pinned
    QTest::addColumn<int>("freePods");   // pod specs left free (the MPI launcher)
    QTest::addRow("PyTorchJob") << int(JobSpec::PyTorch) << 2 << 0;
    QTest::addRow("MPIJob") << int(JobSpec::Mpi) << 1 << 1;
    QTest::addRow("Volcano Job") << int(JobSpec::Volcano) << 2 << 0;
    QTest::addRow("one pod") << int(JobSpec::SinglePod) << 1 << 0;
}

void TestVipManifest::everyKind()
{
    QFETCH(int, kind);
    QFETCH(int, pinnedPods);
    QFETCH(int, freePods);
    JobSpec s;
    s.kind = JobSpec::Kind(kind);
    s.name = QStringLiteral("vip-run");
    s.ns = QStringLiteral("user-frank");
    s.image = QStringLiteral("registry.lab/train:1");
    s.command = QStringLiteral("python train.py");
    s.gpusPerNode = 8;
    s.nodes = kind == JobSpec::SinglePod ? 1 : 2;
    s.priorityClass = QStringLiteral("high-priority");
    s.pinnedNodes = {QStringLiteral("g4090-09")}; // replaced by the machines chosen
    QString error;
    const QStringList machines{QStringLiteral("g4090-03"), QStringLiteral("g4090-04")};
    const QByteArray vip =
        VipJob::manifest(JobManifest::of(s), machines, QStringLiteral("vip"), &error);
    QVERIFY2(!vip.isEmpty(), qPrintable(error));
    const QJsonObject job = QJsonDocument::fromJson(vip).object();
    int pinned = 0;
    int free = 0;
    for (const auto &[spec, gpus] : podSpecs(job)) {
        const QJsonArray terms =
            spec[u"affinity"][u"nodeAffinity"][u"requiredDuringSchedulingIgnoredDuringExecution"]
                [u"nodeSelectorTerms"]
                    .toArray();
        if (!gpus) {
            QVERIFY(terms.isEmpty());
            QVERIFY(!spec.contains(u"tolerations"));
            ++free;
            continue;
        }
        ++pinned;
        QCOMPARE(terms.size(), 1);
        const QJsonObject req = terms[0][u"matchExpressions"][0].toObject();
        QCOMPARE(req[u"key"].toString(), u"kubernetes.io/hostname"_qs);
        QCOMPARE(req[u"operator"].toString(), u"In"_qs);
        QCOMPARE(req[u"values"].toArray(), QJsonArray({u"g4090-03"_qs, u"g4090-04"_qs}));
        QCOMPARE(spec[u"priorityClassName"].toString(), u"vip"_qs);
        const QJsonArray tolerations = spec[u"tolerations"].toArray();
        QCOMPARE(tolerations.size(), 1);
        QCOMPARE(tolerations[0].toObject(),
                 QJsonObject({{u"key"_qs, u"vip.gpudesk.io/user-frank"_qs},
                              {u"operator"_qs, u"Equal"_qs},
                              {u"value"_qs, u"vip-run"_qs},
                              {u"effect"_qs, u"NoSchedule"_qs}}));
    }
    QCOMPARE(pinned, pinnedPods);
    QCOMPARE(free, freePods);
    // The job's own level says the class too, where its kind has one.
    const QJsonObject spec = job[u"spec"].toObject();
    if (kind == JobSpec::Volcano)
        QCOMPARE(spec[u"priorityClassName"].toString(), u"vip"_qs);
    if (kind == JobSpec::PyTorch || kind == JobSpec::Mpi)
        QCOMPARE(spec[u"runPolicy"][u"schedulingPolicy"][u"priorityClass"].toString(), u"vip"_qs);
    // Made again from what it made (the YAML tab edited): the same job.
    QCOMPARE(VipJob::manifest(vip, machines, QStringLiteral("vip"), &error), vip);
    // No class given: the job keeps its own.
    const QJsonObject own =
        QJsonDocument::fromJson(VipJob::manifest(JobManifest::of(s), machines, QString(), &error))
            .object();
    for (const auto &[podSpec, gpus] : podSpecs(own))
        if (gpus)
            QCOMPARE(podSpec[u"priorityClassName"].toString(), u"high-priority"_qs);
}

void TestVipManifest::refused()
{
    JobSpec s;
    s.kind = JobSpec::PyTorch;
    s.name = QStringLiteral("cpu-only");
    s.ns = QStringLiteral("user-frank");
    s.image = QStringLiteral("img");
    s.command = QStringLiteral("true");
    s.gpusPerNode = 0;
    QString error;
    QVERIFY(VipJob::manifest(JobManifest::of(s), {u"g4090-03"_qs}, u"vip"_qs, &error).isEmpty());
    QVERIFY2(error.contains(u"asks for no GPU"), qPrintable(error));
    error.clear();
    QVERIFY(VipJob::manifest(R"({"apiVersion":"apps/v1","kind":"Deployment",
                                 "metadata":{"name":"x"},"spec":{}})",
                             {u"g4090-03"_qs}, u"vip"_qs, &error)
                .isEmpty());
    QVERIFY2(error.contains(u"Deployment"), qPrintable(error));
    error.clear();
    QVERIFY(VipJob::manifest("[1, 2]", {u"g4090-03"_qs}, u"vip"_qs, &error).isEmpty());
    QVERIFY(!error.isEmpty());
    // What the YAML tab may hold while it is typed: said, never a crash.
    error.clear();
    QVERIFY(VipJob::manifest(R"({"kind":"Pod","metadata":{"name":2024},"spec":{}})",
                             {u"g4090-03"_qs}, u"vip"_qs, &error)
                .isEmpty());
    QVERIFY2(error.contains(u"no name"), qPrintable(error));
    error.clear();
    QVERIFY(VipJob::manifest(R"({"kind":"Pod","metadata":{"name":"x","namespace":"n"},
                                 "spec":{"affinity":"","containers":[{"resources":
                                 {"limits":{"nvidia.com/gpu":"1"}}}]}})",
                             {u"g4090-03"_qs}, u"vip"_qs, &error)
                .isEmpty());
    QVERIFY2(error.contains(u"wrong type"), qPrintable(error));
    error.clear();
    QVERIFY(VipJob::manifest(R"({"kind":"PyTorchJob","metadata":{"name":"x","namespace":"n"},
                                 "spec":{"runPolicy":7,"pytorchReplicaSpecs":{"Master":
                                 {"template":{"spec":{"containers":[{"resources":
                                 {"limits":{"nvidia.com/gpu":"1"}}}]}}}}}})",
                             {u"g4090-03"_qs}, u"vip"_qs, &error)
                .isEmpty());
    QVERIFY2(error.contains(u"wrong type"), qPrintable(error));
}

void TestVipManifest::namespaceFromTheForm()
{
    // A job that names no namespace goes to the form's: the reservation's key names it.
    QString error;
    const QByteArray vip = VipJob::manifest(
        R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"solo"},"spec":{"containers":
            [{"name":"c","image":"i","resources":{"limits":{"nvidia.com/gpu":"2"}}}]}})",
        {u"g4090-03"_qs}, u"vip"_qs, &error, u"user-frank"_qs);
    QVERIFY2(!vip.isEmpty(), qPrintable(error));
    const QJsonObject pod = QJsonDocument::fromJson(vip).object();
    QCOMPARE(pod[u"metadata"][u"namespace"].toString(), u"user-frank"_qs);
    QCOMPARE(pod[u"spec"][u"tolerations"][0][u"key"].toString(), u"vip.gpudesk.io/user-frank"_qs);
    error.clear();
    QVERIFY(VipJob::manifest(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"solo"},
                                 "spec":{"containers":[{"resources":{"limits":
                                 {"nvidia.com/gpu":"2"}}}]}})",
                             {u"g4090-03"_qs}, u"vip"_qs, &error)
                .isEmpty());
    QVERIFY2(error.contains(u"no namespace"), qPrintable(error));
}

void TestVipManifest::reservationTaint()
{
    QCOMPARE(VipJob::reservationKey(u"user-frank"_qs), u"vip.gpudesk.io/user-frank"_qs);
    QCOMPARE(VipJob::reservedFor(u"vip.gpudesk.io/user-frank=vip-run:NoSchedule"_qs),
             u"user-frank/vip-run"_qs);
    QCOMPARE(VipJob::reservedFor(u"gpudesk.io/reserved=a800:NoSchedule"_qs), QString());
    QCOMPARE(VipJob::reservedFor(u"node.kubernetes.io/unschedulable:NoSchedule"_qs), QString());
    // A label value: 63 characters at most, ending in a letter or digit.
    const QString value = VipJob::reservationValue(QString(62, u'a') + u"-b");
    QCOMPARE(value, QString(62, u'a'));
}

QTEST_GUILESS_MAIN(TestVipManifest)
#include "tst_vipmanifest.moc"
