// SPDX-License-Identifier: GPL-3.0-or-later
#include "gpumappage.h"

#include "telemetrystore.h"

#include "clusterstore.h"
#include "gpumapview.h"
#include "gpuplacement.h"
#include "palette.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPixmap>
#include <QScrollArea>
#include <QVBoxLayout>

namespace gpudesk {

namespace {

// Users the legend names at most; the rest are counted.
constexpr int kLegendUsers = 16;

// A legend entry: the cell as the map paints it, and what it means.
QWidget *legendItem(const GpuMapView::Look &look, const QString &text, QWidget *parent)
{
    auto *w = new QWidget(parent);
    auto *l = new QHBoxLayout(w);
    l->setContentsMargins(0, 0, 12, 0);
    l->setSpacing(5);
    const int size = parent->fontMetrics().height() + 2;
    const qreal dpr = parent->devicePixelRatioF();
    QPixmap pixmap(QSize(size, size) * dpr);
    pixmap.setDevicePixelRatio(dpr);
    pixmap.fill(Qt::transparent);
    {
        QPainter p(&pixmap);
        p.setRenderHint(QPainter::Antialiasing);
        GpuMapView::paintCell(p, QRect(0, 0, size, size), look, parent->palette());
    }
    auto *swatch = new QLabel(w);
    swatch->setPixmap(pixmap);
    l->addWidget(swatch);
    auto *label = new QLabel(text, w);
    label->setObjectName(QStringLiteral("legendText"));
    l->addWidget(label);
    return w;
}

GpuMapView::Look look(CardCell::State state, const QString &user = {}, int utilization = -1)
{
    GpuMapView::Look l;
    l.state = state;
    l.user = user;
    l.fill = colors::forName(user);
    l.utilization = utilization;
    return l;
}

} // namespace

GpuMapPage::GpuMapPage(ClusterStore *store, QWidget *parent)
    : QWidget(parent), m_store(store), m_map(new GpuMapView(store, this)),
      m_summary(new QLabel(this)), m_users(new QLabel(this))
{
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *legend = new QHBoxLayout;
    legend->addWidget(legendItem(look(CardCell::Free), tr("free"), this));
    legend->addWidget(legendItem(look(CardCell::Allocated, QStringLiteral("alice"), 60),
                                 tr("allocated, in its user's colour; the bar: live utilization"),
                                 this));
    legend->addWidget(legendItem(look(CardCell::Unavailable),
                                 tr("unavailable (node not ready or cordoned)"), this));
    // Only an account that cannot see every pod meets these two.
    m_partialLegend = {
        legendItem(look(CardCell::InUseHidden), tr("in use by a pod not visible to you"), this),
        legendItem(look(CardCell::Unknown), tr("not known"), this)};
    for (QWidget *w : std::as_const(m_partialLegend))
        legend->addWidget(w);
    GpuMapView::Look orphan = look(CardCell::Allocated, QStringLiteral("alice"));
    orphan.unattributed = true;
    legend->addWidget(legendItem(orphan, tr("process of no pod"), this));
    GpuMapView::Look phantom = look(CardCell::Allocated, QStringLiteral("alice"));
    phantom.phantom = true;
    legend->addWidget(legendItem(phantom, tr("phantom memory"), this));
    legend->addStretch(1);
    m_users->setObjectName(QStringLiteral("gpuMapUsers"));
    m_users->setWordWrap(true);
    m_users->setTextFormat(Qt::RichText);
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(m_map);
    // The map's cells are sized to the room the page gives it.
    scroll->viewport()->installEventFilter(this);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(16, 16, 16, 16);
    layout->addWidget(m_summary);
    layout->addLayout(legend);
    layout->addWidget(m_users);
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

bool GpuMapPage::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::Resize)
        m_map->setAvailableHeight(static_cast<QWidget *>(watched)->height());
    return QWidget::eventFilter(watched, event);
}

QString GpuMapPage::usersLegend() const
{
    return m_users->text();
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
    // Who holds the cards, in the colours the map uses, most cards first: one line of text
    // that wraps, so that many users never widen the window.
    const QList<std::pair<QString, int>> users = m_map->users();
    QStringList parts;
    for (qsizetype i = 0; i < std::min<qsizetype>(users.size(), kLegendUsers); ++i)
        parts << QStringLiteral(
                     "<span style=\"color:%1; font-size:large\">■</span>&nbsp;%2&nbsp;%3")
                     .arg(m_map->colorOf(users[i].first).name(), users[i].first.toHtmlEscaped())
                     .arg(users[i].second);
    if (users.size() > kLegendUsers)
        parts << tr("+%n more", nullptr, int(users.size() - kLegendUsers));
    m_users->setText(parts.isEmpty() ? QString()
                                     : tr("GPUs by user:") + QStringLiteral("&nbsp; ") +
                                           parts.join(QStringLiteral(" &nbsp; ")));
    m_users->setVisible(!parts.isEmpty());
}

} // namespace gpudesk
