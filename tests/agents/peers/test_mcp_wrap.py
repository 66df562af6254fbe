#!/usr/bin/env python3
"""The official MCP SDK's client drives `sandbench mcp wrap` around a real MCP server, and the store is checked.

    test_mcp_wrap.py --sandbench BIN --node NODE --peers DIR --level process|container --walk filesystem|everything

wrap_client.mjs (beside this file) walks the server through the gateway and prints what each request got back;
this script prepares a fresh store, a policy and a sandbox, runs the walk, then checks what the client saw
against what Sandbench recorded (`sessions show --json`, `checkpoint list`) and against the host's files:
every call recorded with its verdict, refused calls answered with isError and the policy's message, writes
confined to the sandbox's workspace, a checkpoint before each destructive call, and the rest of the protocol
(progress, server-to-client requests, cancellation, resources, prompts) passed through.

Every failed check is printed, then the client's summary, the frames it exchanged and the recorded session;
the exit status is 1. A missing node or npm install is a failure too (scripts/test installs them)."""

import argparse
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

PACKAGES = ("sdk", "server-filesystem", "server-everything")
SEED = "seed from the peer test\n"
# The named argument rule's message: the client must get it back word for word.
RULE_MESSAGE = "writes stay in the workspace (peer test rule)"
WALK_TIMEOUT_S = 150


class Failure(Exception):
    """The test cannot go on: the reason is printed and the test fails."""


class Checks:
    """Collects failed checks so one run reports all of them."""

    def __init__(self):
        self.failed = []

    def expect(self, condition, what, seen=None):
        if not condition:
            self.failed.append(what if seen is None else f"{what} (got: {_short(seen)})")
        return bool(condition)


def _short(value, limit=600):
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True)
    return text if len(text) <= limit else text[:limit] + f"... [{len(text) - limit} more characters]"


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sandbench", required=True, help="the sandbench binary (sandbench-launcher beside it)")
    parser.add_argument("--node", required=True, help="the node binary")
    parser.add_argument("--peers", required=True, help="tests/agents/peers, with node_modules installed (npm ci)")
    parser.add_argument("--level", required=True, choices=("process", "container"))
    parser.add_argument("--walk", required=True, choices=("filesystem", "everything"))
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder and print its path")
    return parser.parse_args()


def require_peers(args):
    """node and the pinned packages, or a failure that says how to get them."""
    node = shutil.which(args.node) if args.node else None
    if not node:
        raise Failure(f"node (Node.js) is needed to run the MCP peers and was not found ('{args.node}'); "
                      "scripts/test installs it")
    version = subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
    major = re.match(r"v(\d+)\.", version)
    if not major or int(major.group(1)) < 18:
        raise Failure(f"the MCP peers need Node.js 18 or newer; {node} is '{version}'")
    missing = [p for p in PACKAGES
               if not (Path(args.peers) / "node_modules" / "@modelcontextprotocol" / p / "package.json").is_file()]
    if missing:
        raise Failure(f"the MCP peers are not installed in {args.peers}/node_modules (missing "
                      f"{', '.join('@modelcontextprotocol/' + p for p in missing)}); scripts/test installs them "
                      "(install_mcp_peers in scripts/common.sh: npm ci in tests/agents/peers)")
    if not os.access(args.sandbench, os.X_OK):
        raise Failure(f"no sandbench binary at {args.sandbench}")
    return str(Path(node).resolve())


def readable_by_all(root):
    """The sandboxed server runs as another uid when root starts it: it must read the copied packages."""
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                mode = os.stat(path).st_mode
                extra = stat.S_IRGRP | stat.S_IROTH
                if stat.S_ISDIR(mode) or mode & stat.S_IXUSR:
                    extra |= stat.S_IXGRP | stat.S_IXOTH
                os.chmod(path, mode | extra)


class Fixture:
    """A temporary folder with the store, the policy and a copy of the peers.

    The peers are copied rather than used in place: at container level the sandbox's workspace is mounted at
    /work, which hides a checkout that lives below /work, and the unprivileged test user may not be allowed
    into the checkout at all."""

    def __init__(self, args, node):
        self.args = args
        self.node = node
        self.nonce = uuid.uuid4().hex[:12]
        self.root = Path(tempfile.mkdtemp(prefix="sandbench-peers-"))
        os.chmod(self.root, 0o755)
        self.store = self.root / "store.db"
        self.peers = self.root / "peers"
        self.peers.mkdir()
        shutil.copytree(Path(args.peers) / "node_modules", self.peers / "node_modules", symlinks=True)
        shutil.copy2(Path(args.peers) / "wrap_client.mjs", self.peers / "wrap_client.mjs")
        readable_by_all(self.peers)
        self.env = dict(os.environ)
        self.env["SANDBENCH_AUDIT_KEYS"] = str(self.root / "audit-keys")
        self.env.pop("SANDBENCH_STORE", None)
        self.policy = self.root / "policy.yaml"
        # What the client printed and what the store recorded, for the report of a failure.
        self.summary = None
        self.shown = None

    def server_script(self, package):
        return str(self.peers / "node_modules" / "@modelcontextprotocol" / package / "dist" / "index.js")

    def sandbench(self, *arguments, check=True):
        command = [self.args.sandbench, *arguments, "--store", str(self.store)]
        done = subprocess.run(command, env=self.env, capture_output=True, text=True, timeout=60)
        if check and done.returncode != 0:
            raise Failure(f"{' '.join(command)} exited {done.returncode}:\n{done.stdout}{done.stderr}")
        return done

    def sandbench_json(self, *arguments):
        out = self.sandbench(*arguments).stdout
        try:
            return json.loads(out)
        except json.JSONDecodeError as error:
            raise Failure(f"sandbench {' '.join(arguments)} did not print JSON ({error}): {_short(out)}")

    def write_policy(self, agent_section):
        # node reserves about 1.2 GiB of address space at start (V8's heap and code ranges), and memory_mb is
        # the address space of each process: 1 GiB is too little, 2 GiB leaves room.
        self.policy.write_text(f"""\
name: mcp-peers
level: {self.args.level}
allow_lower_level: false
network: none
limits: {{wall_ms: 120000, cpu_ms: 60000, memory_mb: 2048, processes: 256, open_files: 256}}
paths: {{read: [{self.peers}]}}
{agent_section}""")

    def run_walk(self, walk, wrap_arguments, server_command):
        frames = self.root / "frames.jsonl"
        command = [self.node, str(self.peers / "wrap_client.mjs"), walk, "--nonce", self.nonce,
                   "--frames", str(frames), "--timeout-ms", "30000", "--",
                   self.args.sandbench, "mcp", "wrap", "--store", str(self.store), "--policy", str(self.policy),
                   *wrap_arguments, "--", *server_command]
        try:
            done = subprocess.run(command, env=self.env, capture_output=True, text=True, timeout=WALK_TIMEOUT_S)
        except subprocess.TimeoutExpired as timeout:
            raise Failure(f"the walk did not end within {WALK_TIMEOUT_S} s: {' '.join(command)}\n"
                          f"stderr: {_short(timeout.stderr or '', 4000)}\n{self.frames_tail()}")
        try:
            summary = json.loads(done.stdout)
        except json.JSONDecodeError:
            raise Failure(f"the client printed no summary (exit {done.returncode}): {' '.join(command)}\n"
                          f"stdout: {_short(done.stdout, 4000)}\nstderr: {_short(done.stderr, 4000)}\n"
                          f"{self.frames_tail()}")
        summary["exit_status"] = done.returncode
        summary["client_stderr"] = done.stderr[-4000:]
        self.summary = summary
        return summary

    def frames_tail(self, count=40):
        frames = self.root / "frames.jsonl"
        if not frames.exists():
            return "no frames were exchanged"
        lines = frames.read_text().splitlines()
        return f"the last {min(count, len(lines))} of {len(lines)} frames:\n" + "\n".join(lines[-count:])

    def session(self):
        sessions = self.sandbench_json("sessions", "list", "--json")
        if not isinstance(sessions, list) or len(sessions) != 1:
            raise Failure(f"expected exactly one recorded session in the fresh store, got: {_short(sessions)}")
        self.shown = self.sandbench_json("sessions", "show", str(sessions[0]["id"]), "--json")
        return self.shown

    def server_runs(self):
        """The recorded runs of the server (outcome, blocked events, stderr), for the report of a failure."""
        done = self.sandbench("history", "--json", check=False)
        try:
            runs = json.loads(done.stdout)
        except json.JSONDecodeError:
            return f"sandbench history printed no JSON: {_short(done.stdout + done.stderr)}"
        keys = ("run_id", "outcome", "message", "blocked", "stderr", "isolation")
        return [{key: run.get(key) for key in keys} for run in runs if isinstance(run, dict)]

    def remove(self):
        if self.args.keep:
            print(f"kept {self.root}")
        else:
            shutil.rmtree(self.root, ignore_errors=True)


def calls_by_name(summary):
    return {call["name"]: call for call in summary.get("calls", [])}


def check_recorded_steps(checks, summary, shown, blocked_names):
    """Each tools/call of the client is a step, in order, with its arguments, a verdict that matches what the
    client got, and the frames. Returns the steps by the client's name for the call."""
    calls = summary.get("calls", [])
    steps = sorted(shown.get("steps", []), key=lambda step: step.get("index", 0))
    checks.expect(len(steps) == len(calls), f"{len(calls)} tools/call made, {len(steps)} steps recorded",
                  [step.get("tool") for step in steps])
    session = shown.get("session") or {}
    checks.expect(session.get("status") == "completed", "the session ends completed when the client closes it",
                  {k: session.get(k) for k in ("status", "message", "run_id")})
    checks.expect(session.get("run_id"), "the server's run is recorded", session)
    checks.expect((shown.get("session") or {}).get("steps") == len(calls),
                  f"the session counts {len(calls)} steps", shown.get("session"))
    by_name = {}
    for call, step in zip(calls, steps):
        name = call["name"]
        by_name[name] = step
        checks.expect(step.get("tool") == call["tool"], f"step '{name}' records the tool {call['tool']}", step.get("tool"))
        checks.expect(step.get("arguments") == call["arguments"], f"step '{name}' records the arguments sent",
                      step.get("arguments"))
        checks.expect(step.get("request_frame"), f"step '{name}' keeps its request frame", step)
        verdict = step.get("verdict")
        if name in blocked_names:
            checks.expect(verdict == "blocked", f"step '{name}' is blocked", verdict)
            checks.expect(call.get("is_error") is True, f"the client gets isError for the refused '{name}'", call)
            message = step.get("message") or ""
            checks.expect(message and message in (call.get("text") or ""),
                          f"the client gets the recorded message of the refused '{name}'",
                          {"client": call.get("text"), "recorded": message})
            checks.expect(not step.get("checkpoint_before"), f"no checkpoint before the refused '{name}' (it never ran)",
                          step.get("checkpoint_before"))
        elif "error" in call:
            # A call the client gave up (cancelled): recorded, never as allowed-and-answered.
            checks.expect(verdict in ("failed", "allowed", "denied"), f"step '{name}' has a verdict", verdict)
        else:
            expected = ("allowed", "failed") if call.get("is_error") else ("allowed",)
            checks.expect(verdict in expected, f"step '{name}' is {' or '.join(expected)}", verdict)
            checks.expect(step.get("response_frame"), f"step '{name}' keeps its response frame", step)
            checks.expect(step.get("result") is not None, f"step '{name}' keeps its result", step)
    for step in steps:
        checks.expect(step.get("started_at_ms") is not None and step.get("ended_at_ms") is not None
                      and step["ended_at_ms"] >= step["started_at_ms"],
                      f"step {step.get('index')} has its start and end times", step)
    return by_name


def walk_filesystem(fixture, checks):
    fixture.write_policy(f"""\
agent:
  blocked_tools: [move_file]
  argument_rules:
    # /tmp is let through so that the sandbox, not the policy, must keep the write to /tmp from the host.
    - name: inside-workspace
      tools: [write_file, edit_file, create_directory]
      condition: args.path.startsWith(workspace + "/") || args.path.startsWith("/tmp/")
      message: "{RULE_MESSAGE}"
  checkpoint_before: auto
""")
    seed = fixture.root / "seed"
    seed.mkdir()
    (seed / "seed.txt").write_text(SEED)
    sandbox = f"peers-{fixture.nonce}"
    fixture.sandbench("sandbox", "create", sandbox, "--import", str(seed))
    workspace = Path(fixture.sandbench("sandbox", "path", sandbox).stdout.strip()).resolve()
    # Where a write that got out would land on the host.
    escapes = [Path(f"/etc/sandbench-peer-{fixture.nonce}"), workspace.parent / f"sandbench-peer-{fixture.nonce}.txt",
               Path(f"/tmp/sandbench-peer-{fixture.nonce}.txt")]

    summary = fixture.run_walk("filesystem", ["--sandbox", sandbox],
                               [fixture.node, fixture.server_script("server-filesystem"), ".", "/tmp"])
    checks.expect(summary.get("completed") is True and summary.get("exit_status") == 0, "the walk ran to its end",
                  summary.get("failure"))
    tools = (summary.get("tools") or {}).get("names", [])
    checks.expect({"read_text_file", "write_file", "edit_file", "move_file", "list_directory"} <= set(tools),
                  "tools/list passes the server's tools through", tools)
    seen = summary.get("workspace")
    expected_seen = "/work" if fixture.args.level == "container" else str(workspace)
    checks.expect(seen == expected_seen, f"the server's working folder is the workspace, seen as {expected_seen}", seen)

    calls = calls_by_name(summary)
    note = f"peer-note-{fixture.nonce}.txt"
    checks.expect((calls.get("read seed") or {}).get("text") == SEED, "read_text_file reads the seeded file",
                  calls.get("read seed"))
    for name in ("write inside", "read back", "edit inside", "list workspace"):
        checks.expect((calls.get(name) or {}).get("is_error") is False, f"'{name}' succeeds", calls.get(name))
    checks.expect((calls.get("read back") or {}).get("text") == f"written through the gateway {fixture.nonce}\n",
                  "the file written is read back", calls.get("read back"))
    written = workspace / note
    checks.expect(written.is_file() and written.read_text() == f"written and edited through the gateway {fixture.nonce}\n",
                  f"the written and edited file is in the sandbox's workspace on the host ({written})",
                  written.read_text() if written.is_file() else "missing")
    checks.expect(RULE_MESSAGE in ((calls.get("write to /etc") or {}).get("text") or ""),
                  "the write to /etc is refused with the policy's own message", calls.get("write to /etc"))
    checks.expect((calls.get("write to ../") or {}).get("is_error") is True,
                  "the write beside the workspace (../) fails inside the sandbox", calls.get("write to ../"))
    checks.expect("move_file" in ((calls.get("blocked tool") or {}).get("text") or ""),
                  "the refusal of the blocked tool names it", calls.get("blocked tool"))
    listing = (calls.get("list workspace") or {}).get("text") or ""
    checks.expect(f"[FILE] {note}" in listing and "[FILE] seed.txt" in listing and "moved-" not in listing,
                  "list_directory shows the workspace, without the blocked move", listing)
    for path in escapes:
        checks.expect(not path.exists(), f"nothing was written outside the workspace: {path}")
    on_host = sorted(p.name for p in workspace.iterdir())
    checks.expect(on_host == sorted(["seed.txt", note]), "the workspace holds the seed and the written file only",
                  on_host)

    shown = fixture.session()
    session = (shown.get("session") or {})
    checks.expect(session.get("sandbox") == sandbox, f"the session ran in the sandbox {sandbox}", session)
    checks.expect(session.get("kind") not in (None, ""), "the session has a kind", session)
    steps = check_recorded_steps(checks, summary, shown, blocked_names={"write to /etc", "blocked tool"})
    # These two pass the policy and reach the server: what keeps them from the host is the sandbox.
    for name in ("write to ../", "write to /tmp"):
        checks.expect(steps.get(name, {}).get("verdict") == "allowed", f"the policy lets '{name}' reach the server",
                      steps.get(name))
    etc = (steps.get("write to /etc") or {})
    checks.expect("inside-workspace" in (etc.get("rule") or ""), "the /etc write is blocked by the rule inside-workspace",
                  etc.get("rule"))
    checks.expect("move_file" in ((steps.get("blocked tool") or {}).get("rule") or ""),
                  "move_file is blocked by blocked_tools", (steps.get("blocked tool") or {}).get("rule"))
    # Checkpoint ids carry their place in the graph; their trees are the workspace's content.
    trees = {c.get("id"): c.get("tree") for c in fixture.sandbench_json("checkpoint", "list", "--sandbox", sandbox, "--json")}
    for name in ("write inside", "edit inside"):
        before = steps.get(name, {}).get("checkpoint_before")
        checks.expect(before, f"a checkpoint is taken before the destructive '{name}'", steps.get(name))
        checks.expect(before in trees, f"the checkpoint before '{name}' is one of the sandbox's checkpoints",
                      {"checkpoint_before": before, "checkpoints": sorted(c for c in trees if c)})
    write_tree = trees.get(steps.get("write inside", {}).get("checkpoint_before"))
    edit_tree = trees.get(steps.get("edit inside", {}).get("checkpoint_before"))
    checks.expect(write_tree and edit_tree and write_tree != edit_tree,
                  "the checkpoints before the write and before the edit hold different workspaces (the write came "
                  "between them)", {"before write": write_tree, "before edit": edit_tree})


def walk_everything(fixture, checks):
    fixture.write_policy("""\
agent:
  blocked_tools: [get-env]
  checkpoint_before: never
""")
    summary = fixture.run_walk("everything", [], [fixture.node, fixture.server_script("server-everything"), "stdio"])
    nonce = fixture.nonce
    checks.expect(summary.get("completed") is True and summary.get("exit_status") == 0, "the walk ran to its end",
                  summary.get("failure"))
    tools = (summary.get("tools") or {}).get("names", [])
    checks.expect({"echo", "get-sum", "trigger-long-running-operation", "get-roots-list", "trigger-sampling-request",
                   "get-env"} <= set(tools), "tools/list passes the server's tools through", tools)
    checks.expect((summary.get("server") or {}).get("protocol_version"), "initialize settles on a protocol version",
                  summary.get("server"))
    calls = calls_by_name(summary)
    checks.expect((calls.get("echo") or {}).get("text") == f"Echo: hello through the gateway {nonce}", "echo answers",
                  calls.get("echo"))
    checks.expect((calls.get("sum") or {}).get("text") == "The sum of 2 and 40 is 42.", "get-sum answers", calls.get("sum"))
    notifications = (summary.get("notifications") or {})
    checks.expect((calls.get("progress") or {}).get("progress_frames") == [1, 2, 3, 4, "result"],
                  "the long call's four progress notifications arrive, in order, before its result",
                  calls.get("progress"))
    checks.expect("completed" in ((calls.get("progress") or {}).get("text") or ""), "the long call completes",
                  calls.get("progress"))
    checks.expect(notifications.get("tools_list_changed", 0) >= 1, "notifications/tools/list_changed arrives",
                  notifications)
    checks.expect(notifications.get("logging", 0) >= 1, "notifications/message (logging) arrives", notifications)
    requests = (summary.get("server_requests") or {})
    checks.expect(requests.get("roots/list", 0) >= 1, "the server's roots/list reaches the client", requests)
    checks.expect(summary.get("root_uri", "?") in ((calls.get("roots inside a call") or {}).get("text") or ""),
                  "the client's roots reach the server inside a call", calls.get("roots inside a call"))
    checks.expect(requests.get("sampling/createMessage") == 1, "the server's sampling request reaches the client once",
                  requests)
    checks.expect(f"scripted sample {nonce}" in ((calls.get("sampling inside a call") or {}).get("text") or ""),
                  "the client's sampling answer reaches the server inside a call", calls.get("sampling inside a call"))
    checks.expect("get-env" in ((calls.get("blocked tool") or {}).get("text") or ""),
                  "the refusal of the blocked tool names it", calls.get("blocked tool"))
    cancelled = (calls.get("cancelled") or {})
    checks.expect(cancelled.get("aborted") is True and "error" in cancelled, "the cancelled call ends as cancelled",
                  cancelled)
    checks.expect((calls.get("echo after cancel") or {}).get("text") == "Echo: still here",
                  "the session goes on after a cancellation", calls.get("echo after cancel"))
    checks.expect((summary.get("resources") or {}).get("count", 0) > 0, "resources/list passes through",
                  summary.get("resources"))
    checks.expect((summary.get("resource_read") or {}).get("contents", 0) >= 1, "resources/read passes through",
                  summary.get("resource_read"))
    checks.expect("simple-prompt" in (summary.get("prompts") or {}).get("names", []), "prompts/list passes through",
                  summary.get("prompts"))
    checks.expect((summary.get("prompt_get") or {}).get("messages", 0) >= 1, "prompts/get passes through",
                  summary.get("prompt_get"))

    shown = fixture.session()
    session = (shown.get("session") or {})
    sandbox = session.get("sandbox") or ""
    checks.expect(re.fullmatch(r"agent-[0-9A-Za-z]{8}", sandbox), "without --sandbox the session gets a new agent-XXXXXXXX",
                  sandbox)
    if sandbox:
        path = fixture.sandbench("sandbox", "path", sandbox, check=False)
        checks.expect(path.returncode == 0 and Path(path.stdout.strip()).is_dir(), f"the sandbox {sandbox} exists",
                      path.stdout + path.stderr)
    steps = check_recorded_steps(checks, summary, shown, blocked_names={"blocked tool"})
    checks.expect("get-env" in ((steps.get("blocked tool") or {}).get("rule") or ""), "get-env is blocked by blocked_tools",
                  (steps.get("blocked tool") or {}).get("rule"))
    taken = {name: step.get("checkpoint_before") for name, step in steps.items() if step.get("checkpoint_before")}
    checks.expect(not taken, "checkpoint_before: never takes no checkpoint", taken)


def walk_filesystem_unreachable(fixture, checks):
    """Root's server at the process level is a transient user, which works in its workspace (its working folder)
    but cannot reach it by its path: the store's folders above it are closed to other users. server-filesystem
    resolves the folder it is given by path and so cannot start; the gateway says why and what works, and the
    session is recorded with the server's end."""
    fixture.write_policy("agent:\n  checkpoint_before: never\n")
    initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                  "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                             "clientInfo": {"name": "peers", "version": "1"}}}
    command = [fixture.args.sandbench, "mcp", "wrap", "--store", str(fixture.store), "--policy", str(fixture.policy),
               "--", fixture.node, fixture.server_script("server-filesystem"), "."]
    done = subprocess.run(command, env=fixture.env, input=json.dumps(initialize) + "\n", capture_output=True,
                          text=True, timeout=WALK_TIMEOUT_S)
    checks.expect("cannot reach it by its path" in done.stderr and "container level" in done.stderr,
                  "the gateway notes that the server cannot reach its workspace by its path, and what works",
                  done.stderr)
    answers = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    checks.expect(any(answer.get("id") == 1 and "error" in answer for answer in answers),
                  "initialize is answered with an error: the server ended before it answered", done.stdout)
    shown = fixture.session()
    session = shown.get("session") or {}
    checks.expect(session.get("status") in ("failed", "completed") and session.get("steps") == 0,
                  "the session is recorded, ended, with no step", session)


def main():
    args = parse_arguments()
    checks = Checks()
    fixture = None
    try:
        node = require_peers(args)
        fixture = Fixture(args, node)
        walk = walk_filesystem if args.walk == "filesystem" else walk_everything
        if args.walk == "filesystem" and args.level == "process" and os.geteuid() == 0:
            walk = walk_filesystem_unreachable
        walk(fixture, checks)
    except Failure as failure:
        checks.failed.append(str(failure))
    except Exception as error:  # a bug of this script or an unexpected answer: fail with what happened
        checks.failed.append(f"{type(error).__name__}: {error}")
    finally:
        if checks.failed and fixture is not None:
            print("==> the client's summary", file=sys.stderr)
            print(json.dumps(fixture.summary, indent=1)[:20000] if fixture.summary else "none", file=sys.stderr)
            print("==> " + fixture.frames_tail(), file=sys.stderr)
            print("==> the recorded session", file=sys.stderr)
            print(json.dumps(fixture.shown, indent=1)[:20000] if fixture.shown else "none", file=sys.stderr)
            print("==> the server's recorded runs", file=sys.stderr)
            print(json.dumps(fixture.server_runs(), indent=1)[:8000], file=sys.stderr)
        if fixture is not None:
            fixture.remove()
    name = f"mcp wrap, {args.walk} walk, {args.level} level"
    if checks.failed:
        print(f"FAILED: {name}: {len(checks.failed)} check(s) failed:", file=sys.stderr)
        for failure in checks.failed:
            print(f"  - {failure}", file=sys.stderr)
        return 1
    if fixture.summary is None:
        print(f"passed: {name}")
        return 0
    calls = fixture.summary.get("calls", [])
    times = sorted(call["ms"] for call in calls if "ms" in call)
    print(f"passed: {name}: {len(calls)} tool calls recorded and checked; initialize through the gateway "
          f"{(fixture.summary.get('server') or {}).get('connect_ms')} ms (the server's start included), a tools/call "
          f"{times[len(times) // 2] if times else '?'} ms at the median, as the client saw them")
    return 0


if __name__ == "__main__":
    sys.exit(main())
