#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""gpudesk-sim checked with the Python Kubernetes client (Debian's python3-kubernetes)."""
import os
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

# Exec and port-forward over WebSocket (v4.channel.k8s.io), as the client library speaks them. The
# dev environment's jupyter port leads to the test peers' real Jupyter server.
from kubernetes.stream import portforward, stream

out = stream(v1.connect_get_namespaced_pod_exec, "dev-alice", "user-alice", command=["hostname"],
             stderr=True, stdin=False, stdout=True, tty=False)
check(f"stream exec runs a command in the pod ({out!r})", out == "dev-alice\n")
resp = stream(v1.connect_get_namespaced_pod_exec, "dev-alice", "user-alice",
              command=["sh", "-c", "exit 3"], stderr=True, stdin=False, stdout=True, tty=False,
              _preload_content=False)
resp.run_forever(timeout=10)
check(f"stream exec reports the exit code ({resp.returncode})", resp.returncode == 3)
token = open(os.path.join(os.path.dirname(state), "jupyter", "token")).read().strip()
pf = portforward(v1.connect_get_namespaced_pod_portforward, "dev-alice", "user-alice", ports="8888")
sock = pf.socket(8888)
sock.setblocking(True)
sock.sendall(b"GET /api/status HTTP/1.1\r\nHost: localhost\r\nAuthorization: token " + token.encode() +
             b"\r\nConnection: close\r\n\r\n")
answer = b""
while True:
    chunk = sock.recv(65536)
    if not chunk:
        break
    answer += chunk
sock.close()
check(f"portforward reaches the real Jupyter server ({answer[:15]!r})",
      answer.startswith(b"HTTP/1.1 200") and b'"started"' in answer and pf.error(8888) is None)

print(f"{results.count(True)} passed, {results.count(False)} failed")
sys.exit(0 if all(results) else 1)
