#pragma once

// The small SQLite toolkit every part of the store uses: statements, a connection that names its file in
// every error, transactions that roll back unless committed, and binding that never silently stores NULL.
// The Store (runs, policies) and the engines that keep their own tables in the same file (core/workspace)
// share it, so there is one way to talk to the store. Include <sqlite3.h> beside it to step statements.

#include "util/error.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace sb::sql {

struct StatementDeleter {
    void operator()(sqlite3_stmt* statement) const noexcept;
};
using Statement = std::unique_ptr<sqlite3_stmt, StatementDeleter>;

// One connection plus the path it belongs to, so every error names the file and carries SQLite's message.
// Borrowed: valid while the Store (or connection) it came from lives.
class Db {
public:
    Db(sqlite3* db, const std::filesystem::path& path) : m_db(db), m_path(path) {}

    sqlite3* handle() const { return m_db; }
    const std::filesystem::path& path() const { return m_path; }

    // "store PATH: WHAT: SQLite's message".
    std::unexpected<Error> error(std::string_view what) const;
    Result<Statement> prepare(std::string_view sql) const;
    Result<void> exec(std::string_view sql, std::string_view what) const;
    Result<std::int64_t> pragmaInt(std::string_view name) const;
    // The row id of the last INSERT on this connection.
    std::int64_t lastInsertId() const;
    // Rows changed by the last INSERT, UPDATE or DELETE on this connection.
    std::int64_t changes() const;

private:
    sqlite3* m_db;
    const std::filesystem::path& m_path;
};

// Rolls back unless committed, so an early return or an exception never leaves half an operation behind.
class Transaction {
public:
    explicit Transaction(const Db& db) : m_db(db) {}
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    ~Transaction();

    // IMMEDIATE takes the write lock up front, so a busy writer elsewhere is waited for (busy_timeout)
    // instead of failing halfway through with SQLITE_BUSY on lock upgrade.
    Result<void> begin();
    Result<void> commit();
    bool active() const { return m_active; }

private:
    const Db& m_db;
    bool m_active = false;
};

// Text that may not be text. Outputs of untrusted programs and names of their files can hold NUL bytes and
// invalid UTF-8; SQLite stores such TEXT verbatim but its string functions (and other readers) may misbehave,
// so those values are stored as BLOBs. Reading (columnString) accepts either, byte for byte.
// The bound string must outlive the statement's next step (bound without a copy).
int bindString(sqlite3_stmt* statement, int index, std::string_view value);

// Binds parameters and remembers the first failure (SQLITE_TOOBIG, SQLITE_NOMEM), which would otherwise
// leave the parameter NULL and store a silently different row. Values are bound without copying: they must
// outlive the statement's next step.
class Binder {
public:
    explicit Binder(sqlite3_stmt* statement) : m_statement(statement) {}
    Binder& text(int index, std::string_view value);
    Binder& integer(int index, std::int64_t value);
    Binder& real(int index, double value);
    Binder& blob(int index, std::span<const std::uint8_t> bytes); // always a BLOB, even when empty
    Binder& blob(int index, std::string_view bytes);
    Binder& null(int index);
    bool ok() const;

private:
    Binder& keep(int rc);
    sqlite3_stmt* m_statement;
    int m_rc = 0; // SQLITE_OK
};

// A TEXT or BLOB column as bytes ("" for NULL).
std::string columnString(sqlite3_stmt* statement, int column);

} // namespace sb::sql
