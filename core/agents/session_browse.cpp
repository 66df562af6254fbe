// A recorded session browsed: steps in one line each, search, and the checkpoints around a step.

#include "agents/session_browse.h"

#include "agents/session_replay.h"
#include "session_store_internal.h"

#include <algorithm>

namespace sb::agents {

namespace {

using sqlite::Binder;
using sqlite::columnString;

constexpr std::size_t kMaxValueChars = 60;

// The first `maxChars` code points of UTF-8 `text`, with "…" when it was longer.
std::string cutCodePoints(std::string_view text, std::size_t maxChars)
{
    std::size_t points = 0;
    for (std::size_t at = 0; at < text.size(); ++at) {
        if ((static_cast<unsigned char>(text[at]) & 0xC0) == 0x80)
            continue; // a continuation byte
        if (points == maxChars)
            return std::string(text.substr(0, at)) + "…";
        ++points;
    }
    return std::string(text);
}

bool needsQuotes(const std::string& text)
{
    return text.empty() || std::any_of(text.begin(), text.end(), [](char c) {
               const auto byte = static_cast<unsigned char>(c);
               return byte <= 0x20 || byte == 0x7F || c == '"' || c == '\\' || c == '=';
           });
}

std::string valueSummary(const Json& value)
{
    if (value.is_string()) {
        const auto& text = value.get_ref<const std::string&>();
        return cutCodePoints(needsQuotes(text) ? Json(text).dump(-1, ' ', false, Json::error_handler_t::replace) : text,
                             kMaxValueChars);
    }
    return cutCodePoints(value.dump(-1, ' ', false, Json::error_handler_t::replace), kMaxValueChars);
}

constexpr std::string_view kSummarySelect =
    "SELECT idx, tool, arguments, started_at_ms, ended_at_ms, cost, verdict, "
    "coalesce(checkpoint_before, '') <> '', coalesce(checkpoint_after, '') <> '', edited, "
    "CASE WHEN result IS NULL OR NOT json_valid(result) THEN 0 "
    "ELSE coalesce(json_extract(result, '$.isError'), 0) = 1 OR json_type(result, '$.error') IS NOT NULL END "
    "FROM agent_steps WHERE session_id = ?1 AND idx > ?2 ORDER BY idx LIMIT ?3";

Result<StepSummary> readSummary(sqlite3_stmt* s, const std::filesystem::path& storePath, std::string_view sessionId)
{
    StepSummary step;
    step.index = sqlite3_column_int64(s, 0);
    step.tool = columnString(s, 1);
    auto arguments = sessions::parseJsonColumn(columnString(s, 2), storePath,
                                               fmt::format("session {}, step {}: its arguments", sessionId, step.index));
    if (!arguments)
        return std::unexpected(arguments.error());
    step.arguments = argumentSummary(*arguments);
    step.startedAtMs = sqlite3_column_int64(s, 3);
    step.endedAtMs = sqlite3_column_int64(s, 4);
    step.cost = sqlite3_column_double(s, 5);
    const std::string verdict = columnString(s, 6);
    const auto parsed = verdictFromString(verdict);
    if (!parsed)
        return fail(fmt::format("store {}: session {}, step {}: verdict '{}' is not one Sandbench writes (was the "
                                "store edited outside Sandbench?)",
                                storePath.string(), sessionId, step.index, verdict));
    step.verdict = *parsed;
    step.checkpointBefore = sqlite3_column_int64(s, 7) != 0;
    step.checkpointAfter = sqlite3_column_int64(s, 8) != 0;
    step.edited = sqlite3_column_int64(s, 9) != 0;
    step.isError = sqlite3_column_int64(s, 10) != 0;
    return step;
}

// The first checkpoint taken once step `step` began: its own after it, else one before or after a later step; ""
// none. One indexed scan of the steps' checkpoint columns.
Result<std::string> firstCheckpointFrom(Store& store, std::string_view sessionId, std::int64_t step)
{
    return sessions::guarded(store.path(), "reading an agent session's checkpoints", [&]() -> Result<std::string> {
        auto db = sqlite::connectionOf(store);
        if (!db)
            return std::unexpected(db.error());
        auto session = sessions::sessionRow(*db, sessionId);
        if (!session)
            return std::unexpected(session.error());
        auto statement = db->prepare(
            "SELECT CASE WHEN idx > ?2 AND coalesce(checkpoint_before, '') <> '' THEN checkpoint_before "
            "ELSE checkpoint_after END FROM agent_steps WHERE session_id = ?1 AND idx >= ?2 "
            "AND ((idx > ?2 AND coalesce(checkpoint_before, '') <> '') OR coalesce(checkpoint_after, '') <> '') "
            "ORDER BY idx LIMIT 1");
        if (!statement)
            return std::unexpected(statement.error());
        sqlite3_bind_int64(statement->get(), 1, session->row);
        sqlite3_bind_int64(statement->get(), 2, step);
        const int rc = sqlite3_step(statement->get());
        if (rc == SQLITE_DONE)
            return std::string();
        if (rc != SQLITE_ROW)
            return db->error(fmt::format("cannot read the checkpoints of session {}", sessionId));
        return columnString(statement->get(), 0);
    });
}

} // namespace

std::string argumentSummary(const Json& arguments, std::size_t maxChars)
{
    if (!arguments.is_object())
        return cutCodePoints(arguments.dump(-1, ' ', false, Json::error_handler_t::replace), maxChars);
    std::string line;
    for (const auto& [key, value] : arguments.items()) {
        if (!line.empty())
            line += ' ';
        line += key;
        line += '=';
        line += valueSummary(value);
        if (line.size() > maxChars * 4)
            break; // already past what is shown, whatever the code points
    }
    return cutCodePoints(line, maxChars);
}

Result<std::vector<StepSummary>> stepSummaries(Store& store, std::string_view sessionId, std::int64_t offset,
                                               std::int64_t limit)
{
    return sessions::stepRows<StepSummary>(store, sessionId, offset, limit, kSummarySelect, readSummary);
}

Result<std::vector<std::int64_t>> searchSteps(Store& store, std::string_view sessionId, std::string_view text)
{
    return sessions::guarded(store.path(), "searching an agent session", [&]() -> Result<std::vector<std::int64_t>> {
        auto db = sqlite::connectionOf(store);
        if (!db)
            return std::unexpected(db.error());
        auto session = sessions::sessionRow(*db, sessionId);
        if (!session)
            return std::unexpected(session.error());
        auto statement = db->prepare(
            "SELECT idx FROM agent_steps WHERE session_id = ?1 AND (instr(lower(tool), lower(?2)) > 0 "
            "OR instr(lower(arguments), lower(?2)) > 0 OR instr(lower(coalesce(result, '')), lower(?2)) > 0 "
            "OR instr(lower(reasoning), lower(?2)) > 0 OR instr(lower(message), lower(?2)) > 0) ORDER BY idx");
        if (!statement)
            return std::unexpected(statement.error());
        sqlite3_bind_int64(statement->get(), 1, session->row);
        Binder bind(statement->get());
        bind.text(2, text);
        if (!bind.ok())
            return db->error(fmt::format("cannot search session {}", sessionId));
        std::vector<std::int64_t> found;
        int rc = 0;
        while ((rc = sqlite3_step(statement->get())) == SQLITE_ROW)
            found.push_back(sqlite3_column_int64(statement->get(), 0));
        if (rc != SQLITE_DONE)
            return db->error(fmt::format("cannot search session {}", sessionId));
        return found;
    });
}

Result<StepWorkspaceChange> stepWorkspaceChange(SessionStore& sessions, Store& store, const SessionInfo& session,
                                                std::int64_t step)
{
    if (step < 1 || step > session.steps)
        return fail(fmt::format("session {} has steps 1 to {}: there is no step {}", session.id, session.steps, step));
    auto after = firstCheckpointFrom(store, session.id, step);
    if (!after)
        return std::unexpected(after.error());
    StepWorkspaceChange change{{}, std::move(*after)};
    if (change.after.empty())
        return change; // nothing to compare with: the before is not looked for (at 100 000 steps, a second's read)
    auto own = sessions.steps(session.id, step - 1, 1);
    if (!own)
        return std::unexpected(own.error());
    // checkpointBeforeStep's first case, without reading the steps before: the step's own checkpoint before it.
    if (!own->empty() && !own->front().checkpointBefore.empty()) {
        change.before = own->front().checkpointBefore;
        return change;
    }
    auto before = checkpointBeforeStep(sessions, session, step);
    if (!before)
        return std::unexpected(before.error());
    change.before = std::move(*before);
    return change;
}

} // namespace sb::agents
