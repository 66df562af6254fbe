#pragma once

// A run, as every front end asks for it: the policy it runs under, the sandbox it works in, and its record.
//
// The policy of a run: the default (the deepest level this machine offers), or a policy argument (a file or a
// preset, policy_reference.h); an asked level on top, which may be more than a policy that names its level
// needs but not less, unless the policy allows it (allow_lower_level: fail closed); then limits on top. A run
// in a sandbox takes the sandbox's policy reference unless a policy or a level was asked, and the sandbox's
// quota caps what it may write (disk_mb). A run is recorded in the store; a run that could not be recorded is
// not started on a read-only store.

#include "isolation/policy.h"
#include "isolation/run.h"
#include "isolation/runner.h"
#include "sandboxes/sandbox_engine.h"
#include "store/store.h"
#include "util/error.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace sb {

// What a front end asks of a run's policy. Empty or zero: not asked.
struct RunPolicyRequest {
    std::string policy{};                // a policy file or preset name
    std::optional<IsolationLevel> level{}; // --level, the window's isolation choice
    std::int64_t timeoutMs = 0;          // on top of whichever policy applies
    std::int64_t memoryMb = 0;

    // A policy or a level was asked: a sandbox's own policy does not apply.
    bool asksPolicy() const { return !policy.empty() || level.has_value(); }
};

// The policy a request gives, before any sandbox is considered. Refused: a policy argument that is neither a
// file nor a preset, or a level below the one the policy names when it does not allow a lower one.
Result<Policy> resolveRunPolicy(const RunPolicyRequest& asked);

// Where a run's policy came from. The names are a contract (run --json, policy_source).
enum class PolicySource { Default, Option, Sandbox };
std::string_view toString(PolicySource source);

// A run to start: the request (its policy from resolveRunPolicy), and the sandbox whose workspace it works
// in (empty: a fresh, private work dir).
struct RunOrder {
    RunRequest request;
    RunPolicyRequest asked;
    std::string sandbox;
};

// A run that ran, and whether the store holds it.
struct RunRecord {
    RunRequest request; // as it ran: its policy after the sandbox's and the quota's say, its workspace
    RunResult result;
    PolicySource policySource = PolicySource::Default;
    std::string sandboxPolicy;      // the sandbox's policy reference ("" when it has none, or no sandbox)
    bool quotaCapped = false;       // disk_mb is what is left of the sandbox's quota
    std::optional<PolicyVersion> policy; // the version recorded with it
    std::string recordError;        // why the store does not hold it; empty: recorded

    bool recorded() const { return recordError.empty(); }
};

// Runs the order and records it in the store. An error value means the run was not started: the store is
// read-only, the sandbox cannot be held or its policy read, or less than 1 MiB of its quota is left. A run in
// a sandbox holds it (its lock) until the run has ended: runs in one sandbox queue.
Result<RunRecord> runAndRecord(Store& store, const Runner& runner, RunOrder order,
                               const std::atomic<bool>* cancel = nullptr);
// The same, in the sandbox prepared for order.request while the caller opened its store
// (Runner::prepareAhead): it is taken when the run is of its shape, and ended untaken when the run is refused.
Result<RunRecord> runAndRecord(Store& store, const Runner& runner, RunOrder order, std::unique_ptr<SandboxAhead> ahead,
                               const std::atomic<bool>* cancel = nullptr);

// runAndRecord in two halves, for a caller that works beside the run while it goes on (an agent session's
// gateway checkpoints the workspace between tool calls): prepareRun settles the policy and holds the sandbox,
// the caller runs order.request, and recordRun gives the sandbox back and records the run.
struct PreparedRun {
    RunOrder order;                 // order.request as it will run
    RunRecord record;               // what is known before it runs
    std::optional<SandboxHold> held; // the sandbox, held until recordRun
};
Result<PreparedRun> prepareRun(Store& store, RunOrder order);
RunRecord recordRun(Store& store, PreparedRun prepared, RunResult result);

// A run where no store could be opened: it runs under the order's policy, and is not recorded. The order's
// sandbox is not used (a sandbox lives in the store).
RunRecord runUnrecorded(const Runner& runner, RunOrder order, const std::atomic<bool>* cancel = nullptr);

} // namespace sb
