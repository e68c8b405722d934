// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobchecker.h"

#include "capacitysnapshot.h"
#include "jobrequestdecoder.h"
#include "launchscripts.h"
#include "nasfiles.h"

#include <QtConcurrent/QtConcurrentRun>

namespace gpudesk {

JobChecker::JobChecker(const ClusterStore *store, const TelemetryStore *telemetry, QObject *parent)
    : QObject(parent), m_store(store), m_telemetry(telemetry)
{
    connect(&m_watcher, &QFutureWatcher<StartVerdict>::finished, this, [this] {
        if (m_queued) {
            // A newer request came while this one ran: its answer is the one wanted.
            launch();
            return;
        }
        m_checked = m_running;
        m_verdict = m_watcher.result();
        const QList<LaunchScript> scripts =
            m_nas ? LaunchScripts::of(m_checked) : QList<LaunchScript>();
        if (scripts.isEmpty())
            emit ready(m_verdict);
        else
            checkScripts(scripts, m_generation);
    });
}

// A check in flight holds only its own copies: it ends on the pool, its answer unread.
JobChecker::~JobChecker()
{
    m_watcher.waitForFinished();
}

void JobChecker::check(const JobRequest &job)
{
    m_next = job;
    m_queued = true;
    if (!m_watcher.isRunning())
        launch();
}

bool JobChecker::decode(const QByteArray &json, const QString &ns, JobRequest *out, QString *error)
{
    if (!JobRequestDecoder::decode(json, out, error))
        return false;
    if (out->ns.isEmpty())
        out->ns = ns;
    return true;
}

bool JobChecker::checkJson(const QByteArray &json, const QString &ns, QString *error)
{
    JobRequest job;
    if (!decode(json, ns, &job, error))
        return false;
    check(job);
    return true;
}

void JobChecker::checkScripts(const QList<LaunchScript> &scripts, int generation)
{
    m_probing = true;
    QStringList paths;
    for (const LaunchScript &s : scripts)
        paths << s.nodePath;
    m_nas->inspect(
        paths, false, this,
        [this, scripts, generation](QList<RemotePathInfo> found, const QString &error) {
            if (generation != m_generation)
                return; // a newer check is under way
            QList<LaunchScriptFacts> facts(scripts.size());
            QStringList targets;
            QList<int> linked; // the script each target is of
            for (int i = 0; i < scripts.size(); ++i) {
                LaunchScriptFacts &f = facts[i];
                f.error = error;
                if (!error.isEmpty() || i >= found.size())
                    continue;
                f.found = found[i].found;
                f.link = found[i].type == 'l';
                f.linkTarget = found[i].linkTarget;
                f.permissions = found[i].permissions;
                const QString target = f.link
                                           ? LaunchScripts::nodePathOf(
                                                 scripts[i].hostMounts,
                                                 LaunchScripts::targetOf(scripts[i], f.linkTarget))
                                           : QString();
                if (!target.isEmpty()) {
                    targets << target;
                    linked << i;
                }
            }
            if (targets.isEmpty()) {
                tell(scripts, facts);
                return;
            }
            m_nas->inspect(targets, true, this,
                           [this, scripts, facts, linked,
                            generation](QList<RemotePathInfo> at, const QString &error) mutable {
                               if (generation != m_generation)
                                   return;
                               for (int j = 0; j < linked.size() && error.isEmpty(); ++j) {
                                   LaunchScriptFacts &f = facts[linked[j]];
                                   f.targetChecked = j < at.size();
                                   f.targetFound = f.targetChecked && at[j].found;
                                   if (f.targetFound)
                                       f.permissions = at[j].permissions;
                               }
                               tell(scripts, facts);
                           });
        });
}

void JobChecker::tell(const QList<LaunchScript> &scripts, const QList<LaunchScriptFacts> &facts)
{
    m_probing = false;
    QList<StartReason> reasons;
    for (int i = 0; i < scripts.size(); ++i)
        reasons << LaunchScripts::judge(scripts[i], facts.value(i));
    LaunchScripts::add(&m_verdict, reasons);
    emit ready(m_verdict);
}

void JobChecker::launch()
{
    m_queued = false;
    ++m_generation;
    m_probing = false;
    m_running = m_next;
    CapacitySnapshot snapshot = CapacitySnapshot::of(*m_store, m_running, m_telemetry);
    m_watcher.setFuture(QtConcurrent::run([snapshot = std::move(snapshot), job = m_running] {
        return StartCheck::check(snapshot, job);
    }));
}

} // namespace gpudesk
