#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`gpudesk --report` against a frozen gpudesk-sim: every figure of the report equals /sim/truth.
A researcher's context that may not list all pods fails with the API server's message."""
import json
import os
import subprocess
import sys
import tempfile

from kubernetes import client, config

gpudesk, sim_bin = sys.argv[1:]
results = []


def check(name, ok):
    results.append(ok)
    print(("ok   - " if ok else "FAIL - ") + name)


with tempfile.TemporaryDirectory() as state:
    sim = subprocess.Popen([sim_bin, "--state-dir", state, "--speed", "0"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for line in sim.stdout:
            if "ready" in line:
                break
        kubeconfig = os.path.join(state, "kubeconfig")
        out = os.path.join(state, "report.json")
        ssh_config = os.path.join(state, "ssh_config")
        run = subprocess.run([gpudesk, "--kubeconfig", kubeconfig, "--context", "sim-admin", "--report", out,
                              "--ssh-config", ssh_config],
                             capture_output=True, text=True, timeout=120)
        check(f"report exits 0 ({run.stdout.strip()})", run.returncode == 0)
        report = json.load(open(out))
        config.load_kube_config(config_file=kubeconfig, context="sim-admin")
        raw = client.ApiClient().call_api("/sim/truth", "GET", auth_settings=["BearerToken"],
                                          _preload_content=False)[0].data
        truth = json.loads(raw)

        check("cluster totals equal the truth",
              {k: report["gpus"][k] for k in ("total", "allocated", "free", "pendingDemand")}
              == {k: truth["gpus"][k] for k in ("total", "allocated", "free", "pendingDemand")})
        rn = {n["name"]: (n["ready"], n["schedulable"], n["gpuModel"], n["gpus"]["total"],
                          n["gpus"]["allocated"], n["gpus"]["free"]) for n in report["nodes"]}
        tn = {n["name"]: (n["ready"], n["schedulable"], n["gpuModel"], n["gpus"]["total"],
                          n["gpus"]["allocated"], n["gpus"]["free"]) for n in truth["nodes"]}
        check(f"per-node figures equal the truth ({len(rn)} nodes)", rn == tn)
        rq = {q["name"]: q["gpus"] for q in report["queues"]}
        tq = {q["name"]: q["gpus"] for q in truth["queues"]}
        check(f"per-queue capability and allocation equal the truth {rq}", rq == tq)
        ru = {u["name"]: u["gpus"]["allocated"] for u in report["users"]}
        tu = {u["name"]: u["gpus"]["allocated"] for u in truth["users"]}
        check(f"per-user allocation equals the truth ({len(ru)} users)", ru == tu)

        # Node telemetry over SSH: every node answered, and per card what the node says and the
        # process → pod → user join equal the truth, planted orphans and phantom card included.
        check("every node's SSH state is connected",
              all(n["sshState"] == "connected" for n in report["nodes"]))
        check(f"busy GPUs equal the truth ({report['gpus'].get('busy')})",
              report["gpus"].get("busy") == truth["gpus"]["busy"])

        def cards(nodes):
            return {(n["name"], c["index"]): (c["uuid"], c["utilization"], c["memoryUsedMiB"],
                                              c["memoryTotalMiB"], c["phantom"],
                                              sorted((p["pid"], p["memoryMiB"], p["pod"], p["namespace"], p["user"])
                                                     for p in c["processes"]))
                    for n in nodes for c in (n["cards"] or [])}
        rc, tc = cards(report["nodes"]), cards(truth["nodes"])
        diff = [k for k in set(rc) | set(tc) if rc.get(k) != tc.get(k)]
        check(f"per-card utilization, memory, phantom and processes equal the truth ({len(tc)} cards)"
              + (f"; differ: {[(k, rc.get(k), tc.get(k)) for k in sorted(diff)[:3]]}" if diff else ""),
              not diff and len(tc) > 0)
        orphans = [(n["name"], p["pid"]) for n in truth["nodes"] for c in n["cards"] for p in c["processes"] if p["orphan"]]
        unattributed = [(n["name"], p["pid"]) for n in report["nodes"] for c in (n["cards"] or [])
                        for p in c["processes"] if p["pod"] is None]
        check(f"the planted orphan processes are the unattributed ones {sorted(unattributed)}",
              len(orphans) > 0 and sorted(orphans) == sorted(unattributed))
        phantoms = [(n["name"], c["index"]) for n in report["nodes"] for c in (n["cards"] or []) if c["phantom"]]
        check(f"the phantom card is found {phantoms}", len(phantoms) > 0 and
              phantoms == [(n["name"], c["index"]) for n in truth["nodes"] for c in n["cards"] if c["phantom"]])
        # Each running GPU pod's own memory, read from its cgroup wherever the node's layout puts
        # it (v2 systemd, v1 systemd, v1 cgroupfs; Guaranteed and Burstable); no CPU rate without
        # time passing on the node (the simulator is frozen).
        def pods(nodes):
            return {(n["name"], p["uid"]): (p["pod"], p["namespace"], p["memoryWorkingSetMiB"])
                    for n in nodes for p in (n.get("pods") or []) if p.get("gpus", 1) > 0}
        rp, tp = pods(report["nodes"]), pods(truth["nodes"])
        qos = sorted({p["qosClass"] for n in truth["nodes"] for p in n["pods"]})
        check(f"every running pod's working set equals the truth ({len(tp)} pods, {qos})"
              + (f"; differ: {[(k, rp.get(k), tp.get(k)) for k in sorted(set(rp) ^ set(tp))[:3]]}"
                 if rp != tp else ""),
              rp == tp and len(tp) > 0 and len(qos) > 1)
        check("no CPU rate is claimed from a frozen clock",
              all(p["cpuCores"] is None for n in report["nodes"] for p in (n.get("pods") or [])))
        cpu_nodes = [n for n in report["nodes"] if n["gpus"]["total"] == 0]
        check("CPU nodes (no nvidia-smi) report no cards", cpu_nodes and all(n["cards"] == [] for n in cpu_nodes))

        nossh = subprocess.run([gpudesk, "--kubeconfig", kubeconfig, "--context", "sim-admin", "--report",
                                out + ".nossh", "--no-ssh"], capture_output=True, text=True, timeout=120)
        plain = json.load(open(out + ".nossh"))
        check("--no-ssh leaves telemetry out", nossh.returncode == 0 and "cards" not in plain["nodes"][0]
              and "busy" not in plain["gpus"])

        alice = subprocess.run([gpudesk, "--kubeconfig", kubeconfig, "--context", "sim-alice", "--report", out + ".alice"],
                               capture_output=True, text=True, timeout=120)
        check("a context without cluster-wide pod access fails, saying why",
              alice.returncode == 1 and 'User "alice" cannot list resource "pods"' in alice.stderr
              and not os.path.exists(out + ".alice"))
        bad = subprocess.run([gpudesk, "--kubeconfig", kubeconfig, "--context", "nope", "--report", out],
                             capture_output=True, text=True, timeout=60)
        check("an unknown context exits 2 with the kubeconfig's message",
              bad.returncode == 2 and 'context "nope" is not in the kubeconfig' in bad.stderr)
    finally:
        sim.terminate()
        sim.wait(timeout=30)

print(f"{results.count(True)} passed, {results.count(False)} failed")
sys.exit(0 if all(results) else 1)
