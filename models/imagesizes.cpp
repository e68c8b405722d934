// SPDX-License-Identifier: GPL-3.0-or-later
#include "imagesizes.h"

#include <algorithm>
#include <vector>

namespace gpudesk {

QHash<QString, ImageSize> ImageSizes::compute(const QList<RegistryTag> &tags,
                                              const QHash<QString, RegistryManifest> &manifests,
                                              qint64 *stored)
{
    // Blobs by number (each digest hashed once), each image's blobs as a sorted list of numbers,
    // then how many images hold each: at 100,000 tags this is a fraction of the time the same
    // with a hash of strings per image takes.
    QHash<QString, int> idOf;
    std::vector<qint64> sizeOf;
    std::vector<int> users;
    const auto id = [&](const QString &digest, qint64 size) {
        if (const auto it = idOf.constFind(digest); it != idOf.cend())
            return *it;
        const int n = int(sizeOf.size());
        idOf.insert(digest, n);
        sizeOf.push_back(size);
        users.push_back(0);
        return n;
    };
    QHash<QString, ImageSize> out;
    QHash<QString, std::vector<int>> blobsOf;
    std::vector<int> blobs;
    for (const RegistryTag &t : tags) {
        const QString k = key(t.repository, t.digest);
        if (blobsOf.contains(k))
            continue;
        ImageSize &size = out[k];
        blobs.clear();
        const auto addImage = [&](const RegistryManifest &m) {
            blobs.push_back(id(m.digest, m.bytes));
            blobs.push_back(id(m.config.digest, m.config.size));
            for (const RegistryDescriptor &l : m.layers)
                blobs.push_back(id(l.digest, l.size));
            ++size.platforms;
        };
        const auto top = manifests.constFind(t.digest);
        if (top == manifests.cend()) {
            size.known = false;
        } else if (!top->isIndex) {
            addImage(*top);
        } else {
            blobs.push_back(id(top->digest, top->bytes));
            for (const RegistryDescriptor &e : top->entries) {
                const auto child = manifests.constFind(e.digest);
                if (child != manifests.cend()) {
                    addImage(*child);
                    // An attestation is stored like an image, but is not a platform.
                    if (e.attestation)
                        --size.platforms;
                } else {
                    // Not read (an attestation is not fetched): its descriptor says its size.
                    blobs.push_back(id(e.digest, e.size));
                    if (!e.attestation)
                        size.known = false;
                }
            }
        }
        std::sort(blobs.begin(), blobs.end());
        blobs.erase(std::unique(blobs.begin(), blobs.end()), blobs.end());
        for (int b : blobs)
            ++users[size_t(b)];
        blobsOf.insert(k, blobs);
    }
    if (stored) {
        qint64 distinct = 0;
        for (size_t b = 0; b < users.size(); ++b)
            if (users[b] > 0)
                distinct += sizeOf[b];
        *stored = distinct;
    }
    for (auto it = blobsOf.cbegin(); it != blobsOf.cend(); ++it) {
        ImageSize &size = out[it.key()];
        for (int b : it.value()) {
            size.total += sizeOf[size_t(b)];
            if (users[size_t(b)] == 1)
                size.unique += sizeOf[size_t(b)];
        }
    }
    return out;
}

} // namespace gpudesk
