// SPDX-License-Identifier: GPL-3.0-or-later
#include "devenvsmodel.h"

#include "clusterstore.h"
#include "format.h"

#include <QDateTime>

namespace gpudesk {

DevEnvsModel::DevEnvsModel(const ClusterStore *store, QObject *parent)
    : KeyedTableModel(parent), m_store(store),
      m_now([] { return QDateTime::currentMSecsSinceEpoch(); })
{
    rebuild();
    connect(store, &ClusterStore::updated, this, &DevEnvsModel::onUpdated);
}

void DevEnvsModel::indexPod(const QString &uid, QSet<QString> *dirty)
{
    const QString before = m_envOf.value(uid);
    const PodInfo *pod = m_store->pod(uid);
    const QString after = pod && !pod->devEnv.isEmpty() ? keyOf(pod->ns, pod->devEnv) : QString();
    if (!before.isEmpty()) {
        dirty->insert(before);
        if (before != after) {
            m_podsOf[before].remove(uid);
            if (m_podsOf[before].isEmpty())
                m_podsOf.remove(before);
            m_envOf.remove(uid);
        }
    }
    if (!after.isEmpty()) {
        m_envOf.insert(uid, after);
        m_podsOf[after].insert(uid);
        dirty->insert(after);
    }
}

void DevEnvsModel::rebuild()
{
    m_envOf.clear();
    m_podsOf.clear();
    QSet<QString> ignored;
    for (auto it = m_store->pods().cbegin(); it != m_store->pods().cend(); ++it)
        if (!it->devEnv.isEmpty())
            indexPod(it.key(), &ignored);
    QStringList keys = m_podsOf.keys();
    for (auto it = m_volumes.cbegin(); it != m_volumes.cend(); ++it)
        if (!m_podsOf.contains(it.key()))
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
    if (changes.pods.isEmpty() && changes.events.isEmpty())
        return;
    QSet<QString> dirty;
    for (const QString &uid : changes.pods)
        indexPod(uid, &dirty);
    // An event on an environment's pod may change why it waits (a pull error, pulling).
    for (const QString &uid : changes.events) {
        const auto e = m_store->events().constFind(uid);
        if (e != m_store->events().cend())
            if (const QString key = m_envOf.value(e->objectUid); !key.isEmpty())
                dirty.insert(key);
    }
    sync(dirty,
         [this](const QString &key) { return m_podsOf.contains(key) || m_volumes.contains(key); });
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
    sync(dirty,
         [this](const QString &key) { return m_podsOf.contains(key) || m_volumes.contains(key); });
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
        if (pulling)
            return pulling->message;
        return p->message.isEmpty() ? tr("Starting on %1.").arg(p->nodeName) : p->message;
    }
    return p->message;
}

const PodInfo *DevEnvsModel::currentPod(const QString &key) const
{
    const PodInfo *best = nullptr;
    for (const QString &uid : m_podsOf.value(key)) {
        const PodInfo *p = m_store->pod(uid);
        if (!p)
            continue;
        // Live before finished or going; among equals the newest.
        const auto rank = [](const PodInfo *x) { return x->finished() || x->deleting ? 0 : 1; };
        if (!best || rank(p) > rank(best) || (rank(p) == rank(best) && p->created > best->created))
            best = p;
    }
    return best;
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
        default:
            break;
        }
    }
    if (role != Qt::DisplayRole && role != SortRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case Name:
        return p->devEnv;
    case Owner:
        return owner;
    case Status:
        return p->status;
    case Gpus: {
        const int mig = migTotal(p->migRequests);
        return mig > 0 ? tr("%n MIG instance(s)", "", mig) : QString::number(p->gpuRequest);
    }
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
