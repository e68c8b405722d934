// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "keyedtablemodel.h"

#include <QHash>
#include <QList>

#include <utility>

namespace gpudesk {

class TelemetryStore;

// A table of one node's rows — its cards, GPU processes or pods — read from the telemetry
// store and kept by key, so that a refresh moves, changes and removes rows in place (a
// selection and the scroll position survive each sample).
template <class Row> class NodeRowsModel : public KeyedTableModel
{
public:
    NodeRowsModel(const TelemetryStore *telemetry, int columns, QObject *parent)
        : KeyedTableModel(parent), m_telemetry(telemetry), m_columns(columns)
    {}

    void setNode(const QString &node)
    {
        if (node == m_node)
            return;
        m_node = node;
        m_rows.clear();
        resetTo({});
        refresh();
    }
    QString node() const { return m_node; }

    void refresh()
    {
        QHash<QString, Row> rows;
        QStringList keys;
        for (auto &[key, row] : read()) {
            keys << key;
            rows.insert(key, std::move(row));
        }
        m_rows = std::move(rows);
        syncAll(keys);
    }

    int columnCount(const QModelIndex &parent = {}) const override
    {
        return parent.isValid() ? 0 : m_columns;
    }
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override
    {
        if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
            return {};
        return headers().value(section);
    }

protected:
    // The columns' titles, translated, in the order of the columns.
    virtual QStringList headers() const = 0;
    // The node's rows now, each with its key, in display order.
    virtual QList<std::pair<QString, Row>> read() const = 0;
    // The row an index shows; null for an invalid index.
    const Row *rowAt(const QModelIndex &index) const
    {
        if (!index.isValid())
            return nullptr;
        const auto it = m_rows.constFind(keyAt(index.row()));
        return it == m_rows.cend() ? nullptr : &*it;
    }

    const TelemetryStore *m_telemetry;

private:
    QString m_node;
    QHash<QString, Row> m_rows;
    int m_columns;
};

} // namespace gpudesk
