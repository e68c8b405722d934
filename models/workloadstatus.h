// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

// A workload's status word in the classes the pages filter by. A leaf: the store, the resolver
// and the tables read it, and it reads none of them (it once lived in WorkloadsTable, which made
// a loop: store → resolver → sorted table ↔ model → store).
namespace gpudesk::workloadstatus {

enum Class
{
    AnyStatus,
    Running,
    Waiting,
    Problem,
    Finished
};

// 2 for a failure (Failed, CrashLoopBackOff, OOMKilled…), 1 for waiting (Pending, Inqueue,
// ContainerCreating…), 0 otherwise.
int severity(const QString &status);
Class classOf(const QString &status);

} // namespace gpudesk::workloadstatus
