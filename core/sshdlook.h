// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QStringList>

namespace gpudesk {

// Where an SSH server lives in an image (no leading slash): OpenSSH as Debian, Ubuntu, RHEL and
// Alpine install it, one built into /usr/local, and Dropbear (small images).
inline const QStringList &standardSshdPaths()
{
    static const QStringList p{QStringLiteral("usr/sbin/sshd"), QStringLiteral("usr/bin/sshd"),
                               QStringLiteral("usr/local/sbin/sshd"), QStringLiteral("sbin/sshd"),
                               QStringLiteral("usr/sbin/dropbear")};
    return p;
}

// Whether an image has an SSH server (ImagesService::lookSshd): what an MPI job's workers need,
// since mpirun on the launcher starts its daemons on them over SSH. Read from the image's
// layers, the newest first (a file there, or its whiteout); where not every layer could be read,
// from its history (the commands that built it).
struct SshdLook
{
    enum Verdict
    {
        Unknown, // not said: error says why
        Present,
        Absent,
    };
    QString reference;
    Verdict verdict = Unknown;
    QString evidence; // in words: where it was found, or what was read without finding it
    QString error;    // why it is Unknown
    // Unknown for now: the registry did not answer (asked again next time), as opposed to an
    // image that cannot be told (its layers too big and its history silent), which stays so.
    bool transient = false;
    QString digest;     // the manifest's the look is of ("" when none was read)
    int layers = 0;     // the image's
    int layersRead = 0; // of them, read
};

} // namespace gpudesk
