#include "audit_rows.h"

#include "store/audit_key.h"
#include "util/printable.h"

#include <algorithm>
#include <vector>

namespace sb::audit_rows {

namespace {

using sqlite::bindString;
using sqlite::columnString;
using sqlite::Db;

std::string_view typeName(int type)
{
    switch (type) {
    case SQLITE_INTEGER: return "an integer";
    case SQLITE_FLOAT: return "a real number";
    case SQLITE_TEXT: return "text";
    case SQLITE_BLOB: return "a blob";
    default: return "NULL";
    }
}

} // namespace

std::string shown(std::string_view value)
{
    return "'" + printable(value, 40) + "'";
}

bool isSha256Hex(std::string_view text)
{
    return text.size() == 64 && std::all_of(text.begin(), text.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

AuditRecord readRecord(sqlite3_stmt* statement)
{
    AuditRecord record;
    record.seq = sqlite3_column_int64(statement, kSeq); // the rowid: always an integer
    std::vector<std::string> wrong;

    const int atType = sqlite3_column_type(statement, kAt);
    if (atType == SQLITE_INTEGER)
        record.atMs = sqlite3_column_int64(statement, kAt);
    else
        wrong.push_back(atType == SQLITE_NULL ? std::string("at_ms is NULL")
                                              : fmt::format("at_ms is {} ({}), not an integer", typeName(atType),
                                                            shown(columnString(statement, kAt))));

    struct TextColumn {
        int column;
        std::string_view name;
        std::string* value;
    };
    for (const TextColumn& text :
         {TextColumn{kActor, "actor", &record.actor}, TextColumn{kOperation, "operation", &record.operation},
          TextColumn{kSubject, "subject", &record.subject}, TextColumn{kDetails, "details", &record.details}}) {
        const int type = sqlite3_column_type(statement, text.column);
        *text.value = columnString(statement, text.column);
        if (type == SQLITE_NULL)
            wrong.push_back(fmt::format("{} is NULL", text.name));
        else if (type != SQLITE_TEXT && type != SQLITE_BLOB)
            wrong.push_back(fmt::format("{} is {} ({}), not text", text.name, typeName(type), shown(*text.value)));
    }

    for (const TextColumn& hash :
         {TextColumn{kPrevHash, "prev_hash", &record.prevHash}, TextColumn{kHash, "hash", &record.hash}}) {
        const int type = sqlite3_column_type(statement, hash.column);
        *hash.value = columnString(statement, hash.column);
        if (type == SQLITE_NULL)
            wrong.push_back(fmt::format("{} is NULL", hash.name));
        else if (type != SQLITE_TEXT || !isSha256Hex(*hash.value))
            wrong.push_back(
                fmt::format("{} {} is not a SHA-256 (64 lower-case hex digits)", hash.name, shown(*hash.value)));
    }

    // NULL for an entry written before the store had a key.
    const int macType = sqlite3_column_type(statement, kMac);
    if (macType != SQLITE_NULL) {
        record.mac = columnString(statement, kMac);
        if (macType != SQLITE_TEXT || !isSha256Hex(record.mac))
            wrong.push_back(fmt::format("mac {} is not a MAC (64 lower-case hex digits)", shown(record.mac)));
    }

    if (!wrong.empty()) {
        record.problem = fmt::format("entry {}: ", record.seq);
        for (std::size_t i = 0; i < wrong.size(); ++i)
            record.problem += (i == 0 ? "" : "; ") + wrong[i];
    }
    return record;
}

Result<std::optional<Head>> readHead(const Db& db)
{
    auto statement = db.prepare("SELECT seq, hash, typeof(seq), typeof(hash), key_id, typeof(key_id), mac, "
                                "typeof(mac) FROM log_heads WHERE log = ?1");
    if (!statement)
        return std::unexpected(statement.error());
    sqlite3_stmt* s = statement->get();
    if (bindString(s, 1, kHeadName) != SQLITE_OK)
        return db.error("cannot read the audit log's head");
    const int rc = sqlite3_step(s);
    if (rc == SQLITE_DONE)
        return std::optional<Head>{};
    if (rc != SQLITE_ROW)
        return db.error("cannot read the audit log's head");
    Head head{sqlite3_column_int64(s, 0), columnString(s, 1), columnString(s, 4), columnString(s, 6)};
    const auto nullOr = [s](int typeColumn, std::string_view type) {
        const std::string actual = columnString(s, typeColumn);
        return actual == "null" || actual == type;
    };
    if (columnString(s, 2) != "integer" || columnString(s, 3) != "text" || !isSha256Hex(head.hash) || head.seq < 0
        || !nullOr(5, "text") || !nullOr(7, "text") || (!head.keyId.empty() && !isAuditKeyId(head.keyId))
        || (!head.mac.empty() && !isSha256Hex(head.mac)))
        return std::optional<Head>{};
    return std::optional<Head>(std::move(head));
}

std::string headWhere(const Db& db)
{
    return fmt::format("store {}: the audit log", db.path().string());
}

ReadSnapshot::~ReadSnapshot()
{
    if (m_own)
        sqlite3_exec(m_db.handle(), "COMMIT", nullptr, nullptr, nullptr);
}

Result<void> ReadSnapshot::begin()
{
    if (sqlite3_get_autocommit(m_db.handle()) == 0)
        return {};
    auto ok = m_db.exec("BEGIN", "cannot start a read transaction");
    m_own = ok.has_value();
    return ok;
}

} // namespace sb::audit_rows
