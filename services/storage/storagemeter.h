// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "storageusage.h"

#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTimer>

#include <atomic>
#include <memory>

namespace gpudesk {

class SshPool;

// One measure of the NAS: every root walked in turn, one walk at a time, on one node that
// mounts it (the one asked for, else the first whose SSH session answers), on the node's
// second SSH session so that its telemetry goes on; then df of the roots. Progress as it
// streams in, cancel at any time (the walk on the node ends with its channel).
class StorageMeter : public QObject
{
    Q_OBJECT
public:
    // A root and what its folders are: "user" (/mnt/user/NAME) or "group" (/mnt/share/GROUP).
    struct Root
    {
        QString path;
        QString kind;
    };
    StorageMeter(SshPool *pool, QList<Root> roots, QObject *parent = nullptr);
    ~StorageMeter() override;

    // `preferred`: the node to measure on ("" for the first that answers).
    void start(const QString &preferred);
    void cancel();
    bool isRunning() const { return m_running; }
    QString node() const { return m_node; }

    // How long a walk of one root may take before it is given up (a NAS of millions of files
    // at the idle IO class takes minutes, not hours).
    static constexpr int WalkLimitMs = 60 * 60 * 1000;
    // How long to wait for a node with a free second session, trying every RetryMs.
    static constexpr int GiveUpMs = 5 * 60 * 1000;
    static constexpr int RetryMs = 5000;
    // How long to keep trying for a node that takes the work (GiveUpMs unless set): a report
    // gives up sooner than the window.
    void setGiveUpMs(int ms) { m_giveUpMs = ms; }

    struct Progress; // the walk's count so far, shared with the worker

signals:
    // From the walk as it goes: the root, entries and bytes counted so far.
    void progress(const QString &root, qint64 entries, qint64 bytes);
    // Every root's measure (a root that could not be walked carries its error).
    void finished(const QList<gpudesk::StorageRootMeasure> &measures);

private:
    void tryStart();
    void fail(const QString &why);
    QStringList candidates() const;

    QPointer<SshPool> m_pool;
    QList<Root> m_roots;
    QString m_preferred;
    QString m_node;
    bool m_running = false;
    qint64 m_firstTry = 0;
    std::shared_ptr<std::atomic<bool>> m_stop;
    int m_giveUpMs = GiveUpMs;
    QTimer m_progressTimer;
    std::weak_ptr<Progress> m_progress;
};

} // namespace gpudesk
