// SPDX-License-Identifier: GPL-3.0-or-later
#include "podlogs.h"

#include "objectfactory.h"

#include <QDateTime>
#include <QTimeZone>

#include <vector>

namespace sim {

using nlohmann::json;

namespace {

quint64 mix(quint64 a, quint64 b)
{
    quint64 x = a ^ (b + 0x9e3779b97f4a7c15ULL + (a << 6) + (a >> 2));
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

qint64 parseTime(const json &v)
{
    if (!v.is_string())
        return 0;
    return QDateTime::fromString(QString::fromStdString(v.get<std::string>()), Qt::ISODate)
        .toMSecsSinceEpoch();
}

// An MPI job's workers as its launcher's hostfile names them (the MPI operator's headless
// service): NAME-worker-I.NAME-worker.NAMESPACE.svc.
QByteArray mpiWorkerHost(const LogSpec &s, int i)
{
    const QByteArray job =
        s.pod.chopped(s.pod.endsWith(QLatin1String("-launcher")) ? 9 : 0).toUtf8();
    return job + "-worker-" + QByteArray::number(i) + '.' + job + "-worker.user-" +
           s.user.toUtf8() + ".svc";
}

std::vector<QByteArray> preamble(const LogSpec &s)
{
    const QByteArray pod = s.pod.toUtf8();
    const QByteArray user = s.user.toUtf8();
    if (s.failure == Failure::MpiSsh)
        return {"+ mpirun --allow-run-as-root -np 2 -bind-to none -map-by slot -x NCCL_DEBUG=INFO "
                "-x LD_LIBRARY_PATH -x PATH python /mnt/user/" +
                user + "/code/train_hvd.py"};
    switch (s.profile) {
    case Profile::CrashSymlink:
        if (!s.script.isEmpty()) // bash cannot open the script it was given
            return {"bash: " + s.script + ": No such file or directory"};
        return {"+ cd /workspace", "+ ls -l /workspace/start.sh",
                "lrwxrwxrwx 1 root root 41 Nov 20 09:12 /workspace/start.sh -> /mnt/user/" + user +
                    "/old-project/start.sh",
                "+ exec /workspace/start.sh",
                "/bin/bash: line 1: /workspace/start.sh: No such file or directory"};
    case Profile::DevEnv:
        return {"[I ServerApp] jupyter_lsp | extension was successfully linked.",
                "[I ServerApp] Serving notebooks from local directory: /mnt/user/" + user,
                "[I ServerApp] Jupyter Server 2.7.3 is running at:",
                "[I ServerApp] http://" + pod + ":8888/lab",
                "[I ServerApp] Use Control-C to stop this server.",
                "Server listening on 0.0.0.0 port 22.",
                "code-server: HTTP server listening on http://0.0.0.0:8080/"};
    case Profile::Cpu:
        return {"INFO preprocess: reading manifest /mnt/share/" + user + "/raw/manifest.jsonl",
                "INFO preprocess: 4000 shards to write, 32 workers"};
    default: {
        // NCCL's words as 2.18 prints them with NCCL_DEBUG=INFO.
        std::vector<QByteArray> lines{
            "INFO torch.distributed: initializing process group backend=nccl",
            pod + ":1:1 [0] NCCL INFO Bootstrap : Using eth0:10.244.0.1<0>"};
        switch (s.nccl) {
        case LogSpec::Nccl::Ib:
            lines.push_back(pod + ":1:1 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/RoCE [RO]; OOB "
                                  "eth0:10.244.0.1<0>");
            lines.push_back(pod + ":1:1 [0] NCCL INFO Using network IB");
            break;
        case LogSpec::Nccl::IbDisabled:
            lines.push_back(pod + ":1:1 [0] NCCL INFO NCCL_IB_DISABLE set by environment to 1.");
            lines.push_back(pod + ":1:1 [0] NCCL INFO NET/Socket : Using [0]eth0:10.244.0.1<0>");
            lines.push_back(pod + ":1:1 [0] NCCL INFO Using network Socket");
            break;
        case LogSpec::Nccl::Socket:
            lines.push_back(pod + ":1:1 [0] NCCL INFO NET/IB : No device found.");
            lines.push_back(pod + ":1:1 [0] NCCL INFO NET/Socket : Using [0]eth0:10.244.0.1<0>");
            lines.push_back(pod + ":1:1 [0] NCCL INFO Using network Socket");
            break;
        }
        lines.push_back("INFO train.py: loading dataset from /mnt/share/" + user + "/datasets");
        lines.push_back("INFO train.py: model parameters: 1.3B, mixed precision bf16");
        lines.push_back("Epoch 1/50");
        return lines;
    }
    }
}

// The last lines of a planted failure, as the programs print them.
std::vector<QByteArray> failureLines(const LogSpec &s)
{
    const QByteArray pod = s.pod.toUtf8();
    const QByteArray user = s.user.toUtf8();
    switch (s.failure) {
    case Failure::GpuOutOfMemory:
        return {
            "Traceback (most recent call last):",
            "  File \"/workspace/train.py\", line 188, in <module>", "    outputs = model(**batch)",
            "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 "
            "has a total capacty of 23.65 GiB of which 1.06 GiB is free. Process 4121 has 22.58 "
            "GiB memory in use. Of the allocated memory 21.90 GiB is allocated by PyTorch."};
    case Failure::NcclTimeout:
        return {"[E ProcessGroupNCCL.cpp:475] [Rank 1] Watchdog caught collective operation "
                "timeout: WorkNCCL(SeqNum=20817, OpType=ALLREDUCE, NumelIn=262144000, "
                "NumelOut=262144000, Timeout(ms)=1800000) ran for 1800541 milliseconds before "
                "timing out.",
                "[E ProcessGroupNCCL.cpp:916] [Rank 1] NCCL watchdog thread terminated with "
                "exception: [Rank 1] Watchdog caught collective operation timeout"};
    case Failure::RankUnset:
        return {"Traceback (most recent call last):",
                "  File \"/workspace/train_ddp.py\", line 31, in <module>",
                "    dist.init_process_group(backend=\"nccl\", init_method=\"env://\")",
                "ValueError: Error initializing torch.distributed using env:// rendezvous: "
                "environment variable RANK expected, but not set"};
    case Failure::ModuleMissing:
        return {"Traceback (most recent call last):",
                "  File \"/workspace/finetune.py\", line 7, in <module>",
                "    from flash_attn import flash_attn_func",
                "ModuleNotFoundError: No module named 'flash_attn'"};
    case Failure::DataPathMissing:
        return {"Traceback (most recent call last):",
                "  File \"/workspace/train.py\", line 52, in <module>",
                "    train_set = ImageFolder(args.data)",
                "FileNotFoundError: [Errno 2] No such file or directory: '/mnt/share/" + user +
                    "/imagenet/train'"};
    case Failure::DriverTooOld:
        return {"Traceback (most recent call last):",
                "  File \"/workspace/train.py\", line 12, in <module>",
                "    torch.cuda.set_device(local_rank)",
                "RuntimeError: The NVIDIA driver on your system is too old (found version 11040). "
                "Please update your GPU driver by downloading and installing a new version from "
                "the URL: http://www.nvidia.com/Download/index.aspx"};
    case Failure::OutOfMemory:
        return {"INFO tokenize: " + pod + " loaded 48000000 documents into memory"};
    case Failure::EccUncorrectable:
        return {"Traceback (most recent call last):",
                "  File \"/workspace/train.py\", line 203, in <module>",
                "    optimizer.step()",
                "RuntimeError: CUDA error: uncorrectable ECC error encountered",
                "CUDA kernel errors might be asynchronously reported at some other API call, so "
                "the stacktrace below might be incorrect.",
                "For debugging consider passing CUDA_LAUNCH_BLOCKING=1.",
                "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions."};
    case Failure::MpiSsh:
        if (!s.mpiOverSsh)
            // The training operator's kubexec.sh (`kubectl exec` into the worker) runs orted
            // there; the worker's container is not there to exec into.
            return {"+ POD_NAME=" + mpiWorkerHost(s, 1).left(mpiWorkerHost(s, 1).indexOf('.')),
                    "+ shift",
                    "+ /opt/kube/kubectl exec " +
                        mpiWorkerHost(s, 1).left(mpiWorkerHost(s, 1).indexOf('.')) +
                        " -- /bin/sh -c orted -mca ess \"env\" -mca plm_rsh_agent "
                        "\"/etc/mpi/kubexec.sh\" -mca orte_default_hostfile \"/etc/mpi/hostfile\"",
                    "error: unable to upgrade connection: container not found (\"worker\")",
                    "--------------------------------------------------------------------------",
                    "ORTE was unable to reliably start one or more daemons.",
                    "This usually is caused by:",
                    "",
                    "* lack of authority to execute on one or more specified nodes.",
                    "  Please verify your allocation and authorities.",
                    "--------------------------------------------------------------------------"};
        // Open MPI 4's words: ssh's own line for the worker it could not reach, then ORTE's
        // banner (trimmed of its last causes, as the tail shows it).
        return {"ssh: connect to host " + mpiWorkerHost(s, 1) + " port 22: Connection refused",
                "--------------------------------------------------------------------------",
                "ORTE was unable to reliably start one or more daemons.",
                "This usually is caused by:",
                "",
                "* not finding the required libraries and/or binaries on",
                "  one or more nodes. Please check your PATH and LD_LIBRARY_PATH",
                "  settings, or configure OMPI with --enable-orterun-prefix-by-default",
                "",
                "* lack of authority to execute on one or more specified nodes.",
                "  Please verify your allocation and authorities.",
                "",
                "* an inability to create a connection back to mpirun due to a",
                "  lack of common network interfaces and/or no route found between",
                "  them. Please check network connectivity (including firewalls",
                "  and network routing requirements).",
                "--------------------------------------------------------------------------",
                "ORTE does not know how to route a message to the specified daemon",
                "located on the indicated node:",
                "",
                "  my node:   " + pod,
                "  target node:  " + mpiWorkerHost(s, 0),
                "--------------------------------------------------------------------------"};
    case Failure::None:
        break;
    }
    return {};
}

std::vector<QByteArray> epilogue(const LogSpec &s)
{
    if (s.failure != Failure::None && s.failed)
        return failureLines(s);
    switch (s.profile) {
    case Profile::ShmError:
        return {"ERROR: Unexpected bus error encountered in worker. This might be caused by "
                "insufficient shared memory (shm).",
                "Traceback (most recent call last):",
                "  File \"/opt/conda/lib/python3.10/site-packages/torch/utils/data/dataloader.py"
                "\", line 1132, in _try_get_data",
                "    data = self._data_queue.get(timeout=timeout)",
                "  File \"/opt/conda/lib/python3.10/multiprocessing/queues.py\", line 113, in get",
                "    if not self._poll(timeout):",
                "RuntimeError: DataLoader worker (pid 2345) is killed by signal: Bus error. It is "
                "possible that dataloader's workers are out of shared memory. Please try to raise "
                "your shared memory limit."};
    case Profile::CrashSymlink:
        return {};
    default:
        if (s.failed)
            return {"Traceback (most recent call last):",
                    "  File \"/workspace/train.py\", line 214, in <module>", "    loss.backward()",
                    "RuntimeError: CUDA error: an illegal memory access was encountered",
                    "CUDA kernel errors might be asynchronously reported at some other API call, "
                    "so the stacktrace below might be incorrect."};
        return {"INFO train.py: training finished, saved checkpoint to /mnt/user/" +
                s.user.toUtf8() + "/checkpoints/final.pt"};
    }
}

// Lines after the preamble, written every interval while the container runs.
qint64 periodicCount(const LogSpec &s, qint64 untilMs)
{
    if (s.failure == Failure::MpiSsh)
        return 0; // mpirun says nothing while ssh tries the workers
    switch (s.profile) {
    case Profile::CrashSymlink:
    case Profile::ImagePull:
        return 0;
    case Profile::Idle:
        return std::min<qint64>(3, std::max<qint64>(0, (untilMs - s.startMs) / s.intervalMs));
    default:
        return std::max<qint64>(0, (untilMs - s.startMs) / s.intervalMs);
    }
}

} // namespace

std::optional<LogSpec> PodLogs::spec(const json &pod, const Behavior &behavior, QString container,
                                     bool previous, bool nodeRdma, int *code, QString *message)
{
    const QString podName = QString::fromStdString(pod["metadata"].value("name", ""));
    const auto &containers = sub(pod["spec"], "containers");
    if (container.isEmpty()) {
        if (containers.size() != 1) {
            QStringList names;
            for (const auto &c : containers)
                names << QString::fromStdString(c.value("name", ""));
            *code = 400;
            *message = QStringLiteral("a container name must be specified for pod %1, choose one "
                                      "of: [%2]")
                           .arg(podName, names.join(u' '));
            return std::nullopt;
        }
        container = QString::fromStdString(containers[0].value("name", ""));
    }
    const json *status = nullptr;
    for (const auto &cs : sub(sub(pod, "status"), "containerStatuses")) {
        if (cs.value("name", "") == container.toStdString())
            status = &cs;
    }
    bool known = false;
    for (const auto &c : containers)
        known |= c.value("name", "") == container.toStdString();
    if (!known) {
        *code = 400;
        *message = QStringLiteral("container %1 is not valid for pod %2").arg(container, podName);
        return std::nullopt;
    }
    LogSpec s;
    s.profile = behavior.profile;
    s.failure = behavior.failure;
    for (const auto &ref : sub(pod["metadata"], "ownerReferences"))
        if (ref.value("kind", "") == "MPIJob" && ref.value("apiVersion", "") == "kubeflow.org/v1")
            s.mpiOverSsh = false;
    for (const auto &c : containers)
        if (c.value("name", "") == container.toStdString()) {
            const json &command = sub(c, "command");
            if (command.size() >= 2 && command[0].is_string() && command[1].is_string() &&
                (command[0] == "bash" || command[0] == "/bin/bash" || command[0] == "sh") &&
                command[1].get<std::string>().rfind('-', 0) != 0)
                s.script = QByteArray::fromStdString(command[1].get<std::string>());
        }
    if (nodeRdma) {
        s.nccl = LogSpec::Nccl::Ib;
        for (const auto &c : containers)
            if (c.value("name", "") == container.toStdString())
                for (const auto &v : sub(c, "env"))
                    if (v.value("name", "") == "NCCL_IB_DISABLE" && v.value("value", "") == "1")
                        s.nccl = LogSpec::Nccl::IbDisabled;
    }
    s.seed = behavior.seed;
    s.pod = podName;
    s.container = container;
    s.user =
        QString::fromStdString(sub(pod["metadata"], "labels").value("gpudesk.io/user", "root"));
    s.intervalMs = behavior.profile == Profile::Chatty   ? 50
                   : behavior.profile == Profile::DevEnv ? 300000
                                                         : 2000;
    const json state =
        status ? status->value(previous ? "lastState" : "state", json::object()) : json::object();
    if (previous) {
        if (!state.contains("terminated")) {
            *code = 400;
            *message = QStringLiteral("previous terminated container \"%1\" in pod \"%2\" not "
                                      "found")
                           .arg(container, podName);
            return std::nullopt;
        }
    }
    if (state.contains("running")) {
        s.startMs = parseTime(state["running"]["startedAt"]);
    } else if (state.contains("terminated")) {
        s.startMs = parseTime(state["terminated"]["startedAt"]);
        s.endMs = parseTime(state["terminated"]["finishedAt"]);
        s.failed = state["terminated"].value("exitCode", 0) != 0;
    } else if (!previous && status && status->contains("lastState") &&
               (*status)["lastState"].contains("terminated")) {
        // Waiting again after a crash: the kubelet still serves the last instance's log.
        const auto &t = (*status)["lastState"]["terminated"];
        s.startMs = parseTime(t["startedAt"]);
        s.endMs = parseTime(t["finishedAt"]);
        s.failed = t.value("exitCode", 0) != 0;
    } else {
        const std::string reason = state.contains("waiting")
                                       ? state["waiting"].value("reason", "ContainerCreating")
                                       : std::string("ContainerCreating");
        *code = 400;
        if (reason == "ImagePullBackOff" || reason == "ErrImagePull")
            *message = QStringLiteral("container \"%1\" in pod \"%2\" is waiting to start: "
                                      "trying and failing to pull image")
                           .arg(container, podName);
        else
            *message = QStringLiteral("container \"%1\" in pod \"%2\" is waiting to start: %3")
                           .arg(container, podName, QString::fromStdString(reason));
        return std::nullopt;
    }
    return s;
}

qint64 PodLogs::lineCount(const LogSpec &s, qint64 nowMs)
{
    const qint64 until = s.endMs >= 0 ? std::min(s.endMs, nowMs) : nowMs;
    if (until < s.startMs)
        return 0;
    const qint64 n = qint64(preamble(s).size()) + periodicCount(s, until);
    return s.endMs >= 0 && nowMs >= s.endMs ? n + qint64(epilogue(s).size()) : n;
}

qint64 PodLogs::lineTimeMs(const LogSpec &s, qint64 index)
{
    const qint64 pre = qint64(preamble(s).size());
    if (index < pre)
        return s.startMs + index * 37;
    const qint64 periodic = periodicCount(s, s.endMs >= 0 ? s.endMs : INT64_MAX / 2);
    if (index < pre + periodic)
        return s.startMs + (index - pre + 1) * s.intervalMs;
    return (s.endMs >= 0 ? s.endMs : s.startMs) - 5 + (index - pre - periodic);
}

QByteArray PodLogs::line(const LogSpec &s, qint64 index)
{
    const auto pre = preamble(s);
    if (index < qint64(pre.size()))
        return pre[size_t(index)];
    const qint64 k = index - qint64(pre.size());
    const qint64 periodic = periodicCount(s, s.endMs >= 0 ? s.endMs : INT64_MAX / 2);
    if (k >= periodic) {
        const auto epi = epilogue(s);
        const qint64 e = k - periodic;
        return e < qint64(epi.size()) ? epi[size_t(e)] : QByteArray();
    }
    const quint64 h = mix(s.seed, quint64(k));
    switch (s.profile) {
    case Profile::DevEnv:
        return "[I ServerApp] Saving file at /mnt/user/" + s.user.toUtf8() + "/notebook-" +
               QByteArray::number(h % 7) + ".ipynb";
    case Profile::Cpu:
        return "INFO preprocess: wrote shard " + QByteArray::number(k + 1) + "/4000 (" +
               QByteArray::number(200 + h % 60) + " MB)";
    case Profile::Idle:
        return "INFO serve.py: model loaded, waiting for requests on :8000";
    default: {
        const qint64 stepsPerEpoch = 5000;
        const qint64 step = (k * 10) % stepsPerEpoch;
        const qint64 epoch = (k * 10) / stepsPerEpoch + 1;
        const double loss = 2.8 / (1.0 + double(k) / 400.0) + double(h % 1000) / 20000.0;
        const double throughput = s.profile == Profile::Starved ? 90.0 + double(h % 400) / 10.0
                                                                : 780.0 + double(h % 900) / 10.0;
        return "epoch " + QByteArray::number(epoch) + " step " + QByteArray::number(step) + '/' +
               QByteArray::number(stepsPerEpoch) + " loss=" + QByteArray::number(loss, 'f', 4) +
               " lr=3.00e-04 throughput=" + QByteArray::number(throughput, 'f', 1) + " samples/s";
    }
    }
}

QByteArray PodLogs::timestamp(qint64 ms)
{
    // RFC 3339 with nanoseconds, as the kubelet writes with timestamps=true.
    const QDateTime t = QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
    return t.toString(QStringLiteral("yyyy-MM-ddThh:mm:ss.zzz")).toLatin1() + "000000Z";
}

} // namespace sim
