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
    sim = subprocess.Popen([sim_bin, "--state-dir", state, "--speed", "0", "--no-ssh"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for line in sim.stdout:
            if "ready" in line:
                break
        kubeconfig = os.path.join(state, "kubeconfig")
        out = os.path.join(state, "report.json")
        run = subprocess.run([gpudesk, "--kubeconfig", kubeconfig, "--context", "sim-admin", "--report", out],
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
