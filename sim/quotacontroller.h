// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "simstate.h"

#include <QObject>

#include <set>

namespace sim {

class QuotaAdmission;

// kube-controller-manager's resource quota controller: each ResourceQuota's status.hard is its
// spec.hard and status.used what its namespace uses of each of those resources, recomputed
// whenever a pod, claim or quota of the namespace changes (queued, so a burst is counted once;
// driven by the store, so it also works at --speed 0).
class QuotaController : public QObject
{
    Q_OBJECT
public:
    QuotaController(SimState &state, const QuotaAdmission &admission);
    void sync();

private:
    void onChanged(const ResourceType *type, const WatchEvent &event);
    void syncNamespace(const QString &ns);

    SimState &m_state;
    const QuotaAdmission &m_admission;
    const ResourceType *m_quotas;
    const ResourceType *m_claims;
    std::set<QString> m_dirty;
    bool m_scheduled = false;
};

} // namespace sim
