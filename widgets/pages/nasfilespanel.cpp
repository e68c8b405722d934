// SPDX-License-Identifier: GPL-3.0-or-later
#include "nasfilespanel.h"

#include "format.h"
#include "nasfiles.h"
#include "nasfileviewer.h"
#include "noticebanner.h"

#include <QApplication>
#include <QClipboard>
#include <QDateTime>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardPaths>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace gpudesk {

NasFilesPanel::NasFilesPanel(NasFiles *files, QWidget *parent)
    : QWidget(parent), m_files(files), m_path(new QLineEdit(this)), m_view(new QTreeWidget(this)),
      m_open(new QPushButton(tr("Open file"), this)),
      m_download(new QPushButton(tr("Download…"), this)),
      m_upload(new QPushButton(tr("Upload…"), this)),
      m_copyPath(new QPushButton(tr("Copy path"), this)),
      m_remove(new QPushButton(tr("Remove…"), this)), m_move(new QPushButton(tr("Move…"), this)),
      m_cancel(new QPushButton(tr("Cancel"), this)), m_bar(new QProgressBar(this)),
      m_status(new QLabel(this)), m_route(new QLabel(this))
{
    m_route->setObjectName(QStringLiteral("nasRoute"));
    m_route->setTextFormat(Qt::PlainText);
    m_route->setWordWrap(true);
    m_route->setVisible(false);
    m_path->setObjectName(QStringLiteral("nasPath"));
    m_view->setObjectName(QStringLiteral("nasFiles"));
    m_view->setHeaderLabels({tr("Name"), tr("Size"), tr("Changed"), tr("Kind")});
    m_view->setRootIsDecorated(false);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_view->header()->setStretchLastSection(false);
    m_open->setObjectName(QStringLiteral("nasOpen"));
    m_open->setToolTip(tr("Read a text file here: a log, a config, a launch script"));
    m_download->setObjectName(QStringLiteral("nasDownload"));
    m_upload->setObjectName(QStringLiteral("nasUpload"));
    m_copyPath->setObjectName(QStringLiteral("nasCopyPath"));
    m_remove->setObjectName(QStringLiteral("nasRemove"));
    m_move->setObjectName(QStringLiteral("nasMove"));
    m_cancel->setObjectName(QStringLiteral("nasCancel"));
    m_cancel->setVisible(false);
    m_bar->setVisible(false);
    m_status->setObjectName(QStringLiteral("nasStatus"));
    m_status->setTextFormat(Qt::PlainText); // names from the NAS: text, never markup
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *up = new QPushButton(tr("Up"), this);
    auto *bar = new QHBoxLayout;
    bar->addWidget(up);
    bar->addWidget(m_path, 1);
    auto *actions = new QHBoxLayout;
    actions->addWidget(m_open);
    actions->addWidget(m_download);
    actions->addWidget(m_upload);
    actions->addWidget(m_copyPath);
    actions->addWidget(m_remove);
    actions->addWidget(m_move);
    actions->addWidget(m_bar, 4);
    actions->addWidget(m_cancel);
    actions->addStretch(1); // the buttons keep their size while no copy shows its bar
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_route);
    layout->addWidget(m_view, 1);
    layout->addLayout(actions);
    layout->addWidget(m_status);

    connect(up, &QPushButton::clicked, this, [this] {
        const QString parent = m_dir.section(u'/', 0, -2);
        go(parent.isEmpty() ? QStringLiteral("/") : parent);
    });
    connect(m_path, &QLineEdit::returnPressed, this, [this] { go(m_path->text().trimmed()); });
    connect(m_view, &QTreeWidget::itemActivated, this, [this] {
        if (const RemoteFile f = current(); f.type == 'd')
            go(f.path);
        else if (f.type == 'f')
            openCurrent();
    });
    connect(m_open, &QPushButton::clicked, this, &NasFilesPanel::openCurrent);
    connect(m_download, &QPushButton::clicked, this, [this] {
        if (current().name.isEmpty())
            return;
        const QString dir = QFileDialog::getExistingDirectory(
            this, tr("Download %1 into").arg(current().name),
            QStandardPaths::writableLocation(QStandardPaths::DownloadLocation));
        if (!dir.isEmpty())
            downloadTo(dir);
    });
    // A file or a whole folder (code, a dataset): the dialogs pick one or the other.
    auto *uploadMenu = new QMenu(m_upload);
    uploadMenu->addAction(tr("A file…"), this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Upload into %1").arg(m_dir));
        if (!file.isEmpty())
            uploadFile(file);
    });
    uploadMenu->addAction(tr("A folder…"), this, [this] {
        const QString dir =
            QFileDialog::getExistingDirectory(this, tr("Upload a folder into %1").arg(m_dir));
        if (!dir.isEmpty())
            uploadFile(dir);
    });
    m_upload->setMenu(uploadMenu);
    connect(m_copyPath, &QPushButton::clicked, this, [this] {
        const RemoteFile f = current();
        QApplication::clipboard()->setText(format::shellWord(f.name.isEmpty() ? m_dir : f.path));
    });
    connect(m_remove, &QPushButton::clicked, this, &NasFilesPanel::removeSelected);
    connect(m_move, &QPushButton::clicked, this, [this] {
        const RemoteFile f = current();
        if (f.name.isEmpty())
            return;
        bool ok = false;
        const QString folder = QInputDialog::getText(this, tr("Move %1").arg(f.name),
                                                     tr("Into the folder (on the NAS):"),
                                                     QLineEdit::Normal, m_dir, &ok)
                                   .trimmed();
        if (ok && !folder.isEmpty())
            moveCurrentTo(folder);
    });
    connect(m_cancel, &QPushButton::clicked, m_files, &NasFiles::cancel);
    connect(m_files, &NasFiles::changed, this, [this] {
        if (!m_dir.isEmpty())
            go(m_dir); // a removal or a move shows in the folder
    });
    connect(m_files, &NasFiles::listed, this, &NasFilesPanel::onListed);
    connect(m_files, &NasFiles::routeChanged, this, &NasFilesPanel::showRoute);
    connect(m_files, &NasFiles::progress, this, &NasFilesPanel::onProgress);
    connect(m_files, &NasFiles::finished, this, &NasFilesPanel::onFinished);
}

RemoteFile NasFilesPanel::current() const
{
    const QTreeWidgetItem *item = m_view->currentItem();
    const int i = item ? item->data(0, Qt::UserRole).toInt() : -1;
    return i >= 0 && i < m_entries.size() ? m_entries[i] : RemoteFile();
}

QList<RemoteFile> NasFilesPanel::selected() const
{
    QList<RemoteFile> out;
    for (const QTreeWidgetItem *item : m_view->selectedItems())
        if (const int i = item->data(0, Qt::UserRole).toInt(); i >= 0 && i < m_entries.size())
            out << m_entries[i];
    if (out.isEmpty() && !current().name.isEmpty())
        out << current();
    return out;
}

NasFileViewer *NasFilesPanel::openCurrent()
{
    const RemoteFile f = current();
    if (f.type != 'f') {
        m_status->setText(f.name.isEmpty() ? tr("Choose a file to open.")
                          : f.type == 'l'
                              ? tr("%1 is a link: links are not followed.").arg(f.path)
                              : tr("%1 is not a plain file: only files are opened.").arg(f.path));
        return nullptr;
    }
    auto *viewer = new NasFileViewer(m_files, f, this);
    viewer->show();
    return viewer;
}

void NasFilesPanel::removeSelected()
{
    if (const QList<RemoteFile> entries = selected(); !entries.isEmpty())
        emit operationRequested(m_files->planRemove(entries));
}

void NasFilesPanel::moveCurrentTo(const QString &folder)
{
    if (const RemoteFile f = current(); !f.name.isEmpty())
        emit operationRequested(m_files->planMove(f, folder));
}

void NasFilesPanel::go(const QString &dir)
{
    m_wanted = dir;
    m_path->setText(dir);
    m_status->setText(tr("Reading %1…").arg(dir));
    m_files->list(dir);
}

void NasFilesPanel::onListed(const QString &dir, const QList<RemoteFile> &entries,
                             const QString &error)
{
    if (dir != m_wanted)
        return; // the user has gone elsewhere since
    if (!error.isEmpty()) {
        m_status->setText(error);
        showAsError(m_status, true);
        return;
    }
    showAsError(m_status, false);
    showRoute();
    m_dir = dir;
    m_path->setText(dir);
    m_entries = entries;
    m_view->clear();
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (int i = 0; i < entries.size(); ++i) {
        const RemoteFile &f = entries[i];
        const QString kind = f.type == 'd'   ? tr("folder")
                             : f.type == 'l' ? tr("link")
                             : f.type == 'f' ? tr("file")
                                             : tr("other");
        auto *item = new QTreeWidgetItem(
            m_view,
            {f.name, f.type == 'd' ? QString() : format::bytes(f.size),
             f.modified > 0 ? tr("%1 ago").arg(format::age(f.modified, now)) : QString(), kind});
        item->setData(0, Qt::UserRole, i);
        item->setToolTip(0,
                         QStringLiteral("<p>") + f.path.toHtmlEscaped() + QStringLiteral("</p>"));
        item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
    }
    m_view->resizeColumnToContents(1);
    m_view->resizeColumnToContents(2);
    m_status->setText(tr("%n entries in %1", nullptr, int(entries.size())).arg(dir));
}

void NasFilesPanel::downloadTo(const QString &localDir)
{
    const RemoteFile f = current();
    if (f.name.isEmpty() || m_files->isCopying())
        return;
    setCopying(true);
    m_status->setText(tr("Downloading %1 into %2…").arg(f.path, localDir));
    m_files->download(f, localDir);
}

void NasFilesPanel::uploadFile(const QString &localFile)
{
    if (m_dir.isEmpty() || m_files->isCopying())
        return;
    setCopying(true);
    m_status->setText(tr("Uploading %1 into %2…").arg(localFile, m_dir));
    m_files->upload(localFile, m_dir);
}

void NasFilesPanel::onProgress(qint64 done, qint64 total, qint64 rate, const QString &current)
{
    m_bar->setRange(0, 1000);
    m_bar->setValue(total > 0 ? int(done * 1000 / total) : 0);
    m_bar->setFormat(QStringLiteral("%1 / %2").arg(format::bytes(done), format::bytes(total)));
    m_status->setText(tr("%1 — %2/s").arg(current, format::bytes(rate)));
}

void NasFilesPanel::onFinished(bool ok, const QString &message)
{
    setCopying(false);
    m_status->setText(message);
    showAsError(m_status, !ok);
    if (ok && !m_dir.isEmpty())
        go(m_dir); // an upload shows in the folder
}

void NasFilesPanel::showRoute()
{
    const bool nodes = m_files->reachesNodes();
    m_route->setText(nodes ? QString() : m_files->route());
    m_route->setVisible(!nodes && !m_files->route().isEmpty());
    // Removals and moves go where the files were listed: a node, or the dev environment.
    for (QPushButton *b : {m_remove, m_move})
        b->setEnabled(nodes || !m_files->route().isEmpty());
}

void NasFilesPanel::setCopying(bool copying)
{
    m_download->setEnabled(!copying);
    m_upload->setEnabled(!copying);
    m_cancel->setVisible(copying);
    m_bar->setVisible(copying);
    if (copying)
        m_bar->setValue(0);
}

} // namespace gpudesk
