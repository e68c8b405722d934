// SPDX-License-Identifier: GPL-3.0-or-later
// The form's job as the object its kind wants (JobManifest), read back by the decoder the submit
// check uses: each kind's pods, GPUs, /dev/shm, variables, data, queue and pins survive the trip,
// so what the form shows checked is what is submitted.
#include "imagecheck.h"
#include "jobmanifest.h"
#include "jobrequestdecoder.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace gpudesk;

class TestJobManifest : public QObject
{
    Q_OBJECT

private:
    static JobSpec spec(JobSpec::Kind kind)
    {
        JobSpec s;
        s.kind = kind;
        s.name = QStringLiteral("llm");
        s.ns = QStringLiteral("user-alice");
        s.image = QStringLiteral("registry.lab/train:1");
        s.command = QStringLiteral("torchrun train.py");
        s.gpusPerNode = 8;
        s.gpuModel = QStringLiteral("NVIDIA H100 80GB HBM3");
        s.nodes = 3;
        s.queue = QStringLiteral("nlp");
        s.env = {{QStringLiteral("NCCL_DEBUG"), QStringLiteral("WARN")}};
        s.mounts = {QStringLiteral("/mnt/user/alice"), QStringLiteral("ckpt:/ckpt")};
        s.pinnedNodes = {QStringLiteral("h100-01"), QStringLiteral("h100-02")};
        s.hoursLimit = 2;
        return s;
    }

private slots:
    void roundTrip_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("resource");
        QTest::addColumn<int>("pods");
        QTest::addColumn<int>("gpus");
        QTest::newRow("PyTorchJob")
            << int(JobSpec::PyTorch) << QStringLiteral("PyTorchJob") << 3 << 24;
        // The launcher holds no GPU; three workers hold 8 each.
        QTest::newRow("MPIJob") << int(JobSpec::Mpi) << QStringLiteral("MPIJob") << 4 << 24;
        QTest::newRow("Volcano Job") << int(JobSpec::Volcano) << QStringLiteral("Job") << 3 << 24;
        QTest::newRow("Pod") << int(JobSpec::SinglePod) << QStringLiteral("Pod") << 1 << 8;
    }
    void roundTrip()
    {
        QFETCH(int, kind);
        QFETCH(QString, resource);
        QFETCH(int, pods);
        QFETCH(int, gpus);
        const JobSpec s = spec(JobSpec::Kind(kind));
        const QByteArray json = JobManifest::of(s);
        const QJsonObject o = QJsonDocument::fromJson(json).object();
        QCOMPARE(o.value(u"kind").toString(), resource);
        JobRequest r;
        QString error;
        QVERIFY2(JobRequestDecoder::decode(json, &r, &error), qPrintable(error));
        QCOMPARE(r.name, s.name);
        QCOMPARE(r.ns, s.ns);
        QCOMPARE(r.pods(), pods);
        QCOMPARE(r.gpus(), gpus);
        if (s.kind != JobSpec::SinglePod)
            QCOMPARE(r.minAvailable, pods);
        QCOMPARE(r.queue, s.queue);
        for (const JobRole &role : r.roles) {
            if (role.gpus == 0) { // the MPI launcher: small, no GPU, no /dev/shm
                QCOMPARE(role.name, QStringLiteral("Launcher"));
                QCOMPARE(role.shmBytes, -1);
                continue;
            }
            QCOMPARE(role.gpus, 8);
            QCOMPARE(role.gpuModel, s.gpuModel);
            QCOMPARE(role.shmBytes, 32LL << 30);
            QCOMPARE(role.memoryLimitBytes, 64LL << 30);
            QCOMPARE(role.cpuMilli, 8000);
            QCOMPARE(role.pinnedNodes, s.pinnedNodes);
            QVERIFY(role.mountPaths.contains(QStringLiteral("/mnt/user/alice")));
            QVERIFY(role.mountPaths.contains(QStringLiteral("/ckpt")));
            if (s.kind != JobSpec::Mpi) {
                QCOMPARE(role.command.join(u' '), QStringLiteral("sh -c torchrun train.py"));
                QCOMPARE(role.env.value(0).second, QStringLiteral("WARN"));
            }
        }
        QCOMPARE(r.pytorchPlugin, s.kind == JobSpec::Volcano);
    }

    // Shared memory left empty is the runtime's 64 MiB: no volume, and the check warns.
    void noShmVolumeWhenLeftEmpty()
    {
        JobSpec s = spec(JobSpec::PyTorch);
        s.shm.clear();
        JobRequest r;
        QString error;
        QVERIFY(JobRequestDecoder::decode(JobManifest::of(s), &r, &error));
        QCOMPARE(r.roles.first().shmBytes, -1);
    }

    // Which tasks of a Volcano job run an SSH server for mpirun: its mpi plugin's --worker task
    // ("worker" by default), or with the ssh plugin alone every task but the master; their
    // images (not the master's) are the ones asked for one.
    void volcanoSshServers()
    {
        const auto decode = [](const char *plugins) {
            const QByteArray json =
                QByteArray(R"({"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job",
                "metadata":{"name":"lm","namespace":"user-alice"},"spec":{"plugins":)") +
                plugins + R"(,"tasks":[
                {"name":"mpimaster","template":{"spec":{"containers":[{"name":"m","image":"m:1"}]}}},
                {"name":"mpiworker","replicas":2,"template":{"spec":{"containers":[
                 {"name":"w","image":"w:1"}]}}}]}})";
            JobRequest r;
            QString error;
            if (!JobRequestDecoder::decode(json, &r, &error))
                return QStringList{error};
            return r.sshServerRoles + ImageCheck::sshdImagesOf(r);
        };
        QCOMPARE(decode(R"({"mpi":["--master=mpimaster","--worker=mpiworker","--port=22"]})"),
                 (QStringList{u"mpiworker"_qs, u"w:1"_qs}));
        QCOMPARE(decode(R"({"ssh":[],"svc":[]})"), (QStringList{u"mpiworker"_qs, u"w:1"_qs}));
        QCOMPARE(decode(R"({"mpi":[]})"), QStringList()); // its default worker task is "worker"
        QCOMPARE(decode(R"({"svc":[],"env":[]})"), QStringList());
        // The ssh plugin alone, no task named for mpirun: keys for something else, not asked.
        const QByteArray trainer =
            R"({"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job","metadata":{"name":"t",
            "namespace":"user-alice"},"spec":{"plugins":{"ssh":[]},"tasks":[{"name":"trainer",
            "replicas":2,"template":{"spec":{"containers":[{"name":"t","image":"t:1"}]}}}]}})";
        JobRequest r;
        QString error;
        QVERIFY2(JobRequestDecoder::decode(trainer, &r, &error), qPrintable(error));
        QVERIFY(r.sshServerRoles.isEmpty());
    }

    void formErrors()
    {
        JobSpec s = spec(JobSpec::PyTorch);
        QVERIFY(JobSpecRules::errors(s).isEmpty());
        s.name = QStringLiteral("LLM_1");
        s.cpu = QStringLiteral("eight");
        s.mounts = {QStringLiteral("data")};
        s.command.clear();
        const QString all = JobSpecRules::errors(s).join(u'\n');
        for (const char *what : {"LLM_1 is not a valid name", "eight is not an amount",
                                 "Data data:", "Give the command"})
            QVERIFY2(all.contains(QLatin1String(what)), qPrintable(all));
    }
};

QTEST_GUILESS_MAIN(TestJobManifest)
#include "tst_jobmanifest.moc"
