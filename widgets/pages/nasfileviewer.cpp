// SPDX-License-Identifier: GPL-3.0-or-later
#include "nasfileviewer.h"

#include "format.h"
#include "nasfiles.h"
#include "noticebanner.h"

#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QVBoxLayout>

namespace gpudesk {

NasFileViewer::NasFileViewer(NasFiles *files, const RemoteFile &file, QWidget *parent)
    : QDialog(parent), m_files(files), m_file(file), m_text(new QPlainTextEdit(this)),
      m_status(new QLabel(this))
{
    setObjectName(QStringLiteral("nasFileViewer"));
    setWindowTitle(file.path);
    setAttribute(Qt::WA_DeleteOnClose);
    m_text->setObjectName(QStringLiteral("nasFileText"));
    m_text->setReadOnly(true);
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_status->setTextFormat(Qt::PlainText); // the path is the NAS's: text, never markup
    m_status->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *again = buttons->addButton(tr("Reload"), QDialogButtonBox::ActionRole);
    connect(again, &QPushButton::clicked, this, &NasFileViewer::reload);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_status);
    layout->addWidget(m_text, 1);
    layout->addWidget(buttons);
    resize(900, 640);
    reload();
}

void NasFileViewer::reload()
{
    m_read = false;
    m_status->setText(tr("Reading %1…").arg(m_file.path));
    m_files->read(m_file, this,
                  [this](const QByteArray &bytes, qint64 from, qint64 size, const QString &error) {
                      display(bytes, from, size, error);
                  });
}

void NasFileViewer::display(const QByteArray &bytes, qint64 from, qint64 size, const QString &error)
{
    m_read = true;
    showAsError(m_status, !error.isEmpty());
    if (!error.isEmpty()) {
        m_status->setText(error);
        m_text->clear();
    } else if (bytes.left(8192).contains('\0')) {
        m_status->setText(tr("%1 holds binary data (%2): download it to open it with its own "
                             "program.")
                              .arg(m_file.path, format::bytes(size)));
        m_text->clear();
    } else {
        m_status->setText(
            from > 0 ? tr("%1 — its last %2 of %3, from a line's start.")
                           .arg(m_file.path, format::bytes(size - from), format::bytes(size))
                     : tr("%1 — %2.").arg(m_file.path, format::bytes(size)));
        m_text->setPlainText(QString::fromUtf8(bytes));
        // A log is read from its end.
        m_text->verticalScrollBar()->setValue(from > 0 ? m_text->verticalScrollBar()->maximum()
                                                       : 0);
    }
    emit read();
}

} // namespace gpudesk
