// SPDX-License-Identifier: GPL-3.0-or-later
#include "decoder.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace gpudesk {

using nlohmann::json;

namespace {

const json &member(const json &o, const char *key)
{
    static const json empty = json::object();
    if (!o.is_object())
        return empty;
    const auto it = o.find(key);
    return it == o.end() ? empty : *it;
}

QString text(const json &o, const char *key)
{
    const json &v = member(o, key);
    return v.is_string() ? QString::fromStdString(v.get<std::string>()) : QString();
}

int gpus(const json &resources)
{
    const json &v = member(resources, "nvidia.com/gpu");
    if (v.is_string())
        return int(std::max<qint64>(
            0, Decoder::quantityUnits(QString::fromStdString(v.get<std::string>()))));
    if (v.is_number_integer())
        return int(std::max<qint64>(0, v.get<qint64>()));
    return 0;
}

template <class T, class F> DecodedPage<T> decodeList(const QByteArray &body, F decodeItem)
{
    DecodedPage<T> page;
    const json j = json::parse(body.begin(), body.end(), nullptr, false);
    if (!j.is_object() || !member(j, "items").is_array()) {
        page.error = QStringLiteral("not a Kubernetes list");
        return page;
    }
    const json &meta = member(j, "metadata");
    page.continueToken = text(meta, "continue");
    page.resourceVersion = text(meta, "resourceVersion");
    for (const auto &item : j["items"]) {
        if (!item.is_object() || text(member(item, "metadata"), "name").isEmpty()) {
            ++page.skipped;
            continue;
        }
        page.items.append(decodeItem(item));
    }
    return page;
}

} // namespace

qint64 Decoder::quantityUnits(const QString &q)
{
    static const std::pair<const char *, double> suffixes[] = {
        {"m", 0.001}, {"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"Ki", 1024.0}, {"Mi", 1048576.0}};
    QString number = q.trimmed();
    double mult = 1.0;
    for (const auto &[sfx, m] : suffixes) {
        if (number.endsWith(QLatin1String(sfx))) {
            number.chop(int(qstrlen(sfx)));
            mult = m;
            break;
        }
    }
    bool ok = false;
    const double v = number.toDouble(&ok);
    if (!ok || v < 0)
        return -1;
    return qint64(std::floor(v * mult + 1e-9));
}

DecodedPage<NodeInfo> Decoder::nodes(const QByteArray &list)
{
    return decodeList<NodeInfo>(list, [](const json &o) {
        NodeInfo n;
        const json &meta = member(o, "metadata");
        n.uid = text(meta, "uid");
        n.name = text(meta, "name");
        n.gpuModel = text(member(meta, "labels"), "nvidia.com/gpu.product");
        n.unschedulable = member(member(o, "spec"), "unschedulable") == json(true);
        const json &status = member(o, "status");
        n.gpuAllocatable = gpus(member(status, "allocatable"));
        n.gpuCapacity = gpus(member(status, "capacity"));
        for (const auto &c : member(status, "conditions")) {
            if (text(c, "type") == QLatin1String("Ready"))
                n.ready = text(c, "status") == QLatin1String("True");
        }
        return n;
    });
}

DecodedPage<PodInfo> Decoder::pods(const QByteArray &list)
{
    return decodeList<PodInfo>(list, [](const json &o) {
        PodInfo p;
        const json &meta = member(o, "metadata");
        p.uid = text(meta, "uid");
        p.ns = text(meta, "namespace");
        p.name = text(meta, "name");
        p.deleting = member(meta, "deletionTimestamp").is_string();
        p.queue = text(member(meta, "labels"), "volcano.sh/queue-name");
        if (p.queue.isEmpty())
            p.queue = text(member(meta, "annotations"), "scheduling.volcano.sh/queue-name");
        const json &spec = member(o, "spec");
        p.nodeName = text(spec, "nodeName");
        p.phase = text(member(o, "status"), "phase");
        // What the scheduler counts: requests, falling back to limits (extended resources).
        for (const auto &c : member(spec, "containers")) {
            const json &res = member(c, "resources");
            const int req = gpus(member(res, "requests"));
            p.gpuRequest += req > 0 ? req : gpus(member(res, "limits"));
        }
        return p;
    });
}

DecodedPage<QueueInfo> Decoder::queues(const QByteArray &list)
{
    return decodeList<QueueInfo>(list, [](const json &o) {
        QueueInfo q;
        q.name = text(member(o, "metadata"), "name");
        const json &cap = member(member(o, "spec"), "capability");
        if (cap.contains("nvidia.com/gpu"))
            q.gpuCapability = gpus(cap);
        return q;
    });
}

DecodedPage<NamespaceInfo> Decoder::namespaces(const QByteArray &list)
{
    return decodeList<NamespaceInfo>(list, [](const json &o) {
        NamespaceInfo n;
        const json &meta = member(o, "metadata");
        n.name = text(meta, "name");
        n.user = text(member(meta, "labels"), "gpudesk.io/user");
        n.vc = text(member(meta, "labels"), "gpudesk.io/vc");
        return n;
    });
}

} // namespace gpudesk
