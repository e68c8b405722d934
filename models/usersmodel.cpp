// SPDX-License-Identifier: GPL-3.0-or-later
#include "usersmodel.h"

#include "clusterstore.h"
#include "format.h"

#include <algorithm>

namespace gpudesk {

namespace {

QHash<QString, QList<const ResourceQuotaInfo *>> quotasByNamespace(const ClusterStore &store)
{
    QHash<QString, QList<const ResourceQuotaInfo *>> out;
    for (const auto &[uid, q] : store.objects<ResourceQuotaInfo>(Resource::ResourceQuotas))
        out[q.ns].append(&q);
    return out;
}

} // namespace

UsersModel::UsersModel(const ClusterStore *store, QObject *parent)
    : KeyedTableModel(parent), m_store(store)
{
    m_tally.rebuild(*store);
    const QStringList keys = currentKeys();
    resummarize(QSet<QString>(keys.cbegin(), keys.cend()));
    resetTo(keys);
    connect(store, &ClusterStore::updated, this, &UsersModel::onUpdated);
    // As often as the Workloads page looks at its waiting rows again.
    m_ageing.setInterval(60 * 1000);
    connect(&m_ageing, &QTimer::timeout, this, &UsersModel::reviewWaiting);
    m_ageing.start();
}

QStringList UsersModel::currentKeys() const
{
    QStringList keys;
    for (const auto &n : m_store->users())
        keys.append(n.name);
    return keys;
}

QSet<QString> UsersModel::resummarize(const QSet<QString> &namespaces)
{
    QSet<QString> changed;
    // One pass over the quotas for all of them: per namespace it would be quadratic.
    const auto quotas = quotasByNamespace(*m_store);
    for (const QString &ns : namespaces) {
        const NamespaceInfo *n = m_store->namespaceInfo(ns);
        if (!n || n->user.isEmpty()) {
            if (m_summaries.remove(ns))
                changed.insert(ns);
            continue;
        }
        UserSummary s = summarizeUser(*n, quotas.value(ns), m_tally.figures(ns));
        auto it = m_summaries.find(ns);
        if (it == m_summaries.end()) {
            m_summaries.insert(ns, std::move(s));
            changed.insert(ns);
        } else if (!(*it == s)) {
            *it = std::move(s);
            changed.insert(ns);
        }
    }
    return changed;
}

void UsersModel::onUpdated(const StoreChanges &changes)
{
    if (changes.reset)
        m_tally.rebuild(*m_store);
    QSet<QString> touched =
        changes.reset ? QSet<QString>() : m_tally.apply(*m_store, changes.workloads);
    if (changes.reset || changes.changed(Resource::Namespaces)) {
        const QStringList keys = currentKeys();
        QSet<QString> all(keys.cbegin(), keys.cend());
        for (auto it = m_summaries.cbegin(); it != m_summaries.cend(); ++it)
            all.insert(it.key());
        resummarize(all);
        if (changes.reset)
            resetTo(keys);
        else
            syncAll(keys);
        return;
    }
    // A quota moved: its namespace is among those the store names.
    if (changes.changed(Resource::ResourceQuotas))
        touched.unite(changes.namespaces);
    // Only rows whose figures changed are told (telling every row would make a sorting proxy
    // re-sort them all).
    QSet<QString> users;
    for (const QString &ns : std::as_const(touched))
        if (m_summaries.contains(ns))
            users.insert(ns);
    if (users.isEmpty())
        return;
    const QSet<QString> dirty = resummarize(users);
    if (!dirty.isEmpty())
        sync(dirty, [this](const QString &ns) { return m_summaries.contains(ns); });
}

void UsersModel::reviewWaiting()
{
    QSet<QString> users;
    for (const QString &ns : m_tally.reviewWaiting(*m_store))
        if (m_summaries.contains(ns))
            users.insert(ns);
    if (const QSet<QString> dirty = resummarize(users); !dirty.isEmpty())
        sync(dirty, [this](const QString &ns) { return m_summaries.contains(ns); });
}

const UserSummary *UsersModel::summary(const QString &ns) const
{
    const auto it = m_summaries.constFind(ns);
    return it == m_summaries.cend() ? nullptr : &*it;
}

QString UsersModel::quotaResource(int column)
{
    switch (column) {
    case GpuQuota:
        return QStringLiteral("requests.nvidia.com/gpu");
    case CpuQuota:
        return QStringLiteral("requests.cpu");
    case MemoryQuota:
        return QStringLiteral("requests.memory");
    case PodsQuota:
        return QStringLiteral("pods");
    default:
        return {};
    }
}

QString UsersModel::stateText(const UserSummary &s)
{
    if (s.phase == QLatin1String("Terminating"))
        return tr("Being deleted");
    if (s.disabled)
        return tr("Disabled");
    if (s.quotas == 0)
        return tr("No quota");
    return tr("Active");
}

int UsersModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant UsersModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const UserSummary *found = summary(keyAt(index.row()));
    if (!found)
        return {};
    const UserSummary &s = *found;
    const int column = index.column();
    const QString resource = quotaResource(column);
    const std::optional<qint64> hard = resource.isEmpty() ? std::nullopt : s.hardOf(resource);
    const qint64 used = resource.isEmpty() ? 0 : s.usedOf(resource);
    switch (role) {
    case KeyRole:
        return s.ns;
    case UserNameRole:
        return s.user;
    case VcRole:
        return s.vc;
    case NamespaceRole:
        return s.ns;
    case FilterRole:
        return QStringList{s.user, s.ns, s.vc}.join(u' ');
    case UsedRole:
        // Quota columns draw their use; the others (the Overview's chart reads the first) the
        // GPUs in use.
        return resource.isEmpty() ? QVariant(s.gpusInUse) : QVariant(double(used) / 1000.0);
    case TotalRole:
        return hard ? QVariant(double(*hard) / 1000.0) : QVariant();
    case SeverityRole:
        if (column == Problems)
            return s.failed > 0 ? 2 : 0;
        if (column == Waiting)
            return s.stuck > 0 ? 1 : 0;
        if (column == State)
            return s.disabled || s.phase == QLatin1String("Terminating") ? 1 : 0;
        if (hard && used > *hard)
            return 2; // over: the limit was lowered below use
        if (hard && *hard > 0 && used * 10 >= *hard * 9)
            return 1;
        return 0;
    case SortRole:
        switch (column) {
        case GpusInUse:
            return s.gpusInUse;
        case GpuQuota:
        case CpuQuota:
        case MemoryQuota:
        case PodsQuota:
            // How full: the users at their limit sort together, whatever the limit.
            return hard && *hard > 0 ? double(used) / double(*hard) : -1.0;
        case Running:
            return s.running;
        case Waiting:
            return s.waiting;
        case Problems:
            return s.failed;
        case DevEnvs:
            return s.devEnvs;
        case LastActivity:
            return s.lastActivity;
        default:
            return data(index, Qt::DisplayRole);
        }
    case Qt::ToolTipRole:
        if (!resource.isEmpty())
            return hard ? tr("%1: %2 used of %3")
                              .arg(resource, quantity::format(resource, used),
                                   quantity::format(resource, *hard))
                        : tr("%1: no limit").arg(resource);
        return {};
    case Qt::DisplayRole:
        switch (column) {
        case User:
            return s.user;
        case Vc:
            return s.vc;
        case State:
            return stateText(s);
        case GpusInUse:
            return s.gpusInUse;
        case GpuQuota:
        case CpuQuota:
        case MemoryQuota:
        case PodsQuota:
            if (!hard)
                return s.quotas == 0
                           ? QString()
                           : QStringLiteral("%1 / –").arg(quantity::format(resource, used));
            return QStringLiteral("%1 / %2").arg(quantity::format(resource, used),
                                                 quantity::format(resource, *hard));
        case Running:
            return s.running;
        case Waiting:
            // The stuck ones among them said beside: waiting still, not failed.
            return s.stuck > 0 ? QVariant(tr("%1 (%2 stuck)").arg(s.waiting).arg(s.stuck))
                               : QVariant(s.waiting);
        case Problems:
            return s.failed;
        case DevEnvs:
            return s.devEnvs;
        case LastActivity:
            return s.lastActivity > 0 ? format::when(s.lastActivity) : QString();
        case Namespace:
            return s.ns;
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant UsersModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case GpusInUse:
            return tr("GPUs the user's pods hold on nodes now");
        case GpuQuota:
        case CpuQuota:
        case MemoryQuota:
        case PodsQuota:
            return tr("What the namespace's ResourceQuota counts as used, against its limit");
        case Waiting:
            return tr("Jobs and pods waiting to be admitted or placed; stuck: waiting for a "
                      "reason that will not go away by itself");
        case Problems:
            return tr("Jobs and pods that failed");
        case LastActivity:
            return tr("When the user last created a pod or a job");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case User:
        return tr("User");
    case Vc:
        return tr("VC", "virtual cluster, a Volcano queue");
    case State:
        return tr("State");
    case GpusInUse:
        return tr("GPUs in use");
    case GpuQuota:
        return tr("GPU quota");
    case CpuQuota:
        return tr("CPU quota");
    case MemoryQuota:
        return tr("Memory quota");
    case PodsQuota:
        return tr("Pods");
    case Running:
        return tr("Running");
    case Waiting:
        return tr("Waiting");
    case Problems:
        return tr("Failed");
    case DevEnvs:
        return tr("Dev envs", "dev environments");
    case LastActivity:
        return tr("Last activity");
    case Namespace:
        return tr("Namespace");
    default:
        return {};
    }
}

} // namespace gpudesk
