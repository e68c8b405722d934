// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

namespace sim {

class HttpConnection;
class ResourceTypes;

// The API server's discovery documents: /version, /api, /apis, /apis/<group>[/<version>],
// /api/v1 (resources with their subresources) and the health endpoints.
class ApiDiscovery
{
public:
    explicit ApiDiscovery(const ResourceTypes *types) : m_types(types) {}
    void setAddress(const QString &hostPort) { m_hostPort = hostPort; }
    // False when `path` is no discovery document (the caller answers 404).
    bool serve(HttpConnection *c, const QString &path) const;

private:
    const ResourceTypes *m_types;
    QString m_hostPort;
};

} // namespace sim
