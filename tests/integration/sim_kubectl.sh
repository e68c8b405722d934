#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# gpudesk-sim checked with kubectl, a client nobody here wrote. Every check asserts on content.
# Usage: sim_kubectl.sh STATE_DIR   (a simulator started with --speed 60 on that state dir)
set -uo pipefail
state=${1:?state dir}
export KUBECONFIG=$state/kubeconfig
KUBECTL=${KUBECTL:-kubectl}
. "$(dirname "$0")/checks.sh"

nodes=$($KUBECTL get nodes -o wide 2>&1)
check "get nodes -o wide lists 15 nodes" test "$(grep -c -E '^(a800|g4090|cpu)-' <<<"$nodes")" -eq 15
check "get nodes -o wide shows NotReady and cordoned nodes" \
    bash -c 'grep -q "^g4090-10 *NotReady" <<<"$0" && grep -q "^g4090-09 *Ready,SchedulingDisabled" <<<"$0"' "$nodes"
check "get nodes -o wide prints internal IPs" contains "$nodes" "10.10.2.11"

podsJson=$($KUBECTL get pods -A -o json)
count=$(/usr/bin/python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d["items"]))' <<<"$podsJson")
check "get pods -A -o json returns the pods ($count)" test "$count" -ge 40
check "pods carry nvidia.com/gpu requests" contains "$podsJson" '"nvidia.com/gpu": "8"'

pods=$($KUBECTL get pods -A)
check "ImagePullBackOff shown" contains "$pods" "detectron-eval .*ImagePullBackOff"
check "CrashLoopBackOff shown" contains "$pods" "mmdet-train .*CrashLoopBackOff"
check "stuck Terminating shown" contains "$pods" "old-train .*Terminating"

describe=$($KUBECTL describe pod -n user-bob sft-single-node 2>&1)
nodeCount=$($KUBECTL get nodes --no-headers | wc -l)
check "describe pod shows FailedScheduling with the scheduler's message ($nodeCount nodes)" \
    contains "$describe" "FailedScheduling.*0/$nodeCount nodes are available: .*Insufficient nvidia.com/gpu"
check "describe pod shows the GPU limit" contains "$describe" "nvidia.com/gpu:  8"

events=$($KUBECTL get events -A 2>&1)
check "get events -A shows kubelet pull failures" contains "$events" "no such host"
check "get events -A shows scheduler events" contains "$events" "FailedScheduling"

tail=$($KUBECTL logs -n user-wangfang mmdet-train --tail=2 2>&1)
check "logs --tail shows the dangling symlink" contains "$tail" "start.sh: No such file or directory"
prev=$($KUBECTL logs -n user-wangfang mmdet-train --previous 2>&1)
check "logs --previous shows the earlier crash" contains "$prev" "lrwxrwxrwx"
shm=$($KUBECTL logs -n user-carol clip-pretrain-master-0 --tail=3 2>&1)
check "logs show the DataLoader shared-memory error" contains "$shm" "out of shared memory"

# logs -f: read more lines than the log had, which only new lines can satisfy; head stops it.
pod=tokenize-corpus-worker-0
before=$($KUBECTL logs -n user-bob $pod | wc -l)
followed=$(timeout 60 $KUBECTL logs -n user-bob $pod -f --tail=1 | head -n 4 | wc -l)
after=$($KUBECTL logs -n user-bob $pod | wc -l)
check "logs -f reads new lines, then stops ($before → $after lines)" \
    bash -c '[ "$0" -eq 4 ] && [ "$1" -gt "$2" ]' "$followed" "$after" "$before"

pcs=$($KUBECTL get priorityclasses 2>&1)
check "get priorityclasses shows the lab's classes with their values" \
    bash -c 'grep -Eq "^high-priority +1000 +false" <<<"$0" && grep -Eq "^vip +100000 +false" <<<"$0" && grep -Eq "^vip-waiting +100000 +false .*Never" <<<"$0"' "$pcs"
preempted=$($KUBECTL get pods -n user-wangfang -o wide 2>&1)
check "get pods -o wide shows the preemptor's nominated node" \
    contains "$preempted" "seg-deadline-trainer-0 .*Running.* g4090-[0-9]* *g4090-[0-9]"
evicted=$($KUBECTL get events -n user-carol --field-selector reason=Evict 2>&1)
check "get events shows Volcano's eviction for the preemption" \
    contains "$evicted" "pod/detr-train-worker-0 *Pod is evicted, because of preempt"
queues=$($KUBECTL get queues.scheduling.volcano.sh 2>&1)
check "get queues lists the four VCs" bash -c 'for q in default nlp cv speech; do grep -q "^$q " <<<"$0" || exit 1; done' "$queues"
vcjobs=$($KUBECTL get jobs.batch.volcano.sh -A 2>&1)
check "get Volcano jobs shows a Pending job in the full queue" contains "$vcjobs" "asr-conformer *Pending"
ptj=$($KUBECTL get pytorchjobs -A 2>&1)
check "get pytorchjobs shows a failed job" contains "$ptj" "clip-pretrain *Failed"

check "auth can-i: admin may delete nodes" test "$($KUBECTL auth can-i delete nodes)" = yes
check "auth can-i: alice may create pods in her namespace" \
    test "$($KUBECTL --context sim-alice auth can-i create pods -n user-alice)" = yes
check "auth can-i: alice may not delete pods of bob" \
    test "$($KUBECTL --context sim-alice auth can-i delete pods -n user-bob 2>/dev/null)" = no
check "auth can-i: alice may list nodes" test "$($KUBECTL --context sim-alice auth can-i list nodes)" = yes
forbidden=$($KUBECTL --context sim-alice get pods -n user-bob 2>&1)
check "alice is forbidden from bob's pods, with the real message" \
    contains "$forbidden" 'pods is forbidden: User "alice" cannot list resource "pods" in API group "" in the namespace "user-bob"'
bad=$(KUBECONFIG=/dev/null $KUBECTL --server "$($KUBECTL config view -o jsonpath='{.clusters[0].cluster.server}')" \
    --certificate-authority "$state/ca.crt" --token not-a-token get pods 2>&1)
check "a bad token is refused (401)" contains "$bad" "Unauthorized"

# kubectl exec over both transports the API server speaks: WebSocket (v5.channel.k8s.io; kubectl's
# default from 1.31) and SPDY/3.1 (v4.channel.k8s.io; the only one of kubectl up to 1.29, Debian's
# 1.20 among them, which ignores the variable): output, exit codes, stdin and its end.
for transport in websocket spdy; do
    export KUBECTL_REMOTE_COMMAND_WEBSOCKETS=$([ $transport = websocket ] && echo true || echo false)
    check "kubectl exec ($transport) runs a command in the pod" \
        test "$($KUBECTL exec -n user-alice dev-alice -- hostname)" = dev-alice
    $KUBECTL exec -n user-alice dev-alice -- sh -c "exit 3" 2>/dev/null
    code=$?
    check "kubectl exec ($transport) passes the exit code on ($code)" test "$code" = 3
    check "kubectl exec -i ($transport): stdin reaches the command and its end ends it" \
        test "$(echo through-stdin | $KUBECTL exec -i -n user-alice dev-alice -- cat)" = through-stdin
    err=$($KUBECTL exec -n user-alice dev-alice -- sh -c no-such-tool 2>&1 >/dev/null)
    check "kubectl exec ($transport) passes stderr on ($err)" contains "$err" "no-such-tool: not found"
    check "alice may not exec into bob's pods ($transport)" \
        contains "$($KUBECTL --context sim-alice exec -n user-bob dev-bob -- hostname 2>&1)" "forbidden"
    # The file commands gpudesk execs in a dev environment for a researcher without node SSH:
    # GNU find's listing as GNU find itself gives it of the same tree, dd appending stdin,
    # tail from a byte on (a download going on), all on the NAS folder the pod mounts.
    check "kubectl exec find ($transport) lists alice's NAS folder as GNU find does" \
        test "$($KUBECTL exec -n user-alice dev-alice -- find -P /mnt/user/alice -mindepth 1 \
                    -maxdepth 1 -printf '%y %s %m %P\n' | sort)" = \
             "$(find -P "$state/nas/user/alice" -mindepth 1 -maxdepth 1 -printf '%y %s %m %P\n' | sort)"
    bytes=$(mktemp)
    head -c 300000 /dev/urandom >"$bytes"
    onNas=/mnt/user/alice/.kubectl-$transport.bin
    head -c 100000 "$bytes" | $KUBECTL exec -i -n user-alice dev-alice -- \
        dd "of=$onNas" oflag=append conv=notrunc status=none
    tail -c +100001 "$bytes" | $KUBECTL exec -i -n user-alice dev-alice -- \
        dd "of=$onNas" oflag=append,nofollow conv=notrunc status=none
    check "kubectl exec -i dd ($transport): two appends make the file, byte for byte" \
        cmp -s "$bytes" "$state/nas/user/alice/.kubectl-$transport.bin"
    check "kubectl exec tail -c +N ($transport): the file from a byte on" \
        cmp -s <($KUBECTL exec -n user-alice dev-alice -- tail -c +123457 -- "$onNas") \
            <(tail -c +123457 "$bytes")
    err=$($KUBECTL exec -n user-alice dev-alice -- tail -c +1 -- /mnt/user/bob/x 2>&1 >/dev/null)
    check "kubectl exec ($transport): bob's folder is not in alice's pod ($err)" \
        contains "$err" "No such file or directory"
    check "kubectl exec realpath ($transport): alice's folder is itself" \
        test "$($KUBECTL exec -n user-alice dev-alice -- realpath -e -- /mnt/user/alice)" = /mnt/user/alice
    $KUBECTL exec -n user-alice dev-alice -- rm -- "$onNas"
    check "kubectl exec rm ($transport): the file is gone from the NAS" \
        test ! -e "$state/nas/user/alice/.kubectl-$transport.bin"
    err=$($KUBECTL exec -n user-alice dev-alice -- rm -- /mnt/user/alice/code 2>&1 >/dev/null)
    check "kubectl exec rm ($transport) refuses a folder, as coreutils' does ($err)" \
        contains "$err" "Is a directory"
    rm -f "$bytes" "$state/nas/user/alice/.kubectl-$transport.bin"
done
unset KUBECTL_REMOTE_COMMAND_WEBSOCKETS

# kubectl port-forward (SPDY/3.1 for kubectl up to 1.30; a newer one falls back to it from its
# WebSocket tunnel): two connections, one after the other, each reach the pod's sshd, which speaks
# first; a port nothing serves is refused in the kubelet's words.
coproc PF { exec $KUBECTL port-forward -n user-alice pod/dev-alice :22 :6006 2>&1; }
pf=$PF_PID
# A kubectl from 1.23 on ends port-forward after a port's error; its output stays readable here.
exec {pfout}<&"${PF[0]}"
sshPort="" tbPort=""
while IFS= read -r -t 30 line <&"$pfout"; do
    [[ $line =~ 127\.0\.0\.1:([0-9]+)\ -\>\ 22$ ]] && sshPort=${BASH_REMATCH[1]}
    [[ $line =~ 127\.0\.0\.1:([0-9]+)\ -\>\ 6006$ ]] && tbPort=${BASH_REMATCH[1]}
    [ -n "$sshPort" ] && [ -n "$tbPort" ] && break
done
check "kubectl port-forward listens (ssh on $sshPort, tensorboard on $tbPort)" \
    test -n "$sshPort" -a -n "$tbPort"
banner() { timeout 20 bash -c 'exec 3<>/dev/tcp/127.0.0.1/$0 && head -c 7 <&3' "$1"; }
check "port-forward: the first connection reaches the pod's sshd" test "$(banner "$sshPort")" = SSH-2.0
check "port-forward: … and a second one too" test "$(banner "$sshPort")" = SSH-2.0
timeout 20 bash -c 'exec 3<>/dev/tcp/127.0.0.1/$0 && cat <&3' "$tbPort" >/dev/null 2>&1
refused=""
while IFS= read -r -t 20 line <&"$pfout"; do
    [[ $line == *"error forwarding port 6006"* ]] && { refused=$line; break; }
done
check "port-forward: a port nothing serves is refused in the kubelet's words" \
    contains "$refused" "connect: connection refused"
kill "$pf" 2>/dev/null
wait "$pf" 2>/dev/null
exec {pfout}<&-

# Watch sees a change made outside it: the pod deleted here. The watch's first mention of the pod is
# its initial list; only after it is the deletion made, so the event cannot precede the watch.
# A pod of the check's own, so that runs with two kubectls side by side take nothing from each
# other or from the other tests on the same simulator.
victim=pod/watch-probe-$$-$RANDOM
$KUBECTL run "${victim#pod/}" -n user-carol --image=busybox --restart=Never >/dev/null
coproc WATCH { timeout 90 $KUBECTL get pods -n user-carol --watch -o name 2>&1; }
await() { # read the watch line by line until one names the pod (bounded by the watch's timeout)
    local line
    while IFS= read -r line <&"${WATCH[0]}"; do [[ $line == *"$1"* ]] && return 0; done
    return 1
}
check "get pods --watch lists $victim first" await "$victim"
$KUBECTL delete -n user-carol "$victim" --wait=false >/dev/null
check "get pods --watch sees the change ($victim)" await "$victim"
kill "$WATCH_PID" 2>/dev/null
# At --speed 60 its grace period of 30 s passes in half a second: it may be gone before the wait.
check "delete pod: the kubelet removes it" gone -n user-carol "$victim"
check "the deleted pod is gone (NotFound)" contains "$($KUBECTL get -n user-carol "$victim" 2>&1)" "NotFound"

finish
