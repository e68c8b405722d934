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
    // ProxyCommand with its tokens (%h %n %p %r %%) expanded; empty or "none": not set. Whichever
    // of ProxyJump and ProxyCommand comes first wins, as in ssh.
    QString proxyCommand;
    QString proxyCommandError; // a token value that would reach the shell unquoted, refused
    QStringList userKnownHostsFiles;
    // The name the host key is looked up (and recorded) under in known_hosts, instead of the
    // host and port: behind a ProxyCommand every node is 127.0.0.1 to the connection.
    QString hostKeyAlias;
    int connectTimeoutSeconds = 0;
    bool namedByPattern = false; // a Host block other than a lone "*" matched
};

// ssh_config(5) as OpenSSH reads it, for where and how gpudesk connects to a node: Host blocks
// with patterns (*, ?, !negation, several per line), HostName, User, Port, IdentityFile (several),
// IdentitiesOnly, ProxyJump, ProxyCommand, UserKnownHostsFile, ConnectTimeout and Include. As
// ssh does, the first value found for an option wins and IdentityFile accumulates. A line ssh
// refuses (a keyword it does not know and IgnoreUnknown does not list, a missing argument, a bad
// port) makes the file an error naming the line, as it does for ssh. HostKeyAlias is followed.
// Keywords that change where or how ssh connects and that gpudesk does not follow
// (CertificateFile, BindAddress,
// …) are warnings naming the line; Match blocks are skipped with a warning (their conditions need
// a shell); other valid keywords (forwarding, terminal, logging) do not concern gpudesk.
class SshConfig
{
    Q_DECLARE_TR_FUNCTIONS(SshConfig)

public:
    // A missing file is an empty config, an unreadable one an error.
    static std::optional<SshConfig> load(const QString &path, QString *error);
    static SshConfig parse(const QByteArray &text, const QString &path);

    SshHostConfig resolve(const QString &host, const QString &localUser = QString()) const;
    QStringList warnings() const { return m_warnings; }
    // Lines ssh would refuse; non-empty makes load() fail with the first.
    QStringList errors() const { return m_errors; }
    QString path() const { return m_path; }
    static QString defaultPath();
    static bool matchesPattern(const QString &host, const QString &pattern);

private:
    struct Block
    {
        QStringList patterns; // empty: before the first Host line (applies to every host)
        QList<std::pair<QString, QStringList>> options; // keyword in lower case, arguments
        QList<QString> raw;                             // each option's text after the keyword
    };
    void parseInto(const QByteArray &text, const QString &path, int depth);
    // Files read through Include in this parse: a file that includes itself twice would
    // otherwise be read 2^16 times before the depth limit stops it.
    int m_includedFiles = 0;
    static constexpr int MaxIncludedFiles = 64;
    static bool blockMatches(const Block &b, const QString &host);

    QList<Block> m_blocks;
    QStringList m_warnings;
    QStringList m_errors;
    QStringList m_ignoreUnknown; // IgnoreUnknown patterns, lower case
    QString m_path;
};

} // namespace gpudesk
