// SPDX-License-Identifier: GPL-3.0-or-later
#include "nascopy.h"

#include "format.h"
#include "nasfiles.h"
#include "remotefileaccess.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>

namespace gpudesk {

namespace {

// Where a file of a copy is written until it is whole: PATH.part, or PATH.part1, PATH.part2…
// when the copy itself holds a file of that name (a folder with X and X.part: X's bytes would
// go on into the other file, taken for a copy that broke, and replace it). Chosen from what is
// copied, so that the next try after a break picks the same name and goes on where it stopped.
QString partName(const QString &path, const QSet<QString> &copied)
{
    QString part = path + QStringLiteral(".part");
    for (int k = 1; copied.contains(part); ++k)
        part = path + QStringLiteral(".part") + QString::number(k);
    return part;
}

} // namespace

std::pair<bool, QString> NasCopy::download(RemoteFileAccess &files, const RemoteFile &what,
                                           const QString &localDir, NasCopyState *shared,
                                           const std::atomic<bool> &cancel)
{
    QString error;
    QStringList left;
    struct Item
    {
        RemoteFile file;
        QString local;
    };
    QList<Item> items;
    bool ok = true;
    const QString top = QDir(localDir).filePath(what.name);
    if (ok && what.type == 'd') {
        // Every file below the folder, folders made as they are met; links and special
        // files are named and left (a link may lead anywhere, out of the NAS too).
        QList<std::pair<QString, QString>> dirs{{what.path, top}};
        while (!dirs.isEmpty() && !cancel && !shared->stop) {
            const auto [remote, local] = dirs.takeFirst();
            QString why;
            const auto entries = files.list(remote, &why);
            if (!entries) {
                left << why;
                continue;
            }
            QDir().mkpath(local);
            for (const RemoteFile &e : *entries) {
                const QString target = QDir(local).filePath(e.name);
                if (e.type == 'd')
                    dirs.append({e.path, target});
                else if (e.type == 'f')
                    items.append({e, target});
                else
                    left << NasFiles::tr("%1: a link or special file, not followed").arg(e.path);
            }
        }
    } else if (ok && what.type == 'f') {
        items.append({what, top});
    } else if (ok) {
        ok = false;
        error = NasFiles::tr("%1 is a link or special file: only files and folders are "
                             "copied")
                    .arg(what.path);
    }
    qint64 total = 0;
    QSet<QString> targets;
    for (const Item &i : std::as_const(items)) {
        total += i.file.size;
        targets.insert(i.local);
    }
    shared->total = total;
    qint64 base = 0;
    int copied = 0;
    for (const Item &i : std::as_const(items)) {
        if (!ok)
            break;
        shared->setCurrent(i.file.path);
        const QFileInfo there(i.local);
        if (there.exists() && there.size() == i.file.size) { // copied before
            base += i.file.size;
            shared->done = base;
            ++copied;
            continue;
        }
        const QString part = partName(i.local, targets);
        ok = files.download(
                 i.file.path, part, [&](qint64 n) { shared->done = base + n; }, shared->stop,
                 &error) &&
             !cancel;
        if (ok && QFileInfo(part).size() != i.file.size) {
            ok = false;
            error = NasFiles::tr("%1: %2 copied of %3; the file changed during the copy?")
                        .arg(i.file.path, format::bytes(QFileInfo(part).size()),
                             format::bytes(i.file.size));
            // Not resumable: a part longer than the file (it shrank, or was replaced) would
            // fail this way at every try. The next one starts afresh.
            QFile::remove(part);
        }
        if (ok) {
            QFile::remove(i.local);
            ok = QFile::rename(part, i.local);
            if (!ok)
                error = NasFiles::tr("Cannot name %1").arg(i.local);
        }
        base += i.file.size;
        ++copied;
    }
    QString message = ok ? NasFiles::tr("Downloaded %n file(s), %1, into %2.", nullptr, copied)
                               .arg(format::bytes(total), QDir::toNativeSeparators(top))
                         : error;
    if (!left.isEmpty())
        message += u'\n' + NasFiles::tr("Left: %1").arg(left.join(u'\n'));
    return {ok, message};
}

std::pair<bool, QString> NasCopy::upload(RemoteFileAccess &files, const QString &local,
                                         const QString &into, NasCopyState *shared,
                                         const std::atomic<bool> &cancel)
{
    QString error;
    QStringList left;
    const QFileInfo top(local);
    const bool folder = top.isDir() && !top.isSymLink();
    const QString remoteTop = into + top.fileName();
    const NasFiles::UploadList list =
        folder ? NasFiles::listFolder(local, remoteTop)
               : NasFiles::UploadList{{}, {{local, remoteTop, top.size()}}, {}};
    left << list.left;
    shared->total = list.bytes();
    bool ok = true;
    if (ok && !folder && !top.isFile()) {
        ok = false;
        error = NasFiles::tr("%1 is neither a file nor a folder: not copied").arg(local);
    }
    // The folders first, each before what it holds (a copy that broke made some already).
    for (const QString &d : list.folders)
        ok = ok && !shared->stop && files.makeFolder(d, &error);
    qint64 base = 0, placed = 0;
    int copied = 0, already = 0;
    QSet<QString> targets;
    for (const NasFiles::UploadItem &i : list.files)
        targets.insert(i.remote);
    for (const NasFiles::UploadItem &i : list.files) {
        if (!ok)
            break;
        shared->setCurrent(i.remote);
        QString why;
        if (const auto there = files.stat(i.remote, &why)) {
            base += i.size;
            shared->done = base;
            if (!folder) {
                ok = false;
                error = NasFiles::tr("%1 is there already: nothing was replaced.").arg(i.remote);
            } else if (there->type == 'f' && there->size == i.size) {
                ++already; // copied before the copy broke
                placed += i.size;
            } else {
                left << NasFiles::tr("%1 is there already (%2): not replaced")
                            .arg(i.remote, format::bytes(there->size));
            }
            continue;
        }
        const QString part = partName(i.remote, targets);
        // Gone on with only when it is a plain file: a link planted under that name would
        // send the bytes wherever it points.
        if (const auto there = files.stat(part, &why); there && there->type != 'f') {
            ok = false;
            error =
                NasFiles::tr("%1 is there and is not a plain file: nothing was written.").arg(part);
            break;
        }
        ok = files.upload(
                 i.local, part, [&](qint64 n) { shared->done = base + n; }, shared->stop, &error) &&
             !cancel;
        if (ok) {
            const auto written = files.stat(part, &error);
            ok = written && written->size == i.size;
            if (written && !ok)
                error = NasFiles::tr("%1: %2 on the NAS of %3")
                            .arg(i.remote, format::bytes(written->size), format::bytes(i.size));
        }
        ok = ok && files.rename(part, i.remote, &error);
        base += i.size;
        placed += i.size;
        ++copied;
    }
    QString message = error;
    if (ok && folder)
        message = NasFiles::tr("Uploaded %n file(s), %1, to %2.", nullptr, copied + already)
                      .arg(format::bytes(placed), remoteTop);
    else if (ok)
        message = NasFiles::tr("Uploaded %1 (%2) to %3.")
                      .arg(top.fileName(), format::bytes(top.size()), remoteTop);
    if (ok && already > 0)
        message +=
            u' ' + NasFiles::tr("%n of them were there from a copy that broke.", nullptr, already);
    if (!left.isEmpty())
        message += u'\n' + NasFiles::tr("Left: %1").arg(left.join(u'\n'));
    return {ok, message};
}

} // namespace gpudesk
