#pragma once

#include "isolation/run.h"
#include "store/metrics.h"
#include "util/error.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;

namespace sb {

class Store;
namespace sqlite {
class Db;
class StatementCache;
Result<Db> connectionOf(const Store& store); // store/sqlite_db.h
} // namespace sqlite

// One version of a policy as the store keeps it: one row per distinct canonical YAML (renderPolicy), numbered
// 1, 2, ... per policy name in the order the versions were first used.
struct PolicyVersion {
    std::int64_t id = 0;      // 0: none (a run whose policy row is missing)
    std::string name;         // Policy::name
    std::int64_t version = 0;
    std::string sha256;       // lower-case hex of the stored YAML
    std::int64_t createdAtMs = 0; // Unix epoch milliseconds: when the version was first used
};

// A row of Store::policyVersions(): a version and how many runs used it.
struct PolicyVersionUse {
    PolicyVersion policy;
    std::int64_t runs = 0;
};

// One version with its stored YAML (Store::findPolicy).
struct StoredPolicy {
    PolicyVersion policy;
    std::string yaml;
};

// A run as the store keeps it: what was asked and what happened.
struct StoredRun {
    std::int64_t id = 0;
    RunRequest request;
    RunResult result;
    PolicyVersion policy; // the stored version request.policy was read from
    std::string sandbox;  // the sandbox whose workspace the run worked in; empty: a fresh private folder
    // Empty when the stored policy was read. Otherwise why not (naming the store, the policy version and
    // where its YAML is wrong), and request.policy is a default Policy: the run itself is never hidden.
    std::string policyError;
};

// Where a store is, and who chose it (README, "The store"). The default location is Sandbench's own: its
// missing folders are made, private to the user, on first use. A path a person named (--store PATH,
// $SANDBENCH_STORE) is taken as given: a folder of it that does not exist is an error naming that folder, so
// that a typo never opens an empty store without a word.
struct StoreLocation {
    std::filesystem::path path;
    bool isDefault = false; // the default location, not a path a person named
};

// The one SQLite file of Sandbench: WAL, foreign keys, a versioned schema migrated on open (store/schema.h: each
// module defines its tables, the store runs their steps). A corrupt or foreign file is refused, never written to.
class Store {
public:
    static constexpr int kSchemaVersion = 11; // the newest version: the last of every module's steps
    static constexpr std::int32_t kApplicationId = 0x53424e43; // "SBNC"

    // The store a front end opens: `named` (--store) when not empty, else $SANDBENCH_STORE, else the default
    // location, $XDG_DATA_HOME/sandbench/workbench.db, else ~/.local/share/sandbench/workbench.db.
    static StoreLocation locate(const std::filesystem::path& named = {});
    // locate().path: $SANDBENCH_STORE, else the default location.
    static std::filesystem::path defaultPath();
    // Opens and migrates the store, creating its file when missing, and its folders when it is the default
    // location; a named store's missing folder is an error naming it.
    static Result<Store> open(const StoreLocation& location);
    // A store at a path a person named: its folder must exist.
    static Result<Store> open(const std::filesystem::path& path);

    Store(Store&&) noexcept;
    Store& operator=(Store&&) noexcept;
    ~Store();

    const std::filesystem::path& path() const { return m_path; }
    int schemaVersion() const;
    // Opened read-only (the file or its folder is not writable): nothing can be recorded in it.
    bool readOnly() const;

    // The write-ahead log is checkpointed into the database, and truncated, by the commit that makes it
    // kWalCheckpointPages long: every process that opens the store reads the whole log first, so it is kept
    // short. That checkpoint (two syncs, the log's pages copied) is paid by whoever commits then. A process that
    // commits often for a long time (an agent session's gateway, a step per call) defers it to its idle moments
    // instead (checkpointWal): a commit then checkpoints only once the log reaches kDeferredWalPages.
    static constexpr int kWalCheckpointPages = 128;   // 512 KB
    static constexpr int kDeferredWalPages = 1000;    // 4 MB, SQLite's own default
    void deferWalCheckpoints();
    // Checkpoints and truncates the log when this connection's last commit left it at least kWalCheckpointPages
    // long and no other connection is reading or writing it (it never waits). True: done.
    bool checkpointWal();

    // The log's length after this connection's last commit, and from which length a commit checkpoints it.
    struct WalState {
        int pages = 0;
        int commitPages = kWalCheckpointPages;
    };

    // Records the run and, in the same transaction, its policy's version. `policy` (optional) receives that
    // version; `sandbox` names the sandbox whose workspace the run worked in (empty: none). Returns the run's
    // row id.
    Result<std::int64_t> recordRun(const RunRequest& request, const RunResult& result,
                                   PolicyVersion* policy = nullptr, std::string_view sandbox = {});
    Result<std::vector<StoredRun>> recentRuns(int limit) const;       // newest first
    Result<std::optional<StoredRun>> findRun(const std::string& runId) const;
    Result<MetricsSnapshot> metrics(int recentLimit = 20) const;

    // The stored version of `policy`, added as the next version of its name unless this exact content (by
    // SHA-256 of its canonical YAML) is stored already, in which case that version is returned unchanged.
    Result<PolicyVersion> recordPolicy(const Policy& policy);
    // The versions of the policy called `name` (every policy when empty), by name then version.
    Result<std::vector<PolicyVersionUse>> policyVersions(std::string_view name = {}) const;
    // One version with its YAML exactly as recorded; nullopt when there is no such version.
    Result<std::optional<StoredPolicy>> findPolicy(std::string_view name, std::int64_t version) const;

private:
    // Core modules with tables of their own (store/audit.cpp) reach the connection through this one function.
    friend Result<sqlite::Db> sqlite::connectionOf(const Store& store);

    Store(std::filesystem::path path, sqlite3* db);
    void close() noexcept;
    std::filesystem::path m_path;
    sqlite3* m_db = nullptr;
    std::shared_ptr<sqlite::StatementCache> m_statements; // the connection's idle prepared statements
    std::unique_ptr<WalState> m_wal;                      // the WAL hook's, at a fixed address
};

} // namespace sb
