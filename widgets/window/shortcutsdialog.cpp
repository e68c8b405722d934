// SPDX-License-Identifier: GPL-3.0-or-later
#include "shortcutsdialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace gpudesk {

ShortcutsDialog::ShortcutsDialog(const QList<std::pair<QString, QAction *>> &actions,
                                 QWidget *parent)
    : QDialog(parent), m_tree(new QTreeWidget(this))
{
    setWindowTitle(tr("Keyboard shortcuts"));
    setObjectName(QStringLiteral("shortcutsDialog"));
    setAttribute(Qt::WA_DeleteOnClose);
    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("Action"), tr("Keys")});
    m_tree->setRootIsDecorated(false);
    m_tree->setSelectionMode(QAbstractItemView::NoSelection);
    QTreeWidgetItem *group = nullptr;
    for (const auto &[menu, action] : actions) {
        if (action->shortcuts().isEmpty())
            continue;
        if (!group || group->text(0) != menu) {
            group = new QTreeWidgetItem(m_tree, {menu});
            QFont bold = group->font(0);
            bold.setBold(true);
            group->setFont(0, bold);
            group->setFirstColumnSpanned(true);
        }
        QStringList keys;
        for (const QKeySequence &k : action->shortcuts())
            keys << k.toString(QKeySequence::NativeText);
        new QTreeWidgetItem(m_tree, {QStringLiteral("    ") + action->text().remove(u'&'),
                                     keys.join(QStringLiteral(", "))});
    }
    // What views answer on their own, without a menu item.
    auto *views = new QTreeWidgetItem(m_tree, {tr("In tables and lists")});
    QFont bold = views->font(0);
    bold.setBold(true);
    views->setFont(0, bold);
    views->setFirstColumnSpanned(true);
    const std::pair<QString, QKeySequence> local[] = {
        {tr("Open the selected row: a workload's logs, a node's objects"),
         QKeySequence(Qt::Key_Return)},
        {tr("Show a job's pods (Workloads)"), QKeySequence(Qt::Key_Right)},
        {tr("Hide a job's pods (Workloads)"), QKeySequence(Qt::Key_Left)},
        {tr("Copy the selected image references (Images)"), QKeySequence::Copy},
        {tr("Delete the selected images, with a plan first (Images)"), QKeySequence::Delete}};
    for (const auto &[text, key] : local)
        new QTreeWidgetItem(
            m_tree, {QStringLiteral("    ") + text, key.toString(QKeySequence::NativeText)});
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *l = new QVBoxLayout(this);
    l->addWidget(m_tree);
    l->addWidget(buttons);
    resize(640, 660);
}

} // namespace gpudesk
