// SPDX-License-Identifier: GPL-3.0-or-later
#include "nodeprobe.h"

#include "nodecommands.h"
#include "sshconnection.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QSet>

namespace gpudesk {

QByteArray NodeProbe::command(const QList<nodecmd::PodRef> &pods)
{
    const QByteArray mig =
        (m_migNode ? nodecmd::migCommand() : QByteArray()) + nodecmd::pidStatCommand(m_lastPids);
    if (m_layout != CgroupLayout::Unknown)
        return nodecmd::probeCommand(mig + nodecmd::podUsageCommand(m_layout, pods), m_migField);
    // A node whose layout is none of the known ones is asked again now and then, not each time.
    if (m_samplesSinceLayoutTry++ % 30 == 0)
        return nodecmd::probeCommand(mig + nodecmd::cgroupLayoutCommand(), m_migField);
    return nodecmd::probeCommand(mig, m_migField);
}

NodeSample NodeProbe::sample(SshConnection &connection, int timeoutMs,
                             const std::atomic<bool> &cancel, const QList<nodecmd::PodRef> &pods)
{
    QElapsedTimer t;
    t.start();
    const ExecResult r = connection.exec(command(pods), timeoutMs, cancel);
    if (!r.ok) {
        NodeSample s;
        s.node = m_node;
        s.time = QDateTime::currentMSecsSinceEpoch();
        s.error = r.error;
        return s;
    }
    const bool layoutKnown = m_layout != CgroupLayout::Unknown;
    NodeSample s = parseProbe(r.out, QDateTime::currentMSecsSinceEpoch());
    if (layoutKnown)
        for (const nodecmd::PodRef &p : pods)
            s.podsAsked << p.uid;
    const QList<qint64> pids = unknownPids(s);
    if (!pids.isEmpty()) {
        const ExecResult c = connection.exec(
            nodecmd::cgroupCommand(pids), int(qMax<qint64>(1000, timeoutMs - t.elapsed())), cancel);
        if (c.ok)
            applyCgroups(c.out, &s);
        else
            s.error = c.error;
    } else {
        applyCgroups(QByteArray(), &s);
    }
    s.durationMs = t.elapsed();
    return s;
}

NodeSample NodeProbe::parseProbe(const QByteArray &output, qint64 timeMs)
{
    NodeSample s;
    s.node = m_node;
    s.time = timeMs;
    bool sawEnd = false;
    QList<std::pair<QString, QByteArray>> podSections;
    m_stats.clear();
    QList<MigDeviceSample> migList;
    std::optional<probe::MigXml> migXml;
    for (const nodecmd::Section &sec : nodecmd::splitSections(output)) {
        const bool failed = sec.name.endsWith(" failed");
        const QByteArray name = failed ? sec.name.chopped(7) : sec.name;
        if (name == "gpus") {
            auto g = probe::parseGpus(sec.body, failed ? 1 : 0);
            if (g.state == NvidiaSmiResult<GpuCardSample>::Failed && m_migField &&
                g.message.contains(QLatin1String("mig.mode.current"))) {
                // A driver older than MIG refuses the field: ask without it from now on, and
                // do not call the node broken for the answer to a question it cannot take.
                m_migField = false;
                g = NvidiaSmiResult<GpuCardSample>{};
                g.state = NvidiaSmiResult<GpuCardSample>::Failed;
                g.message = tr("asked again without mig.mode.current (the driver predates MIG)");
            }
            s.gpuState = g.state;
            s.gpuMessage = g.message;
            s.cards = g.rows;
            s.skippedLines += g.skippedLines;
        } else if (name == "miglist") {
            migList = probe::parseGpuList(sec.body);
        } else if (name == "migxml") {
            migXml = probe::parseMigXml(sec.body);
        } else if (name == "apps") {
            const auto a = probe::parseComputeApps(sec.body, failed ? 1 : 0);
            s.skippedLines += a.skippedLines;
            for (const GpuProcessSample &p : a.rows) {
                NodeProcess np;
                np.pid = p.pid;
                np.gpuUuid = p.gpuUuid;
                np.memoryMiB = p.memoryMiB;
                np.name = p.name;
                for (const GpuCardSample &c : std::as_const(s.cards))
                    if (c.uuid == p.gpuUuid)
                        np.cardIndex = c.index;
                s.processes.append(np);
            }
        } else if (name == "stat") {
            const auto cpu = probe::parseProcStat(sec.body);
            if (cpu) {
                if (m_lastCpu && cpu->total() > m_lastCpu->total()) {
                    const double dt = double(cpu->total() - m_lastCpu->total());
                    const double db = double(cpu->busy()) - double(m_lastCpu->busy());
                    s.cpuPercent = qBound(0.0, 100.0 * db / dt, 100.0);
                }
                m_lastCpu = cpu;
            }
            int cpus = 0;
            for (const QByteArray &line : sec.body.split('\n'))
                if (line.startsWith("cpu") && line.size() > 3 && line.at(3) >= '0' &&
                    line.at(3) <= '9')
                    ++cpus;
            s.cpuCount = cpus;
        } else if (name == "meminfo") {
            s.memory = probe::parseMeminfo(sec.body);
        } else if (name == "loadavg") {
            s.load = probe::parseLoadavg(sec.body);
        } else if (name == "df") {
            QSet<QString> seen;
            for (const DiskUse &d : probe::parseDf(sec.body))
                if (!seen.contains(d.mountPoint)) {
                    seen.insert(d.mountPoint);
                    s.disks.append(d);
                }
        } else if (name == "uptime") {
            s.uptimeSecs = probe::parseUptime(sec.body);
        } else if (name == "netdev") {
            s.interfaces = probe::parseNetDev(sec.body);
        } else if (name.startsWith("layout ")) {
            // The first layout whose marker file exists; cat's complaint means "not this one".
            const CgroupLayout l = nodecmd::layoutFromSection(name);
            if (m_layout == CgroupLayout::Unknown && !sec.body.trimmed().isEmpty() &&
                !sec.body.contains("No such file"))
                m_layout = l;
        } else if (name.startsWith("pidstat ")) {
            if (const auto st = probe::parsePidStat(sec.body))
                m_stats.insert(st->pid, *st);
        } else if (name.startsWith("pod ")) {
            podSections.append({QString::fromLatin1(name.mid(4)), sec.body});
        } else if (name == "end") {
            sawEnd = true;
        }
    }
    s.cgroupLayout = m_layout;
    joinMig(migList, migXml, &s);
    m_migNode = s.hasMig();
    QHash<QString, PodCpu> podCpu;
    for (const auto &[uid, body] : std::as_const(podSections)) {
        const auto cg = probe::parsePodCgroup(body, m_layout);
        if (!cg)
            continue; // not running here (yet, or any more)
        PodUsage u;
        u.uid = uid;
        u.memoryBytes = cg->memoryBytes;
        u.workingSetBytes = cg->workingSetBytes;
        // CPU time over the node's own clock: the client's clock would add the network's jitter.
        const auto last = m_podCpu.constFind(uid);
        if (s.uptimeSecs && last != m_podCpu.cend() && *s.uptimeSecs > last->uptimeSecs &&
            cg->cpuUsageNs >= last->usageNs)
            u.cpuCores =
                double(cg->cpuUsageNs - last->usageNs) / 1e9 / (*s.uptimeSecs - last->uptimeSecs);
        if (s.uptimeSecs)
            podCpu.insert(uid, {cg->cpuUsageNs, *s.uptimeSecs});
        s.pods.append(u);
    }
    m_podCpu = std::move(podCpu); // pods no longer asked for are forgotten
    if (!sawEnd)
        s.error = tr("The probe's answer from %1 was cut off.").arg(m_node);
    return s;
}

void NodeProbe::joinMig(const QList<MigDeviceSample> &list, const std::optional<probe::MigXml> &xml,
                        NodeSample *s)
{
    // -L names each instance's profile and UUID, -q -x its ids, memory and processes: joined
    // by card and device index. Only cards in MIG mode have instances.
    QSet<int> migCards;
    for (const GpuCardSample &c : std::as_const(s->cards))
        if (c.migEnabled.value_or(false))
            migCards.insert(c.index);
    for (const MigDeviceSample &l : list) {
        if (!migCards.contains(l.gpuIndex))
            continue;
        MigDeviceSample d = l;
        if (xml)
            for (const MigDeviceSample &x : xml->devices)
                if (x.gpuIndex == l.gpuIndex && x.index == l.index) {
                    d.gpuInstanceId = x.gpuInstanceId;
                    d.computeInstanceId = x.computeInstanceId;
                    d.memoryUsedMiB = x.memoryUsedMiB;
                    d.memoryTotalMiB = x.memoryTotalMiB;
                }
        s->migDevices.append(d);
    }
    if (!xml)
        return;
    for (NodeProcess &p : s->processes) {
        if (!migCards.contains(p.cardIndex))
            continue;
        for (const probe::MigXml::Process &xp : xml->processes) {
            if (xp.gpuIndex != p.cardIndex || xp.pid != p.pid)
                continue;
            for (const MigDeviceSample &d : std::as_const(s->migDevices))
                if (d.gpuIndex == p.cardIndex && d.gpuInstanceId == xp.gpuInstanceId &&
                    d.computeInstanceId == xp.computeInstanceId)
                    p.migDevice = d.index;
        }
    }
}

QList<qint64> NodeProbe::unknownPids(const NodeSample &sample) const
{
    QList<qint64> pids;
    for (const NodeProcess &p : sample.processes)
        if (p.pid > 0 && !m_owners.contains(p.pid) && !pids.contains(p.pid))
            pids.append(p.pid);
    return pids;
}

void NodeProbe::applyCgroups(const QByteArray &output, NodeSample *sample)
{
    QSet<qint64> gone;
    for (const nodecmd::Section &sec : nodecmd::splitSections(output)) {
        if (sec.name.startsWith("pidstat ")) {
            if (const auto st = probe::parsePidStat(sec.body))
                m_stats.insert(st->pid, *st);
            continue;
        }
        if (!sec.name.startsWith("pid "))
            continue;
        bool ok = false;
        const qint64 pid = sec.name.mid(4).toLongLong(&ok);
        if (!ok)
            continue;
        // cat's own complaint: the process ended between nvidia-smi's list and this read.
        if (sec.body.contains("No such file or directory"))
            gone.insert(pid);
        else
            m_owners.insert(pid, probe::parseCgroup(sec.body));
    }
    QSet<qint64> listed;
    QList<NodeProcess> kept;
    for (NodeProcess &p : sample->processes) {
        if (gone.contains(p.pid)) {
            ++sample->exitedProcesses;
            continue;
        }
        listed.insert(p.pid);
        p.owner = m_owners.value(p.pid);
        if (const auto st = m_stats.constFind(p.pid); st != m_stats.cend()) {
            p.state = st->state;
            p.startTicks = st->startTicks;
        }
        kept.append(p);
    }
    sample->processes = kept;
    m_lastPids = QList<qint64>(listed.cbegin(), listed.cend());
    std::sort(m_lastPids.begin(), m_lastPids.end());
    // Forget processes no longer listed: a PID reused later belongs to someone else.
    for (auto it = m_owners.begin(); it != m_owners.end();)
        it = listed.contains(it.key()) ? std::next(it) : m_owners.erase(it);
}

} // namespace gpudesk
