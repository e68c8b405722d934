// SPDX-License-Identifier: GPL-3.0-or-later
#include "gpumapview.h"

#include "clusterstore.h"
#include "palette.h"
#include "telemetrystore.h"

#include <QHelpEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QToolTip>

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
    m_cell = std::max(16, fontMetrics().height() + 2);
    m_labelWidth = fontMetrics().horizontalAdvance(QStringLiteral("g4090-00-long")) + 12;
    rebuild();
}

void GpuMapView::setTelemetry(const TelemetryStore *telemetry)
{
    m_telemetry = telemetry;
    rebuild();
}

void GpuMapView::rebuild()
{
    m_nodes = GpuPlacement::all(*m_store, m_telemetry);
    m_slots.clear();
    for (const NodeCards &n : std::as_const(m_nodes))
        m_slots.append(slotsOf(n));
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

void GpuMapView::drawCell(QPainter &p, const QRect &r, CardCell::State state, const QString &user,
                          int utilization, bool unattributed, bool phantom, bool down) const
{
    const QPalette pal = palette();
    QColor color;
    switch (state) {
    case CardCell::Free:
        color = colors::free();
        break;
    case CardCell::Allocated:
        color = colors::forName(user);
        break;
    case CardCell::Unavailable:
        color = colors::unavailable(pal);
        break;
    case CardCell::InUseHidden:
        color = colors::hiddenUse(pal);
        break;
    case CardCell::Unknown:
        break;
    }
    const int radius = r.width() > 8 ? 3 : 1;
    if (state == CardCell::Unknown) {
        // Not known to be free or taken: an outline, never the green of "free".
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(colors::unavailable(pal), 1.5, Qt::DashLine));
        p.drawRoundedRect(QRectF(r).adjusted(0.75, 0.75, -0.75, -0.75), radius, radius);
        p.setPen(Qt::NoPen);
    } else {
        p.setBrush(color);
        p.drawRoundedRect(r, radius, radius);
    }
    if (utilization >= 0) {
        // Live utilization: a bar from the bottom, dark over the cell's own colour.
        const int h = (r.height() - 4) * utilization / 100;
        if (h > 0) {
            p.setBrush(QColor(0, 0, 0, 110));
            p.drawRect(QRect(r.left() + 2, r.bottom() - 1 - h, 3, h));
        }
    }
    auto corner = [&](const QColor &flag) {
        p.setBrush(flag);
        p.setPen(QPen(pal.color(QPalette::Window), 1));
        const QPoint pts[3] = {r.topRight() + QPoint(1, 0),
                               r.topRight() + QPoint(-r.width() / 2, 0),
                               r.topRight() + QPoint(1, r.height() / 2)};
        p.drawPolygon(pts, 3);
        p.setPen(Qt::NoPen);
    };
    if (unattributed)
        corner(colors::error());
    else if (phantom)
        corner(colors::warning());
    if (state == CardCell::Allocated && down) {
        // Held on a node that is down: the GPUs are lost until the pods go.
        p.setPen(QPen(colors::error(), 2));
        p.drawLine(r.topLeft() + QPoint(3, 3), r.bottomRight() - QPoint(3, 3));
        p.setPen(Qt::NoPen);
    }
}

int GpuMapView::columns(int width) const
{
    const int blockWidth = m_labelWidth + 8 * (m_cell + kGap) + kBlockPad;
    return std::max(1, width / blockWidth);
}

QRect GpuMapView::blockRect(int index) const
{
    const int cols = columns(width());
    const int blockWidth = m_labelWidth + 8 * (m_cell + kGap) + kBlockPad;
    const int rowsPerBlock = 1;
    const int blockHeight = rowsPerBlock * (m_cell + kGap) + 6;
    return {(index % cols) * blockWidth, (index / cols) * blockHeight, blockWidth, blockHeight};
}

int GpuMapView::heightForWidth(int width) const
{
    const int cols = columns(width);
    const int rows = (int(m_nodes.size()) + cols - 1) / cols;
    return rows * (m_cell + kGap + 6) + 4;
}

QSize GpuMapView::sizeHint() const
{
    return {800, heightForWidth(800)};
}

void GpuMapView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    updateGeometry();
}

void GpuMapView::paintEvent(QPaintEvent *event)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
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
                drawCell(p, r, cell.state, cell.user, cell.utilization, cell.unattributed,
                         cell.phantom, down);
                continue;
            }
            // A card in MIG mode: its instances side by side, each as wide as its slices.
            int x = r.left();
            for (const int m : slot.mig) {
                const MigCell &mc = n.mig[m];
                const int w = std::max(2, r.width() * mc.slices / 7 - 1);
                drawCell(p, QRect(x, r.top(), w, r.height()), mc.state, mc.user, -1,
                         mc.unattributed, false, down);
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
                                                : tr("pod %1 is gone").arg(pr.podUid));
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
