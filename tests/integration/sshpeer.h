// SPDX-License-Identifier: GPL-3.0-or-later
// The test peers' real sshd (scripts/test-peers, GPUDESK_PEERS/sshd): where it listens, as whom,
// and a node's target for it, for the SSH tests.
#pragma once

#include "sshconnection.h"

#include <QFile>

struct SshPeer
{
    QString dir; // GPUDESK_PEERS
    int port = 0;
    QString user;

    static QByteArray readFile(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    // False when the peers' directory or its sshd files are missing.
    bool load()
    {
        dir = qEnvironmentVariable("GPUDESK_PEERS");
        port = readFile(dir + QStringLiteral("/sshd/port")).trimmed().toInt();
        user = QString::fromUtf8(readFile(dir + QStringLiteral("/sshd/user")).trimmed());
        return !dir.isEmpty() && port > 0 && !user.isEmpty();
    }
    // `node` reached at sshd (or at `otherPort`, a relay in front of it) with the key `key` of
    // the peers' directory, never the agent of whoever runs the tests.
    gpudesk::SshTarget target(const QString &node, const QString &key, const QString &knownHosts,
                              int otherPort = 0) const
    {
        gpudesk::SshTarget t;
        t.node = node;
        t.host = QStringLiteral("127.0.0.1");
        t.port = otherPort ? otherPort : port;
        t.user = user;
        t.identityFiles = {dir + QStringLiteral("/sshd/") + key};
        t.identitiesOnly = true;
        t.knownHostsFile = knownHosts;
        t.connectTimeoutSeconds = 5;
        return t;
    }
};
