// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAbstractItemModel>
#include <QTimer>

#include <memory>

namespace gpudesk {

// Calls `f` (in `receiver`'s context) after changes of `model`'s rows or data: what a page's
// headline, detail or button states that summarise a whole model follow. Coalesced: a store
// update that changes many rows (one dataChanged each) costs one call, on the next turn of the
// event loop, not one per row.
template <typename F> void onModelChanged(const QAbstractItemModel *model, QObject *receiver, F f)
{
    auto pending = std::make_shared<bool>(false);
    auto schedule = [receiver, pending, f] {
        if (*pending)
            return;
        *pending = true;
        QTimer::singleShot(0, receiver, [pending, f] {
            *pending = false;
            f();
        });
    };
    QObject::connect(model, &QAbstractItemModel::rowsInserted, receiver, schedule);
    QObject::connect(model, &QAbstractItemModel::rowsRemoved, receiver, schedule);
    QObject::connect(model, &QAbstractItemModel::modelReset, receiver, schedule);
    QObject::connect(model, &QAbstractItemModel::dataChanged, receiver, schedule);
}

} // namespace gpudesk
