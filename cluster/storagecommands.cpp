// SPDX-License-Identifier: GPL-3.0-or-later
#include "storagecommands.h"

#include "nodecommands.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace gpudesk::nodecmd {

namespace {

// nice and ionice: the NAS and the node's training jobs must not feel the walk. -P: links are
// listed, never followed (a loop or a link to / costs nothing). -xdev: another filesystem
// mounted inside is not walked (so an inode number, %i, names one file: a file's other names,
// hard links, are counted once).
QByteArray walkOf(const QString &path)
{
    return "nice -n 19 ionice -c 3 find -P " + shellQuote(path.toUtf8()) +
           " -xdev -mindepth 1 -printf '%y %s %b %T@ %A@ %n %i %P\\0'";
}

} // namespace

bool validStorageRoot(const QString &root, QString *error)
{
    static const QRegularExpression re(QStringLiteral("^/[A-Za-z0-9._+@/-]*$"));
    const auto say = [error](const QString &why) {
        if (error)
            *error = why;
        return false;
    };
    if (!re.match(root).hasMatch())
        return say(QCoreApplication::translate(
                       "gpudesk::nodecmd",
                       "\"%1\" is not a NAS root: an absolute path of letters, digits and ._-+@/")
                       .arg(root));
    if (root.split(u'/').contains(QLatin1String("..")))
        return say(QCoreApplication::translate("gpudesk::nodecmd", "\"%1\" climbs out with \"..\"")
                       .arg(root));
    if (root == QLatin1String("/"))
        return say(QCoreApplication::translate("gpudesk::nodecmd",
                                               "The whole filesystem (/) is not a NAS root"));
    return true;
}

QByteArray storageWalkCommand(const QString &root)
{
    if (!validStorageRoot(root, nullptr))
        return QByteArray();
    return walkOf(root);
}

QByteArray storageRecheckCommand(const QString &folder)
{
    if (!folder.startsWith(u'/') || folder == QLatin1String("/") || folder.contains(u'\n') ||
        folder.contains(QChar(0)) || folder.split(u'/').contains(QLatin1String("..")))
        return QByteArray();
    return walkOf(folder);
}

QByteArray storageDfCommand(const QStringList &roots)
{
    QByteArray cmd;
    for (const QString &r : roots)
        if (validStorageRoot(r, nullptr))
            cmd += ' ' + shellQuote(r.toUtf8());
    return cmd.isEmpty() ? cmd : "df -P -k" + cmd;
}

} // namespace gpudesk::nodecmd
