// SPDX-License-Identifier: GPL-3.0-or-later
#include "gpumappage.h"

#include "telemetrystore.h"

#include "clusterstore.h"
#include "gpumapview.h"
#include "gpuplacement.h"
#include "palette.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

namespace gpudesk {

namespace {

QWidget *legendItem(const QColor &color, const QString &text, QWidget *parent)
{
    auto *w = new QWidget(parent);
    auto *l = new QHBoxLayout(w);
    l->setContentsMargins(0, 0, 12, 0);
    auto *swatch = new QLabel(w);
    swatch->setFixedSize(14, 14);
    swatch->setStyleSheet(QStringLiteral("background: %1; border-radius: 3px;").arg(color.name()));
    l->addWidget(swatch);
    l->addWidget(new QLabel(text, w));
    return w;
}

} // namespace

GpuMapPage::GpuMapPage(ClusterStore *store, QWidget *parent)
    : QWidget(parent), m_store(store), m_map(new GpuMapView(store, this)),
      m_summary(new QLabel(this))
{
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *legend = new QHBoxLayout;
    legend->addWidget(legendItem(colors::free(), tr("free"), this));
    legend->addWidget(legendItem(colors::forName(QStringLiteral("alice")),
                                 tr("allocated (colour per user; hover for pod, user, VC)"), this));
    legend->addWidget(legendItem(colors::unavailable(palette()),
                                 tr("unavailable (node not ready or cordoned)"), this));
    // Only an account that cannot see every pod meets these two.
    m_partialLegend = {
        legendItem(colors::hiddenUse(palette()), tr("in use by a pod not visible to you"), this),
        legendItem(palette().color(QPalette::Window), tr("not known (outlined)"), this)};
    for (QWidget *w : std::as_const(m_partialLegend))
        legend->addWidget(w);
    legend->addWidget(legendItem(colors::warning(), tr("phantom memory"), this));
    legend->addWidget(legendItem(colors::error(), tr("process of no pod"), this));
    legend->addWidget(new QLabel(tr("bar: live utilization"), this));
    legend->addStretch(1);
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(m_map);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(16, 16, 16, 16);
    layout->addWidget(m_summary);
    layout->addLayout(legend);
    layout->addWidget(scroll, 1);
    connect(m_map, &GpuMapView::nodeActivated, this, &GpuMapPage::nodeActivated);
    connect(store, &ClusterStore::updated, this, [this](const StoreChanges &c) {
        if (!c.reset && c.nodes.isEmpty())
            return;
        // Thousands of cells are not redrawn ten times a second for a page nobody looks at.
        if (isVisible())
            refresh();
        else
            m_stale = true;
    });
    refresh();
}

void GpuMapPage::setTelemetry(TelemetryStore *telemetry)
{
    m_telemetry = telemetry;
    m_map->setTelemetry(telemetry);
    connect(telemetry, &TelemetryStore::updated, this, [this] {
        if (isVisible())
            refresh();
        else
            m_stale = true;
    });
}

void GpuMapPage::showEvent(QShowEvent *event)
{
    if (m_stale)
        refresh();
    QWidget::showEvent(event);
}

QString GpuMapPage::summary() const
{
    return m_summary->text();
}

void GpuMapPage::refresh()
{
    m_stale = false;
    m_summary->setText(
        FreeGpus::of(*m_store, m_telemetry).sentence(m_store->scope(Resource::Pods)));
    for (QWidget *w : std::as_const(m_partialLegend))
        w->setVisible(!m_store->podsComplete());
    m_map->rebuild();
}

} // namespace gpudesk
