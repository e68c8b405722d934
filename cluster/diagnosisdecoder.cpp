// SPDX-License-Identifier: GPL-3.0-or-later
#include "diagnosisdecoder.h"

#include "quantity.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>
#include <QUrlQuery>

#include <algorithm>

namespace gpudesk {

namespace {

qint64 mebibytes(const QJsonValue &q)
{
    const QString text = q.toString();
    const auto milli = quantity::parseMilliOf(QStringView(text));
    return milli ? *milli / 1000 / (1024 * 1024) : 0;
}

// The container's status: its state now, or — waiting to be restarted — what ended its last run
// (the OOMKilled, the exit code 127), which is what the rules ask about.
DiagnosisInput::Container containerOf(const QJsonObject &cs)
{
    DiagnosisInput::Container c;
    c.name = cs.value(u"name").toString();
    c.restarts = cs.value(u"restartCount").toInt();
    const QJsonObject state = cs.value(u"state").toObject();
    const QJsonObject last = cs.value(u"lastState").toObject().value(u"terminated").toObject();
    const QString kind = state.isEmpty() ? QString() : state.constBegin().key();
    const QJsonObject now = state.value(kind).toObject();
    c.state = kind;
    c.reason = now.value(u"reason").toString();
    c.message = now.value(u"message").toString();
    QJsonObject ended = kind == u"terminated" ? now : QJsonObject();
    if (kind != u"terminated" && !last.isEmpty() && c.restarts > 0) {
        ended = last;
        if (kind == u"waiting" || c.reason.isEmpty()) {
            c.reason = last.value(u"reason").toString(c.reason);
            if (c.message.isEmpty())
                c.message = last.value(u"message").toString();
        }
    }
    if (ended.contains(u"exitCode"))
        c.exitCode = ended.value(u"exitCode").toInt();
    if (ended.contains(u"signal"))
        c.signal = ended.value(u"signal").toInt();
    else if (c.exitCode && *c.exitCode > 128 && *c.exitCode < 160)
        c.signal = *c.exitCode - 128; // 137: KILL, 135: BUS — as the runtime reports a signal
    return c;
}

} // namespace

bool DiagnosisDecoder::decode(const QByteArray &podJson, DiagnosisInput *out, QString *error)
{
    QJsonParseError parse;
    const QJsonDocument doc = QJsonDocument::fromJson(podJson, &parse);
    const QJsonObject pod = doc.object();
    if (parse.error != QJsonParseError::NoError || pod.value(u"kind").toString() != u"Pod") {
        *error = parse.error != QJsonParseError::NoError
                     ? QStringLiteral("not JSON: %1").arg(parse.errorString())
                     : QStringLiteral("not a Pod");
        return false;
    }
    DiagnosisInput in;
    const QJsonObject meta = pod.value(u"metadata").toObject();
    const QJsonObject spec = pod.value(u"spec").toObject();
    const QJsonObject status = pod.value(u"status").toObject();
    in.ns = meta.value(u"namespace").toString();
    in.pod = meta.value(u"name").toString();
    in.phase = status.value(u"phase").toString();
    in.reason = status.value(u"reason").toString();
    in.message = status.value(u"message").toString();
    for (const QJsonValue &cs : status.value(u"containerStatuses").toArray())
        in.containers.append(containerOf(cs.toObject()));

    const QJsonArray containers = spec.value(u"containers").toArray();
    const QJsonObject first = containers.at(0).toObject(); // Undefined when there is none
    in.memoryLimitMiB = mebibytes(
        first.value(u"resources").toObject().value(u"limits").toObject().value(u"memory"));
    // Every container's variables (the trainer need not be the first: a sidecar injected
    // before it), each once.
    for (const QJsonValue &c : containers)
        for (const QJsonValue &e : c.toObject().value(u"env").toArray()) {
            const QJsonObject v = e.toObject();
            const QString setting =
                v.value(u"name").toString() + u'=' + v.value(u"value").toString();
            if (!in.env.contains(setting))
                in.env << setting;
        }
    for (const char16_t *key : {u"command", u"args"})
        for (const QJsonValue &a : first.value(QStringView(key)).toArray())
            in.command << a.toString();

    // /dev/shm: a Memory emptyDir mounted there, of its sizeLimit (without one, it is bounded by
    // the pod's memory limit); the runtime's 64 MiB otherwise.
    QString shmVolume;
    for (const QJsonValue &m : first.value(u"volumeMounts").toArray())
        if (m.toObject().value(u"mountPath").toString() == u"/dev/shm")
            shmVolume = m.toObject().value(u"name").toString();
    for (const QJsonValue &v : spec.value(u"volumes").toArray()) {
        const QJsonObject vol = v.toObject();
        const QJsonObject dir = vol.value(u"emptyDir").toObject();
        if (shmVolume.isEmpty() || vol.value(u"name").toString() != shmVolume ||
            dir.value(u"medium").toString() != u"Memory")
            continue;
        const qint64 limit = mebibytes(dir.value(u"sizeLimit"));
        in.shmMiB = limit > 0 ? limit : in.memoryLimitMiB > 0 ? in.memoryLimitMiB : 1 << 20;
    }
    *out = std::move(in);
    return true;
}

QList<DiagnosisInput::Event> DiagnosisDecoder::decodeEvents(const QByteArray &eventListJson)
{
    QList<std::pair<QString, DiagnosisInput::Event>> timed;
    const QJsonArray items =
        QJsonDocument::fromJson(eventListJson).object().value(u"items").toArray();
    for (const QJsonValue &v : items) {
        const QJsonObject e = v.toObject();
        QString source = e.value(u"source").toObject().value(u"component").toString();
        if (source.isEmpty())
            source = e.value(u"reportingComponent").toString();
        QString when = e.value(u"lastTimestamp").toString();
        if (when.isEmpty())
            when = e.value(u"eventTime").toString();
        timed.append({when,
                      {e.value(u"type").toString(), e.value(u"reason").toString(),
                       e.value(u"message").toString(), source}});
    }
    std::stable_sort(timed.begin(), timed.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    QList<DiagnosisInput::Event> out;
    out.reserve(timed.size());
    for (auto &[when, event] : timed)
        out.append(std::move(event));
    return out;
}

QString DiagnosisDecoder::eventsPath(const QString &ns, const QString &podUid)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("fieldSelector"), QStringLiteral("involvedObject.uid=") + podUid);
    return QStringLiteral("/api/v1/namespaces/%1/events?%2").arg(ns, q.query(QUrl::FullyEncoded));
}

QList<DiagnosisDecoder::LogWanted> DiagnosisDecoder::logsWanted(const DiagnosisInput &in)
{
    QList<LogWanted> out;
    for (const DiagnosisInput::Container &c : in.containers) {
        if (c.state == u"terminated")
            out.append({c.name, false});
        else if (c.restarts > 0)
            out.append({c.name, true}); // the run that ended; the new one may not have spoken
    }
    return out;
}

QString DiagnosisDecoder::logPath(const QString &ns, const QString &pod, const LogWanted &want,
                                  int lines, int bytes)
{
    QUrlQuery q;
    q.addQueryItem(QStringLiteral("container"), want.container);
    if (lines > 0)
        q.addQueryItem(QStringLiteral("tailLines"), QString::number(lines));
    q.addQueryItem(QStringLiteral("limitBytes"), QString::number(bytes));
    if (want.previous)
        q.addQueryItem(QStringLiteral("previous"), QStringLiteral("true"));
    return QStringLiteral("/api/v1/namespaces/%1/pods/%2/log?%3")
        .arg(ns, pod, q.query(QUrl::FullyEncoded));
}

} // namespace gpudesk
