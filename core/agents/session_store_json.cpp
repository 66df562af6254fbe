// Sessions and steps as JSON, and the names of their verdicts, kinds and statuses.

#include "session_store_internal.h"
#include "strict_json.h"

#include <array>
#include <utility>

namespace sb::agents {

namespace {

constexpr std::array<std::pair<Verdict, std::string_view>, 5> kVerdicts = {{
    {Verdict::Allowed, "allowed"},
    {Verdict::Blocked, "blocked"},
    {Verdict::Approved, "approved"},
    {Verdict::Denied, "denied"},
    {Verdict::Failed, "failed"},
}};

constexpr std::array<std::pair<SessionKind, std::string_view>, 2> kKinds = {{
    {SessionKind::Agent, "agent"},
    {SessionKind::Wrap, "wrap"},
}};

constexpr std::array<std::pair<SessionStatus, std::string_view>, 5> kStatuses = {{
    {SessionStatus::Running, "running"},
    {SessionStatus::Completed, "completed"},
    {SessionStatus::Blocked, "blocked"},
    {SessionStatus::Failed, "failed"},
    {SessionStatus::Interrupted, "interrupted"},
}};

template <typename Enum, std::size_t N>
std::string_view nameOf(const std::array<std::pair<Enum, std::string_view>, N>& names, Enum value)
{
    for (const auto& [each, name] : names) {
        if (each == value)
            return name;
    }
    return "unknown";
}

template <typename Enum, std::size_t N>
std::optional<Enum> valueOf(const std::array<std::pair<Enum, std::string_view>, N>& names, std::string_view text)
{
    for (const auto& [each, name] : names) {
        if (name == text)
            return each;
    }
    return std::nullopt;
}

Json textOrNull(const std::string& text)
{
    return text.empty() ? Json(nullptr) : Json(text);
}

Json timeOrNull(std::int64_t ms)
{
    return ms == 0 ? Json(nullptr) : Json(ms);
}

} // namespace

std::string_view toString(Verdict verdict)
{
    return nameOf(kVerdicts, verdict);
}

std::optional<Verdict> verdictFromString(std::string_view text)
{
    return valueOf(kVerdicts, text);
}

std::string_view toString(SessionKind kind)
{
    return nameOf(kKinds, kind);
}

std::optional<SessionKind> sessionKindFromString(std::string_view text)
{
    return valueOf(kKinds, text);
}

std::string_view toString(SessionStatus status)
{
    return nameOf(kStatuses, status);
}

std::optional<SessionStatus> sessionStatusFromString(std::string_view text)
{
    return valueOf(kStatuses, text);
}

Json sessionJson(const SessionInfo& session)
{
    const bool hasPolicy = session.policy.id != 0;
    return Json{
        {"id", session.id},
        {"kind", toString(session.kind)},
        {"command", session.command},
        {"sandbox", textOrNull(session.sandbox)},
        {"policy",
         {{"name", hasPolicy ? Json(session.policy.name) : Json(nullptr)},
          {"version", hasPolicy ? Json(session.policy.version) : Json(nullptr)},
          {"ref", textOrNull(session.policyRef)}}},
        {"workspace", textOrNull(session.workspace)},
        {"status", toString(session.status)},
        {"message", session.message},
        {"started_at_ms", session.startedAtMs},
        {"ended_at_ms", timeOrNull(session.endedAtMs)},
        {"steps", session.steps},
        {"cost", session.cost},
        {"first_checkpoint", textOrNull(session.firstCheckpoint)},
        {"protocol_version", textOrNull(session.protocolVersion)},
        {"client_info", session.clientInfo},
        {"server_info", session.serverInfo},
        {"run_id", textOrNull(session.runId)},
        {"replay_of", textOrNull(session.replayOf)},
    };
}

Json stepJson(const StepRecord& step)
{
    return Json{
        {"index", step.index},
        {"tool", step.tool},
        {"arguments", step.arguments},
        {"result", step.result ? *step.result : Json(nullptr)},
        {"reasoning", step.reasoning},
        {"started_at_ms", step.startedAtMs},
        {"ended_at_ms", timeOrNull(step.endedAtMs)},
        {"duration_ms", step.endedAtMs == 0 ? Json(nullptr) : Json(step.endedAtMs - step.startedAtMs)},
        {"cost", step.cost},
        {"verdict", toString(step.verdict)},
        {"rule", step.rule},
        {"message", step.message},
        {"checkpoint_before", textOrNull(step.checkpointBefore)},
        {"checkpoint_after", textOrNull(step.checkpointAfter)},
        {"edited", step.edited},
        {"original_arguments", step.originalArguments ? *step.originalArguments : Json(nullptr)},
        {"request_frame", step.requestFrame},
        {"response_frame", textOrNull(step.responseFrame)},
    };
}

Json sessionShowJson(const SessionInfo& session, std::span<const StepRecord> steps)
{
    Json list = Json::array();
    list.get_ref<Json::array_t&>().reserve(steps.size());
    for (const StepRecord& step : steps)
        list.push_back(stepJson(step));
    return Json{{"session", sessionJson(session)}, {"steps", std::move(list)}};
}

namespace sessions {

std::string jsonText(const Json& value)
{
    return value.dump(-1, ' ', false, Json::error_handler_t::replace);
}

Result<Json> parseJsonColumn(std::string_view text, const std::filesystem::path& storePath, std::string_view what)
{
    auto value = parseStrictJson(text);
    if (!value)
        return fail(fmt::format("store {}: {} is not JSON (was the store edited outside Sandbench?): {}",
                                storePath.string(), what, value.error()));
    return std::move(*value);
}

} // namespace sessions

} // namespace sb::agents
