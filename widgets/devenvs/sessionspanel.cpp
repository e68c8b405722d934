// SPDX-License-Identifier: GPL-3.0-or-later
#include "sessionspanel.h"

#include "palette.h"

#include "format.h"
#include "tunnelsservice.h"

#include <QApplication>
#include <QClipboard>
#include <QDateTime>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace gpudesk {

namespace {

QString stateText(const TunnelInfo &t)
{
    switch (t.state) {
    case TunnelInfo::State::Starting:
        return SessionsPanel::tr("starting");
    case TunnelInfo::State::Live:
        return SessionsPanel::tr("live, into %1").arg(t.pod);
    case TunnelInfo::State::Reconnecting:
        return SessionsPanel::tr("reconnecting: %1").arg(t.reason);
    case TunnelInfo::State::Failed:
        return SessionsPanel::tr("failed: %1").arg(t.reason);
    case TunnelInfo::State::Closed:
        return SessionsPanel::tr("closed");
    }
    return {};
}

} // namespace

SessionsPanel::SessionsPanel(TunnelsService *tunnels, QWidget *parent)
    : QWidget(parent), m_tunnels(tunnels), m_title(new QLabel(this)),
      m_table(new QTableWidget(0, ColumnCount, this)),
      m_copy(new QPushButton(tr("Copy address"), this)),
      m_close(new QPushButton(tr("Close tunnel"), this))
{
    m_table->setObjectName(QStringLiteral("sessionsTable"));
    m_table->setHorizontalHeaderLabels({tr("Environment"), tr("Service"), tr("Local address"),
                                        tr("State"), tr("In / out"), tr("Since")});
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(State, QHeaderView::Stretch);
    m_table->setWordWrap(false);
    m_close->setObjectName(QStringLiteral("closeTunnel"));
    m_copy->setObjectName(QStringLiteral("copyTunnel"));
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    connect(m_tunnels, &TunnelsService::tunnelChanged, this, &SessionsPanel::update);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &SessionsPanel::updateButtons);
    connect(m_close, &QPushButton::clicked, this, [this] {
        if (const QTableWidgetItem *i = m_table->item(m_table->currentRow(), 0))
            m_tunnels->close(i->data(Qt::UserRole).toInt());
    });
    connect(m_copy, &QPushButton::clicked, this, [this] {
        if (const QTableWidgetItem *i = m_table->item(m_table->currentRow(), Address))
            QApplication::clipboard()->setText(i->text());
    });
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_title, 1);
    bar->addWidget(m_copy);
    bar->addWidget(m_close);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(m_table, 1);
    for (const TunnelInfo &t : m_tunnels->tunnels())
        update(t.id);
    updateButtons();
}

int SessionsPanel::rowOf(int id) const
{
    for (int r = 0; r < m_table->rowCount(); ++r)
        if (m_table->item(r, 0)->data(Qt::UserRole).toInt() == id)
            return r;
    return -1;
}

void SessionsPanel::update(int id)
{
    const TunnelInfo t = m_tunnels->tunnel(id);
    int row = rowOf(id);
    if (t.id == 0 || t.state == TunnelInfo::State::Closed) {
        if (row >= 0)
            m_table->removeRow(row);
        updateButtons();
        return;
    }
    if (row < 0) {
        row = m_table->rowCount();
        m_table->insertRow(row);
        for (int c = 0; c < ColumnCount; ++c)
            m_table->setItem(row, c, new QTableWidgetItem);
        m_table->item(row, 0)->setData(Qt::UserRole, id);
    }
    const QString texts[ColumnCount] = {
        t.ns + u'/' + t.environment,
        t.service,
        QStringLiteral("127.0.0.1:%1").arg(t.localPort),
        stateText(t),
        tr("%1 / %2").arg(format::bytes(t.bytesIn), format::bytes(t.bytesOut)),
        QLocale().toString(t.opened.toLocalTime().time(), QLocale::ShortFormat)};
    for (int c = 0; c < ColumnCount; ++c)
        m_table->item(row, c)->setText(texts[c]);
    m_table->item(row, State)->setToolTip(texts[State]);
    const QPalette &pal = m_table->palette();
    const QColor color = t.state == TunnelInfo::State::Live     ? colors::okText(pal)
                         : t.state == TunnelInfo::State::Failed ? colors::errorText(pal)
                                                                : colors::waitingText(pal);
    m_table->item(row, State)->setForeground(color);
    updateButtons();
}

void SessionsPanel::updateButtons()
{
    const int n = m_table->rowCount();
    m_title->setText(n == 0 ? tr("No tunnels open") : tr("%n tunnel(s) open", nullptr, n));
    const bool selected = m_table->currentRow() >= 0 && !m_table->selectedItems().isEmpty();
    m_copy->setEnabled(selected);
    m_close->setEnabled(selected);
}

} // namespace gpudesk
