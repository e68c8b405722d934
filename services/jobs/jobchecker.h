// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "jobrequest.h"
#include "launchscripts.h"
#include "priorityclasses.h"
#include "startcheck.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QHash>
#include <QTimer>

#include <QObject>
#include <functional>

namespace gpudesk {

class ClusterStore;
class ConnectionState;
class ImagesService;
class NasFiles;
class TelemetryStore;

// The submit check off the UI thread: the cluster is copied out of the store here (it is not
// thread-safe; the copy is linear in the GPU pods) and the verdict is worked out on a worker.
// A form re-checks on each change: a check asked while one runs replaces it, and only the
// newest answer is told (`ready` with the request it answers). With the NAS (setNas), the
// launch scripts the command runs from it are looked at over SFTP, and with the images service
// (setImages) the images in their registries, before the verdict is told.
class JobChecker : public QObject
{
    Q_OBJECT
public:
    JobChecker(const ClusterStore *store, const TelemetryStore *telemetry,
               QObject *parent = nullptr);
    ~JobChecker() override;

    static constexpr int ProbeLimitMs = 15000; // the NAS's answer, then the verdict without it
    static constexpr int CacheMs = 10000;

    void check(const JobRequest &job);
    // Where launch scripts are looked at (none: they are not).
    void setNas(NasFiles *nas) { m_nas = nas; }
    // Where images are looked up (none: they are not).
    void setImages(ImagesService *images) { m_images = images; }
    // The cluster's PriorityClasses (not set: a job's class is not checked).
    void setPriorityClasses(const QList<PriorityClass> &classes)
    {
        m_classes = classes;
        m_classesKnown = true;
    }
    // The collections' sync (none: not known): a kind the account may not read is said, not
    // taken as empty — the namespace's LimitRanges.
    void setConnectionState(const ConnectionState *state) { m_state = state; }
    // A job as JSON (the form's object, or its YAML tab's): read, its namespace defaulted to
    // `ns`, and checked. False, with why, for what is not a job gpudesk submits.
    bool checkJson(const QByteArray &json, const QString &ns, QString *error);
    // The same reading without a check: where a job of this JSON goes (its collection path).
    static bool decode(const QByteArray &json, const QString &ns, JobRequest *out, QString *error);
    bool isChecking() const
    {
        return m_watcher.isRunning() || m_queued || m_probing || m_imagesLeft > 0;
    }
    const StartVerdict &verdict() const { return m_verdict; }
    const JobRequest &request() const { return m_checked; }

signals:
    void ready(const gpudesk::StartVerdict &verdict);

private:
    void launch();
    // The verdict's last part: the launch scripts on the NAS (their links' targets second).
    void checkScripts(const QList<LaunchScript> &scripts);
    void answered(const QString &key, const QList<LaunchScriptFacts> &facts);
    void tell(const QList<LaunchScript> &scripts, const QList<LaunchScriptFacts> &facts);
    // The images in their registries, beside the scripts, and whether an MPI job's worker
    // images have an SSH server; each answer or the deadline ends its part. The verdict is told
    // once both parts are in.
    void checkImages(const QStringList &images, const QStringList &sshdImages);
    void imageDone(int generation, int index, const StartReason &reason);
    void addImageReasons();
    void partDone();

    const ClusterStore *m_store;
    const TelemetryStore *m_telemetry;
    QFutureWatcher<StartVerdict> m_watcher;
    JobRequest m_running;
    JobRequest m_next;
    bool m_queued = false;
    NasFiles *m_nas = nullptr;
    ImagesService *m_images = nullptr;
    const ConnectionState *m_state = nullptr;
    bool m_probing = false;
    int m_parts = 0;           // the parts (scripts, images) of this verdict still out
    int m_generation = 0;      // which check the images' answers are for
    int m_imagesLeft = 0;      // images of it not answered yet
    QStringList m_imagesAsked; // in order, for the deadline's words
    int m_sshdFrom = 0;        // m_imagesAsked from here: images asked for their SSH server
    QHash<int, StartReason> m_imageReasons; // by the image's place in m_imagesAsked
    QTimer m_imagesDeadline;
    QList<LaunchScript> m_pending; // the scripts of the check waiting on the NAS
    QString m_inflightKey;         // the node paths the NAS is being asked about
    QTimer m_deadline;
    QString m_cachedKey; // the last answer, reused for CacheMs
    QList<LaunchScriptFacts> m_cachedFacts;
    QElapsedTimer m_cachedAt;
    JobRequest m_checked;
    StartVerdict m_verdict;
    QList<PriorityClass> m_classes;
    bool m_classesKnown = false;
};

} // namespace gpudesk
