// SPDX-License-Identifier: GPL-3.0-or-later
#include "gpuusechart.h"

#include "gpuusesampler.h"
#include "historyservice.h"
#include "palette.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>

namespace gpudesk {

GpuUseChart::GpuUseChart(GpuUseSampler *sampler, QWidget *parent)
    : QWidget(parent), m_sampler(sampler), m_range(new QComboBox(this)), m_note(new QLabel(this)),
      m_view(new QChartView(this)), m_total(new QLineSeries(this)),
      m_allocated(new QLineSeries(this)), m_busy(new QLineSeries(this))
{
    setObjectName(QStringLiteral("gpuUseChart"));
    m_range->setObjectName(QStringLiteral("gpuUseRange"));
    setRanges();
    m_range->setCurrentIndex(1);
    m_prometheusTimer.setInterval(5 * 60 * 1000);
    connect(&m_prometheusTimer, &QTimer::timeout, this, &GpuUseChart::askPrometheus);
    m_note->setForegroundRole(QPalette::PlaceholderText);
    m_note->setWordWrap(true);
    // The view's own chart: setChart() would release (not delete) the one it made.
    QChart *chart = m_view->chart();
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setBackgroundRoundness(0);
    m_total->setName(tr("GPUs in the cluster"));
    m_allocated->setName(tr("Allocated"));
    m_busy->setName(tr("Busy (≥ 5 % utilization)"));
    for (QLineSeries *s : {m_total, m_allocated, m_busy})
        chart->addSeries(s);
    auto *x = new QDateTimeAxis(chart);
    auto *y = new QValueAxis(chart);
    y->setLabelFormat(QStringLiteral("%.0f"));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    for (QLineSeries *s : {m_total, m_allocated, m_busy}) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
    chart->legend()->setAlignment(Qt::AlignTop);
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(220);

    auto *top = new QHBoxLayout;
    top->addWidget(m_note, 1);
    top->addWidget(m_range);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(m_view, 1);
    connect(m_range, &QComboBox::currentIndexChanged, this, [this] {
        refresh();
        askPrometheus();
    });
    connect(sampler, &GpuUseSampler::updated, this, &GpuUseChart::refresh);
    refresh();
}

void GpuUseChart::setRanges()
{
    const int hours = m_range->count() ? m_range->currentData().toInt() : 6;
    const QSignalBlocker quiet(m_range);
    m_range->clear();
    m_range->addItem(tr("Last hour"), 1);
    m_range->addItem(tr("Last 6 hours"), 6);
    m_range->addItem(tr("Last 24 hours"), 24);
    if (m_history && m_history->available())
        m_range->addItem(tr("Last 7 days"), 7 * 24);
    m_range->setCurrentIndex(std::max(0, m_range->findData(hours)));
}

void GpuUseChart::setHistory(HistoryService *history)
{
    m_history = history;
    // The window is made before app/main.cpp sets the Prometheus address: its history comes
    // when it is known (issue 34: "Last 6 hours" spanned the minutes since launch).
    connect(history, &HistoryService::availabilityChanged, this, [this] {
        setRanges();
        askPrometheus();
    });
    setRanges();
    askPrometheus();
}

bool GpuUseChart::selectHours(int hours)
{
    const int index = m_range->findData(hours);
    if (index >= 0)
        m_range->setCurrentIndex(index);
    return index >= 0;
}

void GpuUseChart::askPrometheus()
{
    const int hours = m_range->currentData().toInt();
    if (!m_history || !m_history->available()) {
        m_prometheusTimer.stop();
        m_prometheus.clear();
        m_prometheusHours = 0;
        m_prometheusError.clear();
        refresh();
        return;
    }
    m_prometheusTimer.start();
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    // About 240 points across the chart, never under DCGM-exporter's usual 15 s.
    const int step = std::max(15, hours * 3600 / 240);
    m_history->clusterGpuUse(
        now - qint64(hours) * 3600 * 1000, now, step, 5, this,
        [this, hours](const QList<GpuUseHistory::Point> &points, const QString &error) {
            if (hours != m_range->currentData().toInt())
                return; // the user picked another range meanwhile
            m_prometheus = points;
            m_prometheusHours = hours;
            m_prometheusError = error;
            refresh();
            emit prometheusAnswered(error);
        });
}

void GpuUseChart::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange)
        refresh();
    QWidget::changeEvent(event);
}

void GpuUseChart::refresh()
{
    QChart *chart = m_view->chart();
    const auto theme = colors::isDark(palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight;
    if (chart->theme() != theme)
        chart->setTheme(theme);
    chart->setBackgroundBrush(palette().color(QPalette::Base));
    QPen total(palette().color(QPalette::PlaceholderText), 1.5, Qt::DashLine);
    m_total->setPen(total);
    m_allocated->setPen(QPen(colors::allocated(), 2));
    m_busy->setPen(QPen(colors::busy(palette()), 2));

    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const qint64 from = now - qint64(m_range->currentData().toInt()) * 3600 * 1000;
    const int hours = m_range->currentData().toInt();
    // Prometheus' history of the range first, then gpudesk's samples after its last point.
    QList<GpuUseHistory::Point> points;
    const bool fromPrometheus = m_prometheusHours == hours && !m_prometheus.isEmpty();
    if (fromPrometheus) {
        for (const GpuUseHistory::Point &p : m_prometheus)
            if (p.timeMs >= from)
                points.append(p);
    }
    const qint64 sampledFrom = points.isEmpty() ? from : points.last().timeMs + 1;
    points += m_sampler->history().since(sampledFrom);
    QList<QPointF> t, a, b;
    int top = 1;
    bool bounds = false;
    for (const GpuUseHistory::Point &p : points) {
        t.append(QPointF(double(p.timeMs), p.total));
        a.append(QPointF(double(p.timeMs), p.allocated));
        if (p.busy >= 0)
            b.append(QPointF(double(p.timeMs), p.busy));
        top = std::max({top, p.total, p.allocated});
        bounds = bounds || !p.exact;
    }
    m_total->replace(t);
    m_allocated->replace(a);
    m_busy->replace(b);
    for (QLineSeries *s : {m_total, m_allocated, m_busy}) {
        s->setPointsVisible(s->count() == 1);
        s->setMarkerSize(6);
    }
    auto *x = qobject_cast<QDateTimeAxis *>(chart->axes(Qt::Horizontal).value(0));
    auto *y = qobject_cast<QValueAxis *>(chart->axes(Qt::Vertical).value(0));
    // Sampled only while gpudesk runs: a history shorter than the range is drawn over what it
    // covers (at least ten minutes), not squeezed against the right edge.
    const qint64 shown =
        points.isEmpty() || fromPrometheus
            ? from
            : std::max(from, std::min(points.first().timeMs, now - 10 * 60 * 1000));
    x->setFormat(hours > 24 ? QStringLiteral("MM-dd HH:mm") : QStringLiteral("HH:mm"));
    x->setRange(QDateTime::fromMSecsSinceEpoch(shown), QDateTime::fromMSecsSinceEpoch(now));
    y->setRange(0, top * 1.1);
    y->setTickCount(5);
    y->applyNiceNumbers(); // 0, 20, 40… rather than 0, 27.5, 55…

    QString note;
    if (points.isEmpty())
        note = tr("Sampled every %1 s while gpudesk runs: the first sample comes once the "
                  "cluster is listed.")
                   .arg(GpuUseSampler::SampleMs / 1000);
    else if (b.isEmpty())
        note = tr("Busy needs node telemetry (SSH); only allocation is drawn.");
    else {
        const GpuUseHistory::Point &last = points.last();
        if (last.busy >= 0)
            note = tr("Now %1 of %2 GPUs allocated, %3 busy: %4 allocated and idle.")
                       .arg(last.allocated)
                       .arg(last.total)
                       .arg(last.busy)
                       .arg(std::max(0, last.allocated - last.busy));
        else // busy drawn from Prometheus' past, not sampled now
            note = tr("Now %1 of %2 GPUs allocated; busy is not sampled now (no node telemetry).")
                       .arg(last.allocated)
                       .arg(last.total);
        if (fromPrometheus)
            note += u' ' + tr("History from Prometheus (DCGM-exporter: cards reporting, held by a "
                              "pod, busy).");
        else if (shown > from)
            note += u' ' + tr("Sampled since %1, while gpudesk runs.")
                               .arg(QDateTime::fromMSecsSinceEpoch(points.first().timeMs)
                                        .toString(QStringLiteral("HH:mm")));
    }
    if (bounds)
        note += u' ' + tr("Allocation is a lower bound (your account sees only some pods).");
    if (!m_prometheusError.isEmpty())
        note += u' ' + tr("Prometheus: %1").arg(m_prometheusError);
    m_note->setText(note);
}

QList<QPointF> GpuUseChart::allocatedPoints() const
{
    return m_allocated->points();
}

QList<QPointF> GpuUseChart::busyPoints() const
{
    return m_busy->points();
}

QList<QPointF> GpuUseChart::totalPoints() const
{
    return m_total->points();
}

} // namespace gpudesk
