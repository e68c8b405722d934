// SPDX-License-Identifier: GPL-3.0-or-later
#include "doctor.h"

#include "specfixes.h"

#include <algorithm>

namespace gpudesk {

namespace {

// The lines of a log tail: the last kTailBytes, without the partial line the cut leaves at its
// start, each at most kLineChars (a line of megabytes is read by its start), given to `keep`
// with its number. Invalid UTF-8 reads as replacement characters, never as a failure.
template <typename Keep> void forEachLine(const DiagnosisInput::Container &c, Keep keep)
{
    QByteArrayView tail = c.logTail;
    qint64 n = c.firstLine;
    if (tail.size() > Doctor::kTailBytes) {
        const qsizetype cut = tail.size() - Doctor::kTailBytes;
        n = n > 0 ? n + tail.first(cut).count('\n') : 0;
        tail = tail.sliced(cut);
        const qsizetype nl = tail.indexOf('\n');
        tail = nl < 0 ? QByteArrayView() : tail.sliced(nl + 1);
        n = n > 0 ? n + 1 : 0;
    }
    while (!tail.isEmpty()) {
        const qsizetype nl = tail.indexOf('\n');
        QByteArrayView l = nl < 0 ? tail : tail.first(nl);
        tail = nl < 0 ? QByteArrayView() : tail.sliced(nl + 1);
        if (l.endsWith('\r'))
            l.chop(1);
        keep(n, QString::fromUtf8(l.first(std::min<qsizetype>(l.size(), Doctor::kLineChars * 4)))
                    .left(Doctor::kLineChars));
        if (n > 0)
            ++n;
    }
}

} // namespace

Doctor::Doctor(DoctorRules rules, QString language)
    : m_rules(std::move(rules)), m_language(std::move(language))
{
    QStringList all;
    for (const DoctorRules::Rule &r : m_rules.rules())
        for (const QList<QRegularExpression> *list : {&r.logAny, &r.logAll, &r.logAlso})
            for (const QRegularExpression &re : *list)
                all << QStringLiteral("(?:%1)").arg(re.pattern());
    m_anyLog.setPattern(all.join(u'|'));
    m_anyLog.optimize();
}

Doctor::Candidates Doctor::candidates(const DiagnosisInput &in) const
{
    Candidates out;
    for (const DiagnosisInput::Container &c : in.containers) {
        QList<LogLine> lines;
        // No rule reads logs: nothing to keep. The combined pattern not valid (each part is,
        // so only a limit of PCRE's could do it): every line is kept, never none.
        if (!m_anyLog.pattern().isEmpty())
            forEachLine(c, [&](qint64 n, const QString &text) {
                if (!m_anyLog.isValid() || m_anyLog.match(text).hasMatch())
                    lines.append({n, text});
            });
        out.append(lines);
    }
    return out;
}

QString Doctor::text(const QHash<QString, QString> &by, const QHash<QString, QString> &fill) const
{
    QString t = by.value(m_language);
    if (t.isEmpty())
        t = by.value(QString());
    for (auto it = fill.cbegin(); it != fill.cend(); ++it)
        t.replace(u'{' + it.key() + u'}', it.value());
    return t;
}

std::optional<Diagnosis> Doctor::apply(const DoctorRules::Rule &rule, const DiagnosisInput &in,
                                       const Candidates &candidates) const
{
    Diagnosis d;
    const DiagnosisInput::NasFact *nasFact = nullptr;
    QHash<QString, QString> fill{
        {QStringLiteral("shmMiB"), QString::number(in.shmMiB)},
        {QStringLiteral("memoryLimitMiB"), QString::number(in.memoryLimitMiB)},
        {QStringLiteral("pod"), in.pod},
        {QStringLiteral("node"), in.node}};
    if (!rule.phases.isEmpty()) {
        if (!rule.phases.contains(in.phase))
            return std::nullopt;
        d.evidence.append({QStringLiteral("status.phase"), 0, in.phase});
    }
    if (rule.podReason) {
        if (in.reason.isEmpty() || !rule.podReason->match(in.reason).hasMatch())
            return std::nullopt;
        d.evidence.append({QStringLiteral("status.reason"), 0,
                           in.message.isEmpty() ? in.reason : in.reason + u": " + in.message});
    }
    if (!rule.env.isEmpty()) {
        QString found;
        for (const QString &v : in.env)
            if (std::any_of(rule.env.cbegin(), rule.env.cend(), [&v](const QRegularExpression &re) {
                    return re.match(v.left(kLineChars)).hasMatch();
                })) {
                found = v;
                break;
            }
        if (found.isEmpty())
            return std::nullopt;
        d.evidence.append({QStringLiteral("spec: env"), 0, found.left(400)});
        fill.insert(QStringLiteral("variable"), found.section(u'=', 0, 0));
        fill.insert(QStringLiteral("setting"), found.left(200));
    }
    if (rule.jobOnRdmaNodes) {
        if (in.jobNodes.size() < 2 || !in.jobNodesRdma)
            return std::nullopt;
        d.evidence.append(
            {QStringLiteral("nodes of the job"), 0, in.jobNodes.join(QStringLiteral(", "))});
        fill.insert(QStringLiteral("nodes"), QString::number(in.jobNodes.size()));
    }
    if (!rule.nas.isEmpty()) {
        const auto hit = std::find_if(in.nas.cbegin(), in.nas.cend(),
                                      [&rule](const auto &f) { return rule.nas.contains(f.code); });
        if (hit == in.nas.cend())
            return std::nullopt;
        d.evidence.append({QStringLiteral("NAS"), 0, hit->text.left(400)});
        fill.insert(QStringLiteral("path"), hit->path);
        fill.insert(QStringLiteral("nasFix"), hit->fix);
        fill.insert(QStringLiteral("linkTarget"), hit->linkTarget);
        // Where the container will see the file after the fix: the path through a folder it
        // mounts, else where the link leads once the target's folder is mounted there.
        fill.insert(QStringLiteral("resolved"),
                    !hit->resolved.isEmpty() || hit->mountAt.isEmpty()
                        ? hit->resolved
                        : hit->mountAt + u'/' + hit->linkTarget.section(u'/', -1));
        nasFact = &*hit;
    }
    if (rule.shmBelowMiB > 0) {
        if (in.shmMiB >= rule.shmBelowMiB)
            return std::nullopt;
        d.evidence.append(
            {QStringLiteral("spec: /dev/shm"), 0, QStringLiteral("%1 MiB").arg(in.shmMiB)});
    }
    // The container criteria hold for one container together (its reason, exit code, signal).
    const bool byContainer = !rule.containerReasons.isEmpty() || !rule.exitCodes.isEmpty() ||
                             !rule.exitSignals.isEmpty();
    if (byContainer) {
        const DiagnosisInput::Container *hit = nullptr;
        for (const DiagnosisInput::Container &c : in.containers) {
            if (!rule.containerReasons.isEmpty() && !rule.containerReasons.contains(c.reason))
                continue;
            if (!rule.exitCodes.isEmpty() && (!c.exitCode || !rule.exitCodes.contains(*c.exitCode)))
                continue;
            if (!rule.exitSignals.isEmpty() && (!c.signal || !rule.exitSignals.contains(*c.signal)))
                continue;
            hit = &c;
            break;
        }
        if (!hit)
            return std::nullopt;
        fill.insert(QStringLiteral("container"), hit->name);
        QString what = hit->reason;
        if (hit->exitCode)
            what += QStringLiteral(" (exit code %1)").arg(*hit->exitCode);
        d.evidence.append(
            {QStringLiteral("containerStatuses[%1]").arg(hit->name), 0, what.trimmed()});
    }
    if (rule.message) {
        QStringList messages{in.message};
        for (const DiagnosisInput::Container &c : in.containers)
            messages << c.message;
        QString found;
        for (const QString &m : std::as_const(messages))
            if (!m.isEmpty() && rule.message->match(m.left(kLineChars)).hasMatch()) {
                found = m;
                break;
            }
        if (found.isEmpty())
            return std::nullopt;
        d.evidence.append({QStringLiteral("message"), 0, found.left(400)});
    }
    if (rule.event) {
        const DiagnosisInput::Event *hit = nullptr;
        for (const DiagnosisInput::Event &e : in.events)
            if (rule.event->match(QString(e.reason + u": " + e.message).left(kLineChars))
                    .hasMatch()) {
                hit = &e;
                break;
            }
        if (!hit)
            return std::nullopt;
        d.evidence.append({QStringLiteral("event %1").arg(hit->reason), 0, hit->message.left(400)});
        fill.insert(QStringLiteral("match"), hit->message.left(400));
    }
    if (!rule.logAny.isEmpty() || !rule.logAll.isEmpty()) {
        QList<DiagnosisEvidence> found;
        QString captured;
        for (int ci = 0; ci < in.containers.size(); ++ci) {
            const DiagnosisInput::Container &c = in.containers[ci];
            const QList<LogLine> &lines = candidates[ci];
            QList<DiagnosisEvidence> here;
            bool any = rule.logAny.isEmpty();
            QList<bool> all(rule.logAll.size(), false);
            for (const LogLine &l : lines) {
                bool matched = false;
                for (const QRegularExpression &re : rule.logAny) {
                    const QRegularExpressionMatch m = re.match(l.text);
                    if (m.hasMatch()) {
                        any = matched = true;
                        if (captured.isEmpty())
                            captured = m.captured(m.lastCapturedIndex() > 0 ? 1 : 0);
                        break;
                    }
                }
                for (int k = 0; k < rule.logAll.size(); ++k)
                    if (rule.logAll[k].match(l.text).hasMatch())
                        all[k] = matched = true;
                if (matched && here.size() < kEvidencePerRule)
                    here.append({QStringLiteral("log of %1").arg(c.name), l.number, l.text, c.name,
                                 c.state != u"terminated" && c.restarts > 0});
            }
            if (any && !all.contains(false)) {
                found = here;
                fill.insert(QStringLiteral("container"), c.name);
                break;
            }
        }
        if (found.isEmpty())
            return std::nullopt;
        fill.insert(QStringLiteral("match"), captured);
        d.evidence += found;
    }
    if (!rule.logAlso.isEmpty()) {
        // Shown where the log has them; the rule holds without.
        for (int ci = 0; ci < in.containers.size(); ++ci)
            for (const LogLine &l : candidates[ci])
                if (std::any_of(rule.logAlso.cbegin(), rule.logAlso.cend(),
                                [&l](const QRegularExpression &re) {
                                    return re.match(l.text).hasMatch();
                                }) &&
                    d.evidence.size() < kEvidencePerRule + 2)
                    d.evidence.append({QStringLiteral("log of %1").arg(in.containers[ci].name),
                                       l.number, l.text, in.containers[ci].name,
                                       in.containers[ci].state != u"terminated" &&
                                           in.containers[ci].restarts > 0});
    }
    if (!rule.nodeKernel.isEmpty()) {
        // The newest lines first: the fault nearest the failure is the one to show.
        QList<DiagnosisEvidence> found;
        QString captured;
        for (qsizetype i = in.nodeKernel.size() - 1;
             i >= 0 && found.size() < kEvidencePerRule && in.nodeKernel.size() - i <= kKernelLines;
             --i) {
            const QString line = in.nodeKernel[i].left(kLineChars);
            for (const QRegularExpression &re : rule.nodeKernel) {
                const QRegularExpressionMatch m = re.match(line);
                if (!m.hasMatch())
                    continue;
                if (captured.isEmpty())
                    captured = m.captured(m.lastCapturedIndex() > 0 ? 1 : 0);
                found.append({QStringLiteral("kernel log of %1").arg(in.node), 0, line});
                break;
            }
        }
        if (found.isEmpty())
            return std::nullopt;
        fill.insert(QStringLiteral("match"), captured);
        d.evidence += found;
    }
    if (rule.nodeEccUncorrected) {
        // The pod's own cards where they were seen; else any card of its node. The evidence is
        // nvidia-smi's own field, as a log line is the program's own words.
        QList<DiagnosisEvidence> found;
        QStringList cards;
        for (const DiagnosisInput::CardEcc &c : in.nodeEcc) {
            if (c.uncorrected <= 0 || ((in.podCardsKnown || rule.nodeEccOwnCards) && !c.podsCard))
                continue;
            cards << QStringLiteral("GPU %1").arg(c.index);
            if (found.size() < kEvidencePerRule)
                found.append({QStringLiteral("nvidia-smi on %1").arg(in.node), 0,
                              QStringLiteral("GPU %1 %2: ecc.errors.uncorrected.volatile.total %3")
                                  .arg(c.index)
                                  .arg(c.uuid)
                                  .arg(c.uncorrected)});
        }
        if (found.isEmpty())
            return std::nullopt;
        fill.insert(QStringLiteral("card"), cards.join(QStringLiteral(", ")));
        d.evidence += found;
    }
    d.rule = rule.id;
    d.cls = rule.cls;
    d.priority = rule.priority;
    d.title = text(rule.title, fill);
    d.classTitle = text(m_rules.classTitle(rule.cls), {});
    d.cause = text(rule.cause, fill);
    d.fix = text(rule.fix, fill);
    d.responsible = rule.responsible;
    d.retryHelps = rule.retryHelps;
    d.specFix = rule.specFix;
    if (rule.specFix == QLatin1String("resolved-path"))
        d.specFix = nasFact ? SpecFixes::resolvedPath(nasFact->path, nasFact->resolved,
                                                      nasFact->mountNode, nasFact->mountAt)
                            : QString();
    return d;
}

QList<Diagnosis> Doctor::diagnose(const DiagnosisInput &in) const
{
    QList<Diagnosis> out;
    const Candidates lines = candidates(in);
    for (const DoctorRules::Rule &rule : m_rules.rules()) {
        if (in.running && !rule.whileRunning)
            continue; // a pod that is well: only what may be wrong while it runs
        if (auto d = apply(rule, in, lines))
            out.append(*d);
    }
    std::stable_sort(out.begin(), out.end(), [](const Diagnosis &a, const Diagnosis &b) {
        return a.priority > b.priority;
    });
    // A rule that another one found says better ("launch script not found" under "a dangling
    // symlink") adds its evidence there, not an "Also:" that says the same thing with less.
    // Only where the rules say so: two rules of one class may be two causes (an NCCL timeout
    // in the job's code, or the platform's network), each with its own fix.
    QHash<QString, QStringList> subsumes;
    for (const DoctorRules::Rule &rule : m_rules.rules())
        if (!rule.subsumes.isEmpty())
            subsumes.insert(rule.id, rule.subsumes);
    QList<Diagnosis> folded;
    for (Diagnosis &d : out) {
        const auto same = std::find_if(folded.begin(), folded.end(), [&](const Diagnosis &f) {
            return subsumes.value(f.rule).contains(d.rule);
        });
        if (same == folded.end()) {
            folded.append(std::move(d));
            continue;
        }
        for (const DiagnosisEvidence &ev : std::as_const(d.evidence))
            if (std::none_of(same->evidence.cbegin(), same->evidence.cend(),
                             [&ev](const DiagnosisEvidence &x) {
                                 return x.where == ev.where && x.text == ev.text;
                             }))
                same->evidence.append(ev);
    }
    return folded;
}

} // namespace gpudesk
