// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>

namespace gpudesk {

// The command line that runs `command` in a terminal window of the user's desktop: $TERMINAL
// (the user's choice, given -e as Debian's alternatives are), then x-terminal-emulator, then the
// common terminals, each with its own way of taking a command. Empty when none is installed: the
// caller then says `command` itself, to be run in whatever terminal the user has.
class TerminalCommand
{
public:
    static QStringList wrap(const QStringList &command);
    // The terminals looked for, in order (for the message when none is found).
    static QStringList candidates();
};

} // namespace gpudesk
