// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "accountobjects.h"
#include "operationplan.h"

#include <QWidget>

class QComboBox;
class QDialog;
class QLabel;
class QPushButton;
class QTableView;

namespace gpudesk {

class ClusterStore;
class Permissions;
class TableFilter;
class UserDetailPanel;
class UsersModel;
class UsersService;

// Every user with their VC, quota against use, what they run and when they last did; a user's
// objects and drift below. New users one at a time or from a CSV file; edit quota, move to
// another VC, disable / enable, delete, hand out a kubeconfig, revoke its tokens — each through
// a plan the admin confirms.
class UsersPage : public QWidget
{
    Q_OBJECT
public:
    UsersPage(UsersService *users, ClusterStore *store, QWidget *parent = nullptr);
    void setPermissions(Permissions *permissions);
    QTableView *view() const { return m_view; }
    UsersModel *model() const { return m_model; }
    UserDetailPanel *detail() const { return m_detail; }
    // The namespace of the current row ("" none).
    QString currentNamespace() const;
    void selectUser(const QString &ns);

    // The actions, also for tests and the menu: each opens its dialog (returned, not modal, so a
    // test can fill it in) and asks for the plan when it is accepted. Those that need the user's
    // objects read them from the server first.
    QDialog *newUser();
    QDialog *importCsv(const QString &file = {});
    QDialog *editQuota();
    QDialog *moveToVc();
    QDialog *handOutKubeconfig();
    void toggleEnabled();
    void deleteUser();
    void revokeTokens();

signals:
    // A plan for the window to show, check and run (OperationDialog).
    void operationRequested(const gpudesk::OperationPlan &plan);

private:
    void updateActions();
    // The server's reason when the account may not do what `action` needs ("" when it may).
    QString denied(const QString &action) const;
    void withObjects(std::function<void(const UserObjects &)> then);

    UsersService *m_users;
    ClusterStore *m_store;
    Permissions *m_permissions = nullptr;
    UsersModel *m_model;
    TableFilter *m_proxy;
    QTableView *m_view;
    QComboBox *m_vcFilter;
    QLabel *m_headline;
    UserDetailPanel *m_detail;
    QPushButton *m_new;
    QPushButton *m_import;
    QPushButton *m_quota;
    QPushButton *m_move;
    QPushButton *m_enable;
    QPushButton *m_delete;
    QPushButton *m_kubeconfig;
    QPushButton *m_revoke;
};

} // namespace gpudesk
