// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

namespace gpudesk {

class TunnelsService;

// The tunnels open into dev environments: where each leads, its local address, whether it is
// live, reconnecting (and why) or failed, the bytes through it and how many connections use it;
// copy an address, close a tunnel. Rows change in place as tunnels report.
class SessionsPanel : public QWidget
{
    Q_OBJECT
public:
    enum Column
    {
        Environment,
        Service,
        Address,
        State,
        Traffic,
        Since,
        ColumnCount
    };
    explicit SessionsPanel(TunnelsService *tunnels, QWidget *parent = nullptr);
    QTableWidget *table() const { return m_table; }
    // The row of a tunnel (-1 none).
    int rowOf(int id) const;

private:
    void update(int id);
    void updateButtons();

    TunnelsService *m_tunnels;
    QLabel *m_title;
    QTableWidget *m_table;
    QPushButton *m_copy;
    QPushButton *m_close;
};

} // namespace gpudesk
