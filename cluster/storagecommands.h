// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace gpudesk::nodecmd {

// The commands that measure the NAS from a node that mounts it. Like every command sent over
// SSH, fixed text with the paths validated and quoted (nodecommands.h).

// Whether `root` may be walked: absolute, no `..`, only the characters paths on a NAS are
// given (letters, digits, `._-+@/`). `error` says why not.
bool validStorageRoot(const QString &root, QString *error);

// One walk of `root`, at the lowest CPU and IO priority the node offers (nice 19, the idle IO
// class), never following a link and never leaving the root's filesystem: one record per entry
// below it, `%y %s %b %T@ %A@ %P` and a NUL (StorageWalk reads them). Empty for a root that is
// not valid.
QByteArray storageWalkCommand(const QString &root);

// The same walk of one folder a cleanup is about to remove (a departed user's, a job's outputs),
// right before: whatever its name (quoted; only an absolute path without `..`, a newline or a
// NUL, and not `/`). Empty for one that is not such a path.
QByteArray storageRecheckCommand(const QString &folder);

// df -P -k of the roots (parseDf reads it). Roots that are not valid are left out; empty when
// none is.
QByteArray storageDfCommand(const QStringList &roots);

} // namespace gpudesk::nodecmd
