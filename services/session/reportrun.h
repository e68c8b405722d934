// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "reportjson.h"
#include "storagehistory.h"
#include "storageusage.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QSet>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

namespace gpudesk {

class ClusterStore;
class ClusterSync;
class ImagesService;
class KubeClient;
class DiagnosisService;
class PreemptionWatch;
class TelemetrySession;
class TelemetryStore;

// `gpudesk --report FILE`: syncs the cluster with the same informers and store as the window,
// writes the figures the Overview, Nodes and GPU map pages show (schema: docs/report.md), and
// says how it ended: 0 written, 1 the cluster could not be read, 2 the configuration is wrong.
class ReportRun : public QObject
{
    Q_OBJECT
public:
    ReportRun(const QStringList &kubeconfigFiles, const QString &context, QString outputPath,
              QObject *parent = nullptr);
    ~ReportRun() override;
    // Samples every node once over SSH before writing (cards[], processes, sshState).
    void enableTelemetry(const QString &sshConfigPath);
    // `gpudesk --alerts`: instead of the report, the alerts that fire now (Problems) as JSON
    // (alertsReady; schema in docs/report.md), with Nagios's exit codes: 0 none, 1 warnings
    // only, 2 any critical. Images are not measured.
    void setAlertsOnly(bool on) { m_alertsOnly = on; }
    // storage[]: the NAS walked now over SSH, even if the last walk (kept in the data
    // directory, shared with the window) is younger than the admin's interval. Without it the
    // last walk is reported, and the NAS walked only when that is due. Needs telemetry.
    void setMeasureStorage(bool on) { m_measureStorage = on; }
    // A walk of the NAS for the report is given up after this long (the last figures stay).
    static constexpr int StorageLimitMs = 10 * 60 * 1000;
    static QJsonObject alertsJson(const ClusterStore &store, const TelemetryStore *telemetry,
                                  const QString &context, int *exitCode);
    // Reads the kubeconfig; false (exit 2) with the reason when it cannot be used.
    bool prepare(QString *error);
    // A warning for stderr before starting (TLS verification off), or "".
    QString warning() const;
    void start();
    static constexpr int SweepLimitMs = 30000;
    // Sizes of the images in use, asked of their registries: this many at once, this long in
    // all (a registry that does not answer leaves its images' bytes null, with why).
    static constexpr int ImageLookupsInFlight = 8;
    static constexpr int ImageSizesLimitMs = 30000;
    // The job doctor reads the failed and crash-looping pods (their objects and log tails)
    // beside the image lookups, this long at most.
    static constexpr int DiagnoseLimitMs = 60000;

signals:
    void finished(int exitCode, const QString &message);
    // --alerts: the document for stdout, and the exit code it calls for.
    void alertsReady(const QByteArray &json, int exitCode);
    // Something to say on stderr that does not stop the report (an SSH config keyword gpudesk
    // does not follow).
    void notice(const QString &message);

private:
    void startSync();
    void failForServer(const QString &error);
    void finish(int exitCode, const QString &message);
    void onSynced();
    void sampleNodes();
    void measureStorage(const std::function<void()> &then);
    void measureImages();
    void measureNext();
    void diagnose();
    void write();

    QStringList m_files;
    QString m_context;
    std::unique_ptr<KubeClient> m_client;
    std::unique_ptr<ClusterStore> m_store;
    std::unique_ptr<TelemetryStore> m_telemetryStore;
    ClusterSync *m_sync = nullptr;
    QString m_output;
    TelemetryStore *m_telemetry = nullptr;
    TelemetrySession *m_telemetrySession = nullptr;
    // The SSH links go: after the NAS and the doctor's reads of the nodes' kernel logs.
    void endSsh();
    QString m_sshConfig;
    ReportSource m_source;
    ImagesService *m_images = nullptr;
    QStringList m_imagesToMeasure;
    int m_imagesInFlight = 0;
    QSet<QString> m_imagesAsked; // asked, not answered yet
    bool m_written = false;
    DiagnosisService *m_doctor = nullptr;
    bool m_diagnosing = false; // the doctor has pods left and its time is not up
    PreemptionWatch *m_preemptions = nullptr;
    bool m_writeWanted = false; // the figures are ready: written once the doctor is done
    bool m_alertsOnly = false;
    bool m_measureStorage = false;
    bool m_storageRead = false; // storage[] is reported (telemetry was on)
    QList<StorageRootMeasure> m_storage;
    StorageHistory m_storageHistory;
    bool m_finished = false;
    QElapsedTimer m_clock; // from the sync's start: where a report's time goes
};

} // namespace gpudesk
