// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "mainwindow.h"

#include <QObject>
#include <QPointer>

class QAbstractButton;
class QAction;
class QMenu;
class QToolBar;

namespace gpudesk {

class CommandPalette;
class Services;
struct PaletteEntry;

// The window's menu bar (File, View, Cluster, Node, Workload, Tools, Help), the toolbar's
// actions, the command palette and the list of keyboard shortcuts.
//
// A page keeps its own buttons, which know when they apply (a selection, a permission); a menu
// item that does what a button does mirrors it: the same enabled state and reason (read when
// the menu opens), and when triggered it shows the page and clicks the button — so the menu,
// the button and the palette can never disagree. What depends on the selection of a page
// (a node's cordon and drain, a workload's stop and delete) is filled in by the page itself
// each time its menu opens.
class MainMenus : public QObject
{
    Q_OBJECT
public:
    MainMenus(MainWindow *window, Services *services);
    // Reconnect, the command palette, the audit log.
    void fillToolBar(QToolBar *toolbar);
    // The actions' icons in the window's palette (again when the theme changes).
    void applyIcons();
    // Every action of the menu bar (submenus walked), for the palette and the shortcuts list.
    QList<QAction *> actions() const;
    // The menu path of an action ("Workload › Logs").
    QString pathOf(const QAction *action) const;
    QAction *action(const QString &objectName) const;

    CommandPalette *openPalette();
    QDialog *showShortcuts();
    // The logs / events / YAML the Workload menu opens: the current row of the page shown.
    ObjectRef currentObject() const;

private:
    QMenu *addMenu(const QString &title, const char *name);
    QAction *add(QMenu *menu, const QString &text, const char *name, const QKeySequence &key = {});
    QAction *mirror(QMenu *menu, MainWindow::Page page, const char *button, const QString &text,
                    const QKeySequence &key = {});
    void buildFile();
    void buildView();
    void buildCluster();
    void buildNode();
    void buildWorkload();
    void buildTools();
    void buildHelp();
    void openCurrent(int tab);
    void focusFilter();
    QList<PaletteEntry> paletteEntries() const;
    void activate(const PaletteEntry &entry);

    struct Mirror
    {
        QAction *action;
        QPointer<QAbstractButton> button;
    };
    MainWindow *m_window;
    Services *m_services;
    QList<Mirror> m_mirrors;
    QList<QAction *> m_objectActions; // Logs, Events, YAML
    QAction *m_reconnect = nullptr;
    QAction *m_palette = nullptr;
    QAction *m_audit = nullptr;
};

} // namespace gpudesk
