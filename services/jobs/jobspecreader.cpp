// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobspecreader.h"

#include "boundedjson.h"
#include "jobmanifest.h"

#include <QHash>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>

namespace gpudesk {

using json = nlohmann::json;

namespace {

constexpr int NamedDifferences = 4;
// A job is a dozen levels deep; the comparison recurses, so a deeper text is refused first.
constexpr int MaxDepth = 200;

QString text(const json &o, const char *key)
{
    if (!o.is_object())
        return {};
    const auto it = o.find(key);
    return it != o.end() && it->is_string() ? QString::fromStdString(it->get<std::string>())
                                            : QString();
}

const json &at(const json &o, std::initializer_list<const char *> path)
{
    static const json null;
    const json *cur = &o;
    for (const char *k : path) {
        if (!cur->is_object() || !cur->contains(k))
            return null;
        cur = &(*cur)[k];
    }
    return *cur;
}

int integer(const json &v, int fallback)
{
    if (v.is_number_integer())
        return int(v.get<qint64>());
    return fallback;
}

// A quantity as written: "8", 8, "64Gi".
QString quantity(const json &v)
{
    if (v.is_string())
        return QString::fromStdString(v.get<std::string>());
    if (v.is_number_integer())
        return QString::number(v.get<qint64>());
    return {};
}

// The pull policy the API server gives a container that names none: Always for an image
// without a tag or tagged :latest, else IfNotPresent.
QString defaultPullPolicy(const QString &image)
{
    if (image.contains(u'@'))
        return QStringLiteral("IfNotPresent");
    const QString last = image.section(u'/', -1);
    const QString tag = last.contains(u':') ? last.section(u':', -1) : QString();
    return tag.isEmpty() || tag == QLatin1String("latest") ? QStringLiteral("Always")
                                                           : QStringLiteral("IfNotPresent");
}

// What the API server (or an operator's webhook) writes into a pod's spec on its own, at its
// default: not the job's. `isPod`: the admission that adds the not-ready tolerations and the
// token volume runs on pods, not on the templates inside a job.
void dropServerDefaults(json &podSpec, bool isPod)
{
    if (!podSpec.is_object())
        return;
    const auto dropIf = [&](json &o, const char *key, const json &value) {
        if (o.is_object() && o.contains(key) && o[key] == value)
            o.erase(key);
    };
    dropIf(podSpec, "dnsPolicy", "ClusterFirst");
    dropIf(podSpec, "terminationGracePeriodSeconds", 30);
    dropIf(podSpec, "schedulerName", "default-scheduler");
    dropIf(podSpec, "enableServiceLinks", true);
    dropIf(podSpec, "securityContext", json::object());
    dropIf(podSpec, "serviceAccountName", "default");
    dropIf(podSpec, "serviceAccount", "default");
    dropIf(podSpec, "preemptionPolicy", "PreemptLowerPriority");
    // The priority the admission resolved from priorityClassName, or 0 without one.
    if (podSpec.contains("priority") &&
        (podSpec.contains("priorityClassName") || podSpec["priority"] == 0))
        podSpec.erase("priority");
    if (isPod && podSpec.contains("tolerations") && podSpec["tolerations"].is_array()) {
        json &t = podSpec["tolerations"];
        for (auto it = t.begin(); it != t.end();) {
            // As the DefaultTolerationSeconds admission adds them; one the user wrote (another
            // time) is theirs.
            const QString key = text(*it, "key");
            const bool added = (key == QLatin1String("node.kubernetes.io/not-ready") ||
                                key == QLatin1String("node.kubernetes.io/unreachable")) &&
                               text(*it, "effect") == QLatin1String("NoExecute") &&
                               text(*it, "operator") == QLatin1String("Exists") &&
                               it->contains("tolerationSeconds") &&
                               (*it)["tolerationSeconds"] == 300;
            it = added ? t.erase(it) : it + 1;
        }
        if (t.empty())
            podSpec.erase("tolerations");
    }
    // The service account's token, mounted by the admission into every container.
    QStringList tokenVolumes;
    if (isPod && podSpec.contains("volumes") && podSpec["volumes"].is_array()) {
        json &v = podSpec["volumes"];
        for (auto it = v.begin(); it != v.end();) {
            const QString name = text(*it, "name");
            const bool token = name.startsWith(QLatin1String("kube-api-access-"));
            if (token)
                tokenVolumes << name;
            it = token ? v.erase(it) : it + 1;
        }
        if (v.empty())
            podSpec.erase("volumes");
    }
    if (!podSpec.contains("containers") || !podSpec["containers"].is_array())
        return;
    for (json &c : podSpec["containers"]) {
        dropIf(c, "terminationMessagePath", "/dev/termination-log");
        dropIf(c, "terminationMessagePolicy", "File");
        if (text(c, "imagePullPolicy") == defaultPullPolicy(text(c, "image")) &&
            text(c, "imagePullPolicy") != QLatin1String("Always")) // the form writes Always
            c.erase("imagePullPolicy");
        // The training operator's webhook names the master's port.
        if (c.contains("ports") && c["ports"].is_array()) {
            json &ports = c["ports"];
            for (auto it = ports.begin(); it != ports.end();)
                it = text(*it, "name") == QLatin1String("pytorchjob-port") &&
                             it->contains("containerPort") &&
                             (*it)["containerPort"] == JobManifest::MasterPort
                         ? ports.erase(it)
                         : it + 1;
            if (ports.empty())
                c.erase("ports");
        }
        if (c.contains("volumeMounts") && c["volumeMounts"].is_array()) {
            json &m = c["volumeMounts"];
            for (auto it = m.begin(); it != m.end();)
                it = tokenVolumes.contains(text(*it, "name")) ? m.erase(it) : it + 1;
            if (m.empty())
                c.erase("volumeMounts");
        }
    }
}

// Every pod template of the object, and the pod itself for a Pod.
void forEachPodSpec(json &o, const std::function<void(json &, bool)> &f)
{
    if (!o.is_object() || !o.contains("spec") || !o["spec"].is_object())
        return;
    json &spec = o["spec"];
    if (text(o, "kind") == QLatin1String("Pod")) {
        f(spec, true);
        return;
    }
    const auto templ = [&](json &holder) {
        if (holder.is_object() && holder.contains("template") && holder["template"].is_object() &&
            holder["template"].contains("spec"))
            f(holder["template"]["spec"], false);
    };
    for (const char *replicas : {"pytorchReplicaSpecs", "mpiReplicaSpecs"})
        if (spec.contains(replicas) && spec[replicas].is_object())
            for (auto &[name, r] : spec[replicas].items())
                templ(r);
    if (spec.contains("tasks") && spec["tasks"].is_array())
        for (json &t : spec["tasks"]) {
            // Volcano's webhook: a task's minAvailable defaults to its replicas.
            if (t.is_object() && t.contains("minAvailable") && t.contains("replicas") &&
                t["minAvailable"] == t["replicas"])
                t.erase("minAvailable");
            templ(t);
        }
}

// The label gpudesk puts on what it makes: a job that lacks it is still one the form holds.
void dropManagedBy(json &o)
{
    if (o.is_array()) {
        for (json &e : o)
            dropManagedBy(e);
        return;
    }
    if (!o.is_object())
        return;
    if (o.contains("labels") && o["labels"].is_object()) {
        o["labels"].erase("app.kubernetes.io/managed-by");
        if (o["labels"].empty())
            o.erase("labels");
    }
    for (auto &[key, value] : o.items())
        dropManagedBy(value);
    if (o.contains("metadata") && o["metadata"].is_object() && o["metadata"].empty())
        o.erase("metadata");
}

void differences(const json &a, const json &b, const QString &path, QStringList *out, int *more)
{
    const auto note = [&](const QString &p) {
        if (out->size() < NamedDifferences)
            *out << p;
        else
            ++*more;
    };
    if (a.is_object() && b.is_object()) {
        for (auto it = a.begin(); it != a.end(); ++it) {
            const QString p =
                (path.isEmpty() ? QString() : path + u'.') + QString::fromStdString(it.key());
            if (!b.contains(it.key()))
                note(p);
            else
                differences(*it, b[it.key()], p, out, more);
        }
        for (auto it = b.begin(); it != b.end(); ++it)
            if (!a.contains(it.key()))
                note((path.isEmpty() ? QString() : path + u'.') + QString::fromStdString(it.key()));
        return;
    }
    // Lists of objects (containers, volumes) element by element; a command or values whole.
    const auto objects = [](const json &list) {
        return std::all_of(list.begin(), list.end(), [](const json &e) { return e.is_object(); });
    };
    if (a.is_array() && b.is_array() && objects(a) && objects(b)) {
        for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
            const QString p = path + QStringLiteral("[%1]").arg(i);
            if (i >= a.size() || i >= b.size())
                note(p);
            else
                differences(a[i], b[i], p, out, more);
        }
        return;
    }
    // A quantity written as a number (cpu: 8) is the one the form writes as text ("8").
    if (a.is_number_integer() && b.is_string() && std::to_string(a.get<qint64>()) == b)
        return;
    if (b.is_number_integer() && a.is_string() && std::to_string(b.get<qint64>()) == a)
        return;
    if (a != b)
        note(path);
}

// What JobManifest writes into a pod template, read back into the spec.
void readPod(const json &tmpl, JobSpec *s, bool commandToo)
{
    const json &podSpec = at(tmpl, {"spec"});
    const json &containers = at(podSpec, {"containers"});
    if (!containers.is_array() || containers.empty())
        return;
    const json &c = containers[0];
    s->image = text(c, "image");
    const json &command = at(c, {"command"});
    if (commandToo && command.is_array() && command.size() == 3 && command[0] == "sh" &&
        command[1] == "-c" && command[2].is_string())
        s->command = QString::fromStdString(command[2].get<std::string>());
    const json &requests = at(c, {"resources", "requests"});
    s->cpu = quantity(at(requests, {"cpu"}));
    s->memory = quantity(at(requests, {"memory"}));
    const QString gpus = quantity(at(requests, {"nvidia.com/gpu"}));
    s->gpusPerNode = gpus.isEmpty() ? 0 : gpus.toInt();
    s->alwaysPull = text(c, "imagePullPolicy") == QLatin1String("Always");
    s->env.clear();
    if (at(c, {"env"}).is_array())
        for (const json &e : at(c, {"env"}))
            s->env.append({text(e, "name"), text(e, "value")});
    // Volumes by name, then the container's mounts in their order: /dev/shm, then the data.
    QHash<QString, const json *> volumes;
    if (at(podSpec, {"volumes"}).is_array())
        for (const json &v : at(podSpec, {"volumes"}))
            volumes.insert(text(v, "name"), &v);
    s->shm.clear();
    s->mounts.clear();
    if (at(c, {"volumeMounts"}).is_array()) {
        for (const json &m : at(c, {"volumeMounts"})) {
            const json *v = volumes.value(text(m, "name"));
            if (!v)
                continue;
            const QString path = text(m, "mountPath");
            if (path == QLatin1String("/dev/shm"))
                s->shm = quantity(at(*v, {"emptyDir", "sizeLimit"}));
            else if (v->contains("hostPath"))
                s->mounts << text(at(*v, {"hostPath"}), "path");
            else if (v->contains("persistentVolumeClaim"))
                s->mounts << text(at(*v, {"persistentVolumeClaim"}), "claimName") + u':' + path;
        }
    }
    s->gpuModel = text(at(podSpec, {"nodeSelector"}), "nvidia.com/gpu.product");
    s->priorityClass = text(podSpec, "priorityClassName");
    const json &deadline = at(podSpec, {"activeDeadlineSeconds"});
    if (deadline.is_number_integer())
        s->hoursLimit = int(deadline.get<qint64>() / 3600);
    const QString queue =
        text(at(tmpl, {"metadata", "annotations"}), "scheduling.volcano.sh/queue-name");
    if (!queue.isEmpty())
        s->queue = queue;
}

} // namespace

JobSpecReader::Result JobSpecReader::read(const QByteArray &bytes, const QString &mpiVersion)
{
    Result r;
    if (jsonDepth(bytes, MaxDepth) > MaxDepth) {
        r.error = tr("It is nested deeper than %1 levels: not a job.").arg(MaxDepth);
        return r;
    }
    json o = json::parse(bytes.constBegin(), bytes.constEnd(), nullptr, false);
    if (!o.is_object()) {
        r.error = tr("It is not a JSON object.");
        return r;
    }
    const QString kind = text(o, "kind");
    const QString api = text(o, "apiVersion");
    JobSpec s;
    const json &spec = at(o, {"spec"});
    if (kind == QLatin1String("PyTorchJob") && api.startsWith(QLatin1String("kubeflow.org/"))) {
        s.kind = JobSpec::PyTorch;
        const json &replicas = at(spec, {"pytorchReplicaSpecs"});
        readPod(at(replicas, {"Master", "template"}), &s, true);
        s.nodes = 1 + integer(at(replicas, {"Worker", "replicas"}), 0);
    } else if (kind == QLatin1String("MPIJob") && api.startsWith(QLatin1String("kubeflow.org/"))) {
        s.kind = JobSpec::Mpi;
        const json &replicas = at(spec, {"mpiReplicaSpecs"});
        readPod(at(replicas, {"Worker", "template"}), &s, false);
        // The launcher runs the command; the workers their sshd.
        JobSpec launcher;
        readPod(at(replicas, {"Launcher", "template"}), &launcher, true);
        s.command = launcher.command;
        s.nodes = integer(at(replicas, {"Worker", "replicas"}), 1);
    } else if (kind == QLatin1String("Job") && api.startsWith(QLatin1String("batch.volcano.sh/"))) {
        s.kind = JobSpec::Volcano;
        const json &tasks = at(spec, {"tasks"});
        if (tasks.is_array() && !tasks.empty())
            readPod(at(tasks[0], {"template"}), &s, true);
        s.nodes = 0;
        if (tasks.is_array())
            for (const json &t : tasks)
                s.nodes += integer(at(t, {"replicas"}), 1);
        s.nodes = std::max(1, s.nodes);
        const QString queue = text(spec, "queue");
        s.queue = queue == QLatin1String("default") ? QString() : queue;
        if (!text(spec, "priorityClassName").isEmpty())
            s.priorityClass = text(spec, "priorityClassName");
    } else if (kind == QLatin1String("Pod") && api == QLatin1String("v1")) {
        s.kind = JobSpec::SinglePod;
        readPod(o, &s, true);
        s.nodes = 1;
    } else {
        r.error = tr("%1 %2 is not a kind the form makes (PyTorchJob, MPIJob, Volcano Job, Pod).")
                      .arg(api, kind.isEmpty() ? tr("(no kind)") : kind);
        return r;
    }
    s.name = text(at(o, {"metadata"}), "name");
    s.ns = text(at(o, {"metadata"}), "namespace");
    if (s.kind == JobSpec::PyTorch || s.kind == JobSpec::Mpi) {
        const json &policy = at(spec, {"runPolicy"});
        const QString queue = text(at(policy, {"schedulingPolicy"}), "queue");
        if (!queue.isEmpty())
            s.queue = queue;
        const QString priority = text(at(policy, {"schedulingPolicy"}), "priorityClass");
        if (!priority.isEmpty())
            s.priorityClass = priority;
        const json &deadline = at(policy, {"activeDeadlineSeconds"});
        if (deadline.is_number_integer())
            s.hoursLimit = int(deadline.get<qint64>() / 3600);
    }

    // The form holds it when the object it makes of what was read is the manifest itself.
    json again = json::parse(JobManifest::of(s, mpiVersion).toStdString());
    forEachPodSpec(o, dropServerDefaults);
    dropManagedBy(o);
    dropManagedBy(again);
    differences(o, again, QString(), &r.differences, &r.moreDifferences);
    r.spec = s;
    return r;
}

} // namespace gpudesk
