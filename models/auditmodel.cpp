// SPDX-License-Identifier: GPL-3.0-or-later
#include "auditmodel.h"

#include "format.h"

#include <QDateTime>
#include <QJsonArray>
#include <QMap>

namespace gpudesk {

AuditModel::AuditModel(QObject *parent) : QAbstractTableModel(parent) {}

void AuditModel::setRecords(const QList<QJsonObject> &records)
{
    beginResetModel();
    m_records = records;
    std::reverse(m_records.begin(), m_records.end());
    endResetModel();
}

QString AuditModel::outcomeOf(const QJsonObject &r)
{
    if (r.value(QStringLiteral("event")).toString() == QLatin1String("done"))
        return r.value(QStringLiteral("outcome")).toString();
    if (r.value(QStringLiteral("event")).toString() == QLatin1String("started"))
        return tr("started: %n step(s)", nullptr,
                  int(r.value(QStringLiteral("plan")).toArray().size()));
    QMap<QString, int> counts;
    for (const QJsonValue &v : r.value(QStringLiteral("results")).toArray())
        ++counts[v.toObject().value(QStringLiteral("result")).toString()];
    QStringList parts;
    for (auto it = counts.cbegin(); it != counts.cend(); ++it)
        parts << QStringLiteral("%1 %2").arg(it.value()).arg(it.key());
    QString out = parts.join(QStringLiteral(", "));
    if (r.value(QStringLiteral("cancelled")).toBool())
        out = tr("cancelled: %1").arg(out);
    return out;
}

int AuditModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_records.size());
}

int AuditModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AuditModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_records.size())
        return {};
    const QJsonObject &r = m_records[index.row()];
    const QDateTime t =
        QDateTime::fromString(r.value(QStringLiteral("time")).toString(), Qt::ISODateWithMs);
    if (role == SortRole && index.column() == Time)
        return t.toMSecsSinceEpoch();
    if (role == KeyRole)
        return QString(r.value(QStringLiteral("operation")).toString() + u'|' +
                       r.value(QStringLiteral("event")).toString());
    if (role == SeverityRole) {
        for (const QJsonValue &v : r.value(QStringLiteral("results")).toArray()) {
            const QString res = v.toObject().value(QStringLiteral("result")).toString();
            if (res == QLatin1String("failed") || res == QLatin1String("refused"))
                return 2;
        }
        return 0;
    }
    if (role == Qt::ToolTipRole && index.column() == Action)
        return r.value(QStringLiteral("action")).toString();
    if (role != Qt::DisplayRole && role != SortRole)
        return {};
    switch (index.column()) {
    case Time:
        return format::when(t.toMSecsSinceEpoch());
    case Who:
        return r.value(QStringLiteral("who")).toString();
    case Context:
        return r.value(QStringLiteral("context")).toString();
    case Action:
        return r.value(QStringLiteral("title")).toString();
    case Outcome:
        return outcomeOf(r);
    default:
        return {};
    }
}

QVariant AuditModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Time:
        return tr("When");
    case Who:
        return tr("Who");
    case Context:
        return tr("Context");
    case Action:
        return tr("What");
    case Outcome:
        return tr("Outcome");
    default:
        return {};
    }
}

} // namespace gpudesk
