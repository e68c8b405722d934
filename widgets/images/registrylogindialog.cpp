// SPDX-License-Identifier: GPL-3.0-or-later
#include "registrylogindialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace gpudesk {

RegistryLoginDialog::RegistryLoginDialog(const QString &host, const QString &user, QWidget *parent)
    : QDialog(parent), m_host(host), m_why(new QLabel(this)), m_user(new QLineEdit(user, this)),
      m_secret(new QLineEdit(this)), m_remember(new QCheckBox(this))
{
    setObjectName(QStringLiteral("registryLogin"));
    setWindowTitle(tr("Log in to %1").arg(host));
    m_why->setObjectName(QStringLiteral("loginWhy"));
    m_why->setWordWrap(true);
    m_why->setTextFormat(Qt::PlainText);
    m_user->setObjectName(QStringLiteral("loginUser"));
    m_secret->setObjectName(QStringLiteral("loginSecret"));
    m_secret->setEchoMode(QLineEdit::Password);
    m_remember->setObjectName(QStringLiteral("loginRemember"));
    m_remember->setText(tr("Remember it in the system keychain (otherwise it is kept in memory "
                           "until gpudesk quits)"));
    auto *form = new QFormLayout;
    form->addRow(tr("User name:"), m_user);
    form->addRow(tr("Password or access token:"), m_secret);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Log in and read"));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_why);
    layout->addLayout(form);
    layout->addWidget(m_remember);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    // Nothing to log in with until both are there.
    auto ready = [this, buttons] {
        buttons->button(QDialogButtonBox::Ok)
            ->setEnabled(!m_user->text().trimmed().isEmpty() && !m_secret->text().isEmpty());
    };
    connect(m_user, &QLineEdit::textChanged, this, ready);
    connect(m_secret, &QLineEdit::textChanged, this, ready);
    ready();
    (user.isEmpty() ? m_user : m_secret)->setFocus();
    resize(520, sizeHint().height());
}

void RegistryLoginDialog::setWhy(const QString &why)
{
    m_why->setText(why);
}

QString RegistryLoginDialog::user() const
{
    return m_user->text().trimmed();
}

QString RegistryLoginDialog::secret() const
{
    return m_secret->text();
}

bool RegistryLoginDialog::remember() const
{
    return m_remember->isChecked();
}

} // namespace gpudesk
