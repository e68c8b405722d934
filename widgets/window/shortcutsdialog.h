// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

class QAction;
class QTreeWidget;

namespace gpudesk {

// Help › Keyboard shortcuts: every menu item that has one, by menu, read from the menus
// themselves (so the list cannot drift from what the keys do), and the keys tables and lists
// answer on their own.
class ShortcutsDialog : public QDialog
{
    Q_OBJECT
public:
    // Each action with the menu it lives in.
    ShortcutsDialog(const QList<std::pair<QString, QAction *>> &actions, QWidget *parent = nullptr);
    QTreeWidget *tree() const { return m_tree; }

private:
    QTreeWidget *m_tree;
};

} // namespace gpudesk
