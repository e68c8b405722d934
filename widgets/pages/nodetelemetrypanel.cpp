// SPDX-License-Identifier: GPL-3.0-or-later
#include "nodetelemetrypanel.h"

#include "clusterstore.h"
#include "format.h"
#include "nodecardsmodel.h"
#include "nodepodsmodel.h"
#include "nodeprocessesmodel.h"
#include "palette.h"
#include "roles.h"
#include "severitydelegate.h"
#include "tablefilter.h"
#include "telemetrychart.h"
#include "telemetrystore.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace gpudesk {

namespace {

// A table of one of the node's models, sorted by the model's raw values, coloured by severity.
QTableView *table(QAbstractItemModel *model, const QString &name, QWidget *parent)
{
    auto *proxy = new TableFilter(parent);
    proxy->setSourceModel(model);
    proxy->setDynamicSortFilter(true);
    auto *t = new QTableView(parent);
    t->setObjectName(name);
    t->setModel(proxy);
    t->setSortingEnabled(true);
    t->sortByColumn(0, Qt::AscendingOrder);
    t->verticalHeader()->hide();
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setAlternatingRowColors(true);
    t->setWordWrap(false);
    t->horizontalHeader()->setStretchLastSection(true);
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 8);
    t->setItemDelegate(new SeverityDelegate(t));
    return t;
}

} // namespace

NodeTelemetryPanel::NodeTelemetryPanel(const ClusterStore *store, const TelemetryStore *telemetry,
                                       QWidget *parent)
    : QWidget(parent), m_store(store), m_telemetry(telemetry), m_state(new QLabel(this)),
      m_trustOnce(new QPushButton(tr("Trust once"), this)),
      m_trustAlways(new QPushButton(tr("Trust and remember"), this)),
      m_reviewAll(new QPushButton(tr("Review all unknown host keys…"), this)),
      m_secret(new QPushButton(tr("Enter passphrase…"), this)),
      m_retry(new QPushButton(tr("Retry now"), this)), m_summary(new QLabel(this)),
      m_disks(new QLabel(this)), m_chart(new TelemetryChart(telemetry, this)),
      m_cardsModel(new NodeCardsModel(telemetry, this)),
      m_processesModel(new NodeProcessesModel(telemetry, this)),
      m_podsModel(new NodePodsModel(store, telemetry, this)),
      m_cards(table(m_cardsModel, QStringLiteral("gpuCards"), this)),
      m_processes(table(m_processesModel, QStringLiteral("gpuProcesses"), this)),
      m_pods(table(m_podsModel, QStringLiteral("nodePods"), this))
{
    m_state->setWordWrap(true);
    m_state->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_state->setObjectName(QStringLiteral("sshState"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_disks->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto *actions = new QHBoxLayout;
    actions->addWidget(m_trustOnce);
    actions->addWidget(m_trustAlways);
    actions->addWidget(m_reviewAll);
    actions->addWidget(m_secret);
    actions->addWidget(m_retry);
    actions->addStretch(1);

    auto *lists = new QTabWidget(this);
    lists->setDocumentMode(true);
    lists->addTab(m_processes, tr("GPU processes"));
    lists->addTab(m_pods, tr("Pods: CPU and memory"));
    auto *tables = new QSplitter(Qt::Horizontal, this);
    tables->addWidget(m_cards);
    tables->addWidget(lists);
    tables->setStretchFactor(0, 2);
    tables->setStretchFactor(1, 3);
    // Each part readable whatever the window's height: a chart of a few pixels says nothing.
    m_chart->setMinimumHeight(150);
    tables->setMinimumHeight(100);
    auto *split = new QSplitter(Qt::Vertical, this);
    split->setChildrenCollapsible(false);
    split->addWidget(m_chart);
    split->addWidget(tables);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_state);
    layout->addLayout(actions);
    layout->addWidget(m_summary);
    layout->addWidget(m_disks);
    layout->addWidget(split, 1);

    connect(m_trustOnce, &QPushButton::clicked, this,
            [this] { emit trustHostKeyRequested(m_node, false); });
    connect(m_trustAlways, &QPushButton::clicked, this,
            [this] { emit trustHostKeyRequested(m_node, true); });
    connect(m_secret, &QPushButton::clicked, this,
            [this] { emit secretRequested(m_node, m_telemetry->sshStatus(m_node).secretFor); });
    connect(m_retry, &QPushButton::clicked, this, [this] { emit retryRequested(m_node); });
    connect(m_reviewAll, &QPushButton::clicked, this, &NodeTelemetryPanel::reviewHostKeysRequested);
    auto openPod = [this](const QModelIndex &i) {
        const QString uid = i.data(PodUidRole).toString();
        if (!uid.isEmpty() && m_store->pod(uid))
            emit openRequested(ObjectRef::pod(*m_store, uid), 0);
    };
    connect(m_pods, &QTableView::activated, this, openPod);
    connect(m_processes, &QTableView::activated, this, openPod);
    m_processes->setContextMenuPolicy(Qt::CustomContextMenu);
    m_processes->setSelectionMode(QAbstractItemView::ExtendedSelection);
    connect(m_processes, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        QList<qint64> pids;
        for (const QModelIndex &i : m_processes->selectionModel()->selectedRows())
            pids << i.data(KeyRole).toLongLong();
        if (pids.isEmpty())
            return;
        QMenu menu(this);
        menu.addAction(tr("End %n process(es)…", nullptr, int(pids.size())), this,
                       [this, pids] { emit killRequested(m_node, pids); });
        menu.exec(m_processes->viewport()->mapToGlobal(pos));
    });
    refresh();
}

void NodeTelemetryPanel::setNode(const QString &node)
{
    m_node = node;
    m_chart->setNode(node);
    refresh();
}

void NodeTelemetryPanel::refresh()
{
    refreshState();
    refreshTables();
    m_chart->refresh();
}

void NodeTelemetryPanel::setSshEnabled(bool enabled)
{
    m_sshEnabled = enabled;
    refreshState();
}

void NodeTelemetryPanel::refreshState()
{
    const SshStatus st = m_telemetry->sshStatus(m_node);
    const NodeSample *s = m_telemetry->latest(m_node);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QString text;
    QColor color = palette().color(QPalette::WindowText);
    switch (st.state) {
    case SshStatus::Connected:
        text = s ? tr("Connected over SSH; last sample %1 s ago, answered in %2 ms.")
                       .arg((now - s->time) / 1000)
                       .arg(s->durationMs)
                 : tr("Connected over SSH.");
        if (s && !m_telemetry->isFresh(m_node)) {
            text += u' ' + tr("The node has stopped answering.");
            color = colors::warning();
        }
        break;
    case SshStatus::Idle:
    case SshStatus::Connecting:
        text = m_sshEnabled ? tr("Connecting over SSH…")
                            : tr("Live figures over SSH are off: gpudesk was started with "
                                 "--no-ssh. Start it without that option to see this node's "
                                 "cards, processes and load.");
        break;
    case SshStatus::Unreachable:
        text =
            tr("Unreachable since %1. %2")
                .arg(QDateTime::fromMSecsSinceEpoch(st.since).toString(QStringLiteral("HH:mm:ss")),
                     st.message);
        color = colors::error();
        break;
    default:
        text = st.message;
        color = st.state == SshStatus::HostKeyUnknown ? colors::warning() : colors::error();
        break;
    }
    if (m_node.isEmpty())
        text = tr("Select a node.");
    m_state->setText(text);
    QPalette pal = m_state->palette();
    pal.setColor(QPalette::WindowText, color);
    m_state->setPalette(pal);
    m_trustOnce->setVisible(st.state == SshStatus::HostKeyUnknown);
    m_trustAlways->setVisible(st.state == SshStatus::HostKeyUnknown);
    m_secret->setVisible(st.state == SshStatus::NeedsSecret);
    m_secret->setText(st.secretFor.startsWith(QLatin1String("password:"))
                          ? tr("Enter password…")
                          : tr("Enter passphrase…"));
    m_reviewAll->setVisible(st.state == SshStatus::HostKeyUnknown);
    m_retry->setVisible(st.state == SshStatus::Unreachable || st.state == SshStatus::Failed ||
                        st.state == SshStatus::AuthFailed);

    if (!s) {
        m_summary->clear();
        m_disks->clear();
        return;
    }
    QStringList parts;
    if (s->cpuPercent)
        parts << tr("CPU %1 % of %n core(s)", nullptr, s->cpuCount).arg(qRound(*s->cpuPercent));
    if (s->memory && s->memory->totalKiB > 0)
        parts << tr("memory %1 of %2 used")
                     .arg(format::bytes((s->memory->totalKiB - s->memory->availableKiB) * 1024),
                          format::bytes(s->memory->totalKiB * 1024));
    if (s->load)
        parts << tr("load %1 / %2 / %3")
                     .arg(s->load->one, 0, 'f', 2)
                     .arg(s->load->five, 0, 'f', 2)
                     .arg(s->load->fifteen, 0, 'f', 2);
    if (!s->hasGpus())
        parts << (s->gpuState == NvidiaSmiResult<GpuCardSample>::NoNvidiaSmi
                      ? tr("no nvidia-smi (a CPU node)")
                  : s->gpuState == NvidiaSmiResult<GpuCardSample>::NoDevices
                      ? tr("nvidia-smi finds no GPU")
                      : tr("nvidia-smi failed: %1").arg(s->gpuMessage));
    m_summary->setText(parts.join(QStringLiteral(" · ")));
    QStringList disks;
    for (const DiskUse &d : s->disks) {
        const QString line = tr("%1 %2 % used (%3 free)")
                                 .arg(d.mountPoint)
                                 .arg(d.percent)
                                 .arg(format::bytes(d.availableKiB * 1024));
        disks << (d.percent > 80
                      ? QStringLiteral("<b style='color:%1'>%2 — %3</b>")
                            .arg(colors::error().name(), line.toHtmlEscaped(), tr("nearly full"))
                      : line.toHtmlEscaped());
    }
    m_disks->setText(tr("Disks: %1").arg(disks.join(QStringLiteral(" · "))));
}

void NodeTelemetryPanel::refreshTables()
{
    m_cardsModel->setNode(m_node);
    m_processesModel->setNode(m_node);
    m_podsModel->setNode(m_node);
    m_cardsModel->refresh();
    m_processesModel->refresh();
    m_podsModel->refresh();
    // Sized to what they hold on the first fill of a node; after that the user's widths stay.
    if (m_sizedFor != m_node && (m_processesModel->rowCount() > 0 || m_podsModel->rowCount() > 0)) {
        m_sizedFor = m_node;
        m_cards->resizeColumnsToContents();
        m_processes->resizeColumnsToContents();
        m_pods->resizeColumnsToContents();
    }
}

} // namespace gpudesk
