#pragma once

// `sandbench mcp wrap [--policy P] [--sandbox S] -- SERVER_CMD ARGS...` as a use case: the server starts in the
// sandbox (its workspace as its working folder and only writable place), the gateway (wrap_gateway.h) stands
// between it and the client on the given descriptors, and the session is recorded in the store.
//
// The policy: the one named, else the sandbox's own, else the `agent` preset; its `agent` section rules the
// calls (a policy without one lets every tool through, still recorded and checkpointed). Without a sandbox the
// session gets a new one, made from main, named agent-XXXXXXXX: its changes reach main only through promotion.
// Refused before anything starts: a policy that does not load or whose conditions do not compile, a sandbox
// that cannot be held, a store that can only be read.

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

struct WrapSessionRequest {
    std::vector<std::string> serverCommand;
    std::string policy;  // a policy file or preset; "" the sandbox's, else the agent preset
    std::string sandbox; // "" a new sandbox from main
    int clientIn = 0;
    int clientOut = 1;
    std::function<void(std::string_view line)> log;  // the gateway's notes, for stderr
    const std::atomic<bool>* stop = nullptr;         // set: end the session (a signal)
    ApprovalSource approvals;
};

struct WrapSessionResult {
    SessionInfo session;  // as it ended
    RunResult server;     // the server's run
};

Result<WrapSessionResult> runWrapSession(Store& store, const Runner& runner, const WrapSessionRequest& request);

} // namespace sb::agents
