// SPDX-License-Identifier: GPL-3.0-or-later
#include "bardelegate.h"

#include "palette.h"
#include "roles.h"

#include <QPainter>

namespace gpudesk {

void BarDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                        const QModelIndex &index) const
{
    // Doubles: a quota of memory in bytes is far beyond an int.
    const double total = index.data(TotalRole).toDouble();
    if (total <= 0) {
        QStyledItemDelegate::paint(painter, option, index);
        return;
    }
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    const QString text = opt.text;
    opt.text.clear();
    QStyle *style = opt.widget ? opt.widget->style() : nullptr;
    if (style)
        style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);
    const double used = std::clamp(index.data(UsedRole).toDouble() / total, 0.0, 1.0);
    const QRect track = option.rect.adjusted(4, 5, -4, -5);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setPen(Qt::NoPen);
    painter->setBrush(colors::track(option.palette));
    painter->drawRoundedRect(track, 3, 3);
    QRect fill = track;
    fill.setWidth(int(track.width() * used));
    painter->setBrush(used >= 1.0 ? colors::full() : colors::allocated());
    painter->drawRoundedRect(fill, 3, 3);
    painter->setPen(option.palette.color(QPalette::Text));
    painter->drawText(track, Qt::AlignCenter, text);
    painter->restore();
}

} // namespace gpudesk
