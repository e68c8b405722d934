// SPDX-License-Identifier: GPL-3.0-or-later
#include "registrydecoder.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace gpudesk {

namespace {

const QString kDockerManifest =
    QStringLiteral("application/vnd.docker.distribution.manifest.v2+json");
const QString kDockerList =
    QStringLiteral("application/vnd.docker.distribution.manifest.list.v2+json");
const QString kOciManifest = QStringLiteral("application/vnd.oci.image.manifest.v1+json");
const QString kOciIndex = QStringLiteral("application/vnd.oci.image.index.v1+json");
const QString kSchema1 = QStringLiteral("application/vnd.docker.distribution.manifest.v1");

QJsonObject object(const QByteArray &body, const QString &what, QString *error)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        *error =
            RegistryDecoder::tr("The registry sent a %1 that is not a JSON object: %2")
                .arg(what, pe.error != QJsonParseError::NoError ? pe.errorString()
                                                                : RegistryDecoder::tr("no object"));
        return {};
    }
    return doc.object();
}

constexpr qint64 kMaxBlobBytes = qint64(1) << 50;

// A descriptor's fields, checked: a digest of the right form, a size that is a whole number.
bool descriptor(const QJsonObject &o, RegistryDescriptor *d, QString *error)
{
    d->mediaType = o.value(QLatin1String("mediaType")).toString();
    d->digest = o.value(QLatin1String("digest")).toString();
    const QJsonValue size = o.value(QLatin1String("size"));
    if (!RegistryDecoder::isDigest(d->digest)) {
        *error =
            RegistryDecoder::tr("a descriptor has no valid digest (%1)").arg(d->digest.left(80));
        return false;
    }
    // Past a pebibyte no blob is real, and sums of such sizes would overflow (issue 33: two
    // layers of 9e18 bytes made an image of -446744073709551616).
    if (!size.isDouble() || size.toDouble() < 0 || size.toDouble() > double(kMaxBlobBytes) ||
        size.toDouble() != double(qint64(size.toDouble()))) {
        *error = RegistryDecoder::tr("the descriptor of %1 has no valid size").arg(d->digest);
        return false;
    }
    d->size = qint64(size.toDouble());
    const QJsonObject platform = o.value(QLatin1String("platform")).toObject();
    d->os = platform.value(QLatin1String("os")).toString();
    d->architecture = platform.value(QLatin1String("architecture")).toString();
    d->variant = platform.value(QLatin1String("variant")).toString();
    d->attestation =
        o.value(QLatin1String("annotations"))
                .toObject()
                .value(QLatin1String("vnd.docker.reference.type"))
                .toString() == QLatin1String("attestation-manifest") ||
        (d->os == QLatin1String("unknown") && d->architecture == QLatin1String("unknown"));
    return true;
}

QStringList names(const QByteArray &body, const char *field, const QString &what, QString *error)
{
    const QJsonObject o = object(body, what, error);
    if (!error->isEmpty())
        return {};
    const QJsonValue v = o.value(QLatin1String(field));
    if (v.isNull() || v.isUndefined())
        return {}; // a repository whose last tag went answers "tags": null
    if (!v.isArray()) {
        *error = RegistryDecoder::tr("The registry's %1 has no list of %2.")
                     .arg(what, QLatin1String(field));
        return {};
    }
    QStringList out;
    for (const QJsonValue &n : v.toArray())
        if (n.isString() && !n.toString().isEmpty())
            out << n.toString();
    return out;
}

} // namespace

QByteArray RegistryDecoder::manifestAccept()
{
    // Without an index type in Accept a registry resolves a multi-platform tag to one platform
    // (or, for OCI indexes, answers 404); without the OCI types it may not serve OCI images.
    return (QStringList{kOciIndex, kDockerList, kOciManifest, kDockerManifest}.join(u", "))
        .toLatin1();
}

bool RegistryDecoder::isIndexType(const QString &mediaType)
{
    return mediaType == kOciIndex || mediaType == kDockerList;
}

QString RegistryDecoder::sha256Digest(const QByteArray &bytes)
{
    return QStringLiteral("sha256:") +
           QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
}

bool RegistryDecoder::isDigest(const QString &digest)
{
    static const QRegularExpression re(
        QStringLiteral("^(sha256:[a-f0-9]{64}|sha512:[a-f0-9]{128})$"));
    return re.match(digest).hasMatch();
}

RegistryManifest RegistryDecoder::manifest(const QByteArray &body, const QString &contentType,
                                           const QString &digest, QString *error)
{
    RegistryManifest m;
    m.digest = digest;
    m.bytes = body.size();
    const QString type = contentType.section(u';', 0, 0).trimmed();
    if (type.startsWith(kSchema1)) {
        *error = tr("%1 is a Docker schema 1 manifest, which registries stopped serving in 2019 "
                    "and gpudesk does not read; push the image again with a current tool.")
                     .arg(digest);
        return m;
    }
    const QJsonObject o = object(body, tr("manifest"), error);
    if (!error->isEmpty())
        return m;
    if (o.value(QLatin1String("schemaVersion")).toInt() != 2) {
        *error = tr("%1 has schemaVersion %2; gpudesk reads version 2 (Docker schema 2 and OCI).")
                     .arg(digest)
                     .arg(o.value(QLatin1String("schemaVersion")).toVariant().toString());
        return m;
    }
    // The header says what was served; an OCI manifest's own mediaType is optional, and a
    // registry may answer a generic type: then the document's shape decides.
    m.mediaType = o.value(QLatin1String("mediaType")).toString();
    if (type == kOciIndex || type == kDockerList || type == kOciManifest || type == kDockerManifest)
        m.mediaType = type;
    if (m.mediaType.isEmpty())
        m.mediaType = o.contains(QLatin1String("manifests")) ? kOciIndex : kOciManifest;
    m.isIndex = isIndexType(m.mediaType);
    if (m.isIndex) {
        const QJsonValue entries = o.value(QLatin1String("manifests"));
        if (!entries.isArray()) {
            *error = tr("The index %1 has no list of manifests.").arg(digest);
            return m;
        }
        for (const QJsonValue &e : entries.toArray()) {
            RegistryDescriptor d;
            QString why;
            if (!descriptor(e.toObject(), &d, &why)) {
                *error = tr("The index %1 is malformed: %2").arg(digest, why);
                return m;
            }
            m.entries << d;
        }
        return m;
    }
    QString why;
    if (!descriptor(o.value(QLatin1String("config")).toObject(), &m.config, &why)) {
        *error = tr("The manifest %1 has no usable config: %2").arg(digest, why);
        return m;
    }
    const QJsonValue layers = o.value(QLatin1String("layers"));
    if (!layers.isArray()) {
        *error = tr("The manifest %1 has no list of layers.").arg(digest);
        return m;
    }
    for (const QJsonValue &l : layers.toArray()) {
        RegistryDescriptor d;
        if (!descriptor(l.toObject(), &d, &why)) {
            *error = tr("The manifest %1 is malformed: %2").arg(digest, why);
            return m;
        }
        m.layers << d;
    }
    return m;
}

RegistryImageConfig RegistryDecoder::imageConfig(const QByteArray &body, QString *error)
{
    RegistryImageConfig c;
    const QJsonObject o = object(body, tr("image configuration"), error);
    if (!error->isEmpty())
        return c;
    c.created =
        QDateTime::fromString(o.value(QLatin1String("created")).toString(), Qt::ISODateWithMs);
    c.os = o.value(QLatin1String("os")).toString();
    c.architecture = o.value(QLatin1String("architecture")).toString();
    c.variant = o.value(QLatin1String("variant")).toString();
    c.author = o.value(QLatin1String("author")).toString();
    const QJsonObject labels =
        o.value(QLatin1String("config")).toObject().value(QLatin1String("Labels")).toObject();
    for (auto it = labels.begin(); it != labels.end(); ++it)
        c.labels.insert(it.key(), it.value().toString());
    c.historySteps = int(o.value(QLatin1String("history")).toArray().size());
    return c;
}

QStringList RegistryDecoder::catalog(const QByteArray &body, QString *error)
{
    return names(body, "repositories", tr("catalog"), error);
}

QStringList RegistryDecoder::tags(const QByteArray &body, QString *error)
{
    return names(body, "tags", tr("tag list"), error);
}

QUrl RegistryDecoder::nextLink(const QByteArray &linkHeader, const QUrl &base)
{
    // RFC 8288: one or more `<uri>; param=value` separated by commas; rel may be quoted.
    static const QRegularExpression re(
        QStringLiteral(R"re(<([^>]*)>\s*((?:;\s*[A-Za-z-]+\s*=\s*(?:"[^"]*"|[^;,]*)\s*)*))re"));
    static const QRegularExpression rel(QStringLiteral(R"re(;\s*rel\s*=\s*"?([^";,]*)"?)re"));
    auto it = re.globalMatch(QString::fromLatin1(linkHeader));
    while (it.hasNext()) {
        const auto m = it.next();
        const auto r = rel.match(m.captured(2));
        if (r.hasMatch() && r.captured(1).split(u' ').contains(QLatin1String("next")))
            return base.resolved(QUrl(m.captured(1)));
    }
    return {};
}

QString RegistryDecoder::errors(const QByteArray &body, QString *firstCode)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(body, &pe);
    const QJsonArray list = doc.object().value(QLatin1String("errors")).toArray();
    QStringList out;
    for (const QJsonValue &e : list) {
        const QJsonObject o = e.toObject();
        const QString code = o.value(QLatin1String("code")).toString();
        if (firstCode && firstCode->isEmpty())
            *firstCode = code;
        QString text = o.value(QLatin1String("message")).toString();
        if (text.isEmpty())
            text = code;
        // Detail is free-form JSON; a short string is worth showing, an object is not.
        const QJsonValue detail = o.value(QLatin1String("detail"));
        if (detail.isString() && !detail.toString().isEmpty() && detail.toString().size() < 200)
            text += QStringLiteral(" (%1)").arg(detail.toString());
        out << text;
    }
    return out.join(QLatin1String("; "));
}

} // namespace gpudesk
