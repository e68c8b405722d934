// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

class QCheckBox;
class QLabel;
class QLineEdit;

namespace gpudesk {

// A registry's login, asked when it wanted one it did not get: the user name, the password or
// access token (never shown), and whether to keep it in the OS keychain. It says why it asks in
// the registry's own words (none configured, or the one given was refused).
class RegistryLoginDialog : public QDialog
{
    Q_OBJECT
public:
    RegistryLoginDialog(const QString &host, const QString &user, QWidget *parent = nullptr);
    void setWhy(const QString &why);
    QString host() const { return m_host; }
    QString user() const;
    QString secret() const;
    bool remember() const;

private:
    QString m_host;
    QLabel *m_why;
    QLineEdit *m_user;
    QLineEdit *m_secret;
    QCheckBox *m_remember;
};

} // namespace gpudesk
