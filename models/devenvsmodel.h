// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "devenvindex.h"
#include "jupyteruse.h"
#include "keyedtablemodel.h"

#include <QHash>
#include <QSet>

#include <functional>
#include <optional>

namespace gpudesk {

class ClusterStore;
class TelemetryStore;
struct PodInfo;
struct StoreChanges;

// A stopped environment's home volume (PersistentVolumeClaim labelled gpudesk.io/devenv), read
// by DevEnvsService: what remains of it, and the pod manifest to start it again.
struct DevEnvVolume
{
    QString ns;
    QString env;
    QString claim;
    QString uid;
    QString size;  // spec.resources.requests.storage
    QString image; // of the kept manifest
    int gpus = 0;
    QByteArray podManifest; // annotation gpudesk.io/devenv-pod ("" when not gpudesk's)
    qint64 created = 0;
};

// Dev environments: the pods labelled gpudesk.io/devenv=NAME, one row per namespace and name
// (key "NAMESPACE/NAME"), showing the pod the environment runs in now — the newest one not
// finished or being deleted, as a replacement overlaps its predecessor — and the stopped ones
// whose home volume is all that is left. The environments' pods are the store's (DevEnvIndex);
// rows are updated from the environments that changed, not rebuilt.
class DevEnvsModel : public KeyedTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Name,
        Owner,
        Status,
        Gpus,
        GpuUse,
        IdleFor,
        Node,
        Image,
        Services,
        Age,
        Why,
        ColumnCount
    };

    explicit DevEnvsModel(const ClusterStore *store, QObject *parent = nullptr);
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // The pod the environment `key` runs in now (null when none is left): the store's
    // DevEnvIndex, which the services ask themselves.
    const PodInfo *currentPod(const QString &key) const;
    // Its services: named container ports, as "name" → port.
    QList<std::pair<QString, int>> services(const QString &key) const;
    // Its home volume, as last read (null when it has none or it was not read yet).
    const DevEnvVolume *volume(const QString &key) const;
    // The home volumes as DevEnvsService read them (every one readable): stopped environments
    // appear, deleted ones go.
    void setVolumes(const QList<DevEnvVolume> &volumes);
    // In words, why the environment is as it is: the pull error of an image that will not come,
    // the scheduler's reason, the image being pulled, stopped and what was kept.
    QString why(const QString &key) const;
    static QString keyOf(const QString &ns, const QString &name)
    {
        return DevEnvIndex::keyOf(ns, name);
    }

    // How long an environment has been idle: its GPUs under TelemetryStore::BusyPercent (from
    // gpudesk's samples) and no Jupyter kernel or terminal in use (from DevEnvActivity).
    struct Idle
    {
        bool known = false; // neither the nodes nor Jupyter could tell
        bool busy = false;  // in use now
        qint64 since = 0;
        bool atLeast = false; // it began before gpudesk could see
        bool flagged = false; // holds GPUs and has been idle for idleAfterMs or more
        QString basis;        // what it is judged on, in words
    };
    Idle idle(const QString &key) const;
    // Live samples of the nodes (GPU use, idle GPUs); null: none.
    void setTelemetry(const TelemetryStore *telemetry);
    // What the environment's Jupyter said when last asked, for its pod `podUid`.
    void setJupyterUse(const QString &key, const QString &podUid, const JupyterUse &use);
    const JupyterUse *jupyterUse(const QString &key) const;
    // Whether a service of the environment's pod `podUid` answered when tried (DevEnvReadiness):
    // one that has not yet keeps a running environment "waiting for it".
    void setServiceAnswer(const QString &key, const QString &podUid, const QString &service,
                          bool answered, const QString &why);
    bool serviceAnswered(const QString &key, const QString &service) const;
    // The services of its current pod tried and not answering yet, with why.
    QList<std::pair<QString, QString>> servicesWaiting(const QString &key) const;
    // From this long idle on, an environment holding GPUs is flagged (the Cleanup page's "idle
    // for at least").
    void setIdleAfterMs(qint64 ms);
    // The Cleanup page's idle findings of environments' pods (pod uid → since when, and whether
    // that is "at least"): dated further back than gpudesk's own samples where Prometheus knew.
    void setIdleFindings(const QHash<QString, std::pair<qint64, bool>> &idleSince);
    qint64 idleAfterMs() const { return m_idleAfterMs; }

    // For tests and benchmarks: the clock ages are measured against.
    void setClock(std::function<qint64()> nowMs) { m_now = std::move(nowMs); }

private:
    void onUpdated(const StoreChanges &changes);
    QVariant stoppedData(const QString &key, int column, int role) const;
    QString idleText(const Idle &idle) const;
    QString idleTip(const QString &key) const;
    std::optional<double> gpuUse(const PodInfo *p) const;
    bool present(const QString &key) const;
    void onTelemetry(const QSet<QString> &nodes);
    void rebuild();

    const ClusterStore *m_store;
    QHash<QString, DevEnvVolume> m_volumes;                   // environment key → home volume
    QHash<QString, std::pair<QString, JupyterUse>> m_jupyter; // key → (pod uid, its use)
    struct ServiceAnswers
    {
        QString podUid;
        QHash<QString, std::pair<bool, QString>> services; // service → (answered, why not)
    };
    QHash<QString, ServiceAnswers> m_answers; // key → its current pod's services
    const TelemetryStore *m_telemetry = nullptr;
    QHash<QString, std::pair<qint64, bool>> m_idleFindings;
    qint64 m_idleAfterMs = 60 * 60 * 1000;
    std::function<qint64()> m_now;
};

} // namespace gpudesk
