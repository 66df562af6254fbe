#pragma once

#include "util/error.h"

#include <cstdint>
#include <filesystem>
#include <optional>

struct sqlite3;
struct sqlite3_stmt;

namespace sb {

// Notices commits made to a store by other connections (another process: the command line, an agent session's
// gateway; or another connection of this one), cheaply enough to ask several times a second: SQLite's
// data_version, asked on a read-only connection of its own that never waits for a lock. It reads no table and
// writes nothing, so asking never makes a change another asker would see.
class StoreChanges {
public:
    // A store that Store::open has opened before (it is neither validated nor migrated here).
    static Result<StoreChanges> open(const std::filesystem::path& path);

    StoreChanges(StoreChanges&& other) noexcept;
    StoreChanges& operator=(StoreChanges&& other) noexcept;
    StoreChanges(const StoreChanges&) = delete;
    StoreChanges& operator=(const StoreChanges&) = delete;
    ~StoreChanges();

    enum class Poll {
        Unchanged, // nothing was committed since the last poll (or since open, for the first)
        Changed,   // another connection committed since
        Busy,      // the store was locked just then: ask again later
    };
    // An error: the store cannot be read any more (removed, damaged).
    Result<Poll> poll();

    const std::filesystem::path& path() const { return m_path; }

private:
    StoreChanges(std::filesystem::path path, sqlite3* db);
    // data_version now; nullopt when the store is locked.
    Result<std::optional<std::int64_t>> version();
    void close() noexcept;

    std::filesystem::path m_path;
    sqlite3* m_db = nullptr;
    sqlite3_stmt* m_statement = nullptr;
    std::int64_t m_version = 0;
    bool m_known = false; // m_version was read
};

} // namespace sb
