// SPDX-License-Identifier: GPL-3.0-or-later
#include "logview.h"

#include <climits>
#include <utility>

#include "logmodel.h"
#include "logservice.h"
#include "palette.h"
#include "roles.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPainter>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStyledItemDelegate>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace gpudesk {

namespace {

// Paints a log line with every match of the search highlighted.
class HighlightDelegate : public QStyledItemDelegate
{
public:
    HighlightDelegate(const QLineEdit *search, QObject *parent)
        : QStyledItemDelegate(parent), m_search(search)
    {}
    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override
    {
        // A line that says something failed: tinted, with a mark in the margin, so that the
        // eye finds it in a thousand lines.
        if (index.data(SeverityRole).toInt() == 2 && !(option.state & QStyle::State_Selected)) {
            QColor tint = colors::error();
            tint.setAlpha(colors::isDark(option.palette) ? 70 : 38);
            painter->fillRect(option.rect, tint);
            painter->fillRect(QRect(option.rect.left(), option.rect.top(), 3, option.rect.height()),
                              colors::error());
        }
        QStyledItemDelegate::paint(painter, option, index);
        const QString needle = m_search->text();
        if (needle.isEmpty() || option.state & QStyle::State_Selected)
            return;
        const QString text = index.data().toString();
        const QFontMetrics fm(option.font);
        const QRect r = option.rect.adjusted(3, 0, 0, 0); // the style's text margin
        painter->save();
        for (qsizetype at = text.indexOf(needle, 0, Qt::CaseInsensitive); at >= 0;
             at = text.indexOf(needle, at + needle.size(), Qt::CaseInsensitive)) {
            const int x = fm.horizontalAdvance(text.left(at));
            const int w = fm.horizontalAdvance(text.mid(at, needle.size()));
            if (x > r.width())
                break;
            const QRect hit(r.left() + x, r.top(), w, r.height());
            painter->fillRect(hit, QColor(255, 214, 0));
            painter->setPen(Qt::black);
            painter->setFont(option.font);
            painter->drawText(hit, Qt::AlignLeft | Qt::AlignVCenter, text.mid(at, needle.size()));
        }
        painter->restore();
    }

private:
    const QLineEdit *m_search;
};

} // namespace

LogView::LogView(LogService *logs, const ObjectRef &ref, QWidget *parent)
    : QWidget(parent), m_logs(logs), m_ref(ref), m_model(new LogModel(this)),
      m_view(new QTableView(this)), m_pod(new QComboBox(this)), m_container(new QComboBox(this)),
      m_follow(new QCheckBox(tr("Follow"), this)),
      m_previous(new QCheckBox(tr("Previous container"), this)),
      m_timestamps(new QCheckBox(tr("Timestamps"), this)), m_wrap(new QCheckBox(tr("Wrap"), this)),
      m_tail(new QSpinBox(this)), m_search(new QLineEdit(this)), m_matches(new QLabel(this)),
      m_errors(new QLabel(this)), m_state(new QLabel(this))
{
    m_pod->addItems(ref.pods);
    m_pod->setVisible(ref.pods.size() > 1);
    m_pod->setToolTip(tr("Pod"));
    m_container->addItems(ref.containers);
    m_container->setVisible(ref.containers.size() > 1);
    m_container->setToolTip(tr("Container"));
    m_follow->setChecked(true);
    m_tail->setRange(0, 10'000'000);
    m_tail->setValue(1000);
    m_tail->setSpecialValueText(tr("all lines"));
    m_tail->setPrefix(tr("last "));
    m_tail->setSingleStep(1000);
    m_tail->setToolTip(tr("How many lines to fetch first (0: the whole log)"));
    m_search->setPlaceholderText(tr("Search"));
    m_search->setClearButtonEnabled(true);
    auto *prev = new QToolButton(this);
    prev->setArrowType(Qt::UpArrow);
    prev->setToolTip(tr("Previous match (Shift+F3)"));
    prev->setShortcut(QKeySequence(tr("Shift+F3")));
    auto *next = new QToolButton(this);
    next->setArrowType(Qt::DownArrow);
    next->setToolTip(tr("Next match (F3)"));
    next->setShortcut(QKeySequence(tr("F3")));
    auto *prevError = new QToolButton(this);
    prevError->setText(tr("◀ Error"));
    prevError->setToolTip(tr("Previous error line (Shift+F8)"));
    prevError->setShortcut(QKeySequence(tr("Shift+F8")));
    auto *nextError = new QToolButton(this);
    nextError->setText(tr("Error ▶"));
    nextError->setToolTip(tr("Next error line: traceback, error, CUDA error, out of memory (F8)"));
    nextError->setShortcut(QKeySequence(tr("F8")));
    m_errors->setObjectName(QStringLiteral("errorCount"));
    auto *copy = new QPushButton(tr("Copy"), this);
    copy->setToolTip(tr("Copy the selected lines (Ctrl+C)"));
    auto *save = new QPushButton(tr("Download…"), this);
    save->setToolTip(tr("Save the whole log from the API server, not just the lines shown"));

    m_view->setModel(m_model);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_view->setShowGrid(false);
    m_view->setWordWrap(false);
    m_view->setCornerButtonEnabled(false);
    m_view->horizontalHeader()->hide();
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    m_view->verticalHeader()->setMinimumSectionSize(1);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 2);
    m_view->setHorizontalScrollMode(QAbstractItemView::ScrollPerPixel);
    m_view->setItemDelegate(new HighlightDelegate(m_search, this));
    m_view->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    m_state->setForegroundRole(QPalette::PlaceholderText);

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_pod);
    bar->addWidget(m_container);
    bar->addWidget(m_tail);
    bar->addWidget(m_follow);
    bar->addWidget(m_previous);
    bar->addWidget(m_timestamps);
    bar->addWidget(m_wrap);
    bar->addStretch(1);
    bar->addWidget(m_search);
    bar->addWidget(prev);
    bar->addWidget(next);
    bar->addWidget(m_matches);
    bar->addWidget(prevError);
    bar->addWidget(nextError);
    bar->addWidget(m_errors);
    bar->addWidget(copy);
    bar->addWidget(save);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_state);

    // Autoscroll follows the end only while the user is there; reading higher up pauses it.
    QScrollBar *sb = m_view->verticalScrollBar();
    connect(sb, &QScrollBar::valueChanged, this,
            [this, sb](int v) { m_atBottom = v >= sb->maximum() - 1; });
    auto updateErrors = [this] {
        const int n = int(m_model->errorLines().size());
        QStringList parts;
        if (n > 0)
            parts << tr("%n error line(s)", nullptr, n);
        // Said where the counts are: the view holds the newest lines of a long log only.
        if (m_model->droppedLines() > 0)
            parts << tr("%n earlier line(s) not kept (Download saves the whole log)", nullptr,
                        int(std::min<qint64>(m_model->droppedLines(), INT_MAX)));
        m_errors->setText(parts.join(QStringLiteral(" · ")));
    };
    connect(m_model, &QAbstractItemModel::rowsInserted, this, updateErrors);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, updateErrors);
    connect(m_model, &QAbstractItemModel::modelReset, this, updateErrors);
    connect(prevError, &QToolButton::clicked, this, [this] { findError(false); });
    connect(nextError, &QToolButton::clicked, this, [this] { findError(true); });
    connect(m_model, &QAbstractItemModel::rowsInserted, this, [this] {
        fitColumn();
        if (m_atBottom)
            m_view->scrollToBottom();
        fitVisibleRows();
    });
    connect(m_model, &QAbstractItemModel::rowsInserted, this, [this] {
        if (!m_findPending)
            return;
        const int row = m_model->find(m_search->text(), m_model->rowCount(), false);
        if (row < 0)
            return;
        m_findPending = false;
        const QModelIndex i = m_model->index(row);
        m_view->setCurrentIndex(i);
        m_view->scrollTo(i, QAbstractItemView::PositionAtCenter);
    });
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        m_tallRows.clear();
        fitColumn();
    });
    connect(sb, &QScrollBar::valueChanged, this, &LogView::fitVisibleRows);
    for (QComboBox *box : {m_pod, m_container})
        connect(box, &QComboBox::currentIndexChanged, this, &LogView::restart);
    for (QCheckBox *box : {m_follow, m_previous})
        connect(box, &QCheckBox::toggled, this, &LogView::restart);
    connect(m_tail, &QSpinBox::editingFinished, this, &LogView::restart);
    connect(m_timestamps, &QCheckBox::toggled, m_model, &LogModel::setShowTimestamps);
    connect(m_wrap, &QCheckBox::toggled, this, &LogView::setWrap);
    connect(m_search, &QLineEdit::textChanged, this, [this] {
        m_view->viewport()->update();
        m_matches->setText(m_search->text().isEmpty()
                               ? QString()
                               : tr("%n line(s)", nullptr, m_model->matchCount(m_search->text())));
    });
    connect(m_search, &QLineEdit::returnPressed, this, [this] { findNext(true); });
    connect(next, &QToolButton::clicked, this, [this] { findNext(true); });
    connect(prev, &QToolButton::clicked, this, [this] { findNext(false); });
    connect(copy, &QPushButton::clicked, this, &LogView::copySelection);
    connect(save, &QPushButton::clicked, this, &LogView::download);
    auto *copyAction = new QAction(this);
    copyAction->setShortcut(QKeySequence::Copy);
    copyAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(copyAction, &QAction::triggered, this, &LogView::copySelection);
    m_view->addAction(copyAction);
    auto *findAction = new QAction(this);
    findAction->setShortcut(QKeySequence::Find);
    findAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(findAction, &QAction::triggered, this, [this] {
        m_search->setFocus();
        m_search->selectAll();
    });
    addAction(findAction);
    restart();
}

void LogView::showText(const QString &pod, const QString &container, bool previous,
                       const QString &text, bool fromStart)
{
    {
        const QSignalBlocker podBlock(m_pod), containerBlock(m_container),
            previousBlock(m_previous), followBlock(m_follow);
        m_follow->setChecked(false); // the log as it is, read to its end: the line is in it
        if (const int i = m_pod->findText(pod); i >= 0)
            m_pod->setCurrentIndex(i);
        if (const int i = m_container->findText(container); i >= 0)
            m_container->setCurrentIndex(i);
        m_previous->setChecked(previous);
    }
    m_search->setText(text);
    m_findPending = !text.isEmpty();
    m_fromStart = fromStart;
    restart();
}

void LogView::restart()
{
    if (m_pod->currentText().isEmpty()) {
        m_state->setText(tr("This object has no pods, so there is no log to show."));
        return;
    }
    delete m_stream;
    m_model->clear();
    m_atBottom = true;
    LogOptions o;
    o.container = m_container->currentText();
    o.follow = m_follow->isChecked();
    o.previous = m_previous->isChecked();
    o.tailLines = m_tail->value() == 0 ? -1 : m_tail->value();
    m_loadedStart = std::exchange(m_fromStart, false);
    if (m_loadedStart) { // once: a reload reads the tail again
        o.tailLines = -1;
        o.limitBytes = StartBytes;
        o.follow = false;
    }
    m_stream = m_logs->follow(m_ref.ns, m_pod->currentText(), o, this);
    if (!m_stream) {
        m_state->setText(tr("Not connected."));
        return;
    }
    connect(m_stream, &LogFeed::lines, m_model, &LogModel::append);
    connect(
        m_stream, &LogFeed::stateChanged, this, [this](LogFeed::State s, const QString &message) {
            switch (s) {
            case LogFeed::Streaming:
                m_state->setText(m_follow->isChecked() ? tr("Following the log…")
                                                       : tr("Loading the log…"));
                break;
            case LogFeed::Reconnecting:
                m_state->setText(
                    tr("The stream broke (%1); resuming from the last line…").arg(message));
                break;
            case LogFeed::Ended:
                m_model->flush();
                m_state->setText(m_loadedStart ? tr("The start of the log (its first %1): %n "
                                                    "line(s). Follow reads its end.",
                                                    nullptr, m_model->rowCount())
                                                     .arg(QLocale().formattedDataSize(StartBytes))
                                               : tr("%n line(s); the stream ended.", nullptr,
                                                    m_model->rowCount()));
                break;
            case LogFeed::Failed:
                m_state->setText(tr("Cannot read the log: %1").arg(message));
                break;
            case LogFeed::Idle:
                break;
            }
        });
    m_stream->start();
}

void LogView::setWrap(bool wrap)
{
    m_view->setWordWrap(wrap);
    m_view->setHorizontalScrollBarPolicy(wrap ? Qt::ScrollBarAlwaysOff : Qt::ScrollBarAsNeeded);
    if (!wrap) {
        // Back to one line a row: only the rows that were measured taller.
        const int height = m_view->verticalHeader()->defaultSectionSize();
        for (const int row : std::as_const(m_tallRows)) {
            if (row < m_model->rowCount())
                m_view->setRowHeight(row, height);
        }
        m_tallRows.clear();
    }
    fitColumn();
    fitVisibleRows();
}

void LogView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitColumn();
    fitVisibleRows();
}

void LogView::fitColumn()
{
    // Wrapped, or every line fits: the column fills the view (the header stretches it as the
    // view and its scroll bars change). Otherwise as wide as the longest line, so it scrolls
    // sideways (the font is fixed-width).
    const int content =
        m_view->fontMetrics().horizontalAdvance(u'0') * (m_model->longestLine() + 2);
    const bool stretch = m_wrap->isChecked() || content <= m_view->viewport()->width();
    QHeaderView *header = m_view->horizontalHeader();
    if (header->stretchLastSection() != stretch)
        header->setStretchLastSection(stretch);
    // Set at once too: wrapped rows are measured against this width right after.
    const int width = stretch ? m_view->viewport()->width() : content;
    if (m_view->columnWidth(0) != width)
        m_view->setColumnWidth(0, width);
}

void LogView::fitVisibleRows()
{
    // Wrapped lines are taller; only the rows on screen are measured, so a million lines cost
    // what a screenful does.
    if (!m_wrap->isChecked())
        return;
    const int first = std::max(0, m_view->rowAt(0));
    int last = m_view->rowAt(m_view->viewport()->height());
    if (last < 0)
        last = m_model->rowCount() - 1;
    const int height = m_view->verticalHeader()->defaultSectionSize();
    for (int row = first; row <= last && row < m_model->rowCount(); ++row) {
        m_view->resizeRowToContents(row);
        if (m_view->rowHeight(row) != height)
            m_tallRows.insert(row);
    }
}

void LogView::findError(bool forward)
{
    const QModelIndex current = m_view->currentIndex();
    const int row = m_model->nextError(
        current.isValid() ? current.row() : (forward ? -1 : m_model->rowCount()), forward);
    if (row < 0)
        return;
    m_atBottom = false; // reading an error, not following the end
    m_view->setCurrentIndex(m_model->index(row));
    m_view->scrollTo(m_model->index(row), QAbstractItemView::PositionAtCenter);
}

void LogView::findNext(bool forward)
{
    m_model->flush();
    const int from = m_view->currentIndex().isValid() ? m_view->currentIndex().row()
                                                      : (forward ? -1 : m_model->rowCount());
    const int row = m_model->find(m_search->text(), from, forward);
    if (row < 0) {
        m_matches->setText(tr("no match"));
        return;
    }
    const QModelIndex i = m_model->index(row);
    m_view->setCurrentIndex(i);
    m_view->scrollTo(i, QAbstractItemView::PositionAtCenter);
}

void LogView::copySelection()
{
    QModelIndexList rows = m_view->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end());
    QStringList lines;
    for (const QModelIndex &i : std::as_const(rows))
        lines.append(m_model->lineText(i.row()));
    if (!lines.isEmpty())
        QApplication::clipboard()->setText(lines.join(u'\n') + u'\n');
}

void LogView::download()
{
    if (m_pod->currentText().isEmpty())
        return;
    const QString file = QFileDialog::getSaveFileName(
        this, tr("Save the whole log"), m_pod->currentText() + QStringLiteral(".log"));
    if (file.isEmpty())
        return;
    LogOptions o;
    o.container = m_container->currentText();
    o.previous = m_previous->isChecked();
    delete m_download;
    m_download = m_logs->save(m_ref.ns, m_pod->currentText(), o, file, this);
    if (!m_download) {
        m_state->setText(tr("Not connected."));
        return;
    }
    connect(m_download, &LogSave::progress, this, [this](qint64 bytes) {
        m_state->setText(tr("Downloading… %1 KiB").arg(bytes / 1024));
    });
    connect(m_download, &LogSave::finished, this,
            [this](bool, const QString &message) { m_state->setText(message); });
}

} // namespace gpudesk
