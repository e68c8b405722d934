// SPDX-License-Identifier: GPL-3.0-or-later
#include "jobchecker.h"

#include "capacitysnapshot.h"
#include "connectionstate.h"
#include "imagecheck.h"
#include "imagesservice.h"
#include "jobrequestdecoder.h"
#include "launchscriptprobe.h"
#include "nasfiles.h"

#include <QtConcurrent/QtConcurrentRun>

namespace gpudesk {

namespace {

QString keyOf(const QList<LaunchScript> &scripts)
{
    QStringList paths;
    for (const LaunchScript &s : scripts)
        paths << s.nodePath;
    return paths.join(u'\n');
}

} // namespace

JobChecker::JobChecker(const ClusterStore *store, const TelemetryStore *telemetry, QObject *parent)
    : QObject(parent), m_store(store), m_telemetry(telemetry)
{
    m_deadline.setSingleShot(true);
    m_deadline.setInterval(ProbeLimitMs);
    connect(&m_deadline, &QTimer::timeout, this, [this] {
        // The NAS did not answer in time: the verdict is told without it, and said so.
        QList<LaunchScriptFacts> facts(m_pending.size());
        for (LaunchScriptFacts &f : facts)
            f.error = tr("the NAS did not answer within %1 s").arg(ProbeLimitMs / 1000);
        const QString key = m_inflightKey;
        m_inflightKey.clear();
        if (m_probing && keyOf(m_pending) == key)
            tell(m_pending, facts);
    });
    m_imagesDeadline.setSingleShot(true);
    m_imagesDeadline.setInterval(ProbeLimitMs);
    connect(&m_imagesDeadline, &QTimer::timeout, this, [this] {
        // Registries that did not answer in time: the verdict without them, and said so.
        if (m_imagesLeft <= 0)
            return;
        const QString why = tr("its registry did not answer within %1 s").arg(ProbeLimitMs / 1000);
        const QString reading =
            tr("its layers were still being read after %1 s").arg(ProbeLimitMs / 1000);
        for (qsizetype i = 0; i < m_imagesAsked.size(); ++i)
            if (!m_imageReasons.contains(int(i)))
                m_imageReasons.insert(
                    int(i), i < m_sshdFrom ? ImageCheck::unchecked(m_imagesAsked[i], why)
                                           : ImageCheck::sshdUnchecked(m_imagesAsked[i], reading));
        m_imagesLeft = 0;
        addImageReasons();
        partDone();
    });
    connect(&m_watcher, &QFutureWatcher<StartVerdict>::finished, this, [this] {
        if (m_queued) {
            // A newer request came while this one ran: its answer is the one wanted.
            launch();
            return;
        }
        m_checked = m_running;
        m_verdict = m_watcher.result();
        if (m_classesKnown)
            if (auto r = priorityclasses::unknownReason(m_checked.priorityClass, m_classes))
                m_verdict.add({*r});
        const QList<LaunchScript> scripts =
            m_nas ? LaunchScripts::onNas(m_checked, m_nas->roots()) : QList<LaunchScript>();
        const QStringList images = m_images ? ImageCheck::imagesOf(m_checked) : QStringList();
        m_parts = int(!scripts.isEmpty()) + int(!images.isEmpty());
        if (m_parts == 0) {
            emit ready(m_verdict);
            return;
        }
        if (!images.isEmpty())
            checkImages(images, ImageCheck::sshdImagesOf(m_checked));
        if (!scripts.isEmpty())
            checkScripts(scripts);
    });
}

// A check in flight holds only its own copies: it ends on the pool, its answer unread.
JobChecker::~JobChecker()
{
    m_watcher.waitForFinished();
}

void JobChecker::check(const JobRequest &job)
{
    m_next = job;
    m_queued = true;
    if (!m_watcher.isRunning())
        launch();
}

bool JobChecker::decode(const QByteArray &json, const QString &ns, JobRequest *out, QString *error)
{
    if (!JobRequestDecoder::decode(json, out, error))
        return false;
    if (out->ns.isEmpty())
        out->ns = ns;
    return true;
}

bool JobChecker::checkJson(const QByteArray &json, const QString &ns, QString *error)
{
    JobRequest job;
    if (!decode(json, ns, &job, error))
        return false;
    check(job);
    return true;
}

void JobChecker::checkScripts(const QList<LaunchScript> &scripts)
{
    m_pending = scripts;
    m_probing = true;
    const QString key = keyOf(scripts);
    // A form re-checks on every change: the NAS is asked again only for other scripts, or
    // once the last answer is older than CacheMs.
    if (key == m_cachedKey && m_cachedAt.isValid() && m_cachedAt.elapsed() < CacheMs) {
        tell(scripts, m_cachedFacts);
        return;
    }
    if (key == m_inflightKey)
        return; // the answer on its way serves this check too
    m_inflightKey = key;
    m_deadline.start();
    LaunchScriptProbe::probe(
        [nas = m_nas](const QStringList &paths, bool follow, QObject *receiver, auto done) {
            nas->inspect(paths, follow, receiver, std::move(done));
        },
        scripts, this,
        [this, key](const QList<LaunchScriptFacts> &facts) { answered(key, facts); });
}

void JobChecker::answered(const QString &key, const QList<LaunchScriptFacts> &facts)
{
    if (key != m_inflightKey)
        return; // given up on, or another set of scripts asked since
    m_inflightKey.clear();
    m_deadline.stop();
    m_cachedKey = key;
    m_cachedFacts = facts;
    m_cachedAt.start();
    if (m_probing && keyOf(m_pending) == key)
        tell(m_pending, facts);
}

void JobChecker::tell(const QList<LaunchScript> &scripts, const QList<LaunchScriptFacts> &facts)
{
    m_probing = false;
    QList<StartReason> reasons;
    for (int i = 0; i < scripts.size(); ++i)
        reasons << LaunchScripts::judge(scripts[i], facts.value(i));
    m_verdict.add(reasons);
    partDone();
}

void JobChecker::checkImages(const QStringList &images, const QStringList &sshdImages)
{
    const int generation = m_generation;
    m_imagesAsked = images + sshdImages;
    m_sshdFrom = int(images.size());
    m_imagesLeft = int(m_imagesAsked.size());
    m_imageReasons.clear();
    m_imagesDeadline.start();
    // ImagesService keeps what it found for the session: a form re-checked on each keystroke
    // asks the registry again only for an image not found yet (or not yet judged for sshd).
    for (qsizetype i = 0; i < images.size(); ++i)
        m_images->lookImage(images[i], this, [this, generation, i](const ImageLook &look) {
            imageDone(generation, int(i), ImageCheck::judge(look, m_images->hugeBytes()));
        });
    for (qsizetype i = 0; i < sshdImages.size(); ++i)
        m_images->lookSshd(sshdImages[i], ImageCheck::sshdPathsOf(m_checked, sshdImages[i]), this,
                           [this, generation, at = m_sshdFrom + int(i)](const SshdLook &look) {
                               imageDone(generation, at, ImageCheck::sshd(look));
                           });
}

void JobChecker::imageDone(int generation, int index, const StartReason &reason)
{
    if (generation != m_generation)
        return; // an answer for an older check
    if (m_imagesLeft <= 0) {
        // After the deadline the verdict went out without it. An image's SSH server, read to
        // its last layer only now, is told by checking again: the look is kept, so the next
        // answer comes at once.
        if (index >= m_sshdFrom && reason.code != QLatin1String("image-sshd-unchecked") &&
            !m_queued && !m_watcher.isRunning())
            check(m_checked);
        return;
    }
    m_imageReasons.insert(index, reason);
    if (--m_imagesLeft > 0)
        return;
    m_imagesDeadline.stop();
    addImageReasons();
    partDone();
}

void JobChecker::addImageReasons()
{
    // In the order of the job's images, whatever order the registries answered in.
    QList<StartReason> reasons;
    for (int i = 0; i < m_imagesAsked.size(); ++i)
        if (const auto it = m_imageReasons.constFind(i); it != m_imageReasons.cend())
            reasons << *it;
    m_verdict.add(reasons);
}

void JobChecker::partDone()
{
    if (--m_parts <= 0)
        emit ready(m_verdict);
}

void JobChecker::launch()
{
    m_queued = false;
    m_probing = false;
    // The images asked for the last check are its own: their answers are dropped.
    ++m_generation;
    m_imagesLeft = 0;
    m_imagesDeadline.stop();
    m_parts = 0;
    m_running = m_next;
    CapacitySnapshot snapshot = CapacitySnapshot::of(*m_store, m_running, m_telemetry);
    if (m_state)
        if (const InformerStatus *s = m_state->collection(Resource::LimitRanges);
            s && s->state == InformerStatus::Forbidden)
            snapshot.limitRangesUnreadable =
                s->error.isEmpty() ? tr("forbidden") : s->error.simplified();
    m_watcher.setFuture(QtConcurrent::run([snapshot = std::move(snapshot), job = m_running] {
        return StartCheck::check(snapshot, job);
    }));
}

} // namespace gpudesk
