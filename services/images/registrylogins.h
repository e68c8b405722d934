// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "registrytypes.h"

#include <QHash>
#include <QObject>
#include <QSet>

#include <functional>

namespace gpudesk {

class DockerCredentials;

// Where the login to a registry comes from: what the user typed in gpudesk this session, else
// what they asked gpudesk to keep in the OS keychain, else what docker would use
// (DockerCredentials: config.json, credential helpers). Typed logins come first: they are typed
// because the others were missing or refused. The keychain is asked only for registries the user
// chose to remember (their names, never the secrets, are in the settings), so a machine without
// a keychain service is never made to wait on one.
class RegistryLogins : public QObject
{
    Q_OBJECT
public:
    explicit RegistryLogins(QObject *parent = nullptr);

    using Done = std::function<void(const RegistryCredentials &, const QString &error)>;
    // Empty credentials and no error: none anywhere (anonymous access). Called once, unless
    // `context` is gone by then.
    void lookup(const QString &host, QObject *context, Done done);

    // The user's login for `host`, used from now on; to be kept in the keychain when `remember`,
    // once the registry has taken it (accepted()): a mistyped password is not kept.
    void setTyped(const QString &host, const QString &user, const QString &secret, bool remember);
    // `host` took the login it was given: kept in the keychain if the user asked to. `done` gets
    // whether it was written and the keychain's error; not called when there was nothing to keep.
    using Kept = std::function<void(const QString &error)>;
    void accepted(const QString &host, QObject *context, Kept done);
    // The user name last used for `host`, to fill the login form with.
    QString userFor(const QString &host) const;
    bool isRemembered(const QString &host) const;

    static QString keychainEntry(const QString &host) { return QStringLiteral("registry:") + host; }

private:
    DockerCredentials *m_docker;
    QHash<QString, RegistryCredentials> m_typed;
    QHash<QString, QString> m_users;
    QSet<QString> m_toRemember;
};

} // namespace gpudesk
