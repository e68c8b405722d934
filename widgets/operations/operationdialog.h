// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>
#include <QPointer>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QTableView;

namespace gpudesk {

class Operation;
class OperationStepsModel;

// An action's plan before anything happens, then its progress and per-step results: the steps
// with the server's dry-run answers, a confirmation in proportion to the harm (a click; the
// count or the name typed for batches and anything forceful), Run, Cancel. Closing it while the
// operation runs does not stop it.
class OperationDialog : public QDialog
{
    Q_OBJECT
public:
    explicit OperationDialog(Operation *operation, QWidget *parent = nullptr);
    ~OperationDialog() override;
    Operation *operation() const;

protected:
    void done(int result) override;

private:
    void showDetails();
    void updateState();
    void run();

    QPointer<Operation> m_op;
    OperationStepsModel *m_model;
    QLabel *m_summary;
    QString m_lastLine; // the latest progress line of a long step
    QLabel *m_notes;
    QTableView *m_table;
    QPlainTextEdit *m_details; // the selected step, whole: the exact request, every answer
    QLabel *m_confirmLabel;
    QLineEdit *m_confirm;
    QProgressBar *m_progress;
    QPushButton *m_run;
    QPushButton *m_cancel;
    QPushButton *m_close;
};

} // namespace gpudesk
