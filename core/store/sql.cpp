#include "store/sql.h"

#include "util/utf8.h"

#include <fmt/format.h>
#include <sqlite3.h>

namespace sb::sql {

void StatementDeleter::operator()(sqlite3_stmt* statement) const noexcept
{
    sqlite3_finalize(statement);
}

std::unexpected<Error> Db::error(std::string_view what) const
{
    return fail(fmt::format("store {}: {}: {}", m_path.string(), what, sqlite3_errmsg(m_db)));
}

Result<Statement> Db::prepare(std::string_view sql) const
{
    sqlite3_stmt* raw = nullptr;
    const int rc = sqlite3_prepare_v2(m_db, sql.data(), static_cast<int>(sql.size()), &raw, nullptr);
    Statement statement(raw);
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

std::int64_t Db::lastInsertId() const
{
    return sqlite3_last_insert_rowid(m_db);
}

std::int64_t Db::changes() const
{
    return sqlite3_changes64(m_db);
}

Transaction::~Transaction()
{
    if (m_active)
        sqlite3_exec(m_db.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

Result<void> Transaction::begin()
{
    auto ok = m_db.exec("BEGIN IMMEDIATE", "cannot start a transaction");
    m_active = ok.has_value();
    return ok;
}

Result<void> Transaction::commit()
{
    auto ok = m_db.exec("COMMIT", "cannot commit");
    if (ok)
        m_active = false;
    return ok;
}

// nullptr is SQLITE_STATIC (the macro's C cast would trip -Wold-style-cast): every caller binds values that
// live until the statement is done.
int bindString(sqlite3_stmt* statement, int index, std::string_view value)
{
    if (value.empty())
        return sqlite3_bind_text(statement, index, "", 0, nullptr);
    if (isPlainUtf8(value))
        return sqlite3_bind_text64(statement, index, value.data(), value.size(), nullptr, SQLITE_UTF8);
    return sqlite3_bind_blob64(statement, index, value.data(), value.size(), nullptr);
}

Binder& Binder::text(int index, std::string_view value)
{
    return keep(bindString(m_statement, index, value));
}

Binder& Binder::integer(int index, std::int64_t value)
{
    return keep(sqlite3_bind_int64(m_statement, index, value));
}

Binder& Binder::real(int index, double value)
{
    return keep(sqlite3_bind_double(m_statement, index, value));
}

Binder& Binder::blob(int index, std::span<const std::uint8_t> bytes)
{
    // A zero-length BLOB needs a non-null pointer, or SQLite binds NULL.
    static const std::uint8_t kNothing = 0;
    return keep(sqlite3_bind_blob64(m_statement, index, bytes.empty() ? &kNothing : bytes.data(), bytes.size(),
                                    nullptr));
}

Binder& Binder::blob(int index, std::string_view bytes)
{
    return blob(index, std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()));
}

Binder& Binder::null(int index)
{
    return keep(sqlite3_bind_null(m_statement, index));
}

bool Binder::ok() const
{
    return m_rc == SQLITE_OK;
}

Binder& Binder::keep(int rc)
{
    if (m_rc == SQLITE_OK)
        m_rc = rc;
    return *this;
}

std::string columnString(sqlite3_stmt* statement, int column)
{
    switch (sqlite3_column_type(statement, column)) {
    case SQLITE_NULL:
        return {};
    case SQLITE_BLOB: {
        const void* data = sqlite3_column_blob(statement, column);
        const int size = sqlite3_column_bytes(statement, column);
        return data ? std::string(static_cast<const char*>(data), static_cast<std::size_t>(size)) : std::string();
    }
    default: {
        const unsigned char* data = sqlite3_column_text(statement, column);
        const int size = sqlite3_column_bytes(statement, column);
        return data ? std::string(reinterpret_cast<const char*>(data), static_cast<std::size_t>(size))
                    : std::string();
    }
    }
}

} // namespace sb::sql
