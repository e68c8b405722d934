// SPDX-License-Identifier: GPL-3.0-or-later
#include "storagepage.h"

#include "appsettings.h"
#include "columnfit.h"
#include "format.h"
#include "nascleanuppanel.h"
#include "nasfiles.h"
#include "nasfilespanel.h"
#include "noticebanner.h"
#include "storagealerts.h"
#include "storagemodel.h"
#include "storageservice.h"
#include "tablefilter.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace gpudesk {

StoragePage::StoragePage(StorageService *storage, NasFiles *files, QWidget *parent)
    : QWidget(parent), m_storage(storage), m_model(new StorageModel(this)),
      m_proxy(new TableFilter(this)), m_view(new QTableView(this)), m_detail(new QTreeWidget(this)),
      m_banner(new NoticeBanner(this)), m_roots(new QVBoxLayout), m_status(new QLabel(this)),
      m_measure(new QPushButton(tr("Measure now"), this)),
      m_cancel(new QPushButton(tr("Cancel"), this)),
      m_copyPath(new QPushButton(tr("Copy path"), this)), m_interval(new QSpinBox(this)),
      m_node(new QComboBox(this)), m_tabs(new QTabWidget(this)), m_nas(files),
      m_files(new NasFilesPanel(files, this)), m_cleanup(new NasCleanupPanel(storage, files, this))
{
    connect(m_files, &NasFilesPanel::operationRequested, this, &StoragePage::operationRequested);
    connect(m_cleanup, &NasCleanupPanel::operationRequested, this,
            &StoragePage::operationRequested);
    connect(m_cleanup, &NasCleanupPanel::browseRequested, this, &StoragePage::browse);
    m_proxy->setSourceModel(m_model);
    m_proxy->setDynamicSortFilter(true);
    m_view->setObjectName(QStringLiteral("storageView"));
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(StorageModel::Size, Qt::DescendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    ColumnFit::install(m_view, StorageModel::Path);

    m_detail->setObjectName(QStringLiteral("storageDetail"));
    m_detail->setHeaderLabels({tr("Largest below the folder"), tr("Size"), tr("Changed")});
    m_detail->setRootIsDecorated(true);
    m_detail->setUniformRowHeights(true);
    m_detail->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_detail->header()->setStretchLastSection(false);

    m_measure->setObjectName(QStringLiteral("measureStorage"));
    m_measure->setToolTip(tr("Walk the NAS now over SSH on a node that mounts it, at the lowest "
                             "CPU and IO priority"));
    m_cancel->setObjectName(QStringLiteral("cancelStorage"));
    m_cancel->setVisible(false);
    m_copyPath->setObjectName(QStringLiteral("copyStoragePath"));
    m_copyPath->setToolTip(tr("Copy the selected path, to use in a job or a dev environment"));
    m_copyPath->setEnabled(false);
    m_status->setObjectName(QStringLiteral("storageStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_banner->setTextFormat(Qt::PlainText); // paths from the NAS: text, never markup
    m_status->setWordWrap(true);
    m_interval->setObjectName(QStringLiteral("storageInterval"));
    m_interval->setRange(1, 168);
    m_interval->setSuffix(tr(" h"));
    m_interval->setValue(AppSettings::storageIntervalHours());
    m_interval->setToolTip(tr("gpudesk walks the NAS on its own no more often than this"));
    connect(m_interval, &QSpinBox::valueChanged, this,
            [](int h) { AppSettings::setStorageIntervalHours(h); });

    m_node->setObjectName(QStringLiteral("storageNode"));
    m_node->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_node->setToolTip(tr("The node the NAS is walked and its files are read on: one that mounts "
                          "it and answers over SSH. Walks run at the lowest CPU and IO priority "
                          "there."));
    connect(m_node, &QComboBox::activated, this,
            [this](int i) { m_storage->setNode(m_node->itemData(i).toString()); });

    auto *filter = new QLineEdit(this);
    filter->setPlaceholderText(tr("Filter folders: user, group, path…"));
    filter->setClearButtonEnabled(true);
    connect(filter, &QLineEdit::textChanged, m_proxy, &TableFilter::setText);

    auto *bar = new QHBoxLayout;
    bar->addWidget(filter, 1);
    bar->addWidget(new QLabel(tr("On node"), this));
    bar->addWidget(m_node);
    bar->addWidget(new QLabel(tr("Walk every"), this));
    bar->addWidget(m_interval);
    bar->addWidget(m_measure);
    bar->addWidget(m_cancel);
    auto *detailBox = new QWidget(this);
    auto *detailLayout = new QVBoxLayout(detailBox);
    detailLayout->setContentsMargins(0, 0, 0, 0);
    detailLayout->addWidget(m_detail, 1);
    detailLayout->addWidget(m_copyPath, 0, Qt::AlignRight);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_view);
    split->addWidget(detailBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto *usage = new QWidget(this);
    auto *usageLayout = new QVBoxLayout(usage);
    usageLayout->setContentsMargins(0, 6, 0, 0);
    usageLayout->addWidget(m_status);
    usageLayout->addLayout(bar);
    usageLayout->addWidget(split, 1);
    m_tabs->setObjectName(QStringLiteral("storageTabs"));
    m_tabs->addTab(usage, tr("Usage"));
    m_tabs->addTab(m_files, tr("Files"));
    m_tabs->addTab(m_cleanup, tr("Cleanup"));
    // The Files tab opens in the first root of users' folders, once.
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int tab) {
        if (m_tabs->widget(tab) == m_cleanup)
            m_cleanup->refresh(); // the cluster's users may have changed since the walk
        if (tab == 1 && !m_files->started())
            m_files->go(m_storage->measures().isEmpty() ? QStringLiteral("/mnt/user")
                                                        : m_storage->measures().constFirst().root);
    });
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->addWidget(m_banner);
    layout->addLayout(m_roots);
    layout->addWidget(m_tabs, 1);

    connect(m_measure, &QPushButton::clicked, m_storage, &StorageService::measureNow);
    connect(m_cancel, &QPushButton::clicked, m_storage, &StorageService::cancel);
    connect(m_storage, &StorageService::updated, this, &StoragePage::refresh);
    connect(m_storage, &StorageService::progress, this, &StoragePage::onProgress);
    connect(m_storage, &StorageService::measuringChanged, this, &StoragePage::onMeasuring);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &StoragePage::showDetail);
    connect(m_detail, &QTreeWidget::currentItemChanged, this, [this] {
        m_copyPath->setEnabled(m_detail->currentItem() ||
                               !m_view->selectionModel()->selectedRows().isEmpty());
    });
    connect(m_copyPath, &QPushButton::clicked, this, [this] {
        QString path;
        if (const QTreeWidgetItem *item = m_detail->currentItem())
            path = item->data(0, Qt::UserRole).toString();
        if (path.isEmpty()) {
            const QModelIndexList rows = m_view->selectionModel()->selectedRows();
            if (!rows.isEmpty())
                path = rows.constFirst().data(KeyRole).toString();
        }
        // As a shell word where the name needs it (a newline, `$(…)`): pasted into a job's
        // command or a terminal, it stays one path and runs nothing.
        if (!path.isEmpty())
            QApplication::clipboard()->setText(format::shellWord(path));
    });
    refresh();
}

void StoragePage::browse(const QString &dir)
{
    m_files->go(dir);
    m_tabs->setCurrentWidget(m_files);
}

void StoragePage::refresh()
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    m_model->setMeasures(m_storage->measures(), m_storage->history(), now);
    showRoots();
    showDetail();
    onMeasuring(m_storage->isMeasuring());
    fillNodes();
}

void StoragePage::showEvent(QShowEvent *event)
{
    fillNodes(); // the SSH pool's nodes arrive after the page was made
    QWidget::showEvent(event);
}

void StoragePage::fillNodes()
{
    const QString chosen = m_storage->node();
    const QSignalBlocker block(m_node);
    m_node->clear();
    m_node->addItem(tr("Any that answers"), QString());
    QStringList nodes = m_storage->nodes();
    // A node set before and not reachable now stays shown as chosen: the walk says why it fails.
    if (!chosen.isEmpty() && !nodes.contains(chosen))
        nodes.prepend(chosen);
    for (const QString &n : std::as_const(nodes))
        m_node->addItem(n, n);
    m_node->setCurrentIndex(std::max(0, m_node->findData(chosen)));
}

void StoragePage::showRoots()
{
    while (QLayoutItem *item = m_roots->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QStringList problems;
    for (const StorageRootMeasure &m : m_storage->measures()) {
        auto *row = new QWidget(this);
        row->setObjectName(QStringLiteral("storageRoot"));
        auto *h = new QHBoxLayout(row);
        h->setContentsMargins(0, 0, 0, 0);
        auto *name = new QLabel(QStringLiteral("<b>%1</b>").arg(m.root.toHtmlEscaped()), row);
        name->setMinimumWidth(fontMetrics().horizontalAdvance(QStringLiteral("/mnt/share__")));
        auto *fill = new QProgressBar(row);
        fill->setRange(0, 100);
        fill->setValue(qMax(0, m.percentUsed()));
        fill->setFormat(m.percentUsed() >= 0 ? tr("%1 % full").arg(m.percentUsed())
                                             : tr("unknown"));
        fill->setMaximumWidth(220);
        QString text;
        if (m.capacityBytes > 0)
            text =
                tr("%1 free of %2").arg(format::bytes(m.freeBytes), format::bytes(m.capacityBytes));
        if (m.measuredAt > 0 && !m.folders.isEmpty())
            text += (text.isEmpty() ? QString() : QStringLiteral(" · ")) +
                    tr("measured %1 ago on %2: %n entries in %3 s", nullptr,
                       int(qMin<qint64>(m.entries, INT_MAX)))
                        .arg(format::age(m.measuredAt, now), m.node)
                        .arg(m.elapsedMs / 1000.0, 0, 'f', 1);
        auto *info = new QLabel(text, row);
        info->setTextFormat(Qt::PlainText);
        info->setTextInteractionFlags(Qt::TextSelectableByMouse);
        h->addWidget(name);
        h->addWidget(fill);
        h->addWidget(info, 1);
        m_roots->addWidget(row);
        if (!m.error.isEmpty())
            problems << tr("The last walk of %1 failed: %2").arg(m.root, m.error);
        problems << StorageAlerts::describe(m);
    }
    QString unavailable = m_storage->unavailableReason();
    if (!unavailable.isEmpty() && !m_nas->reachesNodes())
        unavailable += u' ' + tr("Your own folders are on the Files tab, through your running dev "
                                 "environment.");
    if (m_storage->measures().isEmpty() && !unavailable.isEmpty())
        m_banner->say(NoticeBanner::Kind::Note, unavailable);
    else if (!problems.isEmpty())
        m_banner->say(NoticeBanner::Kind::Warning,
                      (problems.size() > 6 ? problems.mid(0, 6) << tr("… and %n more.", nullptr,
                                                                      int(problems.size() - 6))
                                           : problems)
                          .join(u'\n'));
    else
        m_banner->say(NoticeBanner::Kind::Note, QString());
}

void StoragePage::showDetail()
{
    m_detail->clear();
    const QModelIndexList rows = m_view->selectionModel()->selectedRows();
    m_copyPath->setEnabled(!rows.isEmpty());
    if (rows.isEmpty())
        return;
    const StorageFolder *f = m_model->folderAt(m_proxy->mapToSource(rows.constFirst()).row());
    if (!f)
        return;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    auto group = [this](const QString &title) {
        auto *item = new QTreeWidgetItem(m_detail, {title});
        QFont bold = item->font(0);
        bold.setBold(true);
        item->setFont(0, bold);
        item->setExpanded(true);
        return item;
    };
    auto add = [now](QTreeWidgetItem *parent, const QString &name, const QString &path,
                     qint64 bytes, qint64 changed) {
        auto *item = new QTreeWidgetItem(
            parent, {name, format::bytes(bytes),
                     changed > 0 ? tr("%1 ago").arg(format::age(changed, now)) : QString()});
        item->setData(0, Qt::UserRole, path);
        // Names on the NAS are anyone's: shown as text, never as rich text a name could fake.
        item->setToolTip(0, QStringLiteral("<p>") + path.toHtmlEscaped() + QStringLiteral("</p>"));
        item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
    };
    QTreeWidgetItem *folders = group(tr("Largest folders and files right below"));
    for (const StoragePart &p : f->largest)
        add(folders, p.name, f->path + u'/' + p.name, p.bytes, p.lastChange);
    QTreeWidgetItem *files = group(tr("Largest files"));
    for (const StorageFile &file : f->largestFiles) {
        add(files, file.path.mid(f->path.size() + 1), file.path, file.bytes, file.modified);
        if (file.allocated * 2 < file.bytes)
            files->child(files->childCount() - 1)
                ->setToolTip(1, tr("Sparse: %1 on disk").arg(format::bytes(file.allocated)));
    }
    if (!f->staleFiles.isEmpty()) {
        QTreeWidgetItem *stale = group(tr("Not read or changed for %1 days (%2 and more)")
                                           .arg(StorageFolder::StaleDays)
                                           .arg(format::bytes(StorageFolder::StaleMinBytes)));
        for (const StorageFile &file : f->staleFiles)
            add(stale, file.path.mid(f->path.size() + 1), file.path, file.bytes,
                std::max(file.modified, file.accessed));
    }
    if (!f->coreDumps.isEmpty()) {
        QTreeWidgetItem *cores = group(tr("Core dumps"));
        for (const StorageFile &file : f->coreDumps)
            add(cores, file.path.mid(f->path.size() + 1), file.path, file.bytes, file.modified);
    }
    m_detail->expandAll();
    m_detail->resizeColumnToContents(1);
    m_detail->resizeColumnToContents(2);
}

void StoragePage::onProgress(const QString &root, qint64 entries, qint64 bytes)
{
    m_status->setText(
        tr("Walking %1: %n entries, %2 so far…", nullptr, int(qMin<qint64>(entries, INT_MAX)))
            .arg(root, format::bytes(bytes)));
}

void StoragePage::onMeasuring(bool measuring)
{
    m_measure->setEnabled(!measuring && m_storage->unavailableReason().isEmpty());
    m_cancel->setVisible(measuring);
    if (measuring) {
        m_status->setText(tr("Walking the NAS…"));
        m_status->setVisible(true);
        return;
    }
    m_status->clear();
    m_status->setVisible(false);
}

} // namespace gpudesk
