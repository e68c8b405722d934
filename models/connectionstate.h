// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "clustersummary.h"

#include <QObject>
#include <QString>

namespace gpudesk {

// Where the connection to the chosen context stands, for the window to show.
class ConnectionState : public QObject
{
    Q_OBJECT
public:
    enum class State
    {
        Idle,
        Connecting,
        Connected,
        Failed
    };
    Q_ENUM(State)

    explicit ConnectionState(QObject *parent = nullptr) : QObject(parent) {}

    State state() const { return m_state; }
    QString context() const { return m_context; }
    QString server() const { return m_server; }
    QString error() const { return m_error; }
    bool tlsVerified() const { return m_tlsVerified; }
    const ClusterSummary &summary() const { return m_summary; }

    void setConnecting(const QString &context, const QString &server, bool tlsVerified);
    void setConnected(const ClusterSummary &summary);
    void setFailed(const QString &context, const QString &error);

signals:
    void changed();

private:
    State m_state = State::Idle;
    QString m_context;
    QString m_server;
    QString m_error;
    bool m_tlsVerified = true;
    ClusterSummary m_summary;
};

} // namespace gpudesk
