#include "store/sqlite_db.h"

#include "util/utf8.h"

#include "store/store.h"

#include <fmt/format.h>

#include <cerrno>
#include <optional>
#include <sys/statvfs.h>
#include <utility>

namespace sb::sqlite {

namespace {

// Whether the connection's last failure was a write the file system had no room for.
bool outOfSpace(sqlite3* db)
{
    const int code = sqlite3_extended_errcode(db);
    if ((code & 0xff) == SQLITE_FULL)
        return true;
    const int error = sqlite3_system_errno(db);
    return (code & 0xff) == SQLITE_IOERR && (error == ENOSPC || error == EDQUOT);
}

// The folder a file lives in (for a store, also its -wal and -shm).
std::filesystem::path folderOf(const std::filesystem::path& file)
{
    const std::filesystem::path parent = file.parent_path();
    return parent.empty() ? std::filesystem::path(".") : parent;
}

// Free bytes (for an unprivileged writer) and size of the file system holding `folder`.
std::optional<std::pair<std::uint64_t, std::uint64_t>> spaceOf(const std::filesystem::path& folder)
{
    struct statvfs fs {};
    if (::statvfs(folder.c_str(), &fs) != 0)
        return std::nullopt;
    return std::pair<std::uint64_t, std::uint64_t>(static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize,
                                                   static_cast<std::uint64_t>(fs.f_blocks) * fs.f_frsize);
}

// Below this much free space, a file system is full (for a write that found no room, and a transaction that
// SQLite rolled back).
constexpr std::uint64_t kNearlyFullBytes = 1024 * 1024;

} // namespace

std::string noRoomNote(const std::filesystem::path& file)
{
    const std::filesystem::path folder = folderOf(file);
    const auto space = spaceOf(folder);
    if (!space)
        return fmt::format("the file system holding {} has no room", folder.string());
    if (space->first < kNearlyFullBytes)
        return fmt::format("the file system holding {} is full: {} bytes free of {}", folder.string(), space->first,
                           space->second);
    return fmt::format("the file system holding {} has {} bytes free of {}: not enough for this write, or another "
                       "limit was reached (a disk quota, SQLite's temporary files)",
                       folder.string(), space->first, space->second);
}

std::unexpected<Error> Db::error(std::string_view what) const
{
    std::string message = fmt::format("store {}: {}: {}", m_path->string(), what, sqlite3_errmsg(m_db));
    if (outOfSpace(m_db))
        message += " (" + noRoomNote(*m_path) + ")";
    return fail(std::move(message));
}

void StatementDeleter::operator()(sqlite3_stmt* statement) const noexcept
{
    if (cache)
        cache->give(statement);
    else
        sqlite3_finalize(statement);
}

StatementCache::~StatementCache()
{
    close();
}

sqlite3_stmt* StatementCache::take(std::string_view sql)
{
    const std::lock_guard lock(m_mutex);
    auto found = m_idle.find(std::string(sql));
    if (found == m_idle.end() || found->second.empty())
        return nullptr;
    sqlite3_stmt* statement = found->second.back();
    found->second.pop_back();
    --m_count;
    return statement;
}

void StatementCache::give(sqlite3_stmt* statement) noexcept
{
    if (!statement)
        return;
    // Reset first: a statement left mid-query holds a read snapshot of the WAL until then.
    sqlite3_reset(statement);
    sqlite3_clear_bindings(statement);
    {
        const std::lock_guard lock(m_mutex);
        if (!m_closed && m_count < kMaxIdle) {
            try {
                m_idle[sqlite3_sql(statement)].push_back(statement);
                ++m_count;
                return;
            } catch (...) { // no memory to keep it: finalized below
            }
        }
    }
    sqlite3_finalize(statement);
}

void StatementCache::close() noexcept
{
    std::unordered_map<std::string, std::vector<sqlite3_stmt*>> idle;
    {
        const std::lock_guard lock(m_mutex);
        m_closed = true;
        idle.swap(m_idle);
        m_count = 0;
    }
    for (auto& [sql, statements] : idle)
        for (sqlite3_stmt* statement : statements)
            sqlite3_finalize(statement);
}

Result<Statement> Db::prepare(std::string_view sql) const
{
    if (m_statements) {
        if (sqlite3_stmt* idle = m_statements->take(sql))
            return Statement(idle, StatementDeleter{m_statements});
    }
    sqlite3_stmt* raw = nullptr;
    const char* tail = nullptr;
    const int rc = sqlite3_prepare_v2(m_db, sql.data(), static_cast<int>(sql.size()), &raw, &tail);
    // Cached by its SQL text, which must then be the whole of `sql` (no second statement, no trailing text),
    // so that the next prepare of the same text finds it.
    const bool cacheable = m_statements && raw && tail == sql.data() + sql.size();
    Statement statement(raw, StatementDeleter{cacheable ? m_statements : nullptr});
    if (rc != SQLITE_OK || !statement)
        return error("cannot prepare a query");
    return statement;
}

Result<void> Db::exec(std::string_view sql, std::string_view what) const
{
    // sqlite3_exec needs a NUL-terminated string; our SQL lives in string literals or std::strings.
    const std::string text(sql);
    if (sqlite3_exec(m_db, text.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK)
        return error(what);
    return {};
}

Result<std::int64_t> Db::pragmaInt(std::string_view name) const
{
    auto statement = prepare(fmt::format("PRAGMA {}", name));
    if (!statement)
        return std::unexpected(statement.error());
    const int rc = sqlite3_step(statement->get());
    if (rc == SQLITE_ROW)
        return sqlite3_column_int64(statement->get(), 0);
    if (rc == SQLITE_DONE)
        return 0;
    return error(fmt::format("cannot read PRAGMA {}", name));
}

Result<Attachment> Attachment::attach(const Db& db, const std::filesystem::path& file, std::string schema)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
        return fail(fmt::format("{}: no such file", file.string()));
    auto statement = db.prepare(fmt::format("ATTACH DATABASE ?1 AS {}", schema));
    if (!statement)
        return std::unexpected(statement.error());
    const std::string path = file.string();
    if (sqlite3_bind_text(statement->get(), 1, path.c_str(), static_cast<int>(path.size()), SQLITE_TRANSIENT)
            != SQLITE_OK
        || sqlite3_step(statement->get()) != SQLITE_DONE)
        return db.error(fmt::format("cannot open {}", path));
    return Attachment(db, std::move(schema));
}

Attachment::Attachment(Attachment&& other) noexcept : m_db(other.m_db), m_schema(std::move(other.m_schema))
{
    other.m_schema.clear();
}

Attachment::~Attachment()
{
    if (!m_schema.empty())
        (void)m_db.exec(fmt::format("DETACH DATABASE {}", m_schema), "cannot detach a database");
}

Result<Db> connectionOf(const Store& store)
{
    if (!store.m_db)
        return fail(fmt::format("store {}: the store is closed", store.m_path.string()));
    return Db(store.m_db, store.m_path, store.m_statements);
}

// The one savepoint name: savepoints nest, and ROLLBACK TO / RELEASE name the innermost of that name.
constexpr std::string_view kNested = "sandbench_nested";

Transaction::~Transaction()
{
    if (!m_active)
        return;
    if (m_nested) {
        const std::string undo = fmt::format("ROLLBACK TO {0}; RELEASE {0}", kNested);
        sqlite3_exec(m_db.handle(), undo.c_str(), nullptr, nullptr, nullptr);
    } else {
        sqlite3_exec(m_db.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
    }
}

Result<void> Transaction::begin()
{
    auto ok = m_db.exec("BEGIN IMMEDIATE", "cannot start a transaction");
    m_active = ok.has_value();
    m_nested = false;
    return ok;
}

Result<void> Transaction::beginOrNest()
{
    if (sqlite3_get_autocommit(m_db.handle()) != 0)
        return begin();
    auto ok = m_db.exec(fmt::format("SAVEPOINT {}", kNested), "cannot start a savepoint");
    m_active = ok.has_value();
    m_nested = true;
    return ok;
}

Result<void> Transaction::commit()
{
    if (m_active && sqlite3_get_autocommit(m_db.handle()) != 0) {
        // SQLite undid the transaction after a failure that the caller went past (see the class comment).
        m_active = false;
        std::string message = fmt::format("store {}: cannot commit: a statement failed and SQLite rolled the whole "
                                          "change back; nothing of it was stored",
                                          m_db.path().string());
        const auto space = spaceOf(folderOf(m_db.path()));
        if (space && space->first < kNearlyFullBytes)
            message += " (" + noRoomNote(m_db.path()) + ")";
        return fail(std::move(message));
    }
    auto ok = m_nested ? m_db.exec(fmt::format("RELEASE {}", kNested), "cannot release a savepoint")
                       : m_db.exec("COMMIT", "cannot commit");
    if (ok)
        m_active = false;
    return ok;
}

Result<void> ReadTransaction::begin()
{
    if (m_active || sqlite3_get_autocommit(m_db.handle()) == 0)
        return {};
    auto ok = m_db.exec("BEGIN DEFERRED", "cannot start a read transaction");
    m_active = ok.has_value();
    return ok;
}

void ReadTransaction::end()
{
    if (!m_active)
        return;
    m_active = false;
    // Nothing was written: COMMIT only drops the read lock, and a failure leaves nothing to undo.
    if (sqlite3_exec(m_db.handle(), "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK)
        sqlite3_exec(m_db.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

// nullptr is SQLITE_STATIC (the macro's C cast would trip -Wold-style-cast).
int bindString(sqlite3_stmt* statement, int index, std::string_view value)
{
    if (value.empty())
        return sqlite3_bind_text(statement, index, "", 0, nullptr);
    if (utf8::isPlainText(value))
        return sqlite3_bind_text64(statement, index, value.data(), value.size(), nullptr, SQLITE_UTF8);
    return sqlite3_bind_blob64(statement, index, value.data(), value.size(), nullptr);
}

std::string columnString(sqlite3_stmt* statement, int column)
{
    switch (sqlite3_column_type(statement, column)) {
    case SQLITE_NULL: return {};
    case SQLITE_BLOB: {
        const void* data = sqlite3_column_blob(statement, column);
        const int size = sqlite3_column_bytes(statement, column);
        return data ? std::string(static_cast<const char*>(data), static_cast<std::size_t>(size)) : std::string();
    }
    default: {
        const unsigned char* data = sqlite3_column_text(statement, column);
        const int size = sqlite3_column_bytes(statement, column);
        return data ? std::string(reinterpret_cast<const char*>(data), static_cast<std::size_t>(size)) : std::string();
    }
    }
}

} // namespace sb::sqlite
