// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "objectref.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;

namespace gpudesk {

class ClusterStore;
class FlatTreeView;
class WorkloadsModel;
class WorkloadsTable;

// Jobs with their pods; filter by user, VC, kind, status and text; logs, events and YAML of any
// row by double-click, context menu or keyboard.
class WorkloadsPage : public QWidget
{
    Q_OBJECT
public:
    enum Tab
    {
        LogsTab,
        EventsTab,
        YamlTab
    };

    explicit WorkloadsPage(ClusterStore *store, QWidget *parent = nullptr);
    FlatTreeView *view() const { return m_view; }
    WorkloadsTable *table() const { return m_table; }
    void setStatusClass(int statusClass);
    void setScopeNote(const QString &note);

signals:
    void openRequested(const gpudesk::ObjectRef &ref, int tab);

private:
    void refillChoices();
    void open(const QModelIndex &index, int tab);
    void showMenu(const QPoint &pos);

    ClusterStore *m_store;
    WorkloadsModel *m_model;
    WorkloadsTable *m_table;
    FlatTreeView *m_view;
    QComboBox *m_user;
    QComboBox *m_vc;
    QComboBox *m_kind;
    QComboBox *m_status;
    QLineEdit *m_text;
    QLabel *m_scope;
    QLabel *m_count;
};

} // namespace gpudesk
