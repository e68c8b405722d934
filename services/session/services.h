// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QStringList>

namespace gpudesk {

class AlertCenter;
class ClusterSession;
class ClusterStore;
class ConnectionState;
class DevEnvsService;
class DiagnosisService;
class FindingsService;
class GpuUseSampler;
class RegistryWatch;
class NasFiles;
class StorageService;
class HistoryService;
class ImagesService;
class LogService;
class NodeAccess;
class ObjectService;
class OperationsService;
class Permissions;
class TelemetryStore;
class UsersService;

// What the window is given: the state it draws (the stores, the connection state) and the
// services it forwards the user's intent to. It holds no client, no socket, no SSH session: the
// services own those, per context.
class Services : public QObject
{
    Q_OBJECT
public:
    explicit Services(QStringList kubeconfigFiles, QObject *parent = nullptr);
    ~Services() override;

    ConnectionState *state() const { return m_state; }
    ClusterStore *store() const { return m_store; }
    TelemetryStore *telemetry() const { return m_telemetry; }
    ClusterSession *session() const { return m_session; }
    ObjectService *objects() const { return m_objects; }
    LogService *logs() const { return m_logs; }
    HistoryService *history() const { return m_history; }
    NodeAccess *nodes() const { return m_nodes; }
    Permissions *permissions() const { return m_permissions; }
    FindingsService *findings() const { return m_findings; }
    OperationsService *operations() const { return m_operations; }
    UsersService *users() const { return m_users; }
    DevEnvsService *devEnvs() const { return m_devEnvs; }
    ImagesService *images() const { return m_images; }
    AlertCenter *alerts() const { return m_alerts; }
    GpuUseSampler *gpuUse() const { return m_gpuUse; }
    RegistryWatch *registryWatch() const { return m_registryWatch; }
    DiagnosisService *diagnoses() const { return m_diagnoses; }
    StorageService *storage() const { return m_storage; }
    NasFiles *nasFiles() const { return m_nasFiles; }

private:
    ConnectionState *m_state;
    ClusterStore *m_store;
    TelemetryStore *m_telemetry;
    ClusterSession *m_session;
    ObjectService *m_objects;
    LogService *m_logs;
    HistoryService *m_history;
    NodeAccess *m_nodes;
    Permissions *m_permissions;
    FindingsService *m_findings;
    OperationsService *m_operations;
    UsersService *m_users;
    DevEnvsService *m_devEnvs;
    ImagesService *m_images;
    AlertCenter *m_alerts;
    GpuUseSampler *m_gpuUse;
    RegistryWatch *m_registryWatch;
    DiagnosisService *m_diagnoses;
    StorageService *m_storage;
    NasFiles *m_nasFiles;
};

} // namespace gpudesk
