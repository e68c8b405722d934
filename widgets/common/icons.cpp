// SPDX-License-Identifier: GPL-3.0-or-later
#include "icons.h"

#include <QApplication>
#include <QDir>
#include <QHash>
#include <QPainter>
#include <QSvgRenderer>

namespace gpudesk::icons {

namespace {

// Where a desktop theme has an icon meaning the same (the freedesktop icon naming spec).
const QHash<QString, QString> &themeNames()
{
    static const QHash<QString, QString> names{
        {QStringLiteral("reconnect"), QStringLiteral("view-refresh")},
        {QStringLiteral("search"), QStringLiteral("edit-find")},
        {QStringLiteral("settings"), QStringLiteral("preferences-system")},
        {QStringLiteral("quit"), QStringLiteral("application-exit")},
        {QStringLiteral("logs"), QStringLiteral("text-x-generic")},
    };
    return names;
}

QPixmap tinted(QSvgRenderer &svg, int size, qreal dpr, const QColor &colour)
{
    QPixmap pixmap(QSize(size, size) * dpr);
    pixmap.setDevicePixelRatio(dpr);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    p.setRenderHint(QPainter::Antialiasing);
    svg.render(&p, QRectF(0, 0, size, size));
    // The drawing's shape, in the colour asked for.
    p.setCompositionMode(QPainter::CompositionMode_SourceIn);
    p.fillRect(QRectF(0, 0, size, size), colour);
    return pixmap;
}

} // namespace

QIcon get(const QString &name, const QPalette &palette)
{
    QSvgRenderer svg(QStringLiteral(":/gpudesk/icons/%1.svg").arg(name));
    QIcon own;
    if (svg.isValid()) {
        const qreal dpr = qApp ? qApp->devicePixelRatio() : 1.0;
        for (const int size : {16, 20, 22, 24, 32, 48}) {
            own.addPixmap(tinted(svg, size, dpr, palette.color(QPalette::WindowText)),
                          QIcon::Normal);
            own.addPixmap(
                tinted(svg, size, dpr, palette.color(QPalette::Disabled, QPalette::WindowText)),
                QIcon::Disabled);
            own.addPixmap(tinted(svg, size, dpr, palette.color(QPalette::HighlightedText)),
                          QIcon::Selected);
        }
    }
    const QString themed = themeNames().value(name);
    return themed.isEmpty() ? own : QIcon::fromTheme(themed, own);
}

QIcon get(const QString &name)
{
    return get(name, QApplication::palette());
}

QStringList names()
{
    QStringList out;
    for (const QString &file :
         QDir(QStringLiteral(":/gpudesk/icons")).entryList({QStringLiteral("*.svg")}))
        out << file.chopped(4);
    return out;
}

} // namespace gpudesk::icons
