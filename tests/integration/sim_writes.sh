#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# gpudesk-sim's write path checked with clients nobody here wrote — kubectl and the Python
# Kubernetes client — on a simulator of its own (these checks change the cluster): server dry
# runs change nothing, force deletion, cascades through the garbage collector, cordon, a drain
# that stops at a PodDisruptionBudget with the API's words, an Event created by a client, a
# Volcano Command carried out. Every check asserts on content.
# Usage: sim_writes.sh GPUDESK_SIM
set -uo pipefail
sim_bin=${1:?gpudesk-sim}
. "$(dirname "$0")/checks.sh"
start_sim "$sim_bin"
rv() { $KUBECTL get "$@" -o jsonpath='{.metadata.resourceVersion}'; }

# A server dry run answers as a delete would, and changes nothing.
before=$(rv pod -n user-frank idle-inference)
out=$($KUBECTL delete pod -n user-frank idle-inference --dry-run=server 2>&1)
check "delete --dry-run=server answers as a delete ($out)" contains "$out" 'pod "idle-inference" deleted (server dry run)'
check "… and the pod is untouched (resourceVersion $before)" test "$(rv pod -n user-frank idle-inference)" = "$before"
out=$($KUBECTL cordon g4090-01 --dry-run=server 2>&1)
check "cordon --dry-run=server changes nothing" \
    bash -c '[ -z "$($0 get node g4090-01 -o jsonpath={.spec.unschedulable})" ]' "$KUBECTL"

# A pod stuck Terminating for 46 h: force deletion removes it at once.
out=$($KUBECTL delete pod -n user-liuyang old-train --grace-period=0 --force 2>&1)
check "delete --grace-period=0 --force ($out)" contains "$out" 'pod "old-train" force deleted'
check "… and it is gone (NotFound)" contains "$($KUBECTL get pod -n user-liuyang old-train 2>&1)" "NotFound"

# Cascades: orphan keeps the pods (their owner reference dropped); foreground waits for them.
$KUBECTL delete jobs.batch.volcano.sh -n user-carol distill-vit --cascade=orphan >/dev/null
owners=$($KUBECTL get pods -n user-carol -l volcano.sh/job-name=distill-vit \
    -o jsonpath='{range .items[*]}{.metadata.name}={.metadata.ownerReferences}{"\n"}{end}')
check "delete --cascade=orphan keeps the job's pods, owned by nobody ($(tr '\n' ' ' <<<"$owners"))" \
    bash -c 'grep -q "^distill-vit-evaluator-0=$" <<<"$0"' "$owners"
$KUBECTL delete pytorchjobs -n user-alice llama-sft --cascade=foreground >/dev/null
left=$($KUBECTL get pods -n user-alice -o name | grep -c llama-sft)
check "delete --cascade=foreground returns once the job's pods are gone ($left left)" test "$left" -eq 0

# Cordon and uncordon.
$KUBECTL cordon g4090-01 >/dev/null
check "cordon marks the node unschedulable" contains "$($KUBECTL get node g4090-01)" "Ready,SchedulingDisabled"
$KUBECTL uncordon g4090-01 >/dev/null
check "uncordon clears it" bash -c '[ -z "$($0 get node g4090-01 -o jsonpath={.spec.unschedulable})" ]' "$KUBECTL"

# A drain evicts through the Eviction API, and a budget stops it with the API's words.
pdb=$($KUBECTL get pdb -n user-sunmin embed-serve)
check "the PodDisruptionBudget allows no disruption" contains "$pdb" "embed-serve *1 *N/A *0"
drain=$($KUBECTL drain g4090-09 --ignore-daemonsets --force --delete-emptydir-data --timeout=7s 2>&1)
check "drain stops at the budget, in the API's words" \
    contains "$drain" "Cannot evict pod as it would violate the pod's disruption budget."
check "… and the guarded pod still runs" \
    test "$($KUBECTL get pod -n user-sunmin embed-serve -o jsonpath='{.status.phase}')" = Running

# An Event written by a client is listed with the cluster's own.
$KUBECTL create -f - >/dev/null <<EOF
apiVersion: v1
kind: Event
metadata: {name: idle-inference.gpudesk-check, namespace: user-frank}
involvedObject: {apiVersion: v1, kind: Pod, name: idle-inference, namespace: user-frank}
reason: GpudeskStopped
message: stopped by admin with gpudesk, idle for 7 hours
type: Warning
source: {component: gpudesk}
EOF
events=$($KUBECTL get events -n user-frank --field-selector reason=GpudeskStopped 2>&1)
check "create of an Event: listed by its reason" contains "$events" "GpudeskStopped *pod/idle-inference *stopped by admin"

# A Volcano Command: the job controller aborts the job, then deletes the command.
$KUBECTL create -f - >/dev/null <<EOF
apiVersion: bus.volcano.sh/v1alpha1
kind: Command
metadata: {name: abort-qwen-eval, namespace: user-bob}
action: AbortJob
target: {apiVersion: batch.volcano.sh/v1alpha1, kind: Job, name: qwen-eval}
EOF
check "a Command AbortJob aborts the Volcano job" wait_field user-bob jobs.batch.volcano.sh/qwen-eval \
    batch.volcano.sh/v1alpha1 Job status.state.phase Aborted
check "… and the command is consumed" contains "$($KUBECTL get commands.bus.volcano.sh -n user-bob 2>&1)" "No resources found"

# Manifests as users write them, validated by kubectl against the server's OpenAPI document (no
# --validate=false): a custom resource's unknown field is named; apply creates, then finds it
# unchanged (no patch warning), and the job controller takes the applied job.
job='apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: applied}
spec:
  queue: default
  minAvailable: 1
  tasks:
  - name: w
    replicas: 1
    template: {spec: {containers: [{name: c, image: busybox}]}}'
out=$(sed 's/^spec:/spc: 1\nspec:/' <<<"$job" | $KUBECTL create -n user-frank -f - 2>&1)
check "kubectl validates a Volcano job against /openapi/v2 ($out)" \
    contains "$out" 'unknown field "spc" in sh.volcano.batch.v1alpha1.Job'
out=$($KUBECTL create -n user-frank -f - --dry-run=server <<<"$job" 2>&1)
check "create --dry-run=server of a custom resource ($out)" \
    contains "$out" 'job.batch.volcano.sh/applied created (server dry run)'
out=$($KUBECTL apply -n user-frank -f - <<<"$job" 2>&1)
check "apply creates the job ($out)" test "$out" = "job.batch.volcano.sh/applied created"
out=$($KUBECTL apply -n user-frank -f - <<<"$job" 2>&1)
check "apply again: unchanged, without a warning ($out)" test "$out" = "job.batch.volcano.sh/applied unchanged"
check "… and the job controller runs it" wait_field user-frank jobs.batch.volcano.sh/applied \
    batch.volcano.sh/v1alpha1 Job status.state.phase Running

# The Python client: a dry-run delete and an eviction refused by the budget, as Status objects.
/usr/bin/python3 - "$KUBECONFIG" <<'EOF'
import json
import sys

from kubernetes import client, config
from kubernetes.client.rest import ApiException

config.load_kube_config(config_file=sys.argv[1], context="sim-admin")
v1 = client.CoreV1Api()
ok = True


def check(name, good):
    global ok
    ok &= good
    print(("ok   - " if good else "FAIL - ") + name)


before = v1.read_namespaced_pod("idle-inference", "user-frank").metadata.resource_version
v1.delete_namespaced_pod("idle-inference", "user-frank", dry_run="All")
after = v1.read_namespaced_pod("idle-inference", "user-frank")
check("python: delete with dry_run=All leaves the pod as it was",
      after.metadata.resource_version == before and after.metadata.deletion_timestamp is None)
body = client.V1Eviction(metadata=client.V1ObjectMeta(name="embed-serve", namespace="user-sunmin"))
try:
    v1.create_namespaced_pod_eviction("embed-serve", "user-sunmin", body)
    check("python: eviction refused", False)
except ApiException as e:
    status = json.loads(e.body)
    causes = status.get("details", {}).get("causes", [])
    check(f"python: eviction refused with 429 and the budget named ({e.status}: {causes})",
          e.status == 429 and status["reason"] == "TooManyRequests"
          and any("The disruption budget embed-serve needs 1 healthy pods" in c.get("message", "")
                  for c in causes))
sys.exit(0 if ok else 1)
EOF
check "the Python client's checks" test $? -eq 0

finish
