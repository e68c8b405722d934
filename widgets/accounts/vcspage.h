// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "operationplan.h"

#include <QWidget>

class QDialog;
class QLabel;
class QPushButton;
class QTableView;

namespace gpudesk {

class ClusterStore;
class Permissions;
class QueuesModel;
class TableFilter;
class UsersService;

// Virtual clusters (Volcano queues): weight, state, capability / deserved / guarantee, what they
// hold and what waits in them, the users bound to them and their jobs. Create and edit (checked
// before anything reaches the API), open and close, delete what may be deleted, merge.
class VcsPage : public QWidget
{
    Q_OBJECT
public:
    VcsPage(UsersService *users, ClusterStore *store, QWidget *parent = nullptr);
    void setPermissions(Permissions *permissions);
    // Whether the cluster serves Volcano's queues at all.
    void setVolcano(bool volcano);
    QTableView *view() const { return m_view; }
    QueuesModel *model() const { return m_model; }
    QLabel *detail() const { return m_detail; }
    QString currentVc() const;
    void selectVc(const QString &name);

    QDialog *newVc();
    QDialog *editVc();
    QDialog *mergeVc();
    void toggleOpen();
    void deleteVc();

signals:
    void operationRequested(const gpudesk::OperationPlan &plan);

private:
    void updateActions();
    void showDetail();
    QString denied(const char *verb, const char *group, const char *resource) const;

    UsersService *m_users;
    ClusterStore *m_store;
    Permissions *m_permissions = nullptr;
    QueuesModel *m_model;
    TableFilter *m_proxy;
    QTableView *m_view;
    QLabel *m_headline;
    QLabel *m_noVolcano;
    QLabel *m_detail;
    QPushButton *m_new;
    QPushButton *m_edit;
    QPushButton *m_open;
    QPushButton *m_merge;
    QPushButton *m_delete;
};

} // namespace gpudesk
