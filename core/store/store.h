#pragma once

#include "isolation/run.h"
#include "store/metrics.h"
#include "util/error.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace sb {

// A run as the store keeps it: what was asked and what happened.
struct StoredRun {
    std::int64_t id = 0;
    RunRequest request;
    RunResult result;
};

// The one SQLite file of Sandbench: WAL, foreign keys, a versioned schema migrated on open.
// A corrupt or foreign file is refused with a clear error and never written to.
class Store {
public:
    static constexpr int kSchemaVersion = 1;
    static constexpr std::int32_t kApplicationId = 0x53424e43; // "SBNC"

    // $SANDBENCH_STORE, else $XDG_DATA_HOME/sandbench/workbench.db, else ~/.local/share/sandbench/workbench.db.
    static std::filesystem::path defaultPath();
    // Opens (creating the file and its folder when missing) and migrates the store.
    static Result<Store> open(const std::filesystem::path& path);

    Store(Store&&) noexcept;
    Store& operator=(Store&&) noexcept;
    ~Store();

    const std::filesystem::path& path() const { return m_path; }
    int schemaVersion() const;

    Result<std::int64_t> recordRun(const RunRequest& request, const RunResult& result);
    Result<std::vector<StoredRun>> recentRuns(int limit) const;       // newest first
    Result<std::optional<StoredRun>> findRun(const std::string& runId) const;
    Result<MetricsSnapshot> metrics(int recentLimit = 20) const;

private:
    Store(std::filesystem::path path, sqlite3* db);
    std::filesystem::path m_path;
    sqlite3* m_db = nullptr;
};

} // namespace sb
