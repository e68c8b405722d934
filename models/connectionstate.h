// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "clustersummary.h"
#include "collectionstatus.h"

#include <QDateTime>
#include <QList>
#include <QObject>
#include <QString>

namespace gpudesk {

// Where the connection to the chosen context stands, computed from every source that feeds the
// window (the API server, each collection's informer, the nodes' SSH links), so that no two
// parts of the window disagree: one state, and one answer to "are these figures current?".
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
    const QList<InformerStatus> &collections() const { return m_collections; }
    const InformerStatus *collection(Resource r) const;
    QString serverError() const { return m_serverError; }

    // The figures on screen are not current: the server cannot be reached, or a collection that
    // had synced is retrying. Since when, and why in a sentence; "" / invalid when they are.
    bool isStale() const { return m_staleSince.isValid(); }
    QDateTime staleSince() const { return m_staleSince; }
    QString staleReason() const { return m_staleReason; }
    // The namespace pods are listed in when the account may not list them everywhere ("" when
    // it may): every pod-derived figure is then partial.
    QString podsScope() const;
    // Volcano's queues are served (VCs exist on this cluster).
    bool hasVolcano() const;
    // Why a page has no figure of the cluster to show ("" when it has): not connected, or still
    // connecting with nothing read yet (`nothingRead`). A reconnection to the same cluster keeps
    // what was read: the banner says it is not current.
    QString noFigures(bool nothingRead) const;

    void setConnecting(const QString &context, const QString &server, bool tlsVerified);
    void setConnected(const ClusterSummary &summary);
    void setFailed(const QString &context, const QString &error);
    void setCollections(const QList<InformerStatus> &collections);
    // "" when the server answers again.
    void setServerError(const QString &error, const QDateTime &since);

signals:
    void changed();

private:
    void updateStaleness();

    State m_state = State::Idle;
    QString m_context;
    QString m_server;
    QString m_error;
    bool m_tlsVerified = true;
    ClusterSummary m_summary;
    QList<InformerStatus> m_collections;
    QString m_serverError;
    QDateTime m_serverErrorSince;
    QDateTime m_staleSince;
    QString m_staleReason;
};

} // namespace gpudesk
