// SPDX-License-Identifier: GPL-3.0-or-later
#include "reportrun.h"

#include "clusterstore.h"
#include "clustersync.h"
#include "kubeclient.h"
#include "kubeconfig.h"
#include "sshconnection.h"
#include "telemetrysession.h"
#include "telemetrystore.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>
#include <QTimer>

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
        emit finished(2, m_client->setupError());
        return;
    }
    m_client->ensureCredentials(this, [this](const QString &error) {
        if (error.isEmpty())
            startSync();
        else
            emit finished(2, error);
    });
}

void ReportRun::startSync()
{
    // No namespace fallback: cluster-wide figures must not silently shrink to one namespace.
    ClusterSync::Options options;
    options.skip = {Resource::Events};
    m_sync = new ClusterSync(m_client.get(), options, this);
    connect(m_sync, &ClusterSync::delta, m_store.get(), &ClusterStore::apply);
    connect(m_sync, &ClusterSync::synced, this, &ReportRun::onSynced);
    connect(m_sync, &ClusterSync::statusChanged, this, [this] {
        // A list that fails outright (bad certificate, refused connection) ends the report
        // instead of retrying forever as the window does.
        for (Informer *i : m_sync->informers()) {
            if (!i->hasSynced() && (i->status().state == InformerStatus::Retrying ||
                                    i->status().state == InformerStatus::Failed)) {
                m_sync->stop();
                emit finished(
                    1,
                    tr("Cannot list %1: %2").arg(resourceName(i->resource()), i->status().error));
                return;
            }
        }
    });
    m_sync->start();
}

void ReportRun::onSynced()
{
    m_sync->stop();
    bool volcano = true;
    for (Informer *i : m_sync->informers()) {
        const InformerStatus &s = i->status();
        if (s.state == InformerStatus::Unavailable) {
            // A missing API group (no Volcano, no Kubeflow) is a fact about the cluster.
            if (i->resource() == Resource::Queues)
                volcano = false;
            continue;
        }
        if (s.state == InformerStatus::Forbidden) {
            emit finished(1, tr("Cannot list %1: %2").arg(resourceName(i->resource()), s.error));
            return;
        }
    }
    m_store->flush();
    if (m_telemetry)
        sampleNodes(volcano);
    else
        write(volcano);
}

void ReportRun::sampleNodes(bool volcano)
{
    m_telemetrySession = new TelemetrySession(m_store.get(), m_telemetry, this);
    QString error;
    if (!m_telemetrySession->configure(m_sshConfig, SshDefaults{}, &error)) {
        emit finished(2, error);
        return;
    }
    // Two sweeps: the first learns each node's cgroup layout (and connects), the second reads
    // the pods' own CPU and memory with it; each node answers, fails, or times out (connect and
    // command are bounded). With thousands of blackholed nodes that could still take minutes,
    // so the report is written after SweepLimitMs whatever is left; those nodes say they did
    // not answer.
    auto sweeps = std::make_shared<int>(0);
    auto done = [this, volcano, sweeps](bool finishedSweep) {
        if (!m_telemetrySession)
            return;
        if (finishedSweep && ++*sweeps < 2) {
            m_telemetrySession->sweepOnce();
            return;
        }
        m_telemetrySession->stop();
        m_telemetrySession->deleteLater();
        m_telemetrySession = nullptr;
        m_telemetry->flush();
        write(volcano);
    };
    connect(m_telemetrySession, &TelemetrySession::sweepFinished, this, [done] { done(true); });
    QTimer::singleShot(SweepLimitMs, this, [done] { done(false); });
    m_telemetrySession->sweepOnce();
}

namespace {

QString sshStateName(SshStatus::State s)
{
    switch (s) {
    case SshStatus::Idle:
        return QStringLiteral("notConnected");
    case SshStatus::Connecting:
        return QStringLiteral("connecting");
    case SshStatus::Connected:
        return QStringLiteral("connected");
    case SshStatus::Unreachable:
        return QStringLiteral("unreachable");
    case SshStatus::HostKeyUnknown:
        return QStringLiteral("hostKeyUnknown");
    case SshStatus::HostKeyChanged:
        return QStringLiteral("hostKeyChanged");
    case SshStatus::AuthFailed:
        return QStringLiteral("authFailed");
    case SshStatus::NeedsSecret:
        return QStringLiteral("needsSecret");
    case SshStatus::Failed:
        break;
    }
    return QStringLiteral("failed");
}

QJsonValue optionalNumber(const auto &v)
{
    return v ? QJsonValue(double(*v)) : QJsonValue();
}

QJsonValue orNull(const QString &s)
{
    return s.isEmpty() ? QJsonValue() : QJsonValue(s);
}

void addTelemetry(const TelemetryStore &telemetry, const QString &node, QJsonObject *out)
{
    const SshStatus ssh = telemetry.sshStatus(node);
    const NodeSample *sample = telemetry.latest(node);
    (*out)[QStringLiteral("sshState")] = sshStateName(ssh.state);
    (*out)[QStringLiteral("sshMessage")] = orNull(ssh.message);
    if (!sample) {
        (*out)[QStringLiteral("cards")] = QJsonValue();
        return;
    }
    QJsonArray cards;
    for (const CardState &c : telemetry.cards(node)) {
        QJsonArray procs;
        for (const AttributedProcess &p : c.processes)
            procs.append(QJsonObject{{QStringLiteral("pid"), double(p.pid)},
                                     {QStringLiteral("memoryMiB"), optionalNumber(p.memoryMiB)},
                                     {QStringLiteral("command"), p.command},
                                     {QStringLiteral("podUid"), orNull(p.podUid)},
                                     {QStringLiteral("pod"), orNull(p.pod)},
                                     {QStringLiteral("namespace"), orNull(p.ns)},
                                     {QStringLiteral("user"), orNull(p.user)}});
        cards.append(
            QJsonObject{{QStringLiteral("index"), c.sample.index},
                        {QStringLiteral("uuid"), c.sample.uuid},
                        {QStringLiteral("name"), c.sample.name},
                        {QStringLiteral("utilization"), optionalNumber(c.sample.utilization)},
                        {QStringLiteral("memoryUsedMiB"), optionalNumber(c.sample.memoryUsedMiB)},
                        {QStringLiteral("memoryTotalMiB"), optionalNumber(c.sample.memoryTotalMiB)},
                        {QStringLiteral("temperatureC"), optionalNumber(c.sample.temperatureC)},
                        {QStringLiteral("powerW"), optionalNumber(c.sample.powerDrawW)},
                        {QStringLiteral("busy"), c.busy},
                        {QStringLiteral("phantom"), c.phantom},
                        {QStringLiteral("unattributed"), c.unattributed},
                        {QStringLiteral("processes"), procs}});
    }
    (*out)[QStringLiteral("cards")] = cards;
    QJsonArray pods;
    for (const PodUsage &u : sample->pods) {
        const PodInfo *pod = telemetry.pod(u.uid);
        pods.append(QJsonObject{
            {QStringLiteral("uid"), u.uid},
            {QStringLiteral("pod"), pod ? QJsonValue(pod->name) : QJsonValue()},
            {QStringLiteral("namespace"), pod ? QJsonValue(pod->ns) : QJsonValue()},
            {QStringLiteral("cpuCores"), u.cpuCores ? QJsonValue(*u.cpuCores) : QJsonValue()},
            {QStringLiteral("memoryWorkingSetMiB"), double(u.workingSetBytes >> 20)},
            {QStringLiteral("memoryMiB"), double(u.memoryBytes >> 20)}});
    }
    (*out)[QStringLiteral("pods")] = pods;
    (*out)[QStringLiteral("sampledAt")] =
        QDateTime::fromMSecsSinceEpoch(sample->time, Qt::UTC).toString(Qt::ISODateWithMs);
}

} // namespace

QJsonObject ReportRun::reportJson(const ClusterStore &store, const TelemetryStore *telemetry,
                                  const QString &context, const QString &server, bool volcano)
{
    auto gpus = [](const GpuCount &c) {
        return QJsonObject{{QStringLiteral("total"), c.total},
                           {QStringLiteral("allocated"), c.allocated},
                           {QStringLiteral("free"), c.free}};
    };
    const GpuTotals t = store.totals();
    QJsonObject totals = gpus(t.gpus);
    totals[QStringLiteral("pendingDemand")] = t.pendingDemand;
    if (telemetry)
        totals[QStringLiteral("busy")] = telemetry->busyGpus();
    QJsonArray nodes;
    for (const auto &n : store.nodes()) {
        QJsonObject node{{QStringLiteral("name"), n.name},
                         {QStringLiteral("ready"), n.ready},
                         {QStringLiteral("schedulable"), !n.unschedulable},
                         {QStringLiteral("gpuModel"),
                          n.gpuModel.isEmpty() ? QJsonValue() : QJsonValue(n.gpuModel)},
                         {QStringLiteral("gpus"), gpus(store.nodeGpus(n.name))}};
        if (telemetry)
            addTelemetry(*telemetry, n.name, &node);
        nodes.append(node);
    }
    QJsonArray queues;
    for (const auto &q : store.queues())
        queues.append(QJsonObject{
            {QStringLiteral("name"), q.name},
            {QStringLiteral("gpus"),
             QJsonObject{{QStringLiteral("capability"),
                          q.gpuCapability ? QJsonValue(*q.gpuCapability) : QJsonValue()},
                         {QStringLiteral("allocated"), store.vcAllocated(q.name)}}}});
    QJsonArray users;
    for (const auto &u : store.users())
        users.append(
            QJsonObject{{QStringLiteral("name"), u.user},
                        {QStringLiteral("namespace"), u.name},
                        {QStringLiteral("vc"), u.vc},
                        {QStringLiteral("gpus"),
                         QJsonObject{{QStringLiteral("allocated"), store.userAllocated(u.user)}}}});
    return QJsonObject{
        {QStringLiteral("schemaVersion"), 1},
        {QStringLiteral("context"), context},
        {QStringLiteral("server"), server},
        {QStringLiteral("generatedAt"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)},
        {QStringLiteral("apiGroups"), QJsonObject{{QStringLiteral("volcano"), volcano}}},
        {QStringLiteral("gpus"), totals},
        {QStringLiteral("nodes"), nodes},
        {QStringLiteral("queues"), queues},
        {QStringLiteral("users"), users}};
}

void ReportRun::write(bool volcano)
{
    const QJsonObject report = reportJson(*m_store, m_telemetry, m_client->endpoint().context,
                                          m_client->endpoint().server, volcano);
    // Written whole or not at all: a cron job never reads half a report.
    QSaveFile f(m_output);
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(report).toJson()) < 0 ||
        !f.commit()) {
        emit finished(1, tr("Cannot write the report to %1: %2").arg(m_output, f.errorString()));
        return;
    }
    const GpuTotals t = m_store->totals();
    emit finished(0, tr("Report written to %1: %2 nodes, %3 GPUs, %4 allocated, %5 free.")
                         .arg(m_output)
                         .arg(m_store->nodes().size())
                         .arg(t.gpus.total)
                         .arg(t.gpus.allocated)
                         .arg(t.gpus.free));
}

} // namespace gpudesk
