#include "store/store_changes.h"

#include "wal_vfs.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <string>
#include <utility>

namespace sb {

namespace {

// SQLITE_BUSY or SQLITE_LOCKED, plain or extended: another connection holds what a read needs just now.
bool locked(int rc)
{
    const int code = rc & 0xff;
    return code == SQLITE_BUSY || code == SQLITE_LOCKED;
}

// SQLite may treat a name starting with "file:" as a URI; a path with a folder part never is one (as Store::open).
std::string sqliteFileName(const std::filesystem::path& path)
{
    if (path.is_absolute() || path.string().starts_with("./") || path.string().starts_with("../"))
        return path.string();
    return "./" + path.string();
}

} // namespace

Result<StoreChanges> StoreChanges::open(const std::filesystem::path& path)
{
    sqlite3* raw = nullptr;
    // Read-only: it can never write, and its close never checkpoints the log. No mutex: one thread asks.
    const int rc = sqlite3_open_v2(sqliteFileName(path).c_str(), &raw, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX,
                                   store_vfs::name());
    StoreChanges changes(path, raw); // even a failed open returns a handle that must be closed
    if (rc != SQLITE_OK || !raw)
        return fail(fmt::format("store {}: cannot follow its changes: {}", path.string(),
                                raw ? sqlite3_errmsg(raw) : sqlite3_errstr(rc)));
    sqlite3_extended_result_codes(raw, 1);
    sqlite3_busy_timeout(raw, 0); // a poll never waits: a locked store is asked again at the next one
    if (sqlite3_prepare_v3(raw, "PRAGMA data_version", -1, SQLITE_PREPARE_PERSISTENT, &changes.m_statement, nullptr)
        != SQLITE_OK)
        return fail(fmt::format("store {}: cannot follow its changes: {}", path.string(), sqlite3_errmsg(raw)));
    auto first = changes.version();
    if (!first)
        return std::unexpected(first.error());
    if (*first) {
        changes.m_version = **first;
        changes.m_known = true;
    }
    return changes;
}

StoreChanges::StoreChanges(std::filesystem::path path, sqlite3* db) : m_path(std::move(path)), m_db(db) {}

StoreChanges::StoreChanges(StoreChanges&& other) noexcept
    : m_path(std::move(other.m_path)), m_db(std::exchange(other.m_db, nullptr)),
      m_statement(std::exchange(other.m_statement, nullptr)), m_version(other.m_version), m_known(other.m_known)
{
}

StoreChanges& StoreChanges::operator=(StoreChanges&& other) noexcept
{
    if (this != &other) {
        close();
        m_path = std::move(other.m_path);
        m_db = std::exchange(other.m_db, nullptr);
        m_statement = std::exchange(other.m_statement, nullptr);
        m_version = other.m_version;
        m_known = other.m_known;
    }
    return *this;
}

StoreChanges::~StoreChanges()
{
    close();
}

void StoreChanges::close() noexcept
{
    if (m_statement)
        sqlite3_finalize(std::exchange(m_statement, nullptr));
    if (m_db)
        sqlite3_close_v2(std::exchange(m_db, nullptr));
}

Result<std::optional<std::int64_t>> StoreChanges::version()
{
    if (!m_statement)
        return fail(fmt::format("store {}: its changes are not followed", m_path.string()));
    const int rc = sqlite3_step(m_statement);
    const std::int64_t value = rc == SQLITE_ROW ? sqlite3_column_int64(m_statement, 0) : 0;
    // Reset at once: the statement's read transaction ends with it, so this connection never holds the log's
    // read lock between polls (which would keep other connections from truncating the log).
    const int reset = sqlite3_reset(m_statement);
    if (rc == SQLITE_ROW)
        return value;
    if (locked(rc) || locked(reset))
        return std::optional<std::int64_t>{};
    return fail(fmt::format("store {}: cannot follow its changes: {}", m_path.string(), sqlite3_errmsg(m_db)));
}

Result<StoreChanges::Poll> StoreChanges::poll()
{
    auto now = version();
    if (!now)
        return std::unexpected(now.error());
    if (!*now)
        return Poll::Busy;
    const bool changed = m_known && **now != m_version;
    m_version = **now;
    m_known = true;
    return changed ? Poll::Changed : Poll::Unchanged;
}

} // namespace sb
