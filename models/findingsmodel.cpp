// SPDX-License-Identifier: GPL-3.0-or-later
#include "findingsmodel.h"

#include "format.h"

#include <QDateTime>

namespace gpudesk {

FindingsModel::FindingsModel(QObject *parent)
    : KeyedTableModel(parent), m_now([] { return QDateTime::currentMSecsSinceEpoch(); })
{}

void FindingsModel::setFindings(const QList<Finding> &findings)
{
    QSet<QString> dirty(m_findings.keyBegin(), m_findings.keyEnd());
    QHash<QString, Finding> next;
    next.reserve(findings.size());
    for (const Finding &f : findings) {
        next.insert(f.key, f);
        dirty.insert(f.key);
    }
    m_findings = std::move(next);
    sync(dirty, [this](const QString &key) { return m_findings.contains(key); });
}

const Finding *FindingsModel::finding(const QString &key) const
{
    const auto it = m_findings.constFind(key);
    return it == m_findings.cend() ? nullptr : &*it;
}

int FindingsModel::gpus() const
{
    int n = 0;
    for (const Finding &f : m_findings)
        n += f.gpus;
    return n;
}

QString FindingsModel::remedyText(gpudesk::Remedy r)
{
    switch (r) {
    case gpudesk::Remedy::None:
        return tr("None by gpudesk");
    case gpudesk::Remedy::KillProcesses:
        return tr("Kill the processes");
    case gpudesk::Remedy::DeletePod:
        return tr("Delete the pod");
    case gpudesk::Remedy::ForceDeletePod:
        return tr("Force-delete the pod");
    case gpudesk::Remedy::KillThenForceDelete:
        return tr("Kill its processes, then force-delete it");
    case gpudesk::Remedy::StopWorkload:
        return tr("Stop the job");
    case gpudesk::Remedy::Drain:
        return tr("Cordon and drain the node");
    }
    return QString();
}

int FindingsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FindingsModel::data(const QModelIndex &index, int role) const
{
    const Finding *f = index.isValid() ? findingAt(index.row()) : nullptr;
    if (!f)
        return {};
    const int col = index.column();
    switch (role) {
    case KeyRole:
        return f->key;
    case ClassRole:
        return int(f->cls);
    case RemedyRole:
        return int(f->remedy);
    case UserNameRole:
        return f->user;
    case VcRole:
        return f->vc;
    case NamespaceRole:
        return f->ns;
    case SeverityRole:
        // What no action of gpudesk's can end is an error; the rest waits for a decision.
        return f->remedy == gpudesk::Remedy::None || f->cls == FindingClass::Uninterruptible ? 2
                                                                                             : 1;
    case FilterRole:
        return QStringList{
            findingClassTitle(f->cls), f->node, f->ns, f->pod, f->user, f->vc, f->evidence}
            .join(u' ');
    case SortRole:
        switch (col) {
        case Class:
            return int(f->cls);
        case Gpus:
            return f->gpus;
        case Since:
            return f->since;
        default:
            break;
        }
        [[fallthrough]];
    case Qt::DisplayRole:
        switch (col) {
        case Class:
            return findingClassTitle(f->cls);
        case Node:
            return f->node;
        case Target:
            if (!f->pod.isEmpty())
                return QString(f->ns + u'/' + f->pod);
            if (!f->processes.isEmpty()) {
                QStringList pids;
                for (const FindingProcess &p : f->processes)
                    pids << QString::number(p.pid);
                return tr("PID %1").arg(pids.join(QStringLiteral(", ")));
            }
            return tr("GPU %1").arg([&] {
                QStringList c;
                for (int i : f->cards)
                    c << QString::number(i);
                return c.join(QStringLiteral(", "));
            }());
        case User:
            return f->user;
        case Vc:
            return f->vc;
        case Gpus:
            return f->migDevices > 0 && f->gpus == 0 ? tr("%n MIG", nullptr, f->migDevices)
                                                     : QString::number(f->gpus);
        case Since:
            return f->since > 0 ? QString((f->sinceAtLeast ? QStringLiteral("≥ ") : QString()) +
                                          format::age(f->since, m_now()))
                                : QStringLiteral("—");
        case Evidence:
            return f->evidence;
        case Remedy:
            // Deleting a dev environment's pod is how it stops: its volume stays.
            return f->remedy == gpudesk::Remedy::DeletePod && !f->devEnv.isEmpty()
                       ? tr("Stop the dev environment (volume kept)")
                       : remedyText(f->remedy);
        default:
            break;
        }
        break;
    case Qt::ToolTipRole:
        if (col == Since && f->since > 0)
            return tr("Since %1 (%2)").arg(format::when(f->since), f->sinceSource);
        if (col == Remedy)
            return f->remedyNote;
        if (col == Evidence || col == Target)
            return f->evidence;
        break;
    case Qt::TextAlignmentRole:
        if (col == Gpus)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        break;
    default:
        break;
    }
    return {};
}

QVariant FindingsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Class:
        return tr("Finding");
    case Node:
        return tr("Node");
    case Target:
        return tr("Pod / process");
    case User:
        return tr("User");
    case Vc:
        return tr("VC");
    case Gpus:
        return tr("GPUs");
    case Since:
        return tr("For");
    case Evidence:
        return tr("Evidence");
    case Remedy:
        return tr("Remedy");
    default:
        return {};
    }
}

} // namespace gpudesk
