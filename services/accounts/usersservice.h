// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "accountobjects.h"
#include "queueplanner.h"
#include "userplanner.h"

#include <QDateTime>
#include <QObject>

#include <functional>

namespace gpudesk {

class ClusterSession;
class OperationsService;

// Users and VCs: the plans for what an admin does to them (through the operations framework),
// and what is not an operation — reading the objects a user is made of, asking the server what
// a user's account may do, handing out a kubeconfig.
class UsersService : public QObject
{
    Q_OBJECT
public:
    UsersService(ClusterSession *session, OperationsService *operations, QObject *parent = nullptr);

    UserPlanner planner() const;
    QString context() const; // the context connected to
    QueuePlanner queuePlanner() const;

    using InspectDone = std::function<void(const UserObjects &)>;
    // Reads the namespace and what makes up the user in it (ServiceAccounts, RoleBindings,
    // quotas, LimitRanges, token Secrets, volumes) and the ClusterRoleBindings naming them.
    void inspect(const QString &ns, QObject *context, InspectDone done);

    // What matters to a researcher's account, asked of the API server for a subject.
    struct AccessCheck
    {
        QString what; // "exec into pods"
        QString verb;
        QString group;
        QString resource;
        QString subresource;
        bool namespaced = true;
    };
    struct AccessResult
    {
        AccessCheck check;
        bool allowed = false;
        QString reason; // the authorizer's, when it gave one
        QString error;  // the review itself failed
    };
    static QList<AccessCheck> accessChecks();
    // SubjectAccessReviews for the ServiceAccount `sa` of `ns`, one per check.
    void reviewAccess(const QString &ns, const QString &sa, QObject *context,
                      std::function<void(const QList<AccessResult> &)> done);

    struct KubeconfigRequest
    {
        QString ns;
        QString serviceAccount;
        qint64 expirationSeconds = 8 * 3600;
        bool longLived = false; // a token Secret that never expires (until revoked)
        QString path;
    };
    struct KubeconfigResult
    {
        QString error; // "" when written
        QString path;
        QDateTime expires; // invalid: does not expire
        QString context;   // the context name in the file
        // Where the server granted less time than asked (its cap), said: "" otherwise.
        QString shortened;
    };
    // Issues a token (TokenRequest, or a long-lived token Secret), checks the server accepts
    // it, writes the kubeconfig (mode 0600) and records it in the audit log (without the token).
    void handOutKubeconfig(const KubeconfigRequest &request, QObject *context,
                           std::function<void(const KubeconfigResult &)> done);

    // The cluster's ClusterRoles a user may be bound to (system ones left out).
    void clusterRoles(QObject *context,
                      std::function<void(const QStringList &, const QString &)> done);

private:
    void writeKubeconfig(const KubeconfigRequest &request, const QByteArray &token,
                         const QByteArray &caPem, const QDateTime &expires,
                         std::function<void(const KubeconfigResult &)> done);
    void waitForSecret(
        const QString &path, int attempt, QObject *context,
        std::function<void(const QByteArray &token, const QByteArray &ca, const QString &error)>
            done);

    ClusterSession *m_session;
    OperationsService *m_operations;
};

} // namespace gpudesk
