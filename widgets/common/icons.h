// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QIcon>
#include <QPalette>
#include <QString>

// The icons of pages and actions: one consistent line set of gpudesk's own
// (resources/icons/*.svg), drawn in the palette's text colour so that they read on light and
// dark themes alike; an action with a freedesktop name (view-refresh, edit-find…) takes the
// desktop theme's icon where the theme has one.
namespace gpudesk::icons {

// name: the file's base name (overview, nodes, reconnect…).
QIcon get(const QString &name, const QPalette &palette);
QIcon get(const QString &name);
// Every icon the set has (for tests).
QStringList names();

} // namespace gpudesk::icons
