// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "apikind.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <optional>

namespace gpudesk {

// What an action on the cluster or a node will do, step by step, before anything happens: the
// plan the user reads and confirms, the operation runs, and the audit records. Plain data.

// GPUs a pod holds on a node when planned: after acting they are checked to be free there.
struct HeldGpus
{
    QString podUid;
    QString node;
    QList<int> cards; // the cards its processes use ("" when it runs none)
};

// The thing a step acts on, as it was when planned: a step whose target changed since (another
// uid, a pod running again, a PID reused) is skipped, never applied to the new thing.
struct StepTarget
{
    QString kind;    // Pod, Job, PyTorchJob, MPIJob, Node, Process, Queue, Namespace, NasPath, …
    QString group;   // API group ("" core), for permission checks and paths
    QString version; // the served version
    QString plural;  // pods, jobs, …
    QString ns;
    QString name;
    QString uid;
    QString apiPath; // the object's path at its served version
    QString node;    // where it runs (a pod, a process)
    QString user;    // whose it is: told in the Event on the object
    int gpus = 0;    // what it holds, for "freed" and the plan's sums
    // A process: its PID and start time (clock ticks since boot, /proc/PID/stat field 22), and
    // the card and pod uid it had when planned.
    qint64 pid = 0;
    qint64 startTime = -1;
    int card = -1;
    QString podUid;
    QList<HeldGpus> holds;    // a pod's, a job's pods', a process's
    QString describe() const; // "pod user-bob/old-train", "PID 4242 on g4090-04"

    // An object that exists: its path is set, so the step first checks it is still the one
    // planned (its uid) before acting on it.
    static StepTarget existing(const ApiKind &k, const QString &ns, const QString &name,
                               const QString &uid)
    {
        StepTarget t = toCreate(k, ns, name);
        t.uid = uid;
        t.apiPath = k.path(ns, name);
        return t;
    }
    // An object to be created: no path, nothing that exists to check before.
    static StepTarget toCreate(const ApiKind &k, const QString &ns, const QString &name)
    {
        StepTarget t;
        t.kind = k.kind;
        t.group = k.group;
        t.version = k.version;
        t.plural = k.plural;
        t.ns = k.namespaced ? ns : QString();
        t.name = name;
        return t;
    }
};

// An image a registry step acts on, as it was when planned.
struct ImageTarget
{
    QString registry;   // as image references name it: "registry.lab:5000"
    QString repository; // "alice/pytorch"
    QString digest;     // the manifest: "sha256:…"
    QStringList tags;   // those pointing at it when planned (DeleteImage: all go with it)
    // CopyImage: where to, and what that tag pointed at when planned ("" when it did not exist):
    // a tag moved since is not overwritten.
    QString toRepository;
    QString toTag;
    QString toDigest;
    QString reference() const { return registry + u'/' + repository + u'@' + digest; }
    // SaveImage: the container committed (of the step's target pod) and the node's runtime
    // (status.nodeInfo.containerRuntimeVersion), which picks the tool.
    QString fromContainer;
    QString runtime;
    QString toReference() const { return registry + u'/' + toRepository + u':' + toTag; }
};

// A file or folder on the NAS a step acts on (over SFTP, on a node that mounts it), as it was
// when planned: a step whose target changed since (another kind, size or time) is skipped.
struct NasTarget
{
    QString node; // the node whose mount the step goes through
    // Else NAMESPACE/NAME: the user's dev environment pod whose mounts it goes through, by exec
    // (a researcher without SSH to the nodes).
    QString pod;
    QString root;  // the NAS root it lies under (/mnt/user): nothing outside it is touched
    QString path;  // /mnt/user/alice/old-run
    char type = 0; // as RemoteFile: 'f', 'd', 'l', 'o'
    qint64 size = 0;
    qint64 modified = 0; // ms since the epoch, as listed
    // A folder's content when planned (-1: not counted): what the plan says will go.
    qint64 files = -1;
    qint64 bytes = -1;
    QString toPath; // MoveNasPath: where to; never over an existing name
    bool isSet() const { return !path.isEmpty(); }
};

struct PlanStep
{
    enum class Kind
    {
        Delete,      // DELETE with the uid precondition (a job's pods go with it)
        ForceDelete, // DELETE with grace 0: only when the node shows the containers gone
        Evict,       // the Eviction subresource: PodDisruptionBudgets decide
        Patch,       // a merge or JSON patch (cordon, suspend)
        Update,      // a PUT at the edit's resourceVersion: refused (409) if the object moved
        Create,      // an object (a Volcano Command, a cloned job)
        KillProcess, // over SSH: TERM, wait, KILL, each after checking the PID is the same
        // A ServiceAccount deleted and made again (a new uid): every token issued for the old
        // one stops working, which the step proves with a token it asked for beforehand.
        RotateServiceAccount,
        // In a registry (PlanStep::image): a manifest deleted by its digest (every tag pointing
        // at it goes with it), or an image copied under another name by blob mounts and a
        // manifest PUT. Checked against the registry right before acting, verified after.
        DeleteImage,
        CopyImage,
        // Over SSH on a pod's node, then in a registry (PlanStep::image): the container
        // committed with the node's runtime tool, pushed under image.toReference() with the
        // credentials the user chose, and the tag's digest checked in the registry.
        SaveImage,
        // In a registry's Harbor: its garbage collection (PlanStep::body {"delete_untagged"}),
        // checked with Harbor's own dry run, verified by what its log says it freed.
        CollectGarbage,
        // On the NAS (PlanStep::nas), over SFTP: a file, a link or a folder with everything
        // below it removed (links removed, never followed), or one renamed (moved) within the
        // roots. Checked against the NAS right before acting; a removal is verified gone, and
        // its space freed by the NAS's own free space.
        RemoveNasPath,
        MoveNasPath,
    };
    Kind kind = Kind::Delete;
    StepTarget target;
    QString description; // what it will do, in words
    QString why;         // why it is in the plan: the finding's evidence, the user's choice
    QString detail;      // the exact request or command: for the plan and the audit
    QByteArray body;     // for Patch, Update and Create
    QString createIn;    // for Create: the collection's path (the target is what it acts on)
    QString patchType;   // merge, json, strategic
    std::optional<qint64> gracePeriodSeconds;
    QString propagationPolicy;
    bool forceful = false; // grace 0, SIGKILL, drain: typed confirmation
    // Steps (by index) that must have ended well before this one starts: a force delete after
    // the kills of its processes, evictions after the cordon. One that did not is skipped.
    QList<int> after;
    // Steps of one unit (one user of a batch) stand or fall together: when one of them does
    // not succeed, the unit's steps not yet run are skipped and the objects its earlier steps
    // created are deleted again, so nothing is left half made. -1: no unit.
    int unit = -1;
    // What must still hold right before acting, besides the target's identity (its uid, a
    // process's start time): otherwise the step is skipped.
    // Checked on the object read right before acting — for a process, its pod at guardPath
    // (the same uid, target.podUid) — and, for the node's state, on the node read from the API
    // then, not on what the window last saw.
    enum class Guard
    {
        None,
        StillTerminating, // the pod still has its deletionTimestamp
        StillIdle,        // its GPUs have not been busy since the plan
        // The pod's node is still NotReady, and since the same moment as when planned
        // (guardSince): a node that came back, even for a moment, starts its pods' toleration
        // again.
        NodeStillNotReady,
        StillTerminatingOnNotReadyNode, // both of the above
        StillTerminatingContainersGone, // deleting, and the node shows its containers gone
        PodStillGone,                   // a process's pod (target.podUid) is not there again
        QueueEmpty,                     // the queue has no pod groups left (it may go)
    } guard = Guard::None;
    qint64 plannedAt = 0;  // ms since the epoch, for StillIdle
    qint64 guardSince = 0; // ms since the epoch: the node's NotReady transition when planned
    QString guardPath;     // a process step's pod, read for its guard
    // Steps taken for one reason (a finding: its pod's process kills and the delete after
    // them): once one of them is refused — by the server's check, or when it runs — or skipped,
    // the others are not run. -1: none.
    int group = -1;
    // A step on something the user did not choose (another user's pod evicted by a drain, a
    // node cordoned for a finding on one of its cards): listed first and apart in the plan, by
    // owner and GPUs, and run only once confirmed by name (OperationPlan::typedWord).
    bool collateral = false;
    // A Patch is checked on the object the server returns: this JSON pointer holds this JSON
    // value (/spec/unschedulable → true).
    QString expectPointer;
    QByteArray expectValue;
    // A step on a queue (a Volcano Command) is done when the queue's state is one of these, as
    // the store sees it (OpenQueue → Open; CloseQueue → Closing or Closed).
    QStringList expectStates;
    // The Event posted on the target once acted on, so that its owner sees what happened and
    // why ("" for none).
    QString eventReason;
    // The server's answer to the same request with dryRun=All, asked while planning.
    enum class DryRun
    {
        NotApplicable, // an SSH step
        NotAsked,
        Accepted,
        Refused,
        // Cannot be asked before an earlier step of the plan has run (its namespace does not
        // exist yet): checked by the server when it runs, its unit rolled back if refused.
        Deferred,
    } dryRun = DryRun::NotAsked;
    QString dryRunMessage; // the Status message of a refusal
    ImageTarget image;     // DeleteImage, CopyImage
    NasTarget nas;         // RemoveNasPath, MoveNasPath
};

struct OperationPlan
{
    QString action; // machine name for the audit: cleanup.stop, node.cordon, workload.delete, …
    QString title;  // "Stop 5 tasks that hold GPUs"
    QString context;
    QString server;
    // What the plan is about when it is one thing made of several objects (a dev environment's
    // NAMESPACE/NAME): for the service that follows up on it.
    QString subject;
    QList<PlanStep> steps;
    QStringList notes;    // what the plan wants the user to know (refused dry runs, skipped items)
    QStringList warnings; // what the user should weigh before confirming (shown apart)
    // Why the plan may not run at all (checked before anything reaches the API): shown, and
    // the plan cannot be confirmed.
    QStringList refusals;
    // What the user must type to confirm when it is not the count or the single object's name
    // (a user's name before deleting them and all they have); set, it is always asked.
    QString typedWord;
    // Up to this many steps, a click confirms; beyond, or with a forceful step, the count (or
    // the single object's name) must be typed.
    static constexpr int TypedConfirmationAbove = 5;
    bool needsTypedConfirmation() const;
    QString confirmationWord() const; // what to type
    // GPUs the plan frees when it runs as planned: each counted once (a pod's process kills and
    // its delete free the same cards).
    int gpus() const;
    // The collateral steps, one line each by owner and GPUs ("bob: evict user-bob/qwen-eval-0,
    // 5 GPUs"); empty when every step acts on what the user chose.
    QStringList collateral() const;
};

// How one step ended.
struct StepOutcome
{
    enum class Result
    {
        Pending, // not started
        Running,
        Done,       // acted on, and verified
        Unverified, // acted on; the effect could not be confirmed in time
        Skipped,    // the target changed since the plan (or was already gone): not acted on
        Refused,    // the API (or the node) said no: its words in `message`
        Failed,     // acting failed for another reason (a timeout, a lost connection)
        Cancelled,  // the operation was cancelled before this step began
        RolledBack, // done, then undone because a later step of its unit did not succeed
    };
    Result result = Result::Pending;
    QString message;      // in the server's words, or why it was skipped
    QString verification; // what was checked after acting: "gone; 4 GPUs free on g4090-04"
    // What a Create made: its path and uid (for a rollback's delete with a uid precondition).
    QString createdPath;
    QString createdUid;
    // What a DeleteImage took: the tags that pointed at the digest when it was deleted.
    QStringList removedTags;
    QDateTime started;
    QDateTime finished;
    bool ended() const { return result != Result::Pending && result != Result::Running; }
    // The step ends now, with this result and these words.
    void end(Result r, const QString &what, const QString &checked = QString())
    {
        result = r;
        message = what;
        verification = checked;
        finished = QDateTime::currentDateTime();
    }
    static QString resultName(Result r); // done, unverified, skipped, …
};

inline QString StepTarget::describe() const
{
    if (kind == QLatin1String("NasPath")) // its path is its name
        return QCoreApplication::translate("gpudesk::OperationPlan", "%1 on the NAS").arg(name);
    if (kind == QLatin1String("Process"))
        return QCoreApplication::translate("gpudesk::OperationPlan", "PID %1 on %2")
            .arg(pid)
            .arg(node);
    const QString what = kind.isEmpty() ? plural : kind;
    return ns.isEmpty() ? QString(what + u' ' + name) : QString(what + u' ' + ns + u'/' + name);
}

inline bool OperationPlan::needsTypedConfirmation() const
{
    return !typedWord.isEmpty() || steps.size() > TypedConfirmationAbove ||
           std::any_of(steps.cbegin(), steps.cend(),
                       [](const PlanStep &s) { return s.forceful || s.collateral; });
}

inline QString OperationPlan::confirmationWord() const
{
    // One object: its name; several: how many.
    if (!typedWord.isEmpty())
        return typedWord;
    return steps.size() == 1 ? steps.first().target.name : QString::number(steps.size());
}

inline int OperationPlan::gpus() const
{
    QStringList pods; // pods the plan acts on as a whole
    for (const PlanStep &s : steps)
        if (s.target.kind == QLatin1String("Pod"))
            pods << s.target.uid;
    int n = 0;
    for (const PlanStep &s : steps)
        if (!(s.kind == PlanStep::Kind::KillProcess && !s.target.podUid.isEmpty() &&
              pods.contains(s.target.podUid)))
            n += s.target.gpus;
    return n;
}

inline QStringList OperationPlan::collateral() const
{
    QStringList out;
    for (const PlanStep &s : steps) {
        if (!s.collateral)
            continue;
        const QString who = s.target.user.isEmpty() ? s.target.ns : s.target.user;
        const QString what =
            s.target.gpus > 0
                ? QCoreApplication::translate("gpudesk::OperationPlan", "%1 — %n GPU(s)", nullptr,
                                              s.target.gpus)
                      .arg(s.description)
                : s.description;
        out << (who.isEmpty() ? what : who + QStringLiteral(": ") + what);
    }
    return out;
}

inline QString StepOutcome::resultName(Result r)
{
    switch (r) {
    case Result::Pending:
        return QStringLiteral("pending");
    case Result::Running:
        return QStringLiteral("running");
    case Result::Done:
        return QStringLiteral("done");
    case Result::Unverified:
        return QStringLiteral("unverified");
    case Result::Skipped:
        return QStringLiteral("skipped");
    case Result::Refused:
        return QStringLiteral("refused");
    case Result::Failed:
        return QStringLiteral("failed");
    case Result::RolledBack:
        return QStringLiteral("rolled-back");
    case Result::Cancelled:
        break;
    }
    return QStringLiteral("cancelled");
}

} // namespace gpudesk

Q_DECLARE_METATYPE(gpudesk::OperationPlan)
