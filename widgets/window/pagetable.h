// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QKeySequence>
#include <QList>
#include <QString>

namespace gpudesk {

// The window's pages, declared once: their names (translated), icons and keys, in the order of
// MainWindow::Page. The sidebar, the View menu (and so the command palette) and the icons read it,
// so a new page is one line here and its widget.
struct PageEntry
{
    int page;         // MainWindow::Page
    QString name;     // as the sidebar and the View menu show it
    const char *icon; // icons::get's name
    QKeySequence key; // Ctrl+1 … Ctrl+9, then Ctrl+0 for the tenth; none after it
};

QList<PageEntry> pageTable();

} // namespace gpudesk
