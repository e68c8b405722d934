// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "diagnosisbook.h"
#include "launchscriptprobe.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QStringList>

#include <functional>
#include <memory>

namespace gpudesk {

class ClusterStore;
class Doctor;
class KubeClient;
class SshPool;
class ClusterSession;
class PreemptionLog;
class PreemptionWatch;
class TelemetryStore;
class WaitExplainer;
struct PodInfo;
struct SshStatus;
struct StoreChanges;

// The job doctor at work: for a pod that failed or crash-loops, its object (the store keeps
// too little of it), its events and a bounded tail of each failed container's
// log — the previous container's for a restart — are read, then diagnosed off the UI thread;
// the result goes to the book. A job that runs on two nodes or more, each with InfiniBand or
// RoCE, is asked too while it runs — one pod of it, the head of its log (where NCCL says how it
// connects), only the rules for a job that runs slower than it should. Automatic for the window
// (newest first, a few at a time, at most MaxAutomatic waiting, so that a week of failures does not
// hammer the kubelets: older ones are read when opened); one pod on request ahead of the queue (the
// Diagnosis tab); every troubled pod at once for the report.
class DiagnosisService : public QObject
{
    Q_OBJECT
public:
    static constexpr int MaxInFlight = 4;
    static constexpr int MaxAutomatic = 1000;
    // What each log request asks of the server: the last lines, at most these bytes (the
    // doctor reads the last 64 KiB of it).
    static constexpr int TailLines = 400;
    static constexpr int TailBytes = 256 * 1024;

    // `client`: the connection's client now (null when there is none).
    using ClientOf = std::function<KubeClient *()>;
    DiagnosisService(ClientOf client, ClusterStore *store, QObject *parent = nullptr);
    ~DiagnosisService() override;
    // The nodes over SSH (null when there are none): a GPU pod's node is asked for its kernel's
    // NVRM lines (Xid) since the pod was made, each node at most once a KernelCacheMs.
    using PoolOf = std::function<SshPool *()>;
    void setNodePool(PoolOf pool) { m_pool = std::move(pool); }
    static constexpr int KernelCacheMs = 60000;
    // gpudesk's own samples of the nodes (null: none): a GPU pod's node's cards that count
    // uncorrectable ECC errors go to the doctor. A pod told before its node's first sample is
    // told again when the sample comes.
    void setTelemetry(const TelemetryStore *telemetry);
    static constexpr int KernelTimeoutMs = 15000;
    // The NAS (none: not asked): a failed pod's launch scripts that its command runs from a
    // node's folder on the NAS are looked at there, as the submit check looks at them (a link
    // the container cannot follow, and where it would find the file). Its roots as the nodes
    // mount them, and how it is asked.
    struct NasAccess
    {
        std::function<QStringList()> roots;
        LaunchScriptProbe::Inspect inspect;
    };
    void setNas(NasAccess nas) { m_nas = std::move(nas); }
    static constexpr int NasTimeoutMs = 15000;
    // A pod whose NAS did not answer is asked once more this much later.
    static constexpr int NasRetryMs = 30000;

    DiagnosisBook *book() const { return m_book; }
    // Preemptions told by the events, and who took the pods' places, kept on disk per context
    // (see PreemptionWatch); null until watched.
    void watchPreemptions(ClusterSession *session);
    PreemptionLog *preemptions() const;
    // Why each waiting job waits, at the job's level (the book's waits; on with automatic).
    WaitExplainer *waits() const { return m_waits; }
    // On: troubled pods are diagnosed as they appear (off by default: a headless run asks).
    void setAutomatic(bool on);
    // This pod now, ahead of the queue, even when its diagnosis holds (re-read).
    void request(const QString &podUid);
    // The troubled pods of the store, the newest first (at most `limit` of them; -1: all),
    // then one pod of each job that runs on RDMA nodes (see above); idle() when all are done.
    void requestAllTroubled(int limit = -1);
    // What is read of a running pod's log: its first bytes.
    static constexpr int HeadBytes = 64 * 1024;
    // The nodes a job runs on (its healthy GPU pods', sorted), whether every one of them
    // advertises RDMA, and its first such pod.
    struct JobNodes
    {
        QStringList nodes;
        bool rdma = false;
        QString first; // the uid of its first pod that runs on GPUs, by name
    };
    JobNodes jobNodesOf(const QString &workloadKey) const;
    // The pod asked for a job while it runs ("" when none is): the one the Diagnosis tab shows.
    QString runningPodOf(const QString &workloadKey) const;
    bool busy() const { return !m_queue.isEmpty() || !m_inFlight.isEmpty(); }
    int pending() const { return int(m_queue.size() + m_inFlight.size()); }
    // What the rules files said when read (a rule refused, a user's file that is not JSON).
    QStringList ruleErrors() const { return m_ruleErrors; }

signals:
    void idle();

private:
    struct Work;
    void onStoreUpdated(const StoreChanges &changes);
    // The pod asked for a job while it runs (its first running GPU pod by name), when it runs
    // on two RDMA nodes or more and its diagnosis does not hold: queued.
    void considerRunning(const QString &workloadKey);
    void enqueue(const QString &podUid, bool first);
    void pump();
    void start(const QString &podUid);
    void fetchEvents(const std::shared_ptr<Work> &work);
    void fetchLogs(const std::shared_ptr<Work> &work);
    void fetchNas(const std::shared_ptr<Work> &work);
    void fetchKernel(const std::shared_ptr<Work> &work);
    void kernelRead(const QString &node, const QByteArray &lines, const QString &error);
    void onNodeStatus(const QString &node, const SshStatus &status);
    void runDoctor(const std::shared_ptr<Work> &work);
    void addNodeCards(const std::shared_ptr<Work> &work);
    void onTelemetry(const QSet<QString> &nodes);
    void finish(const std::shared_ptr<Work> &work, DiagnosisBook::Entry entry);

    ClientOf m_client;
    PoolOf m_pool;
    NasAccess m_nas;
    QSet<QString> m_nasRetried; // pods asked again for the NAS not answering (once each)
    // Per node: its NVRM lines as last read (all of them, the newest 1,000), when, and why not.
    struct KernelRead
    {
        qint64 at = 0;
        QByteArray lines;
        QString error;
    };
    QHash<QString, KernelRead> m_kernel;
    QHash<QString, QList<std::shared_ptr<Work>>> m_kernelWaiting; // by node, while it is read
    // By node: pods diagnosed before its SSH session was up, diagnosed again once it is.
    QHash<QString, QSet<QString>> m_kernelPending;
    // By workload key: the pod asked for a job while it runs.
    QHash<QString, QString> m_runningAsked;
    QSet<QString> m_runningUids; // those pods: asked how they run
    const TelemetryStore *m_telemetry = nullptr;
    // By node: GPU pods told before the node's first sample, told again once it is sampled.
    QHash<QString, QSet<QString>> m_cardsPending;
    ClusterStore *m_store;
    DiagnosisBook *m_book;
    WaitExplainer *m_waits;
    PreemptionWatch *m_preemptions = nullptr;
    std::shared_ptr<const Doctor> m_doctor;
    QStringList m_ruleErrors;
    bool m_automatic = false;
    QStringList m_queue;
    QSet<QString> m_queued;
    QSet<QString> m_inFlight;
    quint64 m_generation = 0; // a context switch drops the answers of the old connection
};

} // namespace gpudesk
