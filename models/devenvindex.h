// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QHash>
#include <QSet>
#include <QString>
#include <QStringList>

namespace gpudesk {

struct PodInfo;

// The dev environments among the pods (labelled gpudesk.io/devenv=NAME), by environment — key
// "NAMESPACE/NAME" — and the pod each runs in now. ClusterStore keeps it pod by pod, so that the
// services (readiness, activity, tunnels, plans) and the page ask the store; it used to live
// inside DevEnvsModel, a view's model, that the services then had to ask for cluster facts.
class DevEnvIndex
{
public:
    explicit DevEnvIndex(const QHash<QString, PodInfo> *pods) : m_pods(pods) {}

    static QString keyOf(const QString &ns, const QString &name) { return ns + u'/' + name; }

    // The pod `uid` added or changed (`pod`, as now stored) or removed (null): the environments
    // it left or is in go into `touched`.
    void update(const QString &uid, const PodInfo *pod, QSet<QString> *touched);
    void clear();

    QStringList keys() const { return m_podsOf.keys(); }
    bool contains(const QString &key) const { return m_podsOf.contains(key); }
    // The environment a pod belongs to ("" when none).
    QString envOf(const QString &podUid) const { return m_envOf.value(podUid); }
    // The pod the environment runs in now: the newest one not finished or being deleted, as a
    // replacement overlaps its predecessor; else the newest. Null when none is left.
    const PodInfo *currentPod(const QString &key) const;

private:
    const QHash<QString, PodInfo> *m_pods;
    QHash<QString, QString> m_envOf;        // pod uid → environment key
    QHash<QString, QSet<QString>> m_podsOf; // environment key → pod uids
};

} // namespace gpudesk
