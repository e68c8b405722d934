// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "usersummary.h"

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace gpudesk {

// A user's new quota: each limit beside what is in use now, with a warning where a new limit is
// below current use (what runs keeps running; new pods are refused).
class QuotaDialog : public QDialog
{
    Q_OBJECT
public:
    QuotaDialog(const UserSummary &user, QWidget *parent = nullptr);
    ResourceAmounts hard() const;
    QLineEdit *edit(const QString &resource) const;
    QLabel *warnings() const { return m_warnings; }

private:
    void check();

    UserSummary m_user;
    QList<QLineEdit *> m_edits;
    QLabel *m_warnings;
    QDialogButtonBox *m_buttons;
};

} // namespace gpudesk
