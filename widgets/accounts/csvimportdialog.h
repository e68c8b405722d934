// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "usercsv.h"

#include <QDialog>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QTableWidget;

namespace gpudesk {

class ClusterStore;

// Users from a CSV file: every row shown with what is wrong with it, by line number; the rows
// that can be made are planned together, each rolled back alone if it fails.
class CsvImportDialog : public QDialog
{
    Q_OBJECT
public:
    CsvImportDialog(const ClusterStore *store, QWidget *parent = nullptr);
    // Reads `file` (tests call it; the Browse button too); false with the reason shown.
    bool load(const QString &file);
    // The rows that can be created.
    QList<UserSpec> users() const;
    const UserCsv::Result &result() const { return m_result; }
    QTableWidget *table() const { return m_table; }

private:
    void browse();
    void reload();

    const ClusterStore *m_store;
    QString m_file;
    UserCsv::Result m_result;
    QLineEdit *m_path;
    QLineEdit *m_defaultVc;
    QList<QLineEdit *> m_quota;
    QTableWidget *m_table;
    QLabel *m_summary;
    QDialogButtonBox *m_buttons;
};

} // namespace gpudesk
