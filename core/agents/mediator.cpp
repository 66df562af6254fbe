#include "agents/mediator.h"

#include <fmt/format.h>

#include <chrono>
#include <cmath>

namespace sb::agents {

namespace {

std::int64_t systemNowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

// A member of _meta under its plain name or Sandbench's prefix ("cost" or "sandbench/cost").
const Json* metaMember(const Json& meta, const char* name)
{
    for (const std::string& key : {std::string(name), std::string("sandbench/") + name}) {
        if (const auto it = meta.find(key); it != meta.end())
            return &*it;
    }
    return nullptr;
}

} // namespace

std::expected<ToolCallRequest, RpcError> readToolCall(const Message& request, std::string_view frame)
{
    ToolCallRequest call;
    call.id = request.id();
    call.frame = std::string(frame);
    const Json* params = request.params();
    if (!params || !params->is_object())
        return std::unexpected(invalidParams(call.id, "tools/call: params must be an object with the tool's name"));
    const auto name = params->find("name");
    if (name == params->end() || !name->is_string() || name->get_ref<const std::string&>().empty())
        return std::unexpected(invalidParams(call.id, "tools/call: params.name must be the tool's name (a string)"));
    call.tool = name->get<std::string>();
    if (const auto args = params->find("arguments"); args != params->end() && !args->is_null()) {
        if (!args->is_object())
            return std::unexpected(invalidParams(call.id, "tools/call: params.arguments must be an object"));
        call.arguments = *args;
    }
    if (const auto meta = params->find("_meta"); meta != params->end() && !meta->is_null()) {
        if (!meta->is_object())
            return std::unexpected(invalidParams(call.id, "tools/call: params._meta must be an object"));
        if (const Json* cost = metaMember(*meta, "cost")) {
            if (!cost->is_number() || !std::isfinite(cost->get<double>()) || cost->get<double>() < 0)
                return std::unexpected(
                    invalidParams(call.id, "tools/call: params._meta.cost must be a number of at least 0"));
            call.reportedCost = cost->get<double>();
        }
        if (const Json* reasoning = metaMember(*meta, "reasoning")) {
            if (!reasoning->is_string())
                return std::unexpected(invalidParams(call.id, "tools/call: params._meta.reasoning must be text"));
            call.reasoning = reasoning->get<std::string>();
        }
    }
    return call;
}

Json refusedResult(std::string_view message)
{
    return Json{{"content", Json::array({Json{{"type", "text"}, {"text", std::string(message)}}})}, {"isError", true}};
}

Mediator::Mediator(AgentRules rules, LiveSession& session, std::string workspace, Checkpointer checkpoint,
                   std::function<std::int64_t()> clock)
    : m_rules(std::move(rules)), m_session(session), m_workspace(std::move(workspace)),
      m_checkpoint(std::move(checkpoint)), m_clock(std::move(clock))
{
    m_spent = m_session.info().cost;
}

std::int64_t Mediator::now() const
{
    return m_clock ? m_clock() : systemNowMs();
}

std::int64_t Mediator::nextStep() const
{
    return m_session.info().steps + 1;
}

Ruling Mediator::ruleCall(const ToolCallRequest& call) const
{
    Ruling ruling = m_rules.rule(ToolCall{call.tool, call.arguments, nextStep(), m_workspace}, m_spent, call.reportedCost);
    if (m_toolCheck && (ruling.kind == Ruling::Kind::Allow || ruling.kind == Ruling::Kind::Ask)) {
        if (auto refused = m_toolCheck(call))
            return *refused;
    }
    return ruling;
}

Ruling Mediator::preview(const ToolCallRequest& call) const
{
    return ruleCall(call);
}

Admission Mediator::proceed(const ToolCallRequest& call, const ToolFacts& facts, std::optional<Json> editedArguments)
{
    if (!editedArguments || *editedArguments == call.arguments)
        return admit(call, facts);
    // The edited call is the one that runs: the policy rules it, not the one the agent sent.
    ToolCallRequest edited = call;
    edited.arguments = *editedArguments;
    const Ruling ruling = preview(edited);
    if (ruling.kind == Ruling::Kind::Allow)
        return record(edited, facts, ruling, Verdict::Allowed, edited.arguments, call.arguments);
    if (ruling.kind == Ruling::Kind::Ask) {
        Admission waiting;
        waiting.next = Admission::Next::Wait;
        waiting.ruling = ruling;
        waiting.arguments = edited.arguments;
        return waiting;
    }
    return record(edited, facts, ruling, Verdict::Blocked, edited.arguments, call.arguments);
}

Admission Mediator::admit(const ToolCallRequest& call, const ToolFacts& facts)
{
    const Ruling ruling = ruleCall(call);
    switch (ruling.kind) {
    case Ruling::Kind::Allow: return record(call, facts, ruling, Verdict::Allowed, call.arguments, std::nullopt);
    case Ruling::Kind::Refuse:
    case Ruling::Kind::EndSession: return record(call, facts, ruling, Verdict::Blocked, call.arguments, std::nullopt);
    case Ruling::Kind::Ask: break;
    }
    Admission waiting;
    waiting.next = Admission::Next::Wait;
    waiting.ruling = ruling;
    waiting.arguments = call.arguments;
    return waiting;
}

Admission Mediator::decide(const ToolCallRequest& call, const ToolFacts& facts, bool approve, std::string_view who,
                           std::optional<Json> editedArguments)
{
    const bool edited = approve && editedArguments && *editedArguments != call.arguments;
    ToolCallRequest actual = call;
    if (edited)
        actual.arguments = *editedArguments;
    std::optional<Json> original = edited ? std::optional<Json>(call.arguments) : std::nullopt;
    Ruling ruling = ruleCall(actual);
    // What the policy refuses outright, or the gateway's own checks, no approval lifts.
    if (ruling.kind == Ruling::Kind::Refuse || ruling.kind == Ruling::Kind::EndSession)
        return record(actual, facts, ruling, Verdict::Blocked, actual.arguments, std::move(original));
    if (!approve) {
        ruling.kind = Ruling::Kind::Refuse;
        ruling.message = ruling.message.empty() ? fmt::format("{} denied this call", who)
                                                : fmt::format("{} denied this call ({})", who, ruling.message);
        return record(call, facts, ruling, Verdict::Denied, call.arguments, std::nullopt);
    }
    ruling.message = ruling.message.empty() ? fmt::format("let go by {}", who)
                                            : fmt::format("approved by {} ({})", who, ruling.message);
    const Verdict verdict = ruling.kind == Ruling::Kind::Ask ? Verdict::Approved : Verdict::Allowed;
    ruling.kind = Ruling::Kind::Allow;
    return record(actual, facts, ruling, verdict, actual.arguments, std::move(original));
}

Admission Mediator::record(const ToolCallRequest& call, const ToolFacts& facts, const Ruling& ruling, Verdict verdict,
                           const Json& arguments, std::optional<Json> original)
{
    Admission admission;
    admission.ruling = ruling;
    admission.arguments = arguments;
    const bool goesOn = verdict == Verdict::Allowed || verdict == Verdict::Approved;
    StepRecord step;
    step.index = nextStep();
    step.tool = call.tool;
    step.arguments = arguments;
    step.reasoning = call.reasoning;
    step.startedAtMs = now();
    step.verdict = verdict;
    step.rule = ruling.rule;
    step.message = ruling.message;
    step.requestFrame = call.frame;
    step.edited = original.has_value();
    step.originalArguments = std::move(original);
    // The agent's own report counts whatever became of the call (its tokens are spent); the tool's cost only
    // when it runs.
    step.cost = call.reportedCost + (goesOn ? m_rules.toolCost(call.tool) : 0);
    if (goesOn && m_checkpoint && m_rules.checkpointBefore(call.tool, facts)) {
        auto checkpoint = m_checkpoint(fmt::format("before step {}", step.index),
                                       fmt::format("before step {} of session {}: {}", step.index,
                                                   m_session.info().id, call.tool));
        if (!checkpoint) {
            admission.next = Admission::Next::Fail;
            admission.error = fmt::format("the checkpoint before step {} ({}) failed: {}", step.index, call.tool,
                                          checkpoint.error().message);
            return admission;
        }
        step.checkpointBefore = *checkpoint;
    }
    if (!goesOn) {
        admission.result = refusedResult(ruling.message);
        step.result = admission.result;
        step.endedAtMs = step.startedAtMs;
        step.responseFrame = encodeFrame(resultResponse(call.id, admission.result));
    }
    const std::string checkpointBefore = step.checkpointBefore;
    auto added = m_session.addStep(std::move(step));
    if (!added) {
        admission.next = Admission::Next::Fail;
        admission.error = fmt::format("the session's step could not be recorded: {}", added.error().message);
        return admission;
    }
    admission.step = *added;
    m_spent = m_session.info().cost;
    if (!checkpointBefore.empty())
        m_checkpointedBefore[admission.step] = checkpointBefore;
    admission.next = goesOn                                      ? Admission::Next::GoOn
                     : ruling.kind == Ruling::Kind::EndSession ? Admission::Next::EndSession
                                                               : Admission::Next::Answer;
    return admission;
}

Result<void> Mediator::finish(std::int64_t step, const Json& result, std::string_view frame, bool failed,
                              std::string message)
{
    StepEnd end;
    end.result = result;
    end.endedAtMs = now();
    end.responseFrame = std::string(frame.ends_with('\n') ? frame.substr(0, frame.size() - 1) : frame);
    if (failed) {
        end.verdict = Verdict::Failed;
        end.message = std::move(message);
    }
    if (const auto before = m_checkpointedBefore.find(step); before != m_checkpointedBefore.end()) {
        m_checkpointedBefore.erase(before);
        if (m_checkpoint) {
            auto after = m_checkpoint(fmt::format("after step {}", step),
                                      fmt::format("after step {} of session {}", step, m_session.info().id));
            if (!after)
                return fail(fmt::format("the checkpoint after step {} failed: {}", step, after.error().message));
            end.checkpointAfter = *after;
        }
    }
    return m_session.finishStep(step, end);
}

} // namespace sb::agents
