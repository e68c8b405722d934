// SPDX-License-Identifier: GPL-3.0-or-later
#include "gpumapview.h"

#include "clusterstore.h"
#include "nodesmodel.h"
#include "palette.h"

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
