// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "registrytypes.h"

#include <QHash>
#include <QSet>
#include <QString>

namespace gpudesk {

// What an image costs its registry: the bytes it references (config, layers and its manifests,
// once each), and of those the bytes no other image of the registry references — what deleting
// it could ever give back, after garbage collection. A registry keeps a blob once however many
// repositories link it, and removes it only when no manifest anywhere references it; so an image
// is a repository's digest ("repo@sha256:…"), all its tags together.
struct ImageSize
{
    qint64 total = 0;
    qint64 unique = 0;
    int platforms = 0;
    bool known = true; // false: a platform manifest was not read, the sizes are lower bounds
};

class ImageSizes
{
public:
    static QString key(const QString &repository, const QString &digest)
    {
        return repository + u'@' + digest;
    }
    // Over every tag given; `manifests` by digest (an index's platform manifests included).
    // `stored`, when given, receives the bytes of every distinct blob of them: what the
    // registry holds for these tags.
    static QHash<QString, ImageSize> compute(const QList<RegistryTag> &tags,
                                             const QHash<QString, RegistryManifest> &manifests,
                                             qint64 *stored = nullptr);
    // The bytes deleting these images (keys as key() makes them) gives back at garbage
    // collection: every blob that no image outside them uses.
    static qint64 freed(const QList<RegistryTag> &tags,
                        const QHash<QString, RegistryManifest> &manifests,
                        const QSet<QString> &keys);

private:
    struct Index;
    static Index index(const QList<RegistryTag> &tags,
                       const QHash<QString, RegistryManifest> &manifests);
};

} // namespace gpudesk
