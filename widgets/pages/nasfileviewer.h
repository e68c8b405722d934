// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "remotefile.h"

#include <QDialog>

class QLabel;
class QPlainTextEdit;

namespace gpudesk {

class NasFiles;

// A text file on the NAS read in place (a log, a config, a launch script): the whole file, or
// its last MiB from a line's start; a file that holds NUL bytes is said to be binary, not shown.
// Reload reads it again (a log that grows). Read-only: changes go through the NAS's owner.
class NasFileViewer : public QDialog
{
    Q_OBJECT
public:
    NasFileViewer(NasFiles *files, const RemoteFile &file, QWidget *parent = nullptr);

    QPlainTextEdit *text() const { return m_text; }
    QLabel *status() const { return m_status; }
    // The file has been read (shown, or why not said).
    bool isRead() const { return m_read; }

    void reload();

signals:
    void read();

private:
    void display(const QByteArray &bytes, qint64 from, qint64 size, const QString &error);

    NasFiles *m_files;
    RemoteFile m_file;
    QPlainTextEdit *m_text;
    QLabel *m_status;
    bool m_read = false;
};

} // namespace gpudesk
