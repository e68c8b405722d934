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
        const NodeCards &n = m_nodes[i];
        const bool down = n.down;
        p.setPen(down ? colors::error() : pal.color(QPalette::WindowText));
        p.drawText(QRect(block.left(), block.top(), m_labelWidth - 6, m_cell),
                   Qt::AlignRight | Qt::AlignVCenter,
                   fontMetrics().elidedText(n.name, Qt::ElideMiddle, m_labelWidth - 6));
        p.setPen(Qt::NoPen);
        for (int c = 0; c < n.cells.size(); ++c) {
            const CardCell &cell = n.cells[c];
            // Nodes with more than eight cards continue on the same line, smaller.
            const int size =
                n.cells.size() > 8 ? (8 * (m_cell + kGap)) / n.cells.size() - kGap : m_cell;
            const QRect r(block.left() + m_labelWidth + c * (size + kGap), block.top(), size,
                          m_cell);
            QColor color;
            switch (cell.state) {
            case CardCell::Free:
                color = colors::free();
                break;
            case CardCell::Allocated:
                color = colors::forName(cell.user);
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
            if (cell.state == CardCell::Unknown) {
                // Not known to be free or taken: an outline, never the green of "free".
                p.setBrush(Qt::NoBrush);
                p.setPen(QPen(colors::unavailable(pal), 1.5, Qt::DashLine));
                p.drawRoundedRect(QRectF(r).adjusted(0.75, 0.75, -0.75, -0.75), 3, 3);
                p.setPen(Qt::NoPen);
            } else {
                p.setBrush(color);
                p.drawRoundedRect(r, 3, 3);
            }
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
            if (cell.state == CardCell::Allocated && down) {
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
    const NodeCards &n = m_nodes[node];
    QString text = QStringLiteral("<b>%1</b> (%2)").arg(n.name.toHtmlEscaped(), n.status);
    if (card >= 0) {
        const CardCell &cell = n.cells[card];
        text += QStringLiteral("<br>") + tr("GPU slot %1").arg(card) + QStringLiteral(": ");
        switch (cell.state) {
        case CardCell::Free:
            text += tr("free");
            break;
        case CardCell::Unavailable:
            text += tr("not schedulable (node not ready or cordoned)");
            break;
        case CardCell::InUseHidden:
            text += tr("in use by a pod not visible to you");
            break;
        case CardCell::Unknown:
            text += tr("not known: your account cannot see other users' pods");
            break;
        case CardCell::Allocated:
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
