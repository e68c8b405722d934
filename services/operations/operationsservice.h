// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "auditlog.h"
#include "operation.h"
#include "operationcontext.h"
#include "operationplanner.h"

#include <QList>
#include <QObject>
#include <QPointer>

namespace gpudesk {

class ClusterSession;
class ClusterStore;
class TelemetryStore;

// Every action on the cluster or its nodes goes through here: a plan from the planner, an
// operation that checks it (dry runs), runs it when the user confirms, verifies and audits it.
// Operations belong to this service, not to the page that started them: they go on through
// page switches and context switches (each holds its connection).
class OperationsService : public QObject
{
    Q_OBJECT
public:
    OperationsService(ClusterSession *session, const ClusterStore *store,
                      const TelemetryStore *telemetry, QObject *parent = nullptr);
    ~OperationsService() override;

    bool available() const;
    // The planner for the current connection, its stores as they are now.
    OperationPlanner planner() const;
    // An operation for the plan, its checks started at once; run it with Operation::start.
    Operation *prepare(const OperationPlan &plan);
    // An operation on a registry's images, acting with the credentials found for it; recorded
    // as the registry user, by the kubeconfig user at the desk. `harborApi`: the registry's
    // Harbor, for its garbage collection.
    Operation *prepare(const OperationPlan &plan, const RegistryEndpoint &registry,
                       const RegistryCredentials &credentials, const QUrl &harborApi = {});
    QList<Operation *> operations() const;
    bool isRunning() const; // some operation is running
    const AuditLog &audit() const { return m_audit; }
    void setAuditPath(const QString &path) { m_audit = AuditLog(path); }
    // Whom the actions are recorded as: the kubeconfig user of the current context.
    QString who() const;

signals:
    void operationAdded(gpudesk::Operation *operation);
    void operationFinished(gpudesk::Operation *operation);

private:
    OperationContext context() const;
    Operation *prepare(const OperationPlan &plan, OperationContext context);

    ClusterSession *m_session;
    const ClusterStore *m_store;
    const TelemetryStore *m_telemetry;
    AuditLog m_audit;
    QList<QPointer<Operation>> m_operations;
};

} // namespace gpudesk
