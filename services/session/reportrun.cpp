// SPDX-License-Identifier: GPL-3.0-or-later
#include "reportrun.h"

#include "appsettings.h"
#include "clusterstore.h"
#include "clustersync.h"
#include "diagnosisservice.h"
#include "gpuaccounting.h"
#include "imagesservice.h"
#include "kubeclient.h"
#include "kubeconfig.h"
#include "nasinspect.h"
#include "preemptionwatch.h"
#include "problems.h"
#include "reportjson.h"
#include "sshconnection.h"
#include "storagealerts.h"
#include "storagejson.h"
#include "storagemeter.h"
#include "storageservice.h"
#include "telemetrysampler.h"
#include "telemetrysession.h"
#include "telemetrystore.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLoggingCategory>
#include <QSaveFile>
#include <QTimer>

Q_LOGGING_CATEGORY(lcReport, "gpudesk.report")

namespace gpudesk {

ReportRun::ReportRun(const QStringList &kubeconfigFiles, const QString &context, QString outputPath,
                     QObject *parent)
    : QObject(parent), m_files(kubeconfigFiles), m_context(context),
      m_store(std::make_unique<ClusterStore>()), m_output(std::move(outputPath))
{}

// The informers and SSH links go before the client and stores they use.
ReportRun::~ReportRun()
{
    delete m_sync;
    delete m_telemetrySession;
}

void ReportRun::enableTelemetry(const QString &sshConfigPath)
{
    m_telemetryStore = std::make_unique<TelemetryStore>(m_store.get());
    m_telemetry = m_telemetryStore.get();
    m_sshConfig = sshConfigPath;
}

bool ReportRun::prepare(QString *error)
{
    const auto config = KubeConfig::load(m_files, error);
    const auto endpoint = config ? config->endpoint(m_context, error) : std::nullopt;
    if (!endpoint)
        return false;
    m_client = std::make_unique<KubeClient>(*endpoint);
    return true;
}

QString ReportRun::warning() const
{
    if (!m_client || m_client->verifiesTls())
        return {};
    return tr("warning: TLS verification is off for context %1").arg(m_client->endpoint().context);
}

void ReportRun::start()
{
    if (!m_client->setupError().isEmpty()) {
        finish(2, m_client->setupError());
        return;
    }
    m_client->ensureCredentials(this, [this](const QString &error) {
        if (error.isEmpty())
            startSync();
        else
            finish(2, error);
    });
}

void ReportRun::startSync()
{
    m_clock.start();
    // As the window: an account that may not list pods everywhere reads its own namespace's.
    // The report then says which figures are partial (scope, partial[]) instead of failing or
    // passing a namespace's figures off as the cluster's.
    ClusterSync::Options options;
    options.fallbackNamespace = m_client->endpoint().defaultNamespace;
    options.skip = {Resource::Events, Resource::LimitRanges}; // the report does not use them
    m_sync = new ClusterSync(m_client.get(), options, this);
    connect(m_sync, &ClusterSync::delta, m_store.get(), &ClusterStore::apply);
    connect(m_sync, &ClusterSync::synced, this, &ReportRun::onSynced);
    // A server that cannot be reached is said once, for the server.
    connect(m_sync, &ClusterSync::serverUnreachable, this, &ReportRun::failForServer);
    connect(m_sync, &ClusterSync::statusChanged, this, [this] {
        // A list that fails outright (bad certificate, refused connection) ends the report
        // instead of retrying forever as the window does.
        for (Informer *i : m_sync->informers()) {
            const InformerStatus &s = i->status();
            if (i->hasSynced() ||
                (s.state != InformerStatus::Retrying && s.state != InformerStatus::Failed))
                continue;
            // A failure of the connection itself (refused, closed, TLS, not responding) is the
            // server's, whichever list met it first; a list's own failure (a bound, a decode
            // error) is that collection's.
            if (s.serverUnreachable) {
                failForServer(s.error);
                return;
            }
            m_sync->stop();
            finish(1, tr("Cannot list %1: %2").arg(resourceName(i->resource()), s.error));
            return;
        }
    });
    m_sync->start();
}

void ReportRun::failForServer(const QString &error)
{
    m_sync->stop();
    // The client's words for a connection failure name the server already.
    const QString server = m_client->endpoint().server;
    finish(1, error.contains(server) ? tr("Cannot reach the API server: %1").arg(error)
                                     : tr("Cannot reach the API server %1: %2").arg(server, error));
}

void ReportRun::finish(int exitCode, const QString &message)
{
    // The run ends once. A list that fails goes on inside the sync (Failed, then Retrying): each
    // change of its state would end the report again, and the error was printed twice.
    if (m_finished)
        return;
    m_finished = true;
    emit finished(exitCode, message);
}

void ReportRun::onSynced()
{
    m_sync->stop();
    m_source.context = m_client->endpoint().context;
    m_source.server = m_client->endpoint().server;
    m_source.versions = m_sync->discovered().versions;
    m_source.missing = m_sync->discovered().missing;
    for (Informer *i : m_sync->informers()) {
        const InformerStatus &s = i->status();
        if (s.state == InformerStatus::Unavailable)
            m_source.missing.insert(i->resource(), s.error); // a fact about the cluster
        if (s.state != InformerStatus::Forbidden)
            continue;
        // Without nodes there is nothing to report; another kind this account may not read
        // is named in the report, and what it would have added is missing.
        if (i->resource() == Resource::Nodes) {
            finish(1, tr("Cannot list %1: %2").arg(resourceName(i->resource()), s.error));
            return;
        }
        m_source.unreadable << resourceName(i->resource()) + QStringLiteral(": ") + s.error;
    }
    // Where a report's time goes, for benchmarks (QT_LOGGING_RULES="gpudesk.report.debug=true").
    qCDebug(lcReport) << "synced in" << m_clock.elapsed() << "ms";
    m_store->flush();
    qCDebug(lcReport) << "store filled at" << m_clock.elapsed() << "ms";
    if (m_telemetry)
        sampleNodes();
    else
        measureImages();
}

void ReportRun::sampleNodes()
{
    m_telemetrySession = new TelemetrySession(m_store.get(), m_telemetry, this);
    QString error;
    if (!m_telemetrySession->configure(m_sshConfig, SshDefaults{}, &error)) {
        finish(2, error);
        return;
    }
    for (const QString &w : m_telemetrySession->configWarnings())
        emit notice(w);
    // Two sweeps: the first learns each node's cgroup layout (and connects), the second reads
    // the pods' own CPU and memory with it; each node answers, fails, or times out (connect and
    // command are bounded). With thousands of blackholed nodes that could still take minutes,
    // so the report is written after SweepLimitMs whatever is left; those nodes say they did
    // not answer.
    auto sweeps = std::make_shared<int>(0);
    auto ended = std::make_shared<bool>(false); // the sweeps are over (the NAS may be walked)
    auto done = [this, sweeps, ended](bool finishedSweep) {
        if (!m_telemetrySession || *ended)
            return;
        if (finishedSweep && ++*sweeps < 2) {
            m_telemetrySession->sweepOnce();
            return;
        }
        *ended = true;
        m_telemetrySession->sampler()->stop();
        m_telemetry->flush();
        // The NAS over the same SSH links; they go once the doctor has read the nodes' kernel
        // logs too (endSsh).
        measureStorage([this] { measureImages(); });
    };
    connect(m_telemetrySession, &TelemetrySession::sweepFinished, this, [done] { done(true); });
    QTimer::singleShot(SweepLimitMs, this, [done] { done(false); });
    m_telemetrySession->sweepOnce();
}

QJsonObject ReportRun::alertsJson(const ClusterStore &store, const TelemetryStore *telemetry,
                                  const QString &context, int *exitCode)
{
    QJsonArray alerts;
    int critical = 0, warning = 0;
    // The thresholds and rules the admin set in the window (Settings › Alerts) hold here too.
    const AlertRules rules = AlertRules::load();
    QList<Problem> problems = Problems::now(store, telemetry, rules);
    // The NAS's from its last walk (the window's or a report's): --alerts does not walk it.
    QList<StorageRootMeasure> nas;
    StorageHistory nasHistory;
    StorageService::loadCache(StorageService::cachePath(context), &nas, &nasHistory);
    problems += StorageAlerts::now(nas, nasHistory, rules);
    Problems::sort(problems);
    for (const Problem &p : std::as_const(problems)) {
        (p.severity == Problem::Critical ? critical : warning) += 1;
        alerts.append(QJsonObject{
            {QStringLiteral("severity"), p.severity == Problem::Critical
                                             ? QStringLiteral("critical")
                                             : QStringLiteral("warning")},
            {QStringLiteral("rule"), p.key.section(u':', 0, 0)},
            {QStringLiteral("key"), p.key},
            {QStringLiteral("node"), p.node.isEmpty() ? QJsonValue() : QJsonValue(p.node)},
            {QStringLiteral("message"), p.text},
            {QStringLiteral("since"),
             p.since ? QJsonValue(
                           QDateTime::fromMSecsSinceEpoch(p.since, Qt::UTC).toString(Qt::ISODate))
                     : QJsonValue()}});
    }
    *exitCode = critical ? 2 : warning ? 1 : 0;
    return {{QStringLiteral("context"), context},
            {QStringLiteral("time"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)},
            // A researcher's account sees its own namespace's pods only: said, not hidden.
            {QStringLiteral("complete"), store.podsComplete()},
            {QStringLiteral("counts"), QJsonObject{{QStringLiteral("critical"), critical},
                                                   {QStringLiteral("warning"), warning}}},
            {QStringLiteral("alerts"), alerts}};
}

void ReportRun::measureStorage(const std::function<void()> &then)
{
    m_storageRead = true;
    StorageService::loadCache(StorageService::cachePath(m_source.context), &m_storage,
                              &m_storageHistory);
    const QList<StorageMeter::Root> roots = StorageService::roots(m_source.context);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const bool due =
        m_measureStorage || std::any_of(roots.cbegin(), roots.cend(), [&](const auto &r) {
            return StorageService::due(m_storage, r.path, 0, now);
        });
    if (!due || m_alertsOnly)
        return then();
    auto *meter = new StorageMeter(m_telemetrySession->pool(), roots, this);
    // The nodes have just been sampled: none that answers now will not answer in a minute.
    meter->setGiveUpMs(30 * 1000);
    QTimer::singleShot(StorageLimitMs, meter, &StorageMeter::cancel);
    connect(meter, &StorageMeter::finished, this,
            [this, meter, then](const QList<StorageRootMeasure> &fresh) {
                meter->deleteLater();
                StorageService::merge(m_storage, m_storageHistory, fresh);
                QString error;
                if (!StorageService::saveCache(StorageService::cachePath(m_source.context),
                                               m_storage, m_storageHistory, &error))
                    emit notice(error);
                then();
            });
    meter->start(AppSettings::storage(m_source.context).node);
}

void ReportRun::measureImages()
{
    if (m_alertsOnly) {
        endSsh();
        int code = 0;
        const QJsonObject doc = alertsJson(*m_store, m_telemetry, m_source.context, &code);
        m_written = true;
        emit alertsReady(QJsonDocument(doc).toJson(QJsonDocument::Indented), code);
        return;
    }
    diagnose();
    // What each image in use costs a node to pull, asked of its registry with the credentials
    // docker's configuration has for it (the window's code: ImagesService::imageSize).
    m_images = new ImagesService(m_store.get(), nullptr, this);
    m_imagesToMeasure = imagesInUse(*m_store);
    QTimer::singleShot(ImageSizesLimitMs, this, [this] {
        for (const QString &r : std::as_const(m_imagesToMeasure))
            m_source.imageErrors.insert(r, tr("not asked: the registries took longer than %1 s")
                                               .arg(ImageSizesLimitMs / 1000));
        // Asked and still unanswered: said too, never a bare null (issue 33).
        for (const QString &r : std::as_const(m_imagesAsked))
            m_source.imageErrors.insert(
                r, tr("its registry did not answer within %1 s").arg(ImageSizesLimitMs / 1000));
        m_imagesToMeasure.clear();
        write();
    });
    measureNext();
}

void ReportRun::measureNext()
{
    while (m_imagesInFlight < ImageLookupsInFlight && !m_imagesToMeasure.isEmpty()) {
        const QString reference = m_imagesToMeasure.takeFirst();
        ++m_imagesInFlight;
        m_imagesAsked.insert(reference);
        m_images->imageSize(reference, this, [this, reference](qint64 bytes, const QString &e) {
            --m_imagesInFlight;
            m_imagesAsked.remove(reference);
            if (m_written)
                return; // after the cap: the report said it did not answer
            if (e.isEmpty())
                m_source.imageBytes.insert(reference, bytes);
            else
                m_source.imageErrors.insert(reference, e);
            measureNext();
        });
    }
    if (m_imagesInFlight == 0 && m_imagesToMeasure.isEmpty())
        write();
}

void ReportRun::endSsh()
{
    if (!m_telemetrySession)
        return;
    m_telemetrySession->stop();
    m_telemetrySession->deleteLater();
    m_telemetrySession = nullptr;
}

void ReportRun::diagnose()
{
    m_doctor = new DiagnosisService([this] { return m_client.get(); }, m_store.get(), this);
    m_source.diagnoses = m_doctor->book();
    // The nodes' kernel logs too, when the report reaches them over SSH.
    m_doctor->setNodePool([this]() -> SshPool * {
        return m_telemetrySession ? m_telemetrySession->pool() : nullptr;
    });
    // And their cards' ECC counts, from the sweep the report made.
    m_doctor->setTelemetry(m_telemetry);
    // And the launch scripts of failed pods on the NAS, over SFTP on a node of that sweep.
    if (m_telemetrySession) {
        QStringList roots;
        for (const StorageMeter::Root &r : StorageService::roots(m_source.context))
            roots << r.path;
        m_doctor->setNas({[roots] { return roots; },
                          [this, node = AppSettings::storage(m_source.context).node](
                              const QStringList &paths, bool follow, QObject *receiver, auto done) {
                              if (!m_telemetrySession)
                                  done({}, tr("The SSH sessions to the nodes have ended."));
                              else
                                  NasInspect::onPool(m_telemetrySession->pool(), node, paths,
                                                     follow, receiver, std::move(done));
                          }});
    }
    // Who preempted whom: what gpudesk kept for the context, and the store's events looked up.
    m_preemptions = new PreemptionWatch([this] { return m_client.get(); }, m_store.get(),
                                        m_source.context, this);
    m_source.preemptions = m_preemptions->log();
    m_diagnosing = true;
    auto done = [this] {
        if (!m_diagnosing || m_doctor->pending() > 0 || m_preemptions->pending() > 0)
            return; // ended, or one of them is still at it
        m_diagnosing = false;
        endSsh();
        if (m_writeWanted)
            write();
    };
    connect(m_doctor, &DiagnosisService::idle, this, done);
    connect(m_preemptions, &PreemptionWatch::idle, this, done);
    QTimer::singleShot(DiagnoseLimitMs, this, [this] {
        if (!m_diagnosing)
            return;
        if (m_doctor->pending() > 0)
            m_source.diagnosesNote =
                tr("the doctor had %n pod(s) left to read when its %1 s were up", nullptr,
                   m_doctor->pending())
                    .arg(DiagnoseLimitMs / 1000);
        if (m_preemptions->pending() > 0)
            m_source.preemptionsNote =
                tr("%n preemption lookup(s) had not ended when the %1 s were up", nullptr,
                   m_preemptions->pending())
                    .arg(DiagnoseLimitMs / 1000);
        m_diagnosing = false;
        endSsh();
        if (m_writeWanted)
            write();
    });
    m_doctor->requestAllTroubled();
    done(); // neither had anything to look up
}

void ReportRun::write()
{
    if (m_written)
        return; // the lookups' time ran out, then the last of them answered
    if (m_diagnosing) {
        m_writeWanted = true; // written when the doctor is done, or its time is up
        return;
    }
    m_written = true;
    if (m_preemptions && !m_preemptions->listError().isEmpty() &&
        m_source.preemptionsNote.isEmpty())
        m_source.preemptionsNote = m_preemptions->listError();
    QJsonObject report = reportJson(*m_store, m_telemetry, m_source);
    // The NAS (null when node telemetry was off: it is measured over SSH).
    report.insert(QStringLiteral("storage"),
                  m_storageRead
                      ? QJsonValue(storagejson::reportFolders(m_storage, m_storageHistory))
                      : QJsonValue());
    report.insert(QStringLiteral("storageRoots"),
                  m_storageRead ? QJsonValue(storagejson::reportRoots(m_storage)) : QJsonValue());
    qCDebug(lcReport) << "report made at" << m_clock.elapsed() << "ms";
    // Written whole or not at all: a cron job never reads half a report.
    QSaveFile f(m_output);
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(report).toJson()) < 0 ||
        !f.commit()) {
        finish(1, tr("Cannot write the report to %1: %2").arg(m_output, f.errorString()));
        return;
    }
    const GpuFigures g = GpuAccounting(m_store.get(), m_telemetry).cluster();
    QString message = tr("Report written to %1: %2 nodes, %3 GPUs, %4 allocated, %5 free.")
                          .arg(m_output)
                          .arg(m_store->nodes().size())
                          .arg(g.total)
                          .arg(g.allocatedText(), g.freeText());
    if (!g.exact)
        message += u' ' + tr("Partial: this account sees only the pods of namespace %1.")
                              .arg(m_store->scope(Resource::Pods));
    finish(0, message);
}

} // namespace gpudesk
