// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "keyedtablemodel.h"

#include <QHash>
#include <QSet>

#include <functional>

namespace gpudesk {

class ClusterStore;
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
// whose home volume is all that is left. Updated from the pods that changed, not rebuilt.
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

    // The pod the environment `key` runs in now (null when none is left).
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
    static QString keyOf(const QString &ns, const QString &name) { return ns + u'/' + name; }

    // For tests and benchmarks: the clock ages are measured against.
    void setClock(std::function<qint64()> nowMs) { m_now = std::move(nowMs); }

private:
    void onUpdated(const StoreChanges &changes);
    QVariant stoppedData(const QString &key, int column, int role) const;
    void rebuild();
    void indexPod(const QString &uid, QSet<QString> *dirty);

    const ClusterStore *m_store;
    QHash<QString, QString> m_envOf;        // pod uid → environment key
    QHash<QString, QSet<QString>> m_podsOf; // environment key → pod uids
    QHash<QString, DevEnvVolume> m_volumes; // environment key → home volume
    std::function<qint64()> m_now;
};

} // namespace gpudesk
