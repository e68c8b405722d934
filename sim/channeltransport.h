// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QObject>

namespace sim {

// What a stream into a pod runs over, as the API server's channel protocols see it: messages
// that start with their channel's byte (exec's 0 stdin, 1 stdout, 2 stderr, 3 error, 4 resize;
// port-forward's data and error). A WebSocket carries them as binary messages; SPDY/3.1 carries
// each channel as a stream of its own (SpdyExecChannels, SpdyPortChannels).
class ChannelTransport : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    virtual void sendBinary(const QByteArray &message) = 0;
    // The streams end normally (a WebSocket's close frame with `code`; SPDY's FIN on each).
    virtual void close(quint16 code = 1000, const QByteArray &reason = {}) = 0;
    // Gone without a word, as a cut network or a killed proxy leaves it.
    virtual void abort() = 0;
    virtual bool isOpen() const = 0;
    virtual qint64 bytesToWrite() const = 0;
    // While paused, nothing more is read (the socket's own buffer fills and TCP pushes back).
    virtual void setReadPaused(bool paused) = 0;
    virtual QByteArray protocol() const = 0;
    // Milliseconds since something last came in or went out.
    virtual qint64 idleMs() const = 0;
    // Whether the client can end its stdin alone (v5.channel.k8s.io's close message, SPDY's
    // FIN): it then arrives as the message {255, 0}.
    virtual bool endsStdin() const = 0;
    // Whether port-forward's channels open with their port number (WebSocket only).
    virtual bool announcesPorts() const = 0;

signals:
    void binaryMessage(const QByteArray &message);
    void drained(); // what was queued has gone out
    void closed();
};

} // namespace sim
