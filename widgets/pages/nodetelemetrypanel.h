// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "objectref.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

namespace gpudesk {

class ClusterStore;
class TelemetryChart;
class TelemetryStore;

// What the node itself says: SSH state with what to do about it, CPU / memory / load and disks,
// a chart of its history, its cards, every GPU process with its pod, user and VC, and each
// running pod's own CPU and memory against its requests.
class NodeTelemetryPanel : public QWidget
{
    Q_OBJECT
public:
    NodeTelemetryPanel(const ClusterStore *store, const TelemetryStore *telemetry,
                       QWidget *parent = nullptr);
    void setNode(const QString &node);
    QString node() const { return m_node; }
    void refresh();
    QTableWidget *processTable() const { return m_processes; }
    QTableWidget *cardTable() const { return m_cards; }
    QTableWidget *podTable() const { return m_pods; }
    TelemetryChart *chart() const { return m_chart; }

signals:
    void trustHostKeyRequested(const QString &node, bool always);
    void secretRequested(const QString &node, const QString &what);
    void retryRequested(const QString &node);
    void reviewHostKeysRequested();
    void openRequested(const gpudesk::ObjectRef &ref, int tab);
    // End these GPU processes of the node (planned and confirmed elsewhere).
    void killRequested(const QString &node, const QList<qint64> &pids);

private:
    void refreshState();
    void refreshTables();
    void refreshPods();

    const ClusterStore *m_store;
    const TelemetryStore *m_telemetry;
    QString m_node;
    QString m_sizedFor;
    QLabel *m_state;
    QPushButton *m_trustOnce;
    QPushButton *m_trustAlways;
    QPushButton *m_reviewAll;
    QPushButton *m_secret;
    QPushButton *m_retry;
    QLabel *m_summary;
    QLabel *m_disks;
    TelemetryChart *m_chart;
    QTableWidget *m_cards;
    QTableWidget *m_processes;
    QTableWidget *m_pods;
};

} // namespace gpudesk
