#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`gpudesk --report` against a frozen gpudesk-sim: every figure of the report equals /sim/truth.
A researcher's context that may list only her namespace's pods gets a report that says which
figures are partial, and every figure in it is true of /sim/truth as far as she may see: exact
ones equal, lower bounds not above, upper bounds not below, unknown ones null."""
import json
import os
import subprocess
import sys
import tempfile

from kubernetes import client, config
from kubernetes.utils import parse_quantity

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
        # The NAS's cache and settings in the test's own folders, never the user's.
        env = dict(os.environ, **{f"XDG_{d}_HOME": os.path.join(state, d.lower())
                                  for d in ("DATA", "CONFIG", "CACHE", "STATE")})
        run = subprocess.run([gpudesk, "--kubeconfig", kubeconfig, "--context", "sim-admin", "--report", out,
                              "--ssh-config", ssh_config],
                             capture_output=True, text=True, timeout=120, env=env)
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
        check("an admin's report is complete, nothing partial",
              report["scope"]["complete"] and report["partial"] == [] and report["scope"]["podsNamespace"] is None)
        ri = {i["reference"]: sorted(i["pods"]) for i in report["images"]}
        ti = {i["reference"]: i["pods"] for i in truth["images"]}
        check(f"the images in use, and the pods running each, are the truth's ({len(ri)} images)", ri == ti)
        unsaid = [i["reference"] for i in report["images"] if i["bytes"] is None and not i.get("bytesError")]
        check(f"each image's size is known, or why not is said ({unsaid})", not unsaid)
        free_by_node = {}
        for n in truth["nodes"]:
            if n["gpus"]["free"] > 0:
                free_by_node.setdefault(n["gpus"]["free"], []).append(n["name"])
        expected = [{"free": f, "nodes": sorted(free_by_node[f])} for f in sorted(free_by_node, reverse=True)]
        frag = report["fragmentation"]
        check(f"fragmentation: free cards by node and the largest single-node job equal the truth {expected}",
              frag["exact"] and frag["free"] == truth["gpus"]["free"]
              and [{"free": x["free"], "nodes": sorted(x["nodes"])} for x in frag["nodesByFree"]] == expected
              and frag["largestSingleNodeJob"] == (expected[0]["free"] if expected else 0))
        rq = {q["name"]: {k: q["gpus"][k] for k in ("capability", "allocated")} for q in report["queues"]}
        tq = {q["name"]: {k: q["gpus"][k] for k in ("capability", "allocated")} for q in truth["queues"]}
        check(f"per-queue capability and allocation equal the truth {rq}", rq == tq)
        ru = {u["name"]: u["gpus"]["allocated"] for u in report["users"]}
        tu = {u["name"]: u["gpus"]["allocated"] for u in truth["users"]}
        check(f"per-user allocation equals the truth ({len(ru)} users)", ru == tu)
        # Jobs: one count for the cluster, each user and each VC (issue 34: the pages disagreed),
        # the same workloads under each, and as many as the API has — counted here on its own:
        # Volcano, PyTorch and MPI jobs, and pods that no controller owns.
        custom = client.CustomObjectsApi()
        served = report["apiGroups"]["versions"]  # the version discovery picked, by resource
        api_jobs = sum(len(custom.list_cluster_custom_object(g, served[f"{p}.{g}"], p)["items"])
                       for g, p in (("batch.volcano.sh", "jobs"), ("kubeflow.org", "pytorchjobs"),
                                    ("kubeflow.org", "mpijobs")) if f"{p}.{g}" in served)
        bare = sum(1 for p in client.CoreV1Api().list_pod_for_all_namespaces().items
                   if not p.metadata.owner_references)
        states = ("running", "waiting", "failed", "finished", "stuck")
        rj = report["jobs"]
        check(f"jobs: as many as the API has ({rj}; {api_jobs} jobs and {bare} bare pods)",
              rj["total"] == api_jobs + bare == sum(rj[k] for k in states[:4]) and rj["waiting"] > 0
              and rj["failed"] > 0 and rj["stuck"] <= rj["total"])
        by_vc = {k: sum(q["jobs"][k] for q in report["queues"]) for k in states}
        check(f"jobs: the VCs' counts add up to the cluster's {by_vc}",
              by_vc == {k: rj[k] for k in states})
        by_user = {k: sum(u["jobs"][k] for u in report["users"]) for k in states}
        check(f"jobs: the users' counts are within the cluster's {by_user}",
              all(by_user[k] <= rj[k] for k in states) and sum(by_user.values()) > 0)
        # A VC's spec as the report reads it, against the truth's.
        rqs = {q["name"]: (q["state"], q["weight"], q["parent"],
                           int(q["deserved"]["nvidia.com/gpu"]) if "nvidia.com/gpu" in q["deserved"] else None,
                           int(q["guarantee"]["nvidia.com/gpu"]) if "nvidia.com/gpu" in q["guarantee"] else None)
               for q in report["queues"]}
        tqs = {q["name"]: (q["state"], q["weight"], q["parent"], q["gpus"]["deserved"], q["gpus"]["guarantee"])
               for q in truth["queues"]}
        check(f"per-queue state, weight, parent, deserved and guarantee equal the truth {rqs}", rqs == tqs)
        # Quotas: the limits as stored, and what the quota controller counts as used (which the
        # report reads from status) against the truth's own count of the namespace's pods.
        def quota(u, part, keys):
            return {k: u["quota"][part].get(k) for k in keys}
        keys = ("pods", "requests.nvidia.com/gpu")
        # Compared as quantities: the API writes them back canonical (1024Gi is 1Ti).
        def amounts(hard):
            return {k: parse_quantity(v) for k, v in hard.items()}
        rhard = {u["name"]: amounts(u["quota"]["hard"]) for u in report["users"]}
        thard = {u["name"]: amounts(u["quota"]["hard"]) for u in truth["users"]}
        check(f"per-user quota limits equal the truth ({len(rhard)} users)", rhard == thard and len(rhard) >= 12)
        rused = {u["name"]: {k: int(v) for k, v in quota(u, "used", keys).items() if v is not None}
                 for u in report["users"]}
        tused = {u["name"]: quota(u, "requested", keys) for u in truth["users"]}
        check(f"per-user quota use (pods, GPUs) equals the truth's count of pods {tused.get('alice')}",
              rused == tused and any(v["requests.nvidia.com/gpu"] > 0 for v in tused.values()))

        # The job doctor (issue 37): each planted failure of a job diagnosed as the truth's class,
        # from its pods' state, events and log tails; its evidence says where it was found.
        diag = report["diagnoses"]
        for p in [p for p in truth["planted"] if p.get("diagnosis")]:
            obj = p["objects"][0]
            mine = [d for d in diag if d["namespace"] == obj["namespace"]
                    and (d["pod"] == obj["name"] or (d["job"] or {}).get("name") == obj["name"])]
            check(f"{p['id']}: its pods diagnosed as {p['diagnosis']} "
                  f"({[(d['pod'], d['class']) for d in mine]})",
                  mine and all(d["class"] == p["diagnosis"] and d["evidence"] and d["fix"]
                               and d["responsible"] in ("job", "platform", "hardware")
                               for d in mine))
        # The card that fell off the bus: found in the node's kernel log over SSH, the driver's
        # line as evidence, before the CUDA error the job's own log blames.
        xid = next(p for p in truth["planted"] if p["id"] == "failed-gpu-hardware")
        hit = [d for d in diag if d["pod"] == xid["objects"][0]["name"]]
        ev = [e for d in hit for e in d["evidence"] if e["where"] == "kernel log of " + xid["node"]]
        check(f"{xid['id']}: the node's Xid 79 line is the evidence ({ev and ev[0]['text']})",
              hit and hit[0]["responsible"] == "hardware" and ev
              and "NVRM: Xid (PCI:0000:2a:00): 79," in ev[0]["text"])
        # The card that lost data: its ECC count, from the report's own sweep of the nodes (no Xid
        # line is left), names the card the truth made count errors.
        ecc = next(p for p in truth["planted"] if p["id"] == "failed-gpu-ecc")
        bad = [(c["index"], c["eccUncorrected"]) for n in truth["nodes"] if n["name"] == ecc["node"]
               for c in n["cards"] if c.get("eccUncorrected")]
        hit = [d for d in diag if d["pod"] == ecc["objects"][0]["name"]]
        ev = [e for d in hit for e in d["evidence"] if e["where"] == "nvidia-smi on " + ecc["node"]]
        check(f"{ecc['id']}: the card's ECC count is the evidence ({bad}, {ev and ev[0]['text']})",
              len(bad) == 1 and hit and hit[0]["rule"] == "gpu-ecc-uncorrectable"
              and hit[0]["title"] == f"Uncorrectable ECC errors on {ecc['node']}: GPU {bad[0][0]}"
              and ev and ev[0]["text"].startswith(f"GPU {bad[0][0]} GPU-")
              and ev[0]["text"].endswith(f"ecc.errors.uncorrected.volatile.total {bad[0][1]}"))
        # The launch script linked by the node's path: the NAS, read over SFTP as the submit
        # check reads it, says the link leads outside the pod's mounts and where the file is.
        seg = next(p for p in truth["planted"] if p["id"] == "crashloop-link-outside")
        hit = [d for d in diag if d["pod"] == seg["objects"][0]["name"]]
        ev = [e["text"] for d in hit for e in d["evidence"] if e["where"] == "NAS"]
        check(f"{seg['id']}: the NAS tells the link and the path to run ({hit and hit[0]['title']}, {ev})",
              hit and hit[0]["rule"] == "launch-script-link-outside"
              and hit[0]["title"] == "Launch script /workspace/start.sh links to a path the container does not have"
              and hit[0]["fix"].startswith("Run the script by the path the container sees it at, /workspace/tools/dist_train.sh (")
              and ev and "/workspace/start.sh is a link to /mnt/user/zhangwei/code/seg/tools/dist_train.sh" in ev[0])
        # Grouped by cause for the admin: the counts add up to the pods diagnosed, most first.
        classes = report["diagnosisClasses"]
        check(f"diagnoses grouped by class ({[(c['class'], c['pods']) for c in classes]})",
              sum(c["pods"] for c in classes) == len([d for d in diag if d["class"]])
              and [c["pods"] for c in classes] == sorted((c["pods"] for c in classes), reverse=True)
              and any(c["class"] == "shared-memory" and "user-carol/clip-pretrain" in c["jobs"]
                      and c["pods"] == 2 for c in classes))
        check(f"each class in words, the same for all its pods ({[c['title'] for c in classes]})",
              all(c["title"] for c in classes)
              and any(c["class"] == "shared-memory"
                      and c["title"] == "Shared memory (/dev/shm) too small" for c in classes))
        # States that lie: each job the truth has over while a pod of it runs and holds GPUs is
        # said (detail: "KIND NAME is STATE, but …"), and no job over is said to lie otherwise.
        over = {(f["namespace"], f["detail"].split(" is ", 1)[0].split(" ", 1)[1])
                for f in truth["findings"] if f["class"] == "finished-holding-gpus"}
        lies = {(l["namespace"], l["name"]): l for l in report["stateLies"]}
        check(f"states that lie: the finished jobs still holding GPUs {sorted(over)} "
              f"said ({sorted(lies)})",
              over and all(o in lies and lies[o]["says"].startswith("Says " + lies[o]["status"])
                           for o in over)
              and all(l["status"] == "Running" or o in over for o, l in lies.items()))
        check(f"every diagnosis names a class or says why not ({len(diag)} pods)",
              diag and all(d["class"] or d.get("error") for d in diag)
              and report["diagnosesNote"] is None)

        # Who preempted whom (issue 37 §3): the planted preemption, named as the window names it.
        planted = next(p for p in truth["planted"] if p["id"] == "preempted")
        pre = [p for p in report["preemptions"] if p["namespace"] == "user-carol"
               and p["pod"] == "detr-train-worker-0"]
        check(f"the planted preemption in preemptions[] ({pre and pre[0]['said']})",
              len(pre) == 1 and pre[0]["job"] == "detr-train" and pre[0]["how"] == "preempt"
              and pre[0]["node"] == planted["node"] and pre[0]["byNamespace"] == "user-wangfang"
              and pre[0]["byJob"] == "seg-deadline" and pre[0]["byPriorityClass"] == "high-priority"
              and pre[0]["byPriority"] == 1000 and pre[0]["at"].endswith("Z")
              and "Preempted by wangfang's seg-deadline" in pre[0]["said"]
              and report["preemptionsNote"] is None)

        # Node telemetry over SSH: every node answered, and per card what the node says and the
        # process → pod → user join equal the truth, planted orphans and phantom card included.
        check("every node's SSH state is connected",
              all(n["sshState"] == "connected" for n in report["nodes"]))
        check(f"busy GPUs equal the truth ({report['gpus'].get('busy')})",
              report["gpus"].get("busy") == truth["gpus"]["busy"])

        # A card in MIG mode has no utilization nvidia-smi can give (it says [N/A]); the
        # report must say null there, not a number of its own making.
        def utilization(c):
            return None if c.get("migMode") == "Enabled" else c["utilization"]

        def cards(nodes):
            return {(n["name"], c["index"]): (c["uuid"], utilization(c), c["memoryUsedMiB"],
                                              c["memoryTotalMiB"], c["phantom"],
                                              sorted((p["pid"], p["memoryMiB"], p["pod"], p["namespace"], p["user"])
                                                     for p in c["processes"]))
                    for n in nodes for c in (n["cards"] or [])}
        rc, tc = cards(report["nodes"]), cards(truth["nodes"])
        diff = [k for k in set(rc) | set(tc) if rc.get(k) != tc.get(k)]
        ra = {(n["name"], c["index"]): c["allocatedTo"] for n in report["nodes"] for c in (n["cards"] or [])}
        ta = {(n["name"], c["index"]): c["allocatedTo"] for n in truth["nodes"] for c in n["cards"]}
        check(f"every card is placed with the pod the truth says holds it ({len(ta)} cards)",
              ra == ta and any(ta.values()))
        check(f"per-card utilization, memory, phantom and processes equal the truth ({len(tc)} cards)"
              + (f"; differ: {[(k, rc.get(k), tc.get(k)) for k in sorted(diff)[:3]]}" if diff else ""),
              not diff and len(tc) > 0)
        migCards = [(n["name"], c["index"]) for n in truth["nodes"] for c in n["cards"]
                    if c.get("migMode") == "Enabled"]
        check(f"cards in MIG mode have no utilization in the report {migCards}",
              len(migCards) > 0 and all(rc[k][1] is None for k in migCards))
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
                                out + ".nossh", "--no-ssh"], capture_output=True, text=True, timeout=120, env=env)
        plain = json.load(open(out + ".nossh"))
        check("--no-ssh leaves telemetry out (and the NAS, measured over SSH)",
              nossh.returncode == 0 and "cards" not in plain["nodes"][0]
              and "busy" not in plain["gpus"] and plain["storage"] is None)

        # --alerts: the conditions that fire now, each found independently with the Python
        # client (nodes' conditions, Volcano queues, users' ResourceQuotas), and the exit code.
        alerts_run = subprocess.run([gpudesk, "--kubeconfig", kubeconfig, "--context", "sim-admin", "--alerts",
                                     "--no-ssh"], capture_output=True, text=True, timeout=120, env=env)
        alerts = json.loads(alerts_run.stdout)
        core = client.CoreV1Api()
        expected = {}
        for n in core.list_node().items:
            for c in n.status.conditions or []:
                if c.type == "Ready" and c.status != "True":
                    expected["notready:" + n.metadata.name] = "critical"
                if c.type in ("DiskPressure", "MemoryPressure", "PIDPressure") and c.status == "True":
                    expected[f"{c.type}:{n.metadata.name}"] = "critical"
        queues = client.CustomObjectsApi().list_cluster_custom_object("scheduling.volcano.sh", "v1beta1", "queues")
        for q in queues["items"]:
            cap = (q["spec"].get("capability") or {}).get("nvidia.com/gpu")
            alloc = ((q.get("status") or {}).get("allocated") or {}).get("nvidia.com/gpu")
            if cap is not None and alloc is not None and parse_quantity(cap) > 0 \
                    and parse_quantity(alloc) * 100 >= parse_quantity(cap) * 90:
                expected["vcfull:" + q["metadata"]["name"]] = "warning"
        users = [ns.metadata.name for ns in core.list_namespace().items
                 if (ns.metadata.labels or {}).get("gpudesk.io/user")]
        for ns in users:
            for rq in core.list_namespaced_resource_quota(ns).items:
                for key in ("requests.nvidia.com/gpu", "limits.nvidia.com/gpu"):
                    hard = (rq.status.hard or {}).get(key)
                    used = (rq.status.used or {}).get(key, "0")
                    if hard is not None and parse_quantity(hard) > 0 \
                            and parse_quantity(used) * 100 >= parse_quantity(hard) * 90:
                        expected[f"quotafull:{ns}/{rq.metadata.name}"] = "warning"
                        break
        # The NAS's, from the walk the first report made (issue 38): a root over 80 % / 90 %.
        for r in report["storageRoots"]:
            if r["percentUsed"] is not None and r["percentUsed"] >= 80:
                expected["storage:root:" + r["path"]] = "critical" if r["percentUsed"] >= 90 else "warning"
        check(f"the report walked the NAS: {[(r['path'], r['percentUsed']) for r in report['storageRoots']]}",
              len(report["storageRoots"]) == 2)
        got = {a["key"]: a["severity"] for a in alerts["alerts"]}
        code = 2 if "critical" in expected.values() else 1 if expected else 0
        check(f"--alerts: the alerts that fire equal the API's conditions {sorted(expected)}",
              got == expected and len(expected) > 0)
        check(f"--alerts exits {code} (Nagios: 0 none, 1 warnings, 2 critical), counts agree",
              alerts_run.returncode == code
              and alerts["counts"] == {"critical": list(expected.values()).count("critical"),
                                       "warning": list(expected.values()).count("warning")}
              and alerts["complete"] is True and alerts["context"] == "sim-admin")
        check("each alert says what, where and since when",
              all(a["message"] and a["rule"] == a["key"].split(":")[0] for a in alerts["alerts"])
              and all(a["node"] for a in alerts["alerts"] if a["rule"] == "notready"))
        broken = subprocess.run([gpudesk, "--kubeconfig", os.path.join(state, "missing"), "--alerts"],
                                capture_output=True, text=True, timeout=60, env=env)
        check(f"--alerts without a readable kubeconfig exits 3 and says why ({broken.stderr.strip()})",
              broken.returncode == 3 and broken.stderr.strip() != "" and broken.stdout == "")

        # A researcher: she may list nodes, namespaces and queues, and only her own pods.
        alice_out = out + ".alice"
        alice = subprocess.run([gpudesk, "--kubeconfig", kubeconfig, "--context", "sim-alice", "--report", alice_out,
                                "--ssh-config", ssh_config], capture_output=True, text=True, timeout=120, env=env)
        check(f"a researcher's report is written and says it is partial ({alice.stdout.strip()})",
              alice.returncode == 0 and "Partial" in alice.stdout)
        ar = json.load(open(alice_out))
        check("it names her namespace and the partial figures",
              ar["scope"] == {"complete": False, "podsNamespace": "user-alice", "unreadable": []}
              and {"gpus.allocated", "gpus.free", "nodes[].gpus.allocated"} <= set(ar["partial"]))
        mine = next(u for u in truth["users"] if u["name"] == "alice")["gpus"]["allocated"]
        g = ar["gpus"]
        check(f"cluster: total exact, allocated a true lower bound ({g['allocated']} ≤ {truth['gpus']['allocated']}), "
              f"free unknown, at most {g['freeAtMost']} ≥ {truth['gpus']['free']}, her own {g['visible']} exact",
              g["total"] == truth["gpus"]["total"] and mine <= g["allocated"] <= truth["gpus"]["allocated"]
              and g["free"] is None and g["freeAtMost"] >= truth["gpus"]["free"] and g["visible"] == mine)
        tn = {n["name"]: n["gpus"] for n in truth["nodes"]}
        # A card that runs the processes of a pod that is gone (an orphan) is allocated to no pod,
        # yet from her seat it looks like any card of a pod she cannot see: it is not free either,
        # so it may count as taken.
        orphan_held = {n["name"]: sum(1 for c in n["cards"] if c["allocatedTo"] is None and c["processes"])
                       for n in truth["nodes"]}
        bad_nodes = [(n["name"], n["gpus"], tn[n["name"]]) for n in ar["nodes"]
                     if n["gpus"]["total"] != tn[n["name"]]["total"] or n["gpus"]["free"] is not None
                     or n["gpus"]["allocated"] > tn[n["name"]]["allocated"] + orphan_held[n["name"]]
                     or n["gpus"]["freeAtMost"] < tn[n["name"]]["free"] - orphan_held[n["name"]]]
        hidden_use = [n["name"] for n in ar["nodes"] if n["gpus"]["allocated"] > 0 and
                      not any(c["state"] == "allocated" for c in (n["cards"] or []))]
        check(f"per node: allocation a lower bound, free unknown and bounded; nodes where only others' cards "
              f"are in use still count them {hidden_use}" + (f"; wrong: {bad_nodes}" if bad_nodes else ""),
              not bad_nodes and len(hidden_use) > 0)
        truth_cards = {(n["name"], c["index"]): c for n in truth["nodes"] for c in n["cards"]}
        wrong = []
        for n in ar["nodes"]:
            for c in n["cards"] or []:
                t = truth_cards[(n["name"], c["index"])]
                if c["state"] == "free" or (c["state"] == "allocated" and c["allocatedTo"] != t["allocatedTo"]) \
                        or (c["state"] == "inUseByHiddenPod" and t["allocatedTo"] is None and not t["processes"]):
                    wrong.append((n["name"], c["index"], c["state"], t["allocatedTo"]))
        states = sorted({c["state"] for n in ar["nodes"] for c in (n["cards"] or [])})
        check(f"no card is called free; hers are placed as the truth places them; others' in use or unknown {states}",
              not wrong and "unknown" in states and "inUseByHiddenPod" in states)
        procs = [p for n in ar["nodes"] for c in (n["cards"] or []) for p in c["processes"]]
        check("a process whose pod she cannot see is 'not visible', never 'of no pod'",
              all(c["unattributed"] is False for n in ar["nodes"] for c in (n["cards"] or []))
              and all((p["pod"] is None) == (not p["podVisible"]) for p in procs)
              and any(not p["podVisible"] for p in procs)
              and all(p["namespace"] == "user-alice" for p in procs if p["podVisible"]))
        theirs = {i["reference"]: sorted(p for p in i["pods"] if p.startswith("user-alice/")) for i in truth["images"]}
        check("her images are those her pods run, with her pods only",
              {i["reference"]: sorted(i["pods"]) for i in ar["images"]}
              == {r: p for r, p in theirs.items() if p})
        users = {u["name"]: u["gpus"]["allocated"] for u in ar["users"]}
        check(f"only her own user allocation is given ({users.get('alice')} = {mine}), the others are null",
              users.get("alice") == mine and all(v is None for k, v in users.items() if k != "alice"))
        # A node whose driver cannot be reached, one whose cards vanished, one without nvidia-smi:
        # none may pass for a CPU node. Each says so, in nvidia-smi's words, and the GPUs the API
        # counts on them are counted as served by no driver.
        def post(path):
            return client.ApiClient().call_api(path, "POST", auth_settings=["BearerToken"],
                                               _preload_content=False)[0].status
        broken = {"g4090-06": "failed", "g4090-07": "nodevices", "g4090-08": "missing"}
        for node, state in broken.items():
            post(f"/sim/driver?node={node}&state={state}")
        try:
            drv = subprocess.run([gpudesk, "--kubeconfig", kubeconfig, "--context", "sim-admin", "--report",
                                  out + ".driver", "--ssh-config", ssh_config],
                                 capture_output=True, text=True, timeout=120, env=env)
            dr = json.load(open(out + ".driver"))
            truth2 = json.loads(client.ApiClient().call_api("/sim/truth", "GET", auth_settings=["BearerToken"],
                                                            _preload_content=False)[0].data)
        finally:
            for node in broken:
                post(f"/sim/driver?node={node}&state=ok")
        dn = {n["name"]: n for n in dr["nodes"]}
        tn2 = {n["name"]: n for n in truth2["nodes"]}
        states = {n: dn[n]["gpuState"] for n in broken}
        check(f"broken drivers are named per node as the truth has them {states}",
              drv.returncode == 0 and states == {n: tn2[n]["gpuState"] for n in broken}
              and states == {"g4090-06": "driverFailed", "g4090-07": "noDevices", "g4090-08": "noNvidiaSmi"})
        check("nvidia-smi's own words are kept",
              "couldn't communicate with the NVIDIA driver" in (dn["g4090-06"]["gpuMessage"] or "")
              and "No devices were found" in (dn["g4090-07"]["gpuMessage"] or ""))
        check(f"the GPUs the API counts there are served by no driver ({dr['gpus']['unserved']})",
              dr["gpus"]["unserved"] == sum(dn[n]["gpus"]["total"] for n in broken) == 24
              and all(dn[n]["cards"] == [] for n in broken))
        check("healthy GPU nodes say ok, CPU nodes have no nvidia-smi",
              all(n["gpuState"] == "ok" for n in dr["nodes"] if n["gpus"]["total"] > 0 and n["name"] not in broken)
              and all(n["gpuState"] == "noNvidiaSmi" for n in dr["nodes"] if n["gpus"]["total"] == 0))

        bad = subprocess.run([gpudesk, "--kubeconfig", kubeconfig, "--context", "nope", "--report", out],
                             capture_output=True, text=True, timeout=60, env=env)
        check("an unknown context exits 2 with the kubeconfig's message",
              bad.returncode == 2 and 'context "nope" is not in the kubeconfig' in bad.stderr)
    finally:
        sim.terminate()
        sim.wait(timeout=30)

print(f"{results.count(True)} passed, {results.count(False)} failed")
sys.exit(0 if all(results) else 1)
