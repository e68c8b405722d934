// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target for the framing of the streams gpudesk reads line by line: a watch (its events cut
// by LineFramer) and a followed log (LogStream), each fed the same bytes in pieces cut at places
// the input chooses — a network may cut anywhere. Whatever the cuts, the lines must be those of
// the whole stream read at once. Also the port-forward channel's port prefix.
//
// Input: a first byte N (mod 8), then N two-byte cut offsets, then the stream.
#include "channelprotocol.h"
#include "kubeclient.h"
#include "kubeconfig.h"
#include "lineframer.h"
#include "logline.h"
#include "logstream.h"

#include <QCoreApplication>

#include <algorithm>
#include <cstdint>

namespace {

QList<QByteArray> pieces(const QByteArray &stream, QList<qsizetype> cuts)
{
    std::sort(cuts.begin(), cuts.end());
    QList<QByteArray> out;
    qsizetype from = 0;
    for (const qsizetype c : cuts) {
        const qsizetype at = std::clamp<qsizetype>(c, from, stream.size());
        out.append(stream.mid(from, at - from));
        from = at;
    }
    out.append(stream.mid(from));
    return out;
}

void watchFraming(const QList<QByteArray> &parts, const QByteArray &stream)
{
    constexpr qsizetype kMax = 512;
    gpudesk::LineFramer framer(kMax);
    QList<QByteArray> lines;
    bool bounded = true;
    for (const QByteArray &p : parts)
        bounded = framer.append(p, &lines) && bounded;
    if (framer.pendingBytes() > kMax)
        __builtin_trap();
    if (!bounded)
        return; // a line over the bound was dropped: what follows no longer lines up
    const QByteArray last = framer.finish();
    if (!last.isEmpty())
        lines.append(last);
    QList<QByteArray> whole;
    for (const QByteArray &l : stream.split('\n'))
        if (!l.isEmpty())
            whole.append(l);
    if (!whole.isEmpty() && whole.last().trimmed().isEmpty() && !stream.endsWith('\n'))
        whole.removeLast(); // a blank unfinished line is not an event
    if (lines != whole)
        __builtin_trap();
}

QList<gpudesk::LogLine> logLines(const QList<QByteArray> &parts)
{
    static gpudesk::KubeClient client{gpudesk::ClusterEndpoint{}};
    gpudesk::LogStream stream(&client, QStringLiteral("ns"), QStringLiteral("pod"));
    QList<gpudesk::LogLine> out;
    QObject::connect(&stream, &gpudesk::LogStream::lines,
                     [&out](const QList<gpudesk::LogLine> &l) { out += l; });
    for (const QByteArray &p : parts)
        stream.deliver(p, false);
    stream.deliver({}, true);
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int argc = 1;
    static char name[] = "fuzz_streams";
    static char *argv[] = {name, nullptr};
    static QCoreApplication app(argc, argv);

    const QByteArray input =
        QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
    if (input.isEmpty())
        return 0;
    const int n = quint8(input.at(0)) % 8;
    if (input.size() < 1 + 2 * n)
        return 0;
    QList<qsizetype> cuts;
    for (int i = 0; i < n; ++i)
        cuts.append(quint8(input.at(1 + 2 * i)) | (quint8(input.at(2 + 2 * i)) << 8));
    const QByteArray stream = input.mid(1 + 2 * n);
    const QList<QByteArray> parts = pieces(stream, cuts);

    watchFraming(parts, stream);
    const QList<gpudesk::LogLine> cut = logLines(parts);
    const QList<gpudesk::LogLine> whole = logLines({stream});
    if (cut.size() != whole.size())
        __builtin_trap();
    for (qsizetype i = 0; i < cut.size(); ++i)
        if (cut[i].text != whole[i].text || cut[i].timestamp != whole[i].timestamp)
            __builtin_trap();
    gpudesk::channel::portPrefix(stream);
    return 0;
}
