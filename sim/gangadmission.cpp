// SPDX-License-Identifier: GPL-3.0-or-later
#include "gangadmission.h"

#include "objectfactory.h"
#include "priorityadmission.h"
#include "simclock.h"
#include "simhelpers.h"
#include "simstate.h"

namespace sim {

using nlohmann::json;

GangAdmission::GangAdmission(SimState &state) : m_state(state) {}

void GangAdmission::ensurePodGroup(const json &job, const std::string &pgName,
                                   const std::string &queue, int minMember, int gpus)
{
    const std::string ns = job["metadata"].value("namespace", "");
    if (m_state.store
            ->get(m_state.podgroups, QString::fromStdString(ns), QString::fromStdString(pgName))
            .ok())
        return;
    json pg{{"metadata",
             {{"name", pgName},
              {"namespace", ns},
              {"ownerReferences",
               {ObjectFactory::ownerRef(job.value("apiVersion", ""), job.value("kind", ""),
                                        job["metadata"].value("name", ""),
                                        job["metadata"].value("uid", ""))}}}},
            {"spec",
             {{"minMember", minMember},
              {"queue", queue},
              {"minResources", {{"nvidia.com/gpu", std::to_string(gpus)}}}}},
            {"status", {{"phase", "Pending"}}}};
    m_state.store->create(m_state.podgroups, std::move(pg),
                          QStringLiteral("vc-controller-manager"));
}

bool GangAdmission::queueHasRoom(const json &pg, int gpus, std::string *why) const
{
    const std::string queue = pg["spec"].value("queue", "default");
    const auto q = m_state.store->get(m_state.queues, {}, QString::fromStdString(queue));
    if (!q.ok()) {
        *why = "queue " + queue + " does not exist";
        return false;
    }
    const json cap = sub((*q.object.object)["spec"], "capability");
    if (!cap.contains("nvidia.com/gpu"))
        return true;
    const qint64 capacity = parseQuantityMilli(cap["nvidia.com/gpu"]) / 1000;
    // Admitted but not yet bound gangs count against the queue too.
    int admitted = 0;
    for (const auto &other : m_state.store->list(m_state.podgroups)) {
        const json &o = *other.object;
        if (o["spec"].value("queue", "") == queue &&
            sub(o, "status").value("phase", "") == "Inqueue")
            admitted += int(parseQuantityMilli(
                                sub(o["spec"], "minResources").value("nvidia.com/gpu", json("0"))) /
                            1000);
    }
    const int allocated = m_state.queueAllocated(queue);
    if (allocated + admitted + gpus <= capacity)
        return true;
    *why = "queue resource quota insufficient: queue " + queue + " capability nvidia.com/gpu " +
           std::to_string(capacity) + ", allocated " + std::to_string(allocated + admitted) +
           ", requested " + std::to_string(gpus);
    return false;
}

std::string GangAdmission::admit(json &pg, int gpus)
{
    const std::string phase = sub(pg, "status").value("phase", "Pending");
    if (phase != "Pending")
        return phase;
    std::string why;
    if (queueHasRoom(pg, gpus, &why)) {
        pg["status"]["phase"] = "Inqueue";
        pg["status"]["conditions"] = json::array(); // why it waited no longer holds
        m_state.store->update(m_state.podgroups, pg);
        return "Inqueue";
    }
    json status = pg["status"];
    setCondition(status, condition("Unschedulable", "True", m_state.clock->nowRfc3339(),
                                   "NotEnoughResources", why));
    // Written, and told, only when the reason changes: each step would repeat it otherwise.
    if (pg["status"] != status) {
        pg["status"] = status;
        m_state.store->update(m_state.podgroups, pg);
        const std::string ns = pg["metadata"].value("namespace", "");
        m_state.recordEvent(
            m_state.objectRef(m_state.podgroups, ns, pg["metadata"].value("name", "")), ns,
            "Warning", "Unschedulable", why, "volcano", "");
    }
    return phase;
}

void GangAdmission::createPods(const json &job, const std::vector<json> &pods)
{
    const std::string ns = job["metadata"].value("namespace", "");
    const PriorityAdmission priorities(m_state.store);
    for (json p : pods) {
        const auto exists = m_state.store->get(
            m_state.pods, QString::fromStdString(p["metadata"].value("namespace", "")),
            QString::fromStdString(p["metadata"].value("name", "")));
        if (exists.ok())
            continue;
        // The API server admits a controller's pods as it admits a client's.
        if (const auto refused = priorities.admit(p)) {
            m_state.recordEvent(
                m_state.objectRef(m_state.store->types()->byKind(
                                      QString::fromStdString(job.value("apiVersion", "")),
                                      QString::fromStdString(job.value("kind", ""))),
                                  ns, job["metadata"].value("name", "")),
                ns, "Warning", "FailedCreate", "Error creating: " + refused->message.toStdString(),
                "vc-controller-manager", "");
            continue;
        }
        const auto res =
            m_state.store->create(m_state.pods, p, QStringLiteral("vc-controller-manager"));
        if (res.ok())
            m_state.recordEvent(
                m_state.objectRef(m_state.store->types()->byKind(
                                      QString::fromStdString(job.value("apiVersion", "")),
                                      QString::fromStdString(job.value("kind", ""))),
                                  ns, job["metadata"].value("name", "")),
                ns, "Normal", "SuccessfulCreate", "Created pod: " + p["metadata"].value("name", ""),
                "vc-controller-manager", "");
    }
}

} // namespace sim
