// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "noticebanner.h"

#include "registrylogindialog.h"

#include <QPointer>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableView;
class QTextBrowser;

namespace gpudesk {

class HarborPanel;
class ImagesModel;
class ImagesService;
class Operation;
class TableFilter;

// Images: a registry's repositories and tags, what each costs (size, and the unique bytes that
// deleting it could give back), its platforms and date, and the pods that run it now; the
// selected image's reference ready to paste, its other tags and its users. Registries are those
// the cluster pulls from and those added here; reading one shows progress and can be cancelled,
// and a partial read says what is missing.
class ImagesPage : public QWidget
{
    Q_OBJECT
public:
    explicit ImagesPage(ImagesService *service, QWidget *parent = nullptr);
    QTableView *view() const { return m_view; }
    QLabel *status() const { return m_status; }
    NoticeBanner *plainHttpWarning() const { return m_plain; }
    QTextBrowser *details() const { return m_details; }
    QComboBox *registries() const { return m_registries; }
    RegistryLoginDialog *loginDialog() const { return m_login; }
    ImagesModel *model() const;
    void read();
    bool addRegistry(const QString &address);
    void selectTag(const QString &repository, const QString &tag);
    // The selected rows, in the model's numbering.
    QList<int> selectedRows() const;
    // The selected images' references ("host/repository:tag@digest"), a line each, copied.
    void copyReferences();
    // Only cleanup candidates: run by no pod, last used more than `days` ago (0: every image):
    // last pulled where Harbor says, else built.
    void showCandidates(int days);
    // Only the images of users who left (Harbor projects none of whose members is a user of the
    // cluster now) that no pod runs; false: every image.
    void showImagesOfUsersWhoLeft(bool on);
    // A copy of the current tag to "repository[:tag]", planned and checked (operationPrepared).
    Operation *share(const QString &to);
    // The selected images deleted, planned and checked; allowInUse: the user's override.
    Operation *deleteSelected(bool allowInUse);
    // Harbor's garbage collection, planned and checked (its dry run).
    Operation *collectGarbage(bool deleteUntagged);
    // What Share… and Delete… ask first, open (window-modal) until answered: the name to copy
    // the selected image to, and whether to delete images pods run. Null when there is nothing
    // to ask (no image selected; none of those to delete in use: their plan comes at once).
    QDialog *askShare();
    QDialog *askDelete();
    HarborPanel *harborPanel() const { return m_harbor; }

signals:
    // Shown by the window as every other action is: plan, confirmation, progress, results.
    void operationPrepared(gpudesk::Operation *operation);

private:
    void fillRegistries();
    void updateDetails();
    void updateSummary();
    void updateActions();
    // The candidates' words: last pulled (Harbor) or built (a plain registry).
    void setCandidateWords(bool harbor);
    // The registry wants a login: asked (once at a time), then the registry read again with it.
    void askLogin(const QString &host, const QString &why);
    Operation *prepare(const struct OperationPlan &plan);

    ImagesService *m_service;
    TableFilter *m_proxy;
    QComboBox *m_registries;
    QPushButton *m_add;
    QPushButton *m_read;
    QPushButton *m_cancel;
    QPushButton *m_share;
    QPushButton *m_delete;
    QLineEdit *m_filter;
    QCheckBox *m_candidates;
    QSpinBox *m_candidateDays;
    QCheckBox *m_usersLeft;
    NoticeBanner *m_plain;
    QLabel *m_status;
    QLabel *m_summary;
    HarborPanel *m_harbor;
    QTableView *m_view;
    QTextBrowser *m_details;
    QPointer<RegistryLoginDialog> m_login;
};

} // namespace gpudesk
