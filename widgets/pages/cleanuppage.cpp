// SPDX-License-Identifier: GPL-3.0-or-later
#include "cleanuppage.h"

#include "appsettings.h"
#include "operationplanner.h"
#include "operationsservice.h"

#include "clusterstore.h"
#include "columnfit.h"
#include "findingsmodel.h"
#include "findingsservice.h"
#include "format.h"
#include "severitydelegate.h"
#include "tablefilter.h"
#include "telemetrychart.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace gpudesk {

CleanupPage::CleanupPage(FindingsService *findings, ClusterStore *store,
                         const TelemetryStore *telemetry, QWidget *parent)
    : QWidget(parent), m_findings(findings), m_store(store), m_model(new FindingsModel(this)),
      m_proxy(new TableFilter(this)), m_view(new QTableView(this)), m_headline(new QLabel(this)),
      m_class(new QComboBox(this)), m_idleFor(new QSpinBox(this)),
      m_stop(new QPushButton(tr("Stop selected…"), this)), m_detail(new QLabel(this)),
      m_chart(new TelemetryChart(telemetry, this))
{
    m_model->setClock([store] { return store->now(); });
    m_proxy->setSourceModel(m_model);
    m_proxy->setDynamicSortFilter(true);
    m_view->setObjectName(QStringLiteral("findingsView"));
    m_view->setModel(m_proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(FindingsModel::Gpus, Qt::DescendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_view->setAlternatingRowColors(true);
    m_view->setWordWrap(false);
    m_view->verticalHeader()->hide();
    m_view->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 8);
    m_view->setItemDelegateForColumn(FindingsModel::Class, new SeverityDelegate(this));
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    ColumnFit::install(m_view, FindingsModel::Evidence);

    m_headline->setObjectName(QStringLiteral("cleanupHeadline"));
    QFont big = m_headline->font();
    big.setPointSizeF(big.pointSizeF() * 1.2);
    big.setBold(true);
    m_headline->setFont(big);

    m_class->setObjectName(QStringLiteral("findingClass"));
    m_class->addItem(tr("All findings"), -1);
    for (int c = 0; c < kFindingClassCount; ++c)
        m_class->addItem(findingClassTitle(FindingClass(c)), c);
    connect(m_class, &QComboBox::currentIndexChanged, this,
            [this] { showClass(m_class->currentData().toInt()); });

    m_idleFor->setObjectName(QStringLiteral("idleFor"));
    m_idleFor->setRange(5, 7 * 24 * 60);
    m_idleFor->setSingleStep(15);
    m_idleFor->setSuffix(tr(" min"));
    m_idleFor->setToolTip(tr("Allocated GPUs under %1 % utilization at least this long are "
                             "listed as idle")
                              .arg(5));
    m_idleFor->setValue(AppSettings::idleForMinutes());
    applyIdleFor(m_idleFor->value());
    connect(m_idleFor, &QSpinBox::valueChanged, this, &CleanupPage::applyIdleFor);
    // Set elsewhere (the settings dialog): shown here too.
    connect(m_findings, &FindingsService::optionsChanged, this, [this] {
        const QSignalBlocker block(m_idleFor);
        m_idleFor->setValue(int(m_findings->options().idleForMs / 60000));
    });

    auto *text = new QLineEdit(this);
    text->setPlaceholderText(tr("Filter: node, pod, user, VC, evidence…"));
    text->setClearButtonEnabled(true);
    connect(text, &QLineEdit::textChanged, m_proxy, &TableFilter::setText);

    m_stop->setObjectName(QStringLiteral("stopSelected"));
    m_stop->setEnabled(false);
    connect(m_stop, &QPushButton::clicked, this, [this] { stop(selectedFindings()); });
    auto *all = new QPushButton(tr("Select all"), this);
    connect(all, &QPushButton::clicked, this, &CleanupPage::selectAll);

    m_detail->setObjectName(QStringLiteral("findingDetail"));
    m_detail->setWordWrap(true);
    m_detail->setTextFormat(Qt::RichText);
    m_detail->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detail->setMinimumWidth(320);

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_class);
    bar->addWidget(text, 1);
    bar->addWidget(new QLabel(tr("Idle for at least"), this));
    bar->addWidget(m_idleFor);
    bar->addWidget(all);
    bar->addWidget(m_stop);
    auto *bottom = new QSplitter(Qt::Horizontal, this);
    bottom->addWidget(m_detail);
    bottom->addWidget(m_chart);
    bottom->setStretchFactor(1, 1);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_view);
    split->addWidget(bottom);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->addWidget(m_headline);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    connect(findings, &FindingsService::updated, this, &CleanupPage::refresh);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
        m_stop->setEnabled(!selectedFindings().isEmpty());
        showDetail();
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &CleanupPage::showDetail);
    connect(m_view, &QTableView::customContextMenuRequested, this, &CleanupPage::showMenu);
    refresh();
}

void CleanupPage::setHistory(HistoryService *history)
{
    m_chart->setHistory(history);
}

void CleanupPage::stop(const QList<Finding> &findings)
{
    if (m_operations)
        emit operationRequested(m_operations->planner().cleanup(findings));
}

void CleanupPage::drain(const QString &node, const QString &why)
{
    if (m_operations)
        emit operationRequested(m_operations->planner().drain(node, why));
}

void CleanupPage::applyIdleFor(int minutes)
{
    AppSettings::setIdleForMinutes(minutes);
    FindingsOptions o = m_findings->options();
    o.idleForMs = qint64(minutes) * 60 * 1000;
    m_findings->setOptions(o);
}

void CleanupPage::showClass(int findingClass)
{
    const int i = m_class->findData(findingClass);
    if (i >= 0 && i != m_class->currentIndex())
        m_class->setCurrentIndex(i);
    m_proxy->setMatch(FindingsModel::ClassRole,
                      findingClass < 0 ? QVariant() : QVariant(findingClass));
}

void CleanupPage::selectAll()
{
    m_view->selectAll();
}

void CleanupPage::refresh()
{
    m_model->setFindings(m_findings->findings());
    const int n = m_model->rowCount();
    if (!m_findings->hasResult())
        m_headline->setText(tr("Looking for what holds GPUs…"));
    else if (n == 0)
        m_headline->setText(tr("Nothing holds GPUs that should not."));
    else
        m_headline->setText(tr("%n finding(s) hold %1 GPUs", nullptr, n).arg(m_model->gpus()));
    m_stop->setEnabled(!selectedFindings().isEmpty());
    showDetail();
}

QList<Finding> CleanupPage::selectedFindings() const
{
    QList<Finding> out;
    for (const QModelIndex &i : m_view->selectionModel()->selectedRows())
        if (const Finding *f = m_model->finding(i.data(KeyRole).toString()))
            out << *f;
    return out;
}

void CleanupPage::showDetail()
{
    const QModelIndex cur = m_view->currentIndex();
    const Finding *f = cur.isValid() ? m_model->finding(cur.data(KeyRole).toString()) : nullptr;
    if (!f) {
        m_detail->setText(tr("Select a finding to see its evidence."));
        return;
    }
    auto esc = [](const QString &s) { return s.toHtmlEscaped(); };
    QString html = QStringLiteral("<h3>%1</h3><p>%2</p>")
                       .arg(esc(findingClassTitle(f->cls)), esc(f->evidence));
    QStringList facts;
    if (!f->pod.isEmpty())
        facts << tr("Pod: %1/%2").arg(esc(f->ns), esc(f->pod));
    if (!f->owner.name.isEmpty())
        facts << tr("Belongs to: %1 %2 (%3)")
                     .arg(esc(f->owner.kind), esc(f->owner.name),
                          esc(f->ownerStatus.isEmpty() ? tr("status unknown") : f->ownerStatus));
    if (!f->user.isEmpty())
        facts << tr("Owner: %1 · VC %2").arg(esc(f->user), esc(f->vc));
    facts << tr("Node: %1").arg(esc(f->node));
    if (f->since > 0)
        facts << tr("Since: %1%2 (%3)")
                     .arg(f->sinceAtLeast ? tr("at least ") : QString(),
                          esc(format::when(f->since)), esc(f->sinceSource));
    for (const FindingProcess &p : f->processes)
        facts << tr("PID %1 on GPU %2: %3, %4 MiB%5")
                     .arg(p.pid)
                     .arg(p.card)
                     .arg(esc(p.command))
                     .arg(p.memoryMiB.value_or(0))
                     .arg(p.state ? tr(", state %1").arg(QChar::fromLatin1(p.state)) : QString());
    facts
        << tr("Remedy: %1 — %2").arg(esc(FindingsModel::remedyText(f->remedy)), esc(f->remedyNote));
    html += QStringLiteral("<p>") + facts.join(QStringLiteral("<br>")) + QStringLiteral("</p>");
    m_detail->setText(html);
    // The evidence over time: the pod's own cards, or the node's.
    if (!f->podUid.isEmpty() && m_store->pod(f->podUid))
        m_chart->setPods({f->podUid});
    else
        m_chart->setNode(f->node);
}

ObjectRef CleanupPage::currentObject() const
{
    const QModelIndex i = m_view->currentIndex();
    const Finding *f = i.isValid() ? m_model->finding(i.data(KeyRole).toString()) : nullptr;
    if (!f || f->podUid.isEmpty() || !m_store->pod(f->podUid))
        return {};
    return ObjectRef::pod(*m_store, f->podUid);
}

void CleanupPage::showMenu(const QPoint &pos)
{
    const QModelIndex i = m_view->indexAt(pos);
    const Finding *f = i.isValid() ? m_model->finding(i.data(KeyRole).toString()) : nullptr;
    if (!f)
        return;
    QMenu menu(this);
    menu.addAction(tr("Stop selected…"), this, [this] { stop(selectedFindings()); });
    if (f->remedy == Remedy::Drain) {
        const QString why = findingClassTitle(f->cls) + QStringLiteral(": ") + f->evidence;
        menu.addAction(tr("Drain %1…").arg(f->node), this,
                       [this, node = f->node, why] { drain(node, why); });
    }
    if (!f->podUid.isEmpty() && m_store->pod(f->podUid)) {
        const ObjectRef ref = ObjectRef::pod(*m_store, f->podUid);
        menu.addSeparator();
        menu.addAction(tr("Logs"), this, [this, ref] { emit openRequested(ref, 0); });
        menu.addAction(tr("Events"), this, [this, ref] { emit openRequested(ref, 1); });
        menu.addAction(tr("YAML"), this, [this, ref] { emit openRequested(ref, 2); });
    }
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

} // namespace gpudesk
