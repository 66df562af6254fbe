#include "schema_migration.h"
#include "store_internal.h"

#include "util/hash.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <array>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

// The store's own tables: runs with their blocked events, policy versions, and the audit log. Other modules
// define theirs in their own folders (store/schema.h).

namespace sb {

namespace {

using sqlite::columnString;
using sqlite::Db;

// The outcome names are spelled out (not generated from kAllOutcomes) because a released step must not
// change when the enum grows; a test checks this list against kAllOutcomes.
constexpr std::string_view kSchemaV1 = R"sql(
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    run_id TEXT UNIQUE NOT NULL,
    started_at_ms INTEGER NOT NULL DEFAULT 0,
    label TEXT NOT NULL DEFAULT '',
    language TEXT NOT NULL,
    source TEXT NOT NULL,
    policy_yaml TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN
        ('ok', 'error', 'blocked', 'timeout', 'memory_limit', 'crashed', 'internal_error')),
    exit_code INTEGER,
    signal INTEGER,
    stdout TEXT,
    stderr TEXT,
    stdout_truncated INTEGER NOT NULL DEFAULT 0,
    stderr_truncated INTEGER NOT NULL DEFAULT 0,
    duration_ms REAL,
    cpu_ms REAL,
    peak_rss_kb INTEGER,
    isolation_level TEXT,
    isolation_layers TEXT,
    message TEXT
);
CREATE TABLE blocked_events (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    detail TEXT NOT NULL
);
CREATE INDEX runs_started_at ON runs(started_at_ms);
CREATE INDEX runs_outcome ON runs(outcome);
CREATE INDEX blocked_events_run ON blocked_events(run_id, seq);
)sql";

constexpr std::array<std::string_view, 5> kObjectsV1 = {"runs", "blocked_events", "runs_started_at", "runs_outcome",
                                                        "blocked_events_run"};

// Policies get a table of their own: one row per distinct canonical YAML, versioned per name, and runs
// point at their row. moveRunPoliciesToTable() fills it from runs.policy_yaml, then drops that column.
constexpr std::string_view kSchemaV2 = R"sql(
CREATE TABLE policies (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    version INTEGER NOT NULL CHECK (version >= 1),
    sha256 TEXT NOT NULL UNIQUE CHECK (length(sha256) = 64),
    yaml TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL DEFAULT 0,
    UNIQUE (name, version)
);
ALTER TABLE runs ADD COLUMN policy_id INTEGER REFERENCES policies(id);
CREATE INDEX runs_policy ON runs(policy_id);
)sql";

constexpr std::array<std::string_view, 2> kObjectsV2 = {"policies", "runs_policy"};

// The audit log (store/audit.h): append-only, hash-chained; its head (last seq and hash) kept in a table of
// its own, so that removing entries from the end is not undone by a plain DELETE. Neither table has NOT NULL
// or CHECK constraints, on purpose: the chain, not constraints, guards them, and verifyAudit reads whatever a
// hand edit leaves (NULLs, wrong types) and names the entry.
constexpr std::string_view kSchemaV3 = R"sql(
CREATE TABLE audit_log (
    seq INTEGER PRIMARY KEY,
    at_ms INTEGER,
    actor TEXT,
    operation TEXT,
    subject TEXT,
    details TEXT,
    prev_hash TEXT,
    hash TEXT
);
CREATE INDEX audit_log_operation ON audit_log(operation);
CREATE INDEX audit_log_actor ON audit_log(actor);
CREATE INDEX audit_log_subject ON audit_log(subject);
CREATE INDEX audit_log_at ON audit_log(at_ms);
CREATE TABLE log_heads (
    log TEXT PRIMARY KEY,
    seq INTEGER,
    hash TEXT
);
INSERT INTO log_heads (log, seq, hash)
    VALUES ('audit', 0, '0000000000000000000000000000000000000000000000000000000000000000');
)sql";

constexpr std::array<std::string_view, 6> kObjectsV3 = {"audit_log",         "audit_log_operation", "audit_log_actor",
                                                        "audit_log_subject", "audit_log_at",        "log_heads"};

Result<void> moveRunPoliciesToTable(const Db& db);

// What a run's program said about itself (isolation/run.h, ProgramClaim), as a JSON list of {kind, detail}:
// recorded apart from the blocked events Sandbench observed.
constexpr std::string_view kSchemaV7 = R"sql(
ALTER TABLE runs ADD COLUMN claims TEXT NOT NULL DEFAULT '[]';
)sql";

// The audit log is signed (store/audit_key.h): each entry's MAC under the store's audit key, a secret kept
// outside the store (NULL for an entry written before the store had a key, as every entry of an older store
// was), and in the head the key's id and its MAC of the head. The key is made by the first entry appended
// after this step, not here: opening a store needs no folder but the store's own.
constexpr std::string_view kSchemaV8 = R"sql(
ALTER TABLE audit_log ADD COLUMN mac TEXT;
ALTER TABLE log_heads ADD COLUMN key_id TEXT;
ALTER TABLE log_heads ADD COLUMN mac TEXT;
)sql";

// The sandbox a run worked in ('' for a run in a fresh private folder, as every run of an older store was).
constexpr std::string_view kSchemaV10 = R"sql(
ALTER TABLE runs ADD COLUMN sandbox TEXT NOT NULL DEFAULT '';
)sql";

// A run's message as its pattern and arguments (util/message.h), as JSON {context, pattern, args}, so that
// the window shows it in its user's language; runs.message keeps the English sentence. '' for a run of an
// older store, whose message is shown as it was written.
constexpr std::string_view kSchemaV11 = R"sql(
ALTER TABLE runs ADD COLUMN message_parts TEXT NOT NULL DEFAULT '';
)sql";

// Schema v2's data step: every distinct runs.policy_yaml becomes a policies row, numbered per name in the
// order of first use (the earliest run), dated by that run; each run then points at its row and the old
// column goes. The texts move byte for byte, not re-rendered by this build, so nothing stored changes.
Result<void> moveRunPoliciesToTable(const Db& db)
{
    struct Distinct {
        std::string yaml;
        std::string sha256;
        std::int64_t firstUseMs = 0;
        std::int64_t policyId = 0;
    };
    std::vector<Distinct> distinct;
    std::map<std::string, std::size_t, std::less<>> bySha;
    std::vector<std::pair<std::int64_t, std::size_t>> runs; // run row id, index into distinct
    {
        // Read to the end before writing: the runs table is rewritten below.
        auto select = db.prepare("SELECT id, policy_yaml, started_at_ms FROM runs ORDER BY started_at_ms, id");
        if (!select)
            return std::unexpected(select.error());
        int rc = 0;
        while ((rc = sqlite3_step(select->get())) == SQLITE_ROW) {
            std::string yaml = columnString(select->get(), 1);
            auto sha256 = sha256Hex(yaml);
            if (!sha256)
                return fail(fmt::format("store {}: migrating to schema version 2: {}", db.path().string(),
                                        sha256.error().message));
            auto [it, added] = bySha.try_emplace(*sha256, distinct.size());
            if (added)
                distinct.push_back(Distinct{std::move(yaml), *sha256, sqlite3_column_int64(select->get(), 2)});
            runs.emplace_back(sqlite3_column_int64(select->get(), 0), it->second);
        }
        if (rc != SQLITE_DONE)
            return db.error("migrating to schema version 2: cannot read the runs' policies");
    }

    for (auto& policy : distinct) {
        auto stored = detail::findOrAddPolicy(db, detail::storedPolicyName(policy.yaml), policy.yaml, policy.sha256,
                                              policy.firstUseMs);
        if (!stored)
            return std::unexpected(stored.error());
        policy.policyId = stored->version.id;
    }

    auto update = db.prepare("UPDATE runs SET policy_id = ?1 WHERE id = ?2");
    if (!update)
        return std::unexpected(update.error());
    for (const auto& [runId, index] : runs) {
        sqlite3_reset(update->get());
        sqlite3_bind_int64(update->get(), 1, distinct[index].policyId);
        sqlite3_bind_int64(update->get(), 2, runId);
        if (sqlite3_step(update->get()) != SQLITE_DONE)
            return db.error("migrating to schema version 2: cannot link a run to its policy");
    }
    return db.exec("ALTER TABLE runs DROP COLUMN policy_yaml",
                   "migrating to schema version 2: cannot drop runs.policy_yaml");
}

constexpr std::array kSteps = {
    SchemaStep{.version = 1, .sql = kSchemaV1, .objects = kObjectsV1},
    SchemaStep{.version = 2, .sql = kSchemaV2, .objects = kObjectsV2, .moveData = moveRunPoliciesToTable},
    SchemaStep{.version = 3, .sql = kSchemaV3, .objects = kObjectsV3},
    SchemaStep{.version = 7, .sql = kSchemaV7},
    SchemaStep{.version = 8, .sql = kSchemaV8},
    SchemaStep{.version = 10, .sql = kSchemaV10},
    SchemaStep{.version = 11, .sql = kSchemaV11},
};

} // namespace

const ModuleSchema& storeSchema()
{
    static const ModuleSchema schema{"store", kSteps};
    return schema;
}

} // namespace sb
