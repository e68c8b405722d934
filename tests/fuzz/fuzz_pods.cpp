// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target for what programs inside pods answer — a dev environment's image is its user's, and
// anything may run in it: an HTTP answer read through a port-forward (whole or read so far, cut
// anywhere), `jupyter server list --json`, Jupyter's kernels and terminals, and the output of a
// node's image push (the digest it reports). The first byte picks the parser.
#include "jupyterprobe.h"
#include "jupyteruse.h"
#include "podhttp.h"
#include "saveimagestep.h"

#include <QRegularExpression>

#include <cstdint>

using namespace gpudesk;

namespace {

void httpAnswer(const QByteArray &raw)
{
    for (const bool closed : {false, true}) {
        int status = 0;
        QByteArray body;
        if (!PodHttp::parseResponse(raw, closed, &status, &body))
            continue;
        // A whole answer has an HTTP status and no more body than bytes came.
        if (status < 100 || status > 599 || body.size() > raw.size())
            __builtin_trap();
    }
    // Read as it comes: an answer whole at some length stays whole with what follows it, with
    // the same status.
    int whole = 0;
    QByteArray body;
    for (qsizetype n = 0; n <= raw.size(); n += 1 + n / 4) {
        int status = 0;
        QByteArray b;
        if (PodHttp::parseResponse(raw.left(n), false, &status, &b)) {
            if (whole == 0) {
                whole = status;
                body = b;
            } else if (status != whole || b != body) {
                __builtin_trap();
            }
        }
    }
}

void serverList(const QByteArray &out)
{
    for (const JupyterProbe::Server &s : JupyterProbe::parseServerList(out, 8888))
        if (s.port == 0 || !s.baseUrl.endsWith(u'/'))
            __builtin_trap();
}

void activity(const QByteArray &input)
{
    // Kernels and terminals, split at the first NUL.
    const qsizetype cut = input.indexOf('\0');
    const QByteArray kernels = cut < 0 ? input : input.left(cut);
    const QByteArray terminals = cut < 0 ? QByteArray("[]") : input.mid(cut + 1);
    JupyterUse use;
    if (JupyterProbe::readActivity(kernels, terminals, &use) &&
        (use.kernels < 0 || use.terminals < 0 || use.lastActivity < 0))
        __builtin_trap();
}

void pushOutput(const QByteArray &out)
{
    static const QRegularExpression digest(QStringLiteral("^sha256:[0-9a-f]{64}$"));
    const QString d = SaveImageStep::pushedDigest(out);
    if (!d.isEmpty() && !digest.match(d).hasMatch())
        __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const QByteArray input =
        QByteArray::fromRawData(reinterpret_cast<const char *>(data) + 1, qsizetype(size - 1));
    switch (data[0] % 4) {
    case 0:
        httpAnswer(input);
        break;
    case 1:
        serverList(input);
        break;
    case 2:
        activity(input);
        break;
    default:
        pushOutput(input);
        break;
    }
    return 0;
}
