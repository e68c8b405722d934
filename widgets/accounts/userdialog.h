// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "userspec.h"

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QFormLayout;
class QLabel;
class QLineEdit;

namespace gpudesk {

class ClusterStore;
class UsersService;

// The form for one new user: name, VC, the ClusterRole they get in their namespace, cluster-wide
// read, the quota and the default requests. Checked as it is typed; OK only when it can be made.
class UserDialog : public QDialog
{
    Q_OBJECT
public:
    UserDialog(UsersService *users, const ClusterStore *store, QWidget *parent = nullptr);
    UserSpec spec() const;
    // Fills the form (tests, and the CSV dialog's defaults).
    void setName(const QString &name);
    QLineEdit *nameEdit() const { return m_name; }
    QLabel *problems() const { return m_problems; }

    // The quota part of a form, shared with the CSV import (its defaults for empty cells).
    static QList<QLineEdit *> quotaEdits(QWidget *parent, const ResourceAmounts &values,
                                         QFormLayout *form);
    static bool readQuota(const QList<QLineEdit *> &edits, ResourceAmounts *out,
                          QStringList *errors);

private:
    void check();

    const ClusterStore *m_store;
    QLineEdit *m_name;
    QComboBox *m_vc;
    QComboBox *m_role;
    QCheckBox *m_view;
    QComboBox *m_viewRole;
    QList<QLineEdit *> m_quota;
    QLineEdit *m_defaultCpu;
    QLineEdit *m_defaultMemory;
    QLineEdit *m_limitMemory;
    QLabel *m_problems;
    QDialogButtonBox *m_buttons;
};

} // namespace gpudesk
