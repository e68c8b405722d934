// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "simstate.h"

#include <QObject>

#include <set>

namespace sim {

// kube-controller-manager's namespace controller: a namespace whose deletion was asked is
// Terminating until everything in it is gone — each object deleted as a client would (pods with
// their grace period, so a running pod takes as long as its kubelet takes to stop it) — and then
// the namespace itself goes. Driven by the store's changes, so it also works at --speed 0.
class NamespaceController : public QObject
{
    Q_OBJECT
public:
    explicit NamespaceController(SimState &state);
    void sync();

private:
    void onChanged(const ResourceType *type, const WatchEvent &event);
    void schedule();

    SimState &m_state;
    std::set<QString> m_terminating;
    bool m_scheduled = false;
};

} // namespace sim
