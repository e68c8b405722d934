// SPDX-License-Identifier: GPL-3.0-or-later
#include "imagereference.h"

namespace gpudesk {

QString ImageReference::toString() const
{
    QString s = registry + u'/' + repository;
    if (!tag.isEmpty())
        s += u':' + tag;
    if (!digest.isEmpty())
        s += u'@' + digest;
    return s;
}

ImageReference ImageReference::parse(const QString &reference)
{
    ImageReference r;
    QString rest = reference.trimmed();
    if (rest.isEmpty() || rest.contains(u' '))
        return r;
    const qsizetype at = rest.indexOf(u'@');
    if (at >= 0) {
        r.digest = rest.mid(at + 1);
        rest.truncate(at);
    }
    const qsizetype slash = rest.indexOf(u'/');
    const QString first = slash >= 0 ? rest.left(slash) : QString();
    if (slash >= 0 &&
        (first.contains(u'.') || first.contains(u':') || first == QLatin1String("localhost"))) {
        r.registry = first;
        rest = rest.mid(slash + 1);
    } else {
        r.registry = QStringLiteral("docker.io");
    }
    // The tag follows the last ':' after the last '/' (a port's ':' is gone with the host).
    const qsizetype colon = rest.lastIndexOf(u':');
    if (colon > rest.lastIndexOf(u'/')) {
        r.tag = rest.mid(colon + 1);
        rest.truncate(colon);
    }
    if (r.registry == QLatin1String("docker.io") && !rest.contains(u'/'))
        rest.prepend(QLatin1String("library/"));
    r.repository = rest;
    if (r.tag.isEmpty() && r.digest.isEmpty())
        r.tag = QStringLiteral("latest");
    if (r.repository.isEmpty())
        return {};
    return r;
}

ImageReference ImageReference::fromImageId(const QString &imageId)
{
    QString id = imageId;
    for (const QLatin1String prefix :
         {QLatin1String("docker-pullable://"), QLatin1String("docker://")})
        if (id.startsWith(prefix))
            id = id.mid(prefix.size());
    if (id.startsWith(QLatin1String("sha256:"))) {
        ImageReference r;
        r.digest = id;
        return r;
    }
    ImageReference r = parse(id);
    if (r.digest.isEmpty())
        return {};
    r.tag.clear();
    return r;
}

} // namespace gpudesk
