// SPDX-License-Identifier: GPL-3.0-or-later
#include "simulation.h"

#include "admission.h"
#include "dcgmexporter.h"
#include "disruptioncontroller.h"
#include "kubeflowcontroller.h"
#include "kubeletcontroller.h"
#include "machinescontroller.h"
#include "namespacecontroller.h"
#include "nodeadmin.h"
#include "nodemachine.h"
#include "objectfactory.h"
#include "priorityadmission.h"
#include "queuecontroller.h"
#include "quotaadmission.h"
#include "quotacontroller.h"
#include "schedulercontroller.h"
#include "simclock.h"
#include "truth.h"
#include "volcanocontroller.h"
#include "volcanowebhooks.h"

#include <QLoggingCategory>

#include <algorithm>

Q_LOGGING_CATEGORY(lcSim, "gpudesk.sim")

namespace sim {

using nlohmann::json;

Simulation::Simulation(ObjectStore *store, SimClock *clock, MachineRegistry *machines,
                       SimOptions options, QObject *parent)
    : QObject(parent), m_state(store, clock, machines, std::move(options)),
      m_machines(std::make_unique<MachinesController>(m_state)),
      m_nodeAdmin(std::make_unique<NodeAdmin>(m_state)),
      m_disruption(std::make_unique<DisruptionController>(m_state)),
      m_volcano(std::make_unique<VolcanoController>(m_state)),
      m_kubeflow(std::make_unique<KubeflowController>(m_state)),
      m_scheduler(std::make_unique<SchedulerController>(m_state)),
      m_kubelet(std::make_unique<KubeletController>(m_state, *m_machines)),
      m_workload(std::make_unique<WorkloadGenerator>(m_state)),
      m_quotaAdmission(std::make_unique<QuotaAdmission>(store)),
      m_webhooks(std::make_unique<VolcanoWebhooks>(m_state)),
      m_queues(std::make_unique<QueueController>(m_state)),
      m_quotas(std::make_unique<QuotaController>(m_state, *m_quotaAdmission)),
      m_namespaces(std::make_unique<NamespaceController>(m_state))
{
    connect(store, &ObjectStore::changed, this, &Simulation::onChanged);
    connect(&m_timer, &QTimer::timeout, this, [this] { step(1000); });
    // Churn in small real-time slices, so 10,000 events a second arrive as a stream, not bursts.
    m_churnTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_churnTimer, &QTimer::timeout, this,
            [this] { m_workload->churn(m_churnClock.restart()); });
    // A kill on a node's shell (an SSH thread) ends a container: its kubelet records it on
    // this thread, at once, whatever the speed.
    machines->setExitListener([this] {
        QMetaObject::invokeMethod(this, &Simulation::handleContainerExits, Qt::QueuedConnection);
    });
}

Simulation::~Simulation()
{
    m_state.machines->setExitListener({});
}

void Simulation::handleContainerExits()
{
    m_kubelet->handleContainerExits();
    // The restarted containers' processes, now.
    m_machines->update(0);
}

void Simulation::syncDisruptionBudgets(const QString &ns)
{
    m_disruption->syncNamespace(ns);
}

std::string Simulation::dcgmMetrics() const
{
    return DcgmExporter(m_state).metrics();
}

std::function<QByteArray()> Simulation::dcgmHistory(qint64 startSecs, qint64 endSecs,
                                                    qint64 stepSecs) const
{
    return DcgmExporter(m_state).history(startSecs, endSecs, stepSecs);
}

void Simulation::setChurn(double perSecond)
{
    m_state.options.churn = std::max(0.0, perSecond);
    m_workload->resetChurn();
    if (m_state.options.churn > 0 && m_static) {
        m_churnClock.start();
        m_churnTimer.start(20);
    } else {
        m_churnTimer.stop();
    }
}

void Simulation::start()
{
    setChurn(m_state.options.churn);
    if (m_state.options.speed <= 0)
        return;
    // One simulated second per step; fast speeds step more often.
    m_timer.start(std::max(20, int(1000.0 / m_state.options.speed)));
}

Behavior Simulation::behaviorOf(const std::string &uid) const
{
    return m_state.behaviorOf(uid);
}

std::optional<ApiError> Simulation::admit(const ResourceType *type, json &o)
{
    if (auto refused = Admission::admit(type, o))
        return refused;
    if (type == m_state.pods) {
        if (auto refused = PriorityAdmission(m_state.store).admit(o))
            return refused;
        return m_quotaAdmission->admitPod(o);
    }
    if (type->resource == QLatin1String("persistentvolumeclaims"))
        return m_quotaAdmission->admitClaim(o);
    if (type->resource == QLatin1String("limitranges"))
        QuotaAdmission::defaultLimitRange(o);
    if (type == m_state.queues)
        return m_webhooks->admitQueue(o);
    if (type == m_state.vcjobs)
        return m_webhooks->admitJob(o);
    return std::nullopt;
}

std::optional<ApiError> Simulation::admitUpdate(const ResourceType *type, json &o)
{
    if (type == m_state.queues)
        return m_webhooks->admitQueue(o);
    if (type->resource == QLatin1String("limitranges"))
        QuotaAdmission::defaultLimitRange(o);
    return std::nullopt;
}

std::optional<ApiError> Simulation::admitDelete(const ResourceType *type, const QString &,
                                                const QString &name)
{
    if (type == m_state.queues)
        return m_webhooks->admitQueueDelete(name);
    return std::nullopt;
}

void Simulation::onChanged(const ResourceType *type, const WatchEvent &ev)
{
    // Every write of a pod, by a controller or a client, keeps the pod index current.
    if (type != m_state.pods)
        return;
    const json &p = *ev.object.object;
    const std::string uid = p["metadata"].value("uid", "");
    if (ev.type == "DELETED") {
        const auto info = m_state.podInfo.find(uid);
        m_machines->podRemoved(uid, info == m_state.podInfo.end() ||
                                        m_state.nodeReady(info->second.node));
        m_state.forgetPod(uid);
        m_kubelet->forgetPod(uid);
        return;
    }
    PodInfo &info = m_state.indexPod(p);
    const bool needsCards = (info.cards.empty() && info.gpus > 0) ||
                            (info.migDevices.empty() && !info.migRequests.empty());
    if (!info.terminated() && !info.node.empty() && needsCards)
        m_scheduler->assignCards(uid, info);
}

json Simulation::objectRef(const ResourceType *type, const std::string &ns,
                           const std::string &name) const
{
    return m_state.objectRef(type, ns, name);
}

json Simulation::truth() const
{
    return Truth(m_state).toJson();
}

void Simulation::step(qint64 ms)
{
    m_state.clock->advanceMs(ms);
    runScript();
    if (m_static) {
        m_machines->update(ms);
        return;
    }
    runControllers(ms);
    for (qint64 s = 0; s < ms; s += 1000)
        m_workload->generate();
}

void Simulation::runScript()
{
    while (!m_script.empty() && m_script.begin()->first <= m_state.clock->nowMs()) {
        auto action = std::move(m_script.begin()->second);
        m_script.erase(m_script.begin());
        action();
    }
}

void Simulation::runControllers(qint64 ms)
{
    m_volcano->reconcileJobs();
    m_kubeflow->reconcileJobs(m_state.pytorchjobs);
    m_kubeflow->reconcileJobs(m_state.mpijobs);
    m_scheduler->schedulePods();
    m_kubelet->handleContainerExits();
    m_kubelet->runKubelets();
    m_queues->sync();
    m_quotas->sync();
    m_namespaces->sync();
    m_nodeAdmin->syncUnschedulableTaints();
    m_disruption->syncAll();
    m_machines->update(ms);
}

json Simulation::submitVolcanoJob(const JobInput &in)
{
    return m_workload->submitVolcanoJob(in);
}

json Simulation::submitPyTorchJob(const JobInput &in)
{
    return m_workload->submitPyTorchJob(in);
}

json Simulation::submitMpiJob(const JobInput &in)
{
    return m_workload->submitMpiJob(in);
}

json Simulation::submitPod(const JobInput &in)
{
    return m_workload->submitPod(in);
}

void Simulation::addUser(const std::string &user, const std::string &queue, int gpuQuota)
{
    m_users.emplace_back(user, queue);
    m_workload->addUser(user, queue, gpuQuota);
}

void Simulation::setNodeReady(const std::string &node, bool ready, const std::string &message)
{
    m_nodeAdmin->setNodeReady(node, ready, message);
}

void Simulation::setDiskPressure(const std::string &node, int percentUsed)
{
    m_nodeAdmin->setDiskPressure(node, percentUsed);
}

void Simulation::evictForDiskPressure(const std::string &ns, const std::string &name,
                                      const std::string &usage)
{
    m_nodeAdmin->evictForDiskPressure(ns, name, usage);
}

void Simulation::setPhantom(const std::string &node, int card, int memoryMiB)
{
    m_nodeAdmin->setPhantom(node, card, memoryMiB);
}

void Simulation::kernelMessage(const std::string &node, const std::string &message)
{
    m_nodeAdmin->kernelMessage(node, message);
}

int Simulation::eccErrors(const std::string &node, const std::string &podUid, int count)
{
    return m_nodeAdmin->eccErrors(node, podUid, count);
}

bool Simulation::setDriverState(const std::string &node, const std::string &state)
{
    return m_nodeAdmin->setDriverState(node, state);
}

bool Simulation::setNodeReady(const std::string &node, bool ready)
{
    if (!m_state.machines->snapshot(node))
        return false;
    m_nodeAdmin->setNodeReady(node, ready, "Kubelet stopped posting node status.");
    return true;
}

bool Simulation::setSshState(const std::string &node, const std::string &state)
{
    if (state != "frozen" && state != "live")
        return false;
    return m_state.machines->setSshFrozen(node, state == "frozen");
}

void Simulation::cordon(const std::string &node)
{
    m_nodeAdmin->cordon(node);
}

void Simulation::addNodeMachine(const json &node, const std::string &cgroupStyle, int migCards)
{
    m_machines->addNodeMachine(node, cgroupStyle, migCards);
}

void Simulation::deletePod(const std::string &ns, const std::string &pod)
{
    m_state.store->requestDelete(m_state.pods, QString::fromStdString(ns),
                                 QString::fromStdString(pod), {});
}

void Simulation::forceDelete(const std::string &ns, const std::string &pod)
{
    DeleteOptions o;
    o.gracePeriodSeconds = 0;
    m_state.store->requestDelete(m_state.pods, QString::fromStdString(ns),
                                 QString::fromStdString(pod), o);
}

std::string Simulation::recreatePod(const std::string &ns, const std::string &name)
{
    const auto res =
        m_state.store->get(m_state.pods, QString::fromStdString(ns), QString::fromStdString(name));
    if (!res.ok())
        return {};
    json pod = *res.object.object;
    const std::string oldUid = pod["metadata"].value("uid", "");
    // As a Deployment's or StatefulSet's controller makes its replacement: same labels and spec,
    // a new name (the base without a previous suffix) and uid, the same node.
    std::string base = name;
    if (const auto dash = base.rfind("-r"); dash != std::string::npos && base.size() - dash == 7)
        base.resize(dash);
    static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
    std::string suffix = "-r";
    for (int i = 0; i < 5; ++i)
        suffix += alphabet[m_state.rng() % (sizeof alphabet - 1)];
    json meta{{"name", base + suffix}, {"namespace", ns}};
    for (const char *key : {"labels", "annotations"})
        if (pod["metadata"].contains(key))
            meta[key] = pod["metadata"][key];
    pod["metadata"] = meta;
    pod.erase("status");
    const Behavior behavior = m_state.behaviorOf(oldUid);
    const auto created = m_state.store->create(m_state.pods, std::move(pod));
    if (!created.ok())
        return {};
    m_state.behaviors[(*created.object.object)["metadata"].value("uid", "")] = behavior;
    forceDelete(ns, name);
    return base + suffix;
}

} // namespace sim
