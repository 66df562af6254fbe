#include "store/audit.h"

#include "store/audit_key.h"
#include "audit_rows.h"
#include "store/sqlite_db.h"
#include "store/store.h"
#include "util/hash.h"
#include "util/printable.h"
#include "util/time_text.h"
#include "util/user_account.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace sb {

namespace {

using namespace audit_rows;
using sqlite::Binder;
using sqlite::columnString;
using sqlite::Db;
using sqlite::Transaction;

// Keys read by this process, by file: a process that records many operations (the window, the demo) reads
// and parses its key once, and then only checks, with one stat, that the file is still the one it read.
Result<std::optional<AuditKey>> cachedKey(const std::filesystem::path& folder, const std::string& id)
{
    struct Cached {
        AuditKey key;
        struct stat file {};
    };
    static std::mutex mutex;
    static std::map<std::string, Cached> keys;
    const std::string file = auditKeyFile(folder, id).string();
    struct stat now {};
    const bool exists = ::stat(file.c_str(), &now) == 0;
    const std::lock_guard lock(mutex);
    if (auto found = keys.find(file); found != keys.end()) {
        const struct stat& then = found->second.file;
        if (exists && then.st_dev == now.st_dev && then.st_ino == now.st_ino && then.st_size == now.st_size
            && then.st_mtim.tv_sec == now.st_mtim.tv_sec && then.st_mtim.tv_nsec == now.st_mtim.tv_nsec)
            return std::optional<AuditKey>(found->second.key);
        keys.erase(found);
    }
    auto key = readAuditKey(folder, id);
    if (key && *key && exists)
        keys.emplace(file, Cached{**key, now});
    return key;
}

// The key the next entry is signed with. The store's own, whose MAC the head must carry (a head moved by
// someone without the key is not built on); or, for a store without one (new, or with entries from before
// keys), a new key, unless the log shows that it had one (signed entries, or a key made for a store here that
// signed entries still in the log): then its key record was removed, and nothing is recorded.
Result<AuditKey> signingKey(const Db& db, const Head& head)
{
    auto folder = auditKeyFolder();
    if (!folder)
        return fail(fmt::format("{}: {}", headWhere(db), folder.error().message));
    if (!head.keyId.empty()) {
        auto key = cachedKey(*folder, head.keyId);
        if (!key)
            return fail(fmt::format("{}: {}", headWhere(db), key.error().message));
        if (!*key)
            return fail(fmt::format("{} is signed with key {}, which is not in {}: nothing is recorded without it "
                                    "(copy {}.key from the machine where the store was made, or set {} to the "
                                    "folder that holds it)",
                                    headWhere(db), head.keyId, folder->string(), head.keyId, kAuditKeysEnv));
        auto mac = auditHeadMac(**key, head.seq, head.hash);
        if (!mac)
            return std::unexpected(mac.error());
        if (head.seq < (*key)->firstSeq || *mac != head.mac)
            return fail(fmt::format("{}'s head (entry {}) is not signed by the store's key: it was moved outside "
                                    "Sandbench; nothing more is recorded until it is looked into: run sandbench "
                                    "audit verify",
                                    headWhere(db), head.seq));
        return std::move(**key);
    }
    if (head.seq > 0) {
        auto signedEntry = db.prepare("SELECT min(seq) FROM audit_log WHERE mac IS NOT NULL");
        if (!signedEntry)
            return std::unexpected(signedEntry.error());
        if (sqlite3_step(signedEntry->get()) != SQLITE_ROW)
            return db.error("cannot read the audit log");
        if (sqlite3_column_type(signedEntry->get(), 0) != SQLITE_NULL)
            return fail(fmt::format("{} has signed entries (from entry {}) but its head names no key: the key "
                                    "record was removed; nothing more is recorded until it is looked into: run "
                                    "sandbench audit verify",
                                    headWhere(db), sqlite3_column_int64(signedEntry->get(), 0)));
        if (const auto former = formerAuditKey(*folder, db.path(), head.seq))
            return fail(fmt::format("{} names no key, but key {} ({}) was made for a store here and signed its entries "
                                    "from entry {} on: the key record was removed, or another store was put in its "
                                    "place; nothing more is recorded until it is looked into: run sandbench audit "
                                    "verify",
                                    headWhere(db), former->id, former->file.string(), former->firstSeq));
    }
    auto made = makeAuditKey(*folder, db.path(), head.seq + 1, head.hash);
    if (!made)
        return fail(fmt::format("{}: {}", headWhere(db), made.error().message));
    return made;
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
    case AuditDamage::Forged: return "forged";
    case AuditDamage::KeyMissing: return "key_missing";
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
    return knownAccountName(uid).value_or(fmt::format("uid {}", uid));
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

        auto key = signingKey(db, **head);
        if (!key)
            return std::unexpected(key.error());

        record.seq = (*head)->seq + 1;
        record.prevHash = (*head)->hash;
        auto hash = auditHash(record);
        if (!hash)
            return fail(fmt::format("store {}: audit: {}", db.path().string(), hash.error().message));
        record.hash = std::move(*hash);
        auto mac = auditEntryMac(*key, record.hash);
        auto headMac = auditHeadMac(*key, record.seq, record.hash);
        if (!mac || !headMac)
            return fail(fmt::format("store {}: audit: cannot sign entry {}", db.path().string(), record.seq));
        record.mac = std::move(*mac);

        auto insert = db.prepare(
            fmt::format("INSERT INTO audit_log ({}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)", kEntryColumns));
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
            .text(8, record.hash)
            .text(9, record.mac);
        if (!row.ok() || sqlite3_step(insert->get()) != SQLITE_DONE)
            return db.error(fmt::format("cannot append audit entry {} ({})", record.seq, record.operation));

        auto update = db.prepare("UPDATE log_heads SET seq = ?1, hash = ?2, key_id = ?3, mac = ?4 WHERE log = ?5");
        if (!update)
            return std::unexpected(update.error());
        Binder moved(update->get());
        moved.integer(1, record.seq).text(2, record.hash).text(3, key->id).text(4, *headMac).text(5, kHeadName);
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
            "AND (?8 IS NULL OR seq < ?8) "
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
        if (filter.beforeSeq)
            bind.integer(8, *filter.beforeSeq);
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

} // namespace sb
