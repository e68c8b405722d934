// SPDX-License-Identifier: GPL-3.0-or-later
#include "vipjob.h"

#include "clusterstore.h"
#include "vipreservation.h"

#include <QHash>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>

namespace gpudesk {

using json = nlohmann::json;

namespace {

// Whether a pod template's containers ask for GPUs: only those pods go to the machines (an
// MPI launcher, CPU only, runs wherever the scheduler puts it).
bool asksForGpus(const json &podSpec)
{
    const auto containers = podSpec.find("containers");
    if (containers == podSpec.end() || !containers->is_array())
        return false;
    for (const json &c : *containers) {
        if (!c.is_object())
            continue;
        for (const char *part : {"limits", "requests"}) {
            const json &r = c.value("resources", json::object());
            if (!r.is_object() || !r.contains(part) || !r[part].is_object())
                continue;
            const json &v = r[part].value("nvidia.com/gpu", json());
            if ((v.is_string() && v.get<std::string>() != "0") ||
                (v.is_number_integer() && v.get<qint64>() > 0))
                return true;
        }
    }
    return false;
}

bool makeVip(json &podSpec, const json &hosts, const json &toleration,
             const std::string &priorityClass)
{
    if (!podSpec.is_object() || !asksForGpus(podSpec))
        return false;
    // Required, and only the machines: what the job asked for otherwise (a zone, a rack) is
    // replaced, since the user chose the machines themselves.
    podSpec["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"] = {
        {"nodeSelectorTerms",
         {{{"matchExpressions",
            {{{"key", "kubernetes.io/hostname"}, {"operator", "In"}, {"values", hosts}}}}}}}};
    json &tolerations = podSpec["tolerations"];
    if (!tolerations.is_array())
        tolerations = json::array();
    if (std::find(tolerations.begin(), tolerations.end(), toleration) == tolerations.end())
        tolerations.push_back(toleration);
    if (!priorityClass.empty()) {
        podSpec["priorityClassName"] = priorityClass;
        podSpec.erase("priority"); // the admission sets it from the class
    }
    return true;
}

void eachTemplate(json &replicaSpecs, const std::function<void(json &)> &f)
{
    if (!replicaSpecs.is_object())
        return;
    for (auto &[role, spec] : replicaSpecs.items())
        if (spec.is_object() && spec.contains("template") && spec["template"].is_object() &&
            spec["template"].contains("spec"))
            f(spec["template"]["spec"]);
}

} // namespace

QString VipJob::reservationKey(const QString &ns)
{
    return QString(vipreservation::Prefix) + ns;
}

QString VipJob::reservationValue(const QString &name)
{
    // A label value: 63 characters at most, ending in a letter or digit.
    QString v = name.left(63);
    while (!v.isEmpty() && !v.back().isLetterOrNumber())
        v.chop(1);
    return v;
}

QString VipJob::reservedFor(const QString &taint)
{
    return vipreservation::jobOf(taint);
}

QList<VipJob::Occupant> VipJob::occupants(const ClusterStore &store, const QStringList &nodes)
{
    QHash<QString, Occupant> byKey;
    for (const QString &node : nodes) {
        for (const PodInfo *p : store.gpuPodsOnNode(node)) {
            if (p->deleting || p->finished())
                continue;
            const QString key = ClusterStore::workloadKey(*p);
            Occupant &o = byKey[key];
            if (o.workloadKey.isEmpty()) {
                o.workloadKey = key;
                o.ns = p->ns;
                o.user = store.userOf(p->ns);
                o.vc = store.vcOf(*p);
                const auto w = store.workload(key);
                o.kind = w ? w->kind : QStringLiteral("Pod");
                o.name = w ? w->name : p->name;
                o.stoppable = w && (w->job || w->kind == QLatin1String("Pod"));
            }
            if (!o.nodes.contains(node))
                o.nodes << node;
            o.gpus += p->gpuRequest;
        }
    }
    QList<Occupant> out = byKey.values();
    std::sort(out.begin(), out.end(), [](const Occupant &a, const Occupant &b) {
        return a.gpus != b.gpus ? a.gpus > b.gpus : a.ns + a.name < b.ns + b.name;
    });
    return out;
}

QByteArray VipJob::manifest(const QByteArray &job, const QStringList &nodes,
                            const QString &priorityClass, QString *error, const QString &ns)
{
    try {
        return vip(job, nodes, priorityClass, error, ns);
    } catch (const json::exception &e) {
        // A field of the wrong type typed in the YAML tab (`spec: ""`): said, never a crash.
        *error =
            tr("The job's YAML has a field of the wrong type: %1").arg(QString::fromUtf8(e.what()));
        return {};
    }
}

QByteArray VipJob::vip(const QByteArray &job, const QStringList &nodes,
                       const QString &priorityClass, QString *error, const QString &defaultNs)
{
    json o = json::parse(job.constData(), job.constData() + job.size(), nullptr, false);
    if (!o.is_object() || !o.contains("kind") || !o["kind"].is_string()) {
        *error = tr("This is not a job gpudesk submits.");
        return {};
    }
    const std::string kind = o["kind"].get<std::string>();
    if (kind != "Pod" && kind != "Job" && kind != "PyTorchJob" && kind != "MPIJob") {
        *error = tr("A %1 is not a job gpudesk submits.").arg(QString::fromStdString(kind));
        return {};
    }
    json &meta = o["metadata"];
    if (!meta.is_object()) {
        *error = tr("The job has no name.");
        return {};
    }
    const auto text = [&](const char *key) {
        const auto it = meta.find(key);
        return it != meta.end() && it->is_string() ? it->get<std::string>() : std::string();
    };
    std::string ns = text("namespace");
    const std::string name = text("name");
    if (name.empty()) {
        *error = tr("The job has no name.");
        return {};
    }
    // Where it is created when it names no namespace: the reservation's key names it.
    if (ns.empty() && !defaultNs.isEmpty()) {
        ns = defaultNs.toStdString();
        meta["namespace"] = ns;
    }
    if (ns.empty()) {
        *error = tr("The job names no namespace.");
        return {};
    }
    json hosts = json::array();
    for (const QString &n : nodes)
        hosts.push_back(n.toStdString());
    const json toleration{{"key", reservationKey(QString::fromStdString(ns)).toStdString()},
                          {"operator", "Equal"},
                          {"value", reservationValue(QString::fromStdString(name)).toStdString()},
                          {"effect", "NoSchedule"}};
    const std::string pc = priorityClass.toStdString();
    int pinned = 0;
    const auto vip = [&](json &podSpec) { pinned += makeVip(podSpec, hosts, toleration, pc); };
    json &spec = o["spec"];
    if (kind == "Pod") {
        vip(spec);
    } else if (kind == "Job") { // Volcano
        if (spec.contains("tasks") && spec["tasks"].is_array())
            for (json &t : spec["tasks"])
                if (t.is_object() && t.contains("template") && t["template"].is_object() &&
                    t["template"].contains("spec"))
                    vip(t["template"]["spec"]);
        if (!pc.empty())
            spec["priorityClassName"] = pc;
    } else if (kind == "PyTorchJob" || kind == "MPIJob") {
        eachTemplate(spec[kind == "MPIJob" ? "mpiReplicaSpecs" : "pytorchReplicaSpecs"], vip);
        if (!pc.empty())
            spec["runPolicy"]["schedulingPolicy"]["priorityClass"] = pc;
    } else {
        *error = tr("A %1 is not a job gpudesk submits.").arg(QString::fromStdString(kind));
        return {};
    }
    if (pinned == 0) {
        *error = tr("The job asks for no GPU: there are no machines to keep for it.");
        return {};
    }
    return QByteArray::fromStdString(o.dump());
}

} // namespace gpudesk
