#pragma once

// What a person browsing a recorded session reads of it, cheaply at any size: each step in one line (for a step
// list and a timeline over 100 000 steps), the steps a search finds, and the workspace change a step caused.

#include "agents/json.h"
#include "agents/session_store.h"
#include "store/store.h"
#include "util/error.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sb::agents {

// A step as a list shows it: no result, no frames.
struct StepSummary {
    std::int64_t index = 0;
    std::string tool;
    std::string arguments; // argumentSummary() of its arguments
    std::int64_t startedAtMs = 0;
    std::int64_t endedAtMs = 0; // 0 while the call is in flight
    double cost = 0;
    Verdict verdict = Verdict::Allowed;
    bool isError = false;          // its result is an error: a tool result with isError, or a JSON-RPC error
    bool edited = false;           // a person changed its arguments
    bool checkpointBefore = false; // a checkpoint was taken before it
    bool checkpointAfter = false;  // and after it
};

// A tool call's arguments in one line of at most `maxChars` code points: `path=app.py content="import os…"`.
// Strings with spaces, quotes or control characters are quoted (control characters escaped); lists and objects
// inside are compact JSON; what does not fit ends in "…". Arguments that are not an object are compact JSON.
std::string argumentSummary(const Json& arguments, std::size_t maxChars = 160);

// Steps offset + 1 ... offset + limit of the session with exactly this id, as summaries; limit < 0: to the end.
Result<std::vector<StepSummary>> stepSummaries(Store& store, std::string_view sessionId, std::int64_t offset,
                                               std::int64_t limit);

// The indexes of the session's steps whose tool, arguments, result, reasoning or message contain `text`
// (ASCII letters matched in either case; arguments and results as their stored JSON text), in order.
Result<std::vector<std::int64_t>> searchSteps(Store& store, std::string_view sessionId, std::string_view text);

// The checkpoints around step `step`, for the workspace diff it caused: before it, checkpointBeforeStep(); after
// it, the first checkpoint taken once it began (its own after it, else one before or after a later step), empty
// when none was. Equal ids: no checkpoint between them records a change.
struct StepWorkspaceChange {
    std::string before; // "" when there is no after
    std::string after;  // "" none taken after the step
};
// `sessions` is over `store`. Fast at any step when no checkpoint follows the step (the before is then left empty).
Result<StepWorkspaceChange> stepWorkspaceChange(SessionStore& sessions, Store& store, const SessionInfo& session,
                                                std::int64_t step);

} // namespace sb::agents
