// SPDX-License-Identifier: GPL-3.0-or-later
#include "cleanuprun.h"

#include "clustersession.h"
#include "clusterstore.h"
#include "clustersync.h"
#include "connectionstate.h"
#include "contextconnection.h"
#include "findingsservice.h"
#include "historyservice.h"
#include "kubeclient.h"
#include "nasfiles.h"
#include "operation.h"
#include "operationjson.h"
#include "operationsservice.h"
#include "services.h"
#include "storageservice.h"
#include "telemetrysession.h"
#include "telemetrystore.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTimer>

namespace gpudesk {

QList<FindingClass> CleanupRun::defaultClasses()
{
    return {FindingClass::OrphanProcess, FindingClass::StuckTerminating, FindingClass::IdleGpus,
            FindingClass::FinishedHoldingGpus, FindingClass::OnNotReadyNode};
}

bool CleanupRun::parseClasses(const QString &text, QList<FindingClass> *out,
                              QList<NasCandidate::Class> *nas, QString *error)
{
    out->clear();
    nas->clear();
    for (const QString &part : text.split(u',', Qt::SkipEmptyParts)) {
        const QString id = part.trimmed();
        if (const auto c = findingClassFromId(id)) {
            if (!out->contains(*c))
                out->append(*c);
        } else if (const auto n = NasCleanup::classFromId(id)) {
            if (!nas->contains(*n))
                nas->append(*n);
        } else {
            QStringList known;
            for (int i = 0; i < kFindingClassCount; ++i)
                known << findingClassId(FindingClass(i));
            for (int i = 0; i < NasCleanup::kClassCount; ++i)
                known << NasCleanup::classId(NasCandidate::Class(i));
            *error = tr("unknown finding class \"%1\" (known: %2)")
                         .arg(id, known.join(QStringLiteral(", ")));
            return false;
        }
    }
    return true;
}

bool CleanupRun::parseDuration(const QString &text, qint64 *ms)
{
    static const QRegularExpression re(QStringLiteral("^\\s*(\\d+)\\s*([smhd]?)\\s*$"));
    const auto m = re.match(text);
    if (!m.hasMatch())
        return false;
    const qint64 n = m.captured(1).toLongLong();
    const QString unit = m.captured(2);
    const qint64 scale = unit == QLatin1String("s")   ? 1000
                         : unit == QLatin1String("h") ? 3600 * 1000
                         : unit == QLatin1String("d") ? 24 * 3600 * 1000LL
                                                      : 60 * 1000; // minutes, "m" or none
    *ms = n * scale;
    return *ms > 0;
}

CleanupRun::CleanupRun(Options options, QObject *parent)
    : QObject(parent), m_options(std::move(options))
{
    if (m_options.classes.isEmpty() && m_options.nas.classes.isEmpty())
        m_options.classes = defaultClasses();
}

CleanupRun::~CleanupRun() = default;

bool CleanupRun::prepare(QString *error)
{
    m_services = std::make_unique<Services>(m_options.kubeconfigFiles);
    ClusterSession *session = m_services->session();
    if (m_options.ssh)
        session->enableTelemetry(m_options.sshConfig);
    if (m_options.prometheus.isValid())
        m_services->history()->setPrometheus(m_options.prometheus);
    if (!session->loadConfig(error))
        return false;
    if (!m_options.context.isEmpty() && !session->contexts().contains(m_options.context)) {
        *error = tr("The kubeconfig has no context \"%1\".").arg(m_options.context);
        return false;
    }
    return true;
}

void CleanupRun::fail(int code, const QString &message)
{
    if (m_done)
        return;
    m_done = true;
    emit finished(code, m_operation ? QJsonDocument(document()).toJson() : QByteArray(), message);
}

void CleanupRun::start()
{
    ClusterSession *session = m_services->session();
    connect(session, &ClusterSession::telemetryFailed, this,
            [this](const QString &m) { fail(2, m); });
    session->connectTo(m_options.context);
    const auto &c = session->connection();
    if (!c || !c->sync()) {
        fail(2, m_services->state()->serverError().isEmpty() ? tr("Cannot connect.")
                                                             : m_services->state()->serverError());
        return;
    }
    emit progress(tr("Reading the cluster at %1…").arg(c->endpoint().server));
    connect(c->sync(), &ClusterSync::synced, this, &CleanupRun::onSynced);
    connect(c->sync(), &ClusterSync::serverUnreachable, this, [this, c](const QString &error) {
        fail(1, tr("Cannot reach the API server %1: %2").arg(c->endpoint().server, error));
    });
    QTimer::singleShot(SyncLimitMs, this, [this] {
        if (!m_services->session()->connection()->sync()->hasSynced())
            fail(1, tr("The cluster could not be read within %1 s.").arg(SyncLimitMs / 1000));
    });
}

void CleanupRun::onSynced()
{
    if (m_done || m_sampledSince)
        return;
    m_services->store()->flush();
    m_sampledSince = QDateTime::currentMSecsSinceEpoch();
    TelemetrySession *t = m_services->session()->connection()->telemetry();
    if (!t) {
        onSampled();
        return;
    }
    // Two sweeps: the first connects and learns each node's cgroup layout, the second reads
    // with it (a pod whose containers are gone shows only then); bounded by SweepLimitMs.
    emit progress(tr("Sampling the nodes over SSH…"));
    auto sweeps = std::make_shared<int>(0);
    connect(t, &TelemetrySession::sweepFinished, this, [this, sweeps] {
        if (++*sweeps == 2)
            onSampled();
    });
    QTimer::singleShot(SweepLimitMs, this, [this, sweeps] {
        if (*sweeps < 2)
            onSampled();
    });
}

void CleanupRun::onSampled()
{
    if (m_done || m_sampled)
        return;
    m_sampled = true;
    m_services->telemetry()->flush();
    if (m_options.classes.isEmpty()) // the NAS's classes only
        return onFound();
    emit progress(tr("Looking for what holds GPUs…"));
    FindingsService *f = m_services->findings();
    FindingsOptions o;
    o.classes = m_options.classes;
    o.idleForMs = m_options.idleForMs;
    connect(f, &FindingsService::settled, this, &CleanupRun::onFound);
    f->setOptions(o);
    QTimer::singleShot(FindLimitMs, this, [this] {
        if (!m_operation && !m_done)
            onFound(); // Prometheus did not answer in time: what is known so far
    });
}

void CleanupRun::onFound()
{
    if (m_done || m_operation || !m_plan.action.isEmpty())
        return;
    const QList<Finding> found =
        m_options.classes.isEmpty() ? QList<Finding>() : m_services->findings()->findings();
    m_plan = m_services->operations()->planner().cleanup(found, m_options.drainNodes);
    if (m_options.classes.contains(FindingClass::IdleGpus) && !m_services->history()->available())
        m_plan.notes << tr("idle-gpus: no Prometheus was given, so a pod counts as idle only for "
                           "the %1 s gpudesk watched it")
                            .arg((QDateTime::currentMSecsSinceEpoch() - m_sampledSince) / 1000);
    else if (!m_services->findings()->prometheusError().isEmpty())
        m_plan.notes << tr("idle-gpus: Prometheus could not be asked: %1")
                            .arg(m_services->findings()->prometheusError());
    if (m_options.nas.classes.isEmpty())
        return onNasPlanned(OperationPlan());
    findOnNas();
}

void CleanupRun::findOnNas()
{
    StorageService *storage = m_services->storage();
    if (const QString why = storage->unavailableReason(); !why.isEmpty()) {
        OperationPlan none;
        none.refusals << why;
        return onNasPlanned(none);
    }
    // The last walk, as the window shows it; one is made when there is none (or when the
    // admin's interval says it is due: the service has started it already).
    const auto plan = [this, storage] {
        if (m_nasAsked || m_done || storage->isMeasuring())
            return;
        m_nasAsked = true;
        m_nasFound = storage->cleanupCandidates(m_options.nas);
        for (const StorageRootMeasure &m : storage->measures())
            if (!m.error.isEmpty())
                m_nasFound.notes << tr("NAS %1: %2").arg(m.root, m.error);
        if (storage->measures().isEmpty() || m_nasFound.candidates.isEmpty()) {
            OperationPlan none;
            if (storage->measures().isEmpty())
                none.refusals << tr("the NAS could not be walked");
            return onNasPlanned(none);
        }
        emit progress(tr("Asking the NAS about %n candidate(s)…", nullptr,
                         int(m_nasFound.candidates.size())));
        m_services->nasFiles()->planCleanup(m_nasFound.candidates, this,
                                            [this](const OperationPlan &p) { onNasPlanned(p); });
    };
    connect(storage, &StorageService::measuringChanged, this, [plan](bool measuring) {
        if (!measuring)
            plan();
    });
    // Due by the admin's interval: walked now (the service would only start it seconds later).
    const QList<StorageMeter::Root> roots =
        StorageService::roots(m_services->session()->connection()->context());
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const bool due = std::any_of(roots.cbegin(), roots.cend(), [&](const StorageMeter::Root &r) {
        return StorageService::due(storage->measures(), r.path, 0, now);
    });
    if (!storage->isMeasuring() &&
        (storage->measures().isEmpty() || due || m_options.measureStorage))
        storage->measureNow();
    if (storage->isMeasuring()) {
        emit progress(tr("Walking the NAS (at the lowest CPU and IO priority)…"));
        QTimer::singleShot(WalkLimitMs, storage, &StorageService::cancel);
    }
    plan();
}

void CleanupRun::onNasPlanned(const OperationPlan &nas)
{
    if (m_done || m_operation)
        return;
    for (const QString &r : nas.refusals)
        m_plan.notes << tr("NAS: %1").arg(r);
    if (nas.refusals.isEmpty() && !nas.steps.isEmpty()) {
        const bool alone = m_plan.steps.isEmpty();
        if (alone) {
            m_plan.action = nas.action;
            m_plan.title = nas.title;
        }
        m_plan.steps << nas.steps;
        // A folder among them: typed. The drained nodes' names, when the GPUs' plan asks for
        // them, stay what is typed.
        if (alone)
            m_plan.typedWord = nas.typedWord;
        else if (m_plan.typedWord.isEmpty() && !nas.typedWord.isEmpty())
            m_plan.typedWord = QString::number(m_plan.steps.size());
        m_plan.warnings << nas.warnings;
    }
    m_plan.notes << nas.notes;
    m_plan.notes << m_nasFound.notes;
    m_operation = m_services->operations()->prepare(m_plan);
    emit progress(tr("Checking the plan with the server and the nodes (%n step(s))…", nullptr,
                     int(m_plan.steps.size())));
    connect(m_operation, &Operation::checked, this, &CleanupRun::onChecked);
    if (m_operation->state() == Operation::State::Ready)
        onChecked();
}

void CleanupRun::onChecked()
{
    if (m_done)
        return;
    const OperationPlan &plan = m_operation->plan();
    if (!m_options.apply || plan.steps.isEmpty()) {
        m_done = true;
        QString said =
            tr("%n finding(s); a plan of %1 step(s) freeing %2 GPUs.", nullptr,
               int(m_options.classes.isEmpty() ? 0 : m_services->findings()->findings().size()))
                .arg(plan.steps.size())
                .arg(plan.gpus());
        if (!m_options.nas.classes.isEmpty())
            said += u' ' +
                    tr("On the NAS: %n candidate(s).", nullptr, int(m_nasFound.candidates.size()));
        emit finished(0, QJsonDocument(document()).toJson(), said);
        return;
    }
    if (!m_options.yes) {
        const QString word = plan.confirmationWord();
        // What nobody selected comes first, by owner and GPUs.
        QString prompt;
        if (const QStringList collateral = plan.collateral(); !collateral.isEmpty())
            prompt = tr("Not selected, and touched too:") + QStringLiteral("\n  ") +
                     collateral.join(QStringLiteral("\n  ")) + u'\n';
        prompt +=
            tr("%1 — %n step(s), %2 GPUs. Type %3 to run it: ", nullptr, int(plan.steps.size()))
                .arg(plan.title)
                .arg(plan.gpus())
                .arg(word);
        const QString typed = m_confirm ? m_confirm(prompt) : QString();
        if (typed.trimmed() != word) {
            fail(2, m_confirm ? tr("Not confirmed: nothing was done.")
                              : tr("Refusing to apply without --yes where nobody can confirm."));
            return;
        }
    }
    QString error;
    connect(m_operation, &Operation::finished, this, &CleanupRun::onApplied);
    connect(m_operation, &Operation::progress, this, [this](int ended, int total) {
        emit progress(tr("%1 of %2 steps").arg(ended).arg(total));
    });
    if (!m_operation->start(&error))
        fail(1, error);
}

void CleanupRun::onApplied()
{
    if (m_done)
        return;
    m_done = true;
    using R = StepOutcome::Result;
    const bool allWell = std::all_of(
        m_operation->outcomes().cbegin(), m_operation->outcomes().cend(),
        [](const StepOutcome &o) { return o.result == R::Done || o.result == R::Skipped; });
    emit finished(allWell ? 0 : 1, QJsonDocument(document()).toJson(), m_operation->summary());
}

QJsonObject CleanupRun::document() const
{
    QJsonArray classes;
    for (FindingClass c : m_options.classes)
        classes.append(findingClassId(c));
    for (NasCandidate::Class c : m_options.nas.classes)
        classes.append(NasCleanup::classId(c));
    const auto &c = m_services->session()->connection();
    const bool applied = m_operation && m_operation->state() == Operation::State::Finished;
    QJsonObject doc{
        {QStringLiteral("schemaVersion"), 1},
        {QStringLiteral("kind"), applied ? QStringLiteral("gpudesk-cleanup-result")
                                         : QStringLiteral("gpudesk-cleanup-plan")},
        {QStringLiteral("context"), c ? c->context() : QString()},
        {QStringLiteral("server"), c ? c->endpoint().server : QString()},
        {QStringLiteral("who"), m_services->operations()->who()},
        {QStringLiteral("generatedAt"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)},
        {QStringLiteral("options"),
         QJsonObject{
             {QStringLiteral("classes"), classes},
             {QStringLiteral("drainNodes"), QJsonArray::fromStringList(m_options.drainNodes)},
             {QStringLiteral("idleForSeconds"), m_options.idleForMs / 1000},
             {QStringLiteral("prometheus"), m_options.prometheus.isValid()
                                                ? QJsonValue(m_options.prometheus.toString())
                                                : QJsonValue()}}},
        {QStringLiteral("findings"), m_options.classes.isEmpty()
                                         ? QJsonArray()
                                         : json::findings(m_services->findings()->findings())}};
    if (!m_options.nas.classes.isEmpty()) {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        QJsonArray candidates;
        for (const NasCandidate &n : m_nasFound.candidates) {
            QJsonObject c{{QStringLiteral("class"), NasCleanup::classId(n.cls)},
                          {QStringLiteral("path"), n.path},
                          {QStringLiteral("type"),
                           n.type == 'd' ? QStringLiteral("folder") : QStringLiteral("file")},
                          {QStringLiteral("owner"), n.owner},
                          {QStringLiteral("kind"), n.kind},
                          {QStringLiteral("bytes"), n.bytes},
                          {QStringLiteral("allocated"), n.allocated},
                          {QStringLiteral("files"), n.files},
                          {QStringLiteral("modified"), json::rfc3339(n.modified)},
                          {QStringLiteral("accessed"),
                           n.accessed > 0 ? json::rfc3339(n.accessed) : QJsonValue()},
                          {QStringLiteral("measuredAt"), json::rfc3339(n.measuredAt)},
                          {QStringLiteral("node"), n.node},
                          {QStringLiteral("evidence"), NasCleanup::evidence(n, now)}};
            if (n.cls == NasCandidate::JobOutput) {
                c.insert(QStringLiteral("job"), n.job);
                c.insert(QStringLiteral("jobEnded"),
                         n.jobEnded > 0 ? json::rfc3339(n.jobEnded) : QJsonValue());
            }
            candidates.append(c);
        }
        doc.insert(QStringLiteral("nasCandidates"), candidates);
        QJsonObject o = doc.value(QStringLiteral("options")).toObject();
        o.insert(QStringLiteral("coreDumpDays"), m_options.nas.coreDumpDays);
        o.insert(QStringLiteral("departedDays"), m_options.nas.departedDays);
        o.insert(QStringLiteral("jobOutputDays"), m_options.nas.jobOutputDays);
        doc.insert(QStringLiteral("options"), o);
    }
    if (m_operation) {
        doc.insert(QStringLiteral("plan"), json::plan(m_operation->plan()));
        if (applied) {
            doc.insert(QStringLiteral("results"),
                       json::results(m_operation->plan(), m_operation->outcomes()));
            doc.insert(QStringLiteral("cancelled"), m_operation->isCancelled());
            doc.insert(QStringLiteral("summary"), m_operation->summary());
            doc.insert(QStringLiteral("auditLog"), m_services->operations()->audit().path());
        }
    }
    return doc;
}

} // namespace gpudesk
