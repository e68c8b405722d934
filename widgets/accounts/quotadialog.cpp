// SPDX-License-Identifier: GPL-3.0-or-later
#include "quotadialog.h"

#include "palette.h"
#include "userdialog.h"
#include "userspec.h"

#include <QDialogButtonBox>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace gpudesk {

QuotaDialog::QuotaDialog(const UserSummary &user, QWidget *parent)
    : QDialog(parent), m_user(user), m_warnings(new QLabel(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Quota of %1").arg(user.user));
    auto *grid = new QGridLayout;
    grid->addWidget(new QLabel(tr("<b>Resource</b>"), this), 0, 0);
    grid->addWidget(new QLabel(tr("<b>In use now</b>"), this), 0, 1);
    grid->addWidget(new QLabel(tr("<b>Limit now</b>"), this), 0, 2);
    grid->addWidget(new QLabel(tr("<b>New limit</b>"), this), 0, 3);
    QStringList resources = UserRules::quotaResources();
    for (auto it = user.hard.cbegin(); it != user.hard.cend(); ++it)
        if (!resources.contains(it.key()))
            resources << it.key();
    int row = 1;
    for (const QString &r : std::as_const(resources)) {
        grid->addWidget(new QLabel(r, this), row, 0);
        grid->addWidget(new QLabel(quantity::format(r, user.used.value(r)), this), row, 1);
        const bool limited = user.hard.contains(r);
        grid->addWidget(
            new QLabel(limited ? quantity::format(r, user.hard.value(r)) : tr("none"), this), row,
            2);
        auto *e = new QLineEdit(this);
        e->setObjectName(QStringLiteral("quota:") + r);
        e->setProperty("resource", r);
        e->setPlaceholderText(tr("no limit"));
        if (limited)
            e->setText(quantity::format(r, user.hard.value(r)));
        connect(e, &QLineEdit::textChanged, this, &QuotaDialog::check);
        grid->addWidget(e, row, 3);
        m_edits << e;
        ++row;
    }
    m_warnings->setObjectName(QStringLiteral("quotaWarnings"));
    m_warnings->setWordWrap(true);
    m_warnings->setTextFormat(Qt::PlainText);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(grid);
    layout->addWidget(m_warnings);
    layout->addWidget(m_buttons);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Plan…"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    check();
}

QLineEdit *QuotaDialog::edit(const QString &resource) const
{
    for (QLineEdit *e : m_edits)
        if (e->property("resource").toString() == resource)
            return e;
    return nullptr;
}

ResourceAmounts QuotaDialog::hard() const
{
    ResourceAmounts out;
    QStringList ignored;
    UserDialog::readQuota(m_edits, &out, &ignored);
    return out;
}

void QuotaDialog::check()
{
    QStringList errors;
    ResourceAmounts h;
    const bool ok = UserDialog::readQuota(m_edits, &h, &errors);
    QStringList warnings;
    for (auto it = h.cbegin(); it != h.cend(); ++it) {
        const qint64 used = m_user.used.value(it.key());
        if (used > it.value())
            warnings
                << tr("%1: the new limit %2 is below the %3 in use. What runs keeps running; new "
                      "pods are refused until use falls below it.")
                       .arg(it.key(), quantity::format(it.key(), it.value()),
                            quantity::format(it.key(), used));
    }
    m_warnings->setText((errors + warnings).join(u'\n'));
    QPalette p = m_warnings->palette();
    p.setColor(QPalette::WindowText, errors.isEmpty() ? colors::warning() : colors::error());
    m_warnings->setPalette(p);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(ok && h != m_user.hard);
}

} // namespace gpudesk
