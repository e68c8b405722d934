// SPDX-License-Identifier: GPL-3.0-or-later
#include "volcanocontroller.h"

#include "objectfactory.h"
#include "simclock.h"
#include "simstate.h"

#include <map>

namespace sim {

using nlohmann::json;

VolcanoController::VolcanoController(SimState &state)
    : m_state(state), m_admission(state), m_states(state)
{}

std::vector<json> VolcanoController::podsOf(const json &job, const std::string &pgName) const
{
    const std::string ns = job["metadata"].value("namespace", "");
    const std::string name = job["metadata"].value("name", "");
    const std::string uid = job["metadata"].value("uid", "");
    const std::string queue = job["spec"].value("queue", "default");
    std::vector<json> pods;
    for (const auto &t : sub(job["spec"], "tasks")) {
        const int replicas = t.value("replicas", 1);
        for (int i = 0; i < replicas; ++i) {
            json pod{{"apiVersion", "v1"}, {"kind", "Pod"}};
            const std::string podName =
                name + "-" + t.value("name", "task") + "-" + std::to_string(i);
            pod["metadata"] = {
                {"name", podName},
                {"namespace", ns},
                {"labels",
                 {{"volcano.sh/job-name", name},
                  {"volcano.sh/job-namespace", ns},
                  {"volcano.sh/queue-name", queue},
                  {"volcano.sh/task-spec", t.value("name", "task")},
                  {"volcano.sh/job-retry-count", "0"}}},
                {"annotations",
                 {{"scheduling.k8s.io/group-name", pgName},
                  {"volcano.sh/job-name", name},
                  {"volcano.sh/job-version", "0"},
                  {"volcano.sh/queue-name", queue},
                  {"volcano.sh/task-spec", t.value("name", "task")},
                  {"volcano.sh/task-index", std::to_string(i)}}},
                {"ownerReferences",
                 {ObjectFactory::ownerRef("batch.volcano.sh/v1alpha1", "Job", name, uid)}}};
            const json tmplLabels = sub(sub(sub(t, "template"), "metadata"), "labels");
            for (const auto &[k, v] : tmplLabels.items())
                pod["metadata"]["labels"][k] = v;
            pod["spec"] = t["template"]["spec"];
            // The job's scheduler schedules its pods (Volcano's controller copies it).
            if (!pod["spec"].contains("schedulerName"))
                pod["spec"]["schedulerName"] = job["spec"].value("schedulerName", "volcano");
            pod["spec"]["hostname"] = podName;
            pod["spec"]["subdomain"] = name;
            pod["status"] = {{"phase", "Pending"}, {"qosClass", qosClassOf(pod["spec"])}};
            pods.push_back(std::move(pod));
        }
    }
    return pods;
}

void VolcanoController::reconcileJobs()
{
    ObjectStore *store = m_state.store;
    const auto actions = m_states.takeCommands();
    for (const auto &stored : store->list(m_state.vcjobs)) {
        const json &job = *stored.object;
        const std::string ns = job["metadata"].value("namespace", "");
        const std::string name = job["metadata"].value("name", "");
        const std::string uid = job["metadata"].value("uid", "");
        const std::string phase = sub(sub(job, "status"), "state").value("phase", "Pending");
        // A job being deleted is the garbage collector's: its controller makes nothing more.
        if (job["metadata"].contains("deletionTimestamp"))
            continue;
        if (const auto a = actions.find(ns + "/" + name); a != actions.end()) {
            m_states.execute(job, a->second);
            continue;
        }
        if (m_states.advance(job))
            continue;
        if (phase == "Completed" || phase == "Failed" || phase == "Aborted" ||
            phase == "Terminated")
            continue;
        const std::string queue = job["spec"].value("queue", "default");
        const std::string pgName = name + "-" + uid;
        int gpus = 0;
        int total = 0;
        std::vector<std::string> podNames;
        for (const auto &t : sub(job["spec"], "tasks")) {
            const int replicas = t.value("replicas", 1);
            const Resources r = specRequests(sub(sub(t, "template"), "spec"));
            for (int i = 0; i < replicas; ++i) {
                podNames.push_back(name + "-" + t.value("name", "task") + "-" + std::to_string(i));
                gpus += int(r.gpus);
                ++total;
            }
        }
        m_admission.ensurePodGroup(job, pgName, queue, job["spec"].value("minAvailable", total),
                                   gpus);
        const auto pgRes = store->get(m_state.podgroups, QString::fromStdString(ns),
                                      QString::fromStdString(pgName));
        if (!pgRes.ok())
            continue;
        json pg = *pgRes.object.object;
        const std::string pgPhase = m_admission.admit(pg, gpus);
        if (pgPhase == "Inqueue" || pgPhase == "Running") {
            bool missing = false;
            for (const auto &podName : podNames)
                missing |= !store
                                ->get(m_state.pods, QString::fromStdString(ns),
                                      QString::fromStdString(podName))
                                .ok();
            // The pods themselves are built only when some are missing.
            if (missing)
                m_admission.createPods(job, podsOf(job, pgName));
        }
        // Status from the pods.
        int pending = 0, running = 0, succeeded = 0, failed = 0;
        std::map<std::string, std::pair<int, int>> byTask; // task → (pods, succeeded)
        for (const auto &podName : podNames) {
            const auto live = store->get(m_state.pods, QString::fromStdString(ns),
                                         QString::fromStdString(podName));
            if (!live.ok())
                continue;
            const json &p = *live.object.object;
            const std::string ph = sub(p, "status").value("phase", "");
            pending += ph == "Pending";
            running += ph == "Running";
            succeeded += ph == "Succeeded";
            failed += ph == "Failed";
            auto &task = byTask[sub(p["metadata"], "labels").value("volcano.sh/task-spec", "")];
            ++task.first;
            task.second += ph == "Succeeded";
        }
        // A task whose policy is TaskCompleted → CompleteJob completes the job when its pods
        // have all succeeded. This lab's Volcano (as volcano-sh/volcano#1956 reports) then
        // leaves the other tasks' pods running.
        bool taskCompleted = false;
        for (const auto &t : sub(job["spec"], "tasks")) {
            bool completes = false;
            for (const auto &p : sub(t, "policies"))
                completes |= p.value("event", "") == "TaskCompleted" &&
                             p.value("action", "") == "CompleteJob";
            const auto counts = byTask.find(t.value("name", ""));
            taskCompleted |= completes && counts != byTask.end() &&
                             counts->second.first == t.value("replicas", 1) &&
                             counts->second.second == counts->second.first;
        }
        std::string newPhase = "Pending";
        if (failed > 0)
            newPhase = "Failed";
        else if ((succeeded == total && total > 0) || taskCompleted)
            newPhase = "Completed";
        else if (running + succeeded >= job["spec"].value("minAvailable", total) && running > 0)
            newPhase = "Running";
        // The status alone is copied and compared: the whole job (its pod templates) would be
        // copied at every step of every job otherwise, most of the scenario's build time.
        json status = sub(job, "status");
        status["pending"] = pending;
        status["running"] = running;
        status["succeeded"] = succeeded;
        status["failed"] = failed;
        status["minAvailable"] = job["spec"].value("minAvailable", total);
        // A client's write may leave the state out or null (a merge patch of `status: {}`).
        const auto state = status.find("state");
        if (state == status.end() || !state->is_object() || state->value("phase", "") != newPhase) {
            status["state"] = {{"phase", newPhase},
                               {"lastTransitionTime", m_state.clock->nowRfc3339()}};
            if (newPhase == "Running" && !status.contains("runningDuration"))
                status["runningDuration"] = "0s";
        }
        if (status != sub(job, "status")) {
            json updated = job;
            updated["status"] = std::move(status);
            store->update(m_state.vcjobs, updated);
        }
        if ((newPhase == "Running" && pgPhase == "Inqueue") ||
            ((newPhase == "Completed" || newPhase == "Failed") && pgPhase != "Completed")) {
            pg = *store
                      ->get(m_state.podgroups, QString::fromStdString(ns),
                            QString::fromStdString(pgName))
                      .object.object;
            pg["status"]["phase"] = newPhase == "Running" ? "Running" : "Completed";
            pg["status"]["running"] = running;
            pg["status"]["succeeded"] = succeeded;
            pg["status"]["failed"] = failed;
            store->update(m_state.podgroups, pg);
        }
    }
}

} // namespace sim
