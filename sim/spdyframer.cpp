// SPDX-License-Identifier: GPL-3.0-or-later
#include "spdyframer.h"

#include <QString>
#include <QtEndian>

#include <zlib.h>

#include <cstring>

namespace sim {

namespace {

constexpr quint16 kVersion = 3;
constexpr qsizetype kFrameHead = 8;

// The header compression dictionary of SPDY/3 (section 2.6.10.1 of the draft): these words, each
// after its length as a 32-bit big-endian number, then the text that ends it.
const char *const kDictionaryWords[] = {"options",
                                        "head",
                                        "post",
                                        "put",
                                        "delete",
                                        "trace",
                                        "accept",
                                        "accept-charset",
                                        "accept-encoding",
                                        "accept-language",
                                        "accept-ranges",
                                        "age",
                                        "allow",
                                        "authorization",
                                        "cache-control",
                                        "connection",
                                        "content-base",
                                        "content-encoding",
                                        "content-language",
                                        "content-length",
                                        "content-location",
                                        "content-md5",
                                        "content-range",
                                        "content-type",
                                        "date",
                                        "etag",
                                        "expect",
                                        "expires",
                                        "from",
                                        "host",
                                        "if-match",
                                        "if-modified-since",
                                        "if-none-match",
                                        "if-range",
                                        "if-unmodified-since",
                                        "last-modified",
                                        "location",
                                        "max-forwards",
                                        "pragma",
                                        "proxy-authenticate",
                                        "proxy-authorization",
                                        "range",
                                        "referer",
                                        "retry-after",
                                        "server",
                                        "te",
                                        "trailer",
                                        "transfer-encoding",
                                        "upgrade",
                                        "user-agent",
                                        "vary",
                                        "via",
                                        "warning",
                                        "www-authenticate",
                                        "method",
                                        "get",
                                        "status",
                                        "200 OK",
                                        "version",
                                        "HTTP/1.1",
                                        "url",
                                        "public",
                                        "set-cookie",
                                        "keep-alive",
                                        "origin"};
const char kDictionaryTail[] =
    "100101201202205206300302303304305306307402405406407408409410411412413414415416417502504505"
    "203 Non-Authoritative Information204 No Content301 Moved Permanently400 Bad Request401 "
    "Unauthorized403 Forbidden404 Not Found500 Internal Server Error501 Not Implemented503 Service "
    "UnavailableJan Feb Mar Apr May Jun Jul Aug Sept Oct Nov Dec 00:00:00 Mon, Tue, Wed, Thu, Fri, "
    "Sat, Sun, GMTchunked,text/html,image/png,image/jpg,image/gif,application/xml,application/"
    "xhtml+xml,text/plain,text/javascript,publicprivatemax-age=gzip,deflate,sdchcharset=utf-8"
    "charset=iso-8859-1,utf-,*,enq=0.";

quint32 be32(const char *p)
{
    return qFromBigEndian<quint32>(reinterpret_cast<const uchar *>(p));
}

void put32(QByteArray &out, quint32 v)
{
    uchar b[4];
    qToBigEndian(v, b);
    out.append(reinterpret_cast<const char *>(b), 4);
}

// The second half of every frame's head, flags and a 24-bit length, then what it carries.
void appendFlagsLengthPayload(QByteArray &out, quint8 flags, const QByteArray &payload)
{
    out.append(char(flags));
    const quint32 length = quint32(payload.size());
    out.append(char((length >> 16) & 0xff));
    out.append(char((length >> 8) & 0xff));
    out.append(char(length & 0xff));
    out.append(payload);
}

QByteArray controlFrame(quint16 type, quint8 flags, const QByteArray &payload)
{
    QByteArray out;
    out.reserve(kFrameHead + payload.size());
    out.append(char(0x80 | (kVersion >> 8)));
    out.append(char(kVersion & 0xff));
    out.append(char(type >> 8));
    out.append(char(type & 0xff));
    appendFlagsLengthPayload(out, flags, payload);
    return out;
}

} // namespace

QByteArray SpdyFrame::header(const QByteArray &name) const
{
    for (const auto &h : headers)
        if (h.first == name)
            return h.second;
    return {};
}

struct SpdyFramer::Zlib
{
    z_stream in{};
    z_stream out{};
    bool inOk = false;
    bool outOk = false;
    ~Zlib()
    {
        if (inOk)
            inflateEnd(&in);
        if (outOk)
            deflateEnd(&out);
    }
};

const QByteArray &SpdyFramer::dictionary()
{
    static const QByteArray dict = [] {
        QByteArray d;
        for (const char *w : kDictionaryWords) {
            put32(d, quint32(qstrlen(w)));
            d.append(w);
        }
        d.append(kDictionaryTail);
        return d;
    }();
    return dict;
}

SpdyFramer::SpdyFramer() : m_zlib(std::make_unique<Zlib>())
{
    m_zlib->inOk = inflateInit(&m_zlib->in) == Z_OK;
    m_zlib->outOk = deflateInit(&m_zlib->out, Z_DEFAULT_COMPRESSION) == Z_OK;
    if (m_zlib->outOk) {
        const QByteArray &d = dictionary();
        deflateSetDictionary(&m_zlib->out, reinterpret_cast<const Bytef *>(d.constData()),
                             uInt(d.size()));
    }
}

SpdyFramer::~SpdyFramer() = default;

bool SpdyFramer::inflateHeaders(const QByteArray &compressed, QByteArray *out, QString *error)
{
    if (!m_zlib->inOk) {
        *error = QStringLiteral("zlib could not start");
        return false;
    }
    z_stream &z = m_zlib->in;
    z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(compressed.constData()));
    z.avail_in = uInt(compressed.size());
    char chunk[16384];
    while (true) {
        z.next_out = reinterpret_cast<Bytef *>(chunk);
        z.avail_out = sizeof chunk;
        int rc = inflate(&z, Z_SYNC_FLUSH);
        if (rc == Z_NEED_DICT) {
            const QByteArray &d = dictionary();
            if (inflateSetDictionary(&z, reinterpret_cast<const Bytef *>(d.constData()),
                                     uInt(d.size())) != Z_OK) {
                *error = QStringLiteral("header block compressed with another dictionary");
                return false;
            }
            rc = Z_OK;
        }
        out->append(chunk, qsizetype(sizeof chunk - z.avail_out));
        if (out->size() > kMaxHeaderBytes) {
            *error = QStringLiteral("header block larger than %1 bytes").arg(kMaxHeaderBytes);
            return false;
        }
        if (rc == Z_BUF_ERROR || (rc == Z_OK && z.avail_in == 0 && z.avail_out != 0))
            return true; // all of this block is out
        if (rc == Z_STREAM_END) {
            *error = QStringLiteral("header compression stream ended");
            return false;
        }
        if (rc != Z_OK) {
            *error = QStringLiteral("header block does not inflate (%1)")
                         .arg(QString::fromLatin1(z.msg ? z.msg : "zlib error"));
            return false;
        }
    }
}

QByteArray SpdyFramer::deflateHeaders(const QList<QPair<QByteArray, QByteArray>> &headers)
{
    QByteArray block;
    put32(block, quint32(headers.size()));
    for (const auto &h : headers) {
        put32(block, quint32(h.first.size()));
        block.append(h.first);
        put32(block, quint32(h.second.size()));
        block.append(h.second);
    }
    z_stream &z = m_zlib->out;
    z.next_in = reinterpret_cast<Bytef *>(block.data());
    z.avail_in = uInt(block.size());
    QByteArray out;
    char chunk[4096];
    do {
        z.next_out = reinterpret_cast<Bytef *>(chunk);
        z.avail_out = sizeof chunk;
        deflate(&z, Z_SYNC_FLUSH);
        out.append(chunk, qsizetype(sizeof chunk - z.avail_out));
    } while (z.avail_out == 0);
    return out;
}

SpdyFramer::Result SpdyFramer::parse(QByteArray &buffer, SpdyFrame *frame, QString *error)
{
    if (buffer.size() < kFrameHead)
        return Result::NeedMore;
    uchar head[kFrameHead];
    memcpy(head, buffer.constData(), kFrameHead);
    const quint32 length = (quint32(head[5]) << 16) | (quint32(head[6]) << 8) | head[7];
    if (length > kMaxFrameBytes) {
        *error = QStringLiteral("frame of %1 bytes (at most %2)").arg(length).arg(kMaxFrameBytes);
        return Result::Error;
    }
    if (buffer.size() < kFrameHead + qsizetype(length))
        return Result::NeedMore;
    const QByteArray payload = buffer.mid(kFrameHead, length);
    buffer.remove(0, kFrameHead + length);
    *frame = SpdyFrame();
    frame->flags = head[4];
    if (!(head[0] & 0x80)) {
        frame->type = SpdyFrame::Data;
        frame->streamId = be32(reinterpret_cast<const char *>(head)) & 0x7fffffff;
        frame->data = payload;
        return Result::Frame;
    }
    const quint16 version = quint16(((head[0] & 0x7f) << 8) | head[1]);
    if (version != kVersion) {
        *error = QStringLiteral("SPDY version %1 (this server speaks 3.1)").arg(version);
        return Result::Error;
    }
    frame->type = quint16((head[2] << 8) | head[3]);
    const char *p = payload.constData();
    auto needs = [&](qsizetype n) {
        if (payload.size() >= n)
            return true;
        *error = QStringLiteral("control frame %1 of %2 bytes is too short")
                     .arg(frame->type)
                     .arg(payload.size());
        return false;
    };
    qsizetype block = -1; // where a header block starts
    switch (frame->type) {
    case SpdyFrame::SynStream:
        if (!needs(10))
            return Result::Error;
        frame->streamId = be32(p) & 0x7fffffff;
        block = 10; // associated stream, priority and slot are of no use to this server
        break;
    case SpdyFrame::SynReply:
    case SpdyFrame::Headers:
        if (!needs(4))
            return Result::Error;
        frame->streamId = be32(p) & 0x7fffffff;
        block = 4;
        break;
    case SpdyFrame::RstStream:
    case SpdyFrame::WindowUpdate:
        if (!needs(8))
            return Result::Error;
        frame->streamId = be32(p) & 0x7fffffff;
        // A status code, or a window's delta (31 bits).
        frame->value =
            be32(p + 4) & (frame->type == SpdyFrame::RstStream ? 0xffffffff : 0x7fffffff);
        return Result::Frame;
    case SpdyFrame::Ping:
        if (!needs(4))
            return Result::Error;
        frame->value = be32(p);
        return Result::Frame;
    case SpdyFrame::GoAway:
        if (!needs(8))
            return Result::Error;
        frame->streamId = be32(p) & 0x7fffffff;
        frame->value = be32(p + 4);
        return Result::Frame;
    default:
        return Result::Frame; // SETTINGS and frames unknown: read past, as the draft says
    }
    if (frame->streamId == 0) {
        *error = QStringLiteral("stream 0 is no stream");
        return Result::Error;
    }
    QByteArray plain;
    if (!inflateHeaders(payload.mid(block), &plain, error))
        return Result::Error;
    // The block: a count of pairs, then each name and value after its 32-bit length.
    qsizetype at = 0;
    auto take = [&](QByteArray *out) {
        if (plain.size() - at < 4)
            return false;
        const quint32 n = be32(plain.constData() + at);
        at += 4;
        if (n > quint32(plain.size() - at))
            return false;
        *out = plain.mid(at, n);
        at += n;
        return true;
    };
    if (plain.size() < 4) {
        *error = QStringLiteral("header block without its count");
        return Result::Error;
    }
    const quint32 pairs = be32(plain.constData());
    at = 4;
    if (pairs > quint32(plain.size() / 8)) {
        *error =
            QStringLiteral("header block claims %1 pairs in %2 bytes").arg(pairs).arg(plain.size());
        return Result::Error;
    }
    for (quint32 i = 0; i < pairs; ++i) {
        QByteArray name;
        QByteArray value;
        if (!take(&name) || !take(&value)) {
            *error = QStringLiteral("header block cut short");
            return Result::Error;
        }
        if (name.isEmpty() || name != name.toLower()) {
            *error = QStringLiteral("header name \"%1\" empty or not in lower case")
                         .arg(QString::fromLatin1(name.left(64)));
            return Result::Error;
        }
        frame->headers.append({name, value});
    }
    return Result::Frame;
}

QByteArray SpdyFramer::synReply(quint32 streamId,
                                const QList<QPair<QByteArray, QByteArray>> &headers, bool fin)
{
    QByteArray payload;
    put32(payload, streamId & 0x7fffffff);
    payload.append(deflateHeaders(headers));
    return controlFrame(SpdyFrame::SynReply, fin ? SpdyFrame::FlagFin : 0, payload);
}

QByteArray SpdyFramer::data(quint32 streamId, const QByteArray &payload, bool fin)
{
    QByteArray out;
    out.reserve(kFrameHead + payload.size());
    put32(out, streamId & 0x7fffffff);
    appendFlagsLengthPayload(out, fin ? SpdyFrame::FlagFin : 0, payload);
    return out;
}

QByteArray SpdyFramer::rstStream(quint32 streamId, quint32 status)
{
    QByteArray payload;
    put32(payload, streamId & 0x7fffffff);
    put32(payload, status);
    return controlFrame(SpdyFrame::RstStream, 0, payload);
}

QByteArray SpdyFramer::ping(quint32 id)
{
    QByteArray payload;
    put32(payload, id);
    return controlFrame(SpdyFrame::Ping, 0, payload);
}

QByteArray SpdyFramer::goAway(quint32 lastGoodStreamId, quint32 status)
{
    QByteArray payload;
    put32(payload, lastGoodStreamId & 0x7fffffff);
    put32(payload, status);
    return controlFrame(SpdyFrame::GoAway, 0, payload);
}

} // namespace sim
