// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "accessreviews.h"
#include "apidiscovery.h"
#include "apihelpers.h"
#include "authorizer.h"
#include "evictionapi.h"
#include "logstreams.h"
#include "objectwrites.h"
#include "openapidocs.h"
#include "podstreams.h"
#include "serviceaccounttokens.h"
#include "simendpoints.h"
#include "watchhub.h"

#include <QObject>
#include <QTimer>

namespace sim {

class Simulation;

// The Kubernetes REST API over the object store: authentication and RBAC, routing, get and
// list; the other verbs, subresources and the simulator's own endpoints are served by the
// classes it dispatches to (discovery, watches, logs, writes, eviction, /sim/…).
class ApiServer : public QObject
{
    Q_OBJECT
public:
    ApiServer(ObjectStore *store, Simulation *simulation, Authenticator *authn,
              QObject *parent = nullptr);
    ~ApiServer() override;

    void handle(HttpConnection *connection, const HttpRequest &request);
    void setAddress(const QString &hostPort) { m_discovery.setAddress(hostPort); }
    int watchCount() const { return m_watches.count(); }
    PodStreams *podStreams() { return &m_podStreams; }
    // The cluster CA, for the token Secrets the token controller fills.
    void setCaPem(const QByteArray &pem) { m_tokens.setCaPem(pem); }

private:
    std::optional<ApiRoute> route(const QStringList &segments) const;
    void dispatch(HttpConnection *c, const HttpRequest &r, const ApiRoute &route,
                  const UserInfo &user, bool watch);
    void list(HttpConnection *c, const HttpRequest &r, const ApiRoute &route, bool table);
    void get(HttpConnection *c, const HttpRequest &r, const ApiRoute &route, bool table);

    ObjectStore *m_store;
    Authenticator *m_authn;
    Authorizer m_authz;
    AccessReviews m_reviews;
    ServiceAccountTokens m_tokens;
    ApiDiscovery m_discovery;
    OpenApiDocs m_openapi;
    WatchHub m_watches;
    LogStreams m_logs;
    ObjectWrites m_writes;
    EvictionApi m_eviction;
    PodStreams m_podStreams;
    SimEndpoints m_simEndpoints;
    QTimer m_timer;
};

} // namespace sim
