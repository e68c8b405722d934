// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QObject>
#include <QString>

namespace gpudesk {

class ClusterStore;
class KubeClient;

// `gpudesk --report FILE`: lists what the dashboards need into the store, writes the figures the
// Overview and Nodes pages show (schema: docs/report.md), and says how it ended.
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
    void write();

    KubeClient *m_client;
    ClusterStore *m_store;
    QString m_output;
    bool m_volcano = true;
};

} // namespace gpudesk
