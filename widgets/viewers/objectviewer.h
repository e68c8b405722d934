// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "objectref.h"

#include <QPointer>
#include <QWidget>

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QTabWidget;

namespace gpudesk {

class TelemetryChart;
class TelemetryStore;

class DiagnosisView;
class LogView;
class ObjectService;
class Services;

// Logs, events and YAML of one object, in a window of its own.
class ObjectViewer : public QWidget
{
    Q_OBJECT
public:
    enum Tab
    {
        LogsTab,
        EventsTab,
        YamlTab,
        DiagnosisTab // for objects with pods
    };

    ObjectViewer(Services *services, const ObjectRef &ref, QWidget *parent = nullptr);
    ~ObjectViewer() override;
    void showTab(int tab);
    QTabWidget *tabs() const { return m_tabs; }
    LogView *logView() const { return m_logs; }
    DiagnosisView *diagnosisView() const { return m_diagnosis; }
    QPlainTextEdit *yamlView() const { return m_yaml; }
    void reloadYaml();
    // Adds the Usage tab (a pod's or job's own GPU, CPU and memory over time) when the object
    // has pods, and has their cgroups sampled while the viewer is open.
    void setTelemetry(TelemetryStore *telemetry);
    TelemetryChart *usageChart() const { return m_usage; }
    QString usageSummary() const;
    // The edit window the Edit button opened last (null when none is open).
    QWidget *editDialog() const { return m_editDialog; }

signals:
    void yamlLoaded();
    // The Diagnosis tab's "Re-run with the fix" for a fix of class `fix` (the window runs it).
    void rerunWithFix(const QString &fix);
    // The Diagnosis tab's "Cordon NODE…" (the window plans it).
    void cordonNode(const QString &node, const QString &why);

private:
    void saveYaml();
    void updateUsageSummary();

    ObjectService *m_objects;
    ObjectRef m_ref;
    QTabWidget *m_tabs;
    LogView *m_logs = nullptr;
    DiagnosisView *m_diagnosis = nullptr;
    QPlainTextEdit *m_yaml;
    QCheckBox *m_managed;
    QLabel *m_yamlState;
    TelemetryChart *m_usage = nullptr;
    QPointer<TelemetryStore> m_telemetry;
    QLabel *m_usageSummary = nullptr;
    QLabel *m_usageHint = nullptr;
    QPointer<QWidget> m_editDialog;
};

} // namespace gpudesk
