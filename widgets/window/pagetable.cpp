// SPDX-License-Identifier: GPL-3.0-or-later
#include "pagetable.h"

#include <QCoreApplication>

namespace gpudesk {

QList<PageEntry> pageTable()
{
    // Marked for lupdate here, translated below (context gpudesk::MainWindow, where the
    // sidebar's names have always been).
    static const struct
    {
        struct
        {
            const char *source;
            const char *comment;
        } name;
        const char *icon;
    } pages[] = {{QT_TRANSLATE_NOOP3("gpudesk::MainWindow", "Overview", ""), "overview"},
                 {QT_TRANSLATE_NOOP3("gpudesk::MainWindow", "Nodes", ""), "nodes"},
                 {QT_TRANSLATE_NOOP3("gpudesk::MainWindow", "GPU map", ""), "gpumap"},
                 {QT_TRANSLATE_NOOP3("gpudesk::MainWindow", "Workloads", ""), "workloads"},
                 {QT_TRANSLATE_NOOP3("gpudesk::MainWindow", "Dev environments", ""), "devenvs"},
                 {QT_TRANSLATE_NOOP3("gpudesk::MainWindow", "Images", ""), "images"},
                 {QT_TRANSLATE_NOOP3("gpudesk::MainWindow", "Users", ""), "users"},
                 {QT_TRANSLATE_NOOP3("gpudesk::MainWindow", "VCs", "virtual clusters"), "vcs"},
                 {QT_TRANSLATE_NOOP3("gpudesk::MainWindow", "Cleanup", ""), "cleanup"},
                 {QT_TRANSLATE_NOOP3("gpudesk::MainWindow", "Events", ""), "events"},
                 {QT_TRANSLATE_NOOP3("gpudesk::MainWindow", "Storage", "the NAS"), "storage"}};
    QList<PageEntry> out;
    for (int p = 0; p < int(std::size(pages)); ++p)
        out.append(
            {p,
             QCoreApplication::translate("gpudesk::MainWindow", pages[p].name.source,
                                         *pages[p].name.comment ? pages[p].name.comment : nullptr),
             pages[p].icon,
             // Ctrl+1 … Ctrl+9, Ctrl+0: the first ten; the pages after them, by the menu.
             p < 9 ? QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + p))
                   : (p == 9 ? QKeySequence(Qt::CTRL | Qt::Key_0) : QKeySequence())});
    return out;
}

} // namespace gpudesk
