// SPDX-License-Identifier: GPL-3.0-or-later
#include "diagnosisservice.h"

#include "clusterstore.h"
#include "diagnosisdecoder.h"
#include "doctor.h"
#include "jobrequestdecoder.h"
#include "kernellog.h"
#include "kubeclient.h"
#include "launchscriptprobe.h"
#include "nodecommands.h"
#include "preemptionwatch.h"
#include "rdma.h"
#include "sshconnection.h"
#include "sshpool.h"
#include "telemetrystore.h"
#include "waitexplainer.h"

#include <QDateTime>
#include <QFutureWatcher>
#include <QLocale>
#include <QPointer>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace gpudesk {

namespace {

// The pods of `node` told before it could say something (its kernel log, its cards), now that
// it can: taken out of `pending` and returned, except those being told at this moment — they
// stay, and finish() tells them again when they end.
QSet<QString> takeReady(QHash<QString, QSet<QString>> &pending, const QString &node,
                        const QSet<QString> &inFlight)
{
    QSet<QString> ready;
    const auto it = pending.find(node);
    if (it == pending.end())
        return ready;
    for (auto uid = it->begin(); uid != it->end();) {
        if (inFlight.contains(*uid)) {
            ++uid;
            continue;
        }
        ready.insert(*uid);
        uid = it->erase(uid);
    }
    if (it->isEmpty())
        pending.erase(it);
    return ready;
}

} // namespace

struct DiagnosisService::Work
{
    QString uid;
    QString stamp;
    quint64 generation = 0;
    DiagnosisInput input;
    QList<DiagnosisDecoder::LogWanted> logs;
    QStringList logErrors;
    qint64 created = 0;          // the pod's, for the kernel lines of its time
    bool gpus = false;           // it asks for GPUs: its node's Xid lines matter
    bool running = false;        // it runs and is well: the head of its log, the running rules
    QList<LaunchScript> scripts; // its command runs these from the NAS
};

DiagnosisService::DiagnosisService(ClientOf client, ClusterStore *store, QObject *parent)
    : QObject(parent), m_client(std::move(client)), m_store(store), m_book(new DiagnosisBook(this)),
      m_waits(new WaitExplainer(store, m_book, this))
{
    const bool chinese = QLocale().name().startsWith(QLatin1String("zh"));
    m_doctor = std::make_shared<const Doctor>(DoctorRules::load(&m_ruleErrors),
                                              chinese ? QStringLiteral("zh_CN") : QString());
    connect(m_store, &ClusterStore::updated, this, &DiagnosisService::onStoreUpdated);
}

DiagnosisService::~DiagnosisService() = default;

void DiagnosisService::setAutomatic(bool on)
{
    m_automatic = on;
    m_waits->setEnabled(on);
    if (on)
        requestAllTroubled(MaxAutomatic);
}

void DiagnosisService::request(const QString &podUid)
{
    enqueue(podUid, true);
    pump();
}

void DiagnosisService::requestAllTroubled(int limit)
{
    // Newest first: what just failed is what its owner is looking at.
    QList<const PodInfo *> troubled;
    for (const PodInfo &p : m_store->pods())
        if (DiagnosisBook::troubled(p) && !m_book->holds(p))
            troubled << &p;
    std::sort(troubled.begin(), troubled.end(),
              [](const PodInfo *a, const PodInfo *b) { return a->created > b->created; });
    if (limit >= 0 && troubled.size() > limit)
        troubled.resize(limit);
    for (const PodInfo *p : std::as_const(troubled))
        enqueue(p->uid, false);
    QSet<QString> running;
    for (const PodInfo &p : m_store->pods())
        if (p.phase == QLatin1String("Running") && p.gpuRequest > 0 && !p.deleting)
            running.insert(ClusterStore::workloadKey(p));
    for (const QString &key : std::as_const(running))
        considerRunning(key);
    pump();
    if (!busy())
        emit idle();
}

namespace {

// A pod that counts for how its job runs: it runs, on GPUs, and is well (an MPI launcher on a
// CPU node, a pod crash-looping, one going away do not).
bool runsOnGpus(const PodInfo &p)
{
    return p.phase == QLatin1String("Running") && p.gpuRequest > 0 && !p.deleting &&
           !p.nodeName.isEmpty() && !DiagnosisBook::troubled(p);
}

} // namespace

DiagnosisService::JobNodes DiagnosisService::jobNodesOf(const QString &workloadKey) const
{
    JobNodes out;
    const PodInfo *first = nullptr;
    for (const PodInfo *p : m_store->podsOfWorkload(workloadKey)) {
        if (!runsOnGpus(*p))
            continue;
        if (!first)
            first = p;
        if (!out.nodes.contains(p->nodeName))
            out.nodes << p->nodeName;
    }
    out.first = first ? first->uid : QString();
    std::sort(out.nodes.begin(), out.nodes.end());
    out.rdma = !out.nodes.isEmpty() &&
               std::all_of(out.nodes.cbegin(), out.nodes.cend(), [this](const QString &n) {
                   const NodeInfo *node = m_store->node(n);
                   return node && advertisesRdma(node->labels);
               });
    return out;
}

QString DiagnosisService::runningPodOf(const QString &workloadKey) const
{
    return m_runningAsked.value(workloadKey);
}

void DiagnosisService::considerRunning(const QString &workloadKey)
{
    const JobNodes nodes = jobNodesOf(workloadKey);
    const PodInfo *first = m_store->pod(nodes.first);
    if (!first || nodes.nodes.size() < 2 || !nodes.rdma)
        return; // one node, or sockets are all there is: nothing to ask
    // Asked already, of this pod on these nodes (a job whose second node came later is asked
    // again): it holds.
    const DiagnosisBook::Entry *e = m_book->entry(first->uid);
    if (m_runningAsked.value(workloadKey) == first->uid && e && m_book->holds(*first) &&
        e->jobNodes == nodes.nodes)
        return;
    m_runningAsked.insert(workloadKey, first->uid);
    m_runningUids.insert(first->uid);
    enqueue(first->uid, false);
}

void DiagnosisService::watchPreemptions(ClusterSession *session)
{
    if (!m_preemptions)
        m_preemptions = new PreemptionWatch(session, m_store, this);
}

PreemptionLog *DiagnosisService::preemptions() const
{
    return m_preemptions ? m_preemptions->log() : nullptr;
}

void DiagnosisService::onStoreUpdated(const StoreChanges &changes)
{
    if (changes.reset) {
        ++m_generation;
        m_queue.clear();
        m_queued.clear();
        m_inFlight.clear();
        m_kernel.clear();
        m_kernelWaiting.clear();
        m_kernelPending.clear();
        m_cardsPending.clear();
        m_nasRetried.clear();
        m_runningAsked.clear();
        m_runningUids.clear();
        m_book->clear();
        if (m_automatic)
            requestAllTroubled(MaxAutomatic);
        return;
    }
    QSet<QString> running; // jobs with a pod that runs (or ran) on GPUs: asked again
    for (const QString &uid : changes.pods) {
        const PodInfo *pod = m_store->pod(uid);
        if (!pod) {
            m_runningUids.remove(uid);
            // Gone with its pod, but for a cause its owner must still be told: preempted, or
            // stopped by an administrator (their events die with the pod).
            const DiagnosisBook::Entry *e = m_book->entry(uid);
            if (e && (e->diagnoses.isEmpty() ||
                      (e->diagnoses.first().cls != QLatin1String("preempted") &&
                       e->diagnoses.first().cls != QLatin1String("stopped-by-admin"))))
                m_book->remove(uid);
            continue;
        }
        if (m_automatic && m_queue.size() < MaxAutomatic && DiagnosisBook::troubled(*pod) &&
            !m_book->holds(*pod))
            enqueue(uid, false);
        else if (m_automatic && pod->gpuRequest > 0 && pod->phase == QLatin1String("Running"))
            running.insert(ClusterStore::workloadKey(*pod));
    }
    for (const QString &key : std::as_const(running))
        if (m_queue.size() < MaxAutomatic)
            considerRunning(key);
    pump();
}

void DiagnosisService::enqueue(const QString &podUid, bool first)
{
    if (m_inFlight.contains(podUid))
        return;
    if (m_queued.contains(podUid)) {
        if (!first)
            return;
        m_queue.removeOne(podUid);
    }
    m_queued.insert(podUid);
    if (first)
        m_queue.prepend(podUid);
    else
        m_queue.append(podUid);
}

void DiagnosisService::pump()
{
    while (m_inFlight.size() < MaxInFlight && !m_queue.isEmpty()) {
        const QString uid = m_queue.takeFirst();
        m_queued.remove(uid);
        start(uid);
    }
}

void DiagnosisService::start(const QString &podUid)
{
    const PodInfo *pod = m_store->pod(podUid);
    KubeClient *client = m_client();
    if (!pod || !client)
        return;
    auto work = std::make_shared<Work>();
    work->uid = podUid;
    work->stamp = DiagnosisBook::stampOf(*pod);
    work->generation = m_generation;
    work->created = pod->created;
    work->gpus = pod->gpuRequest > 0;
    // How it runs, for the pod asked for its job (considerRunning) that never restarted; a
    // pod that restarted is told why its last container ended (its previous log), as before.
    work->running = m_runningUids.contains(podUid) && runsOnGpus(*pod) && pod->restarts == 0;
    m_inFlight.insert(podUid);
    const QString ns = pod->ns, name = pod->name;
    client->get(QStringLiteral("/api/v1/namespaces/%1/pods/%2").arg(ns, name), this,
                [this, work, ns, name](const KubeReply &r) {
                    if (work->generation != m_generation)
                        return;
                    DiagnosisBook::Entry entry{work->uid, ns, name, work->stamp, {}, {}};
                    if (!r.ok()) {
                        entry.error = tr("Cannot read the pod: %1").arg(r.error);
                        finish(work, std::move(entry));
                        return;
                    }
                    QString error;
                    if (!DiagnosisDecoder::decode(r.body, &work->input, &error)) {
                        entry.error = tr("Cannot read the pod: %1").arg(error);
                        finish(work, std::move(entry));
                        return;
                    }
                    if (work->running) {
                        // How it runs: the head of each running container's log; its events
                        // and its node's kernel say how pods end, not how they run.
                        work->input.running = true;
                        if (const PodInfo *p = m_store->pod(work->uid)) {
                            const JobNodes nodes = jobNodesOf(ClusterStore::workloadKey(*p));
                            work->input.jobNodes = nodes.nodes;
                            work->input.jobNodesRdma = nodes.rdma;
                        }
                        for (const DiagnosisInput::Container &c : work->input.containers)
                            if (c.state == u"running")
                                work->logs.append({c.name, false});
                        fetchLogs(work);
                        return;
                    }
                    work->logs = DiagnosisDecoder::logsWanted(work->input);
                    JobRequest job;
                    if (m_nas.inspect && JobRequestDecoder::decode(r.body, &job, &error))
                        work->scripts = LaunchScripts::onNas(job, m_nas.roots());
                    fetchEvents(work);
                });
}

void DiagnosisService::fetchEvents(const std::shared_ptr<Work> &work)
{
    // Asked of the server, not taken from the store: a headless run does not watch events,
    // and the window's may have been compacted.
    KubeClient *client = m_client();
    if (!client) {
        finish(work,
               {work->uid, work->input.ns, work->input.pod, work->stamp, {}, tr("Not connected.")});
        return;
    }
    client->get(DiagnosisDecoder::eventsPath(work->input.ns, work->uid), this,
                [this, work](const KubeReply &r) {
                    if (work->generation != m_generation)
                        return;
                    if (r.ok())
                        work->input.events = DiagnosisDecoder::decodeEvents(r.body);
                    else
                        work->logErrors << tr("its events could not be read: %1").arg(r.error);
                    fetchLogs(work);
                });
}

void DiagnosisService::fetchLogs(const std::shared_ptr<Work> &work)
{
    // One log at a time: a pod has one or two failed containers, and the kubelet serves them.
    if (work->logs.isEmpty()) {
        fetchNas(work);
        return;
    }
    const DiagnosisDecoder::LogWanted want = work->logs.takeFirst();
    KubeClient *client = m_client();
    if (!client) {
        finish(work,
               {work->uid, work->input.ns, work->input.pod, work->stamp, {}, tr("Not connected.")});
        return;
    }
    const bool head = work->running;
    client
        ->get(head ? DiagnosisDecoder::logPath(work->input.ns, work->input.pod, want, 0, HeadBytes)
                   : DiagnosisDecoder::logPath(work->input.ns, work->input.pod, want, TailLines,
                                               TailBytes),
              this, [this, work, want, head](const KubeReply &r) {
                  if (work->generation != m_generation)
                      return;
                  if (r.ok()) {
                      for (DiagnosisInput::Container &c : work->input.containers)
                          if (c.name == want.container) {
                              // A tail's lines: their numbers unknown (0); the head's start at 1.
                              c.logTail = r.body;
                              c.firstLine = head ? 1 : 0;
                          }
                  } else {
                      work->logErrors
                          << tr("the log of %1 could not be read: %2").arg(want.container, r.error);
                  }
                  fetchLogs(work);
              });
}

void DiagnosisService::fetchNas(const std::shared_ptr<Work> &work)
{
    if (work->running || work->scripts.isEmpty() || !m_nas.inspect) {
        fetchKernel(work);
        return;
    }
    // The probe's answer or the deadline, whichever comes first, goes on.
    auto told = std::make_shared<bool>(false);
    auto tell = [this, work, told](const QList<LaunchScriptFacts> &facts) {
        if (*told || work->generation != m_generation)
            return;
        *told = true;
        // The NAS not reachable yet (a window just opened, its node's session coming up): the
        // pod is told by its log now, and asked once more a little later.
        if (std::any_of(facts.cbegin(), facts.cend(),
                        [](const LaunchScriptFacts &f) { return !f.error.isEmpty(); }) &&
            !m_nasRetried.contains(work->uid)) {
            m_nasRetried.insert(work->uid);
            QTimer::singleShot(NasRetryMs, this, [this, uid = work->uid, g = m_generation] {
                if (g == m_generation && m_store->pod(uid))
                    request(uid);
            });
        }
        for (qsizetype i = 0; i < work->scripts.size(); ++i) {
            const LaunchScript &s = work->scripts[i];
            const LaunchScriptFacts f = facts.value(i);
            if (!f.error.isEmpty()) {
                work->logErrors
                    << tr("the NAS could not be asked about %1: %2").arg(s.path, f.error);
                continue;
            }
            const StartReason r = LaunchScripts::judge(s, f);
            const auto number = [&r](const char *key) {
                return r.numbers.value(QLatin1String(key)).toString();
            };
            // A link out of the mounts is told as one only where the NAS found its target:
            // else the link's end is not known (its follow-up not answered, or not on the node).
            QString code = r.code;
            if (code == QLatin1String("launch-script-link-outside") &&
                !(f.targetChecked && f.targetFound))
                code += QLatin1String("-unconfirmed");
            work->input.nas.append({code, r.message, r.fix, s.path, f.linkTarget,
                                    number("resolved"), number("mountNode"), number("mountAt")});
        }
        fetchKernel(work);
    };
    LaunchScriptProbe::probe(m_nas.inspect, work->scripts, this, tell);
    QTimer::singleShot(NasTimeoutMs, this, [tell, n = work->scripts.size()] {
        QList<LaunchScriptFacts> facts(n);
        for (LaunchScriptFacts &f : facts)
            f.error = tr("it did not answer within %1 s").arg(NasTimeoutMs / 1000);
        tell(facts);
    });
}

void DiagnosisService::fetchKernel(const std::shared_ptr<Work> &work)
{
    if (work->running) {
        runDoctor(work);
        return;
    }
    const PodInfo *pod = m_store->pod(work->uid);
    SshPool *pool = m_pool ? m_pool() : nullptr;
    const QString node = pod ? pod->nodeName : QString();
    work->input.node = node;
    // Only a GPU pod's node, only where gpudesk reaches the nodes: no SSH is no error.
    if (!work->gpus || node.isEmpty() || !pool || !pool->nodes().contains(node)) {
        runDoctor(work);
        return;
    }
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (const auto it = m_kernel.constFind(node);
        it != m_kernel.cend() && now - it->at < KernelCacheMs) {
        work->input.nodeKernel = kernellog::nvrmLines(it->lines, work->created);
        work->input.nodeKernelError = it->error;
        if (!it->error.isEmpty())
            work->logErrors << it->error;
        runDoctor(work);
        return;
    }
    // The node's SSH session is not up yet (a window just opened): told without its kernel log
    // now, and again once the node answers — not cached as a failure.
    if (const SshStatus st = pool->status(node);
        st.state == SshStatus::Idle || st.state == SshStatus::Connecting) {
        m_kernelPending[node].insert(work->uid);
        connect(pool, &SshPool::statusChanged, this, &DiagnosisService::onNodeStatus,
                Qt::UniqueConnection);
        runDoctor(work);
        return;
    }
    auto &waiting = m_kernelWaiting[node];
    waiting << work;
    if (waiting.size() > 1)
        return; // read once for all the node's pods
    QPointer<DiagnosisService> self(this);
    const quint64 generation = m_generation;
    const SshPool::Work read = [self, node, generation](SshConnection *c, const SshStatus &st,
                                                        const std::atomic<bool> &cancel) {
        QByteArray lines;
        QString error;
        if (!c) {
            error = st.message;
        } else {
            const ExecResult r = c->exec(nodecmd::kernelLogCommand(), KernelTimeoutMs, cancel);
            if (!r.ok)
                error = r.error;
            else if (r.exitStatus != 0)
                error = QString::fromUtf8(r.err.left(400)).trimmed();
            else
                lines = kernellog::nvrmLines(r.out, 0, 1000).join(u'\n').toUtf8();
        }
        return std::function<void()>([self, node, generation, lines, error] {
            if (self && generation == self->m_generation)
                self->kernelRead(node, lines, error);
        });
    };
    // A short read, on a lane the node's sampling does not hold.
    if (!pool->submit(node, read, SshPool::Lane::Long) &&
        !pool->submit(node, read, SshPool::Lane::Files))
        kernelRead(node, {}, tr("%1 is busy or not connected over SSH").arg(node));
}

void DiagnosisService::onNodeStatus(const QString &node, const SshStatus &status)
{
    if (!status.usable())
        return;
    for (const QString &uid : takeReady(m_kernelPending, node, m_inFlight))
        if (m_store->pod(uid))
            request(uid);
}

void DiagnosisService::kernelRead(const QString &node, const QByteArray &lines,
                                  const QString &error)
{
    m_kernel.insert(node,
                    {QDateTime::currentMSecsSinceEpoch(), lines,
                     error.isEmpty()
                         ? QString()
                         : tr("the kernel log of %1 could not be read: %2").arg(node, error)});
    const QList<std::shared_ptr<Work>> works = m_kernelWaiting.take(node);
    for (const std::shared_ptr<Work> &work : works) {
        if (work->generation != m_generation)
            continue;
        work->input.nodeKernel = kernellog::nvrmLines(lines, work->created);
        work->input.nodeKernelError = m_kernel.value(node).error;
        if (!work->input.nodeKernelError.isEmpty())
            work->logErrors << work->input.nodeKernelError;
        runDoctor(work);
    }
}

void DiagnosisService::setTelemetry(const TelemetryStore *telemetry)
{
    if (m_telemetry)
        disconnect(m_telemetry, nullptr, this, nullptr);
    m_telemetry = telemetry;
    m_waits->setTelemetry(telemetry);
    m_cardsPending.clear();
    if (m_telemetry)
        connect(m_telemetry, &TelemetryStore::updated, this, &DiagnosisService::onTelemetry);
}

void DiagnosisService::addNodeCards(const std::shared_ptr<Work> &work)
{
    const QString &node = work->input.node;
    if (!m_telemetry || !work->gpus || work->running || node.isEmpty())
        return;
    if (!m_telemetry->latest(node)) {
        // Not sampled yet (a window just opened, the node's SSH coming up): told again then.
        SshPool *pool = m_pool ? m_pool() : nullptr;
        if (pool && pool->nodes().contains(node))
            m_cardsPending[node].insert(work->uid);
        return;
    }
    QSet<int> podsCards;
    for (const PodCard &c : m_telemetry->cardsOfPods({work->uid}))
        podsCards.insert(c.card);
    work->input.podCardsKnown = !podsCards.isEmpty();
    for (const CardState &c : m_telemetry->cards(node))
        if (c.sample.eccUncorrected.value_or(0) > 0)
            work->input.nodeEcc.append({c.sample.index, c.sample.uuid, *c.sample.eccUncorrected,
                                        podsCards.contains(c.sample.index)});
}

void DiagnosisService::onTelemetry(const QSet<QString> &nodes)
{
    for (const QString &node : nodes) {
        if (!m_cardsPending.contains(node) || !m_telemetry->latest(node))
            continue;
        for (const QString &uid : takeReady(m_cardsPending, node, m_inFlight))
            if (m_store->pod(uid))
                request(uid);
    }
}

void DiagnosisService::runDoctor(const std::shared_ptr<Work> &work)
{
    addNodeCards(work);
    // Regexes over up to 64 KiB a container: off the UI thread.
    auto *watcher = new QFutureWatcher<QList<Diagnosis>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, work] {
        watcher->deleteLater();
        if (work->generation != m_generation)
            return;
        DiagnosisBook::Entry entry{work->uid,   work->input.ns,    work->input.pod,
                                   work->stamp, watcher->result(), {}};
        entry.running = work->running;
        entry.jobNodes = work->input.jobNodes;
        if (entry.diagnoses.isEmpty() && work->running)
            entry.error =
                work->logErrors.isEmpty()
                    ? tr("It runs; nothing says it runs slower than it should (the start of its "
                         "log read, its nodes and its variables).")
                    : tr("It runs; %1.").arg(work->logErrors.join(u"; "));
        else if (entry.diagnoses.isEmpty())
            entry.error = work->logErrors.isEmpty()
                              ? tr("No known cause: no rule matches its state, events or log.")
                              : tr("No known cause; %1.").arg(work->logErrors.join(u"; "));
        finish(work, std::move(entry));
    });
    watcher->setFuture(QtConcurrent::run(
        [doctor = m_doctor, input = work->input] { return doctor->diagnose(input); }));
}

void DiagnosisService::finish(const std::shared_ptr<Work> &work, DiagnosisBook::Entry entry)
{
    m_inFlight.remove(work->uid);
    if (m_store->pod(work->uid))
        m_book->put(std::move(entry));
    // Its node answered, or was sampled, while it was told without: told again now (once).
    SshPool *pool = m_pool ? m_pool() : nullptr;
    if (const PodInfo *p = m_store->pod(work->uid)) {
        bool again = false;
        if (pool && m_kernelPending.value(p->nodeName).contains(work->uid) &&
            pool->status(p->nodeName).usable()) {
            m_kernelPending[p->nodeName].remove(work->uid);
            again = true;
        }
        if (m_telemetry && m_cardsPending.value(p->nodeName).contains(work->uid) &&
            m_telemetry->latest(p->nodeName)) {
            m_cardsPending[p->nodeName].remove(work->uid);
            again = true;
        }
        if (again)
            request(work->uid);
    }
    pump();
    if (!busy())
        emit idle();
}

} // namespace gpudesk
