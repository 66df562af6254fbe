#include "store/store.h"

#include "store/audit.h"
#include "store/sqlite_db.h"
#include "util/errno_text.h"
#include "util/hash.h"
#include "util/user_account.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sqlite3.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <string_view>
#include <sys/stat.h>
#include <system_error>
#include <utility>
#include <vector>
#include <unistd.h>

namespace sb {

namespace {

namespace fs = std::filesystem;
using sqlite::Binder;
using sqlite::bindString;
using sqlite::columnString;
using sqlite::Connection;
using sqlite::Db;
using sqlite::Statement;
using sqlite::Transaction;


// ---------------------------------------------------------------------------------------------------------
// Schema. Each step is applied once, in order, in its own transaction, and sets user_version to its number.
// A step is never edited after release: a change to the schema is a new step appended here.

struct Migration {
    int version;
    std::string_view sql;
    std::span<const std::string_view> objects; // tables and indexes it creates, to recognise our files
    // Data the SQL alone cannot move (it needs C++: hashing, YAML), run after `sql` in the same transaction.
    Result<void> (*moveData)(const Db& db) = nullptr;
};

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

// Dataset snapshots (core/rules/dataset_store.h): immutable imports of CSV / JSON Lines records, one row each,
// the records in Sandbench's columnar snapshot format compressed with zstd. sha256 is of the uncompressed
// snapshot (the content: same records, same hash); schema is JSON ([{name, type}]).
constexpr std::string_view kSchemaV5 = R"sql(
CREATE TABLE datasets (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
    row_count INTEGER NOT NULL CHECK (row_count >= 0),
    schema TEXT NOT NULL,
    id_column TEXT NOT NULL DEFAULT '',
    source TEXT NOT NULL DEFAULT '',
    source_format TEXT NOT NULL DEFAULT '',
    sample_ratio REAL NOT NULL DEFAULT 1.0,
    seed INTEGER NOT NULL DEFAULT 0,
    max_rows INTEGER NOT NULL DEFAULT 0,
    bad_rows INTEGER NOT NULL DEFAULT 0,
    created_at_ms INTEGER NOT NULL,
    codec TEXT NOT NULL CHECK (codec IN ('zstd')),
    size INTEGER NOT NULL CHECK (size >= 0),
    data BLOB NOT NULL
);
)sql";

constexpr std::array<std::string_view, 1> kObjectsV5 = {"datasets"};

Result<void> moveRunPoliciesToTable(const Db& db);

// Sandboxes and their checkpoints (core/workspace, which documents the design in workspace/README.md).
// blobs: every stored piece of content -- a whole file, a chunk of a large one, a large file's chunk list, a
// directory listing -- once, under the SHA-256 of its uncompressed bytes, zstd-compressed when that is
// smaller. checkpoints: immutable snapshots (a root tree hash plus who, when, why), linked to their parents
// in checkpoint_parents (first parent seq 0; a merge has more). workspace_stat: per sandbox, what each file
// looked like when last hashed, one row per directory, so a checkpoint after a small change reads only the
// changed files.
// workspace_journal: a restore between swapping the workspace folder and recording it, for the next open to
// finish or undo.
constexpr std::string_view kSchemaV4 = R"sql(
CREATE TABLE blobs (
    id INTEGER PRIMARY KEY,
    hash BLOB NOT NULL UNIQUE CHECK (length(hash) = 32),
    kind INTEGER NOT NULL CHECK (kind IN (0, 1, 2)),
    size INTEGER NOT NULL CHECK (size >= 0),
    codec INTEGER NOT NULL CHECK (codec IN (0, 1)),
    data BLOB NOT NULL
);
CREATE TABLE sandboxes (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    owner TEXT NOT NULL DEFAULT '',
    created_at_ms INTEGER NOT NULL,
    expires_at_ms INTEGER,
    origin TEXT NOT NULL DEFAULT '',
    includes TEXT NOT NULL DEFAULT '[]',
    excludes TEXT NOT NULL DEFAULT '[]',
    head_id INTEGER REFERENCES checkpoints(id) ON DELETE SET NULL
);
CREATE TABLE checkpoints (
    id INTEGER PRIMARY KEY,
    checkpoint_id TEXT NOT NULL UNIQUE CHECK (length(checkpoint_id) = 64),
    sandbox_id INTEGER REFERENCES sandboxes(id) ON DELETE SET NULL,
    sandbox_name TEXT NOT NULL,
    tree BLOB NOT NULL CHECK (length(tree) = 32),
    kind TEXT NOT NULL CHECK (kind IN ('checkpoint', 'auto', 'restore', 'fork', 'create', 'import', 'promote')),
    label TEXT NOT NULL DEFAULT '',
    message TEXT NOT NULL DEFAULT '',
    author TEXT NOT NULL DEFAULT '',
    created_at_ms INTEGER NOT NULL,
    source_id INTEGER REFERENCES checkpoints(id) ON DELETE SET NULL,
    files INTEGER NOT NULL DEFAULT 0,
    bytes INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE checkpoint_parents (
    child_id INTEGER NOT NULL REFERENCES checkpoints(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    parent_id INTEGER NOT NULL REFERENCES checkpoints(id) ON DELETE CASCADE,
    PRIMARY KEY (child_id, seq)
) WITHOUT ROWID;
CREATE TABLE workspace_stat (
    id INTEGER PRIMARY KEY,
    sandbox_id INTEGER NOT NULL REFERENCES sandboxes(id) ON DELETE CASCADE,
    path BLOB NOT NULL,
    data BLOB NOT NULL,
    UNIQUE (sandbox_id, path)
);
CREATE TABLE workspace_journal (
    id INTEGER PRIMARY KEY,
    sandbox_id INTEGER NOT NULL REFERENCES sandboxes(id) ON DELETE CASCADE,
    staging TEXT NOT NULL,
    target_path BLOB NOT NULL,
    staging_inode INTEGER NOT NULL,
    plan TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL
);
CREATE INDEX checkpoints_sandbox ON checkpoints(sandbox_id, created_at_ms);
CREATE INDEX checkpoints_source ON checkpoints(source_id);
CREATE INDEX checkpoint_parents_parent ON checkpoint_parents(parent_id);
CREATE INDEX sandboxes_head ON sandboxes(head_id);
)sql";

constexpr std::array<std::string_view, 10> kObjectsV4 = {
    "blobs",          "sandboxes",         "checkpoints",         "checkpoint_parents",        "workspace_stat",
    "workspace_journal", "checkpoints_sandbox", "checkpoints_source", "checkpoint_parents_parent", "sandboxes_head"};

// Sandbox governance (core/workspace, docs/CHECKPOINTS.md): a size quota on the live workspace, an idle
// timeout with the last activity it is measured from (NULL: the creation time), a state (an archived
// sandbox's workspace folder is removed, its head checkpoint kept, and written again on its next use), the
// policy its runs use ("" none, "preset:NAME" or "NAME@VERSION" of the policies table) and the dataset
// snapshots it refers to (JSON). A checkpoint keeps the policy and dataset references of its moment in
// `meta` (JSON, "" for none and for every older checkpoint, whose ids are thus unchanged), and a label given
// or cleared after it was made in `relabel` (NULL: the label it was made with), apart from what its id hashes.
constexpr std::string_view kSchemaV6 = R"sql(
ALTER TABLE sandboxes ADD COLUMN quota_bytes INTEGER CHECK (quota_bytes IS NULL OR quota_bytes > 0);
ALTER TABLE sandboxes ADD COLUMN idle_timeout_ms INTEGER CHECK (idle_timeout_ms IS NULL OR idle_timeout_ms > 0);
ALTER TABLE sandboxes ADD COLUMN last_activity_ms INTEGER;
ALTER TABLE sandboxes ADD COLUMN state TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'archived'));
ALTER TABLE sandboxes ADD COLUMN policy TEXT NOT NULL DEFAULT '';
ALTER TABLE sandboxes ADD COLUMN datasets TEXT NOT NULL DEFAULT '[]';
ALTER TABLE checkpoints ADD COLUMN meta TEXT NOT NULL DEFAULT '';
ALTER TABLE checkpoints ADD COLUMN relabel TEXT;
)sql";

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

constexpr std::array kMigrations = {
    Migration{1, kSchemaV1, kObjectsV1},
    Migration{2, kSchemaV2, kObjectsV2, moveRunPoliciesToTable},
    Migration{3, kSchemaV3, kObjectsV3},
    Migration{4, kSchemaV4, kObjectsV4},
    Migration{5, kSchemaV5, kObjectsV5},
    Migration{6, kSchemaV6, {}},
    Migration{7, kSchemaV7, {}},
    Migration{8, kSchemaV8, {}},
};
static_assert(kMigrations.back().version == Store::kSchemaVersion, "kSchemaVersion is the last migration's");

constexpr std::span<const Migration> migrations()
{
    return kMigrations;
}

// quick_check reads every page of the tables it checks: about 0.5 ms per MB here, paid by every CLI command
// (a 60 MB store of 15 000 runs made `sandbench history` 33 ms instead of 3). Larger files only get the schema
// checks; SQLite still reports SQLITE_CORRUPT on any damaged page it later reads, and refuses to write
// through one.
constexpr std::int64_t kQuickCheckMaxBytes = 4 * 1024 * 1024;
// The first connection of a process rebuilds the WAL's index by reading (and checksumming) every frame
// written since the log last restarted, so every CLI command pays for the WAL's length: at SQLite's default
// of 1000 pages that was up to 4 MB, about 2 ms, per command. A checkpoint every 128 pages (512 KB) bounds
// that; a run writes a few pages, so the checkpoint's two syncs come every few dozen runs.
constexpr int kWalCheckpointPages = 128;
constexpr int kBusyTimeoutMs = 5000;

// SQLite's own automatic checkpoint (PASSIVE) copies the WAL into the database but leaves the log where it is:
// only a later write transaction of the same connection starts it over, and a command that writes once per
// process never makes one. A new process does not know what was copied already, so the log grew by every
// command's frames (11 MB after 150 checkpoints) and each command re-read all of it, and copied all of it
// again. This checkpoint truncates the log once it reaches kWalCheckpointPages. It never waits: should another
// connection be reading or writing, it copies what it can, as PASSIVE does, and a later commit tries again.
int checkpointAndTruncate(void*, sqlite3* db, const char* schema, int pages)
{
    if (pages < kWalCheckpointPages)
        return SQLITE_OK;
    sqlite3_busy_timeout(db, 0);
    sqlite3_wal_checkpoint_v2(db, schema, SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr); // SQLITE_BUSY: as said
    sqlite3_busy_timeout(db, kBusyTimeoutMs);
    return SQLITE_OK;
}
// Tables the open-time check leaves out (core/workspace): the blobs, each checked against the SHA-256 of its
// bytes whenever it is read, and the workspaces' stat cache, which a walk ignores when it cannot read it.
// Together they are most of a store with checkpoints; reading them at every open would cost every command
// milliseconds per 10 MB. A damaged page of theirs still surfaces as SQLITE_CORRUPT when read.
constexpr std::array<std::string_view, 2> kSelfCheckingTables = {"blobs", "workspace_stat"};

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

// ---------------------------------------------------------------------------------------------------------
// Opening.

// Creates the missing folders above the store, private to the user: the store holds sources and outputs.
Result<void> ensureParentFolder(const fs::path& file)
{
    const fs::path parent = file.parent_path();
    if (parent.empty())
        return {};
    std::error_code ec;
    std::vector<fs::path> missing;
    for (fs::path p = parent; !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
        missing.push_back(p);
        if (p == p.parent_path())
            break;
    }
    for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
        if (::mkdir(it->c_str(), 0700) != 0 && errno != EEXIST)
            return fail(fmt::format("store {}: cannot create folder {}: {}", file.string(), it->string(),
                                    errnoText(errno)));
    }
    if (!fs::is_directory(parent, ec))
        return fail(fmt::format("store {}: {} is not a folder", file.string(), parent.string()));
    return {};
}

// The folder of a store a person named must exist: it is never made, so that a typo is not a new store.
Result<void> requireParentFolder(const fs::path& file)
{
    const fs::path parent = file.parent_path();
    if (parent.empty())
        return {};
    std::error_code ec;
    const auto status = fs::status(parent, ec);
    if (!fs::exists(status))
        return fail(fmt::format("store {}: the folder {} does not exist (a store named with --store or "
                                "$SANDBENCH_STORE is only made in a folder that exists: create it first)",
                                file.string(), parent.string()));
    if (!fs::is_directory(status))
        return fail(fmt::format("store {}: {} is not a folder", file.string(), parent.string()));
    return {};
}

// SQLite may treat a name starting with "file:" as a URI; a path with a folder part never is one.
std::string sqliteFileName(const fs::path& path)
{
    if (path.is_absolute() || path.string().starts_with("./") || path.string().starts_with("../"))
        return path.string();
    return "./" + path.string();
}

Result<Connection> openConnection(const fs::path& path, int flags)
{
    sqlite3* raw = nullptr;
    const int rc = sqlite3_open_v2(sqliteFileName(path).c_str(), &raw, flags, nullptr);
    Connection connection(raw); // even a failed open returns a handle that must be closed
    if (rc != SQLITE_OK || !connection) {
        return fail(fmt::format("store {}: cannot open: {}", path.string(),
                                connection ? sqlite3_errmsg(connection.get()) : sqlite3_errstr(rc)));
    }
    sqlite3_extended_result_codes(connection.get(), 1);
    // Two Stores on one file (CLI and GUI, or tests) wait for each other's short write transactions.
    sqlite3_busy_timeout(connection.get(), kBusyTimeoutMs);
    return connection;
}

std::string joined(const std::vector<std::string>& names)
{
    std::string text;
    for (const auto& name : names) {
        if (!text.empty())
            text += ", ";
        text += name;
    }
    return text;
}

// Decides, reading only, whether an existing file is a Sandbench store this build can use. Done on a
// separate read-only connection so that nothing (not even a hot-journal rollback or a WAL checkpoint on
// close) can touch a file we are about to refuse.
Result<void> validateExisting(const fs::path& path)
{
    auto connection = openConnection(path, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX);
    if (!connection)
        return std::unexpected(connection.error());
    const Db db(connection->get(), path);
    const std::string where = path.string();

    // One read transaction for every check: the schema and the version numbers must come from the same
    // snapshot even while another Store migrates the file.
    if (auto ok = db.exec("BEGIN", "cannot start a read transaction"); !ok)
        return ok;

    // The first read of the schema is where SQLite notices a file that is not a database at all.
    std::vector<std::string> objects;
    bool readable = false;
    std::vector<std::string> tables;
    if (auto schema = db.prepare("SELECT type, name FROM sqlite_master")) {
        int rc = 0;
        while ((rc = sqlite3_step(schema->get())) == SQLITE_ROW) {
            std::string name = columnString(schema->get(), 1);
            if (name.starts_with("sqlite_"))
                continue;
            if (columnString(schema->get(), 0) == "table" && name.find('"') == std::string::npos)
                tables.push_back(name);
            objects.push_back(std::move(name));
        }
        readable = rc == SQLITE_DONE;
    }
    if (!readable) {
        const int code = sqlite3_errcode(connection->get()) & 0xff; // primary code of the extended one
        const std::string message = sqlite3_errmsg(connection->get());
        if (code == SQLITE_NOTADB)
            return fail(fmt::format("store {} is not a SQLite database ({}); refusing to use it", where, message));
        if (code == SQLITE_CORRUPT)
            return fail(fmt::format("store {} is corrupt ({}); refusing to use it", where, message));
        return fail(fmt::format("store {}: cannot read the schema: {}", where, message));
    }

    auto applicationId = db.pragmaInt("application_id");
    if (!applicationId)
        return std::unexpected(applicationId.error());
    auto userVersion = db.pragmaInt("user_version");
    if (!userVersion)
        return std::unexpected(userVersion.error());

    if (*applicationId != 0 && *applicationId != Store::kApplicationId)
        return fail(fmt::format("store {} is not a Sandbench store: it is a SQLite database of another "
                                "application (application_id 0x{:08x}); refusing to use it",
                                where, static_cast<std::uint32_t>(*applicationId)));

    std::set<std::string, std::less<>> ours;
    for (const auto& step : migrations()) {
        for (std::string_view name : step.objects)
            ours.emplace(name);
    }

    if (*applicationId == 0) {
        std::vector<std::string> foreign;
        for (const auto& name : objects) {
            if (!ours.contains(name))
                foreign.push_back(name);
        }
        if (!foreign.empty())
            return fail(fmt::format("store {} is not a Sandbench store: it is a SQLite database with other "
                                    "tables ({}); refusing to use it",
                                    where, joined(foreign)));
    }

    if (*userVersion > Store::kSchemaVersion)
        return fail(fmt::format("store {} has schema version {}, newer than this Sandbench ({}); upgrade "
                                "Sandbench",
                                where, *userVersion, Store::kSchemaVersion));
    if (*userVersion < 0)
        return fail(fmt::format("store {} has an invalid schema version {}; refusing to use it", where,
                                *userVersion));
    if (*userVersion == 0 && !objects.empty())
        return fail(fmt::format("store {} is not a Sandbench store: it has tables ({}) but no schema "
                                "version; refusing to use it",
                                where, joined(objects)));

    // Every object the claimed version should have must be there; a missing one means a damaged file.
    for (const auto& step : migrations()) {
        if (step.version > *userVersion)
            break;
        for (std::string_view name : step.objects) {
            if (std::find(objects.begin(), objects.end(), name) == objects.end())
                return fail(fmt::format("store {} is damaged: schema version {} but {} is missing", where,
                                        *userVersion, name));
        }
    }

    auto pageCount = db.pragmaInt("page_count");
    auto pageSize = db.pragmaInt("page_size");
    if (!pageCount || !pageSize)
        return fail(fmt::format("store {} is corrupt ({}); refusing to use it", where,
                                sqlite3_errmsg(connection->get())));
    if (*pageCount * *pageSize <= kQuickCheckMaxBytes) {
        // Every table but kSelfCheckingTables, when the store has them.
        auto selfChecking = [](std::string_view name) {
            return std::find(kSelfCheckingTables.begin(), kSelfCheckingTables.end(), name) != kSelfCheckingTables.end();
        };
        std::vector<std::string> checks;
        if (std::none_of(tables.begin(), tables.end(), selfChecking)) {
            checks.emplace_back("PRAGMA quick_check");
        } else {
            for (const auto& table : tables) {
                if (!selfChecking(table))
                    checks.push_back(fmt::format("PRAGMA quick_check(\"{}\")", table));
            }
        }
        for (const auto& sql : checks) {
            auto check = db.prepare(sql);
            if (!check)
                return std::unexpected(check.error());
            const int rc = sqlite3_step(check->get());
            if (rc != SQLITE_ROW)
                return fail(fmt::format("store {} is corrupt ({}); refusing to use it", where,
                                        sqlite3_errmsg(connection->get())));
            const std::string verdict = columnString(check->get(), 0);
            if (verdict != "ok")
                return fail(fmt::format("store {} is corrupt ({}); refusing to use it", where, verdict));
        }
    }
    return {};
}

// WAL lets readers (the GUI's threads, a second Store) work while a run is recorded. Switching needs an
// exclusive lock, and SQLite does not call the busy handler for it when that could deadlock, so a first open
// racing another one retries here for as long as busy_timeout would have waited.
Result<void> switchToWal(const Db& db)
{
    constexpr int kRetryMs = 10;
    constexpr int kPatienceMs = 5000;
    for (int waitedMs = 0;; waitedMs += kRetryMs) {
        auto journal = db.prepare("PRAGMA journal_mode = WAL");
        if (!journal)
            return std::unexpected(journal.error());
        const int rc = sqlite3_step(journal->get());
        if (rc == SQLITE_ROW) {
            const std::string mode = columnString(journal->get(), 0);
            if (mode == "wal")
                return {};
            return fail(fmt::format("store {}: cannot switch to WAL (the journal mode stays {})", db.path().string(),
                                    mode));
        }
        const int code = rc & 0xff;
        if ((code != SQLITE_BUSY && code != SQLITE_LOCKED) || waitedMs >= kPatienceMs)
            return db.error("cannot switch to WAL");
        journal->reset();
        sqlite3_sleep(kRetryMs);
    }
}

Result<void> migrate(const Db& db)
{
    // An up-to-date store needs no write lock at all (a read-only file or a busy writer elsewhere is fine).
    auto before = db.pragmaInt("user_version");
    if (!before)
        return std::unexpected(before.error());
    if (*before >= migrations().back().version)
        return {};
    for (const auto& step : migrations()) {
        Transaction transaction(db);
        if (auto ok = transaction.begin(); !ok)
            return ok;
        // Read inside the write transaction: another Store may have migrated since we validated.
        auto current = db.pragmaInt("user_version");
        if (!current)
            return std::unexpected(current.error());
        if (*current > Store::kSchemaVersion)
            return fail(fmt::format("store {} has schema version {}, newer than this Sandbench ({}); upgrade "
                                    "Sandbench",
                                    db.path().string(), *current, Store::kSchemaVersion));
        if (*current >= step.version)
            continue;
        const std::string what = fmt::format("migrating to schema version {} failed", step.version);
        if (auto ok = db.exec(step.sql, what); !ok)
            return ok;
        if (step.moveData) {
            if (auto ok = step.moveData(db); !ok)
                return ok;
        }
        if (auto ok = db.exec(fmt::format("PRAGMA application_id = {}; PRAGMA user_version = {}",
                                          Store::kApplicationId, step.version),
                              what);
            !ok)
            return ok;
        if (auto ok = transaction.commit(); !ok)
            return ok;
    }
    return {};
}

// ---------------------------------------------------------------------------------------------------------
// Policy versions.

std::int64_t nowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

constexpr std::string_view kPolicyColumns = "id, name, version, sha256, created_at_ms";

// Reads kPolicyColumns starting at `first`.
PolicyVersion readPolicyVersion(sqlite3_stmt* statement, int first)
{
    PolicyVersion policy;
    policy.id = sqlite3_column_int64(statement, first);
    policy.name = columnString(statement, first + 1);
    policy.version = sqlite3_column_int64(statement, first + 2);
    policy.sha256 = columnString(statement, first + 3);
    policy.createdAtMs = sqlite3_column_int64(statement, first + 4);
    return policy;
}

struct FoundPolicy {
    PolicyVersion version;
    bool added = false; // a new version: its audit entry is the caller's to append
};

// The version holding exactly `yaml` (found by its hash), added as the next version of `name` when there
// is none yet. Call inside a write transaction: the next version number is read and used under its lock.
Result<FoundPolicy> findOrAddPolicy(const Db& db, std::string_view name, std::string_view yaml,
                                    const std::string& sha256, std::int64_t createdAtMs)
{
    auto find = db.prepare(fmt::format("SELECT {} FROM policies WHERE sha256 = ?1", kPolicyColumns));
    if (!find)
        return std::unexpected(find.error());
    if (bindString(find->get(), 1, sha256) != SQLITE_OK)
        return db.error("cannot look up a policy version");
    const int rc = sqlite3_step(find->get());
    if (rc == SQLITE_ROW)
        return FoundPolicy{readPolicyVersion(find->get(), 0), false};
    if (rc != SQLITE_DONE)
        return db.error("cannot look up a policy version");

    auto insert = db.prepare(fmt::format(
        "INSERT INTO policies (name, version, sha256, yaml, created_at_ms) "
        "VALUES (?1, (SELECT coalesce(max(version), 0) + 1 FROM policies WHERE name = ?1), ?2, ?3, ?4) "
        "RETURNING {}",
        kPolicyColumns));
    if (!insert)
        return std::unexpected(insert.error());
    Binder row(insert->get());
    row.text(1, name).text(2, sha256).text(3, yaml).integer(4, createdAtMs);
    if (!row.ok() || sqlite3_step(insert->get()) != SQLITE_ROW)
        return db.error(fmt::format("cannot record a version of policy '{}'", name));
    PolicyVersion added = readPolicyVersion(insert->get(), 0);
    if (sqlite3_step(insert->get()) != SQLITE_DONE)
        return db.error(fmt::format("cannot record a version of policy '{}'", name));
    return FoundPolicy{std::move(added), true};
}

// The audit entry of a policy version that was just stored.
Result<void> auditPolicyVersion(const Db& db, const PolicyVersion& policy)
{
    nlohmann::json details = {{"name", policy.name}, {"version", policy.version}, {"sha256", policy.sha256}};
    auto appended = appendAudit(db, AuditEntry(audit_op::kPolicyVersion,
                                               fmt::format("{}@{}", policy.name, policy.version), std::move(details)));
    if (!appended)
        return std::unexpected(appended.error());
    return {};
}

// A stored policy back as a Policy. The text is renderPolicy's unless someone edited the file, so whatever
// it holds this returns an error (with line and column inside the YAML) rather than throwing.
Result<Policy> parseStoredPolicy(const std::string& yaml)
{
    constexpr std::string_view kOrigin = "yaml";
    try {
        // renderPolicy writes an imported profile out as rules, so a stored policy never names a profile
        // file; one that does was edited by hand, and reading the store must not open files it names.
        std::optional<YAML::Node> root;
        try {
            root = YAML::Load(yaml);
        } catch (const YAML::Exception&) {
            // Not YAML: parsePolicy says where, below.
        }
        if (root && root->IsMap()) {
            if (const YAML::Node syscalls = (*root)["syscalls"]; syscalls && syscalls.IsMap() && syscalls["profile"])
                return fail(fmt::format("{}: syscalls.profile: a stored policy names no profile file (its "
                                        "rules are stored with it)",
                                        kOrigin));
        }
        return parsePolicy(yaml, kOrigin);
    } catch (const std::exception& e) {
        return fail(fmt::format("{}: {}", kOrigin, e.what()));
    } catch (...) {
        return fail(fmt::format("{}: cannot be read", kOrigin));
    }
}

// The name a stored text gives its policy, for texts stored before policies had a table: the parsed name,
// else (a text this build cannot parse) the `name` its YAML spells out, else the parser's default.
std::string storedPolicyName(const std::string& yaml)
{
    if (auto policy = parseStoredPolicy(yaml))
        return policy->name;
    try {
        const YAML::Node root = YAML::Load(yaml);
        if (root.IsMap()) {
            if (const YAML::Node name = root["name"]; name && name.IsScalar())
                return name.Scalar();
        }
    } catch (...) {
        // Not YAML at all.
    }
    return Policy{}.name;
}

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
        auto stored = findOrAddPolicy(db, storedPolicyName(policy.yaml), policy.yaml, policy.sha256, policy.firstUseMs);
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

// ---------------------------------------------------------------------------------------------------------
// Rows.

constexpr std::string_view kRunInsertColumns =
    "run_id, started_at_ms, label, language, source, policy_id, outcome, exit_code, signal, stdout, stderr, "
    "stdout_truncated, stderr_truncated, duration_ms, cpu_ms, peak_rss_kb, isolation_level, isolation_layers, "
    "message, claims";

// What readRun reads, in the order of RunColumn; a run's policy may be missing (edited by hand), hence the
// LEFT JOIN.
constexpr std::string_view kRunSelect =
    "SELECT r.id, r.run_id, r.started_at_ms, r.label, r.language, r.source, r.outcome, r.exit_code, r.signal, "
    "r.stdout, r.stderr, r.stdout_truncated, r.stderr_truncated, r.duration_ms, r.cpu_ms, r.peak_rss_kb, "
    "r.isolation_level, r.isolation_layers, r.message, r.claims, r.policy_id, "
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
    kColPolicyRef,  // runs.policy_id as stored
    kColPolicy,     // policies: kPolicyColumns from here (NULL when the row is missing)
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
    result.message = columnString(statement, kColMessage);
    result.claims = claimsFromJson(columnString(statement, kColClaims));

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
    run.policy = readPolicyVersion(statement, kColPolicy);
    auto cached = policies.find(run.policy.id);
    if (cached == policies.end())
        cached = policies.emplace(run.policy.id, parseStoredPolicy(columnString(statement, kColPolicyYaml))).first;
    if (cached->second) {
        request.policy = *cached->second;
    } else {
        run.policyError = fmt::format("{}: its policy {}@{} (policies row {}) cannot be read, shown with the "
                                      "default policy: {}",
                                      where, run.policy.name, run.policy.version, run.policy.id,
                                      cached->second.error().message);
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
            run.result.blocked.push_back(
                BlockedEvent{columnString(events->get(), 0), columnString(events->get(), 1)});
        if (rc != SQLITE_DONE)
            return db.error("cannot read blocked events");
    }
    return runs;
}

// No exception crosses the public API: yaml-cpp, nlohmann and the allocator may all throw.
template <typename Function>
auto guarded(const fs::path& path, std::string_view what, Function&& function) -> decltype(function())
{
    try {
        return function();
    } catch (const std::exception& e) {
        return fail(fmt::format("store {}: {} failed: {}", path.string(), what, e.what()));
    } catch (...) {
        return fail(fmt::format("store {}: {} failed", path.string(), what));
    }
}

std::unexpected<Error> closedError(const fs::path& path)
{
    return fail(fmt::format("store {}: the store is closed", path.string()));
}

} // namespace

// -------------------------------------------------------------------------------------------------------------

StoreLocation Store::locate(const fs::path& named)
{
    if (!named.empty())
        return {named, false};
    if (const char* explicitPath = std::getenv("SANDBENCH_STORE"); explicitPath && *explicitPath)
        return {explicitPath, false};
    // The XDG spec says relative values are invalid and must be ignored.
    if (const char* dataHome = std::getenv("XDG_DATA_HOME"); dataHome && *dataHome == '/')
        return {fs::path(dataHome) / "sandbench" / "workbench.db", true};
    const fs::path home = homeFolder();
    if (home.empty())
        return {fs::path("workbench.db"), true}; // no home at all (a bare container): the current folder
    return {home / ".local" / "share" / "sandbench" / "workbench.db", true};
}

fs::path Store::defaultPath()
{
    return locate().path;
}

Result<Store> Store::open(const fs::path& path)
{
    return open(StoreLocation{path, false});
}

Result<Store> Store::open(const StoreLocation& location)
{
    const fs::path& path = location.path;
    return guarded(path, "opening", [&]() -> Result<Store> {
        if (path.empty())
            return fail("store path is empty");
        if (auto ok = location.isDefault ? ensureParentFolder(path) : requireParentFolder(path); !ok)
            return std::unexpected(ok.error());

        std::error_code ec;
        const auto status = fs::status(path, ec);
        if (fs::exists(status)) {
            if (!fs::is_regular_file(status))
                return fail(fmt::format("store {} is not a regular file; refusing to use it", path.string()));
            if (auto ok = validateExisting(path); !ok)
                return std::unexpected(ok.error());
        } else {
            // Created here, private to the user, so SQLite (and its -wal/-shm, which copy the mode) never
            // makes it world-readable under a permissive umask. EEXIST: another Store raced us; fine.
            const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
            if (fd >= 0)
                ::close(fd);
            else if (errno != EEXIST)
                return fail(fmt::format("store {}: cannot create: {}", path.string(), errnoText(errno)));
        }

        auto connection =
            openConnection(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX);
        if (!connection)
            return std::unexpected(connection.error());
        const Db db(connection->get(), path);

        if (auto ok = switchToWal(db); !ok)
            return std::unexpected(ok.error());

        if (auto ok = db.exec(fmt::format("PRAGMA foreign_keys = ON; PRAGMA busy_timeout = {}; PRAGMA synchronous = "
                                          "NORMAL",
                                          kBusyTimeoutMs),
                              "cannot configure the connection");
            !ok)
            return std::unexpected(ok.error());
        // The CLI opens the store once per command: checkpointing the WAL at every close cost four syncs per
        // run. The WAL is checkpointed and truncated once it reaches kWalCheckpointPages instead
        // (checkpointAndTruncate); WAL mode with synchronous=NORMAL keeps every committed run across a crash
        // of Sandbench.
        sqlite3_wal_hook(connection->get(), checkpointAndTruncate, nullptr);
        sqlite3_db_config(connection->get(), SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, nullptr);
        int persistWal = 1;
        sqlite3_file_control(connection->get(), "main", SQLITE_FCNTL_PERSIST_WAL, &persistWal);
        if (auto ok = migrate(db); !ok)
            return std::unexpected(ok.error());
        // A file accepted with application_id 0 (our tables, hand-made or older) is claimed now.
        auto applicationId = db.pragmaInt("application_id");
        if (!applicationId)
            return std::unexpected(applicationId.error());
        if (*applicationId != kApplicationId) {
            if (auto ok = db.exec(fmt::format("PRAGMA application_id = {}", kApplicationId),
                                  "cannot set the application id");
                !ok)
                return std::unexpected(ok.error());
        }
        return Store(path, connection->release());
    });
}

Store::Store(fs::path path, sqlite3* db) : m_path(std::move(path)), m_db(db) {}

Store::Store(Store&& other) noexcept : m_path(std::move(other.m_path)), m_db(std::exchange(other.m_db, nullptr)) {}

Store& Store::operator=(Store&& other) noexcept
{
    if (this != &other) {
        if (m_db)
            sqlite3_close_v2(m_db);
        m_path = std::move(other.m_path);
        m_db = std::exchange(other.m_db, nullptr);
    }
    return *this;
}

Store::~Store()
{
    // close_v2 defers the close until every statement is finalized, so a leak elsewhere cannot make it fail.
    if (m_db)
        sqlite3_close_v2(m_db);
}

bool Store::readOnly() const
{
    return m_db && ::sqlite3_db_readonly(m_db, "main") == 1;
}

int Store::schemaVersion() const
{
    if (!m_db)
        return -1;
    const Db db(m_db, m_path);
    auto version = db.pragmaInt("user_version");
    return version ? static_cast<int>(*version) : -1;
}

Result<std::int64_t> Store::recordRun(const RunRequest& request, const RunResult& result, PolicyVersion* policy)
{
    if (!m_db)
        return closedError(m_path);
    return guarded(m_path, "recording a run", [&]() -> Result<std::int64_t> {
        const Db db(m_db, m_path);
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
        auto stored = findOrAddPolicy(db, request.policy.name, policyYaml, *policySha,
                                      result.startedAtMs > 0 ? result.startedAtMs : nowMs());
        if (!stored)
            return std::unexpected(stored.error());
        if (stored->added) {
            if (auto audited = auditPolicyVersion(db, stored->version); !audited)
                return std::unexpected(audited.error());
        }
        const PolicyVersion& version = stored->version;

        auto insert = db.prepare(fmt::format(
            "INSERT INTO runs ({}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, "
            "?17, ?18, ?19, ?20) RETURNING id",
            kRunInsertColumns));
        if (!insert)
            return std::unexpected(insert.error());
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
            .text(19, result.message)
            .text(20, claims);
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
        return closedError(m_path);
    if (limit <= 0)
        return std::vector<StoredRun>{};
    return guarded(m_path, "reading recent runs", [&]() -> Result<std::vector<StoredRun>> {
        const Db db(m_db, m_path);
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
        return closedError(m_path);
    return guarded(m_path, "finding a run", [&]() -> Result<std::optional<StoredRun>> {
        const Db db(m_db, m_path);
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

Result<PolicyVersion> Store::recordPolicy(const Policy& policy)
{
    if (!m_db)
        return closedError(m_path);
    return guarded(m_path, "recording a policy", [&]() -> Result<PolicyVersion> {
        const Db db(m_db, m_path);
        const std::string yaml = renderPolicy(policy);
        auto sha = sha256Hex(yaml);
        if (!sha)
            return fail(fmt::format("store {}: {}", m_path.string(), sha.error().message));
        Transaction transaction(db);
        if (auto ok = transaction.begin(); !ok)
            return std::unexpected(ok.error());
        auto stored = findOrAddPolicy(db, policy.name, yaml, *sha, nowMs());
        if (!stored)
            return std::unexpected(stored.error());
        if (stored->added) {
            if (auto audited = auditPolicyVersion(db, stored->version); !audited)
                return std::unexpected(audited.error());
        }
        if (auto ok = transaction.commit(); !ok)
            return std::unexpected(ok.error());
        return std::move(stored->version);
    });
}

Result<std::vector<PolicyVersionUse>> Store::policyVersions(std::string_view name) const
{
    if (!m_db)
        return closedError(m_path);
    return guarded(m_path, "listing policy versions", [&]() -> Result<std::vector<PolicyVersionUse>> {
        const Db db(m_db, m_path);
        auto statement = db.prepare(fmt::format(
            "SELECT {}, (SELECT count(*) FROM runs WHERE runs.policy_id = policies.id) FROM policies "
            "WHERE ?1 IS NULL OR name = ?1 ORDER BY name, version",
            kPolicyColumns));
        if (!statement)
            return std::unexpected(statement.error());
        if (!name.empty() && bindString(statement->get(), 1, name) != SQLITE_OK)
            return db.error("cannot list policy versions");
        std::vector<PolicyVersionUse> versions;
        int rc = 0;
        while ((rc = sqlite3_step(statement->get())) == SQLITE_ROW)
            versions.push_back(
                PolicyVersionUse{readPolicyVersion(statement->get(), 0), sqlite3_column_int64(statement->get(), 5)});
        if (rc != SQLITE_DONE)
            return db.error("cannot list policy versions");
        return versions;
    });
}

Result<std::optional<StoredPolicy>> Store::findPolicy(std::string_view name, std::int64_t version) const
{
    if (!m_db)
        return closedError(m_path);
    return guarded(m_path, "finding a policy version", [&]() -> Result<std::optional<StoredPolicy>> {
        const Db db(m_db, m_path);
        auto statement =
            db.prepare(fmt::format("SELECT {}, yaml FROM policies WHERE name = ?1 AND version = ?2", kPolicyColumns));
        if (!statement)
            return std::unexpected(statement.error());
        Binder bind(statement->get());
        bind.text(1, name).integer(2, version);
        if (!bind.ok())
            return db.error("cannot find a policy version");
        const int rc = sqlite3_step(statement->get());
        if (rc == SQLITE_DONE)
            return std::optional<StoredPolicy>{};
        if (rc != SQLITE_ROW)
            return db.error("cannot find a policy version");
        return std::optional<StoredPolicy>(
            StoredPolicy{readPolicyVersion(statement->get(), 0), columnString(statement->get(), 5)});
    });
}

Result<MetricsSnapshot> Store::metrics(int recentLimit) const
{
    if (!m_db)
        return closedError(m_path);
    return guarded(m_path, "computing metrics", [&]() -> Result<MetricsSnapshot> {
        const Db db(m_db, m_path);
        MetricsSnapshot snapshot;

        auto counts = db.prepare("SELECT outcome, count(*) FROM runs GROUP BY outcome");
        if (!counts)
            return std::unexpected(counts.error());
        std::vector<std::int64_t> perOutcome(kAllOutcomes.size(), 0);
        int rc = 0;
        while ((rc = sqlite3_step(counts->get())) == SQLITE_ROW) {
            const std::int64_t count = sqlite3_column_int64(counts->get(), 1);
            snapshot.total += count;
            if (auto outcome = outcomeFromString(columnString(counts->get(), 0)))
                perOutcome[static_cast<std::size_t>(
                    std::find(kAllOutcomes.begin(), kAllOutcomes.end(), *outcome) - kAllOutcomes.begin())] += count;
        }
        if (rc != SQLITE_DONE)
            return db.error("cannot count outcomes");
        for (std::size_t i = 0; i < kAllOutcomes.size(); ++i) {
            const double rate =
                snapshot.total > 0 ? static_cast<double>(perOutcome[i]) / static_cast<double>(snapshot.total) : 0.0;
            snapshot.outcomes.push_back(OutcomeCount{kAllOutcomes[i], perOutcome[i], rate});
        }

        // Nearest-rank percentiles need the values themselves; a REAL column is cheap to read.
        auto durations = db.prepare("SELECT duration_ms FROM runs WHERE duration_ms IS NOT NULL");
        if (!durations)
            return std::unexpected(durations.error());
        std::vector<double> values;
        values.reserve(static_cast<std::size_t>(snapshot.total));
        while ((rc = sqlite3_step(durations->get())) == SQLITE_ROW)
            values.push_back(sqlite3_column_double(durations->get(), 0));
        if (rc != SQLITE_DONE)
            return db.error("cannot read durations");
        snapshot.p50Ms = percentile(values, 50);
        snapshot.p95Ms = percentile(values, 95);
        snapshot.p99Ms = percentile(values, 99);
        snapshot.durationHistogram = durationHistogram(values);

        if (recentLimit > 0) {
            auto recent = db.prepare(
                "SELECT r.run_id, r.started_at_ms, r.label, r.language, r.outcome, r.duration_ms, r.message, "
                "e.id, e.kind, e.detail "
                "FROM (SELECT * FROM runs ORDER BY started_at_ms DESC, id DESC LIMIT ?1) AS r "
                "LEFT JOIN blocked_events AS e ON e.id = "
                "(SELECT id FROM blocked_events WHERE run_id = r.id ORDER BY seq, id LIMIT 1) "
                "ORDER BY r.started_at_ms DESC, r.id DESC");
            if (!recent)
                return std::unexpected(recent.error());
            sqlite3_stmt* s = recent->get();
            sqlite3_bind_int64(s, 1, recentLimit);
            while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
                RecentEvent event;
                event.runId = columnString(s, 0);
                event.startedAtMs = sqlite3_column_int64(s, 1);
                event.label = columnString(s, 2);
                event.language = columnString(s, 3);
                event.outcome = outcomeFromString(columnString(s, 4)).value_or(Outcome::InternalError);
                event.durationMs = sqlite3_column_double(s, 5);
                if (sqlite3_column_type(s, 7) != SQLITE_NULL)
                    event.detail = columnString(s, 8) + ": " + columnString(s, 9);
                else
                    event.detail = columnString(s, 6);
                snapshot.recent.push_back(std::move(event));
            }
            if (rc != SQLITE_DONE)
                return db.error("cannot read recent runs");
        }
        return snapshot;
    });
}

} // namespace sb
