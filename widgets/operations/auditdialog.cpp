// SPDX-License-Identifier: GPL-3.0-or-later
#include "auditdialog.h"

#include "auditmodel.h"
#include "operationsservice.h"
#include "severitydelegate.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace gpudesk {

AuditDialog::AuditDialog(OperationsService *operations, QWidget *parent)
    : QDialog(parent), m_operations(operations), m_model(new AuditModel(this)),
      m_view(new QTableView(this)), m_detail(new QPlainTextEdit(this))
{
    setWindowTitle(tr("Audit log"));
    setAttribute(Qt::WA_DeleteOnClose);
    resize(1000, 600);
    m_view->setObjectName(QStringLiteral("auditView"));
    m_view->setModel(m_model);
    m_view->setItemDelegate(new SeverityDelegate(m_view));
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->hide();
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setColumnWidth(AuditModel::Time, 150);
    m_view->setColumnWidth(AuditModel::Who, 200);
    m_view->setColumnWidth(AuditModel::Context, 140);
    m_view->setColumnWidth(AuditModel::Action, 320);
    m_detail->setObjectName(QStringLiteral("auditDetail"));
    m_detail->setReadOnly(true);
    m_detail->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auto *path = new QLabel(tr("Kept in %1").arg(operations->audit().path()), this);
    path->setTextInteractionFlags(Qt::TextSelectableByMouse);
    path->setForegroundRole(QPalette::PlaceholderText);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_view);
    split->addWidget(m_detail);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *refresh = buttons->addButton(tr("Reload"), QDialogButtonBox::ActionRole);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(path);
    layout->addWidget(split, 1);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(refresh, &QPushButton::clicked, this, &AuditDialog::reload);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &i) {
                m_detail->setPlainText(QString::fromUtf8(
                    QJsonDocument(m_model->record(i.row())).toJson(QJsonDocument::Indented)));
            });
    connect(operations, &OperationsService::operationFinished, this, &AuditDialog::reload);
    reload();
}

void AuditDialog::reload()
{
    m_model->setRecords(m_operations->audit().read());
    if (m_model->rowCount() > 0)
        m_view->selectRow(0);
}

} // namespace gpudesk
