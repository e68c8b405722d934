// SPDX-License-Identifier: GPL-3.0-or-later
#include "columnfit.h"

#include <QAbstractItemModel>
#include <QEvent>
#include <QHeaderView>
#include <QPointer>
#include <QTableView>
#include <QTimer>

namespace gpudesk {

namespace {
constexpr const char *kRestored = "gpudesk.columnsRestored"; // the user's widths: never fitted
constexpr const char *kFitting = "gpudesk.columnsFitting";   // a resize of ours, not the user's
constexpr const char *kFitted = "gpudesk.columnsFitted";     // sized once: from now on, grow only
constexpr int FirstFitRows = 200;

int capOf(const QTableView *view)
{
    return view->fontMetrics().averageCharWidth() * 45;
}

int wanted(QTableView *view, int column)
{
    // The rows in view and the header's own text (a Chinese header can be the wider).
    return std::min(std::max(static_cast<QAbstractItemView *>(view)->sizeHintForColumn(column),
                             view->horizontalHeader()->sectionSizeHint(column)) +
                        8,
                    capOf(view));
}

// The text column (when it is not the last) gets what the others leave of the viewport; the
// last column is counted at what it wants, not at what stretching gave it.
void giveTextTheRoom(QTableView *view, int textColumn)
{
    QHeaderView *header = view->horizontalHeader();
    const int last = header->count() - 1;
    const int text = textColumn < 0 ? last : textColumn;
    if (text == last || header->isSectionHidden(text))
        return;
    int used = 0;
    for (int c = 0; c <= last; ++c)
        if (!header->isSectionHidden(c) && c != text)
            used += c == last ? wanted(view, c) : view->columnWidth(c);
    view->setProperty(kFitting, true);
    view->setColumnWidth(text, std::max(view->viewport()->width() - used, capOf(view)));
    view->setProperty(kFitting, false);
}

// Fits a view when it is first shown, once its layout has given the viewport its size.
class FitOnShow : public QObject
{
public:
    FitOnShow(QTableView *view, int textColumn) : QObject(view), m_textColumn(textColumn)
    {
        view->installEventFilter(this);
    }

protected:
    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Resize) {
            // A wider window widens the text column, not the last one (Age, a count).
            auto *view = static_cast<QTableView *>(watched);
            if (view->property(kFitted).toBool() && !view->property(kRestored).toBool())
                giveTextTheRoom(view, m_textColumn);
        }
        if (event->type() == QEvent::Show) {
            QPointer<QTableView> view(static_cast<QTableView *>(watched));
            QTimer::singleShot(0, this, [this, view] {
                if (view && !view->property(kFitted).toBool())
                    ColumnFit::fit(view, m_textColumn);
            });
        }
        return false;
    }

private:
    int m_textColumn;
};

} // namespace

void ColumnFit::markRestored(QTableView *view)
{
    view->setProperty(kRestored, true);
}

void ColumnFit::fit(QTableView *view, int textColumn)
{
    QAbstractItemModel *model = view->model();
    // A hidden view measures only the rows its never-laid-out viewport holds (none): fitted
    // then, it would size every column to its header. Its first show fits it.
    if (!model || model->rowCount() == 0 || view->property(kRestored).toBool() ||
        !view->isVisible())
        return;
    const bool first = !view->property(kFitted).toBool();
    view->setProperty(kFitted, true);
    view->setProperty(kFitting, true);
    QHeaderView *header = view->horizontalHeader();
    // How many rows a column's width is measured on: Qt's default is a thousand (the rows in view
    // and then others), ~40 ms a fit of the Workloads page's delegates, twice a second under
    // churn. The first fit looks beyond the view; later ones, which only widen, at what is in it.
    const int precision = header->resizeContentsPrecision();
    header->setResizeContentsPrecision(first ? FirstFitRows : 0);
    const int last = header->count() - 1;
    const int text = textColumn < 0 ? last : textColumn;
    for (int c = 0; c <= last; ++c) {
        if (header->isSectionHidden(c) || c == text)
            continue;
        // The first time to the content; later only wider, so that nothing jumps while read.
        const int w = wanted(view, c);
        if (first || w > view->columnWidth(c))
            view->setColumnWidth(c, w);
    }
    header->setStretchLastSection(true);
    if (first)
        giveTextTheRoom(view, text);
    // The user's double-click on a divider measures as Qt does.
    header->setResizeContentsPrecision(precision);
    view->setProperty(kFitting, false);
}

void ColumnFit::install(QTableView *view, int textColumn)
{
    QPointer<QTableView> guarded(view);
    // Content that grows later (a longer status, a job on two nodes) widens its column, at most
    // twice a second, until the user sizes a column by hand.
    auto *later = new QTimer(view);
    later->setSingleShot(true);
    later->setInterval(500);
    QObject::connect(later, &QTimer::timeout, view, [guarded, textColumn] {
        if (guarded)
            fit(guarded, textColumn);
    });
    auto schedule = [guarded, later, textColumn] {
        if (!guarded || guarded->property(kRestored).toBool())
            return;
        if (!guarded->property(kFitted).toBool())
            fit(guarded, textColumn);
        else if (!later->isActive())
            later->start();
    };
    new FitOnShow(view, textColumn);
    QAbstractItemModel *model = view->model();
    QObject::connect(model, &QAbstractItemModel::rowsInserted, view, schedule);
    QObject::connect(model, &QAbstractItemModel::modelReset, view, schedule);
    QObject::connect(model, &QAbstractItemModel::layoutChanged, view, schedule);
    QObject::connect(model, &QAbstractItemModel::dataChanged, view, schedule);
    QObject::connect(view->horizontalHeader(), &QHeaderView::sectionResized, view,
                     [guarded](int column) {
                         // The last section follows the view's width by itself; any other
                         // resized outside a fit is the user's hand: their widths from now on.
                         if (guarded && guarded->property(kFitted).toBool() &&
                             !guarded->property(kFitting).toBool() &&
                             column != guarded->horizontalHeader()->count() - 1)
                             markRestored(guarded);
                     });
}

} // namespace gpudesk
