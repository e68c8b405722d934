// SPDX-License-Identifier: GPL-3.0-or-later
#include "mainwindow.h"

#include "connectionstate.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFrame>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QStatusBar>
#include <QStyle>
#include <QToolBar>
#include <QVBoxLayout>

namespace gpudesk {

MainWindow::MainWindow(ConnectionState *state, QWidget *parent)
    : QMainWindow(parent), m_state(state), m_contexts(new QComboBox(this)),
      m_headline(new QLabel(this)), m_detail(new QLabel(this)), m_warning(new QLabel(this)),
      m_statusContext(new QLabel(this)), m_statusState(new QLabel(this))
{
    setWindowTitle(tr("gpudesk"));
    resize(1100, 680);

    auto *toolbar = addToolBar(tr("Cluster"));
    toolbar->setObjectName(QStringLiteral("clusterToolBar"));
    toolbar->setMovable(false);
    toolbar->addWidget(new QLabel(tr("Context:"), this));
    m_contexts->setMinimumWidth(220);
    m_contexts->setToolTip(tr("The kubeconfig context to connect to"));
    toolbar->addWidget(m_contexts);
    auto *reconnect =
        toolbar->addAction(style()->standardIcon(QStyle::SP_BrowserReload), tr("Reconnect"));
    reconnect->setShortcut(QKeySequence::Refresh);
    connect(reconnect, &QAction::triggered, this, &MainWindow::reconnectRequested);
    connect(m_contexts, &QComboBox::activated, this,
            [this](int index) { emit contextRequested(m_contexts->itemText(index)); });

    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(32, 24, 32, 24);
    layout->setSpacing(16);
    QFont big = m_headline->font();
    big.setPointSizeF(big.pointSizeF() * 1.6);
    big.setBold(true);
    m_headline->setFont(big);
    m_detail->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_detail->setWordWrap(true);
    m_warning->setWordWrap(true);
    m_warning->setStyleSheet(
        QStringLiteral("QLabel { background: #fff4ce; color: #5c4400; border: 1px solid #e0c060; "
                       "padding: 8px; border-radius: 4px; }"));
    layout->addWidget(m_headline);
    layout->addWidget(m_detail);
    layout->addWidget(m_warning);
    auto *cards = new QHBoxLayout;
    cards->setSpacing(16);
    cards->addWidget(numberCard(&m_gpus, tr("GPUs (allocatable)")));
    cards->addWidget(numberCard(&m_nodes, tr("Nodes ready / total")));
    cards->addWidget(numberCard(&m_version, tr("Kubernetes version")));
    layout->addLayout(cards);
    layout->addStretch(1);
    setCentralWidget(central);

    statusBar()->addWidget(m_statusContext);
    statusBar()->addPermanentWidget(m_statusState);

    connect(m_state, &ConnectionState::changed, this, &MainWindow::updateFromState);
    updateFromState();
}

QFrame *MainWindow::numberCard(QLabel **valueLabel, const QString &caption)
{
    auto *card = new QFrame(this);
    card->setFrameShape(QFrame::StyledPanel);
    card->setMinimumHeight(110);
    auto *v = new QVBoxLayout(card);
    auto *value = new QLabel(QStringLiteral("–"), card);
    QFont f = value->font();
    f.setPointSizeF(f.pointSizeF() * 2.4);
    f.setBold(true);
    value->setFont(f);
    auto *label = new QLabel(caption, card);
    label->setForegroundRole(QPalette::PlaceholderText);
    v->addWidget(value);
    v->addWidget(label);
    *valueLabel = value;
    return card;
}

void MainWindow::setContexts(const QStringList &contexts, const QString &current)
{
    m_contexts->clear();
    m_contexts->addItems(contexts);
    m_contexts->setCurrentText(current);
}

void MainWindow::updateFromState()
{
    const auto &s = m_state->summary();
    m_statusContext->setText(m_state->context().isEmpty()
                                 ? tr("No context")
                                 : tr("Context: %1").arg(m_state->context()));
    m_warning->setVisible(!m_state->tlsVerified() &&
                          m_state->state() != ConnectionState::State::Idle);
    m_warning->setText(tr("TLS verification is off for this context (insecure-skip-tls-verify): "
                          "gpudesk cannot tell this server from an impostor."));
    switch (m_state->state()) {
    case ConnectionState::State::Idle:
        m_headline->setText(tr("Not connected"));
        m_detail->setText(tr("Choose a kubeconfig context to connect to."));
        m_statusState->setText(tr("Idle"));
        break;
    case ConnectionState::State::Connecting:
        m_headline->setText(tr("Connecting to %1…").arg(m_state->context()));
        m_detail->setText(m_state->server());
        m_statusState->setText(tr("Connecting"));
        break;
    case ConnectionState::State::Connected:
        m_headline->setText(tr("Connected to %1").arg(m_state->context()));
        m_detail->setText(m_state->server());
        m_statusState->setText(tr("Connected"));
        break;
    case ConnectionState::State::Failed:
        m_headline->setText(tr("Cannot connect to %1").arg(m_state->context()));
        m_detail->setText(m_state->error());
        m_statusState->setText(tr("Failed"));
        break;
    }
    const bool connected = m_state->state() == ConnectionState::State::Connected;
    m_gpus->setText(connected ? QString::number(s.gpus) : QStringLiteral("–"));
    m_nodes->setText(connected ? tr("%1 / %2").arg(s.readyNodes).arg(s.nodes)
                               : QStringLiteral("–"));
    m_version->setText(connected ? s.serverVersion : QStringLiteral("–"));
}

} // namespace gpudesk
