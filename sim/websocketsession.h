// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "channeltransport.h"
#include "httpserver.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QObject>

class QSslSocket;

namespace sim {

// The server side of RFC 6455 on a connection the HTTP server handed over after its 101 answer:
// framing of its own (the simulator shares no code with the client's QtWebSockets), masked
// frames from the client, fragments joined, ping answered, close echoed. Messages are binary, as
// the API server's channel protocols use them.
class WebSocketSession : public ChannelTransport
{
    Q_OBJECT
public:
    // The handshake: "" and the accept header when `r` asks for a WebSocket; else why not.
    static QString checkUpgrade(const HttpRequest &r);
    static QByteArray acceptKey(const QByteArray &clientKey);
    // The first of the client's subprotocols that `supported` has; "" when none.
    static QByteArray chooseProtocol(const HttpRequest &r, const QList<QByteArray> &supported);
    // Answers 101 on `c` and takes its socket.
    static WebSocketSession *accept(HttpConnection *c, const HttpRequest &r,
                                    const QByteArray &protocol, QObject *parent);

    void sendBinary(const QByteArray &message) override;
    // A close frame with `code` (1000 normal), then the connection goes.
    void close(quint16 code = 1000, const QByteArray &reason = {}) override;
    // Gone without a close frame.
    void abort() override;
    bool isOpen() const override;
    qint64 bytesToWrite() const override;
    void setReadPaused(bool paused) override;
    QByteArray protocol() const override { return m_protocol; }
    // Milliseconds since a frame last came in or a message went out.
    qint64 idleMs() const override { return m_activity.elapsed(); }
    bool endsStdin() const override { return m_protocol == "v5.channel.k8s.io"; }
    bool announcesPorts() const override { return true; }

private:
    WebSocketSession(QSslSocket *socket, const QByteArray &leftover, const QByteArray &protocol,
                     QObject *parent);
    void onReadyRead();
    void parseFrames();
    void sendFrame(quint8 opcode, const QByteArray &payload);
    void finish();

    QSslSocket *m_socket;
    QByteArray m_buffer;
    QByteArray m_message; // fragments so far
    QByteArray m_protocol;
    QElapsedTimer m_activity;
    bool m_paused = false;
    bool m_closing = false;
    bool m_finished = false;
};

} // namespace sim
