#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The scale scenario with churn, through the Python Kubernetes client: the list has every pod,
and a watch receives the churn as ADDED, MODIFIED and DELETED events."""
import json
import os
import subprocess
import sys
import tempfile

from kubernetes import client, config, watch

sim_bin, = sys.argv[1:]
results = []


def check(name, ok):
    results.append(ok)
    print(("ok   - " if ok else "FAIL - ") + name)


with tempfile.TemporaryDirectory() as state:
    proc = subprocess.Popen([sim_bin, "--state-dir", state, "--scenario", "scale", "--nodes", "50",
                             "--gpus-per-node", "8", "--pods", "3000", "--churn", "200", "--no-ssh"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for line in proc.stdout:  # wait for the simulator to say it is ready
            if "ready" in line:
                break
        config.load_kube_config(config_file=os.path.join(state, "kubeconfig"), context="sim-admin")
        v1 = client.CoreV1Api()
        nodes = v1.list_node()
        check(f"50 nodes ({len(nodes.items)})", len(nodes.items) == 50)
        pods = v1.list_pod_for_all_namespaces(limit=1000)
        total = len(pods.items)
        remaining = pods.metadata.remaining_item_count
        while pods.metadata._continue:
            pods = v1.list_pod_for_all_namespaces(limit=1000, _continue=pods.metadata._continue)
            total += len(pods.items)
        check(f"paged list holds the 3000 pods ({total}), remainingItemCount {remaining}",
              total == 3000 and remaining == 2000)
        rv = v1.list_pod_for_all_namespaces(limit=1).metadata.resource_version
        seen = {}
        w = watch.Watch()
        for ev in w.stream(v1.list_pod_for_all_namespaces, resource_version=rv, timeout_seconds=30):
            seen[ev["type"]] = seen.get(ev["type"], 0) + 1
            if sum(seen.values()) >= 400 and {"ADDED", "MODIFIED", "DELETED"} <= seen.keys():
                w.stop()
        check(f"the watch receives the churn as events {json.dumps(seen, sort_keys=True)}",
              {"ADDED", "MODIFIED", "DELETED"} <= seen.keys())
    finally:
        proc.terminate()
        proc.wait(timeout=30)

print(f"{results.count(True)} passed, {results.count(False)} failed")
sys.exit(0 if all(results) else 1)
