// SPDX-License-Identifier: GPL-3.0-or-later
#include "storagejson.h"

#include "storagealerts.h"
#include "storagehistory.h"

#include <QDateTime>

namespace gpudesk::storagejson {

namespace {

QJsonValue time(qint64 ms)
{
    return ms > 0
               ? QJsonValue(QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs))
               : QJsonValue();
}

qint64 timeOf(const QJsonValue &v)
{
    const QDateTime t = QDateTime::fromString(v.toString(), Qt::ISODateWithMs);
    return t.isValid() ? t.toMSecsSinceEpoch() : 0;
}

QJsonValue bytesOrNull(qint64 v)
{
    return v >= 0 ? QJsonValue(double(v)) : QJsonValue();
}

qint64 number(const QJsonObject &o, const char *key, qint64 fallback = 0)
{
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isDouble() ? qint64(v.toDouble()) : fallback;
}

QJsonArray filesJson(const QList<StorageFile> &files)
{
    QJsonArray out;
    for (const StorageFile &f : files)
        out.append(QJsonObject{{QStringLiteral("path"), f.path},
                               {QStringLiteral("bytes"), double(f.bytes)},
                               {QStringLiteral("allocated"), double(f.allocated)},
                               {QStringLiteral("modified"), time(f.modified)},
                               {QStringLiteral("accessed"), time(f.accessed)}});
    return out;
}

QList<StorageFile> filesFrom(const QJsonArray &a)
{
    QList<StorageFile> out;
    for (const QJsonValue &v : a) {
        const QJsonObject o = v.toObject();
        out.append({o.value(QLatin1String("path")).toString(), number(o, "bytes"),
                    number(o, "allocated"), timeOf(o.value(QLatin1String("modified"))),
                    timeOf(o.value(QLatin1String("accessed")))});
    }
    return out;
}

QJsonArray partsJson(const QList<StoragePart> &parts)
{
    QJsonArray out;
    for (const StoragePart &p : parts)
        out.append(QJsonObject{{QStringLiteral("name"), p.name},
                               {QStringLiteral("bytes"), double(p.bytes)},
                               {QStringLiteral("lastChange"), time(p.lastChange)}});
    return out;
}

// The cache names each by its place below the folder ("checkpoints/bert"), the report by its
// path: a cache of thousands of folders keeps within what loadCache reads.
QJsonArray jobOutputsJson(const StorageFolder &f, bool forCache)
{
    QJsonArray out;
    for (const StorageJobOutput &o : f.jobOutputs)
        out.append(QJsonObject{{forCache ? QStringLiteral("under") : QStringLiteral("path"),
                                forCache ? o.path.mid(f.path.size() + 1) : o.path},
                               {QStringLiteral("job"), o.job},
                               {QStringLiteral("bytes"), double(o.bytes)},
                               {QStringLiteral("allocated"), double(o.allocated)},
                               {QStringLiteral("files"), double(o.files)},
                               {QStringLiteral("lastChange"), time(o.lastChange)},
                               {QStringLiteral("lastRead"), time(o.lastRead)}});
    return out;
}

QJsonObject folderJson(const StorageFolder &f, bool forCache)
{
    return {{QStringLiteral("path"), f.path},
            {QStringLiteral("owner"), f.owner},
            {QStringLiteral("kind"), f.kind},
            {QStringLiteral("bytes"), double(f.bytes)},
            {QStringLiteral("allocated"), double(f.allocated)},
            {QStringLiteral("files"), double(f.files)},
            {QStringLiteral("dirs"), double(f.dirs)},
            {QStringLiteral("lastChange"), time(f.lastChange)},
            {QStringLiteral("changedDay"), double(f.changedDay)},
            {QStringLiteral("changedWeek"), double(f.changedWeek)},
            {QStringLiteral("largest"), partsJson(f.largest)},
            {QStringLiteral("largestFiles"), filesJson(f.largestFiles)},
            {QStringLiteral("coreDumps"), filesJson(f.coreDumps)},
            {QStringLiteral("staleFiles"), filesJson(f.staleFiles)},
            {QStringLiteral("jobOutputs"), jobOutputsJson(f, forCache)}};
}

} // namespace

QJsonObject toJson(const StorageRootMeasure &m)
{
    QJsonArray folders;
    for (const StorageFolder &f : m.folders)
        folders.append(folderJson(f, true));
    QJsonObject o = reportRoots({m}).at(0).toObject();
    o.insert(QStringLiteral("folders"), folders);
    // The problems as data, worded when shown (in the language of the window that shows them).
    QJsonArray problems;
    for (const StorageProblem &p : m.problems)
        problems.append(QJsonObject{{QStringLiteral("kind"), int(p.kind)},
                                    {QStringLiteral("path"), p.path},
                                    {QStringLiteral("text"), p.text},
                                    {QStringLiteral("count"), double(p.count)}});
    o.insert(QStringLiteral("problemsData"), problems);
    return o;
}

bool fromJson(const QJsonObject &o, StorageRootMeasure *out)
{
    StorageRootMeasure m;
    m.root = o.value(QLatin1String("path")).toString();
    m.kind = o.value(QLatin1String("kind")).toString();
    if (m.root.isEmpty() || m.kind.isEmpty())
        return false;
    m.node = o.value(QLatin1String("node")).toString();
    m.measuredAt = timeOf(o.value(QLatin1String("measuredAt")));
    m.elapsedMs = number(o, "elapsedMs");
    m.entries = number(o, "entries");
    m.filesystem = o.value(QLatin1String("filesystem")).toString();
    m.capacityBytes = number(o, "capacityBytes", -1);
    m.usedBytes = number(o, "usedBytes", -1);
    m.freeBytes = number(o, "freeBytes", -1);
    m.complete = o.value(QLatin1String("complete")).toBool();
    m.error = o.value(QLatin1String("error")).toString();
    for (const QJsonValue &v : o.value(QLatin1String("problemsData")).toArray()) {
        const QJsonObject p = v.toObject();
        const int kind = p.value(QLatin1String("kind")).toInt(StorageProblem::Complaint);
        m.problems.append({StorageProblem::Kind(qBound(0, kind, int(StorageProblem::More))),
                           p.value(QLatin1String("path")).toString(),
                           p.value(QLatin1String("text")).toString(), number(p, "count")});
    }
    for (const QJsonValue &v : o.value(QLatin1String("folders")).toArray()) {
        const QJsonObject j = v.toObject();
        StorageFolder f;
        f.path = j.value(QLatin1String("path")).toString();
        f.owner = j.value(QLatin1String("owner")).toString();
        f.kind = j.value(QLatin1String("kind")).toString();
        f.bytes = number(j, "bytes");
        f.allocated = number(j, "allocated");
        f.files = number(j, "files");
        f.dirs = number(j, "dirs");
        f.lastChange = timeOf(j.value(QLatin1String("lastChange")));
        f.changedDay = number(j, "changedDay");
        f.changedWeek = number(j, "changedWeek");
        for (const QJsonValue &p : j.value(QLatin1String("largest")).toArray()) {
            const QJsonObject po = p.toObject();
            f.largest.append({po.value(QLatin1String("name")).toString(), number(po, "bytes"),
                              timeOf(po.value(QLatin1String("lastChange")))});
        }
        f.largestFiles = filesFrom(j.value(QLatin1String("largestFiles")).toArray());
        f.coreDumps = filesFrom(j.value(QLatin1String("coreDumps")).toArray());
        f.staleFiles = filesFrom(j.value(QLatin1String("staleFiles")).toArray());
        for (const QJsonValue &p : j.value(QLatin1String("jobOutputs")).toArray()) {
            const QJsonObject po = p.toObject();
            const QString under = po.value(QLatin1String("under")).toString();
            f.jobOutputs.append({under.isEmpty() ? po.value(QLatin1String("path")).toString()
                                                 : f.path + u'/' + under,
                                 po.value(QLatin1String("job")).toString(), number(po, "bytes"),
                                 number(po, "allocated"), number(po, "files"),
                                 timeOf(po.value(QLatin1String("lastChange"))),
                                 timeOf(po.value(QLatin1String("lastRead")))});
        }
        if (!f.path.isEmpty())
            m.folders.append(f);
    }
    *out = m;
    return true;
}

QJsonArray reportFolders(const QList<StorageRootMeasure> &measures, const StorageHistory &history)
{
    QJsonArray out;
    for (const StorageRootMeasure &m : measures) {
        for (const StorageFolder &f : m.folders) {
            QJsonObject o = folderJson(f, false);
            o.insert(QStringLiteral("measuredAt"), time(m.measuredAt));
            o.insert(QStringLiteral("node"), m.node);
            const auto day = history.growth(f.path, f.bytes, m.measuredAt, StorageHistory::DayMs);
            const auto week =
                history.growth(f.path, f.bytes, m.measuredAt, 7 * StorageHistory::DayMs);
            o.insert(QStringLiteral("growth"),
                     QJsonObject{
                         {QStringLiteral("day"), day ? QJsonValue(double(*day)) : QJsonValue()},
                         {QStringLiteral("week"), week ? QJsonValue(double(*week)) : QJsonValue()},
                         {QStringLiteral("changedDay"), double(f.changedDay)},
                         {QStringLiteral("changedWeek"), double(f.changedWeek)}});
            out.append(o);
        }
    }
    return out;
}

QJsonArray reportRoots(const QList<StorageRootMeasure> &measures)
{
    QJsonArray out;
    for (const StorageRootMeasure &m : measures) {
        QJsonArray problems;
        for (const QString &p : StorageAlerts::describe(m))
            problems.append(p);
        out.append(QJsonObject{{QStringLiteral("path"), m.root},
                               {QStringLiteral("kind"), m.kind},
                               {QStringLiteral("node"), m.node},
                               {QStringLiteral("measuredAt"), time(m.measuredAt)},
                               {QStringLiteral("elapsedMs"), double(m.elapsedMs)},
                               {QStringLiteral("entries"), double(m.entries)},
                               {QStringLiteral("filesystem"), m.filesystem},
                               {QStringLiteral("capacityBytes"), bytesOrNull(m.capacityBytes)},
                               {QStringLiteral("usedBytes"), bytesOrNull(m.usedBytes)},
                               {QStringLiteral("freeBytes"), bytesOrNull(m.freeBytes)},
                               {QStringLiteral("percentUsed"),
                                m.percentUsed() >= 0 ? QJsonValue(m.percentUsed()) : QJsonValue()},
                               {QStringLiteral("complete"), m.complete},
                               {QStringLiteral("problems"), problems},
                               {QStringLiteral("error"), m.error}});
    }
    return out;
}

} // namespace gpudesk::storagejson
