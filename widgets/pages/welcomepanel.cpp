// SPDX-License-Identifier: GPL-3.0-or-later
#include "welcomepanel.h"

#include "noticebanner.h"

#include "palette.h"

#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace gpudesk {

WelcomePanel::WelcomePanel(QWidget *parent)
    : QWidget(parent), m_where(new QLabel(this)), m_error(new QLabel(this)),
      m_choose(new QPushButton(tr("Choose a kubeconfig file…"), this))
{
    setObjectName(QStringLiteral("welcome"));
    auto *title = new QLabel(tr("Welcome to gpudesk"), this);
    QFont big = title->font();
    big.setPointSizeF(big.pointSizeF() * 1.6);
    big.setBold(true);
    title->setFont(big);
    auto *intro = new QLabel(
        tr("gpudesk connects to a Kubernetes cluster with a kubeconfig, as kubectl does: the "
           "files named by $KUBECONFIG (separated by colons), else ~/.kube/config. Your "
           "cluster's admin gives you one, or `kubectl config view --raw` prints the one you "
           "use."),
        this);
    intro->setWordWrap(true);
    m_where->setObjectName(QStringLiteral("welcomeWhere"));
    m_where->setWordWrap(true);
    m_where->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setObjectName(QStringLiteral("welcomeError"));
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    showAsError(m_error, true);
    m_choose->setObjectName(QStringLiteral("chooseKubeconfig"));
    auto *demo = new QLabel(
        tr("No cluster at hand? `make demo` in gpudesk's sources starts a simulated GPU cluster "
           "and opens gpudesk on it."),
        this);
    demo->setWordWrap(true);
    // A fixed width: the wrapped labels' heights are then computed for the width they get.
    auto *column = new QWidget(this);
    column->setFixedWidth(fontMetrics().averageCharWidth() * 90);
    auto *cl = new QVBoxLayout(column);
    cl->setSpacing(14);
    cl->addWidget(title);
    cl->addWidget(intro);
    cl->addWidget(m_where);
    cl->addWidget(m_error);
    cl->addWidget(m_choose, 0, Qt::AlignLeft);
    cl->addSpacing(12);
    cl->addWidget(demo);
    // Centred by stretches, not by an alignment flag: an aligned widget gets its plain size hint,
    // and word-wrapped labels in it lose their second lines.
    auto *row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(column);
    row->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->addStretch(1);
    layout->addLayout(row);
    layout->addStretch(2);
    connect(m_choose, &QPushButton::clicked, this, [this] {
        if (const QString path = askForKubeconfig(this); !path.isEmpty())
            emit kubeconfigChosen(path);
    });
}

QString WelcomePanel::askForKubeconfig(QWidget *parent)
{
    return QFileDialog::getOpenFileName(
        parent, tr("Choose a kubeconfig file"), QDir::homePath() + QStringLiteral("/.kube"),
        tr("kubeconfig files (*config* *.yaml *.yml *.conf);;All files (*)"));
}

void WelcomePanel::setProblem(const QStringList &looked, const QString &error)
{
    m_where->setText(looked.isEmpty() ? QString()
                                      : tr("Looked at: %1").arg(looked.join(QStringLiteral(", "))));
    m_error->setText(error);
}

QString WelcomePanel::text() const
{
    return m_where->text() + u'\n' + m_error->text();
}

} // namespace gpudesk
