#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# gpudesk-sim's node SSH endpoints checked with OpenSSH's own client and the generated
# ssh_config, exactly as `ssh -F <state>/ssh_config NODE COMMAND` is documented to work.
set -uo pipefail
state=${1:?state dir}
cfg=$state/ssh_config
export KUBECONFIG=$state/kubeconfig
. "$(dirname "$0")/checks.sh"
run() { ssh -F "$cfg" -o BatchMode=yes -o ConnectTimeout=10 "$@"; }

q='index,uuid,name,pci.bus_id,utilization.gpu,utilization.memory,memory.used,memory.total,temperature.gpu,power.draw,power.limit,ecc.errors.uncorrected.volatile.total,clocks.sm'
out=$(run a800-01 nvidia-smi --query-gpu=$q --format=csv,noheader,nounits)
check "query-gpu on an 8-GPU node prints 8 lines" test "$(grep -c . <<<"$out")" -eq 8
check "query-gpu fields in order (13 per line)" test "$(head -n1 <<<"$out" | awk -F', ' '{print NF}')" -eq 13
check "query-gpu names the A800" contains "$out" "NVIDIA A800-SXM4-80GB"
with=$(run g4090-01 nvidia-smi --query-gpu=$q --format=csv)
check "csv header with units" contains "$(head -n1 <<<"$with")" "memory.used \[MiB\]"
check "GeForce ECC is [N/A]" contains "$with" "\[N/A\]"
check "units on values" contains "$with" " MiB, "

apps=$(run g4090-04 nvidia-smi --query-compute-apps=gpu_uuid,pid,used_memory,process_name --format=csv,noheader,nounits)
check "compute apps listed ($(grep -c . <<<"$apps") processes)" test "$(grep -c . <<<"$apps")" -ge 2
pid=$(head -n1 <<<"$apps" | awk -F', ' '{print $2}')
cg=$(run g4090-04 cat /proc/$pid/cgroup)
check "cgroup of a GPU process carries a pod UID" contains "$cg" "kubepods.*pod[0-9a-f]\{8\}-"
xml=$(run a800-02 nvidia-smi -q -x)
check "nvidia-smi -q -x is XML with 8 GPUs" bash -c 'grep -q "<attached_gpus>8</attached_gpus>" <<<"$0" && test "$(grep -c "<gpu id=" <<<"$0")" -eq 8' "$xml"

probe=$(run g4090-07 'cat /proc/stat /proc/meminfo /proc/loadavg; df -P / /var/lib/containerd; nproc; uname -a')
check "/proc/stat" contains "$probe" "^cpu "
check "/proc/meminfo" contains "$probe" "^MemTotal: \+[0-9]\+ kB"
check "df -P shows the full disk (92%)" contains "$probe" " 92% /$"
check "nproc" contains "$probe" "^64$"
check "uname -a" contains "$probe" "^Linux g4090-07 "
# Interfaces: an InfiniBand port per two cards on the A800 nodes, none on the 4090 ones.
net=$(run a800-01 cat /proc/net/dev)
check "/proc/net/dev: its two header lines" contains "$(head -n2 <<<"$net")" "face |bytes    packets"
check "an A800 node has ib0…ib3 and eth0" bash -c 'for i in ib0 ib1 ib2 ib3 eth0 lo; do grep -q "^ *$i: [0-9]" <<<"$0" || exit 1; done' "$net"
net4090=$(run g4090-07 cat /proc/net/dev)
check "a 4090 node has eth0 and no ib" bash -c 'grep -q "^ *eth0: " <<<"$0" && ! grep -q "^ *ib" <<<"$0"' "$net4090"

cpu=$(run cpu-01 nvidia-smi 2>&1); rc=$?
check "a CPU node has no nvidia-smi (127)" bash -c '[ "$0" -eq 127 ] && grep -q "nvidia-smi: not found" <<<"$1"' "$rc" "$cpu"
other=$(run g4090-01 systemctl status kubelet 2>&1); rc=$?
check "unknown commands: sh: 1: X: not found, 127" bash -c '[ "$0" -eq 127 ] && grep -q "^sh: 1: systemctl: not found" <<<"$1"' "$rc" "$other"

# Host keys are checked: the same node name with another port's key is refused.
bad=$(ssh -F "$cfg" -o BatchMode=yes -o HostKeyAlias="[127.0.0.1]:$(awk '/^Host g4090-02$/{f=1} f&&/Port/{print $2; exit}' "$cfg")" g4090-01 true 2>&1); rc=$?
check "a host key that does not match is refused" bash -c '[ "$0" -ne 0 ] && grep -qi "host key" <<<"$1"' "$rc" "$bad"
# Another key than the simulator's is not accepted.
tmpkey=$(mktemp -u)
ssh-keygen -q -t ed25519 -N '' -f "$tmpkey"
sed "s|IdentityFile .*|IdentityFile $tmpkey|" "$cfg" >"$tmpkey.cfg"
denied=$(ssh -F "$tmpkey.cfg" -o BatchMode=yes g4090-01 true 2>&1); rc=$?
rm -f "$tmpkey" "$tmpkey.pub" "$tmpkey.cfg"
check "a key other than the simulator's is refused" bash -c '[ "$0" -ne 0 ] && grep -q "Permission denied (publickey,password)" <<<"$1"' "$rc" "$denied"

# direct-tcpip to a dev environment's Jupyter, through its node.
ip=$(kubectl get pod -n user-alice dev-alice -o jsonpath='{.status.podIP}')
node=$(kubectl get pod -n user-alice dev-alice -o jsonpath='{.spec.nodeName}')
http=$(printf 'GET /api HTTP/1.1\r\nHost: %s\r\n\r\n' "$ip" | run -W "$ip:8888" "$node")
check "direct-tcpip reaches Jupyter of dev-alice on $node" bash -c 'grep -q "^HTTP/1.1 200 OK" <<<"$0" && grep -q "\"version\"" <<<"$0"' "$http"
refused=$(printf 'x' | run -W "$ip:9999" "$node" 2>&1); rc=$?
check "direct-tcpip to a closed port is refused" bash -c '[ "$0" -ne 0 ]' "$rc"

# Killing an orphan GPU process frees its memory on the card.
orphan=$(kubectl get --raw /sim/truth | /usr/bin/python3 -c '
import json,sys
t=json.load(sys.stdin)
for n in t["nodes"]:
    for c in n["cards"]:
        for p in c["processes"]:
            if p["orphan"]:
                print(n["name"], p["pid"]); sys.exit()')
read -r onode opid <<<"$orphan"
check "the truth lists an orphan process ($orphan)" test -n "$opid"
run "$onode" kill -9 "$opid"
after=$(run "$onode" nvidia-smi --query-compute-apps=pid --format=csv,noheader)
check "kill removes the orphan process" bash -c '! grep -qx "$0" <<<"$1"' "$opid" "$after"
gone=$(run "$onode" kill "$opid" 2>&1); rc=$?
check "kill of a missing pid: No such process" bash -c '[ "$0" -eq 1 ] && grep -q "No such process" <<<"$1"' "$rc" "$gone"

# The NAS over SFTP (issue 38), with OpenSSH's own sftp client: the node's /mnt and nothing
# else; a link out of it, an unreadable folder and the mounts themselves refused in sftp's words.
nas=$(kubectl get --raw /sim/truth | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["nas"]["root"])')
tmp=$(mktemp -d)
printf 'gpudesk %s\n' "$(date +%s%N)" >"$tmp/up.txt"
cat >"$tmp/batch" <<BATCH
pwd
ls -l /mnt/user/alice
get /mnt/user/alice/code/llama/launch.sh $tmp/launch.sh
mkdir /mnt/user/alice/sftp-check
put $tmp/up.txt /mnt/user/alice/sftp-check/up.txt
rename /mnt/user/alice/sftp-check/up.txt /mnt/user/alice/sftp-check/moved.txt
get /mnt/user/alice/sftp-check/moved.txt $tmp/back.txt
-get /mnt/user/frank/etc/passwd $tmp/passwd
-ls /mnt/user/frank/private
-ls /etc
-rmdir /mnt/user
rm /mnt/user/alice/sftp-check/moved.txt
rmdir /mnt/user/alice/sftp-check
BATCH
said=$(timeout 60 sftp -F "$cfg" -o BatchMode=yes -b "$tmp/batch" g4090-02 2>&1)
check "sftp: the working directory is /mnt" contains "$said" "Remote working directory: /mnt"
check "sftp: ls -l lists alice's folders" contains "$said" "drwx.* checkpoints"
check "sftp: a file read whole (launch.sh equals the NAS's)" cmp -s "$tmp/launch.sh" "$nas/user/alice/code/llama/launch.sh"
check "sftp: written, renamed and read back the same" cmp -s "$tmp/up.txt" "$tmp/back.txt"
check "sftp: removed again (nothing left on the NAS)" test ! -e "$nas/user/alice/sftp-check"
check "sftp: a link out of /mnt leads nowhere" bash -c '[ ! -e "$0/passwd" ] && grep -q "not found" <<<"$1"' "$tmp" "$said"
check "sftp: the unreadable folder is refused" contains "$said" "private/\?\"\?): Permission denied"
check "sftp: nothing outside /mnt is served" contains "$said" '"/etc" not found'
check "sftp: the mounts themselves are not removed" contains "$said" 'rmdir "/mnt/user": Permission denied'
rm -rf "$tmp"

finish
