// SPDX-License-Identifier: GPL-3.0-or-later
// What the job doctor reads of a pod as the API serves it: a crash-looping container's last
// termination (OOMKilled, 137 → KILL), /dev/shm from a Memory emptyDir (its sizeLimit, else the
// memory limit), the variables and the command; the pod's events in time order; which log tails
// it asks for and how (the server's bounds, the previous container's for a restart); which pods
// it diagnoses, and when a diagnosis no longer holds.
#include "diagnosisbook.h"
#include "diagnosisdecoder.h"
#include "entities.h"

#include <QTest>
#include <QUrlQuery>

using namespace gpudesk;

class TestDiagnosisDecoder : public QObject
{
    Q_OBJECT
private slots:
    void crashLoopReadsItsLastTermination();
    void sharedMemoryAndSpec();
    void notAPod();
    void eventsInTimeOrder();
    void logRequestsAreBounded();
    void troubledAndStale();
};

void TestDiagnosisDecoder::crashLoopReadsItsLastTermination()
{
    const QByteArray pod = R"({"apiVersion":"v1","kind":"Pod",
      "metadata":{"name":"train-0","namespace":"user-bob","uid":"u1"},
      "spec":{"containers":[{"name":"pytorch","image":"x",
        "resources":{"limits":{"memory":"16Gi","nvidia.com/gpu":"1"}}}]},
      "status":{"phase":"Running","containerStatuses":[
        {"name":"pytorch","restartCount":3,"ready":false,
         "state":{"waiting":{"reason":"CrashLoopBackOff",
                             "message":"back-off 40s restarting failed container=pytorch"}},
         "lastState":{"terminated":{"exitCode":137,"reason":"OOMKilled",
                                    "startedAt":"2026-11-27T10:00:00Z",
                                    "finishedAt":"2026-11-27T10:05:00Z"}}},
        {"name":"sidecar","restartCount":0,"state":{"running":{"startedAt":"2026-11-27T09:00:00Z"}}}]}})";
    DiagnosisInput in;
    QString error;
    QVERIFY2(DiagnosisDecoder::decode(pod, &in, &error), qPrintable(error));
    QCOMPARE(in.ns, QStringLiteral("user-bob"));
    QCOMPARE(in.pod, QStringLiteral("train-0"));
    QCOMPARE(in.phase, QStringLiteral("Running"));
    QCOMPARE(in.containers.size(), 2);
    const DiagnosisInput::Container &c = in.containers[0];
    QCOMPARE(c.state, QStringLiteral("waiting"));
    QCOMPARE(c.reason, QStringLiteral("OOMKilled"));
    QCOMPARE(c.message, QStringLiteral("back-off 40s restarting failed container=pytorch"));
    QCOMPARE(c.exitCode, std::optional<int>(137));
    QCOMPARE(c.signal, std::optional<int>(9));
    QCOMPARE(c.restarts, 3);
    QCOMPARE(in.memoryLimitMiB, 16 * 1024);
    QCOMPARE(in.shmMiB, 64); // no /dev/shm volume: the runtime's default
    // The crash-looping container's previous log; the sidecar that runs says nothing.
    const auto logs = DiagnosisDecoder::logsWanted(in);
    QCOMPARE(logs.size(), 1);
    QCOMPARE(logs[0].container, QStringLiteral("pytorch"));
    QVERIFY(logs[0].previous);
}

void TestDiagnosisDecoder::sharedMemoryAndSpec()
{
    const QByteArray pod = R"({"kind":"Pod","metadata":{"name":"p","namespace":"n"},
      "spec":{"containers":[{"name":"main","command":["torchrun"],"args":["--nproc_per_node=8","train.py"],
        "env":[{"name":"NCCL_DEBUG","value":"INFO"},{"name":"RANK","valueFrom":{"fieldRef":{"fieldPath":"x"}}}],
        "resources":{"limits":{"memory":"32Gi"}},
        "volumeMounts":[{"name":"dshm","mountPath":"/dev/shm"},{"name":"data","mountPath":"/data"}]}],
        "volumes":[{"name":"data","emptyDir":{"medium":"Memory","sizeLimit":"1Gi"}},
                   {"name":"dshm","emptyDir":{"medium":"Memory","sizeLimit":"8Gi"}}]},
      "status":{"phase":"Failed","reason":"Evicted","message":"The node was low on resource: memory.",
        "containerStatuses":[{"name":"main","restartCount":0,
          "state":{"terminated":{"exitCode":135,"reason":"Error"}}}]}})";
    DiagnosisInput in;
    QString error;
    QVERIFY2(DiagnosisDecoder::decode(pod, &in, &error), qPrintable(error));
    QCOMPARE(in.reason, QStringLiteral("Evicted"));
    QCOMPARE(in.message, QStringLiteral("The node was low on resource: memory."));
    QCOMPARE(in.shmMiB, 8 * 1024); // the volume mounted at /dev/shm, not the other one
    QCOMPARE(in.memoryLimitMiB, 32 * 1024);
    QCOMPARE(in.env, (QStringList{u"NCCL_DEBUG=INFO"_qs, u"RANK="_qs}));
    QCOMPARE(in.command, (QStringList{u"torchrun"_qs, u"--nproc_per_node=8"_qs, u"train.py"_qs}));
    QCOMPARE(in.containers[0].state, QStringLiteral("terminated"));
    QCOMPARE(in.containers[0].signal, std::optional<int>(7)); // 135: BUS
    const auto logs = DiagnosisDecoder::logsWanted(in);
    QCOMPARE(logs.size(), 1);
    QVERIFY(!logs[0].previous); // the container that ended: its own log

    // Without a sizeLimit, a Memory emptyDir is bounded by the pod's memory limit.
    QByteArray unbounded = pod;
    unbounded.replace(R"("medium":"Memory","sizeLimit":"8Gi")", R"("medium":"Memory")");
    QVERIFY(DiagnosisDecoder::decode(unbounded, &in, &error));
    QCOMPARE(in.shmMiB, 32 * 1024);
}

void TestDiagnosisDecoder::notAPod()
{
    DiagnosisInput in;
    QString error;
    QVERIFY(!DiagnosisDecoder::decode("{\"kind\":", &in, &error));
    QVERIFY2(error.startsWith(QLatin1String("not JSON")), qPrintable(error));
    QVERIFY(!DiagnosisDecoder::decode(R"({"kind":"Status","status":"Failure"})", &in, &error));
    QCOMPARE(error, QStringLiteral("not a Pod"));
    // A pod with nothing in it: read, with nothing to say.
    QVERIFY(DiagnosisDecoder::decode(R"({"kind":"Pod"})", &in, &error));
    QVERIFY(in.containers.isEmpty());
    QVERIFY(DiagnosisDecoder::logsWanted(in).isEmpty());
}

void TestDiagnosisDecoder::eventsInTimeOrder()
{
    const QByteArray list = R"({"kind":"EventList","items":[
      {"type":"Warning","reason":"Failed","message":"Error: ErrImagePull",
       "source":{"component":"kubelet"},"lastTimestamp":"2026-11-27T10:00:05Z"},
      {"type":"Normal","reason":"Pulling","message":"Pulling image","source":{"component":"kubelet"},
       "lastTimestamp":"2026-11-27T10:00:01Z"},
      {"type":"Warning","reason":"Evict","message":"Pod is evicted, because of preempt",
       "reportingComponent":"volcano","eventTime":"2026-11-27T10:00:03.000000Z"}]})";
    const QList<DiagnosisInput::Event> events = DiagnosisDecoder::decodeEvents(list);
    QCOMPARE(events.size(), 3);
    QCOMPARE(events[0].reason, QStringLiteral("Pulling"));
    QCOMPARE(events[1].reason, QStringLiteral("Evict"));
    QCOMPARE(events[1].source, QStringLiteral("volcano"));
    QCOMPARE(events[2].type, QStringLiteral("Warning"));
    QCOMPARE(events[2].message, QStringLiteral("Error: ErrImagePull"));
    QVERIFY(DiagnosisDecoder::decodeEvents("not json").isEmpty());
}

void TestDiagnosisDecoder::logRequestsAreBounded()
{
    const QString path = DiagnosisDecoder::logPath(u"user-bob"_qs, u"train-0"_qs,
                                                   {u"py torch"_qs, true}, 400, 262144);
    QVERIFY(path.startsWith(QLatin1String("/api/v1/namespaces/user-bob/pods/train-0/log?")));
    const QUrlQuery q(path.mid(path.indexOf(u'?') + 1));
    QCOMPARE(q.queryItemValue(u"container"_qs, QUrl::FullyDecoded), u"py torch"_qs);
    QCOMPARE(q.queryItemValue(u"tailLines"_qs), u"400"_qs);
    QCOMPARE(q.queryItemValue(u"limitBytes"_qs), u"262144"_qs);
    QCOMPARE(q.queryItemValue(u"previous"_qs), u"true"_qs);
    const QString events = DiagnosisDecoder::eventsPath(u"n"_qs, u"abc-123"_qs);
    QVERIFY2(events.endsWith(QLatin1String("/events?fieldSelector=involvedObject.uid%3Dabc-123")),
             qPrintable(events));
}

void TestDiagnosisDecoder::troubledAndStale()
{
    PodInfo p;
    p.uid = u"u"_qs;
    p.phase = u"Running"_qs;
    p.status = u"Running"_qs;
    QVERIFY(!DiagnosisBook::troubled(p));
    p.status = u"CrashLoopBackOff"_qs;
    p.restarts = 2;
    QVERIFY(DiagnosisBook::troubled(p));
    p.deleting = true;
    QVERIFY(!DiagnosisBook::troubled(p)); // going away: nothing to diagnose
    p.deleting = false;

    DiagnosisBook book;
    Diagnosis d;
    d.cls = u"memory"_qs;
    d.title = u"OOM"_qs;
    book.put({p.uid, u"n"_qs, u"p"_qs, DiagnosisBook::stampOf(p), {d}, {}});
    QVERIFY(book.holds(p));
    QCOMPARE(book.cause(p)->cls, u"memory"_qs);
    // Restarted once more since: the diagnosis is of the run before; it is made again.
    p.restarts = 3;
    QVERIFY(!book.holds(p));
    QVERIFY(!book.cause(p));
    QVERIFY(book.entry(p.uid)); // kept until made again
}

QTEST_GUILESS_MAIN(TestDiagnosisDecoder)
#include "tst_diagnosisdecoder.moc"
