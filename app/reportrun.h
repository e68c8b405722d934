// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QObject>
#include <QString>

namespace gpudesk {

class ClusterStore;
class ClusterSync;
class KubeClient;
class TelemetrySession;
class TelemetryStore;

// `gpudesk --report FILE`: syncs the cluster with the same informers and store as the window,
// writes the figures the Overview, Nodes and GPU map pages show (schema: docs/report.md), and
// says how it ended.
class ReportRun : public QObject
{
    Q_OBJECT
public:
    ReportRun(KubeClient *client, ClusterStore *store, QString outputPath,
              QObject *parent = nullptr);
    // Samples every node once over SSH before writing (cards[], processes, sshState).
    void setTelemetry(TelemetryStore *telemetry, const QString &sshConfigPath);
    void start();
    static constexpr int SweepLimitMs = 30000;
    static QJsonObject reportJson(const ClusterStore &store, const TelemetryStore *telemetry,
                                  const QString &context, const QString &server, bool volcano);

signals:
    void finished(int exitCode, const QString &message);

private:
    void startSync();
    void onSynced();
    void sampleNodes(bool volcano);
    void write(bool volcano);

    KubeClient *m_client;
    ClusterStore *m_store;
    ClusterSync *m_sync = nullptr;
    QString m_output;
    TelemetryStore *m_telemetry = nullptr;
    TelemetrySession *m_telemetrySession = nullptr;
    QString m_sshConfig;
};

} // namespace gpudesk
