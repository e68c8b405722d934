// SPDX-License-Identifier: GPL-3.0-or-later
#include "gpuusechart.h"

#include "gpuusesampler.h"
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
    m_range->addItem(tr("Last hour"), 1);
    m_range->addItem(tr("Last 6 hours"), 6);
    m_range->addItem(tr("Last 24 hours"), 24);
    m_range->setCurrentIndex(1);
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
    connect(m_range, &QComboBox::currentIndexChanged, this, &GpuUseChart::refresh);
    connect(sampler, &GpuUseSampler::updated, this, &GpuUseChart::refresh);
    refresh();
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
    const QList<GpuUseHistory::Point> points = m_sampler->history().since(from);
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
        points.isEmpty() ? from
                         : std::max(from, std::min(points.first().timeMs, now - 10 * 60 * 1000));
    x->setFormat(QStringLiteral("HH:mm"));
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
        note = tr("Now %1 of %2 GPUs allocated, %3 busy: %4 allocated and idle.")
                   .arg(last.allocated)
                   .arg(last.total)
                   .arg(std::max(0, last.busy))
                   .arg(std::max(0, last.allocated - last.busy));
        if (shown > from)
            note += u' ' + tr("Sampled since %1, while gpudesk runs.")
                               .arg(QDateTime::fromMSecsSinceEpoch(points.first().timeMs)
                                        .toString(QStringLiteral("HH:mm")));
    }
    if (bounds)
        note += u' ' + tr("Allocation is a lower bound (your account sees only some pods).");
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

} // namespace gpudesk
