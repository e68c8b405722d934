// SPDX-License-Identifier: GPL-3.0-or-later
#include "nodecommands.h"

#include <QCoreApplication>
#include <QRegularExpression>

namespace gpudesk::nodecmd {

QByteArray shellQuote(const QByteArray &word)
{
    QByteArray out = "'";
    for (char c : word) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    return out + '\'';
}

namespace {

QByteArray section(const char *name)
{
    return QByteArray("echo ") + SectionMarker + name + "; ";
}

} // namespace

namespace {

// The GPU and compute-app queries, as sections "gpus" and "apps" (each with a "failed" line
// when nvidia-smi fails): shared by the probe and the checks around a kill.
QByteArray gpuQueries(bool migField)
{
    static const QByteArray fields =
        "index,uuid,name,pci.bus_id,utilization.gpu,utilization.memory,memory.used,"
        "memory.total,temperature.gpu,power.draw,power.limit,"
        "ecc.errors.uncorrected.volatile.total,clocks.sm";
    return section("gpus") + "nvidia-smi --query-gpu=" + fields +
           (migField ? ",mig.mode.current" : "") +
           " --format=csv,noheader,nounits 2>&1 || "
           "echo " +
           SectionMarker + "failed; " + section("apps") +
           "nvidia-smi --query-compute-apps=gpu_uuid,pid,used_memory,process_name "
           "--format=csv,noheader,nounits 2>&1 || echo " +
           SectionMarker + "failed; ";
}

} // namespace

QByteArray probeCommand(const QByteArray &extra, bool migField)
{
    // One exec, so that a sample costs one channel round trip. nvidia-smi's CSV and df -P are
    // not localised, so no locale is forced (an env prefix is more than some node shells take).
    const QByteArray command = gpuQueries(migField) + section("stat") + "cat /proc/stat; " +
                               section("meminfo") + "cat /proc/meminfo; " + section("loadavg") +
                               "cat /proc/loadavg; " + section("uptime") + "cat /proc/uptime; " +
                               section("netdev") + "cat /proc/net/dev; " + section("df") +
                               "df -P / /var/lib/containerd /var/lib/docker 2>/dev/null; ";
    return command + extra + section("end");
}

QByteArray pidStatCommand(const QList<qint64> &pids)
{
    QByteArray out;
    for (qint64 pid : pids) {
        if (pid <= 0)
            continue; // never interpolate anything but a positive number
        const QByteArray n = QByteArray::number(pid);
        out += "echo " + QByteArray(SectionMarker) + "pidstat " + n + "; cat " +
               shellQuote("/proc/" + n + "/stat") + " 2>&1; ";
    }
    return out;
}

QByteArray processCheckCommand(qint64 pid, bool migField)
{
    if (pid <= 0)
        return QByteArray();
    return pidStatCommand({pid}) + cgroupCommand({pid}) + gpuQueries(migField) + section("end");
}

QByteArray signalCommand(qint64 pid, Signal signal)
{
    if (pid <= 1)
        return QByteArray(); // never init, never a process group
    // `kill -s NAME` is POSIX; the exit status says whether the signal was delivered.
    return "kill -s " + QByteArray(signal == Signal::Kill ? "KILL" : "TERM") + ' ' +
           QByteArray::number(pid) + " 2>&1";
}

namespace {

struct LayoutProbe
{
    CgroupLayout layout;
    const char *name;
    const char *file; // exists only in this layout
};

// A v2 host has cgroup.controllers in every directory; a v1 host has a per-controller tree.
const LayoutProbe layoutProbes[] = {
    {CgroupLayout::V2Systemd, "v2-systemd", "/sys/fs/cgroup/kubepods.slice/cgroup.controllers"},
    {CgroupLayout::V2Cgroupfs, "v2-cgroupfs", "/sys/fs/cgroup/kubepods/cgroup.controllers"},
    {CgroupLayout::V1Systemd, "v1-systemd",
     "/sys/fs/cgroup/cpu,cpuacct/kubepods.slice/cpuacct.usage"},
    {CgroupLayout::V1Cgroupfs, "v1-cgroupfs", "/sys/fs/cgroup/cpu,cpuacct/kubepods/cpuacct.usage"},
};

// The pod's directory below a hierarchy's root, as the kubelet names it for its driver.
QByteArray podCgroupDir(CgroupLayout layout, const QString &uid, const QString &qosClass)
{
    const bool guaranteed = qosClass == QLatin1String("Guaranteed");
    const QByteArray qos = qosClass == QLatin1String("BestEffort") ? "besteffort" : "burstable";
    if (layout == CgroupLayout::V2Systemd || layout == CgroupLayout::V1Systemd) {
        QByteArray u = uid.toLatin1();
        u.replace('-', '_');
        return "/kubepods.slice/" + (guaranteed ? QByteArray() : "kubepods-" + qos + ".slice/") +
               "kubepods-" + (guaranteed ? QByteArray() : qos + '-') + "pod" + u + ".slice";
    }
    return "/kubepods/" + (guaranteed ? QByteArray() : qos + '/') + "pod" + uid.toLatin1();
}

} // namespace

QByteArray migCommand()
{
    return section("miglist") + "nvidia-smi -L 2>&1; " + section("migxml") +
           "nvidia-smi -q -x 2>&1; ";
}

QByteArray cgroupLayoutCommand()
{
    QByteArray out;
    for (const LayoutProbe &p : layoutProbes)
        out += section(QByteArray(QByteArray("layout ") + p.name).constData()) + "cat " + p.file +
               " 2>&1; ";
    return out;
}

CgroupLayout layoutFromSection(const QByteArray &name)
{
    for (const LayoutProbe &p : layoutProbes)
        if (name == QByteArray("layout ") + p.name)
            return p.layout;
    return CgroupLayout::Unknown;
}

QByteArray podUsageCommand(CgroupLayout layout, const QList<PodRef> &pods)
{
    static const QRegularExpression uidRe(QStringLiteral("^[0-9A-Fa-f-]{1,64}$"));
    static const QStringList classes{QStringLiteral("Guaranteed"), QStringLiteral("Burstable"),
                                     QStringLiteral("BestEffort")};
    if (layout == CgroupLayout::Unknown)
        return QByteArray();
    const bool v2 = layout == CgroupLayout::V2Systemd || layout == CgroupLayout::V2Cgroupfs;
    QByteArray out;
    for (const PodRef &p : pods) {
        if (!uidRe.match(p.uid).hasMatch() || !classes.contains(p.qosClass))
            continue;
        const QByteArray dir = podCgroupDir(layout, p.uid, p.qosClass);
        out += section(QByteArray("pod " + p.uid.toLatin1()).constData()) + "cat ";
        if (v2)
            out += shellQuote("/sys/fs/cgroup" + dir + "/cpu.stat") + ' ' +
                   shellQuote("/sys/fs/cgroup" + dir + "/memory.current") + ' ' +
                   shellQuote("/sys/fs/cgroup" + dir + "/memory.stat");
        else
            out += shellQuote("/sys/fs/cgroup/cpu,cpuacct" + dir + "/cpuacct.usage") + ' ' +
                   shellQuote("/sys/fs/cgroup/memory" + dir + "/memory.usage_in_bytes") + ' ' +
                   shellQuote("/sys/fs/cgroup/memory" + dir + "/memory.stat");
        out += " 2>&1; ";
    }
    return out;
}

QByteArray kernelLogCommand()
{
    // Kernel messages and ISO times are not localised: no locale is forced (probeCommand).
    return QByteArrayLiteral("dmesg --time-format iso");
}

QByteArray cgroupCommand(const QList<qint64> &pids)
{
    QByteArray out;
    for (qint64 pid : pids) {
        if (pid <= 0)
            continue; // never interpolate anything but a positive number
        const QByteArray n = QByteArray::number(pid);
        out += "echo " + QByteArray(SectionMarker) + "pid " + n + "; cat " +
               shellQuote("/proc/" + n + "/cgroup") + " 2>&1; echo " + QByteArray(SectionMarker) +
               "pidstat " + n + "; cat " + shellQuote("/proc/" + n + "/stat") + " 2>&1; ";
    }
    return out;
}

QByteArray proxyJumpCommand(const QString &jump, const QString &host, int port,
                            const QString &sshConfigFile, QString *error)
{
    // user@host:port hops, comma-separated, IPv6 in brackets; nothing a shell would act on.
    static const QRegularExpression hop(QStringLiteral(
        "^([A-Za-z0-9._-]+@)?(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9._-]+)(:[0-9]{1,5})?$"));
    static const QRegularExpression hostRe(QStringLiteral("^[A-Za-z0-9._:-]+$"));
    const QStringList hops = jump.split(u',', Qt::SkipEmptyParts);
    for (const QString &h : hops) {
        if (!hop.match(h).hasMatch()) {
            *error =
                QCoreApplication::translate("nodecmd", "The jump host \"%1\" is not a host name.")
                    .arg(h);
            return QByteArray();
        }
    }
    if (hops.isEmpty() || !hostRe.match(host).hasMatch() || port <= 0 || port > 65535) {
        *error = QCoreApplication::translate("nodecmd", "Cannot build a jump to %1:%2.")
                     .arg(host)
                     .arg(port);
        return QByteArray();
    }
    // As OpenSSH runs ProxyJump: the last hop is the one that opens the tunnel; earlier hops go
    // through -J. BatchMode: the jump never prompts on a terminal nobody sees.
    QByteArray cmd = "exec ssh -o BatchMode=yes";
    if (!sshConfigFile.isEmpty())
        cmd += " -F " + shellQuote(sshConfigFile.toLocal8Bit());
    if (hops.size() > 1)
        cmd += " -J " + shellQuote(hops.mid(0, hops.size() - 1).join(u',').toUtf8());
    cmd += " -W " + shellQuote(QStringLiteral("[%1]:%2").arg(host).arg(port).toUtf8()) + ' ' +
           shellQuote(hops.last().toUtf8());
    return cmd;
}

QList<Section> splitSections(const QByteArray &output)
{
    QList<Section> out;
    const QByteArray marker(SectionMarker);
    qsizetype pos = 0;
    while (pos < output.size()) {
        qsizetype eol = output.indexOf('\n', pos);
        if (eol < 0)
            eol = output.size();
        const QByteArrayView line(output.constData() + pos, eol - pos);
        if (line.startsWith(marker)) {
            const QByteArray name = line.sliced(marker.size()).toByteArray().trimmed();
            if (name == "failed" && !out.isEmpty())
                out.last().name += " failed";
            else
                out.append(Section{name, {}});
        } else if (!out.isEmpty()) {
            out.last().body.append(line.data(), line.size()).append('\n');
        }
        pos = eol + 1;
    }
    return out;
}

} // namespace gpudesk::nodecmd
