// SPDX-License-Identifier: GPL-3.0-or-later
#include "barchart.h"

#include "palette.h"
#include "roles.h"

#include <QAbstractItemModel>
#include <QPainter>

namespace gpudesk {

BarChart::BarChart(QWidget *parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void BarChart::setModel(QAbstractItemModel *model, int maxBars)
{
    m_model = model;
    m_maxBars = maxBars;
    for (auto signal : {&QAbstractItemModel::rowsInserted, &QAbstractItemModel::rowsRemoved})
        connect(model, signal, this, [this] {
            updateGeometry();
            update();
        });
    connect(model, &QAbstractItemModel::dataChanged, this, qOverload<>(&QWidget::update));
    connect(model, &QAbstractItemModel::modelReset, this, [this] {
        updateGeometry();
        update();
    });
    connect(model, &QAbstractItemModel::layoutChanged, this, qOverload<>(&QWidget::update));
    updateGeometry();
}

QSize BarChart::sizeHint() const
{
    const int rows = m_model ? std::min(m_model->rowCount(), m_maxBars) : 0;
    return {320, std::max(1, rows) * (fontMetrics().height() + 10) + 8};
}

void BarChart::paintEvent(QPaintEvent *)
{
    if (!m_model)
        return;
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const int rows = std::min(m_model->rowCount(), m_maxBars);
    const int lineHeight = fontMetrics().height() + 10;
    int labelWidth = 0;
    double scale = 1;
    for (int r = 0; r < rows; ++r) {
        const QModelIndex i = m_model->index(r, 0);
        labelWidth = std::max(labelWidth, fontMetrics().horizontalAdvance(i.data().toString()));
        scale = std::max({scale, i.data(UsedRole).toDouble(), i.data(TotalRole).toDouble()});
    }
    labelWidth += 12;
    const int valueWidth = fontMetrics().horizontalAdvance(QStringLiteral("0000 / 0000")) + 12;
    const int barWidth = std::max(40, width() - labelWidth - valueWidth);
    for (int r = 0; r < rows; ++r) {
        const QModelIndex i = m_model->index(r, 0);
        const int y = 4 + r * lineHeight;
        const double used = i.data(UsedRole).toDouble();
        const QVariant total = i.data(TotalRole);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(0, y, labelWidth - 8, lineHeight - 4), Qt::AlignRight | Qt::AlignVCenter,
                   i.data().toString());
        const QRect bar(labelWidth, y + 4, barWidth, lineHeight - 12);
        p.setPen(Qt::NoPen);
        if (total.isValid()) {
            QRect track = bar;
            track.setWidth(int(bar.width() * total.toDouble() / scale));
            p.setBrush(colors::track(palette()));
            p.drawRoundedRect(track, 3, 3);
        }
        QRect fill = bar;
        fill.setWidth(std::max(used > 0 ? 2 : 0, int(bar.width() * used / scale)));
        const bool full = total.isValid() && used >= total.toDouble() && total.toDouble() > 0;
        p.setBrush(full ? colors::full() : colors::allocated());
        p.drawRoundedRect(fill, 3, 3);
        p.setPen(palette().color(QPalette::WindowText));
        const QString value = total.isValid()
                                  ? QStringLiteral("%1 / %2").arg(used).arg(total.toDouble())
                                  : QString::number(used);
        p.drawText(QRect(labelWidth + barWidth + 8, y, valueWidth, lineHeight - 4),
                   Qt::AlignLeft | Qt::AlignVCenter, value);
    }
}

} // namespace gpudesk
