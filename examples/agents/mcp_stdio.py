"""A minimal MCP client over stdio for the scripted example agents: JSON-RPC 2.0, one message per line, to the
server on this process's stdout and from it on stdin (Sandbench, when `sandbench agent run` starts the agent)."""
import json
import sys


class Session:
    def __init__(self, name):
        self.next_id = 0
        self.step = 0
        init = self.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                           "clientInfo": {"name": name, "version": "1.0"}})
        self.server = init["result"]["serverInfo"]
        self.notify("notifications/initialized")
        self.tools = [t["name"] for t in self.request("tools/list")["result"]["tools"]]

    def send(self, message):
        sys.stdout.write(json.dumps(message) + "\n")
        sys.stdout.flush()

    def receive(self):
        line = sys.stdin.readline()
        if not line:
            raise SystemExit("the server closed the session")
        return json.loads(line)

    def request(self, method, params=None):
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self.receive()

    def notify(self, method, params=None):
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def call(self, tool, arguments, reasoning="", cost=None):
        """One tools/call; returns (ok, text). Every call is a step of the session, refused ones too."""
        self.step += 1
        meta = {"reasoning": reasoning}
        if cost is not None:
            meta["cost"] = cost
        answer = self.request("tools/call", {"name": tool, "arguments": arguments, "_meta": meta})
        if "error" in answer:
            return False, answer["error"]["message"]
        result = answer["result"]
        text = "".join(c.get("text", "") for c in result.get("content", []))
        log(f"step {self.step} {tool}: {'refused/failed: ' if result.get('isError') else ''}{text.strip()[:200]}")
        return not result.get("isError", False), text


def log(line):
    print(line, file=sys.stderr, flush=True)
