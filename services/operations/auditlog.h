// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace gpudesk {

struct OperationPlan;
struct StepOutcome;

// The record of what gpudesk did to clusters and nodes: an append-only JSON-lines file in the
// user's data directory, one line when an operation starts (its plan) and one when it ends
// (each step's result and verification). Lines are written whole and flushed at once, so a
// crash leaves at most the end record of the running operation missing.
class AuditLog
{
    Q_DECLARE_TR_FUNCTIONS(AuditLog)

public:
    explicit AuditLog(QString path = defaultPath());
    static QString defaultPath(); // <AppDataLocation>/audit.jsonl
    QString path() const { return m_path; }

    // `error` says why a line could not be written (the operation is not run then).
    bool append(const QJsonObject &record, QString *error) const;
    // The last `max` records, oldest first; lines that are not JSON objects are skipped.
    QList<QJsonObject> read(int max = 1000) const;

    static QJsonObject started(const QString &id, const QString &who, const OperationPlan &plan);
    static QJsonObject ended(const QString &id, const QString &who, const OperationPlan &plan,
                             const QList<StepOutcome> &outcomes, bool cancelled);
    // An action that is not a plan of steps (a kubeconfig handed out): what, on what, and how
    // it ended, in one record. `details` holds no secret.
    static QJsonObject done(const QString &who, const QString &context, const QString &server,
                            const QString &action, const QString &title, const QString &outcome,
                            const QJsonObject &details);

private:
    QString m_path;
};

} // namespace gpudesk
