// Removing checkpoints (keeping the graph connected) and collecting the blobs nothing reaches.

#include "engine_internal.h"

#include <fcntl.h>
#include <sys/stat.h>

namespace sb {

using namespace engine;

// Removes checkpoints (in the caller's transaction), keeping the graph connected: a child of a removed
// checkpoint gets the removed one's parents instead.
Result<void> SandboxEngine::Impl::removeCheckpoints(const std::set<std::int64_t>& doomed)
{
    if (doomed.empty())
        return {};
    auto parentsOf = db.prepare("SELECT parent_id FROM checkpoint_parents WHERE child_id = ?1 ORDER BY seq");
    auto childrenOf = db.prepare("SELECT child_id FROM checkpoint_parents WHERE parent_id = ?1");
    auto remove = db.prepare("DELETE FROM checkpoints WHERE id = ?1");
    if (!parentsOf || !childrenOf || !remove)
        return db.error("cannot prepare the removal of checkpoints");
    auto rows = [&](sqlite::Statement& statement, std::int64_t id) -> Result<std::vector<std::int64_t>> {
        sqlite3_reset(statement.get());
        sqlite3_bind_int64(statement.get(), 1, id);
        std::vector<std::int64_t> out;
        int rc = 0;
        while ((rc = sqlite3_step(statement.get())) == SQLITE_ROW)
            out.push_back(sqlite3_column_int64(statement.get(), 0));
        if (rc != SQLITE_DONE)
            return db.error("cannot read the checkpoint graph");
        return out;
    };
    // The nearest ancestors of each doomed checkpoint that survive. A parent is always recorded before its
    // child, so its row id is smaller: in ascending order, every doomed parent is resolved before its children.
    std::map<std::int64_t, std::vector<std::int64_t>> survivingParents;
    auto resolve = [&](std::int64_t id) -> Result<std::vector<std::int64_t>> {
        auto parents = rows(*parentsOf, id);
        if (!parents)
            return parents;
        std::vector<std::int64_t> out;
        auto add = [&](std::int64_t p) {
            if (std::find(out.begin(), out.end(), p) == out.end())
                out.push_back(p);
        };
        for (std::int64_t parent : *parents) {
            if (!doomed.contains(parent)) {
                add(parent);
            } else if (auto it = survivingParents.find(parent); it != survivingParents.end()) {
                for (std::int64_t p : it->second)
                    add(p);
            }
        }
        return out;
    };
    for (std::int64_t id : doomed) { // std::set: ascending
        auto parents = resolve(id);
        if (!parents)
            return errorOf(parents);
        survivingParents[id] = std::move(*parents);
    }
    auto surviving = [&](std::int64_t child) { return resolve(child); };
    // Children outside the doomed set get new parent lists.
    std::set<std::int64_t> affected;
    for (std::int64_t id : doomed) {
        auto children = rows(*childrenOf, id);
        if (!children)
            return errorOf(children);
        for (std::int64_t child : *children) {
            if (!doomed.contains(child))
                affected.insert(child);
        }
    }
    for (std::int64_t child : affected) {
        auto parents = surviving(child);
        if (!parents)
            return errorOf(parents);
        if (auto ok = db.exec(fmt::format("DELETE FROM checkpoint_parents WHERE child_id = {}", child),
                              "cannot relink a checkpoint");
            !ok)
            return ok;
        for (std::size_t seq = 0; seq < parents->size(); ++seq) {
            if (auto ok = db.exec(fmt::format("INSERT INTO checkpoint_parents (child_id, seq, parent_id) VALUES "
                                              "({}, {}, {})",
                                              child, seq, (*parents)[seq]),
                                  "cannot relink a checkpoint");
                !ok)
                return ok;
        }
    }
    for (std::int64_t id : doomed) {
        sqlite3_reset(remove->get());
        sqlite3_bind_int64(remove->get(), 1, id);
        if (sqlite3_step(remove->get()) != SQLITE_DONE)
            return db.error("cannot remove a checkpoint");
    }
    return {};
}

Result<std::set<std::int64_t>> SandboxEngine::Impl::checkpointRowsOfSandbox(std::int64_t sandboxId)
{
    auto statement = db.prepare("SELECT id FROM checkpoints WHERE sandbox_id = ?1");
    if (!statement)
        return errorOf(statement);
    sqlite3_bind_int64(statement->get(), 1, sandboxId);
    std::set<std::int64_t> ids;
    int rc = 0;
    while ((rc = sqlite3_step(statement->get())) == SQLITE_ROW)
        ids.insert(sqlite3_column_int64(statement->get(), 0));
    if (rc != SQLITE_DONE)
        return db.error("cannot list a sandbox's checkpoints");
    return ids;
}

Result<GarbageStats> SandboxEngine::Impl::collect()
{
    auto lock = lockGarbage(FileLock::Mode::Exclusive);
    if (!lock)
        return errorOf(lock);
    sqlite::Transaction transaction(db);
    if (auto ok = transaction.begin(); !ok)
        return errorOf(ok);

    std::unordered_set<ContentHash, ContentHashHasher> live;
    std::vector<ContentHash> roots;
    {
        auto statement = db.prepare("SELECT DISTINCT tree FROM checkpoints");
        if (!statement)
            return errorOf(statement);
        int rc = 0;
        while ((rc = sqlite3_step(statement->get())) == SQLITE_ROW)
            roots.push_back(hashFromColumn(statement->get(), 0));
        if (rc != SQLITE_DONE)
            return db.error("cannot list checkpoint trees");
    }
    {
        // An interrupted restore's plan names a tree that must survive until the journal is settled.
        auto statement = db.prepare("SELECT plan FROM workspace_journal");
        if (!statement)
            return errorOf(statement);
        while (sqlite3_step(statement->get()) == SQLITE_ROW) {
            if (auto plan = newCheckpointFromJson(sqlite::columnString(statement->get(), 0)))
                roots.push_back(plan->first.tree);
        }
    }
    std::vector<ContentHash> pending = roots;
    while (!pending.empty()) {
        const ContentHash tree = pending.back();
        pending.pop_back();
        if (!live.insert(tree).second)
            continue;
        auto bytes = blobs.get(tree);
        if (!bytes)
            return errorOf(bytes);
        auto listing = parseTree(*bytes);
        if (!listing)
            return errorOf(listing);
        for (const auto& entry : listing->entries) {
            if (entry.type == EntryType::Directory) {
                pending.push_back(entry.hash);
            } else if (entry.type == EntryType::File && entry.storage == Storage::Whole) {
                live.insert(entry.hash);
            } else if (entry.type == EntryType::File && entry.storage == Storage::Chunked) {
                if (!live.insert(entry.hash).second)
                    continue;
                auto chunks = chunksOf(blobs, entry.hash);
                if (!chunks)
                    return errorOf(chunks);
                live.insert(chunks->begin(), chunks->end());
            }
        }
    }

    GarbageStats stats;
    std::vector<std::int64_t> dead;
    {
        auto statement = db.prepare("SELECT id, hash, length(data) FROM blobs");
        if (!statement)
            return errorOf(statement);
        int rc = 0;
        while ((rc = sqlite3_step(statement->get())) == SQLITE_ROW) {
            if (!live.contains(hashFromColumn(statement->get(), 1))) {
                dead.push_back(sqlite3_column_int64(statement->get(), 0));
                stats.bytesRemoved += static_cast<std::uint64_t>(sqlite3_column_int64(statement->get(), 2));
            }
        }
        if (rc != SQLITE_DONE)
            return db.error("cannot list blobs");
    }
    auto remove = db.prepare("DELETE FROM blobs WHERE id = ?1");
    if (!remove)
        return errorOf(remove);
    for (std::int64_t id : dead) {
        sqlite3_reset(remove->get());
        sqlite3_bind_int64(remove->get(), 1, id);
        if (sqlite3_step(remove->get()) != SQLITE_DONE)
            return db.error("cannot remove a blob");
    }
    stats.blobsRemoved = dead.size();
    // A stat cache entry vouching for content that is gone would let a checkpoint name a missing blob:
    // such entries lose their trust (the file is read again next time).
    if (!dead.empty()) {
        if (auto ok = distrustMissing(live); !ok)
            return errorOf(ok);
    }
    if (auto ok = transaction.commit(); !ok)
        return errorOf(ok);
    return stats;
}

Result<void> SandboxEngine::Impl::distrustMissing(const std::unordered_set<ContentHash, ContentHashHasher>& live)
{
    lastSave.reset();
    for (auto& [id, workspace] : watched)
        workspace.known.reset();
    struct Row {
        std::int64_t id = 0;
        std::string data;
    };
    std::vector<Row> rows;
    {
        auto statement = db.prepare("SELECT id, data FROM workspace_stat");
        if (!statement)
            return errorOf(statement);
        while (sqlite3_step(statement->get()) == SQLITE_ROW)
            rows.push_back(Row{sqlite3_column_int64(statement->get(), 0), sqlite::columnString(statement->get(), 1)});
    }
    auto update = db.prepare("UPDATE workspace_stat SET data = ?1 WHERE id = ?2");
    if (!update)
        return errorOf(update);
    for (auto& row : rows) {
        auto directory = unpackDirectoryStat(row.data);
        bool changed = !directory;
        DirectoryStat fixed = directory ? std::move(*directory) : DirectoryStat{};
        if (fixed.listing && !live.contains(fixed.listing->hash)) {
            fixed.listing.reset();
            changed = true;
        }
        for (auto& entry : fixed.entries) {
            if (entry.kind != StatEntry::Kind::File || !entry.trusted || entry.storage == Storage::Inline)
                continue;
            ContentHash hash{};
            std::copy(entry.content.begin(), entry.content.end(), hash.begin());
            if (!live.contains(hash)) {
                entry.trusted = false;
                changed = true;
            }
        }
        if (!changed)
            continue;
        // A row that cannot be read is replaced by an empty, untrusted one: the next walk lists and reads.
        const std::string packed = packDirectoryStat(fixed);
        sqlite3_reset(update->get());
        sqlite::Binder bind(update->get());
        bind.blob(1, packed).integer(2, row.id);
        if (!bind.ok() || sqlite3_step(update->get()) != SQLITE_DONE)
            return db.error("cannot update the stat cache");
    }
    return {};
}

} // namespace sb
