// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "nascleanup.h"
#include "operationplan.h"

#include <QSet>
#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace gpudesk {

class NasFiles;
class StorageService;

// What on the NAS no one seems to need, from the last walk: large files neither read nor
// changed for 90 days, old core dumps, folders of users who left — each with its evidence.
// Remove… asks the NAS about each again and hands the plan to the operations framework (the
// window checks, confirms and runs it); what was removed since the walk is no longer listed.
class NasCleanupPanel : public QWidget
{
    Q_OBJECT
public:
    NasCleanupPanel(StorageService *storage, NasFiles *files, QWidget *parent = nullptr);

    QTreeWidget *view() const { return m_view; }
    QLabel *summary() const { return m_summary; }
    QList<NasCandidate> shown() const { return m_shown; }
    // Selects the candidates whose paths are given (the tests, the keyboard).
    void select(const QStringList &paths);
    // Plans the removal of the selected candidates; the plan comes as operationRequested.
    void removeSelected();
    // Read the walks again (the store's users may have changed).
    void refresh();

signals:
    void operationRequested(const gpudesk::OperationPlan &plan);
    // Show this folder in the Files tab.
    void browseRequested(const QString &dir);

private:
    void fill();
    void onSelection();
    void checkGone();
    QList<NasCandidate> selectedCandidates() const;

    StorageService *m_storage;
    NasFiles *m_files;
    QCheckBox *m_classes[NasCleanup::kClassCount];
    QSpinBox *m_coreDays;
    QSpinBox *m_departedDays;
    QSpinBox *m_jobOutputDays;
    QLineEdit *m_filter;
    QTreeWidget *m_view;
    QLabel *m_summary;
    QLabel *m_notes;
    QPushButton *m_remove;
    QPushButton *m_browse;
    QList<NasCandidate> m_found; // as the last walk shows them
    QList<NasCandidate> m_shown; // less the filtered and those gone since
    QSet<QString> m_gone;        // removed since the walk (asked of the NAS)
    bool m_planning = false;
};

} // namespace gpudesk
