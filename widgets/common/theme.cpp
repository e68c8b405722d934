// SPDX-License-Identifier: GPL-3.0-or-later
#include "theme.h"

#include "appsettings.h"

#include <QApplication>
#include <QStyle>

#include <optional>

namespace gpudesk::theme {

namespace {

std::optional<QPalette> &systemPalette()
{
    static std::optional<QPalette> palette;
    return palette;
}

} // namespace

QPalette lightPalette()
{
    return QApplication::style()->standardPalette();
}

QPalette darkPalette()
{
    // Greys of the common dark desktop themes; every colour of palette.h reads on Window and
    // Base at WCAG's 4.5 (tst_menus themeColoursReadable).
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2d, 0x30));
    p.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Base, QColor(0x1e, 0x1f, 0x22));
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x28, 0x2b));
    p.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::Button, QColor(0x35, 0x37, 0x3b));
    p.setColor(QPalette::ButtonText, QColor(0xe6, 0xe6, 0xe6));
    p.setColor(QPalette::BrightText, QColor(0xff, 0x8a, 0x80));
    p.setColor(QPalette::PlaceholderText, QColor(0x8c, 0x90, 0x96));
    p.setColor(QPalette::Light, QColor(0x4a, 0x4d, 0x52));
    p.setColor(QPalette::Midlight, QColor(0x3e, 0x41, 0x45));
    p.setColor(QPalette::Mid, QColor(0x8c, 0x90, 0x96));
    p.setColor(QPalette::Dark, QColor(0x1a, 0x1b, 0x1d));
    p.setColor(QPalette::Shadow, QColor(0x10, 0x10, 0x10));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0x6f, 0xb4));
    p.setColor(QPalette::HighlightedText, QColor(0xff, 0xff, 0xff));
    p.setColor(QPalette::Link, QColor(0x8a, 0xb4, 0xf8));
    p.setColor(QPalette::LinkVisited, QColor(0xc5, 0x8a, 0xf9));
    p.setColor(QPalette::ToolTipBase, QColor(0x35, 0x37, 0x3b));
    p.setColor(QPalette::ToolTipText, QColor(0xe6, 0xe6, 0xe6));
    for (const auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, QColor(0x7a, 0x7e, 0x84));
    return p;
}

Scheme saved()
{
    const QString s = AppSettings::theme();
    if (s == QLatin1String("light"))
        return Scheme::Light;
    if (s == QLatin1String("dark"))
        return Scheme::Dark;
    return Scheme::System;
}

void save(Scheme scheme)
{
    const QString name = scheme == Scheme::Light  ? QStringLiteral("light")
                         : scheme == Scheme::Dark ? QStringLiteral("dark")
                                                  : QStringLiteral("system");
    AppSettings::setTheme(name);
}

void apply(Scheme scheme)
{
    if (!systemPalette())
        systemPalette() = QApplication::palette();
    switch (scheme) {
    case Scheme::System:
        QApplication::setPalette(*systemPalette());
        break;
    case Scheme::Light:
        QApplication::setPalette(lightPalette());
        break;
    case Scheme::Dark:
        QApplication::setPalette(darkPalette());
        break;
    }
}

} // namespace gpudesk::theme
