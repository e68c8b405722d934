#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gpudesk-sim checked with the Python Kubernetes client (Debian's python3-kubernetes)."""
import sys

from kubernetes import client, config, watch
from kubernetes.client.rest import ApiException

state = sys.argv[1]
config.load_kube_config(config_file=f"{state}/kubeconfig", context="sim-admin")
v1 = client.CoreV1Api()
results = []


def check(name, ok):
    results.append(ok)
    print(("ok   - " if ok else "FAIL - ") + name)


pods = v1.list_pod_for_all_namespaces()
check(f"list pods in all namespaces ({len(pods.items)})", len(pods.items) >= 40)
gpu_pods = [p for p in pods.items
            if any((c.resources.requests or {}).get("nvidia.com/gpu") for c in p.spec.containers)]
check("decoded GPU requests", len(gpu_pods) >= 20)
check("decoded owner references",
      any(p.metadata.owner_references and p.metadata.owner_references[0].kind == "PyTorchJob"
          for p in pods.items))

page = v1.list_pod_for_all_namespaces(limit=10)
check("paging returns a continue token", page.metadata._continue is not None and len(page.items) == 10)
rest = v1.list_pod_for_all_namespaces(limit=500, _continue=page.metadata._continue)
key = lambda p: f"{p.metadata.namespace}/{p.metadata.name}"
check("paging continues where it stopped",
      len(rest.items) > 0 and key(rest.items[0]) > key(page.items[-1])
      and not ({key(p) for p in page.items} & {key(p) for p in rest.items}))

sel = v1.list_namespaced_pod("user-alice", label_selector="training.kubeflow.org/replica-type=master")
check("label selector", len(sel.items) >= 1 and all(
    p.metadata.labels["training.kubeflow.org/replica-type"] == "master" for p in sel.items))
field = v1.list_pod_for_all_namespaces(field_selector="spec.nodeName=g4090-10")
check("field selector spec.nodeName", len(field.items) >= 1 and all(
    p.spec.node_name == "g4090-10" for p in field.items))

# A watch from the list's resourceVersion sees a change made after the list.
rv = v1.list_namespaced_pod("user-erin").metadata.resource_version
v1.patch_namespaced_pod("dev-erin", "user-erin", {"metadata": {"labels": {"checked": "yes"}}})
w = watch.Watch()
seen = None
for ev in w.stream(v1.list_namespaced_pod, "user-erin", resource_version=rv, timeout_seconds=20):
    if ev["object"].metadata.name == "dev-erin" and (ev["object"].metadata.labels or {}).get("checked") == "yes":
        seen = ev["type"]
        w.stop()
check(f"watch from resourceVersion {rv} sees the patch", seen == "MODIFIED")

# A new watch's initial ADDED events go to that watch only, not to watches already running.
import queue
import threading

events_a = queue.Queue()


def watch_a(rv):
    for ev in watch.Watch().stream(v1.list_namespaced_pod, "user-frank", resource_version=rv,
                                   timeout_seconds=30):
        events_a.put((ev["type"], ev["object"].metadata.name, (ev["object"].metadata.labels or {}).get("mark")))


def mark(value):
    """A change watch A must see: proves it is running. Returns what A saw before it."""
    v1.patch_namespaced_pod("idle-inference", "user-frank", {"metadata": {"labels": {"mark": value}}})
    before = []
    while True:
        t, name, m = events_a.get(timeout=20)
        if name == "idle-inference" and m == value:
            return before
        before.append((t, name))


pods_frank = v1.list_namespaced_pod("user-frank")
threading.Thread(target=watch_a, args=(pods_frank.metadata.resource_version,), daemon=True).start()
mark("one")
existing = {p.metadata.name for p in pods_frank.items}
initial_b = 0
for ev in watch.Watch().stream(v1.list_namespaced_pod, "user-frank", timeout_seconds=2):
    initial_b += ev["type"] == "ADDED"
leaked = [name for t, name in mark("two") if t == "ADDED" and name in existing]
check(f"a second watch's {initial_b} initial events do not reach the first ({leaked})",
      initial_b >= 1 and not leaked)

# A resourceVersion older than the simulator keeps answers 410 Gone.
try:
    for _ in watch.Watch().stream(v1.list_namespaced_pod, "user-erin", resource_version="1", timeout_seconds=5):
        pass
    check("watch from a too-old resourceVersion gets 410", False)
except ApiException as e:
    check(f"watch from a too-old resourceVersion gets 410 ({e.reason})", e.status == 410)

try:
    v1.read_namespaced_pod("no-such-pod", "user-erin")
    check("missing pod gives 404", False)
except ApiException as e:
    check("missing pod gives 404 NotFound", e.status == 404 and "not found" in e.body)

stale = v1.read_namespaced_pod("dev-erin", "user-erin")
stale.metadata.resource_version = "2"
try:
    v1.replace_namespaced_pod("dev-erin", "user-erin", stale)
    check("stale update gives 409", False)
except ApiException as e:
    check("stale update gives 409 Conflict", e.status == 409 and "Conflict" in e.body)

custom = client.CustomObjectsApi()
queues = custom.list_cluster_custom_object("scheduling.volcano.sh", "v1beta1", "queues")
check("Volcano queues through CustomObjectsApi",
      sorted(q["metadata"]["name"] for q in queues["items"]) == ["cv", "default", "nlp", "speech"])

print(f"{results.count(True)} passed, {results.count(False)} failed")
sys.exit(0 if all(results) else 1)
