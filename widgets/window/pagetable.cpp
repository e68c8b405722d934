// SPDX-License-Identifier: GPL-3.0-or-later
#include "pagetable.h"

#include <QCoreApplication>

namespace gpudesk {

QList<PageEntry> pageTable()
{
    const auto name = [](const char *text, const char *comment = nullptr) {
        return QCoreApplication::translate("gpudesk::MainWindow", text, comment);
    };
    const struct
    {
        QString name;
        const char *icon;
    } pages[] = {{name("Overview"), "overview"},
                 {name("Nodes"), "nodes"},
                 {name("GPU map"), "gpumap"},
                 {name("Workloads"), "workloads"},
                 {name("Dev environments"), "devenvs"},
                 {name("Images"), "images"},
                 {name("Users"), "users"},
                 {name("VCs", "virtual clusters"), "vcs"},
                 {name("Cleanup"), "cleanup"},
                 {name("Events"), "events"}};
    QList<PageEntry> out;
    for (int p = 0; p < int(std::size(pages)); ++p)
        out.append({p, pages[p].name, pages[p].icon,
                    QKeySequence(Qt::CTRL | Qt::Key(p < 9 ? Qt::Key_1 + p : Qt::Key_0))});
    return out;
}

} // namespace gpudesk
