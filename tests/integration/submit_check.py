#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`gpudesk --submit FILE --check | --yes` (issue 36) against a frozen gpudesk-sim: each verdict
and its figures are checked against what the API and /sim/truth say, counted here on their own —
the job bigger than any node, the tightest fit, a queue that is missing or has no GPUs, the
quota, /dev/shm, the variables left on, a name taken, a kind not served, a file that is not a
job, a server that cannot be reached; then a job created with --yes, its Event, its audit
record, and its pod bound where the check said."""
import copy
import json
import os
import subprocess
import sys
import tempfile

import yaml
from kubernetes import client, config

gpudesk, sim_bin = sys.argv[1:]
results = []


def check(name, ok):
    results.append(bool(ok))
    print(("ok   - " if ok else "FAIL - ") + name)


def container(gpus, memory="64Gi", cpu="8", env=None, command=None, mounts=None):
    c = {"name": "pytorch", "image": "registry.lab/train:1",
         "command": command or ["python", "train.py"],
         "resources": {"limits": {"nvidia.com/gpu": str(gpus), "memory": memory},
                       "requests": {"cpu": cpu, "memory": memory}}}
    if env:
        c["env"] = [{"name": k, "value": v} for k, v in env.items()]
    if mounts:
        c["volumeMounts"] = mounts
    return c


def pytorchjob(name, gpus, workers=0, queue="nlp", spec_extra=None, c=None):
    tmpl = {"spec": dict({"containers": [c or container(gpus)]}, **(spec_extra or {}))}
    replicas = {"Master": {"replicas": 1, "template": tmpl}}
    if workers:
        replicas["Worker"] = {"replicas": workers, "template": copy.deepcopy(tmpl)}
    return {"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob", "metadata": {"name": name},
            "spec": {"runPolicy": {"schedulingPolicy": {"queue": queue}},
                     "pytorchReplicaSpecs": replicas}}


def pod(name, gpus):
    return {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name},
            "spec": {"restartPolicy": "Never", "containers": [container(gpus)]}}


with tempfile.TemporaryDirectory() as state:
    # Its nodes answer SSH (ssh_config in the state directory): only the checks that name it
    # (--ssh-config) reach them; the others run as a researcher without it does.
    sim = subprocess.Popen([sim_bin, "--state-dir", state, "--speed", "0"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for line in sim.stdout:
            if "ready" in line:
                break
        kubeconfig = os.path.join(state, "kubeconfig")
        # The audit log and settings in the test's own folders, never the user's.
        env = dict(os.environ, **{f"XDG_{d}_HOME": os.path.join(state, d.lower())
                                  for d in ("DATA", "CONFIG", "CACHE", "STATE")})

        def submit(job, context="sim-alice", mode="--check", kc=kubeconfig, raw=None, extra=()):
            path = os.path.join(state, "job.yaml")
            with open(path, "w") as f:
                f.write(raw if raw is not None else yaml.safe_dump(job))
            run = subprocess.run([gpudesk, "--kubeconfig", kc, "--context", context,
                                  "--submit", path, mode, *extra],
                                 capture_output=True, text=True, timeout=120, env=env)
            doc = json.loads(run.stdout) if run.stdout.strip() else None
            return run.returncode, doc, run.stderr

        def reason(doc, code):
            return next((r for r in doc["reasons"] if r["code"] == code), None)

        config.load_kube_config(config_file=kubeconfig, context="sim-admin")
        core = client.CoreV1Api()
        custom = client.CustomObjectsApi()
        raw = client.ApiClient().call_api("/sim/truth", "GET", auth_settings=["BearerToken"],
                                          _preload_content=False)[0].data
        truth = json.loads(raw)
        # Where a pod with no selector and no tolerations may go: Ready, schedulable GPU nodes
        # without a NoSchedule / NoExecute taint. Their free cards as the truth counts them.
        open_nodes = {}
        for n in core.list_node().items:
            taints = [t for t in (n.spec.taints or []) if t.effect in ("NoSchedule", "NoExecute")]
            gpus = int(n.status.allocatable.get("nvidia.com/gpu", "0"))
            if not taints and gpus > 0:
                open_nodes[n.metadata.name] = gpus
        tfree = {n["name"]: n["gpus"]["free"] for n in truth["nodes"]
                 if n["name"] in open_nodes and n["ready"] and n["schedulable"]}

        # 1. A one-pod job bigger than any node: never, and the split that fits.
        code, doc, err = submit(pytorchjob("big-llm", 16))
        r = reason(doc, "gpus-per-node")
        check(f"16 GPUs in one pod: never, exit 2 ({doc['summary']})", code == 2 and doc["verdict"] == "never" and r)
        check(f"the most per node is the API's ({max(open_nodes.values())}) and 2 × 8 is offered",
              r["numbers"]["mostPerNode"] == max(open_nodes.values())
              and r["numbers"]["suggestedNodes"] * r["numbers"]["suggestedGpusPerNode"] == 16
              and r["field"] == "gpus")

        # 2. One GPU goes to the tightest node: the least free that fits, as the truth counts.
        code, doc, err = submit(pod("tiny", 1), context="sim-admin")
        fits = {n: f for n, f in tfree.items() if f >= 1}
        least = min(fits.values())
        place = doc["placement"][0] if doc["placement"] else {}
        check(f"1 GPU: starts, exit 0, on a node with the least free cards ({least}): {place}",
              code == 0 and doc["verdict"] == "starts" and place.get("node") in fits
              and tfree[place["node"]] == least and place["freeBefore"] == least)

        # 3. A gang of 2 × 8 in VC cv: it starts on nodes with 8 free, or waits and says for what
        # in the truth's figures.
        code, doc, err = submit(pytorchjob("two-by-eight", 8, workers=1, queue="cv"), context="sim-admin")
        cv = next(q for q in truth["queues"] if q["name"] == "cv")
        if doc["verdict"] == "starts":
            check("2 × 8 starts only on nodes with 8 free",
                  all(tfree.get(p["node"], 0) >= 8 for p in doc["placement"]))
        else:
            full = reason(doc, "queue-full")
            frag = reason(doc, "fragmented")
            check(f"2 × 8 waits, exit 1, for the queue or scattered cards ({doc['summary']})",
                  code == 1 and (full or frag))
            if full:
                check(f"queue-full's figures are the truth's {cv['gpus']}",
                      full["numbers"]["allocated"] == cv["gpus"]["allocated"]
                      and full["numbers"]["capability"] == cv["gpus"]["capability"])
            if frag:
                check("fragmented: the free cards counted are the truth's",
                      frag["numbers"]["freeGpus"] == sum(tfree.values())
                      and frag["numbers"]["mostFreeOnANode"] == max(tfree.values()))

        # 4. Queues: one that does not exist; one with no GPUs.
        code, doc, err = submit(pytorchjob("q1", 1, queue="nope"))
        r = reason(doc, "queue-missing")
        queues = sorted(q["metadata"]["name"] for q in custom.list_cluster_custom_object(
            "scheduling.volcano.sh", "v1beta1", "queues")["items"])
        check(f"a missing VC: never, the open ones offered {r and r['numbers']['openQueues']}",
              code == 2 and r and sorted(r["numbers"]["openQueues"]) == queues)
        custom.create_cluster_custom_object("scheduling.volcano.sh", "v1beta1", "queues", {
            "apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "Queue",
            "metadata": {"name": "no-gpus"},
            "spec": {"weight": 1, "capability": {"nvidia.com/gpu": "0", "cpu": "64"}}})
        code, doc, err = submit(pytorchjob("q2", 1, queue="no-gpus"), context="sim-admin")
        r = reason(doc, "queue-capability")
        check("a VC of capability 0: never", code == 2 and r and r["numbers"]["capability"] == 0)

        # 5. The quota: more than alice may ever hold, and more than she has left.
        quota = core.list_namespaced_resource_quota("user-alice").items[0]
        hard = int(quota.status.hard["requests.nvidia.com/gpu"])
        used = int(quota.status.used["requests.nvidia.com/gpu"])
        code, doc, err = submit(pytorchjob("greedy", 8, workers=hard // 8, queue="default"))
        r = reason(doc, "quota-below-request")
        check(f"asking {8 * (hard // 8 + 1)} GPUs against a quota of {hard}: never",
              code == 2 and r and r["numbers"]["hard"] == str(hard))
        left = hard - used
        if left < hard:
            code, doc, err = submit(pytorchjob("over", 1, workers=left, queue="default"))
            r = reason(doc, "quota-in-use")
            held = sum(h["gpus"] for h in r["numbers"]["holders"]) if r else -1
            check(f"{left + 1} GPUs with {left} left of the quota: waits, its holders sum to the used {used}",
                  code in (1, 2) and r and r["numbers"]["used"] == str(used) and held == used)

        # 5b. A PriorityClass the cluster does not have: the job's pods would be refused, for
        # ever (the server's dry run of a job cannot say it); a bare pod's refusal by the server
        # is the same reason, said once, in the check's words with the server's beside them.
        job = pytorchjob("urgent", 1, queue="default", spec_extra={"priorityClassName": "urgent-now"})
        code, doc, err = submit(job)
        r = reason(doc, "priority-class-unknown")
        check(f"an unknown PriorityClass: never, exit 2, the classes named ({r and r['fix']})",
              code == 2 and r and r["numbers"]["priorityClass"] == "urgent-now"
              and r["numbers"]["classes"] == ["vip", "vip-waiting", "high-priority"])
        p = pod("urgent-pod", 1)
        p["spec"]["priorityClassName"] = "urgent-now"
        code, doc, err = submit(p)
        r = reason(doc, "priority-class-unknown")
        check("a bare pod of an unknown class: the server's refusal is the check's reason",
              code == 2 and r and "no PriorityClass with name urgent-now was found"
              in r["numbers"].get("serverSays", "")
              and len([x for x in doc["reasons"] if x["severity"] == "never"]) == 1)
        job["spec"]["pytorchReplicaSpecs"]["Master"]["template"]["spec"]["priorityClassName"] = "vip"
        code, doc, err = submit(job)
        check("a class the cluster has: not a reason", not reason(doc, "priority-class-unknown"))

        # 6. /dev/shm larger than the memory limit; variables left on; WORLD_SIZE as GPUs.
        shm = {"volumes": [{"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": "100Gi"}}]}
        c = container(1, memory="64Gi", mounts=[{"name": "dshm", "mountPath": "/dev/shm"}])
        code, doc, err = submit(pytorchjob("shm", 1, queue="default", spec_extra=shm, c=c))
        check("/dev/shm of 100Gi under a 64Gi limit: never",
              code == 2 and reason(doc, "shm-over-memory-limit") and not reason(doc, "shm-default"))
        vj = {"apiVersion": "batch.volcano.sh/v1alpha1", "kind": "Job", "metadata": {"name": "vj"},
              "spec": {"queue": "default", "minAvailable": 2, "plugins": {"pytorch": ["--master=master"]},
                       "tasks": [{"name": "worker", "replicas": 2, "template": {"spec": {"containers": [
                           container(2, env={"NCCL_DEBUG": "INFO", "CUDA_LAUNCH_BLOCKING": "1",
                                             "PYTORCH_NO_CUDA_MEMORY_CACHING": "1"},
                                     command=["sh", "-c", "torchrun --nproc_per_node=$WORLD_SIZE train.py"])]}}}]}}
        code, doc, err = submit(vj, context="sim-admin")
        codes = {r["code"]: r for r in doc["reasons"]}
        wanted = {"env-nccl-debug", "env-cuda-launch-blocking", "env-no-cuda-caching",
                  "world-size-gpus", "shm-default"}
        check(f"warnings for the variables, WORLD_SIZE and /dev/shm ({sorted(codes)})",
              wanted <= set(codes) and all(codes[w]["severity"] == "warning" for w in wanted)
              and codes["world-size-gpus"]["numbers"] == {"pods": 2, "gpus": 4})
        # NCCL told off InfiniBand where nodes have it; an interface a pod does not have.
        nets = pytorchjob("nets", 2, workers=1, queue="default",
                          c=container(2, env={"NCCL_IB_DISABLE": "1", "NCCL_SOCKET_IFNAME": "ib"}))
        code, doc, err = submit(nets)
        ib, ifname = reason(doc, "env-ib-disabled"), reason(doc, "env-socket-ifname")
        rdma = sorted(n.metadata.name for n in core.list_node().items
                      if (n.metadata.labels or {}).get("feature.node.kubernetes.io/rdma.available") == "true")
        check(f"NCCL_IB_DISABLE=1 where {len(rdma)} nodes have RDMA: a warning naming them",
              rdma and ib and ib["numbers"]["nodes"] == rdma)
        check(f"NCCL_SOCKET_IFNAME=ib in a pod without hostNetwork ({ifname and ifname['message']})",
              ifname and ifname["numbers"]["interfaces"] == ["lo", "eth0"] and code in (0, 1))
        # With hostNetwork, the nodes' own interfaces: read over SSH, one sweep waited for; not
        # judged where the nodes could not be sampled.
        host = pytorchjob("hostnet", 2, workers=1, queue="default",
                          spec_extra={"hostNetwork": True},
                          c=container(2, env={"NCCL_SOCKET_IFNAME": "eno"}))
        code, doc, err = submit(host, extra=("--ssh-config", os.path.join(state, "ssh_config")))
        ifname = reason(doc, "env-socket-ifname") if doc else None
        check(f"NCCL_SOCKET_IFNAME=eno with hostNetwork: judged on the nodes' interfaces "
              f"({ifname and ifname['message']} {err.strip()[-200:]})",
              ifname and ifname["numbers"]["nodes"]
              and {"lo", "eth0"} <= set(ifname["numbers"]["interfaces"]))
        code, doc, err = submit(host, extra=("--no-ssh",))
        check("… and not judged without SSH to the nodes",
              doc and reason(doc, "env-socket-ifname") is None)

        # 7. The server's own refusal: a name taken.
        taken = custom.list_namespaced_custom_object("kubeflow.org", "v1", "user-alice", "pytorchjobs")["items"][0]
        code, doc, err = submit(pytorchjob(taken["metadata"]["name"], 1, queue="default"))
        r = reason(doc, "server-refused")
        check(f"a name taken: never, in the server's words ({r and r['message']})",
              code == 2 and r and "already exists" in r["message"])

        # 8. Bad input: a kind the cluster does not serve, not a job, not YAML, no server.
        bad = pytorchjob("v9", 1)
        bad["apiVersion"] = "kubeflow.org/v9"
        code, doc, err = submit(bad)
        r = reason(doc, "kind-not-served")
        check(f"kubeflow.org/v9: never, the versions served named ({r and r['message']})",
              code == 2 and r and "v1" in r["numbers"]["served"])
        code, doc, err = submit({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"}})
        check(f"a Deployment: refused, exit 2 ({err.strip()})", code == 2 and "is not a job" in err and doc is None)
        code, doc, err = submit(None, raw="kind: [unclosed\n")
        check(f"broken YAML: refused with the line ({err.strip()})", code == 2 and "line" in err)
        with open(kubeconfig) as f:
            kc = yaml.safe_load(f)
        for cl in kc["clusters"]:
            cl["cluster"]["server"] = "https://127.0.0.1:9"
        dead = os.path.join(state, "dead-kubeconfig")
        with open(dead, "w") as f:
            yaml.safe_dump(kc, f)
        code, doc, err = submit(pod("p", 1), kc=dead)
        check(f"no server: exit 3, no verdict ({doc and doc.get('error')})",
              code == 3 and doc and doc["verdict"] is None and doc["error"])

        # 10. The namespace's LimitRange, as the API server applies it: 64Gi asked without a
        # limit is given the range's default limit under it, and the pod is invalid — the check
        # says so in the server's own words, and the server does refuse it.
        ranges = core.list_namespaced_limit_range("user-alice").items
        default_limit = next(l.default["memory"] for lr in ranges for l in lr.spec.limits
                             if l.type == "Container" and l.default and "memory" in l.default)
        default_cpu = next(l.default_request["cpu"] for lr in ranges for l in lr.spec.limits
                           if l.type == "Container" and l.default_request and "cpu" in l.default_request)
        greedy = pod("greedy", 1)
        greedy["spec"]["containers"][0]["resources"] = {"limits": {"nvidia.com/gpu": "1"},
                                                        "requests": {"memory": "64Gi"}}
        code, doc, err = submit(greedy)
        r = reason(doc, "request-over-limit")
        said = f"must be less than or equal to memory limit of {default_limit}"
        check(f"64Gi without a limit under a LimitRange default of {default_limit}: never ({r and r['message']})",
              code == 2 and r and said in r["message"] and r["field"] == "memory")
        filled = reason(doc, "limitrange-default")
        check(f"what the range fills in is said, its CPU request {default_cpu} among it",
              filled and f"cpu request {default_cpu} for pytorch" in filled["message"]
              and not reason(doc, "limitranges-unknown"))
        role = doc["job"]["roles"][0]
        check(f"the job's figures are the pods' as the server holds them, as written beside ({role})",
              role["cpuMilli"] == int(float(default_cpu) * 1000)
              and role["written"]["cpuMilli"] == 0 and role["memoryBytes"] == 64 * 2**30)
        greedy["metadata"]["namespace"] = "user-alice"
        try:
            core.create_namespaced_pod("user-alice", greedy)
            refused = None
        except client.ApiException as e:
            refused = json.loads(e.body)
        check(f"… and the API server refuses it so ({refused and refused['message']})",
              refused and refused["code"] == 422 and said in refused["message"])
        code, doc, err = submit(greedy, context="sim-admin", mode="--yes")
        check("--yes on it: not created, exit 2", code == 2 and not doc["created"])
        r = reason(doc, "request-over-limit")
        check("the server's dry run refuses it for the same: said once, its words beside the check's",
              not reason(doc, "server-refused") and r and said in r["numbers"].get("serverSays", "")
              and [x["severity"] for x in doc["reasons"]].count("never") == 1)

        # 10b. An account that may not list LimitRanges: the check says they are not known, in
        # the server's words, and does not take the namespace for one without any.
        rbac = client.RbacAuthorizationV1Api()
        role = rbac.read_cluster_role("gpudesk-researcher")
        kept = copy.deepcopy(role.rules)
        for rule in role.rules:
            rule.resources = [r for r in (rule.resources or []) if r != "limitranges"]
        rbac.replace_cluster_role("gpudesk-researcher", role)
        try:
            code, doc, err = submit(greedy)
        finally:
            role = rbac.read_cluster_role("gpudesk-researcher")
            role.rules = kept
            rbac.replace_cluster_role("gpudesk-researcher", role)
        r = reason(doc, "limitranges-unknown")
        check(f"without list on limitranges: said, in the server's words ({r and r['message']})",
              r and r["severity"] == "info" and "forbidden" in r["message"]
              and "limitranges" in r["message"] and "user-alice" in r["fix"])
        check("… and no default is taken for granted (no limitrange-default)",
              not reason(doc, "limitrange-default"))

        # 9. --yes: refused for a job that can never start; created for one that can.
        code, doc, err = submit(pytorchjob("never-made", 16), mode="--yes")
        names = [j["metadata"]["name"] for j in custom.list_namespaced_custom_object(
            "kubeflow.org", "v1", "user-alice", "pytorchjobs")["items"]]
        check("--yes on a job that never starts: not created, exit 2",
              code == 2 and not doc["created"] and "never-made" not in names)
        code, doc, err = submit(pod("alice-1", 1), mode="--check")
        check("a researcher's check says her view is partial (other users' pods unseen)",
              doc["exact"] is False and reason(doc, "partial-view"))
        job = pod("submitted-1", 1)
        job["metadata"]["namespace"] = "user-alice"
        code, doc, err = submit(job, context="sim-admin", mode="--yes")
        made = core.read_namespaced_pod("submitted-1", "user-alice")
        check(f"--yes: created, exit 0, the uid is the API's ({err.strip().splitlines()[-1]})",
              code == 0 and doc["created"] and doc["result"]["createdUid"] == made.metadata.uid)
        events = [e for e in core.list_namespaced_event("user-alice").items
                  if e.involved_object.uid == made.metadata.uid and e.reason == "GpudeskSubmitted"]
        check(f"an Event on it says who submitted it ({events and events[0].message})",
              len(events) == 1 and "admin" in events[0].message)
        audit = doc.get("auditLog")
        check("the audit log records the create",
              audit and audit.startswith(state) and any("submitted-1" in l for l in open(audit)))
        predicted = doc["placement"][0]["node"]
        client.ApiClient().call_api("/sim/advance", "POST", query_params=[("seconds", "5")],
                                    auth_settings=["BearerToken"], _preload_content=False)
        bound = core.read_namespaced_pod("submitted-1", "user-alice").spec.node_name
        check(f"its pod is bound where the check said ({predicted} → {bound})", bound == predicted)
    finally:
        sim.terminate()
        sim.wait(timeout=30)

print(f"{sum(results)} of {len(results)} checks passed")
sys.exit(0 if all(results) else 1)
