// SPDX-License-Identifier: GPL-3.0-or-later
#include "nasinspect.h"

#include "sftpclient.h"
#include "sshconnection.h"
#include "sshpool.h"

#include <QDateTime>
#include <QPointer>
#include <QTimer>

namespace gpudesk {

QList<RemotePathInfo> NasInspect::read(SftpClient *sftp, const QStringList &paths, bool follow,
                                       QString *error)
{
    QList<RemotePathInfo> out;
    for (const QString &path : paths) {
        RemotePathInfo info;
        info.path = path;
        QString why;
        if (const auto f = follow ? sftp->statFollowing(path, &why) : sftp->stat(path, &why)) {
            info.found = true;
            info.type = f->type;
            info.permissions = f->permissions;
            info.size = f->size;
            info.modified = f->modified;
            info.accessed = f->accessed;
            if (f->type == 'l')
                info.linkTarget = sftp->readLink(path, &why).value_or(QString());
        } else if (!sftp->lastWasMissing()) {
            *error = why; // not "not there": the NAS could not say
            return {};
        }
        out << info;
    }
    return out;
}

void NasInspect::onPool(SshPool *pool, const QString &preferred, const QStringList &paths,
                        bool follow, QObject *receiver, Done done, qint64 until)
{
    QPointer<QObject> to(receiver);
    if (until == 0)
        until = QDateTime::currentMSecsSinceEpoch() + GiveUpMs;
    QStringList nodes = preferred.isEmpty() ? pool->nodes() : QStringList{preferred};
    nodes.sort();
    bool usable = false;
    for (const QString &node : std::as_const(nodes)) {
        if (!pool->status(node).usable())
            continue;
        usable = true;
        // The files' own session first; the long one when a transfer holds that.
        for (const SshPool::Lane lane : {SshPool::Lane::Files, SshPool::Lane::Long}) {
            const bool submitted = pool->submit(
                node,
                [paths, follow, to, done](SshConnection *c, const SshStatus &status,
                                          const std::atomic<bool> &) {
                    QString error = status.message;
                    QList<RemotePathInfo> out;
                    if (c) {
                        SftpClient sftp(c);
                        if (sftp.open(&error))
                            out = read(&sftp, paths, follow, &error);
                    }
                    const bool ok = c && error.isEmpty();
                    return std::function<void()>([to, done, out, error, ok] {
                        if (to)
                            done(out, ok ? QString() : error);
                    });
                },
                lane);
            if (submitted)
                return;
        }
    }
    // Every node that answers is busy (a walk, the kernel logs): tried again shortly.
    if (usable && QDateTime::currentMSecsSinceEpoch() < until && to) {
        QTimer::singleShot(
            RetryMs, to,
            [pool = QPointer<SshPool>(pool), preferred, paths, follow, to, done, until] {
                if (pool)
                    onPool(pool, preferred, paths, follow, to, done, until);
                else
                    done({}, tr("The SSH sessions to the nodes have ended."));
            });
        return;
    }
    done({}, usable ? tr("Every node that mounts the NAS stayed busy.")
                    : tr("No node that mounts the NAS answers over SSH."));
}

} // namespace gpudesk
