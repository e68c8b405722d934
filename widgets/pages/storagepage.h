// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "operationplan.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableView;
class QTreeWidget;
class QTabWidget;
class QVBoxLayout;

namespace gpudesk {

class NasCleanupPanel;
class NasFiles;
class NasFilesPanel;
class NoticeBanner;
class StorageModel;
class StorageService;
class TableFilter;

// The NAS: each root's fill and when it was measured (where, how long the walk took), a row per
// user's and group's folder (size, on disk, files, written in the day, growth in the week, last
// change, largest folder), and for the selected folder its largest folders, largest files and
// core dumps. "Measure now" walks it at once (one walk at a time, at the idle IO class). The
// Files tab browses it over SFTP; the Cleanup tab lists what no one seems to need.
class StoragePage : public QWidget
{
    Q_OBJECT
public:
    StoragePage(StorageService *storage, NasFiles *files, QWidget *parent = nullptr);

    StorageModel *model() const { return m_model; }
    NasFilesPanel *files() const { return m_files; }
    NasCleanupPanel *cleanup() const { return m_cleanup; }
    // Where the NAS is walked and browsed: "any node that answers" or one of them.
    QComboBox *nodeBox() const { return m_node; }
    // The Files tab, in a folder (the NAS's, as the node sees it).
    void browse(const QString &dir);

signals:
    void operationRequested(const gpudesk::OperationPlan &plan);

protected:
    void showEvent(QShowEvent *event) override;

private:
    void refresh();
    void showRoots();
    void showDetail();
    void onProgress(const QString &root, qint64 entries, qint64 bytes);
    void onMeasuring(bool measuring);
    void fillNodes();

    StorageService *m_storage;
    StorageModel *m_model;
    TableFilter *m_proxy;
    QTableView *m_view;
    QTreeWidget *m_detail;
    NoticeBanner *m_banner;
    QVBoxLayout *m_roots;
    QLabel *m_status;
    QPushButton *m_measure;
    QPushButton *m_cancel;
    QPushButton *m_copyPath;
    QSpinBox *m_interval;
    QComboBox *m_node;
    QTabWidget *m_tabs;
    NasFiles *m_nas;
    NasFilesPanel *m_files;
    NasCleanupPanel *m_cleanup;
};

} // namespace gpudesk
