// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target for gpudesk's decoding of what a Kubernetes API server (or anything pretending to
// be one) sends: list pages and watch events of every kind gpudesk lists, Status bodies,
// discovery documents, /version, the account APIs' objects and answers, and an exec's Status.
// libFuzzer with -DGPUDESK_FUZZ=ON; otherwise replaymain.cpp replays the corpus.
#include "accountdecoder.h"
#include "channelprotocol.h"
#include "clusterprobe.h"
#include "clustersummary.h"
#include "decoder.h"
#include "discovery.h"
#include "kubeclient.h"

#include <cstdint>

namespace {

void decodeAccounts(const QByteArray &body)
{
    using gpudesk::AccountDecoder;
    QString error;
    AccountDecoder::namespaceObject(body);
    AccountDecoder::serviceAccounts(body, &error);
    AccountDecoder::roleBindings(body, &error);
    AccountDecoder::quotas(body, &error);
    AccountDecoder::limitRanges(body, &error);
    AccountDecoder::tokenSecrets(body, &error);
    AccountDecoder::pvcs(body, &error);
    AccountDecoder::serviceAccount(body);
    AccountDecoder::names(body, &error);
    AccountDecoder::tokenRequest(body);
    QByteArray ca;
    AccountDecoder::secretToken(body, &ca);
    const auto review = AccountDecoder::accessReview(body);
    if (review.allowed && review.denied)
        __builtin_trap();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace gpudesk;
    const QByteArray body =
        QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
    const auto nodes = Decoder::nodes(body);
    const auto pods = Decoder::pods(body);
    // Every kind gpudesk lists, through the same dispatch the informers use: as a list page, and
    // the input's lines as a watch stream.
    const QList<QByteArray> lines = body.split('\n');
    for (const Resource r : kAllResources) {
        Delta d;
        d.resource = r;
        Decoder::list(r, body, &d);
        Delta w;
        w.resource = r;
        const WatchProgress p = Decoder::watchEvents(r, lines, &w);
        if (p.skipped < 0 || p.skipped > lines.size())
            __builtin_trap();
    }
    for (const auto &n : nodes.items) {
        if (n.gpuAllocatable < 0 || n.name.isEmpty())
            __builtin_trap();
    }
    for (const auto &p : pods.items) {
        if (p.gpuRequest < 0)
            __builtin_trap();
    }
    const ApiStatus status = parseStatus(body);
    if (statusMessage(body) != status.message)
        __builtin_trap();
    QString error;
    ApiDiscovery::parseGroups(body, &error);
    ApiDiscovery::parseResources(body, &error);
    ClusterProbe::decodeVersion(body);
    ClusterSummary summary;
    QString continueToken;
    ClusterProbe::addNodes(body, &summary, &continueToken, &error);
    channel::parseExecStatus(body);
    decodeAccounts(body);
    return 0;
}
