// SPDX-License-Identifier: GPL-3.0-or-later
// The submit check's warnings: what does not stop a job from starting but is very likely a
// mistake — variables left on from debugging, NCCL told not to use what the nodes have,
// WORLD_SIZE read as a GPU count, /dev/shm at its default, CPU and memory off the lab's rule.
#include "startcheck.h"

#include "format.h"
#include "rdma.h"

#include <QRegularExpression>

#include <algorithm>

namespace gpudesk {

namespace {

QString valueOf(const JobRole &role, const char *name)
{
    for (const auto &[key, value] : role.env)
        if (key == QLatin1String(name))
            return value;
    return {};
}

bool commandMentions(const JobRole &role, const QString &word)
{
    return std::any_of(role.command.cbegin(), role.command.cend(),
                       [&](const QString &a) { return a.contains(word); });
}

// Cards joined by NVLink or PCIe P2P among the models labs run (data-centre parts); consumer
// cards (RTX 4090) have P2P off in the driver.
bool p2pCapable(const QString &model)
{
    static const char *const parts[] = {"A100", "A800", "H100", "H800", "H20",
                                        "V100", "A30",  "L40",  "B200", "GH200"};
    return std::any_of(std::begin(parts), std::end(parts),
                       [&](const char *p) { return model.contains(QLatin1String(p)); });
}

bool hasRdma(const CapacitySnapshot::Node &n)
{
    return advertisesRdma(n.labels);
}

// The interfaces NCCL_SOCKET_IFNAME lets NCCL use, as NCCL reads it (parseStringList,
// matchIfList): prefixes separated by commas, each taken as written (no spaces dropped) up to
// a ":port"; "=" before the list for exact names; "^" before that for the ones not to use. An
// empty list matches every interface.
QStringList ifnameSelects(const QString &spec, const QStringList &interfaces)
{
    QString s = spec;
    const bool exclude = s.startsWith(u'^');
    if (exclude)
        s.remove(0, 1);
    const bool exact = s.startsWith(u'=');
    if (exact)
        s.remove(0, 1);
    QStringList entries;
    for (const QString &e : s.split(u',', Qt::SkipEmptyParts))
        entries << e.section(u':', 0, 0);
    if (entries.isEmpty())
        return interfaces;
    QStringList out;
    for (const QString &i : interfaces) {
        const bool hit = std::any_of(entries.cbegin(), entries.cend(), [&](const QString &e) {
            return exact ? i == e : i.startsWith(e);
        });
        if (hit != exclude)
            out << i;
    }
    return out;
}

// Only the loopback (or nothing): NCCL cannot reach another pod, or finds no interface at all.
// A job of one pod needs no other: nothing at all is what fails it then.
bool unusable(const QStringList &selected, bool multiPod)
{
    return multiPod ? std::all_of(selected.cbegin(), selected.cend(),
                                  [](const QString &i) { return i == QLatin1String("lo"); })
                    : selected.isEmpty();
}

} // namespace

void StartCheck::warnSocketIfname(const CapacitySnapshot &cluster, const JobRole &role,
                                  const QString &ifname, bool multiPod, StartVerdict *v)
{
    const QString code = QStringLiteral("env-socket-ifname");
    if (v->has(code))
        return;
    const auto add = [&](const QString &message, const QString &fix, const QVariantMap &numbers) {
        v->reasons.append(
            StartReason{StartReason::Warning, code, message, fix, numbers, QStringLiteral("env")});
    };
    if (!role.hostNetwork) {
        // In its own network namespace the pod has the CNI's eth0, the loopback and what Multus
        // adds — not the node's InfiniBand or bonded ports.
        const QStringList pod =
            QStringList{QStringLiteral("lo"), QStringLiteral("eth0")} + role.extraInterfaces;
        if (unusable(ifnameSelects(ifname, pod), multiPod))
            add(tr("NCCL_SOCKET_IFNAME=%1 leaves NCCL no interface of the pod but the loopback: "
                   "without hostNetwork a pod has %2, not the node's interfaces. NCCL fails to "
                   "start (\"no socket interface found\") or cannot reach the other pods.")
                    .arg(ifname, pod.join(QStringLiteral(", "))),
                tr("Remove NCCL_SOCKET_IFNAME (NCCL then picks eth0), or run the pods with "
                   "hostNetwork to use the nodes' own interfaces."),
                {{QStringLiteral("interfaces"), pod}});
        return;
    }
    // With hostNetwork, the nodes' own interfaces, where gpudesk has sampled them over SSH.
    QStringList without, seen;
    int known = 0;
    for (const CapacitySnapshot::Node &n : cluster.nodes) {
        if (n.gpuAllocatable <= 0 || n.interfaces.isEmpty() ||
            (!role.gpuModel.isEmpty() && n.model != role.gpuModel))
            continue;
        ++known;
        if (unusable(ifnameSelects(ifname, n.interfaces), multiPod)) {
            if (without.isEmpty())
                seen = n.interfaces;
            without << n.name;
        }
    }
    if (!without.isEmpty())
        add(tr("NCCL_SOCKET_IFNAME=%1 leaves NCCL no interface but the loopback on %n of the "
               "node(s) the job may run on (%2; %3 has %4): NCCL fails to start there.",
               nullptr, int(without.size()))
                .arg(ifname, without.mid(0, 3).join(QStringLiteral(", ")), without.first(),
                     seen.join(QStringLiteral(", "))),
            tr("Name an interface those nodes have, pin the job to nodes that have it, or "
               "remove NCCL_SOCKET_IFNAME."),
            {{QStringLiteral("nodes"), without},
             {QStringLiteral("interfaces"), seen},
             {QStringLiteral("nodesKnown"), known}});
    else if (known == 0 && multiPod && ifname == QLatin1String("lo")) // nodes not sampled
        add(tr("NCCL_SOCKET_IFNAME=lo names the loopback interface: pods on other nodes cannot "
               "be reached through it."),
            tr("Remove NCCL_SOCKET_IFNAME, or name the nodes' interface prefix (eth, ib)."), {});
}

void StartCheck::warn(const CapacitySnapshot &cluster, const JobRequest &job, StartVerdict *v)
{
    auto warning = [v](const QString &code, const QString &field, const QString &message,
                       const QString &fix, const QVariantMap &numbers = {}) {
        if (!v->has(code))
            v->reasons.append(
                StartReason{StartReason::Warning, code, message, fix, numbers, field});
    };
    const bool multiNode = job.pods() > 1;
    for (const JobRole &role : job.roles) {
        if (role.gpus <= 0)
            continue;
        // Debugging switches that slow every step, left on.
        if (valueOf(role, "NCCL_DEBUG").compare(QLatin1String("INFO"), Qt::CaseInsensitive) == 0 ||
            valueOf(role, "NCCL_DEBUG").compare(QLatin1String("TRACE"), Qt::CaseInsensitive) == 0)
            warning(QStringLiteral("env-nccl-debug"), QStringLiteral("env"),
                    tr("NCCL_DEBUG=%1 writes a line per collective to the log: it fills it and "
                       "slows training.")
                        .arg(valueOf(role, "NCCL_DEBUG")),
                    tr("Remove NCCL_DEBUG, or set it to WARN."));
        if (valueOf(role, "CUDA_LAUNCH_BLOCKING") == QLatin1String("1"))
            warning(QStringLiteral("env-cuda-launch-blocking"), QStringLiteral("env"),
                    tr("CUDA_LAUNCH_BLOCKING=1 makes every kernel launch wait for the GPU: "
                       "training runs several times slower. It is for debugging."),
                    tr("Remove CUDA_LAUNCH_BLOCKING."));
        if (valueOf(role, "PYTORCH_NO_CUDA_MEMORY_CACHING") == QLatin1String("1"))
            warning(QStringLiteral("env-no-cuda-caching"), QStringLiteral("env"),
                    tr("PYTORCH_NO_CUDA_MEMORY_CACHING=1 turns off PyTorch's memory cache: every "
                       "allocation goes to the driver, which is slow. It is for debugging."),
                    tr("Remove PYTORCH_NO_CUDA_MEMORY_CACHING."));
        QStringList rdma, p2p;
        for (const CapacitySnapshot::Node &n : cluster.nodes) {
            if (!role.gpuModel.isEmpty() && n.model != role.gpuModel)
                continue;
            if (n.gpuAllocatable > 0 && hasRdma(n))
                rdma << n.name;
            if (n.gpuAllocatable > 1 && p2pCapable(n.model) && !p2p.contains(n.model))
                p2p << n.model;
        }
        if (valueOf(role, "NCCL_IB_DISABLE") == QLatin1String("1") && multiNode && !rdma.isEmpty())
            warning(QStringLiteral("env-ib-disabled"), QStringLiteral("env"),
                    tr("NCCL_IB_DISABLE=1 makes NCCL use TCP sockets between nodes, though %n "
                       "node(s) of this model have InfiniBand or RoCE (%1).",
                       nullptr, int(rdma.size()))
                        .arg(rdma.mid(0, 3).join(QStringLiteral(", "))),
                    tr("Remove NCCL_IB_DISABLE."), {{QStringLiteral("nodes"), rdma}});
        if (valueOf(role, "NCCL_P2P_DISABLE") == QLatin1String("1") && role.gpus > 1 &&
            !p2p.isEmpty())
            warning(QStringLiteral("env-p2p-disabled"), QStringLiteral("env"),
                    tr("NCCL_P2P_DISABLE=1 makes the GPUs of a pod talk through host memory, "
                       "though %1 cards talk directly (NVLink or PCIe P2P).")
                        .arg(p2p.join(QStringLiteral(", "))),
                    tr("Remove NCCL_P2P_DISABLE."));
        if (const QString ifname = valueOf(role, "NCCL_SOCKET_IFNAME"); !ifname.isEmpty())
            warnSocketIfname(cluster, role, ifname, multiNode, v);
        // Volcano's pytorch plugin sets WORLD_SIZE to the number of pods; torchrun's
        // --nproc_per_node wants the GPUs of one pod.
        if (job.kind == Resource::VolcanoJobs && job.pytorchPlugin && role.gpus > 1 &&
            (commandMentions(role, QStringLiteral("nproc_per_node=$WORLD_SIZE")) ||
             commandMentions(role, QStringLiteral("nproc_per_node $WORLD_SIZE")) ||
             commandMentions(role, QStringLiteral("nproc-per-node=$WORLD_SIZE"))))
            warning(QStringLiteral("world-size-gpus"), QStringLiteral("command"),
                    tr("The command uses WORLD_SIZE as the number of GPUs; under Volcano's "
                       "pytorch plugin it is the number of pods (%1), not of GPUs (%2).")
                        .arg(job.pods())
                        .arg(job.gpus()),
                    tr("Pass --nproc_per_node=%1 (the GPUs of one pod).").arg(role.gpus),
                    {{QStringLiteral("pods"), job.pods()}, {QStringLiteral("gpus"), job.gpus()}});
        // torchrun started with another number of processes than the pod has GPUs: some
        // cards idle, or processes that find no card of their own.
        static const QRegularExpression nproc(QStringLiteral("--nproc[_-]per[_-]node[= ]+(\\d+)"));
        for (const QString &a : role.command)
            if (const auto m = nproc.match(a); m.hasMatch() && m.captured(1).toInt() != role.gpus)
                warning(QStringLiteral("nproc-mismatch"), QStringLiteral("command"),
                        tr("The command starts %1 processes per pod (--nproc_per_node) but the "
                           "pod has %2 GPUs.")
                            .arg(m.captured(1))
                            .arg(role.gpus),
                        tr("Pass --nproc_per_node=%1, or ask for %2 GPUs.")
                            .arg(role.gpus)
                            .arg(m.captured(1)),
                        {{QStringLiteral("processes"), m.captured(1).toInt()},
                         {QStringLiteral("gpus"), role.gpus}});
        if (role.shmBytes < 0)
            warning(QStringLiteral("shm-default"), QStringLiteral("shm"),
                    tr("/dev/shm is the runtime's %1: a PyTorch DataLoader with workers fails with "
                       "\"bus error\" once a batch does not fit.")
                        .arg(format::bytes(DefaultShmBytes)),
                    tr("Give /dev/shm a Memory volume (half the memory limit is the usual size)."),
                    {{QStringLiteral("shmBytes"), DefaultShmBytes}});
        // The lab's rule of thumb: about 1 CPU per 10 GB of memory, 8 to 15 CPUs a job.
        const double cpus = double(role.cpuMilli) / 1000.0;
        const double gb = double(role.memoryBytes) / 1e9;
        if (role.cpuMilli > 0 && role.memoryBytes > 0 && (gb > cpus * 30 || gb * 3 < cpus))
            warning(QStringLiteral("cpu-memory-ratio"), QStringLiteral("cpu"),
                    tr("%1: %2 CPUs with %3 of memory is far from the usual 1 CPU per 10 GB.")
                        .arg(role.name.isEmpty() ? job.name : role.name,
                             format::cores(role.cpuMilli), format::bytes(role.memoryBytes)),
                    tr("About %1 CPUs for %2.")
                        .arg(std::clamp(qRound(gb / 10), 1, 64))
                        .arg(format::bytes(role.memoryBytes)));
        if (role.cpuMilli > 0 && role.cpuMilli < qint64(role.gpus) * 1000)
            warning(
                QStringLiteral("cpu-per-gpu"), QStringLiteral("cpu"),
                tr("%1: %2 CPUs for %3 GPUs: data loading will keep the GPUs waiting.")
                    .arg(role.name.isEmpty() ? job.name : role.name, format::cores(role.cpuMilli))
                    .arg(role.gpus),
                tr("At least one CPU per GPU; 8 to 15 for a job is usual."));
    }
}

} // namespace gpudesk
