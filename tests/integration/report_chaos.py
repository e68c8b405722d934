#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Chaos under `gpudesk --report`: the API server frozen, killed in the middle of the lists,
served with a certificate of another CA, answering with a body that never ends or that trickles.
Each run ends in bounded time, with the cause in words, for the server (not blamed on whichever
collection met it first), within a bound of memory; and a run against the mended server gives
the report a fresh one would."""
import http.server
import json
import os
import signal
import socket
import socketserver
import subprocess
import sys
import tempfile
import threading
import time

gpudesk, sim_bin = sys.argv[1:]
results = []


def check(name, ok):
    results.append(ok)
    print(("ok   - " if ok else "FAIL - ") + name, flush=True)


def report(kubeconfig, out, context="sim-admin", timeout=150):
    """Runs the report; returns (exit status, seconds, stderr, peak RSS in MiB)."""
    with tempfile.TemporaryFile("w+") as err:
        start = time.monotonic()
        p = subprocess.Popen([gpudesk, "--kubeconfig", kubeconfig, "--context", context,
                              "--report", out, "--no-ssh"],
                             stdout=subprocess.DEVNULL, stderr=err, text=True)
        timer = threading.Timer(timeout, p.kill)
        timer.start()
        _, status, usage = os.wait4(p.pid, 0)
        timer.cancel()
        p.returncode = os.waitstatus_to_exitcode(status)
        elapsed = time.monotonic() - start
        err.seek(0)
        return p.returncode, elapsed, err.read().strip(), usage.ru_maxrss / 1024


def bytes_to_sync(relay, kubeconfig, out):
    """Runs the report through the relay; returns (exit status, the bytes the server had sent
    when the report said it had synced, the bytes sent in all)."""
    relay.sent = 0
    env = dict(os.environ, QT_LOGGING_RULES="gpudesk.report.debug=true")
    p = subprocess.Popen([gpudesk, "--kubeconfig", kubeconfig, "--context", "sim-admin",
                          "--report", out, "--no-ssh"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    synced = None
    for line in p.stderr:
        if synced is None and "synced in" in line:
            synced = relay.sent
    return p.wait(timeout=150), synced or 0, relay.sent


def start_sim(state, *extra):
    sim = subprocess.Popen([sim_bin, "--state-dir", state, "--speed", "0", *extra],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in sim.stdout:
        if "ready" in line:
            break
    threading.Thread(target=sim.stdout.read, daemon=True).start()
    return sim


def server_of(kubeconfig):
    for line in open(kubeconfig):
        if line.strip().startswith("server:"):
            return line.split("server:", 1)[1].strip()
    raise RuntimeError("no server in " + kubeconfig)


class Relay(threading.Thread):
    """A TCP relay in front of the simulator that counts what the server sends and, once a
    threshold has passed, runs `at_threshold` (which kills the simulator)."""

    def __init__(self, upstream_port):
        super().__init__(daemon=True)
        self.upstream = upstream_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.sent = 0
        self.threshold = None
        self.at_threshold = None
        self.lock = threading.Lock()

    def run(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(("127.0.0.1", self.upstream))
            except OSError:
                client.close()
                continue
            threading.Thread(target=self.pipe, args=(client, server, False), daemon=True).start()
            threading.Thread(target=self.pipe, args=(server, client, True), daemon=True).start()

    def pipe(self, src, dst, downstream):
        try:
            while data := src.recv(16384):
                dst.sendall(data)
                if downstream:
                    with self.lock:
                        self.sent += len(data)
                        fire = self.threshold is not None and self.sent >= self.threshold
                        if fire:
                            self.threshold = None
                    if fire:
                        self.at_threshold()
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def with_server(kubeconfig, server, out_path):
    text = open(kubeconfig).read()
    open(out_path, "w").write(text.replace(server_of(kubeconfig), server))
    os.chmod(out_path, 0o600)
    return out_path


def nodes_and_gpus(path):
    r = json.load(open(path))
    return sorted((n["name"], n["gpus"]["total"], n["gpus"]["allocated"]) for n in r["nodes"]), r["gpus"]


with tempfile.TemporaryDirectory() as state:
    sim = start_sim(state)
    kubeconfig = os.path.join(state, "kubeconfig")
    server = server_of(kubeconfig)
    fresh = os.path.join(state, "fresh.json")
    code, secs, err, idle_rss = report(kubeconfig, fresh)
    check(f"a report against the simulator: exit 0 in {secs:.1f} s, peak {idle_rss:.0f} MiB ({err})",
          code == 0)
    fresh_figures = nodes_and_gpus(fresh)

    # 1. Frozen: the kernel accepts the connection, nothing answers. Said as the server's, in
    # bounded time, with the wait; then, thawed, the same report as before.
    os.kill(sim.pid, signal.SIGSTOP)
    out = os.path.join(state, "frozen.json")
    code, secs, err, _ = report(kubeconfig, out)
    os.kill(sim.pid, signal.SIGCONT)
    check(f"frozen server: exit 1 in {secs:.1f} s (bound 60 s): {err}",
          code == 1 and secs < 60 and server in err and "Cannot list" not in err
          and ("timed out" in err or "not respond" in err) and not os.path.exists(out))
    out = os.path.join(state, "thawed.json")
    code, secs, err, _ = report(kubeconfig, out)
    check(f"thawed: exit 0 and the figures of the fresh report ({err})",
          code == 0 and nodes_and_gpus(out) == fresh_figures)

    # 2. Killed while the lists come: a relay measures what a report reads until it has synced,
    # then the simulator is killed once half of that has passed.
    relay = Relay(int(server.rsplit(":", 1)[1]))
    relay.start()
    relayed = with_server(kubeconfig, f"https://127.0.0.1:{relay.port}",
                          os.path.join(state, "relayed"))
    code, lists, whole = bytes_to_sync(relay, relayed, os.path.join(state, "relayed.json"))
    check(f"through the relay: exit 0, {lists} bytes from the server until synced, {whole} in all",
          code == 0 and lists > 100000 and whole >= lists)
    # What the report reads first (discovery) is a few KiB: half the bytes read until it has
    # synced is inside the lists. (Half of all it reads is not: after the sync come the events
    # the doctor and the preemptions read, whose failure the report notes and survives.)
    relay.sent = 0
    relay.threshold = lists // 2
    relay.at_threshold = lambda: os.kill(sim.pid, signal.SIGKILL)
    out = os.path.join(state, "killed.json")
    code, secs, err, _ = report(relayed, out)
    sim.wait()
    check(f"killed mid-list: exit 1 in {secs:.1f} s (bound 20 s), said as the server's: {err}",
          code == 1 and secs < 20 and f"Cannot reach the API server: https://127.0.0.1:{relay.port} closed the connection" in err
          and "Cannot list" not in err and not os.path.exists(out))
    relay.listener.close()

with tempfile.TemporaryDirectory() as state:
    # 3. The server answers with a certificate of another CA than the kubeconfig trusts: the
    # simulator of another state directory has a CA of its own.
    sim = start_sim(state)
    with tempfile.TemporaryDirectory() as other:
        impostor = start_sim(other)
        kubeconfig = os.path.join(state, "kubeconfig")
        wrong = with_server(kubeconfig, server_of(os.path.join(other, "kubeconfig")),
                            os.path.join(state, "wrong-ca"))
        code, secs, err, _ = report(wrong, os.path.join(state, "wrong.json"))
        impostor.terminate()
        impostor.wait()
    check(f"another CA's certificate: exit 1 in {secs:.1f} s, said as the certificate's: {err}",
          code == 1 and secs < 20 and "certificate" in err and server_of(wrong) in err
          and "Cannot list" not in err)
    sim.terminate()
    sim.wait()


class Hostile(http.server.BaseHTTPRequestHandler):
    """A minimal API server whose node list misbehaves as `mode` says: endless, a trickle, or a
    Table (server-side printing, as a proxy may ask for on the client's behalf)."""
    protocol_version = "HTTP/1.1"
    mode = "endless"

    def log_message(self, *args):
        pass

    def answer(self, body):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        path = self.path.split("?")[0]
        if path == "/apis":
            return self.answer(b'{"kind":"APIGroupList","apiVersion":"v1","groups":[]}')
        if "watch=1" in self.path:
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            time.sleep(600)
            return
        if path == "/api/v1/nodes" and self.mode == "table":
            return self.answer(b'{"kind":"Table","apiVersion":"meta.k8s.io/v1","metadata":'
                               b'{"resourceVersion":"3"},"columnDefinitions":[{"name":"Name",'
                               b'"type":"string"}],"rows":[{"cells":["a800-01"]}]}')
        if path != "/api/v1/nodes":
            return self.answer(b'{"kind":"List","apiVersion":"v1","metadata":{"resourceVersion":"7"},'
                               b'"items":[]}')
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        start = b'{"kind":"NodeList","apiVersion":"v1","metadata":{},"items":['
        self.wfile.write(b"%x\r\n%s\r\n" % (len(start), start))
        try:
            if self.mode == "endless":
                piece = b" " * (1 << 20)
                while True:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
            else:
                while True:
                    time.sleep(10)
                    self.wfile.write(b"1\r\n \r\n")
                    self.wfile.flush()
        except OSError:
            pass


def hostile(mode):
    Hostile.mode = mode
    httpd = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Hostile)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


with tempfile.TemporaryDirectory() as home:
    kubeconfig = os.path.join(home, "kubeconfig")

    def config_for(port):
        open(kubeconfig, "w").write(f"""apiVersion: v1
kind: Config
clusters:
- name: hostile
  cluster:
    server: http://127.0.0.1:{port}
users:
- name: someone
  user:
    token: not-a-secret
contexts:
- name: sim-admin
  context:
    cluster: hostile
    user: someone
current-context: sim-admin
""")
        os.chmod(kubeconfig, 0o600)

    # 4. A node list that never ends (1 MiB chunks as fast as they are read): cut at the bound,
    # said for the list it was, with the memory within the bound above the report's own.
    httpd = hostile("endless")
    config_for(httpd.server_address[1])
    code, secs, err, rss = report(kubeconfig, os.path.join(home, "endless.json"))
    httpd.shutdown()
    check(f"endless list: exit 1 in {secs:.1f} s, peak {rss:.0f} MiB (the good run's "
          f"{idle_rss:.0f} MiB + at most 160): {err}",
          code == 1 and secs < 60 and "sent more than 64 MiB" in err and "nodes" in err
          and rss < idle_rss + 160)

    # 5. A byte every 10 s: given up after 20 s of too little, said so.
    httpd = hostile("trickle")
    config_for(httpd.server_address[1])
    code, secs, err, _ = report(kubeconfig, os.path.join(home, "trickle.json"))
    httpd.shutdown()
    check(f"trickling list: exit 1 in {secs:.1f} s (bound 45 s): {err}",
          code == 1 and secs < 45 and "sent only" in err and "in 20 s" in err)

    # 6. A Table where the node list belongs: named as what came, said once (the list's failure
    # and the retry after it each ended the report, and the error was printed twice).
    httpd = hostile("table")
    config_for(httpd.server_address[1])
    code, secs, err, _ = report(kubeconfig, os.path.join(home, "table.json"))
    httpd.shutdown()
    check(f"a Table for the node list: exit 1 in {secs:.1f} s, said once: {err}",
          code == 1 and secs < 30 and err.count("a Table (meta.k8s.io/v1") == 1
          and "Cannot list nodes" in err)

print(f"{sum(results)} of {len(results)} passed")
sys.exit(0 if all(results) else 1)
