// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobrequestdecoder.h"

#include "boundedjson.h"
#include "jsonfields.h"

#include <algorithm>

namespace gpudesk {

using nlohmann::json;
using namespace jsonfields;

namespace {

qint64 amountOf(const json &list, const char *resource)
{
    const auto v = milli(member(list, resource));
    return v ? *v : 0;
}

// A container's figure as the scheduler counts it: the request, else the limit (the API
// defaults a request to the limit; extended resources such as GPUs are given as limits).
qint64 requested(const json &resources, const char *resource)
{
    const qint64 r = amountOf(member(resources, "requests"), resource);
    return r > 0 ? r : amountOf(member(resources, "limits"), resource);
}

// Hostnames a required node affinity pins the pod to (kubernetes.io/hostname In …).
QStringList pinnedNodes(const json &spec)
{
    QStringList out;
    const json &required = member(member(member(spec, "affinity"), "nodeAffinity"),
                                  "requiredDuringSchedulingIgnoredDuringExecution");
    for (const json &term : member(required, "nodeSelectorTerms"))
        for (const json &e : member(term, "matchExpressions"))
            if (text(e, "key") == QLatin1String("kubernetes.io/hostname") &&
                text(e, "operator") == QLatin1String("In"))
                for (const json &v : member(e, "values"))
                    if (v.is_string())
                        out << QString::fromStdString(v.get<std::string>());
    return out;
}

JobRole roleOf(const QString &name, int replicas, const json &tmplSpec)
{
    JobRole r;
    r.name = name;
    r.replicas = replicas;
    QString shmVolume;
    struct Mount
    {
        QString volume, path, subPath;
    };
    QList<Mount> firstMounts; // the first container's
    const json &containers = member(tmplSpec, "containers");
    for (const json &c : containers) {
        const json &res = member(c, "resources");
        r.containers.append(
            {text(c, "name"), amounts(member(res, "requests")), amounts(member(res, "limits"))});
        r.gpus += int(requested(res, "nvidia.com/gpu") / 1000);
        r.cpuMilli += requested(res, "cpu");
        r.memoryBytes += requested(res, "memory") / 1000;
        const qint64 memoryLimit = amountOf(member(res, "limits"), "memory") / 1000;
        const qint64 cpuLimit = amountOf(member(res, "limits"), "cpu");
        r.memoryLimitBytes += memoryLimit;
        r.cpuLimitMilli += cpuLimit;
        r.memoryLimitEverywhere = r.memoryLimitEverywhere && memoryLimit > 0;
        r.cpuLimitEverywhere = r.cpuLimitEverywhere && cpuLimit > 0;
        for (const json &m : member(c, "volumeMounts")) {
            const QString path = text(m, "mountPath");
            r.mountPaths << path;
            if (path == QLatin1String("/dev/shm"))
                shmVolume = text(m, "name");
            if (&c == &containers.front() && text(m, "subPathExpr").isEmpty())
                firstMounts.append({text(m, "name"), path, text(m, "subPath")});
        }
        if (&c != &containers.front())
            continue;
        // The first container is the one that trains: its image, command and variables.
        r.image = text(c, "image");
        r.commandGiven = !member(c, "command").empty();
        r.workingDir = text(c, "workingDir");
        for (const char *key : {"command", "args"})
            for (const json &a : member(c, key))
                if (a.is_string())
                    r.command << QString::fromStdString(a.get<std::string>());
        for (const json &e : member(c, "env"))
            r.env.append({text(e, "name"), text(e, "value")});
    }
    for (const json &v : member(tmplSpec, "volumes")) {
        const QString host = text(member(v, "hostPath"), "path");
        for (const Mount &m : std::as_const(firstMounts))
            if (!host.isEmpty() && m.volume == text(v, "name"))
                r.hostMounts.append(
                    {m.path, m.subPath.isEmpty() ? host : QString(host + u'/' + m.subPath)});
        const json &dir = member(v, "emptyDir");
        if (shmVolume.isEmpty() || text(v, "name") != shmVolume ||
            text(dir, "medium") != QLatin1String("Memory"))
            continue;
        // Without a sizeLimit the mount is bounded by the pod's memory limit.
        const qint64 size = amountOf(dir, "sizeLimit") / 1000;
        r.shmBytes = size > 0 ? size : r.memoryLimitBytes > 0 ? r.memoryLimitBytes : 0;
    }
    r.nodeSelector = stringMap(member(tmplSpec, "nodeSelector"));
    for (const auto &[key, value] : r.nodeSelector)
        if (key == QLatin1String("nvidia.com/gpu.product"))
            r.gpuModel = value;
    for (const json &t : member(tmplSpec, "tolerations"))
        r.tolerations << QStringList{text(t, "key"), text(t, "operator"), text(t, "value"),
                                     text(t, "effect")}
                             .join(u'|');
    r.pinnedNodes = pinnedNodes(tmplSpec);
    r.hostNetwork =
        member(tmplSpec, "hostNetwork").is_boolean() && member(tmplSpec, "hostNetwork").get<bool>();
    return r;
}

// The tasks mpirun reaches over SSH (see JobRequest::sshServerRoles). Volcano's mpi plugin
// ("mpi": ["--master=mpimaster", "--worker=mpiworker", "--port=22"]; master and worker by
// default) turns on its ssh plugin for its workers; the ssh plugin alone gives every pod the
// keys, and a task named master or launcher is the one that runs mpirun.
QStringList sshServerRoles(const json &plugins, const QList<JobRole> &roles)
{
    QStringList out;
    const json &mpi = member(plugins, "mpi");
    if (mpi.is_array()) {
        QString worker = QStringLiteral("worker");
        for (const json &arg : mpi)
            if (arg.is_string() && arg.get<std::string>().rfind("--worker=", 0) == 0)
                worker = QString::fromStdString(arg.get<std::string>().substr(9));
        for (const JobRole &r : roles)
            if (r.name == worker)
                out << r.name;
        return out;
    }
    if (!member(plugins, "ssh").is_array())
        return out;
    // The ssh plugin only hands out keys: a job is taken for mpirun's only where a task is
    // named for it (master, mpimaster, launcher); the others are what it reaches.
    const auto runsMpirun = [](const JobRole &r) {
        return r.name.contains(QLatin1String("master"), Qt::CaseInsensitive) ||
               r.name.contains(QLatin1String("launcher"), Qt::CaseInsensitive);
    };
    if (std::none_of(roles.cbegin(), roles.cend(), runsMpirun))
        return out;
    for (const JobRole &r : roles)
        if (!runsMpirun(r))
            out << r.name;
    return out;
}

// The interfaces Multus adds to a pod, from its k8s.v1.cni.cncf.io/networks annotation: a list
// "net-a, ns/net-b@data" (interface net1, net2… unless named after '@'), or the JSON form with
// "interface" fields.
QStringList multusInterfaces(const json &meta)
{
    const QString networks = text(member(meta, "annotations"), "k8s.v1.cni.cncf.io/networks");
    QStringList out;
    if (networks.trimmed().startsWith(u'[')) {
        const json list = json::parse(networks.toStdString(), nullptr, false);
        if (list.is_array())
            for (const json &n : list) {
                const QString name = text(n, "interface");
                out << (name.isEmpty() ? QStringLiteral("net%1").arg(out.size() + 1) : name);
            }
        return out;
    }
    for (const QString &n : networks.split(u',', Qt::SkipEmptyParts)) {
        if (n.trimmed().isEmpty())
            continue;
        const QString named = n.section(u'@', 1).trimmed();
        out << (named.isEmpty() ? QStringLiteral("net%1").arg(out.size() + 1) : named);
    }
    return out;
}

// The queue a pod template names (Volcano reads the annotation; gpudesk's pods carry the label).
QString queueOf(const json &meta)
{
    QString q = text(member(meta, "annotations"), JobRequestDecoder::QueueAnnotation);
    return q.isEmpty() ? text(member(meta, "labels"), JobRequestDecoder::QueueLabel) : q;
}

int replicasOf(const json &spec)
{
    const json &r = member(spec, "replicas");
    if (!r.is_number_integer())
        return 1;
    // Bounded before it is an int: a value past the bound is refused by decode().
    return int(std::clamp<qint64>(r.get<qint64>(), -1, JobRequestDecoder::MaxReplicas + 1));
}

// Kubeflow's replica specs (PyTorchJob: Master, Worker; MPIJob: Launcher, Worker), the master
// or launcher first.
void kubeflowRoles(const json &specs, JobRequest *out)
{
    if (!specs.is_object())
        return;
    for (auto it = specs.begin(); it != specs.end(); ++it) {
        const json &tmpl = member(it.value(), "template");
        JobRole r =
            roleOf(QString::fromStdString(it.key()), replicasOf(it.value()), member(tmpl, "spec"));
        r.extraInterfaces = multusInterfaces(member(tmpl, "metadata"));
        if (out->queue.isEmpty())
            out->queue = queueOf(member(tmpl, "metadata"));
        if (out->schedulerName.isEmpty())
            out->schedulerName = text(member(tmpl, "spec"), "schedulerName");
        const bool first = it.key() == "Master" || it.key() == "Launcher";
        out->roles.insert(first ? 0 : out->roles.size(), std::move(r));
    }
}

} // namespace

bool JobRequestDecoder::decode(const QByteArray &bytes, JobRequest *out, QString *error)
{
    if (jsonDepth(bytes) > MaxJsonDepth) {
        *error = tr("nested deeper than %1 levels").arg(MaxJsonDepth);
        return false;
    }
    const json o = json::parse(bytes.constBegin(), bytes.constEnd(), nullptr, false);
    if (o.is_discarded() || !o.is_object()) {
        *error = o.is_discarded() ? tr("not JSON") : tr("not a JSON or YAML object");
        return false;
    }
    JobRequest r;
    const QString kind = text(o, "kind");
    r.apiVersion = text(o, "apiVersion");
    const QString group = r.apiVersion.section(u'/', 0, -2);
    const json &meta = member(o, "metadata");
    const json &spec = member(o, "spec");
    r.ns = text(meta, "namespace");
    r.name = text(meta, "name");
    if (r.name.isEmpty())
        r.name = text(meta, "generateName");
    if (kind == QLatin1String("Pod") && group.isEmpty()) {
        r.kind = Resource::Pods;
        r.roles << roleOf(QString(), 1, spec);
        r.roles.last().extraInterfaces = multusInterfaces(meta);
        r.queue = queueOf(meta);
        r.schedulerName = text(spec, "schedulerName");
        r.priorityClass = text(spec, "priorityClassName");
    } else if (kind == QLatin1String("Job") && group == QLatin1String("batch.volcano.sh")) {
        r.kind = Resource::VolcanoJobs;
        r.queue = text(spec, "queue");
        r.schedulerName = text(spec, "schedulerName");
        r.priorityClass = text(spec, "priorityClassName");
        const json &plugins = member(spec, "plugins");
        r.pytorchPlugin = member(plugins, "pytorch").is_array();
        for (const json &t : member(spec, "tasks")) {
            const json &tmpl = member(t, "template");
            r.roles << roleOf(text(t, "name"), replicasOf(t), member(tmpl, "spec"));
            r.roles.last().extraInterfaces = multusInterfaces(member(tmpl, "metadata"));
            if (r.priorityClass.isEmpty())
                r.priorityClass = text(member(tmpl, "spec"), "priorityClassName");
        }
        r.sshServerRoles = sshServerRoles(plugins, r.roles);
        const json &min = member(spec, "minAvailable");
        r.minAvailable = min.is_number_integer() ? int(min.get<qint64>()) : 0;
    } else if ((kind == QLatin1String("PyTorchJob") || kind == QLatin1String("MPIJob")) &&
               group == QLatin1String("kubeflow.org")) {
        r.kind = kind == QLatin1String("MPIJob") ? Resource::MPIJobs : Resource::PyTorchJobs;
        const json &replicaSpecs =
            member(spec, r.kind == Resource::MPIJobs ? "mpiReplicaSpecs" : "pytorchReplicaSpecs");
        kubeflowRoles(replicaSpecs, &r);
        const json &policy = member(member(spec, "runPolicy"), "schedulingPolicy");
        if (const QString q = text(policy, "queue"); !q.isEmpty())
            r.queue = q;
        // The gang's class; without one, the pods' (their templates').
        r.priorityClass = text(policy, "priorityClass");
        if (replicaSpecs.is_object())
            for (auto it = replicaSpecs.begin();
                 it != replicaSpecs.end() && r.priorityClass.isEmpty(); ++it)
                r.priorityClass =
                    text(member(member(it.value(), "template"), "spec"), "priorityClassName");
        const json &min = member(policy, "minAvailable");
        r.minAvailable = min.is_number_integer() ? int(min.get<qint64>()) : 0;
    } else {
        *error = kind.isEmpty() ? tr("the object has no kind")
                                : tr("%1 (%2) is not a job gpudesk submits: a Pod, a "
                                     "Volcano Job, a PyTorchJob or an MPIJob")
                                      .arg(kind, r.apiVersion);
        return false;
    }
    for (const JobRole &role : std::as_const(r.roles))
        if (role.replicas < 0 || role.replicas > MaxReplicas || role.gpus > 1024) {
            *error = tr("%1: %2 replicas of %3 GPUs is not a job a cluster runs (0 to %4 "
                        "replicas).")
                         .arg(role.name.isEmpty() ? r.name : role.name)
                         .arg(role.replicas)
                         .arg(role.gpus)
                         .arg(MaxReplicas);
            return false;
        }
    if (r.roles.isEmpty() || r.pods() == 0) {
        *error = tr("the %1 has no pods to run (no tasks or replica specs)").arg(kind);
        return false;
    }
    if (r.minAvailable <= 0 || r.minAvailable > r.pods())
        r.minAvailable = r.pods();
    *out = std::move(r);
    return true;
}

} // namespace gpudesk
