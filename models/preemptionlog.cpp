// SPDX-License-Identifier: GPL-3.0-or-later
#include "preemptionlog.h"

#include "format.h"

#include <QDateTime>
#include <QJsonObject>

#include <algorithm>

namespace gpudesk {

namespace {

// The text fields of a record, by their JSON names: one list for writing and reading.
constexpr std::pair<const char *, QString Preemption::*> kTexts[] = {
    {"victimUid", &Preemption::victimUid},
    {"namespace", &Preemption::ns},
    {"pod", &Preemption::pod},
    {"workload", &Preemption::workload},
    {"job", &Preemption::job},
    {"user", &Preemption::user},
    {"vc", &Preemption::vc},
    {"node", &Preemption::node},
    {"priorityClass", &Preemption::priorityClass},
    {"how", &Preemption::how},
    {"message", &Preemption::message},
    {"byNamespace", &Preemption::byNs},
    {"byPod", &Preemption::byPod},
    {"byJob", &Preemption::byJob},
    {"byUser", &Preemption::byUser},
    {"byVc", &Preemption::byVc},
    {"byPriorityClass", &Preemption::byPriorityClass},
    {"unknownWhy", &Preemption::unknownWhy},
};

} // namespace

QJsonObject Preemption::toJson() const
{
    QJsonObject o;
    for (const auto &[key, field] : kTexts)
        if (!(this->*field).isEmpty())
            o.insert(QLatin1String(key), this->*field);
    o.insert(QLatin1String("priority"), priority);
    o.insert(QLatin1String("byPriority"), byPriority);
    o.insert(QLatin1String("at"), double(at));
    o.insert(QLatin1String("ranMs"), double(ranMs));
    return o;
}

bool Preemption::fromJson(const QJsonObject &o, Preemption *out)
{
    Preemption p;
    for (const auto &[key, field] : kTexts)
        p.*field = o.value(QLatin1String(key)).toString();
    p.priority = o.value(QLatin1String("priority")).toInt();
    p.byPriority = o.value(QLatin1String("byPriority")).toInt();
    p.at = qint64(o.value(QLatin1String("at")).toDouble());
    p.ranMs = qint64(o.value(QLatin1String("ranMs")).toDouble(-1));
    if (p.victimUid.isEmpty() || p.pod.isEmpty() || p.at <= 0)
        return false; // not a record: a file edited by hand, or another program's
    *out = std::move(p);
    return true;
}

PreemptionLog::PreemptionLog(QObject *parent) : QObject(parent) {}

const Preemption *PreemptionLog::forPod(const QString &victimUid) const
{
    const auto it = m_records.constFind(victimUid);
    return it == m_records.cend() ? nullptr : &*it;
}

const Preemption *PreemptionLog::latestFor(const QString &workload) const
{
    const Preemption *latest = nullptr;
    for (const QString &uid : m_byWorkload.value(workload)) {
        const Preemption *p = forPod(uid);
        if (p && (!latest || p->at > latest->at))
            latest = p;
    }
    return latest;
}

QList<const Preemption *> PreemptionLog::records() const
{
    QList<const Preemption *> out;
    out.reserve(m_records.size());
    for (const Preemption &p : m_records)
        out << &p;
    std::sort(out.begin(), out.end(),
              [](const Preemption *a, const Preemption *b) { return a->at > b->at; });
    return out;
}

void PreemptionLog::put(const Preemption &p)
{
    if (const Preemption *old = forPod(p.victimUid); old && old->workload != p.workload)
        m_byWorkload[old->workload].remove(p.victimUid);
    m_records.insert(p.victimUid, p);
    if (!p.workload.isEmpty())
        m_byWorkload[p.workload].insert(p.victimUid);
    trim(std::max(p.at, QDateTime::currentMSecsSinceEpoch()));
    emit changed({p.workload});
}

void PreemptionLog::clear()
{
    m_records.clear();
    m_byWorkload.clear();
    emit cleared();
}

QJsonArray PreemptionLog::toJson() const
{
    QJsonArray out;
    for (const Preemption *p : records())
        out.append(p->toJson());
    return out;
}

void PreemptionLog::load(const QJsonArray &array, qint64 nowMs)
{
    m_records.clear();
    m_byWorkload.clear();
    for (const QJsonValue &v : array) {
        Preemption p;
        if (!Preemption::fromJson(v.toObject(), &p) || nowMs - p.at > MaxAgeMs)
            continue;
        if (!p.workload.isEmpty())
            m_byWorkload[p.workload].insert(p.victimUid);
        m_records.insert(p.victimUid, std::move(p));
    }
    trim(nowMs);
    emit cleared();
}

void PreemptionLog::trim(qint64 nowMs)
{
    QList<const Preemption *> all = records(); // newest first
    QStringList gone;
    for (qsizetype i = 0; i < all.size(); ++i)
        if (i >= MaxRecords || nowMs - all[i]->at > MaxAgeMs)
            gone << all[i]->victimUid;
    for (const QString &uid : std::as_const(gone)) {
        const QString workload = m_records.value(uid).workload;
        if (auto it = m_byWorkload.find(workload); it != m_byWorkload.end()) {
            it->remove(uid);
            if (it->isEmpty())
                m_byWorkload.erase(it);
        }
        m_records.remove(uid);
    }
}

QString PreemptionLog::describe(const Preemption &p, qint64 nowMs)
{
    const QString ago = format::age(p.at, nowMs);
    const QString ran = p.ranMs >= 0 ? format::age(p.at - p.ranMs, p.at) : QString();
    QString by;
    if (p.named()) {
        const QString who = p.byJob.isEmpty() ? p.byNs + u'/' + p.byPod : p.byJob;
        const QString whose =
            p.byUser.isEmpty() ? who : tr("%1's %2", "user's job").arg(p.byUser, who);
        QString priority =
            p.byPriorityClass.isEmpty()
                ? tr("priority %1").arg(p.byPriority)
                : tr("priority class %1, %2").arg(p.byPriorityClass).arg(p.byPriority);
        if (p.how == QLatin1String("reclaim"))
            by = tr("Reclaimed for %1 (queue %2, below its deserved share)").arg(whose, p.byVc);
        else
            by = p.byVc.isEmpty()
                     ? tr("Preempted by %1 (%2)").arg(whose, priority)
                     : tr("Preempted by %1 (queue %2, %3)").arg(whose, p.byVc, priority);
    } else if (p.how == QLatin1String("reclaim")) {
        by = tr("Reclaimed by another queue");
    } else {
        by = tr("Preempted by a job of higher priority");
    }
    QString when = ran.isEmpty() ? tr("%1 ago on %2").arg(ago, p.node)
                                 : tr("%1 ago, after %2 running on %3").arg(ago, ran, p.node);
    if (p.node.isEmpty())
        when = tr("%1 ago").arg(ago);
    return by + u' ' + when;
}

} // namespace gpudesk
