// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

class QPlainTextEdit;
class QTableView;

namespace gpudesk {

class AuditModel;
class OperationsService;

// The audit log as a list of what was done (newest first) and, for the selected record, all of
// it: the plan, each step's result and verification.
class AuditDialog : public QDialog
{
    Q_OBJECT
public:
    explicit AuditDialog(OperationsService *operations, QWidget *parent = nullptr);
    void reload();
    QTableView *view() const { return m_view; }

private:
    OperationsService *m_operations;
    AuditModel *m_model;
    QTableView *m_view;
    QPlainTextEdit *m_detail;
};

} // namespace gpudesk
