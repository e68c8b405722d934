// SPDX-License-Identifier: GPL-3.0-or-later
#include "harborpanel.h"

#include "format.h"
#include "harborreader.h"
#include "imagesservice.h"
#include "palette.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace gpudesk {

HarborPanel::HarborPanel(ImagesService *service, QWidget *parent)
    : QWidget(parent), m_service(service), m_text(new QLabel(this)),
      m_untagged(new QCheckBox(this)), m_collect(new QPushButton(tr("Garbage collection…"), this))
{
    m_collect->setObjectName(QStringLiteral("harborGc"));
    m_collect->setToolTip(tr("Plan Harbor's garbage collection: checking the plan runs Harbor's "
                             "dry run, which says what it could free; the run gives the space "
                             "back and its log says how much."));
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::RichText);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_untagged);
    layout->addWidget(m_collect);
    connect(m_collect, &QPushButton::clicked, this,
            [this] { emit collectRequested(m_untagged->isVisible() && m_untagged->isChecked()); });
    refresh(false);
}

void HarborPanel::refresh(bool busy)
{
    const HarborReader *h = m_service->harbor();
    const bool harbor = h && h->isHarbor();
    setVisible(harbor);
    if (!harbor) {
        // Hidden, and said so where the menu mirrors the button.
        m_collect->setEnabled(false);
        m_collect->setToolTip(tr("The registry read last is no Harbor: a docker-registry's "
                                 "operator runs its garbage collection on the registry's host."));
        return;
    }
    QStringList projects;
    const QColor warn = colors::errorText(palette());
    for (const HarborProject &p : h->projects()) {
        QString line = p.name.toHtmlEscaped() + QStringLiteral(" ") + format::bytes(p.quotaUsed);
        if (p.quotaHard > 0) {
            const double share = double(p.quotaUsed) / double(p.quotaHard);
            line = tr("%1 %2 of %3 (%4 %)")
                       .arg(p.name.toHtmlEscaped(), format::bytes(p.quotaUsed),
                            format::bytes(p.quotaHard))
                       .arg(qRound(share * 100));
            if (share >= NearlyFull)
                line = QStringLiteral("<span style=\"color:%1\"><b>%2</b></span>")
                           .arg(warn.name(), line);
        }
        projects << line;
    }
    const QList<HarborArtifact> untagged = h->untagged();
    qint64 untaggedBytes = 0;
    for (const HarborArtifact &a : untagged)
        untaggedBytes += a.size;
    QString html = tr("<b>Harbor %1</b> — projects: %2")
                       .arg(h->info()->version.toHtmlEscaped(),
                            projects.isEmpty() ? tr("none visible to this login")
                                               : projects.join(QStringLiteral(" · ")));
    if (!untagged.isEmpty())
        html += QStringLiteral("<br>") +
                tr("%n untagged artifact(s) (%1): no tag names them; garbage collection can "
                   "delete them.",
                   nullptr, int(untagged.size()))
                    .arg(format::bytes(untaggedBytes));
    m_text->setText(html);
    m_untagged->setText(tr("Delete the %n untagged first", nullptr, int(untagged.size())));
    m_untagged->setVisible(!untagged.isEmpty());
    m_collect->setEnabled(!busy);
    m_collect->setToolTip(busy ? tr("Not while the registry is being read.")
                               : tr("Plan Harbor's garbage collection: checking the plan runs "
                                    "Harbor's dry run, which says what it could free; the run "
                                    "gives the space back and its log says how much."));
}

} // namespace gpudesk
