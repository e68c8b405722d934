#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`gpudesk --cleanup plan` and `apply` against a gpudesk-sim of their own, with a Prometheus
backfilled with the simulator's last day of DCGM metrics: the plan lists exactly the findings
/sim/truth planted (class, node, pod, GPUs; the idle pod idle for its 7 hours), changes nothing,
and without --yes and a terminal applies nothing; apply frees what the plan said, /sim/truth
then shows those findings gone, the results and the audit log say so, and a second plan is
empty. Exit codes as documented in docs/cleanup.md."""
import json
import os
import subprocess
import sys
import tempfile
from datetime import datetime, timezone

from kubernetes import client, config

gpudesk, sim_bin, sim_prometheus = sys.argv[1:]
results = []


def check(name, ok):
    results.append(ok)
    print(("ok   - " if ok else "FAIL - ") + name, flush=True)


def truth_of(kubeconfig):
    config.load_kube_config(config_file=kubeconfig, context="sim-admin")
    raw = client.ApiClient().call_api("/sim/truth", "GET", auth_settings=["BearerToken"],
                                      _preload_content=False)[0].data
    return json.loads(raw)


def key(f):
    # The pod's uid, not its name: a pod force-deleted long ago leaves its uid in its processes'
    # cgroup, but no name anywhere a client can read.
    return (f["class"], f["node"], f.get("podUid") or None)


CLASSES = "orphan-process,stuck-terminating,idle-gpus,finished-holding-gpus,on-notready-node"

with tempfile.TemporaryDirectory() as state, tempfile.TemporaryDirectory() as prom, \
        tempfile.TemporaryDirectory() as data:
    sim = subprocess.Popen([sim_bin, "--state-dir", state], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
    try:
        for line in sim.stdout:
            if "ready" in line:
                break
        subprocess.run([sim_prometheus, "start", prom, state], check=True, timeout=300)
        url = open(os.path.join(prom, "url")).read().strip()
        kubeconfig = os.path.join(state, "kubeconfig")
        env = dict(os.environ, XDG_DATA_HOME=data)
        base = [gpudesk, "--kubeconfig", kubeconfig, "--context", "sim-admin",
                "--ssh-config", os.path.join(state, "ssh_config"), "--prometheus", url]

        truth = truth_of(kubeconfig)
        planted = {key(f) for f in truth["findings"] if f["class"] in CLASSES.split(",")}
        check(f"the truth plants findings of every default class ({len(planted)})",
              {k[0] for k in planted} == set(CLASSES.split(",")))

        run = subprocess.run(base + ["--cleanup", "plan"], capture_output=True, text=True,
                             timeout=300, env=env, stdin=subprocess.DEVNULL)
        check(f"plan exits 0 ({run.stderr.strip().splitlines()[-1:]})", run.returncode == 0)
        plan = json.loads(run.stdout)
        check("a plan document", plan["schemaVersion"] == 1 and plan["kind"] == "gpudesk-cleanup-plan")
        found = {key(f) for f in plan["findings"]}
        # The simulated cluster goes on while the plan is made (minutes under a sanitizer): a dev
        # environment's last busy moment can pass the hour in between. What the truth says both
        # before and after must be found; nothing the truth never said may be.
        later = truth_of(kubeconfig)
        after = {key(f) for f in later["findings"] if f["class"] in CLASSES.split(",")}
        stable, ever = planted & after, planted | after
        # An extra one says what gpudesk saw: the evidence and where its "since" came from.
        extra = [(f["class"], f["node"], f.get("pod"), f.get("evidence"), f.get("sinceSource"))
                 for f in plan["findings"] if key(f) in found - ever]
        check(f"the findings are those the truth planted: missing {stable - found}, extra {extra}",
              stable <= found <= ever)
        byclass = {f["class"]: f for f in plan["findings"]}
        idle = [f for f in plan["findings"] if f["class"] == "idle-gpus" and f["pod"] == "idle-inference"]
        if idle:
            since = datetime.fromisoformat(idle[0]["since"].replace("Z", "+00:00"))
            hours = (datetime.now(timezone.utc) - since).total_seconds() / 3600
            check(f"idle-inference idle for its 7 hours by Prometheus ({hours:.2f} h, {idle[0]['sinceSource']})",
                  6.8 < hours < 7.2 and "Prometheus" in idle[0]["sinceSource"] and idle[0]["gpus"] == 4)
        else:
            check("idle-inference is listed as idle", False)
        tg = {key(f): f["gpus"] for f in later["findings"] + truth["findings"]}
        check("each finding holds the GPUs the truth says",
              all(f["gpus"] == tg.get(key(f)) for f in plan["findings"]))
        steps = plan["plan"]["steps"]
        check(f"every step was checked and the server would accept it ({len(steps)} steps)",
              steps and all(s["dryRun"] == "accepted" for s in steps))
        check("kills are forceful, and so the count must be typed",
              plan["plan"]["typedConfirmation"] and plan["plan"]["confirmation"] == str(len(steps)))
        check("planning changed nothing", {key(f) for f in truth_of(kubeconfig)["findings"]} >= stable)

        run = subprocess.run(base + ["--cleanup", "apply"], capture_output=True, text=True,
                             timeout=300, env=env, stdin=subprocess.DEVNULL)
        check(f"apply without --yes and without a terminal refuses (exit {run.returncode})",
              run.returncode == 2 and "--yes" in run.stderr)
        check("… and changed nothing", {key(f) for f in truth_of(kubeconfig)["findings"]} >= stable)

        run = subprocess.run(base + ["--cleanup", "apply", "--yes"], capture_output=True, text=True,
                             timeout=600, env=env, stdin=subprocess.DEVNULL)
        check(f"apply --yes exits 0 ({run.stderr.strip().splitlines()[-1:]})", run.returncode == 0)
        result = json.loads(run.stdout)
        check("a result document", result["kind"] == "gpudesk-cleanup-result")
        bad = [(r["target"]["name"], r["result"], r.get("message")) for r in result["results"]
               if r["result"] != "done"]
        check(f"every step done and verified ({len(result['results'])}; not done: {bad})", not bad)
        check("each verification says what was checked",
              all("gone" in r.get("verification", "") for r in result["results"]))
        after = {key(f) for f in truth_of(kubeconfig)["findings"]}
        check(f"the truth: none of the planned findings left ({after & found})", not (after & found))
        audit = os.path.join(data, "gpudesk", "gpudesk", "audit.jsonl")
        records = [json.loads(l) for l in open(audit)]
        check(f"the audit log has the run's start and end ({len(records)} records)",
              [r["event"] for r in records] == ["started", "ended"]
              and records[0]["who"] == result["who"] and records[1]["results"] == result["results"])

        run = subprocess.run(base + ["--cleanup", "plan"], capture_output=True, text=True,
                             timeout=300, env=env, stdin=subprocess.DEVNULL)
        again = json.loads(run.stdout)
        check(f"a second plan finds nothing of it ({[key(f) for f in again['findings']]})",
              not ({key(f) for f in again["findings"]} & found) and again["plan"]["steps"] == [])

        # Issue 33: a kubelet's blip. A node NotReady for seconds holds healthy jobs: Kubernetes
        # waits out their toleration (300 s) before it evicts, and so does a cleanup.
        def set_ready(node, ready):
            client.ApiClient().call_api("/sim/node", "POST", auth_settings=["BearerToken"],
                                        query_params=[("name", node), ("ready", ready)],
                                        _preload_content=False)

        def pods_on(node):
            pods = client.CoreV1Api().list_pod_for_all_namespaces(
                field_selector=f"spec.nodeName={node}").items
            return {p.metadata.uid: p.metadata.name for p in pods
                    if p.metadata.deletion_timestamp is None}

        before = pods_on("g4090-02")
        set_ready("g4090-02", "false")
        blip = [f["class"] for f in truth_of(kubeconfig)["findings"] if f["node"] == "g4090-02"]
        run = subprocess.run(base + ["--cleanup", "plan"], capture_output=True, text=True,
                             timeout=300, env=env, stdin=subprocess.DEVNULL)
        planned = [(f["class"], f.get("pod")) for f in json.loads(run.stdout)["findings"]
                   if f["node"] == "g4090-02"]
        check(f"a node NotReady for seconds: nothing on it to clean up (plan {planned}, "
              f"truth {blip})", run.returncode == 0 and not planned and "on-notready-node" not in blip)
        run = subprocess.run(base + ["--cleanup", "apply", "--yes"], capture_output=True,
                             text=True, timeout=600, env=env, stdin=subprocess.DEVNULL)
        # With no step to run, apply writes the (empty) plan, not a result.
        applied = json.loads(run.stdout)
        steps = applied.get("results", applied.get("plan", {}).get("steps", []))
        touched = [(r["target"].get("name"), r.get("result")) for r in steps
                   if r["target"].get("node") == "g4090-02" or r["target"].get("name") in before.values()]
        left = pods_on("g4090-02")
        check(f"… and apply --yes touches none of its {len(before)} pods (exit {run.returncode}, steps {touched}, "
              f"gone {sorted(set(before.values()) - set(left.values()))}, new uids {sorted(set(left) - set(before))}; {run.stderr.strip()[-300:]})",
              run.returncode == 0 and not touched and before.keys() <= left.keys() and bool(before))
        set_ready("g4090-02", "true")

        # A node remedy (a drain evicts every pod of the node, most of them healthy) is never
        # part of a batch by default; named with --drain-nodes, its steps are collateral and the
        # node's name, not a count, confirms.
        run = subprocess.run(base + ["--cleanup", "plan", "--classes", "phantom-memory"],
                             capture_output=True, text=True, timeout=300, env=env,
                             stdin=subprocess.DEVNULL)
        alone = json.loads(run.stdout)["plan"]
        phantom = [f["node"] for f in json.loads(run.stdout)["findings"]]
        check(f"phantom memory on {phantom}: no step, the notes say what a drain would evict",
              run.returncode == 0 and phantom and not alone["steps"]
              and any("not in this plan" in n and "would evict" in n for n in alone["notes"]))
        run = subprocess.run(base + ["--cleanup", "plan", "--classes", "phantom-memory",
                                     "--drain-nodes", phantom[0] if phantom else "none"],
                             capture_output=True, text=True, timeout=300, env=env,
                             stdin=subprocess.DEVNULL)
        named = json.loads(run.stdout)["plan"]
        check(f"--drain-nodes plans it, every step collateral, confirmed by the node's name "
              f"({named['confirmation']}, {len(named['collateral'])} collateral)",
              named["steps"] and all(s.get("collateral") for s in named["steps"])
              and named["confirmation"] == (phantom[0] if phantom else None)
              and len(named["collateral"]) == len(named["steps"]))

        run = subprocess.run(base + ["--cleanup", "plan", "--classes", "zombie"],
                             capture_output=True, text=True, timeout=60, env=env)
        check("an unknown class is a usage error (exit 2)", run.returncode == 2 and "zombie" in run.stderr)
        run = subprocess.run(base + ["--cleanup", "sweep"], capture_output=True, text=True, timeout=60, env=env)
        check("an unknown mode is a usage error (exit 2)", run.returncode == 2)
    finally:
        subprocess.run([sim_prometheus, "stop", prom], timeout=60)
        sim.terminate()
        sim.wait(30)

print(f"{sum(results)} of {len(results)} checks passed")
sys.exit(0 if all(results) else 1)
