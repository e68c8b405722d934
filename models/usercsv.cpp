// SPDX-License-Identifier: GPL-3.0-or-later
#include "usercsv.h"

#include "clusterstore.h"

#include <QBuffer>
#include <QHash>

namespace gpudesk {

bool UserCsv::splitLine(const QString &line, QStringList *fields)
{
    fields->clear();
    QString cell;
    bool quoted = false;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line.at(i);
        if (quoted) {
            if (c == u'"' && i + 1 < line.size() && line.at(i + 1) == u'"') {
                cell += u'"';
                ++i;
            } else if (c == u'"') {
                quoted = false;
            } else {
                cell += c;
            }
        } else if (c == u'"') {
            quoted = true;
        } else if (c == u',') {
            fields->append(cell.trimmed());
            cell.clear();
        } else {
            cell += c;
        }
    }
    fields->append(cell.trimmed());
    return !quoted;
}

UserCsv::Result UserCsv::parse(const QByteArray &data, const UserSpec &defaults)
{
    QBuffer buffer;
    buffer.setData(data);
    buffer.open(QIODevice::ReadOnly);
    return parse(&buffer, defaults);
}

UserCsv::Result UserCsv::parse(QIODevice *in, const UserSpec &defaults)
{
    Result result;
    QHash<QString, int> column;
    int lineNo = 0;
    while (!in->atEnd()) {
        ++lineNo;
        QByteArray raw = in->readLine(MaxLineBytes + 1);
        // Cut short of its newline with more to come: longer than the bound.
        if (!raw.endsWith('\n') && !in->atEnd()) {
            result.rows.clear();
            result.error = tr("Line %1 is longer than %2 KiB: not a list of users.")
                               .arg(lineNo)
                               .arg(MaxLineBytes / 1024);
            return result;
        }
        if (lineNo == 1 && raw.startsWith("\xef\xbb\xbf")) // the byte order mark spreadsheets write
            raw.remove(0, 3);
        if (raw.endsWith('\n'))
            raw.chop(1);
        QString line = QString::fromUtf8(raw);
        if (line.endsWith(u'\r'))
            line.chop(1);
        if (line.trimmed().isEmpty() || line.trimmed().startsWith(u'#'))
            continue;
        QStringList fields;
        const bool closed = splitLine(line, &fields);
        if (column.isEmpty()) {
            for (int i = 0; i < fields.size(); ++i)
                column.insert(fields[i].toLower(), i);
            if (!column.contains(QStringLiteral("name"))) {
                result.error = tr("Line %1 must be a header naming the columns, with at least "
                                  "\"name\" (and vc, gpus, cpu, memory, pods, storage, role, "
                                  "view-role as needed).")
                                   .arg(lineNo);
                return result;
            }
            const QStringList known{
                QStringLiteral("name"),    QStringLiteral("vc"),     QStringLiteral("gpus"),
                QStringLiteral("cpu"),     QStringLiteral("memory"), QStringLiteral("pods"),
                QStringLiteral("storage"), QStringLiteral("role"),   QStringLiteral("view-role")};
            for (auto it = column.cbegin(); it != column.cend(); ++it)
                if (!known.contains(it.key())) {
                    result.error = tr("Line %1: unknown column \"%2\" (known: %3).")
                                       .arg(lineNo)
                                       .arg(it.key(), known.join(QStringLiteral(", ")));
                    return result;
                }
            continue;
        }
        if (result.rows.size() >= MaxRows) {
            result.rows.clear();
            result.error = tr("More than %1 users in one file (line %2): gpudesk imports at most "
                              "%1 at a time, each shown to be checked — split the file.")
                               .arg(MaxRows)
                               .arg(lineNo);
            return result;
        }
        Row row;
        row.line = lineNo;
        row.spec = defaults;
        row.spec.line = lineNo;
        if (!closed)
            row.errors << tr("line %1: a quote is not closed").arg(lineNo);
        auto cell = [&](const char *name) {
            const int i = column.value(QLatin1String(name), -1);
            return i >= 0 ? fields.value(i) : QString();
        };
        row.spec.name = cell("name");
        if (const QString e = UserRules::nameError(row.spec.name); !e.isEmpty())
            row.errors << tr("line %1: %2").arg(lineNo).arg(e);
        if (!cell("vc").isEmpty())
            row.spec.vc = cell("vc");
        if (!cell("role").isEmpty())
            row.spec.clusterRole = cell("role");
        if (column.contains(QStringLiteral("view-role")))
            row.spec.viewRole = cell("view-role");
        const std::pair<const char *, const char *> quotas[] = {{"gpus", "requests.nvidia.com/gpu"},
                                                                {"cpu", "requests.cpu"},
                                                                {"memory", "requests.memory"},
                                                                {"pods", "pods"},
                                                                {"storage", "requests.storage"}};
        for (const auto &[name, resource] : quotas) {
            const QString value = cell(name);
            if (value.isEmpty())
                continue;
            const auto milli = quantity::parseMilli(value);
            if (!milli)
                row.errors << tr("line %1: %2 \"%3\" is not a quantity (e.g. 8, 500m, 960Gi)")
                                  .arg(lineNo)
                                  .arg(QLatin1String(name), value);
            else
                row.spec.quota.insert(QLatin1String(resource), *milli);
        }
        if (fields.size() > column.size())
            row.errors << tr("line %1: %2 fields, the header names %3")
                              .arg(lineNo)
                              .arg(fields.size())
                              .arg(column.size());
        result.rows.append(row);
    }
    if (column.isEmpty())
        result.error = tr("The file has no header line and no users.");
    return result;
}

void UserCsv::check(Result *result, const ClusterStore &store)
{
    QHash<QString, int> first;
    for (Row &row : result->rows) {
        if (!row.errors.isEmpty())
            continue;
        if (const int at = first.value(row.spec.name); at > 0) {
            row.errors << tr("line %1: %2 comes twice in the file (first on line %3)")
                              .arg(row.line)
                              .arg(row.spec.name)
                              .arg(at);
            continue;
        }
        first.insert(row.spec.name, row.line);
        for (const QString &e : UserRules::errors(row.spec, store))
            row.errors << tr("line %1: %2").arg(row.line).arg(e);
    }
}

} // namespace gpudesk
