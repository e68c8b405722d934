// SPDX-License-Identifier: GPL-3.0-or-later
#include "kubeflowcontroller.h"

#include "objectfactory.h"
#include "simclock.h"
#include "simhelpers.h"
#include "simstate.h"

#include <algorithm>
#include <cctype>

namespace sim {

using nlohmann::json;

KubeflowController::KubeflowController(SimState &state) : m_state(state), m_admission(state) {}

std::vector<json> KubeflowController::podsOf(const ResourceType *type, const json &job,
                                             const std::string &queue) const
{
    const bool mpi = type == m_state.mpijobs;
    const std::string ns = job["metadata"].value("namespace", "");
    const std::string name = job["metadata"].value("name", "");
    const std::string uid = job["metadata"].value("uid", "");
    const json specs =
        job["spec"].value(mpi ? "mpiReplicaSpecs" : "pytorchReplicaSpecs", json::object());
    std::vector<json> pods;
    int worldSize = 0;
    for (const auto &[role, rs] : specs.items())
        worldSize += role == "Launcher" ? 0 : rs.value("replicas", 1);
    int rank = 0;
    for (const char *role : {"Master", "Launcher", "Worker"}) {
        if (!specs.contains(role))
            continue;
        const json &rs = specs[role];
        std::string lower = role;
        std::transform(lower.begin(), lower.end(), lower.begin(), ::tolower);
        for (int i = 0; i < rs.value("replicas", 1); ++i) {
            const std::string podName = mpi && lower == "launcher"
                                            ? name + "-launcher"
                                            : name + "-" + lower + "-" + std::to_string(i);
            json pod{{"apiVersion", "v1"}, {"kind", "Pod"}};
            pod["metadata"] = {{"name", podName},
                               {"namespace", ns},
                               {"labels",
                                {{"training.kubeflow.org/job-name", name},
                                 {"training.kubeflow.org/operator-name",
                                  mpi ? "mpijob-controller" : "pytorchjob-controller"},
                                 {"training.kubeflow.org/replica-type", lower},
                                 {"training.kubeflow.org/replica-index", std::to_string(i)},
                                 {"volcano.sh/queue-name", queue}}},
                               {"annotations",
                                {{"scheduling.k8s.io/group-name", name},
                                 {"scheduling.volcano.sh/queue-name", queue}}},
                               {"ownerReferences",
                                {ObjectFactory::ownerRef(type->apiVersion().toStdString(),
                                                         type->kind.toStdString(), name, uid)}}};
            if (lower == "master")
                pod["metadata"]["labels"]["training.kubeflow.org/job-role"] = "master";
            pod["spec"] = rs["template"]["spec"];
            pod["spec"]["restartPolicy"] =
                rs.value("restartPolicy", "OnFailure") == "Always" ? "Always" : "OnFailure";
            if (!mpi) {
                for (auto &c : pod["spec"]["containers"]) {
                    c["env"].push_back({{"name", "MASTER_ADDR"}, {"value", name + "-master-0"}});
                    c["env"].push_back({{"name", "MASTER_PORT"}, {"value", "23456"}});
                    c["env"].push_back(
                        {{"name", "WORLD_SIZE"}, {"value", std::to_string(worldSize)}});
                    c["env"].push_back({{"name", "RANK"}, {"value", std::to_string(rank)}});
                }
            }
            ++rank;
            pod["status"] = {{"phase", "Pending"}, {"qosClass", qosClassOf(pod["spec"])}};
            pods.push_back(std::move(pod));
        }
    }
    return pods;
}

namespace {

// A training job condition as the operators write them.
json jobCondition(const std::string &type, const std::string &status, const std::string &reason,
                  const std::string &message, const std::string &now)
{
    return json{{"type", type},       {"status", status},      {"reason", reason},
                {"message", message}, {"lastUpdateTime", now}, {"lastTransitionTime", now}};
}

const json *findCondition(const json &status, const std::string &type)
{
    for (const auto &c : sub(status, "conditions"))
        if (c.value("type", "") == type)
            return &c;
    return nullptr;
}

// Replaces the condition of its type unless its status and reason are the same (the
// operators' setCondition); true when it changed.
bool putCondition(json &status, const json &cond)
{
    json conds = json::array();
    for (const auto &c : sub(status, "conditions")) {
        if (c.value("type", "") != cond["type"]) {
            conds.push_back(c);
            continue;
        }
        if (c.value("status", "") == cond["status"] && c.value("reason", "") == cond["reason"])
            return false;
    }
    conds.push_back(cond);
    status["conditions"] = conds;
    return true;
}

} // namespace

bool KubeflowController::suspendOrResume(const ResourceType *type, const json &job)
{
    const bool v2 = type == m_state.mpijobs && type->version == QLatin1String("v2beta1");
    const std::string kind = type->kind.toStdString();
    const std::string ns = job["metadata"].value("namespace", "");
    const std::string name = job["metadata"].value("name", "");
    const std::string now = m_state.clock->nowRfc3339();
    const bool suspend = sub(sub(job, "spec"), "runPolicy").value("suspend", false);
    const json *suspended = findCondition(sub(job, "status"), "Suspended");
    const bool wasSuspended = suspended && suspended->value("status", "") == "True";
    if (!suspend && !wasSuspended)
        return false;
    // The training operator (kubeflow.org/v1) and the MPI operator (v2beta1) word it apart.
    const std::string component =
        v2 ? "mpi-job-controller"
           : (type == m_state.mpijobs ? "mpijob-controller" : "pytorchjob-controller");
    const json involved = m_state.objectRef(type, ns, name);
    auto tell = [&](const std::string &reason, const std::string &message) {
        m_state.recordEvent(involved, ns, "Normal", reason, message, component, "");
    };
    json updated = job;
    json &status = updated["status"];
    if (!suspend) {
        // Resumed: the pods come back through the gang's admission, as for a new job.
        const std::string msg = v2 ? "MPIJob resumed" : kind + " " + name + " is resumed.";
        putCondition(status, jobCondition("Suspended", "False", kind + "Resumed", msg, now));
        status["startTime"] = now;
        tell(kind + "Resumed", msg);
        m_state.store->update(type, updated, QString::fromStdString(component));
        return false;
    }
    // Suspended: every pod goes (finished jobs keep theirs), and the PodGroup with them.
    for (const auto &stored : m_state.store->list(m_state.pods, QString::fromStdString(ns))) {
        const json &pod = *stored.object;
        if (sub(pod["metadata"], "labels").value("training.kubeflow.org/job-name", "") != name ||
            pod["metadata"].contains("deletionTimestamp"))
            continue;
        m_state.store->requestDelete(m_state.pods, QString::fromStdString(ns),
                                     ObjectStore::nameOf(pod), {});
        if (!v2)
            tell("SuccessfulDeletePod", "Deleted pod: " + pod["metadata"].value("name", ""));
    }
    if (m_state.store
            ->get(m_state.podgroups, QString::fromStdString(ns), QString::fromStdString(name))
            .ok()) {
        if (!v2)
            tell("JobTerminated", "Job has been terminated. Deleting PodGroup");
        m_state.store->requestDelete(m_state.podgroups, QString::fromStdString(ns),
                                     QString::fromStdString(name), {});
        if (!v2)
            tell("SuccessfulDeletePodGroup", "Deleted PodGroup: " + name);
    }
    for (auto &[role, rs] : status["replicaStatuses"].items())
        if (rs.is_object() && rs.contains("active"))
            rs["active"] = 0;
    const std::string msg =
        v2 ? "MPIJob " + ns + "/" + name + " is suspended." : kind + " " + name + " is suspended.";
    if (const json *running = findCondition(status, "Running");
        running && running->value("status", "") == "True")
        putCondition(status, jobCondition("Running", "False", kind + "Suspended", msg, now));
    const std::string suspendedMsg = v2 ? "MPIJob suspended" : msg;
    if (putCondition(status,
                     jobCondition("Suspended", "True", kind + "Suspended", suspendedMsg, now)))
        tell(kind + "Suspended", suspendedMsg);
    if (updated != job)
        m_state.store->update(type, updated, QString::fromStdString(component));
    return true;
}

void KubeflowController::reconcileJobs(const ResourceType *type)
{
    ObjectStore *store = m_state.store;
    const bool mpi = type == m_state.mpijobs;
    auto &podsByJob = m_podsOf[type];
    std::unordered_map<std::string, JobPods> kept;
    for (const auto &stored : store->list(type)) {
        const json &job = *stored.object;
        const json conds = sub(sub(job, "status"), "conditions");
        bool done = false;
        for (const auto &c : conds)
            done |= (c.value("type", "") == "Succeeded" || c.value("type", "") == "Failed") &&
                    c.value("status", "") == "True";
        // A job being deleted is the garbage collector's; a finished one is left as it is.
        if (done || job["metadata"].contains("deletionTimestamp"))
            continue;
        if (suspendOrResume(type, job))
            continue;
        const std::string ns = job["metadata"].value("namespace", "");
        const std::string name = job["metadata"].value("name", "");
        const std::string queue =
            sub(sub(job["spec"], "runPolicy"), "schedulingPolicy").value("queue", "default");
        const std::string uid = job["metadata"].value("uid", "");
        JobPods &built = kept[uid];
        if (auto it = podsByJob.find(uid); it != podsByJob.end() && it->second.rv == stored.rv)
            built = std::move(it->second);
        else
            built = {stored.rv, podsOf(type, job, queue)};
        const std::vector<json> &pods = built.pods;
        int gpus = 0;
        for (const auto &p : pods)
            gpus += int(podRequests(p).gpus);
        m_admission.ensurePodGroup(job, name, queue, int(pods.size()), gpus);
        const auto pgRes =
            store->get(m_state.podgroups, QString::fromStdString(ns), QString::fromStdString(name));
        if (!pgRes.ok())
            continue;
        json pg = *pgRes.object.object;
        const std::string pgPhase = m_admission.admit(pg, gpus);
        if (pgPhase == "Inqueue" || pgPhase == "Running")
            m_admission.createPods(job, pods);
        int running = 0, succeeded = 0, failed = 0;
        bool masterSucceeded = false;
        std::vector<std::pair<std::string, std::string>> podPhases; // name, phase
        json replicaStatuses = json::object();
        for (const auto &p : pods) {
            const auto live = store->get(m_state.pods, QString::fromStdString(ns),
                                         QString::fromStdString(p["metadata"].value("name", "")));
            if (!live.ok())
                continue;
            const std::string ph = sub((*live.object.object), "status").value("phase", "");
            if (!sub((*live.object.object), "metadata").contains("deletionTimestamp"))
                podPhases.emplace_back(p["metadata"].value("name", ""), ph);
            std::string role =
                p["metadata"]["labels"].value("training.kubeflow.org/replica-type", "");
            if (!role.empty())
                role[0] = char(std::toupper(static_cast<unsigned char>(role[0])));
            json &rs = replicaStatuses[role];
            if (rs.is_null())
                rs = json::object();
            if (ph == "Running") {
                ++running;
                rs["active"] = rs.value("active", 0) + 1;
            } else if (ph == "Succeeded") {
                ++succeeded;
                rs["succeeded"] = rs.value("succeeded", 0) + 1;
                if (role == "Master" || role == "Launcher")
                    masterSucceeded = true;
            } else if (ph == "Failed") {
                ++failed;
                rs["failed"] = rs.value("failed", 0) + 1;
            }
        }
        // The status alone is copied and compared, not the whole job (see VolcanoController).
        json status = sub(job, "status");
        status["replicaStatuses"] = replicaStatuses;
        const std::string kind = type->kind.toStdString();
        const std::string now = m_state.clock->nowRfc3339();
        if (failed > 0) {
            setCondition(status, condition("Running", "False", now, kind + "Failed", ""));
            setCondition(status, condition("Failed", "True", now, kind + "Failed",
                                           kind + " " + ns + "/" + name + " has failed because " +
                                               std::to_string(failed) + " replica(s) failed."));
            status["completionTime"] = now;
        } else if (masterSucceeded && (mpi || succeeded == int(pods.size()) || succeeded > 0)) {
            setCondition(status, condition("Running", "False", now, kind + "Succeeded", ""));
            setCondition(status,
                         condition("Succeeded", "True", now, kind + "Succeeded",
                                   kind + " " + ns + "/" + name + " successfully completed."));
            status["completionTime"] = now;
        } else if (running == int(pods.size()) && running > 0) {
            setCondition(status, condition("Running", "True", now, kind + "Running",
                                           kind + " " + ns + "/" + name + " is running."));
            if (!status.contains("startTime"))
                status["startTime"] = now;
        }
        // The operator's cleanPodPolicy once the job has ended: Running deletes the pods still
        // running or waiting (an MPI job's workers, idle once its launcher is done), All every
        // pod, None (the default) none.
        const bool ended = failed > 0 || sub(status, "completionTime").is_string();
        const std::string clean =
            sub(job["spec"], "runPolicy").value("cleanPodPolicy", std::string("None"));
        if (ended && (clean == "Running" || clean == "All"))
            for (const auto &[pod, phase] : podPhases)
                if (clean == "All" || phase == "Running" || phase == "Pending")
                    store->requestDelete(m_state.pods, QString::fromStdString(ns),
                                         QString::fromStdString(pod), DeleteOptions());
        if (status != sub(job, "status")) {
            json updated = job;
            updated["status"] = std::move(status);
            store->update(type, updated);
        }
        if (running == int(pods.size()) && running > 0 && pgPhase == "Inqueue") {
            pg["status"]["phase"] = "Running";
            pg["status"]["running"] = running;
            store->update(m_state.podgroups, pg);
        } else if ((failed > 0 || masterSucceeded) && pgPhase != "Completed") {
            pg = *store
                      ->get(m_state.podgroups, QString::fromStdString(ns),
                            QString::fromStdString(name))
                      .object.object;
            pg["status"]["phase"] = "Completed";
            store->update(m_state.podgroups, pg);
        }
    }
    podsByJob = std::move(kept); // a finished or deleted job's pods are not kept
}

} // namespace sim
