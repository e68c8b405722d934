// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target for what a registry (or anything answering as one) sends gpudesk: manifests of
// every media type, image configurations, catalog and tag pages, error bodies, Link and
// WWW-Authenticate headers, token answers, Harbor's API documents and GC logs — and the image
// references pods name. Every input goes
// through each decoder; what a decoder accepts must hold together (sizes not negative, digests
// of the checked form, an index with entries and no layers).
#include "harbordecoder.h"
#include "imagereference.h"
#include "registryauth.h"
#include "registrydecoder.h"

#include <cstdint>

namespace {
void check(const gpudesk::RegistryDescriptor &d)
{
    if (d.size < 0 || !gpudesk::RegistryDecoder::isDigest(d.digest))
        __builtin_trap();
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace gpudesk;
    const QByteArray body =
        QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
    const QString digest = RegistryDecoder::sha256Digest(body);
    for (const char *type :
         {"", "application/vnd.oci.image.manifest.v1+json",
          "application/vnd.oci.image.index.v1+json",
          "application/vnd.docker.distribution.manifest.list.v2+json",
          "application/vnd.docker.distribution.manifest.v2+json; charset=utf-8"}) {
        QString error;
        const RegistryManifest m =
            RegistryDecoder::manifest(body, QString::fromLatin1(type), digest, &error);
        if (!error.isEmpty())
            continue;
        if (m.digest != digest || m.bytes != body.size())
            __builtin_trap();
        if (m.isIndex) {
            if (!m.layers.isEmpty())
                __builtin_trap();
            for (const RegistryDescriptor &e : m.entries)
                check(e);
        } else {
            check(m.config);
            for (const RegistryDescriptor &l : m.layers)
                check(l);
            if (m.imageBytes() < 0)
                __builtin_trap();
        }
    }
    QString error;
    const RegistryImageConfig c = RegistryDecoder::imageConfig(body, &error);
    if (error.isEmpty() && c.historySteps < 0)
        __builtin_trap();
    error.clear();
    RegistryDecoder::catalog(body, &error);
    error.clear();
    RegistryDecoder::tags(body, &error);
    QString code;
    RegistryDecoder::errors(body, &code);
    const QUrl base(QStringLiteral("https://registry.example:5000/v2/_catalog?n=100"));
    // Resolved against the page asked for; whether it may be followed is the client's call.
    RegistryDecoder::nextLink(body, base);
    for (const RegistryChallenge &ch : RegistryAuth::parseChallenges(body))
        if (ch.scheme.compare(QLatin1String("bearer"), Qt::CaseInsensitive) == 0)
            RegistryAuth::tokenUrl(ch, {QStringLiteral("repository:a/b:pull")});
    int expires = 0;
    RegistryAuth::tokenFromAnswer(body, &expires);
    const QString text = QString::fromUtf8(body);
    // Harbor: what it accepts holds together (sizes not negative, digests of the checked form).
    HarborDecoder::systemInfo(body);
    error.clear();
    HarborDecoder::projects(body, &error);
    HarborProject project;
    HarborDecoder::summary(body, &project);
    error.clear();
    for (const HarborArtifact &a :
         HarborDecoder::artifacts(body, QStringLiteral("alice/dev"), &error))
        if (!a.digest.startsWith(QLatin1String("sha256:")))
            __builtin_trap();
    error.clear();
    HarborDecoder::repositories(body, &error);
    error.clear();
    HarborDecoder::gcRuns(body, &error);
    HarborDecoder::gcRun(body);
    const HarborGcResult gc = HarborDecoder::gcLog(text);
    if (gc.bytes < -1 || gc.blobs < -1)
        __builtin_trap();
    HarborDecoder::errorMessage(body);
    const ImageReference ref = ImageReference::parse(text);
    if (ref.isValid() && ref.repository.isEmpty())
        __builtin_trap();
    ImageReference::fromImageId(text);
    return 0;
}
