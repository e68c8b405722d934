// SPDX-License-Identifier: GPL-3.0-or-later
#include "diffhighlighter.h"

#include "palette.h"

namespace gpudesk {

void DiffHighlighter::highlightBlock(const QString &text)
{
    QTextCharFormat f;
    if (text.startsWith(QLatin1String("+++")) || text.startsWith(QLatin1String("---"))) {
        f.setFontWeight(QFont::Bold);
    } else if (text.startsWith(u'+')) {
        f.setForeground(colors::free().darker(130));
    } else if (text.startsWith(u'-')) {
        f.setForeground(colors::error());
    } else if (text.startsWith(QLatin1String("@@"))) {
        f.setForeground(colors::allocated());
    } else {
        return;
    }
    setFormat(0, int(text.size()), f);
}

} // namespace gpudesk
