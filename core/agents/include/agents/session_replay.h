#pragma once

// What can be done with a recorded session: its workspace as it was before a step (rewind, fork), and its calls
// again under another policy (replay).

#include "agents/session_store.h"
#include "isolation/runner.h"
#include "sandboxes/sandbox_engine.h"
#include "store/store.h"
#include "util/error.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace sb::agents {

// The checkpoint that holds the session's workspace as it was before step `step` (1 ... steps + 1, the last
// meaning after every step): the step's own checkpoint before it, else the latest checkpoint after an earlier
// step, else the session's first checkpoint. An error when the session has none (it began before its first
// checkpoint could be taken).
Result<std::string> checkpointBeforeStep(SessionStore& sessions, const SessionInfo& session, std::int64_t step);

// The rewind tool of a running session: its sandbox restored to the checkpoint before step N; what it did, in
// words for the agent.
Result<std::string> rewindWorkspace(SessionStore& sessions, const SessionInfo& session, SandboxEngine& engine,
                                    std::int64_t step);

// `sessions rewind ID --to-step N`: the session's sandbox made equal to its workspace before step N (a restore:
// unsaved changes are checkpointed first, nothing is lost). Refused while the session runs.
Result<RestoreResult> rewindSession(Store& store, std::string_view idOrPrefix, std::int64_t step);

// `sessions fork ID --at-step N --name NEW`: a new sandbox whose workspace is the session's before step N.
Result<CreateSandboxResult> forkSession(Store& store, std::string_view idOrPrefix, std::int64_t step,
                                        std::string_view name);

// One step of a replay, beside the step it replays.
struct ReplayedStep {
    std::int64_t index = 0;
    std::string tool;
    Verdict recorded = Verdict::Allowed; // the verdict it had
    std::string verdict;                 // what it gets now: allowed, blocked, needs_approval, not_reached
    std::string rule;                    // what decided it now
    std::string message;
    bool ranAgain = false;               // carried out again in the replay's sandbox (else answered from the recording)
    bool resultChanged = false;          // its result differs from the recorded one
    std::string change;                  // "same", "blocked", "needs_approval", "allowed", "ends_session",
                                         // "different_result", "not_reached"
};

struct ReplayReport {
    SessionInfo original;
    SessionInfo replay;       // the replay's own session (replay_of: the original)
    std::string policyRef;
    std::vector<ReplayedStep> steps;
    std::int64_t changed = 0; // steps whose change is not "same"
};

// `sessions replay ID [--policy P]`: the session's calls again, in order, from its first checkpoint (in a new
// sandbox forked from it, replay-XXXXXXXX), ruled by the policy (default: the session's own). Calls of
// Sandbench's own workspace tools that the policy lets through are carried out again, so later steps see what
// earlier ones did; calls that reached outside the sandbox (http_get, a wrapped server's tools) are answered from
// the recording, so a replay is deterministic. A call the policy now asks approval for is reported so and
// carried on as if approved; past a step that ends the session, the rest are not_reached. The replay is
// recorded as a session of its own.
// What the caller can do while a replay runs: stop it between two steps (the replay's session is then recorded as
// interrupted, and the replay returns an error saying how far it got), and hear how far it is.
struct ReplayControl {
    const std::atomic<bool>* stop = nullptr;
    std::function<void(std::size_t done, std::size_t total)> progress; // after each step
};

Result<ReplayReport> replaySession(Store& store, const Runner& runner, std::string_view idOrPrefix,
                                   const std::string& policy, const ReplayControl& control = {});

// Whether `policy` (a preset's name or a policy file) can rule a replay, as replaySession would read it: it
// resolves and its agent section compiles. The error says why not (the file, its line and field, the rule).
Result<void> checkReplayPolicy(const std::string& policy);

Json replayJson(const ReplayReport& report);

} // namespace sb::agents
