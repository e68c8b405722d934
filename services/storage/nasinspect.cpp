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

void NasInspect::onNode(const Where &where, NodeWork work,
                        std::function<void(const QString &)> giveUp, qint64 until, QObject *context)
{
    QPointer<QObject> to(context);
    const auto [pool, nodes] = where();
    for (const QString &node : nodes)
        for (const SshPool::Lane lane :
             {SshPool::Lane::Files, SshPool::Lane::Long, SshPool::Lane::Sampling})
            if (pool->submit(
                    node,
                    [work](SshConnection *c, const SshStatus &status,
                           const std::atomic<bool> &cancel) {
                        return work(c, status.message, cancel);
                    },
                    lane))
                return;
    if (QDateTime::currentMSecsSinceEpoch() > until || !to) {
        if (to)
            giveUp(nodes.isEmpty()     ? tr("No node that mounts the NAS answers over SSH.")
                   : nodes.size() == 1 ? tr("%1 stayed busy.").arg(nodes.first())
                                       : tr("Every node that mounts the NAS stayed busy."));
        return;
    }
    QTimer::singleShot(
        RetryMs, to, [where, work, giveUp, until, to] { onNode(where, work, giveUp, until, to); });
}

void NasInspect::onPool(SshPool *pool, const QString &preferred, const QStringList &paths,
                        bool follow, QObject *receiver, Done done)
{
    QPointer<QObject> to(receiver);
    onNode(
        [pool = QPointer<SshPool>(pool), preferred]() -> std::pair<SshPool *, QStringList> {
            QStringList nodes;
            if (pool)
                for (const QString &n :
                     preferred.isEmpty() ? pool->nodes() : QStringList{preferred})
                    if (pool->status(n).usable())
                        nodes << n;
            nodes.sort();
            return {pool.data(), nodes};
        },
        [paths, follow, to, done](SshConnection *c, QString error, const std::atomic<bool> &) {
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
        [done](const QString &why) { done({}, why); },
        QDateTime::currentMSecsSinceEpoch() + GiveUpMs, receiver);
}

} // namespace gpudesk
