// SPDX-License-Identifier: GPL-3.0-or-later
// The job doctor's engine and its shipped rules, against inputs of the shape the programs write
// (PyTorch, NCCL, bash, the kubelet's events): each failure told as its class, with the lines
// that show it and their numbers; a lab's rules file adding a class; patterns that could run
// away refused when the file is read; logs that are huge, binary or one endless line bounded.
#include "clusterstore.h"
#include "diagnosisbook.h"
#include "doctor.h"
#include "specfixes.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>

#include <algorithm>

using namespace gpudesk;

namespace {

DiagnosisInput::Container failed(const QByteArray &log, int exitCode = 1,
                                 const QString &reason = u"Error"_qs)
{
    DiagnosisInput::Container c;
    c.name = u"pytorch"_qs;
    c.state = u"terminated"_qs;
    c.reason = reason;
    c.exitCode = exitCode;
    c.logTail = log;
    c.firstLine = 1;
    return c;
}

DiagnosisInput pod(const QList<DiagnosisInput::Container> &containers)
{
    DiagnosisInput in;
    in.ns = u"user-alice"_qs;
    in.pod = u"train-0"_qs;
    in.phase = u"Failed"_qs;
    in.containers = containers;
    return in;
}

DiagnosisInput::Event eventOf(const QString &reason, const QString &message)
{
    return {u"Warning"_qs, reason, message, u"kubelet"_qs};
}

} // namespace

class TestDoctor : public QObject
{
    Q_OBJECT
private slots:
    void shippedRulesAllRead();
    void eachClass_data();
    void eachClass();
    void sharedMemoryWithItsEvidence();
    void danglingSymlinkBeforeMissingScript();
    void linkOutsideFromTheNas();
    void onlySubsumedRulesFold();
    void chinese();
    void aLabAddsAClass();
    void classesGroupUnderTheirOwnTitle();
    void runawayPatternsRefused_data();
    void runawayPatternsRefused();
    void brokenRulesFile();
    void boundedLogs();
    void gpuFaultFromTheNodesKernel();
    void slowNcclWhileRunning();
    void specFixes();
    void uncorrectableEccFromTheCards();
};

void TestDoctor::shippedRulesAllRead()
{
    QFile f(u":/gpudesk/doctor/rules.json"_qs);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QStringList errors;
    const DoctorRules rules = DoctorRules::parse(f.readAll(), u"rules.json"_qs, &errors);
    QVERIFY2(errors.isEmpty(), qPrintable(errors.join(u'\n')));
    QVERIFY(rules.rules().size() >= 25);
    QCOMPARE(DoctorRules::builtIn().rules().size(), rules.rules().size());
    // Every class a shipped rule tells has its own title, in English and in Chinese: the
    // admin's grouping by cause shows it, the same for every pod of the class.
    for (const DoctorRules::Rule &r : rules.rules()) {
        const QHash<QString, QString> title = rules.classTitle(r.cls);
        QVERIFY2(!title.value(QString()).isEmpty(), qPrintable(r.cls));
        QVERIFY2(!title.value(u"zh_CN"_qs).isEmpty(), qPrintable(r.cls));
        QVERIFY2(!title.value(QString()).contains(u'{'), qPrintable(r.cls)); // nothing to fill
    }
}

void TestDoctor::eachClass_data()
{
    QTest::addColumn<QString>("rule");
    QTest::addColumn<QByteArray>("log");
    QTest::addColumn<QString>("containerReason");
    QTest::addColumn<QString>("message");
    QTest::addColumn<QString>("eventReason");
    QTest::addColumn<QString>("eventMessage");
    QTest::addColumn<QString>("podReason");
    const QString none;
    QTest::newRow("OOMKilled") << u"oom-killed"_qs << QByteArray("Epoch 3/50\n") << u"OOMKilled"_qs
                               << none << none << none << none;
    QTest::newRow("CUDA OOM, PyTorch 2")
        << u"gpu-oom"_qs
        << QByteArray("Traceback (most recent call last):\n  File \"train.py\", line 88\n"
                      "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 "
                      "GiB. GPU 0 has a total capacty of 79.15 GiB of which 1.06 GiB is free.\n")
        << none << none << none << none << none;
    QTest::newRow("CUDA OOM, cuBLAS")
        << u"gpu-oom"_qs
        << QByteArray("RuntimeError: CUDA error: CUBLAS_STATUS_ALLOC_FAILED when calling "
                      "`cublasCreate(handle)`\n")
        << none << none << none << none << none;
    QTest::newRow("NCCL watchdog")
        << u"nccl-timeout"_qs
        << QByteArray("[E ProcessGroupNCCL.cpp:475] [Rank 3] Watchdog caught collective "
                      "operation timeout: WorkNCCL(SeqNum=1234, OpType=ALLREDUCE, "
                      "NumelIn=1048576, Timeout(ms)=1800000) ran for 1800341 milliseconds\n")
        << none << none << none << none << none;
    QTest::newRow("NCCL system error")
        << u"nccl-system-error"_qs
        << QByteArray("torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/"
                      "distributed/c10d/ProcessGroupNCCL.cpp:1275, unhandled system error, NCCL "
                      "version 2.18.1\n")
        << none << none << none << none << none;
    QTest::newRow("NCCL no interface")
        << u"nccl-no-interface"_qs
        << QByteArray("train-0:31:31 [0] NCCL INFO NCCL_SOCKET_IFNAME set to ib0\n"
                      "train-0:31:31 [0] misc/socket.cc:484 NCCL WARN Bootstrap : no socket "
                      "interface found\n")
        << none << none << none << none << none;
    QTest::newRow("RANK unset")
        << u"dist-env-missing"_qs
        << QByteArray("ValueError: Error initializing torch.distributed using env:// "
                      "rendezvous: environment variable RANK expected, but not set\n")
        << none << none << none << none << none;
    QTest::newRow("rendezvous")
        << u"rendezvous-timeout"_qs
        << QByteArray("torch.distributed.elastic.rendezvous.api.RendezvousTimeoutError\n") << none
        << none << none << none << none;
    QTest::newRow("port in use")
        << u"port-in-use"_qs
        << QByteArray("[W socket.cpp:436] [c10d] The server socket has failed to bind to "
                      "[::]:29500 (errno: 98 - Address already in use).\n")
        << none << none << none << none << none;
    QTest::newRow("script missing (python)")
        << u"launch-script-missing"_qs
        << QByteArray("python: can't open file '/workspace/trian.py': [Errno 2] No such file "
                      "or directory\n")
        << none << none << none << none << none;
    QTest::newRow("not executable")
        << u"launch-not-executable"_qs
        << QByteArray("/bin/bash: line 1: /workspace/run.sh: Permission denied\n") << none << none
        << none << none << none;
    QTest::newRow("not in PATH")
        << u"executable-not-in-path"_qs << QByteArray() << u"StartError"_qs
        << u"failed to create containerd task: failed to create shim task: OCI runtime create "
           "failed: runc create failed: unable to start container process: exec: \"python\": "
           "executable file not found in $PATH: unknown"_qs
        << none << none << none;
    QTest::newRow("pull: host lost")
        << u"image-pull-unknown-host"_qs << QByteArray() << u"ErrImagePull"_qs << none
        << u"Failed"_qs
        << u"Failed to pull image \"harbor.lab.internal:5000/cv/detectron2:v0.6\": rpc error: "
           "code = Unknown desc = failed to resolve reference: failed to do request: Head "
           "\"https://harbor.lab.internal:5000/v2/cv/detectron2/manifests/v0.6\": dial tcp: "
           "lookup harbor.lab.internal on 10.96.0.10:53: no such host"_qs
        << none;
    QTest::newRow("pull: manifest unknown")
        << u"image-manifest-unknown"_qs << QByteArray() << u"ErrImagePull"_qs << none
        << u"Failed"_qs
        << u"Failed to pull image \"registry.lab.internal/ai/pytorch:2.3\": rpc error: code = "
           "NotFound desc = failed to pull and unpack image: manifest unknown"_qs
        << none;
    QTest::newRow("pull: unauthorized")
        << u"image-unauthorized"_qs << QByteArray() << u"ErrImagePull"_qs << none << u"Failed"_qs
        << u"Failed to pull image \"harbor.lab.internal:5000/alice/dev:1\": failed to authorize: "
           "failed to fetch anonymous token: unexpected status: 401 Unauthorized"_qs
        << none;
    QTest::newRow("driver too old")
        << u"cuda-driver-old"_qs
        << QByteArray("RuntimeError: The NVIDIA driver on your system is too old (found version "
                      "11040).\n")
        << none << none << none << none << none;
    QTest::newRow("evicted") << u"evicted-pressure"_qs << QByteArray() << none << none << none
                             << none << u"Evicted"_qs;
    QTest::newRow("deadline") << u"deadline-exceeded"_qs << QByteArray() << none << none << none
                              << none << u"DeadlineExceeded"_qs;
    QTest::newRow("import") << u"python-import"_qs
                            << QByteArray("ModuleNotFoundError: No module named 'deepspeed'\n")
                            << none << none << none << none << none;
    QTest::newRow("data path") << u"data-path-missing"_qs
                               << QByteArray(
                                      "FileNotFoundError: [Errno 2] No such file or directory: "
                                      "'/mnt/share/vision/imagenet/train'\n")
                               << none << none << none << none << none;
    QTest::newRow("mpi ssh")
        << u"mpi-ssh"_qs
        << QByteArray("ssh: Could not resolve hostname bert-mpi-worker-1.bert-mpi-worker: Name "
                      "or service not known\nORTE was unable to reliably start one or more "
                      "daemons.\n")
        << none << none << none << none << none;
    QTest::newRow("mpi kubexec")
        << u"mpi-kubexec"_qs
        << QByteArray("+ /opt/kube/kubectl exec bert-mpi-worker-1 -- /bin/sh -c orted -mca plm_rsh_"
                      "agent \"/etc/mpi/kubexec.sh\"\nerror: unable to upgrade connection: "
                      "container not found (\"worker\")\nORTE was unable to reliably start one "
                      "or more daemons.\n")
        << none << none << none << none << none;
    QTest::newRow("preempted") << u"preempted"_qs << QByteArray() << none << none << u"Evict"_qs
                               << u"Pod is evicted, because of preempt"_qs << none;
    QTest::newRow("stopped by gpudesk")
        << u"stopped-by-gpudesk"_qs << QByteArray() << none << none << u"GpudeskStopped"_qs
        << u"Stopped by admin@lab through gpudesk: idle for 7h"_qs << none;
}

void TestDoctor::eachClass()
{
    QFETCH(QString, rule);
    QFETCH(QByteArray, log);
    QFETCH(QString, containerReason);
    QFETCH(QString, message);
    QFETCH(QString, eventReason);
    QFETCH(QString, eventMessage);
    QFETCH(QString, podReason);
    DiagnosisInput::Container c = failed(log);
    if (!containerReason.isEmpty())
        c.reason = containerReason;
    c.message = message;
    DiagnosisInput in = pod({c});
    if (!eventReason.isEmpty())
        in.events << eventOf(eventReason, eventMessage);
    in.reason = podReason;
    const QList<Diagnosis> found = Doctor(DoctorRules::builtIn()).diagnose(in);
    QVERIFY2(!found.isEmpty(), "nothing found");
    QVERIFY2(found.first().rule == rule,
             qPrintable(found.first().rule + u" instead of "_qs + rule));
    QVERIFY(!found.first().title.isEmpty());
    QVERIFY(!found.first().cause.contains(u'{')); // every placeholder filled
    QVERIFY(!found.first().evidence.isEmpty());
    // A healthy pod's log says none of it.
    DiagnosisInput healthy = pod({failed("Epoch 1/50\nloss 2.31\n", 0, u"Completed"_qs)});
    healthy.phase = u"Succeeded"_qs;
    QCOMPARE(Doctor(DoctorRules::builtIn()).diagnose(healthy).size(), 0);
}

void TestDoctor::sharedMemoryWithItsEvidence()
{
    // The demo's clip-pretrain, as gpudesk-sim and PyTorch print it, after 200 lines of training.
    QByteArray log;
    for (int i = 1; i <= 200; ++i)
        log += "step " + QByteArray::number(i) + " loss 1.2\n";
    log += "ERROR: Unexpected bus error encountered in worker. This might be caused by "
           "insufficient shared memory (shm).\nTraceback (most recent call last):\n"
           "RuntimeError: DataLoader worker (pid 2345) is killed by signal: Bus error. It is "
           "possible that dataloader's workers are out of shared memory.\n";
    DiagnosisInput in = pod({failed(log, 1)});
    in.shmMiB = 64;
    const QList<Diagnosis> found = Doctor(DoctorRules::builtIn()).diagnose(in);
    QVERIFY(!found.isEmpty());
    const Diagnosis &d = found.first();
    QCOMPARE(d.cls, u"shared-memory"_qs);
    QCOMPARE(d.title, u"DataLoader out of shared memory (/dev/shm 64 MiB)"_qs);
    QCOMPARE(d.responsible, u"job"_qs);
    QVERIFY(!d.retryHelps);
    QVERIFY(d.fix.contains(u"Memory emptyDir"_qs));
    QCOMPARE(d.evidence.size(), 2);
    QCOMPARE(d.evidence[0].line, 201);
    QCOMPARE(d.evidence[1].line, 203);
    QVERIFY(d.evidence[1].text.startsWith(u"RuntimeError: DataLoader worker (pid 2345)"_qs));
    QCOMPARE(d.evidence[0].where, u"log of pytorch"_qs);
}

void TestDoctor::danglingSymlinkBeforeMissingScript()
{
    // The demo's mmdet-train (gpudesk-sim's CrashSymlink), restarted: the previous container's log.
    const QByteArray log = "+ cd /workspace\n+ ls -l /workspace/start.sh\n"
                           "lrwxrwxrwx 1 root root 41 Nov 20 09:12 /workspace/start.sh -> "
                           "/mnt/user/wangfang/old-project/start.sh\n+ exec /workspace/start.sh\n"
                           "/bin/bash: line 1: /workspace/start.sh: No such file or directory\n";
    DiagnosisInput::Container c = failed(log, 127, u"CrashLoopBackOff"_qs);
    c.state = u"waiting"_qs;
    c.restarts = 27;
    const QList<Diagnosis> found = Doctor(DoctorRules::builtIn()).diagnose(pod({c}));
    QVERIFY(!found.isEmpty());
    QCOMPARE(found[0].rule, u"launch-script-dangling-symlink"_qs);
    // "Launch script not found" is also true, and less specific: the symlink's rule subsumes
    // it, so it is not said again under "Also:"; what it saw is the first one's evidence.
    QVERIFY(std::none_of(found.cbegin() + 1, found.cend(),
                         [](const Diagnosis &d) { return d.cls == u"launch-script"_qs; }));
    QCOMPARE(found[0].evidence.size(), 2);
    QCOMPARE(found[0].evidence[0].line, 3);
    QCOMPARE(found[0].evidence[1].line, 5);
}

void TestDoctor::linkOutsideFromTheNas()
{
    // The demo's seg-train: bash cannot open the script; the log alone cannot say why.
    DiagnosisInput::Container c =
        failed("bash: /workspace/start.sh: No such file or directory\n", 127, u"Error"_qs);
    DiagnosisInput in = pod({c});
    const Doctor doctor(DoctorRules::builtIn());
    QCOMPARE(doctor.diagnose(in).value(0).rule, u"launch-script-missing"_qs);
    // The NAS says what the submit check would: a link by the node's path, the file there.
    const QString target = u"/mnt/user/zhangwei/code/seg/tools/dist_train.sh"_qs;
    DiagnosisInput::NasFact ok;
    ok.code = u"launch-script-ok"_qs;
    ok.path = u"/workspace/run.sh"_qs;
    in.nas = {ok,
              {u"launch-script-link-outside"_qs, u"/workspace/start.sh is a link to "_qs + target,
               u"Run /workspace/tools/dist_train.sh."_qs, u"/workspace/start.sh"_qs, target,
               u"/workspace/tools/dist_train.sh"_qs, u"/mnt/user/zhangwei/code/seg/tools"_qs,
               u"/mnt/user/zhangwei/code/seg/tools"_qs}};
    QList<Diagnosis> found = doctor.diagnose(in);
    QCOMPARE(found.value(0).rule, u"launch-script-link-outside"_qs);
    QCOMPARE(found[0].title,
             u"Launch script /workspace/start.sh links to a path the container does not have"_qs);
    QVERIFY2(found[0].cause.contains(target), qPrintable(found[0].cause));
    QCOMPARE(found[0].fix, u"Run /workspace/tools/dist_train.sh."_qs); // the NAS check's own
    // The NAS's words and the log's line, the missing script's rule folded in.
    QCOMPARE(found[0].evidence.size(), 2);
    QCOMPARE(found[0].evidence[0].where + found[0].evidence[1].text.left(5), u"NASbash:"_qs);
    QCOMPARE(found[0].evidence[1].line, 1);
    QVERIFY(std::none_of(found.cbegin() + 1, found.cend(),
                         [](const Diagnosis &d) { return d.cls == u"launch-script"_qs; }));
    // The fix carries its paths, read back as they went in.
    const auto fix = SpecFixes::resolvedPathOf(found[0].specFix);
    QVERIFY2(fix, qPrintable(found[0].specFix));
    QCOMPARE(fix->path, u"/workspace/start.sh"_qs);
    QCOMPARE(fix->resolved, u"/workspace/tools/dist_train.sh"_qs);
    QCOMPARE(fix->mountAt, u"/mnt/user/zhangwei/code/seg/tools"_qs);
    // No folder the pod mounts holds the target: the folder mounted where the link leads.
    in.nas[1].resolved.clear();
    found = doctor.diagnose(in);
    QCOMPARE(SpecFixes::resolvedPathOf(found[0].specFix)->mountNode,
             u"/mnt/user/zhangwei/code/seg/tools"_qs);
    QVERIFY(SpecFixes::resolvedPathOf(found[0].specFix)->resolved.isEmpty());
    // Nothing to mount either: the words, and no fix to make.
    in.nas[1].mountNode.clear();
    in.nas[1].mountAt.clear();
    QVERIFY(doctor.diagnose(in)[0].specFix.isEmpty());
    QVERIFY(!SpecFixes::resolvedPathOf(u"resolved-path:[\"relative\", \"/x\"]"_qs));
    // A link whose target the NAS did not find is not said to lead to a file that is there.
    in.nas[1].code = u"launch-script-link-outside-unconfirmed"_qs;
    QCOMPARE(doctor.diagnose(in).value(0).rule, u"launch-script-missing"_qs);
    QStringList errors;
    DoctorRules::parse(R"({"rules": [{"id": "a", "class": "x", "title": "A",
        "match": {"nas": ["launch-script-outside"]}}]})",
                       u"lab.json"_qs, &errors);
    QVERIFY2(errors.size() == 1 && errors[0].contains(u"launch-script-outside"_qs),
             qPrintable(errors.join(u'\n')));
}

void TestDoctor::onlySubsumedRulesFold()
{
    // Two rules of one class may be two causes, each with its fix: both are said. One that
    // subsumes the other says it once, with both lines as evidence.
    const QByteArray two = R"({"rules": [
      {"id": "a", "class": "x", "priority": 60, "match": {"log": ["alpha"]}, "title": "A"},
      {"id": "b", "class": "x", "priority": 50, "match": {"log": ["beta"]}, "title": "B"}]})";
    QStringList errors;
    const DiagnosisInput in = pod({failed("alpha\nbeta\n", 1)});
    QList<Diagnosis> found = Doctor(DoctorRules::parse(two, u"lab.json"_qs, &errors)).diagnose(in);
    QVERIFY2(errors.isEmpty(), qPrintable(errors.join(u'\n')));
    QCOMPARE(found.size(), 2);
    QCOMPARE(found[1].title, u"B"_qs);
    QByteArray subsuming = two;
    subsuming.replace(R"("id": "a",)", R"("id": "a", "subsumes": ["b"],)");
    found = Doctor(DoctorRules::parse(subsuming, u"lab.json"_qs, &errors)).diagnose(in);
    QCOMPARE(found.size(), 1);
    QCOMPARE(found[0].title, u"A"_qs);
    QCOMPARE(found[0].evidence.size(), 2);
    QCOMPARE(found[0].evidence[1].text, u"beta"_qs);
}

void TestDoctor::chinese()
{
    DiagnosisInput in = pod({failed("", 137, u"OOMKilled"_qs)});
    in.memoryLimitMiB = 32768;
    const QList<Diagnosis> found = Doctor(DoctorRules::builtIn(), u"zh_CN"_qs).diagnose(in);
    QVERIFY(!found.isEmpty());
    QCOMPARE(found.first().title, u"因内存被杀：pytorch 超出了内存上限"_qs);
    QCOMPARE(found.first().classTitle, u"因超出内存上限被杀"_qs);
    QVERIFY(found.first().cause.contains(u"32768 MiB"_qs));
}

// The admin's grouping by cause (the Workloads cause filter, --report's diagnosisClasses[]):
// one title per class, not the words of whichever pod came first — two pods whose containers
// had other names were one class under two titles.
void TestDoctor::classesGroupUnderTheirOwnTitle()
{
    ClusterStore store;
    DiagnosisBook book;
    const Doctor doctor(DoctorRules::builtIn());
    const auto put = [&](const QString &uid, const QString &container, const QString &owner) {
        DiagnosisInput in = pod({failed("", 137, u"OOMKilled"_qs)});
        in.containers.first().name = container;
        PodInfo p;
        p.uid = uid;
        p.ns = u"user-alice"_qs;
        p.name = uid;
        p.owner = OwnerRef{u"PyTorchJob"_qs, owner, u"uid-"_qs + owner};
        store.replacePods(QList<PodInfo>(store.pods().cbegin(), store.pods().cend()) << p);
        DiagnosisBook::Entry e;
        e.uid = uid;
        e.ns = p.ns;
        e.pod = p.name;
        e.diagnoses = doctor.diagnose(in);
        QVERIFY(!e.diagnoses.isEmpty());
        book.put(e);
    };
    put(u"a"_qs, u"trainer"_qs, u"job-a"_qs);
    put(u"b"_qs, u"pytorch"_qs, u"job-b"_qs);
    put(u"c"_qs, u"pytorch"_qs, u"job-b"_qs);
    store.flush();
    QCOMPARE(book.entry(u"a"_qs)->diagnoses.first().title,
             u"Killed for memory: trainer went over its limit"_qs);
    const QList<DiagnosisBook::ClassCount> classes = book.byClass(store);
    QCOMPARE(classes.size(), 1);
    QCOMPARE(classes.first().cls, u"memory"_qs);
    QCOMPARE(classes.first().title, u"Killed for memory (over its limit)"_qs);
    QCOMPARE(classes.first().pods, 3);
    QCOMPARE(classes.first().jobs, QStringList({u"user-alice/job-a"_qs, u"user-alice/job-b"_qs}));

    // A lab's class with a title of its own; one without falls back to its rule's words, and
    // the file says so.
    const QByteArray lab = R"j({"classes": {"nas-quota": {"title": "NAS quota full",
                                                        "title.zh_CN": "NAS 配额已满"},
                                            "untitled": {"title.zh_CN": "无英文标题"},
                                            "memory": {"title": "Out of host memory"}},
        "rules": [{"id": "lab-quota", "class": "nas-quota", "match": {"log": "Disk quota exceeded"},
                   "title": "Quota: {match}"}]})j";
    QStringList errors;
    DoctorRules rules = DoctorRules::builtIn();
    rules.merge(DoctorRules::parse(lab, u"lab.json"_qs, &errors));
    QCOMPARE(errors.size(), 1);
    QVERIFY2(errors.first().contains(u"class untitled: has no title"_qs),
             qPrintable(errors.first()));
    QCOMPARE(rules.classTitle(u"nas-quota"_qs).value(u"zh_CN"_qs), u"NAS 配额已满"_qs);
    // A shipped class renamed in English keeps its Chinese title; the others stay as shipped.
    QCOMPARE(rules.classTitle(u"memory"_qs).value(QString()), u"Out of host memory"_qs);
    QCOMPARE(rules.classTitle(u"memory"_qs).value(u"zh_CN"_qs), u"因超出内存上限被杀"_qs);
    QCOMPARE(rules.classTitle(u"gpu-memory"_qs).value(QString()), u"GPU out of memory"_qs);
    const QList<Diagnosis> quota =
        Doctor(rules, u"zh_CN"_qs).diagnose(pod({failed("OSError: Disk quota exceeded\n")}));
    QVERIFY(!quota.isEmpty());
    QCOMPARE(quota.first().classTitle, u"NAS 配额已满"_qs);
}

void TestDoctor::aLabAddsAClass()
{
    // A lab's own rule: its storage's quota error, a class gpudesk does not ship; and a shipped
    // rule replaced by id (the lab wants retries for NCCL timeouts to say no).
    const QByteArray lab = R"j({"rules": [
        {"id": "lab-quota", "class": "nas-quota", "priority": 70,
         "match": {"log": "OSError: \\[Errno 122\\] Disk quota exceeded"},
         "title": "NAS quota full", "title.zh_CN": "NAS 配额已满",
         "cause": "Your NAS folder is at its quota.", "fix": "Delete old checkpoints.",
         "responsible": "job", "retryHelps": false},
        {"id": "nccl-timeout", "class": "nccl", "priority": 80,
         "match": {"log": "Watchdog caught collective operation timeout"},
         "title": "NCCL timeout (lab rule)", "retryHelps": false}]})j";
    QStringList errors;
    DoctorRules rules = DoctorRules::builtIn();
    const int shipped = int(rules.rules().size());
    rules.merge(DoctorRules::parse(lab, u"lab.json"_qs, &errors));
    QVERIFY2(errors.isEmpty(), qPrintable(errors.join(u'\n')));
    QCOMPARE(rules.rules().size(), shipped + 1);
    const Doctor doctor(rules);
    const QList<Diagnosis> quota = doctor.diagnose(
        pod({failed("saving checkpoint\nOSError: [Errno 122] Disk quota exceeded\n")}));
    QVERIFY(!quota.isEmpty());
    QCOMPARE(quota.first().cls, u"nas-quota"_qs);
    QCOMPARE(quota.first().evidence.first().line, 2);
    const QList<Diagnosis> nccl =
        doctor.diagnose(pod({failed("Watchdog caught collective operation timeout\n")}));
    QCOMPARE(nccl.first().title, u"NCCL timeout (lab rule)"_qs);
}

void TestDoctor::runawayPatternsRefused_data()
{
    QTest::addColumn<QString>("pattern");
    QTest::addColumn<QString>("why");
    QTest::newRow("nested") << u"(a+)+$"_qs << u"repeated group"_qs;
    QTest::newRow("nested star") << u"^(\\w*\\s?)*done"_qs << u"repeated group"_qs;
    QTest::newRow("backref") << u"(\\w+) \\1"_qs << u"back references"_qs;
    QTest::newRow("wildcards") << u"a.*b.*c.*d"_qs << u"wildcards"_qs;
    QTest::newRow("long") << QString(401, u'x') << u"longer than 400"_qs;
}

void TestDoctor::runawayPatternsRefused()
{
    QFETCH(QString, pattern);
    QFETCH(QString, why);
    QVERIFY2(DoctorRules::refusal(pattern).contains(why),
             qPrintable(DoctorRules::refusal(pattern)));
    // In a file: that rule is left out and said; the others stay.
    const QByteArray file =
        QByteArray(R"j({"rules": [{"id": "bad", "class": "x", "title": "x", "match": {"log": )j") +
        QJsonDocument(QJsonArray{pattern}).toJson(QJsonDocument::Compact) +
        R"j(}}, {"id": "good", "class": "y", "title": "y", "match": {"log": "fine"}}]})j";
    QStringList errors;
    const DoctorRules rules = DoctorRules::parse(file, u"lab.json"_qs, &errors);
    QCOMPARE(rules.rules().size(), 1);
    QCOMPARE(rules.rules().first().id, u"good"_qs);
    QCOMPARE(errors.size(), 1);
    QVERIFY2(errors.first().startsWith(u"lab.json, rule bad: the pattern"_qs),
             qPrintable(errors.first()));
    // The shipped patterns pass the same check.
    QVERIFY(DoctorRules::refusal(u"NCCL error.{0,120}unhandled system error"_qs).isEmpty());
}

void TestDoctor::brokenRulesFile()
{
    QStringList errors;
    QCOMPARE(DoctorRules::parse("{\"rules\": [", u"lab.json"_qs, &errors).rules().size(), 0);
    QCOMPARE(errors.size(), 1);
    QVERIFY2(errors.first().startsWith(u"lab.json: not a rules file"_qs),
             qPrintable(errors.first()));
    errors.clear();
    const DoctorRules r = DoctorRules::parse(
        R"j({"rules": [{"class": "x", "title": "t", "match": {"log": "a"}},
                      {"id": "b", "class": "x", "title": "t", "match": {"log": "(unclosed"}},
                      {"id": "c", "class": "x", "match": {"log": "a"}},
                      {"id": "d", "class": "x", "title": "t"}]})j",
        u"lab.json"_qs, &errors);
    QCOMPARE(r.rules().size(), 0);
    QCOMPARE(errors.size(), 4);
    QVERIFY2(errors[1].contains(u"is not valid"_qs), qPrintable(errors[1]));
    QVERIFY2(errors[2].contains(u"has no title"_qs), qPrintable(errors[2]));
    QVERIFY2(errors[3].contains(u"matches nothing"_qs), qPrintable(errors[3]));
}

void TestDoctor::boundedLogs()
{
    // 8 MiB of binary noise with no newline, then the error: only the last 64 KiB are read,
    // line numbers follow the tail's start, and a line of megabytes is read by its start.
    QByteArray noise(8 << 20, '\0');
    for (int i = 0; i < noise.size(); ++i)
        noise[i] = char(0x80 | (i & 0x7f)); // invalid UTF-8, and never a newline
    QByteArray log = "line one\n" + noise + "\nCUDA error: out of memory\n";
    DiagnosisInput in = pod({failed(log)});
    QElapsedTimer t;
    t.start();
    const QList<Diagnosis> found = Doctor(DoctorRules::builtIn()).diagnose(in);
    QVERIFY2(t.elapsed() < 2000, qPrintable(QString::number(t.elapsed())));
    QVERIFY(!found.isEmpty());
    QCOMPARE(found.first().rule, u"gpu-oom"_qs);
    QCOMPARE(found.first().evidence.first().line, 3); // line one, the noise, then this
    // Invalid UTF-8 around the error: read, not refused.
    DiagnosisInput bad =
        pod({failed("\xff\xfe\xfd torch.cuda.OutOfMemoryError: CUDA out of memory\n")});
    QCOMPARE(Doctor(DoctorRules::builtIn()).diagnose(bad).first().rule, u"gpu-oom"_qs);
}

// The job's own log blames its code (a CUDA error); the node's kernel says the card fell off
// the bus while it ran: the hardware is the cause, said first, with the driver's line.
void TestDoctor::gpuFaultFromTheNodesKernel()
{
    const QByteArray log = "Traceback (most recent call last):\n"
                           "  File \"/workspace/train.py\", line 214, in <module>\n"
                           "    loss.backward()\n"
                           "RuntimeError: CUDA error: an illegal memory access was encountered\n";
    DiagnosisInput in = pod({failed(log, 1)});
    in.node = u"g4090-09"_qs;
    const Doctor doctor(DoctorRules::builtIn());
    // Without the node's lines: the code's error, as before.
    QCOMPARE(doctor.diagnose(in).first().cls, u"cuda-error"_qs);
    // As the NVIDIA driver writes them (dmesg --time-format iso, kernellog::nvrmLines).
    in.nodeKernel = {
        u"2026-11-26T16:39:56,512004+00:00 NVRM: Xid (PCI:0000:2a:00): 13, pid=2231, "
        u"name=python, Graphics SM Warp Exception on (GPC 0, TPC 1, SM 0): Out Of Range Address"_qs,
        u"2026-11-26T16:43:56,512004+00:00 NVRM: Xid (PCI:0000:2a:00): 79, pid='<unknown>', "
        u"name=<unknown>, GPU has fallen off the bus."_qs,
        u"2026-11-26T16:43:56,513310+00:00 NVRM: GPU 0000:2a:00.0: GPU has fallen off the bus."_qs};
    QList<Diagnosis> found = doctor.diagnose(in);
    QVERIFY(!found.isEmpty());
    const Diagnosis &d = found.first();
    QCOMPARE(d.rule, u"gpu-xid-hardware"_qs);
    QCOMPARE(d.cls, u"gpu-hardware"_qs);
    QCOMPARE(d.title, u"GPU fault on g4090-09: Xid 79"_qs);
    QCOMPARE(d.responsible, u"hardware"_qs);
    QVERIFY(d.retryHelps);
    QVERIFY2(d.fix.contains(u"cordons g4090-09"_qs), qPrintable(d.fix));
    // The newest matching line is the evidence; Xid 13 (the program's own fault) is not one.
    QCOMPARE(d.evidence.size(), 1);
    QCOMPARE(d.evidence[0].where, u"kernel log of g4090-09"_qs);
    QVERIFY(d.evidence[0].text.contains(u"Xid (PCI:0000:2a:00): 79"_qs));
    // The job's own error is still said, after it.
    QVERIFY(std::any_of(found.cbegin(), found.cend(),
                        [](const Diagnosis &x) { return x.cls == u"cuda-error"_qs; }));
    // In Chinese too, the node and the code filled in.
    const QList<Diagnosis> zh = Doctor(DoctorRules::builtIn(), u"zh_CN"_qs).diagnose(in);
    QCOMPARE(zh.first().title, u"g4090-09 上的 GPU 故障：Xid 79"_qs);

    // Only the program's Xid 13: no hardware cause.
    in.nodeKernel.resize(1);
    found = doctor.diagnose(in);
    QVERIFY(std::none_of(found.cbegin(), found.cend(),
                         [](const Diagnosis &x) { return x.cls == u"gpu-hardware"_qs; }));
}

// No Xid line is left in the node's kernel log, but nvidia-smi there counts uncorrectable ECC
// errors on a card. The counter is the card's since its driver loaded, not the pod's: the
// runtime's own ECC error is the hardware with any card counting them; a CUDA error that is
// usually the code's only with a card the pod was seen on.
void TestDoctor::uncorrectableEccFromTheCards()
{
    const QByteArray ecc = "  File \"/workspace/train.py\", line 203, in <module>\n"
                           "    optimizer.step()\n"
                           "RuntimeError: CUDA error: uncorrectable ECC error encountered\n";
    DiagnosisInput in = pod({failed(ecc, 1)});
    in.node = u"a800-01"_qs;
    const Doctor doctor(DoctorRules::builtIn());
    // The node unread: the runtime's words alone.
    Diagnosis d = doctor.diagnose(in).first();
    QCOMPARE(d.rule, u"cuda-ecc-uncorrectable"_qs);
    QCOMPARE(d.responsible, u"hardware"_qs);
    QVERIFY2(d.fix.contains(u"(a800-01)"_qs), qPrintable(d.fix));
    // A card of the node with none, one with two: the pod's cards are not known (it ended).
    in.nodeEcc = {{0, u"GPU-aaaa"_qs, 0, false}, {3, u"GPU-3b1f"_qs, 2, false}};
    QList<Diagnosis> found = doctor.diagnose(in);
    d = found.first();
    QCOMPARE(d.rule, u"gpu-ecc-uncorrectable"_qs);
    QCOMPARE(d.cls, u"gpu-hardware"_qs);
    // The runtime's own ECC rule, of the same class, is not said again without the card.
    QCOMPARE(std::count_if(found.cbegin(), found.cend(),
                           [](const Diagnosis &x) { return x.cls == u"gpu-hardware"_qs; }),
             1);
    QCOMPARE(d.title, u"Uncorrectable ECC errors on a800-01: GPU 3"_qs);
    QVERIFY(d.retryHelps);
    QVERIFY2(d.fix.contains(u"cordons a800-01"_qs) && d.fix.contains(u"has GPU 3 checked"_qs),
             qPrintable(d.fix));
    // The log line, then nvidia-smi's field: only the card that counts errors.
    QCOMPARE(d.evidence.size(), 2);
    QCOMPARE(d.evidence[0].line, 3);
    QCOMPARE(d.evidence[1].where, u"nvidia-smi on a800-01"_qs);
    QCOMPARE(d.evidence[1].text, u"GPU 3 GPU-3b1f: ecc.errors.uncorrected.volatile.total 2"_qs);
    const QList<Diagnosis> zh = Doctor(DoctorRules::builtIn(), u"zh_CN"_qs).diagnose(in);
    QCOMPARE(zh.first().title, u"a800-01 的 GPU 3 出现不可纠正的 ECC 错误"_qs);
    // The pod's own cards seen, and the faulty one is not among them: the card is not named.
    in.podCardsKnown = true;
    in.nodeEcc[0].podsCard = true;
    QCOMPARE(doctor.diagnose(in).first().rule, u"cuda-ecc-uncorrectable"_qs);

    // An illegal memory access — most often the code's — on a node with such a card.
    DiagnosisInput access = pod({failed("RuntimeError: CUDA error: an illegal memory access was "
                                        "encountered\n",
                                        1)});
    access.node = in.node;
    access.nodeEcc = {{0, u"GPU-aaaa"_qs, 0, false}, {3, u"GPU-3b1f"_qs, 2, false}};
    // Which cards it had is not known: the code's error, as without the card.
    found = doctor.diagnose(access);
    QCOMPARE(found.first().cls, u"cuda-error"_qs);
    QVERIFY(std::none_of(found.cbegin(), found.cend(),
                         [](const Diagnosis &x) { return x.cls == u"gpu-hardware"_qs; }));
    // Seen on another card: the same.
    access.podCardsKnown = true;
    access.nodeEcc[0].podsCard = true;
    QCOMPARE(doctor.diagnose(access).first().cls, u"cuda-error"_qs);
    // Seen on the faulty card (a pod that crash-loops there): the card is the likely cause.
    access.nodeEcc[1].podsCard = true;
    d = doctor.diagnose(access).first();
    QCOMPARE(d.rule, u"gpu-ecc-cuda-error"_qs);
    QCOMPARE(d.title, u"CUDA error on a card with uncorrectable ECC errors: GPU 3 of a800-01"_qs);

    // A card with errors and a pod that ended well: nothing of the hardware.
    DiagnosisInput healthy = pod({failed("Epoch 1/50\nloss 2.31\n", 0, u"Completed"_qs)});
    healthy.phase = u"Succeeded"_qs;
    healthy.node = in.node;
    healthy.nodeEcc = access.nodeEcc;
    healthy.podCardsKnown = true;
    QCOMPARE(doctor.diagnose(healthy).size(), 0);

    // A lab's rule: true or "ownCards"; a rule whose only criterion is false matches nothing.
    QStringList errors;
    const DoctorRules r = DoctorRules::parse(
        R"j({"rules": [{"id": "e", "class": "x", "title": "t",
                        "match": {"nodeEccUncorrected": "yes"}},
                       {"id": "f", "class": "x", "title": "t",
                        "match": {"nodeEccUncorrected": false}},
                       {"id": "g", "class": "x", "title": "t",
                        "match": {"nodeEccUncorrected": "ownCards"}}]})j",
        u"lab.json"_qs, &errors);
    QCOMPARE(r.rules().size(), 1);
    QVERIFY(r.rules().first().nodeEccOwnCards);
    QCOMPARE(errors.size(), 2);
    QVERIFY2(errors[0].contains(u"true or \"ownCards\""_qs), qPrintable(errors[0]));
    QVERIFY2(errors[1].contains(u"matches nothing"_qs), qPrintable(errors[1]));
}

QTEST_GUILESS_MAIN(TestDoctor)
// A job that runs, on two RDMA nodes: NCCL over sockets is told — from its variables (no log
// needed: NCCL says nothing without NCCL_DEBUG) or from the head of its log — and nothing else
// is asked of a pod that runs well.
void TestDoctor::slowNcclWhileRunning()
{
    const Doctor doctor(DoctorRules::builtIn());
    DiagnosisInput::Container c;
    c.name = u"pytorch"_qs;
    c.state = u"running"_qs;
    c.firstLine = 1;
    DiagnosisInput in = pod({c});
    in.phase = u"Running"_qs;
    in.running = true;
    in.env = {u"NCCL_DEBUG=INFO"_qs, u"NCCL_IB_DISABLE=1"_qs};
    in.jobNodes = {u"g4090-06"_qs, u"g4090-10"_qs};
    in.jobNodesRdma = true;
    QList<Diagnosis> found = doctor.diagnose(in);
    QCOMPARE(found.size(), 1);
    QCOMPARE(found.first().rule, u"nccl-ib-disabled"_qs);
    QCOMPARE(found.first().cls, u"nccl-slow"_qs);
    QVERIFY2(found.first().title.contains(u"NCCL_IB_DISABLE=1"_qs),
             qPrintable(found.first().title));
    QVERIFY2(found.first().cause.contains(u"its 2 nodes"_qs), qPrintable(found.first().cause));
    QCOMPARE(found.first().specFix, u"remove-env:NCCL_IB_DISABLE"_qs);
    QCOMPARE(found.first().evidence.first().text, u"NCCL_IB_DISABLE=1"_qs);
    QCOMPARE(found.first().evidence.last().text, u"g4090-06, g4090-10"_qs);
    // NCCL reads the variable as a number: "true" leaves InfiniBand on, nothing to tell.
    DiagnosisInput word = in;
    word.env = {u"NCCL_IB_DISABLE=true"_qs};
    QVERIFY(doctor.diagnose(word).isEmpty());
    word.env = {u"NCCL_IB_DISABLE=01"_qs};
    QCOMPARE(doctor.diagnose(word).value(0).title,
             u"NCCL over TCP sockets: NCCL_IB_DISABLE=01 on InfiniBand/RoCE nodes"_qs);

    // Where NCCL_DEBUG lets NCCL speak, its own words join the evidence, with their lines.
    DiagnosisInput told = in;
    told.containers[0].logTail = "INFO torch.distributed: initializing process group\n"
                                 "y-0:1:1 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 1.\n"
                                 "y-0:1:1 [0] NCCL INFO Using network Socket\n";
    found = doctor.diagnose(told);
    QCOMPARE(found.value(0).evidence.size(), 4);
    QCOMPARE(found.value(0).evidence[2].line, 2);
    QCOMPARE(found.value(0).evidence[3].text, u"y-0:1:1 [0] NCCL INFO Using network Socket"_qs);

    // Not on RDMA nodes (sockets are all there is), or on one node (NVLink, shared memory):
    // nothing to tell.
    DiagnosisInput plain = in;
    plain.jobNodesRdma = false;
    QVERIFY(doctor.diagnose(plain).isEmpty());
    DiagnosisInput one = in;
    one.jobNodes = {u"g4090-06"_qs};
    QVERIFY(doctor.diagnose(one).isEmpty());

    // No variable, but the pod has no RDMA device: NCCL's start says it fell back.
    DiagnosisInput fallback = in;
    fallback.env = {u"NCCL_DEBUG=INFO"_qs};
    fallback.containers[0].logTail = "INFO torch.distributed: initializing process group\n"
                                     "train-0:1:1 [0] NCCL INFO NET/IB : No device found.\n"
                                     "train-0:1:1 [0] NCCL INFO Using network Socket\nEpoch 1/50\n";
    found = doctor.diagnose(fallback);
    QCOMPARE(found.size(), 1);
    QCOMPARE(found.first().rule, u"nccl-ib-fallback"_qs);
    QCOMPARE(found.first().evidence.last().line, 3); // the head's lines are numbered
    QVERIFY(found.first().specFix.isEmpty());        // a device to ask for: the admin's word

    // A running pod's head is not read for failures (a caught OOM, a retried timeout); the
    // same words in a failed pod are its cause.
    DiagnosisInput caught = in;
    caught.env.clear();
    caught.containers[0].logTail = "torch.cuda.OutOfMemoryError: CUDA out of memory.\n";
    QVERIFY(doctor.diagnose(caught).isEmpty());
    caught.running = false;
    caught.phase = u"Failed"_qs;
    QCOMPARE(doctor.diagnose(caught).value(0).cls, u"gpu-memory"_qs);
}

// The fixes gpudesk can make, as the rules name them; a lab's rule that names another is
// refused when its file is read.
void TestDoctor::specFixes()
{
    const Doctor doctor(DoctorRules::builtIn());
    QCOMPARE(doctor.diagnose(pod({failed("ERROR: Unexpected bus error encountered in worker.\n")}))
                 .value(0)
                 .specFix,
             u"shared-memory"_qs);
    QCOMPARE(doctor.diagnose(pod({failed({}, 137, u"OOMKilled"_qs)})).value(0).specFix,
             u"memory-limit"_qs);
    QStringList errors;
    const DoctorRules lab = DoctorRules::parse(R"j({"rules": [
        {"id": "a", "class": "x", "match": {"log": "A"}, "title": "A", "specFix": "reboot-node"},
        {"id": "b", "class": "x", "match": {"log": "B"}, "title": "B", "specFix": "remove-env:$(x)"},
        {"id": "c", "class": "x", "match": {"log": "C"}, "title": "C",
         "specFix": "remove-env:CUDA_LAUNCH_BLOCKING"}]})j",
                                               u"lab.json"_qs, &errors);
    QCOMPARE(lab.rules().size(), 1);
    QCOMPARE(lab.rules().first().specFix, u"remove-env:CUDA_LAUNCH_BLOCKING"_qs);
    QCOMPARE(errors.size(), 2);
    QVERIFY2(errors.first().contains(u"reboot-node"_qs), qPrintable(errors.first()));
}

#include "tst_doctor.moc"
