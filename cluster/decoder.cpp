// SPDX-License-Identifier: GPL-3.0-or-later
#include "decoder.h"
#include "boundedjson.h"

#include "jsonfields.h"
#include "poddecoder.h"

#include <QDateTime>
#include <QSet>

#include <nlohmann/json.hpp>

#include <cmath>

namespace gpudesk {

using nlohmann::json;

namespace {

using namespace jsonfields;

qint64 integer(const json &o, const char *key)
{
    const json &v = member(o, key);
    return v.is_number_integer() ? v.get<qint64>() : 0;
}

// A quantity in whole units and in thousandths, as the API's Quantity.Value() and MilliValue()
// give them (rounded up); 0 for what is not a quantity.
qint64 unitsOf(const json &v)
{
    const auto m = jsonfields::milli(v);
    return m ? (*m + 999) / 1000 : 0;
}

qint64 milliOf(const json &v)
{
    return jsonfields::milli(v).value_or(0);
}

int gpus(const json &resources)
{
    return int(unitsOf(member(resources, "nvidia.com/gpu")));
}

// nvidia.com/mig-<profile> resources (the device plugin's mixed strategy), profile → count.
MigCounts migResources(const json &resources)
{
    MigCounts out;
    if (!resources.is_object())
        return out;
    static constexpr std::string_view prefix = "nvidia.com/mig-";
    for (auto it = resources.begin(); it != resources.end(); ++it) {
        if (it.key().compare(0, prefix.size(), prefix) != 0)
            continue;
        const int n = int(unitsOf(it.value()));
        if (n > 0)
            out.append({QString::fromStdString(it.key().substr(prefix.size())), n});
    }
    return out;
}

void addCounts(MigCounts *into, const MigCounts &more)
{
    for (const auto &entry : more) {
        auto it = std::find_if(into->begin(), into->end(),
                               [&](const auto &p) { return p.first == entry.first; });
        if (it == into->end())
            into->append(entry);
        else
            it->second += entry.second;
    }
}

// The uid, or namespace/name for an object that lacks one (hand-written test data, say), so
// that every object has a key.
QString uidOf(const json &meta)
{
    const QString uid = text(meta, "uid");
    return uid.isEmpty() ? text(meta, "namespace") + u'/' + text(meta, "name") : uid;
}

qint64 time(const json &o, const char *key)
{
    const json &v = member(o, key);
    return v.is_string() ? Decoder::timestampOf(v.get_ref<const std::string &>()) : 0;
}

QList<Condition> conditions(const json &status)
{
    QList<Condition> out;
    for (const auto &c : member(status, "conditions")) {
        out.append(Condition{text(c, "type"), text(c, "status"), text(c, "reason"),
                             text(c, "message"), time(c, "lastTransitionTime")});
    }
    return out;
}

// The owner reference that is the object's controller, if any.
OwnerRef controllerOf(const json &meta)
{
    for (const auto &ref : member(meta, "ownerReferences")) {
        if (member(ref, "controller") == json(true))
            return OwnerRef{text(ref, "kind"), text(ref, "name"), text(ref, "uid")};
    }
    return {};
}

} // namespace

template <> NodeInfo Decoder::decode<NodeInfo>(Resource, const json &o)
{
    NodeInfo n;
    const json &meta = member(o, "metadata");
    n.uid = text(meta, "uid");
    n.name = text(meta, "name");
    n.created = time(meta, "creationTimestamp");
    n.labels = stringMap(member(meta, "labels"));
    n.gpuModel = text(member(meta, "labels"), "nvidia.com/gpu.product");
    const json &spec = member(o, "spec");
    n.unschedulable = member(spec, "unschedulable") == json(true);
    for (const auto &t : member(spec, "taints")) {
        const QString value = text(t, "value");
        n.taints.append(text(t, "key") + (value.isEmpty() ? QString() : u'=' + value) + u':' +
                        text(t, "effect"));
    }
    const json &status = member(o, "status");
    const json &alloc = member(status, "allocatable");
    n.gpuAllocatable = gpus(alloc);
    n.gpuCapacity = gpus(member(status, "capacity"));
    n.migAllocatable = migResources(alloc);
    n.cpuAllocatableMilli = milliOf(member(alloc, "cpu"));
    n.memoryAllocatableBytes = unitsOf(member(alloc, "memory"));
    n.kubeletVersion = text(member(status, "nodeInfo"), "kubeletVersion");
    n.containerRuntime = text(member(status, "nodeInfo"), "containerRuntimeVersion");
    for (const auto &a : member(status, "addresses")) {
        if (text(a, "type") == QLatin1String("InternalIP"))
            n.internalIP = text(a, "address");
    }
    n.conditions = conditions(status);
    for (const auto &c : std::as_const(n.conditions)) {
        if (c.type == QLatin1String("Ready"))
            n.ready = c.status == QLatin1String("True");
    }
    return n;
}

namespace {

// The STATUS column as kubectl prints it (printPod in kubectl's printers), without init
// containers, which gpudesk's workloads do not use for anything it shows.
void podStatus(const json &o, PodInfo *p)
{
    const json &status = member(o, "status");
    p->phase = text(status, "phase");
    QString reason = text(status, "reason");
    QString message = text(status, "message");
    bool running = false;
    const json &statuses = member(status, "containerStatuses");
    for (auto it = statuses.rbegin(); it != statuses.rend(); ++it) {
        const json &c = *it;
        p->restarts += int(integer(c, "restartCount"));
        // The digest the node pulled, for the first container (whose image `image` is).
        if (!p->containers.isEmpty() && text(c, "name") == p->containers.first())
            p->imageId = text(c, "imageID");
        const json &state = member(c, "state");
        if (state.contains("waiting") && !text(member(state, "waiting"), "reason").isEmpty()) {
            reason = text(member(state, "waiting"), "reason");
            message = text(member(state, "waiting"), "message");
        } else if (state.contains("terminated")) {
            const json &t = member(state, "terminated");
            reason = text(t, "reason");
            if (reason.isEmpty())
                reason = QStringLiteral("ExitCode:%1").arg(integer(t, "exitCode"));
            if (!text(t, "message").isEmpty())
                message = text(t, "message");
        } else if (state.contains("running") && member(c, "ready") == json(true)) {
            running = true;
        }
    }
    if (reason == QLatin1String("Completed") && running)
        reason = QStringLiteral("Running");
    if (reason.isEmpty())
        reason = p->phase;
    for (const auto &c : conditions(status)) {
        if (c.type == QLatin1String("PodScheduled") && c.status == QLatin1String("False")) {
            message = c.message; // the scheduler's FailedScheduling text
        }
    }
    if (p->deleting)
        reason = QStringLiteral("Terminating");
    p->status = reason;
    p->message = message;
}

} // namespace

template <> PodInfo Decoder::decode<PodInfo>(Resource, const json &o)
{
    PodInfo p;
    const json &meta = member(o, "metadata");
    p.uid = uidOf(meta);
    p.ns = text(meta, "namespace");
    p.name = text(meta, "name");
    p.created = time(meta, "creationTimestamp");
    p.deleting = member(meta, "deletionTimestamp").is_string();
    p.deletionTime = time(meta, "deletionTimestamp");
    p.vc = text(member(meta, "labels"), "volcano.sh/queue-name");
    p.devEnv = text(member(meta, "labels"), "gpudesk.io/devenv");
    if (p.vc.isEmpty())
        p.vc = text(member(meta, "annotations"), "scheduling.volcano.sh/queue-name");
    p.owner = controllerOf(meta);
    const json &spec = member(o, "spec");
    p.nodeName = text(spec, "nodeName");
    if (member(meta, "deletionGracePeriodSeconds").is_number_integer())
        p.gracePeriodSecs = integer(meta, "deletionGracePeriodSeconds");
    else if (member(spec, "terminationGracePeriodSeconds").is_number_integer())
        p.gracePeriodSecs = integer(spec, "terminationGracePeriodSeconds");
    // What the scheduler counts: requests, falling back to limits (extended resources).
    for (const auto &c : member(spec, "containers")) {
        p.containers.append(text(c, "name"));
        if (p.image.isEmpty())
            p.image = text(c, "image");
        for (const auto &port : member(c, "ports"))
            if (const QString name = text(port, "name"); !name.isEmpty())
                p.namedPorts.append({name, int(integer(port, "containerPort"))});
        const json &res = member(c, "resources");
        const json &req = member(res, "requests");
        const int g = gpus(req);
        p.gpuRequest += g > 0 ? g : gpus(member(res, "limits"));
        const MigCounts mig = migResources(req);
        addCounts(&p.migRequests, mig.isEmpty() ? migResources(member(res, "limits")) : mig);
        p.cpuRequestMilli += milliOf(member(req, "cpu"));
        p.memoryRequestBytes += unitsOf(member(req, "memory"));
    }
    if (const json &sel = member(spec, "nodeSelector"); sel.is_object())
        for (auto it = sel.begin(); it != sel.end(); ++it)
            if (it.value().is_string())
                p.nodeSelector.append({QString::fromStdString(it.key()),
                                       QString::fromStdString(it.value().get<std::string>())});
    // Each of the two taints has its toleration, or the 300 s that DefaultTolerationSeconds
    // adds where the pod names none; no tolerationSeconds: for ever (-1).
    qint64 notReady = 300;
    qint64 unreachable = 300;
    for (const auto &t : member(spec, "tolerations")) {
        p.tolerations.append(
            QStringList{text(t, "key"), text(t, "operator"), text(t, "value"), text(t, "effect")}
                .join(u'|'));
        const QString key = text(t, "key");
        const QString effect = text(t, "effect");
        if (!effect.isEmpty() && effect != QLatin1String("NoExecute"))
            continue;
        const qint64 secs = member(t, "tolerationSeconds").is_number_integer()
                                ? std::max<qint64>(0, integer(t, "tolerationSeconds"))
                                : -1;
        const bool every = key.isEmpty() && text(t, "operator") == QLatin1String("Exists");
        if (every || key == QLatin1String("node.kubernetes.io/not-ready"))
            notReady = secs;
        if (every || key == QLatin1String("node.kubernetes.io/unreachable"))
            unreachable = secs;
    }
    p.notReadyTolerationSecs =
        notReady < 0 || unreachable < 0 ? -1 : std::max(notReady, unreachable);
    p.podIP = text(member(o, "status"), "podIP");
    // Three values shared by 100,000 pods: one string each.
    static const QString qosClasses[] = {QStringLiteral("Guaranteed"), QStringLiteral("Burstable"),
                                         QStringLiteral("BestEffort")};
    p.qosClass = text(member(o, "status"), "qosClass");
    for (const QString &q : qosClasses)
        if (p.qosClass == q)
            p.qosClass = q;
    podStatus(o, &p);
    return p;
}

template <> QueueInfo Decoder::decode<QueueInfo>(Resource, const json &o)
{
    QueueInfo q;
    const json &meta = member(o, "metadata");
    q.uid = text(meta, "uid");
    q.name = text(meta, "name");
    q.created = time(meta, "creationTimestamp");
    const json &spec = member(o, "spec");
    const json &cap = member(spec, "capability");
    if (cap.contains("nvidia.com/gpu"))
        q.gpuCapability = gpus(cap);
    q.capability = amounts(cap);
    q.spec = QByteArray::fromStdString(spec.dump());
    q.deserved = amounts(member(spec, "deserved"));
    q.guarantee = amounts(member(member(spec, "guarantee"), "resource"));
    q.weight = int(std::max<qint64>(1, integer(spec, "weight")));
    q.parent = text(spec, "parent");
    q.reclaimable = member(spec, "reclaimable") != json(false);
    const json &status = member(o, "status");
    q.state = text(status, "state");
    if (const json &alloc = member(status, "allocated"); alloc.is_object()) {
        q.gpuAllocated = gpus(alloc);
        q.allocated = amounts(alloc);
    }
    q.running = int(std::max<qint64>(0, integer(status, "running")));
    q.pending = int(std::max<qint64>(0, integer(status, "pending")));
    q.inqueue = int(std::max<qint64>(0, integer(status, "inqueue")));
    return q;
}

template <> PodGroupInfo Decoder::decode<PodGroupInfo>(Resource, const json &o)
{
    PodGroupInfo g;
    const json &meta = member(o, "metadata");
    g.uid = uidOf(meta);
    g.ns = text(meta, "namespace");
    g.name = text(meta, "name");
    g.created = time(meta, "creationTimestamp");
    g.owner = controllerOf(meta);
    const json &spec = member(o, "spec");
    g.vc = text(spec, "queue");
    g.minMember = int(std::max<qint64>(0, integer(spec, "minMember")));
    // minResources is a ResourceList; Volcano writes the GPU request as nvidia.com/gpu or, as
    // pods ask for it, requests.nvidia.com/gpu.
    const json &min = member(spec, "minResources");
    g.minGpus = gpus(min);
    if (g.minGpus == 0)
        g.minGpus = int(unitsOf(member(min, "requests.nvidia.com/gpu")));
    const json &status = member(o, "status");
    g.phase = text(status, "phase");
    g.conditions = conditions(status);
    return g;
}

template <> NamespaceInfo Decoder::decode<NamespaceInfo>(Resource, const json &o)
{
    NamespaceInfo n;
    const json &meta = member(o, "metadata");
    n.uid = text(meta, "uid");
    n.name = text(meta, "name");
    n.created = time(meta, "creationTimestamp");
    n.user = text(member(meta, "labels"), "gpudesk.io/user");
    n.vc = text(member(meta, "labels"), "gpudesk.io/vc");
    n.disabled = text(member(meta, "annotations"), "gpudesk.io/disabled");
    n.phase = text(member(o, "status"), "phase");
    if (member(meta, "deletionTimestamp").is_string())
        n.phase = QStringLiteral("Terminating");
    return n;
}

template <> ResourceQuotaInfo Decoder::decode<ResourceQuotaInfo>(Resource, const json &o)
{
    ResourceQuotaInfo q;
    const json &meta = member(o, "metadata");
    q.uid = uidOf(meta);
    q.ns = text(meta, "namespace");
    q.name = text(meta, "name");
    q.created = time(meta, "creationTimestamp");
    q.hard = amounts(member(member(o, "spec"), "hard"));
    q.spec = QByteArray::fromStdString(member(o, "spec").dump());
    // member() answers an empty object for a missing key: ask for the key itself.
    q.annotated = meta.contains("annotations") && meta["annotations"].is_object();
    q.used = amounts(member(member(o, "status"), "used"));
    return q;
}

template <> LimitRangeInfo Decoder::decode<LimitRangeInfo>(Resource, const json &o)
{
    LimitRangeInfo l;
    const json &meta = member(o, "metadata");
    l.uid = uidOf(meta);
    l.ns = text(meta, "namespace");
    l.name = text(meta, "name");
    l.created = time(meta, "creationTimestamp");
    for (const json &item : member(member(o, "spec"), "limits")) {
        const QString type = text(item, "type");
        if (type == QLatin1String("Container")) {
            l.defaultRequest.insert(amounts(member(item, "defaultRequest")));
            l.defaultLimit.insert(amounts(member(item, "default")));
            l.min.insert(amounts(member(item, "min")));
            l.max.insert(amounts(member(item, "max")));
        } else if (type == QLatin1String("Pod")) {
            l.podMin.insert(amounts(member(item, "min")));
            l.podMax.insert(amounts(member(item, "max")));
        }
    }
    return l;
}

template <> JobInfo Decoder::decode<JobInfo>(Resource kind, const json &o)
{
    JobInfo j;
    j.kind = kind;
    const json &meta = member(o, "metadata");
    j.uid = uidOf(meta);
    j.ns = text(meta, "namespace");
    j.name = text(meta, "name");
    j.created = time(meta, "creationTimestamp");
    const json &spec = member(o, "spec");
    const json &status = member(o, "status");
    if (kind == Resource::VolcanoJobs) {
        j.vc = text(spec, "queue");
        j.minAvailable = int(std::max<qint64>(0, integer(spec, "minAvailable")));
        j.status = text(member(status, "state"), "phase");
        j.message = text(member(status, "state"), "message");
        j.stateSince = time(member(status, "state"), "lastTransitionTime");
    } else {
        // Kubeflow (v1 and MPIJob v2beta1 alike): the newest condition that holds is the job's
        // state.
        j.vc = text(member(member(spec, "runPolicy"), "schedulingPolicy"), "queue");
        qint64 newest = -1;
        for (const auto &c : conditions(status)) {
            if (c.status == QLatin1String("True") && c.lastTransition >= newest) {
                newest = c.lastTransition;
                j.status = c.type;
                j.message = c.message;
                j.stateSince = std::max<qint64>(0, c.lastTransition);
            }
        }
    }
    if (j.status.isEmpty())
        j.status = QStringLiteral("Pending");
    return j;
}

template <> EventInfo Decoder::decode<EventInfo>(Resource, const json &o)
{
    EventInfo e;
    const json &meta = member(o, "metadata");
    e.uid = uidOf(meta);
    e.ns = text(meta, "namespace");
    e.name = text(meta, "name");
    e.type = text(o, "type");
    e.reason = text(o, "reason");
    e.message = text(o, "message");
    e.count = int(std::max<qint64>(1, integer(o, "count")));
    const json &source = member(o, "source");
    e.source = text(source, "component");
    if (e.source.isEmpty())
        e.source = text(o, "reportingComponent");
    if (!text(source, "host").isEmpty())
        e.source += QStringLiteral(", ") + text(source, "host");
    e.firstSeen = time(o, "firstTimestamp");
    e.lastSeen = time(o, "lastTimestamp");
    if (e.lastSeen == 0)
        e.lastSeen = time(o, "eventTime");
    if (e.lastSeen == 0)
        e.lastSeen = time(meta, "creationTimestamp");
    if (e.firstSeen == 0)
        e.firstSeen = e.lastSeen;
    const json &obj = member(o, "involvedObject");
    e.objectKind = text(obj, "kind");
    e.objectName = text(obj, "name");
    e.objectUid = text(obj, "uid");
    return e;
}

namespace {

// The object's key, or "" when it lacks one (then it is skipped).
QString keyOf(Resource r, const json &o)
{
    const json &meta = member(o, "metadata");
    if (text(meta, "name").isEmpty())
        return {};
    return resourceInfo(r).keyedByName() ? text(meta, "name") : uidOf(meta);
}

void appendObject(Resource r, const json &o, Delta *out)
{
    switch (r) {
#define GPUDESK_KIND_DECODE(name, type, group, versions, plural, kind, scope)                      \
    case Resource::name:                                                                           \
        out->items<type>().append(Decoder::decode<type>(r, o));                                    \
        break;
        GPUDESK_KINDS(GPUDESK_KIND_DECODE)
#undef GPUDESK_KIND_DECODE
    }
}

// What came back instead of a list, in words: a Table (a proxy or an aggregated API printing
// for kubectl), a Status, another kind, or not JSON at all.
QString notAList(const json &j, const QByteArray &body)
{
    if (j.is_discarded()) {
        QByteArray start = body.left(60).simplified();
        if (start.isEmpty())
            return QStringLiteral("an empty answer instead of a Kubernetes list");
        return QStringLiteral("an answer that is not JSON (it starts with \"%1\") instead of a "
                              "Kubernetes list")
            .arg(QString::fromUtf8(start));
    }
    const QString kind = text(j, "kind");
    const QString apiVersion = text(j, "apiVersion");
    if (kind == QLatin1String("Table"))
        return QStringLiteral("a Table (%1, rows printed for kubectl) instead of a list of "
                              "objects: a proxy or an aggregated API rewrote the request")
            .arg(apiVersion);
    if (kind == QLatin1String("Status"))
        return QStringLiteral("a Status instead of a list: %1").arg(text(j, "message"));
    if (!kind.isEmpty())
        return QStringLiteral("a %1 (%2) instead of a list").arg(kind, apiVersion);
    return QStringLiteral("JSON without items instead of a Kubernetes list");
}

} // namespace

qint64 Decoder::quantityUnits(const QString &q)
{
    const auto m = quantity::parseMilli(q);
    return m ? (*m + 999) / 1000 : -1;
}

qint64 Decoder::quantityMilli(const QString &q)
{
    return quantity::parseMilli(q).value_or(-1);
}

qint64 Decoder::timestamp(const QString &rfc3339)
{
    if (rfc3339.isEmpty())
        return 0;
    const QDateTime t = QDateTime::fromString(rfc3339, Qt::ISODateWithMs);
    return t.isValid() ? t.toMSecsSinceEpoch() : 0;
}

qint64 Decoder::timestampOf(std::string_view t)
{
    // The form the API server writes (metav1.Time: seconds, UTC) read by hand — 100,000 pods'
    // times through QDateTime cost a tenth of a sync; any other form goes the general way.
    const auto digits = [&](size_t at, size_t n) {
        int v = 0;
        for (size_t i = at; i < at + n; ++i) {
            if (t[i] < '0' || t[i] > '9')
                return -1;
            v = v * 10 + (t[i] - '0');
        }
        return v;
    };
    if (t.size() == 20 && t[4] == '-' && t[7] == '-' && t[10] == 'T' && t[13] == ':' &&
        t[16] == ':' && t[19] == 'Z') {
        const int y = digits(0, 4), m = digits(5, 2), d = digits(8, 2);
        const int hh = digits(11, 2), mm = digits(14, 2), ss = digits(17, 2);
        static constexpr int monthDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        const bool leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
        if (y >= 1000 && m >= 1 && m <= 12 && d >= 1 &&
            d <= monthDays[m - 1] + (m == 2 && leap ? 1 : 0) && hh >= 0 && hh < 24 && mm >= 0 &&
            mm < 60 && ss >= 0 && ss < 60) {
            // Days from the civil date (H. Hinnant's algorithm).
            const int yy = y - (m <= 2 ? 1 : 0);
            const int era = yy / 400;
            const int yoe = yy - era * 400;
            const int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
            const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
            const qint64 days = qint64(era) * 146097 + doe - 719468;
            return ((days * 24 + hh) * 60 + mm) * 60000 + qint64(ss) * 1000;
        }
    }
    return timestamp(QString::fromUtf8(t.data(), qsizetype(t.size())));
}

DecodedPage<int> Decoder::listTree(Resource r, const QByteArray &body, Delta *out)
{
    DecodedPage<int> page;
    const json j = parseBoundedJson(body);
    if (!j.is_object() || !member(j, "items").is_array()) {
        page.error = notAList(j, body);
        return page;
    }
    const json &meta = member(j, "metadata");
    page.continueToken = text(meta, "continue");
    page.resourceVersion = text(meta, "resourceVersion");
    for (const auto &item : j["items"]) {
        if (!item.is_object() || keyOf(r, item).isEmpty()) {
            ++page.skipped;
            continue;
        }
        appendObject(r, item, out);
    }
    return page;
}

namespace {

// A watch line read as a tree: any kind, any event, any malformed line.
class TreeLines
{
public:
    explicit TreeLines(Resource r) : m_resource(r) {}
    void read(const QByteArray &line, WatchLine *l)
    {
        m_event = parseBoundedJson(line);
        l->type = text(m_event, "type");
        const json &obj = member(m_event, "object");
        if (l->type == QLatin1String("ERROR")) {
            l->errorCode = int(integer(obj, "code"));
            l->errorMessage = text(obj, "message");
            return;
        }
        l->resourceVersion = text(member(obj, "metadata"), "resourceVersion");
        l->key = keyOf(m_resource, obj);
    }
    void append(Delta *out) { appendObject(m_resource, member(m_event, "object"), out); }

private:
    Resource m_resource;
    json m_event;
};

// Pod lines through PodDecoder, any it leaves through the tree.
class PodLines
{
public:
    void read(const QByteArray &line, WatchLine *l)
    {
        m_tree = !PodDecoder::event(line, l, &m_pod);
        if (m_tree) {
            *l = WatchLine{};
            m_lines.read(line, l);
        }
    }
    void append(Delta *out)
    {
        if (m_tree)
            m_lines.append(out);
        else
            out->items<PodInfo>().append(std::move(m_pod));
    }

private:
    TreeLines m_lines{Resource::Pods};
    PodInfo m_pod;
    bool m_tree = false;
};

template <class Lines>
WatchProgress watchLoop(Lines &reader, const QList<QByteArray> &lines, Delta *out)
{
    WatchProgress progress;
    // A later event for a key overrides an earlier one: an object deleted and then created
    // again within one batch must end up present.
    QSet<QString> removed;
    for (const QByteArray &line : lines) {
        WatchLine l;
        reader.read(line, &l);
        if (l.type == QLatin1String("ERROR")) {
            progress.errorCode = l.errorCode;
            progress.errorMessage = l.errorMessage;
            if (progress.errorMessage.isEmpty())
                progress.errorMessage = QStringLiteral("watch error without a message");
            break; // the server ends the stream after an ERROR
        }
        if (l.type == QLatin1String("BOOKMARK")) {
            if (!l.resourceVersion.isEmpty())
                progress.resourceVersion = l.resourceVersion;
            continue;
        }
        const bool upsert = l.type == QLatin1String("ADDED") || l.type == QLatin1String("MODIFIED");
        if (l.key.isEmpty() || (!upsert && l.type != QLatin1String("DELETED"))) {
            ++progress.skipped;
            continue;
        }
        if (upsert) {
            if (removed.remove(l.key))
                out->removed.removeOne(l.key);
            reader.append(out);
        } else if (!removed.contains(l.key)) {
            removed.insert(l.key);
            out->removed.append(l.key);
        }
        if (!l.resourceVersion.isEmpty())
            progress.resourceVersion = l.resourceVersion;
    }
    return progress;
}

} // namespace

WatchProgress Decoder::watchEvents(Resource r, const QList<QByteArray> &lines, Delta *out)
{
    if (r == Resource::Pods) {
        PodLines reader;
        return watchLoop(reader, lines, out);
    }
    return watchEventsTree(r, lines, out);
}

WatchProgress Decoder::watchEventsTree(Resource r, const QList<QByteArray> &lines, Delta *out)
{
    TreeLines reader(r);
    return watchLoop(reader, lines, out);
}

DecodedPage<int> Decoder::list(Resource r, const QByteArray &body, Delta *out)
{
    if (r == Resource::Pods)
        if (auto page = PodDecoder::list(body, out))
            return std::move(*page);
    return listTree(r, body, out);
}

} // namespace gpudesk
