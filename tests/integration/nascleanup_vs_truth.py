#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""`gpudesk --cleanup` with the NAS's classes (issue 38, part 3) against a frozen gpudesk-sim whose
NAS is a real directory tree: the candidates are exactly what this script finds in that tree on
its own (core dumps older than 7 days, files of 1 GiB and more neither read nor changed for 90
days, user folders of no namespace labelled gpudesk.io/user untouched for 30 days, a user's
checkpoints/NAME untouched for 30 days of no job or pod NAME left in the user's namespaces), each
once;
a plan changes nothing; a file changed or read after the walk, and a folder with an entry made in
it, are left out of the plan, said in its notes;
apply removes what the plan said — the folder's blocks freed as df shows them, the sparse core
dumps removed and said Unverified (nothing freed) —, the audit log has them, and a second plan
finds none of them. Without a NAS class, --cleanup does not touch the NAS."""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

from kubernetes import client, config

gpudesk, sim_bin = sys.argv[1:]
results = []
DAY = 86400


def check(name, ok):
    results.append(bool(ok))
    print(("ok   - " if ok else "FAIL - ") + name, flush=True)


with tempfile.TemporaryDirectory() as state:
    sim = subprocess.Popen([sim_bin, "--state-dir", state, "--speed", "0"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        for line in sim.stdout:
            if "ready" in line:
                break
        kubeconfig = os.path.join(state, "kubeconfig")
        env = dict(os.environ, **{f"XDG_{d}_HOME": os.path.join(state, d.lower())
                                  for d in ("DATA", "CONFIG", "CACHE", "STATE")})
        config.load_kube_config(config_file=kubeconfig, context="sim-admin")
        raw = client.ApiClient().call_api("/sim/truth", "GET", auth_settings=["BearerToken"],
                                          _preload_content=False)[0].data
        root = json.loads(raw)["nas"]["root"]
        users = {ns.metadata.labels["gpudesk.io/user"]
                 for ns in client.CoreV1Api().list_namespace().items
                 if (ns.metadata.labels or {}).get("gpudesk.io/user")}

        def host(path):
            return os.path.join(root, path[len("/mnt/"):])

        # What the tree holds, found here on its own.
        now = time.time()
        departed, cores, stale = set(), set(), set()
        user_root = os.path.join(root, "user")
        for name in sorted(os.listdir(user_root)):
            folder = os.path.join(user_root, name)
            if name in users or not os.path.isdir(folder) or os.path.islink(folder):
                continue
            newest = os.lstat(folder).st_mtime
            for d, dirs, files in os.walk(folder):
                for n in dirs + files:
                    newest = max(newest, os.lstat(os.path.join(d, n)).st_mtime)
            if newest < now - 30 * DAY:
                departed.add("/mnt/user/" + name)
        for area in ("user", "share"):
            for d, dirs, files in os.walk(os.path.join(root, area)):
                for n in files:
                    p = os.path.join(d, n)
                    st = os.lstat(p)
                    nas = "/mnt/" + os.path.relpath(p, root)
                    if any(nas.startswith(f + "/") for f in departed):
                        continue
                    is_core = n == "core" or (n.startswith("core.") and n[5:].isdigit())
                    if is_core and st.st_mtime < now - 7 * DAY:
                        cores.add(nas)
                    elif (not is_core and st.st_size >= 1 << 30
                          and max(st.st_mtime, st.st_atime) < now - 90 * DAY):
                        stale.add(nas)
        check(f"the demo's NAS has candidates of each class ({sorted(departed)}, {sorted(cores)}, "
              f"{sorted(stale)})", departed and cores and stale)

        base = [gpudesk, "--kubeconfig", kubeconfig, "--context", "sim-admin",
                "--ssh-config", os.path.join(state, "ssh_config")]
        classes = "nas-stale-file,nas-core-dump,nas-departed-user"

        def cleanup(mode, *extra):
            run = subprocess.run(base + ["--cleanup", mode, *extra], capture_output=True,
                                 text=True, timeout=600, env=env, stdin=subprocess.DEVNULL)
            try:
                return run, json.loads(run.stdout)
            except ValueError:
                return run, {}

        run, plan = cleanup("plan", "--classes", classes)
        check(f"plan exits 0 ({run.stderr.strip()[-300:]})", run.returncode == 0)
        found = {(c["class"], c["path"]) for c in plan.get("nasCandidates", [])}
        want = ({("nas-departed-user", p) for p in departed} | {("nas-core-dump", p) for p in cores}
                | {("nas-stale-file", p) for p in stale})
        check(f"the candidates are the tree's ({sorted(found ^ want)} differ)", found == want)
        check("each candidate once", len(plan.get("nasCandidates", [])) == len(found))
        check("no GPU findings were asked for", plan.get("findings") == [])
        by_path = {c["path"]: c for c in plan.get("nasCandidates", [])}
        for p in departed:
            c = by_path.get(p, {})
            du = int(subprocess.run(["du", "-sb", host(p)], capture_output=True, text=True,
                                    check=True).stdout.split("\t")[0])
            check(f"{p}: its bytes are du's ({c.get('bytes')} = {du}) and its evidence names "
                  f"the missing namespace ({c.get('evidence')})",
                  c.get("bytes") == du and "gpudesk.io/user=" + p.split("/")[-1]
                  in c.get("evidence", ""))
        steps = plan.get("plan", {}).get("steps", [])
        check(f"a removal step for each candidate ({len(steps)})",
              sorted(s["target"]["name"] for s in steps) == sorted(p for _, p in found))
        check("each step says why (its class and evidence)",
              all(s.get("why", "").split(":")[0] in ("Stale large file", "Core dump",
                                                     "Folder of a user who left")
                  for s in steps))
        check("a plan changes nothing", all(os.path.lexists(host(p)) for _, p in found))

        # The outputs of jobs gone: each user's checkpoints/NAME (outputs/, ckpt/, …) neither
        # changed nor read for 90 days, NAME a job's name (lowercase, "_" as "-", a letter in
        # it), no job or pod of the user's namespaces named NAME or NAME-…, none running anywhere.
        owner_of = {ns.metadata.name: ns.metadata.labels["gpudesk.io/user"]
                    for ns in client.CoreV1Api().list_namespace().items
                    if (ns.metadata.labels or {}).get("gpudesk.io/user")}
        names, live = {}, set()
        for pod in client.CoreV1Api().list_pod_for_all_namespaces().items:
            running = pod.status.phase not in ("Succeeded", "Failed")
            for n in [pod.metadata.name] + [r.name for r in pod.metadata.owner_references or []]:
                names.setdefault(owner_of.get(pod.metadata.namespace), set()).add(n)
                if running:
                    live.add(n)
        custom = client.CustomObjectsApi()
        for group, version, plural in (("batch.volcano.sh", "v1alpha1", "jobs"),
                                       ("kubeflow.org", "v1", "pytorchjobs"),
                                       ("kubeflow.org", "v1", "mpijobs")):
            for job in custom.list_cluster_custom_object(group, version, plural)["items"]:
                # The demo's jobs that ended ended days ago: they keep their own user's folders.
                names.setdefault(owner_of.get(job["metadata"]["namespace"]), set()).add(
                    job["metadata"]["name"])
        outputs = {"checkpoints", "checkpoint", "ckpt", "ckpts", "outputs", "output"}

        def named_after(folder, name):
            f = folder.lower().replace("_", "-")
            return name == f or name.startswith(f + "-")

        job_outputs = set()
        for user in sorted(os.listdir(user_root)):
            home = os.path.join(user_root, user)
            for area in sorted(outputs & set(os.listdir(home)) if os.path.isdir(home) else []):
                top = os.path.join(home, area)
                for job in sorted(os.listdir(top)) if os.path.isdir(top) else []:
                    folder = os.path.join(top, job)
                    f = job.lower().replace("_", "-")
                    if (os.path.islink(folder) or not os.path.isdir(folder)
                            or not re.fullmatch(r"[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?", f)
                            or not re.search("[a-z]", f)):
                        continue
                    newest = os.lstat(folder).st_mtime
                    for d, dirs, files in os.walk(folder):
                        for n in dirs + files:
                            st = os.lstat(os.path.join(d, n))
                            newest = max(newest, st.st_mtime,
                                         st.st_atime if n in files and not os.path.islink(
                                             os.path.join(d, n)) else 0)
                    if (newest < now - 90 * DAY
                            and not any(named_after(job, n) for n in names.get(user, set()) | live)):
                        job_outputs.add(f"/mnt/user/{user}/{area}/{job}")
        run, jplan = cleanup("plan", "--classes", "nas-job-output")
        jfound = {c["path"]: c for c in jplan.get("nasCandidates", [])}
        check(f"the outputs of jobs gone are the tree's ({len(job_outputs)}; "
              f"{sorted(set(jfound) ^ job_outputs)} differ)",
              run.returncode == 0 and job_outputs and set(jfound) == job_outputs
              and all(c["class"] == "nas-job-output" for c in jfound.values()))
        for p in sorted(job_outputs)[:3]:
            c = jfound.get(p, {})
            du = int(subprocess.run(["du", "-sb", host(p)], capture_output=True, text=True,
                                    check=True).stdout.split("\t")[0])
            check(f"{p}: du's bytes ({c.get('bytes')} = {du}), the job named as gone "
                  f"({c.get('evidence')})",
                  c.get("bytes") == du and c.get("job") == p.split("/")[-1]
                  and "jobEnded" in c and c["jobEnded"] is None
                  and f"named for job {p.split('/')[-1]}: no job or pod of that name is left"
                  in c.get("evidence", ""))
        # An old output folder named after a job that runs: kept, however old.
        kept = "/mnt/user/alice/checkpoints/" + sorted(live)[0]
        os.makedirs(host(kept), exist_ok=True)
        old = time.time() - 400 * DAY
        with open(os.path.join(host(kept), "step-1.pt"), "wb") as f:
            f.write(b"PK\x03\x04")
        for p in (os.path.join(host(kept), "step-1.pt"), host(kept)):
            os.utime(p, (old, old))
        run, jplan2 = cleanup("plan", "--classes", "nas-job-output", "--measure-storage")
        jfound2 = {c["path"] for c in jplan2.get("nasCandidates", [])}
        check(f"an output folder of a job that runs is kept however old ({kept}; "
              f"{sorted(jfound2 ^ job_outputs)} differ; {run.stderr.strip()[-200:]})",
              run.returncode == 0 and kept not in jfound2 and jfound2 == job_outputs)

        # A file written to after the walk: the walk's figures are not what the NAS holds now.
        changed = sorted(cores)[0]
        with open(host(changed), "r+b") as f:
            f.seek(0, 2)
            f.write(b"more")
        # The walk is cached (the interval has not passed): this plan uses the same figures.
        run, plan2 = cleanup("plan", "--classes", "nas-core-dump")
        names2 = [s["target"]["name"] for s in plan2.get("plan", {}).get("steps", [])]
        check(f"the changed core dump is left out, said in the notes ({names2})",
              changed not in names2
              and any(changed in n and "changed since the walk" in n
                      for n in plan2.get("plan", {}).get("notes", [])))

        # A stale file read after the walk (its atime moved, nothing else): in use again.
        read = sorted(stale)[0]
        st = os.lstat(host(read))
        os.utime(host(read), ns=(time.time_ns(), st.st_mtime_ns))
        run, plan3 = cleanup("plan", "--classes", "nas-stale-file")
        names3 = [s["target"]["name"] for s in plan3.get("plan", {}).get("steps", [])]
        check(f"the stale file read since the walk is left out, said in the notes ({names3})",
              read not in names3 and len(names3) == len(stale) - 1
              and any(read in n and "was read since the walk" in n
                      for n in plan3.get("plan", {}).get("notes", [])))
        # A folder of a user who left with a file just made in it: someone is using it. Then
        # the file goes and the folder's times are put back (as the walk saw them).
        folder = sorted(departed)[0]
        times = os.lstat(host(folder))
        fresh = os.path.join(host(folder), "copied-today.txt")
        with open(fresh, "w") as f:
            f.write("in use\n")
        def left_out(path, words):
            """Whether a plan of the departed users' folders leaves `path` out, saying `words`."""
            run, plan = cleanup("plan", "--classes", "nas-departed-user")
            names = [s["target"]["name"] for s in plan.get("plan", {}).get("steps", [])]
            notes = plan.get("plan", {}).get("notes", [])
            return (path not in names and any(path in n and words in n for n in notes),
                    f"{names}; {notes}")

        ok, said = left_out(folder, "changed since the walk")
        check(f"the departed user's folder with an entry made since the walk is left out ({said})",
              ok)
        os.remove(fresh)
        os.utime(host(folder), ns=(times.st_atime_ns, times.st_mtime_ns))
        # A file made deeper down, the folders' own times put back: only walking the folder
        # again right before the plan finds it.
        deep = next(d for d, _, _ in os.walk(host(folder)) if d != host(folder))
        saved = {p: os.lstat(p) for p in (host(folder), deep)}
        fresh = os.path.join(deep, "copied-today.txt")
        with open(fresh, "w") as f:
            f.write("in use\n")
        for p, st in saved.items():
            os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))
        ok, said = left_out(folder, "changed below it since the walk")
        check(f"the departed user's folder with a file made deep inside is left out ({said})", ok)
        os.remove(fresh)
        for p, st in saved.items():
            os.utime(p, ns=(st.st_atime_ns, st.st_mtime_ns))

        run, done = cleanup("apply", "--yes", "--classes", "nas-core-dump,nas-departed-user")
        res = {r["target"]["name"]: r for r in done.get("results", [])}
        gone = sorted(p for p in departed | cores if p != changed)
        check(f"apply removed each planned path ({sorted(res)})", sorted(res) == gone)
        check("… and they are gone from the tree",
              not any(os.path.lexists(host(p)) for p in gone))
        check("the changed core dump is still there", os.path.exists(host(changed)))
        def said(r):
            return r.get("message", "") + " | " + r.get("verification", "")

        for p in departed:
            check(f"{p}: done, df freed its blocks ({said(res.get(p, {}))})",
                  res.get(p, {}).get("result") == "done"
                  and "more than before" in said(res.get(p, {})))
        for p in cores - {changed}:
            check(f"{p}: sparse, so unverified: nothing freed ({said(res.get(p, {}))})",
                  res.get(p, {}).get("result") == "unverified")
        check(f"apply exits 1: a step is unverified ({run.returncode})", run.returncode == 1)
        audit = os.path.join(state, "data", "gpudesk", "gpudesk", "audit.jsonl")
        records = [json.loads(line) for line in open(audit)] if os.path.exists(audit) else []
        check("the audit log has the operation started and ended",
              [r.get("event") for r in records][-2:] == ["started", "ended"])

        run, plan5 = cleanup("plan", "--classes", classes, "--measure-storage")
        found5 = {c["path"] for c in plan5.get("nasCandidates", [])}
        # What is left: the stale files (not applied) but the one read today, stale no more; the
        # changed core dump is a fresh one now.
        check(f"a plan after a new walk finds none of them, only the stale files not read since "
              f"({sorted(found5 ^ (stale - {read}))} differ)",
              run.returncode == 0 and found5 == stale - {read})

        run, plain = cleanup("plan", "--classes", "orphan-process")
        check("without a NAS class nothing of the NAS is planned",
              "nasCandidates" not in plain
              and not any(s["target"]["kind"] == "NasPath"
                          for s in plain.get("plan", {}).get("steps", [])))
    finally:
        sim.terminate()
        sim.wait(timeout=30)

print(f"{results.count(True)} of {len(results)} passed")
sys.exit(0 if all(results) else 1)
