#include "store_internal.h"

#include "store/audit.h"
#include "util/hash.h"

#include <fmt/format.h>
#include "util/message_json.h"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// Runs: what was asked and what happened, with their blocked events and the policy version they ran under.

namespace sb {

namespace {

namespace fs = std::filesystem;
using sqlite::Binder;
using sqlite::bindString;
using sqlite::columnString;
using sqlite::Db;
using sqlite::Transaction;

std::string layersToJson(const std::vector<std::pair<std::string, bool>>& layers)
{
    // ordered_json keeps the report's order, which the UI shows as is.
    nlohmann::ordered_json object = nlohmann::ordered_json::object();
    for (const auto& [name, active] : layers)
        object[name] = active;
    return object.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

std::string claimsToJson(const std::vector<ProgramClaim>& claims)
{
    nlohmann::json list = nlohmann::json::array();
    for (const auto& claim : claims)
        list.push_back({{"kind", claim.kind}, {"detail", claim.detail}});
    return list.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::vector<ProgramClaim> claimsFromJson(const std::string& text)
{
    std::vector<ProgramClaim> claims;
    const auto list = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!list.is_array())
        return claims;
    for (const auto& item : list) {
        if (item.is_object() && item.value("kind", nlohmann::json()).is_string()
            && item.value("detail", nlohmann::json()).is_string())
            claims.push_back({item["kind"].get<std::string>(), item["detail"].get<std::string>()});
    }
    return claims;
}

// A message's pattern and arguments as runs.message_parts holds them (util/message_json.h); '' for a message
// that is not translated (no context), which runs.message holds whole.
std::string messagePartsToJson(const Message& message)
{
    if (message.context.empty())
        return {};
    return messageToJson(message).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// A stored run's message: its parts when they are well formed and say what runs.message says (a row edited by
// hand keeps its text), else runs.message as it is.
Message messageFromColumns(const std::string& text, const std::string& partsJson)
{
    const auto parts = messageFromJson(nlohmann::json::parse(partsJson, nullptr, /*allow_exceptions=*/false));
    if (parts && !parts->context.empty() && parts->text() == text)
        return *parts;
    return text.empty() ? Message{} : Message::plain(text);
}

std::vector<std::pair<std::string, bool>> layersFromJson(const std::string& text)
{
    std::vector<std::pair<std::string, bool>> layers;
    const auto object = nlohmann::ordered_json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!object.is_object())
        return layers;
    for (const auto& [name, value] : object.items())
        layers.emplace_back(name, value.is_boolean() && value.get<bool>());
    return layers;
}

constexpr std::string_view kRunInsertColumns =
    "run_id, started_at_ms, label, language, source, policy_id, outcome, exit_code, signal, stdout, stderr, "
    "stdout_truncated, stderr_truncated, duration_ms, cpu_ms, peak_rss_kb, isolation_level, isolation_layers, "
    "message, claims, sandbox, message_parts";

// What readRun reads, in the order of RunColumn; a run's policy may be missing (edited by hand), hence the
// LEFT JOIN.
constexpr std::string_view kRunSelect =
    "SELECT r.id, r.run_id, r.started_at_ms, r.label, r.language, r.source, r.outcome, r.exit_code, r.signal, "
    "r.stdout, r.stderr, r.stdout_truncated, r.stderr_truncated, r.duration_ms, r.cpu_ms, r.peak_rss_kb, "
    "r.isolation_level, r.isolation_layers, r.message, r.claims, r.sandbox, r.message_parts, r.policy_id, "
    "p.id, p.name, p.version, p.sha256, p.created_at_ms, p.yaml "
    "FROM runs AS r LEFT JOIN policies AS p ON p.id = r.policy_id";

enum RunColumn : int {
    kColId,
    kColRunId,
    kColStartedAt,
    kColLabel,
    kColLanguage,
    kColSource,
    kColOutcome,
    kColExitCode,
    kColSignal,
    kColStdout,
    kColStderr,
    kColStdoutTruncated,
    kColStderrTruncated,
    kColDuration,
    kColCpu,
    kColPeakRss,
    kColLevel,
    kColLayers,
    kColMessage,
    kColClaims,
    kColSandbox,
    kColMessageParts,
    kColPolicyRef, // runs.policy_id as stored
    kColPolicy,    // policies: detail::kPolicyColumns from here (NULL when the row is missing)
    kColPolicyYaml = kColPolicy + 5,
};

// Each distinct policy is parsed once per read, however many runs share it.
using PolicyCache = std::map<std::int64_t, Result<Policy>>;

StoredRun readRun(sqlite3_stmt* statement, const fs::path& path, PolicyCache& policies)
{
    StoredRun run;
    run.id = sqlite3_column_int64(statement, kColId);
    RunResult& result = run.result;
    RunRequest& request = run.request;
    result.runId = columnString(statement, kColRunId);
    result.startedAtMs = sqlite3_column_int64(statement, kColStartedAt);
    request.label = columnString(statement, kColLabel);
    request.language = languageFromString(columnString(statement, kColLanguage)).value_or(Language::Python);
    request.source = columnString(statement, kColSource);
    result.outcome = outcomeFromString(columnString(statement, kColOutcome)).value_or(Outcome::InternalError);
    result.exitCode = static_cast<int>(sqlite3_column_int64(statement, kColExitCode));
    result.signal = static_cast<int>(sqlite3_column_int64(statement, kColSignal));
    result.stdoutText = columnString(statement, kColStdout);
    result.stderrText = columnString(statement, kColStderr);
    result.stdoutTruncated = sqlite3_column_int64(statement, kColStdoutTruncated) != 0;
    result.stderrTruncated = sqlite3_column_int64(statement, kColStderrTruncated) != 0;
    result.durationMs = sqlite3_column_double(statement, kColDuration);
    result.cpuMs = sqlite3_column_double(statement, kColCpu);
    result.peakRssKb = sqlite3_column_int64(statement, kColPeakRss);
    result.isolation.level =
        isolationLevelFromString(columnString(statement, kColLevel)).value_or(IsolationLevel::Process);
    result.isolation.layers = layersFromJson(columnString(statement, kColLayers));
    result.message = messageFromColumns(columnString(statement, kColMessage), columnString(statement, kColMessageParts));
    result.claims = claimsFromJson(columnString(statement, kColClaims));
    run.sandbox = columnString(statement, kColSandbox);

    // A policy this build cannot read (written by a newer Sandbench, edited by hand, or its row gone) must
    // not hide the run: keep the default policy and the rest of the record, and say what is wrong and where.
    const std::string where = fmt::format("store {}: run {}", path.string(), result.runId);
    if (sqlite3_column_type(statement, kColPolicy) == SQLITE_NULL) {
        run.policyError = sqlite3_column_type(statement, kColPolicyRef) == SQLITE_NULL
                              ? fmt::format("{}: has no policy (runs.policy_id is NULL); shown with the "
                                            "default policy",
                                            where)
                              : fmt::format("{}: its policy (policies row {}) is missing; shown with the "
                                            "default policy",
                                            where, sqlite3_column_int64(statement, kColPolicyRef));
        return run;
    }
    run.policy = detail::readPolicyVersion(statement, kColPolicy);
    auto cached = policies.find(run.policy.id);
    if (cached == policies.end())
        cached =
            policies.emplace(run.policy.id, detail::parseStoredPolicy(columnString(statement, kColPolicyYaml))).first;
    if (cached->second) {
        request.policy = *cached->second;
    } else {
        run.policyError =
            fmt::format("{}: its policy {}@{} (policies row {}) cannot be read, shown with the "
                        "default policy: {}",
                        where, run.policy.name, run.policy.version, run.policy.id, cached->second.error().message);
    }
    return run;
}

// Reads rows of `statement` (already bound) and attaches each run's blocked events, in order.
Result<std::vector<StoredRun>> readRuns(const Db& db, sqlite3_stmt* statement, const fs::path& path)
{
    std::vector<StoredRun> runs;
    PolicyCache policies;
    int rc = 0;
    while ((rc = sqlite3_step(statement)) == SQLITE_ROW)
        runs.push_back(readRun(statement, path, policies));
    if (rc != SQLITE_DONE)
        return db.error("cannot read runs");
    if (runs.empty())
        return runs;

    auto events = db.prepare("SELECT kind, detail FROM blocked_events WHERE run_id = ?1 ORDER BY seq, id");
    if (!events)
        return std::unexpected(events.error());
    for (auto& run : runs) {
        sqlite3_reset(events->get());
        sqlite3_bind_int64(events->get(), 1, run.id);
        while ((rc = sqlite3_step(events->get())) == SQLITE_ROW)
            run.result.blocked.push_back(BlockedEvent{columnString(events->get(), 0), columnString(events->get(), 1)});
        if (rc != SQLITE_DONE)
            return db.error("cannot read blocked events");
    }
    return runs;
}

} // namespace

Result<std::int64_t> Store::recordRun(const RunRequest& request, const RunResult& result, PolicyVersion* policy,
                                      std::string_view sandbox)
{
    if (!m_db)
        return detail::closedError(m_path);
    return detail::guarded(m_path, "recording a run", [&]() -> Result<std::int64_t> {
        const Db db(m_db, m_path, m_statements);
        // Declared before the statements: they are bound without copying and must outlive them.
        const std::string policyYaml = renderPolicy(request.policy);
        auto policySha = sha256Hex(policyYaml);
        if (!policySha)
            return fail(fmt::format("store {}: {}", m_path.string(), policySha.error().message));
        const std::string layers = layersToJson(result.isolation.layers);
        const std::string claims = claimsToJson(result.claims); // bound without a copy: lives to the step
        const std::string_view language = toString(request.language);
        const std::string_view outcome = toString(result.outcome);
        const std::string_view level = toString(result.isolation.level);

        Transaction transaction(db);
        if (auto ok = transaction.begin(); !ok)
            return std::unexpected(ok.error());

        // A version is first used when its first run starts.
        auto stored = detail::findOrAddPolicy(db, request.policy.name, policyYaml, *policySha,
                                              result.startedAtMs > 0 ? result.startedAtMs : detail::nowMs());
        if (!stored)
            return std::unexpected(stored.error());
        if (stored->added) {
            if (auto audited = detail::auditPolicyVersion(db, stored->version); !audited)
                return std::unexpected(audited.error());
        }
        const PolicyVersion& version = stored->version;

        auto insert = db.prepare(fmt::format(
            "INSERT INTO runs ({}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, "
            "?17, ?18, ?19, ?20, ?21, ?22) RETURNING id",
            kRunInsertColumns));
        if (!insert)
            return std::unexpected(insert.error());
        // The binder keeps views of its texts until the statement runs: these live as long.
        const std::string message = result.message.text();
        const std::string messageParts = messagePartsToJson(result.message);
        Binder run(insert->get());
        run.text(1, result.runId)
            .integer(2, result.startedAtMs)
            .text(3, request.label)
            .text(4, language)
            .text(5, request.source)
            .integer(6, version.id)
            .text(7, outcome)
            .integer(8, result.exitCode)
            .integer(9, result.signal)
            .text(10, result.stdoutText)
            .text(11, result.stderrText)
            .integer(12, result.stdoutTruncated ? 1 : 0)
            .integer(13, result.stderrTruncated ? 1 : 0)
            .real(14, result.durationMs)
            .real(15, result.cpuMs)
            .integer(16, result.peakRssKb)
            .text(17, level)
            .text(18, layers)
            .text(19, message)
            .text(20, claims)
            .text(21, sandbox)
            .text(22, messageParts);
        if (!run.ok() || sqlite3_step(insert->get()) != SQLITE_ROW)
            return db.error(fmt::format("cannot record run {}", result.runId));
        const std::int64_t id = sqlite3_column_int64(insert->get(), 0);
        if (sqlite3_step(insert->get()) != SQLITE_DONE)
            return db.error(fmt::format("cannot record run {}", result.runId));

        auto event = db.prepare("INSERT INTO blocked_events (run_id, seq, kind, detail) VALUES (?1, ?2, ?3, ?4)");
        if (!event)
            return std::unexpected(event.error());
        std::int64_t seq = 0;
        for (const auto& blocked : result.blocked) {
            sqlite3_reset(event->get());
            Binder row(event->get());
            row.integer(1, id).integer(2, seq++).text(3, blocked.kind).text(4, blocked.detail);
            if (!row.ok() || sqlite3_step(event->get()) != SQLITE_DONE)
                return db.error(fmt::format("cannot record the blocked events of run {}", result.runId));
        }

        // The source's hash ties the entry to exactly what ran, so an edit of the runs table shows too.
        auto sourceSha = sha256Hex(request.source);
        if (!sourceSha)
            return fail(fmt::format("store {}: {}", m_path.string(), sourceSha.error().message));
        nlohmann::json details = {
            {"label", request.label},
            {"language", language},
            {"outcome", outcome},
            {"isolation_level", level},
            {"policy", fmt::format("{}@{}", version.name, version.version)},
            {"policy_sha256", version.sha256},
            {"source_sha256", *sourceSha},
        };
        if (!sandbox.empty())
            details["sandbox"] = sandbox;
        if (auto audited = appendAudit(db, AuditEntry(audit_op::kRun, result.runId, std::move(details))); !audited)
            return std::unexpected(audited.error());

        if (auto ok = transaction.commit(); !ok)
            return std::unexpected(ok.error());
        if (policy)
            *policy = version;
        return id;
    });
}

Result<std::vector<StoredRun>> Store::recentRuns(int limit) const
{
    if (!m_db)
        return detail::closedError(m_path);
    if (limit <= 0)
        return std::vector<StoredRun>{};
    return detail::guarded(m_path, "reading recent runs", [&]() -> Result<std::vector<StoredRun>> {
        const Db db(m_db, m_path, m_statements);
        auto statement = db.prepare(fmt::format("{} ORDER BY r.started_at_ms DESC, r.id DESC LIMIT ?1", kRunSelect));
        if (!statement)
            return std::unexpected(statement.error());
        sqlite3_bind_int64(statement->get(), 1, limit);
        return readRuns(db, statement->get(), m_path);
    });
}

Result<std::optional<StoredRun>> Store::findRun(const std::string& runId) const
{
    if (!m_db)
        return detail::closedError(m_path);
    return detail::guarded(m_path, "finding a run", [&]() -> Result<std::optional<StoredRun>> {
        const Db db(m_db, m_path, m_statements);
        auto statement = db.prepare(fmt::format("{} WHERE r.run_id = ?1", kRunSelect));
        if (!statement)
            return std::unexpected(statement.error());
        // Bound the way recordRun binds it (TEXT or BLOB), so an odd id still finds its own row.
        bindString(statement->get(), 1, runId);
        auto runs = readRuns(db, statement->get(), m_path);
        if (!runs)
            return std::unexpected(runs.error());
        if (runs->empty())
            return std::optional<StoredRun>{};
        return std::optional<StoredRun>(std::move(runs->front()));
    });
}

} // namespace sb
