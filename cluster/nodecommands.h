// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "probeparsers.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace gpudesk::nodecmd {

// Every command gpudesk sends over SSH comes from here: fixed text, and anything interpolated
// (a PID, a host name) validated first and single-quoted for a POSIX shell. The commands use
// only what the simplest node shell offers: words, quotes, `;`, `||` and `2>&1`.

// 'it''s' → 'it'\''s'
QByteArray shellQuote(const QByteArray &word);

// The section marker the probe's output is split on.
inline constexpr char SectionMarker[] = "@@gpudesk ";

// A pod whose cgroup a sample reads: its uid and status.qosClass pick the directory.
struct PodRef
{
    QString uid;
    QString qosClass; // Guaranteed, Burstable, BestEffort
};

// One sample: GPU and compute-app queries, /proc/stat, meminfo, loadavg, uptime, net/dev, df of
// / and the container runtimes' roots, then `extra` (cgroupLayoutCommand() or
// podUsageCommand()). Sections: gpus, apps, stat, meminfo, loadavg, uptime, netdev, df, end; a
// failing nvidia-smi adds a "failed" line to its section. `migField`: ask for mig.mode.current too
// (drivers before R450 refuse the field).
QByteArray probeCommand(const QByteArray &extra = QByteArray(), bool migField = true);
// For a node with cards in MIG mode: sections "miglist" (nvidia-smi -L: profiles, UUIDs) and
// "migxml" (nvidia-smi -q -x: instance ids, memory, which instance each process runs in).
QByteArray migCommand();
// Which cgroup layout the node has: sections "layout <name>", one per layout, each with the
// content of a file only that layout has (or cat's complaint).
QByteArray cgroupLayoutCommand();
CgroupLayout layoutFromSection(const QByteArray &name);
// Each pod's cgroup CPU and memory files, one section "pod <uid>" each, in the order
// parsePodCgroup() expects. Pods with an impossible uid or QoS class are left out.
QByteArray podUsageCommand(CgroupLayout layout, const QList<PodRef> &pods);
// /proc/<pid>/cgroup and /proc/<pid>/stat of each PID, in sections "pid <n>" and
// "pidstat <n>". PIDs must be positive.
QByteArray cgroupCommand(const QList<qint64> &pids);
// The kernel's ring buffer with ISO times (kernellog::nvrmLines reads it): where the NVIDIA
// driver writes its Xid lines. Needs root, or kernel.dmesg_restrict=0, on the node.
QByteArray kernelLogCommand();
// /proc/<pid>/stat of each PID (state, start time), in sections "pidstat <n>": asked with every
// sample for the GPU processes the previous one listed.
QByteArray pidStatCommand(const QList<qint64> &pids);
// What a PID is right before a signal is sent to it: sections "pidstat <n>", "pid <n>" (its
// cgroup), "gpus" and "apps" (as the probe's), "end". Empty for a PID that is not positive.
QByteArray processCheckCommand(qint64 pid, bool migField);
enum class Signal
{
    Term,
    Kill
};
// `kill -s TERM|KILL <pid>`; empty for PID 0 or 1 (never init, never a process group).
QByteArray signalCommand(qint64 pid, Signal signal);
// The ProxyCommand OpenSSH would run for ProxyJump (`ssh -W [host]:port jump`), or empty with
// `error` set when the jump spec holds characters no host name has.
QByteArray proxyJumpCommand(const QString &jump, const QString &host, int port,
                            const QString &sshConfigFile, QString *error);

// The probe's output split into its sections, by name.
struct Section
{
    QByteArray name;
    QByteArray body;
};
QList<Section> splitSections(const QByteArray &output);

} // namespace gpudesk::nodecmd
