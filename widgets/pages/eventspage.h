// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QLabel;
class QTableView;

namespace gpudesk {

class ClusterStore;
class EventsModel;
class TableFilter;

// Events cluster-wide, newest first, warnings first when asked, live.
class EventsPage : public QWidget
{
    Q_OBJECT
public:
    explicit EventsPage(ClusterStore *store, QWidget *parent = nullptr);
    QTableView *view() const { return m_view; }
    void setScopeNote(const QString &note);

private:
    EventsModel *m_model;
    TableFilter *m_proxy;
    QTableView *m_view;
    QLabel *m_scope;
};

} // namespace gpudesk
