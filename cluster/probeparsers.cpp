// SPDX-License-Identifier: GPL-3.0-or-later
#include "probeparsers.h"

#include <QRegularExpression>
#include <QXmlStreamReader>

namespace gpudesk::probe {

namespace {

// nvidia-smi's markers for a value it cannot give.
bool missing(const QByteArray &v)
{
    return v.isEmpty() || v.startsWith('[') || v == "N/A";
}

std::optional<qint64> integer(const QByteArray &v)
{
    if (missing(v))
        return std::nullopt;
    bool ok = false;
    const qint64 n = v.toLongLong(&ok);
    return ok ? std::optional<qint64>(n) : std::nullopt;
}

std::optional<int> small(const QByteArray &v)
{
    const auto n = integer(v);
    return n ? std::optional<int>(int(*n)) : std::nullopt;
}

std::optional<double> real(const QByteArray &v)
{
    if (missing(v))
        return std::nullopt;
    bool ok = false;
    const double d = v.toDouble(&ok);
    return ok ? std::optional<double>(d) : std::nullopt;
}

// The states nvidia-smi reports in words instead of rows. Shared by both queries.
template <typename T> bool nodeState(const QByteArray &output, int exitCode, NvidiaSmiResult<T> *r)
{
    const QByteArray trimmed = output.trimmed();
    if (exitCode == 127 || trimmed.contains("nvidia-smi: not found") ||
        trimmed.contains("nvidia-smi: command not found")) {
        r->state = NvidiaSmiResult<T>::NoNvidiaSmi;
        r->message = QStringLiteral("nvidia-smi: not found");
        return true;
    }
    if (trimmed.startsWith("NVIDIA-SMI has failed")) {
        r->state = NvidiaSmiResult<T>::DriverFailed;
        r->message = QString::fromUtf8(trimmed.split('\n').value(0));
        return true;
    }
    if (trimmed.startsWith("No devices were found")) {
        r->state = NvidiaSmiResult<T>::NoDevices;
        r->message = QString::fromUtf8(trimmed.split('\n').value(0));
        return true;
    }
    if (exitCode != 0) {
        r->state = NvidiaSmiResult<T>::Failed;
        r->message = QString::fromUtf8(trimmed.left(500));
        return true;
    }
    return false;
}

QList<QByteArray> fields(const QByteArray &line, int count)
{
    // ", " separates fields; the last one (a process name) may itself hold commas.
    QList<QByteArray> out;
    qsizetype start = 0;
    while (out.size() < count - 1) {
        const qsizetype at = line.indexOf(',', start);
        if (at < 0)
            break;
        out.append(line.mid(start, at - start).trimmed());
        start = at + 1;
    }
    out.append(line.mid(start).trimmed());
    return out;
}

} // namespace

NvidiaSmiResult<GpuCardSample> parseGpus(const QByteArray &output, int exitCode)
{
    NvidiaSmiResult<GpuCardSample> r;
    if (nodeState(output, exitCode, &r))
        return r;
    for (const QByteArray &raw : output.split('\n')) {
        const QByteArray line = raw.trimmed();
        if (line.isEmpty())
            continue;
        const QList<QByteArray> f = fields(line, 14);
        const auto index = small(f.value(0));
        if ((f.size() != 13 && f.size() != 14) || !index || !f[1].startsWith("GPU-")) {
            ++r.skippedLines;
            continue;
        }
        GpuCardSample c;
        c.index = *index;
        c.uuid = QString::fromLatin1(f[1]);
        c.name = QString::fromUtf8(f[2]);
        c.busId = QString::fromLatin1(f[3]);
        c.utilization = small(f[4]);
        c.memoryUtilization = small(f[5]);
        c.memoryUsedMiB = integer(f[6]);
        c.memoryTotalMiB = integer(f[7]);
        c.temperatureC = small(f[8]);
        c.powerDrawW = real(f[9]);
        c.powerLimitW = real(f[10]);
        c.eccUncorrected = integer(f[11]);
        c.smClockMHz = small(f[12]);
        if (f.size() == 14) {
            const QByteArray mig = f[13].trimmed();
            if (mig == "Enabled")
                c.migEnabled = true;
            else if (mig == "Disabled")
                c.migEnabled = false;
        }
        r.rows.append(c);
    }
    return r;
}

QList<MigDeviceSample> parseGpuList(const QByteArray &output)
{
    static const QRegularExpression gpuLine(QStringLiteral("^GPU (\\d+): "));
    static const QRegularExpression migLine(
        QStringLiteral("^\\s+MIG\\s+(\\S+)\\s+Device\\s+(\\d+):\\s+\\(UUID:\\s*([^)\\s]+)\\)"));
    QList<MigDeviceSample> out;
    int gpu = -1;
    for (const QByteArray &raw : output.split('\n')) {
        const QString line = QString::fromUtf8(raw);
        if (const auto m = gpuLine.match(line); m.hasMatch()) {
            gpu = m.captured(1).toInt();
            continue;
        }
        const auto m = migLine.match(line);
        if (!m.hasMatch() || gpu < 0)
            continue;
        MigDeviceSample d;
        d.gpuIndex = gpu;
        d.profile = m.captured(1);
        d.index = m.captured(2).toInt();
        d.uuid = m.captured(3);
        out.append(d);
    }
    return out;
}

MigXml parseMigXml(const QByteArray &xml)
{
    MigXml out;
    QXmlStreamReader r(xml);
    int gpuOrdinal = -1, gpuIndex = -1;
    // The path of open elements below <gpu>, to read <mig_device>/<index> and not <pci>/…
    QStringList path;
    MigDeviceSample device;
    MigXml::Process process;
    auto number = [](const QString &t) {
        bool ok = false;
        const int n = t.trimmed().toInt(&ok);
        return ok ? n : -1;
    };
    auto mib = [](const QString &t) -> std::optional<qint64> {
        QString v = t.trimmed();
        if (!v.endsWith(QLatin1String(" MiB")))
            return std::nullopt;
        bool ok = false;
        const qint64 n = v.chopped(4).toLongLong(&ok);
        return ok ? std::optional<qint64>(n) : std::nullopt;
    };
    while (!r.atEnd()) {
        const auto token = r.readNext();
        if (token == QXmlStreamReader::StartElement) {
            const QString name = r.name().toString();
            if (name == QLatin1String("gpu") && path.isEmpty()) {
                ++gpuOrdinal;
                gpuIndex = gpuOrdinal; // the minor number, when given, says better
                path = {name};
                continue;
            }
            if (path.isEmpty())
                continue;
            path << name;
            if (name == QLatin1String("mig_device"))
                device = MigDeviceSample{gpuIndex};
            else if (name == QLatin1String("process_info"))
                process = MigXml::Process{gpuIndex};
            continue;
        }
        if (token == QXmlStreamReader::Characters && !path.isEmpty() && !r.isWhitespace()) {
            const QString text = r.text().toString();
            const QString leaf = path.last();
            const QString parent = path.value(path.size() - 2);
            if (path.size() == 2 && leaf == QLatin1String("minor_number") && number(text) >= 0)
                gpuIndex = number(text);
            if (path.contains(QLatin1String("mig_device"))) {
                if (parent == QLatin1String("mig_device") && leaf == QLatin1String("index"))
                    device.index = number(text);
                else if (parent == QLatin1String("mig_device") &&
                         leaf == QLatin1String("gpu_instance_id"))
                    device.gpuInstanceId = number(text);
                else if (parent == QLatin1String("mig_device") &&
                         leaf == QLatin1String("compute_instance_id"))
                    device.computeInstanceId = number(text);
                else if (parent == QLatin1String("fb_memory_usage") &&
                         leaf == QLatin1String("total"))
                    device.memoryTotalMiB = mib(text);
                else if (parent == QLatin1String("fb_memory_usage") &&
                         leaf == QLatin1String("used"))
                    device.memoryUsedMiB = mib(text);
            } else if (parent == QLatin1String("process_info")) {
                if (leaf == QLatin1String("pid"))
                    process.pid = number(text);
                else if (leaf == QLatin1String("gpu_instance_id"))
                    process.gpuInstanceId = number(text); // N/A on a card not in MIG mode: -1
                else if (leaf == QLatin1String("compute_instance_id"))
                    process.computeInstanceId = number(text);
            }
            continue;
        }
        if (token == QXmlStreamReader::EndElement && !path.isEmpty()) {
            const QString name = path.takeLast();
            if (name == QLatin1String("mig_device") && device.index >= 0) {
                device.gpuIndex = gpuIndex;
                out.devices.append(device);
            } else if (name == QLatin1String("process_info") && process.pid > 0 &&
                       process.gpuInstanceId >= 0) {
                process.gpuIndex = gpuIndex;
                out.processes.append(process);
            }
        }
    }
    if (r.hasError() && r.error() != QXmlStreamReader::PrematureEndOfDocumentError)
        out.error = r.errorString();
    else if (r.hasError())
        out.error = QStringLiteral("the XML ends early");
    return out;
}

NvidiaSmiResult<GpuProcessSample> parseComputeApps(const QByteArray &output, int exitCode)
{
    NvidiaSmiResult<GpuProcessSample> r;
    if (nodeState(output, exitCode, &r))
        return r;
    for (const QByteArray &raw : output.split('\n')) {
        const QByteArray line = raw.trimmed();
        if (line.isEmpty() || line.startsWith("No running"))
            continue;
        const QList<QByteArray> f = fields(line, 4);
        const auto pid = integer(f.value(1));
        if (f.size() != 4 || !f[0].startsWith("GPU-") || !pid || *pid <= 0) {
            ++r.skippedLines;
            continue;
        }
        GpuProcessSample p;
        p.gpuUuid = QString::fromLatin1(f[0]);
        p.pid = *pid;
        p.memoryMiB = integer(f[2]);
        p.name = missing(f[3]) ? QString() : QString::fromUtf8(f[3]);
        r.rows.append(p);
    }
    return r;
}

std::optional<CpuTimes> parseProcStat(const QByteArray &text)
{
    for (const QByteArray &line : text.split('\n')) {
        if (!line.startsWith("cpu "))
            continue;
        const QList<QByteArray> f = line.simplified().split(' ');
        if (f.size() < 5)
            return std::nullopt;
        quint64 v[8] = {};
        for (int i = 0; i < 8 && i + 1 < f.size(); ++i) {
            bool ok = false;
            v[i] = f[i + 1].toULongLong(&ok);
            if (!ok)
                return std::nullopt;
        }
        return CpuTimes{v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]};
    }
    return std::nullopt;
}

std::optional<MemInfo> parseMeminfo(const QByteArray &text)
{
    MemInfo m;
    bool total = false, available = false;
    for (const QByteArray &line : text.split('\n')) {
        const QList<QByteArray> f = line.simplified().split(' ');
        if (f.size() < 2)
            continue;
        bool ok = false;
        const qint64 kib = f[1].toLongLong(&ok);
        if (!ok)
            continue;
        if (f[0] == "MemTotal:") {
            m.totalKiB = kib;
            total = true;
        } else if (f[0] == "MemAvailable:") {
            m.availableKiB = kib;
            available = true;
        }
    }
    return total && available ? std::optional<MemInfo>(m) : std::nullopt;
}

std::optional<LoadAvg> parseLoadavg(const QByteArray &text)
{
    const QList<QByteArray> f = text.simplified().split(' ');
    if (f.size() < 3)
        return std::nullopt;
    bool a = false, b = false, c = false;
    const LoadAvg l{f[0].toDouble(&a), f[1].toDouble(&b), f[2].toDouble(&c)};
    return a && b && c ? std::optional<LoadAvg>(l) : std::nullopt;
}

QList<DiskUse> parseDf(const QByteArray &text)
{
    QList<DiskUse> out;
    for (const QByteArray &line : text.split('\n')) {
        const QList<QByteArray> f = line.simplified().split(' ');
        // Filesystem 1024-blocks Used Available Capacity Mounted-on (which may hold spaces).
        if (f.size() < 6 || !f[4].endsWith('%'))
            continue;
        DiskUse d;
        bool ok[4] = {};
        d.totalKiB = f[1].toLongLong(&ok[0]);
        d.usedKiB = f[2].toLongLong(&ok[1]);
        d.availableKiB = f[3].toLongLong(&ok[2]);
        d.percent = f[4].chopped(1).toInt(&ok[3]);
        if (!(ok[0] && ok[1] && ok[2] && ok[3]))
            continue; // the header, or a cut-off line
        d.filesystem = QString::fromUtf8(f[0]);
        d.mountPoint = QString::fromUtf8(f.mid(5).join(' '));
        out.append(d);
    }
    return out;
}

std::optional<PidStat> parsePidStat(const QByteArray &text)
{
    // "4242 (python train.py) S 1 4242 … starttime …": after the command's closing parenthesis
    // come state (field 3) and the rest; starttime is field 22, the 20th after the command.
    const QByteArray line = text.trimmed();
    const qsizetype open = line.indexOf('(');
    const qsizetype close = line.lastIndexOf(')');
    if (open <= 0 || close < open)
        return std::nullopt;
    bool ok = false;
    PidStat st;
    st.pid = line.left(open).trimmed().toLongLong(&ok);
    if (!ok || st.pid <= 0)
        return std::nullopt;
    const QList<QByteArray> f = line.mid(close + 1).simplified().split(' ');
    if (f.size() < 20 || f[0].size() != 1)
        return std::nullopt;
    st.state = f[0].at(0);
    st.startTicks = f[19].toLongLong(&ok);
    if (!ok || st.startTicks < 0)
        return std::nullopt;
    return st;
}

CgroupOwner parseCgroup(const QByteArray &text)
{
    // The pod: "pod<uid>" in the path, with '_' for '-' under the systemd driver. The
    // container: the last component, "cri-containerd-<id>.scope", "docker-<id>.scope",
    // "crio-<id>.scope" (systemd) or the bare id (cgroupfs).
    static const QRegularExpression pod(QStringLiteral(
        "pod([0-9a-f]{8}[-_][0-9a-f]{4}[-_][0-9a-f]{4}[-_][0-9a-f]{4}[-_][0-9a-f]{12})"));
    static const QRegularExpression container(
        QStringLiteral("/(?:(cri-containerd|docker|crio)-)?([0-9a-f]{64})(?:\\.scope)?$"));
    CgroupOwner owner;
    for (const QByteArray &raw : text.split('\n')) {
        // hierarchy-ID:controller-list:path; the path may contain ':' itself.
        const qsizetype second = raw.indexOf(':', raw.indexOf(':') + 1);
        if (second < 0)
            continue;
        const QString path = QString::fromUtf8(raw.mid(second + 1).trimmed());
        const auto p = pod.match(path);
        if (!p.hasMatch())
            continue;
        owner.podUid = p.captured(1).replace(u'_', u'-');
        const auto c = container.match(path);
        if (c.hasMatch()) {
            owner.containerId = c.captured(2);
            const QString prefix = c.captured(1);
            owner.runtime = prefix == QLatin1String("cri-containerd") ? QStringLiteral("containerd")
                            : prefix == QLatin1String("crio")         ? QStringLiteral("cri-o")
                                                                      : prefix;
        }
        if (!owner.containerId.isEmpty())
            break; // v1 repeats the same path for every controller
    }
    return owner;
}

QList<NetInterface> parseNetDev(const QByteArray &text)
{
    QList<NetInterface> out;
    for (const QByteArray &raw : text.split('\n')) {
        const qsizetype colon = raw.indexOf(':');
        if (colon <= 0 || raw.contains('|'))
            continue; // a header line, or not an interface's
        const QByteArray name = raw.left(colon).trimmed();
        const QList<QByteArray> fields = raw.mid(colon + 1).simplified().split(' ');
        // 8 receive counters, then 8 transmit ones; bytes first in each.
        bool rxOk = false, txOk = false;
        const qint64 rx = fields.value(0).toLongLong(&rxOk);
        const qint64 tx = fields.value(8).toLongLong(&txOk);
        if (name.isEmpty() || name.contains(' ') || fields.size() < 16 || !rxOk || !txOk)
            continue;
        out.append({QString::fromUtf8(name), rx, tx});
    }
    return out;
}

std::optional<double> parseUptime(const QByteArray &text)
{
    bool ok = false;
    const double secs = text.trimmed().split(' ').value(0).toDouble(&ok);
    return ok && secs > 0 ? std::optional<double>(secs) : std::nullopt;
}

std::optional<PodCgroupSample> parsePodCgroup(const QByteArray &text, CgroupLayout layout)
{
    if (layout == CgroupLayout::Unknown || text.contains("No such file") ||
        text.contains("Permission denied"))
        return std::nullopt;
    const bool v2 = layout == CgroupLayout::V2Systemd || layout == CgroupLayout::V2Cgroupfs;
    // The files come concatenated: bare numbers are the one-value files in the order they were
    // named; "key value" lines are cpu.stat's and memory.stat's.
    QList<qint64> bare;
    std::optional<qint64> usageUsec;
    std::optional<qint64> inactiveFile;
    const QByteArray inactiveKey = v2 ? "inactive_file" : "total_inactive_file";
    for (const QByteArray &raw : text.split('\n')) {
        const QByteArray line = raw.trimmed();
        if (line.isEmpty())
            continue;
        const qsizetype space = line.indexOf(' ');
        bool ok = false;
        if (space < 0) {
            const qint64 v = line.toLongLong(&ok);
            if (!ok || v < 0)
                return std::nullopt;
            bare.append(v);
            continue;
        }
        const QByteArray key = line.left(space);
        const qint64 v = line.mid(space + 1).trimmed().toLongLong(&ok);
        if (!ok)
            continue;
        if (key == "usage_usec" && !usageUsec)
            usageUsec = v;
        else if (key == inactiveKey && !inactiveFile)
            inactiveFile = v;
    }
    PodCgroupSample s;
    if (v2) {
        if (!usageUsec || bare.size() != 1)
            return std::nullopt;
        s.cpuUsageNs = quint64(*usageUsec) * 1000;
        s.memoryBytes = bare[0];
    } else {
        if (bare.size() != 2)
            return std::nullopt;
        s.cpuUsageNs = quint64(bare[0]);
        s.memoryBytes = bare[1];
    }
    s.workingSetBytes = qMax<qint64>(0, s.memoryBytes - inactiveFile.value_or(0));
    return s;
}

} // namespace gpudesk::probe
