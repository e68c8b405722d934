// SPDX-License-Identifier: GPL-3.0-or-later
// A job's manifest back into the New training job form (JobSpecReader): what the form made comes
// back whole for every kind, with the fields the API server adds on its own; what the form has no
// place for (pins, tolerations, another kind) is named, and the YAML keeps it. The user's job
// templates (JobTemplates): files written whole, for the user alone, listed as they read.
#include "jobmanifest.h"
#include "jobspecreader.h"
#include "jobtemplates.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace gpudesk;

Q_DECLARE_METATYPE(gpudesk::JobSpec)

namespace {

JobSpec full(JobSpec::Kind kind)
{
    JobSpec s;
    s.kind = kind;
    s.name = QStringLiteral("llm");
    s.ns = QStringLiteral("user-alice");
    s.image = QStringLiteral("registry.lab/train:1");
    s.command = QStringLiteral("torchrun --nproc_per_node=8 train.py --lr 'a b'");
    s.gpusPerNode = 8;
    s.gpuModel = QStringLiteral("NVIDIA H100 80GB HBM3");
    s.cpu = QStringLiteral("12");
    s.memory = QStringLiteral("120Gi");
    s.shm = QStringLiteral("16Gi");
    s.nodes = 3;
    s.queue = QStringLiteral("nlp");
    s.priorityClass = QStringLiteral("high");
    s.env = {{QStringLiteral("NCCL_DEBUG"), QStringLiteral("WARN")},
             {QStringLiteral("EMPTY"), QString()}};
    s.mounts = {QStringLiteral("/mnt/user/alice"), QStringLiteral("ckpt:/ckpt")};
    s.alwaysPull = true;
    s.hoursLimit = 2;
    return s;
}

QJsonObject object(const QByteArray &json)
{
    return QJsonDocument::fromJson(json).object();
}

// The pod spec at a path of keys ("spec", "pytorchReplicaSpecs", "Master", "template", "spec").
QJsonObject withPodSpec(QJsonObject o, const QStringList &path,
                        const std::function<void(QJsonObject &)> &change)
{
    if (path.isEmpty()) {
        change(o);
        return o;
    }
    o[path.first()] = withPodSpec(o[path.first()].toObject(), path.mid(1), change);
    return o;
}

} // namespace

class TestJobSpecReader : public QObject
{
    Q_OBJECT

private slots:
    void formsJobComesBack_data()
    {
        QTest::addColumn<JobSpec>("spec");
        for (JobSpec::Kind k :
             {JobSpec::PyTorch, JobSpec::Mpi, JobSpec::Volcano, JobSpec::SinglePod}) {
            JobSpec s = full(k);
            if (k == JobSpec::SinglePod)
                s.nodes = 1;
            QTest::newRow(qPrintable(JobSpec::kindName(k))) << s;
            // The least the form writes: no shm, data, variables, queue, priority or limit.
            JobSpec bare;
            bare.kind = k;
            bare.name = QStringLiteral("tiny");
            bare.image = QStringLiteral("busybox");
            bare.command = QStringLiteral("true");
            bare.shm.clear();
            // No GPU, but for MPI, whose GPU-less pods are launchers.
            bare.gpusPerNode = k == JobSpec::Mpi ? 1 : 0;
            QTest::newRow(qPrintable(JobSpec::kindName(k) + QStringLiteral(" bare"))) << bare;
        }
    }
    void formsJobComesBack()
    {
        QFETCH(JobSpec, spec);
        const QByteArray json = JobManifest::of(spec);
        const JobSpecReader::Result r = JobSpecReader::read(json, QStringLiteral("v2beta1"));
        QVERIFY2(r.formHoldsIt(), qPrintable(r.differences.join(u", ") + r.error));
        const JobSpec &back = *r.spec;
        QCOMPARE(back.kind, spec.kind);
        QCOMPARE(back.name, spec.name);
        QCOMPARE(back.ns, spec.ns);
        QCOMPARE(back.image, spec.image);
        QCOMPARE(back.command, spec.command);
        QCOMPARE(back.gpusPerNode, spec.gpusPerNode);
        QCOMPARE(back.gpuModel, spec.gpusPerNode > 0 ? spec.gpuModel : QString());
        QCOMPARE(back.cpu, spec.cpu);
        QCOMPARE(back.memory, spec.memory);
        QCOMPARE(back.shm, spec.shm);
        QCOMPARE(back.nodes, spec.nodes);
        QCOMPARE(back.queue, spec.queue);
        QCOMPARE(back.priorityClass, spec.priorityClass);
        QCOMPARE(back.env, spec.env);
        QCOMPARE(back.mounts, spec.mounts);
        QCOMPARE(back.alwaysPull, spec.alwaysPull);
        QCOMPARE(back.hoursLimit, spec.hoursLimit);
        QCOMPARE(JobManifest::of(back), json);
    }

    void serverDefaultsAreNotTheJobs()
    {
        // A Pod as the API server returns it: its defaults and the service account's token.
        const QByteArray made = JobManifest::of(full(JobSpec::SinglePod));
        const QJsonObject served = withPodSpec(object(made), {u"spec"_qs}, [](QJsonObject &spec) {
            spec[u"dnsPolicy"] = u"ClusterFirst"_qs;
            spec[u"terminationGracePeriodSeconds"] = 30;
            spec[u"schedulerName"] = u"default-scheduler"_qs;
            spec[u"serviceAccountName"] = u"default"_qs;
            spec[u"securityContext"] = QJsonObject();
            spec[u"priority"] = 1000;
            spec[u"tolerations"] =
                QJsonArray{QJsonObject{{u"key"_qs, u"node.kubernetes.io/not-ready"_qs},
                                       {u"operator"_qs, u"Exists"_qs},
                                       {u"effect"_qs, u"NoExecute"_qs},
                                       {u"tolerationSeconds"_qs, 300}},
                           QJsonObject{{u"key"_qs, u"node.kubernetes.io/unreachable"_qs},
                                       {u"operator"_qs, u"Exists"_qs},
                                       {u"effect"_qs, u"NoExecute"_qs},
                                       {u"tolerationSeconds"_qs, 300}}};
            QJsonArray volumes = spec[u"volumes"].toArray();
            volumes.append(QJsonObject{{u"name"_qs, u"kube-api-access-x7k2p"_qs},
                                       {u"projected"_qs, QJsonObject()}});
            spec[u"volumes"] = volumes;
            QJsonArray containers = spec[u"containers"].toArray();
            QJsonObject c = containers[0].toObject();
            c[u"terminationMessagePath"] = u"/dev/termination-log"_qs;
            c[u"terminationMessagePolicy"] = u"File"_qs;
            QJsonArray mounts = c[u"volumeMounts"].toArray();
            mounts.append(QJsonObject{
                {u"name"_qs, u"kube-api-access-x7k2p"_qs},
                {u"mountPath"_qs, u"/var/run/secrets/kubernetes.io/serviceaccount"_qs}});
            c[u"volumeMounts"] = mounts;
            containers[0] = c;
            spec[u"containers"] = containers;
        });
        const JobSpecReader::Result r =
            JobSpecReader::read(QJsonDocument(served).toJson(), QStringLiteral("v2beta1"));
        QVERIFY2(r.formHoldsIt(), qPrintable(r.differences.join(u", ")));
        QCOMPARE(r.spec->mounts, full(JobSpec::SinglePod).mounts);
    }

    void theUsersOwnAreKept()
    {
        // A toleration the user wrote, though its key is one the admission adds (another
        // time), and one in a job's template, where no admission adds it: kept, so named.
        const QJsonObject unreachable{{u"key"_qs, u"node.kubernetes.io/unreachable"_qs},
                                      {u"operator"_qs, u"Exists"_qs},
                                      {u"effect"_qs, u"NoExecute"_qs},
                                      {u"tolerationSeconds"_qs, 3600}};
        QJsonObject pod =
            withPodSpec(object(JobManifest::of(full(JobSpec::SinglePod))), {u"spec"_qs},
                        [&](QJsonObject &spec) { spec[u"tolerations"] = QJsonArray{unreachable}; });
        JobSpecReader::Result r =
            JobSpecReader::read(QJsonDocument(pod).toJson(), QStringLiteral("v2beta1"));
        QCOMPARE(r.differences, QStringList{u"spec.tolerations"_qs});
        QJsonObject served = unreachable;
        served[u"tolerationSeconds"_qs] = 300;
        const QJsonObject job = withPodSpec(
            object(JobManifest::of(full(JobSpec::PyTorch))),
            {u"spec"_qs, u"pytorchReplicaSpecs"_qs, u"Master"_qs, u"template"_qs, u"spec"_qs},
            [&](QJsonObject &spec) { spec[u"tolerations"] = QJsonArray{served}; });
        r = JobSpecReader::read(QJsonDocument(job).toJson(), QStringLiteral("v2beta1"));
        QCOMPARE(r.differences,
                 QStringList{u"spec.pytorchReplicaSpecs.Master.template.spec.tolerations"_qs});
        // A quantity written as a number is the same amount: cpu: 12 is "12".
        const QJsonObject numbers = withPodSpec(
            object(JobManifest::of(full(JobSpec::SinglePod))), {u"spec"_qs}, [](QJsonObject &spec) {
                QJsonArray containers = spec[u"containers"].toArray();
                QJsonObject c = containers[0].toObject();
                QJsonObject res = c[u"resources"].toObject();
                QJsonObject req = res[u"requests"].toObject();
                req[u"cpu"_qs] = 12;
                req[u"nvidia.com/gpu"_qs] = 8;
                res[u"requests"_qs] = req;
                c[u"resources"_qs] = res;
                containers[0] = c;
                spec[u"containers"_qs] = containers;
            });
        r = JobSpecReader::read(QJsonDocument(numbers).toJson(), QStringLiteral("v2beta1"));
        QVERIFY2(r.formHoldsIt(), qPrintable(r.differences.join(u", ")));
        QCOMPARE(r.spec->cpu, u"12"_qs);
        QCOMPARE(r.spec->gpusPerNode, 8);
        // Nested past any job's depth: refused before it is compared.
        const QByteArray deep = QByteArray(300, '[') + QByteArray(300, ']');
        r = JobSpecReader::read(deep, QStringLiteral("v2beta1"));
        QVERIFY(!r.spec);
        QVERIFY2(r.error.contains(u"nested deeper than 200"), qPrintable(r.error));
    }

    void whatTheFormCannotHoldIsNamed()
    {
        // Pins (the check's proposal, made at submit time) and a toleration of the user's own.
        JobSpec pinned = full(JobSpec::PyTorch);
        pinned.pinnedNodes = {QStringLiteral("h100-01")};
        JobSpecReader::Result r =
            JobSpecReader::read(JobManifest::of(pinned), QStringLiteral("v2beta1"));
        QVERIFY(r.spec);
        QVERIFY(!r.formHoldsIt());
        QVERIFY2(
            r.differences.contains(u"spec.pytorchReplicaSpecs.Master.template.spec.affinity"_qs),
            qPrintable(r.differences.join(u", ")));

        const QJsonObject tolerant =
            withPodSpec(object(JobManifest::of(full(JobSpec::Volcano))), {}, [](QJsonObject &job) {
                QJsonObject spec = job[u"spec"].toObject();
                QJsonArray tasks = spec[u"tasks"].toArray();
                QJsonObject worker = tasks[1].toObject();
                QJsonObject tmpl = worker[u"template"].toObject();
                QJsonObject pod = tmpl[u"spec"].toObject();
                pod[u"tolerations"] = QJsonArray{
                    QJsonObject{{u"key"_qs, u"gpu-maint"_qs}, {u"operator"_qs, u"Exists"_qs}}};
                tmpl[u"spec"] = pod;
                worker[u"template"] = tmpl;
                tasks[1] = worker;
                spec[u"tasks"] = tasks;
                job[u"spec"] = spec;
            });
        r = JobSpecReader::read(QJsonDocument(tolerant).toJson(), QStringLiteral("v2beta1"));
        QVERIFY(!r.formHoldsIt());
        QCOMPARE(r.differences, QStringList{u"spec.tasks[1].template.spec.tolerations"_qs});
        QCOMPARE(r.moreDifferences, 0);

        // Many differences: a few named, the rest counted.
        QJsonObject odd = object(JobManifest::of(full(JobSpec::PyTorch)));
        for (int i = 0; i < 7; ++i)
            odd[QStringLiteral("extra%1").arg(i)] = i;
        r = JobSpecReader::read(QJsonDocument(odd).toJson(), QStringLiteral("v2beta1"));
        QCOMPARE(r.differences.size(), 4);
        QCOMPARE(r.moreDifferences, 3);
    }

    void notAJobTheFormMakes()
    {
        JobSpecReader::Result r = JobSpecReader::read(
            R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"x"}})",
            QStringLiteral("v2beta1"));
        QVERIFY(!r.spec);
        QCOMPARE(r.error, u"apps/v1 Deployment is not a kind the form makes (PyTorchJob, MPIJob, "
                          u"Volcano Job, Pod)."_qs);
        r = JobSpecReader::read("kind: Pod", QStringLiteral("v2beta1"));
        QVERIFY(!r.spec);
        QCOMPARE(r.error, u"It is not a JSON object."_qs);
        // A job of the right kind whose pods are not where the form writes them.
        r = JobSpecReader::read(R"({"apiVersion":"kubeflow.org/v1","kind":"PyTorchJob",
            "metadata":{"name":"p"},"spec":{"pytorchReplicaSpecs":"none"}})",
                                QStringLiteral("v2beta1"));
        QVERIFY(r.spec);
        QVERIFY(!r.formHoldsIt());
    }

    void templatesAreFilesOfTheUsers()
    {
        QTemporaryDir dir;
        const JobTemplates templates(dir.filePath(QStringLiteral("job-templates")));
        QVERIFY(templates.names().isEmpty());
        QString error;
        QVERIFY2(templates.save(u"llm 8×H100"_qs, u"kind: PyTorchJob\n"_qs, &error),
                 qPrintable(error));
        QVERIFY(templates.save(u"a10"_qs, u"kind: Pod\n"_qs, &error));
        QVERIFY(templates.save(u"a9"_qs, u"kind: Job\n"_qs, &error));
        QCOMPARE(templates.names(), (QStringList{u"a9"_qs, u"a10"_qs, u"llm 8×H100"_qs}));
        QCOMPARE(templates.load(u"llm 8×H100"_qs, &error), u"kind: PyTorchJob\n"_qs);
        const QString file = templates.dir() + u"/llm 8×H100.yaml"_qs;
        QVERIFY(QFile::exists(file));
        // A variable may hold a token: the file is the user's alone.
        QCOMPARE(QFile::permissions(file) & (QFileDevice::ReadGroup | QFileDevice::ReadOther |
                                             QFileDevice::WriteGroup | QFileDevice::WriteOther),
                 QFileDevice::Permissions());
        QVERIFY(templates.save(u"a9"_qs, u"kind: Job # again\n"_qs, &error));
        QCOMPARE(templates.load(u"a9"_qs, &error), u"kind: Job # again\n"_qs);
        QVERIFY(templates.contains(u"a9"_qs));
        QVERIFY(templates.remove(u"a9"_qs, &error));
        QVERIFY(!templates.contains(u"a9"_qs));
        QVERIFY(templates.load(u"a9"_qs, &error).isEmpty());
        QVERIFY2(error.startsWith(u"Cannot read the template"), qPrintable(error));
        QVERIFY(!templates.remove(u"a9"_qs, &error));

        // Names that are not one file of that folder.
        for (const QString &bad : {u""_qs, u" x"_qs, u"../x"_qs, u".hidden"_qs, u"a\\b"_qs,
                                   u"a\nb"_qs, QString(101, u'x')}) {
            QVERIFY2(!JobTemplates::nameError(bad).isEmpty(), qPrintable(bad));
            QVERIFY(!templates.save(bad, u"x"_qs, &error));
            QCOMPARE(error, JobTemplates::nameError(bad));
        }
        QCOMPARE(templates.names().size(), 2);
        QVERIFY(QDir(templates.dir()).entryList(QDir::Files).size() == 2);
    }
};

QTEST_GUILESS_MAIN(TestJobSpecReader)
#include "tst_jobspecreader.moc"
