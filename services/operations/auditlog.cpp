// SPDX-License-Identifier: GPL-3.0-or-later
#include "auditlog.h"

#include "operationjson.h"
#include "operationplan.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QUuid>

namespace gpudesk {

namespace {

QJsonObject header(const QString &event, const QString &id, const QString &who,
                   const OperationPlan &plan)
{
    return {{QStringLiteral("event"), event},
            {QStringLiteral("time"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs)},
            {QStringLiteral("operation"), id},
            {QStringLiteral("who"), who},
            {QStringLiteral("context"), plan.context},
            {QStringLiteral("server"), plan.server},
            {QStringLiteral("action"), plan.action},
            {QStringLiteral("title"), plan.title}};
}

} // namespace

AuditLog::AuditLog(QString path) : m_path(std::move(path)) {}

QString AuditLog::defaultPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) +
           QStringLiteral("/audit.jsonl");
}

bool AuditLog::append(const QJsonObject &record, QString *error) const
{
    QDir().mkpath(QFileInfo(m_path).absolutePath());
    QFile f(m_path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Append)) {
        *error = tr("Cannot write the audit log %1: %2").arg(m_path, f.errorString());
        return false;
    }
    // Who did what to whose jobs, and why: the admin's own, not every local user's (a log made
    // readable by an older gpudesk is narrowed too).
    if (!f.setPermissions(QFile::ReadOwner | QFile::WriteOwner)) {
        *error = tr("Cannot make the audit log %1 private: %2").arg(m_path, f.errorString());
        return false;
    }
    const QByteArray line = QJsonDocument(record).toJson(QJsonDocument::Compact) + '\n';
    if (f.write(line) != line.size() || !f.flush()) {
        *error = tr("Cannot write the audit log %1: %2").arg(m_path, f.errorString());
        return false;
    }
    return true;
}

QList<QJsonObject> AuditLog::read(int max) const
{
    QList<QJsonObject> out;
    QFile f(m_path);
    if (!f.open(QIODevice::ReadOnly))
        return out;
    while (!f.atEnd()) {
        const QByteArray line = f.readLine().trimmed();
        if (line.isEmpty())
            continue;
        const QJsonDocument d = QJsonDocument::fromJson(line);
        if (d.isObject())
            out.append(d.object());
        if (out.size() > max)
            out.removeFirst();
    }
    return out;
}

QJsonObject AuditLog::started(const QString &id, const QString &who, const OperationPlan &plan)
{
    QJsonObject o = header(QStringLiteral("started"), id, who, plan);
    QJsonArray steps;
    for (const PlanStep &s : plan.steps)
        steps.append(json::step(s));
    o.insert(QStringLiteral("plan"), steps);
    if (!plan.notes.isEmpty())
        o.insert(QStringLiteral("notes"), QJsonArray::fromStringList(plan.notes));
    return o;
}

QJsonObject AuditLog::ended(const QString &id, const QString &who, const OperationPlan &plan,
                            const QList<StepOutcome> &outcomes, bool cancelled)
{
    QJsonObject o = header(QStringLiteral("ended"), id, who, plan);
    o.insert(QStringLiteral("results"), json::results(plan, outcomes));
    o.insert(QStringLiteral("cancelled"), cancelled);
    return o;
}

QJsonObject AuditLog::done(const QString &who, const QString &context, const QString &server,
                           const QString &action, const QString &title, const QString &outcome,
                           const QJsonObject &details)
{
    OperationPlan plan;
    plan.context = context;
    plan.server = server;
    plan.action = action;
    plan.title = title;
    QJsonObject o = header(QStringLiteral("done"),
                           QUuid::createUuid().toString(QUuid::WithoutBraces), who, plan);
    o.insert(QStringLiteral("outcome"), outcome);
    o.insert(QStringLiteral("details"), details);
    return o;
}

} // namespace gpudesk
