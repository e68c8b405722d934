// SPDX-License-Identifier: GPL-3.0-or-later
#include "palettesource.h"

#include "clusterstore.h"

namespace gpudesk {

QList<PaletteEntry> PaletteSource::objects(const ClusterStore &store)
{
    QList<PaletteEntry> out;
    const QList<NodeInfo> nodes = store.nodes();
    const QList<QueueInfo> queues = store.queues();
    const QList<NamespaceInfo> users = store.users();
    const QStringList jobs = store.jobKeys();
    out.reserve(nodes.size() + queues.size() + users.size() + jobs.size() + store.pods().size());
    for (const NodeInfo &n : nodes) {
        QString detail = n.gpuModel;
        if (n.gpuCapacity > 0)
            detail = QStringLiteral("%1 × %2").arg(n.gpuCapacity).arg(n.gpuModel);
        out.append({PaletteEntry::Node, n.name, detail, n.name});
    }
    for (const QString &uid : jobs) {
        if (const JobInfo *j = store.job(uid))
            out.append(
                {PaletteEntry::Job, j->name,
                 QStringLiteral("%1 · %2").arg(j->ns, QLatin1String(resourceInfo(j->kind).kind)),
                 uid});
    }
    for (const PodInfo &p : store.pods())
        out.append({PaletteEntry::Pod, p.name,
                    p.nodeName.isEmpty() ? p.ns : QStringLiteral("%1 · %2").arg(p.ns, p.nodeName),
                    p.uid});
    for (const NamespaceInfo &ns : users)
        out.append({PaletteEntry::User, ns.user.isEmpty() ? ns.name : ns.user,
                    ns.vc.isEmpty() ? ns.name : QStringLiteral("%1 · %2").arg(ns.name, ns.vc),
                    ns.name});
    for (const QueueInfo &q : queues)
        out.append({PaletteEntry::Vc, q.name, QString(), q.name});
    return out;
}

} // namespace gpudesk
