// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace gpudesk {

class UsersService;

// Hands a user a kubeconfig for their ServiceAccount: first what it will let them do (the API
// server's answer to a SubjectAccessReview for each thing that matters), then a token with the
// expiry the admin picks — or a long-lived one, with a warning — written with mode 0600.
class KubeconfigDialog : public QDialog
{
    Q_OBJECT
public:
    KubeconfigDialog(UsersService *users, const QString &ns, const QString &user,
                     const QString &context, QWidget *parent = nullptr);
    QTableWidget *access() const { return m_access; }
    QLineEdit *pathEdit() const { return m_path; }
    QComboBox *expiry() const { return m_expiry; }
    QCheckBox *longLived() const { return m_longLived; }
    QPushButton *writeButton() const { return m_write; }
    QLabel *result() const { return m_result; }

signals:
    // The access review is in (tests wait on it), and the file was written or refused.
    void accessReviewed();
    void written(bool ok);

private:
    void write();

    UsersService *m_users;
    QString m_ns;
    QString m_user;
    QComboBox *m_expiry;
    QCheckBox *m_longLived;
    QLabel *m_longWarning;
    QTableWidget *m_access;
    QLineEdit *m_path;
    QPushButton *m_write;
    QLabel *m_result;
};

} // namespace gpudesk
