// SPDX-License-Identifier: GPL-3.0-or-later
// The simulator's SPDY/3.1 framing: frames as a client sends them (made here with zlib and the
// specification's dictionary), the server's answers read back, and what it refuses.
#include "spdyframer.h"

#include <QTest>
#include <QtEndian>

#include <zlib.h>

using sim::SpdyFrame;
using sim::SpdyFramer;

namespace {

using Headers = QList<QPair<QByteArray, QByteArray>>;

void put32(QByteArray &b, quint32 v)
{
    uchar x[4];
    qToBigEndian(v, x);
    b.append(reinterpret_cast<const char *>(x), 4);
}

QByteArray control(quint16 type, quint8 flags, const QByteArray &payload, quint16 version = 3)
{
    QByteArray f;
    f.append(char(0x80 | (version >> 8)));
    f.append(char(version & 0xff));
    f.append(char(type >> 8));
    f.append(char(type & 0xff));
    f.append(char(flags));
    f.append(char(payload.size() >> 16));
    f.append(char((payload.size() >> 8) & 0xff));
    f.append(char(payload.size() & 0xff));
    return f + payload;
}

QByteArray dataFrame(quint32 stream, quint8 flags, const QByteArray &payload)
{
    QByteArray f;
    put32(f, stream);
    f.append(char(flags));
    f.append(char(payload.size() >> 16));
    f.append(char((payload.size() >> 8) & 0xff));
    f.append(char(payload.size() & 0xff));
    return f + payload;
}

// A client's side of the header compression: one deflate context for the connection.
class ClientDeflate
{
public:
    ClientDeflate()
    {
        deflateInit(&m_z, Z_DEFAULT_COMPRESSION);
        const QByteArray &d = SpdyFramer::dictionary();
        deflateSetDictionary(&m_z, reinterpret_cast<const Bytef *>(d.constData()), uInt(d.size()));
    }
    ~ClientDeflate() { deflateEnd(&m_z); }
    QByteArray block(const Headers &headers)
    {
        QByteArray plain;
        put32(plain, quint32(headers.size()));
        for (const auto &h : headers) {
            put32(plain, quint32(h.first.size()));
            plain += h.first;
            put32(plain, quint32(h.second.size()));
            plain += h.second;
        }
        m_z.next_in = reinterpret_cast<Bytef *>(plain.data());
        m_z.avail_in = uInt(plain.size());
        QByteArray out(plain.size() + 1024, Qt::Uninitialized);
        m_z.next_out = reinterpret_cast<Bytef *>(out.data());
        m_z.avail_out = uInt(out.size());
        deflate(&m_z, Z_SYNC_FLUSH);
        out.truncate(out.size() - m_z.avail_out);
        return out;
    }
    QByteArray synStream(quint32 stream, const Headers &headers, quint8 flags = 0)
    {
        QByteArray p;
        put32(p, stream);
        put32(p, 0);    // associated stream
        p.append('\0'); // priority
        p.append('\0'); // slot
        return control(SpdyFrame::SynStream, flags, p + block(headers));
    }

private:
    z_stream m_z{};
};

QByteArray describe(const SpdyFrame &f)
{
    QByteArrayList headers;
    for (const auto &h : f.headers)
        headers << h.first + '=' + h.second;
    return "type " + QByteArray::number(f.type) + " stream " + QByteArray::number(f.streamId) +
           " flags " + QByteArray::number(f.flags) + " value " + QByteArray::number(f.value) +
           " data [" + f.data + "] headers [" + headers.join(' ') + ']';
}

QByteArrayList parseAll(SpdyFramer &framer, QByteArray bytes, QString *error = nullptr)
{
    QByteArrayList out;
    while (true) {
        SpdyFrame f;
        QString why;
        const auto r = framer.parse(bytes, &f, &why);
        if (r == SpdyFramer::Result::NeedMore)
            break;
        if (r == SpdyFramer::Result::Error) {
            if (error)
                *error = why;
            out << "error: " + why.toUtf8();
            break;
        }
        out << describe(f);
    }
    return out;
}

} // namespace

class TestSimSpdy : public QObject
{
    Q_OBJECT

private slots:
    void dictionaryIsTheSpecifications()
    {
        // 1,423 bytes; its Adler-32 is the DICTID in every SPDY/3 header block's zlib header.
        const QByteArray &d = SpdyFramer::dictionary();
        QCOMPARE(d.size(), 1423);
        const uLong adler = adler32(adler32(0, nullptr, 0),
                                    reinterpret_cast<const Bytef *>(d.constData()), uInt(d.size()));
        QCOMPARE(adler, 0xe3c6a7c2UL);
        QVERIFY(d.startsWith(QByteArray("\0\0\0\7options\0\0\0\4head", 19)));
        QVERIFY(d.endsWith("utf-,*,enq=0."));
    }

    void execStreamsAsAClientOpensThem()
    {
        ClientDeflate client;
        QByteArray wire;
        int id = 1;
        for (const char *type : {"error", "stdin", "stdout", "stderr"}) {
            wire += client.synStream(quint32(id), {{"streamtype", type}});
            id += 2;
        }
        wire += dataFrame(3, 0, "hello\n") + dataFrame(3, SpdyFrame::FlagFin, {});
        QByteArray ping;
        put32(ping, 7);
        wire += control(SpdyFrame::Ping, 0, ping);
        SpdyFramer server;
        const QByteArrayList frames = parseAll(server, wire);
        QCOMPARE(frames, (QByteArrayList{
                             "type 1 stream 1 flags 0 value 0 data [] headers [streamtype=error]",
                             "type 1 stream 3 flags 0 value 0 data [] headers [streamtype=stdin]",
                             "type 1 stream 5 flags 0 value 0 data [] headers [streamtype=stdout]",
                             "type 1 stream 7 flags 0 value 0 data [] headers [streamtype=stderr]",
                             "type 0 stream 3 flags 0 value 0 data [hello\n] headers []",
                             "type 0 stream 3 flags 1 value 0 data [] headers []",
                             "type 6 stream 0 flags 0 value 7 data [] headers []",
                         }));
    }

    void framesArriveInPieces()
    {
        ClientDeflate client;
        const QByteArray wire = client.synStream(1, {{"streamtype", "data"}, {"port", "22"}}) +
                                dataFrame(1, 0, "payload");
        SpdyFramer server;
        QByteArray buffer;
        QByteArrayList frames;
        for (char byte : wire) { // one byte at a time, as a slow network hands them over
            buffer.append(byte);
            SpdyFrame f;
            QString error;
            const auto r = server.parse(buffer, &f, &error);
            QVERIFY2(r != SpdyFramer::Result::Error, qPrintable(error));
            if (r == SpdyFramer::Result::Frame)
                frames << describe(f);
        }
        QCOMPARE(frames,
                 (QByteArrayList{
                     "type 1 stream 1 flags 0 value 0 data [] headers [streamtype=data port=22]",
                     "type 0 stream 1 flags 0 value 0 data [payload] headers []"}));
        QVERIFY(buffer.isEmpty());
    }

    void repliesReadBackAcrossOneCompressionContext()
    {
        // The server's replies share one deflate context: the second depends on the first.
        SpdyFramer server;
        SpdyFramer reader;
        QByteArray wire = server.synReply(1, {});
        wire += server.synReply(3, {{"x-note", "two"}});
        wire +=
            SpdyFramer::data(3, "out", true) + SpdyFramer::rstStream(5, 3) + SpdyFramer::goAway(3);
        const QByteArrayList frames = parseAll(reader, wire);
        QCOMPARE(frames,
                 (QByteArrayList{"type 2 stream 1 flags 0 value 0 data [] headers []",
                                 "type 2 stream 3 flags 0 value 0 data [] headers [x-note=two]",
                                 "type 0 stream 3 flags 1 value 0 data [out] headers []",
                                 "type 3 stream 5 flags 0 value 3 data [] headers []",
                                 "type 7 stream 3 flags 0 value 0 data [] headers []"}));
    }

    void refusals_data()
    {
        QTest::addColumn<QByteArray>("wire");
        QTest::addColumn<QString>("error");
        QByteArray syn;
        put32(syn, 1);
        put32(syn, 0);
        syn += QByteArray(2, '\0');
        QTest::addRow("SPDY/2") << control(SpdyFrame::SynStream, 0, syn + "xx", 2)
                                << QStringLiteral("SPDY version 2");
        // A zlib header that names a dictionary by its Adler-32, not SPDY's.
        QTest::addRow("another dictionary")
            << control(SpdyFrame::SynStream, 0, syn + "\x78\xbbjunkjunk")
            << QStringLiteral("compressed with another dictionary");
        QTest::addRow("not zlib") << control(SpdyFrame::SynStream, 0,
                                             syn + QByteArray("\x00\x01garbage", 9))
                                  << QStringLiteral("does not inflate");
        QTest::addRow("empty block")
            << control(SpdyFrame::SynStream, 0, syn) << QStringLiteral("without its count");
        QTest::addRow("short SYN_STREAM")
            << control(SpdyFrame::SynStream, 0, "abc") << QStringLiteral("too short");
        {
            ClientDeflate client;
            QTest::addRow("upper-case name") << client.synStream(1, {{"StreamType", "error"}})
                                             << QStringLiteral("not in lower case");
        }
        {
            ClientDeflate client;
            QByteArray f = client.synStream(1, {{"streamtype", "error"}});
            QTest::addRow("stream 0")
                << f.replace(8, 4, QByteArray(4, '\0')) << QStringLiteral("stream 0 is no stream");
        }
        QByteArray huge("\x80\x03\x00\x01\x00\xff\xff\xff", 8);
        QTest::addRow("frame of 16 MiB (8 at most)") << huge << QStringLiteral("at most");
    }

    void refusals()
    {
        QFETCH(QByteArray, wire);
        QFETCH(QString, error);
        SpdyFramer server;
        QString why;
        const QByteArrayList frames = parseAll(server, wire, &why);
        QVERIFY2(why.contains(error), frames.join('\n').constData());
    }
};

QTEST_GUILESS_MAIN(TestSimSpdy)
#include "tst_simspdy.moc"
