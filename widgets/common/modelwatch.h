// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAbstractItemModel>

namespace gpudesk {

// Calls `f` (in `receiver`'s context) after any change of `model`'s rows or data: what a page's
// headline or button states that summarise a whole model follow.
template <typename F>
void onModelChanged(const QAbstractItemModel *model, const QObject *receiver, F f)
{
    QObject::connect(model, &QAbstractItemModel::rowsInserted, receiver, f);
    QObject::connect(model, &QAbstractItemModel::rowsRemoved, receiver, f);
    QObject::connect(model, &QAbstractItemModel::modelReset, receiver, f);
    QObject::connect(model, &QAbstractItemModel::dataChanged, receiver, f);
}

} // namespace gpudesk
