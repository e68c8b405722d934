// SPDX-License-Identifier: GPL-3.0-or-later
#include "keychainsecrets.h"

#include "keychain.h"
#include "sshpool.h"

#include <QPointer>

namespace gpudesk {

KeychainSecrets::KeychainSecrets(SshPool *pool, QObject *parent) : QObject(parent), m_pool(pool)
{
    connect(pool, &SshPool::statusChanged, this,
            [this](const QString &, const SshStatus &status) { onStatus(status); });
}

QString KeychainSecrets::entryFor(const QString &secretFor)
{
    return QStringLiteral("ssh:") + secretFor;
}

void KeychainSecrets::onStatus(const SshStatus &status)
{
    // Once per secret: a refused one comes back as NeedsSecret, and asking the keychain again
    // would only hand the pool the same wrong secret.
    if (status.state != SshStatus::NeedsSecret || status.secretFor.isEmpty() ||
        m_asked.contains(status.secretFor))
        return;
    m_asked.insert(status.secretFor);
    QPointer<SshPool> pool = m_pool;
    Keychain::read(
        entryFor(status.secretFor), this,
        [this, pool, what = status.secretFor](const QByteArray &secret, const QString &error) {
            const bool found = !secret.isEmpty();
            if (pool && found)
                pool->setSecret(what, secret);
            emit lookedUp(what, found, error);
        });
}

} // namespace gpudesk
