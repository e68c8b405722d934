// SPDX-License-Identifier: GPL-3.0-or-later
#include "poddecoder.h"

#include "stringpool.h"

#include <simdjson.h>

#include <algorithm>
#include <string>
#include <vector>

namespace gpudesk {

// simdjson's On-Demand code is inline, made for the instruction set the build targets (the
// portable one on Debian's x86-64); its stage 1, the scan that indexes the bytes, is chosen at run
// time by the library for the processor it runs on (AVX2, AVX-512…), and is where the vector
// units count.
namespace od = simdjson::ondemand;

namespace {

using Text = std::string_view;

// Each reader below follows what the tree-based decoder (decoder.cpp, through jsonfields)
// makes of the same bytes, including its corners: nlohmann keeps the last of a repeated key,
// walks an object's values in key order and a scalar as one element of itself, and reads
// "integer" as a JSON number without fraction or exponent that fits 64 bits.

template <class F> void fields(od::value &v, F &&fn)
{
    if (v.type() != od::json_type::object)
        return;
    for (auto field : v.get_object()) {
        const Text key = field.unescaped_key();
        od::value value = field.value();
        fn(key, value);
    }
}

// The elements nlohmann's range-for visits: an array's, an object's values by key (a repeated
// key: its last value), a scalar itself, null none. `parse` reads one (any JSON type).
template <class T, class Parse> std::vector<T> elements(od::value &v, Parse parse)
{
    std::vector<T> out;
    switch (od::json_type(v.type())) {
    case od::json_type::array:
        for (auto element : v.get_array()) {
            od::value e = element.value();
            out.push_back(parse(e));
        }
        break;
    case od::json_type::object: {
        std::vector<std::pair<std::string, T>> keyed;
        for (auto field : v.get_object()) {
            std::string key(Text(field.unescaped_key()));
            od::value e = field.value();
            keyed.emplace_back(std::move(key), parse(e));
        }
        std::stable_sort(keyed.begin(), keyed.end(),
                         [](const auto &a, const auto &b) { return a.first < b.first; });
        for (size_t i = 0; i < keyed.size(); ++i)
            if (i + 1 == keyed.size() || keyed[i + 1].first != keyed[i].first)
                out.push_back(std::move(keyed[i].second));
        break;
    }
    case od::json_type::null:
        break;
    default:
        out.push_back(parse(v));
    }
    return out;
}

Text text(od::value &v)
{
    return v.type() == od::json_type::string ? Text(v.get_string()) : Text();
}

QString string(Text t)
{
    return QString::fromUtf8(t.data(), qsizetype(t.size()));
}

QString pooled(Text t)
{
    return t.empty() ? QString() : StringPool::local().intern(t);
}

std::optional<qint64> integer(od::value &v)
{
    if (v.type() != od::json_type::number)
        return std::nullopt;
    switch (od::number_type(v.get_number_type())) {
    case od::number_type::signed_integer: {
        int64_t i = 0;
        if (v.get_int64().get(i) == simdjson::SUCCESS)
            return i;
        return std::nullopt;
    }
    case od::number_type::unsigned_integer: {
        uint64_t u = 0;
        if (v.get_uint64().get(u) == simdjson::SUCCESS)
            return qint64(u);
        return std::nullopt;
    }
    default:
        return std::nullopt;
    }
}

bool isTrue(od::value &v)
{
    return v.type() == od::json_type::boolean && bool(v.get_bool());
}

// jsonfields::milli.
std::optional<qint64> milli(od::value &v)
{
    switch (od::json_type(v.type())) {
    case od::json_type::string:
        return quantity::parseMilliOf(Text(v.get_string()));
    case od::json_type::number: {
        double d = 0;
        if (v.get_double().get(d) != simdjson::SUCCESS)
            return std::nullopt;
        return quantity::parseMilli(QString::number(d, 'f'));
    }
    default:
        return std::nullopt;
    }
}

qint64 units(od::value &v)
{
    const auto m = milli(v);
    return m ? (*m + 999) / 1000 : 0;
}

struct ResourceFields
{
    int gpus = 0;
    MigCounts mig;
    qint64 cpuMilli = 0;
    qint64 memoryBytes = 0;
};

ResourceFields resourceList(od::value &v)
{
    static constexpr Text migPrefix = "nvidia.com/mig-";
    ResourceFields r;
    std::vector<std::pair<std::string, int>> mig;
    fields(v, [&](Text key, od::value &value) {
        if (key == "nvidia.com/gpu")
            r.gpus = int(units(value));
        else if (key == "cpu")
            r.cpuMilli = milli(value).value_or(0);
        else if (key == "memory")
            r.memoryBytes = units(value);
        else if (key.substr(0, migPrefix.size()) == migPrefix)
            mig.emplace_back(std::string(key.substr(migPrefix.size())), int(units(value)));
    });
    std::stable_sort(mig.begin(), mig.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    for (size_t i = 0; i < mig.size(); ++i)
        if ((i + 1 == mig.size() || mig[i + 1].first != mig[i].first) && mig[i].second > 0)
            r.mig.append({pooled(mig[i].first), mig[i].second});
    return r;
}

struct ContainerFields
{
    Text name;
    Text image;
    QList<std::pair<QString, int>> ports; // named ones
    ResourceFields requests;
    ResourceFields limits;
};

ContainerFields container(od::value &v)
{
    ContainerFields c;
    fields(v, [&](Text key, od::value &value) {
        if (key == "name") {
            c.name = text(value);
        } else if (key == "image") {
            c.image = text(value);
        } else if (key == "ports") {
            c.ports.clear();
            struct Port
            {
                Text name;
                int number = 0;
            };
            const auto ports = elements<Port>(value, [](od::value &p) {
                Port port;
                fields(p, [&](Text k, od::value &x) {
                    if (k == "name")
                        port.name = text(x);
                    else if (k == "containerPort")
                        port.number = int(integer(x).value_or(0));
                });
                return port;
            });
            for (const Port &p : ports)
                if (!p.name.empty())
                    c.ports.append({pooled(p.name), p.number});
        } else if (key == "resources") {
            c.requests = {};
            c.limits = {};
            fields(value, [&](Text k, od::value &x) {
                if (k == "requests")
                    c.requests = resourceList(x);
                else if (k == "limits")
                    c.limits = resourceList(x);
            });
        }
    });
    return c;
}

struct Toleration
{
    Text key, op, value, effect;
    std::optional<qint64> seconds;
};

struct SpecFields
{
    Text nodeName;
    std::optional<qint64> grace;
    std::vector<ContainerFields> containers;
    std::vector<std::pair<std::string, std::optional<Text>>> nodeSelector; // in order met
    std::vector<Toleration> tolerations;
};

SpecFields spec(od::value &v)
{
    SpecFields s;
    fields(v, [&](Text key, od::value &value) {
        if (key == "nodeName") {
            s.nodeName = text(value);
        } else if (key == "terminationGracePeriodSeconds") {
            s.grace = integer(value);
        } else if (key == "containers") {
            s.containers = elements<ContainerFields>(value, container);
        } else if (key == "nodeSelector") {
            s.nodeSelector.clear();
            fields(value, [&](Text k, od::value &x) {
                std::optional<Text> t;
                if (x.type() == od::json_type::string)
                    t = Text(x.get_string());
                s.nodeSelector.emplace_back(std::string(k), t);
            });
        } else if (key == "tolerations") {
            s.tolerations = elements<Toleration>(value, [](od::value &t) {
                Toleration tol;
                fields(t, [&](Text k, od::value &x) {
                    if (k == "key")
                        tol.key = text(x);
                    else if (k == "operator")
                        tol.op = text(x);
                    else if (k == "value")
                        tol.value = text(x);
                    else if (k == "effect")
                        tol.effect = text(x);
                    else if (k == "tolerationSeconds")
                        tol.seconds = integer(x);
                });
                return tol;
            });
        }
    });
    return s;
}

struct ContainerStatus
{
    qint64 restarts = 0;
    Text name, imageId;
    bool ready = false;
    bool waiting = false, terminated = false, running = false;
    Text waitingReason, waitingMessage;
    Text terminatedReason, terminatedMessage;
    qint64 exitCode = 0;
};

ContainerStatus containerStatus(od::value &v)
{
    ContainerStatus c;
    fields(v, [&](Text key, od::value &value) {
        if (key == "restartCount") {
            c.restarts = integer(value).value_or(0);
        } else if (key == "name") {
            c.name = text(value);
        } else if (key == "imageID") {
            c.imageId = text(value);
        } else if (key == "ready") {
            c.ready = isTrue(value);
        } else if (key == "state") {
            c.waiting = c.terminated = c.running = false;
            c.waitingReason = c.waitingMessage = c.terminatedReason = c.terminatedMessage = {};
            c.exitCode = 0;
            fields(value, [&](Text k, od::value &s) {
                if (k == "waiting") {
                    c.waiting = true;
                    c.waitingReason = c.waitingMessage = {};
                    fields(s, [&](Text f, od::value &x) {
                        if (f == "reason")
                            c.waitingReason = text(x);
                        else if (f == "message")
                            c.waitingMessage = text(x);
                    });
                } else if (k == "terminated") {
                    c.terminated = true;
                    c.terminatedReason = c.terminatedMessage = {};
                    c.exitCode = 0;
                    fields(s, [&](Text f, od::value &x) {
                        if (f == "reason")
                            c.terminatedReason = text(x);
                        else if (f == "message")
                            c.terminatedMessage = text(x);
                        else if (f == "exitCode")
                            c.exitCode = integer(x).value_or(0);
                    });
                } else if (k == "running") {
                    c.running = true;
                }
            });
        }
    });
    return c;
}

struct ConditionFields
{
    Text type, status, message;
};

struct StatusFields
{
    Text phase, reason, message, podIP, qosClass;
    std::vector<ContainerStatus> containers;
    std::vector<ConditionFields> conditions;
};

StatusFields status(od::value &v)
{
    StatusFields s;
    fields(v, [&](Text key, od::value &value) {
        if (key == "phase") {
            s.phase = text(value);
        } else if (key == "reason") {
            s.reason = text(value);
        } else if (key == "message") {
            s.message = text(value);
        } else if (key == "podIP") {
            s.podIP = text(value);
        } else if (key == "qosClass") {
            s.qosClass = text(value);
        } else if (key == "containerStatuses") {
            s.containers = elements<ContainerStatus>(value, containerStatus);
        } else if (key == "conditions") {
            s.conditions = elements<ConditionFields>(value, [](od::value &c) {
                ConditionFields f;
                fields(c, [&](Text k, od::value &x) {
                    if (k == "type")
                        f.type = text(x);
                    else if (k == "status")
                        f.status = text(x);
                    else if (k == "message")
                        f.message = text(x);
                });
                return f;
            });
        }
    });
    return s;
}

struct MetaFields
{
    Text uid, ns, name, resourceVersion;
    qint64 created = 0;
    bool deleting = false;
    qint64 deletionTime = 0;
    std::optional<qint64> grace;
    Text queueLabel, devEnvLabel, queueAnnotation;
    OwnerRef owner;
};

qint64 time(od::value &v)
{
    return v.type() == od::json_type::string ? Decoder::timestampOf(Text(v.get_string())) : 0;
}

MetaFields metadata(od::value &v)
{
    MetaFields m;
    fields(v, [&](Text key, od::value &value) {
        if (key == "uid") {
            m.uid = text(value);
        } else if (key == "namespace") {
            m.ns = text(value);
        } else if (key == "name") {
            m.name = text(value);
        } else if (key == "resourceVersion") {
            m.resourceVersion = text(value);
        } else if (key == "creationTimestamp") {
            m.created = time(value);
        } else if (key == "deletionTimestamp") {
            m.deleting = value.type() == od::json_type::string;
            m.deletionTime = time(value);
        } else if (key == "deletionGracePeriodSeconds") {
            m.grace = integer(value);
        } else if (key == "labels") {
            m.queueLabel = m.devEnvLabel = {};
            fields(value, [&](Text k, od::value &x) {
                if (k == "volcano.sh/queue-name")
                    m.queueLabel = text(x);
                else if (k == "gpudesk.io/devenv")
                    m.devEnvLabel = text(x);
            });
        } else if (key == "annotations") {
            m.queueAnnotation = {};
            fields(value, [&](Text k, od::value &x) {
                if (k == "scheduling.volcano.sh/queue-name")
                    m.queueAnnotation = text(x);
            });
        } else if (key == "ownerReferences") {
            struct Ref
            {
                bool controller = false;
                Text kind, name, uid;
            };
            const auto refs = elements<Ref>(value, [](od::value &r) {
                Ref ref;
                fields(r, [&](Text k, od::value &x) {
                    if (k == "controller")
                        ref.controller = isTrue(x);
                    else if (k == "kind")
                        ref.kind = text(x);
                    else if (k == "name")
                        ref.name = text(x);
                    else if (k == "uid")
                        ref.uid = text(x);
                });
                return ref;
            });
            m.owner = {};
            for (const Ref &r : refs) {
                if (r.controller) {
                    m.owner = OwnerRef{pooled(r.kind), pooled(r.name), pooled(r.uid)};
                    break;
                }
            }
        }
    });
    return m;
}

struct PodFields
{
    MetaFields meta;
    SpecFields spec;
    StatusFields status;
};

PodFields podFields(od::value &v)
{
    PodFields p;
    fields(v, [&](Text key, od::value &value) {
        if (key == "metadata")
            p.meta = metadata(value);
        else if (key == "spec")
            p.spec = spec(value);
        else if (key == "status")
            p.status = status(value);
    });
    return p;
}

// The key Decoder gives a pod: its uid, else namespace/name; "" without a name (skipped).
QString keyOf(const MetaFields &m)
{
    if (m.name.empty())
        return {};
    return m.uid.empty() ? string(m.ns) + u'/' + string(m.name) : string(m.uid);
}

// Decoder's podStatus, on the fields read.
void podStatus(const PodFields &f, PodInfo *p)
{
    const StatusFields &s = f.status;
    p->phase = pooled(s.phase);
    Text reason = s.reason;
    Text message = s.message;
    QString exitReason;
    bool running = false;
    for (auto it = s.containers.rbegin(); it != s.containers.rend(); ++it) {
        const ContainerStatus &c = *it;
        p->restarts += int(c.restarts);
        if (!p->containers.isEmpty() && string(c.name) == p->containers.first())
            p->imageId = pooled(c.imageId);
        if (c.waiting && !c.waitingReason.empty()) {
            reason = c.waitingReason;
            message = c.waitingMessage;
            exitReason.clear();
        } else if (c.terminated) {
            reason = c.terminatedReason;
            exitReason.clear();
            if (reason.empty())
                exitReason = QStringLiteral("ExitCode:%1").arg(c.exitCode);
            if (!c.terminatedMessage.empty())
                message = c.terminatedMessage;
        } else if (c.running && c.ready) {
            running = true;
        }
    }
    QString status = exitReason.isEmpty() ? pooled(reason) : exitReason;
    if (status == QLatin1String("Completed") && running)
        status = QStringLiteral("Running");
    if (status.isEmpty())
        status = p->phase;
    for (const ConditionFields &c : s.conditions)
        if (c.type == "PodScheduled" && c.status == "False")
            message = c.message;
    if (p->deleting)
        status = QStringLiteral("Terminating");
    p->status = status;
    p->message = pooled(message);
}

// Decoder::decode<PodInfo>, on the fields read.
PodInfo makePod(const PodFields &f, QString key)
{
    StringPool &pool = StringPool::local();
    PodInfo p;
    const MetaFields &m = f.meta;
    p.uid = std::move(key);
    p.ns = pooled(m.ns);
    p.name = string(m.name);
    p.created = m.created;
    p.deleting = m.deleting;
    p.deletionTime = m.deletionTime;
    p.vc = pooled(m.queueLabel);
    p.devEnv = pooled(m.devEnvLabel);
    if (p.vc.isEmpty())
        p.vc = pooled(m.queueAnnotation);
    p.owner = m.owner;
    const SpecFields &s = f.spec;
    p.nodeName = pooled(s.nodeName);
    if (m.grace)
        p.gracePeriodSecs = *m.grace;
    else if (s.grace)
        p.gracePeriodSecs = *s.grace;
    std::string listKey;
    for (const ContainerFields &c : s.containers) {
        listKey.append(c.name).push_back('\xff');
        if (p.image.isEmpty())
            p.image = pooled(c.image);
        p.namedPorts.append(c.ports);
        p.gpuRequest += c.requests.gpus > 0 ? c.requests.gpus : c.limits.gpus;
        for (const auto &entry : c.requests.mig.isEmpty() ? c.limits.mig : c.requests.mig) {
            auto it = std::find_if(p.migRequests.begin(), p.migRequests.end(),
                                   [&](const auto &e) { return e.first == entry.first; });
            if (it == p.migRequests.end())
                p.migRequests.append(entry);
            else
                it->second += entry.second;
        }
        p.cpuRequestMilli += c.requests.cpuMilli;
        p.memoryRequestBytes += c.requests.memoryBytes;
    }
    if (!s.containers.empty())
        p.containers = pool.internList(listKey, [&] {
            QStringList names;
            for (const ContainerFields &c : s.containers)
                names.append(pooled(c.name));
            return names;
        });
    // The node selector as nlohmann orders it: by key, the last of a repeated key.
    auto selector = s.nodeSelector;
    std::stable_sort(selector.begin(), selector.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    for (size_t i = 0; i < selector.size(); ++i)
        if ((i + 1 == selector.size() || selector[i + 1].first != selector[i].first) &&
            selector[i].second)
            p.nodeSelector.append({pooled(selector[i].first), pooled(*selector[i].second)});
    qint64 notReady = 300;
    qint64 unreachable = 300;
    listKey.clear();
    for (const Toleration &t : s.tolerations) {
        listKey.append(t.key).append("|").append(t.op).append("|").append(t.value);
        listKey.append("|").append(t.effect).push_back('\xff');
        if (!t.effect.empty() && t.effect != "NoExecute")
            continue;
        const qint64 secs = t.seconds ? std::max<qint64>(0, *t.seconds) : -1;
        const bool every = t.key.empty() && t.op == "Exists";
        if (every || t.key == "node.kubernetes.io/not-ready")
            notReady = secs;
        if (every || t.key == "node.kubernetes.io/unreachable")
            unreachable = secs;
    }
    if (!s.tolerations.empty())
        p.tolerations = pool.internList(listKey, [&] {
            QStringList list;
            for (const Toleration &t : s.tolerations)
                list.append(string(t.key) + u'|' + string(t.op) + u'|' + string(t.value) + u'|' +
                            string(t.effect));
            return list;
        });
    p.notReadyTolerationSecs =
        notReady < 0 || unreachable < 0 ? -1 : std::max(notReady, unreachable);
    p.podIP = string(f.status.podIP);
    p.qosClass = pooled(f.status.qosClass);
    podStatus(f, &p);
    return p;
}

bool atEnd(od::document &doc)
{
    return doc.current_location().error() == simdjson::OUT_OF_BOUNDS;
}

// The thread's parser, and a padded copy of bytes that lack simdjson's padding after them.
struct ThreadParser
{
    od::parser parser;
    std::string padded;

    simdjson::simdjson_result<od::document> iterate(const QByteArray &bytes)
    {
        const QByteArray::DataPointer &d = const_cast<QByteArray &>(bytes).data_ptr();
        if (d.isMutable() && d.freeSpaceAtEnd() >= qsizetype(simdjson::SIMDJSON_PADDING))
            return parser.iterate(bytes.constData(), size_t(bytes.size()),
                                  size_t(bytes.size() + d.freeSpaceAtEnd()));
        padded.assign(bytes.constData(), size_t(bytes.size()));
        padded.resize(size_t(bytes.size()) + simdjson::SIMDJSON_PADDING);
        return parser.iterate(padded.data(), size_t(bytes.size()), padded.size());
    }
    // After an unpaged list of a whole cluster the buffers would stay hundreds of MB.
    void trim()
    {
        static constexpr size_t keep = 64 << 20;
        if (parser.capacity() > keep) {
            parser = od::parser();
            padded = std::string();
        } else if (padded.capacity() > keep) {
            padded = std::string();
        }
    }
    static ThreadParser &local()
    {
        thread_local ThreadParser p;
        return p;
    }
};

} // namespace

std::optional<DecodedPage<int>> PodDecoder::list(const QByteArray &body, Delta *out)
{
    ThreadParser &tp = ThreadParser::local();
    std::optional<DecodedPage<int>> result;
    try {
        od::document doc = tp.iterate(body);
        od::object top = doc.get_object();
        DecodedPage<int> page;
        QList<PodInfo> items;
        bool sawItems = false;
        bool notAList = false;
        for (auto field : top) {
            const Text key = field.unescaped_key();
            od::value value = field.value();
            if (key == "items") {
                if (value.type() != od::json_type::array) {
                    notAList = true;
                    continue;
                }
                notAList = false;
                sawItems = true;
                items.clear();
                page.skipped = 0;
                for (auto element : value.get_array()) {
                    od::value item = element.value();
                    if (item.type() != od::json_type::object) {
                        ++page.skipped;
                        continue;
                    }
                    const PodFields pod = podFields(item);
                    QString podKey = keyOf(pod.meta);
                    if (podKey.isEmpty()) {
                        ++page.skipped;
                        continue;
                    }
                    items.append(makePod(pod, std::move(podKey)));
                }
            } else if (key == "metadata") {
                page.continueToken.clear();
                page.resourceVersion.clear();
                fields(value, [&](Text k, od::value &x) {
                    if (k == "continue")
                        page.continueToken = string(text(x));
                    else if (k == "resourceVersion")
                        page.resourceVersion = string(text(x));
                });
            }
        }
        if (atEnd(doc) && sawItems && !notAList) {
            out->items<PodInfo>().append(std::move(items));
            result = std::move(page);
        }
    } catch (const simdjson::simdjson_error &) {
        result.reset();
    }
    tp.trim();
    return result;
}

bool PodDecoder::event(const QByteArray &line, WatchLine *event, PodInfo *pod)
{
    ThreadParser &tp = ThreadParser::local();
    try {
        od::document doc = tp.iterate(line);
        od::object top = doc.get_object();
        Text type;
        std::optional<PodFields> object;
        for (auto field : top) {
            const Text key = field.unescaped_key();
            od::value value = field.value();
            if (key == "type") {
                type = text(value);
            } else if (key == "object") {
                object = value.type() == od::json_type::object ? podFields(value) : PodFields();
            }
        }
        if (!atEnd(doc) ||
            (type != "ADDED" && type != "MODIFIED" && type != "DELETED" && type != "BOOKMARK"))
            return false;
        const PodFields fields = object.value_or(PodFields());
        event->type = pooled(type);
        event->resourceVersion = string(fields.meta.resourceVersion);
        event->key = keyOf(fields.meta);
        if ((type == "ADDED" || type == "MODIFIED") && !event->key.isEmpty())
            *pod = makePod(fields, event->key);
        return true;
    } catch (const simdjson::simdjson_error &) {
        return false;
    }
}

} // namespace gpudesk
