// A session being recorded: SessionStore::begin, and the LiveSession that writes its steps and its end.

#include "session_store_internal.h"

#include "checkpoints/files.h"
#include "sandboxes/sandbox_engine.h"
#include "store/audit.h"
#include "util/uuid.h"

#include <unistd.h>
#include <utility>

namespace sb::agents {

namespace fs = std::filesystem;

namespace {

using sqlite::Binder;

// The session.start entry's details: what ran, under what, where.
Json startDetails(const SessionInfo& info)
{
    Json details = {
        {"kind", toString(info.kind)},  {"command", info.command},     {"sandbox", info.sandbox},
        {"policy_ref", info.policyRef}, {"workspace", info.workspace},
    };
    if (info.policy.id != 0) {
        details["policy"] = fmt::format("{}@{}", info.policy.name, info.policy.version);
        details["policy_sha256"] = info.policy.sha256;
    }
    if (!info.replayOf.empty())
        details["replay_of"] = info.replayOf;
    return details;
}

Result<void> insertSession(const sqlite::Db& db, const SessionInfo& info)
{
    auto insert = db.prepare(
        "INSERT INTO agent_sessions (session_id, kind, command, sandbox, policy_id, policy_ref, workspace, status, "
        "started_at_ms, first_checkpoint, protocol_version, client_info, server_info, run_id, control_socket, "
        "replay_of) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'running', ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)");
    if (!insert)
        return std::unexpected(insert.error());
    const std::string command = sessions::jsonText(Json(info.command));
    const std::string clientInfo = sessions::jsonText(info.clientInfo);
    const std::string serverInfo = sessions::jsonText(info.serverInfo);
    Binder bind(insert->get());
    bind.text(1, info.id)
        .text(2, toString(info.kind))
        .text(3, command)
        .text(4, info.sandbox)
        .text(6, info.policyRef)
        .text(7, info.workspace)
        .integer(8, info.startedAtMs)
        .text(9, info.firstCheckpoint)
        .text(10, info.protocolVersion)
        .text(11, clientInfo)
        .text(12, serverInfo)
        .text(13, info.runId)
        .text(14, info.controlSocket)
        .text(15, info.replayOf);
    if (info.policy.id != 0)
        bind.integer(5, info.policy.id);
    else
        bind.null(5);
    if (!bind.ok() || sqlite3_step(insert->get()) != SQLITE_DONE)
        return db.error(fmt::format("cannot record session {}", info.id));
    return {};
}

} // namespace

// ---- LiveSession --------------------------------------------------------------------------------------------

struct LiveSession::Impl {
    Store* store = nullptr;
    SessionInfo info;
    std::int64_t row = 0; // agent_sessions.id
    FileLock lock;
    fs::path lockFile;
    bool ended = false;
    // Prepared once: a step is recorded on every call the gateway mediates.
    sqlite::Statement insertStep;
    sqlite::Statement countStep;
    sqlite::Statement finishStep;

    std::string where() const { return fmt::format("session {}", info.id); }

    Result<sqlite::Db> db() const
    {
        if (ended)
            return fail(fmt::format("{} has ended: nothing more can be recorded in it", where()));
        return sqlite::connectionOf(*store);
    }

    static Result<void> prepare(const sqlite::Db& db, sqlite::Statement& statement, std::string_view sql)
    {
        if (statement) {
            sqlite3_reset(statement.get());
            sqlite3_clear_bindings(statement.get());
            return {};
        }
        auto prepared = db.prepare(sql);
        if (!prepared)
            return std::unexpected(prepared.error());
        statement = std::move(*prepared);
        return {};
    }

    // Runs a statement that returns no row and resets it: one left pending would keep its transaction's locks.
    static Result<void> run(const sqlite::Db& db, const Binder& bind, sqlite3_stmt* statement, std::string_view what)
    {
        if (!bind.ok() || sqlite3_step(statement) != SQLITE_DONE) {
            auto error = db.error(what);
            sqlite3_reset(statement);
            return error;
        }
        sqlite3_reset(statement);
        return {};
    }

    Result<void> insert(const sqlite::Db& db, const StepRecord& step)
    {
        if (auto ok = prepare(db, insertStep,
                              "INSERT INTO agent_steps (session_id, idx, tool, arguments, result, reasoning, "
                              "started_at_ms, ended_at_ms, cost, verdict, rule, message, checkpoint_before, "
                              "checkpoint_after, request_frame, response_frame, edited, original_arguments) VALUES "
                              "(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)");
            !ok)
            return ok;
        const std::string arguments = sessions::jsonText(step.arguments);
        const std::string result = step.result ? sessions::jsonText(*step.result) : std::string();
        const std::string original =
            step.originalArguments ? sessions::jsonText(*step.originalArguments) : std::string();
        sqlite3_stmt* s = insertStep.get();
        Binder bind(s);
        bind.integer(1, row)
            .integer(2, step.index)
            .text(3, step.tool)
            .text(4, arguments)
            .text(6, step.reasoning)
            .integer(7, step.startedAtMs)
            .integer(8, step.endedAtMs)
            .real(9, step.cost)
            .text(10, toString(step.verdict))
            .text(11, step.rule)
            .text(12, step.message)
            .text(13, step.checkpointBefore)
            .text(14, step.checkpointAfter)
            .text(15, step.requestFrame)
            .text(16, step.responseFrame)
            .integer(17, step.edited ? 1 : 0);
        if (step.result)
            bind.text(5, result);
        else
            bind.null(5);
        if (step.originalArguments)
            bind.text(18, original);
        else
            bind.null(18);
        return run(db, bind, s, fmt::format("cannot record step {} of {}", step.index, where()));
    }

    // Adds `steps` and `cost` to the session's sums; refused when the session is no longer running in the store
    // (a reader found it interrupted: its lock file was taken from under it).
    Result<void> count(const sqlite::Db& db, std::int64_t steps, double cost)
    {
        if (auto ok = prepare(db, countStep,
                              "UPDATE agent_sessions SET steps = steps + ?2, cost = cost + ?3 "
                              "WHERE id = ?1 AND status = 'running'");
            !ok)
            return ok;
        Binder bind(countStep.get());
        bind.integer(1, row).integer(2, steps).real(3, cost);
        if (auto ok = run(db, bind, countStep.get(), fmt::format("cannot count the steps of {}", where())); !ok)
            return ok;
        if (db.changes() != 1)
            return fail(fmt::format("store {}: {} is no longer running in the store (its lock {} was lost?)",
                                    db.path().string(), where(), lockFile.string()));
        return {};
    }

    // Gives the next steps their indexes and times, checking those the caller gave.
    Result<std::vector<StepRecord>> numbered(std::span<const StepRecord> steps) const
    {
        std::vector<StepRecord> out(steps.begin(), steps.end());
        std::int64_t next = info.steps;
        const std::int64_t now = nowMs();
        for (StepRecord& step : out) {
            ++next;
            if (step.index != 0 && step.index != next)
                return fail(fmt::format("{}: step {} given where step {} comes next", where(), step.index, next));
            step.index = next;
            if (step.startedAtMs == 0)
                step.startedAtMs = now;
        }
        return out;
    }

    Result<std::int64_t> add(std::span<const StepRecord> given)
    {
        auto connection = db();
        if (!connection)
            return std::unexpected(connection.error());
        auto steps = numbered(given);
        if (!steps)
            return std::unexpected(steps.error());
        double cost = 0;
        sqlite::Transaction transaction(*connection);
        if (auto ok = transaction.begin(); !ok)
            return std::unexpected(ok.error());
        for (const StepRecord& step : *steps) {
            if (auto ok = insert(*connection, step); !ok)
                return std::unexpected(ok.error());
            cost += step.cost;
        }
        if (auto ok = count(*connection, static_cast<std::int64_t>(steps->size()), cost); !ok)
            return std::unexpected(ok.error());
        if (auto ok = transaction.commit(); !ok)
            return std::unexpected(ok.error());
        info.steps += static_cast<std::int64_t>(steps->size());
        info.cost += cost;
        return info.steps;
    }

    Result<void> finish(std::int64_t index, const StepEnd& end)
    {
        auto connection = db();
        if (!connection)
            return std::unexpected(connection.error());
        if (auto ok = prepare(*connection, finishStep,
                              "UPDATE agent_steps SET result = ?3, ended_at_ms = ?4, response_frame = ?5, "
                              "checkpoint_after = ?6, verdict = coalesce(?7, verdict), message = coalesce(?8, message) "
                              "WHERE session_id = ?1 AND idx = ?2");
            !ok)
            return ok;
        const std::string result = end.result ? sessions::jsonText(*end.result) : std::string();
        sqlite3_stmt* s = finishStep.get();
        Binder bind(s);
        bind.integer(1, row)
            .integer(2, index)
            .integer(4, end.endedAtMs != 0 ? end.endedAtMs : nowMs())
            .text(5, end.responseFrame)
            .text(6, end.checkpointAfter);
        if (end.result)
            bind.text(3, result);
        else
            bind.null(3);
        if (end.verdict)
            bind.text(7, toString(*end.verdict));
        else
            bind.null(7);
        if (end.message)
            bind.text(8, *end.message);
        else
            bind.null(8);
        if (auto ok = run(*connection, bind, s, fmt::format("cannot record the end of step {} of {}", index, where()));
            !ok)
            return ok;
        if (connection->changes() != 1)
            return fail(fmt::format("{} has no step {}", where(), index));
        return {};
    }

    Result<void> update(const SessionUpdate& change)
    {
        auto connection = db();
        if (!connection)
            return std::unexpected(connection.error());
        SessionInfo next = info;
        if (change.runId)
            next.runId = *change.runId;
        if (change.protocolVersion)
            next.protocolVersion = *change.protocolVersion;
        if (change.clientInfo)
            next.clientInfo = *change.clientInfo;
        if (change.serverInfo)
            next.serverInfo = *change.serverInfo;
        if (change.firstCheckpoint)
            next.firstCheckpoint = *change.firstCheckpoint;
        if (change.controlSocket)
            next.controlSocket = *change.controlSocket;
        auto statement = connection->prepare(
            "UPDATE agent_sessions SET run_id = ?2, protocol_version = ?3, client_info = ?4, server_info = ?5, "
            "first_checkpoint = ?6, control_socket = ?7 WHERE id = ?1");
        if (!statement)
            return std::unexpected(statement.error());
        const std::string clientInfo = sessions::jsonText(next.clientInfo);
        const std::string serverInfo = sessions::jsonText(next.serverInfo);
        Binder bind(statement->get());
        bind.integer(1, row)
            .text(2, next.runId)
            .text(3, next.protocolVersion)
            .text(4, clientInfo)
            .text(5, serverInfo)
            .text(6, next.firstCheckpoint)
            .text(7, next.controlSocket);
        if (!bind.ok() || sqlite3_step(statement->get()) != SQLITE_DONE)
            return connection->error(fmt::format("cannot update {}", where()));
        info = std::move(next);
        return {};
    }

    Result<void> close(SessionStatus status, std::string message)
    {
        if (status == SessionStatus::Running)
            return fail(fmt::format("{}: a session cannot end as running", where()));
        auto connection = db();
        if (!connection)
            return std::unexpected(connection.error());
        const std::int64_t endedAtMs = nowMs();
        sqlite::Transaction transaction(*connection);
        if (auto ok = transaction.begin(); !ok)
            return ok;
        auto statement = connection->prepare("UPDATE agent_sessions SET status = ?2, message = ?3, ended_at_ms = ?4 "
                                             "WHERE id = ?1 AND status = 'running'");
        if (!statement)
            return std::unexpected(statement.error());
        Binder bind(statement->get());
        bind.integer(1, row).text(2, toString(status)).text(3, message).integer(4, endedAtMs);
        if (!bind.ok() || sqlite3_step(statement->get()) != SQLITE_DONE)
            return connection->error(fmt::format("cannot record the end of {}", where()));
        if (connection->changes() != 1)
            return fail(fmt::format("store {}: {} is no longer running in the store (its lock {} was lost?)",
                                    connection->path().string(), where(), lockFile.string()));
        Json details = {{"status", toString(status)}, {"message", message}, {"steps", info.steps}, {"cost", info.cost}};
        if (auto audited = appendAudit(*connection, AuditEntry(audit_op::kSessionEnd, info.id, std::move(details)));
            !audited)
            return std::unexpected(audited.error());
        if (auto ok = transaction.commit(); !ok)
            return ok;
        info.status = status;
        info.message = std::move(message);
        info.endedAtMs = endedAtMs;
        ended = true;
        // Recorded: the lock has nothing more to tell. Removed while held, so no reader takes a closed session's
        // lock file for a live one's.
        ::unlink(lockFile.c_str());
        lock = FileLock();
        insertStep.reset();
        countStep.reset();
        finishStep.reset();
        return {};
    }
};

LiveSession::LiveSession(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
LiveSession::LiveSession(LiveSession&&) noexcept = default;
LiveSession& LiveSession::operator=(LiveSession&&) noexcept = default;
LiveSession::~LiveSession() = default;

const SessionInfo& LiveSession::info() const
{
    return m_impl->info;
}

bool LiveSession::ended() const
{
    return m_impl->ended;
}

Result<std::int64_t> LiveSession::addStep(StepRecord step)
{
    return addSteps(std::span<const StepRecord>(&step, 1));
}

Result<std::int64_t> LiveSession::addSteps(std::span<const StepRecord> steps)
{
    return sessions::guarded(m_impl->store->path(), fmt::format("recording steps of {}", m_impl->where()),
                             [&] { return m_impl->add(steps); });
}

Result<void> LiveSession::finishStep(std::int64_t index, const StepEnd& end)
{
    return sessions::guarded(m_impl->store->path(), fmt::format("recording step {} of {}", index, m_impl->where()),
                             [&] { return m_impl->finish(index, end); });
}

Result<void> LiveSession::update(const SessionUpdate& update)
{
    return sessions::guarded(m_impl->store->path(), fmt::format("updating {}", m_impl->where()),
                             [&] { return m_impl->update(update); });
}

Result<void> LiveSession::end(SessionStatus status, std::string message)
{
    auto ended = sessions::guarded(m_impl->store->path(), fmt::format("ending {}", m_impl->where()),
                                   [&] { return m_impl->close(status, std::move(message)); });
    // The next process to open the store reads whatever is left in the log.
    m_impl->store->checkpointWal();
    return ended;
}

void LiveSession::idle()
{
    if (!m_impl->ended)
        m_impl->store->checkpointWal();
}

// ---- SessionStore::begin ------------------------------------------------------------------------------------

SessionStore::SessionStore(Store& store) : m_store(&store) {}

fs::path SessionStore::lockFolder(const fs::path& storePath)
{
    return SandboxEngine::dataFolder(storePath) / "sessions";
}

fs::path sessions::lockPath(const fs::path& storePath, std::string_view sessionId)
{
    return SessionStore::lockFolder(storePath) / fmt::format("{}.lock", sessionId);
}

Result<LiveSession> SessionStore::begin(SessionInfo info)
{
    return sessions::guarded(m_store->path(), "beginning a session", [&]() -> Result<LiveSession> {
        if (m_store->readOnly())
            return fail(fmt::format("store {} can only be read: a session could not be recorded in it",
                                    m_store->path().string()));
        if (info.id.empty()) {
            auto id = randomUuid();
            if (!id)
                return std::unexpected(id.error());
            info.id = std::move(*id);
        } else if (!isCanonicalUuid(info.id)) {
            return fail(fmt::format("'{}' is not a session id (a UUID in lower case)", info.id));
        }
        if (info.startedAtMs == 0)
            info.startedAtMs = nowMs();
        info.status = SessionStatus::Running;
        info.message.clear();
        info.endedAtMs = 0;
        info.steps = 0;
        info.cost = 0;

        auto impl = std::make_unique<LiveSession::Impl>();
        impl->store = m_store;
        impl->lockFile = sessions::lockPath(m_store->path(), info.id);
        if (auto made = makeDirectories(impl->lockFile.parent_path()); !made)
            return std::unexpected(made.error());
        // Taken before the row exists: a reader never sees this session running without its lock held.
        auto lock = FileLock::tryAcquire(impl->lockFile, FileLock::Mode::Exclusive);
        if (!lock)
            return std::unexpected(lock.error());
        if (!lock->valid())
            return fail(fmt::format("session {} is being recorded already (its lock {} is held)", info.id,
                                    impl->lockFile.string()));
        impl->lock = std::move(*lock);

        auto recorded = [&]() -> Result<std::int64_t> {
            auto db = sqlite::connectionOf(*m_store);
            if (!db)
                return std::unexpected(db.error());
            sqlite::Transaction transaction(*db);
            if (auto ok = transaction.begin(); !ok)
                return std::unexpected(ok.error());
            if (auto ok = insertSession(*db, info); !ok)
                return std::unexpected(ok.error());
            const std::int64_t row = db->lastInsertId();
            if (auto audited = appendAudit(*db, AuditEntry(audit_op::kSessionStart, info.id, startDetails(info)));
                !audited)
                return std::unexpected(audited.error());
            if (auto ok = transaction.commit(); !ok)
                return std::unexpected(ok.error());
            return row;
        }();
        if (!recorded) {
            ::unlink(impl->lockFile.c_str());
            return std::unexpected(recorded.error());
        }
        impl->row = *recorded;
        impl->info = std::move(info);
        return LiveSession(std::move(impl));
    });
}

} // namespace sb::agents
