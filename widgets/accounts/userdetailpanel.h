// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "accountobjects.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;
class QVBoxLayout;

namespace gpudesk {

class UsersModel;
class UsersService;

// One user: their quota against use, the objects that make them up as the server has them now,
// and where those drifted from what gpudesk made, with a one-click repair.
class UserDetailPanel : public QWidget
{
    Q_OBJECT
public:
    UserDetailPanel(UsersService *users, const UsersModel *model, QWidget *parent = nullptr);
    // Shows `ns` (reading its objects from the server); "" clears.
    void show(const QString &ns);
    // Reads the shown user's objects again (after an operation on them).
    void refresh();
    // The objects as last read, and whether that read is done.
    const UserObjects &objects() const { return m_objects; }
    bool isLoaded() const { return m_loaded; }
    QTableWidget *objectTable() const { return m_table; }
    QLabel *driftLabel() const { return m_drift; }

signals:
    void repairRequested(const gpudesk::UserObjects &objects);
    // The objects of the shown user have been read.
    void loaded();

private:
    void updateQuota();
    void showObjects();

    UsersService *m_users;
    const UsersModel *m_model;
    QString m_ns;
    UserObjects m_objects;
    bool m_loaded = false;
    int m_generation = 0; // drops answers for a user no longer shown
    QLabel *m_title;
    QWidget *m_quotaBox;
    QVBoxLayout *m_quotaLayout;
    QTableWidget *m_table;
    QLabel *m_drift;
    QPushButton *m_repair;
};

} // namespace gpudesk
