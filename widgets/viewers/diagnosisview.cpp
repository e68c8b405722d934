// SPDX-License-Identifier: GPL-3.0-or-later
#include "diagnosisview.h"

#include "jobchecker.h"
#include "waitingjob.h"

#include "clusterstore.h"
#include "diagnosisbook.h"
#include "diagnosisservice.h"
#include "preemptionlog.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QHash>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QUrl>
#include <QUrlQuery>
#include <QVBoxLayout>

namespace gpudesk {

namespace {

QString responsibleText(const QString &who)
{
    if (who == QLatin1String("platform"))
        return DiagnosisView::tr("the platform (its administrators)");
    if (who == QLatin1String("hardware"))
        return DiagnosisView::tr("the hardware (the node's administrators)");
    return DiagnosisView::tr("the job (its owner)");
}

// Where a piece of evidence was found, in the user's words: a log or an event; API fields
// keep their names.
QString whereText(const DiagnosisEvidence &e)
{
    if (!e.container.isEmpty())
        return e.previousLog
                   ? DiagnosisView::tr("log of %1 (the previous container)").arg(e.container)
                   : DiagnosisView::tr("log of %1").arg(e.container);
    if (e.where.startsWith(QLatin1String("event ")))
        return DiagnosisView::tr("event %1").arg(e.where.mid(6));
    if (e.where.startsWith(QLatin1String("kernel log of ")))
        return DiagnosisView::tr("kernel log of %1").arg(e.where.mid(14));
    if (e.where.startsWith(QLatin1String("nvidia-smi on ")))
        return DiagnosisView::tr("nvidia-smi on %1").arg(e.where.mid(14));
    if (e.where == QLatin1String("nodes of the job"))
        return DiagnosisView::tr("the job's nodes, each with InfiniBand or RoCE");
    if (e.where == QLatin1String("spec: env"))
        return DiagnosisView::tr("a variable of the spec");
    if (e.where == QLatin1String("NAS"))
        return DiagnosisView::tr("the NAS, read now");
    return e.where;
}

} // namespace

DiagnosisView::DiagnosisView(DiagnosisService *doctor, const ClusterStore *store,
                             QStringList podUids, const QString &workloadKey, QWidget *parent)
    : QWidget(parent), m_doctor(doctor), m_store(store), m_podUids(std::move(podUids)),
      m_workloadKey(workloadKey), m_state(new QLabel(this)),
      m_again(new QPushButton(tr("Diagnose again"), this)), m_text(new QTextBrowser(this))
{
    m_text->setObjectName(QStringLiteral("diagnosisText"));
    m_text->setOpenLinks(false);
    m_again->setToolTip(tr("Read the pods' state, events and log tails again"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    auto *bar = new QHBoxLayout;
    bar->addWidget(m_state, 1);
    bar->addWidget(m_again);
    layout->addLayout(bar);
    layout->addWidget(m_text, 1);
    m_state->setForegroundRole(QPalette::PlaceholderText);
    m_state->setWordWrap(true);

    connect(m_again, &QPushButton::clicked, this, &DiagnosisView::diagnose);
    connect(m_text, &QTextBrowser::anchorClicked, this, [this](const QUrl &url) {
        if (url.scheme() == u"gpudesk-fix") {
            emit rerunWithFix(url.path());
            return;
        }
        if (url.scheme() == u"gpudesk-cordon") {
            const QUrlQuery q(url);
            emit cordonNode(q.queryItemValue(QStringLiteral("node"), QUrl::FullyDecoded),
                            q.queryItemValue(QStringLiteral("why"), QUrl::FullyDecoded));
            return;
        }
        const QUrlQuery q(url);
        emit showInLog(q.queryItemValue(QStringLiteral("pod"), QUrl::FullyDecoded),
                       q.queryItemValue(QStringLiteral("container"), QUrl::FullyDecoded),
                       q.queryItemValue(QStringLiteral("previous")) == u"1",
                       q.queryItemValue(QStringLiteral("start")) == u"1",
                       q.queryItemValue(QStringLiteral("line"), QUrl::FullyDecoded));
    });
    DiagnosisBook *book = m_doctor->book();
    connect(book, &DiagnosisBook::changed, this, [this](const QSet<QString> &uids) {
        for (const QString &uid : uids)
            if (m_podUids.contains(uid)) {
                render();
                return;
            }
    });
    connect(book, &DiagnosisBook::cleared, this, &DiagnosisView::render);
    // A job whose state starts or stops lying (its master stopped at last) is told as it
    // happens; drawn again only then, so that a reader's place is kept.
    connect(store, &ClusterStore::updated, this, [this](const StoreChanges &changes) {
        if (m_workloadKey.isEmpty() || !changes.workloads.contains(m_workloadKey))
            return;
        const auto w = m_store->workload(m_workloadKey);
        if ((w ? w->stateLie : QString()) != m_lie)
            render();
    });
    connect(m_doctor, &DiagnosisService::idle, this, &DiagnosisView::render);
    if (const PreemptionLog *log = m_doctor->preemptions()) {
        connect(log, &PreemptionLog::changed, this, [this](const QSet<QString> &workloads) {
            if (workloads.contains(m_workloadKey) || m_workloadKey.isEmpty())
                render();
        });
        connect(log, &PreemptionLog::cleared, this, &DiagnosisView::render);
    }

    // The failed pods first; a pod that fails none: its first, as it is.
    for (const QString &uid : std::as_const(m_podUids)) {
        const PodInfo *p = m_store->pod(uid);
        if (p && DiagnosisBook::troubled(*p) && m_asked.size() < MaxPods)
            m_asked << uid;
    }
    const auto waiting = WaitingJob::requestOf(*store, workloadKey);
    // A pod that fails none stands for the object, as it is — unless the object waits: a
    // pending pod has no failure to read, and why it waits is asked below.
    // The pod the doctor asks how the job runs (NCCL over sockets), where it has asked one.
    if (const QString running = m_doctor->runningPodOf(workloadKey);
        !running.isEmpty() && m_podUids.contains(running) && !m_asked.contains(running))
        m_asked << running;
    if (m_asked.isEmpty() && !m_podUids.isEmpty() && !waiting)
        m_asked << m_podUids.first();
    if (waiting) {
        m_waitCheck = new JobChecker(store, nullptr, this);
        connect(m_waitCheck, &JobChecker::ready, this, [this](const StartVerdict &v) {
            m_wait = v;
            render();
        });
        m_waitApproximate = waiting->approximate;
        m_waitCheck->check(*waiting);
    }
    for (const QString &uid : std::as_const(m_asked))
        if (const PodInfo *p = m_store->pod(uid); p && !book->holds(*p))
            m_doctor->request(uid);
    render();
}

QString DiagnosisView::waitHtml() const
{
    if (!m_wait)
        return m_waitCheck && m_waitCheck->isChecking()
                   ? QStringLiteral("<p>%1</p>").arg(tr("Asking why it waits…"))
                   : QString();
    QString html = QStringLiteral("<h3>%1</h3>").arg(tr("Why it waits").toHtmlEscaped());
    if (m_wait->kind == StartVerdict::Starts && m_waitApproximate) {
        html += QStringLiteral("<p>%1</p>")
                    .arg(tr("By its pod group's totals it would fit now; its pods are not made "
                            "yet, so where they would go is not known.")
                             .toHtmlEscaped());
    } else if (m_wait->kind == StartVerdict::Starts) {
        html += QStringLiteral("<p>%1</p>")
                    .arg(tr("By the cluster as it is now, it fits: %1 The scheduler should "
                            "place it at its next pass.")
                             .arg(m_wait->summary())
                             .toHtmlEscaped());
    }
    html += QStringLiteral("<ul>");
    // Warnings are the submit form's: read from a pod's summary here, they would guess.
    for (const StartReason &r : m_wait->reasons) {
        if (r.severity == StartReason::Warning)
            continue;
        html += QStringLiteral("<li>%1").arg(r.message.toHtmlEscaped());
        if (!r.fix.isEmpty())
            html += QStringLiteral("<br><b>%1</b> %2")
                        .arg(tr("Fix:").toHtmlEscaped(), r.fix.toHtmlEscaped());
        html += QStringLiteral("</li>");
    }
    return html + QStringLiteral("</ul>");
}

void DiagnosisView::diagnose()
{
    // Why it waits, from the cluster as it is now.
    if (m_waitCheck) {
        if (const auto waiting = WaitingJob::requestOf(*m_store, m_workloadKey)) {
            m_waitApproximate = waiting->approximate;
            m_waitCheck->check(*waiting);
        } else {
            m_wait.reset(); // it no longer waits
        }
    }
    for (const QString &uid : std::as_const(m_asked))
        m_doctor->request(uid);
    render();
}

QString DiagnosisView::text() const
{
    return m_state->text() + u'\n' + m_text->toPlainText();
}

void DiagnosisView::setRerunOffered(bool offered)
{
    m_rerunOffered = offered;
    render();
}

int DiagnosisView::preemptionsHtml(QString *html) const
{
    const PreemptionLog *log = m_doctor->preemptions();
    if (!log)
        return 0;
    QList<const Preemption *> mine;
    for (const Preemption *p : log->records()) // newest first
        if ((!m_workloadKey.isEmpty() && p->workload == m_workloadKey) ||
            m_podUids.contains(p->victimUid))
            mine << p;
    if (mine.isEmpty())
        return 0;
    *html += QStringLiteral("<h3>%1</h3>").arg(tr("Preempted for another job").toHtmlEscaped());
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    constexpr int Shown = 5;
    for (qsizetype i = 0; i < mine.size() && i < Shown; ++i) {
        const Preemption &p = *mine[i];
        *html += QStringLiteral("<p><b>%1</b></p><ul>")
                     .arg(PreemptionLog::describe(p, now).toHtmlEscaped());
        *html += QStringLiteral("<li>%1</li>")
                     .arg(tr("pod %1/%2 — the scheduler said: %3")
                              .arg(p.ns, p.pod, p.message)
                              .toHtmlEscaped());
        if (!p.unknownWhy.isEmpty())
            *html += QStringLiteral("<li>%1</li>").arg(p.unknownWhy.toHtmlEscaped());
        *html += QStringLiteral("</ul>");
    }
    if (mine.size() > Shown)
        *html += QStringLiteral("<p>%1</p>")
                     .arg(tr("and %n earlier preemption(s)", nullptr, int(mine.size() - Shown))
                              .toHtmlEscaped());
    *html += QStringLiteral("<p><b>%1</b> %2</p>")
                 .arg(tr("Fix:").toHtmlEscaped(),
                      tr("Save checkpoints often, so that a preemption loses little. Jobs of "
                         "lower priority in a queue are the first to go when a job of higher "
                         "priority needs the room: urgent work can ask for a higher priority "
                         "class, and a queue's guaranteed share is not reclaimed.")
                          .toHtmlEscaped());
    return int(mine.size());
}

void DiagnosisView::render()
{
    // Pods that failed the same way are told once, with their names: a gang of 64 workers
    // killed by the same bus error is one cause.
    struct Group
    {
        QStringList pods;
        const DiagnosisBook::Entry *entry;
    };
    QList<Group> groups;
    QHash<QString, qsizetype> groupOf;
    int waiting = 0;
    const DiagnosisBook *book = m_doctor->book();
    for (const QString &uid : std::as_const(m_asked)) {
        const DiagnosisBook::Entry *e = book->entry(uid);
        const PodInfo *p = m_store->pod(uid);
        if (!e || (p && e->stamp != DiagnosisBook::stampOf(*p))) {
            ++waiting;
            continue;
        }
        QStringList same{e->error};
        for (const Diagnosis &d : e->diagnoses)
            same << d.rule << d.title << d.cause;
        const QString key = same.join(u'\x1f');
        if (const auto it = groupOf.constFind(key); it != groupOf.cend()) {
            groups[*it].pods << e->pod;
            continue;
        }
        groupOf.insert(key, groups.size());
        groups.append({{e->pod}, e});
    }
    QString html;
    // A job whose state is not what its pods do (a Failed job whose master still holds its
    // GPUs): said before any pod's cause.
    const auto w = m_workloadKey.isEmpty() ? std::nullopt : m_store->workload(m_workloadKey);
    m_lie = w ? w->stateLie : QString();
    if (!m_lie.isEmpty())
        html += QStringLiteral("<p><b>%1</b></p>").arg(m_lie.toHtmlEscaped());
    html += waitHtml();
    const int preempted = preemptionsHtml(&html);
    int found = preempted;
    for (const Group &g : std::as_const(groups)) {
        const DiagnosisBook::Entry *e = g.entry;
        const PodInfo *pod = m_store->pod(e->uid);
        // A pod asked only to stand for a job that was preempted, and that runs well now, has
        // nothing to add to it.
        if (preempted > 0 && e->diagnoses.isEmpty() && pod && !DiagnosisBook::troubled(*pod))
            continue;
        html +=
            QStringLiteral("<h3>%1</h3>").arg(g.pods.join(QStringLiteral(", ")).toHtmlEscaped());
        if (e->diagnoses.isEmpty()) {
            html += QStringLiteral("<p>%1</p>").arg(e->error.toHtmlEscaped());
            continue;
        }
        for (int i = 0; i < e->diagnoses.size(); ++i) {
            const Diagnosis &d = e->diagnoses[i];
            ++found;
            html += i == 0 ? QStringLiteral("<p><b>%1</b></p>").arg(d.title.toHtmlEscaped())
                           : QStringLiteral("<p><i>%1</i> %2</p>")
                                 .arg(tr("Also:").toHtmlEscaped(), d.title.toHtmlEscaped());
            html += QStringLiteral("<p>%1</p>").arg(d.cause.toHtmlEscaped());
            html += QStringLiteral("<p><b>%1</b></p><ul>").arg(tr("Evidence:").toHtmlEscaped());
            for (const DiagnosisEvidence &ev : d.evidence) {
                QString line = ev.text.toHtmlEscaped();
                if (!ev.container.isEmpty()) {
                    QUrl url(QStringLiteral("gpudesk-log:"));
                    QUrlQuery q;
                    q.addQueryItem(QStringLiteral("pod"), e->pod);
                    q.addQueryItem(QStringLiteral("container"), ev.container);
                    q.addQueryItem(QStringLiteral("previous"),
                                   QString::number(int(ev.previousLog)));
                    // Asked how it runs, its log was read from the start: shown from there.
                    if (e->running)
                        q.addQueryItem(QStringLiteral("start"), QStringLiteral("1"));
                    q.addQueryItem(QStringLiteral("line"), ev.text.left(200));
                    url.setQuery(q);
                    line = QStringLiteral("<a href=\"%1\"><code>%2</code></a>")
                               .arg(url.toString(QUrl::FullyEncoded).toHtmlEscaped(), line);
                }
                html += QStringLiteral("<li>%1: %2</li>").arg(whereText(ev).toHtmlEscaped(), line);
            }
            html += QStringLiteral("</ul>");
            html += QStringLiteral("<p><b>%1</b> %2</p>")
                        .arg(tr("Fix:").toHtmlEscaped(), d.fix.toHtmlEscaped());
            if (i == 0 && m_rerunOffered && !d.specFix.isEmpty()) {
                html += QStringLiteral("<p><a href=\"gpudesk-fix:%1\">%2</a></p>")
                            .arg(QString::fromLatin1(QUrl::toPercentEncoding(d.specFix, "/:")),
                                 tr("Re-run with the fix…").toHtmlEscaped());
                // The copy runs beside it: both would hold GPUs, or the copy waits behind it.
                if (pod && pod->phase == QLatin1String("Running"))
                    html += QStringLiteral("<p><i>%1</i></p>")
                                .arg((pod->status == QLatin1String("CrashLoopBackOff")
                                          ? tr("It still holds its GPUs while it crash-loops: "
                                               "stop it once the copy is made, or the copy "
                                               "waits for them (or holds as many more).")
                                          : tr("It still runs: stop it once the copy is made, or "
                                               "the copy waits for its GPUs (or holds as many "
                                               "more)."))
                                         .toHtmlEscaped());
            }
            // The hardware's fault: its node is offered for a cordon (planned, confirmed and
            // audited by the window), unless it is cordoned already.
            const NodeInfo *node = pod ? m_store->node(pod->nodeName) : nullptr;
            if (i == 0 && d.responsible == QLatin1String("hardware") && node &&
                node->unschedulable) {
                html += QStringLiteral("<p>%1</p>")
                            .arg(tr("%1 is cordoned: no new job lands on it.")
                                     .arg(node->name)
                                     .toHtmlEscaped());
            } else if (i == 0 && d.responsible == QLatin1String("hardware") && node) {
                QUrl url(QStringLiteral("gpudesk-cordon:"));
                QUrlQuery q;
                q.addQueryItem(QStringLiteral("node"), node->name);
                q.addQueryItem(QStringLiteral("why"), QString(d.title + u": " + d.cause).left(400));
                url.setQuery(q);
                html += QStringLiteral("<p><a href=\"%1\">%2</a></p>")
                            .arg(url.toString(QUrl::FullyEncoded).toHtmlEscaped(),
                                 tr("Cordon %1 so that no new job lands on it…")
                                     .arg(node->name)
                                     .toHtmlEscaped());
            }
            // A pod told how it runs (NCCL over sockets) has not failed.
            const QString who =
                tr("Likely responsible: %1.").arg(responsibleText(d.responsible)) + u' ' +
                (e->running     ? tr("Running it again unchanged will run the same way.")
                 : d.retryHelps ? tr("Running it again may help.")
                                : tr("Running it again unchanged will fail the same way."));
            html += QStringLiteral("<p>%1</p>").arg(who.toHtmlEscaped());
        }
    }
    m_text->setHtml(html);
    if (m_asked.isEmpty())
        m_state->setText(m_waitCheck
                             ? tr("Why it waits, from the cluster as it is now (the same check "
                                  "as before a job is submitted).")
                             : tr("This object has no pods to diagnose."));
    else if (waiting > 0)
        m_state->setText(
            tr("Reading the state, events and log tails of %n pod(s)…", nullptr, waiting));
    else if (found == 0 && !m_lie.isEmpty())
        // The job's state is the finding (below); that its pods show no known failure is
        // said after it, not instead of it.
        m_state->setText(tr("The job's state is not what its pods do (below); in the pods the "
                            "doctor found no known cause of a failure."));
    else if (found == 0)
        m_state->setText(tr("The doctor found no known cause."));
    else
        m_state->setText(tr("What the job doctor found, the most likely cause first."));
}

} // namespace gpudesk
