#include "store/sqlite_db.h"

#include "util/utf8.h"

#include "store/store.h"

#include <fmt/format.h>

namespace sb::sqlite {

std::unexpected<Error> Db::error(std::string_view what) const
{
    return fail(fmt::format("store {}: {}: {}", m_path->string(), what, sqlite3_errmsg(m_db)));
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

Result<Db> connectionOf(const Store& store)
{
    if (!store.m_db)
        return fail(fmt::format("store {}: the store is closed", store.m_path.string()));
    return Db(store.m_db, store.m_path);
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
    auto ok = m_nested ? m_db.exec(fmt::format("RELEASE {}", kNested), "cannot release a savepoint")
                       : m_db.exec("COMMIT", "cannot commit");
    if (ok)
        m_active = false;
    return ok;
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
