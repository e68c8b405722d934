// SPDX-License-Identifier: GPL-3.0-or-later
#include "gpumappage.h"

#include "appsettings.h"
#include "connectionstate.h"

#include "telemetrystore.h"

#include "clusterstore.h"
#include "gpumapview.h"
#include "gpuplacement.h"
#include "palette.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPixmap>
#include <QRegularExpression>
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
      m_summary(new QLabel(this)), m_users(new QLabel(this)), m_groupBy(new QComboBox(this)),
      m_zoom(new QComboBox(this))
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
    // Group by and zoom, kept for the next start.
    m_groupBy->setObjectName(QStringLiteral("gpuMapGroupBy"));
    m_zoom->setObjectName(QStringLiteral("gpuMapZoom"));
    for (const int z : GpuMapView::zoomLevels())
        m_zoom->addItem(z == 0 ? tr("Fit") : QStringLiteral("%1 %").arg(z), z);
    m_zoom->setToolTip(tr("Ctrl+wheel on the map zooms too"));
    m_map->setGroupBy(AppSettings::gpuMapGroupBy());
    m_map->setZoomPercent(AppSettings::gpuMapZoom());
    m_zoom->setCurrentIndex(std::max(0, m_zoom->findData(m_map->zoomPercent())));
    connect(m_zoom, &QComboBox::activated, this,
            [this] { m_map->setZoomPercent(m_zoom->currentData().toInt()); });
    connect(m_map, &GpuMapView::zoomChanged, this, [this](int percent) {
        m_zoom->setCurrentIndex(std::max(0, m_zoom->findData(percent)));
        AppSettings::setGpuMapZoom(percent);
    });
    connect(m_groupBy, &QComboBox::activated, this, [this] {
        m_map->setGroupBy(m_groupBy->currentData().toString());
        AppSettings::setGpuMapGroupBy(m_map->groupBy());
    });
    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Group by:"), this));
    controls->addWidget(m_groupBy);
    controls->addSpacing(16);
    controls->addWidget(new QLabel(tr("Zoom:"), this));
    controls->addWidget(m_zoom);
    controls->addStretch(1);
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
    layout->addLayout(controls);
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
    connect(telemetry, &TelemetryStore::updated, this, &GpuMapPage::refreshWhenShown);
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

void GpuMapPage::refreshGroupings()
{
    // GPU model, and the labels clusters group nodes by (pools, racks, zones, instance types)
    // that these nodes carry.
    static const QRegularExpression grouping(
        QStringLiteral("zone|region|rack|pool|nodegroup|node-group|instance-type|partition"),
        QRegularExpression::CaseInsensitiveOption);
    QStringList keys;
    for (const NodeInfo &n : m_store->nodes())
        for (const auto &[k, v] : n.labels)
            if (!keys.contains(k) && grouping.match(k).hasMatch())
                keys.append(k);
    keys.sort();
    keys.prepend(QStringLiteral("gpu.model"));
    if (!m_map->groupBy().isEmpty() && !keys.contains(m_map->groupBy()))
        keys.append(m_map->groupBy()); // chosen before, not (yet) on these nodes
    QStringList shown;
    for (int i = 1; i < m_groupBy->count(); ++i)
        shown.append(m_groupBy->itemData(i).toString());
    if (shown == keys && m_groupBy->count() > 0)
        return;
    m_groupBy->clear();
    m_groupBy->addItem(tr("Nothing"), QString());
    for (const QString &k : std::as_const(keys))
        m_groupBy->addItem(k == QLatin1String("gpu.model") ? tr("GPU model") : k, k);
    m_groupBy->setCurrentIndex(std::max(0, m_groupBy->findData(m_map->groupBy())));
}

void GpuMapPage::refreshWhenShown()
{
    // A hidden page is redrawn when it is shown, not on every change.
    if (isVisible())
        refresh();
    else
        m_stale = true;
}

void GpuMapPage::setConnection(const ConnectionState *connection)
{
    m_connection = connection;
    connect(connection, &ConnectionState::changed, this, &GpuMapPage::refreshWhenShown);
    refresh();
}

void GpuMapPage::refresh()
{
    m_stale = false;
    const QString none =
        m_connection ? m_connection->noFigures(m_store->nodes().isEmpty()) : QString();
    m_summary->setText(
        none.isEmpty()
            ? FreeGpus::of(*m_store, m_telemetry).sentence(m_store->scope(Resource::Pods))
            : none);
    for (QWidget *w : std::as_const(m_partialLegend))
        w->setVisible(!m_store->podsComplete());
    refreshGroupings();
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
