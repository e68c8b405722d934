// SPDX-License-Identifier: GPL-3.0-or-later
#include "sftptree.h"

#include "remotefileaccess.h"

#include <algorithm>

namespace gpudesk {

void SftpTree::Tally::problem(const QString &what)
{
    if (problems.size() < KeptProblems)
        problems << what;
    ++problemCount;
}

bool SftpTree::readDirectly(const QString &dir, Tally &t)
{
    QString why;
    if (m_sftp.readsAsWritten(dir, &why))
        return true;
    t.problem(why);
    return false;
}

void SftpTree::walk(const QString &path, Tally &t, const std::atomic<bool> &cancel, qint64 limit,
                    bool guarded, const OnEntry &onEntry)
{
    QString error;
    const std::optional<RemoteFile> top = m_sftp.stat(path, &error);
    if (!top) {
        t.problem(error);
        return;
    }
    if (top->type != 'd' || cancel) {
        if (!cancel)
            onEntry(path, top->type, top->size);
        t.cut = cancel;
        return;
    }
    struct Frame
    {
        QString dir;
        QList<RemoteFile> pending; // the entries not visited yet, the next one last
        bool listed = false;
        bool whole = true; // everything below went well
    };
    QList<Frame> stack{Frame{path, {}, false, true}};
    qint64 seen = 0;
    while (!stack.isEmpty()) {
        if (cancel || (limit > 0 && seen >= limit)) {
            t.cut = true;
            return;
        }
        Frame &f = stack.last();
        if (!f.listed) {
            f.listed = true;
            // A folder swapped for a link since its parent was listed is not entered.
            if (guarded && !readDirectly(f.dir, t)) {
                f.whole = false;
                continue;
            }
            if (auto entries = m_sftp.list(f.dir, &error)) {
                f.pending = std::move(*entries);
                std::reverse(f.pending.begin(), f.pending.end());
            } else {
                t.problem(error); // unreadable: what it holds stays
                f.whole = false;
            }
            continue;
        }
        if (!f.pending.isEmpty()) {
            const RemoteFile e = f.pending.takeLast();
            ++seen;
            if (e.type == 'd')
                stack.append(Frame{e.path, {}, false, true});
            else if (!onEntry(e.path, e.type, e.size))
                f.whole = false;
            continue;
        }
        const Frame done = stack.takeLast();
        const bool ok = done.whole && onEntry(done.dir, 'd', 0);
        if (!ok && !stack.isEmpty())
            stack.last().whole = false;
    }
}

SftpTree::Tally SftpTree::count(const QString &path, qint64 limit, const std::atomic<bool> &cancel)
{
    Tally t;
    walk(path, t, cancel, limit, false, [&t](const QString &, char type, qint64 size) {
        if (type == 'd') {
            ++t.folders;
        } else {
            ++t.files;
            t.bytes += size;
        }
        return true;
    });
    return t;
}

SftpTree::Tally SftpTree::remove(const QString &path, const Progress &progress,
                                 const std::atomic<bool> &cancel)
{
    Tally t;
    walk(path, t, cancel, 0, true, [&](const QString &p, char type, qint64 size) {
        QString error;
        const bool folder = type == 'd';
        // Right before acting: the folder it is in is still itself, not a link swapped in
        // since it was listed (over SFTP the window cannot be closed, only kept this short).
        if (!readDirectly(p.section(u'/', 0, -2), t))
            return false;
        if (!(folder ? m_sftp.removeFolder(p, &error) : m_sftp.remove(p, &error))) {
            t.problem(error);
            return false;
        }
        if (folder) {
            ++t.folders;
        } else {
            ++t.files;
            t.bytes += size;
        }
        if (progress)
            progress(t);
        return true;
    });
    return t;
}

} // namespace gpudesk
