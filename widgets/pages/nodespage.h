// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "objectref.h"
#include "operationplan.h"

#include <QWidget>

#include <functional>

class QLabel;
class QSplitter;
class QLineEdit;
class QMenu;
class QTableView;
class QTabWidget;
class QTreeWidget;

namespace gpudesk {

class ClusterStore;
class Permissions;
class OperationsService;
class OperationPlanner;
class EventsModel;
class NodesModel;
class NodeTelemetryPanel;
class TelemetryStore;
class TableFilter;

// Every node with its GPU, CPU and memory requests, and a detail panel of the selected node:
// its pods, conditions, labels and events.
class NodesPage : public QWidget
{
    Q_OBJECT
public:
    NodesPage(ClusterStore *store, TelemetryStore *telemetry, QWidget *parent = nullptr);
    NodeTelemetryPanel *telemetryPanel() const { return m_telemetryPanel; }
    QSplitter *splitter() const { return m_split; }
    // The user's split between the list and the detail, as saved; sized 3:2 when none.
    void restoreSplit(const QByteArray &state);
    QTableView *view() const { return m_view; }
    void selectNode(const QString &name);
    QString currentNode() const;
    // Fills a menu with what may be done to a node (its objects, cordon, drain), each disabled
    // with the server's reason where the account may not.
    void addNodeActions(QMenu *menu, const QString &name);
    // Cordon and drain are shown disabled, with the server's reason, where the account may not.
    void setPermissions(Permissions *permissions) { m_permissions = permissions; }
    // Plans (cordon, drain, ending processes) are made here, through the operations service;
    // the window shows them.
    void setOperations(OperationsService *operations) { m_operations = operations; }

signals:
    void openRequested(const gpudesk::ObjectRef &ref, int tab);
    void trustHostKeyRequested(const QString &node, bool always);
    void secretRequested(const QString &node, const QString &what);
    void retryRequested(const QString &node);
    void reviewHostKeysRequested();
    void operationRequested(const gpudesk::OperationPlan &plan);

protected:
    void showEvent(QShowEvent *event) override;

private:
    // Makes a plan through the operations service and asks the window to show it.
    void plan(const std::function<OperationPlan(const OperationPlanner &)> &make);
    void showDetail();
    void showMenu(const QPoint &pos);

    ClusterStore *m_store;
    Permissions *m_permissions = nullptr;
    OperationsService *m_operations = nullptr;
    NodesModel *m_model;
    TableFilter *m_proxy;
    QLineEdit *m_filter;
    QTableView *m_view;
    QLabel *m_title;
    QTabWidget *m_tabs;
    QTreeWidget *m_pods;
    QTreeWidget *m_conditions;
    QTreeWidget *m_labels;
    EventsModel *m_events;
    NodeTelemetryPanel *m_telemetryPanel;
    const TelemetryStore *m_telemetry;
    QSplitter *m_split = nullptr;
    bool m_splitSized = false;
};

} // namespace gpudesk
