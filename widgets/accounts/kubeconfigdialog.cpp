// SPDX-License-Identifier: GPL-3.0-or-later
#include "kubeconfigdialog.h"

#include "palette.h"
#include "usersservice.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableWidget>
#include <QVBoxLayout>

namespace gpudesk {

KubeconfigDialog::KubeconfigDialog(UsersService *users, const QString &ns, const QString &user,
                                   const QString &context, QWidget *parent)
    : QDialog(parent), m_users(users), m_ns(ns), m_user(user), m_expiry(new QComboBox(this)),
      m_longLived(
          new QCheckBox(tr("Long-lived token (a token Secret that does not expire)"), this)),
      m_longWarning(new QLabel(this)), m_access(new QTableWidget(0, 3, this)),
      m_path(new QLineEdit(this)), m_write(new QPushButton(tr("Write kubeconfig"), this)),
      m_result(new QLabel(this))
{
    setWindowTitle(tr("Kubeconfig for %1").arg(user));
    resize(760, 600);
    auto *intro = new QLabel(tr("A kubeconfig for %1, acting as the ServiceAccount %1 in %2 on "
                                "%3.")
                                 .arg(user, ns, context),
                             this);
    intro->setWordWrap(true);
    const std::pair<qint64, QString> expiries[] = {{3600, tr("1 hour")},
                                                   {8 * 3600, tr("8 hours")},
                                                   {24 * 3600, tr("1 day")},
                                                   {7 * 24 * 3600, tr("7 days")},
                                                   {30 * 24 * 3600, tr("30 days")},
                                                   {90 * 24 * 3600, tr("90 days")},
                                                   {365 * 24 * 3600, tr("1 year")}};
    for (const auto &[seconds, text] : expiries)
        m_expiry->addItem(text, seconds);
    m_expiry->setObjectName(QStringLiteral("kubeconfigExpiry"));
    m_expiry->setCurrentIndex(3);
    m_longLived->setObjectName(QStringLiteral("kubeconfigLongLived"));
    m_longWarning->setWordWrap(true);
    m_longWarning->setText(tr("A long-lived token works until the user's tokens are revoked "
                              "(Revoke tokens). Whoever has the file acts as %1 until then. "
                              "Prefer a token that expires.")
                               .arg(user));
    QPalette warn = m_longWarning->palette();
    warn.setColor(QPalette::WindowText, colors::error());
    m_longWarning->setPalette(warn);
    m_longWarning->setVisible(false);
    connect(m_longLived, &QCheckBox::toggled, this, [this](bool on) {
        m_longWarning->setVisible(on);
        m_expiry->setEnabled(!on);
    });

    m_access->setObjectName(QStringLiteral("kubeconfigAccess"));
    m_access->setHorizontalHeaderLabels({tr("May the user…"), tr("Answer"), tr("Why")});
    m_access->verticalHeader()->hide();
    m_access->horizontalHeader()->setStretchLastSection(true);
    m_access->setEditTriggers(QAbstractItemView::NoEditTriggers);
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    m_path->setObjectName(QStringLiteral("kubeconfigPath"));
    m_path->setText(QDir(dir.isEmpty() ? QDir::homePath() : dir)
                        .filePath(QStringLiteral("%1-%2.kubeconfig").arg(user, context)));
    auto *browse = new QPushButton(tr("Choose…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString f =
            QFileDialog::getSaveFileName(this, tr("Write the kubeconfig to"), m_path->text());
        if (!f.isEmpty())
            m_path->setText(f);
    });
    m_write->setObjectName(QStringLiteral("writeKubeconfig"));
    m_write->setEnabled(false);
    connect(m_write, &QPushButton::clicked, this, &KubeconfigDialog::write);
    m_result->setObjectName(QStringLiteral("kubeconfigResult"));
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *form = new QFormLayout;
    form->addRow(tr("Expires after"), m_expiry);
    form->addRow(QString(), m_longLived);
    form->addRow(QString(), m_longWarning);
    auto *pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browse);
    form->addRow(tr("File"), pathRow);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(m_write, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addWidget(new QLabel(tr("<b>What the user will be able to do</b> (asked of the API "
                                    "server):"),
                                 this));
    layout->addWidget(m_access, 1);
    layout->addLayout(form);
    layout->addWidget(m_result);
    layout->addWidget(buttons);

    m_result->setText(tr("Asking the API server what %1 may do…").arg(user));
    users->reviewAccess(ns, user, this, [this](const QList<UsersService::AccessResult> &results) {
        m_access->setRowCount(int(results.size()));
        for (int r = 0; r < results.size(); ++r) {
            const auto &a = results[r];
            const QString answer = !a.error.isEmpty() ? tr("unknown")
                                   : a.allowed        ? tr("yes")
                                                      : tr("no");
            auto *what = new QTableWidgetItem(a.check.what);
            what->setToolTip(
                QStringLiteral("%1 %2%3%4")
                    .arg(a.check.verb, a.check.resource,
                         a.check.subresource.isEmpty() ? QString() : u'/' + a.check.subresource,
                         a.check.group.isEmpty() ? QString() : u'.' + a.check.group));
            auto *ans = new QTableWidgetItem(answer);
            ans->setForeground(!a.error.isEmpty() ? colors::warning()
                               : a.allowed        ? colors::free()
                                                  : colors::error());
            m_access->setItem(r, 0, what);
            m_access->setItem(r, 1, ans);
            m_access->setItem(r, 2, new QTableWidgetItem(a.error.isEmpty() ? a.reason : a.error));
        }
        m_access->resizeColumnsToContents();
        m_result->clear();
        m_write->setEnabled(true);
        emit accessReviewed();
    });
}

void KubeconfigDialog::write()
{
    UsersService::KubeconfigRequest request;
    request.ns = m_ns;
    request.serviceAccount = m_user;
    request.expirationSeconds = m_expiry->currentData().toLongLong();
    request.longLived = m_longLived->isChecked();
    request.path = m_path->text().trimmed();
    if (request.path.isEmpty()) {
        m_result->setText(tr("Choose a file to write."));
        return;
    }
    m_write->setEnabled(false);
    m_result->setText(tr("Issuing a token…"));
    m_users->handOutKubeconfig(request, this, [this](const UsersService::KubeconfigResult &r) {
        m_write->setEnabled(true);
        if (!r.error.isEmpty()) {
            m_result->setText(tr("Not written: %1").arg(r.error));
            emit written(false);
            return;
        }
        const QString expires =
            r.expires.isValid()
                ? tr("expires %1")
                      .arg(QLocale().toString(r.expires.toLocalTime(), QLocale::ShortFormat))
                : tr("does not expire (revoke to end it)");
        m_result->setText(tr("Written to %1 (readable by you only), context %2, %3.")
                              .arg(r.path, r.context, expires) +
                          (r.shortened.isEmpty() ? QString() : u'\n' + r.shortened) + u'\n' +
                          tr("Try it: KUBECONFIG=%1 kubectl get pods").arg(r.path));
        emit written(true);
    });
}

} // namespace gpudesk
