// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QCoreApplication>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>

namespace gpudesk {

// What OpenSSH's client config says for one host: the options gpudesk uses, with tokens (%h,
// %p, %r, %u, %%) and ~ expanded.
struct SshHostConfig
{
    QString hostName; // HostName, else the name asked for
    QString user;     // empty: not set
    int port = 0;     // 0: not set
    QStringList identityFiles;
    bool identitiesOnly = false;
    QString proxyJump; // empty or "none": connect directly
    QStringList userKnownHostsFiles;
    int connectTimeoutSeconds = 0;
    bool namedByPattern = false; // a Host block other than a lone "*" matched
};

// The subset of ssh_config(5) that decides where and how gpudesk connects to a node: Host blocks
// with patterns (*, ?, !negation, several per line), HostName, User, Port, IdentityFile (several),
// IdentitiesOnly, ProxyJump, UserKnownHostsFile, ConnectTimeout and Include. As ssh does, the
// first value found for an option wins and IdentityFile accumulates. Match blocks are skipped
// with a warning (their conditions need a shell); other keywords are ignored.
class SshConfig
{
    Q_DECLARE_TR_FUNCTIONS(SshConfig)

public:
    // A missing file is an empty config, an unreadable one an error.
    static std::optional<SshConfig> load(const QString &path, QString *error);
    static SshConfig parse(const QByteArray &text, const QString &path);

    SshHostConfig resolve(const QString &host, const QString &localUser = QString()) const;
    QStringList warnings() const { return m_warnings; }
    QString path() const { return m_path; }
    static QString defaultPath();
    static bool matchesPattern(const QString &host, const QString &pattern);

private:
    struct Block
    {
        QStringList patterns; // empty: before the first Host line (applies to every host)
        QList<std::pair<QString, QStringList>> options; // keyword in lower case, arguments
    };
    void parseInto(const QByteArray &text, const QString &path, int depth);
    static bool blockMatches(const Block &b, const QString &host);

    QList<Block> m_blocks;
    QStringList m_warnings;
    QString m_path;
};

} // namespace gpudesk
