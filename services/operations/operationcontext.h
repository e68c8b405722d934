// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "clustersession.h"
#include "registrytypes.h"

#include <QPointer>
#include <QString>
#include <QUrl>

#include <memory>

namespace gpudesk {

class ClusterStore;
class ContextConnection;
class TelemetryStore;

// What an operation acts with: one connection, kept alive by the lease through a context
// switch, and the stores while they still show that connection's cluster (after a switch,
// effects are checked with the API alone).
struct OperationContext
{
    std::shared_ptr<ContextConnection> lease; // ContextConnection::Lease
    QPointer<ClusterSession> session;
    const ClusterStore *store = nullptr;
    const TelemetryStore *telemetry = nullptr;
    QString who; // the kubeconfig user entry: for the audit and the Events
    // For image steps: the registry and the credentials found for it (in memory only).
    RegistryEndpoint registry;
    RegistryCredentials registryCredentials;
    QUrl harborApi; // the registry's Harbor, where it has one
    bool storesCurrent() const { return session && session->connection() == lease; }
};

} // namespace gpudesk
