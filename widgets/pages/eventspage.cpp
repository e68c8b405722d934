// SPDX-License-Identifier: GPL-3.0-or-later
#include "eventspage.h"

#include "columnfit.h"

#include "eventsmodel.h"
#include "severitydelegate.h"
#include "tablefilter.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QTableView>
#include <QVBoxLayout>

namespace gpudesk {

EventsPage::EventsPage(ClusterStore *store, QWidget *parent)
    : QWidget(parent), m_model(new EventsModel(store, this)), m_proxy(new TableFilter(this)),
      m_view(new QTableView(this)), m_scope(new QLabel(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setDynamicSortFilter(true);
    m_view->setObjectName(QStringLiteral("eventsView"));
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(EventsModel::LastSeen, Qt::AscendingOrder); // the newest first
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    m_view->setItemDelegateForColumn(EventsModel::Type, new SeverityDelegate(this));
    m_view->setItemDelegateForColumn(EventsModel::Reason, new SeverityDelegate(this));
    ColumnFit::install(m_view, EventsModel::Message);

    auto *text = new QLineEdit(this);
    text->setPlaceholderText(tr("Filter events: reason, object, message, namespace…"));
    text->setClearButtonEnabled(true);
    auto *warnings = new QCheckBox(tr("Warnings only"), this);
    connect(text, &QLineEdit::textChanged, m_proxy, &TableFilter::setText);
    connect(warnings, &QCheckBox::toggled, m_proxy, &TableFilter::setOnlyProblems);
    m_scope->setWordWrap(true);
    m_scope->setVisible(false);

    auto *bar = new QHBoxLayout;
    bar->addWidget(text, 1);
    bar->addWidget(warnings);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->addWidget(m_scope);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
}

void EventsPage::setScopeNote(const QString &note)
{
    m_scope->setText(note);
    m_scope->setVisible(!note.isEmpty());
}

} // namespace gpudesk
