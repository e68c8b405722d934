// SPDX-License-Identifier: GPL-3.0-or-later
#include "telemetrychart.h"

#include "clusterstore.h"
#include "entities.h"
#include "historyservice.h"
#include "palette.h"
#include "telemetrystore.h"

#include <QComboBox>
#include <QDateTimeAxis>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QValueAxis>
#include <QtCharts/QChartView>

namespace gpudesk {

TelemetryChart::TelemetryChart(const TelemetryStore *telemetry, QWidget *parent)
    : QWidget(parent), m_telemetry(telemetry), m_metric(new QComboBox(this)),
      m_range(new QComboBox(this)), m_view(new QChartView(this)), m_note(new QLabel(this))
{
    setMetrics(false);
    setRanges();
    m_metric->setObjectName(QStringLiteral("chartMetric"));
    m_range->setObjectName(QStringLiteral("chartRange"));
    m_note->setObjectName(QStringLiteral("chartNote"));
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(120); // a chart still readable in a short split
    // The view's own chart: setChart() would release (not delete) the one it made (ASan: leak).
    QChart *chart = m_view->chart();
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setBackgroundRoundness(0);
    applyTheme();
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_metric);
    bar->addWidget(m_range);
    bar->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    m_note->setWordWrap(true);
    m_note->setVisible(false);
    layout->addWidget(m_note);
    connect(m_metric, &QComboBox::currentIndexChanged, this, &TelemetryChart::refresh);
    connect(m_range, &QComboBox::currentIndexChanged, this, &TelemetryChart::refresh);
}

void TelemetryChart::setMetrics(bool pods)
{
    using M = TelemetryHistory::Metric;
    const QSignalBlocker block(m_metric);
    const int keep = m_metric->currentData().toInt();
    m_metric->clear();
    m_metric->addItem(tr("GPU utilization (%)"), int(M::Utilization));
    m_metric->addItem(tr("GPU memory used (MiB)"), int(M::MemoryMiB));
    m_metric->addItem(tr("GPU temperature (°C)"), int(M::TemperatureC));
    m_metric->addItem(tr("GPU power (W)"), int(M::PowerW));
    if (pods) {
        m_metric->addItem(tr("CPU (cores)"), int(M::PodCpuCores));
        m_metric->addItem(tr("Memory, working set (GiB)"), int(M::PodMemoryMiB));
    } else {
        m_metric->addItem(tr("CPU busy (%)"), int(M::CpuPercent));
        m_metric->addItem(tr("Memory used (%)"), int(M::MemoryPercent));
        m_metric->addItem(tr("Load (1 min)"), int(M::Load1));
    }
    m_metric->setCurrentIndex(qMax(0, m_metric->findData(keep)));
}

void TelemetryChart::selectMetric(TelemetryHistory::Metric m)
{
    m_metric->setCurrentIndex(qMax(0, m_metric->findData(int(m))));
}

TelemetryHistory::Metric TelemetryChart::metric() const
{
    return TelemetryHistory::Metric(m_metric->currentData().toInt());
}

void TelemetryChart::setNode(const QString &node)
{
    m_node = node;
    m_pods.clear();
    setMetrics(false);
    refresh();
}

void TelemetryChart::setPods(const QStringList &podUids)
{
    m_pods = podUids;
    m_node.clear();
    setMetrics(true);
    refresh();
}

void TelemetryChart::setHistory(HistoryService *history)
{
    if (m_history || !history)
        return;
    m_history = history;
    connect(history, &HistoryService::availabilityChanged, this, [this] {
        setRanges();
        refresh();
    });
    setRanges();
}

void TelemetryChart::setRanges()
{
    const QSignalBlocker block(m_range);
    const int keep = m_range->currentData().toInt();
    m_range->clear();
    m_range->addItem(tr("Last 10 minutes"), 10 * 60);
    m_range->addItem(tr("Last hour"), 3600);
    if (m_history && m_history->available()) {
        m_range->addItem(tr("Last 24 hours (Prometheus)"), -24 * 3600);
        m_range->addItem(tr("Last 7 days (Prometheus)"), -7 * 24 * 3600);
    } else {
        m_range->addItem(tr("Last 24 hours"), 24 * 3600);
    }
    // The same span where it is still offered (a day from samples becomes a day from Prometheus).
    int at = m_range->findData(keep);
    if (at < 0)
        at = m_range->findData(-keep);
    m_range->setCurrentIndex(std::max(0, at));
}

int TelemetryChart::prometheusRange() const
{
    for (int i = 0; i < m_range->count(); ++i)
        if (m_range->itemData(i).toInt() < 0)
            return i;
    return -1;
}

void TelemetryChart::selectRange(int index)
{
    m_range->setCurrentIndex(index);
}

int TelemetryChart::rangeCount() const
{
    return m_range->count();
}

void TelemetryChart::refresh()
{
    const qint64 to = QDateTime::currentMSecsSinceEpoch();
    const int range = m_range->currentData().toInt(); // negative: from Prometheus
    const qint64 from = to - qint64(std::abs(range)) * 1000;
    using M = TelemetryHistory::Metric;
    const M m = metric();
    const bool cardMetric =
        m == M::Utilization || m == M::MemoryMiB || m == M::TemperatureC || m == M::PowerW;
    m_note->setVisible(false);
    if (range < 0 && m_history) {
        if (m_node.isEmpty()) {
            m_note->setText(tr("Prometheus history is for a node's metrics."));
            m_note->setVisible(true);
            display({}, from, to);
            return;
        }
        // About 600 points a line whatever the range.
        const int step = int(std::abs(range) / 600);
        const QString name = m_metric->currentText();
        const quint64 id = ++m_query;
        m_history->nodeHistory(
            m_node, m, from, to, step, this,
            [this, id, from, to, name](const QList<HistoryService::Series> &series,
                                       const QString &error, const QString &empty) {
                if (id != m_query)
                    return;
                QList<std::pair<QString, QList<QPointF>>> lines;
                for (const HistoryService::Series &s : series)
                    lines.append({s.label.isEmpty() ? name : s.label, s.points});
                m_note->setText(error.isEmpty() && lines.isEmpty() ? empty : error);
                m_note->setVisible(!m_note->text().isEmpty());
                display(lines, from, to);
                emit prometheusAnswered(error);
            });
        return;
    }
    const TelemetryHistory *h = m_telemetry->history(m_node);
    Lines lines;
    if (!m_pods.isEmpty() && (m == M::PodCpuCores || m == M::PodMemoryMiB)) {
        double requested = -1;
        lines = podLines(m, from, to, &requested);
        display(lines, from, to, requested);
        return;
    }
    if (!m_pods.isEmpty()) {
        const QList<PodCard> cards = m_telemetry->cardsOfPods(m_pods);
        for (const PodCard &pc : cards)
            if (const TelemetryHistory *ph = m_telemetry->history(pc.node))
                lines.append({tr("%1 GPU %2").arg(pc.node).arg(pc.card),
                              ph->cardSeries(pc.card, m, from, to)});
    } else if (h && cardMetric) {
        for (int c = 0; c < h->cardCount(); ++c)
            lines.append({tr("GPU %1").arg(c), h->cardSeries(c, m, from, to)});
    } else if (h) {
        lines.append({m_metric->currentText(), h->nodeSeries(m, from, to)});
    }
    display(lines, from, to);
}

TelemetryChart::Lines TelemetryChart::podLines(TelemetryHistory::Metric m, qint64 from, qint64 to,
                                               double *requested) const
{
    // One line a pod while they are few enough to tell apart; a job's many workers as one sum.
    constexpr int MaxLines = 8;
    const bool cpu = m == TelemetryHistory::Metric::PodCpuCores;
    Lines lines;
    QMap<double, double> total;
    double req = 0;
    for (const QString &uid : m_pods) {
        const PodInfo *pod = m_telemetry->pod(uid);
        if (pod && !pod->finished())
            req += cpu ? double(pod->cpuRequestMilli) / 1000.0
                       : double(pod->memoryRequestBytes) / double(1 << 30);
        const PodUsageHistory *h = m_telemetry->podHistory(uid);
        if (!h)
            continue;
        QList<QPointF> points = cpu ? h->cpuSeries(from, to) : h->memorySeries(from, to);
        if (!cpu)
            for (QPointF &p : points)
                p.setY(p.y() / 1024.0);
        for (const QPointF &p : std::as_const(points))
            total[p.x()] += p.y();
        lines.append({pod ? pod->name : uid, points});
    }
    if (lines.size() > MaxLines) {
        QList<QPointF> sum;
        for (auto it = total.cbegin(); it != total.cend(); ++it)
            sum.append(QPointF(it.key(), it.value()));
        lines = {{tr("All %1 pods").arg(lines.size()), sum}};
    }
    *requested = req > 0 ? req : -1;
    return lines;
}

void TelemetryChart::display(const Lines &lines, qint64 from, qint64 to, double requested)
{
    QChart *chart = m_view->chart();
    applyTheme();
    using M = TelemetryHistory::Metric;
    const M m = metric();
    // Series are kept and their points replaced: no flicker, no reallocation every 2 s.
    QList<QAbstractSeries *> series = chart->series();
    if (chart->axes().isEmpty()) {
        auto *x = new QDateTimeAxis(chart);
        auto *y = new QValueAxis(chart);
        chart->addAxis(x, Qt::AlignBottom);
        chart->addAxis(y, Qt::AlignLeft);
    }
    auto *x = qobject_cast<QDateTimeAxis *>(chart->axes(Qt::Horizontal).value(0));
    auto *y = qobject_cast<QValueAxis *>(chart->axes(Qt::Vertical).value(0));
    // Fewer labels on a short chart: five would not fit, and Qt Charts draws them as "...".
    y->setTickCount(m_view->height() < 300 ? 3 : 5);
    Lines all = lines;
    if (requested >= 0)
        all.append(
            {tr("Requested"), {QPointF(double(from), requested), QPointF(double(to), requested)}});
    while (series.size() > all.size()) {
        chart->removeSeries(series.last());
        delete series.takeLast();
    }
    while (series.size() < all.size()) {
        auto *s = new QLineSeries(chart);
        chart->addSeries(s);
        series.append(s);
    }
    double top = 1;
    for (qsizetype i = 0; i < all.size(); ++i) {
        auto *s = static_cast<QLineSeries *>(series[i]);
        s->setName(all[i].first);
        s->replace(all[i].second);
        // The request is a reference, drawn dashed; every line is drawn solid otherwise.
        QPen pen = s->pen();
        pen.setStyle(requested >= 0 && i == all.size() - 1 ? Qt::DashLine : Qt::SolidLine);
        s->setPen(pen);
        // A line of one point (a Prometheus that has scraped a node for a minute, seen over a
        // day) draws nothing: mark it.
        s->setMarkerSize(8);
        s->setPointsVisible(all[i].second.size() == 1);
        for (const QPointF &p : all[i].second)
            top = qMax(top, p.y());
        if (!s->attachedAxes().contains(x)) {
            s->attachAxis(x);
            s->attachAxis(y);
        }
    }
    x->setFormat(to - from > 3 * 3600 * 1000 ? QStringLiteral("HH:mm")
                                             : QStringLiteral("HH:mm:ss"));
    x->setRange(QDateTime::fromMSecsSinceEpoch(from), QDateTime::fromMSecsSinceEpoch(to));
    const bool percent = m == M::Utilization || m == M::CpuPercent || m == M::MemoryPercent;
    y->setRange(0, percent ? 100 : top * 1.1);
    const bool fractional = m == M::Load1 || m == M::PodCpuCores || m == M::PodMemoryMiB;
    y->setLabelFormat(fractional ? QStringLiteral("%.1f") : QStringLiteral("%.0f"));
    chart->legend()->setVisible(all.size() > 1);
}

QString TelemetryChart::seriesName(int i) const
{
    const auto series = m_view->chart()->series();
    return i < series.size() ? series[i]->name() : QString();
}

QList<QPointF> TelemetryChart::seriesPoints(int i) const
{
    const auto series = m_view->chart()->series();
    return i < series.size() ? static_cast<QLineSeries *>(series[i])->points() : QList<QPointF>();
}

int TelemetryChart::seriesCount() const
{
    return int(m_view->chart()->series().size());
}

int TelemetryChart::pointCount() const
{
    int n = 0;
    for (QAbstractSeries *s : m_view->chart()->series())
        n += int(static_cast<QLineSeries *>(s)->count());
    return n;
}

void TelemetryChart::applyTheme()
{
    // Qt Charts draws its own background: light or dark as the window's palette (an empty chart
    // too, before any data).
    const auto theme = colors::isDark(palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight;
    if (m_view->chart()->theme() != theme)
        m_view->chart()->setTheme(theme);
}

void TelemetryChart::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange)
        applyTheme();
    QWidget::changeEvent(event);
}

} // namespace gpudesk
