// SPDX-License-Identifier: GPL-3.0-or-later
#include "noticebanner.h"

#include "palette.h"

#include <QApplication>
#include <QEvent>

namespace gpudesk {

NoticeBanner::NoticeBanner(QWidget *parent) : QLabel(parent)
{
    setWordWrap(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
    setVisible(false);
    restyle();
}

void NoticeBanner::say(Kind kind, const QString &text)
{
    if (kind != m_kind) {
        m_kind = kind;
        restyle();
    }
    setText(text);
    setVisible(!text.isEmpty());
}

void NoticeBanner::changeEvent(QEvent *e)
{
    QLabel::changeEvent(e);
    if (e->type() == QEvent::PaletteChange || e->type() == QEvent::ParentChange)
        restyle();
}

void NoticeBanner::restyle()
{
    // Background, text and border per kind; the text on its background ≥ 4.5 : 1 on light and
    // dark palettes.
    struct Look
    {
        const char *background, *text, *border;
    };
    static constexpr Look light[] = {{"#e8f1fd", "#1c3d6e", "#a8c4ec"},
                                     {"#fff4ce", "#5c4400", "#e0c060"},
                                     {"#fde8e6", "#8a1c14", "#e8a49c"}};
    static constexpr Look dark[] = {{"#1c2a40", "#c4dcff", "#3a5a8a"},
                                    {"#3d3210", "#ffe7a0", "#8a6d1a"},
                                    {"#46201c", "#ffc2ba", "#8a3a32"}};
    // The surroundings' palette: our own carries the style sheet's colours.
    const QPalette &around = parentWidget() ? parentWidget()->palette() : QApplication::palette();
    const Look &l = (colors::isDark(around) ? dark : light)[int(m_kind)];
    const QString sheet =
        QStringLiteral("QLabel { background: %1; color: %2; border: 1px solid "
                       "%3; padding: 6px 8px; border-radius: 4px; }")
            .arg(QLatin1String(l.background), QLatin1String(l.text), QLatin1String(l.border));
    if (styleSheet() != sheet)
        setStyleSheet(sheet);
}

void showAsError(QLabel *label, bool error)
{
    label->setProperty("gpudeskError", error);
    label->setStyleSheet(error ? colors::errorStyle(label->palette()) : QString());
}

} // namespace gpudesk
