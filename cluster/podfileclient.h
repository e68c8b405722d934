// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "remotefileaccess.h"

#include <QCoreApplication>
#include <QStringList>

#include <functional>

class QIODevice;

namespace gpudesk {

class KubeClient;

// The NAS's files through a dev environment pod that mounts its user's folders, for a researcher
// who has no SSH to the nodes: each call one command exec'd in the pod's container over the API
// (the WebSocket exec of PodExec), from fixed words with the paths as whole arguments — no shell,
// so a name with a newline, a quote or `$(…)` is data. GNU find lists and stats, `tail -c +N`
// reads a file from where a broken download stopped, `dd oflag=append` writes an upload on from
// where the file on the NAS ends (what `kubectl cp` cannot: its tar starts over), mkdir and
// `mv -n -T` make folders and put a whole file in place. Paths in and out are the NAS's; the
// pod's mounts say where each is in the container. Blocking: it runs its own event loop, on a
// worker thread whose KubeClient it is given.
class PodFileClient : public RemoteFileAccess
{
    Q_DECLARE_TR_FUNCTIONS(gpudesk::PodFileClient)
public:
    // A folder of the NAS as the container mounts it.
    struct Mount
    {
        QString nasPath;       // /mnt/user/alice
        QString containerPath; // /home/alice, or /mnt/user/alice where the lab keeps the paths
        bool operator==(const Mount &) const = default;
    };
    // `mountPoints`: every mount of the container, the NAS's and the others: a path that lies
    // under another mount deeper than its NAS mount is on that other filesystem, and refused.
    PodFileClient(KubeClient *client, const QString &ns, const QString &pod,
                  const QString &container, const QList<Mount> &mounts,
                  const QStringList &mountPoints = {});

    // Stops whatever command runs (checked every tenth of a second), and every later one.
    void setCancel(const std::atomic<bool> *cancel) { m_cancel = cancel; }
    // A command that says nothing this long is given up.
    static constexpr int QuietLimitMs = 30 * 1000;

    std::optional<QList<RemoteFile>> list(const QString &dir, QString *error) override;
    std::optional<RemoteFile> stat(const QString &path, QString *error) override;
    bool download(const QString &remote, const QString &local, const Progress &progress,
                  const std::atomic<bool> &cancel, QString *error) override;
    bool upload(const QString &local, const QString &remote, const Progress &progress,
                const std::atomic<bool> &cancel, QString *error) override;
    bool rename(const QString &from, const QString &to, QString *error) override;
    bool makeFolder(const QString &path, QString *error) override;
    std::optional<QByteArray> readPart(const QString &path, qint64 offset, qint64 max,
                                       QString *error, qint64 *from = nullptr,
                                       qint64 *size = nullptr) override;
    bool remove(const QString &path, QString *error) override;
    bool removeFolder(const QString &path, QString *error) override;
    bool readsAsWritten(const QString &path, QString *why) override;
    bool lastWasMissing() const override { return m_missing; }

    // The container's path of a NAS path: through the deepest mount that holds it; "" when none
    // does, or when another of `mountPoints` lies over it deeper (another filesystem there).
    static QString inContainer(const QString &nasPath, const QList<Mount> &mounts,
                               const QStringList &mountPoints = {});
    // The mount of `mounts` a NAS path goes through (-1: none): a rename stays within one.
    static int mountOf(const QString &nasPath, const QList<Mount> &mounts);
    // The entries of GNU find's `-printf "%y %s %T@ %A@ %m %P\0"` below `dir` (stat's form has
    // no name: the entry is `dir` itself). nullopt when a record is malformed.
    static std::optional<QList<RemoteFile>> parseFind(const QByteArray &out, const QString &dir,
                                                      bool named);

private:
    struct Ran
    {
        int exitCode = -1;
        QString error; // the kubelet's or the stream's, when it did not end on its own
        QByteArray out;
        QByteArray err;
        bool inputEndUnknown = false; // v4 ended stdin by closing the stream
        bool stoppedByReader = false; // onOutput had what it wanted
    };
    // Runs `argv` in the container. `onOutput` takes stdout as it comes (then not kept in
    // Ran::out; false: enough, the command is stopped); `input`, read from its current position
    // to its end, goes to stdin, `sent` told how much of it went out. `cancel` stops it too.
    Ran run(const QStringList &argv, const std::function<bool(const QByteArray &)> &onOutput = {},
            QIODevice *input = nullptr, const Progress &sent = {},
            const std::atomic<bool> *cancel = nullptr);
    // The container's path, or "" with why (not on a mount of the pod's).
    QString place(const QString &nasPath, QString *error) const;
    // What went wrong, for the user: the command's complaint, or why it could not run.
    QString said(const QString &what, const Ran &r) const;
    // The mounts' folders right below `dir` (which no mount holds): /mnt/user lists alice.
    std::optional<QList<RemoteFile>> mountsBelow(const QString &dir, QString *error) const;

    KubeClient *m_client;
    QString m_ns, m_pod, m_container;
    QList<Mount> m_mounts;
    QStringList m_mountPoints;
    const std::atomic<bool> *m_cancel = nullptr;
    mutable bool m_missing = false; // set by said(), as the last call ends
};

} // namespace gpudesk
