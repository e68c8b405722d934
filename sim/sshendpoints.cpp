// SPDX-License-Identifier: GPL-3.0-or-later
#include "sshendpoints.h"

#include "nodemachine.h"
#include "nodetools.h"
#include "sftpserver.h"
#include "simclock.h"

#include <QDir>
#include <QFile>
#include <QLoggingCategory>
#include <QRandomGenerator>

#include <libssh/callbacks.h>
#include <libssh/libssh.h>
#include <libssh/server.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <deque>
#include <functional>

Q_LOGGING_CATEGORY(lcSsh, "gpudesk.sim.ssh")

namespace sim {

struct SshEndpoints::Endpoint
{
    std::string node;
    int port = 0;
    int listenFd = -1;
    ssh_bind bind = nullptr;
    std::string hostKeyPath;
    std::string hostPublicKey; // "ssh-ed25519 AAAA..."
};

namespace {

// Per-session state of the event loop: channels and the work queued by callbacks, done after
// the poll returns (writing from inside libssh's callbacks could re-enter the poll).
struct Session
{
    ssh_session session = nullptr;
    std::string node;
    MachineRegistry *machines = nullptr;
    NodeTools *tools = nullptr;
    const SimClock *clock = nullptr;
    std::vector<ssh_channel> channels;
    std::deque<std::function<void()>> work;
    struct Tunnel
    {
        std::string request;
        std::string service;
        std::string pod;
        std::string ns;
        bool answered = false;
    };
    std::map<ssh_channel, Tunnel> tunnels;
    ssh_channel_callbacks_struct tunnelCallbacks{};
    // Commands that read their standard input run once the client has sent all of it (EOF).
    struct Reading
    {
        std::string command;
        std::string input;
    };
    std::map<ssh_channel, Reading> reading;
    ssh_channel_callbacks_struct inputCallbacks{};
    // SFTP subsystems, by channel: the NAS under /mnt.
    std::map<ssh_channel, std::unique_ptr<SftpServer>> sftp;
    ssh_channel_callbacks_struct sftpCallbacks{};
    ssh_server_callbacks_struct serverCallbacks{};
    std::string allowedKey;
    std::string password;
    bool authenticated = false;
    int failedAuth = 0;
};

// Password authentication as root with the password in <state>/ssh/password, as nodes that
// still allow it do (clients that cannot use a key, and gpudesk's password path).
int onAuthPassword(ssh_session, const char *user, const char *password, void *userdata)
{
    auto *s = static_cast<Session *>(userdata);
    const std::string given = password ? password : "";
    // Constant time in the length of the right one: no timing hint about a prefix.
    unsigned diff = given.size() != s->password.size() ? 1 : 0;
    for (size_t i = 0; i < s->password.size(); ++i)
        diff |= unsigned(s->password[i] ^ (i < given.size() ? given[i] : 0));
    if (!user || std::string(user) != "root" || s->password.empty() || diff != 0) {
        ++s->failedAuth;
        return SSH_AUTH_DENIED;
    }
    s->authenticated = true;
    return SSH_AUTH_SUCCESS;
}

// Public-key authentication as root with the simulator's client key.
int onAuthPubkey(ssh_session, const char *user, ssh_key_struct *offered, char signatureState,
                 void *userdata)
{
    auto *s = static_cast<Session *>(userdata);
    ssh_key allowed = nullptr;
    ssh_pki_import_pubkey_base64(s->allowedKey.c_str(), SSH_KEYTYPE_ED25519, &allowed);
    const bool ok = allowed && offered && user && std::string(user) == "root" &&
                    ssh_key_cmp(offered, allowed, SSH_KEY_CMP_PUBLIC) == 0;
    ssh_key_free(allowed);
    if (!ok) {
        ++s->failedAuth;
        return SSH_AUTH_DENIED;
    }
    if (signatureState == SSH_PUBLICKEY_STATE_VALID)
        s->authenticated = true;
    return SSH_AUTH_SUCCESS; // for a query (state NONE) this answers "key acceptable"
}

void finishChannel(ssh_channel ch, int status)
{
    ssh_channel_request_send_exit_status(ch, status);
    ssh_channel_send_eof(ch);
    ssh_channel_close(ch);
}

void writeAll(ssh_channel ch, const std::string &data, bool stderrStream)
{
    size_t off = 0;
    while (off < data.size()) {
        const int n =
            stderrStream
                ? ssh_channel_write_stderr(ch, data.data() + off, uint32_t(data.size() - off))
                : ssh_channel_write(ch, data.data() + off, uint32_t(data.size() - off));
        if (n <= 0)
            return;
        off += size_t(n);
    }
}

std::string httpAnswer(const Session::Tunnel &t)
{
    const std::string firstLine = t.request.substr(0, t.request.find("\r\n"));
    const size_t sp1 = firstLine.find(' ');
    const size_t sp2 = firstLine.find(' ', sp1 + 1);
    const std::string path =
        sp1 == std::string::npos ? "/" : firstLine.substr(sp1 + 1, sp2 - sp1 - 1);
    std::string body;
    std::string type = "text/html; charset=UTF-8";
    std::string server = "TornadoServer/6.3.3";
    if (t.service == "jupyter" && path.rfind("/api", 0) == 0) {
        body = "{\"version\": \"2.7.3\"}";
        type = "application/json";
    } else if (t.service == "jupyter") {
        body = "<!DOCTYPE html>\n<html><head><title>JupyterLab</title></head><body data-pod=\"" +
               t.ns + "/" + t.pod + "\">JupyterLab on " + t.ns + "/" + t.pod + "</body></html>\n";
    } else if (t.service == "vscode") {
        server = "code-server";
        body = "<!DOCTYPE html>\n<html><head><title>code-server</title></head><body data-pod=\"" +
               t.ns + "/" + t.pod + "\">VS Code on " + t.ns + "/" + t.pod + "</body></html>\n";
    } else {
        server = "TensorBoard";
        body = "<!DOCTYPE html>\n<html><head><title>TensorBoard</title></head><body data-pod=\"" +
               t.ns + "/" + t.pod + "\"></body></html>\n";
    }
    return "HTTP/1.1 200 OK\r\nServer: " + server + "\r\nContent-Type: " + type +
           "\r\nContent-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" +
           body;
}

int onTunnelData(ssh_session, ssh_channel channel, void *data, uint32_t len, int, void *userdata)
{
    auto *s = static_cast<Session *>(userdata);
    auto it = s->tunnels.find(channel);
    if (it == s->tunnels.end())
        return int(len);
    it->second.request.append(static_cast<const char *>(data), len);
    if (!it->second.answered && it->second.request.find("\r\n\r\n") != std::string::npos) {
        it->second.answered = true;
        const Session::Tunnel t = it->second;
        s->work.push_back([channel, t] {
            writeAll(channel, httpAnswer(t), false);
            ssh_channel_send_eof(channel);
            ssh_channel_close(channel);
        });
    }
    return int(len);
}

// At most 64 KiB of input: a password, never a stream.
int onInputData(ssh_session, ssh_channel channel, void *data, uint32_t len, int isStderr,
                void *userdata)
{
    auto *s = static_cast<Session *>(userdata);
    const auto it = s->reading.find(channel);
    if (it != s->reading.end() && !isStderr && it->second.input.size() + len <= 65536)
        it->second.input.append(static_cast<const char *>(data), len);
    return int(len);
}

int onSftpData(ssh_session, ssh_channel channel, void *data, uint32_t len, int isStderr,
               void *userdata)
{
    auto *s = static_cast<Session *>(userdata);
    const auto it = s->sftp.find(channel);
    if (it == s->sftp.end() || isStderr)
        return int(len);
    bool fatal = false;
    std::string out = it->second->feed(static_cast<const char *>(data), len, &fatal);
    if (!out.empty() || fatal)
        s->work.push_back([channel, out = std::move(out), fatal] {
            writeAll(channel, out, false);
            if (fatal) // as sftp-server exits on a packet it cannot take
                finishChannel(channel, 1);
        });
    return int(len);
}

// The client is done (EOF): as sftp-server exits on the end of its input, the channel ends
// with status 0 — a client waits for that before it leaves.
void onSftpEof(ssh_session, ssh_channel channel, void *userdata)
{
    auto *s = static_cast<Session *>(userdata);
    if (s->sftp.erase(channel))
        s->work.push_back([channel] { finishChannel(channel, 0); });
}

void runCommand(Session *s, ssh_channel ch, const std::string &command, const std::string &input)
{
    s->work.push_back([s, ch, command, input] {
        const CommandOutput out = s->tools->run(s->node, command, s->clock->nowMs(), input);
        writeAll(ch, out.out, false);
        writeAll(ch, out.err, true);
        finishChannel(ch, out.status);
    });
}

void onInputEof(ssh_session, ssh_channel channel, void *userdata)
{
    auto *s = static_cast<Session *>(userdata);
    const auto it = s->reading.find(channel);
    if (it == s->reading.end())
        return;
    const Session::Reading r = it->second;
    s->reading.erase(it);
    runCommand(s, channel, r.command, r.input);
}

int onMessage(ssh_session, ssh_message msg, void *userdata)
{
    auto *s = static_cast<Session *>(userdata);
    const int type = ssh_message_type(msg);
    const int subtype = ssh_message_subtype(msg);
    if (!s->authenticated) {
        ssh_message_reply_default(msg);
        return 0;
    }
    if (type == SSH_REQUEST_CHANNEL_OPEN && subtype == SSH_CHANNEL_SESSION) {
        if (ssh_channel ch = ssh_message_channel_request_open_reply_accept(msg))
            s->channels.push_back(ch);
        return 0;
    }
    if (type == SSH_REQUEST_CHANNEL_OPEN && subtype == SSH_CHANNEL_DIRECT_TCPIP) {
        const std::string host = ssh_message_channel_request_open_destination(msg);
        const int port = ssh_message_channel_request_open_destination_port(msg);
        const auto svc = s->machines->service(host);
        if (!svc || svc->node != s->node || !svc->ports.count(port)) {
            // As sshd reports a refused connection: open failure "Connection refused".
            ssh_message_reply_default(msg);
            return 0;
        }
        ssh_channel ch = ssh_message_channel_request_open_reply_accept(msg);
        if (!ch)
            return 0;
        s->channels.push_back(ch);
        Session::Tunnel t;
        t.service = svc->ports.at(port);
        t.pod = svc->pod;
        t.ns = svc->ns;
        s->tunnels[ch] = t;
        ssh_set_channel_callbacks(ch, &s->tunnelCallbacks);
        if (t.service == "ssh") {
            s->work.push_back(
                [ch] { writeAll(ch, "SSH-2.0-OpenSSH_8.9p1 Ubuntu-3ubuntu0.6\r\n", false); });
        }
        return 0;
    }
    if (type == SSH_REQUEST_CHANNEL) {
        ssh_channel ch = ssh_message_channel_request_channel(msg);
        if (subtype == SSH_CHANNEL_REQUEST_EXEC) {
            const std::string command = ssh_message_channel_request_command(msg);
            ssh_message_channel_request_reply_success(msg);
            if (NodeTools::readsInput(command)) {
                s->reading[ch] = {command, {}};
                ssh_set_channel_callbacks(ch, &s->inputCallbacks);
                return 0;
            }
            runCommand(s, ch, command, {});
            return 0;
        }
        if (subtype == SSH_CHANNEL_REQUEST_SUBSYSTEM) {
            const char *name = ssh_message_channel_request_subsystem(msg);
            if (name && std::string(name) == "sftp" && s->tools->nas()) {
                ssh_message_channel_request_reply_success(msg);
                s->sftp[ch] = std::make_unique<SftpServer>(s->tools->nas());
                ssh_set_channel_callbacks(ch, &s->sftpCallbacks);
                return 0;
            }
            ssh_message_reply_default(msg);
            return 0;
        }
        if (subtype == SSH_CHANNEL_REQUEST_ENV || subtype == SSH_CHANNEL_REQUEST_PTY ||
            subtype == SSH_CHANNEL_REQUEST_WINDOW_CHANGE) {
            ssh_message_channel_request_reply_success(msg);
            return 0;
        }
        // No interactive shell on the simulated nodes: only commands.
        ssh_message_reply_default(msg);
        return 0;
    }
    ssh_message_reply_default(msg);
    return 0;
}

} // namespace

SshEndpoints::SshEndpoints(MachineRegistry *machines, NodeTools *tools, const SimClock *clock,
                           QString stateDir)
    : m_machines(machines), m_tools(tools), m_clock(clock), m_stateDir(std::move(stateDir))
{
    ssh_init();
}

SshEndpoints::~SshEndpoints()
{
    stop();
    ssh_finalize();
}

QString SshEndpoints::sshConfigPath() const
{
    return m_stateDir + QStringLiteral("/ssh_config");
}

bool SshEndpoints::ensureKeys(QString *error)
{
    const QString dir = m_stateDir + QStringLiteral("/ssh");
    QDir().mkpath(dir + QStringLiteral("/hostkeys"));
    const std::string clientKey = QString(dir + QStringLiteral("/id_ed25519")).toStdString();
    ssh_key key = nullptr;
    if (ssh_pki_import_privkey_file(clientKey.c_str(), nullptr, nullptr, nullptr, &key) != SSH_OK) {
        if (ssh_pki_generate(SSH_KEYTYPE_ED25519, 0, &key) != SSH_OK ||
            ssh_pki_export_privkey_file(key, nullptr, nullptr, nullptr, clientKey.c_str()) !=
                SSH_OK) {
            *error = QStringLiteral("cannot create the SSH client key in %1").arg(dir);
            ssh_key_free(key);
            return false;
        }
        QFile::setPermissions(QString::fromStdString(clientKey),
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    }
    char *b64 = nullptr;
    ssh_pki_export_pubkey_base64(key, &b64);
    m_clientPublicKey = b64 ? b64 : "";
    ssh_string_free_char(b64);
    QFile pub(QString::fromStdString(clientKey) + QStringLiteral(".pub"));
    if (pub.open(QIODevice::WriteOnly | QIODevice::Truncate))
        pub.write(QByteArray("ssh-ed25519 ") + QByteArray::fromStdString(m_clientPublicKey) +
                  " gpudesk-sim-client\n");
    ssh_key_free(key);
    // root's password on every node: random, kept with the key, readable by its owner only.
    QFile password(dir + QStringLiteral("/password"));
    if (password.open(QIODevice::ReadOnly)) {
        m_password = password.readAll().trimmed().toStdString();
        password.close();
    }
    if (m_password.empty()) {
        QByteArray fresh;
        for (int i = 0; i < 3; ++i)
            fresh += QByteArray::number(QRandomGenerator::system()->generate64(), 36);
        if (!password.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
            *error = QStringLiteral("cannot write %1").arg(password.fileName());
            return false;
        }
        password.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        password.write(fresh + '\n');
        m_password = fresh.toStdString();
    }
    for (auto &ep : m_endpoints) {
        ep->hostKeyPath = QString(dir + QStringLiteral("/hostkeys/") +
                                  QString::fromStdString(ep->node) + QStringLiteral("_ed25519"))
                              .toStdString();
        ssh_key hk = nullptr;
        if (ssh_pki_import_privkey_file(ep->hostKeyPath.c_str(), nullptr, nullptr, nullptr, &hk) !=
            SSH_OK) {
            if (ssh_pki_generate(SSH_KEYTYPE_ED25519, 0, &hk) != SSH_OK ||
                ssh_pki_export_privkey_file(hk, nullptr, nullptr, nullptr,
                                            ep->hostKeyPath.c_str()) != SSH_OK) {
                *error = QStringLiteral("cannot create the host key of %1")
                             .arg(QString::fromStdString(ep->node));
                ssh_key_free(hk);
                return false;
            }
        }
        char *hb64 = nullptr;
        ssh_pki_export_pubkey_base64(hk, &hb64);
        ep->hostPublicKey = std::string("ssh-ed25519 ") + (hb64 ? hb64 : "");
        ssh_string_free_char(hb64);
        ep->bind = ssh_bind_new();
        ssh_bind_options_set(ep->bind, SSH_BIND_OPTIONS_IMPORT_KEY, hk); // the bind owns hk now
    }
    return true;
}

bool SshEndpoints::start(const std::vector<std::string> &nodes, std::map<std::string, int> *ports,
                         QString *error)
{
    for (const auto &node : nodes) {
        auto ep = std::make_unique<Endpoint>();
        ep->node = node;
        ep->port = ports->count(node) ? (*ports)[node] : 0;
        m_endpoints.push_back(std::move(ep));
    }
    if (!ensureKeys(error))
        return false;
    for (auto &ep : m_endpoints) {
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        const int one = 1;
        ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        addr.sin_port = htons(uint16_t(ep->port));
        if (::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0 && ep->port != 0) {
            // The remembered port is taken: take any.
            addr.sin_port = 0;
            ::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr);
        }
        if (::listen(fd, 128) != 0) {
            *error =
                QStringLiteral("cannot listen for node %1: %2")
                    .arg(QString::fromStdString(ep->node), QString::fromLocal8Bit(strerror(errno)));
            ::close(fd);
            return false;
        }
        socklen_t len = sizeof addr;
        ::getsockname(fd, reinterpret_cast<sockaddr *>(&addr), &len);
        ep->port = ntohs(addr.sin_port);
        ep->listenFd = fd;
        (*ports)[ep->node] = ep->port;
    }
    if (::pipe2(m_wakePipe, O_CLOEXEC) != 0) {
        *error = QStringLiteral("cannot create a pipe");
        return false;
    }
    m_acceptThread = std::thread([this] { acceptLoop(); });
    return true;
}

void SshEndpoints::stop()
{
    if (m_stopping.exchange(true))
        return;
    if (m_wakePipe[1] >= 0) {
        const char c = 'x';
        [[maybe_unused]] auto n = ::write(m_wakePipe[1], &c, 1);
    }
    if (m_acceptThread.joinable())
        m_acceptThread.join();
    std::vector<std::thread> threads;
    {
        std::lock_guard lock(m_threadsMutex);
        threads.swap(m_sessionThreads);
    }
    for (auto &t : threads)
        t.join();
    for (auto &ep : m_endpoints) {
        if (ep->listenFd >= 0)
            ::close(ep->listenFd);
        if (ep->bind)
            ssh_bind_free(ep->bind);
    }
    m_endpoints.clear();
    for (int fd : m_wakePipe) {
        if (fd >= 0)
            ::close(fd);
    }
}

void SshEndpoints::acceptLoop()
{
    std::vector<pollfd> fds;
    fds.push_back({m_wakePipe[0], POLLIN, 0});
    for (auto &ep : m_endpoints)
        fds.push_back({ep->listenFd, POLLIN, 0});
    while (!m_stopping) {
        if (::poll(fds.data(), fds.size(), 500) <= 0)
            continue;
        if (fds[0].revents)
            break;
        for (size_t i = 1; i < fds.size(); ++i) {
            if (!(fds[i].revents & POLLIN))
                continue;
            const int fd = ::accept4(fds[i].fd, nullptr, nullptr, SOCK_CLOEXEC);
            if (fd < 0)
                continue;
            Endpoint *ep = m_endpoints[i - 1].get();
            std::lock_guard lock(m_threadsMutex);
            m_sessionThreads.emplace_back([this, ep, fd] { serve(ep, fd); });
        }
    }
}

void SshEndpoints::serve(Endpoint *ep, int fd)
{
    // A frozen node's kernel completes the TCP handshake; nothing greets the client.
    while (!m_stopping && m_machines->sshFrozen(ep->node))
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    // As sshd: answers go out at once, not held for Nagle's algorithm.
    const int nodelay = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &nodelay, sizeof nodelay);
    ssh_session session = ssh_new();
    long timeout = 15;
    ssh_options_set(session, SSH_OPTIONS_TIMEOUT, &timeout);
    int accepted;
    {
        // The bind is shared by this node's sessions; libssh does not lock it.
        static std::mutex bindMutex;
        std::lock_guard lock(bindMutex);
        accepted = ssh_bind_accept_fd(ep->bind, session, fd);
    }
    // Callbacks go in before the key exchange: a fast client's auth request may arrive with it.
    Session s;
    s.session = session;
    s.node = ep->node;
    s.machines = m_machines;
    s.tools = m_tools;
    s.clock = m_clock;
    s.allowedKey = m_clientPublicKey;
    s.password = m_password;
    s.serverCallbacks.userdata = &s;
    s.serverCallbacks.auth_pubkey_function = onAuthPubkey;
    s.serverCallbacks.auth_password_function = onAuthPassword;
    ssh_callbacks_init(&s.serverCallbacks);
    ssh_set_server_callbacks(session, &s.serverCallbacks);
    ssh_set_auth_methods(session, SSH_AUTH_METHOD_PUBLICKEY | SSH_AUTH_METHOD_PASSWORD);
    s.tunnelCallbacks.userdata = &s;
    s.tunnelCallbacks.channel_data_function = onTunnelData;
    ssh_callbacks_init(&s.tunnelCallbacks);
    s.inputCallbacks.userdata = &s;
    s.inputCallbacks.channel_data_function = onInputData;
    s.inputCallbacks.channel_eof_function = onInputEof;
    ssh_callbacks_init(&s.inputCallbacks);
    s.sftpCallbacks.userdata = &s;
    s.sftpCallbacks.channel_data_function = onSftpData;
    s.sftpCallbacks.channel_eof_function = onSftpEof;
    ssh_callbacks_init(&s.sftpCallbacks);
    ssh_set_message_callback(session, onMessage, &s);
    if (accepted != SSH_OK || ssh_handle_key_exchange(session) != SSH_OK) {
        qCDebug(lcSsh) << "handshake failed on" << ep->node.c_str() << ssh_get_error(session);
        ssh_disconnect(session);
        ssh_free(session);
        return;
    }
    ssh_event event = ssh_event_new();
    ssh_event_add_session(event, session);
    // Kept alive until the client leaves; a quiet client is dropped after ten minutes.
    int idlePolls = 0;
    while (!m_stopping && ssh_is_connected(session) && idlePolls < 6000 && s.failedAuth < 10 &&
           (s.authenticated || idlePolls < 300)) {
        if (m_machines->sshFrozen(ep->node)) { // nothing read, nothing answered
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            continue;
        }
        if (ssh_event_dopoll(event, 100) == SSH_ERROR)
            break;
        idlePolls = s.work.empty() ? idlePolls + 1 : 0;
        while (!s.work.empty()) {
            auto job = std::move(s.work.front());
            s.work.pop_front();
            job();
        }
        for (auto it = s.channels.begin(); it != s.channels.end();) {
            if (ssh_channel_is_closed(*it) && ssh_channel_is_eof(*it)) {
                s.tunnels.erase(*it);
                s.sftp.erase(*it); // its open files closed
                ssh_channel_free(*it);
                it = s.channels.erase(it);
            } else {
                ++it;
            }
        }
        if (!s.channels.empty())
            idlePolls = 0;
    }
    ssh_event_remove_session(event, session);
    ssh_event_free(event);
    for (ssh_channel ch : s.channels)
        ssh_channel_free(ch);
    ssh_disconnect(session);
    ssh_free(session);
}

bool SshEndpoints::writeClientFiles(QString *error) const
{
    QFile known(m_stateDir + QStringLiteral("/ssh/known_hosts"));
    QFile config(sshConfigPath());
    if (!known.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        !config.open(QIODevice::WriteOnly | QIODevice::Truncate)) {
        *error = QStringLiteral("cannot write the SSH client files into %1").arg(m_stateDir);
        return false;
    }
    const QByteArray dir = QDir(m_stateDir).absolutePath().toUtf8();
    QByteArray cfg = "# Written by gpudesk-sim: one Host per simulated node.\n"
                     "# Use it as: ssh -F " +
                     dir + "/ssh_config NODE COMMAND\n\n";
    for (const auto &ep : m_endpoints) {
        known.write("[127.0.0.1]:" + QByteArray::number(ep->port) + ' ' +
                    QByteArray::fromStdString(ep->hostPublicKey) + '\n');
        cfg += "Host " + QByteArray::fromStdString(ep->node) +
               "\n    HostName 127.0.0.1\n    Port " + QByteArray::number(ep->port) +
               "\n    User root\n    IdentityFile " + dir +
               "/ssh/id_ed25519\n    IdentitiesOnly yes\n    UserKnownHostsFile " + dir +
               "/ssh/known_hosts\n    StrictHostKeyChecking yes\n    LogLevel ERROR\n\n";
    }
    config.write(cfg);
    return true;
}

} // namespace sim
