// Sessions and steps read back: list, find by id or prefix, a session's steps; and the sessions whose gateway
// ended without closing them, found by their lock and recorded as interrupted.

#include "session_store_internal.h"

#include "checkpoints/files.h"
#include "store/audit.h"
#include "util/ascii.h"

#include <algorithm>
#include <cerrno>
#include <sys/stat.h>
#include <unistd.h>

namespace sb::agents {

namespace fs = std::filesystem;

namespace {

using sqlite::Binder;
using sqlite::columnString;

constexpr std::string_view kInterruptedMessage =
    "the gateway ended without closing the session (it was killed or crashed); every step it recorded is kept";

constexpr std::string_view kSessionSelect =
    "SELECT s.id, s.session_id, s.kind, s.command, s.sandbox, p.id, p.name, p.version, p.sha256, p.created_at_ms, "
    "s.policy_ref, s.workspace, s.status, s.message, s.started_at_ms, s.ended_at_ms, s.steps, s.cost, "
    "s.first_checkpoint, s.protocol_version, s.client_info, s.server_info, s.run_id, s.control_socket, s.replay_of "
    "FROM agent_sessions AS s LEFT JOIN policies AS p ON p.id = s.policy_id";

constexpr std::string_view kStepSelect =
    "SELECT idx, tool, arguments, result, reasoning, started_at_ms, ended_at_ms, cost, verdict, rule, message, "
    "checkpoint_before, checkpoint_after, request_frame, response_frame, edited, original_arguments "
    "FROM agent_steps WHERE session_id = ?1 AND idx > ?2 ORDER BY idx LIMIT ?3";

struct SessionRow {
    std::int64_t row = 0; // agent_sessions.id
    SessionInfo info;
};

std::unexpected<Error> notWritten(const fs::path& storePath, std::string_view what, std::string_view value)
{
    return fail(fmt::format("store {}: {} '{}' is not one Sandbench writes (was the store edited outside "
                            "Sandbench?)",
                            storePath.string(), what, value));
}

Result<SessionRow> readSession(sqlite3_stmt* s, const fs::path& storePath)
{
    SessionRow out;
    out.row = sqlite3_column_int64(s, 0);
    SessionInfo& info = out.info;
    info.id = columnString(s, 1);
    const std::string where = fmt::format("session {}", info.id);
    const std::string kind = columnString(s, 2);
    const auto parsedKind = sessionKindFromString(kind);
    if (!parsedKind)
        return notWritten(storePath, where + ": kind", kind);
    info.kind = *parsedKind;
    auto command = sessions::parseJsonColumn(columnString(s, 3), storePath, where + ": its command");
    if (!command)
        return std::unexpected(command.error());
    if (!command->is_array()
        || !std::all_of(command->begin(), command->end(), [](const Json& v) { return v.is_string(); }))
        return fail(fmt::format("store {}: {}: its command is not a list of strings (was the store edited outside "
                                "Sandbench?)",
                                storePath.string(), where));
    for (const Json& argument : *command)
        info.command.push_back(argument.get<std::string>());
    info.sandbox = columnString(s, 4);
    if (sqlite3_column_type(s, 5) != SQLITE_NULL) {
        info.policy.id = sqlite3_column_int64(s, 5);
        info.policy.name = columnString(s, 6);
        info.policy.version = sqlite3_column_int64(s, 7);
        info.policy.sha256 = columnString(s, 8);
        info.policy.createdAtMs = sqlite3_column_int64(s, 9);
    }
    info.policyRef = columnString(s, 10);
    info.workspace = columnString(s, 11);
    const std::string status = columnString(s, 12);
    const auto parsedStatus = sessionStatusFromString(status);
    if (!parsedStatus)
        return notWritten(storePath, where + ": status", status);
    info.status = *parsedStatus;
    info.message = columnString(s, 13);
    info.startedAtMs = sqlite3_column_int64(s, 14);
    info.endedAtMs = sqlite3_column_int64(s, 15);
    info.steps = sqlite3_column_int64(s, 16);
    info.cost = sqlite3_column_double(s, 17);
    info.firstCheckpoint = columnString(s, 18);
    info.protocolVersion = columnString(s, 19);
    auto clientInfo = sessions::parseJsonColumn(columnString(s, 20), storePath, where + ": its client_info");
    if (!clientInfo)
        return std::unexpected(clientInfo.error());
    info.clientInfo = std::move(*clientInfo);
    auto serverInfo = sessions::parseJsonColumn(columnString(s, 21), storePath, where + ": its server_info");
    if (!serverInfo)
        return std::unexpected(serverInfo.error());
    info.serverInfo = std::move(*serverInfo);
    info.runId = columnString(s, 22);
    info.controlSocket = columnString(s, 23);
    info.replayOf = columnString(s, 24);
    return out;
}

// The sessions a query of kSessionSelect finds, `bind` giving its parameters.
template <typename BindFunction>
Result<std::vector<SessionRow>> readSessions(const sqlite::Db& db, std::string_view tail, BindFunction&& bind)
{
    auto statement = db.prepare(fmt::format("{} {}", kSessionSelect, tail));
    if (!statement)
        return std::unexpected(statement.error());
    if (!bind(statement->get()))
        return db.error("cannot read the agent sessions");
    std::vector<SessionRow> rows;
    int rc = 0;
    while ((rc = sqlite3_step(statement->get())) == SQLITE_ROW) {
        auto row = readSession(statement->get(), db.path());
        if (!row)
            return std::unexpected(row.error());
        rows.push_back(std::move(*row));
    }
    if (rc != SQLITE_DONE)
        return db.error("cannot read the agent sessions");
    return rows;
}

Result<StepRecord> readStep(sqlite3_stmt* s, const fs::path& storePath, std::string_view sessionId)
{
    StepRecord step;
    step.index = sqlite3_column_int64(s, 0);
    const std::string where = fmt::format("session {}, step {}", sessionId, step.index);
    step.tool = columnString(s, 1);
    auto arguments = sessions::parseJsonColumn(columnString(s, 2), storePath, where + ": its arguments");
    if (!arguments)
        return std::unexpected(arguments.error());
    step.arguments = std::move(*arguments);
    if (sqlite3_column_type(s, 3) != SQLITE_NULL) {
        auto result = sessions::parseJsonColumn(columnString(s, 3), storePath, where + ": its result");
        if (!result)
            return std::unexpected(result.error());
        step.result = std::move(*result);
    }
    step.reasoning = columnString(s, 4);
    step.startedAtMs = sqlite3_column_int64(s, 5);
    step.endedAtMs = sqlite3_column_int64(s, 6);
    step.cost = sqlite3_column_double(s, 7);
    const std::string verdict = columnString(s, 8);
    const auto parsedVerdict = verdictFromString(verdict);
    if (!parsedVerdict)
        return notWritten(storePath, where + ": verdict", verdict);
    step.verdict = *parsedVerdict;
    step.rule = columnString(s, 9);
    step.message = columnString(s, 10);
    step.checkpointBefore = columnString(s, 11);
    step.checkpointAfter = columnString(s, 12);
    step.requestFrame = columnString(s, 13);
    step.responseFrame = columnString(s, 14);
    step.edited = sqlite3_column_int64(s, 15) != 0;
    if (sqlite3_column_type(s, 16) != SQLITE_NULL) {
        auto original = sessions::parseJsonColumn(columnString(s, 16), storePath, where + ": its original_arguments");
        if (!original)
            return std::unexpected(original.error());
        step.originalArguments = std::move(*original);
    }
    return step;
}

// When the session was last seen alive: its latest recorded time.
Result<std::int64_t> lastSeenMs(const sqlite::Db& db, const SessionRow& session)
{
    auto statement = db.prepare("SELECT max(started_at_ms), max(ended_at_ms) FROM agent_steps WHERE session_id = ?1");
    if (!statement)
        return std::unexpected(statement.error());
    sqlite3_bind_int64(statement->get(), 1, session.row);
    if (sqlite3_step(statement->get()) != SQLITE_ROW)
        return db.error(fmt::format("cannot read the steps of session {}", session.info.id));
    return std::max<std::int64_t>({session.info.startedAtMs, sqlite3_column_int64(statement->get(), 0),
                                   sqlite3_column_int64(statement->get(), 1)});
}

// Records a session found without its gateway as interrupted, unless it ended meanwhile. Returns whether it did.
Result<bool> recordInterrupted(const sqlite::Db& db, const SessionInfo& session)
{
    sqlite::Transaction transaction(db);
    if (auto ok = transaction.begin(); !ok)
        return std::unexpected(ok.error());
    auto statement = db.prepare("UPDATE agent_sessions SET status = 'interrupted', message = ?2, ended_at_ms = ?3 "
                                "WHERE session_id = ?1 AND status = 'running'");
    if (!statement)
        return std::unexpected(statement.error());
    Binder bind(statement->get());
    bind.text(1, session.id).text(2, session.message).integer(3, session.endedAtMs);
    if (!bind.ok() || sqlite3_step(statement->get()) != SQLITE_DONE)
        return db.error(fmt::format("cannot record session {} as interrupted", session.id));
    if (db.changes() == 0)
        return false;
    Json details = {{"status", toString(SessionStatus::Interrupted)},
                    {"message", session.message},
                    {"steps", session.steps},
                    {"cost", session.cost}};
    if (auto audited = appendAudit(db, AuditEntry(audit_op::kSessionEnd, session.id, std::move(details))); !audited)
        return std::unexpected(audited.error());
    if (auto ok = transaction.commit(); !ok)
        return std::unexpected(ok.error());
    return true;
}

// A session still `running` in the store whose lock nobody holds lost its gateway: it is reported interrupted,
// and recorded so when the store can be written. A session whose lock cannot be looked at (another user's
// store) is reported as the store says.
Result<void> settle(Store& store, const sqlite::Db& db, SessionRow& session)
{
    if (session.info.status != SessionStatus::Running)
        return {};
    const fs::path lockFile = sessions::lockPath(store.path(), session.info.id);
    FileLock lock;
    struct stat file {};
    if (::lstat(lockFile.c_str(), &file) == 0) {
        auto taken = FileLock::tryAcquire(lockFile, FileLock::Mode::Shared);
        if (!taken || !taken->valid())
            return {}; // alive, or not ours to tell
        lock = std::move(*taken);
    } else if (errno != ENOENT) {
        return {};
    }
    auto lastSeen = lastSeenMs(db, session);
    if (!lastSeen)
        return std::unexpected(lastSeen.error());
    SessionInfo interrupted = session.info;
    interrupted.status = SessionStatus::Interrupted;
    interrupted.message = std::string(kInterruptedMessage);
    interrupted.endedAtMs = *lastSeen;
    if (store.readOnly()) {
        session.info = std::move(interrupted);
        return {};
    }
    auto recorded = recordInterrupted(db, interrupted);
    if (!recorded)
        return std::unexpected(recorded.error());
    if (*recorded) {
        session.info = std::move(interrupted);
    } else {
        // Ended by its gateway between the read and the lock: read it again.
        auto again = readSessions(db, "WHERE s.id = ?1",
                                  [&](sqlite3_stmt* s) { return sqlite3_bind_int64(s, 1, session.row) == SQLITE_OK; });
        if (!again)
            return std::unexpected(again.error());
        if (!again->empty())
            session = std::move(again->front());
    }
    // Nobody will hold it again: removed while held, as LiveSession::end removes its own.
    if (lock.valid())
        ::unlink(lockFile.c_str());
    return {};
}

Result<std::vector<SessionRow>> settled(Store& store, const sqlite::Db& db, Result<std::vector<SessionRow>> rows)
{
    if (!rows)
        return rows;
    for (SessionRow& row : *rows) {
        if (auto ok = settle(store, db, row); !ok)
            return std::unexpected(ok.error());
    }
    return rows;
}

bool isSessionIdPrefix(std::string_view text)
{
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || c == '-'; });
}

} // namespace

Result<sessions::SessionRef> sessions::sessionRow(const sqlite::Db& db, std::string_view id)
{
    auto statement = db.prepare("SELECT id, steps FROM agent_sessions WHERE session_id = ?1");
    if (!statement)
        return std::unexpected(statement.error());
    Binder bind(statement->get());
    bind.text(1, id);
    const int found = bind.ok() ? sqlite3_step(statement->get()) : SQLITE_ERROR;
    if (found == SQLITE_DONE)
        return fail(fmt::format("no agent session '{}'", id));
    if (found != SQLITE_ROW)
        return db.error(fmt::format("cannot read session {}", id));
    return SessionRef{sqlite3_column_int64(statement->get(), 0), sqlite3_column_int64(statement->get(), 1)};
}

Result<std::vector<SessionInfo>> SessionStore::list()
{
    return sessions::guarded(m_store->path(), "listing the agent sessions", [&]() -> Result<std::vector<SessionInfo>> {
        auto db = sqlite::connectionOf(*m_store);
        if (!db)
            return std::unexpected(db.error());
        auto rows =
            settled(*m_store, *db,
                    readSessions(*db, "ORDER BY s.started_at_ms DESC, s.id DESC", [](sqlite3_stmt*) { return true; }));
        if (!rows)
            return std::unexpected(rows.error());
        std::vector<SessionInfo> out;
        out.reserve(rows->size());
        for (SessionRow& row : *rows)
            out.push_back(std::move(row.info));
        return out;
    });
}

Result<SessionInfo> SessionStore::find(std::string_view idOrPrefix)
{
    return sessions::guarded(m_store->path(), "finding an agent session", [&]() -> Result<SessionInfo> {
        const std::string prefix = asciiLower(idOrPrefix);
        if (prefix.size() < 4 || !isSessionIdPrefix(prefix))
            return fail(fmt::format("'{}' is not a session id (give at least its first 4 characters)", idOrPrefix));
        auto db = sqlite::connectionOf(*m_store);
        if (!db)
            return std::unexpected(db.error());
        // Every id that starts with the prefix sorts from it to before prefix + "~" ('~' is above any character
        // of an id); two of them are enough to call it ambiguous, a few more name the candidates.
        const std::string upper = prefix + "~";
        auto rows = readSessions(*db, "WHERE s.session_id >= ?1 AND s.session_id < ?2 ORDER BY s.session_id LIMIT 6",
                                 [&](sqlite3_stmt* s) {
                                     Binder bind(s);
                                     bind.text(1, prefix).text(2, upper);
                                     return bind.ok();
                                 });
        if (!rows)
            return std::unexpected(rows.error());
        if (rows->empty())
            return fail(fmt::format("no agent session '{}'", idOrPrefix));
        if (rows->size() > 1) {
            std::string candidates;
            for (const SessionRow& row : *rows)
                candidates += (candidates.empty() ? "" : ", ") + row.info.id.substr(0, 13);
            return fail(fmt::format("agent session '{}' is ambiguous: it starts {}{}", idOrPrefix, candidates,
                                    rows->size() == 6 ? ", ..." : ""));
        }
        if (auto ok = settle(*m_store, *db, rows->front()); !ok)
            return std::unexpected(ok.error());
        return std::move(rows->front().info);
    });
}

Result<std::vector<StepRecord>> SessionStore::steps(std::string_view id, std::int64_t offset, std::int64_t limit)
{
    return sessions::stepRows<StepRecord>(*m_store, id, offset, limit, kStepSelect, readStep);
}

} // namespace sb::agents
