#pragma once

// The interceptor of an agent session: every tools/call, whichever way it came in (`agent run`, `mcp wrap`),
// is read, ruled by the policy's agent section (agent_policy.h), preceded by a checkpoint of the workspace when
// the section asks for one, and recorded as a step of the session before it goes on. A refused call is answered
// with a tool result whose isError is true and whose text says why, so that the agent can act on it; a call
// past max_steps or max_cost is refused that way too and ends the session `blocked`.
//
// Calls are ruled one at a time, in the order they came: a call that waits for a person (require_approval)
// holds the ones behind it, so steps are numbered in the order they were ruled and `step` in a condition is the
// number the call gets.

#include "agents/agent_policy.h"
#include "agents/json.h"
#include "agents/jsonrpc.h"
#include "agents/session_store.h"
#include "util/error.h"

#include <cstdint>
#include <expected>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace sb::agents {

// What a tools/call request says.
struct ToolCallRequest {
    Json id;                          // the request's id
    std::string tool;                 // params.name
    Json arguments = Json::object();  // params.arguments (an object; absent: empty)
    std::string reasoning;            // params._meta: "reasoning" or "sandbench/reasoning" (text)
    double reportedCost = 0;          // params._meta: "cost" or "sandbench/cost" (a number, not negative)
    std::string frame;                // the line it came in
};

// Reads a tools/call request; a malformed one (params not an object, name not a string, arguments not an
// object, a cost that is not a number of at least 0) gets the invalid-params error to answer it with.
std::expected<ToolCallRequest, RpcError> readToolCall(const Message& request, std::string_view frame);

// The tool result of a refused call: {"content": [{"type": "text", "text": message}], "isError": true}.
Json refusedResult(std::string_view message);

// Takes a checkpoint of the session's workspace; its id, or why none could be taken.
using Checkpointer = std::function<Result<std::string>(std::string_view label, std::string_view message)>;

// What became of a call.
struct Admission {
    enum class Next {
        GoOn,       // run it (forward it, or carry it out), then finish() its step
        Answer,     // answer it with `result` (refused or denied): its step is recorded and finished
        Wait,       // it waits for a person: decide() it (nothing is recorded yet)
        EndSession, // answer it with `result`, then end the session `blocked`: its step says why
        Fail,       // the session cannot go on (its record or its checkpoint failed): end it `failed`
    };
    Next next = Next::GoOn;
    std::int64_t step = 0;          // the step it was recorded as (0: not recorded)
    Json arguments;                 // what it goes on with (a person may have edited them)
    Json result;                    // Answer, EndSession: the tool result to send
    Ruling ruling;
    std::string error;              // Fail: why
};

class Mediator {
public:
    // `workspace`: the workspace's path as the sandboxed program sees it (the rules' `workspace`).
    Mediator(AgentRules rules, LiveSession& session, std::string workspace, Checkpointer checkpoint,
             std::function<std::int64_t()> clock = {});

    // The ruling the call would get now, recording nothing (to pause before an allowed call).
    Ruling preview(const ToolCallRequest& call) const;
    // Rules the call and, unless it waits, records it as the next step.
    Admission admit(const ToolCallRequest& call, const ToolFacts& facts);
    // A call that was paused before it went on (step mode, a breakpoint) and that a person let go, with the
    // arguments they edited, if any: ruled again (with the arguments it goes on with) and recorded.
    Admission proceed(const ToolCallRequest& call, const ToolFacts& facts, std::optional<Json> editedArguments);
    // A call that waited: approved (with the arguments a person edited, if any) or denied. `who` is named in
    // the step's message.
    Admission decide(const ToolCallRequest& call, const ToolFacts& facts, bool approve, std::string_view who,
                     std::optional<Json> editedArguments = std::nullopt);
    // The step's call came back: its result (a tool result or a JSON-RPC error object) and the line it came
    // in. `failed`: it could not be carried out (the step's verdict becomes failed, with `message`). A checkpoint
    // is taken after it when one was taken before it.
    Result<void> finish(std::int64_t step, const Json& result, std::string_view frame, bool failed = false,
                        std::string message = {});

    // A check of the gateway's own on top of the policy's section, which no approval lifts (the built-in tools'
    // confinement to the workspace, http_get's allowlist): a ruling that refuses, or nullopt.
    using ToolCheck = std::function<std::optional<Ruling>(const ToolCallRequest& call)>;
    void setToolCheck(ToolCheck check) { m_toolCheck = std::move(check); }

    const AgentRules& rules() const { return m_rules; }
    double spent() const { return m_spent; }
    std::int64_t nextStep() const;

private:
    Admission record(const ToolCallRequest& call, const ToolFacts& facts, const Ruling& ruling, Verdict verdict,
                     const Json& arguments, std::optional<Json> original);
    std::int64_t now() const;
    Ruling ruleCall(const ToolCallRequest& call) const;

    AgentRules m_rules;
    LiveSession& m_session;
    std::string m_workspace;
    Checkpointer m_checkpoint;
    ToolCheck m_toolCheck;
    std::function<std::int64_t()> m_clock;
    double m_spent = 0;
    std::map<std::int64_t, std::string> m_checkpointedBefore; // step -> its checkpoint, until it finishes
};

} // namespace sb::agents
