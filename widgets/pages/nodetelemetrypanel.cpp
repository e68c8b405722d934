// SPDX-License-Identifier: GPL-3.0-or-later
#include "nodetelemetrypanel.h"

#include "clusterstore.h"
#include "format.h"
#include "palette.h"
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
#include <QTableWidget>
#include <QVBoxLayout>

namespace gpudesk {

namespace {

QTableWidget *table(const QStringList &headers, QWidget *parent)
{
    auto *t = new QTableWidget(0, int(headers.size()), parent);
    t->setHorizontalHeaderLabels(headers);
    t->verticalHeader()->hide();
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setAlternatingRowColors(true);
    t->horizontalHeader()->setStretchLastSection(true);
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 8);
    return t;
}

QTableWidgetItem *item(const QString &text, const QVariant &sort = {})
{
    auto *i = new QTableWidgetItem(text);
    if (sort.isValid())
        i->setData(Qt::UserRole, sort);
    return i;
}

// A figure shown formatted ("96Gi", "—") but sorted by its value.
class FigureItem : public QTableWidgetItem
{
public:
    static constexpr int SortRole = Qt::UserRole + 1;
    FigureItem(const QString &text, double value) : QTableWidgetItem(text)
    {
        setData(SortRole, value);
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    bool operator<(const QTableWidgetItem &other) const override
    {
        return data(SortRole).toDouble() < other.data(SortRole).toDouble();
    }
};

QString orDash(const std::optional<int> &v, const QString &unit = {})
{
    return v ? QString::number(*v) + unit : QStringLiteral("—");
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
      m_cards(table({tr("GPU"), tr("Utilization"), tr("Memory"), tr("Temp."), tr("Power"),
                     tr("Processes"), tr("Flags")},
                    this)),
      m_processes(table(
          {tr("PID"), tr("GPU"), tr("GPU memory"), tr("Pod"), tr("User"), tr("VC"), tr("Command")},
          this)),
      m_pods(table({tr("Pod"), tr("User"), tr("CPU (cores)"), tr("CPU requested"),
                    tr("Memory (working set)"), tr("Memory requested")},
                   this))
{
    m_state->setWordWrap(true);
    m_state->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_state->setObjectName(QStringLiteral("sshState"));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_disks->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_processes->setObjectName(QStringLiteral("gpuProcesses"));
    m_processes->setSortingEnabled(true);
    m_cards->setObjectName(QStringLiteral("gpuCards"));

    auto *actions = new QHBoxLayout;
    actions->addWidget(m_trustOnce);
    actions->addWidget(m_trustAlways);
    actions->addWidget(m_reviewAll);
    actions->addWidget(m_secret);
    actions->addWidget(m_retry);
    actions->addStretch(1);

    m_pods->setObjectName(QStringLiteral("nodePods"));
    m_pods->setSortingEnabled(true);
    auto *lists = new QTabWidget(this);
    lists->setDocumentMode(true);
    lists->addTab(m_processes, tr("GPU processes"));
    lists->addTab(m_pods, tr("Pods: CPU and memory"));
    auto *tables = new QSplitter(Qt::Horizontal, this);
    tables->addWidget(m_cards);
    tables->addWidget(lists);
    tables->setStretchFactor(0, 2);
    tables->setStretchFactor(1, 3);
    auto *split = new QSplitter(Qt::Vertical, this);
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
    connect(m_pods, &QTableWidget::itemActivated, this, [this](QTableWidgetItem *it) {
        const QString uid = m_pods->item(it->row(), 0)->data(Qt::UserRole).toString();
        if (!uid.isEmpty() && m_store->pod(uid))
            emit openRequested(ObjectRef::pod(*m_store, uid), 0);
    });
    m_processes->setContextMenuPolicy(Qt::CustomContextMenu);
    m_processes->setSelectionMode(QAbstractItemView::ExtendedSelection);
    connect(m_processes, &QWidget::customContextMenuRequested, this, [this](const QPoint &pos) {
        QList<qint64> pids;
        for (const QModelIndex &i : m_processes->selectionModel()->selectedRows())
            pids << m_processes->item(i.row(), 0)->text().toLongLong();
        if (pids.isEmpty())
            return;
        QMenu menu(this);
        menu.addAction(tr("End %n process(es)…", nullptr, int(pids.size())), this,
                       [this, pids] { emit killRequested(m_node, pids); });
        menu.exec(m_processes->viewport()->mapToGlobal(pos));
    });
    connect(m_processes, &QTableWidget::itemActivated, this, [this](QTableWidgetItem *it) {
        const QString uid = m_processes->item(it->row(), 3)->data(Qt::UserRole).toString();
        if (!uid.isEmpty() && m_store->pod(uid))
            emit openRequested(ObjectRef::pod(*m_store, uid), 0);
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
        text = tr("Connecting over SSH…");
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
    const QList<CardState> cards = m_telemetry->cards(m_node);
    m_cards->setRowCount(int(cards.size()));
    for (int r = 0; r < cards.size(); ++r) {
        const CardState &c = cards[r];
        QStringList flags;
        if (c.phantom)
            flags << tr("phantom memory");
        if (c.unattributed)
            flags << tr("process of no pod");
        if (c.hiddenOwner)
            flags << tr("pod not visible to you");
        if (c.sample.eccUncorrected.value_or(0) > 0)
            flags << tr("%n ECC error(s)", nullptr, int(*c.sample.eccUncorrected));
        if (c.migEnabled) {
            // A card in MIG mode: its instances, and how many run something.
            QStringList profiles;
            int inUse = 0;
            for (const MigState &m : c.mig) {
                profiles << m.sample.profile;
                inUse += m.inUse() ? 1 : 0;
            }
            flags.prepend(
                tr("MIG: %1 (%2 in use)").arg(profiles.join(QStringLiteral(", "))).arg(inUse));
        }
        m_cards->setItem(r, 0, item(QString::number(c.sample.index)));
        m_cards->setItem(r, 1, item(orDash(c.sample.utilization, QStringLiteral(" %"))));
        m_cards->setItem(
            r, 2,
            item(c.sample.memoryUsedMiB && c.sample.memoryTotalMiB
                     ? tr("%1 / %2 MiB").arg(*c.sample.memoryUsedMiB).arg(*c.sample.memoryTotalMiB)
                     : QStringLiteral("—")));
        m_cards->setItem(r, 3, item(orDash(c.sample.temperatureC, QStringLiteral(" °C"))));
        m_cards->setItem(r, 4,
                         item(c.sample.powerDrawW
                                  ? QStringLiteral("%1 W").arg(qRound(*c.sample.powerDrawW))
                                  : QStringLiteral("—")));
        m_cards->setItem(r, 5, item(QString::number(c.processes.size())));
        auto *f = item(flags.join(QStringLiteral(", ")));
        if (!flags.isEmpty())
            f->setForeground(c.unattributed ? colors::error() : colors::warning());
        m_cards->setItem(r, 6, f);
    }

    // Rows are rebuilt (a node lists a few dozen processes at most); the selection follows
    // the PID.
    const QList<AttributedProcess> procs = m_telemetry->processes(m_node);
    const int current = m_processes->currentRow();
    const QString selectedPid = current >= 0 && m_processes->item(current, 0)
                                    ? m_processes->item(current, 0)->text()
                                    : QString();
    m_processes->setSortingEnabled(false);
    m_processes->setRowCount(int(procs.size()));
    for (int r = 0; r < procs.size(); ++r) {
        const AttributedProcess &p = procs[r];
        auto *pid = item(QString::number(p.pid));
        pid->setData(Qt::DisplayRole, p.pid);
        m_processes->setItem(r, 0, pid);
        QString card = p.cardIndex >= 0 ? QString::number(p.cardIndex) : QStringLiteral("?");
        if (p.migDevice >= 0)
            card += QStringLiteral(" / MIG %1").arg(p.migDevice);
        m_processes->setItem(r, 1, item(card));
        auto *mem = new QTableWidgetItem;
        mem->setData(Qt::DisplayRole, p.memoryMiB ? QVariant(*p.memoryMiB) : QVariant());
        m_processes->setItem(r, 2, mem);
        auto *pod = item(p.attributed()       ? p.ns + u'/' + p.pod
                         : p.podHidden        ? tr("— pod not visible to you")
                         : p.podUid.isEmpty() ? tr("— host process, no pod")
                                              : tr("— pod %1 no longer exists").arg(p.podUid));
        pod->setData(Qt::UserRole, p.podUid);
        if (p.orphan())
            pod->setForeground(colors::error());
        m_processes->setItem(r, 3, pod);
        m_processes->setItem(r, 4, item(p.user));
        m_processes->setItem(r, 5, item(p.vc));
        m_processes->setItem(r, 6, item(p.command));
        if (pid->text() == selectedPid)
            m_processes->setCurrentCell(r, 0);
    }
    m_processes->setSortingEnabled(true);
    refreshPods();
    // Sized to what they hold on the first fill of a node; after that the user's widths stay.
    if (m_sizedFor != m_node && (!procs.isEmpty() || m_pods->rowCount() > 0)) {
        m_sizedFor = m_node;
        m_cards->resizeColumnsToContents();
        m_processes->resizeColumnsToContents();
        m_pods->resizeColumnsToContents();
    }
}

void NodeTelemetryPanel::refreshPods()
{
    const NodeSample *s = m_telemetry->latest(m_node);
    const QList<PodUsage> pods = s ? s->pods : QList<PodUsage>();
    m_pods->setSortingEnabled(false);
    m_pods->setRowCount(int(pods.size()));
    for (int r = 0; r < pods.size(); ++r) {
        const PodUsage &u = pods[r];
        const PodInfo *p = m_store->pod(u.uid);
        auto *name = item(p ? p->ns + u'/' + p->name : u.uid);
        name->setData(Qt::UserRole, u.uid);
        m_pods->setItem(r, 0, name);
        m_pods->setItem(r, 1, item(p ? m_store->userOf(p->ns) : QString()));
        auto *cpu =
            new FigureItem(u.cpuCores ? QString::number(*u.cpuCores, 'f', 2) : QStringLiteral("—"),
                           u.cpuCores.value_or(-1));
        // At its request (or above, for a Burstable pod): the pod is CPU-bound.
        if (p && u.cpuCores && p->cpuRequestMilli > 0 &&
            *u.cpuCores >= 0.9 * double(p->cpuRequestMilli) / 1000.0)
            cpu->setForeground(colors::warning());
        m_pods->setItem(r, 2, cpu);
        const qint64 cpuReq = p ? p->cpuRequestMilli : 0;
        const qint64 memReq = p ? p->memoryRequestBytes : 0;
        m_pods->setItem(
            r, 3,
            new FigureItem(cpuReq ? format::cores(cpuReq) : QStringLiteral("—"), double(cpuReq)));
        m_pods->setItem(
            r, 4, new FigureItem(format::bytes(u.workingSetBytes), double(u.workingSetBytes)));
        m_pods->setItem(
            r, 5,
            new FigureItem(memReq ? format::bytes(memReq) : QStringLiteral("—"), double(memReq)));
    }
    m_pods->setSortingEnabled(true);
}

} // namespace gpudesk
