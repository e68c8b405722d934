// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "sshstatus.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QHash>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <mutex>

struct ssh_session_struct;

namespace gpudesk {

// Where and as whom to reach one node, resolved from the SSH config and the cluster's settings.
struct SshTarget
{
    QString node;
    QString host;
    int port = 22;
    QString user;
    QStringList identityFiles; // tried in order after the agent
    bool identitiesOnly = false;
    bool useAgent = true;
    QString proxyJump;     // [user@]host[:port][,…]: run through `ssh -W` as OpenSSH does
    QString proxyCommand;  // ssh_config's ProxyCommand, tokens expanded: run by /bin/sh
    QString configError;   // the SSH config cannot say how to reach it (a refused token)
    QString sshConfigFile; // handed to the jump's ssh so it resolves the jump host the same way
    QString knownHostsFile;
    QString hostKeyAlias; // ssh_config's HostKeyAlias: the key's name in known_hosts
    int connectTimeoutSeconds = 10;
    QString endpoint() const { return QStringLiteral("%1@%2:%3").arg(user, host).arg(port); }
    // Whether a session made for one serves the other.
    bool sameRoute(const SshTarget &o) const
    {
        return host == o.host && port == o.port && user == o.user &&
               identityFiles == o.identityFiles && proxyJump == o.proxyJump &&
               proxyCommand == o.proxyCommand && knownHostsFile == o.knownHostsFile &&
               hostKeyAlias == o.hostKeyAlias && sshConfigFile == o.sshConfigFile;
    }
};

struct ExecResult
{
    bool ok = false; // ran to completion (whatever its exit status)
    int exitStatus = -1;
    QByteArray out;
    QByteArray err;
    bool timedOut = false;
    bool cancelled = false;
    QString error; // when !ok
};

// For a command that reads its standard input or runs long: what to send it (then EOF), whom to
// hand its output to as it comes (on the worker's thread), and a second cancel flag (the one of
// the step that runs it, besides the pool's).
struct ExecStreams
{
    QByteArray input;
    std::function<void(const QByteArray &chunk)> onOutput;
    const std::atomic<bool> *stop = nullptr;
    // False: the output goes to onOutput alone, neither kept in ExecResult::out nor bounded by
    // its cap — for a walk of a whole NAS, whose reader keeps only sums.
    bool keepOutput = true;
};

// What the user decided about host keys and which secrets they gave, shared by every connection
// of a pool; thread-safe. Host keys trusted "once" live here until the program ends; "always"
// is written to known_hosts by the pool.
class SshTrust
{
public:
    void trustOnce(const QString &hostPort, const QString &keyBase64);
    bool isTrusted(const QString &hostPort, const QString &keyBase64) const;
    void setSecret(const QString &what, const QByteArray &secret);
    QByteArray secret(const QString &what) const;
    void forgetSecret(const QString &what);

private:
    mutable std::mutex m_mutex;
    QHash<QString, QString> m_keys;
    QHash<QString, QByteArray> m_secrets;
};

// One libssh session to one node. Not thread-safe: a pool hands it to one worker at a time.
// Blocking calls, each bounded by a timeout and by a cancel flag polled every 100 ms.
class SshConnection
{
    Q_DECLARE_TR_FUNCTIONS(SshConnection)

public:
    explicit SshConnection(SshTarget target);
    ~SshConnection();
    SshConnection(const SshConnection &) = delete;
    SshConnection &operator=(const SshConnection &) = delete;

    SshStatus connect(const SshTrust &trust, const std::atomic<bool> &cancel);
    ExecResult exec(const QByteArray &command, int timeoutMs, const std::atomic<bool> &cancel);
    ExecResult exec(const QByteArray &command, int timeoutMs, const std::atomic<bool> &cancel,
                    const ExecStreams &streams);
    bool isConnected() const;
    void disconnect();
    // Why the last session ended on its own (a node that stopped answering); empty otherwise.
    QString lostReason() const { return m_lost; }
    const SshTarget &target() const { return m_target; }

    static bool keyFileIsEncrypted(const QString &path);

private:
    friend class SftpClient; // SFTP runs on this session (its own channel)
    SshStatus verifyHostKey(const SshTrust &trust);
    SshStatus authenticate(const SshTrust &trust);
    SshStatus fail(SshStatus::State state, const QString &message);
    bool answers();

    SshTarget m_target;
    ssh_session_struct *m_session = nullptr;
    QString m_lost;
};

} // namespace gpudesk
