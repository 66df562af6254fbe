#pragma once

// Two sessions' steps side by side, aligned by index, and what differs between them: the call (tool or
// arguments), the verdict, the result. For a replay, what its report says of each step decides (the same count
// `sessions replay` prints). One line of each side, for a compare view over sessions of any size.

#include "agents/json.h"
#include "agents/session_store.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace sb::agents {

struct ReplayedStep; // agents/session_replay.h
struct ReplayReport;

// One session's step as the compare view shows it.
struct ComparedSide {
    std::string tool;
    std::string arguments; // argumentSummary()
    std::string verdict;   // toString(Verdict), or a replay's "needs_approval", "not_reached"
    std::string rule;
    std::string message;
    std::string result; // resultSummary(); "" no result
    bool isError = false;
};

struct ComparedStep {
    std::int64_t index = 0;
    std::optional<ComparedSide> left; // nullopt: that session has no step `index`
    std::optional<ComparedSide> right;
    bool callDiffers = false; // tool or arguments
    bool verdictDiffers = false;
    bool resultDiffers = false;
    // "same", else what differs. Two sessions: "only_left", "only_right", "call", "verdict", "result" (the first
    // that applies). A replay: its report's change ("blocked", "needs_approval", "allowed", "ends_session",
    // "different_result", "not_reached").
    std::string change = "same";
    bool differs() const { return change != "same"; }
};

struct SessionComparison {
    std::vector<ComparedStep> steps; // index 1 ... the longer session's count, in order
    std::int64_t differing = 0;      // steps whose change is not "same"
};

// A tool result in one line of at most `maxChars` code points: its text content when it has some (the texts
// joined by " "), else its compact JSON; a JSON-RPC error as its message. "" no result.
std::string resultSummary(const std::optional<Json>& result, std::size_t maxChars = 160);

// A result as compared across runs: the id of a run a tool made is new every time, so it is left out.
Json comparableResult(const std::optional<Json>& result);

// Step `index` of two sessions, either side absent (nullptr).
ComparedStep compareStep(std::int64_t index, const StepRecord* left, const StepRecord* right);

// Two sessions' steps (each in order from step 1), aligned by index.
SessionComparison compareSessions(std::span<const StepRecord> left, std::span<const StepRecord> right);

// Step `index` of a replay: the original's step on the left, the replay's on the right (nullptr when the replay did
// not record one), ruled by the report's `replayed`.
ComparedStep compareReplayedStep(const ReplayedStep& replayed, const StepRecord* original, const StepRecord* replay);

// A replay beside its original: `original` and `replay` the two sessions' steps in order from step 1.
SessionComparison compareReplay(const ReplayReport& report, std::span<const StepRecord> original,
                                std::span<const StepRecord> replay);

} // namespace sb::agents
