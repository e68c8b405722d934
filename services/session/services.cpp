// SPDX-License-Identifier: GPL-3.0-or-later
#include "services.h"

#include "alertcenter.h"
#include "clustersession.h"
#include "clusterstore.h"
#include "connectionstate.h"
#include "contextconnection.h"
#include "devenvactivity.h"
#include "devenvsmodel.h"
#include "devenvsservice.h"
#include "diagnosisservice.h"
#include "findingsservice.h"
#include "gpuusesampler.h"
#include "historyservice.h"
#include "imagesservice.h"
#include "logservice.h"
#include "nasfiles.h"
#include "nodeaccess.h"
#include "objectservice.h"
#include "operationsservice.h"
#include "permissions.h"
#include "registrywatch.h"
#include "storageservice.h"
#include "telemetrystore.h"
#include "usersservice.h"

namespace gpudesk {

Services::Services(QStringList kubeconfigFiles, QObject *parent)
    : QObject(parent), m_state(new ConnectionState(this)), m_store(new ClusterStore(this)),
      m_telemetry(new TelemetryStore(m_store, this)),
      m_session(
          new ClusterSession(std::move(kubeconfigFiles), m_state, m_store, m_telemetry, this)),
      m_objects(new ObjectService(m_session, this)), m_logs(new LogService(m_session, this)),
      m_history(new HistoryService(m_store, this)), m_nodes(new NodeAccess(m_session, this)),
      m_permissions(new Permissions(m_session, this)),
      m_findings(new FindingsService(m_store, m_telemetry, m_history, this)),
      m_operations(new OperationsService(m_session, m_store, m_telemetry, this)),
      m_users(new UsersService(m_session, m_operations, this)),
      m_devEnvs(new DevEnvsService(m_session, m_store, m_operations, this)),
      m_images(new ImagesService(m_store, m_operations, this)),
      m_alerts(new AlertCenter(m_store, m_telemetry, m_state, this)),
      m_gpuUse(new GpuUseSampler(m_store, m_telemetry, m_state, this)),
      m_registryWatch(new RegistryWatch(m_images, this)),
      m_diagnoses(new DiagnosisService(
          [session = m_session]() -> KubeClient * {
              const auto &c = session->connection();
              return c ? c->client() : nullptr;
          },
          m_store, this)),
      m_storage(new StorageService(m_session, this)),
      m_nasFiles(new NasFiles(m_session, m_operations, this))
{
    m_diagnoses->setNodePool([session = m_session]() -> SshPool * {
        const auto &c = session->connection();
        return c ? c->pool() : nullptr;
    });
    m_diagnoses->setTelemetry(m_telemetry);
    m_diagnoses->setNas(
        {[nas = m_nasFiles] { return nas->roots(); },
         [nas = m_nasFiles](const QStringList &paths, bool follow, QObject *receiver, auto done) {
             nas->inspect(paths, follow, receiver, std::move(done));
         }});
    m_diagnoses->watchPreemptions(m_session);
    m_alerts->setFindings(m_findings);
    m_alerts->setRegistryWatch(m_registryWatch);
    m_alerts->setStorage(m_storage);
    // One notion of idle: the Cleanup page's "idle for at least" flags dev environments too, and
    // their Jupyter's kernels and terminals count in the Cleanup page's idle GPUs.
    auto idleAfter = [this] {
        m_devEnvs->model()->setIdleAfterMs(m_findings->options().idleForMs);
    };
    idleAfter();
    connect(m_findings, &FindingsService::optionsChanged, this, idleAfter);
    connect(m_devEnvs->activity(), &DevEnvActivity::updated, this,
            [this] { m_findings->setJupyterUse(m_devEnvs->activity()->byPod()); });
    connect(m_findings, &FindingsService::updated, this, [this] {
        QHash<QString, std::pair<qint64, bool>> idle;
        for (const Finding &f : m_findings->findings())
            if (f.cls == FindingClass::IdleGpus && !f.devEnv.isEmpty())
                idle.insert(f.podUid, {f.since, f.sinceAtLeast});
        m_devEnvs->model()->setIdleFindings(idle);
    });
}

// The session goes first: its connection's informers and SSH workers must stop before the
// stores they feed.
Services::~Services()
{
    delete m_session;
}

} // namespace gpudesk
