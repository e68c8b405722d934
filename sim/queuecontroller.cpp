// SPDX-License-Identifier: GPL-3.0-or-later
#include "queuecontroller.h"

#include "objectfactory.h"
#include "quotaadmission.h"

namespace sim {

using nlohmann::json;

QueueController::QueueController(SimState &state) : m_state(state)
{
    connect(state.store, &ObjectStore::changed, this, &QueueController::onChanged);
}

void QueueController::onChanged(const ResourceType *type, const WatchEvent &ev)
{
    // A queue's Command is acted on at once, whatever the speed; the figures follow each step.
    if (type != m_state.commands || ev.type != "ADDED" ||
        str(sub(*ev.object.object, "target"), "kind") != "Queue" || m_scheduled)
        return;
    m_scheduled = true;
    QMetaObject::invokeMethod(this, &QueueController::sync, Qt::QueuedConnection);
}

std::map<std::string, std::string> QueueController::takeCommands()
{
    std::map<std::string, std::string> wanted;
    for (const auto &stored : m_state.store->list(m_state.commands)) {
        const json cmd = *stored.object;
        const json &target = sub(cmd, "target");
        if (str(target, "kind") != "Queue")
            continue;
        if (!m_state.store
                 ->requestDelete(m_state.commands, ObjectStore::namespaceOf(cmd),
                                 ObjectStore::nameOf(cmd), {})
                 .ok())
            continue;
        const std::string action = str(cmd, "action");
        const std::string queue = str(target, "name");
        const auto q = m_state.store->get(m_state.queues, {}, QString::fromStdString(queue));
        // A Command for a queue made again since is not for this one.
        if (!q.ok() ||
            (target.contains("uid") && target["uid"] != sub(*q.object.object, "metadata")["uid"]))
            continue;
        if (action == "OpenQueue" || action == "CloseQueue") {
            wanted[queue] = action == "OpenQueue" ? "Open" : "Closed";
            m_state.recordEvent(m_state.objectRef(m_state.queues, "", queue), "default", "Normal",
                                action,
                                "Start to execute command " + action +
                                    ", and clean it up to make sure executed not more "
                                    "than once.",
                                "vc-controller-manager", "");
        }
    }
    return wanted;
}

void QueueController::sync()
{
    m_scheduled = false;
    ObjectStore *store = m_state.store;
    const auto wanted = takeCommands();
    struct Counts
    {
        int running = 0, pending = 0, inqueue = 0, unknown = 0, groups = 0;
    };
    std::map<std::string, Counts> counts;
    for (const auto &pg : store->list(m_state.podgroups)) {
        Counts &c = counts[str(sub(*pg.object, "spec"), "queue", "default")];
        const std::string ph = str(sub(*pg.object, "status"), "phase");
        c.running += ph == "Running";
        c.pending += ph == "Pending";
        c.inqueue += ph == "Inqueue";
        c.unknown += ph == "Unknown";
        ++c.groups;
    }
    struct Allocated
    {
        qint64 gpus = 0, cpuMilli = 0, memoryBytes = 0, pods = 0;
    };
    std::map<std::string, Allocated> allocated;
    for (const auto &[uid, info] : m_state.podInfo) {
        if (info.queue.empty() || info.node.empty() || info.terminated())
            continue;
        Allocated &a = allocated[info.queue];
        a.gpus += info.gpus;
        a.cpuMilli += info.cpuMilli;
        a.memoryBytes += info.memoryBytes;
        ++a.pods;
    }
    for (const auto &q : store->list(m_state.queues)) {
        json queue = *q.object;
        const std::string name = queue["metadata"].value("name", "");
        const Counts c = counts[name];
        const Allocated a = allocated[name];
        std::string state = str(sub(queue, "status"), "state", "Open");
        if (const auto w = wanted.find(name); w != wanted.end())
            state = w->second;
        // Closing while pod groups remain; Closed once none do.
        if (state == "Closed" || state == "Closing")
            state = c.groups > 0 ? "Closing" : "Closed";
        json status{{"state", state},
                    {"running", c.running},
                    {"pending", c.pending},
                    {"inqueue", c.inqueue},
                    {"unknown", c.unknown},
                    {"allocated",
                     {{"nvidia.com/gpu", std::to_string(a.gpus)},
                      {"cpu", QuotaAdmission::canonical("cpu", a.cpuMilli)},
                      {"memory", QuotaAdmission::canonical("memory", a.memoryBytes * 1000)},
                      {"pods", std::to_string(a.pods)}}},
                    {"reservation", json::object()}};
        if (sub(queue, "status") != status) {
            queue["status"] = status;
            store->update(m_state.queues, queue, QStringLiteral("volcano-controllers"));
        }
    }
}

} // namespace sim
