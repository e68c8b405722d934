// SPDX-License-Identifier: GPL-3.0-or-later
#include "terminalcommand.h"

#include <QFileInfo>
#include <QStandardPaths>

namespace gpudesk {

namespace {

struct Terminal
{
    const char *program;
    const char *before; // what goes between the program and the command ("" for nothing)
};

// gnome-terminal and mate-/xfce4-terminal take a command after `--` / `-x` (their -e takes one
// string); kitty and foot take it bare; the rest, -e and the words.
constexpr Terminal kTerminals[] = {{"x-terminal-emulator", "-e"},
                                   {"gnome-terminal", "--"},
                                   {"konsole", "-e"},
                                   {"xfce4-terminal", "-x"},
                                   {"mate-terminal", "-x"},
                                   {"kitty", ""},
                                   {"alacritty", "-e"},
                                   {"foot", ""},
                                   {"xterm", "-e"}};

bool installed(const QString &program)
{
    return !QStandardPaths::findExecutable(program).isEmpty() ||
           (program.contains(u'/') && QFileInfo(program).isExecutable());
}

} // namespace

QStringList TerminalCommand::wrap(const QStringList &command)
{
    if (const QString user = qEnvironmentVariable("TERMINAL"); !user.isEmpty() && installed(user))
        return QStringList{user, QStringLiteral("-e")} + command;
    for (const Terminal &t : kTerminals) {
        const QString program = QString::fromLatin1(t.program);
        if (!installed(program))
            continue;
        QStringList out{program};
        if (*t.before)
            out << QString::fromLatin1(t.before);
        return out + command;
    }
    return {};
}

QStringList TerminalCommand::candidates()
{
    QStringList out{QStringLiteral("$TERMINAL")};
    for (const Terminal &t : kTerminals)
        out << QString::fromLatin1(t.program);
    return out;
}

} // namespace gpudesk
