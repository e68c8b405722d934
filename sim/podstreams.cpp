// SPDX-License-Identifier: GPL-3.0-or-later
#include "podstreams.h"

#include "execshell.h"
#include "podfilecommands.h"
#include "spdyexecchannels.h"
#include "spdyportforward.h"
#include "spdysession.h"
#include "websocketsession.h"

#include <QTcpSocket>
#include <QTimer>
#include <QtEndian>

#include <sys/socket.h>

namespace sim {

using nlohmann::json;

namespace {

constexpr qint64 kHighWater = 4 << 20;
constexpr char kStdin = 0, kStdout = 1, kStderr = 2, kError = 3, kResize = 4, kClose = char(255);

QByteArray onChannel(char channel, const QByteArray &data)
{
    return QByteArray(1, channel) + data;
}

QByteArray portBytes(quint16 port)
{
    uchar b[2];
    qToLittleEndian<quint16>(port, b);
    return QByteArray(reinterpret_cast<const char *>(b), 2);
}

// The Status the kubelet ends an exec with on the error channel (remotecommand's
// errorFromStatus reads the exit code from details.causes).
json exitStatus(const QStringList &command, int exitCode)
{
    if (exitCode == 0)
        return json{{"metadata", json::object()}, {"status", "Success"}};
    const std::string code = std::to_string(exitCode);
    return json{
        {"metadata", json::object()},
        {"status", "Failure"},
        {"message", "command terminated with non-zero exit code: error executing command [" +
                        command.join(u' ').toStdString() + "], exit code " + code},
        {"reason", "NonZeroExitCode"},
        {"details", {{"causes", json::array({{{"reason", "ExitCode"}, {"message", code}}})}}}};
}

json startFailure(const QString &message)
{
    return json{{"metadata", json::object()},
                {"status", "Failure"},
                {"message", "Internal error occurred: error executing command in container: " +
                                message.toStdString()},
                {"reason", "InternalError"},
                {"code", 500}};
}

// What an exec says before its process has started, held; sent, in order, once it has.
class ExecStart
{
public:
    static constexpr int RuntimeMs = 60;

    void send(ChannelTransport *ws, const QByteArray &message)
    {
        if (m_open)
            ws->sendBinary(message);
        else
            m_held << message;
    }
    void close(ChannelTransport *ws)
    {
        if (m_open)
            ws->close(1000);
        else
            m_closeWhenOpen = true;
    }
    void open(ChannelTransport *ws)
    {
        m_open = true;
        for (const QByteArray &m : std::exchange(m_held, {}))
            ws->sendBinary(m);
        if (m_closeWhenOpen)
            ws->close(1000);
    }

private:
    bool m_open = false;
    bool m_closeWhenOpen = false;
    QList<QByteArray> m_held;
};

QString portName(const json &pod, quint16 port)
{
    for (const auto &c : pod["spec"].value("containers", json::array()))
        for (const auto &p : c.value("ports", json::array()))
            if (p.value("containerPort", 0) == port && p.contains("name") && p["name"].is_string())
                return QString::fromStdString(p["name"].get<std::string>());
    return {};
}

} // namespace

PodStreams::PodStreams(ObjectStore *store, QObject *parent)
    : QObject(parent), m_store(store), m_jupyters(new PodJupyters(this))
{}

QString PodStreams::jupyterToken(const std::string &podUid) const
{
    switch (m_jupyters->state(podUid)) {
    case PodJupyters::State::None:
        return {};
    case PodJupyters::State::Own: {
        const auto own = m_jupyters->own(podUid);
        return own ? own->token : QString(); // listed once it listens
    }
    case PodJupyters::State::Shared:
        break;
    }
    return m_backends.contains(QStringLiteral("jupyter")) ? m_jupyterToken : QString();
}

PodStreams::Backend PodStreams::backendFor(const json &pod, quint16 port) const
{
    const QString name = portName(pod, port);
    if (name != QLatin1String("jupyter"))
        return m_backends.value(name);
    const std::string uid = pod["metadata"].value("uid", "");
    switch (m_jupyters->state(uid)) {
    case PodJupyters::State::None:
        return {};
    case PodJupyters::State::Own: {
        const auto own = m_jupyters->own(uid);
        return own ? Backend{QStringLiteral("127.0.0.1"), own->port} : Backend{};
    }
    case PodJupyters::State::Shared:
        break;
    }
    return m_backends.value(name);
}

bool PodStreams::isJupyterStart(const QStringList &command)
{
    // The script a client runs to start Jupyter with a token it sends on stdin (gpudesk's:
    // services/jupyterstarter.cpp), with the port as its first argument.
    return command.size() == 5 &&
           (command[0] == QLatin1String("sh") || command[0] == QLatin1String("/bin/sh")) &&
           command[1] == QLatin1String("-c") &&
           command[2].startsWith(QLatin1String("read -r JUPYTER_TOKEN")) && command[4].toUInt() > 0;
}

void PodStreams::startJupyter(ChannelTransport *ws, const json &pod, const QStringList &command,
                              const std::function<void(QByteArray)> &out,
                              const std::function<void(const QByteArray &)> &err,
                              const std::function<void(const ExecShell::Result &)> &finish)
{
    Q_UNUSED(out);
    const QString ns = QString::fromStdString(pod["metadata"].value("namespace", ""));
    const QString name = QString::fromStdString(pod["metadata"].value("name", ""));
    const std::string uid = pod["metadata"].value("uid", "");
    const quint16 port = quint16(command[4].toUInt());
    bool served = false;
    for (const auto &ct : pod["spec"].value("containers", json::array()))
        for (const auto &p : ct.value("ports", json::array()))
            served =
                served || (p.value("name", "") == "jupyter" && p.value("containerPort", 0) == port);
    auto line = std::make_shared<QByteArray>();
    auto started = std::make_shared<bool>(false);
    // The first line of stdin is the token; the script backgrounds the server and ends at once.
    auto go = [this, ns, name, uid, line, started, served, err, finish] {
        if (std::exchange(*started, true))
            return;
        ExecShell::Result r;
        if (!m_jupyters->available()) {
            err("jupyter is not installed in this image\n");
            r.exitCode = 127;
        } else if (line->trimmed().isEmpty()) {
            r.exitCode = 2;
        } else if (served) {
            m_jupyters->start(ns, name, uid, QString::fromUtf8(line->trimmed()),
                              [](const QString &) {});
        }
        finish(r);
    };
    connect(ws, &ChannelTransport::binaryMessage, ws, [line, go](const QByteArray &m) {
        if (m.isEmpty())
            return;
        if (quint8(m.at(0)) == kClose) {
            go();
            return;
        }
        if (m.at(0) != kStdin)
            return;
        line->append(m.mid(1));
        if (line->contains('\n')) {
            line->truncate(line->indexOf('\n'));
            go();
        }
    });
}

void PodStreams::setBackend(const QString &portName, const Backend &backend)
{
    m_backends.insert(portName, backend);
}

std::optional<json> PodStreams::runningPod(HttpConnection *c, const ApiRoute &rt,
                                           const QString &container)
{
    const auto res = m_store->get(rt.type, rt.ns, rt.name);
    if (!res.ok()) {
        sendError(c, *res.error);
        return std::nullopt;
    }
    const json &pod = *res.object.object;
    const std::string phase = pod["status"].value("phase", "");
    if (phase == "Succeeded" || phase == "Failed") {
        sendError(c, badRequest(QStringLiteral("cannot exec into or forward to a container in a "
                                               "completed pod; current phase is %1")
                                    .arg(QString::fromStdString(phase))));
        return std::nullopt;
    }
    QStringList names;
    for (const auto &ct : pod["spec"].value("containers", json::array()))
        names << QString::fromStdString(ct.value("name", ""));
    if (!container.isEmpty() && !names.contains(container)) {
        sendError(
            c, badRequest(
                   QStringLiteral("container %1 is not valid for pod %2").arg(container, rt.name)));
        return std::nullopt;
    }
    bool running = false;
    for (const auto &cs : pod["status"].value("containerStatuses", json::array()))
        if ((container.isEmpty() || cs.value("name", "") == container.toStdString()) &&
            cs.contains("state") && cs["state"].contains("running"))
            running = true;
    if (!running) {
        sendError(c, badRequest(QStringLiteral(
                                    "unable to upgrade connection: container not found (\"%1\")")
                                    .arg(container.isEmpty() ? names.value(0) : container)));
        return std::nullopt;
    }
    return pod;
}

ChannelTransport *PodStreams::upgrade(HttpConnection *c, const HttpRequest &r,
                                      const QList<QByteArray> &protocols, const QString &kind,
                                      const json &pod, const QList<char> &spdyExpected)
{
    if (SpdySession::wantsSpdy(r)) {
        // SPDY names its channel protocol in X-Stream-Protocol-Version; the kubelet's handshake
        // refuses (403) a client that offers none it speaks.
        const QList<QByteArray> spdyProtocols = kind == QLatin1String("exec")
                                                    ? QList<QByteArray>{"v4.channel.k8s.io"}
                                                    : QList<QByteArray>{"portforward.k8s.io"};
        const QByteArray protocol = SpdySession::chooseProtocol(r, spdyProtocols);
        if (protocol.isEmpty()) {
            sendError(c, {403, QStringLiteral("Forbidden"),
                          QStringLiteral("unable to upgrade: unable to negotiate protocol: client "
                                         "supports %1, server supports %2")
                              .arg(QString::fromLatin1(r.header("x-stream-protocol-version")),
                                   QString::fromLatin1(spdyProtocols.join(", ")))});
            return nullptr;
        }
        SpdySession *session = SpdySession::accept(c, protocol, this);
        if (kind != QLatin1String("exec")) {
            // Port-forward's connections come later, one pair of streams each.
            auto *forward = new SpdyPortForward(session, session);
            connect(forward, &SpdyPortForward::connectionOpened, this,
                    [this, pod](SpdyPortChannels *channels, quint16 port) {
                        track(channels, QStringLiteral("portforward"), pod);
                        bridge(channels, pod, {port});
                    });
            return nullptr;
        }
        auto *channels = new SpdyExecChannels(session, spdyExpected, session);
        track(channels, kind, pod);
        return channels;
    }
    if (const QString why = WebSocketSession::checkUpgrade(r); !why.isEmpty()) {
        sendError(c, badRequest(why));
        return nullptr;
    }
    const QByteArray protocol = WebSocketSession::chooseProtocol(r, protocols);
    if (protocol.isEmpty()) {
        sendError(c, badRequest(QStringLiteral("none of the offered subprotocols is supported; "
                                               "this server speaks %1")
                                    .arg(QString::fromLatin1(protocols.join(", ")))));
        return nullptr;
    }
    WebSocketSession *ws = WebSocketSession::accept(c, r, protocol, this);
    track(ws, kind, pod);
    return ws;
}

void PodStreams::track(ChannelTransport *ws, const QString &kind, const json &pod)
{
    m_streams.append({ws, kind, QString::fromStdString(pod["metadata"].value("namespace", "")),
                      QString::fromStdString(pod["metadata"].value("name", "")),
                      pod["metadata"].value("uid", "")});
    connect(ws, &ChannelTransport::closed, this, [this, ws] {
        m_streams.removeIf([ws](const Stream &s) { return s.ws == ws || !s.ws; });
    });
}

void PodStreams::exec(HttpConnection *c, const HttpRequest &r, const ApiRoute &rt)
{
    const QString container = r.queryValue(QStringLiteral("container"));
    const QStringList command = queryValues(r, QStringLiteral("command"));
    const bool wantsStdin = queryBool(r, QStringLiteral("stdin"));
    const bool wantsStdout = queryBool(r, QStringLiteral("stdout"));
    const bool wantsStderr = queryBool(r, QStringLiteral("stderr"));
    const bool tty = queryBool(r, QStringLiteral("tty"));
    if (!wantsStdin && !wantsStdout && !wantsStderr) {
        sendError(c, badRequest(QStringLiteral("you must specify at least 1 of stdin, stdout, "
                                               "stderr")));
        return;
    }
    const auto pod = runningPod(c, rt, container);
    if (!pod)
        return;
    // The streams a SPDY client opens for this request (client-go's streamProtocolV4).
    QList<char> spdyStreams{kError};
    if (wantsStdin)
        spdyStreams << kStdin;
    if (wantsStdout)
        spdyStreams << kStdout;
    if (wantsStderr && !tty)
        spdyStreams << kStderr;
    if (tty)
        spdyStreams << kResize;
    ChannelTransport *ws = upgrade(c, r, {"v5.channel.k8s.io", "v4.channel.k8s.io"},
                                   QStringLiteral("exec"), *pod, spdyStreams);
    if (!ws)
        return;
    const quint16 jupyterPort = [&] {
        for (const auto &ct : (*pod)["spec"].value("containers", json::array()))
            for (const auto &p : ct.value("ports", json::array()))
                if (p.value("name", "") == "jupyter")
                    return quint16(p.value("containerPort", 0));
        return quint16(0);
    }();
    const std::string uid = (*pod)["metadata"].value("uid", "");
    auto shell =
        std::make_shared<ExecShell>(*pod, ExecShell::Jupyter{jupyterPort, jupyterToken(uid)});
    const bool endsStdin = ws->endsStdin();
    const QByteArray eol = tty ? "\r\n" : "\n";
    // A container runtime takes tens of milliseconds to start the process, and nothing comes
    // out before: what the command says is held that long. client-go's WebSocket executor
    // (kubectl 1.30 on) makes its streams beside the reader it starts after the upgrade, and
    // drops a message for a stream not yet made ("Unknown stream id 1, discarding message"):
    // an answer sent with the upgrade was lost once in a loaded CI run.
    auto start = std::make_shared<ExecStart>();
    QTimer::singleShot(ExecStart::RuntimeMs, ws, [ws, start] { start->open(ws); });
    auto out = [ws, start, wantsStdout, tty, eol](QByteArray data) {
        if (tty)
            data.replace("\n", eol);
        if (wantsStdout && !data.isEmpty())
            start->send(ws, onChannel(kStdout, data));
    };
    auto err = [ws, start, wantsStderr, tty, out](const QByteArray &data) {
        // With a terminal there is one stream: stderr comes out on stdout.
        if (tty)
            out(data);
        else if (wantsStderr && !data.isEmpty())
            start->send(ws, onChannel(kStderr, data));
    };
    auto finish = [ws, start, command](const ExecShell::Result &res) {
        const json status = res.startError.isEmpty() ? exitStatus(command, res.exitCode)
                                                     : startFailure(res.startError);
        start->send(ws, onChannel(kError, QByteArray::fromStdString(status.dump())));
        start->close(ws);
    };

    if (m_nas && PodFileCommands::handles(command)) {
        auto files = std::make_shared<PodFileCommands>(m_nas, *pod);
        // dd takes stdin from the first message (the client writes once the stream opens);
        // what streams out waits for the process to start, so that the socket's queue is
        // what holds a download back.
        if (command.first() == QLatin1String("dd"))
            files->run(ws, command, wantsStdin, out, err, finish);
        else
            QTimer::singleShot(ExecStart::RuntimeMs, ws,
                               [=] { files->run(ws, command, wantsStdin, out, err, finish); });
        return;
    }
    if (wantsStdin && isJupyterStart(command)) {
        startJupyter(ws, *pod, command, out, err, finish);
        return;
    }
    if (wantsStdin && (ExecShell::isInteractiveShell(command) || ExecShell::isCat(command))) {
        const bool cat = ExecShell::isCat(command);
        auto line = std::make_shared<QByteArray>();
        // The terminal's size as the client last resized it: `stty size` reads it back.
        auto size = std::make_shared<std::pair<int, int>>(24, 80);
        const QByteArray prompt = "# ";
        if (!cat && tty)
            out(prompt);
        connect(ws, &ChannelTransport::binaryMessage, ws, [=](const QByteArray &m) {
            if (m.isEmpty())
                return;
            const char channel = m.at(0);
            if (channel == kClose && endsStdin && m.size() >= 2 && m.at(1) == kStdin) {
                if (!line->isEmpty() && !cat) {
                    const auto res =
                        shell->run(QString::fromUtf8(*line).split(u' ', Qt::SkipEmptyParts));
                    out(res.out);
                    err(res.err);
                }
                finish({});
                return;
            }
            if (channel == kResize) {
                // {"Width":W,"Height":H}, as client-go's TerminalSize.
                const json r = json::parse(m.mid(1).toStdString(), nullptr, false);
                if (r.is_object() && r.value("Width", 0) > 0 && r.value("Height", 0) > 0)
                    *size = {r.value("Height", 0), r.value("Width", 0)};
                return;
            }
            if (channel != kStdin)
                return;
            const QByteArray data = m.mid(1);
            if (cat) {
                out(data);
                return;
            }
            for (char ch : data) {
                if (ch == '\r' || ch == '\n') {
                    if (tty)
                        out("\n");
                    const QString text = QString::fromUtf8(std::exchange(*line, {})).trimmed();
                    if (text == QLatin1String("exit")) {
                        finish({});
                        return;
                    }
                    if (text == QLatin1String("stty size") && tty) {
                        out(QByteArray::number(size->first) + ' ' +
                            QByteArray::number(size->second) + '\n');
                    } else if (!text.isEmpty()) {
                        const auto res = shell->run(
                            QStringList{QStringLiteral("sh"), QStringLiteral("-c"), text});
                        out(res.out);
                        err(res.err);
                    }
                    if (tty)
                        out(prompt);
                } else {
                    line->append(ch);
                    if (tty)
                        out(QByteArray(1, ch)); // the terminal echoes what is typed
                }
            }
        });
        return;
    }
    const ExecShell::Result res = shell->run(command);
    out(res.out);
    err(res.err);
    finish(res);
}

void PodStreams::portForward(HttpConnection *c, const HttpRequest &r, const ApiRoute &rt)
{
    QList<quint16> ports;
    for (const QString &value : queryValues(r, QStringLiteral("ports")))
        for (const QString &p : value.split(u',', Qt::SkipEmptyParts)) {
            bool ok = false;
            const uint port = p.trimmed().toUInt(&ok);
            if (!ok || port == 0 || port > 65535) {
                sendError(c, badRequest(QStringLiteral("invalid port value \"%1\"").arg(p)));
                return;
            }
            ports.append(quint16(port));
        }
    // Over SPDY each stream names its port (a header); a WebSocket names them all up front.
    if (ports.isEmpty() && !SpdySession::wantsSpdy(r)) {
        sendError(c, badRequest(QStringLiteral("query parameter \"port\" is required")));
        return;
    }
    const auto pod = runningPod(c, rt, {});
    if (!pod)
        return;
    ChannelTransport *ws =
        upgrade(c, r, {"v4.channel.k8s.io"}, QStringLiteral("portforward"), *pod, {});
    if (ws)
        bridge(ws, *pod, ports);
}

void PodStreams::bridge(ChannelTransport *ws, const json &pod, const QList<quint16> &ports)
{
    const std::string uid = pod["metadata"].value("uid", "");
    auto open = std::make_shared<int>(int(ports.size()));
    QList<QTcpSocket *> backends;
    for (int i = 0; i < ports.size(); ++i) {
        const quint16 port = ports[i];
        const char data = char(2 * i), error = char(2 * i + 1);
        if (ws->announcesPorts()) {
            ws->sendBinary(onChannel(data, portBytes(port)));
            ws->sendBinary(onChannel(error, portBytes(port)));
        }
        auto *sock = new QTcpSocket(ws);
        sock->setReadBufferSize(1 << 20);
        sock->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        backends.append(sock);
        auto portDone = [ws, open, ended = std::make_shared<bool>(false)] {
            if (std::exchange(*ended, true))
                return;
            if (--*open == 0)
                ws->close(1000);
        };
        auto pump = [ws, sock, data] {
            while (sock->bytesAvailable() > 0 && ws->bytesToWrite() < kHighWater)
                ws->sendBinary(onChannel(data, sock->read(256 << 10)));
        };
        connect(sock, &QTcpSocket::readyRead, ws, pump);
        connect(ws, &ChannelTransport::drained, sock, pump);
        if (auto *spdy = qobject_cast<SpdyPortChannels *>(ws)) {
            // The client ended its side: the pod's program reads its end once what came is
            // written (a half-close; its answer still comes back).
            auto shut = [sock] {
                if (sock->bytesToWrite() == 0 && sock->state() == QAbstractSocket::ConnectedState)
                    ::shutdown(int(sock->socketDescriptor()), SHUT_WR);
            };
            connect(spdy, &SpdyPortChannels::dataEnded, sock, [sock, shut] {
                sock->setProperty("gpudesk.sim.inputEnded", true);
                shut();
            });
            connect(sock, &QTcpSocket::bytesWritten, spdy, [sock, shut] {
                if (sock->property("gpudesk.sim.inputEnded").toBool())
                    shut();
            });
        }
        connect(sock, &QTcpSocket::bytesWritten, ws, [ws, sock] {
            if (sock->bytesToWrite() < (1 << 20))
                ws->setReadPaused(false);
        });
        connect(sock, &QTcpSocket::disconnected, ws, [pump, portDone] {
            pump();
            portDone();
        });
        // The kubelet's words for a port nothing listens on in the pod.
        auto refused = [ws, port, uid, error, portDone](const QString &why) {
            const std::string p = std::to_string(port);
            ws->sendBinary(onChannel(
                error, QByteArray::fromStdString(
                           "error forwarding port " + p + " to pod " + uid +
                           ", uid : failed to execute portforward in network namespace: failed "
                           "to connect to localhost:" +
                           p +
                           " inside namespace, IPv4: dial tcp4 "
                           "127.0.0.1:" +
                           p + ": connect: " + why.toStdString())));
            portDone();
        };
        connect(sock, &QTcpSocket::errorOccurred, ws,
                [sock, refused](QAbstractSocket::SocketError e) {
                    if (e != QAbstractSocket::RemoteHostClosedError) // else an ordinary end
                        refused(sock->errorString().toLower());
                });
        const Backend backend = backendFor(pod, port);
        if (backend.port != 0)
            sock->connectToHost(backend.host, backend.port);
        else
            QMetaObject::invokeMethod(
                ws, [refused] { refused(QStringLiteral("connection refused")); },
                Qt::QueuedConnection);
    }
    connect(ws, &ChannelTransport::binaryMessage, ws, [ws, backends](const QByteArray &m) {
        if (m.isEmpty())
            return;
        const int channel = quint8(m.at(0));
        if (channel % 2 != 0 || channel / 2 >= backends.size())
            return; // nothing is read from a port's error channel
        QTcpSocket *sock = backends[channel / 2];
        sock->write(m.constData() + 1, m.size() - 1);
        if (sock->bytesToWrite() > kHighWater)
            ws->setReadPaused(true);
    });
}

int PodStreams::drop(const QString &ns, const QString &pod)
{
    int n = 0;
    for (const Stream &s : std::as_const(m_streams))
        if (s.ws && (ns.isEmpty() || (s.ns == ns && s.pod == pod))) {
            QMetaObject::invokeMethod(s.ws.data(), &ChannelTransport::abort, Qt::QueuedConnection);
            ++n;
        }
    return n;
}

json PodStreams::list() const
{
    json out = json::array();
    for (const Stream &s : m_streams)
        if (s.ws)
            out.push_back({{"kind", s.kind.toStdString()},
                           {"namespace", s.ns.toStdString()},
                           {"pod", s.pod.toStdString()},
                           {"protocol", s.ws->protocol().toStdString()},
                           {"idleSeconds", s.ws->idleMs() / 1000}});
    return out;
}

void PodStreams::tick()
{
    // A server started in a pod ends with it.
    m_jupyters->prune([this](const QString &ns, const QString &name, const std::string &uid) {
        const auto res = m_store->get(
            m_store->types()->find({}, QStringLiteral("v1"), QStringLiteral("pods")), ns, name);
        return res.ok() && (*res.object.object)["metadata"].value("uid", "") == uid;
    });
    const QList<Stream> streams = m_streams; // closing one takes it off the list
    for (const Stream &s : streams) {
        if (!s.ws)
            continue;
        if (s.ws->idleMs() > m_idleTimeoutMs) {
            s.ws->close(1000, "idle timeout");
            continue;
        }
        // The kubelet's streams end with the container they lead into.
        const auto res = m_store->get(
            m_store->types()->find({}, QStringLiteral("v1"), QStringLiteral("pods")), s.ns, s.pod);
        bool running = false;
        if (res.ok() && (*res.object.object)["metadata"].value("uid", "") == s.uid)
            for (const auto &cs :
                 (*res.object.object)["status"].value("containerStatuses", json::array()))
                running = running || (cs.contains("state") && cs["state"].contains("running"));
        if (!running)
            s.ws->abort();
    }
}

} // namespace sim
