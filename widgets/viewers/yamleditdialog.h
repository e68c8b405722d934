// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>

#include <functional>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace gpudesk {

class Services;

// An object edited as YAML, or a new one (a job run again) written from a copy: the server says
// what it would store (dryRun=All) and the change is shown as a diff before anything is
// applied; applying goes through an operation (plan, confirmation, audit). An edit is made on
// the version it was opened at: if the object moved meanwhile the server refuses it (409) and
// the newer version is shown — nothing is overwritten blindly.
class YamlEditDialog : public QDialog
{
    Q_OBJECT
public:
    enum Mode
    {
        Edit,  // `path` is the object's
        Create // `path` is the collection's
    };
    YamlEditDialog(Services *services, Mode mode, const QString &path, const QString &yaml,
                   QWidget *parent = nullptr);
    QPlainTextEdit *editor() const { return m_editor; }
    QPlainTextEdit *diffView() const { return m_diff; }
    QString status() const;

signals:
    void checked(); // a dry run answered (see status())
    void applied(); // the operation ended (see status())

private:
    void check();
    void apply();
    void loadNewer();
    void setStatus(const QString &text, bool error);
    // The unified diff of two texts, computed off the UI thread (a manifest of 40,000 lines
    // takes a moment); `done` runs on the UI thread unless the dialog has gone, or a newer diff
    // was asked for meanwhile.
    void diffAsync(const QString &before, const QString &after, const QString &beforeName,
                   const QString &afterName, std::function<void(const QString &)> done);

    Services *m_services;
    Mode m_mode;
    QString m_path;
    QString m_base;       // the YAML the edit started from
    QString m_checkedFor; // the editor's text the last successful dry run was for
    QPlainTextEdit *m_editor;
    QPlainTextEdit *m_diff;
    QLabel *m_status;
    QPushButton *m_check;
    QPushButton *m_apply;
    QPushButton *m_newer;
    int m_diffGeneration = 0;
};

} // namespace gpudesk
