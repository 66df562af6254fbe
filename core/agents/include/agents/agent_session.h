#pragma once

// `sandbench agent run [--policy P] [--sandbox S] [--step] [--read PATH]... -- CMD ARGS...` as a use case: the
// agent program runs in a sandbox of its own (a private work dir, no network: its only way out is MCP), with
// Sandbench as the MCP server on its stdin and stdout offering the sandbox's tools (builtin_tools.h). Every
// tools/call goes through the Mediator: ruled by the policy's agent section, checkpointed, recorded.
//
// The policy: the one named, else the sandbox's own, else the `agent` preset. The agent's run takes the
// policy with `network: none` (whatever the policy allows, the tools reach it: http_get through the allowlist)
// and the --read paths added to what it may read (its own program's files, at the container level). Without a
// sandbox the session gets a new one made from main, named agent-XXXXXXXX.

#include "agents/session_store.h"
#include "agents/wrap_gateway.h"
#include "isolation/runner.h"
#include "store/store.h"
#include "util/error.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace sb::agents {

struct AgentSessionRequest {
    std::vector<std::string> agentCommand;
    std::string policy;                  // a policy file or preset; "" the sandbox's, else the agent preset
    std::string sandbox;                 // "" a new sandbox from main
    std::vector<std::string> readPaths;  // added to the agent run's paths.read
    bool stepMode = false;               // pause before every call until told to go on (live control)
    std::function<void(std::string_view line)> log;
    const std::atomic<bool>* stop = nullptr;
    ApprovalSource approvals;
    // Called once the session is recorded and its control socket listens (before the agent starts).
    std::function<void(const SessionInfo&)> started;
};

struct AgentSessionResult {
    SessionInfo session;
    RunResult agent; // the agent program's run
};

Result<AgentSessionResult> runAgentSession(Store& store, const Runner& runner, const AgentSessionRequest& request);

// The workspace as an agent of `agent run` names it, in paths and in the rules' `workspace`.
inline constexpr const char* kAgentWorkspace = "/work";

} // namespace sb::agents
