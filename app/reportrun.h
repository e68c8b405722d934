// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QObject>
#include <QString>

namespace gpudesk {

class ClusterStore;
class ClusterSync;
class KubeClient;

// `gpudesk --report FILE`: syncs the cluster with the same informers and store as the window,
// writes the figures the Overview, Nodes and GPU map pages show (schema: docs/report.md), and
// says how it ended.
class ReportRun : public QObject
{
    Q_OBJECT
public:
    ReportRun(KubeClient *client, ClusterStore *store, QString outputPath,
              QObject *parent = nullptr);
    void start();
    static QJsonObject reportJson(const ClusterStore &store, const QString &context,
                                  const QString &server, bool volcano);

signals:
    void finished(int exitCode, const QString &message);

private:
    void startSync();
    void onSynced();
    void write(bool volcano);

    KubeClient *m_client;
    ClusterStore *m_store;
    ClusterSync *m_sync = nullptr;
    QString m_output;
};

} // namespace gpudesk
