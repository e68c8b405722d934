// SPDX-License-Identifier: GPL-3.0-or-later
#include "operationsservice.h"
#include "contextconnection.h"

#include "clustersession.h"
#include "operation.h"

namespace gpudesk {

OperationsService::OperationsService(ClusterSession *session, const ClusterStore *store,
                                     const TelemetryStore *telemetry, QObject *parent)
    : QObject(parent), m_session(session), m_store(store), m_telemetry(telemetry)
{}

OperationsService::~OperationsService() = default;

bool OperationsService::available() const
{
    return m_session->connection() != nullptr;
}

QString OperationsService::who() const
{
    const auto &c = m_session->connection();
    if (!c)
        return QString();
    const QString user = c->endpoint().userEntry;
    return (user.isEmpty() ? tr("(no user)") : user) + u'@' + c->context();
}

OperationContext OperationsService::context() const
{
    OperationContext ctx;
    ctx.lease = m_session->connection();
    ctx.session = m_session;
    ctx.store = m_store;
    ctx.telemetry = m_telemetry;
    ctx.who = who();
    return ctx;
}

OperationPlanner OperationsService::planner() const
{
    return OperationPlanner(context());
}

Operation *OperationsService::prepare(const OperationPlan &plan)
{
    return prepare(plan, context());
}

Operation *OperationsService::prepare(const OperationPlan &plan, const RegistryEndpoint &registry,
                                      const RegistryCredentials &credentials, const QUrl &harborApi)
{
    OperationContext ctx = context();
    ctx.registry = registry;
    ctx.harborApi = harborApi;
    ctx.registryCredentials = credentials;
    const QString user = credentials.username.isEmpty() ? tr("anonymous") : credentials.username;
    ctx.who = ctx.who.isEmpty() ? user + u'@' + registry.host
                                : tr("%1@%2, by %3").arg(user, registry.host, ctx.who);
    return prepare(plan, ctx);
}

Operation *OperationsService::prepare(const OperationPlan &plan, OperationContext context)
{
    auto *op = new Operation(std::move(context), plan, m_audit, this);
    m_operations.append(op);
    connect(op, &Operation::finished, this, [this, op] { emit operationFinished(op); });
    emit operationAdded(op);
    op->check();
    return op;
}

QList<Operation *> OperationsService::operations() const
{
    QList<Operation *> out;
    for (const QPointer<Operation> &o : m_operations)
        if (o)
            out << o;
    return out;
}

bool OperationsService::isRunning() const
{
    for (const QPointer<Operation> &o : m_operations)
        if (o && o->state() == Operation::State::Running)
            return true;
    return false;
}

} // namespace gpudesk
