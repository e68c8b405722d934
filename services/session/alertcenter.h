// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "alertrules.h"
#include "problems.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QTimer>

namespace gpudesk {

class ClusterStore;
class ConnectionState;
class FindingsService;
class RegistryWatch;
class StorageService;
class TelemetryStore;

// A condition as the admin hears of it: raised once when it starts, quiet once acknowledged,
// gone when it clears — and raised again if it returns.
struct Alert
{
    Problem problem;
    QString rule;        // AlertRules' id
    qint64 raisedAt = 0; // when gpudesk saw it start this time (ms since the epoch)
    bool acknowledged = false;
    QString target; // where a click goes: "node:NAME", "page:cleanup", "page:overview"
};

// One desktop notification: a single alert, or many of one rule that started together.
struct AlertNotice
{
    QString key; // the alert's key, or "group:RULE" (a later group of the rule replaces it)
    QString summary;
    QString body;
    bool critical = false;
    QString target;
};

// Watches the rules (Problems, plus those that need a history: flapping nodes, new Cleanup
// findings, an API server that stopped answering) and keeps the alerts that fire, with since
// when and whether the admin acknowledged them. Raised alerts are told in batches: those that
// start within a couple of seconds of each other (many nodes failing at once) make one batch,
// which notices() groups by rule, so that an outage is one notification and not a storm.
// While the figures are stale (the API server not answering) nothing is cleared or raised from
// them: only the API server's own alert changes.
class AlertCenter : public QObject
{
    Q_OBJECT
public:
    static constexpr int BatchMs = 2000; // raises within this of the first make one batch
    static constexpr int GroupFrom = 3;  // this many of one rule in a batch: one notice
    static constexpr int SettleMs = 500; // store updates within this make one evaluation

    AlertCenter(ClusterStore *store, TelemetryStore *telemetry, ConnectionState *state,
                QObject *parent = nullptr);

    void setFindings(FindingsService *findings);
    void setRegistryWatch(RegistryWatch *watch);
    void setStorage(StorageService *storage);
    const AlertRules &rules() const { return m_rules; }
    // Takes effect at once (alerts a rule no longer raises clear).
    void setRules(const AlertRules &rules);

    // Critical first, then the oldest.
    QList<Alert> alerts() const;
    int unacknowledged() const;
    // The worst severity among alerts not acknowledged; Warning + 1 when there is none.
    int worstUnacknowledged() const;
    // Quiet until the condition clears (and returns).
    void acknowledge(const QString &key);
    void acknowledgeAll();
    // Whether every rule has been evaluated on current figures at least once.
    bool hasEvaluated() const { return m_evaluated; }

    // A batch of raised alerts, one notice per alert, or per rule where GroupFrom or more of a
    // rule started together.
    static QList<AlertNotice> notices(const QList<Alert> &raised, const QString &context);

signals:
    void changed();
    // Alerts that started (or started again) and are not acknowledged, in one batch.
    void raised(const QList<Alert> &alerts);

public slots:
    // Evaluates the rules now (normally a moment after the figures change).
    void evaluate();

private:
    void schedule();
    void reset();
    void flush();
    QList<Problem> historyProblems(const QList<Problem> &now, qint64 nowMs);
    void apiServerProblem(qint64 nowMs, QList<Problem> &out);
    void registryProblems(QList<Problem> &out) const;
    void storageProblems(QList<Problem> &out) const;

    ClusterStore *m_store;
    TelemetryStore *m_telemetry;
    ConnectionState *m_state;
    FindingsService *m_findings = nullptr;
    RegistryWatch *m_registries = nullptr;
    StorageService *m_storage = nullptr;
    AlertRules m_rules;
    QTimer m_settle;
    QTimer m_tick; // the API server's grace and telemetry's ageing pass without any update
    QTimer m_batch;
    QHash<QString, Alert> m_active;
    QHash<QString, QList<qint64>> m_notReadyRaises; // per node, for flapping
    QList<Alert> m_pending;
    QString m_context;
    bool m_evaluated = false;
    qint64 m_downSince = 0; // the API server not answering since (ms), 0 while it answers
};

} // namespace gpudesk
