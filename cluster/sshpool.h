// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "sshconnection.h"

#include <QObject>

#include <functional>
#include <memory>

namespace gpudesk {

// One kept-alive SSH session per node, used by a bounded set of worker threads. Work for a node
// runs on a worker with that node's connected session, one piece at a time per node: a node
// that is busy, backing off after a failure, or waiting for the user (unknown host key,
// passphrase) is skipped, so one slow or dead node never delays the others. The UI thread
// never blocks on SSH: destroying the pool cancels its work without waiting for it.
class SshPool : public QObject
{
    Q_OBJECT
public:
    // Runs on a worker. `connection` is null when connecting failed (then `status` says why).
    // Returns what to run on the pool's thread afterwards (may be empty); it is dropped if the
    // pool is gone by then.
    using Work = std::function<std::function<void()>(
        SshConnection *connection, const SshStatus &status, const std::atomic<bool> &cancel)>;

    explicit SshPool(QObject *parent = nullptr);
    ~SshPool() override;

    void setTarget(const SshTarget &target); // adds the node, or reconnects it if it moved
    void removeNode(const QString &node);
    QStringList nodes() const;
    SshStatus status(const QString &node) const;
    SshTarget target(const QString &node) const;

    // Which of a node's two sessions runs the work: its sampling session (telemetry, short
    // commands), or a second one for work that takes minutes (committing and pushing an image),
    // so that the node's figures go on meanwhile. The second session is opened on first use,
    // only once the first is connected (host key and secrets settled), and never changes the
    // node's status: its failures go to the work alone.
    enum class Lane
    {
        Sampling,
        Long,
        // A third session for the NAS's files (browsing, transfers): a folder listed while a
        // walk of the NAS or an image push holds the second.
        Files,
    };
    // False when the lane is busy, backing off, or waiting for the user: try again later.
    bool submit(const QString &node, Work work, Lane lane = Lane::Sampling);
    bool isBusy(const QString &node) const;

    // The user's answers. trustHostKey acts on the node's pending HostKeyUnknown status: always
    // appends the key to the known_hosts file, once keeps it in memory for this run.
    bool trustHostKey(const QString &node, bool always, QString *error);
    void setSecret(const QString &what, const QByteArray &secret);
    void retryNow(const QString &node);
    void cancelAll();

    static int maxWorkers();
    // Waits at most `ms` for every pool's workers to end: at the program's exit, once the pools
    // are gone (and so cancelled). A worker still inside libssh when the exit handlers tear
    // OpenSSL down crashes the process — a headless cleanup that did its work would exit 139.
    // False when some worker did not end in time.
    static bool finishWorkers(int ms);

signals:
    void statusChanged(const QString &node, const gpudesk::SshStatus &status);

private:
    struct Link;
    struct Shared;
    std::shared_ptr<Shared> m_shared;
};

} // namespace gpudesk
