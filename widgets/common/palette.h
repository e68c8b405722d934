// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QHash>
#include <QPalette>
#include <QStringList>

// The few colours gpudesk gives meaning to, in one place, readable on light and dark palettes.
namespace gpudesk::colors {

inline bool isDark(const QPalette &p)
{
    return p.color(QPalette::Window).lightness() < 128;
}
inline QColor track(const QPalette &p)
{
    return isDark(p) ? QColor(0x3a, 0x3f, 0x46) : QColor(0xe3, 0xe7, 0xec);
}
inline QColor free()
{
    return QColor(0x3f, 0xb9, 0x50);
}
inline QColor allocated()
{
    return QColor(0x4f, 0x8c, 0xe8);
}
// GPUs doing work (nvidia-smi's utilization over the busy threshold), beside allocated's blue.
inline QColor busy(const QPalette &p)
{
    return isDark(p) ? QColor(0x5c, 0xd6, 0x8e) : QColor(0x1e, 0x8e, 0x4e);
}
// YAML's keys, numbers and booleans, and strings (the YAML views and editor), readable as text.
inline QColor syntaxKey(const QPalette &p)
{
    return isDark(p) ? QColor(0x7a, 0xb8, 0xff) : QColor(0x1f, 0x5f, 0xa8);
}
inline QColor syntaxLiteral(const QPalette &p)
{
    return isDark(p) ? QColor(0xff, 0xb3, 0x66) : QColor(0x9a, 0x4a, 0x00);
}
inline QColor syntaxString(const QPalette &p)
{
    return isDark(p) ? QColor(0x8f, 0xd9, 0xa0) : QColor(0x21, 0x7a, 0x3c);
}
inline QColor full()
{
    return QColor(0xe8, 0x9a, 0x3c);
}
inline QColor unavailable(const QPalette &p)
{
    return isDark(p) ? QColor(0x55, 0x5a, 0x60) : QColor(0xb8, 0xbd, 0xc4);
}
// A card in use by a pod the account cannot see (a researcher's view of other users' cards).
inline QColor hiddenUse(const QPalette &p)
{
    return isDark(p) ? QColor(0x7a, 0x80, 0x8a) : QColor(0x8a, 0x90, 0x9a);
}
inline QColor warning()
{
    return QColor(0xd9, 0x8e, 0x04);
}
inline QColor error()
{
    return QColor(0xd1, 0x43, 0x43);
}
// Text that says something is wrong, fine or waiting, readable on the palette's window and
// base colours (contrast ≥ 4.5 on light and dark ones: tst_menus themeColoursReadable).
inline QColor errorText(const QPalette &p)
{
    return isDark(p) ? QColor(0xff, 0x8a, 0x80) : QColor(0xb3, 0x26, 0x1e);
}
inline QColor okText(const QPalette &p)
{
    return isDark(p) ? QColor(0x7e, 0xd3, 0x8f) : QColor(0x16, 0x6b, 0x32);
}
inline QColor waitingText(const QPalette &p)
{
    return isDark(p) ? QColor(0xf0, 0xc0, 0x60) : QColor(0x8a, 0x5a, 0x00);
}
// A label's style sheet for error text on this palette.
inline QString errorStyle(const QPalette &p)
{
    return QStringLiteral("color: %1;").arg(errorText(p).name());
}
// A stable colour per name (user, VC), so a user keeps the same colour on every page, start
// and machine.
QColor forName(const QString &name);
// Colours for names shown together (the GPU map's users): distinct while there are no more than
// sixteen, each name its own forName() colour where no other took it first.
QHash<QString, QColor> forNames(QStringList names);

} // namespace gpudesk::colors
