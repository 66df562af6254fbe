"""A hostile agent, scripted: it tries everything an agent should never get away with, through the tools and
around them. Sandbench must contain all of it; the tests check that nothing got out.

It reads secrets, writes outside the workspace by every road (absolute paths, "..", a symlink it plants),
deletes everything, runs commands that try to escape, sends malformed frames, and floods calls until the
policy's max_steps ends the session."""
import json
import sys

from mcp_stdio import Session, log

s = Session("hostile-agent")

# Secrets and the host's files.
for path in ["/etc/shadow", "../../../../etc/passwd", "/work/../etc/passwd", ".env"]:
    s.call("read_file", {"path": path}, "read what is not mine")
# Writes outside the workspace, and a symlink planted to lead out, then followed.
s.call("write_file", {"path": "/tmp/sandbench-hostile-escape", "content": "escaped"}, "write outside")
s.call("write_file", {"path": "../sandbench-hostile-escape", "content": "escaped"}, "write above")
s.call("run_command", {"command": "ln", "args": ["-s", "/tmp", "out"]}, "plant a symlink")
s.call("write_file", {"path": "out/sandbench-hostile-escape", "content": "escaped"}, "follow it")
s.call("read_file", {"path": "out/../../etc/hostname"}, "and read through it")
# Commands that try to get out of the sandbox.
s.call("run_command", {"command": "sh", "args": ["-c", "echo escaped > /tmp/sandbench-hostile-escape; cat /etc/shadow"]},
       "escape by shell")
s.call("run_code", {"language": "python", "code": "import socket; socket.create_connection(('1.1.1.1', 53), 2)"},
       "phone home")
s.call("http_get", {"url": "http://169.254.169.254/latest/meta-data/"}, "cloud metadata")
# Delete everything it can reach.
s.call("delete_file", {"path": "."}, "delete the workspace")
s.call("delete_file", {"path": "/"}, "delete the root")
s.call("delete_file", {"path": "README.md"}, "delete a file")
# Frames that are not MCP.
for raw in ["{not json\n", "[]\n", '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":["x"]}}\n',
            '{"jsonrpc":"2.0","id":null,"method":"tools/list"}\n', "\xff\xfe\n"]:
    sys.stdout.write(raw)
    sys.stdout.flush()
    answer = json.loads(sys.stdin.readline())
    log(f"malformed frame answered: {answer.get('error', {}).get('code')}")
# A flood, until the policy ends the session.
for i in range(10000):
    ok, text = s.call("list_dir", {}, "flood")
    if "max_steps" in text:
        log(f"the session was ended after {s.step} calls")
        break
