#include "agents/session_replay.h"

#include "agents/agent_session.h"
#include "agents/builtin_tools.h"
#include "agents/mediator.h"
#include "agents/session_compare.h"
#include "session_setup.h"
#include "usecases/run.h"
#include "util/uuid.h"

#include <fmt/format.h>

namespace sb::agents {

namespace {

Result<SessionInfo> endedSession(SessionStore& sessions, std::string_view idOrPrefix)
{
    auto session = sessions.find(idOrPrefix);
    if (!session)
        return std::unexpected(session.error());
    if (session->status == SessionStatus::Running)
        return fail(fmt::format("session {} is still running: control it live (sandbench sessions control), or wait "
                                "for it to end",
                                session->id));
    return session;
}

bool wentOn(Verdict verdict)
{
    return verdict == Verdict::Allowed || verdict == Verdict::Approved;
}

// The policy a replay runs under: the one named, else the session's own as it was stored.
Result<std::pair<Policy, std::string>> replayPolicy(const Store& store, const SessionInfo& session,
                                                    const std::string& asked)
{
    if (!asked.empty()) {
        auto policy = resolveRunPolicy(RunPolicyRequest{.policy = asked});
        if (!policy)
            return std::unexpected(policy.error());
        return std::pair{std::move(*policy), asked};
    }
    auto stored = store.findPolicy(session.policy.name, session.policy.version);
    if (!stored)
        return std::unexpected(stored.error());
    if (!*stored)
        return fail(fmt::format("session {}: its policy {}@{} is not in the store", session.id, session.policy.name,
                                session.policy.version));
    auto policy = parsePolicy((*stored)->yaml, fmt::format("{}@{}", session.policy.name, session.policy.version));
    if (!policy)
        return std::unexpected(policy.error());
    return std::pair{std::move(*policy), fmt::format("{}@{}", session.policy.name, session.policy.version)};
}

std::string changeOf(const StepRecord& recorded, const Admission& admission, bool asked, bool resultChanged)
{
    if (admission.next == Admission::Next::EndSession)
        return wentOn(recorded.verdict) || recorded.rule != admission.ruling.rule ? "ends_session" : "same";
    if (admission.next == Admission::Next::Answer)
        return wentOn(recorded.verdict) ? "blocked" : "same";
    if (asked && recorded.verdict != Verdict::Approved)
        return "needs_approval";
    if (!wentOn(recorded.verdict))
        return "allowed";
    return resultChanged ? "different_result" : "same";
}

} // namespace

Result<std::string> checkpointBeforeStep(SessionStore& sessions, const SessionInfo& session, std::int64_t step)
{
    if (step < 1 || step > session.steps + 1)
        return fail(fmt::format("session {} has steps 1 to {}: there is no step {} (give {} for the workspace after "
                                "the last)",
                                session.id, session.steps, step, session.steps + 1));
    auto steps = sessions.steps(session.id, 0, step);
    if (!steps)
        return std::unexpected(steps.error());
    if (step <= static_cast<std::int64_t>(steps->size()) && !(*steps)[step - 1].checkpointBefore.empty())
        return (*steps)[step - 1].checkpointBefore;
    for (std::int64_t i = std::min<std::int64_t>(step - 1, static_cast<std::int64_t>(steps->size())); i >= 1; --i) {
        const StepRecord& earlier = (*steps)[i - 1];
        if (!earlier.checkpointAfter.empty())
            return earlier.checkpointAfter;
        if (!earlier.checkpointBefore.empty() && !wentOn(earlier.verdict))
            return earlier.checkpointBefore;
    }
    if (session.firstCheckpoint.empty())
        return fail(fmt::format("session {} has no checkpoint of its workspace before step {}", session.id, step));
    return session.firstCheckpoint;
}

Result<std::string> rewindWorkspace(SessionStore& sessions, const SessionInfo& session, SandboxEngine& engine,
                                    std::int64_t step)
{
    if (step > session.steps)
        return fail(fmt::format("this session has made {} steps so far: there is no step {} to go back to",
                                session.steps, step));
    auto checkpoint = checkpointBeforeStep(sessions, session, step);
    if (!checkpoint)
        return std::unexpected(checkpoint.error());
    auto restored = engine.restore(*checkpoint, {}, session.sandbox);
    if (!restored)
        return std::unexpected(restored.error());
    const auto changed = restored->changes.added + restored->changes.removed + restored->changes.modified;
    return fmt::format("the workspace is as it was before step {} (checkpoint {}); {} {} changed back", step,
                       checkpoint->substr(0, 12), changed, changed == 1 ? "file" : "files");
}

namespace {

// The session and its checkpoint before step `step`, for rewind (an ended session only) and fork.
Result<std::pair<SessionInfo, std::string>> sessionCheckpoint(Store& store, std::string_view idOrPrefix,
                                                              std::int64_t step, bool ended)
{
    SessionStore sessions(store);
    auto session = ended ? endedSession(sessions, idOrPrefix) : sessions.find(idOrPrefix);
    if (!session)
        return std::unexpected(session.error());
    auto checkpoint = checkpointBeforeStep(sessions, *session, step);
    if (!checkpoint)
        return std::unexpected(checkpoint.error());
    return std::pair{std::move(*session), std::move(*checkpoint)};
}

} // namespace

Result<RestoreResult> rewindSession(Store& store, std::string_view idOrPrefix, std::int64_t step)
{
    auto found = sessionCheckpoint(store, idOrPrefix, step, true);
    if (!found)
        return std::unexpected(found.error());
    auto engine = SandboxEngine::open(store);
    if (!engine)
        return std::unexpected(engine.error());
    return (*engine)->restore(found->second, {}, found->first.sandbox);
}

Result<CreateSandboxResult> forkSession(Store& store, std::string_view idOrPrefix, std::int64_t step,
                                        std::string_view name)
{
    auto found = sessionCheckpoint(store, idOrPrefix, step, false);
    if (!found)
        return std::unexpected(found.error());
    auto engine = SandboxEngine::open(store);
    if (!engine)
        return std::unexpected(engine.error());
    return (*engine)->fork(found->second, name);
}

Result<ReplayReport> replaySession(Store& store, const Runner& runner, std::string_view idOrPrefix,
                                   const std::string& policyAsked, const ReplayControl& control)
{
    SessionStore sessions(store);
    auto original = endedSession(sessions, idOrPrefix);
    if (!original)
        return std::unexpected(original.error());
    auto recorded = sessions.allSteps(original->id);
    if (!recorded)
        return std::unexpected(recorded.error());
    auto before = replayPolicy(store, *original, "");
    auto policy = replayPolicy(store, *original, policyAsked);
    if (!policy)
        return std::unexpected(policy.error());
    auto rules = AgentRules::compile(policy->first.agent.value_or(AgentPolicy{}), policy->second);
    auto originalRules =
        before ? AgentRules::compile(before->first.agent.value_or(AgentPolicy{}), before->second) : Result<AgentRules>(fail(""));
    if (!rules)
        return std::unexpected(rules.error());
    if (original->firstCheckpoint.empty())
        return fail(fmt::format("session {} has no first checkpoint to replay from", original->id));

    auto engine = SandboxEngine::open(store);
    if (!engine)
        return std::unexpected(engine.error());
    auto id = randomUuid();
    if (!id)
        return std::unexpected(id.error());
    auto forked = (*engine)->fork(original->firstCheckpoint, "replay-" + id->substr(0, 8));
    if (!forked)
        return std::unexpected(forked.error());
    const std::string sandbox = forked->sandbox.name;

    SessionInfo info;
    info.kind = original->kind;
    info.command = original->command;
    info.sandbox = sandbox;
    info.policyRef = policy->second;
    info.workspace = original->workspace;
    info.replayOf = original->id;
    auto version = store.recordPolicy(policy->first);
    if (!version)
        return std::unexpected(version.error());
    info.policy = *version;
    auto live = sessions.begin(info);
    if (!live)
        return std::unexpected(live.error());
    (void)live->update(SessionUpdate{.firstCheckpoint = forked->checkpoint.id});

    const bool agentKind = original->kind == SessionKind::Agent;
    Checkpointer checkpoint;
    if (agentKind)
        checkpoint = workspaceCheckpointer(**engine, sandbox);
    ToolContext tools{&store, &runner, sandbox, kAgentWorkspace, &policy->first, nullptr};
    tools.rewind = [&](std::int64_t step) -> Result<std::string> {
        return rewindWorkspace(sessions, live->info(), **engine, step);
    };
    Mediator mediator(*rules, *live, info.workspace, checkpoint);
    if (agentKind)
        mediator.setToolCheck([&tools](const ToolCallRequest& call) { return checkBuiltinCall(tools, call); });

    ReplayReport report;
    report.policyRef = policy->second;
    bool ended = false;
    for (const StepRecord& step : *recorded) {
        if (control.stop && control.stop->load()) {
            const std::string why = fmt::format("the replay was stopped after {} of {} steps", report.steps.size(),
                                                recorded->size());
            (void)live->end(SessionStatus::Interrupted, why);
            return fail(fmt::format("{} (recorded as the interrupted session {}, in sandbox {})", why,
                                    live->info().id, sandbox));
        }
        if (control.progress)
            control.progress(report.steps.size(), recorded->size());
        ReplayedStep out;
        out.index = step.index;
        out.tool = step.tool;
        out.recorded = step.verdict;
        if (ended) {
            out.verdict = out.change = "not_reached";
            report.steps.push_back(std::move(out));
            continue;
        }
        ToolCallRequest call;
        call.id = step.index;
        call.tool = step.tool;
        call.arguments = step.originalArguments.value_or(step.arguments);
        call.reasoning = step.reasoning;
        const double toolCost = wentOn(step.verdict) && originalRules ? originalRules->toolCost(step.tool) : 0;
        call.reportedCost = std::max(0.0, step.cost - toolCost);
        call.frame = step.requestFrame;
        const ToolFacts facts{builtinToolReadOnly(step.tool) && agentKind, builtinToolDestructive(step.tool),
                              agentKind && isBuiltinTool(step.tool)};
        const Ruling ruling = mediator.preview(call);
        const bool asked = ruling.kind == Ruling::Kind::Ask;
        const Admission admission =
            asked ? mediator.decide(call, facts, true, "the replay", std::nullopt) : mediator.admit(call, facts);
        out.rule = admission.ruling.rule;
        out.message = admission.ruling.message;
        if (admission.next == Admission::Next::Fail)
            return fail(admission.error);
        if (admission.next == Admission::Next::GoOn) {
            Json result;
            out.ranAgain = agentKind && isBuiltinTool(step.tool) && step.tool != "http_get";
            if (out.ranAgain)
                result = callBuiltinTool(tools, step.tool, admission.arguments);
            else if (wentOn(step.verdict) && step.result)
                result = *step.result;
            else
                result = refusedResult("not in the recording: the call reached outside the sandbox and was never "
                                       "carried out, so the replay has no answer for it");
            out.resultChanged = comparableResult(result) != comparableResult(step.result);
            if (auto finished = mediator.finish(admission.step, result, step.responseFrame); !finished)
                return std::unexpected(finished.error());
        }
        out.verdict = admission.next == Admission::Next::GoOn ? (asked ? "needs_approval" : "allowed") : "blocked";
        out.change = changeOf(step, admission, asked, out.resultChanged);
        ended = admission.next == Admission::Next::EndSession;
        report.changed += out.change != "same";
        report.steps.push_back(std::move(out));
    }
    if (control.progress)
        control.progress(report.steps.size(), recorded->size());
    (void)live->end(ended ? SessionStatus::Blocked : SessionStatus::Completed,
                    fmt::format("replay of session {} under {}: {} of {} steps differ", original->id, policy->second,
                                report.changed, recorded->size()));
    report.original = *original;
    report.replay = live->info();
    return report;
}

Result<void> checkReplayPolicy(const std::string& policy)
{
    if (policy.empty())
        return fail("no policy named: choose a preset or a policy file");
    auto resolved = resolveRunPolicy(RunPolicyRequest{.policy = policy});
    if (!resolved)
        return std::unexpected(resolved.error());
    auto rules = AgentRules::compile(resolved->agent.value_or(AgentPolicy{}), policy);
    if (!rules)
        return std::unexpected(rules.error());
    return {};
}

Json replayJson(const ReplayReport& report)
{
    Json steps = Json::array();
    for (const auto& s : report.steps)
        steps.push_back(Json{{"index", s.index},
                             {"tool", s.tool},
                             {"recorded_verdict", std::string(toString(s.recorded))},
                             {"verdict", s.verdict},
                             {"change", s.change},
                             {"rule", s.rule},
                             {"message", s.message},
                             {"ran_again", s.ranAgain},
                             {"result_changed", s.resultChanged}});
    return Json{{"session", report.original.id},
                {"replay", report.replay.id},
                {"sandbox", report.replay.sandbox},
                {"policy", report.policyRef},
                {"changed", report.changed},
                {"steps", std::move(steps)}};
}

} // namespace sb::agents
