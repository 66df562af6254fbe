#pragma once

// `sandbench mcp wrap`: the gateway between an MCP client (an IDE, an agent host, on the gateway's own stdio)
// and a third-party MCP server running in the sandbox (on a channel run's stdio, isolation/run.h).
//
// Everything is forwarded as it came, line for line (initialize, tools/list, resources, prompts, notifications,
// progress, cancellation, and the server's requests to the client), except:
// - a client's tools/call, which the Mediator rules and records first: a refused one is answered by the gateway
//   and never reaches the server; one that waits for a person holds the calls behind it (other messages go on);
// - a line that is not a JSON-RPC message: a client's is answered with the JSON-RPC error it calls for (never
//   forwarded); a server's is dropped and reported (the server is untrusted too);
// - the server's answer to a tools/call, recorded as the step's result (with a checkpoint after it when one was
//   taken before) and then forwarded.
// The gateway also reads what it forwards: the protocol version and both sides' names from initialize, and the
// tools' annotations from tools/list (for checkpoint_before; never trusted to remove a checkpoint).
//
// Writes never block the gateway: each side has an outbox flushed as its peer reads, and a side whose outbox
// is full is not read from until it drains, so two peers that write without reading cannot deadlock it.

#include "agents/mediator.h"
#include "agents/session_store.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace sb::agents {

class SessionControl;

struct WrapEndpoints {
    int clientIn = 0;   // what the client writes
    int clientOut = 1;  // what the client reads
    int serverIn = -1;  // the server's stdin (the gateway's write end); closed by the gateway when it is done
    int serverOut = -1; // the server's stdout (the gateway's read end)
};

// How a decision on a waiting call arrives: polled by the gateway with the call's step number to be; nullopt
// while nobody has decided. (The live-control socket feeds it.)
struct ApprovalDecision {
    bool approve = false;
    std::string who;
    std::optional<Json> arguments; // edited arguments, with an approval
};
using ApprovalSource = std::function<std::optional<ApprovalDecision>(std::int64_t step, const ToolCallRequest& call)>;

struct WrapOptions {
    std::size_t maxClientFrameBytes = std::size_t{4} << 20;
    std::size_t maxServerFrameBytes = std::size_t{64} << 20;
    // How long the server may take to end after the client has gone (its stdin closed), before the gateway
    // stops waiting for it.
    int serverGraceMs = 2000;
    ApprovalSource approvals;                               // decisions on waiting calls, before `control`'s
    SessionControl* control = nullptr;                      // live control (session_control.h): pauses, decisions
    std::function<void(std::string_view line)> log;         // what is worth a line on stderr
    const std::atomic<bool>* stop = nullptr;                // set: end the session (interrupted)
};

struct WrapOutcome {
    SessionStatus status = SessionStatus::Completed;
    std::string message;
};

// Forwards and mediates until the client or the server ends, the policy ends the session, or *stop is set.
// Calls still unanswered then are answered with an error and recorded as failed. Does not end the LiveSession:
// the caller does, with the outcome (and what it knows of the server's run).
WrapOutcome forwardSession(const WrapEndpoints& endpoints, Mediator& mediator, LiveSession& session,
                           const WrapOptions& options = {});

} // namespace sb::agents
