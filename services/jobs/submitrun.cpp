// SPDX-License-Identifier: GPL-3.0-or-later
#include "submitrun.h"
#include "priorityclasses.h"

#include "capacitysnapshot.h"
#include "jobchecker.h"
#include "launchscripts.h"
#include "limitranger.h"
#include "nasfiles.h"
#include "verdictjson.h"

#include "clustersession.h"
#include "clusterstore.h"
#include "clustersync.h"
#include "connectionstate.h"
#include "contextconnection.h"
#include "jobrequestdecoder.h"
#include "operation.h"
#include "operationjson.h"
#include "operationsservice.h"
#include "services.h"
#include "telemetrysession.h"
#include "telemetrystore.h"
#include "yamlconvert.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTimer>

#include <cstdio>

namespace gpudesk {

namespace {

int exitCodeOf(StartVerdict::Kind k)
{
    switch (k) {
    case StartVerdict::Starts:
        return 0;
    case StartVerdict::Waits:
        return 1;
    case StartVerdict::Never:
        break;
    }
    return 2;
}

} // namespace

SubmitRun::SubmitRun(Options options, QObject *parent)
    : QObject(parent), m_options(std::move(options))
{}

SubmitRun::~SubmitRun() = default;

bool SubmitRun::prepare(QString *error)
{
    QFile file(m_options.file);
    const bool opened = m_options.file == QLatin1String("-") ? file.open(stdin, QIODevice::ReadOnly)
                                                             : file.open(QIODevice::ReadOnly);
    if (!opened) {
        *error = tr("Cannot read %1: %2").arg(m_options.file, file.errorString());
        return false;
    }
    const QByteArray text = file.read(MaxFileBytes + 1);
    if (text.size() > MaxFileBytes) {
        *error =
            tr("%1 is larger than %2 MiB: not a job.").arg(m_options.file).arg(MaxFileBytes >> 20);
        return false;
    }
    QString why;
    // JSON is YAML too: one reader for both, which names the line of a mistake.
    m_body = objectJson(QString::fromUtf8(text), &why);
    if (m_body.isEmpty() || !JobRequestDecoder::decode(m_body, &m_job, &why)) {
        *error = tr("%1: %2").arg(m_options.file, why);
        return false;
    }
    if (m_job.name.isEmpty()) {
        *error = tr("%1: the job has no metadata.name.").arg(m_options.file);
        return false;
    }
    m_services = std::make_unique<Services>(m_options.kubeconfigFiles);
    ClusterSession *session = m_services->session();
    if (m_options.ssh)
        session->enableTelemetry(m_options.sshConfig);
    if (!session->loadConfig(error))
        return false;
    if (!m_options.context.isEmpty() && !session->contexts().contains(m_options.context)) {
        *error = tr("The kubeconfig has no context \"%1\".").arg(m_options.context);
        return false;
    }
    return true;
}

void SubmitRun::start()
{
    ClusterSession *session = m_services->session();
    session->connectTo(m_options.context);
    const auto &c = session->connection();
    if (!c || !c->sync()) {
        finish(3, m_services->state()->serverError().isEmpty()
                      ? tr("Cannot connect.")
                      : m_services->state()->serverError());
        return;
    }
    if (m_job.ns.isEmpty()) {
        // The context's namespace, written into the object so that the plan, the audit record
        // and the Event name where it goes.
        m_job.ns = c->endpoint().defaultNamespace.isEmpty() ? QStringLiteral("default")
                                                            : c->endpoint().defaultNamespace;
        QJsonObject o = QJsonDocument::fromJson(m_body).object();
        QJsonObject meta = o.value(u"metadata").toObject();
        meta.insert(QStringLiteral("namespace"), m_job.ns);
        o.insert(QStringLiteral("metadata"), meta);
        m_body = QJsonDocument(o).toJson(QJsonDocument::Compact);
    }
    emit progress(tr("Reading the cluster at %1…").arg(c->endpoint().server));
    connect(c->sync(), &ClusterSync::synced, this, &SubmitRun::onSynced);
    connect(c->sync(), &ClusterSync::serverUnreachable, this, [this, c](const QString &error) {
        finish(3, tr("Cannot reach the API server %1: %2").arg(c->endpoint().server, error));
    });
    QTimer::singleShot(SyncLimitMs, this, [this] {
        if (!m_started)
            finish(3, tr("The cluster could not be read within %1 s.").arg(SyncLimitMs / 1000));
    });
}

void SubmitRun::onSynced()
{
    if (m_started || m_done)
        return;
    m_started = true;
    m_services->store()->flush();
    // A kind or version the cluster does not serve is said before anything is asked of it.
    const auto &discovered = m_services->session()->connection()->sync()->discovered();
    const QString group = m_job.apiVersion.section(u'/', 0, -2);
    const QString version = m_job.apiVersion.section(u'/', -1);
    if (!group.isEmpty() && !discovered.groups.isEmpty() &&
        !discovered.groups.value(group).contains(version)) {
        StartVerdict v;
        v.kind = StartVerdict::Never;
        const QStringList served = discovered.groups.value(group);
        v.reasons << StartReason{
            StartReason::Never,
            QStringLiteral("kind-not-served"),
            served.isEmpty() ? tr("The cluster does not serve %1: %2 is not installed.")
                                   .arg(m_job.apiVersion, group)
                             : tr("The cluster serves %1 as %2, not %3.")
                                   .arg(group, served.join(QStringLiteral(", ")), version),
            served.isEmpty() ? QString()
                             : tr("Write apiVersion: %1/%2.").arg(group, served.first()),
            {{QStringLiteral("served"), served}},
            QStringLiteral("kind")};
        m_verdict = v;
        finish(2, v.summary());
        return;
    }
    // A job on the nodes' own network is judged with their interfaces, which the nodes' probe
    // reads: one sweep over SSH is waited for (bounded), as the window would have had it.
    TelemetrySession *t =
        m_options.ssh ? m_services->session()->connection()->telemetry() : nullptr;
    const bool hostNetwork = std::any_of(m_job.roles.cbegin(), m_job.roles.cend(),
                                         [](const JobRole &r) { return r.hostNetwork; });
    if (t && hostNetwork) {
        emit progress(tr("Sampling the nodes over SSH: the job runs on their own network…"));
        connect(t, &TelemetrySession::sweepFinished, this, &SubmitRun::check);
        QTimer::singleShot(SweepLimitMs, this, &SubmitRun::check);
        return;
    }
    check();
}

void SubmitRun::check()
{
    if (m_checker || m_done)
        return;
    m_services->telemetry()->flush();
    emit progress(
        tr("Checking %1 %2…").arg(QLatin1String(resourceInfo(m_job.kind).kind), m_job.name));
    m_checker = new JobChecker(m_services->store(), m_services->telemetry(), this);
    if (m_options.ssh)
        m_checker->setNas(m_services->nasFiles());
    m_checker->setImages(m_services->images()); // the images, in their registries
    m_checker->setConnectionState(m_services->state());
    connect(m_checker, &JobChecker::ready, this, &SubmitRun::onVerdict);
    // The cluster's PriorityClasses first (one small list): a class it does not have is a job
    // that never starts. Unread (forbidden, an old cluster), the class is not checked.
    priorityclasses::fetch(m_services->session(), this,
                           [this](const QList<PriorityClass> &classes, const QString &error) {
                               if (error.isEmpty())
                                   m_checker->setPriorityClasses(classes);
                               m_checker->check(m_job);
                           });
}

void SubmitRun::onVerdict(const StartVerdict &verdict)
{
    // The first verdict is the run's: one told again later (an image's layers read after the
    // deadline) would act a second time.
    disconnect(m_checker, &JobChecker::ready, this, &SubmitRun::onVerdict);
    m_verdict = verdict;
    if (!m_options.ssh) {
        // Said, so that "starts" is not read as "its launch script was looked at".
        QList<StartReason> unchecked;
        for (const LaunchScript &s : LaunchScripts::onNas(m_job, m_services->nasFiles()->roots()))
            unchecked << LaunchScripts::judge(
                s,
                LaunchScriptFacts{
                    tr("give --ssh-config to look at the NAS"), false, false, {}, false, false, 0});
        m_verdict.add(unchecked);
    }
    // The server's own dry run of the create: what only it knows (the name taken, Volcano's
    // webhooks, RBAC, the quota admission).
    OperationPlan plan = m_services->operations()->planner().create(m_job.collectionPath(), m_body);
    plan.steps.first().eventReason = QStringLiteral("GpudeskSubmitted");
    plan.steps.first().why = m_verdict.summary();
    m_operation = m_services->operations()->prepare(plan);
    connect(m_operation, &Operation::checked, this, &SubmitRun::onChecked);
    if (m_operation->state() == Operation::State::Ready)
        onChecked();
}

JobRequest SubmitRun::held() const
{
    JobRequest job = m_job;
    if (!m_services)
        return job;
    LimitRanger::admit(&job, CapacitySnapshot::limitRangesIn(*m_services->store(), job.ns));
    return job;
}

bool SubmitRun::confirmsOwn(const QString &serverSays)
{
    // A bare pod the check already refuses for its resources is refused by the server's dry
    // run for the same: said once, in the check's words (which quote the server's), with the
    // dry run's answer beside them — not twice, as if there were two faults to fix. Matched on
    // what the server says of each: the pod's validation names the requests' field, the
    // LimitRanger says "per Container" or "per Pod".
    const bool validation = serverSays.contains(QLatin1String(".resources.requests"));
    const bool limitRanger = serverSays.contains(QLatin1String(" per Container ")) ||
                             serverSays.contains(QLatin1String(" per Pod "));
    const bool priority = serverSays.contains(QLatin1String("no PriorityClass with name"));
    for (StartReason &r : m_verdict.reasons) {
        if (r.severity != StartReason::Never)
            continue;
        if ((validation && r.code == QLatin1String("request-over-limit")) ||
            (limitRanger && r.code == QLatin1String("limitrange-refused")) ||
            (priority && r.code == QLatin1String("priority-class-unknown"))) {
            r.numbers.insert(QStringLiteral("serverSays"), serverSays);
            return true;
        }
    }
    return false;
}

void SubmitRun::onChecked()
{
    if (m_done)
        return;
    const PlanStep &step = m_operation->plan().steps.first();
    if (step.dryRun == PlanStep::DryRun::Refused && !confirmsOwn(step.dryRunMessage)) {
        m_verdict.kind = StartVerdict::Never;
        m_verdict.placement.clear();
        m_verdict.reasons.prepend(
            StartReason{StartReason::Never,
                        QStringLiteral("server-refused"),
                        tr("The API server refuses to create it: %1").arg(step.dryRunMessage),
                        QString(),
                        {},
                        QStringLiteral("name")});
    }
    if (!m_options.create) {
        finish(exitCodeOf(m_verdict.kind), m_verdict.summary());
        return;
    }
    if (m_verdict.kind == StartVerdict::Never) {
        finish(2, tr("Not created: %1").arg(m_verdict.summary()));
        return;
    }
    connect(m_operation, &Operation::finished, this, &SubmitRun::onCreated);
    QString error;
    if (!m_operation->start(&error))
        finish(2, error);
}

void SubmitRun::onCreated()
{
    const StepOutcome &o = m_operation->outcomes().first();
    m_result = QJsonObject{
        {QStringLiteral("result"),
         json::results(m_operation->plan(), m_operation->outcomes()).first().toObject()},
        {QStringLiteral("auditLog"), m_services->operations()->audit().path()}};
    if (o.result != StepOutcome::Result::Done && o.result != StepOutcome::Result::Unverified) {
        finish(2, tr("Not created: %1").arg(o.message));
        return;
    }
    emit progress(tr("Created; watching what the cluster makes of it…"));
    settle();
}

// What the cluster made of the job in its first seconds: its status and why, as the Workloads
// page tells it — admitted and running, or waiting and for what.
void SubmitRun::settle()
{
    const QString uid = m_operation->outcomes().first().createdUid;
    auto report = [this, uid] {
        if (m_done)
            return;
        m_services->store()->flush();
        const auto w = m_services->store()->workload(uid);
        QJsonObject after{{QStringLiteral("status"), w ? w->status : QString()},
                          {QStringLiteral("message"), w ? w->message : QString()}};
        QJsonArray pods;
        for (const PodInfo *p : m_services->store()->podsOfWorkload(uid))
            pods.append(QJsonObject{{QStringLiteral("name"), p->name},
                                    {QStringLiteral("node"), p->nodeName},
                                    {QStringLiteral("status"), p->status}});
        after.insert(QStringLiteral("pods"), pods);
        m_result.insert(QStringLiteral("after"), after);
        finish(0,
               tr("Created %1/%2: %3")
                   .arg(m_job.ns, m_job.name, w ? w->status : tr("not yet seen in the cluster")));
    };
    // Done when every pod of the gang is bound to a node, or when the time is up.
    connect(m_services->store(), &ClusterStore::updated, this, [this, uid, report] {
        int bound = 0;
        for (const PodInfo *p : m_services->store()->podsOfWorkload(uid))
            bound += p->nodeName.isEmpty() ? 0 : 1;
        if (bound >= m_job.minAvailable)
            report();
    });
    QTimer::singleShot(SettleMs, this, report);
}

void SubmitRun::finish(int exitCode, const QString &message)
{
    if (m_done)
        return;
    m_done = true;
    const auto &c = m_services ? m_services->session()->connection() : nullptr;
    // The watches end here, before the run does: a TLS handshake of one still under way in the
    // network thread when the process exits raced OpenSSL's own teardown (seen under ASan).
    if (c && c->sync())
        c->sync()->stop();
    QJsonObject doc{
        {QStringLiteral("schemaVersion"), 1},
        {QStringLiteral("kind"), QStringLiteral("gpudesk-submit-check")},
        {QStringLiteral("context"), c ? c->context() : QString()},
        {QStringLiteral("server"), c ? c->endpoint().server : QString()},
        {QStringLiteral("generatedAt"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)},
        {QStringLiteral("job"), verdictjson::job(held(), m_job)},
        {QStringLiteral("exitCode"), exitCode}};
    if (exitCode != 3) {
        const QJsonObject v = verdictjson::verdict(m_verdict);
        for (auto it = v.begin(); it != v.end(); ++it)
            doc.insert(it.key(), it.value());
    } else {
        doc.insert(QStringLiteral("verdict"), QJsonValue());
        doc.insert(QStringLiteral("error"), message);
    }
    if (m_options.create) {
        doc.insert(QStringLiteral("kind"), QStringLiteral("gpudesk-submit-result"));
        doc.insert(QStringLiteral("created"), m_result.contains(QStringLiteral("after")));
        for (auto it = m_result.begin(); it != m_result.end(); ++it)
            doc.insert(it.key(), it.value());
    }
    emit finished(exitCode, QJsonDocument(doc).toJson(), message);
}

} // namespace gpudesk
