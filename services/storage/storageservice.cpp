// SPDX-License-Identifier: GPL-3.0-or-later
#include "storageservice.h"

#include "appsettings.h"
#include "clustersession.h"
#include "clusterstore.h"
#include "connectionstate.h"
#include "contextconnection.h"
#include "contextfiles.h"
#include "sshpool.h"
#include "storagejson.h"
#include "storagemeter.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>

namespace gpudesk {

StorageService::StorageService(ClusterSession *session, QObject *parent)
    : QObject(parent), m_session(session)
{
    connect(session, &ClusterSession::connectionChanged, this,
            &StorageService::onConnectionChanged);
    // Whether a walk is due: once a minute (and soon after connecting, when the nodes answer).
    const auto forget = [this] { m_jobsKnown = false; };
    connect(session->store(), &ClusterStore::updated, this, forget);
    connect(session->state(), &ConnectionState::changed, this, forget);
    m_due.setInterval(60 * 1000);
    connect(&m_due, &QTimer::timeout, this, &StorageService::checkDue);
    onConnectionChanged();
}

StorageService::~StorageService()
{
    cancel();
}

QList<StorageMeter::Root> StorageService::roots(const QString &context)
{
    const AppSettings::Storage st = AppSettings::storage(context);
    QList<StorageMeter::Root> roots;
    // As the walk names them ("/mnt/user/" and "/mnt//user" are "/mnt/user"): a root whose
    // measure is filed under another spelling would be due for ever.
    const auto clean = [](QString r) {
        r = QDir::cleanPath(r);
        return r;
    };
    for (const QString &r : st.userRoots)
        roots.append({clean(r), QStringLiteral("user")});
    for (const QString &r : st.groupRoots)
        roots.append({clean(r), QStringLiteral("group")});
    return roots;
}

bool StorageService::due(const QList<StorageRootMeasure> &measures, const QString &root,
                         qint64 lastTry, qint64 nowMs)
{
    const qint64 interval = qint64(AppSettings::storageIntervalHours()) * 3600 * 1000;
    const auto it = std::find_if(measures.cbegin(), measures.cend(),
                                 [&root](const StorageRootMeasure &m) { return m.root == root; });
    // A failed walk counts too: failing again every minute would be no kinder to the NAS.
    return nowMs - qMax(lastTry, it == measures.cend() ? 0 : it->measuredAt) >= interval;
}

void StorageService::merge(QList<StorageRootMeasure> &measures, StorageHistory &history,
                           const QList<StorageRootMeasure> &fresh)
{
    for (const StorageRootMeasure &m : fresh) {
        auto it = std::find_if(measures.begin(), measures.end(),
                               [&m](const StorageRootMeasure &o) { return o.root == m.root; });
        // A walk cut short (cancelled, timed out, the connection lost) or that found nothing
        // has figures short of the truth: the last complete ones stay, with their own date.
        const bool failed = !m.complete || !m.error.isEmpty();
        if (it == measures.end())
            measures.append(m);
        else if (!failed)
            *it = m;
        else
            it->error = m.error.isEmpty() ? tr("The walk did not finish.") : m.error;
        history.record(m);
    }
}

QString StorageService::cachePath(const QString &context)
{
    return contextDataFile(QStringLiteral("storage"), context);
}

bool StorageService::loadCache(const QString &path, QList<StorageRootMeasure> *measures,
                               StorageHistory *history)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly) || f.size() > 64 * 1024 * 1024)
        return false;
    const QJsonObject doc = QJsonDocument::fromJson(f.readAll()).object();
    for (const QJsonValue &v : doc.value(QLatin1String("measures")).toArray()) {
        StorageRootMeasure m;
        if (storagejson::fromJson(v.toObject(), &m))
            measures->append(m);
    }
    *history = StorageHistory::fromJson(doc.value(QLatin1String("history")).toObject());
    return true;
}

bool StorageService::saveCache(const QString &path, const QList<StorageRootMeasure> &measures,
                               const StorageHistory &history, QString *error)
{
    QJsonArray list;
    for (const StorageRootMeasure &m : measures)
        list.append(storagejson::toJson(m));
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) ||
        f.write(QJsonDocument(QJsonObject{{QStringLiteral("version"), 1},
                                          {QStringLiteral("measures"), list},
                                          {QStringLiteral("history"), history.toJson()}})
                    .toJson(QJsonDocument::Compact)) < 0 ||
        !f.commit()) {
        *error = tr("Cannot keep the NAS figures in %1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

NasCleanupFound StorageService::cleanupCandidates(const NasCleanupOptions &options) const
{
    std::optional<QSet<QString>> users;
    // Only a whole list of namespaces says who is a user now: one fallen back to a namespace of
    // the account's own would make every other user one who left.
    const InformerStatus *ns = m_session->state()->collection(Resource::Namespaces);
    if (ns && ns->state == InformerStatus::Live && ns->scope.isEmpty()) {
        users.emplace();
        for (const NamespaceInfo &n : m_session->store()->users())
            users->insert(n.user.isEmpty() ? n.name : n.user);
    }
    // The jobs only when their class is asked: every pod of the store is read for them.
    const bool jobsWanted =
        options.classes.isEmpty() || options.classes.contains(NasCandidate::JobOutput);
    return NasCleanup::find(m_measures, users, options, QDateTime::currentMSecsSinceEpoch(),
                            jobsWanted ? clusterJobs() : std::nullopt);
}

std::optional<ClusterJobs> StorageService::clusterJobs() const
{
    if (!m_jobsKnown) {
        m_jobs = readClusterJobs();
        m_jobsKnown = true;
    }
    return m_jobs;
}

std::optional<ClusterJobs> StorageService::readClusterJobs() const
{
    // Every kind a job's outputs may be named after, listed whole (or not served by this
    // cluster): a kind missing or read for one namespace only would make its jobs look gone.
    const ConnectionState *state = m_session->state();
    for (const Resource r : {Resource::Namespaces, Resource::Pods, Resource::VolcanoJobs,
                             Resource::PyTorchJobs, Resource::MPIJobs}) {
        const InformerStatus *s = state->collection(r);
        const bool whole = s && s->state == InformerStatus::Live && s->scope.isEmpty();
        if (!whole && !(s && s->state == InformerStatus::Unavailable && r != Resource::Pods &&
                        r != Resource::Namespaces))
            return std::nullopt;
    }
    const ClusterStore *store = m_session->store();
    QHash<QString, QString> userOf; // namespace → user
    for (const NamespaceInfo &n : store->users())
        userOf.insert(n.name, n.user.isEmpty() ? n.name : n.user);
    // Over by the job's word, when it says when. Not Volcano's Aborted: a suspended job, which
    // `vcctl job resume` brings back to its checkpoints.
    static const QSet<QString> over{QStringLiteral("Completed"), QStringLiteral("Succeeded"),
                                    QStringLiteral("Failed"), QStringLiteral("Terminated")};
    ClusterJobs out;
    // One name may be several things (a Volcano job and a PyTorchJob, in two namespaces of one
    // user): any that runs, or ended without saying when, keeps it; else the latest end counts.
    const auto merge = [&out, &userOf](const QString &ns, const QString &name, bool runs,
                                       qint64 ended) {
        if (runs)
            out.addLive(name);
        if (!userOf.contains(ns))
            return;
        QHash<QString, qint64> &mine = out.byUser[userOf.value(ns)];
        const qint64 end = runs ? 0 : ended;
        const auto it = mine.constFind(name);
        mine.insert(name, it == mine.cend()        ? end
                          : (*it <= 0 || end <= 0) ? 0
                                                   : std::max(*it, end));
    };
    for (const QString &key : store->jobKeys())
        if (const JobInfo *j = store->job(key))
            merge(j->ns, j->name, !over.contains(j->status), j->stateSince);
    // Pods by their own name and their owner's (a bare pod, a batch Job's, a ReplicaSet's):
    // one that has not ended runs; an ended one's end is not known to the store (kept).
    for (const PodInfo &p : store->pods())
        for (const QString &name : {p.name, p.owner.name})
            if (!name.isEmpty())
                merge(p.ns, name, !p.finished(), 0);
    return out;
}

bool StorageService::isMeasuring() const
{
    return m_meter && m_meter->isRunning();
}

QString StorageService::unavailableReason() const
{
    const auto &c = m_session->connection();
    if (!c)
        return tr("Not connected.");
    if (!c->pool())
        return tr("The NAS is measured over SSH on a node that mounts it, and gpudesk has no SSH "
                  "to the nodes here (node telemetry is off).");
    return QString();
}

void StorageService::onConnectionChanged()
{
    if (m_meter) {
        // Its figures are the old context's: they must not land in the new one's.
        m_meter->disconnect(this);
        m_meter->deleteLater(); // cancels the walk
        m_meter = nullptr;
        emit measuringChanged(false);
    }
    const auto &c = m_session->connection();
    const QString context = c ? c->context() : QString();
    if (context == m_context)
        return;
    m_context = context;
    m_measures.clear();
    m_history = {};
    m_triedAt.clear();
    if (!m_context.isEmpty())
        loadCache(cachePath(m_context), &m_measures, &m_history);
    emit updated();
    if (m_context.isEmpty()) {
        m_due.stop();
        return;
    }
    m_due.start();
    QTimer::singleShot(10 * 1000, this, &StorageService::checkDue);
}

void StorageService::checkDue()
{
    if (isMeasuring() || !unavailableReason().isEmpty())
        return;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (const StorageMeter::Root &r : roots(m_context)) {
        if (due(m_measures, r.path, m_triedAt.value(r.path), now)) {
            measureNow();
            return;
        }
    }
}

QString StorageService::node() const
{
    return m_context.isEmpty() ? QString() : AppSettings::storage(m_context).node;
}

void StorageService::setNode(const QString &node)
{
    if (m_context.isEmpty() || node == this->node())
        return;
    AppSettings::Storage st = AppSettings::storage(m_context);
    st.node = node;
    AppSettings::setStorage(m_context, st);
    emit updated();
}

QStringList StorageService::nodes() const
{
    const auto &c = m_session->connection();
    QStringList out = c && c->pool() ? c->pool()->nodes() : QStringList();
    out.sort();
    return out;
}

void StorageService::measureNow()
{
    if (isMeasuring() || !unavailableReason().isEmpty())
        return;
    m_meter = new StorageMeter(m_session->connection()->pool(), roots(m_context), this);
    connect(m_meter, &StorageMeter::progress, this, &StorageService::progress);
    connect(m_meter, &StorageMeter::finished, this, &StorageService::onMeasured);
    m_meter->start(AppSettings::storage(m_context).node);
    emit measuringChanged(true);
}

void StorageService::cancel()
{
    if (m_meter)
        m_meter->cancel();
}

void StorageService::onMeasured(const QList<StorageRootMeasure> &measures)
{
    if (m_meter) {
        m_meter->deleteLater();
        m_meter = nullptr;
    }
    // A report (a cron job) may have walked meanwhile: its walks and history points are read
    // back first, so that neither overwrites the other's.
    if (!m_context.isEmpty()) {
        QList<StorageRootMeasure> onDisk;
        StorageHistory diskHistory;
        if (loadCache(cachePath(m_context), &onDisk, &diskHistory)) {
            for (const StorageRootMeasure &d : std::as_const(onDisk)) {
                auto it =
                    std::find_if(m_measures.begin(), m_measures.end(),
                                 [&d](const StorageRootMeasure &o) { return o.root == d.root; });
                if (it == m_measures.end())
                    m_measures.append(d);
                else if (d.complete && d.error.isEmpty() && d.measuredAt > it->measuredAt)
                    *it = d;
            }
            m_history.absorb(diskHistory);
        }
    }
    merge(m_measures, m_history, measures);
    for (const StorageRootMeasure &m : measures)
        m_triedAt[m.root] = m.measuredAt;
    QString error;
    if (!m_context.isEmpty() && !saveCache(cachePath(m_context), m_measures, m_history, &error))
        qWarning("%s", qPrintable(error));
    emit measuringChanged(false);
    emit updated();
}

} // namespace gpudesk
