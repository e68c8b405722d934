// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "authorizer.h"
#include "httpserver.h"
#include "objectstore.h"
#include "selectors.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <list>
#include <memory>

namespace sim {

class Simulation;

// The Kubernetes REST API over the object store: discovery, get/list/watch, create, update,
// patch, delete, pod logs, access reviews, service account tokens, and /sim/truth.
class ApiServer : public QObject
{
    Q_OBJECT
public:
    ApiServer(ObjectStore *store, Simulation *simulation, Authenticator *authn,
              QObject *parent = nullptr);
    ~ApiServer() override;

    void handle(HttpConnection *connection, const HttpRequest &request);
    void setAddress(const QString &hostPort) { m_hostPort = hostPort; }
    int watchCount() const { return int(m_watches.size()); }

private:
    struct Watch;
    struct LogFollow;
    struct Route
    {
        const ResourceType *type = nullptr;
        QString ns;
        QString name;
        QString subresource;
        bool watchPath = false;
    };

    void onStoreChanged(const ResourceType *type, const WatchEvent &event);
    void deliver(Watch &watch, const ResourceType *type, const WatchEvent &event);
    void tick();

    bool discovery(HttpConnection *c, const HttpRequest &r, const QString &path);
    std::optional<Route> route(const QStringList &segments, QString *error) const;
    void list(HttpConnection *c, const HttpRequest &r, const Route &route, bool table);
    void watch(HttpConnection *c, const HttpRequest &r, const Route &route, bool table);
    void get(HttpConnection *c, const HttpRequest &r, const Route &route, bool table);
    void create(HttpConnection *c, const HttpRequest &r, const Route &route, const UserInfo &user);
    void replace(HttpConnection *c, const HttpRequest &r, const Route &route);
    void patch(HttpConnection *c, const HttpRequest &r, const Route &route);
    void remove(HttpConnection *c, const HttpRequest &r, const Route &route);
    void logs(HttpConnection *c, const HttpRequest &r, const Route &route);
    void review(HttpConnection *c, const HttpRequest &r, const Route &route, const UserInfo &user);
    void token(HttpConnection *c, const HttpRequest &r, const Route &route);
    void writeFollowedLines(LogFollow &f);

    void sendJson(HttpConnection *c, int code, const nlohmann::json &body);
    void sendError(HttpConnection *c, const ApiError &error);
    void sendResult(HttpConnection *c, const StoreResult &result, int code);
    static nlohmann::json statusObject(const ApiError &error);

    ObjectStore *m_store;
    Simulation *m_sim;
    Authenticator *m_authn;
    Authorizer m_authz;
    QString m_hostPort;
    std::list<std::unique_ptr<Watch>> m_watches;
    std::list<std::unique_ptr<LogFollow>> m_follows;
    QTimer m_timer;
    quint64 m_tokenCounter = 0;
};

} // namespace sim
