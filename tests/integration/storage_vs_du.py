#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The NAS's figures in `gpudesk --report` (issue 38): walked over SSH on a node of a frozen
gpudesk-sim, whose NAS is a real directory tree; each user's and group's bytes and files must
equal `du -sb` and `find` of that tree, counted here on their own — then again after files are
added and removed. The hostile corner (a name with a newline, `$(reboot).txt`, a symlink loop, a
link out of the root, a folder that cannot be read, a 10 GiB sparse file) is said in words and
nothing is followed out of the root."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from kubernetes import client, config

gpudesk, sim_bin = sys.argv[1:]
results = []


def check(name, ok):
    results.append(bool(ok))
    print(("ok   - " if ok else "FAIL - ") + name)


def du_bytes(path):
    """`du -sb`: apparent sizes of the folder and everything below, links not followed."""
    out = subprocess.run(["du", "-sb", path], capture_output=True, text=True, check=True).stdout
    return int(out.split("\t", 1)[0])


def non_dirs(path):
    out = subprocess.run(["find", path, "-mindepth", "1", "-not", "-type", "d", "-printf", "x"],
                         capture_output=True, text=True, check=True).stdout
    return len(out)


with tempfile.TemporaryDirectory() as state:
    sim = subprocess.Popen([sim_bin, "--state-dir", state, "--speed", "0"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for line in sim.stdout:
            if "ready" in line:
                break
        kubeconfig = os.path.join(state, "kubeconfig")
        ssh_config = os.path.join(state, "ssh_config")
        # The cache and settings in the test's own folders, never the user's.
        env = dict(os.environ, **{f"XDG_{d}_HOME": os.path.join(state, d.lower())
                                  for d in ("DATA", "CONFIG", "CACHE", "STATE")})
        config.load_kube_config(config_file=kubeconfig, context="sim-admin")
        raw = client.ApiClient().call_api("/sim/truth", "GET", auth_settings=["BearerToken"],
                                          _preload_content=False)[0].data
        nas = json.loads(raw)["nas"]
        root = nas["root"]

        walked = {}  # the bracket of the last report's walk: (before, after), seconds

        def report(*extra):
            out = os.path.join(state, "report.json")
            walked["at"] = (time.time(),)
            run = subprocess.run([gpudesk, "--kubeconfig", kubeconfig, "--context", "sim-admin",
                                  "--report", out, "--ssh-config", ssh_config, *extra],
                                 capture_output=True, text=True, timeout=180, env=env)
            check(f"report exits 0 ({run.stdout.strip()[:100]} {run.stderr.strip()[:300]})",
                  run.returncode == 0)
            walked["at"] += (time.time(),)
            return json.load(open(out))

        def written_in_day(path):
            """Bytes of the files below `path` changed within the day before the walk: as the walk
            ran somewhere between the report's start and end, the least and the most it can be."""
            before, after = walked["at"]
            least = most = 0
            linked = set()  # a file of several names counts once, as in du
            for d, _, files in os.walk(host(path)):
                for n in files:
                    st = os.lstat(os.path.join(d, n))
                    if st.st_nlink > 1 and st.st_ino in linked:
                        continue
                    linked.add(st.st_ino)
                    if st.st_mtime >= after - 86400:
                        least += st.st_size
                    if st.st_mtime >= before - 86400:
                        most += st.st_size
            return least, most

        def host(path):
            assert path.startswith("/mnt/")
            return os.path.join(root, path[len("/mnt/"):])

        def expected(path):
            """du and find of the served folder; a folder the node's user cannot read is counted
            itself and not what it holds (as find on the node sees it)."""
            h = host(path)
            b, f = du_bytes(h), non_dirs(h)
            for d, dirs, _ in os.walk(h):
                for name in dirs:
                    p = os.path.join(d, name)
                    if not os.path.islink(p) and os.stat(p).st_mode & 0o444 == 0:
                        b -= du_bytes(p) - os.lstat(p).st_size
                        f -= non_dirs(p)
            return b, f

        def compare(doc, when):
            folders = {f["path"]: f for f in doc["storage"]}
            served = sorted(["/mnt/user/" + n for n in os.listdir(os.path.join(root, "user"))] +
                            ["/mnt/share/" + n for n in os.listdir(os.path.join(root, "share"))])
            check(f"{when}: a row for every folder served ({len(served)})",
                  sorted(folders) == served)
            wrong = []
            for path in served:
                b, f = expected(path)
                got = folders.get(path, {})
                if (got.get("bytes"), got.get("files")) != (b, f):
                    wrong.append((path, got.get("bytes"), b, got.get("files"), f))
            check(f"{when}: bytes and files of every folder equal du -sb and find {wrong[:3]}",
                  not wrong)
            off = []
            for p in served:
                least, most = written_in_day(p)
                if not least <= folders.get(p, {}).get("changedDay", -1) <= most:
                    off.append((p, folders.get(p, {}).get("changedDay"), least, most))
            check(f"{when}: every folder's 'written in the day' is what its files changed in the "
                  f"day add up to {off[:2]}", not off)
            return folders

        doc = report("--measure-storage")
        folders = compare(doc, "first walk")
        check(f"the truth's folders agree with du too ({len(nas['folders'])})",
              len(nas["folders"]) >= 15
              and all(expected(p) == (v["bytes"], v["files"]) for p, v in nas["folders"].items()))
        # A file of two names (alice's newest checkpoint, also latest.pt): du counts it once,
        # and so must the walk — the comparison above holds only then; listed once, by one name.
        latest = [os.path.join(d, n) for d, _, names in os.walk(host("/mnt/user/alice"))
                  for n in names if n == "latest.pt"]
        twins = [os.path.join(os.path.dirname(p), n) for p in latest
                 for n in os.listdir(os.path.dirname(p))
                 if os.lstat(os.path.join(os.path.dirname(p), n)).st_ino == os.lstat(p).st_ino]
        listed = [f["path"] for f in folders["/mnt/user/alice"]["largestFiles"]
                  if host(f["path"]) in twins]
        check(f"a hard link (alice's latest.pt, {len(twins)} names of one file of "
              f"{os.lstat(latest[0]).st_size if latest else 0} bytes) counted once, listed once "
              f"{listed}",
              len(latest) == 1 and len(twins) == 2 and os.lstat(latest[0]).st_nlink == 2
              and folders["/mnt/user/alice"]["bytes"] == du_bytes(host("/mnt/user/alice"))
              and len(listed) <= 1)
        roots = {r["path"]: r for r in doc["storageRoots"]}
        check(f"both roots measured, on a node, complete ({sorted(roots)})",
              set(roots) == {"/mnt/user", "/mnt/share"}
              and all(r["complete"] and r["node"] and not r["error"] for r in roots.values()))
        check(f"the roots' fill from df: /mnt/share {roots['/mnt/share']['percentUsed']} %",
              roots["/mnt/share"]["percentUsed"] == 93 and roots["/mnt/user"]["percentUsed"] == 81)
        user = {f["owner"]: f for f in doc["storage"] if f["kind"] == "user"}
        group = {f["owner"]: f for f in doc["storage"] if f["kind"] == "group"}
        check(f"users and groups told apart ({len(user)} users, groups {sorted(group)})",
              len(user) >= 10 and {"nlp", "cv", "speech"} <= set(group))
        check("alice keeps the most of the users",
              max(user.values(), key=lambda f: f["bytes"])["owner"] == "alice")
        check("every row has its date and growth (net growth null: no history yet)",
              all(f["measuredAt"] and f["growth"]["day"] is None for f in doc["storage"]))
        # The hostile corner.
        frank = folders["/mnt/user/frank"]
        problems = " ".join(roots["/mnt/user"]["problems"])
        check(f"the folder that cannot be read is named, in words: {problems[:160]}",
              "/mnt/user/frank/private" in problems and "permission denied" in problems)
        names = [f["path"] for f in frank["largestFiles"]]
        check(f"the sparse file: 10 GiB of size, next to nothing on disk",
              any(f["path"].endswith("/sparse.img") and f["bytes"] == 10 << 30
                  and f["allocated"] < 1 << 20 for f in frank["largestFiles"]))
        everything = json.dumps(doc["storage"])
        check("every line of the walk was a record: the names with a newline, $(…), -rf are data",
              not any("not records" in p for r in roots.values() for p in r["problems"]))
        check("nothing outside the root is named (the link to /etc is not followed)",
              "/mnt/user/frank/etc/" not in everything and "passwd" not in everything)
        stale = [c["path"] for f in doc["storage"] for c in f["staleFiles"]]
        old = []
        for d, _, files in os.walk(os.path.join(root, "user")):
            for n in files:
                st = os.lstat(os.path.join(d, n))
                if os.path.isfile(os.path.join(d, n)) and not os.path.islink(os.path.join(d, n)) \
                        and st.st_size >= 1 << 30 and max(st.st_mtime, st.st_atime) < time.time() - 90 * 86400:
                    old.append("/mnt/" + os.path.relpath(os.path.join(d, n), root))
        check(f"stale files (1 GiB+, 90 days unread and unchanged) are the tree's {sorted(old)}",
              sorted(p for p in stale if p.startswith("/mnt/user/")) == sorted(old) and len(old) > 0)
        cores = [c["path"] for f in doc["storage"] for c in f["coreDumps"]]
        check(f"core dumps found ({len(cores)})", cores and all("/core" in c for c in cores))

        # The report reads the cache when the walk is not due: same figures, same date.
        again = report()
        check("without --measure-storage the last walk is reported, with its date",
              [f["measuredAt"] for f in again["storage"]] == [f["measuredAt"] for f in doc["storage"]])

        # Files added and removed, then walked again.
        alice = host("/mnt/user/alice")
        with open(os.path.join(alice, "new-results.bin"), "wb") as f:
            f.write(os.urandom(3 << 20))
        bob_ckpt = os.path.join(host("/mnt/user/bob"), "checkpoints")
        removed = du_bytes(bob_ckpt) if os.path.isdir(bob_ckpt) else 0
        bob_before = du_bytes(host("/mnt/user/bob"))
        shutil.rmtree(bob_ckpt, ignore_errors=True)
        # What du says bob lost (the folder's own size may shrink too, as on tmpfs).
        bob_lost = bob_before - du_bytes(host("/mnt/user/bob"))
        os.makedirs(os.path.join(host("/mnt/share/cv"), "new-set"), exist_ok=True)
        with open(os.path.join(host("/mnt/share/cv"), "new-set", "part-0"), "wb") as f:
            f.write(b"x" * 12345)
        doc2 = report("--measure-storage")
        folders2 = compare(doc2, "after adding and removing")
        check(f"bob's folder shrank by his checkpoints ({removed} bytes, {bob_lost} by du)",
              removed > 0 and bob_lost >= removed
              and folders["/mnt/user/bob"]["bytes"] - folders2["/mnt/user/bob"]["bytes"] == bob_lost)
        least, most = written_in_day("/mnt/user/alice")
        check(f"alice's 'written in the day' is the tree's ({least} ≤ "
              f"{folders2['/mnt/user/alice']['changedDay']} ≤ {most}), the 3 MiB just written in it",
              least <= folders2["/mnt/user/alice"]["changedDay"] <= most
              and os.lstat(os.path.join(alice, "new-results.bin")).st_size == 3 << 20
              and os.lstat(os.path.join(alice, "new-results.bin")).st_mtime >= walked["at"][0] - 60)
    finally:
        sim.terminate()
        sim.wait(timeout=30)

print(f"{sum(results)}/{len(results)} checks passed")
sys.exit(0 if all(results) and results else 1)
