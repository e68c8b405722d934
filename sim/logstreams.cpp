// SPDX-License-Identifier: GPL-3.0-or-later
#include "logstreams.h"

#include "objectfactory.h"
#include "simclock.h"
#include "simulation.h"

#include <QDateTime>

namespace sim {

using nlohmann::json;

namespace {
constexpr qsizetype kPieceBytes = 1 << 20;
} // namespace

void LogStreams::tick()
{
    for (auto it = m_follows.begin(); it != m_follows.end();) {
        Follow &f = **it;
        if (!f.connection || !f.connection->isOpen()) {
            it = m_follows.erase(it);
            continue;
        }
        writeFollowedLines(f);
        if (!f.connection) {
            it = m_follows.erase(it);
            continue;
        }
        ++it;
    }
}

bool LogStreams::nodeRdma(const json &pod) const
{
    const std::string node = sub(pod, "spec").value("nodeName", "");
    if (node.empty())
        return false;
    const auto n = m_store->get(m_sim->nodes(), QString(), QString::fromStdString(node));
    return n.ok() && sub(sub(*n.object.object, "metadata"), "labels")
                             .value("feature.node.kubernetes.io/rdma.available", "") == "true";
}

void LogStreams::writeFollowedLines(Follow &f)
{
    // Re-read the pod: the container may have ended, or the pod may be gone.
    const auto pod = m_store->get(m_sim->pods(), f.ns, f.pod);
    const qint64 now = m_store->clock()->nowMs();
    bool end = !pod.ok() || (*pod.object.object)["metadata"].value("uid", "") != f.uid;
    if (!end) {
        int code = 0;
        QString message;
        const auto spec = PodLogs::spec(*pod.object.object, m_sim->behaviorOf(f.uid), f.container,
                                        false, nodeRdma(*pod.object.object), &code, &message);
        if (spec && spec->startMs == f.spec.startMs)
            f.spec = *spec;
        else
            end = true;
    }
    const qint64 count = PodLogs::lineCount(f.spec, now);
    QByteArray out;
    while (f.next < count && out.size() < kPieceBytes) {
        QByteArray line = PodLogs::line(f.spec, f.next);
        if (f.timestamps)
            line = PodLogs::timestamp(PodLogs::lineTimeMs(f.spec, f.next)) + ' ' + line;
        out += line + '\n';
        ++f.next;
    }
    if (f.bytesLeft >= 0) {
        if (out.size() >= f.bytesLeft) {
            out.truncate(f.bytesLeft);
            end = true;
        }
        f.bytesLeft -= out.size();
    }
    f.connection->writeChunk(out);
    if (f.next >= count && (end || (f.spec.endMs >= 0 && now >= f.spec.endMs))) {
        f.connection->endStream();
        f.connection = nullptr;
    }
}

void LogStreams::logs(HttpConnection *c, const HttpRequest &r, const ApiRoute &rt)
{
    if (r.method != "GET") {
        sendError(c, methodNotAllowed());
        return;
    }
    const auto pod = m_store->get(rt.type, rt.ns, rt.name);
    if (!pod.ok()) {
        sendError(c, *pod.error);
        return;
    }
    const json &p = *pod.object.object;
    const std::string uid = p["metadata"].value("uid", "");
    int code = 0;
    QString message;
    const QString container = r.queryValue(QStringLiteral("container"));
    const bool previous = queryBool(r, QStringLiteral("previous"));
    const auto spec =
        PodLogs::spec(p, m_sim->behaviorOf(uid), container, previous, nodeRdma(p), &code, &message);
    if (!spec) {
        sendError(c, {code, QStringLiteral("BadRequest"), message});
        return;
    }
    bool bad = false;
    const auto tail = queryInt(r, QStringLiteral("tailLines"), &bad);
    const auto sinceSeconds = queryInt(r, QStringLiteral("sinceSeconds"), &bad);
    const auto limitBytes = queryInt(r, QStringLiteral("limitBytes"), &bad);
    const QString sinceTime = r.queryValue(QStringLiteral("sinceTime"));
    if (bad || (sinceSeconds && !sinceTime.isEmpty())) {
        sendError(c, badRequest(QStringLiteral(
                         "PodLogOptions is invalid: at most one of sinceTime or sinceSeconds "
                         "may be specified, and numbers must be integers")));
        return;
    }
    const qint64 now = m_store->clock()->nowMs();
    const qint64 count = PodLogs::lineCount(*spec, now);
    qint64 first = 0;
    qint64 sinceMs = -1;
    if (sinceSeconds)
        sinceMs = now - *sinceSeconds * 1000;
    else if (!sinceTime.isEmpty())
        sinceMs = QDateTime::fromString(sinceTime, Qt::ISODateWithMs).toMSecsSinceEpoch();
    if (sinceMs >= 0) {
        // Line times rise monotonically: binary search for the first one at or after since.
        qint64 lo = 0;
        qint64 hi = count;
        while (lo < hi) {
            const qint64 mid = (lo + hi) / 2;
            if (PodLogs::lineTimeMs(*spec, mid) < sinceMs)
                lo = mid + 1;
            else
                hi = mid;
        }
        first = lo;
    }
    if (tail && *tail >= 0)
        first = std::max(first, count - *tail);
    const bool timestamps = queryBool(r, QStringLiteral("timestamps"));
    if (queryBool(r, QStringLiteral("follow"))) {
        auto f = std::make_unique<Follow>();
        f->connection = c;
        f->ns = rt.ns;
        f->pod = rt.name;
        f->container = spec->container;
        f->uid = uid;
        f->spec = *spec;
        f->next = first;
        f->timestamps = timestamps;
        f->bytesLeft = limitBytes.value_or(-1);
        c->beginStream(200, "text/plain");
        writeFollowedLines(*f);
        if (f->connection)
            m_follows.push_back(std::move(f));
        return;
    }
    auto index = std::make_shared<qint64>(first);
    auto left = std::make_shared<qint64>(limitBytes.value_or(-1));
    const LogSpec s = *spec;
    c->respondProduced(200, "text/plain", [s, index, count, timestamps, left]() -> QByteArray {
        QByteArray out;
        while (*index < count && out.size() < kPieceBytes) {
            QByteArray line = PodLogs::line(s, *index);
            if (timestamps)
                line = PodLogs::timestamp(PodLogs::lineTimeMs(s, *index)) + ' ' + line;
            out += line + '\n';
            ++*index;
        }
        if (*left >= 0) {
            if (out.size() > *left)
                out.truncate(*left);
            *left -= out.size();
            if (*left == 0)
                *index = count;
        }
        return out;
    });
}

} // namespace sim
