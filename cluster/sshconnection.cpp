// SPDX-License-Identifier: GPL-3.0-or-later
#include "sshconnection.h"

#include "nodecommands.h"

#include <QDateTime>
#include <QDeadlineTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>

#include <libssh/libssh.h>
#include <sys/socket.h>

namespace gpudesk {

namespace {

constexpr qsizetype MaxOutput = 16 * 1024 * 1024; // a node that floods us is cut off here
// Once logged in, every protocol round trip (opening a channel, starting a command) is answered
// by a live SSH server at once; one that takes longer than this means the node stopped answering.
constexpr long AnswerTimeoutSeconds = 5;

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

QString shortPath(const QString &path)
{
    const QString home = QDir::homePath();
    return path.startsWith(home + u'/') ? u'~' + path.mid(home.size()) : path;
}

} // namespace

void SshTrust::trustOnce(const QString &hostPort, const QString &keyBase64)
{
    std::lock_guard lock(m_mutex);
    m_keys.insert(hostPort, keyBase64);
}

bool SshTrust::isTrusted(const QString &hostPort, const QString &keyBase64) const
{
    std::lock_guard lock(m_mutex);
    return m_keys.value(hostPort) == keyBase64 && !keyBase64.isEmpty();
}

void SshTrust::setSecret(const QString &what, const QByteArray &secret)
{
    std::lock_guard lock(m_mutex);
    m_secrets.insert(what, secret);
}

QByteArray SshTrust::secret(const QString &what) const
{
    std::lock_guard lock(m_mutex);
    return m_secrets.value(what);
}

void SshTrust::forgetSecret(const QString &what)
{
    std::lock_guard lock(m_mutex);
    m_secrets.remove(what);
}

SshConnection::SshConnection(SshTarget target) : m_target(std::move(target)) {}

SshConnection::~SshConnection()
{
    disconnect();
}

bool SshConnection::isConnected() const
{
    return m_session && ssh_is_connected(m_session);
}

void SshConnection::disconnect()
{
    if (!m_session)
        return;
    if (ssh_is_connected(m_session))
        ssh_disconnect(m_session);
    ssh_free(m_session);
    m_session = nullptr;
}

SshStatus SshConnection::fail(SshStatus::State state, const QString &message)
{
    SshStatus s;
    s.state = state;
    s.message = message;
    s.since = nowMs();
    disconnect();
    return s;
}

SshStatus SshConnection::connect(const SshTrust &trust, const std::atomic<bool> &cancel)
{
    disconnect();
    m_session = ssh_new();
    if (!m_session)
        return fail(SshStatus::Failed, tr("Cannot create an SSH session."));
    const QByteArray host = m_target.host.toUtf8();
    const QByteArray user = m_target.user.toUtf8();
    const QByteArray known = m_target.knownHostsFile.toUtf8();
    const unsigned int port = unsigned(m_target.port);
    const long timeout = m_target.connectTimeoutSeconds > 0 ? m_target.connectTimeoutSeconds : 10;
    const int nodelay = 1;
    const bool processConfig = false; // gpudesk resolved the config itself (SshConfig)
    ssh_options_set(m_session, SSH_OPTIONS_PROCESS_CONFIG, &processConfig);
    ssh_options_set(m_session, SSH_OPTIONS_HOST, host.constData());
    ssh_options_set(m_session, SSH_OPTIONS_PORT, &port);
    if (!user.isEmpty())
        ssh_options_set(m_session, SSH_OPTIONS_USER, user.constData());
    ssh_options_set(m_session, SSH_OPTIONS_TIMEOUT, &timeout);
    ssh_options_set(m_session, SSH_OPTIONS_NODELAY, &nodelay);
    if (!known.isEmpty())
        ssh_options_set(m_session, SSH_OPTIONS_KNOWNHOSTS, known.constData());
    if (!m_target.configError.isEmpty())
        return fail(SshStatus::Failed, m_target.configError);
    if (!m_target.proxyCommand.isEmpty()) {
        // As ssh runs it: the user's own command, its tokens already expanded; libssh expands
        // %-escapes once more, so a literal % is given to it doubled.
        QByteArray cmd = "exec " + m_target.proxyCommand.toLocal8Bit();
        cmd.replace('%', "%%");
        ssh_options_set(m_session, SSH_OPTIONS_PROXYCOMMAND, cmd.constData());
    } else if (!m_target.proxyJump.isEmpty()) {
        QString error;
        const QByteArray proxy = nodecmd::proxyJumpCommand(
            m_target.proxyJump, m_target.host, m_target.port, m_target.sshConfigFile, &error);
        if (proxy.isEmpty())
            return fail(SshStatus::Failed, error);
        ssh_options_set(m_session, SSH_OPTIONS_PROXYCOMMAND, proxy.constData());
    }
    if (cancel)
        return fail(SshStatus::Idle, tr("Cancelled."));
    if (ssh_connect(m_session) != SSH_OK) {
        QString why = QString::fromUtf8(ssh_get_error(m_session));
        // libssh says "Timeout connecting" whether the TCP connection or the SSH greeting did
        // not come: a socket with a peer tells them apart (a frozen sshd, or another program on
        // the port, accepts and never speaks).
        sockaddr_storage peer{};
        socklen_t peerLen = sizeof peer;
        if (m_target.proxyCommand.isEmpty() && m_target.proxyJump.isEmpty() &&
            ssh_get_fd(m_session) >= 0 &&
            ::getpeername(ssh_get_fd(m_session), reinterpret_cast<sockaddr *>(&peer), &peerLen) ==
                0 &&
            why.contains(QLatin1String("Timeout"), Qt::CaseInsensitive))
            why = tr("it accepted the connection but sent no SSH greeting within %1 s (its SSH "
                     "server is stuck, or another program listens on that port)")
                      .arg(m_target.connectTimeoutSeconds);
        return fail(
            SshStatus::Unreachable,
            !m_target.proxyCommand.isEmpty()
                ? tr("Cannot reach %1:%2 through the ProxyCommand \"%3\": %4")
                      .arg(m_target.host)
                      .arg(m_target.port)
                      .arg(m_target.proxyCommand, why)
            : m_target.proxyJump.isEmpty()
                ? tr("Cannot reach %1:%2: %3").arg(m_target.host).arg(m_target.port).arg(why)
                : tr("Cannot reach %1:%2 through %3: %4")
                      .arg(m_target.host)
                      .arg(m_target.port)
                      .arg(m_target.proxyJump, why));
    }
    // Dead peers behind a silent network are noticed by the kernel between samples.
    const int on = 1;
    if (ssh_get_fd(m_session) >= 0)
        ::setsockopt(ssh_get_fd(m_session), SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on);
    SshStatus s = verifyHostKey(trust);
    if (s.state != SshStatus::Connected)
        return s;
    if (cancel)
        return fail(SshStatus::Idle, tr("Cancelled."));
    s = authenticate(trust);
    if (s.state == SshStatus::Connected) {
        m_lost.clear();
        ssh_options_set(m_session, SSH_OPTIONS_TIMEOUT, &AnswerTimeoutSeconds);
    }
    return s;
}

SshStatus SshConnection::verifyHostKey(const SshTrust &trust)
{
    ssh_key key = nullptr;
    if (ssh_get_server_publickey(m_session, &key) != SSH_OK)
        return fail(SshStatus::Failed, tr("%1 sent no host key.").arg(m_target.endpoint()));
    QString fingerprint;
    unsigned char *hash = nullptr;
    size_t hashLen = 0;
    if (ssh_get_publickey_hash(key, SSH_PUBLICKEY_HASH_SHA256, &hash, &hashLen) == SSH_OK) {
        char *fp = ssh_get_fingerprint_hash(SSH_PUBLICKEY_HASH_SHA256, hash, hashLen);
        fingerprint = QString::fromLatin1(fp); // "SHA256:…", as ssh-keygen -l prints it
        ssh_string_free_char(fp);
        ssh_clean_pubkey_hash(&hash);
    }
    const QString type = QString::fromLatin1(ssh_key_type_to_char(ssh_key_type(key)));
    char *b64 = nullptr;
    QString keyBase64;
    if (ssh_pki_export_pubkey_base64(key, &b64) == SSH_OK) {
        keyBase64 = QString::fromLatin1(b64);
        ssh_string_free_char(b64);
    }
    ssh_key_free(key);

    // With HostKeyAlias the key is looked up, trusted and recorded under the alias alone, as
    // OpenSSH does (no port): the session is connected, so its host and port now only name
    // the known_hosts entry.
    const QString hostPort = m_target.hostKeyAlias.isEmpty()
                                 ? QStringLiteral("[%1]:%2").arg(m_target.host).arg(m_target.port)
                                 : m_target.hostKeyAlias;
    if (!m_target.hostKeyAlias.isEmpty()) {
        const QByteArray alias = m_target.hostKeyAlias.toUtf8();
        const unsigned int standard = 22;
        ssh_options_set(m_session, SSH_OPTIONS_HOST, alias.constData());
        ssh_options_set(m_session, SSH_OPTIONS_PORT, &standard);
    }
    const ssh_known_hosts_e known = ssh_session_is_known_server(m_session);
    SshStatus s;
    s.fingerprint = fingerprint;
    s.keyType = type;
    s.knownHostsFile = m_target.knownHostsFile;
    s.since = nowMs();
    switch (known) {
    case SSH_KNOWN_HOSTS_OK:
        s.state = SshStatus::Connected;
        return s;
    case SSH_KNOWN_HOSTS_CHANGED:
    case SSH_KNOWN_HOSTS_OTHER:
        disconnect();
        s.state = SshStatus::HostKeyChanged;
        s.message =
            tr("The host key of %1 has changed: it now sends %2 key %3, which is not the key in "
               "%4. Someone could be intercepting the connection (man in the middle), or the node "
               "was reinstalled. gpudesk will not connect until the old key is removed from "
               "known_hosts (ssh-keygen -R) after you have checked the new one.")
                .arg(m_target.endpoint(), type, fingerprint, shortPath(m_target.knownHostsFile));
        return s;
    case SSH_KNOWN_HOSTS_UNKNOWN:
    case SSH_KNOWN_HOSTS_NOT_FOUND: {
        if (trust.isTrusted(hostPort, keyBase64)) {
            s.state = SshStatus::Connected;
            return s;
        }
        char *entry = nullptr;
        if (ssh_session_export_known_hosts_entry(m_session, &entry) == SSH_OK) {
            s.knownHostsEntry = QString::fromLatin1(entry).trimmed();
            ssh_string_free_char(entry);
        }
        disconnect();
        s.state = SshStatus::HostKeyUnknown;
        s.message = tr("%1 is not a known host. Its %2 key fingerprint is %3. Trust it only if "
                       "this is the node's key.")
                        .arg(m_target.endpoint(), type, fingerprint);
        s.hostKeyBase64 = keyBase64;
        return s;
    }
    case SSH_KNOWN_HOSTS_ERROR:
    default:
        return fail(SshStatus::Failed,
                    tr("Cannot check the host key of %1 against %2: %3")
                        .arg(m_target.endpoint(), shortPath(m_target.knownHostsFile),
                             QString::fromUtf8(ssh_get_error(m_session))));
    }
}

SshStatus SshConnection::authenticate(const SshTrust &trust)
{
    QStringList tried;
    int rc = ssh_userauth_none(m_session, nullptr);
    if (rc == SSH_AUTH_SUCCESS) {
        SshStatus s;
        s.state = SshStatus::Connected;
        s.since = nowMs();
        return s;
    }
    if (rc == SSH_AUTH_ERROR)
        return fail(SshStatus::Failed,
                    tr("Authentication with %1 failed: %2")
                        .arg(m_target.endpoint(), QString::fromUtf8(ssh_get_error(m_session))));
    const int methods = ssh_userauth_list(m_session, nullptr);
    QString needSecret;
    bool secretRefused = false; // the passphrase or password given was wrong
    auto connected = [&] {
        SshStatus s;
        s.state = SshStatus::Connected;
        s.tried = tried;
        s.since = nowMs();
        return s;
    };
    if (methods & SSH_AUTH_METHOD_PUBLICKEY) {
        if (m_target.useAgent && !m_target.identitiesOnly &&
            !qEnvironmentVariableIsEmpty("SSH_AUTH_SOCK")) {
            tried << tr("ssh-agent");
            if (ssh_userauth_agent(m_session, nullptr) == SSH_AUTH_SUCCESS)
                return connected();
        }
        for (const QString &file : m_target.identityFiles) {
            if (!QFileInfo::exists(file))
                continue;
            QByteArray passphrase;
            if (keyFileIsEncrypted(file)) {
                passphrase = trust.secret(file);
                if (passphrase.isEmpty()) {
                    if (needSecret.isEmpty())
                        needSecret = file;
                    tried << tr("%1 (needs its passphrase)").arg(shortPath(file));
                    continue;
                }
            }
            ssh_key key = nullptr;
            if (ssh_pki_import_privkey_file(file.toLocal8Bit().constData(),
                                            passphrase.isEmpty() ? nullptr : passphrase.constData(),
                                            nullptr, nullptr, &key) != SSH_OK) {
                tried << (passphrase.isEmpty() ? tr("%1 (unreadable)").arg(shortPath(file))
                                               : tr("%1 (wrong passphrase)").arg(shortPath(file)));
                if (!passphrase.isEmpty() && needSecret.isEmpty()) {
                    needSecret = file;
                    secretRefused = true;
                }
                continue;
            }
            rc = ssh_userauth_publickey(m_session, nullptr, key);
            ssh_key_free(key);
            if (rc == SSH_AUTH_SUCCESS) {
                tried << shortPath(file);
                return connected();
            }
            tried << tr("%1 (refused)").arg(shortPath(file));
            if (rc == SSH_AUTH_ERROR)
                break;
        }
    }
    const QString passwordKey = QStringLiteral("password:") + m_target.endpoint();
    if (methods & SSH_AUTH_METHOD_PASSWORD) {
        const QByteArray password = trust.secret(passwordKey);
        if (!password.isEmpty()) {
            if (ssh_userauth_password(m_session, nullptr, password.constData()) == SSH_AUTH_SUCCESS)
                return connected();
            tried << tr("password (refused)");
            // Asked again, as for a wrong passphrase: a mistyped password is the likely cause.
            if (needSecret.isEmpty()) {
                needSecret = passwordKey;
                secretRefused = true;
            }
        } else if (needSecret.isEmpty()) {
            // As OpenSSH: when no key got in, the password is asked for.
            needSecret = passwordKey;
        }
    }
    if (tried.isEmpty() && !(methods & SSH_AUTH_METHOD_PUBLICKEY) && needSecret.isEmpty())
        tried << tr("no method offered that gpudesk can use");
    SshStatus s = fail(needSecret.isEmpty() ? SshStatus::AuthFailed : SshStatus::NeedsSecret,
                       needSecret.isEmpty()
                           ? tr("%1 refused every key. Tried: %2.")
                                 .arg(m_target.endpoint(),
                                      tried.isEmpty() ? tr("no key found") : tried.join(u", "))
                       : secretRefused && needSecret == passwordKey
                           ? tr("%1 refused the password.").arg(m_target.endpoint())
                       : needSecret.startsWith(QLatin1String("password:"))
                           ? tr("%1 asks for a password.").arg(m_target.endpoint())
                           : tr("The key %1 needs its passphrase to log in to %2.")
                                 .arg(shortPath(needSecret), m_target.endpoint()));
    s.tried = tried;
    s.secretFor = needSecret;
    s.secretRefused = secretRefused;
    return s;
}

ExecResult SshConnection::exec(const QByteArray &command, int timeoutMs,
                               const std::atomic<bool> &cancel)
{
    return exec(command, timeoutMs, cancel, ExecStreams());
}

ExecResult SshConnection::exec(const QByteArray &command, int timeoutMs,
                               const std::atomic<bool> &cancel, const ExecStreams &streams)
{
    ExecResult r;
    if (!isConnected()) {
        r.error = tr("Not connected.");
        return r;
    }
    QElapsedTimer opening;
    opening.start();
    ssh_channel ch = ssh_channel_new(m_session);
    if (!ch || ssh_channel_open_session(ch) != SSH_OK ||
        ssh_channel_request_exec(ch, command.constData()) != SSH_OK) {
        // Both wait for the server's reply, bounded by the answer timeout: running out of it is
        // a node that stopped answering, not one that refused.
        r.error = opening.elapsed() >= AnswerTimeoutSeconds * 1000 - 100
                      ? tr("%1 stopped answering: no reply to opening a command within %2 s.")
                            .arg(m_target.endpoint())
                            .arg(AnswerTimeoutSeconds)
                      : tr("%1 refused the command channel: %2")
                            .arg(m_target.endpoint(), QString::fromUtf8(ssh_get_error(m_session)));
        if (ch)
            ssh_channel_free(ch);
        m_lost = r.error;
        disconnect(); // a session that cannot open a channel is of no further use
        return r;
    }
    if (!streams.input.isEmpty()) {
        // The input is small (a password): written whole, then EOF so the command reads it all.
        qsizetype off = 0;
        while (off < streams.input.size()) {
            const int n = ssh_channel_write(ch, streams.input.constData() + off,
                                            uint32_t(streams.input.size() - off));
            if (n == SSH_ERROR)
                break;
            off += n;
        }
        ssh_channel_send_eof(ch);
    }
    QDeadlineTimer deadline(timeoutMs);
    char buf[32768];
    // Standard error has a buffer of its own: drained right after each read of standard output,
    // into `buf` it would overwrite the output just read (a walk of the NAS whose find complained
    // lost its first record to the complaint).
    char errBuf[4096];
    auto drainStderr = [&] {
        int e;
        while ((e = ssh_channel_read_nonblocking(ch, errBuf, sizeof errBuf, 1)) > 0)
            if (r.err.size() < MaxOutput)
                r.err.append(errBuf, e);
        return e != SSH_ERROR;
    };
    for (;;) {
        if (cancel || (streams.stop && *streams.stop)) {
            r.cancelled = true;
            r.error = tr("Cancelled.");
            break;
        }
        const qint64 left = deadline.remainingTime();
        if (left == 0) {
            r.timedOut = true;
            r.error = tr("%1 did not answer within %2 s.")
                          .arg(m_target.endpoint())
                          .arg(timeoutMs / 1000.0, 0, 'f', 1);
            break;
        }
        const int n =
            ssh_channel_read_timeout(ch, buf, sizeof buf, 0, int(qMin<qint64>(left, 100)));
        if (n == SSH_ERROR || !drainStderr()) {
            r.error = tr("The connection to %1 broke: %2")
                          .arg(m_target.endpoint(), QString::fromUtf8(ssh_get_error(m_session)));
            ssh_channel_free(ch);
            disconnect();
            return r;
        }
        if (n > 0 && !streams.keepOutput && streams.onOutput) {
            streams.onOutput(QByteArray(buf, n));
        } else if (n > 0) {
            if (r.out.size() + n > MaxOutput) {
                r.error = tr("%1 sent more than %2 MiB; cut off.")
                              .arg(m_target.endpoint())
                              .arg(MaxOutput >> 20);
                break;
            }
            r.out.append(buf, n);
            if (streams.onOutput)
                streams.onOutput(QByteArray(buf, n));
        } else if (ssh_channel_is_eof(ch)) {
            drainStderr();
            r.exitStatus = ssh_channel_get_exit_status(ch);
            r.ok = true;
            break;
        }
    }
    ssh_channel_close(ch);
    ssh_channel_free(ch);
    // A command that outlived its timeout: a hung nvidia-smi on a live node, or a node that froze
    // under it. Only the second loses the connection, and it must be said at once, not after the
    // kernel's TCP keepalive (hours).
    if (r.timedOut && !answers()) {
        r.error = tr("%1 stopped answering: no output from a command within %2 s, and no reply "
                     "to opening another within %3 s.")
                      .arg(m_target.endpoint())
                      .arg(timeoutMs / 1000.0, 0, 'f', 1)
                      .arg(AnswerTimeoutSeconds);
        m_lost = r.error;
        disconnect();
    }
    return r;
}

bool SshConnection::answers()
{
    // Opening a channel is a round trip any SSH server answers without starting anything.
    ssh_channel ch = ssh_channel_new(m_session);
    const bool ok = ch && ssh_channel_open_session(ch) == SSH_OK;
    if (ok)
        ssh_channel_close(ch);
    if (ch)
        ssh_channel_free(ch);
    return ok;
}

bool SshConnection::keyFileIsEncrypted(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const QByteArray text = f.read(64 * 1024);
    if (text.contains("ENCRYPTED"))
        return true; // PEM: "Proc-Type: 4,ENCRYPTED" or "BEGIN ENCRYPTED PRIVATE KEY"
    const QByteArray begin = "-----BEGIN OPENSSH PRIVATE KEY-----";
    const qsizetype b = text.indexOf(begin);
    const qsizetype e = text.indexOf("-----END OPENSSH PRIVATE KEY-----");
    if (b < 0 || e < 0)
        return false;
    // openssh-key-v1: magic, then the cipher name as an SSH string; "none" means clear.
    const QByteArray blob =
        QByteArray::fromBase64(text.mid(b + begin.size(), e - b - begin.size()).simplified());
    const QByteArray magic("openssh-key-v1\0", 15);
    if (!blob.startsWith(magic) || blob.size() < 19)
        return false;
    const auto *p = reinterpret_cast<const uchar *>(blob.constData()) + 15;
    const quint32 len = (quint32(p[0]) << 24) | (quint32(p[1]) << 16) | (quint32(p[2]) << 8) | p[3];
    if (19 + qsizetype(len) > blob.size())
        return false;
    return blob.mid(19, len) != "none";
}

} // namespace gpudesk
