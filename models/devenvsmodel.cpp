// SPDX-License-Identifier: GPL-3.0-or-later
#include "devenvsmodel.h"

#include "clusterstore.h"
#include "format.h"
#include "telemetrystore.h"

#include <QDateTime>

namespace gpudesk {

DevEnvsModel::DevEnvsModel(const ClusterStore *store, QObject *parent)
    : KeyedTableModel(parent), m_store(store),
      m_now([] { return QDateTime::currentMSecsSinceEpoch(); })
{
    rebuild();
    connect(store, &ClusterStore::updated, this, &DevEnvsModel::onUpdated);
}

void DevEnvsModel::rebuild()
{
    const DevEnvIndex &envs = m_store->devEnvs();
    QStringList keys = envs.keys();
    for (auto it = m_volumes.cbegin(); it != m_volumes.cend(); ++it)
        if (!envs.contains(it.key()))
            keys << it.key();
    keys.sort();
    resetTo(keys);
}

void DevEnvsModel::onUpdated(const StoreChanges &changes)
{
    if (changes.reset) {
        rebuild();
        return;
    }
    if (changes.devEnvs.isEmpty() && changes.events.isEmpty())
        return;
    QSet<QString> dirty = changes.devEnvs;
    // An event on an environment's pod may change why it waits (a pull error, pulling).
    for (const QString &uid : changes.events) {
        const auto e = m_store->events().constFind(uid);
        if (e != m_store->events().cend())
            if (const QString key = m_store->devEnvs().envOf(e->objectUid); !key.isEmpty())
                dirty.insert(key);
    }
    sync(dirty, [this](const QString &key) { return present(key); });
}

bool DevEnvsModel::present(const QString &key) const
{
    return m_store->devEnvs().contains(key) || m_volumes.contains(key);
}

void DevEnvsModel::setTelemetry(const TelemetryStore *telemetry)
{
    if (m_telemetry)
        disconnect(m_telemetry, nullptr, this, nullptr);
    m_telemetry = telemetry;
    if (telemetry)
        connect(telemetry, &TelemetryStore::updated, this, &DevEnvsModel::onTelemetry);
}

void DevEnvsModel::onTelemetry(const QSet<QString> &nodes)
{
    // The rows of environments on the nodes sampled: their GPU use and idle time moved.
    QSet<QString> dirty;
    for (const QString &key : m_store->devEnvs().keys())
        if (const PodInfo *p = currentPod(key); p && nodes.contains(p->nodeName))
            dirty.insert(key);
    if (!dirty.isEmpty())
        sync(dirty, [this](const QString &key) { return present(key); });
}

void DevEnvsModel::setJupyterUse(const QString &key, const QString &podUid, const JupyterUse &use)
{
    m_jupyter.insert(key, {podUid, use});
    sync({key}, [this](const QString &k) { return present(k); });
}

const JupyterUse *DevEnvsModel::jupyterUse(const QString &key) const
{
    const auto it = m_jupyter.constFind(key);
    const PodInfo *p = currentPod(key);
    return it == m_jupyter.cend() || !p || it->first != p->uid ? nullptr : &it->second;
}

void DevEnvsModel::setServiceAnswer(const QString &key, const QString &podUid,
                                    const QString &service, bool answered, const QString &why)
{
    ServiceAnswers &a = m_answers[key];
    if (a.podUid != podUid)
        a = {podUid, {}};
    const auto before = a.services.constFind(service);
    // Once answered, it stays so for this pod.
    if (before != a.services.cend() && (before->first || (!answered && before->second == why)))
        return;
    a.services.insert(service, {answered, why});
    sync({key}, [this](const QString &k) { return present(k); });
}

bool DevEnvsModel::serviceAnswered(const QString &key, const QString &service) const
{
    const PodInfo *p = currentPod(key);
    const auto it = m_answers.constFind(key);
    return p && it != m_answers.cend() && it->podUid == p->uid && it->services.value(service).first;
}

QList<std::pair<QString, QString>> DevEnvsModel::servicesWaiting(const QString &key) const
{
    QList<std::pair<QString, QString>> out;
    const PodInfo *p = currentPod(key);
    const auto it = m_answers.constFind(key);
    if (!p || it == m_answers.cend() || it->podUid != p->uid)
        return out;
    for (const auto &[name, port] : p->namedPorts)
        if (const auto s = it->services.constFind(name); s != it->services.cend() && !s->first)
            out.append({name, s->second});
    return out;
}

void DevEnvsModel::setIdleAfterMs(qint64 ms)
{
    if (ms == m_idleAfterMs)
        return;
    m_idleAfterMs = ms;
    sync(QSet<QString>(keys().cbegin(), keys().cend()),
         [this](const QString &k) { return present(k); });
}

void DevEnvsModel::setIdleFindings(const QHash<QString, std::pair<qint64, bool>> &idleSince)
{
    if (idleSince == m_idleFindings)
        return;
    QSet<QString> dirty;
    for (const QString &uid : m_idleFindings.keys() + idleSince.keys())
        if (const QString key = m_store->devEnvs().envOf(uid); !key.isEmpty())
            dirty.insert(key);
    m_idleFindings = idleSince;
    sync(dirty, [this](const QString &k) { return present(k); });
}

DevEnvsModel::Idle DevEnvsModel::idle(const QString &key) const
{
    Idle out;
    const PodInfo *p = currentPod(key);
    if (!p || p->phase != QLatin1String("Running") || p->deleting)
        return out;
    const int gpus = p->gpuRequest + migTotal(p->migRequests);
    qint64 since = p->created;
    QStringList basis;
    bool gpuKnown = false;
    if (gpus > 0 && m_telemetry) {
        if (const auto a = m_telemetry->gpuActivity(p->uid)) {
            gpuKnown = true;
            // Busy in the latest sample: in use now.
            if (a->lastBusy > 0 && a->lastBusy >= a->lastSampled) {
                out.known = out.busy = true;
                out.basis = tr("its GPUs are in use");
                return out;
            }
            const qint64 gpuSince = a->lastBusy > 0 ? a->lastBusy : a->firstSampled;
            if (gpuSince > since) {
                since = gpuSince;
                // Never seen busy: idle since before gpudesk sampled it.
                out.atLeast = a->lastBusy == 0;
            }
            basis << tr("GPUs under %1 %").arg(TelemetryStore::BusyPercent);
        }
    }
    if (const JupyterUse *j = jupyterUse(key); j && j->checked > 0) {
        if (j->busy) {
            out.known = out.busy = true;
            out.basis = tr("a Jupyter kernel is running");
            return out;
        }
        const qint64 jupyterSince = j->idleSince(p->created);
        if (jupyterSince >= since) {
            since = jupyterSince;
            out.atLeast = false;
        }
        basis << tr("no Jupyter kernel or terminal in use");
    }
    out.known = !basis.isEmpty();
    out.since = since;
    out.basis = basis.join(QStringLiteral(", "));
    // Only what the GPUs say can free them: Jupyter alone cannot see a script in the background.
    out.flagged = gpuKnown && m_now() - since >= m_idleAfterMs;
    // Listed on the Cleanup page: idle, and maybe since earlier than gpudesk has sampled.
    if (const auto f = m_idleFindings.constFind(p->uid); f != m_idleFindings.cend()) {
        out.flagged = out.known = true;
        if (f->first < out.since || basis.isEmpty()) {
            out.since = f->first;
            out.atLeast = f->second;
        }
        if (basis.isEmpty())
            out.basis = tr("GPUs under %1 %").arg(TelemetryStore::BusyPercent);
    }
    return out;
}

QString DevEnvsModel::idleText(const Idle &idle) const
{
    if (!idle.known)
        return QStringLiteral("–");
    if (idle.busy)
        return tr("in use");
    return (idle.atLeast ? QStringLiteral("≥ ") : QString()) + format::age(idle.since, m_now());
}

void DevEnvsModel::setVolumes(const QList<DevEnvVolume> &volumes)
{
    QSet<QString> dirty;
    for (auto it = m_volumes.cbegin(); it != m_volumes.cend(); ++it)
        dirty.insert(it.key());
    m_volumes.clear();
    for (const DevEnvVolume &v : volumes) {
        const QString key = keyOf(v.ns, v.env);
        m_volumes.insert(key, v);
        dirty.insert(key);
    }
    sync(dirty, [this](const QString &key) { return present(key); });
}

const DevEnvVolume *DevEnvsModel::volume(const QString &key) const
{
    const auto it = m_volumes.constFind(key);
    return it == m_volumes.cend() ? nullptr : &*it;
}

QString DevEnvsModel::why(const QString &key) const
{
    const PodInfo *p = currentPod(key);
    if (!p || p->finished()) {
        const DevEnvVolume *v = volume(key);
        if (!v)
            return p ? tr("Ended.") : QString();
        return tr("Stopped: its volume %1 (%2) is kept; Start makes it again.")
            .arg(v->claim, v->size);
    }
    if (p->deleting)
        return tr("Stopping.");
    if (p->phase == QLatin1String("Running") && p->message.isEmpty()) {
        // A running container is not a ready environment until its services answer.
        const auto waiting = servicesWaiting(key);
        if (!waiting.isEmpty()) {
            QStringList names;
            for (const auto &[name, why] : waiting)
                names << name;
            // Minutes after the start it is no longer a matter of waiting.
            const bool late = m_now() - p->created > 5 * 60 * 1000; // DevEnvReadiness::SettleMs
            return (late ? tr("%1 does not answer: %2") : tr("Waiting for %1 to answer: %2"))
                .arg(names.join(QStringLiteral(", ")), waiting.first().second);
        }
    }
    if (const Idle i = idle(key); i.flagged)
        return tr("Idle for %1 (%2): Stop gives back its %n GPU(s) and keeps its home volume.",
                  nullptr, p->gpuRequest + migTotal(p->migRequests))
            .arg(idleText(i), i.basis);
    // The newest event of each kind that tells what the pod waits for.
    const EventInfo *pullError = nullptr;
    const EventInfo *pulling = nullptr;
    for (const EventInfo *e : m_store->eventsFor(p->uid)) {
        if (e->reason == QLatin1String("Failed") &&
            e->message.startsWith(QLatin1String("Failed to pull image")) &&
            (!pullError || e->lastSeen >= pullError->lastSeen))
            pullError = e;
        else if (e->reason == QLatin1String("Pulling") &&
                 (!pulling || e->lastSeen >= pulling->lastSeen))
            pulling = e;
    }
    if (p->status == QLatin1String("ErrImagePull") ||
        p->status == QLatin1String("ImagePullBackOff"))
        return pullError ? pullError->message : p->message;
    if (p->phase == QLatin1String("Pending")) {
        if (p->nodeName.isEmpty())
            return p->message.isEmpty() ? tr("Waiting to be scheduled.") : p->message;
        // The API tells no bytes: how long the pull has taken is what can be said.
        if (pulling)
            return tr("%1 (for %2)").arg(pulling->message, format::age(pulling->lastSeen, m_now()));
        return p->message.isEmpty() ? tr("Starting on %1.").arg(p->nodeName) : p->message;
    }
    return p->message;
}

const PodInfo *DevEnvsModel::currentPod(const QString &key) const
{
    return m_store->devEnvs().currentPod(key);
}

QList<std::pair<QString, int>> DevEnvsModel::services(const QString &key) const
{
    const PodInfo *p = currentPod(key);
    return p ? p->namedPorts : QList<std::pair<QString, int>>{};
}

int DevEnvsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant DevEnvsModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid())
        return {};
    const QString key = keyAt(index.row());
    const PodInfo *p = currentPod(key);
    if (!p || (p->finished() && volume(key)))
        return stoppedData(key, index.column(), role);
    const QString owner = m_store->userOf(p->ns).isEmpty() ? p->ns : m_store->userOf(p->ns);
    QStringList services;
    for (const auto &[name, port] : p->namedPorts)
        services << name;
    if (role == KeyRole)
        return key;
    if (role == NamespaceRole)
        return p->ns;
    if (role == PodUidRole)
        return p->uid;
    if (role == StatusRole)
        return p->status;
    if (role == FilterRole)
        return QStringList{p->devEnv, owner, p->status, p->image, p->nodeName}.join(u' ');
    if (role == SortRole) {
        switch (index.column()) {
        case Gpus:
            return p->gpuRequest + migTotal(p->migRequests);
        case Age:
            return p->created;
        case IdleFor: {
            const Idle i = idle(key);
            return !i.known ? -2 : i.busy ? -1 : m_now() - i.since;
        }
        case GpuUse:
            return gpuUse(p).value_or(-1.0);
        default:
            break;
        }
    }
    if (role == SeverityRole) {
        if (p->status == QLatin1String("ErrImagePull") ||
            p->status == QLatin1String("ImagePullBackOff"))
            return 2;
        return idle(key).flagged ? 1 : 0;
    }
    if (role == Qt::ToolTipRole && index.column() == IdleFor)
        return idleTip(key);
    if (role != Qt::DisplayRole && role != SortRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case Name:
        return p->devEnv;
    case Owner:
        return owner;
    case Status:
        // The cluster's word, and the user's language after it (format::status).
        return role == SortRole ? p->status : format::status(p->status);
    case Gpus: {
        const int mig = migTotal(p->migRequests);
        return mig > 0 ? tr("%n MIG instance(s)", "", mig) : QString::number(p->gpuRequest);
    }
    case GpuUse: {
        const auto use = gpuUse(p);
        return use ? tr("%1 %").arg(qRound(*use)) : QStringLiteral("–");
    }
    case IdleFor:
        return idleText(idle(key));
    case Node:
        return p->nodeName.isEmpty() ? tr("not scheduled") : p->nodeName;
    case Image:
        return p->image;
    case Services:
        return services.join(QStringLiteral(", "));
    case Age:
        return format::age(p->created, m_now());
    case Why:
        return why(key);
    default:
        return {};
    }
}

std::optional<double> DevEnvsModel::gpuUse(const PodInfo *p) const
{
    if (!m_telemetry || p->phase != QLatin1String("Running") ||
        p->gpuRequest + migTotal(p->migRequests) == 0)
        return std::nullopt;
    // The last minute's average over its cards, as the node samples said.
    return m_telemetry->workloadUsage({p->uid}, 60 * 1000).gpuUtilization;
}

QString DevEnvsModel::idleTip(const QString &key) const
{
    const Idle i = idle(key);
    QStringList lines;
    if (i.known && !i.busy)
        lines << tr("Idle since %1: %2.").arg(format::when(i.since), i.basis);
    else if (i.busy)
        lines << tr("In use: %1.").arg(i.basis);
    if (const JupyterUse *j = jupyterUse(key)) {
        if (!j->error.isEmpty())
            lines << tr("Jupyter could not be asked: %1").arg(j->error);
        else
            lines << tr("Jupyter at %1: %2, %3, last active %4.")
                         .arg(format::when(j->checked), tr("%n kernel(s)", nullptr, j->kernels),
                              tr("%n terminal(s)", nullptr, j->terminals),
                              j->lastActivity > 0 ? format::when(j->lastActivity) : tr("never"));
    }
    return lines.join(u'\n');
}

QVariant DevEnvsModel::stoppedData(const QString &key, int column, int role) const
{
    const DevEnvVolume *v = volume(key);
    if (!v)
        return {};
    const QString owner = m_store->userOf(v->ns).isEmpty() ? v->ns : m_store->userOf(v->ns);
    const QString stopped = tr("Stopped");
    if (role == KeyRole)
        return key;
    if (role == NamespaceRole)
        return v->ns;
    if (role == StatusRole)
        return stopped;
    if (role == FilterRole)
        return QStringList{v->env, owner, stopped, v->image}.join(u' ');
    if (role == SortRole && column == Gpus)
        return v->gpus;
    if (role == SortRole && column == Age)
        return v->created;
    if (role != Qt::DisplayRole && role != SortRole && role != Qt::ToolTipRole)
        return {};
    switch (column) {
    case Name:
        return v->env;
    case Owner:
        return owner;
    case Status:
        return stopped;
    case Gpus:
        return QString::number(v->gpus);
    case Node:
        return QStringLiteral("–");
    case Image:
        return v->image;
    case Age:
        return format::age(v->created, m_now());
    case Why:
        return why(key);
    default:
        return {};
    }
}

QVariant DevEnvsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("Environment");
    case Owner:
        return tr("Owner");
    case Status:
        return tr("Status");
    case Gpus:
        return tr("GPUs");
    case GpuUse:
        return tr("GPU use");
    case IdleFor:
        return tr("Idle for");
    case Node:
        return tr("Node");
    case Image:
        return tr("Image");
    case Services:
        return tr("Services");
    case Age:
        return tr("Age");
    case Why:
        return tr("Why");
    default:
        return {};
    }
}

} // namespace gpudesk
