// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "behavior.h"
#include "objectstore.h"
#include "simstate.h"
#include "workloadgenerator.h"

#include <nlohmann/json.hpp>

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace sim {

class DisruptionController;
class KubeflowController;
class KubeletController;
class MachineRegistry;
class MachinesController;
class NamespaceController;
class NodeAdmin;
class QuotaAdmission;
class QuotaController;
class QueueController;
class VolcanoWebhooks;
class SchedulerController;
class SimClock;
class VolcanoController;

// The cluster's behaviour: controllers for Volcano and Kubeflow jobs, the scheduler, kubelets,
// a workload generator and the nodes' hardware, each acting on the object store the way real
// controllers act on the API server (read, change, write back). This class runs them in order
// on each step, plays the scenario's script and keeps the shared state's pod index current.
class Simulation : public QObject
{
    Q_OBJECT
public:
    Simulation(ObjectStore *store, SimClock *clock, MachineRegistry *machines, SimOptions options,
               QObject *parent = nullptr);
    ~Simulation() override;

    void build(); // the scenario, including its simulated past
    void start(); // live steps, unless --speed 0
    // Scale scenario: pod creations, changes and deletions per real second, independent of
    // --speed (so a frozen cluster can still be churned for client benchmarks).
    void setChurn(double perSecond);
    double churnRate() const { return m_state.options.churn; }
    void step(qint64 ms);

    Behavior behaviorOf(const std::string &podUid) const;
    // Admission of a create: the defaulting and validation a real API server does for pods,
    // events and PodDisruptionBudgets, its LimitRanger and ResourceQuota plugins and Volcano's
    // webhooks (the store itself refuses content in a namespace being terminated); an error
    // refuses the object.
    std::optional<ApiError> admit(const ResourceType *type, nlohmann::json &object);
    // Admission of an update (PUT or PATCH of the object, not its status) and of a delete.
    std::optional<ApiError> admitUpdate(const ResourceType *type, nlohmann::json &object);
    std::optional<ApiError> admitDelete(const ResourceType *type, const QString &ns,
                                        const QString &name);
    nlohmann::json truth() const;
    // DCGM-exporter's metrics now (Prometheus text format 0.0.4), and its history in the
    // simulated past as OpenMetrics with timestamps, produced in pieces.
    std::string dcgmMetrics() const;
    std::function<QByteArray()> dcgmHistory(qint64 startSecs, qint64 endSecs,
                                            qint64 stepSecs) const;
    // The disruption controller's pass over one namespace's budgets (before an eviction).
    void syncDisruptionBudgets(const QString &ns);
    // Containers a kill ended: the kubelet records them at once, whatever the speed.
    void handleContainerExits();
    const std::vector<PlantedCase> &planted() const { return m_state.planted; }
    const SimOptions &options() const { return m_state.options; }

    // Submission helpers, used by the scenarios and the workload generator.
    using TaskInput = sim::TaskInput;
    using JobInput = sim::JobInput;
    nlohmann::json submitVolcanoJob(const JobInput &in);
    nlohmann::json submitPyTorchJob(const JobInput &in); // tasks[0] master, tasks[1] workers
    nlohmann::json submitMpiJob(const JobInput &in);     // tasks[0] workers
    nlohmann::json submitPod(const JobInput &in);        // tasks[0] the pod
    void addUser(const std::string &user, const std::string &queue, int gpuQuota);
    // The scenario's users and their VCs, in the order added (the NAS's folders are made from
    // them).
    const std::vector<std::pair<std::string, std::string>> &users() const { return m_users; }
    void setNas(const NasTree *nas) { m_state.nas = nas; }
    void addPlanted(PlantedCase c) { m_state.planted.push_back(std::move(c)); }
    void at(qint64 simMs, std::function<void()> action)
    {
        m_script.emplace(simMs, std::move(action));
    }
    void setNodeReady(const std::string &node, bool ready, const std::string &message);
    void setDiskPressure(const std::string &node, int percentUsed);
    void evictForDiskPressure(const std::string &ns, const std::string &name,
                              const std::string &usage);
    void setPhantom(const std::string &node, int card, int memoryMiB);
    void kernelMessage(const std::string &node, const std::string &message);
    int eccErrors(const std::string &node, const std::string &podUid, int count);
    // Breaks (or mends) what nvidia-smi meets on a node: ok, failed, nodevices, missing. False
    // for an unknown node or state.
    bool setDriverState(const std::string &node, const std::string &state);
    // False when there is no such node.
    bool setNodeReady(const std::string &node, bool ready);
    // "frozen" or "live": whether the node's SSH endpoint answers (MachineRegistry::setSshFrozen).
    bool setSshState(const std::string &node, const std::string &state);
    void cordon(const std::string &node);
    void forceDelete(const std::string &ns, const std::string &pod);
    // The pod made again under a new name on its node, the old one gone at once (a dev
    // environment's controller replacing its pod). The new name, or "" when there is no pod.
    std::string recreatePod(const std::string &ns, const std::string &name);
    void deletePod(const std::string &ns, const std::string &pod);
    void addNodeMachine(const nlohmann::json &node, const std::string &cgroupStyle,
                        int migCards = 0);
    nlohmann::json objectRef(const ResourceType *type, const std::string &ns,
                             const std::string &name) const;

    const ResourceType *pods() const { return m_state.pods; }
    const ResourceType *nodes() const { return m_state.nodes; }
    const ResourceType *vcjobs() const { return m_state.vcjobs; }
    const ResourceType *pytorchjobs() const { return m_state.pytorchjobs; }
    const ResourceType *mpijobs() const { return m_state.mpijobs; }
    const ResourceType *pdbs() const { return m_state.pdbs; }
    const ResourceType *commands() const { return m_state.commands; }
    ObjectStore *store() const { return m_state.store; }
    SimClock *clock() const { return m_state.clock; }
    std::mt19937_64 &rng() { return m_state.rng; }

private:
    void onChanged(const ResourceType *type, const WatchEvent &event);
    void runScript();
    void runControllers(qint64 ms);
    void buildScale();
    void plantCleanupFindings(qint64 endMs); // the scenario's zombies, part two
    void plantMigNode(qint64 endMs);

    SimState m_state;
    std::unique_ptr<MachinesController> m_machines;
    std::unique_ptr<NodeAdmin> m_nodeAdmin;
    std::unique_ptr<DisruptionController> m_disruption;
    std::unique_ptr<VolcanoController> m_volcano;
    std::unique_ptr<KubeflowController> m_kubeflow;
    std::unique_ptr<SchedulerController> m_scheduler;
    std::unique_ptr<KubeletController> m_kubelet;
    std::unique_ptr<WorkloadGenerator> m_workload;
    std::unique_ptr<QuotaAdmission> m_quotaAdmission;
    std::unique_ptr<VolcanoWebhooks> m_webhooks;
    std::unique_ptr<QueueController> m_queues;
    std::unique_ptr<QuotaController> m_quotas;
    std::unique_ptr<NamespaceController> m_namespaces;

    QTimer m_timer;
    bool m_static = false; // scale scenario: no controllers, only churn
    std::multimap<qint64, std::function<void()>> m_script;
    std::vector<std::pair<std::string, std::string>> m_users; // user → VC
    QTimer m_churnTimer;
    QElapsedTimer m_churnClock;
};

} // namespace sim
