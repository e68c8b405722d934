// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QPair>

#include <memory>

namespace sim {

// One SPDY/3.1 frame, as the API server's streams (exec, attach, port-forward) carry them to
// kubectl up to 1.29 and to client-go's SPDY executor: the fields the server reads or writes.
struct SpdyFrame
{
    enum Type : quint16
    {
        Data = 0, // not a control frame: `streamId` and `data`
        SynStream = 1,
        SynReply = 2,
        RstStream = 3,
        Settings = 4,
        Ping = 6,
        GoAway = 7,
        Headers = 8,
        WindowUpdate = 9,
    };
    static constexpr quint8 FlagFin = 0x01;
    static constexpr quint8 FlagUnidirectional = 0x02;

    quint16 type = Data;
    quint8 flags = 0;
    quint32 streamId = 0; // data, SYN_STREAM, SYN_REPLY, RST_STREAM, HEADERS, WINDOW_UPDATE
    quint32 value = 0;    // RST_STREAM's and GOAWAY's status, PING's id, the window's delta
    QByteArray data;      // a data frame's payload
    QList<QPair<QByteArray, QByteArray>> headers; // decompressed, names in lower case

    bool fin() const { return flags & FlagFin; }
    QByteArray header(const QByteArray &name) const;
};

// SPDY/3.1 framing (draft-mbelshe-httpbis-spdy-00 and the 3.1 amendments) for one connection:
// frames parsed off the front of what arrived and frames made to send, with the zlib header
// compression SPDY/3 mandates (one deflate and one inflate context per connection, both primed
// with the specification's dictionary). Written from the specification, shares nothing with a
// client: a pure function of the bytes, so it is fuzzed.
class SpdyFramer
{
public:
    enum class Result
    {
        NeedMore,
        Frame,
        Error
    };
    // RST_STREAM status codes the server sends.
    enum Status : quint32
    {
        ProtocolError = 1,
        InvalidStream = 2,
        RefusedStream = 3,
        Cancel = 5,
        StreamInUse = 8,
    };
    static constexpr qsizetype kMaxFrameBytes = 8 << 20;
    static constexpr qsizetype kMaxHeaderBytes = 256 << 10;

    SpdyFramer();
    ~SpdyFramer();

    // Takes one frame off the front of `buffer`. On Error `error` says why; the connection is
    // then beyond repair (its compression context is lost) and goes with a GOAWAY.
    Result parse(QByteArray &buffer, SpdyFrame *frame, QString *error);

    QByteArray synReply(quint32 streamId, const QList<QPair<QByteArray, QByteArray>> &headers,
                        bool fin = false);
    static QByteArray data(quint32 streamId, const QByteArray &payload, bool fin = false);
    static QByteArray rstStream(quint32 streamId, quint32 status);
    static QByteArray ping(quint32 id);
    static QByteArray goAway(quint32 lastGoodStreamId, quint32 status = 0);

    // The dictionary both zlib contexts start from (1,423 bytes; its Adler-32 is the DICTID a
    // peer's zlib header names).
    static const QByteArray &dictionary();

private:
    bool inflateHeaders(const QByteArray &compressed, QByteArray *out, QString *error);
    QByteArray deflateHeaders(const QList<QPair<QByteArray, QByteArray>> &headers);

    struct Zlib;
    std::unique_ptr<Zlib> m_zlib;
};

} // namespace sim
