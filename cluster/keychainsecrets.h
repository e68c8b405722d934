// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QSet>

namespace gpudesk {

class SshPool;
struct SshStatus;

// Answers a pool's need for a passphrase or password from the OS keychain, where the user chose
// to keep it: the first time a node asks for a secret, it is looked up once (per secret, for
// this pool's life) and handed to the pool, so nodes connect without asking the user again. A
// secret the keychain does not hold is left to the user (the prompt in the window).
class KeychainSecrets : public QObject
{
    Q_OBJECT
public:
    explicit KeychainSecrets(SshPool *pool, QObject *parent = nullptr);
    // The keychain entry of a secret as SshStatus::secretFor names it (a key file, or
    // "password:user@host:port").
    static QString entryFor(const QString &secretFor);

signals:
    // A lookup ended: found (and given to the pool) or not, with the keychain's error if any.
    void lookedUp(const QString &secretFor, bool found, const QString &error);

private:
    void onStatus(const SshStatus &status);

    SshPool *m_pool;
    QSet<QString> m_asked;
};

} // namespace gpudesk
