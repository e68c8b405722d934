// SPDX-License-Identifier: GPL-3.0-or-later
#include "nasplanner.h"

#include "format.h"

#include <QHash>

#include <algorithm>

namespace gpudesk {

NasPlanner::NasPlanner(QString context, QString server, QString node, QStringList roots)
    : m_context(std::move(context)), m_server(std::move(server)), m_node(std::move(node)),
      m_roots(std::move(roots))
{}

bool NasPlanner::isPlain(const QString &path)
{
    if (!path.startsWith(u'/') || path.size() < 2 || path.endsWith(u'/') || path.contains(QChar()))
        return false;
    const QStringList parts = path.mid(1).split(u'/');
    return std::none_of(parts.cbegin(), parts.cend(), [](const QString &p) {
        return p.isEmpty() || p == QLatin1String(".") || p == QLatin1String("..");
    });
}

QString NasPlanner::rootOf(const QStringList &roots, const QString &path)
{
    if (!isPlain(path))
        return QString();
    for (const QString &r : roots)
        if (isPlain(r) && path.startsWith(r + u'/'))
            return r;
    return QString();
}

OperationPlan NasPlanner::plan(const QString &action, const QString &title) const
{
    OperationPlan p;
    p.action = action;
    p.title = title;
    p.context = m_context;
    p.server = m_server;
    if (m_node.isEmpty() && m_pod.isEmpty())
        p.refusals << tr("No node that mounts the NAS answers over SSH.");
    return p;
}

QString NasPlanner::via() const
{
    return m_pod.isEmpty() ? QStringLiteral("sftp ") + m_node
                           : QStringLiteral("exec in pod ") + m_pod;
}

PlanStep NasPlanner::step(PlanStep::Kind kind, const RemoteFile &f, const QString &root) const
{
    PlanStep s;
    s.kind = kind;
    s.target.kind = QStringLiteral("NasPath");
    s.target.name = f.path;
    s.target.node = m_node;
    // Whose it is: the folder under the root it lies in (/mnt/user/alice/… is alice's).
    s.target.user = f.path.mid(root.size() + 1).section(u'/', 0, 0);
    s.nas.node = m_node;
    s.nas.pod = m_pod;
    s.nas.root = root;
    s.nas.path = f.path;
    s.nas.type = f.type;
    s.nas.size = f.size;
    s.nas.modified = f.modified;
    s.why = tr("chosen in the Files tab");
    return s;
}

PlanStep NasPlanner::removal(const RemoteFile &f, const QString &root) const
{
    PlanStep s = step(PlanStep::Kind::RemoveNasPath, f, root);
    switch (f.type) {
    case 'd':
        s.description = tr("Remove the folder %1 and everything in it").arg(f.path);
        break;
    case 'l':
        s.description = tr("Remove the link %1 (not what it points to)").arg(f.path);
        break;
    default:
        s.description = tr("Remove %1 (%2)").arg(f.path, format::bytes(f.size));
    }
    s.detail = QStringLiteral("%1: remove %2 (depth first, links not followed)").arg(via(), f.path);
    return s;
}

void NasPlanner::askTyped(OperationPlan &p)
{
    // A folder's name is typed (what it holds is not in sight); with several entries, their
    // count, as every batch.
    const bool folders = std::any_of(p.steps.cbegin(), p.steps.cend(),
                                     [](const PlanStep &s) { return s.nas.type == 'd'; });
    if (folders && p.steps.size() == 1)
        p.typedWord = p.steps.first().target.name.section(u'/', -1);
    else if (folders)
        p.typedWord = QString::number(p.steps.size());
    p.warnings << tr("gpudesk cannot bring back what is removed from the NAS; only the NAS's "
                     "own snapshots, where it keeps them, can.");
}

OperationPlan NasPlanner::remove(const QList<RemoteFile> &entries) const
{
    OperationPlan p = plan(
        QStringLiteral("nas.remove"),
        entries.size() == 1 ? tr("Remove %1 from the NAS").arg(entries.first().name)
                            : tr("Remove %n item(s) from the NAS", nullptr, int(entries.size())));
    for (const RemoteFile &f : entries) {
        const QString root = rootOf(m_roots, f.path);
        if (root.isEmpty()) {
            p.refusals << tr("%1 is not inside a NAS root (%2): gpudesk removes nothing "
                             "outside them.")
                              .arg(f.path, m_roots.join(QStringLiteral(", ")));
            continue;
        }
        p.steps << removal(f, root);
    }
    askTyped(p);
    return p;
}

OperationPlan NasPlanner::cleanup(const QList<NasCandidate> &candidates,
                                  const QList<RemotePathInfo> &now, qint64 nowMs,
                                  const QHash<QString, FolderRecheck> &below) const
{
    qint64 bytes = 0;
    for (const NasCandidate &c : candidates)
        bytes += c.bytes;
    OperationPlan p = plan(QStringLiteral("nas.cleanup"),
                           tr("Clean up the NAS: %n item(s), %1", nullptr, int(candidates.size()))
                               .arg(format::bytes(bytes)));
    QHash<QString, RemotePathInfo> byPath;
    for (const RemotePathInfo &i : now)
        byPath.insert(i.path, i);
    for (const NasCandidate &c : candidates) {
        const QString root = rootOf(m_roots, c.path);
        const RemotePathInfo there = byPath.value(c.path);
        if (root.isEmpty()) {
            p.refusals << tr("%1 is not inside a NAS root (%2): gpudesk removes nothing "
                             "outside them.")
                              .arg(c.path, m_roots.join(QStringLiteral(", ")));
            continue;
        }
        if (!byPath.contains(c.path) || !there.found) {
            p.notes << tr("%1 is no longer there: left out.").arg(c.path);
            continue;
        }
        if (there.type != c.type) {
            p.notes << tr("%1 is no longer what the walk found: left out.").arg(c.path);
            continue;
        }
        // The walk's times have fractions of a second, SFTP's whole seconds.
        if (c.type != 'd' &&
            (there.size != c.bytes || there.modified / 1000 != c.modified / 1000)) {
            p.notes << tr("%1 changed since the walk (%2, %3): left out.")
                           .arg(c.path, format::bytes(there.size), format::when(there.modified));
            continue;
        }
        // A file someone read since the walk is in use again, whatever its age said: a stale
        // checkpoint loaded for an evaluation, a core dump opened in gdb. (A NAS mounted
        // noatime never moves it: there the walk's word stands.)
        if (c.type != 'd' && there.accessed / 1000 > c.accessed / 1000) {
            p.notes << tr("%1 was read since the walk (%2): left out.")
                           .arg(c.path, format::when(there.accessed));
            continue;
        }
        // A folder's own time moves when an entry is made, removed or renamed right in it: a
        // user who left whose folder someone is filling or emptying now. It cannot be newer than
        // the newest time the walk found below it unless that happened after the walk.
        if (c.type == 'd' && there.modified / 1000 > c.modified / 1000) {
            p.notes << tr("%1 changed since the walk (an entry made or removed in it, %2): left "
                          "out.")
                           .arg(c.path, format::when(there.modified));
            continue;
        }
        // A change deeper down moves no time of the folder's own: the folder walked again.
        if (const auto b = below.constFind(c.path); c.type == 'd' && b != below.cend()) {
            if (!b->error.isEmpty()) {
                p.notes << tr("%1 could not be walked again right before (%2): left out.")
                               .arg(c.path, b->error);
                continue;
            }
            if (b->newest / 1000 > c.modified / 1000) {
                p.notes << tr("%1 changed below it since the walk (%2): left out.")
                               .arg(c.path, format::when(b->newest));
                continue;
            }
        }
        RemoteFile f;
        f.path = c.path;
        f.name = c.path.section(u'/', -1);
        f.type = there.type;
        f.size = there.size;
        f.modified = there.modified;
        f.permissions = there.permissions;
        PlanStep s = removal(f, root);
        s.target.user = c.owner;
        s.why =
            NasCleanup::classTitle(c.cls) + QStringLiteral(": ") + NasCleanup::evidence(c, nowMs);
        p.steps << s;
    }
    if (!candidates.isEmpty())
        p.notes << (below.isEmpty()
                        ? tr("Found in the walk of %1 on %2; each path was asked again just now.")
                        : tr("Found in the walk of %1 on %2; each path was asked again just now, "
                             "each folder walked again."))
                       .arg(format::when(candidates.constFirst().measuredAt),
                            candidates.constFirst().node);
    askTyped(p);
    return p;
}

OperationPlan NasPlanner::move(const RemoteFile &f, const QString &toFolder) const
{
    const QString folder =
        toFolder.endsWith(u'/') && toFolder.size() > 1 ? toFolder.chopped(1) : toFolder;
    const QString to = folder + u'/' + f.name;
    OperationPlan p = plan(QStringLiteral("nas.move"), tr("Move %1 to %2").arg(f.name, folder));
    const QString root = rootOf(m_roots, f.path);
    if (root.isEmpty())
        p.refusals << tr("%1 is not inside a NAS root (%2).")
                          .arg(f.path, m_roots.join(QStringLiteral(", ")));
    else if (rootOf(m_roots, to).isEmpty() || f.name.contains(u'/'))
        p.refusals << tr("%1 is not a folder inside a NAS root (%2).")
                          .arg(toFolder, m_roots.join(QStringLiteral(", ")));
    else if (to == f.path)
        p.refusals << tr("%1 is already in %2.").arg(f.name, folder);
    else if (folder == f.path || folder.startsWith(f.path + u'/'))
        p.refusals << tr("A folder cannot be moved into itself.");
    if (!p.refusals.isEmpty())
        return p;
    PlanStep s = step(PlanStep::Kind::MoveNasPath, f, root);
    s.nas.toPath = to;
    s.description = tr("Move %1 to %2").arg(f.path, to);
    s.detail = QStringLiteral("%1: rename %2 %3").arg(via(), f.path, to);
    p.steps << s;
    p.notes << tr("Jobs and dev environments that use the old path will not find it there.");
    return p;
}

} // namespace gpudesk
