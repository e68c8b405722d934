// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "noticebanner.h"

#include "objectref.h"
#include "operationplan.h"

#include <QWidget>

class QDialog;
class QLabel;
class QPushButton;
class QTableView;

namespace gpudesk {

class ClusterStore;
class DevEnvDialog;
class DevEnvsModel;
class DevEnvsService;
class ImagesService;
class Operation;
class SaveImageDialog;
class Permissions;
class SessionsPanel;
class TableFilter;

// Dev environments: a researcher's own (an admin's: everyone's) with status and why, GPUs,
// node, image and services; one click into Jupyter (the browser on a tunnel), a terminal with
// ssh, VS Code over Remote-SSH, or a service's web page; create, stop, start and delete through
// plans; the tunnels open below, live.
class DevEnvsPage : public QWidget
{
    Q_OBJECT
public:
    DevEnvsPage(DevEnvsService *service, ClusterStore *store, QWidget *parent = nullptr);
    void setPermissions(Permissions *permissions);
    QTableView *view() const { return m_view; }
    DevEnvsModel *model() const;
    SessionsPanel *sessions() const { return m_sessions; }
    QLabel *message() const { return m_message; }
    NoticeBanner *idleNote() const { return m_idle; }
    QString currentKey() const;
    // The pod of the current environment, for the window's Logs / Events / YAML.
    ObjectRef currentObject() const;
    void selectEnvironment(const QString &key);

    // The actions, also for tests and the menu.
    DevEnvDialog *newEnvironment();
    // Where the form asks images' sizes (for its huge-image warning).
    void setImages(ImagesService *images) { m_images = images; }
    void openJupyter();
    void openShell();
    void openVsCode();
    void openWeb(const QString &service);
    void stop();
    void start();
    void remove();
    // The form for saving the selected environment's container as an image; on OK its plan is
    // prepared (the tag read, the credentials found) and handed on as operationPrepared.
    SaveImageDialog *saveAsImage();

signals:
    void operationRequested(const gpudesk::OperationPlan &plan);
    void operationPrepared(gpudesk::Operation *operation);
    void openRequested(const gpudesk::ObjectRef &ref, int tab);

private:
    void updateActions();
    void say(const QString &text, bool error);
    QString denied(const QString &verb, const QString &resource, const QString &sub = {}) const;

    DevEnvsService *m_service;
    ImagesService *m_images = nullptr;
    ClusterStore *m_store;
    Permissions *m_permissions = nullptr;
    TableFilter *m_proxy;
    QTableView *m_view;
    QLabel *m_headline;
    NoticeBanner *m_idle;
    QLabel *m_message;
    SessionsPanel *m_sessions;
    QPushButton *m_new;
    QPushButton *m_jupyter;
    QPushButton *m_shell;
    QPushButton *m_vscode;
    QPushButton *m_web;
    QPushButton *m_logs;
    QPushButton *m_events;
    QPushButton *m_stop;
    QPushButton *m_start;
    QPushButton *m_delete;
    QPushButton *m_save;
    QString m_tensorBoardDir = QStringLiteral("runs");
};

} // namespace gpudesk
