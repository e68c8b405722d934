// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "objectref.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace gpudesk {

class ClusterStore;
class NodeCardsModel;
class NodePodsModel;
class NodeProcessesModel;
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
    // Off when gpudesk was started without SSH (--no-ssh): the panel says so instead of
    // "connecting" forever.
    void setSshEnabled(bool enabled);
    QTableView *processTable() const { return m_processes; }
    QTableView *cardTable() const { return m_cards; }
    QTableView *podTable() const { return m_pods; }
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

    const ClusterStore *m_store;
    const TelemetryStore *m_telemetry;
    QString m_node;
    QString m_sizedFor;
    bool m_sshEnabled = true;
    QLabel *m_state;
    QPushButton *m_trustOnce;
    QPushButton *m_trustAlways;
    QPushButton *m_reviewAll;
    QPushButton *m_secret;
    QPushButton *m_retry;
    QLabel *m_summary;
    QLabel *m_disks;
    TelemetryChart *m_chart;
    NodeCardsModel *m_cardsModel;
    NodeProcessesModel *m_processesModel;
    NodePodsModel *m_podsModel;
    QTableView *m_cards;
    QTableView *m_processes;
    QTableView *m_pods;
};

} // namespace gpudesk
