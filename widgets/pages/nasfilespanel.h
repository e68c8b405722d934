// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "operationplan.h"
#include "remotefile.h"

#include <QWidget>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTreeWidget;

namespace gpudesk {

class NasFiles;
class NasFileViewer;

// The NAS's files, browsed over SFTP: a folder's entries (size, changed, kind), into a folder
// by double-click, up, or a path typed; download a file or a whole folder (a checkpoint: "export
// the model"), upload a file or a folder, with progress, speed and cancel; a copy that broke goes
// on where it stopped when asked again. Copy path gives the path for a job or a dev environment.
// Remove and Move are plans for the operations framework (checked, confirmed, audited). Without
// SSH to the nodes, the same through the user's dev environment pod, which the panel names.
class NasFilesPanel : public QWidget
{
    Q_OBJECT
public:
    explicit NasFilesPanel(NasFiles *files, QWidget *parent = nullptr);

    void go(const QString &dir);
    QString dir() const { return m_dir; }
    // Whether a folder was asked for (shown or still being read).
    bool started() const { return !m_wanted.isEmpty(); }
    QTreeWidget *view() const { return m_view; }
    // The entry of the current row (an empty name when none).
    RemoteFile current() const;
    // Without asking where (the dialogs' answers, given): for the tests and the keyboard.
    void downloadTo(const QString &localDir);
    void uploadFile(const QString &localFileOrFolder);
    // The current file read in a viewer (null, with why in the status, for what is not a file).
    NasFileViewer *openCurrent();
    // The selected entries (the current one when none is selected).
    QList<RemoteFile> selected() const;
    // Plans for them, handed to operationRequested (the window checks, confirms and runs them).
    void removeSelected();
    void moveCurrentTo(const QString &folder);

signals:
    void operationRequested(const gpudesk::OperationPlan &plan);

private:
    void onListed(const QString &dir, const QList<gpudesk::RemoteFile> &entries,
                  const QString &error);
    void onProgress(qint64 done, qint64 total, qint64 rate, const QString &current);
    void onFinished(bool ok, const QString &message);
    void setCopying(bool copying);
    // How the files are reached when not over a node (the dev environment), said above them.
    void showRoute();

    NasFiles *m_files;
    QString m_dir;
    QString m_wanted; // the folder asked for last: an older listing that comes late is dropped
    QList<RemoteFile> m_entries;
    QLineEdit *m_path;
    QTreeWidget *m_view;
    QPushButton *m_open;
    QPushButton *m_download;
    QPushButton *m_upload;
    QPushButton *m_copyPath;
    QPushButton *m_remove;
    QPushButton *m_move;
    QPushButton *m_cancel;
    QProgressBar *m_bar;
    QLabel *m_status;
    QLabel *m_route; // how the files are reached, when not over a node's SSH
};

} // namespace gpudesk
