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
    cat <&"${SIM[0]}" >/dev/null &
    export KUBECONFIG=$state/kubeconfig
    KUBECTL=${KUBECTL:-kubectl}
}
