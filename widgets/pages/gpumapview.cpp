// SPDX-License-Identifier: GPL-3.0-or-later
#include "gpumapview.h"

#include "clusterstore.h"
#include "palette.h"
#include "telemetrystore.h"

#include <QHelpEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <numeric>

namespace gpudesk {

namespace {
constexpr int kGap = 3;
constexpr int kBlockPad = 14;
} // namespace

GpuMapView::GpuMapView(const ClusterStore *store, QWidget *parent) : QWidget(parent), m_store(store)
{
    setMouseTracking(true);
    QSizePolicy p(QSizePolicy::Expanding, QSizePolicy::Preferred);
    p.setHeightForWidth(true);
    setSizePolicy(p);
    m_minCell = m_cell = std::max(16, fontMetrics().height() + 2);
    m_labelWidth = fontMetrics().horizontalAdvance(QStringLiteral("g4090-00-long")) + 12;
    rebuild();
}

void GpuMapView::setTelemetry(const TelemetryStore *telemetry)
{
    m_telemetry = telemetry;
    rebuild();
}

void GpuMapView::setGroupBy(const QString &key)
{
    if (key == m_groupBy)
        return;
    m_groupBy = key;
    rebuild();
}

void GpuMapView::setZoomPercent(int percent)
{
    if (percent == m_zoomPercent || !zoomLevels().contains(percent))
        return;
    m_zoomPercent = percent;
    m_cell = cellFor(width());
    m_layoutWidth = -1;
    updateGeometry();
    update();
    emit zoomChanged(percent);
}

QList<std::pair<QString, QStringList>> GpuMapView::groups() const
{
    QList<std::pair<QString, QStringList>> out;
    for (int i = 0; i < m_nodes.size(); ++i) {
        if (out.isEmpty() || out.last().first != m_groupOf.value(i))
            out.append({m_groupOf.value(i), {}});
        out.last().second.append(m_nodes[i].name);
    }
    return out;
}

void GpuMapView::rebuild()
{
    m_nodes = GpuPlacement::all(*m_store, m_telemetry);
    m_groupOf.clear();
    m_groups.clear();
    if (!m_groupBy.isEmpty()) {
        // Nodes by group (then by name, as placed); a node without the label in a group of its
        // own at the end.
        for (const NodeCards &n : std::as_const(m_nodes)) {
            const NodeInfo *info = m_store->node(n.name);
            QString group;
            if (info && m_groupBy == QLatin1String("gpu.model"))
                group = info->gpuModel;
            else if (info)
                for (const auto &[k, v] : info->labels)
                    if (k == m_groupBy)
                        group = v;
            m_groupOf.append(group);
        }
        QList<int> order(m_nodes.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [this](int a, int b) {
            const QString &ga = m_groupOf[a], &gb = m_groupOf[b];
            if (ga.isEmpty() != gb.isEmpty())
                return gb.isEmpty();
            return ga < gb;
        });
        QList<NodeCards> nodes;
        QStringList groupOf;
        for (const int i : std::as_const(order)) {
            nodes.append(m_nodes[i]);
            groupOf.append(m_groupOf[i].isEmpty() ? tr("(no %1 label)").arg(m_groupBy)
                                                  : m_groupOf[i]);
        }
        if (m_groupBy == QLatin1String("gpu.model"))
            for (QString &g : groupOf)
                if (g.startsWith(u'('))
                    g = tr("(no GPU)");
        m_nodes = std::move(nodes);
        m_groupOf = std::move(groupOf);
        for (int i = 0; i < m_nodes.size(); ++i) {
            if (m_groups.isEmpty() || m_groups.last().name != m_groupOf[i])
                m_groups.append({m_groupOf[i]});
            Group &g = m_groups.last();
            ++g.nodes;
            for (const CardCell &c : m_nodes[i].cells) {
                ++g.cards;
                g.free += c.state == CardCell::Free ? 1 : 0;
            }
        }
    }
    m_layoutWidth = -1;
    m_slots.clear();
    for (const NodeCards &n : std::as_const(m_nodes))
        m_slots.append(slotsOf(n));
    QStringList names;
    for (const auto &[user, cards] : users())
        names << user;
    m_colors = colors::forNames(names);
    updateGeometry();
    update();
}

QList<GpuMapView::Slot> GpuMapView::slotsOf(const NodeCards &n)
{
    QList<Slot> out;
    for (int i = 0; i < n.cells.size(); ++i)
        out.append(Slot{i, {}});
    // MIG instances of one card share a slot; unsampled, instances fill slots of seven slices.
    int card = -2, slices = 0;
    for (int i = 0; i < n.mig.size(); ++i) {
        const MigCell &m = n.mig[i];
        const bool next = m.cardIndex >= 0 ? m.cardIndex != card : slices + m.slices > 7;
        if (out.isEmpty() || out.last().whole >= 0 || next) {
            out.append(Slot{-1, {}});
            slices = 0;
        }
        out.last().mig.append(i);
        card = m.cardIndex;
        slices += m.slices;
    }
    return out;
}

QRect GpuMapView::slotRect(const QRect &block, int node, int slot) const
{
    // Nodes with more than eight cards continue on the same line, smaller.
    const int count = int(m_slots[node].size());
    const int size = count > 8 ? (8 * (m_cell + kGap)) / count - kGap : m_cell;
    return {block.left() + m_labelWidth + slot * (size + kGap), block.top(), size, m_cell};
}

void GpuMapView::paintCell(QPainter &p, const QRect &r, const Look &look, const QPalette &pal)
{
    const qreal radius = r.width() > 8 ? 3 : 1;
    const QRectF inner = QRectF(r).adjusted(1, 1, -1, -1);
    p.save();
    switch (look.state) {
    case CardCell::Free:
        // Empty: a slot waiting for work. The border's green is a hint; the emptiness says it.
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(colors::free(), r.width() < 12 ? 1 : 2)); // a MIG sliver: a thin line
        p.drawRoundedRect(inner, radius, radius);
        break;
    case CardCell::Allocated:
        p.setPen(Qt::NoPen);
        p.setBrush(look.fill.isValid() ? look.fill : colors::forName(look.user));
        p.drawRoundedRect(r, radius, radius);
        break;
    case CardCell::Unavailable:
        p.setPen(Qt::NoPen);
        p.setBrush(colors::unavailable(pal));
        p.drawRoundedRect(r, radius, radius);
        p.setBrush(QBrush(pal.color(QPalette::WindowText), Qt::BDiagPattern));
        p.drawRoundedRect(r, radius, radius);
        break;
    case CardCell::InUseHidden:
        p.setPen(Qt::NoPen);
        p.setBrush(colors::hiddenUse(pal));
        p.drawRoundedRect(r, radius, radius);
        break;
    case CardCell::Unknown:
        // Not known to be free or taken: a dashed outline, never the solid one of "free".
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(colors::unavailable(pal), 1.5, Qt::DashLine));
        p.drawRoundedRect(inner, radius, radius);
        break;
    }
    p.setPen(Qt::NoPen);
    if (look.utilization >= 0) {
        // Live utilization: a bar from the bottom, in the text's colour over the fill.
        const int h = (r.height() - 4) * look.utilization / 100;
        if (h > 0) {
            QColor bar = look.state == CardCell::Allocated ? QColor(0, 0, 0)
                                                           : pal.color(QPalette::WindowText);
            bar.setAlpha(look.state == CardCell::Allocated ? 120 : 150);
            p.setBrush(bar);
            p.drawRect(QRect(r.left() + 2, r.bottom() - 1 - h, std::max(3, r.width() / 6), h));
        }
    }
    const QPen ring(pal.color(QPalette::Window), 1);
    if (look.unattributed) {
        // A process of no live pod: a triangle in the top-right corner.
        p.setBrush(colors::error());
        p.setPen(ring);
        const QPoint pts[3] = {r.topRight() + QPoint(1, 0),
                               r.topRight() + QPoint(-r.width() / 2, 0),
                               r.topRight() + QPoint(1, r.height() / 2)};
        p.drawPolygon(pts, 3);
    }
    if (look.phantom) {
        // Memory held with no process listed: a dot (below the triangle when both).
        const qreal d = std::max(5.0, r.height() / 3.5);
        const QPointF c = look.unattributed ? QPointF(r.right() - d / 2 - 1, r.center().y() + 2)
                                            : QPointF(r.right() - d / 2 - 1, r.top() + d / 2 + 1);
        p.setBrush(colors::warning());
        p.setPen(ring);
        p.drawEllipse(c, d / 2, d / 2);
    }
    if (look.state == CardCell::Allocated && look.down) {
        // Held on a node that is down: the GPUs are lost until the pods go.
        p.setPen(QPen(colors::error(), 2));
        p.drawLine(r.topLeft() + QPoint(3, 3), r.bottomRight() - QPoint(3, 3));
    }
    p.restore();
}

QList<std::pair<QString, int>> GpuMapView::users() const
{
    QHash<QString, int> count;
    for (const NodeCards &n : m_nodes) {
        for (const CardCell &c : n.cells)
            if (c.state == CardCell::Allocated && !c.user.isEmpty())
                ++count[c.user];
        for (const MigCell &m : n.mig)
            if (m.state == CardCell::Allocated && !m.user.isEmpty())
                ++count[m.user];
    }
    QList<std::pair<QString, int>> out;
    for (auto it = count.cbegin(); it != count.cend(); ++it)
        out.append({it.key(), it.value()});
    std::sort(out.begin(), out.end(), [](const auto &a, const auto &b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    return out;
}

QColor GpuMapView::colorOf(const QString &user) const
{
    return m_colors.value(user, colors::forName(user));
}

void GpuMapView::setAvailableHeight(int height)
{
    if (height == m_availableHeight)
        return;
    m_availableHeight = height;
    m_cell = cellFor(width());
    updateGeometry();
    update();
}

int GpuMapView::blockWidth(int cell) const
{
    return m_labelWidth + 8 * (cell + kGap) + kBlockPad;
}

int GpuMapView::columns(int width, int cell) const
{
    return std::max(1, width / blockWidth(cell));
}

int GpuMapView::headingHeight() const
{
    return fontMetrics().height() + 10;
}

int GpuMapView::layoutFor(int width, int cell, QList<QRect> *blocks,
                          QList<std::pair<QRect, int>> *headings) const
{
    const int cols = columns(width, cell);
    const int w = blockWidth(cell);
    const int blockHeight = cell + kGap + 6;
    int y = 0, col = 0, group = -1;
    for (int i = 0; i < m_nodes.size(); ++i) {
        if (!m_groupOf.isEmpty() && (group < 0 || m_groups[group].name != m_groupOf[i])) {
            // A group starts on a row of its own, under its heading.
            if (col > 0)
                y += blockHeight;
            col = 0;
            ++group;
            if (headings)
                headings->append({QRect(0, y, width, headingHeight()), group});
            y += headingHeight();
        }
        if (blocks)
            blocks->append(QRect(col * w, y, w, blockHeight));
        if (++col == cols) {
            col = 0;
            y += blockHeight;
        }
    }
    if (col > 0)
        y += blockHeight;
    return y + 4;
}

void GpuMapView::ensureLayout() const
{
    if (m_layoutWidth == width() && m_layoutCell == m_cell && m_blocks.size() == m_nodes.size())
        return;
    m_blocks.clear();
    m_headings.clear();
    layoutFor(width(), m_cell, &m_blocks, &m_headings);
    m_layoutWidth = width();
    m_layoutCell = m_cell;
}

int GpuMapView::heightFor(int width, int cell) const
{
    return layoutFor(width, cell, nullptr, nullptr);
}

int GpuMapView::cellFor(int width) const
{
    if (m_zoomPercent > 0)
        return m_minCell * m_zoomPercent / 100;
    // From about three lines of text high down to the smallest readable: the first that fits.
    const int largest = 3 * m_minCell;
    if (m_availableHeight <= 0 || width <= 0)
        return m_minCell;
    for (int cell = largest; cell > m_minCell; cell -= 2)
        if (blockWidth(cell) <= width && heightFor(width, cell) <= m_availableHeight)
            return cell;
    return m_minCell;
}

QRect GpuMapView::blockRect(int index) const
{
    ensureLayout();
    return m_blocks.value(index);
}

int GpuMapView::heightForWidth(int width) const
{
    return heightFor(width, cellFor(width));
}

QSize GpuMapView::sizeHint() const
{
    return {800, heightForWidth(800)};
}

void GpuMapView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    const int cell = cellFor(width());
    m_layoutWidth = -1;
    if (cell != m_cell) {
        m_cell = cell;
        update();
    }
    updateGeometry();
}

void GpuMapView::wheelEvent(QWheelEvent *event)
{
    if (!(event->modifiers() & Qt::ControlModifier) || event->angleDelta().y() == 0) {
        QWidget::wheelEvent(event);
        return;
    }
    // Ctrl+wheel: the next zoom level up or down; "fit" is the level before the smallest.
    const QList<int> levels = zoomLevels();
    const int at = int(levels.indexOf(m_zoomPercent));
    const int next =
        std::clamp(at + (event->angleDelta().y() > 0 ? 1 : -1), 0, int(levels.size()) - 1);
    setZoomPercent(levels[next]);
    event->accept();
}

void GpuMapView::paintEvent(QPaintEvent *event)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    ensureLayout();
    for (const auto &[rect, index] : std::as_const(m_headings)) {
        if (!rect.intersects(event->rect()))
            continue;
        const Group &g = m_groups[index];
        QFont bold = font();
        bold.setBold(true);
        p.setFont(bold);
        p.setPen(pal.color(QPalette::WindowText));
        const QRect text = rect.adjusted(4, 2, -4, -4);
        p.drawText(text, Qt::AlignLeft | Qt::AlignVCenter, g.name);
        const int after = QFontMetrics(bold).horizontalAdvance(g.name) + 16;
        p.setFont(font());
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(text.adjusted(after, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                   tr("%n node(s), %1 of %2 GPUs free", nullptr, g.nodes).arg(g.free).arg(g.cards));
        p.drawLine(rect.left() + 4, rect.bottom() - 2, rect.right() - 4, rect.bottom() - 2);
    }
    for (int i = 0; i < m_nodes.size(); ++i) {
        const QRect block = blockRect(i);
        if (!block.intersects(event->rect()))
            continue;
        const NodeCards &n = m_nodes[i];
        const bool down = n.down;
        p.setPen(down ? colors::error() : pal.color(QPalette::WindowText));
        p.drawText(QRect(block.left(), block.top(), m_labelWidth - 6, m_cell),
                   Qt::AlignRight | Qt::AlignVCenter,
                   fontMetrics().elidedText(n.name, Qt::ElideMiddle, m_labelWidth - 6));
        p.setPen(Qt::NoPen);
        const QList<Slot> &cardSlots = m_slots[i];
        for (int k = 0; k < cardSlots.size(); ++k) {
            const QRect r = slotRect(block, i, k);
            const Slot &slot = cardSlots[k];
            if (slot.whole >= 0) {
                const CardCell &cell = n.cells[slot.whole];
                paintCell(p, r,
                          {cell.state, cell.user, colorOf(cell.user), cell.utilization,
                           cell.unattributed, cell.phantom, down},
                          pal);
                continue;
            }
            // A card in MIG mode: its instances side by side, each as wide as its slices.
            int x = r.left();
            for (const int m : slot.mig) {
                const MigCell &mc = n.mig[m];
                const int w = std::max(2, r.width() * mc.slices / 7 - 1);
                paintCell(p, QRect(x, r.top(), w, r.height()),
                          {mc.state, mc.user, colorOf(mc.user), -1, mc.unattributed, false, down},
                          pal);
                x += w + 1;
            }
            p.setBrush(Qt::NoBrush);
            p.setPen(QPen(pal.color(QPalette::WindowText), 1, Qt::DotLine));
            p.drawRect(QRectF(r).adjusted(-1, -1, 0, 0));
            p.setPen(Qt::NoPen);
        }
    }
}

GpuMapView::Hit GpuMapView::hit(const QPoint &pos) const
{
    ensureLayout();
    for (int i = 0; i < m_nodes.size(); ++i) {
        const QRect block = blockRect(i);
        if (!block.contains(pos))
            continue;
        Hit h{i};
        for (int k = 0; k < m_slots[i].size(); ++k) {
            const QRect r = slotRect(block, i, k);
            if (pos.x() < r.left() || pos.x() > r.right() + kGap)
                continue;
            h.slot = k;
            int x = r.left();
            for (const int m : m_slots[i][k].mig) {
                const int w = std::max(2, r.width() * m_nodes[i].mig[m].slices / 7 - 1);
                if (pos.x() >= x && pos.x() <= x + w)
                    h.mig = m;
                x += w + 1;
            }
        }
        return h;
    }
    return {};
}

bool GpuMapView::event(QEvent *event)
{
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    auto *help = static_cast<QHelpEvent *>(event);
    const Hit h = hit(help->pos());
    if (h.node < 0) {
        QToolTip::hideText();
        return true;
    }
    QToolTip::showText(help->globalPos(), cellTooltip(m_nodes[h.node], h), this);
    return true;
}

QString GpuMapView::cellTooltip(const NodeCards &n, const Hit &h) const
{
    QString text = QStringLiteral("<b>%1</b> (%2)").arg(n.name.toHtmlEscaped(), n.status);
    const Slot *slot = h.slot >= 0 ? &m_slots[h.node][h.slot] : nullptr;
    if (slot && slot->whole < 0 && h.mig >= 0) {
        const MigCell &m = n.mig[h.mig];
        text +=
            QStringLiteral("<br>") +
            (m.cardIndex >= 0
                 ? tr("MIG %1 (GPU %2, device %3)").arg(m.profile).arg(m.cardIndex).arg(m.device)
                 : tr("MIG %1").arg(m.profile));
        CardCell as;
        as.state = m.state;
        as.podUid = m.podUid;
        as.user = m.user;
        as.unattributed = m.unattributed;
        as.processes = m.processes;
        text += u' ' + stateText(as);
        if (m.memoryTotalMiB >= 0)
            text += QStringLiteral("<br>") +
                    tr("memory %1 of %2 MiB").arg(m.memoryUsedMiB).arg(m.memoryTotalMiB);
        text += processLines(as);
        return text;
    }
    if (slot && slot->whole >= 0) {
        const CardCell &cell = n.cells[slot->whole];
        text += QStringLiteral("<br>") + tr("GPU slot %1").arg(slot->whole) + QStringLiteral(": ") +
                stateText(cell);
        if (cell.utilization >= 0)
            text += QStringLiteral("<br>") + tr("utilization %1 %, memory %2 of %3 MiB")
                                                 .arg(cell.utilization)
                                                 .arg(cell.memoryUsedMiB)
                                                 .arg(cell.memoryTotalMiB);
        if (cell.phantom)
            text += QStringLiteral("<br><b>") +
                    tr("Phantom: memory is held but no process is listed.") +
                    QStringLiteral("</b>");
        text += processLines(cell);
    }
    return text;
}

QString GpuMapView::stateText(const CardCell &cell) const
{
    switch (cell.state) {
    case CardCell::Free:
        return tr("free");
    case CardCell::Unavailable:
        return tr("not schedulable (node not ready or cordoned)");
    case CardCell::InUseHidden:
        return tr("in use by a pod not visible to you");
    case CardCell::Unknown:
        return tr("not known: your account cannot see other users' pods");
    case CardCell::Allocated:
        if (const PodInfo *p = m_store->pod(cell.podUid))
            return tr("pod %1/%2<br>user %3, VC %4, %n GPU(s)", nullptr,
                      p->gpuRequest + migTotal(p->migRequests))
                .arg(p->ns.toHtmlEscaped(), p->name.toHtmlEscaped(), cell.user.toHtmlEscaped(),
                     m_store->vcOf(*p).toHtmlEscaped());
        break;
    }
    return {};
}

QString GpuMapView::goneName(const QString &podUid) const
{
    // Named by the events that still name it, where any do; its uid otherwise.
    const QString name = m_store->podNamedByEvents(podUid);
    return name.isEmpty() ? podUid : QStringLiteral("%1 (%2)").arg(name, podUid);
}

QString GpuMapView::processLines(const CardCell &cell) const
{
    QString text;
    if (cell.unattributed)
        text += QStringLiteral("<br><b>") + tr("A process here belongs to no live pod.") +
                QStringLiteral("</b>");
    for (const CardCell::Process &pr : cell.processes) {
        QString line;
        if (!pr.pod.isEmpty())
            line = tr("PID %1: %2/%3 (%4)").arg(pr.pid).arg(pr.ns, pr.pod, pr.user);
        else if (pr.hidden)
            line = tr("PID %1: pod not visible to you").arg(pr.pid);
        else
            line = tr("PID %1: no live pod (%2)")
                       .arg(pr.pid)
                       .arg(pr.podUid.isEmpty() ? tr("host process")
                                                : tr("pod %1 is gone").arg(goneName(pr.podUid)));
        text += QStringLiteral("<br>") + line.toHtmlEscaped();
    }
    return text;
}

void GpuMapView::mouseDoubleClickEvent(QMouseEvent *event)
{
    const Hit h = hit(event->pos());
    if (h.node >= 0)
        emit nodeActivated(m_nodes[h.node].name);
}

} // namespace gpudesk
