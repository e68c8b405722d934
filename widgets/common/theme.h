// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPalette>
#include <QString>

// Light, dark, or as the desktop says: the application's palette, chosen in the settings
// (ui/theme). gpudesk's own colours (palette.h) follow whichever palette is in force.
namespace gpudesk::theme {

enum class Scheme
{
    System, // the palette the platform gave at start
    Light,
    Dark
};

QPalette lightPalette();
QPalette darkPalette();
Scheme saved();
void save(Scheme scheme);
// Sets the application's palette (the platform's first palette is kept for System).
void apply(Scheme scheme);

} // namespace gpudesk::theme
