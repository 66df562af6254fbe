#pragma once

// The audit log's rows as SQLite holds them (schema: store_tables.cpp, versions 3 and 8), read the way a hand edit
// may have left them. Shared by appending and listing (audit.cpp) and verifying (audit_verify.cpp); private to
// core/store.

#include "store/audit.h"
#include "store/sqlite_db.h"

#include <fmt/format.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sb::audit_rows {

// The log's row in log_heads.
inline constexpr std::string_view kHeadName = "audit";

inline constexpr std::string_view kEntryColumns =
    "seq, at_ms, actor, operation, subject, details, prev_hash, hash, mac";
enum EntryColumn : int { kSeq, kAt, kActor, kOperation, kSubject, kDetails, kPrevHash, kHash, kMac };

// A value from the file, fit for a message on a terminal.
std::string shown(std::string_view value);

bool isSha256Hex(std::string_view text);

// Reads one row of kEntryColumns. A row that Sandbench cannot have written (a hand edit) is read as far as
// it goes and `problem` says what is wrong, naming the entry.
AuditRecord readRecord(sqlite3_stmt* statement);

// The head record: the last entry's number and hash, the store's audit key (empty: none yet) and the key's
// MAC of the head (empty: none).
struct Head {
    std::int64_t seq = 0;
    std::string hash;
    std::string keyId;
    std::string mac;
};

// The head record; nullopt when it is missing or damaged (a hand edit).
Result<std::optional<Head>> readHead(const sqlite::Db& db);

// "store PATH: the audit log", for messages.
std::string headWhere(const sqlite::Db& db);

// A read transaction when the connection has none yet, so a long read sees one state of the file.
class ReadSnapshot {
public:
    explicit ReadSnapshot(const sqlite::Db& db) : m_db(db) {}
    ReadSnapshot(const ReadSnapshot&) = delete;
    ReadSnapshot& operator=(const ReadSnapshot&) = delete;
    ~ReadSnapshot();
    Result<void> begin();

private:
    const sqlite::Db& m_db;
    bool m_own = false;
};

// No exception crosses the public API: nlohmann and the allocator may throw.
template <typename Function>
auto guarded(const sqlite::Db& db, std::string_view what, Function&& function) -> decltype(function())
{
    try {
        return function();
    } catch (const std::exception& e) {
        return fail(fmt::format("store {}: {} failed: {}", db.path().string(), what, e.what()));
    } catch (...) {
        return fail(fmt::format("store {}: {} failed", db.path().string(), what));
    }
}

} // namespace sb::audit_rows
