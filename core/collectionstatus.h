// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "resource.h"

#include <QDateTime>
#include <QMetaType>
#include <QString>

namespace gpudesk {

// Where the sync of one collection stands, as its informer last said.
struct InformerStatus
{
    enum State
    {
        Idle,
        Syncing,     // listing
        Live,        // watching
        Retrying,    // the stream broke; waiting to resume (see since, error)
        Unavailable, // the cluster lacks this API (404): not an error, the feature is hidden
        Forbidden,   // RBAC denies listing it
        Failed,      // the server answered something gpudesk cannot use; retried later
    };
    Resource resource = Resource::Pods;
    State state = Idle;
    QDateTime since; // when the state began
    QString error;   // the last error, in the server's words where it gave some
    QString scope;   // the namespace it fell back to when cluster-wide access is denied
    int objects = 0; // in the last complete list
    // The list under way (Syncing): the objects of its pages so far, and how many the server
    // said it has in all (what came and its remainingItemCount; -1 while it has not said).
    qint64 listed = 0;
    qint64 expected = -1;
    int relists = 0;
    // Retrying because the server itself could not be reached (refused, TLS, DNS, closed, timed
    // out, not responding): the connection's failure, told once for the server, not this
    // collection's.
    bool serverUnreachable = false;
};

} // namespace gpudesk
