// SPDX-License-Identifier: GPL-3.0-or-later
#include "registrylogins.h"

#include "appsettings.h"

#include "dockercredentials.h"
#include "keychain.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QPointer>

namespace gpudesk {

Q_LOGGING_CATEGORY(lcLogins, "gpudesk.registry.logins")

namespace {} // namespace

RegistryLogins::RegistryLogins(QObject *parent)
    : QObject(parent), m_docker(new DockerCredentials(this))
{
    const QVariantMap users = AppSettings::loginUsers();
    for (auto it = users.cbegin(); it != users.cend(); ++it)
        m_users.insert(it.key(), it.value().toString());
}

bool RegistryLogins::isRemembered(const QString &host) const
{
    return AppSettings::keychainLogins().contains(host);
}

QString RegistryLogins::userFor(const QString &host) const
{
    return m_users.value(host);
}

void RegistryLogins::lookup(const QString &host, QObject *context, Done done)
{
    QPointer<QObject> guard(context);
    auto answer = [guard, done](const RegistryCredentials &c, const QString &error) {
        if (guard)
            done(c, error);
    };
    if (const auto it = m_typed.constFind(host); it != m_typed.cend()) {
        answer(*it, QString());
        return;
    }
    auto fromDocker = [this, host, guard, answer] {
        if (guard)
            m_docker->lookup(host, guard, answer);
    };
    if (!isRemembered(host)) {
        fromDocker();
        return;
    }
    Keychain::read(
        keychainEntry(host), this,
        [this, host, answer, fromDocker](const QByteArray &secret, const QString &error) {
            const QJsonObject o = QJsonDocument::fromJson(secret).object();
            RegistryCredentials c;
            c.username = o.value(QLatin1String("username")).toString();
            c.secret = o.value(QLatin1String("secret")).toString();
            c.source = tr("the system keychain");
            if (!error.isEmpty() || c.secret.isEmpty()) {
                // Gone from the keychain, or no keychain now: docker's login if any.
                qCInfo(lcLogins).noquote() << "no login for" << host << "in the keychain:" << error;
                fromDocker();
                return;
            }
            m_typed.insert(host, c); // asked once a session
            answer(c, QString());
        });
}

void RegistryLogins::setTyped(const QString &host, const QString &user, const QString &secret,
                              bool remember)
{
    RegistryCredentials c;
    c.username = user;
    c.secret = secret;
    c.source = tr("typed in gpudesk");
    m_typed.insert(host, c);
    if (remember)
        m_toRemember.insert(host);
    else
        m_toRemember.remove(host);
    // The user name (never the secret) fills the form next time.
    m_users.insert(host, user);
    QVariantMap users;
    for (auto it = m_users.cbegin(); it != m_users.cend(); ++it)
        users.insert(it.key(), it.value());
    AppSettings::setLoginUsers(users);
}

void RegistryLogins::accepted(const QString &host, QObject *context, Kept done)
{
    if (!m_toRemember.remove(host))
        return;
    const RegistryCredentials c = m_typed.value(host);
    const QByteArray blob = QJsonDocument(QJsonObject{{QStringLiteral("username"), c.username},
                                                      {QStringLiteral("secret"), c.secret}})
                                .toJson(QJsonDocument::Compact);
    QPointer<QObject> guard(context);
    Keychain::write(keychainEntry(host), blob, this, [host, guard, done](const QString &error) {
        if (error.isEmpty()) {
            QStringList hosts = AppSettings::keychainLogins();
            if (!hosts.contains(host))
                AppSettings::setKeychainLogins(hosts << host);
        }
        if (guard)
            done(error);
    });
}

} // namespace gpudesk
