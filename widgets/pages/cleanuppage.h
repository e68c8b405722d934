// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "findings.h"
#include "objectref.h"
#include "operationplan.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableView;

namespace gpudesk {

class ClusterStore;
class FindingsModel;
class FindingsService;
class HistoryService;
class OperationsService;
class TableFilter;
class TelemetryChart;
class TelemetryStore;

// What holds GPUs and should not: every finding with its evidence and owner, the GPUs it
// holds, since when; select some (or all) and stop them through a checked plan.
class CleanupPage : public QWidget
{
    Q_OBJECT
public:
    CleanupPage(FindingsService *findings, ClusterStore *store, const TelemetryStore *telemetry,
                QWidget *parent = nullptr);
    QTableView *view() const { return m_view; }
    FindingsModel *model() const { return m_model; }
    void setHistory(HistoryService *history);
    QList<Finding> selectedFindings() const;
    // The pod of the current finding, for the window's Logs / Events / YAML.
    ObjectRef currentObject() const;
    // Only one class (-1: all).
    void showClass(int findingClass);
    void selectAll();
    // Plans are made here, through the operations service; the window shows them.
    void setOperations(OperationsService *operations) { m_operations = operations; }
    // Stop these findings; drain a node (a finding whose remedy is a drain: never part of Stop,
    // planned on its own).
    void stop(const QList<Finding> &findings);
    void drain(const QString &node, const QString &why);

signals:
    void operationRequested(const gpudesk::OperationPlan &plan);
    void openRequested(const gpudesk::ObjectRef &ref, int tab);

private:
    void refresh();
    void showDetail();
    void showMenu(const QPoint &pos);
    void applyIdleFor(int minutes);

    FindingsService *m_findings;
    OperationsService *m_operations = nullptr;
    ClusterStore *m_store;
    FindingsModel *m_model;
    TableFilter *m_proxy;
    QTableView *m_view;
    QLabel *m_headline;
    QComboBox *m_class;
    QSpinBox *m_idleFor;
    QPushButton *m_stop;
    QLabel *m_detail;
    TelemetryChart *m_chart;
};

} // namespace gpudesk
