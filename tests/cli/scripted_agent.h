#pragma once

// The scripted agent of the CLI tests (test_agent_cli.cpp, test_cli_slurm.cpp), a Python program.

#include "cli_fixture.h"

#include <nlohmann/json.hpp>

#include <string_view>
#include <vector>

namespace sb::clitest {

// A scripted agent: speaks MCP on stdin/stdout, makes the calls given as JSON lines in CALLS (a file beside
// it), and writes each answer to ANSWERS. Deterministic: no model.
inline constexpr std::string_view kAgent = R"py(import json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
calls = [json.loads(l) for l in open(os.path.join(here, "calls.jsonl")) if l.strip()]
n = 0
def send(m):
    sys.stdout.write(json.dumps(m) + "\n"); sys.stdout.flush()
def recv():
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    return json.loads(line)
def request(method, params=None):
    global n
    n += 1
    m = {"jsonrpc": "2.0", "id": n, "method": method}
    if params is not None:
        m["params"] = params
    send(m)
    return recv()
init = request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "scripted", "version": "1"}})
send({"jsonrpc": "2.0", "method": "notifications/initialized"})
tools = request("tools/list")
answers = [init, tools]
for call in calls:
    if "raw" in call:
        sys.stdout.write(call["raw"]); sys.stdout.flush()
        answers.append(recv())
    else:
        answers.append(request("tools/call", call))
print(json.dumps(answers), file=sys.stderr)
)py";

// The agent and its calls in `folder` (below `dir`, the test's folder): both readable by the agent's sandbox.
inline fs::path writeScriptedAgent(const fs::path& dir, const fs::path& folder)
{
    fs::create_directories(folder);
    fs::permissions(dir, fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec);
    fs::permissions(folder, fs::perms::all);
    writeFile(folder / "agent.py", std::string(kAgent));
    return folder;
}

inline void writeAgentCalls(const fs::path& folder, const std::vector<nlohmann::json>& calls)
{
    std::string lines;
    for (const auto& c : calls)
        lines += c.dump() + "\n";
    writeFile(folder / "calls.jsonl", lines);
}

} // namespace sb::clitest
