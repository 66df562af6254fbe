#pragma once

// The demo's agent session: the worked example built into Sandbench (demo/worked_example.h) run and recorded by
// runAgentSession, as `sandbench agent run` runs any agent; the command line's demo and the window's both call
// this.
//
// The example's files go to a temporary folder of this process's own (removed at the end; readable by the agent's
// sandbox, which may run as another user, writable by this process alone). Its repository is imported as the
// sandbox demo-upgrade-repo under the example's policy, recorded in the store's policy versions, and the agent
// works in demo-upgrade, made from it, so `promote demo-upgrade --to demo-upgrade-repo --dry-run` shows the agent's
// change alone. Those two sandboxes, when an earlier demo left them, are destroyed first (their checkpoints with
// them); the earlier sessions stay, as history.

#include "agents/agent_session.h"
#include "isolation/runner.h"
#include "store/store.h"
#include "util/error.h"

#include <atomic>
#include <functional>
#include <string>
#include <string_view>

namespace sb::agents {

// The parts of the worked example's run, in order, for a progress display.
enum class WorkedExamplePhase { WritingFiles, MakingSandboxes, RunningAgent, Done };

struct WorkedExampleRequest {
    std::function<void(WorkedExamplePhase)> progress;
    std::function<void(std::string_view line)> log;  // the session's notes, as agent run's
    std::function<void(const SessionInfo&)> started; // the session is recorded and its agent about to start
    const std::atomic<bool>* stop = nullptr;         // set: end the session (interrupted)
    bool stepMode = false;                           // pause before every call until told to go on
    std::string policy;                              // a policy file or preset; "" the example's own
};

struct WorkedExampleResult {
    AgentSessionResult run;
    bool asExpected = false; // the session completed, as the example's does
};

// Refused (nothing recorded) when the files cannot be written or the sandboxes made; a session that began is in
// the result, however it ended.
Result<WorkedExampleResult> runWorkedExample(Store& store, const Runner& runner, const WorkedExampleRequest& request);

} // namespace sb::agents
