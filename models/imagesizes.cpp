// SPDX-License-Identifier: GPL-3.0-or-later
#include "imagesizes.h"

#include <QSet>

namespace gpudesk {

QHash<QString, ImageSize> ImageSizes::compute(const QList<RegistryTag> &tags,
                                              const QHash<QString, RegistryManifest> &manifests,
                                              qint64 *stored)
{
    // Each image's blobs (digest -> size), then how many images reference each blob.
    QHash<QString, QHash<QString, qint64>> blobsOf;
    QHash<QString, ImageSize> out;
    for (const RegistryTag &t : tags) {
        const QString k = key(t.repository, t.digest);
        if (blobsOf.contains(k))
            continue;
        QHash<QString, qint64> &blobs = blobsOf[k];
        ImageSize &size = out[k];
        const auto addImage = [&](const RegistryManifest &m) {
            blobs.insert(m.digest, m.bytes);
            blobs.insert(m.config.digest, m.config.size);
            for (const RegistryDescriptor &l : m.layers)
                blobs.insert(l.digest, l.size);
            ++size.platforms;
        };
        const auto top = manifests.constFind(t.digest);
        if (top == manifests.cend()) {
            size.known = false;
            continue;
        }
        if (!top->isIndex) {
            addImage(*top);
            continue;
        }
        blobs.insert(top->digest, top->bytes);
        for (const RegistryDescriptor &e : top->entries) {
            const auto child = manifests.constFind(e.digest);
            if (child != manifests.cend()) {
                addImage(*child);
                // An attestation is stored like an image, but is not a platform.
                if (e.attestation)
                    --size.platforms;
            } else {
                // Not read (an attestation is not fetched): its descriptor still says its size.
                blobs.insert(e.digest, e.size);
                if (!e.attestation)
                    size.known = false;
            }
        }
    }
    QHash<QString, int> users;
    qint64 distinct = 0;
    for (const auto &blobs : std::as_const(blobsOf))
        for (auto it = blobs.cbegin(); it != blobs.cend(); ++it)
            if (++users[it.key()] == 1)
                distinct += it.value();
    if (stored)
        *stored = distinct;
    for (auto it = blobsOf.cbegin(); it != blobsOf.cend(); ++it) {
        ImageSize &size = out[it.key()];
        for (auto b = it->cbegin(); b != it->cend(); ++b) {
            size.total += b.value();
            if (users.value(b.key()) == 1)
                size.unique += b.value();
        }
    }
    return out;
}

} // namespace gpudesk
