# SPDX-License-Identifier: GPL-3.0-or-later
# Sourced by the shell tests: `check NAME COMMAND...` runs the command and prints "ok   - NAME"
# or "FAIL - NAME" (the command's status decides); `contains TEXT PATTERN` greps; `finish`
# prints the tally and exits non-zero when anything failed.
pass=0
fail=0
check() {
    local name=$1
    shift
    if "$@"; then
        pass=$((pass + 1))
        echo "ok   - $name"
    else
        fail=$((fail + 1))
        echo "FAIL - $name"
    fi
}
contains() { grep -q -- "$2" <<<"$1"; }
finish() {
    echo "$pass passed, $fail failed"
    [ "$fail" -eq 0 ]
    exit
}
# `gone [-n NAMESPACE] RESOURCE/NAME`: within 60 s the object is deleted. An object that went
# before the wait began is gone too: kubectl before 1.24 (Debian's 1.20) answers that wait with
# NotFound and fails, which made a fast simulator look like a slow one.
gone() {
    local out
    out=$($KUBECTL wait --for=delete --timeout=60s "$@" 2>&1) ||
        [[ $out == *"no matching resources found"* || $out == *"not found"* ]]
}
# `start_sim GPUDESK_SIM ARGS...` starts a simulator of the script's own on a fresh state
# directory (ARGS added to its command line), waits until it says it serves, drains its output,
# stops it and removes the directory on exit, and points KUBECONFIG and KUBECTL at it.
start_sim() {
    local bin=$1
    shift
    state=$(mktemp -d)
    coproc SIM { exec "$bin" --state-dir "$state" "$@" 2>&1; }
    sim=$SIM_PID
    trap 'kill $sim 2>/dev/null; wait $sim 2>/dev/null; rm -rf "$state"' EXIT
    local started=0 line
    while IFS= read -r line <&"${SIM[0]}"; do
        [[ $line == *"ready"* ]] && { started=1; break; }
    done
    [ "$started" -eq 1 ] || { echo "gpudesk-sim did not start"; exit 1; }
    # A coprocess's descriptors do not reach subshells: the drain reads a copy of it.
    local out
    exec {out}<&"${SIM[0]}"
    cat <&"$out" >/dev/null &
    exec {out}<&-
    export KUBECONFIG=$state/kubeconfig
    KUBECTL=${KUBECTL:-kubectl}
}
# What the kubectl in use can do: Debian's 1.20 has neither `wait --for=jsonpath` (1.23) nor
# `create token` (1.24). The same checks are then made with the Python client (pyclient.py).
pyclient() { /usr/bin/python3 "$(dirname "${BASH_SOURCE[0]}")/pyclient.py" "$@"; }
kubectl_waits_jsonpath() { $KUBECTL wait --help 2>/dev/null | grep -q -- '--for=jsonpath'; }
kubectl_creates_tokens() { $KUBECTL create --help 2>/dev/null | grep -qE '^ +token +'; }
# `wait_field NAMESPACE RESOURCE/NAME API_VERSION KIND PATH VALUE`: within 30 s, the object's
# dotted PATH (status.state.phase) equals VALUE. NAMESPACE "" for a cluster-scoped kind.
wait_field() {
    if kubectl_waits_jsonpath; then
        local ns=()
        [ -n "$1" ] && ns=(-n "$1")
        $KUBECTL wait --timeout=30s "${ns[@]}" "$2" --for=jsonpath="{.$5}=$6" >/dev/null 2>&1
    else
        pyclient wait "$3" "$4" "$1" "${2#*/}" "$5" "$6" 30 >/dev/null
    fi
}
# `create_token NAMESPACE ACCOUNT DURATION` (DURATION as kubectl takes it: 10m, 1h): the token,
# or the API server's refusal.
create_token() {
    if kubectl_creates_tokens; then
        $KUBECTL create token "$2" -n "$1" --duration="$3" 2>&1
    else
        local s=${3%[mh]}
        [[ $3 == *h ]] && s=$((s * 3600)) || s=$((s * 60))
        pyclient token "$1" "$2" "$s" 2>&1
    fi
}
