// SPDX-License-Identifier: GPL-3.0-or-later
#include "preemptionwatch.h"

#include "clustersession.h"
#include "clusterstore.h"
#include "contextconnection.h"
#include "contextfiles.h"
#include "decoder.h"
#include "kubeclient.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QPointer>
#include <QRegularExpression>
#include <QSaveFile>
#include <QScopeGuard>
#include <QUrl>

#include <algorithm>

Q_LOGGING_CATEGORY(lcPreempt, "gpudesk.preemption")

namespace gpudesk {

namespace {

qint64 msOf(const QJsonValue &v)
{
    const QDateTime t = QDateTime::fromString(v.toString(), Qt::ISODate);
    return t.isValid() ? t.toMSecsSinceEpoch() : 0;
}

QJsonObject controllerOf(const QJsonObject &meta)
{
    for (const QJsonValue &o : meta.value(QLatin1String("ownerReferences")).toArray())
        if (o.toObject().value(QLatin1String("controller")).toBool())
            return o.toObject();
    return {};
}

QString queueOf(const QJsonObject &meta)
{
    const QString label = meta.value(QLatin1String("labels"))
                              .toObject()
                              .value(QLatin1String("volcano.sh/queue-name"))
                              .toString();
    return label.isEmpty() ? meta.value(QLatin1String("annotations"))
                                 .toObject()
                                 .value(QLatin1String("scheduling.volcano.sh/queue-name"))
                                 .toString()
                           : label;
}

} // namespace

PreemptionWatch::PreemptionWatch(ClusterSession *session, ClusterStore *store, QObject *parent)
    : QObject(parent), m_session(session), m_client([session]() -> KubeClient * {
          const auto &c = session->connection();
          return c ? c->client() : nullptr;
      }),
      m_store(store), m_log(new PreemptionLog(this))
{
    m_saveLater.setSingleShot(true);
    m_saveLater.setInterval(1000);
    connect(&m_saveLater, &QTimer::timeout, this, &PreemptionWatch::save);
    connect(m_session, &ClusterSession::connectionChanged, this,
            &PreemptionWatch::onConnectionChanged);
    connect(m_store, &ClusterStore::updated, this, &PreemptionWatch::onStoreUpdated);
    onConnectionChanged();
}

PreemptionWatch::PreemptionWatch(std::function<KubeClient *()> client, ClusterStore *store,
                                 const QString &context, QObject *parent)
    : QObject(parent), m_client(std::move(client)), m_store(store), m_keep(false), m_attempts(1),
      m_log(new PreemptionLog(this))
{
    connect(m_store, &ClusterStore::updated, this, &PreemptionWatch::onStoreUpdated);
    openContext(context);
    for (const EventInfo &e : m_store->events())
        consider(e);
    // A report syncs no events (there may be hundreds of thousands): only those that tell a
    // preemption are listed, by their reason.
    KubeClient *c = m_client();
    if (!c)
        return;
    for (const char *reason : {"Evict", "Preempted"}) {
        ++m_pending;
        const QString selector = QStringLiteral("reason=") + QLatin1String(reason);
        c->get(QStringLiteral("/api/v1/events?fieldSelector=") +
                   QString::fromLatin1(QUrl::toPercentEncoding(selector)),
               this, [this, generation = m_generation](const KubeReply &r) {
                   if (generation != m_generation)
                       return;
                   const auto ended = qScopeGuard([this] { lookupEnded(); });
                   if (!r.ok()) {
                       // Said in the report: no preemption listed is not "none".
                       m_listError = tr("the events could not be listed: %1").arg(r.error);
                       return;
                   }
                   const auto page = Decoder::typedList<EventInfo>(Resource::Events, r.body);
                   for (const EventInfo &e : page.items)
                       consider(e);
               });
    }
}

void PreemptionWatch::lookupEnded()
{
    if (--m_pending == 0)
        emit idle();
}

PreemptionWatch::~PreemptionWatch()
{
    if (m_saveLater.isActive())
        save();
}

QString PreemptionWatch::filePath(const QString &context)
{
    return contextDataFile(QStringLiteral("preemptions"), context);
}

QString PreemptionWatch::preemptionOf(const EventInfo &e)
{
    if (e.objectKind != QLatin1String("Pod"))
        return {};
    if (e.reason == QLatin1String("Preempted"))
        return QStringLiteral("scheduler");
    if (e.reason != QLatin1String("Evict"))
        return {};
    static const QRegularExpression because(
        QStringLiteral("evicted, because of (preempt|reclaim)"));
    const auto m = because.match(e.message);
    return m.hasMatch() ? m.captured(1) : QString();
}

void PreemptionWatch::onConnectionChanged()
{
    const auto &c = m_session->connection();
    const QString context = c ? c->context() : QString();
    if (context == m_context)
        return;
    if (m_saveLater.isActive()) {
        m_saveLater.stop();
        save(); // the old context's, before its records go
    }
    openContext(context);
}

void PreemptionWatch::openContext(const QString &context)
{
    ++m_generation;
    // Lookups of the context before are dropped: they no longer count.
    if (m_pending > 0) {
        m_pending = 0;
        emit idle();
    }
    m_context = context;
    m_seen.clear();
    if (m_context.isEmpty()) {
        m_log->clear();
        return;
    }
    QFile f(filePath(m_context));
    QJsonArray records;
    if (f.open(QIODevice::ReadOnly) && f.size() < 32 * 1024 * 1024) {
        QJsonParseError error;
        const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &error);
        if (error.error != QJsonParseError::NoError)
            qCWarning(lcPreempt, "%s: %s; starting without it", qPrintable(f.fileName()),
                      qPrintable(error.errorString()));
        records = doc.object().value(QLatin1String("preemptions")).toArray();
    }
    m_log->load(records, QDateTime::currentMSecsSinceEpoch());
    for (const Preemption *p : m_log->records())
        m_seen.insert(p->victimUid);
}

void PreemptionWatch::onStoreUpdated(const StoreChanges &changes)
{
    if (m_context.isEmpty())
        return;
    if (changes.reset) {
        for (const EventInfo &e : m_store->events())
            consider(e);
        return;
    }
    for (const QString &uid : changes.events) {
        const auto it = m_store->events().constFind(uid);
        if (it != m_store->events().cend())
            consider(*it);
    }
}

void PreemptionWatch::consider(const EventInfo &e)
{
    const QString how = preemptionOf(e);
    if (how.isEmpty() || e.objectUid.isEmpty() || m_seen.contains(e.objectUid))
        return;
    m_seen.insert(e.objectUid);
    Preemption p;
    p.victimUid = e.objectUid;
    p.ns = e.ns;
    p.pod = e.objectName;
    p.how = how;
    p.message = e.message;
    p.at = e.firstSeen > 0 ? e.firstSeen : e.lastSeen;
    p.user = m_store->userOf(e.ns);
    if (const PodInfo *pod = m_store->pod(e.objectUid)) {
        p.node = pod->nodeName;
        p.workload = pod->owner.uid;
        p.job = pod->owner.name;
    }
    // Where it ran, when its pod is gone: the scheduler's "Successfully assigned NS/NAME to NODE".
    for (const EventInfo *other : m_store->eventsFor(e.objectUid))
        placedBy(p, *other);
    record(p);
    readVictim(p);
}

void PreemptionWatch::readVictim(Preemption p)
{
    KubeClient *client = m_client();
    if (!client)
        return;
    const quint64 generation = m_generation;
    ++m_pending;
    // The pod itself while it ends, or the one its job made again under its name.
    client->get(QStringLiteral("/api/v1/namespaces/%1/pods/%2").arg(p.ns, p.pod), this,
                [this, p, generation](const KubeReply &r) mutable {
                    if (generation != m_generation)
                        return;
                    // Its preemptor's lookup is out before this one ends.
                    const auto ended = qScopeGuard([this] { lookupEnded(); });
                    if (r.ok()) {
                        const QJsonObject pod = QJsonDocument::fromJson(r.body).object();
                        const bool same = pod.value(QLatin1String("metadata"))
                                              .toObject()
                                              .value(QLatin1String("uid"))
                                              .toString() == p.victimUid;
                        fillVictim(p, pod, same);
                        record(p);
                    }
                    if (p.node.isEmpty())
                        placeVictim(p); // then its preemptor
                    else
                        findPreemptor(p, 0);
                });
}

void PreemptionWatch::placeVictim(Preemption p)
{
    KubeClient *client = m_client();
    if (!client)
        return;
    // Its node from the scheduler's own event, when neither the pod (gone, or made again
    // elsewhere) nor the store's events say it: "Successfully assigned NS/NAME to NODE".
    const quint64 generation = m_generation;
    ++m_pending;
    const QString selector = QStringLiteral("involvedObject.uid=") + p.victimUid;
    client->get(QStringLiteral("/api/v1/namespaces/%1/events?fieldSelector=").arg(p.ns) +
                    QString::fromLatin1(QUrl::toPercentEncoding(selector)),
                this, [this, p, generation](const KubeReply &r) mutable {
                    if (generation != m_generation)
                        return;
                    const auto ended = qScopeGuard([this] { lookupEnded(); });
                    if (r.ok())
                        for (const EventInfo &e :
                             Decoder::typedList<EventInfo>(Resource::Events, r.body).items)
                            placedBy(p, e);
                    if (p.node.isEmpty()) {
                        p.unknownWhy = tr("where it ran is no longer known: its pod and the "
                                          "scheduler's event are gone");
                        record(p);
                        return;
                    }
                    record(p);
                    findPreemptor(p, 0);
                });
}

void PreemptionWatch::placedBy(Preemption &p, const EventInfo &e)
{
    static const QRegularExpression assigned(QStringLiteral("assigned \\S+ to (\\S+)$"));
    if (e.reason != QLatin1String("Scheduled"))
        return;
    if (const auto m = assigned.match(e.message); m.hasMatch() && p.node.isEmpty())
        p.node = m.captured(1);
    if (p.ranMs < 0 && e.firstSeen > 0 && e.firstSeen <= p.at)
        p.ranMs = p.at - e.firstSeen;
}

void PreemptionWatch::fillVictim(Preemption &p, const QJsonObject &pod, bool samePod) const
{
    const QJsonObject meta = pod.value(QLatin1String("metadata")).toObject();
    const QJsonObject spec = pod.value(QLatin1String("spec")).toObject();
    const QJsonObject owner = controllerOf(meta);
    // A pod made again by its job has the job's template: the same owner and priority.
    if (!owner.isEmpty()) {
        p.workload = owner.value(QLatin1String("uid")).toString();
        p.job = owner.value(QLatin1String("name")).toString();
    }
    p.vc = queueOf(meta);
    p.priority = spec.value(QLatin1String("priority")).toInt();
    p.priorityClass = spec.value(QLatin1String("priorityClassName")).toString();
    if (!samePod)
        return;
    if (p.node.isEmpty())
        p.node = spec.value(QLatin1String("nodeName")).toString();
    const qint64 started =
        msOf(pod.value(QLatin1String("status")).toObject().value(QLatin1String("startTime")));
    if (started > 0 && started <= p.at)
        p.ranMs = p.at - started;
}

void PreemptionWatch::findPreemptor(Preemption p, int attempt)
{
    KubeClient *client = m_client();
    if (!client || p.node.isEmpty())
        return;
    const quint64 generation = m_generation;
    ++m_pending;
    const QString selector = QStringLiteral("spec.nodeName=") + p.node;
    client->get(QStringLiteral("/api/v1/pods?fieldSelector=") +
                    QString::fromLatin1(QUrl::toPercentEncoding(selector)),
                this, [this, p, attempt, generation](const KubeReply &r) mutable {
                    if (generation != m_generation)
                        return;
                    const auto ended = qScopeGuard([this] { lookupEnded(); });
                    if (!r.ok()) {
                        p.unknownWhy =
                            r.httpStatus == 403
                                ? tr("who took its place is not visible to you: your account may "
                                     "not list the pods of %1")
                                      .arg(p.node)
                                : tr("the pods of %1 could not be read: %2").arg(p.node, r.error);
                        record(p);
                        return;
                    }
                    if (pickPreemptor(p, r.body)) {
                        p.unknownWhy.clear();
                        record(p);
                        return;
                    }
                    if (attempt + 1 >= m_attempts) {
                        p.unknownWhy =
                            (p.how == QLatin1String("reclaim")
                                 ? tr("no pod of another queue started on %1 within %2 minutes "
                                      "of the eviction")
                                 : tr("no pod of higher priority started on %1 within %2 "
                                      "minutes of the eviction"))
                                .arg(p.node)
                                .arg(std::max(1, m_attempts * RetryMs / 60000));
                        record(p);
                        return;
                    }
                    // Still waiting for its victims to end: looked for again, in this
                    // context only.
                    QPointer<PreemptionWatch> self(this);
                    ++m_pending; // the wait is a lookup still out
                    QTimer::singleShot(RetryMs, this, [self, p, attempt, generation] {
                        if (!self || self->m_generation != generation)
                            return;
                        self->findPreemptor(p, attempt + 1);
                        self->lookupEnded();
                    });
                });
}

bool PreemptionWatch::pickPreemptor(Preemption &p, const QByteArray &podList) const
{
    const QJsonArray items =
        QJsonDocument::fromJson(podList).object().value(QLatin1String("items")).toArray();
    // kube-scheduler names it: "Preempted by pod UID on node NODE".
    static const QRegularExpression byUid(QStringLiteral("Preempted by pod (\\S+) on node"));
    const QString namedUid = byUid.match(p.message).captured(1);
    QString victimQueue = p.vc;
    for (const QJsonValue &v : items) {
        if (!victimQueue.isEmpty())
            break;
        const QJsonObject meta = v.toObject().value(QLatin1String("metadata")).toObject();
        if (meta.value(QLatin1String("name")).toString() == p.pod &&
            meta.value(QLatin1String("namespace")).toString() == p.ns)
            victimQueue = queueOf(meta);
    }
    QList<QJsonObject> pods;
    for (const QJsonValue &v : items)
        pods << v.toObject();
    const QJsonObject *best = nullptr;
    qint64 bestStart = 0;
    for (const QJsonObject &pod : std::as_const(pods)) {
        const QJsonObject meta = pod.value(QLatin1String("metadata")).toObject();
        const QString uid = meta.value(QLatin1String("uid")).toString();
        if (uid == p.victimUid)
            continue;
        if (!namedUid.isEmpty()) {
            if (uid == namedUid) {
                best = &pod;
                break;
            }
            continue;
        }
        const QJsonObject spec = pod.value(QLatin1String("spec")).toObject();
        const qint64 started =
            msOf(pod.value(QLatin1String("status")).toObject().value(QLatin1String("startTime")));
        // Times are whole seconds: a pod that started in the eviction's second counts.
        if (started <= 0 || started + 1000 < p.at)
            continue;
        const QString queue = queueOf(meta);
        const bool takes = p.how == QLatin1String("reclaim")
                               ? !victimQueue.isEmpty() && !queue.isEmpty() && queue != victimQueue
                               : spec.value(QLatin1String("priority")).toInt() > p.priority;
        if (takes && (!best || started < bestStart)) {
            best = &pod;
            bestStart = started;
        }
    }
    if (!best)
        return false;
    describePreemptor(p, *best);
    return true;
}

void PreemptionWatch::describePreemptor(Preemption &p, const QJsonObject &pod) const
{
    const QJsonObject meta = pod.value(QLatin1String("metadata")).toObject();
    const QJsonObject spec = pod.value(QLatin1String("spec")).toObject();
    p.byNs = meta.value(QLatin1String("namespace")).toString();
    p.byPod = meta.value(QLatin1String("name")).toString();
    p.byJob = controllerOf(meta).value(QLatin1String("name")).toString();
    p.byUser = m_store->userOf(p.byNs);
    p.byVc = queueOf(meta);
    p.byPriority = spec.value(QLatin1String("priority")).toInt();
    p.byPriorityClass = spec.value(QLatin1String("priorityClassName")).toString();
}

void PreemptionWatch::record(const Preemption &p)
{
    m_log->put(p);
    if (m_keep)
        m_saveLater.start();
}

void PreemptionWatch::save()
{
    if (m_context.isEmpty())
        return;
    const QString path = filePath(m_context);
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile f(path);
    QJsonObject doc{{QStringLiteral("context"), m_context},
                    {QStringLiteral("preemptions"), m_log->toJson()}};
    if (!f.open(QIODevice::WriteOnly) ||
        f.write(QJsonDocument(doc).toJson(QJsonDocument::Compact)) < 0 || !f.commit())
        qCWarning(lcPreempt, "cannot keep the preemptions seen in %s: %s", qPrintable(path),
                  qPrintable(f.errorString()));
}

} // namespace gpudesk
