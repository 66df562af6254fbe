#pragma once

// SQLite below the store's API: handles, statements, transactions and text that may not be text. Shared by
// the modules that keep tables in the one store file (runs.cpp, audit.cpp, ...); not for use outside core/store
// and the core modules that own tables of their own.

#include "util/error.h"

#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sb {

class Store;

namespace sqlite {

class StatementCache;

// A statement done with goes back to its connection's cache (reset, its bindings cleared), or is finalized.
struct StatementDeleter {
    std::shared_ptr<StatementCache> cache; // null: finalized
    void operator()(sqlite3_stmt* statement) const noexcept;
};
using Statement = std::unique_ptr<sqlite3_stmt, StatementDeleter>;

// The prepared statements of one connection that are not in use, by their SQL text, so the store's hot paths
// (an agent session's steps and checkpoints: a few small queries each) do not parse the same SQL again each
// time; parsing was most of their cost. Bounded; a statement that does not fit is finalized. Shared with the
// statements it lent (their deleters), so a statement that outlives its store is finalized, not cached.
class StatementCache {
public:
    StatementCache() = default;
    StatementCache(const StatementCache&) = delete;
    StatementCache& operator=(const StatementCache&) = delete;
    ~StatementCache();

    // An idle statement prepared from exactly `sql`, or null.
    sqlite3_stmt* take(std::string_view sql);
    // Keeps `statement`, reset and with its bindings cleared, for the next take of its SQL; finalizes it when
    // the cache is full or closed.
    void give(sqlite3_stmt* statement) noexcept;
    // Finalizes every idle statement and keeps none from now on: the connection is about to close.
    void close() noexcept;

    static constexpr std::size_t kMaxIdle = 256;

private:
    std::mutex m_mutex;
    std::unordered_map<std::string, std::vector<sqlite3_stmt*>> m_idle;
    std::size_t m_count = 0;
    bool m_closed = false;
};

struct ConnectionCloser {
    void operator()(sqlite3* db) const noexcept { sqlite3_close_v2(db); }
};
using Connection = std::unique_ptr<sqlite3, ConnectionCloser>;

// One connection plus the path it belongs to, so every error names the file and carries SQLite's message.
// It borrows both: the connection and the path must outlive it. With the connection's statement cache, its
// statements come from and go back to that cache.
class Db {
public:
    Db(sqlite3* db, const std::filesystem::path& path, std::shared_ptr<StatementCache> statements = {})
        : m_db(db), m_path(&path), m_statements(std::move(statements))
    {
    }

    sqlite3* handle() const { return m_db; }
    const std::filesystem::path& path() const { return *m_path; }

    // "store PATH: what: SQLite's message", and, when SQLite could not write for want of space (SQLITE_FULL,
    // or an I/O error of ENOSPC or EDQUOT), which file system is full and how much it has left (noRoomNote).
    std::unexpected<Error> error(std::string_view what) const;
    Result<Statement> prepare(std::string_view sql) const;
    Result<void> exec(std::string_view sql, std::string_view what) const;
    Result<std::int64_t> pragmaInt(std::string_view name) const;
    // The row id of the last INSERT on this connection.
    std::int64_t lastInsertId() const { return sqlite3_last_insert_rowid(m_db); }
    // Rows changed by the last INSERT, UPDATE or DELETE on this connection.
    std::int64_t changes() const { return sqlite3_changes64(m_db); }

private:
    sqlite3* m_db;
    const std::filesystem::path* m_path;
    std::shared_ptr<StatementCache> m_statements;
};

// What a write that found no room says about the file system holding the folder `file` is in (the store's own
// for a store): "the file system holding FOLDER is full: N bytes free of M", or, with more than a little
// left, how much, and that some other limit may have been reached.
std::string noRoomNote(const std::filesystem::path& file);

// The connection of an open store, for the core modules that keep tables in it. The Store keeps its handle
// out of its public API and befriends only this function.
Result<Db> connectionOf(const Store& store);

// Another database file attached to a connection as `schema` (ATTACH DATABASE) for as long as this lives: a
// store made elsewhere, read with SQL that names its tables `schema.table`. Attach before a transaction
// begins; SQLite refuses to attach or detach inside one.
class Attachment {
public:
    static Result<Attachment> attach(const Db& db, const std::filesystem::path& file, std::string schema);
    Attachment(Attachment&& other) noexcept;
    Attachment(const Attachment&) = delete;
    Attachment& operator=(const Attachment&) = delete;
    Attachment& operator=(Attachment&&) = delete;
    ~Attachment();

private:
    Attachment(const Db& db, std::string schema) : m_db(db), m_schema(std::move(schema)) {}
    Db m_db;
    std::string m_schema; // empty once moved from
};

// Rolls back unless committed, so an early return or an exception never leaves half a change behind.
//
// SQLite itself rolls the whole transaction back when a statement fails for want of disk space or memory, or
// with an I/O error; the connection is then in autocommit mode and later statements would each commit on
// their own. commit() notices that (rather than SQLite's "no transaction is active") and says what happened.
class Transaction {
public:
    explicit Transaction(const Db& db) : m_db(db) {}
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    ~Transaction();

    // IMMEDIATE takes the write lock up front, so a busy writer elsewhere is waited for (busy_timeout)
    // instead of failing halfway through with SQLITE_BUSY on lock upgrade.
    Result<void> begin();
    // Inside a transaction the caller already opened on this connection, a savepoint: the work is undone
    // on its own when it fails, and otherwise commits (or rolls back) with the caller's transaction.
    // Without one, the same as begin().
    Result<void> beginOrNest();
    Result<void> commit();

private:
    const Db& m_db;
    bool m_active = false;
    bool m_nested = false;
};

// Reads from one snapshot: a deferred BEGIN, so the first read takes the WAL read lock and every later read
// shares it, instead of each statement taking and dropping its own. Only for reads: a write inside it may
// find the snapshot outdated (SQLITE_BUSY_SNAPSHOT), so end() it first. Inside a transaction the caller
// already opened on this connection, begin() and end() do nothing.
class ReadTransaction {
public:
    explicit ReadTransaction(const Db& db) : m_db(db) {}
    ReadTransaction(const ReadTransaction&) = delete;
    ReadTransaction& operator=(const ReadTransaction&) = delete;
    ~ReadTransaction() { end(); }

    Result<void> begin();
    void end();

private:
    const Db& m_db;
    bool m_active = false;
};

// Text that may not be text. Outputs of untrusted programs can hold NUL bytes and invalid UTF-8; SQLite
// stores such TEXT verbatim but its string functions (and other readers) may misbehave, so those values are
// stored as BLOBs (utf8::isPlainText tells which). Reading accepts either, byte for byte.
// The bound string must outlive the statement's next step (it is bound without a copy).
int bindString(sqlite3_stmt* statement, int index, std::string_view value);

// Binds parameters and remembers the first failure (SQLITE_TOOBIG, SQLITE_NOMEM), which would otherwise
// leave the parameter NULL and store a silently different row.
class Binder {
public:
    explicit Binder(sqlite3_stmt* statement) : m_statement(statement) {}
    Binder& text(int index, std::string_view value) { return keep(bindString(m_statement, index, value)); }
    Binder& integer(int index, std::int64_t value) { return keep(sqlite3_bind_int64(m_statement, index, value)); }
    Binder& real(int index, double value) { return keep(sqlite3_bind_double(m_statement, index, value)); }
    // Always a BLOB, even when empty (a zero-length blob, not NULL). Bound without a copy.
    Binder& blob(int index, std::span<const std::uint8_t> bytes) { return keep(bindBlob(index, bytes.data(), bytes.size())); }
    Binder& blob(int index, std::string_view bytes) { return keep(bindBlob(index, bytes.data(), bytes.size())); }
    Binder& null(int index) { return keep(sqlite3_bind_null(m_statement, index)); }
    bool ok() const { return m_rc == SQLITE_OK; }

private:
    int bindBlob(int index, const void* data, std::size_t size)
    {
        return size == 0 ? sqlite3_bind_zeroblob(m_statement, index, 0)
                         : sqlite3_bind_blob64(m_statement, index, data, size, SQLITE_STATIC);
    }
    Binder& keep(int rc)
    {
        if (m_rc == SQLITE_OK)
            m_rc = rc;
        return *this;
    }
    sqlite3_stmt* m_statement;
    int m_rc = SQLITE_OK;
};

// A TEXT or BLOB column byte for byte; NULL reads as empty.
std::string columnString(sqlite3_stmt* statement, int column);

} // namespace sqlite
} // namespace sb
