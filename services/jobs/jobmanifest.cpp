// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobmanifest.h"

#include <nlohmann/json.hpp>

namespace gpudesk {

using json = nlohmann::json;

namespace {

std::string str(const QString &s)
{
    return s.toStdString();
}

// One pod of the job: `gpus` cards (0: the MPI launcher), the spec's CPU, memory, /dev/shm,
// variables and data, running `command`.
json podTemplate(const JobSpec &spec, const char *container, int gpus, const json &command,
                 const char *restartPolicy)
{
    json labels{{"app.kubernetes.io/managed-by", "gpudesk"}};
    json metadata{{"labels", labels}};
    if (!spec.queue.isEmpty()) {
        metadata["labels"]["volcano.sh/queue-name"] = str(spec.queue);
        metadata["annotations"] = {{"scheduling.volcano.sh/queue-name", str(spec.queue)}};
    }
    const bool launcher = gpus == 0 && spec.kind == JobSpec::Mpi;
    json requests{{"cpu", launcher ? "1" : str(spec.cpu)},
                  {"memory", launcher ? "2Gi" : str(spec.memory)}};
    json limits{{"memory", launcher ? "2Gi" : str(spec.memory)}};
    if (gpus > 0) {
        requests["nvidia.com/gpu"] = std::to_string(gpus);
        limits["nvidia.com/gpu"] = std::to_string(gpus);
    }
    json mounts = json::array();
    json volumes = json::array();
    if (!spec.shm.isEmpty() && !launcher) {
        mounts.push_back({{"name", "dshm"}, {"mountPath", "/dev/shm"}});
        volumes.push_back(
            {{"name", "dshm"}, {"emptyDir", {{"medium", "Memory"}, {"sizeLimit", str(spec.shm)}}}});
    }
    int n = 0;
    for (const QString &m : spec.mounts) {
        const std::string name = "data-" + std::to_string(n++);
        if (m.startsWith(u'/')) {
            // The NAS every node mounts: the same path inside the container.
            mounts.push_back({{"name", name}, {"mountPath", str(m)}});
            volumes.push_back(
                {{"name", name}, {"hostPath", {{"path", str(m)}, {"type", "Directory"}}}});
        } else {
            mounts.push_back({{"name", name}, {"mountPath", str(m.section(u':', 1))}});
            volumes.push_back(
                {{"name", name},
                 {"persistentVolumeClaim", {{"claimName", str(m.section(u':', 0, 0))}}}});
        }
    }
    json env = json::array();
    for (const auto &[k, v] : spec.env)
        env.push_back({{"name", str(k)}, {"value", str(v)}});
    json c{{"name", container},
           {"image", str(spec.image.trimmed())},
           {"command", command},
           {"resources", {{"requests", requests}, {"limits", limits}}}};
    if (spec.alwaysPull)
        c["imagePullPolicy"] = "Always";
    if (!env.empty())
        c["env"] = env;
    if (!mounts.empty())
        c["volumeMounts"] = mounts;
    json podSpec{{"restartPolicy", restartPolicy}, {"containers", {c}}};
    if (!volumes.empty())
        podSpec["volumes"] = volumes;
    if (!spec.gpuModel.isEmpty() && gpus > 0)
        podSpec["nodeSelector"] = {{"nvidia.com/gpu.product", str(spec.gpuModel)}};
    if (!spec.pinnedNodes.isEmpty() && gpus > 0) {
        json hosts = json::array();
        for (const QString &h : spec.pinnedNodes)
            hosts.push_back(str(h));
        podSpec["affinity"] = {{"nodeAffinity",
                                {{"requiredDuringSchedulingIgnoredDuringExecution",
                                  {{"nodeSelectorTerms",
                                    {{{"matchExpressions",
                                       {{{"key", "kubernetes.io/hostname"},
                                         {"operator", "In"},
                                         {"values", hosts}}}}}}}}}}}};
    }
    if (!spec.priorityClass.isEmpty())
        podSpec["priorityClassName"] = str(spec.priorityClass);
    if (spec.hoursLimit > 0 && (spec.kind == JobSpec::SinglePod || spec.kind == JobSpec::Volcano))
        podSpec["activeDeadlineSeconds"] = qint64(spec.hoursLimit) * 3600;
    return {{"metadata", metadata}, {"spec", podSpec}};
}

json replica(int replicas, json tmpl)
{
    return {{"replicas", replicas}, {"restartPolicy", "OnFailure"}, {"template", std::move(tmpl)}};
}

// Kubeflow's run policy: the queue and priority for gang scheduling, and the time limit.
json runPolicy(const JobSpec &spec)
{
    json scheduling = json::object();
    if (!spec.queue.isEmpty())
        scheduling["queue"] = str(spec.queue);
    if (!spec.priorityClass.isEmpty())
        scheduling["priorityClass"] = str(spec.priorityClass);
    scheduling["minAvailable"] = spec.kind == JobSpec::Mpi ? spec.nodes + 1 : spec.nodes;
    json policy{{"schedulingPolicy", scheduling}, {"cleanPodPolicy", "Running"}};
    if (spec.hoursLimit > 0)
        policy["activeDeadlineSeconds"] = qint64(spec.hoursLimit) * 3600;
    return policy;
}

} // namespace

QByteArray JobManifest::of(const JobSpec &spec, const QString &mpiVersion)
{
    const json shell = json::array({"sh", "-c", str(spec.command)});
    json metadata{{"name", str(spec.name)},
                  {"labels", {{"app.kubernetes.io/managed-by", "gpudesk"}}}};
    if (!spec.ns.isEmpty())
        metadata["namespace"] = str(spec.ns);
    nlohmann::json o;
    switch (spec.kind) {
    case JobSpec::PyTorch: {
        json replicas{{"Master", replica(1, podTemplate(spec, "pytorch", spec.gpusPerNode, shell,
                                                        "OnFailure"))}};
        if (spec.nodes > 1)
            replicas["Worker"] = replica(
                spec.nodes - 1, podTemplate(spec, "pytorch", spec.gpusPerNode, shell, "OnFailure"));
        o = {{"apiVersion", "kubeflow.org/v1"},
             {"kind", "PyTorchJob"},
             {"metadata", metadata},
             {"spec", {{"runPolicy", runPolicy(spec)}, {"pytorchReplicaSpecs", replicas}}}};
        break;
    }
    case JobSpec::Mpi: {
        // The launcher runs the command (mpirun, with the hostfile the operator writes); the
        // workers run sshd for it.
        const json sshd = json::array({"/usr/sbin/sshd", "-De"});
        json replicas{
            {"Launcher", replica(1, podTemplate(spec, "launcher", 0, shell, "OnFailure"))},
            {"Worker", replica(spec.nodes,
                               podTemplate(spec, "worker", spec.gpusPerNode, sshd, "OnFailure"))}};
        o = {{"apiVersion", "kubeflow.org/" + str(mpiVersion)},
             {"kind", "MPIJob"},
             {"metadata", metadata},
             {"spec",
              {{"slotsPerWorker", std::max(1, spec.gpusPerNode)},
               {"runPolicy", runPolicy(spec)},
               {"mpiReplicaSpecs", replicas}}}};
        break;
    }
    case JobSpec::Volcano: {
        json tasks = json::array(
            {{{"name", "master"},
              {"replicas", 1},
              {"template", podTemplate(spec, "main", spec.gpusPerNode, shell, "Never")}}});
        if (spec.nodes > 1)
            tasks.push_back(
                {{"name", "worker"},
                 {"replicas", spec.nodes - 1},
                 {"template", podTemplate(spec, "main", spec.gpusPerNode, shell, "Never")}});
        json jobSpec{
            {"minAvailable", spec.nodes},
            {"schedulerName", "volcano"},
            {"queue", spec.queue.isEmpty() ? "default" : str(spec.queue)},
            {"maxRetry", 3},
            {"plugins",
             {{"pytorch",
               {"--master=master", "--worker=worker", "--port=" + std::to_string(MasterPort)}},
              {"svc", json::array()},
              {"env", json::array()}}},
            {"tasks", tasks}};
        if (!spec.priorityClass.isEmpty())
            jobSpec["priorityClassName"] = str(spec.priorityClass);
        o = {{"apiVersion", "batch.volcano.sh/v1alpha1"},
             {"kind", "Job"},
             {"metadata", metadata},
             {"spec", jobSpec}};
        break;
    }
    case JobSpec::SinglePod: {
        json pod = podTemplate(spec, "main", spec.gpusPerNode, shell, "Never");
        for (auto &[k, v] : pod["metadata"].items())
            metadata[k].update(v);
        o = {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", metadata}, {"spec", pod["spec"]}};
        break;
    }
    }
    return QByteArray::fromStdString(o.dump());
}

} // namespace gpudesk
