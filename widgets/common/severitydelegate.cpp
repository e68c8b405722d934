// SPDX-License-Identifier: GPL-3.0-or-later
#include "severitydelegate.h"

#include "palette.h"
#include "roles.h"

namespace gpudesk {

void SeverityDelegate::initStyleOption(QStyleOptionViewItem *option, const QModelIndex &index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    switch (index.data(SeverityRole).toInt()) {
    case 2:
        option->palette.setColor(QPalette::Text, colors::error());
        break;
    case 1:
        option->palette.setColor(QPalette::Text, colors::warning());
        break;
    default:
        break;
    }
}

} // namespace gpudesk
