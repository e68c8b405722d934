// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target for what a node answers the probe over SSH: the whole answer through the section
// splitter (nvidia-smi's GPU, compute-app, MIG list and XML outputs, /proc/stat, meminfo,
// loadavg, uptime, df, the processes' stat lines), the cgroup answer, and each parser alone on
// the same bytes. A driver's odd output or a hostile node must give flagged samples, never a
// crash.
#include "nodeprobe.h"
#include "probeparsers.h"

#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace gpudesk;
    const QByteArray text =
        QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
    NodeProbe probe(QStringLiteral("node-1"));
    NodeSample sample = probe.parseProbe(text, 1000);
    // A second sample reads rates against the first (CPU times), and cgroups against its PIDs.
    sample = probe.parseProbe(text, 3000);
    probe.unknownPids(sample);
    probe.applyCgroups(text, &sample);

    for (const int exitCode : {0, 9}) {
        probe::parseGpus(text, exitCode);
        probe::parseComputeApps(text, exitCode);
    }
    const auto list = probe::parseGpuList(text);
    const probe::MigXml xml = probe::parseMigXml(text);
    NodeProbe::joinMig(list, xml, &sample);
    probe::parseProcStat(text);
    probe::parseMeminfo(text);
    probe::parseLoadavg(text);
    probe::parseDf(text);
    probe::parseCgroup(text);
    probe::parsePidStat(text);
    probe::parseUptime(text);
    for (const CgroupLayout l : {CgroupLayout::V2Systemd, CgroupLayout::V2Cgroupfs,
                                 CgroupLayout::V1Systemd, CgroupLayout::V1Cgroupfs})
        probe::parsePodCgroup(text, l);
    return 0;
}
