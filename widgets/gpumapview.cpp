// SPDX-License-Identifier: GPL-3.0-or-later
#include "gpumapview.h"

#include "clusterstore.h"
#include "nodesmodel.h"
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

void GpuMapView::applyTelemetry(const NodeInfo &node, NodeCells *nc) const
{
    if (!m_telemetry || !m_telemetry->isFresh(node.name))
        return;
    const QList<CardState> cards = m_telemetry->cards(node.name);
    if (cards.isEmpty())
        return;
    // Which pod holds which card: the cards its processes run on first, then, for pods whose
    // processes are not (yet) on a card, the remaining cards in order.
    QList<Cell> allocated;
    for (const Cell &c : std::as_const(nc->cells))
        if (c.state == Cell::Allocated)
            allocated.append(c);
    const Cell::State rest = nc->cells.isEmpty() || nc->cells.last().state != Cell::Unavailable
                                 ? Cell::Free
                                 : Cell::Unavailable;
    QList<Cell> out(qMax(cards.size(), nc->cells.size()), Cell{rest, {}, {}});
    QList<bool> taken(out.size(), false);
    for (const CardState &card : cards) {
        if (card.sample.index < 0 || card.sample.index >= out.size())
            continue;
        for (const AttributedProcess &p : card.processes) {
            const auto it = std::find_if(allocated.begin(), allocated.end(),
                                         [&](const Cell &c) { return c.podUid == p.podUid; });
            if (it != allocated.end() && !taken[card.sample.index]) {
                out[card.sample.index] = *it;
                taken[card.sample.index] = true;
                allocated.erase(it);
                break;
            }
        }
    }
    for (const Cell &c : std::as_const(allocated)) {
        const auto free = std::find(taken.begin(), taken.end(), false);
        if (free == taken.end())
            break;
        const auto i = std::distance(taken.begin(), free);
        out[i] = c;
        taken[i] = true;
    }
    for (const CardState &card : cards) {
        if (card.sample.index < 0 || card.sample.index >= out.size())
            continue;
        Cell &c = out[card.sample.index];
        c.utilization = card.sample.utilization.value_or(-1);
        c.memoryUsedMiB = card.sample.memoryUsedMiB.value_or(-1);
        c.memoryTotalMiB = card.sample.memoryTotalMiB.value_or(-1);
        c.phantom = card.phantom;
        c.unattributed = card.unattributed;
        for (const AttributedProcess &p : card.processes)
            c.processes << (p.attributed()
                                ? tr("PID %1: %2/%3 (%4)").arg(p.pid).arg(p.ns, p.pod, p.user)
                                : tr("PID %1: no live pod (%2)")
                                      .arg(p.pid)
                                      .arg(p.podUid.isEmpty()
                                               ? tr("host process")
                                               : tr("pod %1 is gone").arg(p.podUid)));
    }
    nc->cells = out;
}

void GpuMapView::rebuild()
{
    m_nodes.clear();
    for (const NodeInfo &n : m_store->nodes()) {
        if (n.gpuAllocatable <= 0)
            continue;
        NodeCells nc;
        nc.name = n.name;
        nc.status = NodesModel::statusText(n);
        const bool available = n.ready && !n.unschedulable;
        QList<const PodInfo *> pods = m_store->podsOnNode(n.name);
        std::sort(pods.begin(), pods.end(), [](const PodInfo *a, const PodInfo *b) {
            return std::tie(a->created, a->name) < std::tie(b->created, b->name);
        });
        for (const PodInfo *p : pods) {
            if (p->finished())
                continue;
            for (int g = 0; g < p->gpuRequest && nc.cells.size() < n.gpuAllocatable; ++g)
                nc.cells.append(Cell{Cell::Allocated, p->uid, m_store->userOf(p->ns)});
        }
        while (nc.cells.size() < n.gpuAllocatable)
            nc.cells.append(Cell{available ? Cell::Free : Cell::Unavailable, {}, {}});
        applyTelemetry(n, &nc);
        m_nodes.append(nc);
    }
    updateGeometry();
    update();
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
        const NodeCells &n = m_nodes[i];
        const bool down = n.status.startsWith(QLatin1String("NotReady"));
        p.setPen(down ? colors::error() : pal.color(QPalette::WindowText));
        p.drawText(QRect(block.left(), block.top(), m_labelWidth - 6, m_cell),
                   Qt::AlignRight | Qt::AlignVCenter,
                   fontMetrics().elidedText(n.name, Qt::ElideMiddle, m_labelWidth - 6));
        p.setPen(Qt::NoPen);
        for (int c = 0; c < n.cells.size(); ++c) {
            const Cell &cell = n.cells[c];
            // Nodes with more than eight cards continue on the same line, smaller.
            const int size =
                n.cells.size() > 8 ? (8 * (m_cell + kGap)) / n.cells.size() - kGap : m_cell;
            const QRect r(block.left() + m_labelWidth + c * (size + kGap), block.top(), size,
                          m_cell);
            QColor color;
            switch (cell.state) {
            case Cell::Free:
                color = colors::free();
                break;
            case Cell::Allocated:
                color = colors::forName(cell.user);
                break;
            case Cell::Unavailable:
                color = colors::unavailable(pal);
                break;
            }
            p.setBrush(color);
            p.drawRoundedRect(r, 3, 3);
            if (cell.utilization >= 0) {
                // Live utilization: a bar from the bottom, dark over the cell's own colour.
                const int h = (r.height() - 4) * cell.utilization / 100;
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
            if (cell.unattributed)
                corner(colors::error());
            else if (cell.phantom)
                corner(colors::warning());
            if (cell.state == Cell::Allocated && down) {
                // Held on a node that is down: the GPUs are lost until the pods go.
                p.setPen(QPen(colors::error(), 2));
                p.drawLine(r.topLeft() + QPoint(3, 3), r.bottomRight() - QPoint(3, 3));
                p.setPen(Qt::NoPen);
            }
        }
    }
}

std::pair<int, int> GpuMapView::hit(const QPoint &pos) const
{
    for (int i = 0; i < m_nodes.size(); ++i) {
        const QRect block = blockRect(i);
        if (!block.contains(pos))
            continue;
        const int x = pos.x() - block.left() - m_labelWidth;
        const int n = int(m_nodes[i].cells.size());
        const int size = n > 8 ? (8 * (m_cell + kGap)) / n - kGap : m_cell;
        const int card = x < 0 ? -1 : x / (size + kGap);
        return {i, card < n ? card : -1};
    }
    return {-1, -1};
}

bool GpuMapView::event(QEvent *event)
{
    if (event->type() != QEvent::ToolTip)
        return QWidget::event(event);
    auto *help = static_cast<QHelpEvent *>(event);
    const auto [node, card] = hit(help->pos());
    if (node < 0) {
        QToolTip::hideText();
        return true;
    }
    const NodeCells &n = m_nodes[node];
    QString text = QStringLiteral("<b>%1</b> (%2)").arg(n.name.toHtmlEscaped(), n.status);
    if (card >= 0) {
        const Cell &cell = n.cells[card];
        text += QStringLiteral("<br>") + tr("GPU slot %1").arg(card) + QStringLiteral(": ");
        switch (cell.state) {
        case Cell::Free:
            text += tr("free");
            break;
        case Cell::Unavailable:
            text += tr("not schedulable (node not ready or cordoned)");
            break;
        case Cell::Allocated:
            if (const PodInfo *p = m_store->pod(cell.podUid))
                text += tr("pod %1/%2<br>user %3, VC %4, %n GPU(s)", nullptr, p->gpuRequest)
                            .arg(p->ns.toHtmlEscaped(), p->name.toHtmlEscaped(),
                                 cell.user.toHtmlEscaped(), m_store->vcOf(*p).toHtmlEscaped());
            break;
        }
        if (cell.utilization >= 0)
            text += QStringLiteral("<br>") + tr("utilization %1 %, memory %2 of %3 MiB")
                                                 .arg(cell.utilization)
                                                 .arg(cell.memoryUsedMiB)
                                                 .arg(cell.memoryTotalMiB);
        if (cell.phantom)
            text += QStringLiteral("<br><b>") +
                    tr("Phantom: memory is held but no process is listed.") +
                    QStringLiteral("</b>");
        if (cell.unattributed)
            text += QStringLiteral("<br><b>") + tr("A process here belongs to no live pod.") +
                    QStringLiteral("</b>");
        for (const QString &line : cell.processes)
            text += QStringLiteral("<br>") + line.toHtmlEscaped();
    }
    QToolTip::showText(help->globalPos(), text, this);
    return true;
}

void GpuMapView::mouseDoubleClickEvent(QMouseEvent *event)
{
    const auto [node, card] = hit(event->pos());
    if (node >= 0)
        emit nodeActivated(m_nodes[node].name);
}

} // namespace gpudesk
