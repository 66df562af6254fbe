#pragma once

// What both ways into an agent session settle before anything starts (wrap_session.cpp, agent_session.cpp):
// the sandbox it works in, the policy it runs under, and the session's record with its first checkpoint.

#include "agents/agent_policy.h"
#include "agents/mediator.h"
#include "agents/session_control.h"
#include "agents/session_store.h"
#include "isolation/policy.h"
#include "sandboxes/sandbox_engine.h"
#include "store/store.h"
#include "util/error.h"

#include <functional>
#include <memory>
#include <string>

namespace sb::agents {

// The sandbox asked for, or (none asked) a new one made from main, named agent-XXXXXXXX.
Result<std::string> sessionSandbox(SandboxEngine& engine, const std::string& asked);

struct SessionPolicy {
    Policy policy;
    std::string reference; // as the user named it: a file, a preset, the sandbox's "preset:NAME" or "NAME@VERSION"
    AgentRules rules;
};

// The policy named, else the sandbox's own (`sandbox` empty: a new sandbox, which has none), else the agent
// preset; refused when the sandbox does not exist, the policy does not load or its agent section's conditions
// do not compile. Settled before a new sandbox is made, so a refusal leaves nothing behind.
Result<SessionPolicy> sessionPolicy(const Store& store, SandboxEngine& engine, const std::string& sandbox,
                                    const std::string& asked);

// The session's checkpoints of its sandbox's workspace, `held` when a run holds the sandbox (mcp wrap's server).
// A checkpoint is made only when the workspace changed since the sandbox's head; else the head is the answer:
// it holds the workspace exactly, and a call that changes nothing costs a walk of stat calls, not a record.
Checkpointer workspaceCheckpointer(SandboxEngine& engine, std::string sandbox, const SandboxHold* held = nullptr);

// A session begun: its record, its live control (null when the socket could not listen), and its first
// checkpoint taken.
struct OpenedSession {
    LiveSession live;
    std::unique_ptr<SessionControl> control;
};

// Records the session (its policy's version in the store), listens for live control (required with `stepMode`,
// else a note through `log` when it cannot), and takes the workspace's first checkpoint with `checkpoint`. A
// session begun but not opened whole is ended `failed`, saying why.
Result<OpenedSession> openSession(Store& store, SessionInfo info, const Policy& policy, bool stepMode,
                                  const Checkpointer& checkpoint, const std::function<void(std::string_view)>& log);

// Ends a session that could not go on; the error, to pass on.
std::unexpected<Error> abandon(LiveSession& session, const Error& error);

// What a session works in, settled before anything starts: the engine, the policy, and the sandbox (made from
// main when none was asked, once the policy is known to be good, so a refusal leaves nothing behind).
struct SessionGround {
    std::unique_ptr<SandboxEngine> engine;
    SessionPolicy policy;
    std::string sandbox;
};
Result<SessionGround> settleSession(Store& store, const std::string& sandbox, const std::string& policy);

// A pipe, both ends close-on-exec.
struct SessionPipe {
    int read = -1;
    int write = -1;
    static Result<SessionPipe> make();
};

void closeDescriptor(int& fd);

} // namespace sb::agents
