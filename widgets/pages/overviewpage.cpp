// SPDX-License-Identifier: GPL-3.0-or-later
#include "overviewpage.h"

#include "connectionstate.h"
#include "noticebanner.h"

#include "alertcenter.h"
#include "problems.h"

#include "telemetrystore.h"

#include "barchart.h"
#include "clusterstore.h"
#include "findingsservice.h"
#include "gpuaccounting.h"
#include "gpuusechart.h"
#include "numbercard.h"
#include "palette.h"
#include "queuesmodel.h"
#include "tablefilter.h"
#include "usersmodel.h"
#include "workloadstable.h"

#include <QDateTime>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include <map>

namespace gpudesk {

namespace {

QGroupBox *box(const QString &title, QWidget *content, QWidget *parent)
{
    auto *b = new QGroupBox(title, parent);
    auto *l = new QVBoxLayout(b);
    l->addWidget(content);
    l->addStretch(1);
    return b;
}

} // namespace

OverviewPage::OverviewPage(ClusterStore *store, QWidget *parent)
    : QWidget(parent), m_store(store), m_total(new NumberCard(tr("GPUs in the cluster"), this)),
      m_allocated(new NumberCard(tr("GPUs allocated"), this)),
      m_free(new NumberCard(tr("GPUs free"), this)),
      m_pending(new NumberCard(tr("GPUs wanted by pending pods"), this)),
      m_busy(new NumberCard(tr("GPUs busy"), this)),
      m_unserved(new NumberCard(tr("GPUs without a working driver"), this)),
      m_findingsLink(new QLabel(this)), m_nodes(new NumberCard(tr("Nodes ready"), this)),
      m_jobs(new NumberCard(tr("Jobs running"), this)), m_scope(new NoticeBanner(this)),
      m_noVolcano(new QLabel(this)), m_models(new QGridLayout)
{
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    outer->addWidget(scroll);
    auto *content = new QWidget(scroll);
    scroll->setWidget(content);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(16, 16, 16, 16);
    layout->setSpacing(14);

    layout->addWidget(m_scope);

    auto *cards = new QGridLayout;
    cards->setSpacing(12);
    cards->addWidget(m_total, 0, 0);
    cards->addWidget(m_allocated, 0, 1);
    cards->addWidget(m_free, 0, 2);
    cards->addWidget(m_pending, 0, 3);
    cards->addWidget(m_nodes, 1, 0);
    cards->addWidget(m_busy, 1, 1);
    cards->addWidget(m_jobs, 1, 2);
    cards->addWidget(m_unserved, 1, 3);
    m_unserved->setObjectName(QStringLiteral("unservedCard"));
    m_unserved->setAccent(colors::error());
    m_unserved->setVisible(false);
    m_busy->setObjectName(QStringLiteral("busyCard"));
    m_findingsLink->setObjectName(QStringLiteral("findingsLink"));
    m_findingsLink->setVisible(false);
    connect(m_findingsLink, &QLabel::linkActivated, this, &OverviewPage::showCleanup);
    m_free->setAccent(colors::free());
    m_allocated->setAccent(colors::allocated());
    layout->addLayout(cards);
    layout->addWidget(m_findingsLink);

    // Per VC: allocation against capability, fullest first.
    auto *queues = new QueuesModel(store, this);
    auto *byAllocation = new TableFilter(this);
    byAllocation->setSourceModel(queues);
    byAllocation->setDynamicSortFilter(true);
    byAllocation->sort(QueuesModel::Allocated, Qt::DescendingOrder);
    auto *vcChart = new BarChart(this);
    vcChart->setModel(byAllocation);
    auto *vcContent = new QWidget(this);
    auto *vcLayout = new QVBoxLayout(vcContent);
    vcLayout->setContentsMargins(0, 0, 0, 0);
    vcLayout->addWidget(vcChart);
    m_noVolcano->setWordWrap(true);
    m_noVolcano->setForegroundRole(QPalette::PlaceholderText);
    m_noVolcano->setText(tr("This cluster has no Volcano queues (scheduling.volcano.sh), so "
                            "there are no virtual clusters to show."));
    m_noVolcano->setVisible(false);
    vcLayout->addWidget(m_noVolcano);
    m_vcBox = box(tr("GPUs per virtual cluster (allocated / capability)"), vcContent, this);

    m_topUsers = new TableFilter(this);
    m_topUsers->setDynamicSortFilter(true);
    auto *userChart = new BarChart(this);
    userChart->setModel(m_topUsers, 10);
    m_usersBox = box(tr("Top users by GPUs allocated"), userChart, this);

    auto *modelsWidget = new QWidget(this);
    modelsWidget->setLayout(m_models);
    m_models->setHorizontalSpacing(24);
    auto *modelsBox = box(tr("By GPU model"), modelsWidget, this);
    m_problems = new QLabel(this);
    m_problems->setObjectName(QStringLiteral("problems"));
    m_problems->setWordWrap(true);
    m_problems->setTextFormat(Qt::RichText);
    connect(m_problems, &QLabel::linkActivated, this, [this](const QString &link) {
        if (link.startsWith(QLatin1String("node:")))
            emit showNode(link.mid(5));
        else if (link.startsWith(QLatin1String("ack:")) && m_alerts)
            m_alerts->acknowledge(link.mid(4));
        else if (link == QLatin1String("more")) {
            m_allProblems = true;
            refreshProblems();
        }
    });
    m_acknowledgeAll = new QPushButton(tr("Acknowledge all"), this);
    m_acknowledgeAll->setObjectName(QStringLiteral("acknowledgeAll"));
    m_acknowledgeAll->setToolTip(tr("Acknowledged alerts stay quiet until their condition clears "
                                    "and returns."));
    m_acknowledgeAll->setVisible(false);
    connect(m_acknowledgeAll, &QPushButton::clicked, this, [this] {
        if (m_alerts)
            m_alerts->acknowledgeAll();
    });
    auto *problemsWidget = new QWidget(this);
    auto *problemsLayout = new QVBoxLayout(problemsWidget);
    problemsLayout->setContentsMargins(0, 0, 0, 0);
    problemsLayout->addWidget(m_problems);
    problemsLayout->addWidget(m_acknowledgeAll, 0, Qt::AlignLeft);
    auto *problemsBox = box(tr("Needs attention"), problemsWidget, this);

    auto *charts = new QGridLayout;
    m_charts = charts;
    charts->setSpacing(12);
    charts->addWidget(m_vcBox, 0, 0);
    charts->addWidget(m_usersBox, 0, 1);
    charts->addWidget(modelsBox, 1, 0);
    charts->addWidget(problemsBox, 1, 1);
    layout->addLayout(charts);
    layout->addStretch(1);

    connect(store, &ClusterStore::updated, this, &OverviewPage::refreshWhenShown);
    refresh();
}

void OverviewPage::setFindings(FindingsService *findings)
{
    m_findings = findings;
    connect(findings, &FindingsService::updated, this, &OverviewPage::refreshFindings);
    refreshFindings();
}

void OverviewPage::refreshFindings()
{
    const QList<Finding> found = m_findings ? m_findings->findings() : QList<Finding>();
    int gpus = 0;
    for (const Finding &f : found)
        gpus += f.gpus;
    m_findingsLink->setVisible(!found.isEmpty());
    m_findingsLink->setText(
        QStringLiteral("<a href=\"cleanup\">%1</a>")
            .arg(tr("%n finding(s) hold %1 GPUs that should be free (idle, of no pod, stuck) — "
                    "review them in Cleanup",
                    nullptr, int(found.size()))
                     .arg(gpus)
                     .toHtmlEscaped()));
}

void OverviewPage::setTelemetry(TelemetryStore *telemetry)
{
    m_telemetry = telemetry;
    connect(telemetry, &TelemetryStore::updated, this, &OverviewPage::refreshWhenShown);
    refresh();
}

void OverviewPage::showEvent(QShowEvent *event)
{
    if (m_stale)
        refresh();
    QWidget::showEvent(event);
}

void OverviewPage::setUsers(UsersModel *users)
{
    m_topUsers->setSourceModel(users);
    m_topUsers->sort(UsersModel::GpusInUse, Qt::DescendingOrder);
}

void OverviewPage::setScope(const QString &onlyNamespace, bool volcano)
{
    // Told with every change of the connection's state — each page of a list (issue 39: the
    // whole page redrawn 200 times during a 100,000-pod sync, 77 % of the UI thread then).
    if (m_volcano == volcano && onlyNamespace == m_onlyNamespace)
        return;
    m_volcano = volcano;
    m_onlyNamespace = onlyNamespace;
    m_scope->say(NoticeBanner::Kind::Note,
                 onlyNamespace.isEmpty()
                     ? QString()
                     : tr("Your account may list pods only in namespace %1. Other users' "
                          "allocations are not visible to you: allocated GPUs are at least what "
                          "your pods, the cards in use and the VCs' status show, free GPUs at most "
                          "what that leaves, and the top users are hidden.")
                           .arg(onlyNamespace));
    m_usersBox->setVisible(onlyNamespace.isEmpty());
    m_noVolcano->setVisible(!volcano);
    refresh();
}

QString OverviewPage::problemsText() const
{
    return m_problems->text();
}

void OverviewPage::setGpuUse(GpuUseSampler *sampler, HistoryService *history)
{
    m_gpuUse = new GpuUseChart(sampler, this);
    if (history)
        m_gpuUse->setHistory(history);
    m_charts->addWidget(box(tr("GPUs allocated and busy"), m_gpuUse, this), 2, 0, 1, 2);
}

void OverviewPage::setAlerts(AlertCenter *alerts)
{
    m_alerts = alerts;
    connect(alerts, &AlertCenter::changed, this, [this] {
        if (isVisible())
            refreshProblems();
        else
            m_stale = true;
    });
    refreshProblems();
}

void OverviewPage::refreshProblems()
{
    constexpr int kShown = 8;
    QList<Alert> alerts;
    if (m_alerts) {
        alerts = m_alerts->alerts();
    } else {
        for (const Problem &p : Problems::now(*m_store, m_telemetry))
            alerts.append({p, AlertRules::ruleOf(p.key), 0, false, {}});
    }
    m_acknowledgeAll->setVisible(m_alerts && m_alerts->unacknowledged() > 1);
    if (alerts.isEmpty() && m_alerts && !m_alerts->hasEvaluated()) {
        // Figures read, rules not run on them yet: "nothing needs attention" would be a guess
        // (issue 34: it stood beside "15 / 16 nodes ready").
        m_problems->setText(tr("Checking the alert rules on the figures just read…"));
        return;
    }
    if (alerts.isEmpty()) {
        const int disk =
            m_alerts ? m_alerts->rules().diskWarningPercent : AlertRules().diskWarningPercent;
        m_problems->setText(
            m_telemetry ? tr("Nothing needs attention: every node Ready, without pressure and "
                             "answering; no disk over %1 %, no card too hot or with ECC errors.")
                              .arg(disk)
                        : tr("Nothing needs attention: every node Ready and without pressure. "
                             "(Disks and cards are checked where node telemetry is on.)"));
        return;
    }
    QStringList lines;
    const qsizetype shown =
        m_allProblems ? alerts.size() : std::min<qsizetype>(alerts.size(), kShown);
    for (qsizetype i = 0; i < shown; ++i) {
        const Alert &a = alerts[i];
        const Problem &p = a.problem;
        const QColor mark = a.acknowledged ? palette().color(QPalette::PlaceholderText)
                            : p.severity == Problem::Critical ? colors::errorText(palette())
                                                              : colors::waitingText(palette());
        QString text = p.text.toHtmlEscaped();
        if (!p.node.isEmpty())
            text.replace(p.node.toHtmlEscaped(),
                         QStringLiteral("<a href=\"node:%1\">%1</a>").arg(p.node.toHtmlEscaped()));
        // When the rule itself does not date the condition: since gpudesk saw it.
        if (!p.since && a.raisedAt)
            text += QStringLiteral(" — ") + tr("since %1")
                                                .arg(QDateTime::fromMSecsSinceEpoch(a.raisedAt)
                                                         .toString(QStringLiteral("HH:mm")));
        if (a.acknowledged)
            text = QStringLiteral("<span style=\"color:%1\">%2 (%3)</span>")
                       .arg(palette().color(QPalette::PlaceholderText).name(), text,
                            tr("acknowledged"));
        else if (m_alerts)
            text += QStringLiteral(" &nbsp;<a href=\"ack:%1\">%2</a>")
                        .arg(p.key.toHtmlEscaped(), tr("Acknowledge"));
        lines << QStringLiteral("<span style=\"color:%1\">●</span>&nbsp;%2").arg(mark.name(), text);
    }
    // The rest one click away (issue 35: "and 7 more" could not be clicked).
    if (alerts.size() > shown)
        lines << QStringLiteral("<a href=\"more\">%1</a>")
                     .arg(tr("and %n more", nullptr, int(alerts.size() - shown)).toHtmlEscaped());
    m_problems->setText(lines.join(QStringLiteral("<br>")));
}

void OverviewPage::refreshWhenShown()
{
    // A hidden page is redrawn when it is shown (showEvent), not on every change.
    if (isVisible())
        refresh();
    else
        m_stale = true;
}

void OverviewPage::setConnection(const ConnectionState *connection)
{
    m_connection = connection;
    connect(connection, &ConnectionState::changed, this, &OverviewPage::refreshWhenShown);
    refresh();
}

void OverviewPage::refresh()
{
    m_stale = false;
    if (const QString why =
            m_connection ? m_connection->noFigures(m_store->nodes().isEmpty()) : QString();
        !why.isEmpty()) {
        // No zeros presented as the cluster's, and no "nothing needs attention" about it.
        for (NumberCard *card :
             {m_total, m_allocated, m_free, m_pending, m_busy, m_unserved, m_nodes, m_jobs}) {
            card->setValue(QStringLiteral("—"), tr("no connection"));
            card->setAccent(palette().color(QPalette::WindowText));
        }
        m_findingsLink->setVisible(false);
        m_acknowledgeAll->setVisible(false);
        m_problems->setText(why.toHtmlEscaped());
        return;
    }
    refreshProblems();
    const GpuTotals t = m_store->totals();
    const GpuAccounting accounting(m_store, m_telemetry);
    const GpuFigures g = accounting.cluster();
    m_total->setValue(QString::number(g.total),
                      g.migTotal > 0
                          ? tr("and %n MIG instance(s), %1 allocated", nullptr, g.migTotal)
                                .arg(g.exact ? QString::number(g.migAllocated)
                                             : QStringLiteral("≥ %1").arg(g.migAllocated))
                          : QString());
    if (g.exact) {
        m_allocated->setCaption(tr("GPUs allocated"));
        m_allocated->setValue(g.allocatedText(),
                              g.total > 0 ? tr("%1 % of all GPUs").arg(100 * g.allocated / g.total)
                                          : QString());
        m_free->setCaption(tr("GPUs free"));
        m_free->setValue(g.freeText(), tr("on Ready, schedulable nodes"));
    } else {
        QStringList how{tr("%1 yours").arg(g.visible)};
        if (g.inUseByHiddenPods > 0)
            how << tr("%1 cards in use by pods not visible to you").arg(g.inUseByHiddenPods);
        if (g.fromVcStatus > 0)
            how << tr("%1 by the VCs' status").arg(g.fromVcStatus);
        m_allocated->setCaption(tr("GPUs allocated (at least)"));
        m_allocated->setValue(g.allocatedText(), how.join(QStringLiteral(" · ")));
        m_free->setCaption(tr("GPUs free (at most)"));
        m_free->setValue(g.freeText(), tr("others' pods are not visible to you"));
    }
    m_unserved->setVisible(g.unserved > 0);
    if (g.unserved > 0) {
        const auto nodes = accounting.unserved();
        QStringList names;
        for (const auto &u : nodes)
            names << u.node;
        m_unserved->setValue(QString::number(g.unserved),
                             tr("the API counts them; nvidia-smi fails on %1")
                                 .arg(names.join(QStringLiteral(", "))));
    }
    m_pending->setCaption(g.exact ? tr("GPUs wanted by pending pods")
                                  : tr("GPUs wanted by your pending pods"));
    m_pending->setValue(QString::number(t.pendingDemand));
    // Busy is what the nodes say (nvidia-smi), next to what the API allocated.
    const int sampled = m_telemetry ? m_telemetry->sampledGpus() : 0;
    if (sampled > 0) {
        const int busy = m_telemetry->busyGpus();
        m_busy->setValue(QString::number(busy),
                         tr("%1 allocated, %2 busy (≥ %3 % utilization) on %4 sampled cards")
                             .arg(g.allocatedText())
                             .arg(busy)
                             .arg(TelemetryStore::BusyPercent)
                             .arg(sampled));
    } else {
        m_busy->setValue(QStringLiteral("—"), tr("no node telemetry (SSH) yet"));
    }
    refreshFindings();
    m_pending->setAccent(t.pendingDemand > 0 ? colors::warning()
                                             : palette().color(QPalette::WindowText));

    int ready = 0;
    int nodes = 0;
    for (const auto &n : m_store->nodes()) {
        ++nodes;
        ready += n.ready ? 1 : 0;
    }
    m_nodes->setValue(QStringLiteral("%1 / %2").arg(ready).arg(nodes),
                      nodes > ready ? tr("%n not ready", nullptr, nodes - ready) : QString());
    m_nodes->setAccent(nodes > ready ? colors::error() : palette().color(QPalette::WindowText));

    const auto counts = m_store->workloadCounts();
    m_jobs->setCaption(g.exact ? tr("Jobs running") : tr("Your jobs running"));
    m_jobs->setValue(QString::number(counts.running),
                     (counts.stuck > 0
                          ? tr("%1 waiting (%2 stuck) · %3 failed · %4 finished")
                                .arg(counts.waiting)
                                .arg(counts.stuck)
                          : tr("%1 waiting · %3 failed · %4 finished").arg(counts.waiting))
                         .arg(counts.failed)
                         .arg(counts.finished));

    // The per-model grid is a handful of labels: rebuilt whole.
    while (QLayoutItem *item = m_models->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    const QStringList headers{tr("GPU model"), tr("Nodes"), tr("GPUs"), tr("Allocated"),
                              tr("Free")};
    for (int c = 0; c < headers.size(); ++c) {
        auto *h = new QLabel(QStringLiteral("<b>%1</b>").arg(headers[c].toHtmlEscaped()));
        m_models->addWidget(h, 0, c, c == 0 ? Qt::AlignLeft : Qt::AlignRight);
        h->show(); // now: the layout would show it on the next turn of the event loop
    }
    int row = 1;
    for (const ModelFigures &m : accounting.byModel()) {
        const QStringList cells{m.model.isEmpty() ? tr("unknown model") : m.model,
                                QString::number(m.nodes), QString::number(m.gpus.total),
                                m.gpus.allocatedText(), m.gpus.freeText()};
        for (int c = 0; c < cells.size(); ++c) {
            auto *cell = new QLabel(cells[c]);
            m_models->addWidget(cell, row, c, c == 0 ? Qt::AlignLeft : Qt::AlignRight);
            cell->show();
        }
        ++row;
    }
}

} // namespace gpudesk
