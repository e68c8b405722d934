// SPDX-License-Identifier: GPL-3.0-or-later
#include "verdictpanel.h"

#include "palette.h"

#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace gpudesk {

VerdictPanel::VerdictPanel(QWidget *parent)
    : QWidget(parent), m_summary(new QLabel(this)), m_reasons(new QLabel(this)),
      m_split(new QPushButton(this))
{
    m_summary->setObjectName(QStringLiteral("verdictSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = m_summary->font();
    bold.setBold(true);
    m_summary->setFont(bold);
    m_reasons->setObjectName(QStringLiteral("verdictReasons"));
    m_reasons->setWordWrap(true);
    m_reasons->setTextFormat(Qt::RichText);
    m_reasons->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_reasons->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_split->setObjectName(QStringLiteral("applySplit"));
    m_split->setVisible(false);
    connect(m_split, &QPushButton::clicked, this,
            [this] { emit splitRequested(m_splitNodes, m_splitGpus); });
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_summary);
    layout->addWidget(m_reasons);
    layout->addWidget(m_split, 0, Qt::AlignLeft);
    layout->addStretch(1);
}

void VerdictPanel::showChecking()
{
    m_summary->setText(tr("Checking whether it will start…"));
    m_summary->setStyleSheet(QString());
}

void VerdictPanel::showError(const QString &message)
{
    m_summary->setText(message);
    m_summary->setStyleSheet(colors::errorStyle(palette()));
    m_reasons->clear();
    m_split->setVisible(false);
}

void VerdictPanel::showVerdict(const StartVerdict &v)
{
    const QColor colour = v.kind == StartVerdict::Never   ? colors::errorText(palette())
                          : v.kind == StartVerdict::Waits ? colors::waitingText(palette())
                                                          : colors::okText(palette());
    m_summary->setText(v.summary());
    m_summary->setStyleSheet(QStringLiteral("color: %1;").arg(colour.name()));
    QString html;
    for (const StartReason &r : v.reasons) {
        const QString mark = r.severity == StartReason::Never     ? tr("Never")
                             : r.severity == StartReason::Waits   ? tr("Waits")
                             : r.severity == StartReason::Warning ? tr("Warning")
                                                                  : tr("Note");
        html += QStringLiteral("<p><b>%1</b> %2").arg(mark, r.message.toHtmlEscaped());
        if (!r.fix.isEmpty())
            html += QStringLiteral("<br>&nbsp;&nbsp;→ %1").arg(r.fix.toHtmlEscaped());
        html += QStringLiteral("</p>");
    }
    if (!v.placement.isEmpty()) {
        QStringList where;
        for (const StartPlacement &p : v.placement)
            where << tr("%1: %n pod(s) on %2 (%3 of %4 free GPUs left)", nullptr, p.pods)
                         .arg(p.role, p.node)
                         .arg(p.freeAfter)
                         .arg(p.freeBefore)
                         .toHtmlEscaped();
        html += QStringLiteral("<p>%1</p>").arg(where.join(QStringLiteral("<br>")));
    }
    m_reasons->setText(html);
    // The split that fits: bigger than any node (never), or scattered cards (a one-pod job).
    m_splitNodes = m_splitGpus = 0;
    for (const StartReason &r : v.reasons) {
        const int nodes =
            r.numbers
                .value(r.code == QLatin1String("gpus-per-node") ? QStringLiteral("suggestedNodes")
                                                                : QStringLiteral("suggestedPods"))
                .toInt();
        const int gpus = r.numbers
                             .value(r.code == QLatin1String("gpus-per-node")
                                        ? QStringLiteral("suggestedGpusPerNode")
                                        : QStringLiteral("suggestedGpusPerPod"))
                             .toInt();
        if (nodes > 1 && gpus > 0) {
            m_splitNodes = nodes;
            m_splitGpus = gpus;
            break;
        }
    }
    m_split->setText(tr("Run it as %1 × %2 GPUs (distributed)").arg(m_splitNodes).arg(m_splitGpus));
    m_split->setVisible(m_splitNodes > 0);
}

QString VerdictPanel::summaryText() const
{
    return m_summary->text();
}

QString VerdictPanel::reasonsText() const
{
    return m_reasons->text();
}

} // namespace gpudesk
