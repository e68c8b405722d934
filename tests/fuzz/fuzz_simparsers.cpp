// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target for the simulator's parsers of outside input: label and field selectors (from
// query strings) and the node shell (from SSH exec requests). Built with libFuzzer under clang
// (-DGPUDESK_FUZZ=ON); otherwise replaymain.cpp runs it on the corpus files given as arguments.
#include "nodemachine.h"
#include "nodetools.h"
#include "selectors.h"

#include <QString>

#include <cstdint>

namespace {

sim::MachineRegistry &registry()
{
    static sim::MachineRegistry m;
    static const bool filled = [] {
        sim::NodeMachine n;
        n.name = "n1";
        n.hostname = "n1";
        n.gpuProduct = "NVIDIA GeForce RTX 4090";
        n.memoryTotalMiB = 24564;
        n.cpus = 8;
        n.memTotalKb = 1 << 24;
        n.cgroupStyle = "v2-systemd-containerd";
        for (int i = 0; i < 2; ++i) {
            sim::GpuCard c;
            c.index = i;
            c.uuid = "GPU-" + std::to_string(i);
            c.busId = "00000000:18:00.0";
            n.cards.push_back(c);
        }
        n.processes.push_back({4242, 0, 1000, "python", "0::/\n", "", "", "", true});
        n.disks = {{"/dev/sda1", "/", 1000, 500}};
        m.put(n);
        return true;
    }();
    (void)filled;
    return m;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    QString error;
    if (auto l = sim::LabelSelector::parse(text, &error))
        (void)l->matches(nlohmann::json{{"a", "b"}});
    if (auto f = sim::FieldSelector::parse(text, QStringLiteral("pods"), &error))
        (void)f->matches(nlohmann::json{{"metadata", {{"name", "x"}}}});
    sim::NodeTools tools(&registry());
    const auto out = tools.run("n1", std::string(reinterpret_cast<const char *>(data), size), 0);
    // Every command ends with a status a shell could give.
    if (out.status < 0 || out.status > 255)
        __builtin_trap();
    return 0;
}
