// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "entities.h"

#include <QCoreApplication>
#include <QStringList>

namespace gpudesk {

class ClusterStore;

// A VC (Volcano queue) as the admin wants it: what the create / edit form holds.
struct QueueSpec
{
    QString name;
    QString parent; // "" (or "root"): a top-level queue
    int weight = 1;
    bool reclaimable = true;
    // Resource name ("nvidia.com/gpu", "cpu", "memory") → thousandths; a resource left out is
    // not limited (capability) or not set (deserved, guarantee).
    ResourceAmounts capability;
    ResourceAmounts deserved;
    ResourceAmounts guarantee;

    static QueueSpec of(const QueueInfo &queue);
    bool operator==(const QueueSpec &) const = default;
};

// What the queue webhook of older Volcano releases let through and users were hurt by — a
// capability below deserved, children whose guarantees add up to more than their parent's
// (it broke scheduling cluster-wide), a capability cut below what is allocated — checked before
// anything reaches the API, in words; and what a change will do to the jobs in the queue.
class QueueRules
{
    Q_DECLARE_TR_FUNCTIONS(QueueRules)

public:
    // Why `spec` may not be applied ("" list: it may). `queues` is the cluster's queues now;
    // `creating` a new one rather than editing the one of that name.
    static QStringList errors(const QueueSpec &spec, const QList<QueueInfo> &queues, bool creating);
    // What the admin should know but may go ahead with (a capability below what is allocated).
    static QStringList warnings(const QueueSpec &spec, const ClusterStore &store);
    // The change's effect on the queue's jobs, in sentences: "3 running jobs keep running (a
    // resize never touches them)", "2 waiting jobs of nlp would be admitted: a, b".
    static QStringList effects(const QueueSpec &spec, const ClusterStore &store);

    // A queue name the API accepts (an RFC 1123 subdomain); "" or why not.
    static QString nameError(const QString &name);
    // "default" and "root" are Volcano's own and may not be deleted.
    static bool isProtected(const QString &name);
};

} // namespace gpudesk
