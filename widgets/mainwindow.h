// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "noticebanner.h"

#include "objectref.h"
#include "operationplan.h"

#include <QMainWindow>
#include <QPointer>

class QComboBox;
class QDialog;
class QLabel;
class QListWidget;
class QStackedWidget;
class QTableView;

namespace gpudesk {

class AlertTray;
class MainMenus;
class NewJobDialog;
class WelcomePanel;

class CleanupPage;
class DevEnvsPage;
class ImagesPage;
class ClusterStore;
class ConnectionState;
class EventsPage;
class StoragePage;
class GpuMapPage;
class NodesPage;
class Operation;
class OperationDialog;
class OverviewPage;
class Services;
class TelemetryStore;
class UsersPage;
class VcsPage;
class WorkloadsPage;

// The window: a sidebar of pages (Overview, Nodes, GPU map, Workloads, Users, VCs, Cleanup,
// Events), the context
// switcher, and a status bar with the connection and each informer's state.
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    enum Page
    {
        Overview,
        Nodes,
        GpuMap,
        Workloads,
        DevEnvs,
        Images,
        Users,
        Vcs,
        Cleanup,
        Events,
        Storage,
        PageCount
    };

    explicit MainWindow(Services *services, QWidget *parent = nullptr);
    ~MainWindow() override;
    void setContexts(const QStringList &contexts, const QString &current);
    void showPage(Page page);
    Page currentPage() const;
    MainMenus *menus() const { return m_menus; }
    QWidget *page(Page page) const;
    // Opens logs / events / YAML of an object in a window of its own.
    QWidget *openObject(const ObjectRef &ref, int tab);
    // The plan of an action, checked with the server, for the user to confirm and run.
    OperationDialog *openOperation(const OperationPlan &plan);
    // An operation another service prepared (a registry's, with its credentials).
    OperationDialog *showOperation(Operation *operation);
    QDialog *showAuditLog();
    // File › Settings…
    QDialog *showSettings();
    // A copy of a job (or bare pod) to edit and create: run it again.
    QDialog *rerun(const QString &workloadKey);
    // New training job (Workloads page, Workload menu, command palette).
    NewJobDialog *newTrainingJob();
    // The form, started from a copy of the job (checked, unlike a plain run again).
    NewJobDialog *newTrainingJobLike(const QString &workloadKey);
    NewJobDialog *openNewJobDialog(const QString &ns);
    // Runs the object again with the job doctor's fix `fix` made in the copy (SpecFix::apply:
    // /dev/shm as a Memory emptyDir, a higher memory limit, a variable removed); "" is a plain
    // copy.
    QDialog *rerunObject(const ObjectRef &ref, const QString &fix);

    WelcomePanel *welcome() const { return m_welcome; }
    AlertTray *alertTray() const { return m_alertTray; }
    // Brings the window up on an alert's target ("node:NAME", "page:cleanup"; "" as it was).
    void goTo(const QString &target);
    // Quits gpudesk, also when closing the window would only hide it to the tray.
    void quit();
    // A kubeconfig the user picked (the welcome panel's button): read, remembered for the next
    // start, and its current context connected; what is wrong with it stays on the welcome.
    void useKubeconfig(const QString &path);

signals:
    void contextRequested(const QString &context);
    void reconnectRequested();

protected:
    void closeEvent(QCloseEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void updateFromState();
    void updateSyncStatus();
    void updateSshStatus();
    void askSecret(const QString &node, const QString &what);
    void updateOperationsStatus();

public:
    // Every node whose host key waits for a decision, with its fingerprint, to trust at once.
    QDialog *reviewHostKeys();

private:
    void restoreLayout();
    void applyIcons();
    void saveLayout();
    // The tables whose column widths are kept, by their name in the settings.
    QList<std::pair<QTableView *, QString>> savedTables() const;

    Services *m_services;
    ConnectionState *m_state;
    ClusterStore *m_store;
    TelemetryStore *m_telemetry;
    QComboBox *m_contexts;
    QListWidget *m_sidebar;
    QStackedWidget *m_pages;
    WelcomePanel *m_welcome;
    NoticeBanner *m_banner;
    OverviewPage *m_overview;
    NodesPage *m_nodes;
    GpuMapPage *m_gpuMap;
    WorkloadsPage *m_workloads;
    DevEnvsPage *m_devEnvs;
    ImagesPage *m_images;
    UsersPage *m_users;
    VcsPage *m_vcs;
    CleanupPage *m_cleanup;
    EventsPage *m_events;
    StoragePage *m_storage;
    QLabel *m_statusContext;
    QLabel *m_statusState;
    QLabel *m_statusSync;
    QLabel *m_statusSsh;
    QLabel *m_statusOps;
    MainMenus *m_menus = nullptr;
    AlertTray *m_alertTray = nullptr;
    bool m_quitting = false;
};

} // namespace gpudesk
