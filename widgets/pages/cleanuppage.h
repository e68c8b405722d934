// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "findings.h"
#include "objectref.h"

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

signals:
    void stopRequested(const QList<gpudesk::Finding> &findings);
    // A finding whose remedy is a drain: never part of Stop, planned on its own.
    void drainRequested(const QString &node, const QString &why);
    void openRequested(const gpudesk::ObjectRef &ref, int tab);

private:
    void refresh();
    void showDetail();
    void showMenu(const QPoint &pos);
    void applyIdleFor(int minutes);

    FindingsService *m_findings;
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
