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
