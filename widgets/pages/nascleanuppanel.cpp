// SPDX-License-Identifier: GPL-3.0-or-later
#include "nascleanuppanel.h"

#include "format.h"
#include "nasfiles.h"
#include "storageservice.h"

#include <QCheckBox>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace gpudesk {

namespace {

enum Column
{
    What,
    Path,
    Owner,
    Size,
    OnDisk,
    Changed,
    Evidence,
    ColumnCount
};

constexpr int SortRole = Qt::UserRole + 1;
constexpr int IndexRole = Qt::UserRole + 2;

// Sorts sizes and dates by their numbers, the rest by text.
class Item : public QTreeWidgetItem
{
public:
    using QTreeWidgetItem::QTreeWidgetItem;
    bool operator<(const QTreeWidgetItem &other) const override
    {
        const int c = treeWidget() ? treeWidget()->sortColumn() : 0;
        const QVariant a = data(c, SortRole), b = other.data(c, SortRole);
        if (a.isValid() && b.isValid())
            return a.toLongLong() < b.toLongLong();
        return text(c).localeAwareCompare(other.text(c)) < 0;
    }
};

} // namespace

NasCleanupPanel::NasCleanupPanel(StorageService *storage, NasFiles *files, QWidget *parent)
    : QWidget(parent), m_storage(storage), m_files(files), m_coreDays(new QSpinBox(this)),
      m_departedDays(new QSpinBox(this)), m_jobOutputDays(new QSpinBox(this)),
      m_filter(new QLineEdit(this)), m_view(new QTreeWidget(this)), m_summary(new QLabel(this)),
      m_notes(new QLabel(this)), m_remove(new QPushButton(tr("Remove…"), this)),
      m_browse(new QPushButton(tr("Show in Files"), this))
{
    auto *classes = new QHBoxLayout;
    for (int i = 0; i < NasCleanup::kClassCount; ++i) {
        const auto c = NasCandidate::Class(i);
        m_classes[i] = new QCheckBox(NasCleanup::classTitle(c), this);
        m_classes[i]->setObjectName(NasCleanup::classId(c));
        m_classes[i]->setChecked(true);
        connect(m_classes[i], &QCheckBox::toggled, this, &NasCleanupPanel::refresh);
        classes->addWidget(m_classes[i]);
    }
    m_classes[NasCandidate::StaleFile]->setToolTip(
        tr("Files of %1 and more that the NAS says were neither read nor changed for %n day(s)",
           nullptr, StorageFolder::StaleDays)
            .arg(format::bytes(StorageFolder::StaleMinBytes)));
    m_coreDays->setObjectName(QStringLiteral("cleanupCoreDays"));
    m_coreDays->setRange(0, 365);
    m_coreDays->setValue(NasCleanupOptions{}.coreDumpDays);
    m_coreDays->setSuffix(tr(" d"));
    m_coreDays->setToolTip(tr("Core dumps younger than this are left: someone may be reading one"));
    m_departedDays->setObjectName(QStringLiteral("cleanupDepartedDays"));
    m_departedDays->setRange(1, 3650);
    m_departedDays->setValue(NasCleanupOptions{}.departedDays);
    m_departedDays->setSuffix(tr(" d"));
    m_departedDays->setToolTip(tr("A folder written to more lately is someone's, with a "
                                  "namespace or not"));
    m_jobOutputDays->setObjectName(QStringLiteral("cleanupJobOutputDays"));
    m_jobOutputDays->setRange(1, 3650);
    m_jobOutputDays->setValue(NasCleanupOptions{}.jobOutputDays);
    m_jobOutputDays->setSuffix(tr(" d"));
    m_jobOutputDays->setToolTip(tr("A job's outputs read or written more lately are in use (a "
                                   "checkpoint loaded to resume or to evaluate), job or not"));
    connect(m_jobOutputDays, &QSpinBox::valueChanged, this, &NasCleanupPanel::refresh);
    connect(m_coreDays, &QSpinBox::valueChanged, this, &NasCleanupPanel::refresh);
    connect(m_departedDays, &QSpinBox::valueChanged, this, &NasCleanupPanel::refresh);
    classes->addStretch(1);
    // The bounds on a row of their own: with the classes they would make the whole window as
    // wide (a page's least width is the window's).
    auto *bounds = new QHBoxLayout;
    bounds->addWidget(new QLabel(tr("Core dumps older than"), this));
    bounds->addWidget(m_coreDays);
    bounds->addSpacing(12);
    bounds->addWidget(new QLabel(tr("Folders untouched for"), this));
    bounds->addWidget(m_departedDays);
    bounds->addSpacing(12);
    bounds->addWidget(new QLabel(tr("Job outputs unused for"), this));
    bounds->addWidget(m_jobOutputDays);
    bounds->addStretch(1);

    m_filter->setPlaceholderText(tr("Filter: path, owner, evidence…"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, this, &NasCleanupPanel::fill);

    m_view->setObjectName(QStringLiteral("nasCleanupView"));
    m_view->setHeaderLabels({tr("Kind"), tr("Path"), tr("Owner"), tr("Size"), tr("On disk"),
                             tr("Last change"), tr("Evidence")});
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(Size, Qt::DescendingOrder);
    m_view->header()->setSectionResizeMode(Path, QHeaderView::Interactive);
    m_view->header()->setStretchLastSection(true);
    connect(m_view, &QTreeWidget::itemSelectionChanged, this, &NasCleanupPanel::onSelection);
    connect(m_view, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem *item) {
        const NasCandidate &c = m_found.at(item->data(0, IndexRole).toInt());
        emit browseRequested(c.type == 'd' ? c.path : c.path.section(u'/', 0, -2));
    });

    m_summary->setObjectName(QStringLiteral("nasCleanupSummary"));
    m_summary->setTextFormat(Qt::PlainText);
    m_notes->setObjectName(QStringLiteral("nasCleanupNotes"));
    m_notes->setTextFormat(Qt::PlainText); // paths from the NAS: text, never markup
    m_notes->setWordWrap(true);
    m_remove->setObjectName(QStringLiteral("nasCleanupRemove"));
    m_remove->setToolTip(tr("Ask the NAS about each again, then plan their removal: shown, "
                            "checked and confirmed before anything goes"));
    m_remove->setEnabled(false);
    m_browse->setObjectName(QStringLiteral("nasCleanupBrowse"));
    m_browse->setEnabled(false);
    connect(m_remove, &QPushButton::clicked, this, &NasCleanupPanel::removeSelected);
    connect(m_browse, &QPushButton::clicked, this, [this] {
        if (QTreeWidgetItem *item = m_view->currentItem())
            emit m_view->itemDoubleClicked(item, 0);
    });

    auto *actions = new QHBoxLayout;
    actions->addWidget(m_summary, 1);
    actions->addWidget(m_browse);
    actions->addWidget(m_remove);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 6, 0, 0);
    layout->addLayout(classes);
    layout->addLayout(bounds);
    layout->addWidget(m_notes);
    layout->addWidget(m_filter);
    layout->addWidget(m_view, 1);
    layout->addLayout(actions);

    connect(m_storage, &StorageService::updated, this, [this] {
        m_gone.clear(); // a new walk knows what is gone
        refresh();
    });
    // A removal ended: what the walk listed may be gone now.
    connect(m_files, &NasFiles::changed, this, &NasCleanupPanel::checkGone);
    refresh();
}

void NasCleanupPanel::refresh()
{
    NasCleanupOptions o;
    for (int i = 0; i < NasCleanup::kClassCount; ++i)
        if (m_classes[i]->isChecked())
            o.classes << NasCandidate::Class(i);
    o.coreDumpDays = m_coreDays->value();
    o.departedDays = m_departedDays->value();
    o.jobOutputDays = m_jobOutputDays->value();
    NasCleanupFound found;
    if (!o.classes.isEmpty())
        found = m_storage->cleanupCandidates(o);
    m_found = found.candidates;
    QStringList notes = found.notes;
    if (m_storage->measures().isEmpty())
        notes.prepend(tr("The NAS was not walked yet: Measure now on the Usage tab."));
    else
        notes.prepend(tr("From the last walk (%1 on %2). Removed since then: not listed.")
                          .arg(format::when(m_storage->measures().constFirst().measuredAt),
                               m_storage->measures().constFirst().node));
    m_notes->setText(notes.join(u'\n'));
    fill();
}

void NasCleanupPanel::fill()
{
    const QString filter = m_filter->text().trimmed();
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    // By path: the rows' indices may be of the list before this refresh.
    QStringList selected;
    for (const QTreeWidgetItem *item : m_view->selectedItems())
        selected << item->text(Path);
    m_view->setSortingEnabled(false);
    m_view->clear();
    m_shown.clear();
    qint64 bytes = 0, allocated = 0;
    for (int i = 0; i < m_found.size(); ++i) {
        const NasCandidate &c = m_found.at(i);
        if (m_gone.contains(c.path))
            continue;
        const QString evidence = NasCleanup::evidence(c, now);
        const QString title = NasCleanup::classTitle(c.cls);
        if (!filter.isEmpty() && !c.path.contains(filter, Qt::CaseInsensitive) &&
            !c.owner.contains(filter, Qt::CaseInsensitive) &&
            !evidence.contains(filter, Qt::CaseInsensitive) &&
            !title.contains(filter, Qt::CaseInsensitive))
            continue;
        auto *item = new Item(m_view);
        item->setText(What, title);
        item->setText(Path, c.path);
        item->setText(Owner, c.owner);
        item->setText(Size, format::bytes(c.bytes));
        item->setData(Size, SortRole, c.bytes);
        item->setText(OnDisk, format::bytes(c.allocated));
        item->setData(OnDisk, SortRole, c.allocated);
        item->setText(Changed, format::age(c.modified, now));
        item->setData(Changed, SortRole, c.modified);
        item->setText(Evidence, evidence);
        item->setToolTip(Evidence, evidence);
        item->setToolTip(Path, c.path);
        for (int col : {Size, OnDisk, Changed})
            item->setTextAlignment(col, Qt::AlignRight | Qt::AlignVCenter);
        item->setData(0, IndexRole, i);
        item->setSelected(selected.contains(c.path));
        m_shown << c;
        bytes += c.bytes;
        allocated += c.allocated;
    }
    m_view->setSortingEnabled(true);
    for (int col : {What, Owner, Size, OnDisk, Changed})
        m_view->resizeColumnToContents(col);
    m_view->resizeColumnToContents(Path);
    m_view->setColumnWidth(Path, std::min(m_view->columnWidth(Path), 420));
    m_summary->setText(m_shown.isEmpty()
                           ? tr("Nothing to clean up in what is shown.")
                           : tr("%n candidate(s): %1 (%2 on disk)", nullptr, int(m_shown.size()))
                                 .arg(format::bytes(bytes), format::bytes(allocated)));
    onSelection();
}

QList<NasCandidate> NasCleanupPanel::selectedCandidates() const
{
    QList<NasCandidate> out;
    for (const QTreeWidgetItem *item : m_view->selectedItems())
        out << m_found.at(item->data(0, IndexRole).toInt());
    return out;
}

void NasCleanupPanel::onSelection()
{
    const QList<NasCandidate> chosen = selectedCandidates();
    m_remove->setEnabled(!chosen.isEmpty() && !m_planning);
    m_browse->setEnabled(m_view->currentItem());
    if (chosen.isEmpty())
        return;
    qint64 bytes = 0, allocated = 0;
    for (const NasCandidate &c : chosen) {
        bytes += c.bytes;
        allocated += c.allocated;
    }
    m_remove->setText(tr("Remove %n…", nullptr, int(chosen.size())));
    m_remove->setToolTip(tr("%1 (%2 on disk) chosen; the NAS is asked about each again before "
                            "the plan is shown")
                             .arg(format::bytes(bytes), format::bytes(allocated)));
}

void NasCleanupPanel::select(const QStringList &paths)
{
    m_view->clearSelection();
    for (int i = 0; i < m_view->topLevelItemCount(); ++i) {
        QTreeWidgetItem *item = m_view->topLevelItem(i);
        if (paths.contains(item->text(Path))) {
            item->setSelected(true);
            m_view->setCurrentItem(item, 0, QItemSelectionModel::Select);
        }
    }
}

void NasCleanupPanel::removeSelected()
{
    const QList<NasCandidate> chosen = selectedCandidates();
    if (chosen.isEmpty() || m_planning)
        return;
    m_planning = true;
    m_remove->setEnabled(false);
    m_summary->setText(tr("Asking the NAS about %n item(s)…", nullptr, int(chosen.size())));
    m_files->planCleanup(chosen, this, [this](const OperationPlan &plan) {
        m_planning = false;
        fill();
        emit operationRequested(plan);
    });
}

void NasCleanupPanel::checkGone()
{
    QStringList paths;
    for (const NasCandidate &c : std::as_const(m_shown))
        paths << c.path;
    if (paths.isEmpty())
        return;
    m_files->inspect(paths, false, this, [this](const QList<RemotePathInfo> &now, const QString &) {
        for (const RemotePathInfo &i : now)
            if (!i.found)
                m_gone.insert(i.path);
        fill();
    });
}

} // namespace gpudesk
