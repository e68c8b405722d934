// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Qt>

namespace gpudesk {

// Roles gpudesk's models answer beside the display ones. Proxies sort and filter on these raw
// values; views never sort strings like "12 GiB".
enum ModelRole
{
    SortRole = Qt::UserRole + 1, // the raw value to sort by (numbers, times)
    KeyRole,                     // the row's key in the store (uid or name)
    FilterRole,                  // text the free-text filter matches against
    UsedRole,                    // for bar cells: the used amount…
    TotalRole,                   // …of this total
    SeverityRole,                // 0 fine, 1 warning, 2 error: for colour
    UserNameRole,                // the user a row belongs to
    VcRole,                      // its virtual cluster (Volcano queue)
    StatusRole,                  // its status word (Running, Pending, …)
    KindRole,                    // Job, PyTorchJob, MPIJob, Pod, …
    NamespaceRole,
    IsPodRole,      // the row is a pod (a workload's child, or a bare pod)
    DepthRole,      // in a flattened tree: 0 for a top-level row, 1 for its children
    ExpandableRole, // the row has children it can show
    ExpandedRole,   // …and shows them
    // The row's workloadstatus::Class: its status word's, or Problem when it is stuck
    // (waiting for a reason that will not go away by itself).
    StatusClassRole,
    PodUidRole, // the pod a row is about (a process's, by its cgroup), for opening it
    // A cleanup candidate (ImagesModel: run by no pod now, and built before the date it is given)
    CandidateRole,
    // The job doctor's class of the row's cause (shared-memory, image-pull…); "" when none
    DiagnosisClassRole,
};

} // namespace gpudesk
