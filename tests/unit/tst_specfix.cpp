// SPDX-License-Identifier: GPL-3.0-or-later
// The job doctor's fixes made on a copy of the spec (SpecFix), for each layout of pod templates:
// a Pod's own spec, a Volcano Job's tasks, a PyTorchJob's replicas; a /dev/shm volume already
// there replaced, not doubled; a memory limit raised by half with the request that equalled it.
#include "specfix.h"
#include "specfixes.h"
#include "yamlconvert.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace gpudesk;

namespace {

QJsonObject parsed(const QString &yaml)
{
    QString error;
    return QJsonDocument::fromJson(objectJson(yaml, &error)).object();
}

const char *kVolcanoJob = R"(apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata:
  name: sam-r1
  namespace: user-dave
spec:
  queue: cv
  tasks:
  - name: trainer
    replicas: 2
    template:
      spec:
        containers:
        - name: main
          image: x
          resources:
            limits: {memory: 64Gi, nvidia.com/gpu: "4"}
            requests: {memory: 64Gi, cpu: "8"}
          volumeMounts:
          - {name: small-shm, mountPath: /dev/shm}
          - {name: data, mountPath: /data}
        volumes:
        - name: small-shm
          emptyDir: {medium: Memory, sizeLimit: 64Mi}
        - name: data
          hostPath: {path: /mnt/data}
  - name: evaluator
    replicas: 1
    template:
      spec:
        containers:
        - name: eval
          image: x
          resources:
            requests: {memory: 8Gi}
)";

} // namespace

class TestSpecFix : public QObject
{
    Q_OBJECT
private slots:
    void sharedMemoryInEveryTask();
    void sharedMemoryInAPod();
    void memoryLimitRaised();
    void variableRemovedEverywhere();
    void nothingToFix();
    void launchScriptByItsResolvedPath();
};

void TestSpecFix::sharedMemoryInEveryTask()
{
    QString error;
    const QString fixed = SpecFix::sharedMemory(QString::fromUtf8(kVolcanoJob), {}, &error);
    QVERIFY2(!fixed.isEmpty(), qPrintable(error));
    const QJsonArray tasks = parsed(fixed)[u"spec"_qs][u"tasks"_qs].toArray();
    QCOMPARE(tasks.size(), 2);
    // The trainer: its too-small /dev/shm replaced under the same name, half its 64Gi limit;
    // its other volume and mount kept.
    const QJsonObject trainer = tasks[0][u"template"_qs][u"spec"_qs].toObject();
    const QJsonArray volumes = trainer[u"volumes"_qs].toArray();
    QCOMPARE(volumes.size(), 2);
    QCOMPARE(volumes[0][u"name"_qs].toString(), u"data"_qs);
    QCOMPARE(volumes[1][u"name"_qs].toString(), u"small-shm"_qs);
    QCOMPARE(volumes[1][u"emptyDir"_qs][u"medium"_qs].toString(), u"Memory"_qs);
    QCOMPARE(volumes[1][u"emptyDir"_qs][u"sizeLimit"_qs].toString(), u"32768Mi"_qs);
    const QJsonArray mounts = trainer[u"containers"_qs][0][u"volumeMounts"_qs].toArray();
    QCOMPARE(mounts.size(), 2);
    QCOMPARE(mounts[0][u"mountPath"_qs].toString(), u"/data"_qs);
    QCOMPARE(mounts[1][u"mountPath"_qs].toString(), u"/dev/shm"_qs);
    QCOMPARE(mounts[1][u"name"_qs].toString(), u"small-shm"_qs);
    // The evaluator had none and no limit: 16Gi.
    const QJsonObject eval = tasks[1][u"template"_qs][u"spec"_qs].toObject();
    QCOMPARE(eval[u"volumes"_qs][0][u"name"_qs].toString(), u"dshm"_qs);
    QCOMPARE(eval[u"volumes"_qs][0][u"emptyDir"_qs][u"sizeLimit"_qs].toString(), u"16Gi"_qs);
    QCOMPARE(eval[u"containers"_qs][0][u"volumeMounts"_qs][0][u"mountPath"_qs].toString(),
             u"/dev/shm"_qs);
    // The rest of the job as it was.
    QCOMPARE(parsed(fixed)[u"spec"_qs][u"queue"_qs].toString(), u"cv"_qs);
    QCOMPARE(tasks[0][u"replicas"_qs].toInt(), 2);
}

void TestSpecFix::sharedMemoryInAPod()
{
    QString error;
    const QString pod = u"apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n"
                        "  - {name: a, image: x}\n  - {name: b, image: y}\n"_qs;
    const QString fixed = SpecFix::sharedMemory(pod, u"8Gi"_qs, &error);
    QVERIFY2(!fixed.isEmpty(), qPrintable(error));
    const QJsonObject spec = parsed(fixed)[u"spec"_qs].toObject();
    QCOMPARE(spec[u"volumes"_qs].toArray().size(), 1);
    QCOMPARE(spec[u"volumes"_qs][0][u"emptyDir"_qs][u"sizeLimit"_qs].toString(), u"8Gi"_qs);
    for (const QJsonValue &c : spec[u"containers"_qs].toArray())
        QCOMPARE(c[u"volumeMounts"_qs][0][u"mountPath"_qs].toString(), u"/dev/shm"_qs);
}

void TestSpecFix::memoryLimitRaised()
{
    QString error;
    const QString fixed =
        SpecFix::apply(u"memory-limit"_qs, QString::fromUtf8(kVolcanoJob), &error);
    QVERIFY2(!fixed.isEmpty(), qPrintable(error));
    const QJsonArray tasks = parsed(fixed)[u"spec"_qs][u"tasks"_qs].toArray();
    const QJsonObject r =
        tasks[0][u"template"_qs][u"spec"_qs][u"containers"_qs][0][u"resources"_qs].toObject();
    QCOMPARE(r[u"limits"_qs][u"memory"_qs].toString(), u"96Gi"_qs);
    QCOMPARE(r[u"requests"_qs][u"memory"_qs].toString(), u"96Gi"_qs); // it equalled the limit
    QCOMPARE(r[u"limits"_qs][u"nvidia.com/gpu"_qs].toString(), u"4"_qs);
    // The evaluator has a request and no limit: left as it is.
    QCOMPARE(tasks[1][u"template"_qs][u"spec"_qs][u"containers"_qs][0][u"resources"_qs]
                  [u"requests"_qs][u"memory"_qs]
                      .toString(),
             u"8Gi"_qs);
}

void TestSpecFix::variableRemovedEverywhere()
{
    // The demo's yolo-ddp as the re-run copies it: the variable in the master, the worker and an
    // init container; the other variables, and a container without any, kept as they were.
    const QString job = u"apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: y}\n"
                        "spec:\n  pytorchReplicaSpecs:\n"
                        "    Master:\n      template:\n        spec:\n          containers:\n"
                        "          - name: pytorch\n            env:\n"
                        "            - {name: NCCL_DEBUG, value: INFO}\n"
                        "            - {name: NCCL_IB_DISABLE, value: '1'}\n"
                        "          initContainers:\n          - name: wait\n            env:\n"
                        "            - {name: NCCL_IB_DISABLE, value: '1'}\n"
                        "    Worker:\n      template:\n        spec:\n          containers:\n"
                        "          - name: pytorch\n            env:\n"
                        "            - {name: NCCL_IB_DISABLE, value: '1'}\n"
                        "            - {name: PYTHONUNBUFFERED, value: '1'}\n"
                        "          - {name: sidecar, image: s}\n"_qs;
    QString error;
    const QString fixed = SpecFix::apply(u"remove-env:NCCL_IB_DISABLE"_qs, job, &error);
    QVERIFY2(!fixed.isEmpty(), qPrintable(error));
    QVERIFY2(!fixed.contains(u"NCCL_IB_DISABLE"_qs), qPrintable(fixed));
    const QJsonObject r = parsed(fixed)[u"spec"_qs][u"pytorchReplicaSpecs"_qs].toObject();
    const QJsonObject master = r[u"Master"_qs][u"template"_qs][u"spec"_qs].toObject();
    QCOMPARE(master[u"containers"_qs][0][u"env"_qs].toArray().size(), 1);
    QCOMPARE(master[u"containers"_qs][0][u"env"_qs][0][u"name"_qs].toString(), u"NCCL_DEBUG"_qs);
    QVERIFY(!master[u"initContainers"_qs][0].toObject().contains(u"env"_qs)); // none left
    const QJsonArray worker =
        r[u"Worker"_qs][u"template"_qs][u"spec"_qs][u"containers"_qs].toArray();
    QCOMPARE(worker[0][u"env"_qs][0][u"name"_qs].toString(), u"PYTHONUNBUFFERED"_qs);
    QCOMPARE(worker[1][u"image"_qs].toString(), u"s"_qs);
}

void TestSpecFix::nothingToFix()
{
    QString error;
    QVERIFY(SpecFix::sharedMemory(u"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"_qs, {},
                                  &error)
                .isEmpty());
    QCOMPARE(error, u"It holds no pod template."_qs);
    QVERIFY(SpecFix::memoryLimit(u"kind: Pod\nspec:\n  containers:\n  - {name: a}\n"_qs, &error)
                .isEmpty());
    QCOMPARE(error, u"No container has a memory limit to raise."_qs);
    QVERIFY(SpecFix::apply(u"nccl"_qs, QString::fromUtf8(kVolcanoJob), &error).isEmpty());
    QCOMPARE(error, u"There is no fix to make in the spec."_qs);
    QVERIFY(
        SpecFix::apply(u"remove-env:NCCL IB"_qs, QString::fromUtf8(kVolcanoJob), &error).isEmpty());
    QCOMPARE(error, u"There is no fix to make in the spec."_qs);
    QVERIFY(SpecFix::removeVariable(QString::fromUtf8(kVolcanoJob), u"NCCL_IB_DISABLE"_qs, &error)
                .isEmpty());
    QCOMPARE(error, u"No container sets the variable to remove."_qs);
    QVERIFY(SpecFix::sharedMemory(u"a: [unclosed"_qs, {}, &error).isEmpty());
    QVERIFY(!error.isEmpty());
}

void TestSpecFix::launchScriptByItsResolvedPath()
{
    const QString pod =
        u"apiVersion: v1\nkind: Pod\nmetadata: {name: seg-train}\nspec:\n"
        "  containers:\n"
        "  - {name: a, image: x, command: [bash, /workspace/start.sh, --fast]}\n"
        "  - {name: b, image: y, command: [sh, -c, 'cd /x && \"/workspace/start.sh\";"
        " /workspace/start.sh.bak /workspace/start.shx']}\n"
        "  volumes:\n  - {name: launch-script, emptyDir: {}}\n"_qs;
    const QString resolved =
        SpecFixes::resolvedPath(u"/workspace/start.sh"_qs, u"/workspace/tools/train.sh"_qs,
                                u"/mnt/user/z/code/seg/tools"_qs, u"/mnt/user/z/code/seg/tools"_qs);
    QString error;
    QString fixed = SpecFix::apply(resolved, pod, &error);
    QVERIFY2(!fixed.isEmpty(), qPrintable(error));
    QJsonArray containers = parsed(fixed)[u"spec"_qs][u"containers"_qs].toArray();
    // The script's own word replaced, in an exec-form command and in a shell's line; words
    // that only begin like it are left.
    QCOMPARE(containers[0][u"command"_qs].toArray(),
             (QJsonArray{u"bash"_qs, u"/workspace/tools/train.sh"_qs, u"--fast"_qs}));
    QCOMPARE(
        containers[1][u"command"_qs][2].toString(),
        u"cd /x && \"/workspace/tools/train.sh\"; /workspace/start.sh.bak /workspace/start.shx"_qs);
    // No volume added where the command runs the file itself.
    QCOMPARE(parsed(fixed)[u"spec"_qs][u"volumes"_qs].toArray().size(), 1);

    // Named by a relative path: the folder mounted where the link leads, read-only, under a
    // name of its own.
    const QString relative = u"apiVersion: v1\nkind: Pod\nmetadata: {name: s}\nspec:\n"
                             "  containers:\n"
                             "  - {name: a, image: x, command: [bash, -c, 'cd /workspace && "
                             "./start.sh']}\n"
                             "  volumes:\n  - {name: launch-script, emptyDir: {}}\n"_qs;
    fixed = SpecFix::apply(resolved, relative, &error);
    QVERIFY2(!fixed.isEmpty(), qPrintable(error));
    const QJsonObject spec = parsed(fixed)[u"spec"_qs].toObject();
    QCOMPARE(spec[u"containers"_qs][0][u"command"_qs][2].toString(),
             u"cd /workspace && ./start.sh"_qs);
    QCOMPARE(spec[u"volumes"_qs][1][u"name"_qs].toString(), u"launch-script-2"_qs);
    QCOMPARE(spec[u"volumes"_qs][1][u"hostPath"_qs][u"path"_qs].toString(),
             u"/mnt/user/z/code/seg/tools"_qs);
    const QJsonObject mount = spec[u"containers"_qs][0][u"volumeMounts"_qs][0].toObject();
    QCOMPARE(mount[u"name"_qs].toString(), u"launch-script-2"_qs);
    QCOMPARE(mount[u"mountPath"_qs].toString(), u"/mnt/user/z/code/seg/tools"_qs);
    QVERIFY(mount[u"readOnly"_qs].toBool());

    // Only where a program runs it: a path written to (cp, rm, ln) is left; `bash -x FILE`
    // is run.
    const QString writes =
        u"apiVersion: v1\nkind: Pod\nmetadata: {name: w}\nspec:\n"
        "  containers:\n"
        "  - {name: a, image: x, command: [sh, -c, 'cp /tmp/s /workspace/"
        "start.sh; rm -f /workspace/start.sh; bash -x /workspace/start.sh; GPUS=8 "
        "/workspace/start.sh']}\n"_qs;
    fixed = SpecFix::apply(resolved, writes, &error);
    QVERIFY2(!fixed.isEmpty(), qPrintable(error));
    QCOMPARE(parsed(fixed)[u"spec"_qs][u"containers"_qs][0][u"command"_qs][2].toString(),
             u"cp /tmp/s /workspace/start.sh; rm -f /workspace/start.sh; bash -x "
             "/workspace/tools/train.sh; GPUS=8 /workspace/tools/train.sh"_qs);
    // A resolved path a shell would split (a space, a `$`): never spliced into a shell's line;
    // the folder is mounted instead, in the init containers too.
    const QString odd = SpecFixes::resolvedPath(
        u"/workspace/start.sh"_qs, u"/workspace/my tools/$(x).sh"_qs,
        u"/mnt/user/z/code/seg/my tools"_qs, u"/mnt/user/z/code/seg/my tools"_qs);
    const QString withInit = u"apiVersion: v1\nkind: Pod\nmetadata: {name: s}\nspec:\n"
                             "  initContainers:\n  - {name: i, image: x}\n"
                             "  containers:\n"
                             "  - {name: a, image: x, command: [bash, -c, 'bash /workspace/"
                             "start.sh']}\n"_qs;
    fixed = SpecFix::apply(odd, withInit, &error);
    QVERIFY2(!fixed.isEmpty(), qPrintable(error));
    const QJsonObject oddSpec = parsed(fixed)[u"spec"_qs].toObject();
    QCOMPARE(oddSpec[u"containers"_qs][0][u"command"_qs][2].toString(),
             u"bash /workspace/start.sh"_qs);
    QCOMPARE(oddSpec[u"initContainers"_qs][0][u"volumeMounts"_qs][0][u"mountPath"_qs].toString(),
             u"/mnt/user/z/code/seg/my tools"_qs);
    // A mount over a system folder is not one gpudesk makes, whatever the fix string says.
    QVERIFY(!SpecFixes::resolvedPathOf(
        SpecFixes::resolvedPath(u"/workspace/start.sh"_qs, {}, u"/usr/bin"_qs, u"/usr/bin"_qs)));

    // Neither: said, nothing made.
    const QString pathOnly =
        SpecFixes::resolvedPath(u"/workspace/start.sh"_qs, u"/workspace/tools/train.sh"_qs, {}, {});
    QVERIFY(SpecFix::apply(pathOnly, relative, &error).isEmpty());
    QVERIFY2(error.contains(u"/workspace/tools/train.sh"_qs), qPrintable(error));
    QVERIFY(SpecFixes::resolvedPath(u"/workspace/start.sh"_qs, {}, {}, {}).isEmpty());
    QVERIFY(SpecFix::apply(u"resolved-path"_qs, pod, &error).isEmpty());
}

QTEST_GUILESS_MAIN(TestSpecFix)
#include "tst_specfix.moc"
