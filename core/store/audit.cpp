#include "store/audit.h"

#include "store/sqlite_db.h"
#include "store/store.h"
#include "util/hash.h"
#include "util/printable.h"
#include "util/time_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <pwd.h>
#include <unistd.h>
#include <vector>

namespace sb {

namespace {

using sqlite::Binder;
using sqlite::bindString;
using sqlite::columnString;
using sqlite::Db;
using sqlite::Transaction;

// The log's row in log_heads (schema: store.cpp, kSchemaV3).
constexpr std::string_view kHeadName = "audit";

constexpr std::string_view kEntryColumns = "seq, at_ms, actor, operation, subject, details, prev_hash, hash";
enum EntryColumn : int { kSeq, kAt, kActor, kOperation, kSubject, kDetails, kPrevHash, kHash };

// A value from the file, fit for a message on a terminal.
std::string shown(std::string_view value)
{
    return "'" + printable(value, 40) + "'";
}

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

bool isSha256Hex(std::string_view text)
{
    return text.size() == 64 && std::all_of(text.begin(), text.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

// Reads one row of kEntryColumns. A row that Sandbench cannot have written (a hand edit) is read as far as
// it goes and `problem` says what is wrong, naming the entry.
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

    if (!wrong.empty()) {
        record.problem = fmt::format("entry {}: ", record.seq);
        for (std::size_t i = 0; i < wrong.size(); ++i)
            record.problem += (i == 0 ? "" : "; ") + wrong[i];
    }
    return record;
}

struct Head {
    std::int64_t seq = 0;
    std::string hash;
};

// The head record; nullopt when it is missing or damaged (a hand edit).
Result<std::optional<Head>> readHead(const Db& db)
{
    auto statement = db.prepare("SELECT seq, hash, typeof(seq), typeof(hash) FROM log_heads WHERE log = ?1");
    if (!statement)
        return std::unexpected(statement.error());
    if (bindString(statement->get(), 1, kHeadName) != SQLITE_OK)
        return db.error("cannot read the audit log's head");
    const int rc = sqlite3_step(statement->get());
    if (rc == SQLITE_DONE)
        return std::optional<Head>{};
    if (rc != SQLITE_ROW)
        return db.error("cannot read the audit log's head");
    Head head{sqlite3_column_int64(statement->get(), 0), columnString(statement->get(), 1)};
    if (columnString(statement->get(), 2) != "integer" || columnString(statement->get(), 3) != "text"
        || !isSha256Hex(head.hash) || head.seq < 0)
        return std::optional<Head>{};
    return std::optional<Head>(std::move(head));
}

std::string headWhere(const Db& db)
{
    return fmt::format("store {}: the audit log", db.path().string());
}

// A read transaction when the connection has none yet, so a long read sees one state of the file.
class ReadSnapshot {
public:
    explicit ReadSnapshot(const Db& db) : m_db(db) {}
    ReadSnapshot(const ReadSnapshot&) = delete;
    ReadSnapshot& operator=(const ReadSnapshot&) = delete;
    ~ReadSnapshot()
    {
        if (m_own)
            sqlite3_exec(m_db.handle(), "COMMIT", nullptr, nullptr, nullptr);
    }
    Result<void> begin()
    {
        if (sqlite3_get_autocommit(m_db.handle()) == 0)
            return {};
        auto ok = m_db.exec("BEGIN", "cannot start a read transaction");
        m_own = ok.has_value();
        return ok;
    }

private:
    const Db& m_db;
    bool m_own = false;
};

// No exception crosses the public API: nlohmann and the allocator may throw.
template <typename Function>
auto guarded(const Db& db, std::string_view what, Function&& function) -> decltype(function())
{
    try {
        return function();
    } catch (const std::exception& e) {
        return fail(fmt::format("store {}: {} failed: {}", db.path().string(), what, e.what()));
    } catch (...) {
        return fail(fmt::format("store {}: {} failed", db.path().string(), what));
    }
}

} // namespace

bool isValidAuditOperation(std::string_view operation)
{
    if (operation.empty() || operation.size() > 64 || operation.front() < 'a' || operation.front() > 'z')
        return false;
    return std::all_of(operation.begin(), operation.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    });
}

std::string_view toString(AuditDamage damage)
{
    switch (damage) {
    case AuditDamage::Malformed: return "malformed";
    case AuditDamage::Altered: return "altered";
    case AuditDamage::Removed: return "removed";
    case AuditDamage::Inserted: return "inserted";
    case AuditDamage::Truncated: return "truncated";
    case AuditDamage::Unrecorded: return "unrecorded";
    case AuditDamage::HeadMissing: return "head_missing";
    case AuditDamage::AnchorMissing: return "anchor_missing";
    }
    return "altered";
}

std::string auditDetailsLine(std::string_view detailsJson, std::size_t maxChars)
{
    constexpr std::size_t kShortHash = 12; // enough to tell hashes apart by eye
    const auto details = nlohmann::json::parse(detailsJson, nullptr, /*allow_exceptions=*/false);
    if (!details.is_object())
        return printable(detailsJson, maxChars);
    std::string line;
    for (const auto& [key, value] : details.items()) {
        std::string text = value.is_string() ? value.get<std::string>()
                                             : value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        if (text.empty())
            continue; // "label=" says nothing
        if (isSha256Hex(text))
            text.resize(kShortHash);
        line += (line.empty() ? "" : " ") + key + "=" + text;
    }
    return printable(line, maxChars);
}

std::string currentAuditActor()
{
    const uid_t uid = ::getuid();
    // Reentrant lookup: the GUI's worker threads may call this while others use getpw*.
    const long size = ::sysconf(_SC_GETPW_R_SIZE_MAX);
    std::vector<char> buffer(static_cast<std::size_t>(size > 0 ? size : 16384));
    passwd entry{};
    passwd* found = nullptr;
    if (::getpwuid_r(uid, &entry, buffer.data(), buffer.size(), &found) == 0 && found && found->pw_name
        && *found->pw_name)
        return found->pw_name;
    return fmt::format("uid {}", uid);
}

std::string auditHashInput(const AuditRecord& record)
{
    std::string input = fmt::format("sandbench-audit-v1\n{}\n{}\n", record.seq, record.atMs);
    for (const std::string* field : {&record.actor, &record.operation, &record.subject, &record.details}) {
        input += fmt::format("{}:", field->size());
        input += *field;
        input += '\n';
    }
    input += record.prevHash;
    input += '\n';
    return input;
}

Result<std::string> auditHash(const AuditRecord& record)
{
    return sha256Hex(auditHashInput(record));
}

Result<AuditRecord> appendAudit(Store& store, const AuditEntry& entry)
{
    auto db = sqlite::connectionOf(store);
    if (!db)
        return std::unexpected(db.error());
    return appendAudit(*db, entry);
}

Result<AuditRecord> appendAudit(const Db& db, const AuditEntry& entry)
{
    return guarded(db, "appending to the audit log", [&]() -> Result<AuditRecord> {
        if (!isValidAuditOperation(entry.operation))
            return fail(fmt::format("store {}: audit: {} is not an operation name (lower-case letters, digits, "
                                    "'.', '_', '-')",
                                    db.path().string(), shown(entry.operation)));
        if (!entry.details.is_null() && !entry.details.is_object())
            return fail(fmt::format("store {}: audit: the details of {} must be a JSON object", db.path().string(),
                                    entry.operation));

        AuditRecord record;
        record.atMs = entry.atMs != 0 ? entry.atMs : nowEpochMs();
        record.actor = entry.actor.empty() ? currentAuditActor() : entry.actor;
        record.operation = entry.operation;
        record.subject = entry.subject;
        // nlohmann's objects keep their keys sorted, so equal details are equal text.
        record.details = entry.details.is_null()
                             ? std::string("{}")
                             : entry.details.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);

        Transaction transaction(db);
        if (auto ok = transaction.beginOrNest(); !ok)
            return std::unexpected(ok.error());

        auto head = readHead(db);
        if (!head)
            return std::unexpected(head.error());
        if (!*head)
            return fail(fmt::format("{}'s head record is missing or damaged (the file was edited outside "
                                    "Sandbench); nothing more is recorded until it is looked into: run "
                                    "sandbench audit verify",
                                    headWhere(db)));
        auto last = db.prepare("SELECT max(seq) FROM audit_log");
        if (!last)
            return std::unexpected(last.error());
        if (sqlite3_step(last->get()) != SQLITE_ROW)
            return db.error("cannot read the audit log");
        const std::int64_t lastSeq = sqlite3_column_int64(last->get(), 0);
        if (lastSeq > (*head)->seq)
            return fail(fmt::format("{} has entries after its recorded head (entry {} is the last, the head "
                                    "records {}): they were added outside Sandbench; run sandbench audit verify",
                                    headWhere(db), lastSeq, (*head)->seq));

        record.seq = (*head)->seq + 1;
        record.prevHash = (*head)->hash;
        auto hash = auditHash(record);
        if (!hash)
            return fail(fmt::format("store {}: audit: {}", db.path().string(), hash.error().message));
        record.hash = std::move(*hash);

        auto insert = db.prepare(
            fmt::format("INSERT INTO audit_log ({}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", kEntryColumns));
        if (!insert)
            return std::unexpected(insert.error());
        Binder row(insert->get());
        row.integer(1, record.seq)
            .integer(2, record.atMs)
            .text(3, record.actor)
            .text(4, record.operation)
            .text(5, record.subject)
            .text(6, record.details)
            .text(7, record.prevHash)
            .text(8, record.hash);
        if (!row.ok() || sqlite3_step(insert->get()) != SQLITE_DONE)
            return db.error(fmt::format("cannot append audit entry {} ({})", record.seq, record.operation));

        auto update = db.prepare("UPDATE log_heads SET seq = ?1, hash = ?2 WHERE log = ?3");
        if (!update)
            return std::unexpected(update.error());
        Binder moved(update->get());
        moved.integer(1, record.seq).text(2, record.hash).text(3, kHeadName);
        if (!moved.ok() || sqlite3_step(update->get()) != SQLITE_DONE || sqlite3_changes(db.handle()) != 1)
            return db.error("cannot move the audit log's head");

        if (auto ok = transaction.commit(); !ok)
            return std::unexpected(ok.error());
        return record;
    });
}

Result<std::vector<AuditRecord>> listAudit(const Store& store, const AuditFilter& filter)
{
    auto db = sqlite::connectionOf(store);
    if (!db)
        return std::unexpected(db.error());
    return guarded(*db, "listing the audit log", [&]() -> Result<std::vector<AuditRecord>> {
        // Newest first so LIMIT keeps the most recent matches; turned back into log order below. No LIKE:
        // a filter's % or _ must mean themselves.
        auto statement = db->prepare(fmt::format(
            "SELECT {} FROM audit_log WHERE "
            "(?1 IS NULL OR operation = ?1 OR substr(operation, 1, length(?1) + 1) = ?1 || '.') "
            "AND (?2 IS NULL OR actor = ?2) "
            "AND (?3 IS NULL OR subject = ?3) "
            "AND (?4 IS NULL OR at_ms >= ?4) "
            "AND (?5 IS NULL OR at_ms <= ?5) "
            "AND (?6 IS NULL OR instr(lower(coalesce(actor, '') || char(10) || coalesce(operation, '') || char(10) "
            "|| coalesce(subject, '') || char(10) || coalesce(details, '')), lower(?6)) > 0) "
            "ORDER BY seq DESC LIMIT ?7",
            kEntryColumns));
        if (!statement)
            return std::unexpected(statement.error());
        sqlite3_stmt* s = statement->get();
        Binder bind(s);
        if (!filter.operation.empty())
            bind.text(1, filter.operation);
        if (!filter.actor.empty())
            bind.text(2, filter.actor);
        if (!filter.subject.empty())
            bind.text(3, filter.subject);
        if (filter.sinceMs)
            bind.integer(4, *filter.sinceMs);
        if (filter.untilMs)
            bind.integer(5, *filter.untilMs);
        if (!filter.text.empty())
            bind.text(6, filter.text);
        bind.integer(7, filter.limit > 0 ? filter.limit : -1);
        if (!bind.ok())
            return db->error("cannot list the audit log");

        std::vector<AuditRecord> records;
        int rc = 0;
        while ((rc = sqlite3_step(s)) == SQLITE_ROW)
            records.push_back(readRecord(s));
        if (rc != SQLITE_DONE)
            return db->error("cannot list the audit log");
        std::reverse(records.begin(), records.end());
        return records;
    });
}

Result<AuditFacets> auditFacets(const Store& store)
{
    auto db = sqlite::connectionOf(store);
    if (!db)
        return std::unexpected(db.error());
    return guarded(*db, "reading the audit log", [&]() -> Result<AuditFacets> {
        AuditFacets facets;
        for (auto [column, values] : {std::pair{std::string_view("operation"), &facets.operations},
                                      std::pair{std::string_view("actor"), &facets.actors}}) {
            auto statement = db->prepare(
                fmt::format("SELECT DISTINCT {0} FROM audit_log WHERE {0} IS NOT NULL ORDER BY {0}", column));
            if (!statement)
                return std::unexpected(statement.error());
            int rc = 0;
            while ((rc = sqlite3_step(statement->get())) == SQLITE_ROW)
                values->push_back(columnString(statement->get(), 0));
            if (rc != SQLITE_DONE)
                return db->error("cannot read the audit log");
            // TEXT and BLOB (or a number edited in) may spell the same value twice.
            std::sort(values->begin(), values->end());
            values->erase(std::unique(values->begin(), values->end()), values->end());
        }
        return facets;
    });
}

Result<AuditVerification> verifyAudit(const Store& store, const AuditVerifyOptions& options)
{
    auto connection = sqlite::connectionOf(store);
    if (!connection)
        return std::unexpected(connection.error());
    const Db& db = *connection;
    if (!options.anchor.empty() && !isSha256Hex(options.anchor))
        return fail(fmt::format("anchor {} is not a SHA-256 (64 lower-case hex digits)", shown(options.anchor)));

    return guarded(db, "verifying the audit log", [&]() -> Result<AuditVerification> {
        ReadSnapshot snapshot(db);
        if (auto ok = snapshot.begin(); !ok)
            return std::unexpected(ok.error());

        std::int64_t total = 0;
        if (auto count = db.prepare("SELECT max(seq) FROM audit_log"); !count) {
            return std::unexpected(count.error());
        } else if (sqlite3_step(count->get()) == SQLITE_ROW) {
            total = std::max<std::int64_t>(0, sqlite3_column_int64(count->get(), 0));
        }

        auto statement = db.prepare(fmt::format("SELECT {} FROM audit_log ORDER BY seq", kEntryColumns));
        if (!statement)
            return std::unexpected(statement.error());

        AuditVerification result;
        auto broken = [&result](AuditDamage damage, std::int64_t seq, std::string message) {
            result.broken = AuditBreak{damage, seq, std::move(message)};
            return result;
        };
        Sha256 hasher;
        std::int64_t previousSeq = 0;
        std::string previousHash(kAuditGenesisHash);
        bool anchorFound = options.anchor.empty();
        int rc = 0;
        while ((rc = sqlite3_step(statement->get())) == SQLITE_ROW) {
            if (options.cancel && result.entries % 256 == 0 && options.cancel->load()) {
                result.cancelled = true;
                return result;
            }
            if (options.progress && result.entries % 1024 == 0)
                options.progress(result.entries, total);

            const AuditRecord record = readRecord(statement->get());
            ++result.entries;
            if (record.seq < 1)
                return broken(AuditDamage::Inserted, record.seq,
                              fmt::format("entry {} cannot be part of the log (entries are numbered from 1): it "
                                          "was inserted",
                                          record.seq));
            if (record.seq != previousSeq + 1) {
                const std::int64_t first = previousSeq + 1;
                const std::int64_t last = record.seq - 1;
                return broken(AuditDamage::Removed, first,
                              first == last
                                  ? fmt::format("entry {} was removed (the log goes from entry {} to entry {})", first,
                                                previousSeq, record.seq)
                                  : fmt::format("entries {}–{} were removed (the log goes from entry {} to entry {})",
                                                first, last, previousSeq, record.seq));
            }
            if (!record.problem.empty())
                return broken(AuditDamage::Malformed, record.seq, record.problem + " (edited outside Sandbench)");

            hasher.update(auditHashInput(record));
            auto hash = hasher.finishHex();
            if (!hash)
                return fail(
                    fmt::format("store {}: verifying the audit log: {}", db.path().string(), hash.error().message));
            if (*hash != record.hash)
                return broken(AuditDamage::Altered, record.seq,
                              fmt::format("entry {} was altered: its content no longer matches its hash", record.seq));
            if (record.prevHash != previousHash) {
                if (record.seq == 1)
                    return broken(AuditDamage::Altered, 1,
                                  "entry 1 was altered: it does not start the chain (its prev_hash is not the "
                                  "genesis hash)");
                return broken(AuditDamage::Altered, previousSeq,
                              fmt::format("entry {} was altered or replaced (its hash recomputed): entry {} was "
                                          "chained to a different entry {}",
                                          previousSeq, record.seq, previousSeq));
            }
            anchorFound = anchorFound || record.hash == options.anchor;
            previousSeq = record.seq;
            previousHash = record.hash;
            result.headSeq = record.seq;
            result.headHash = record.hash;
        }
        if (rc != SQLITE_DONE)
            return db.error("cannot read the audit log");
        if (options.progress)
            options.progress(result.entries, std::max(total, result.entries));

        auto head = readHead(db);
        if (!head)
            return std::unexpected(head.error());
        if (!*head)
            return broken(AuditDamage::HeadMissing, previousSeq + 1,
                          fmt::format("the log's head record is missing or damaged (log_heads, row '{}'): entries "
                                      "after entry {} may have been removed",
                                      kHeadName, previousSeq));
        const Head& recorded = **head;
        if (recorded.seq > previousSeq) {
            const std::int64_t first = previousSeq + 1;
            const std::string ends = previousSeq == 0 ? std::string("the log is empty")
                                                      : fmt::format("the log ends at entry {}", previousSeq);
            return broken(AuditDamage::Truncated, first,
                          first == recorded.seq
                              ? fmt::format("entry {} was removed from the end: {} but its head records entry {}",
                                            first, ends, recorded.seq)
                              : fmt::format("entries {}–{} were removed from the end: {} but its head records "
                                            "entry {}",
                                            first, recorded.seq, ends, recorded.seq));
        }
        if (recorded.seq < previousSeq)
            return broken(AuditDamage::Unrecorded, recorded.seq + 1,
                          fmt::format("entry {} was added outside Sandbench: the log's head records entry {} as the "
                                      "last",
                                      recorded.seq + 1, recorded.seq));
        if (recorded.hash != previousHash)
            return broken(AuditDamage::Altered, previousSeq,
                          previousSeq == 0
                              ? std::string("the log's head records a hash but the log is empty: entries were removed")
                              : fmt::format("entry {} was altered or replaced (its hash recomputed): the log's head "
                                            "records a different hash for it",
                                            previousSeq));
        if (!anchorFound)
            return broken(AuditDamage::AnchorMissing, 0,
                          fmt::format("no entry has the anchor hash {}: the log was rewritten after the anchor was "
                                      "taken, or the anchor belongs to another store",
                                      options.anchor));
        return result;
    });
}

} // namespace sb
