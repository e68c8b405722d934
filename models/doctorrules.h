// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <optional>

namespace gpudesk {

// The job doctor's rules, as data (docs/doctor.md has the format): a rules file shipped with
// gpudesk, and a lab's or a user's own that adds classes or replaces rules by id. Each rule
// says what it matches — the pod's phase and reason, its containers' reasons, exit codes and
// signals, the messages, the events, the spec's /dev/shm, bounded regexes over the log tail —
// and what it tells: a class, a title, the cause, the fix (each in English and Chinese), who is
// likely responsible and whether a retry alone can help.
class DoctorRules
{
    Q_DECLARE_TR_FUNCTIONS(gpudesk::DoctorRules)
public:
    struct Rule
    {
        QString id;
        QString cls;
        int priority = 0; // the higher, the more specific: the first diagnosis is the cause
        // What must match (every criterion given; any of a criterion's values).
        QStringList phases;
        QStringList containerReasons;
        QList<int> exitCodes;
        QList<int> exitSignals;
        std::optional<QRegularExpression> podReason;
        std::optional<QRegularExpression> message;
        std::optional<QRegularExpression> event; // "Reason: message" of each event
        QList<QRegularExpression> logAny;        // a line matching any
        QList<QRegularExpression> logAll;        // and lines matching each of these
        QList<QRegularExpression> nodeKernel;    // a line of the node's kernel log (Xid)
        // A card of the node counts uncorrectable ECC errors: any card of it, or only a card the
        // pod was seen on ("ownCards": a pod that still runs) — the counter is not the pod's
        // own, it runs since the driver loaded or the card was reset.
        bool nodeEccUncorrected = false;
        bool nodeEccOwnCards = false;
        qint64 shmBelowMiB = 0;        // the spec's /dev/shm under this (0: any)
        QList<QRegularExpression> env; // a variable of the spec, NAME=value, matching any
        // Log lines shown as evidence where the log has them, never required ("alsoLog": what
        // NCCL says of a variable the rule found in the spec, when NCCL_DEBUG lets it speak).
        QList<QRegularExpression> logAlso;
        // The pod's job runs on two nodes or more, every one with InfiniBand or RoCE.
        bool jobOnRdmaNodes = false;
        // What the NAS says of a launch script the command runs (the submit check's reason
        // codes, "launch-script-link-outside"…): any of them.
        QStringList nas;
        // Asked of pods that run and are well too (the head of their log): a job slower than
        // it should be. Rules without it are asked only of pods in trouble.
        bool whileRunning = false;
        // The fix as a change of the spec gpudesk can make for a re-run (see SpecFix::apply).
        QString specFix;
        // What it says, by language ("" is English); {shmMiB}, {memoryLimitMiB}, {container},
        // {node}, {match} (the first captured group of the first log or kernel line match),
        // {card} (the card with uncorrectable ECC errors, "GPU 3"), {variable} (the name of the
        // env variable matched), {nodes} (how many nodes the job runs on), and from the NAS
        // {path}, {linkTarget}, {resolved} (the launch script, its link's target, and where the
        // container sees that target) and {nasFix} (the submit check's fix for it, in the
        // user's language) are filled in.
        QHash<QString, QString> title, cause, fix;
        QString responsible = QStringLiteral("job");
        bool retryHelps = false;
        // Rules this one says better, with what it knows more ("a dangling symlink" says
        // "launch script not found"): when both match, theirs is not said again, its evidence
        // joins this one's.
        QStringList subsumes;
    };

    // The rules shipped with gpudesk (:/gpudesk/doctor/rules.json).
    static DoctorRules builtIn();
    // Reads a rules file's text; `errors` says what was refused (a rule with a bad or a runaway
    // regex is left out, the others kept; a file that is not JSON gives no rules).
    static DoctorRules parse(const QByteArray &json, const QString &name, QStringList *errors);
    // Where a user's own rules are read from (gpudesk's config folder, doctor-rules.json).
    static QString userFile();
    // The built-in rules, then a user's file over them (a rule of the same id replaces one).
    static DoctorRules load(QStringList *errors);

    void merge(const DoctorRules &over);
    const QList<Rule> &rules() const { return m_rules; }
    // A class's own title by language ("" English), from the file's "classes": the same words
    // for every pod of the class, where a rule's title is filled in per pod. Empty when the
    // files name none for it.
    QHash<QString, QString> classTitle(const QString &cls) const
    {
        return m_classTitles.value(cls);
    }

    // A pattern is refused when it could run away on a long line: nested quantifiers
    // ("(a+)+"), back references, more than two unbounded wildcards, or over 400 characters.
    // "" when it is fine, else why not.
    static QString refusal(const QString &pattern);

private:
    QList<Rule> m_rules;
    QHash<QString, QHash<QString, QString>> m_classTitles; // class → language → title
};

} // namespace gpudesk
