// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "roles.h"

#include <QAbstractTableModel>
#include <QJsonObject>
#include <QList>

namespace gpudesk {

// The audit log's records, newest first: when, who, on which context, what, and how it ended.
class AuditModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Time,
        Who,
        Context,
        Action,
        Outcome,
        ColumnCount
    };

    explicit AuditModel(QObject *parent = nullptr);
    // Records oldest first, as the log holds them.
    void setRecords(const QList<QJsonObject> &records);
    QJsonObject record(int row) const { return m_records.value(row); }
    // "3 done, 1 skipped" for an end record, "started" for a start record.
    static QString outcomeOf(const QJsonObject &record);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<QJsonObject> m_records; // newest first
};

} // namespace gpudesk
