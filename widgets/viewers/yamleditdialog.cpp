// SPDX-License-Identifier: GPL-3.0-or-later
#include "yamleditdialog.h"

#include "noticebanner.h"

#include "palette.h"

#include "diffhighlighter.h"
#include "objectservice.h"
#include "operation.h"
#include "operationdialog.h"
#include "operationsservice.h"
#include "services.h"
#include "textdiff.h"
#include "yamlhighlighter.h"

#include <QFontDatabase>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTextCursor>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace gpudesk {

YamlEditDialog::YamlEditDialog(Services *services, Mode mode, const QString &path,
                               const QString &yaml, QWidget *parent)
    : QDialog(parent), m_services(services), m_mode(mode), m_path(path), m_base(yaml),
      m_editor(new QPlainTextEdit(this)), m_diff(new QPlainTextEdit(this)),
      m_status(new QLabel(this)), m_check(new QPushButton(tr("Check with the server"), this)),
      m_apply(new QPushButton(mode == Edit ? tr("Apply…") : tr("Create…"), this)),
      m_newer(new QPushButton(tr("Start again from the newer version"), this))
{
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(mode == Edit ? tr("Edit %1").arg(path) : tr("Run again: a new object"));
    resize(1200, 720);
    const QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_editor->setObjectName(QStringLiteral("yamlEditor"));
    m_editor->setFont(mono);
    m_editor->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_editor->setPlainText(yaml);
    new YamlHighlighter(m_editor->document());
    m_diff->setObjectName(QStringLiteral("yamlDiff"));
    m_diff->setFont(mono);
    m_diff->setReadOnly(true);
    m_diff->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_diff->setPlaceholderText(tr("What the server would store, as a diff, once checked."));
    new DiffHighlighter(m_diff->document());
    m_status->setObjectName(QStringLiteral("yamlStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_check->setObjectName(QStringLiteral("checkButton"));
    m_apply->setObjectName(QStringLiteral("applyButton"));
    m_newer->setObjectName(QStringLiteral("newerButton"));
    m_apply->setEnabled(false);
    m_newer->setVisible(false);
    auto *close = new QPushButton(tr("Close"), this);

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_editor);
    split->addWidget(m_diff);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_newer);
    buttons->addStretch(1);
    buttons->addWidget(m_check);
    buttons->addWidget(m_apply);
    buttons->addWidget(close);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(mode == Edit
                                     ? tr("Edit the object on the left; the server checks it "
                                          "and the change shows on the right before anything "
                                          "is applied.")
                                     : tr("A copy to run again, under a new name: change what "
                                          "you need; the server checks it before it is "
                                          "created."),
                                 this));
    layout->addWidget(split, 1);
    layout->addWidget(m_status);
    layout->addLayout(buttons);

    connect(m_check, &QPushButton::clicked, this, &YamlEditDialog::check);
    connect(m_apply, &QPushButton::clicked, this, &YamlEditDialog::apply);
    connect(m_newer, &QPushButton::clicked, this, &YamlEditDialog::loadNewer);
    connect(close, &QPushButton::clicked, this, &QDialog::reject);
    connect(m_editor, &QPlainTextEdit::textChanged, this, [this] {
        m_apply->setEnabled(!m_checkedFor.isEmpty() && m_editor->toPlainText() == m_checkedFor);
    });
}

QString YamlEditDialog::status() const
{
    return m_status->text();
}

void YamlEditDialog::setStatus(const QString &text, bool error)
{
    m_status->setText(text);
    showAsError(m_status, error);
}

void YamlEditDialog::check()
{
    const QString text = m_editor->toPlainText();
    setStatus(tr("Asking the server…"), false);
    auto done = [this, text](const QString &yaml, const QString &error, bool conflict) {
        if (!error.isEmpty()) {
            m_checkedFor.clear();
            m_apply->setEnabled(false);
            m_newer->setVisible(conflict && m_mode == Edit);
            setStatus(conflict ? tr("The object changed since you opened it; the server would "
                                    "refuse this edit: %1")
                                     .arg(error)
                               : tr("The server would refuse it: %1").arg(error),
                      true);
            emit checked();
            return;
        }
        setStatus(tr("The server would accept it; comparing it with what it has…"), false);
        diffAsync(m_mode == Edit ? m_base : QString(), yaml, m_mode == Edit ? tr("now") : QString(),
                  tr("as the server would store it"), [this, text](const QString &diff) {
                      m_diff->setPlainText(diff.isEmpty() ? tr("No change.") : diff);
                      m_checkedFor = text;
                      m_apply->setEnabled(!diff.isEmpty() && m_editor->toPlainText() == text);
                      setStatus(diff.isEmpty()
                                    ? tr("The server would store it unchanged: nothing to apply.")
                                    : tr("The server would accept it. Nothing has been changed "
                                         "yet."),
                                false);
                      emit checked();
                  });
    };
    if (m_mode == Edit)
        m_services->objects()->dryRunUpdate(m_path, text, this, done);
    else
        m_services->objects()->dryRunCreate(m_path, text, this, done);
}

void YamlEditDialog::diffAsync(const QString &before, const QString &after,
                               const QString &beforeName, const QString &afterName,
                               std::function<void(const QString &)> done)
{
    const int generation = ++m_diffGeneration;
    auto *watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this,
            [this, watcher, generation, done = std::move(done)] {
                watcher->deleteLater();
                if (generation == m_diffGeneration)
                    done(watcher->result());
            });
    watcher->setFuture(QtConcurrent::run([before, after, beforeName, afterName] {
        return unifiedDiff(before, after, beforeName, afterName);
    }));
}

void YamlEditDialog::apply()
{
    QString error;
    const QByteArray json = ObjectService::toJson(m_checkedFor, &error);
    if (json.isEmpty()) {
        setStatus(error, true);
        return;
    }
    OperationsService *ops = m_services->operations();
    const OperationPlan plan =
        m_mode == Edit ? ops->planner().update(m_path, json) : ops->planner().create(m_path, json);
    Operation *op = ops->prepare(plan);
    auto *dialog = new OperationDialog(op, this);
    dialog->setObjectName(QStringLiteral("operationDialog"));
    connect(op, &Operation::finished, this, [this, op] {
        const StepOutcome o = op->outcomes().value(0);
        if (o.result == StepOutcome::Result::Done) {
            setStatus(tr("Applied: %1").arg(o.verification), false);
            m_base = m_checkedFor;
        } else {
            // A 409: the object moved between the check and the run; shown, never overwritten.
            m_newer->setVisible(m_mode == Edit && o.message.contains(QLatin1String("changed")));
            setStatus(tr("Not applied: %1").arg(o.message), true);
        }
        m_apply->setEnabled(false);
        emit applied();
    });
    dialog->show();
}

void YamlEditDialog::loadNewer()
{
    // Asked before anything is fetched: the answer must not wait on the network.
    if (m_editor->toPlainText() != m_base &&
        QMessageBox::question(this, windowTitle(),
                              tr("Replace your edit with the newer version? Ctrl+Z in the "
                                 "editor brings your edit back.")) != QMessageBox::Yes)
        return;
    m_newer->setEnabled(false);
    m_services->objects()->fetchYaml(
        m_path, false, this, [this](const QString &yaml, const QString &error) {
            m_newer->setEnabled(true);
            if (!error.isEmpty()) {
                setStatus(error, true);
                return;
            }
            // What changed on the server since the edit began, then the newer version to edit.
            diffAsync(m_base, yaml, tr("when you opened it"), tr("now"),
                      [this](const QString &moved) { m_diff->setPlainText(moved); });
            m_base = yaml;
            // Replaced as one undoable edit, so that the user's own text is one Ctrl+Z away.
            QTextCursor all(m_editor->document());
            all.select(QTextCursor::Document);
            all.insertText(yaml);
            m_checkedFor.clear();
            m_newer->setVisible(false);
            setStatus(tr("Loaded the newer version; the diff shows what changed on the server "
                         "meanwhile. Make your change again and check it."),
                      false);
        });
}

} // namespace gpudesk
