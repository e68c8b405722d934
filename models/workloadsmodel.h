// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "clock.h"
#include "clusterstore.h"
#include "roles.h"

#include <QAbstractItemModel>
#include <QSet>
#include <QTimer>

#include <memory>
#include <vector>

namespace gpudesk {

class DiagnosisBook;
class PreemptionLog;
struct Diagnosis;

// The Workloads page's tree: jobs (Volcano, PyTorchJob, MPIJob, other controllers) with their
// pods as children, and bare pods on their own. Updated in place from the store's changes.
//
// Top-level rows are slots: a deleted workload empties its row (no key, no data, no children)
// and the next new workload takes it. Nothing below ever moves, so a flush that deletes 1,000
// scattered workloads out of 100,000 costs 1,000 dataChanged signals instead of 1,000 row
// removals that each renumber every row after them in this model and in the sorting proxy.
// WorkloadsFilter hides empty slots; workloadCount() counts the others.
class WorkloadsModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    enum Column
    {
        Name,
        User,
        Vc,
        Kind,
        Status,
        Gpus,
        Nodes,
        Restarts,
        Age,
        Reason,
        ColumnCount
    };

    explicit WorkloadsModel(const ClusterStore *store, QObject *parent = nullptr,
                            Clock now = &systemNow);
    ~WorkloadsModel() override;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    QModelIndex indexOfWorkload(const QString &key) const;
    int workloadCount() const { return int(m_byKey.size()); }
    // Changes not yet shown: a burst larger than one slice is applied over several.
    int pendingCount() const { return int(m_pending.size() - m_pendingHead); }
    static constexpr int SliceMs = 12;
    // 0: one chunk of changes per turn of the event loop (tests).
    void setSliceBudget(int ms) { m_sliceMs = ms; }
    // For WorkloadsTable: compares two filled slots on a column straight from their fields,
    // without QVariants (sorting 100,000 rows makes some 1.7 million comparisons).
    bool lessThan(int slotA, int slotB, int column) const;
    bool isEmptySlot(int slot) const { return m_rows[size_t(slot)]->key.isEmpty(); }
    // The workload a slot holds now (empty for an empty slot): a slot is reused by the next
    // new workload after its own was deleted.
    const QString &keyOfSlot(int slot) const { return m_rows[size_t(slot)]->key; }
    // The job doctor's findings: the Reason of a failed or crash-looping pod, and of its job,
    // is its cause in words (the tooltip adds the cause and the fix).
    void setDiagnoses(const DiagnosisBook *book);
    // A job whose pods were preempted says by whom: in Reason while it is not running again,
    // in the tooltip always.
    void setPreemptions(const PreemptionLog *log);

signals:
    // A set of changes has been applied (after its rows' signals): views over this model can
    // now act on all of them at once.
    void applied();

private:
    struct Row
    {
        QString key;
        WorkloadInfo info; // info.job is not kept: it may dangle after the store changes
        QString user;
        QStringList pods; // uids, sorted by pod name
        QStringList nodes;
        int gpus = 0;
        int restarts = 0;
        // The doctor's cause for it (diagnosisOf), kept so that sorting and filtering 100,000
        // rows by Reason read a field: "" none. `causeTip`: its cause and fix.
        QString cause;
        QString causeTip;
        QString causeClass; // its class, for the Workloads page's "by cause" filter
        int row = -1;       // its slot: fixed for the Row's life
    };

    void onUpdated(const StoreChanges &changes);
    // Applies queued workload changes for at most SliceMs (the sorting proxy and the view do
    // their share inside that time), then lets the event loop run and goes on.
    void applyPending();
    void reviewWaiting();
    void apply(const QStringList &keys);
    void rebuild();
    std::unique_ptr<Row> makeRow(const QString &key) const;
    void refreshRow(int row, std::unique_ptr<Row> fresh);
    int rowOf(const QString &key) const;
    QVariant workloadData(const Row &row, int column, int role) const;
    // PreemptionLog::describe of the job's newest preemption ("" none).
    QString preemptionOf(const Row &row) const;
    QVariant podData(const PodInfo &pod, int column, int role) const;
    // Why the pod is as it is: the caveat of its state (stuck Terminating, on a NotReady node),
    // else its own message.
    QString podReason(const PodInfo &pod) const;
    // The cause the doctor found for the workload's pods (the most specific), if any.
    const Diagnosis *diagnosisOf(const Row &row) const;
    // Sets row.cause and row.causeTip from the book; true when they changed.
    bool fillCause(Row &row) const;
    // What the Reason column shows: the doctor's cause, else the workload's own first line.
    static QString reasonOf(const Row &row);
    void onDiagnosed(const QSet<QString> &podUids);

    const ClusterStore *m_store;
    const DiagnosisBook *m_diagnoses = nullptr;
    const PreemptionLog *m_preemptions = nullptr;
    Clock m_now;
    std::vector<std::unique_ptr<Row>> m_rows;
    QHash<QString, Row *> m_byKey;
    // Pods per slot, beside the rows: a tree view's layout asks every row for it, and reading
    // it from 100,000 separately allocated Rows is a cache miss each.
    std::vector<int> m_childCount;
    std::vector<int> m_free; // empty slots, reused last-freed first
    // Changed workloads not yet applied, oldest first (each once).
    QStringList m_pending;
    qsizetype m_pendingHead = 0;
    QSet<QString> m_pendingKeys;
    QTimer m_slice;
    // Waiting becomes stuck with time alone (no event marks the tenth minute): rows that wait
    // are looked at again once a minute.
    QTimer m_ageing;
    int m_sliceMs = SliceMs;
};

} // namespace gpudesk
