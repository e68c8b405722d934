// SPDX-License-Identifier: GPL-3.0-or-later
#include "workloadsmodel.h"

#include "diagnosisbook.h"
#include "format.h"
#include "preemptionlog.h"
#include "workloadstatus.h"

#include <QElapsedTimer>
#include <QSet>

#include <algorithm>

namespace gpudesk {

WorkloadsModel::WorkloadsModel(const ClusterStore *store, QObject *parent, Clock now)
    : QAbstractItemModel(parent), m_store(store), m_now(std::move(now))
{
    m_slice.setObjectName(QStringLiteral("workloadsSlice"));
    m_slice.setSingleShot(true);
    m_slice.setInterval(0);
    connect(&m_slice, &QTimer::timeout, this, &WorkloadsModel::applyPending);
    rebuild();
    connect(store, &ClusterStore::updated, this, &WorkloadsModel::onUpdated);
    m_ageing.setInterval(60 * 1000);
    connect(&m_ageing, &QTimer::timeout, this, &WorkloadsModel::reviewWaiting);
    m_ageing.start();
}

void WorkloadsModel::reviewWaiting()
{
    for (const auto &row : m_rows) {
        if (row->key.isEmpty() || row->info.stuck)
            continue;
        const bool waits = workloadstatus::classOf(row->info.status) == workloadstatus::Waiting ||
                           row->info.status == QLatin1String("Terminating");
        if (waits && !m_pendingKeys.contains(row->key)) {
            m_pendingKeys.insert(row->key);
            m_pending.append(row->key);
        }
    }
    applyPending();
}

WorkloadsModel::~WorkloadsModel() = default;

std::unique_ptr<WorkloadsModel::Row> WorkloadsModel::makeRow(const QString &key) const
{
    const auto info = m_store->workload(key);
    if (!info)
        return nullptr;
    auto row = std::make_unique<Row>();
    row->key = key;
    row->info = *info;
    row->info.job = nullptr;
    row->info.podGroup = nullptr;
    row->user = m_store->userOf(info->ns);
    QSet<QString> nodes;
    QString firstStatus;
    bool anyRunning = false;
    bool allSame = true;
    for (const PodInfo *p : m_store->podsOfWorkload(key)) {
        row->pods.append(p->uid);
        row->restarts += p->restarts;
        if (!p->finished())
            row->gpus += p->gpuRequest;
        if (!p->nodeName.isEmpty())
            nodes.insert(p->nodeName);
        if (firstStatus.isEmpty())
            firstStatus = p->status;
        allSame &= p->status == firstStatus;
        anyRunning |= p->status == QLatin1String("Running");
    }
    if (row->info.kind == QLatin1String("Pod"))
        row->pods.clear(); // a bare pod is its own row, with no children
    // A gang not yet admitted has no pods: what it waits for is its pod group's minResources.
    if (row->pods.isEmpty() && info->podGroup && info->podGroup->phase == QLatin1String("Pending"))
        row->gpus = info->podGroup->minGpus;
    row->nodes = QStringList(nodes.cbegin(), nodes.cend());
    row->nodes.sort();
    // A controller gpudesk does not know as a job (a ReplicaSet, say) shows its pods' state.
    if (row->info.status.isEmpty())
        row->info.status = allSame || !anyRunning ? firstStatus : QStringLiteral("Running");
    fillCause(*row);
    return row;
}

void WorkloadsModel::rebuild()
{
    beginResetModel();
    m_rows.clear();
    m_childCount.clear();
    m_byKey.clear();
    m_free.clear();
    QStringList keys = m_store->workloadKeys();
    keys.sort();
    for (const QString &key : std::as_const(keys)) {
        if (auto row = makeRow(key)) {
            row->row = int(m_rows.size());
            m_byKey.insert(key, row.get());
            m_childCount.push_back(int(row->pods.size()));
            m_rows.push_back(std::move(row));
        }
    }
    endResetModel();
}

bool WorkloadsModel::lessThan(int slotA, int slotB, int column) const
{
    const Row &x = *m_rows[size_t(slotA)];
    const Row &y = *m_rows[size_t(slotB)];
    auto text = [](const QString &l, const QString &r) {
        return QString::compare(l, r, Qt::CaseInsensitive) < 0;
    };
    switch (column) {
    case Name:
        return text(x.info.name, y.info.name);
    case User:
        return text(x.user, y.user);
    case Vc:
        return text(x.info.vc, y.info.vc);
    case Kind:
        return text(x.info.kind, y.info.kind);
    case Status:
        return text(x.info.status, y.info.status);
    case Gpus:
        return x.gpus < y.gpus;
    case Nodes:
        return x.nodes.size() < y.nodes.size();
    case Restarts:
        return x.restarts < y.restarts;
    case Age:
        return x.info.created > y.info.created; // as SortRole's -created: newest first
    case Reason:
        return text(reasonOf(x), reasonOf(y));
    default:
        return false;
    }
}

int WorkloadsModel::rowOf(const QString &key) const
{
    const Row *row = m_byKey.value(key);
    return row ? row->row : -1;
}

void WorkloadsModel::refreshRow(int row, std::unique_ptr<Row> fresh)
{
    Row &old = *m_rows[size_t(row)];
    const QModelIndex parentIndex = createIndex(row, 0, nullptr);
    // Children gone: all at once when the slot empties, else bottom-up so the rows above keep
    // their numbers.
    if (fresh->pods.isEmpty() && !old.pods.isEmpty()) {
        beginRemoveRows(parentIndex, 0, int(old.pods.size()) - 1);
        old.pods.clear();
        m_childCount[size_t(row)] = 0;
        endRemoveRows();
    }
    const QSet<QString> keep(fresh->pods.cbegin(), fresh->pods.cend());
    for (int c = int(old.pods.size()) - 1; c >= 0; --c) {
        if (keep.contains(old.pods[c]))
            continue;
        beginRemoveRows(parentIndex, c, c);
        old.pods.removeAt(c);
        m_childCount[size_t(row)] = int(old.pods.size());
        endRemoveRows();
    }
    // New children: appended in one go.
    const QSet<QString> had(old.pods.cbegin(), old.pods.cend());
    QStringList added;
    for (const QString &uid : std::as_const(fresh->pods)) {
        if (!had.contains(uid))
            added.append(uid);
    }
    if (!added.isEmpty()) {
        const int first = int(old.pods.size());
        beginInsertRows(parentIndex, first, first + int(added.size()) - 1);
        old.pods.append(added);
        m_childCount[size_t(row)] = int(old.pods.size());
        endInsertRows();
    }
    // Only the columns whose values changed are announced: a sorting proxy re-sorts a row
    // only when its sort column is among them, and most watch events (a heartbeat annotation,
    // a condition's time) change nothing the table shows.
    const WorkloadInfo &a = old.info;
    const WorkloadInfo &b = fresh->info;
    const bool changed[ColumnCount] = {
        a.name != b.name || old.key != fresh->key,
        old.user != fresh->user,
        a.vc != b.vc,
        a.kind != b.kind,
        a.status != b.status || a.message != b.message || a.stuck != b.stuck,
        old.gpus != fresh->gpus,
        old.nodes != fresh->nodes,
        old.restarts != fresh->restarts,
        a.created != b.created,
        a.message != b.message || old.cause != fresh->cause,
    };
    // The same Row object stays: child indexes point at it.
    old.key = fresh->key;
    old.info = fresh->info;
    old.user = fresh->user;
    old.nodes = fresh->nodes;
    old.gpus = fresh->gpus;
    old.restarts = fresh->restarts;
    old.cause = fresh->cause;
    old.causeTip = fresh->causeTip;
    for (int c = 0; c < ColumnCount; ++c) {
        if (!changed[c])
            continue;
        int last = c;
        while (last + 1 < ColumnCount && changed[last + 1])
            ++last;
        emit dataChanged(index(row, c), index(row, last));
        c = last;
    }
    if (!old.pods.isEmpty())
        emit dataChanged(index(0, 0, parentIndex),
                         index(int(old.pods.size()) - 1, ColumnCount - 1, parentIndex));
}

void WorkloadsModel::onUpdated(const StoreChanges &changes)
{
    if (changes.reset) {
        m_pending.clear();
        m_pendingHead = 0;
        m_pendingKeys.clear();
        m_slice.stop();
        rebuild();
        return;
    }
    for (const QString &key : changes.workloads)
        if (!m_pendingKeys.contains(key)) {
            m_pendingKeys.insert(key);
            m_pending.append(key);
        }
    applyPending();
}

void WorkloadsModel::applyPending()
{
    // 10,000 watch events a second on a 100,000-row sorted tree: one flush's worth can take the
    // proxy and the view longer than a frame. Applied in small chunks against a clock, the UI
    // thread never holds for much more than a slice; the rest follows on the next turn of the
    // event loop. A key is applied from the store as it is then, so a later change to a
    // workload still waiting costs nothing extra.
    constexpr qsizetype Chunk = 32;
    QElapsedTimer clock;
    clock.start();
    while (m_pendingHead < m_pending.size()) {
        const qsizetype n = qMin(Chunk, m_pending.size() - m_pendingHead);
        const QStringList keys = m_pending.mid(m_pendingHead, n);
        m_pendingHead += n;
        for (const QString &key : keys)
            m_pendingKeys.remove(key);
        apply(keys);
        if (clock.elapsed() >= m_sliceMs)
            break;
    }
    if (m_pendingHead >= m_pending.size()) {
        m_pending.clear();
        m_pendingHead = 0;
    } else if (!m_slice.isActive()) {
        m_slice.start();
    }
}

void WorkloadsModel::apply(const QStringList &keys)
{
    QList<int> gone;
    std::vector<std::unique_ptr<Row>> added;
    std::vector<std::pair<int, std::unique_ptr<Row>>> refreshed;
    for (const QString &key : keys) {
        auto fresh = makeRow(key);
        const int row = rowOf(key);
        if (!fresh && row >= 0)
            gone.append(row);
        else if (fresh && row < 0)
            added.push_back(std::move(fresh));
        else if (fresh)
            refreshed.emplace_back(row, std::move(fresh));
    }
    // A deleted workload empties its slot; nothing below it moves (see the header).
    for (const int row : std::as_const(gone)) {
        m_byKey.remove(m_rows[size_t(row)]->key);
        refreshRow(row, std::make_unique<Row>());
        m_free.push_back(row);
    }
    for (auto &[row, fresh] : refreshed)
        refreshRow(row, std::move(fresh));
    std::sort(added.begin(), added.end(), [](const auto &a, const auto &b) {
        return std::tie(a->info.ns, a->info.name) < std::tie(b->info.ns, b->info.name);
    });
    auto next = added.begin();
    for (; next != added.end() && !m_free.empty(); ++next) {
        const int row = m_free.back();
        m_free.pop_back();
        m_byKey.insert((*next)->key, m_rows[size_t(row)].get());
        refreshRow(row, std::move(*next));
    }
    if (next != added.end()) {
        const int first = int(m_rows.size());
        beginInsertRows({}, first, first + int(added.end() - next) - 1);
        for (; next != added.end(); ++next) {
            auto &row = *next;
            row->row = int(m_rows.size());
            m_byKey.insert(row->key, row.get());
            m_childCount.push_back(int(row->pods.size()));
            m_rows.push_back(std::move(row));
        }
        endInsertRows();
    }
    emit applied();
}

QModelIndex WorkloadsModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, nullptr);
    // A child's internal pointer is its workload's Row.
    return createIndex(row, column, m_rows[size_t(parent.row())].get());
}

QModelIndex WorkloadsModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || !child.internalPointer())
        return {};
    return createIndex(static_cast<const Row *>(child.internalPointer())->row, 0, nullptr);
}

int WorkloadsModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_rows.size());
    if (parent.internalPointer() || parent.column() != 0)
        return 0; // pods have no children
    return m_childCount[size_t(parent.row())];
}

int WorkloadsModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QModelIndex WorkloadsModel::indexOfWorkload(const QString &key) const
{
    const int r = rowOf(key);
    return r < 0 ? QModelIndex() : createIndex(r, 0, nullptr);
}

QVariant WorkloadsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (!index.internalPointer()) {
        const Row &row = *m_rows[size_t(index.row())];
        if (row.key.isEmpty())
            return {}; // an empty slot
        if (role == DiagnosisClassRole)
            return row.causeClass;
        // A bare pod is its own workload: the pod's fields, but its standing (stuck, and the
        // reason with the advice that goes with it) as the workload's.
        const bool standing =
            role == SeverityRole || role == StatusClassRole ||
            (index.column() == Reason && (role == Qt::DisplayRole || role == Qt::ToolTipRole ||
                                          role == SortRole || role == FilterRole));
        if (row.info.kind == QLatin1String("Pod") && !standing) {
            if (const PodInfo *p = m_store->pod(row.key))
                return podData(*p, index.column(), role);
        }
        return workloadData(row, index.column(), role);
    }
    const auto *parentRow = static_cast<const Row *>(index.internalPointer());
    const PodInfo *p = m_store->pod(parentRow->pods.value(index.row()));
    if (p && role == DiagnosisClassRole) {
        const Diagnosis *d = m_diagnoses ? m_diagnoses->cause(*p) : nullptr;
        return d ? d->cls : QString();
    }
    return p ? podData(*p, index.column(), role) : QVariant();
}

QVariant WorkloadsModel::workloadData(const Row &row, int column, int role) const
{
    const WorkloadInfo &w = row.info;
    switch (role) {
    case KeyRole:
        return row.key;
    case UserNameRole:
        return row.user;
    case VcRole:
        return w.vc;
    case StatusRole:
        return w.status;
    case KindRole:
        return w.kind;
    case NamespaceRole:
        return w.ns;
    case IsPodRole:
        return false;
    case SeverityRole: // a job whose state lies is a problem whatever it says
        return w.stuck || !w.stateLie.isEmpty() ? 2 : workloadstatus::severity(w.status);
    case StatusClassRole:
        return int(w.stuck || !w.stateLie.isEmpty() ? workloadstatus::Problem
                                                    : workloadstatus::classOf(w.status));
    case FilterRole:
        return QStringList{w.name,    w.ns,       row.user,         w.vc,
                           w.kind,    w.status,   w.message,        row.nodes.join(u' '),
                           row.cause, w.stateLie, preemptionOf(row)}
            .join(u' ');
    case Qt::ToolTipRole: {
        if (column != Reason && column != Status)
            return QString();
        QString tip =
            row.cause.isEmpty() ? w.message : QString(row.causeTip + u'\n' + w.message).trimmed();
        if (const QString preempted = preemptionOf(row); !preempted.isEmpty())
            tip = QString(preempted + u'\n' + tip).trimmed();
        return w.stateLie.isEmpty() ? tip : QString(w.stateLie + u'\n' + tip).trimmed();
    }
    case SortRole:
        switch (column) {
        case Gpus:
            return row.gpus;
        case Restarts:
            return row.restarts;
        case Age:
            return -w.created;
        case Nodes:
            return int(row.nodes.size());
        default:
            return workloadData(row, column, Qt::DisplayRole);
        }
    case Qt::DisplayRole:
        switch (column) {
        case Name:
            return w.name;
        case User:
            return row.user;
        case Vc:
            return w.vc;
        case Kind:
            return w.kind;
        case Status:
            return format::status(w.status);
        case Gpus:
            return row.gpus;
        case Nodes:
            return row.nodes.size() <= 2 ? row.nodes.join(QStringLiteral(", "))
                                         : tr("%1 and %n more", nullptr, int(row.nodes.size() - 1))
                                               .arg(row.nodes.first());
        case Restarts:
            return row.restarts;
        case Age:
            return format::age(w.created, m_now());
        case Reason: {
            // Preempted and not running again since: who took its GPUs is why it waits (a
            // job that ran again and now waits for another reason keeps it in the tooltip).
            const Preemption *p = m_preemptions ? m_preemptions->latestFor(row.key) : nullptr;
            const JobInfo *job = p ? m_store->job(row.key) : nullptr;
            constexpr qint64 StateSlackMs = 120000; // the job's state follows its pods
            if (p && row.info.stateLie.isEmpty() &&
                workloadstatus::classOf(w.status) != workloadstatus::Running &&
                workloadstatus::classOf(w.status) != workloadstatus::Finished &&
                (!job || job->stateSince <= 0 || p->at + StateSlackMs >= job->stateSince))
                return PreemptionLog::describe(*p, m_now());
            return reasonOf(row);
        }
        default:
            return {};
        }
    default:
        return {};
    }
}

QString WorkloadsModel::preemptionOf(const Row &row) const
{
    const Preemption *p = m_preemptions ? m_preemptions->latestFor(row.key) : nullptr;
    return p ? PreemptionLog::describe(*p, m_now()) : QString();
}

void WorkloadsModel::setPreemptions(const PreemptionLog *log)
{
    m_preemptions = log;
    if (!log)
        return;
    connect(log, &PreemptionLog::changed, this, [this](const QSet<QString> &workloads) {
        for (const QString &key : workloads)
            if (const int r = rowOf(key); r >= 0)
                emit dataChanged(index(r, Reason), index(r, Reason));
    });
    connect(log, &PreemptionLog::cleared, this, [this] {
        if (rowCount() > 0)
            emit dataChanged(index(0, Reason), index(rowCount() - 1, Reason));
    });
}

QString WorkloadsModel::podReason(const PodInfo &p) const
{
    const QString caveat = m_store->podCaveat(p);
    if (!caveat.isEmpty())
        return caveat;
    // A waiting pod keeps the scheduler's words; a failed one gets the doctor's.
    const Diagnosis *d = m_diagnoses && (DiagnosisBook::troubled(p) || p.message.isEmpty())
                             ? m_diagnoses->cause(p)
                             : nullptr;
    if (d)
        return d->title + u'\n' + d->cause + u'\n' + d->fix;
    return p.message;
}

const Diagnosis *WorkloadsModel::diagnosisOf(const Row &row) const
{
    // A waiting or finished job keeps its controller's words; a failed one (or one whose pods
    // fail), one that runs ("is running" says less than the doctor's NCCL over sockets) and one
    // with nothing to say get the doctor's.
    if (!m_diagnoses ||
        (!row.info.message.isEmpty() && workloadstatus::severity(row.info.status) < 2 &&
         row.info.status != QLatin1String("Running")))
        return nullptr;
    if (row.info.kind == QLatin1String("Pod")) { // a bare pod is its own workload
        const PodInfo *p = m_store->pod(row.key);
        return p ? m_diagnoses->cause(*p) : nullptr;
    }
    // A gang of thousands of pods fails through a few: the first pods say it.
    constexpr int Looked = 64;
    const Diagnosis *best = nullptr;
    for (qsizetype i = 0; i < row.pods.size() && i < Looked; ++i) {
        const PodInfo *p = m_store->pod(row.pods[i]);
        const Diagnosis *d = p ? m_diagnoses->cause(*p) : nullptr;
        if (d && (!best || d->priority > best->priority))
            best = d;
    }
    return best;
}

bool WorkloadsModel::fillCause(Row &row) const
{
    const Diagnosis *d = row.key.isEmpty() ? nullptr : diagnosisOf(row);
    // A job that waits: why, at the job's level, where the doctor has asked (the scheduler's
    // words about its pods follow in the tooltip).
    const DiagnosisBook::Wait *wait =
        !d && m_diagnoses && !row.key.isEmpty() &&
                workloadstatus::classOf(row.info.status) == workloadstatus::Waiting &&
                row.info.status != QLatin1String("Terminating")
            ? m_diagnoses->wait(row.key)
            : nullptr;
    const QString cause = d ? d->title : wait ? wait->title : QString();
    const QString tip = d      ? d->title + u'\n' + d->cause + u'\n' + d->fix
                        : wait ? wait->title + u'\n' + wait->tip
                               : QString();
    const QString cls = d ? d->cls : QString();
    if (cause == row.cause && tip == row.causeTip && cls == row.causeClass)
        return false;
    row.cause = cause;
    row.causeTip = tip;
    row.causeClass = cls;
    return true;
}

QString WorkloadsModel::reasonOf(const Row &row)
{
    // A state that lies first (a Failed job whose master still holds its GPUs), then the
    // doctor's cause, then the controller's words ("1 replica(s) failed").
    if (!row.info.stateLie.isEmpty())
        return row.info.stateLie;
    return row.cause.isEmpty() ? row.info.message.section(u'\n', 0, 0) : row.cause;
}

void WorkloadsModel::setDiagnoses(const DiagnosisBook *book)
{
    m_diagnoses = book;
    connect(book, &DiagnosisBook::changed, this, &WorkloadsModel::onDiagnosed);
    connect(book, &DiagnosisBook::waitsChanged, this, [this](const QSet<QString> &keys) {
        for (const QString &key : keys)
            if (const int r = rowOf(key); r >= 0 && fillCause(*m_rows[size_t(r)]))
                emit dataChanged(index(r, Reason), index(r, Reason));
    });
    connect(book, &DiagnosisBook::cleared, this, [this] {
        for (const auto &row : m_rows)
            if (fillCause(*row))
                emit dataChanged(index(row->row, Reason), index(row->row, Reason));
    });
    for (const auto &row : m_rows)
        fillCause(*row);
}

void WorkloadsModel::onDiagnosed(const QSet<QString> &podUids)
{
    for (const QString &uid : podUids) {
        const PodInfo *p = m_store->pod(uid);
        const int row = p ? rowOf(ClusterStore::workloadKey(*p)) : -1;
        if (row < 0)
            continue;
        if (fillCause(*m_rows[size_t(row)]))
            emit dataChanged(index(row, Reason), index(row, Reason));
        const int child = int(m_rows[size_t(row)]->pods.indexOf(uid));
        if (child >= 0) {
            const QModelIndex parent = index(row, 0);
            emit dataChanged(index(child, Reason, parent), index(child, Reason, parent));
        }
    }
}

QVariant WorkloadsModel::podData(const PodInfo &p, int column, int role) const
{
    switch (role) {
    case KeyRole:
        return p.uid;
    case UserNameRole:
        return m_store->userOf(p.ns);
    case VcRole:
        return m_store->vcOf(p);
    case StatusRole:
        return p.status;
    case KindRole:
        return QStringLiteral("Pod");
    case NamespaceRole:
        return p.ns;
    case IsPodRole:
        return true;
    case SeverityRole:
        return p.deleting && !m_store->podCaveat(p).isEmpty() ? 2
                                                              : workloadstatus::severity(p.status);
    case StatusClassRole:
        return int(p.deleting && !m_store->podCaveat(p).isEmpty()
                       ? workloadstatus::Problem
                       : workloadstatus::classOf(p.status));
    case FilterRole:
        return QStringList{p.name,       p.ns,      m_store->userOf(p.ns), p.status, p.message,
                           podReason(p), p.nodeName}
            .join(u' ');
    case Qt::ToolTipRole:
        return column == Reason || column == Status ? podReason(p) : QString();
    case SortRole:
        switch (column) {
        case Gpus:
            return p.gpuRequest;
        case Restarts:
            return p.restarts;
        case Age:
            return -p.created;
        case Nodes:
            return int(!p.nodeName.isEmpty()); // a count, as for a job's row
        default:
            return podData(p, column, Qt::DisplayRole);
        }
    case Qt::DisplayRole:
        switch (column) {
        case Name:
            return p.name;
        case User:
            return m_store->userOf(p.ns);
        case Vc:
            return m_store->vcOf(p);
        case Kind:
            return QStringLiteral("Pod");
        case Status:
            return format::status(p.status);
        case Gpus:
            return p.gpuRequest;
        case Nodes:
            return p.nodeName;
        case Restarts:
            return p.restarts;
        case Age:
            return format::age(p.created, m_now());
        case Reason:
            return podReason(p).section(u'\n', 0, 0);
        default:
            return {};
        }
    default:
        return {};
    }
}

QVariant WorkloadsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("Name");
    case User:
        return tr("User");
    case Vc:
        return tr("VC", "virtual cluster, a Volcano queue");
    case Kind:
        return tr("Kind");
    case Status:
        return tr("Status");
    case Gpus:
        return tr("GPUs");
    case Nodes:
        return tr("Nodes");
    case Restarts:
        return tr("Restarts");
    case Age:
        return tr("Age");
    case Reason:
        return tr("Reason");
    default:
        return {};
    }
}

} // namespace gpudesk
