#!/usr/bin/env python3
"""The MCP gateway's cost, side by side with calling the same server directly.

    bench/mcp_gateway.py [--sandbench BIN] [--baseline OTHER_BIN] [--calls N] [--rounds R] [--flood N]

One MCP server (a small Python one, below: `echo` answers its arguments, `write` also writes them to a file in
its working folder) is called by one client (this script,
speaking JSON-RPC over the server's stdio), either directly or through `sandbench mcp wrap`, at the process and
the container level, with `checkpoint_before: never` (the gateway alone: rule, record, forward) and `auto` (a
checkpoint before and after every call of a tool the server does not prove harmless, which is every call of
a third-party server; a checkpoint is made only when the workspace changed, so `echo` costs two walks of the
workspace and `write` a walk and a checkpoint). The rounds alternate direct and wrapped; each round makes N calls
of one tool one after another and takes the round trip of each as the client sees it.

With --baseline, another build's `sandbench` is measured in the same rounds, its calls interleaved with this
build's, and its rows follow with their ratio to this build's added latency: a change measured side by side.

Then: steps recorded per second (FLOOD calls sent without waiting, through the gateway, until every answer is
back), and `sandbench sessions show ID --json` of that FLOOD-step session (whole process, best and median of 5).

Figures go to bench/README.md with the command that measured them; nothing here is a test.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SERVER = r'''import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if "id" not in m:
        continue
    if m.get("method") == "initialize":
        r = {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "bench", "version": "1"}}
    elif m.get("method") == "tools/list":
        r = {"tools": [{"name": "echo", "inputSchema": {"type": "object"}},
                       {"name": "write", "inputSchema": {"type": "object"}}]}
    else:
        text = json.dumps(m["params"].get("arguments", {}))
        if m["params"]["name"] == "write":
            with open("note.txt", "w") as f:
                f.write(text)
        r = {"content": [{"type": "text", "text": text}]}
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": r}) + "\n")
    sys.stdout.flush()
'''


class Peer:
    """A server process and the client's end of its stdio."""

    def __init__(self, argv, env=None, cwd=None):
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                         env=env, cwd=cwd, bufsize=0)
        self.next_id = 0
        self.buffer = b""

    def send(self, message):
        self.process.stdin.write((json.dumps(message) + "\n").encode())

    def receive(self):
        while b"\n" not in self.buffer:
            chunk = os.read(self.process.stdout.fileno(), 1 << 16)
            if not chunk:
                raise SystemExit("the server ended early")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def request(self, method, params=None):
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self.receive()

    def initialize(self):
        self.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                    "clientInfo": {"name": "bench", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        self.request("tools/list")

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=60)


def timed_calls(peer, calls, tool="echo"):
    times = []
    for i in range(calls):
        started = time.perf_counter()
        answer = peer.request("tools/call", {"name": tool, "arguments": {"i": i, "text": "hello"}})
        times.append((time.perf_counter() - started) * 1000)
        assert "result" in answer, answer
    return times


def quantiles(values):
    values = sorted(values)
    return {"p10": values[len(values) // 10], "median": statistics.median(values), "p90": values[len(values) * 9 // 10]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sandbench", default=os.path.join(os.path.dirname(__file__), "..", "build", "bench", "bin",
                                                            "sandbench"))
    parser.add_argument("--baseline", help="another build's sandbench, measured in the same rounds")
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--flood", type=int, default=100000)
    args = parser.parse_args()
    sandbench = os.path.abspath(args.sandbench)
    work = tempfile.mkdtemp(prefix="sandbench-bench-mcp-")
    os.chmod(work, 0o755)
    try:
        server = os.path.join(work, "server.py")
        with open(server, "w") as f:
            f.write(SERVER)
        os.chmod(server, 0o644)
        store = os.path.join(work, "store.db")
        env = dict(os.environ, SANDBENCH_STORE=store)
        policies = {}
        for level in ("process", "container"):
            for checkpoints in ("never", "auto"):
                path = os.path.join(work, f"{level}-{checkpoints}.yaml")
                with open(path, "w") as f:
                    f.write(f"name: bench-{level}-{checkpoints}\nlevel: {level}\nlimits: {{wall_ms: 3600000, "
                            f"cpu_ms: 3600000}}\npaths: {{read: [{work}]}}\n"
                            f"agent: {{checkpoint_before: {checkpoints}}}\n")
                policies[(level, checkpoints)] = path
        direct_argv = ["/usr/bin/python3", server]
        direct_cwd = os.path.join(work, "direct")
        os.mkdir(direct_cwd)
        # (side, tool): `echo` changes nothing; `write` rewrites a small file in its working folder (the
        # workspace, through the gateway), so that with checkpoints `auto` each call makes a checkpoint.
        builds = {"": sandbench}
        if args.baseline:
            builds["baseline "] = os.path.abspath(args.baseline)
        sides = [("direct", None)] + [(label,) + key for label in builds for key in policies]
        results = {(side, tool): [] for side in sides for tool in ("echo", "write")}
        for round_number in range(args.rounds):
            # Alternate which side goes first.
            order = [(side, tool) for side in sides for tool in ("echo", "write")]
            if round_number % 2:
                order.reverse()
            for side, tool in order:
                argv = direct_argv if side[0] == "direct" else [builds[side[0]], "mcp", "wrap", "--policy",
                                                                policies[side[1:]], "--", "python3", server]
                peer = Peer(argv, env, cwd=direct_cwd if side[0] == "direct" else None)
                peer.initialize()
                timed_calls(peer, 10, tool)  # warm-up, untimed
                results[(side, tool)].extend(timed_calls(peer, args.calls, tool))
                peer.close()
        report = {"bench": "mcp_gateway", "calls": args.calls * args.rounds, "direct_ms": {}, "wrapped": {}}
        print(f"{'path':<56} {'p10 ms':>8} {'median':>8} {'p90':>8} {'added (median)':>15}")
        for tool in ("echo", "write"):
            direct = quantiles(results[(("direct", None), tool)])
            report["direct_ms"][tool] = direct
            print(f"{'direct, ' + tool:<56} {direct['p10']:8.3f} {direct['median']:8.3f} {direct['p90']:8.3f}")
            for label in builds:
                for key in policies:
                    q = quantiles(results[((label,) + key, tool)])
                    added = q["median"] - direct["median"]
                    name = f"{label.strip() + '/' if label else ''}{key[0]}/{key[1]}/{tool}"
                    report["wrapped"][name] = dict(q, added_median_ms=added)
                    line = (f"{label + 'wrap ' + key[0] + ', checkpoints ' + key[1] + ', ' + tool:<56} "
                            f"{q['p10']:8.3f} {q['median']:8.3f} {q['p90']:8.3f} {added:15.3f}")
                    if label:
                        ours = report["wrapped"][f"{key[0]}/{key[1]}/{tool}"]["added_median_ms"]
                        line += f"   this build / baseline {ours / added:.2f}" if added > 0 else ""
                    print(line)

        # Steps recorded per second: a flood of calls through the gateway, answers read as they come.
        peer = Peer([sandbench, "mcp", "wrap", "--policy", policies[("process", "never")], "--", "python3", server], env)
        peer.initialize()
        started = time.perf_counter()
        sent = 0
        received = 0
        window = 256
        while received < args.flood:
            while sent < args.flood and sent - received < window:
                peer.next_id += 1
                sent += 1
                peer.send({"jsonrpc": "2.0", "id": peer.next_id, "method": "tools/call",
                           "params": {"name": "echo", "arguments": {"i": sent}}})
            peer.receive()
            received += 1
        seconds = time.perf_counter() - started
        peer.close()
        report["flood"] = {"steps": args.flood, "seconds": seconds, "steps_per_second": args.flood / seconds}
        print(f"\nflood: {args.flood} calls through the gateway in {seconds:.2f} s: {args.flood / seconds:.0f} steps/s")

        listed = json.loads(subprocess.check_output([sandbench, "sessions", "list", "--json"], env=env))
        session = max(listed, key=lambda s: s["steps"])
        show_times = []
        for _ in range(5):
            started = time.perf_counter()
            subprocess.run([sandbench, "sessions", "show", session["id"], "--json"], env=env, check=True,
                           stdout=subprocess.DEVNULL)
            show_times.append(time.perf_counter() - started)
        report["show"] = {"steps": session["steps"], "best_s": min(show_times), "median_s": statistics.median(show_times)}
        print(f"sessions show --json of {session['steps']} steps: best {min(show_times):.3f} s, "
              f"median {statistics.median(show_times):.3f} s")
        print(json.dumps(report))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
