// SPDX-License-Identifier: GPL-3.0-or-later
#include "imagesizes.h"

#include <algorithm>
#include <vector>

namespace gpudesk {

// Blobs by number (each digest hashed once), each image's blobs as a sorted list of numbers,
// and how many images hold each: at 100,000 tags a fraction of the time the same takes with a
// hash of strings per image.
struct ImageSizes::Index
{
    std::vector<qint64> sizeOf;
    std::vector<int> users;
    QHash<QString, std::vector<int>> blobsOf;
    QHash<QString, ImageSize> out;
};

ImageSizes::Index ImageSizes::index(const QList<RegistryTag> &tags,
                                    const QHash<QString, RegistryManifest> &manifests)
{
    Index x;
    QHash<QString, int> idOf;
    const auto id = [&](const QString &digest, qint64 size) {
        if (const auto it = idOf.constFind(digest); it != idOf.cend())
            return *it;
        const int n = int(x.sizeOf.size());
        idOf.insert(digest, n);
        x.sizeOf.push_back(size);
        x.users.push_back(0);
        return n;
    };
    std::vector<int> blobs;
    for (const RegistryTag &t : tags) {
        const QString k = key(t.repository, t.digest);
        if (x.blobsOf.contains(k))
            continue;
        ImageSize &size = x.out[k];
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
            ++x.users[size_t(b)];
        x.blobsOf.insert(k, blobs);
    }
    return x;
}

QHash<QString, ImageSize> ImageSizes::compute(const QList<RegistryTag> &tags,
                                              const QHash<QString, RegistryManifest> &manifests,
                                              qint64 *stored)
{
    Index x = index(tags, manifests);
    if (stored) {
        qint64 distinct = 0;
        for (size_t b = 0; b < x.users.size(); ++b)
            if (x.users[b] > 0)
                distinct += x.sizeOf[b];
        *stored = distinct;
    }
    for (auto it = x.blobsOf.cbegin(); it != x.blobsOf.cend(); ++it) {
        ImageSize &size = x.out[it.key()];
        for (int b : it.value()) {
            size.total += x.sizeOf[size_t(b)];
            if (x.users[size_t(b)] == 1)
                size.unique += x.sizeOf[size_t(b)];
        }
    }
    return x.out;
}

qint64 ImageSizes::freed(const QList<RegistryTag> &tags,
                         const QHash<QString, RegistryManifest> &manifests,
                         const QSet<QString> &keys)
{
    // A blob goes when every image holding it goes: shared among the selected images only, it
    // is freed though it is no one image's own.
    const Index x = index(tags, manifests);
    std::vector<int> selected(x.users.size(), 0);
    for (const QString &k : keys)
        for (int b : x.blobsOf.value(k))
            ++selected[size_t(b)];
    qint64 bytes = 0;
    for (size_t b = 0; b < selected.size(); ++b)
        if (selected[b] > 0 && selected[b] == x.users[b])
            bytes += x.sizeOf[b];
    return bytes;
}

} // namespace gpudesk
