// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMainWindow>

class QComboBox;
class QFrame;
class QLabel;

namespace gpudesk {

class ConnectionState;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(ConnectionState *state, QWidget *parent = nullptr);
    void setContexts(const QStringList &contexts, const QString &current);

signals:
    void contextRequested(const QString &context);
    void reconnectRequested();

private:
    void updateFromState();
    QFrame *numberCard(QLabel **valueLabel, const QString &caption);

    ConnectionState *m_state;
    QComboBox *m_contexts;
    QLabel *m_headline;
    QLabel *m_detail;
    QLabel *m_warning;
    QLabel *m_gpus = nullptr;
    QLabel *m_nodes = nullptr;
    QLabel *m_version = nullptr;
    QLabel *m_statusContext;
    QLabel *m_statusState;
};

} // namespace gpudesk
