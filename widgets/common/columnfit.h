// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QTableView;

namespace gpudesk {

// Sizes a table's columns to what they hold (and their header, in any language) the first time
// it has rows, each at most about 45 characters wide, and gives the text column (a message, a
// reason; the last one unless named) what is left; not when the user's own widths were restored
// (call markRestored()). A table sized before its data came either truncates names and users or
// gives a message column half the width.
class ColumnFit
{
public:
    static void install(QTableView *view, int textColumn = -1);
    static void markRestored(QTableView *view);
    // Fits now (for views whose rows are there at once).
    static void fit(QTableView *view, int textColumn = -1);
};

} // namespace gpudesk
