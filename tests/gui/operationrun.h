// SPDX-License-Identifier: GPL-3.0-or-later
// What the page tests share: running the operation a window shows, as a user would.
#pragma once

#include "operation.h"
#include "operationdialog.h"
#include "yamleditdialog.h"

#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include <functional>

namespace gpudesk::testing {

// Waits for the window's plan to be checked, types the confirmation when one is asked, runs it
// and waits for it to end; `done` sees the dialog before it closes (a screenshot). Null when no
// plan came, it could not be confirmed, or it did not end in two minutes.
inline Operation *runShown(QWidget *window, const std::function<void(QWidget &)> &done = {})
{
    OperationDialog *d = nullptr;
    if (!QTest::qWaitFor(
            [&] {
                d = window->findChild<OperationDialog *>(QStringLiteral("operationDialog"));
                return d && d->operation() && d->operation()->state() == Operation::State::Ready;
            },
            30000))
        return nullptr;
    d->setObjectName(QString()); // the next one is found, not this one
    Operation *op = d->operation();
    if (op->plan().needsTypedConfirmation())
        QTest::keyClicks(d->findChild<QLineEdit *>(QStringLiteral("confirmEdit")),
                         op->plan().confirmationWord());
    auto *run = d->findChild<QPushButton *>(QStringLiteral("runButton"));
    if (!run || !run->isEnabled())
        return nullptr;
    QTest::mouseClick(run, Qt::LeftButton);
    if (!QTest::qWaitFor([op] { return op->state() == Operation::State::Finished; }, 120000))
        return nullptr;
    if (done)
        done(*d);
    d->close();
    return op;
}

// The YAML dialog's object checked by the server (its dry run), as its Check button does: the
// dialog's status after, or "" when no answer came in 10 s.
inline QString serverCheck(YamlEditDialog *dialog)
{
    QSignalSpy checked(dialog, &YamlEditDialog::checked);
    QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("checkButton")),
                      Qt::LeftButton);
    return checked.wait(10000) ? dialog->status() : QString();
}

// The YAML dialog's Apply clicked, and the operation it shows run (runShown).
inline Operation *applyShown(YamlEditDialog *dialog, QWidget *window)
{
    QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("applyButton")),
                      Qt::LeftButton);
    return runShown(window);
}

} // namespace gpudesk::testing
