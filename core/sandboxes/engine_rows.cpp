// The engine's rows: operations with their audit entries, sandboxes, checkpoints and their graph.

#include "engine_internal.h"

#include "store/audit.h"
#include "util/ascii.h"

#include <nlohmann/json.hpp>

#include <deque>

namespace sb {

using namespace engine;

Result<void> SandboxEngine::Impl::commit(sqlite::Transaction& transaction, const Operation& operation)
{
    return commit(transaction, std::vector<Operation>{operation});
}

Result<void> SandboxEngine::Impl::commit(sqlite::Transaction& transaction, const std::vector<Operation>& operations)
{
    // Every operation lands in the audit log, in its own transaction: both commit, or neither. Each is also
    // activity in its sandbox (what idle detection measures from).
    auto touch = db.prepare("UPDATE sandboxes SET last_activity_ms = max(coalesce(last_activity_ms, 0), ?1) "
                            "WHERE name = ?2");
    if (!touch)
        return errorOf(touch);
    for (const Operation& operation : operations) {
        sqlite3_reset(touch->get());
        sqlite::Binder bindTouch(touch->get());
        bindTouch.integer(1, operation.atMs).text(2, operation.sandbox);
        if (!bindTouch.ok() || sqlite3_step(touch->get()) != SQLITE_DONE)
            return db.error("cannot record a sandbox's activity");
        nlohmann::json details =
            nlohmann::json::parse(operation.details.empty() ? "{}" : operation.details, nullptr, false);
        if (!details.is_object())
            details = nlohmann::json{{"details", operation.details}};
        if (!operation.checkpoint.empty())
            details["checkpoint"] = operation.checkpoint;
        AuditEntry entry(operation.action, operation.sandbox, std::move(details));
        entry.actor = operation.actor;
        entry.atMs = operation.atMs;
        if (auto audited = appendAudit(db, entry); !audited)
            return std::unexpected(audited.error());
        if (observer) {
            if (auto ok = observer->committing(db, operation); !ok)
                return ok;
        }
    }
    if (auto ok = transaction.commit(); !ok)
        return ok;
    if (observer) {
        for (const Operation& operation : operations)
            observer->committed(operation);
    }
    return {};
}

SandboxRow SandboxEngine::Impl::readSandbox(sqlite3_stmt* s) const
{
    SandboxRow row;
    row.id = sqlite3_column_int64(s, 0);
    row.info.name = sqlite::columnString(s, 1);
    row.info.owner = sqlite::columnString(s, 2);
    row.info.createdAtMs = sqlite3_column_int64(s, 3);
    if (sqlite3_column_type(s, 4) != SQLITE_NULL)
        row.info.expiresAtMs = sqlite3_column_int64(s, 4);
    row.info.origin = sqlite::columnString(s, 5);
    row.info.includes = patternsFromJson(sqlite::columnString(s, 6)).value_or(std::vector<std::string>{});
    row.info.excludes = patternsFromJson(sqlite::columnString(s, 7)).value_or(std::vector<std::string>{});
    if (sqlite3_column_type(s, 8) != SQLITE_NULL)
        row.headRow = sqlite3_column_int64(s, 8);
    row.info.head = sqlite::columnString(s, 9);
    row.info.checkpoints = sqlite3_column_int64(s, 10);
    row.info.files = static_cast<std::uint64_t>(sqlite3_column_int64(s, 11));
    row.info.bytes = static_cast<std::uint64_t>(sqlite3_column_int64(s, 12));
    if (sqlite3_column_type(s, 13) != SQLITE_NULL)
        row.info.quotaBytes = static_cast<std::uint64_t>(sqlite3_column_int64(s, 13));
    if (sqlite3_column_type(s, 14) != SQLITE_NULL)
        row.info.idleTimeoutMs = sqlite3_column_int64(s, 14);
    row.info.lastActivityMs = sqlite3_column_int64(s, 15);
    row.info.archived = sqlite::columnString(s, 16) == "archived";
    row.info.policy = sqlite::columnString(s, 17);
    row.info.datasets = datasetsFromJson(nlohmann::json::parse(sqlite::columnString(s, 18), nullptr, false));
    row.info.workspace = workspaceOf(row.info.name);
    return row;
}

Result<std::vector<SandboxRow>> SandboxEngine::Impl::sandboxRows(std::optional<std::string_view> name,
                                                                  CheckpointCount count)
{
    const std::string_view select = count == CheckpointCount::Counted ? kSandboxSelect : kSandboxSelectUncounted;
    auto statement = db.prepare(fmt::format("{} {} ORDER BY s.name", select, name ? "WHERE s.name = ?1" : ""));
    if (!statement)
        return errorOf(statement);
    if (name && sqlite::bindString(statement->get(), 1, *name) != SQLITE_OK)
        return db.error("cannot look up a sandbox");
    std::vector<SandboxRow> rows;
    int rc = 0;
    while ((rc = sqlite3_step(statement->get())) == SQLITE_ROW)
        rows.push_back(readSandbox(statement->get()));
    if (rc != SQLITE_DONE)
        return db.error("cannot read sandboxes");
    return rows;
}

Result<std::optional<SandboxRow>> SandboxEngine::Impl::findSandbox(std::string_view name, CheckpointCount count)
{
    auto rows = sandboxRows(name, count);
    if (!rows)
        return errorOf(rows);
    if (rows->empty())
        return std::optional<SandboxRow>{};
    return std::optional<SandboxRow>(std::move(rows->front()));
}

Result<SandboxRow> SandboxEngine::Impl::requireSandbox(std::string_view name, CheckpointCount count)
{
    if (name == kMain)
        return ensureMain();
    if (auto ok = validateName(name); !ok)
        return errorOf(ok);
    auto row = findSandbox(name, count);
    if (!row)
        return errorOf(row);
    if (!*row)
        return fail(fmt::format("no sandbox named '{}'", name));
    return std::move(**row);
}

Result<std::vector<std::string>> SandboxEngine::Impl::parentIds(std::int64_t row)
{
    auto statement = db.prepare("SELECT p.checkpoint_id FROM checkpoint_parents AS cp JOIN checkpoints AS p "
                                "ON p.id = cp.parent_id WHERE cp.child_id = ?1 ORDER BY cp.seq");
    if (!statement)
        return errorOf(statement);
    sqlite3_bind_int64(statement->get(), 1, row);
    std::vector<std::string> ids;
    int rc = 0;
    while ((rc = sqlite3_step(statement->get())) == SQLITE_ROW)
        ids.push_back(sqlite::columnString(statement->get(), 0));
    if (rc != SQLITE_DONE)
        return db.error("cannot read a checkpoint's parents");
    return ids;
}

Result<std::vector<CheckpointRow>> SandboxEngine::Impl::checkpointRows(std::string_view where,
                                                                       const std::function<void(sqlite3_stmt*)>& bind)
{
    auto statement = db.prepare(fmt::format("{} {}", kCheckpointSelect, where));
    if (!statement)
        return errorOf(statement);
    sqlite3_stmt* s = statement->get();
    if (bind)
        bind(s);
    std::vector<CheckpointRow> rows;
    int rc = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
        CheckpointRow row;
        row.id = sqlite3_column_int64(s, 0);
        if (sqlite3_column_type(s, 1) != SQLITE_NULL)
            row.sandboxId = sqlite3_column_int64(s, 1);
        row.info.id = sqlite::columnString(s, 2);
        row.info.sandbox = sqlite::columnString(s, 3);
        row.info.tree = hashFromColumn(s, 4);
        row.info.kind = sqlite::columnString(s, 5);
        row.info.label = sqlite::columnString(s, 6);
        row.info.message = sqlite::columnString(s, 7);
        row.info.author = sqlite::columnString(s, 8);
        row.info.createdAtMs = sqlite3_column_int64(s, 9);
        row.info.source = sqlite::columnString(s, 10);
        row.info.files = static_cast<std::uint64_t>(sqlite3_column_int64(s, 11));
        row.info.bytes = static_cast<std::uint64_t>(sqlite3_column_int64(s, 12));
        row.meta = sqlite::columnString(s, 13);
        readMeta(row.meta, row.info.policy, row.info.datasets);
        rows.push_back(std::move(row));
    }
    if (rc != SQLITE_DONE)
        return db.error("cannot read checkpoints");
    for (auto& row : rows) {
        auto parents = parentIds(row.id);
        if (!parents)
            return errorOf(parents);
        row.info.parents = std::move(*parents);
    }
    return rows;
}

Result<CheckpointRow> SandboxEngine::Impl::checkpointByRow(std::int64_t id)
{
    auto rows = checkpointRows("WHERE c.id = ?1", [&](sqlite3_stmt* s) { sqlite3_bind_int64(s, 1, id); });
    if (!rows)
        return errorOf(rows);
    if (rows->empty())
        return fail(fmt::format("store {}: checkpoint row {} is missing", db.path().string(), id));
    return std::move(rows->front());
}

Result<CheckpointRow> SandboxEngine::Impl::resolveCheckpoint(std::string_view text)
{
    const std::string prefix = asciiLower(text);
    if (!isHexPrefix(prefix) || prefix.size() < 4)
        return fail(fmt::format("'{}' is not a checkpoint id (at least 4 of its hex digits)", text));
    const std::string upper = prefix + "g"; // 'g' sorts after every hex digit
    auto rows = checkpointRows("WHERE c.checkpoint_id >= ?1 AND c.checkpoint_id < ?2 ORDER BY c.checkpoint_id LIMIT 6",
                               [&](sqlite3_stmt* s) {
                                   sqlite::bindString(s, 1, prefix);
                                   sqlite::bindString(s, 2, upper);
                               });
    if (!rows)
        return errorOf(rows);
    if (rows->empty())
        return fail(fmt::format("no checkpoint '{}'", text));
    if (rows->size() > 1) {
        std::string candidates;
        for (const auto& row : *rows)
            candidates += (candidates.empty() ? "" : ", ") + row.info.id.substr(0, 16);
        return fail(fmt::format("checkpoint '{}' is ambiguous: it starts {}", text, candidates));
    }
    return std::move(rows->front());
}

Result<std::optional<std::int64_t>> SandboxEngine::Impl::checkpointRowOf(const std::string& id)
{
    auto statement = db.prepare("SELECT id FROM checkpoints WHERE checkpoint_id = ?1");
    if (!statement)
        return errorOf(statement);
    sqlite::bindString(statement->get(), 1, id);
    const int rc = sqlite3_step(statement->get());
    if (rc == SQLITE_ROW)
        return std::optional<std::int64_t>(sqlite3_column_int64(statement->get(), 0));
    if (rc != SQLITE_DONE)
        return db.error("cannot look up a checkpoint");
    return std::optional<std::int64_t>{};
}

// Inserts the checkpoint (in the caller's transaction) under `id`; parents must exist, a source that is gone
// is left out.
Result<CheckpointRow> SandboxEngine::Impl::insertCheckpoint(const NewCheckpoint& c, const std::string& id)
{
    std::optional<std::int64_t> source;
    if (!c.source.empty()) {
        auto found = checkpointRowOf(c.source);
        if (!found)
            return errorOf(found);
        source = *found;
    }
    auto insert = db.prepare(
        "INSERT INTO checkpoints (checkpoint_id, sandbox_id, sandbox_name, tree, kind, label, message, author, "
        "created_at_ms, source_id, files, bytes, meta) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)");
    if (!insert)
        return errorOf(insert);
    sqlite::Binder bind(insert->get());
    bind.text(1, id)
        .integer(2, c.sandboxId)
        .text(3, c.sandboxName)
        .blob(4, asChars(c.tree))
        .text(5, c.kind)
        .text(6, c.label)
        .text(7, c.message)
        .text(8, c.author)
        .integer(9, c.createdAtMs)
        .integer(11, static_cast<std::int64_t>(c.files))
        .integer(12, static_cast<std::int64_t>(c.bytes))
        .text(13, c.meta);
    if (source)
        bind.integer(10, *source);
    else
        bind.null(10);
    if (!bind.ok() || sqlite3_step(insert->get()) != SQLITE_DONE)
        return db.error("cannot record a checkpoint");
    const std::int64_t row = db.lastInsertId();
    auto link = db.prepare("INSERT INTO checkpoint_parents (child_id, seq, parent_id) VALUES (?1, ?2, ?3)");
    if (!link)
        return errorOf(link);
    for (std::size_t seq = 0; seq < c.parents.size(); ++seq) {
        auto parent = checkpointRowOf(c.parents[seq]);
        if (!parent)
            return errorOf(parent);
        if (!*parent)
            return fail(fmt::format("checkpoint {} is gone; cannot record a child of it", c.parents[seq]));
        sqlite3_reset(link->get());
        sqlite3_bind_int64(link->get(), 1, row);
        sqlite3_bind_int64(link->get(), 2, static_cast<std::int64_t>(seq));
        sqlite3_bind_int64(link->get(), 3, **parent);
        if (sqlite3_step(link->get()) != SQLITE_DONE)
            return db.error("cannot record a checkpoint's parent");
    }
    CheckpointRow out;
    out.id = row;
    out.sandboxId = c.sandboxId;
    out.info = CheckpointInfo{id,       c.sandboxName, c.parents, c.kind, c.label, c.message,
                              c.author, c.createdAtMs, c.source,  c.tree, c.files, c.bytes, {}, {}};
    out.meta = c.meta;
    readMeta(c.meta, out.info.policy, out.info.datasets);
    return out;
}

// A fresh id for `c`: its time moves on by a millisecond should the id exist already.
Result<std::string> SandboxEngine::Impl::freshId(NewCheckpoint& c)
{
    for (int attempt = 0; attempt < 1000; ++attempt) {
        const std::string id = checkpointIdOf(c);
        auto existing = checkpointRowOf(id);
        if (!existing)
            return errorOf(existing);
        if (!*existing)
            return id;
        ++c.createdAtMs;
    }
    return fail("cannot find a free checkpoint id");
}

Result<CheckpointRow> SandboxEngine::Impl::addCheckpoint(NewCheckpoint c)
{
    auto id = freshId(c);
    if (!id)
        return errorOf(id);
    return insertCheckpoint(c, *id);
}

Result<void> SandboxEngine::Impl::setHead(std::int64_t sandboxId, std::int64_t checkpointRow)
{
    auto update = db.prepare("UPDATE sandboxes SET head_id = ?1 WHERE id = ?2");
    if (!update)
        return errorOf(update);
    sqlite3_bind_int64(update->get(), 1, checkpointRow);
    sqlite3_bind_int64(update->get(), 2, sandboxId);
    if (sqlite3_step(update->get()) != SQLITE_DONE)
        return db.error("cannot move a sandbox's head");
    return {};
}

// Writes listings the store does not hold yet (in the caller's transaction).
Result<void> SandboxEngine::Impl::storeListings(const TreeReader::Listings& listings)
{
    for (const auto& [hash, bytes] : listings) {
        if (auto added = blobs.put(hash, BlobKind::Tree, bytes); !added)
            return errorOf(added);
    }
    return {};
}

Result<std::int64_t>
SandboxEngine::Impl::insertSandbox(const std::string& name, const std::string& owner, std::int64_t createdAtMs,
                                   std::optional<std::int64_t> expiresAtMs, const std::string& origin,
                                   const std::vector<std::string>& includes, const std::vector<std::string>& excludes)
{
    auto insert = db.prepare("INSERT INTO sandboxes (name, owner, created_at_ms, expires_at_ms, origin, includes, "
                             "excludes) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    if (!insert)
        return errorOf(insert);
    const std::string includesJson = jsonText(includes);
    const std::string excludesJson = jsonText(excludes);
    sqlite::Binder bind(insert->get());
    bind.text(1, name)
        .text(2, owner)
        .integer(3, createdAtMs)
        .text(5, origin)
        .text(6, includesJson)
        .text(7, excludesJson);
    if (expiresAtMs)
        bind.integer(4, *expiresAtMs);
    else
        bind.null(4);
    if (!bind.ok() || sqlite3_step(insert->get()) != SQLITE_DONE)
        return db.error(fmt::format("cannot record sandbox '{}'", name));
    return db.lastInsertId();
}

Result<std::optional<CheckpointRow>> SandboxEngine::Impl::commonAncestor(std::int64_t a, std::int64_t b)
{
    // Breadth-first from both sides by generations; the first checkpoint both reach, nearest to `a`.
    auto ancestors = [&](std::int64_t start) -> Result<std::map<std::int64_t, int>> {
        std::map<std::int64_t, int> distance{{start, 0}};
        std::deque<std::int64_t> queue{start};
        auto parents = db.prepare("SELECT parent_id FROM checkpoint_parents WHERE child_id = ?1");
        if (!parents)
            return errorOf(parents);
        while (!queue.empty()) {
            const std::int64_t id = queue.front();
            queue.pop_front();
            sqlite3_reset(parents->get());
            sqlite3_bind_int64(parents->get(), 1, id);
            while (sqlite3_step(parents->get()) == SQLITE_ROW) {
                const std::int64_t parent = sqlite3_column_int64(parents->get(), 0);
                if (distance.try_emplace(parent, distance[id] + 1).second)
                    queue.push_back(parent);
            }
        }
        return distance;
    };
    auto fromLeft = ancestors(a);
    if (!fromLeft)
        return errorOf(fromLeft);
    auto fromRight = ancestors(b);
    if (!fromRight)
        return errorOf(fromRight);
    std::optional<std::int64_t> best;
    int bestDistance = 0;
    for (const auto& [id, distance] : *fromLeft) {
        auto other = fromRight->find(id);
        if (other == fromRight->end())
            continue;
        const int total = distance + other->second;
        if (!best || total < bestDistance) {
            best = id;
            bestDistance = total;
        }
    }
    if (!best)
        return std::optional<CheckpointRow>{};
    auto row = checkpointByRow(*best);
    if (!row)
        return errorOf(row);
    return std::optional<CheckpointRow>(std::move(*row));
}

} // namespace sb
