#include "usecases/run.h"

#include "usecases/policy_reference.h"

#include "isolation/doctor.h"
#include "sandboxes/sandbox_engine.h"

#include <fmt/format.h>

#include <algorithm>

namespace sb {

namespace {

// The asked limits on top of whichever policy applies.
void applyAskedLimits(Policy& policy, const RunPolicyRequest& asked)
{
    if (asked.timeoutMs > 0)
        policy.limits.wallMs = asked.timeoutMs;
    if (asked.memoryMb > 0)
        policy.limits.memoryMb = asked.memoryMb;
}

// The sandbox's say in a run: its workspace, its policy unless one was asked, and its quota as disk_mb.
Result<void> applySandbox(const Store& store, const SandboxHold& held, RunOrder& order, RunRecord& record)
{
    const SandboxInfo& sandbox = held.sandbox;
    RunRequest& request = order.request;
    request.workspace = sandbox.workspace;
    request.workspaceLock = held.lockDescriptor();
    record.sandboxPolicy = sandbox.policy;
    if (!sandbox.policy.empty() && !order.asked.asksPolicy()) {
        auto policy = policyFromReference(store, sandbox.policy);
        if (!policy)
            return fail(fmt::format("sandbox '{}': its policy {}: {}", sandbox.name, sandbox.policy,
                                    policy.error().message));
        request.policy = std::move(*policy);
        applyAskedLimits(request.policy, order.asked);
        record.policySource = PolicySource::Sandbox;
    }
    // The quota bounds what the run may add: the smaller of the policy's disk_mb and what is left.
    if (sandbox.quotaBytes) {
        const std::uint64_t used = held.usedBytes.value_or(0);
        constexpr std::uint64_t kMiB = 1024 * 1024;
        const std::uint64_t left = used < *sandbox.quotaBytes ? *sandbox.quotaBytes - used : 0;
        if (left < kMiB)
            return fail(fmt::format("sandbox '{}' holds {} bytes of its quota of {} bytes: less than 1 MiB is left "
                                    "for a run (free space, or raise the quota with: sandbench sandbox set {} --quota "
                                    "SIZE)",
                                    sandbox.name, used, *sandbox.quotaBytes, sandbox.name));
        const auto leftMb = static_cast<std::int64_t>(left / kMiB);
        record.quotaCapped = leftMb < request.policy.limits.diskMb;
        request.policy.limits.diskMb = std::min(request.policy.limits.diskMb, leftMb);
    }
    return {};
}

} // namespace

Result<Policy> resolveRunPolicy(const RunPolicyRequest& asked)
{
    Policy policy;
    bool namesLevel = false;
    if (!asked.policy.empty()) {
        auto loaded = loadPolicyOrPreset(asked.policy, namesLevel);
        if (!loaded)
            return loaded;
        policy = *loaded;
    }
    if (asked.level) {
        // A policy that names its level needs it: a level may ask for more, not for less (fail closed).
        if (namesLevel && *asked.level < policy.level && !policy.allowLowerLevel)
            return fail(fmt::format("--level {} is below the level the policy '{}' needs ({}), and the policy does "
                                    "not allow a lower one (allow_lower_level)",
                                    toString(*asked.level), asked.policy, toString(policy.level)));
        policy.level = *asked.level;
    } else if (!namesLevel) {
        // Probed only here, where it is the answer: the probe starts a process in a user namespace.
        policy.level = highestAvailableLevel();
    }
    applyAskedLimits(policy, asked);
    return policy;
}

std::string_view toString(PolicySource source)
{
    switch (source) {
    case PolicySource::Default:
        return "default";
    case PolicySource::Option:
        return "option";
    case PolicySource::Sandbox:
        return "sandbox";
    }
    return "default";
}

Result<PreparedRun> prepareRun(Store& store, RunOrder order)
{
    if (store.readOnly())
        return fail(fmt::format("store {} is read-only: the run was not started, as it could not be recorded",
                                store.path().string()));
    PreparedRun prepared;
    prepared.record.policySource = order.asked.asksPolicy() ? PolicySource::Option : PolicySource::Default;
    if (!order.sandbox.empty()) {
        auto engine = SandboxEngine::open(store);
        if (!engine)
            return std::unexpected(engine.error());
        // Using it revives an archived sandbox and counts as activity.
        auto hold = (*engine)->holdForRun(order.sandbox);
        if (!hold)
            return std::unexpected(hold.error());
        prepared.held = std::move(*hold);
        if (auto applied = applySandbox(store, *prepared.held, order, prepared.record); !applied)
            return std::unexpected(applied.error());
    }
    prepared.order = std::move(order);
    return prepared;
}

RunRecord recordRun(Store& store, PreparedRun prepared, RunResult result)
{
    prepared.held.reset(); // the workspace is given back: the next run in the sandbox may start
    RunRecord record = std::move(prepared.record);
    record.result = std::move(result);
    PolicyVersion policy;
    if (auto recorded = store.recordRun(prepared.order.request, record.result, &policy, prepared.order.sandbox);
        recorded)
        record.policy = policy;
    else
        record.recordError = recorded.error().message;
    record.request = std::move(prepared.order.request);
    return record;
}

Result<RunRecord> runAndRecord(Store& store, const Runner& runner, RunOrder order, const std::atomic<bool>* cancel)
{
    return runAndRecord(store, runner, std::move(order), nullptr, cancel);
}

Result<RunRecord> runAndRecord(Store& store, const Runner& runner, RunOrder order, std::unique_ptr<SandboxAhead> ahead,
                               const std::atomic<bool>* cancel)
{
    auto prepared = prepareRun(store, std::move(order));
    if (!prepared)
        return std::unexpected(prepared.error());
    RunResult result = runner.run(prepared->order.request, std::move(ahead), cancel);
    return recordRun(store, std::move(*prepared), std::move(result));
}

RunRecord runUnrecorded(const Runner& runner, RunOrder order, const std::atomic<bool>* cancel)
{
    RunRecord record;
    record.policySource = order.asked.asksPolicy() ? PolicySource::Option : PolicySource::Default;
    record.result = runner.run(order.request, cancel);
    record.recordError = "no store to record it in";
    record.request = std::move(order.request);
    return record;
}

} // namespace sb
