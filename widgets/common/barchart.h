// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPointer>
#include <QWidget>

class QAbstractItemModel;

namespace gpudesk {

// Horizontal bars from a table model: column 0 names a bar, UsedRole is its length, TotalRole
// (when set) its capacity, drawn as the track. Repaints when the model changes.
class BarChart : public QWidget
{
    Q_OBJECT
public:
    explicit BarChart(QWidget *parent = nullptr);
    void setModel(QAbstractItemModel *model, int maxBars = 12);
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QPointer<QAbstractItemModel> m_model;
    int m_maxBars = 12;
};

} // namespace gpudesk
