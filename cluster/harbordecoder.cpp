// SPDX-License-Identifier: GPL-3.0-or-later
#include "harbordecoder.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <limits>

namespace gpudesk {

namespace {

// A byte count from JSON's double, within what qint64 holds (a cast out of range is undefined).
qint64 bytesOf(double d)
{
    if (!(d >= 0)) // negative, or NaN
        return d < 0 ? qint64(-1) : 0;
    return d >= 9.0e18 ? std::numeric_limits<qint64>::max() : qint64(d);
}

QJsonArray arrayOf(const QByteArray &json, QString *error)
{
    QJsonParseError e;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &e);
    if (doc.isNull())
        *error = QObject::tr("Harbor's answer is not JSON (%1).").arg(e.errorString());
    else if (!doc.isArray())
        *error = QObject::tr("Harbor's answer is not a list.");
    return doc.array();
}

HarborGcRun runFrom(const QJsonObject &o)
{
    HarborGcRun r;
    r.id = o.value(QLatin1String("id")).toInt();
    r.status = o.value(QLatin1String("job_status")).toString();
    // job_parameters is a JSON document inside a string.
    const QJsonObject p =
        QJsonDocument::fromJson(o.value(QLatin1String("job_parameters")).toString().toUtf8())
            .object();
    r.dryRun = p.value(QLatin1String("dry_run")).toBool();
    r.deleteUntagged = p.value(QLatin1String("delete_untagged")).toBool();
    r.created = HarborDecoder::time(o.value(QLatin1String("creation_time")).toString());
    r.updated = HarborDecoder::time(o.value(QLatin1String("update_time")).toString());
    return r;
}

} // namespace

QDateTime HarborDecoder::time(const QString &text)
{
    if (text.isEmpty() || text.startsWith(QLatin1String("0001-")))
        return {};
    return QDateTime::fromString(text, Qt::ISODateWithMs);
}

std::optional<HarborInfo> HarborDecoder::systemInfo(const QByteArray &json)
{
    const QJsonObject o = QJsonDocument::fromJson(json).object();
    const QString version = o.value(QLatin1String("harbor_version")).toString();
    if (version.isEmpty())
        return std::nullopt;
    return HarborInfo{version, o.value(QLatin1String("registry_url")).toString()};
}

QList<HarborProject> HarborDecoder::projects(const QByteArray &json, QString *error)
{
    QList<HarborProject> out;
    for (const QJsonValue &v : arrayOf(json, error)) {
        const QJsonObject o = v.toObject();
        HarborProject p;
        p.name = o.value(QLatin1String("name")).toString();
        if (p.name.isEmpty())
            continue;
        p.isPublic = o.value(QLatin1String("metadata"))
                         .toObject()
                         .value(QLatin1String("public"))
                         .toString() == QLatin1String("true");
        p.repositories = o.value(QLatin1String("repo_count")).toInt();
        out << p;
    }
    return out;
}

bool HarborDecoder::summary(const QByteArray &json, HarborProject *project)
{
    const QJsonObject quota =
        QJsonDocument::fromJson(json).object().value(QLatin1String("quota")).toObject();
    if (quota.isEmpty())
        return false;
    const auto storage = [&](const char *which) {
        return quota.value(QLatin1String(which))
            .toObject()
            .value(QLatin1String("storage"))
            .toDouble(-1);
    };
    project->quotaHard = bytesOf(storage("hard"));
    project->quotaUsed = qMax<qint64>(0, bytesOf(storage("used")));
    return true;
}

QStringList HarborDecoder::members(const QByteArray &json, QString *error, bool *groups)
{
    QStringList out;
    for (const QJsonValue &v : arrayOf(json, error)) {
        const QJsonObject o = v.toObject();
        const QString name = o.value(QLatin1String("entity_name")).toString();
        const bool group = o.value(QLatin1String("entity_type")).toString() == QLatin1String("g");
        if (group && groups)
            *groups = true;
        if (!name.isEmpty() && !group)
            out << name;
    }
    return out;
}

QStringList HarborDecoder::repositories(const QByteArray &json, QString *error)
{
    QStringList out;
    for (const QJsonValue &v : arrayOf(json, error)) {
        const QString name = v.toObject().value(QLatin1String("name")).toString();
        if (name.contains(u'/'))
            out << name;
    }
    return out;
}

QList<HarborArtifact> HarborDecoder::artifacts(const QByteArray &json, const QString &repository,
                                               QString *error)
{
    QList<HarborArtifact> out;
    for (const QJsonValue &v : arrayOf(json, error)) {
        const QJsonObject o = v.toObject();
        HarborArtifact a;
        a.repository = repository;
        a.digest = o.value(QLatin1String("digest")).toString();
        if (!a.digest.startsWith(QLatin1String("sha256:")))
            continue;
        a.size = qMax<qint64>(0, bytesOf(o.value(QLatin1String("size")).toDouble()));
        a.pushed = time(o.value(QLatin1String("push_time")).toString());
        a.pulled = time(o.value(QLatin1String("pull_time")).toString());
        for (const QJsonValue &t : o.value(QLatin1String("tags")).toArray()) {
            const QJsonObject to = t.toObject();
            HarborTag tag{to.value(QLatin1String("name")).toString(),
                          time(to.value(QLatin1String("push_time")).toString()),
                          time(to.value(QLatin1String("pull_time")).toString()),
                          to.value(QLatin1String("immutable")).toBool()};
            if (!tag.name.isEmpty())
                a.tags << tag;
        }
        for (const QJsonValue &l : o.value(QLatin1String("labels")).toArray())
            if (const QString name = l.toObject().value(QLatin1String("name")).toString();
                !name.isEmpty())
                a.labels << name;
        for (const QJsonValue &r : o.value(QLatin1String("references")).toArray()) {
            const QString child = r.toObject().value(QLatin1String("child_digest")).toString();
            if (!child.isEmpty())
                a.platformDigests << child;
        }
        out << a;
    }
    return out;
}

QList<HarborGcRun> HarborDecoder::gcRuns(const QByteArray &json, QString *error)
{
    QList<HarborGcRun> out;
    for (const QJsonValue &v : arrayOf(json, error))
        if (const HarborGcRun r = runFrom(v.toObject()); r.id > 0)
            out << r;
    return out;
}

std::optional<HarborGcRun> HarborDecoder::gcRun(const QByteArray &json)
{
    const HarborGcRun r = runFrom(QJsonDocument::fromJson(json).object());
    if (r.id <= 0)
        return std::nullopt;
    return r;
}

HarborGcResult HarborDecoder::gcLog(const QString &log)
{
    HarborGcResult r;
    static const QRegularExpression eligible(
        QStringLiteral("(\\d+) blobs and (\\d+) manifests eligible for deletion"));
    if (const auto m = eligible.match(log); m.hasMatch()) {
        r.blobs = m.captured(1).toInt();
        r.manifests = m.captured(2).toInt();
    }
    // "The GC could free up 1.23 MB space" (dry run) or "The GC job actual frees up 1.23 MB
    // space"; an exact "(N bytes)" after it where the log gives one.
    static const QRegularExpression freed(
        QStringLiteral("free(?:s)? up ([0-9.]+) ?([KMGT]?i?B)(?: space)?(?: \\((\\d+) bytes\\))?"));
    QRegularExpressionMatch last;
    for (auto it = freed.globalMatch(log); it.hasNext();)
        last = it.next();
    if (last.hasMatch()) {
        if (!last.captured(3).isEmpty()) {
            r.bytes = qMax<qint64>(-1, last.captured(3).toLongLong());
        } else {
            const QString unit = last.captured(2);
            const int power = QStringLiteral("BKMGT").indexOf(unit.at(0));
            r.bytes = bytesOf(last.captured(1).toDouble() * double(1ll << (10 * qMax(0, power))));
        }
    }
    return r;
}

QString HarborDecoder::errorMessage(const QByteArray &json, QString *code)
{
    const QJsonObject first = QJsonDocument::fromJson(json)
                                  .object()
                                  .value(QLatin1String("errors"))
                                  .toArray()
                                  .first()
                                  .toObject();
    if (code)
        *code = first.value(QLatin1String("code")).toString();
    return first.value(QLatin1String("message")).toString();
}

} // namespace gpudesk
