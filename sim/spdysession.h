// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "httpserver.h"
#include "spdyframer.h"

#include <QElapsedTimer>
#include <QObject>
#include <QSet>

class QSslSocket;

namespace sim {

// The server side of a SPDY/3.1 connection after the API server's 101 answer to "Upgrade:
// SPDY/3.1": the client opens the streams (odd ids), each is answered with a SYN_REPLY at once,
// as the kubelet's stream server does; PINGs are answered; a GOAWAY or a framing error ends it.
// The channel protocol was chosen in the upgrade's X-Stream-Protocol-Version.
class SpdySession : public QObject
{
    Q_OBJECT
public:
    // Whether `r` asks for SPDY/3.1 (kubectl up to 1.29 for exec and attach, every kubectl for
    // port-forward unless it tunnels over a WebSocket).
    static bool wantsSpdy(const HttpRequest &r);
    // The first of the client's X-Stream-Protocol-Version values that `supported` has.
    static QByteArray chooseProtocol(const HttpRequest &r, const QList<QByteArray> &supported);
    // Answers 101 on `c` and takes its socket.
    static SpdySession *accept(HttpConnection *c, const QByteArray &protocol, QObject *parent);

    void write(quint32 stream, const QByteArray &data);
    // FIN: this side of the stream ends (what was written still arrives).
    void finish(quint32 stream);
    void reset(quint32 stream, quint32 status);
    // GOAWAY, then the connection goes once what was written is out.
    void close();
    void abort();
    bool isOpen() const;
    qint64 bytesToWrite() const;
    void setReadPaused(bool paused);
    QByteArray protocol() const { return m_protocol; }
    qint64 idleMs() const { return m_activity.elapsed(); }

signals:
    void streamOpened(quint32 stream, const sim::SpdyFrame &synStream);
    void streamData(quint32 stream, const QByteArray &data);
    void streamEnded(quint32 stream); // the client's FIN, or its RST_STREAM
    void drained();
    void closed();

private:
    SpdySession(QSslSocket *socket, const QByteArray &leftover, const QByteArray &protocol,
                QObject *parent);
    void onReadyRead();
    void handle(const SpdyFrame &frame);
    void fail(const QString &why);
    void send(const QByteArray &bytes);
    void end();

    QSslSocket *m_socket;
    SpdyFramer m_framer;
    QByteArray m_buffer;
    QByteArray m_protocol;
    QSet<quint32> m_open;        // streams the client opened and has not reset
    QSet<quint32> m_finishedOut; // streams this side has ended
    quint32 m_lastStream = 0;
    QElapsedTimer m_activity;
    bool m_paused = false;
    bool m_closing = false;
    bool m_finished = false;
};

} // namespace sim
