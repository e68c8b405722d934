#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# gpudesk-sim's accounts, quotas and queues checked with clients nobody here wrote — kubectl and
# the Python Kubernetes client — on a simulator of its own: LimitRange defaulting, ResourceQuota
# refusals in the API server's words and status.used kept current, TokenRequest tokens that
# expire or die with their ServiceAccount, access reviews, a namespace emptied before it goes,
# and Volcano queues closed and opened by Commands. Every check asserts on content.
# Usage: sim_accounts.sh GPUDESK_SIM
set -uo pipefail
sim_bin=${1:?gpudesk-sim}
. "$(dirname "$0")/checks.sh"
start_sim "$sim_bin" --no-ssh --speed 5
# Changes are waited for on watches (kubectl wait, or the Python client's watch where kubectl
# lacks `wait --for=jsonpath`); a token's expiry, which nothing announces,
# by moving the simulator's clock on (POST /sim/advance).
advance() { $KUBECTL create --raw "/sim/advance?seconds=$1" -f /dev/null >/dev/null; }
used() { $KUBECTL get resourcequota gpudesk-quota -n "$1" -o jsonpath="{.status.used.$2}"; }

# LimitRange: a container that names no requests gets the namespace's defaults.
out=$($KUBECTL run plain -n user-frank --image=busybox --restart=Never 2>&1)
check "a pod without requests is admitted ($out)" contains "$out" 'pod/plain created'
res=$($KUBECTL get pod plain -n user-frank -o jsonpath='{.spec.containers[0].resources}')
check "… with the LimitRange's defaults ($res)" \
    bash -c 'grep -q "\"requests\":{\"cpu\":\"1\",\"memory\":\"4Gi\"}" <<<"$0" && grep -q "\"limits\":{\"memory\":\"16Gi\"}" <<<"$0"' "$res"
check "… and the LimitRanger's annotation" contains \
    "$($KUBECTL get pod plain -n user-frank -o jsonpath='{.metadata.annotations}')" \
    'LimitRanger plugin set: cpu, memory request for container plain; memory limit for container plain'
pods_before=$(used user-frank pods)
check "status.used counts it (pods $pods_before)" test -n "$pods_before"

# Quantities written as bare numbers, as YAML gives them: a LimitRange's max holds.
lr='{"apiVersion":"v1","kind":"LimitRange","metadata":{"name":"cpu-cap"},"spec":{"limits":[{"type":"Container","max":{"cpu":2}}]}}'
$KUBECTL create -n user-erin -f - <<<"$lr" >/dev/null
wide='{"apiVersion":"v1","kind":"Pod","metadata":{"name":"wide"},"spec":{"containers":[{"name":"c","image":"busybox","resources":{"limits":{"cpu":4}}}]}}'
out=$($KUBECTL create -n user-erin -f - <<<"$wide" 2>&1)
check "a LimitRange max given as a number is enforced ($out)" contains "$out" \
    'pods "wide" is forbidden: maximum cpu usage per Container is 2, but limit is 4'
oddq='{"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job","metadata":{"name":"oddq"},"spec":{"queue":7,"tasks":[]}}'
out=$($KUBECTL create -n user-erin -f - <<<"$oddq" 2>&1)
check "a job whose queue is not a string is invalid ($out)" contains "$out" \
    'spec.queue in body must be of type string: "number"'

# ResourceQuota: over the GPU limit, refused with the API server's words (a dry run too).
big='{"apiVersion":"v1","kind":"Pod","metadata":{"name":"too-many"},"spec":{"containers":[{"name":"c","image":"busybox","resources":{"limits":{"nvidia.com/gpu":"9"}}}]}}'
out=$($KUBECTL create -n user-frank -f - --dry-run=server <<<"$big" 2>&1)
check "a dry run over the quota is refused as the real one ($out)" contains "$out" \
    'exceeded quota: gpudesk-quota, requested: requests.nvidia.com/gpu=9, used: requests.nvidia.com/gpu=[0-9]*, limited: requests.nvidia.com/gpu=8'
out=$($KUBECTL create -n user-frank -f - <<<"$big" 2>&1)
check "over the quota: 403 exceeded quota ($out)" contains "$out" \
    'is forbidden: exceeded quota: gpudesk-quota, requested: requests.nvidia.com/gpu=9'
check "… and nothing was made" contains "$($KUBECTL get pod too-many -n user-frank 2>&1)" NotFound
$KUBECTL delete pod plain -n user-frank --wait=true >/dev/null 2>&1
check "status.used follows a deletion (pods $pods_before → $((pods_before - 1)))" \
    wait_field user-frank resourcequota/gpudesk-quota v1 ResourceQuota status.used.pods $((pods_before - 1))

# Tokens: a TokenRequest token works, and is refused once expired.
token=$(create_token user-frank frank 10m)
check "create token (a JWT-sized token)" test "${#token}" -gt 20
server=$($KUBECTL config view --minify -o jsonpath='{.clusters[0].cluster.server}')
as_frank() { $KUBECTL --kubeconfig=/dev/null --server="$server" --certificate-authority="$state/ca.crt" --token="$1" "${@:2}"; }
check "the token reads its namespace" contains "$(as_frank "$token" get pods -n user-frank 2>&1)" idle-inference
out=$(as_frank "$token" get pods -n user-bob 2>&1)
check "… and is forbidden next door ($out)" contains "$out" \
    'pods is forbidden: User "system:serviceaccount:user-frank:frank" cannot list resource "pods" in API group "" in the namespace "user-bob"'
out=$(create_token user-frank frank 5m)
check "a duration under 10 minutes is refused ($out)" contains "$out" 'may not specify a duration less than 10 minutes'
advance 601
check "the token is refused once expired (401)" \
    contains "$(as_frank "$token" get pods -n user-frank 2>&1)" 'Unauthorized'
token=$(create_token user-frank frank 1h)
$KUBECTL delete serviceaccount frank -n user-frank >/dev/null
$KUBECTL create serviceaccount frank -n user-frank >/dev/null
check "a token of a deleted account is refused, even with one of the same name made again" \
    contains "$(as_frank "$token" get pods -n user-frank 2>&1)" 'Unauthorized'

# Access reviews, for any subject.
check "auth can-i --as a user's account: yes at home" test \
    "$($KUBECTL auth can-i create pods -n user-bob --as=system:serviceaccount:user-bob:bob 2>&1)" = yes
check "… no next door" test \
    "$($KUBECTL auth can-i create pods -n user-alice --as=system:serviceaccount:user-bob:bob 2>&1)" = no

# Volcano queues: closed by a Command, a job for it refused with the webhook's words, opened again.
command() {
    $KUBECTL create -f - <<EOF
apiVersion: bus.volcano.sh/v1alpha1
kind: Command
metadata: {generateName: $2-, namespace: default}
action: $1
target: {apiVersion: scheduling.volcano.sh/v1beta1, kind: Queue, name: $2}
EOF
}
command CloseQueue cv >/dev/null
check "CloseQueue: cv goes Closing (its pod groups are left)" \
    wait_field "" queue/cv scheduling.volcano.sh/v1beta1 Queue status.state Closing
job='{"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job","metadata":{"name":"late"},"spec":{"queue":"cv","minAvailable":1,"tasks":[{"name":"w","replicas":1,"template":{"spec":{"containers":[{"name":"c","image":"busybox"}]}}}]}}'
out=$($KUBECTL create -n user-carol -f - <<<"$job" 2>&1)
check "a job for a closed queue is refused ($out)" contains "$out" \
    'admission webhook "validatejob.volcano.sh" denied the request: can only submit job to queue with state `Open`, queue `cv` status is `Closing`'
command OpenQueue cv >/dev/null
check "OpenQueue: cv is Open again" wait_field "" queue/cv scheduling.volcano.sh/v1beta1 Queue status.state Open
out=$($KUBECTL delete queue default 2>&1)
check "the default queue cannot be deleted ($out)" contains "$out" '`default` queue can not be deleted'

# A namespace goes Terminating, is emptied, then goes; one whose pod sits on a NotReady node
# (wangfang's, on g4090-10) stays Terminating, as a real one does until the node is back.
out=$($KUBECTL delete namespace user-dave user-wangfang --wait=false 2>&1)
check "delete namespace ($out)" contains "$out" 'namespace "user-dave" deleted'
check "… it is gone, its pods with it" gone namespace/user-dave
check "… and nothing of it is left" contains "$($KUBECTL get pods -n user-dave 2>&1)" 'No resources found'
check "a namespace whose pod a NotReady node holds stays Terminating" test \
    "$($KUBECTL get namespace user-wangfang -o jsonpath='{.status.phase}')" = Terminating
out=$($KUBECTL run late -n user-wangfang --image=busybox 2>&1)
check "… and takes nothing new ($out)" contains "$out" \
    'forbidden: unable to create new content in namespace user-wangfang because it is being terminated'

# The Python client: a TokenRequest and a SubjectAccessReview as typed objects.
/usr/bin/python3 - "$KUBECONFIG" <<'PY'
import sys

from kubernetes import client, config

config.load_kube_config(config_file=sys.argv[1], context="sim-admin")
ok = True


def check(name, good):
    global ok
    ok &= good
    print(("ok   - " if good else "FAIL - ") + name)


tr = client.CoreV1Api().create_namespaced_service_account_token(
    "alice", "user-alice",
    client.AuthenticationV1TokenRequest(spec=client.V1TokenRequestSpec(
        audiences=[], expiration_seconds=3600)))
check(f"python: TokenRequest answers a token and its expiry ({tr.status.expiration_timestamp})",
      len(tr.status.token) > 20 and tr.status.expiration_timestamp is not None)
review = client.AuthorizationV1Api().create_subject_access_review(client.V1SubjectAccessReview(
    spec=client.V1SubjectAccessReviewSpec(
        user="system:serviceaccount:user-alice:alice",
        resource_attributes=client.V1ResourceAttributes(
            namespace="user-alice", verb="create", resource="pods", subresource="exec"))))
check(f"python: SubjectAccessReview allows exec at home ({review.status.reason})",
      review.status.allowed is True)
review = client.AuthorizationV1Api().create_subject_access_review(client.V1SubjectAccessReview(
    spec=client.V1SubjectAccessReviewSpec(
        user="system:serviceaccount:user-alice:alice",
        resource_attributes=client.V1ResourceAttributes(
            namespace="user-bob", verb="list", resource="pods"))))
check("python: … and denies listing another user's pods", review.status.allowed is False)
sys.exit(0 if ok else 1)
PY
check "the Python client's checks" test $? -eq 0

finish
