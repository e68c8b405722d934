// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace gpudesk {

// One entry of a folder on the NAS, as its SFTP listing gives it.
struct RemoteFile
{
    QString name;
    QString path;    // the node's: /mnt/user/alice/code
    char type = 'f'; // 'f' file, 'd' folder, 'l' link, 'o' other
    qint64 size = 0;
    qint64 modified = 0; // ms since the epoch
    qint64 accessed = 0; // the same, when last read (as the NAS keeps it: relatime, or never)
    quint32 permissions = 0;
};

// What the NAS says of one path (NasFiles::inspect).
struct RemotePathInfo
{
    QString path;
    bool found = false;
    char type = 0; // as RemoteFile's
    quint32 permissions = 0;
    qint64 size = 0;
    qint64 modified = 0; // ms since the epoch, whole seconds as SFTP gives them
    qint64 accessed = 0; // the same
    QString linkTarget;  // a link's, as written in it
};

} // namespace gpudesk
