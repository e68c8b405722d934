// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gpudesk {

// What the doctor reads of one pod (the job doctor, and the submit check's reasons): its phase
// and reasons, each container's state, the object's events, a few facts of its spec, and a
// bounded tail of each failed container's log (never the whole log).
struct DiagnosisInput
{
    struct Container
    {
        QString name;
        QString state;  // "waiting", "running", "terminated"
        QString reason; // CrashLoopBackOff, OOMKilled, Error, ImagePullBackOff…
        QString message;
        std::optional<int> exitCode;
        std::optional<int> signal;
        int restarts = 0;
        // The last bytes of its log (the previous container's for a restart), and the number of
        // the tail's first line in the whole log (1 when the tail is the whole log; 0 unknown).
        QByteArray logTail;
        qint64 firstLine = 0;
    };
    struct Event
    {
        QString type; // Normal, Warning
        QString reason;
        QString message;
        QString source;
    };
    QString ns;
    QString pod;
    QString phase;
    QString reason; // the pod's own (Evicted, DeadlineExceeded…)
    QString message;
    QList<Container> containers;
    QList<Event> events;
    // The spec: /dev/shm's size (a Memory emptyDir at /dev/shm; the runtime's 64 MiB without),
    // the memory limit (0: none), the environment variables set (every container's, NAME=value),
    // the command and arguments (the first container's).
    qint64 shmMiB = 64;
    qint64 memoryLimitMiB = 0;
    QStringList env;
    QStringList command;
    // The node the pod ran on, and what its kernel said of its GPUs (the NVRM lines of its
    // kernel log, read over SSH, the newest last; empty when not read). Why they could not be
    // read, when they were asked for and could not be.
    QString node;
    QStringList nodeKernel;
    QString nodeKernelError;
    // The node's cards that count uncorrectable ECC errors since its driver loaded (nvidia-smi's
    // ecc.errors.uncorrected.volatile.total, as gpudesk last sampled it): a card that lost data
    // the job computed with. Read by every user, where the kernel log often is not (its ring
    // turns over within hours on a busy node; dmesg_restrict hides it from non-root).
    struct CardEcc
    {
        int index = -1;
        QString uuid;
        qint64 uncorrected = 0;
        bool podsCard = false; // the pod's processes were seen on it
    };
    QList<CardEcc> nodeEcc;
    // The pod's cards were seen (its processes, by the node's last sample): then only its own
    // cards count. A pod that no longer runs has none seen.
    bool podCardsKnown = false;
    // A pod that runs and is well, asked whether it runs as it should (a multi-node job's NCCL
    // over TCP sockets): only the rules that say so apply, and its log is the head, not the
    // tail (NCCL says how it connects when it starts, hours before the tail).
    bool running = false;
    // The nodes the pod's job runs on (its running pods'), and whether every one of them
    // advertises RDMA (InfiniBand or RoCE).
    QStringList jobNodes;
    bool jobNodesRdma = false;
    // What the NAS says of the launch scripts its command runs from a node's folder (read over
    // SFTP, as the submit check reads them; empty when not asked): the submit check's reason
    // for each — its code ("launch-script-link-outside"…), its words, the script's path — and,
    // for a link the container cannot follow, the script's path as the container would see it
    // ("resolved"), else the node's folder to mount where the link leads.
    struct NasFact
    {
        QString code;
        QString text;
        QString fix; // the submit check's, in the user's language
        QString path;
        QString linkTarget;
        QString resolved;
        QString mountNode, mountAt;
    };
    QList<NasFact> nas;
};

// A line or a field that made a rule match.
struct DiagnosisEvidence
{
    QString where;   // "log of pytorch", "event BackOff", "containerStatuses[pytorch].reason"
    qint64 line = 0; // in the whole log, for a log line; 0 otherwise
    QString text;
    // A log line's container, and whether it is the previous container's log (a restart).
    QString container;
    bool previousLog = false;
};

// One cause found for a pod, in the user's language.
struct Diagnosis
{
    QString rule;  // the rule's id
    QString cls;   // its class (shared-memory, gpu-oom, nccl, image-pull…)
    QString title; // one line, for the Why column
    // Its class in a few words, the same for every pod of it ("Shared memory too small"): what
    // the admin's grouping by cause shows ("" when the rules give the class none).
    QString classTitle;
    QString cause;
    QString fix;
    QString responsible; // "job", "platform", "hardware"
    bool retryHelps = false;
    int priority = 0;
    // The fix as a change of the spec gpudesk can make for a re-run ("shared-memory",
    // "memory-limit", "remove-env:NAME", "resolved-path:" and its JSON arguments; see
    // SpecFix), "" when it is not one.
    QString specFix;
    QList<DiagnosisEvidence> evidence;
};

} // namespace gpudesk
