// SPDX-License-Identifier: GPL-3.0-or-later
#include "alertcenter.h"

#include "clusterstore.h"
#include "connectionstate.h"
#include "findings.h"
#include "findingsservice.h"
#include "registrywatch.h"
#include "storagealerts.h"
#include "storageservice.h"
#include "telemetrystore.h"

#include <QDateTime>
#include <QSet>

namespace gpudesk {

namespace {

constexpr int kTickMs = 5000;
constexpr int kGroupBodyLines = 5;

QString targetOf(const QString &rule, const Problem &p)
{
    if (rule == QLatin1String("findings"))
        return QStringLiteral("page:cleanup");
    if (!p.node.isEmpty())
        return QStringLiteral("node:") + p.node;
    if (rule == QLatin1String("vcfull"))
        return QStringLiteral("page:vcs");
    if (rule == QLatin1String("quotafull"))
        return QStringLiteral("page:users");
    if (rule == QLatin1String("registry"))
        return QStringLiteral("page:images");
    if (rule == QLatin1String("storage"))
        return QStringLiteral("page:storage");
    return QStringLiteral("page:overview");
}

// Every collection has been listed once: what the store says is the cluster, not a part of it.
bool synced(const ConnectionState &state)
{
    if (state.collections().isEmpty())
        return false;
    for (const InformerStatus &c : state.collections())
        if (c.state == InformerStatus::Idle || c.state == InformerStatus::Syncing)
            return false;
    return true;
}

Problem findingProblem(const Finding &f)
{
    // The evidence says what holds what (and since when); without it, the GPUs held.
    const QString subject = f.pod.isEmpty() ? f.node : f.ns + u'/' + f.pod;
    const QString text =
        f.evidence.isEmpty()
            ? AlertCenter::tr("%1: %2 holds %n GPU(s) that should be free", nullptr,
                              f.gpus + f.migDevices)
                  .arg(findingClassTitle(f.cls), subject)
            : AlertCenter::tr("%1: %2 — %3").arg(findingClassTitle(f.cls), subject, f.evidence);
    return {Problem::Warning, QStringLiteral("finding:") + f.key, f.node, text, f.since};
}

} // namespace

AlertCenter::AlertCenter(ClusterStore *store, TelemetryStore *telemetry, ConnectionState *state,
                         QObject *parent)
    : QObject(parent), m_store(store), m_telemetry(telemetry), m_state(state),
      m_rules(AlertRules::load())
{
    m_settle.setSingleShot(true);
    m_settle.setInterval(SettleMs);
    connect(&m_settle, &QTimer::timeout, this, &AlertCenter::evaluate);
    m_batch.setSingleShot(true);
    m_batch.setInterval(BatchMs);
    connect(&m_batch, &QTimer::timeout, this, &AlertCenter::flush);
    m_tick.setInterval(kTickMs);
    connect(&m_tick, &QTimer::timeout, this, &AlertCenter::evaluate);
    m_tick.start();
    connect(store, &ClusterStore::updated, this, &AlertCenter::schedule);
    if (telemetry)
        connect(telemetry, &TelemetryStore::updated, this, &AlertCenter::schedule);
    connect(state, &ConnectionState::changed, this, &AlertCenter::schedule);
}

void AlertCenter::setFindings(FindingsService *findings)
{
    m_findings = findings;
    connect(findings, &FindingsService::updated, this, &AlertCenter::schedule);
    schedule();
}

void AlertCenter::setRegistryWatch(RegistryWatch *watch)
{
    m_registries = watch;
    connect(watch, &RegistryWatch::checked, this, &AlertCenter::schedule);
}

void AlertCenter::setStorage(StorageService *storage)
{
    m_storage = storage;
    connect(storage, &StorageService::updated, this, &AlertCenter::schedule);
}

void AlertCenter::storageProblems(QList<Problem> &out) const
{
    if (m_storage)
        out += StorageAlerts::now(m_storage->measures(), m_storage->history(), m_rules);
}

void AlertCenter::registryProblems(QList<Problem> &out) const
{
    if (!m_registries || !m_rules.enabled(QStringLiteral("registry")))
        return;
    for (auto it = m_registries->unreachable().cbegin(); it != m_registries->unreachable().cend();
         ++it)
        out.append(
            {Problem::Critical,
             QStringLiteral("registry:") + it.key(),
             {},
             tr("Registry %1 has not answered since %2: %3 Pulls from it fail.")
                 .arg(it.key(),
                      QDateTime::fromMSecsSinceEpoch(it->sinceMs).toString(QStringLiteral("HH:mm")),
                      it->error),
             it->sinceMs});
}

void AlertCenter::setRules(const AlertRules &rules)
{
    if (rules == m_rules)
        return;
    m_rules = rules;
    evaluate();
}

void AlertCenter::schedule()
{
    if (!m_settle.isActive())
        m_settle.start();
}

void AlertCenter::reset()
{
    const bool had = !m_active.isEmpty();
    m_active.clear();
    m_pending.clear();
    m_notReadyRaises.clear();
    m_batch.stop();
    m_evaluated = false;
    m_downSince = 0;
    if (had)
        emit changed();
}

void AlertCenter::evaluate()
{
    if (m_state->context() != m_context) {
        reset();
        m_context = m_state->context();
    }
    if (m_context.isEmpty())
        return;
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    const bool current = m_state->state() == ConnectionState::State::Connected &&
                         !m_state->isStale() && synced(*m_state);
    QList<Problem> found;
    if (current) {
        found = Problems::now(*m_store, m_telemetry, m_rules);
        if (m_rules.enabled(QStringLiteral("findings"))) {
            if (m_findings && m_findings->hasResult()) {
                for (const Finding &f : m_findings->findings())
                    found.append(findingProblem(f));
            } else {
                // Not computed yet on this connection: what was found stands.
                for (const Alert &a : std::as_const(m_active))
                    if (a.rule == QLatin1String("findings"))
                        found.append(a.problem);
            }
        }
        found += historyProblems(found, nowMs);
    } else {
        // Figures that are not current neither raise nor clear anything.
        for (const Alert &a : std::as_const(m_active))
            if (a.rule != QLatin1String("apiserver"))
                found.append(a.problem);
    }
    apiServerProblem(nowMs, found);
    // Registries answer or not whatever the API server does.
    found.erase(std::remove_if(
                    found.begin(), found.end(),
                    [](const Problem &p) { return p.key.startsWith(QLatin1String("registry:")); }),
                found.end());
    registryProblems(found);
    // The NAS's figures come from its walks, not from the API server: as the registries'.
    found.erase(std::remove_if(
                    found.begin(), found.end(),
                    [](const Problem &p) { return p.key.startsWith(QLatin1String("storage:")); }),
                found.end());
    storageProblems(found);

    QHash<QString, Alert> next;
    bool changedAny = false;
    for (const Problem &p : std::as_const(found)) {
        if (next.contains(p.key))
            continue;
        Alert a;
        if (const auto it = m_active.constFind(p.key); it != m_active.cend()) {
            a = *it;
            changedAny = changedAny || a.problem.text != p.text || a.problem.severity != p.severity;
            a.problem = p;
        } else {
            a.problem = p;
            a.rule = AlertRules::ruleOf(p.key);
            a.raisedAt = nowMs;
            a.target = targetOf(a.rule, p);
            changedAny = true;
            m_pending.append(a);
            if (!m_batch.isActive())
                m_batch.start();
        }
        next.insert(p.key, a);
    }
    changedAny = changedAny || next.size() != m_active.size();
    m_active = std::move(next);
    // The first evaluation on current figures is news even when it raises nothing: until then
    // a view may not say "nothing needs attention".
    const bool first = !m_evaluated && current;
    m_evaluated = m_evaluated || current;
    if (changedAny || first)
        emit changed();
}

QList<Problem> AlertCenter::historyProblems(const QList<Problem> &now, qint64 nowMs)
{
    // A node that goes NotReady again and again: each start of its NotReady counts, within the
    // window, whether or not the node is NotReady at this moment.
    for (const Problem &p : now)
        if (p.key.startsWith(QLatin1String("notready:")) && !m_active.contains(p.key))
            m_notReadyRaises[p.node].append(nowMs);
    QList<Problem> out;
    const qint64 window = qint64(m_rules.flapWindowMinutes) * 60 * 1000;
    for (auto it = m_notReadyRaises.begin(); it != m_notReadyRaises.end();) {
        QList<qint64> &times = it.value();
        times.removeIf([&](qint64 t) { return nowMs - t > window; });
        if (times.isEmpty()) {
            it = m_notReadyRaises.erase(it);
            continue;
        }
        if (times.size() >= m_rules.flapCount && m_rules.enabled(QStringLiteral("flapping")))
            out.append({Problem::Warning, QStringLiteral("flapping:") + it.key(), it.key(),
                        tr("%1 went NotReady %n time(s) in the last %2 minutes", nullptr,
                           int(times.size()))
                            .arg(it.key())
                            .arg(m_rules.flapWindowMinutes),
                        times.first()});
        ++it;
    }
    return out;
}

void AlertCenter::apiServerProblem(qint64 nowMs, QList<Problem> &out)
{
    const bool down = m_state->state() == ConnectionState::State::Failed || m_state->isStale();
    if (!down) {
        m_downSince = 0;
        return;
    }
    if (!m_downSince)
        m_downSince = m_state->isStale() ? m_state->staleSince().toMSecsSinceEpoch() : nowMs;
    if (!m_rules.enabled(QStringLiteral("apiserver")) ||
        nowMs - m_downSince < qint64(m_rules.apiGraceSeconds) * 1000)
        return;
    const QString reason = m_state->isStale() ? m_state->staleReason() : m_state->error();
    QString text =
        tr("The API server of %1 has not answered since %2")
            .arg(m_context,
                 QDateTime::fromMSecsSinceEpoch(m_downSince).toString(QStringLiteral("HH:mm:ss")));
    if (!reason.isEmpty())
        text += QStringLiteral(": ") + reason;
    out.prepend(
        {Problem::Critical, QStringLiteral("apiserver:") + m_context, {}, text, m_downSince});
}

void AlertCenter::flush()
{
    QList<Alert> batch;
    QSet<QString> seen;
    // Newest first, so that a condition that cleared and returned within the batch is told as
    // it is now; one that cleared again is not told at all.
    for (qsizetype i = m_pending.size() - 1; i >= 0; --i) {
        const Alert &a = m_pending[i];
        const auto it = m_active.constFind(a.problem.key);
        if (seen.contains(a.problem.key) || it == m_active.cend() || it->acknowledged)
            continue;
        seen.insert(a.problem.key);
        batch.prepend(*it);
    }
    m_pending.clear();
    if (!batch.isEmpty())
        emit raised(batch);
}

QList<Alert> AlertCenter::alerts() const
{
    QList<Problem> problems;
    problems.reserve(m_active.size());
    for (const Alert &a : m_active)
        problems.append(a.problem);
    Problems::sort(problems);
    QList<Alert> out;
    out.reserve(problems.size());
    for (const Problem &p : std::as_const(problems))
        out.append(m_active.value(p.key));
    return out;
}

int AlertCenter::unacknowledged() const
{
    int n = 0;
    for (const Alert &a : m_active)
        n += a.acknowledged ? 0 : 1;
    return n;
}

int AlertCenter::worstUnacknowledged() const
{
    int worst = Problem::Warning + 1;
    for (const Alert &a : m_active)
        if (!a.acknowledged)
            worst = std::min(worst, int(a.problem.severity));
    return worst;
}

void AlertCenter::acknowledge(const QString &key)
{
    const auto it = m_active.find(key);
    if (it == m_active.end() || it->acknowledged)
        return;
    it->acknowledged = true;
    emit changed();
}

void AlertCenter::acknowledgeAll()
{
    bool any = false;
    for (Alert &a : m_active) {
        any = any || !a.acknowledged;
        a.acknowledged = true;
    }
    if (any)
        emit changed();
}

QList<AlertNotice> AlertCenter::notices(const QList<Alert> &raised, const QString &context)
{
    QStringList rules;
    QHash<QString, QList<Alert>> byRule;
    for (const Alert &a : raised) {
        if (!byRule.contains(a.rule))
            rules.append(a.rule);
        byRule[a.rule].append(a);
    }
    const auto summary = [&context](const QString &title) {
        return context.isEmpty() ? title : tr("%1 — %2").arg(title, context);
    };
    QList<AlertNotice> out;
    for (const QString &rule : std::as_const(rules)) {
        const QList<Alert> &group = byRule[rule];
        if (group.size() < GroupFrom) {
            for (const Alert &a : group)
                out.append({a.problem.key, summary(AlertRules::title(rule)), a.problem.text,
                            a.problem.severity == Problem::Critical, a.target});
            continue;
        }
        AlertNotice n{
            QStringLiteral("group:") + rule,
            summary(tr("%1: %n at once", nullptr, int(group.size())).arg(AlertRules::title(rule))),
            {},
            false,
            rule == QLatin1String("findings") ? QStringLiteral("page:cleanup")
                                              : QStringLiteral("page:overview")};
        QStringList lines;
        for (const Alert &a : group) {
            n.critical = n.critical || a.problem.severity == Problem::Critical;
            if (lines.size() < kGroupBodyLines)
                lines.append(a.problem.text);
        }
        if (group.size() > kGroupBodyLines)
            lines.append(tr("and %n more", nullptr, int(group.size() - kGroupBodyLines)));
        n.body = lines.join(u'\n');
        out.append(n);
    }
    return out;
}

} // namespace gpudesk
