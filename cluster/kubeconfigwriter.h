// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kubeconfig.h"

#include <QByteArray>
#include <QString>

namespace gpudesk {

// A kubeconfig for one user, to hand out: one cluster (the server and trust of the admin's
// context), one user entry with a bearer token, one context with the user's namespace set.
class KubeconfigWriter
{
public:
    struct Entry
    {
        QString clusterName; // the cluster entry's name in the handed-out file
        QString userName;
        QString ns;
        QByteArray token; // secret
        QByteArray caPem; // empty: the admin context's
    };
    static QByteArray yaml(const ClusterEndpoint &from, const Entry &entry);
    // Writes `data` to `path` readable by its owner only (mode 0600 from the first byte: a
    // temporary file in the same folder, renamed over the target). "" or why not.
    static QString writePrivate(const QString &path, const QByteArray &data);
};

} // namespace gpudesk
