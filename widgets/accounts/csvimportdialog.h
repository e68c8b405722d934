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
    // Reads `file` off the UI thread (the Browse button calls it too); `loaded` once its rows
    // are shown, or why not.
    void load(const QString &file);
    bool isLoading() const { return m_loading; }
    // The rows that can be created.
    QList<UserSpec> users() const;
    const UserCsv::Result &result() const { return m_result; }
    QTableWidget *table() const { return m_table; }

signals:
    void loaded();

private:
    void browse();
    void reload();
    void showResult(UserCsv::Result result, const QStringList &quotaErrors);

    const ClusterStore *m_store;
    QString m_file;
    UserCsv::Result m_result;
    QLineEdit *m_path;
    QLineEdit *m_defaultVc;
    QList<QLineEdit *> m_quota;
    QTableWidget *m_table;
    QLabel *m_summary;
    QDialogButtonBox *m_buttons;
    int m_generation = 0; // the newest read: an older one that ends later is dropped
    bool m_loading = false;
};

} // namespace gpudesk
