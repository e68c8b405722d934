// SPDX-License-Identifier: GPL-3.0-or-later
#include "volcanojobstates.h"

#include "objectfactory.h"
#include "simclock.h"
#include "simstate.h"

#include <functional>

namespace sim {

using nlohmann::json;

namespace {

int totalTasks(const json &job)
{
    int total = 0;
    for (const auto &t : sub(sub(job, "spec"), "tasks"))
        total += t.value("replicas", 1);
    return total;
}

} // namespace

void VolcanoJobStates::record(const json &job, const std::string &reason,
                              const std::string &message)
{
    const std::string ns = job["metadata"].value("namespace", "");
    m_state.recordEvent(m_state.objectRef(m_state.vcjobs, ns, job["metadata"].value("name", "")),
                        ns, "Normal", reason, message, "vc-controller-manager", "");
}

std::map<std::string, std::string> VolcanoJobStates::takeCommands()
{
    std::map<std::string, std::string> actions;
    for (const auto &stored : m_state.store->list(m_state.commands)) {
        const json cmd = *stored.object;
        const QString ns = ObjectStore::namespaceOf(cmd);
        const json &target = sub(cmd, "target");
        const std::string action = cmd.value("action", "");
        if (target.value("kind", "Job") != "Job" || target.value("name", "").empty())
            continue; // a queue's command is the queue controller's: left for it
        // The controller deletes a Command before it acts, so that it runs at most once.
        if (!m_state.store->requestDelete(m_state.commands, ns, ObjectStore::nameOf(cmd), {}).ok())
            continue;
        const auto job = m_state.store->get(m_state.vcjobs, ns,
                                            QString::fromStdString(target.value("name", "")));
        if (!job.ok())
            continue;
        record(*job.object.object, "CommandIssued",
               "Start to execute command " + action +
                   ", and clean it up to make sure executed not more than once.");
        actions[ns.toStdString() + "/" + target.value("name", "")] = action;
    }
    return actions;
}

void VolcanoJobStates::kill(const json &job, Retain retain,
                            const std::function<bool(json &status)> &next)
{
    ObjectStore *store = m_state.store;
    const std::string ns = job["metadata"].value("namespace", "");
    const std::string uid = job["metadata"].value("uid", "");
    int pending = 0, running = 0, succeeded = 0, failed = 0, terminating = 0, killed = 0;
    const json status0 = sub(job, "status");
    // At the last retry, pods that finished are kept whatever the action.
    const bool lastRetry =
        status0.value("retryCount", 0) >= sub(job, "spec").value("maxRetry", 3) - 1;
    for (const auto &stored : store->list(m_state.pods, QString::fromStdString(ns))) {
        const json &pod = *stored.object;
        bool owned = false;
        for (const auto &ref : sub(pod["metadata"], "ownerReferences"))
            owned |= ref.value("uid", "") == uid;
        if (!owned)
            continue;
        if (pod["metadata"].contains("deletionTimestamp")) {
            ++terminating;
            continue;
        }
        const std::string phase = sub(pod, "status").value("phase", "Pending");
        const bool finished = phase == "Succeeded" || phase == "Failed";
        if (finished && (retain == Retain::Soft || lastRetry)) {
            succeeded += phase == "Succeeded";
            failed += phase == "Failed";
            continue;
        }
        store->requestDelete(m_state.pods, QString::fromStdString(ns), ObjectStore::nameOf(pod),
                             {});
        ++terminating;
        ++killed;
    }
    json updated = job;
    json &status = updated["status"];
    status["pending"] = pending;
    status["running"] = running;
    status["succeeded"] = succeeded;
    status["failed"] = failed;
    status["terminating"] = terminating;
    const bool moved = next && next(status);
    if (moved) {
        const std::string now = m_state.clock->nowRfc3339();
        status["state"]["lastTransitionTime"] = now;
        status["conditions"].push_back(
            json{{"status", status["state"].value("phase", "")}, {"lastTransitionTime", now}});
    }
    // The controller runs this on each event of the job's pods; here on each step, so only a
    // pass that kills or moves the job counts as one (and bumps the version).
    if (killed > 0 || moved)
        status["version"] = status.value("version", 0) + 1;
    if (updated != job)
        store->update(m_state.vcjobs, updated, QStringLiteral("vc-controller-manager"));
    // A full kill takes the gang's PodGroup with it; a restart makes a new one.
    const QString pg = QString::fromStdString(job["metadata"].value("name", "") + "-" + uid);
    if (store->get(m_state.podgroups, QString::fromStdString(ns), pg).ok())
        store->requestDelete(m_state.podgroups, QString::fromStdString(ns), pg, {});
}

void VolcanoJobStates::execute(const json &job, const std::string &action)
{
    const std::string phase = sub(sub(job, "status"), "state").value("phase", "Pending");
    record(job, "ExecuteAction", "Start to execute action " + action + " ");
    auto to = [](const char *p, bool retry = false) {
        return [p, retry](json &status) {
            status["state"]["phase"] = p;
            if (retry)
                status["retryCount"] = status.value("retryCount", 0) + 1;
            return true;
        };
    };
    const bool active = phase == "Pending" || phase == "Running";
    if (active && action == "RestartJob")
        kill(job, Retain::None, to("Restarting", true));
    else if (active && action == "AbortJob")
        kill(job, Retain::Soft, to("Aborting"));
    else if (active && action == "TerminateJob")
        kill(job, Retain::Soft, to("Terminating"));
    else if (active && action == "CompleteJob")
        kill(job, Retain::Soft, to("Completing"));
    else if ((phase == "Aborting" || phase == "Aborted") && action == "ResumeJob")
        kill(job, Retain::Soft, to("Restarting", true));
    else if (phase == "Completed" || phase == "Failed" || phase == "Terminated" ||
             phase == "Aborted")
        kill(job, Retain::Soft, nullptr); // a finished job: what still runs is ended
    else if (!advance(job) && active)
        kill(job, Retain::Soft, nullptr);
}

bool VolcanoJobStates::advance(const json &job)
{
    const std::string phase = sub(sub(job, "status"), "state").value("phase", "");
    auto gone = [](const char *p) {
        return [p](json &status) {
            if (status.value("terminating", 0) != 0 || status.value("pending", 0) != 0 ||
                status.value("running", 0) != 0)
                return false;
            status["state"]["phase"] = p;
            return true;
        };
    };
    if (phase == "Aborting")
        kill(job, Retain::Soft, gone("Aborted"));
    else if (phase == "Terminating")
        kill(job, Retain::Soft, gone("Terminated"));
    else if (phase == "Completing")
        kill(job, Retain::Soft, gone("Completed"));
    else if (phase == "Restarting") {
        const int total = totalTasks(job);
        const int maxRetry = sub(job, "spec").value("maxRetry", 3);
        const int minAvailable = sub(job, "spec").value("minAvailable", total);
        kill(job, Retain::None, [=](json &status) {
            if (status.value("retryCount", 0) >= maxRetry) {
                status["state"]["phase"] = "Failed";
                return true;
            }
            if (total - status.value("terminating", 0) >= minAvailable) {
                status["state"]["phase"] = "Pending";
                return true;
            }
            return false;
        });
    } else {
        return false;
    }
    return true;
}

} // namespace sim
