// The stat cache: per sandbox, one row per directory of its workspace with the stats of the last walk.

#include "engine_internal.h"

namespace sb {

using namespace engine;

Result<StatCache> SandboxEngine::Impl::loadStatCache(std::int64_t sandboxId)
{
    auto statement = db.prepare("SELECT path, data FROM workspace_stat WHERE sandbox_id = ?1");
    if (!statement)
        return errorOf(statement);
    sqlite3_stmt* s = statement->get();
    sqlite3_bind_int64(s, 1, sandboxId);
    StatCache cache;
    int rc = 0;
    while ((rc = sqlite3_step(s)) == SQLITE_ROW)
        cache.emplace(sqlite::columnString(s, 0), sqlite::columnString(s, 1));
    if (rc != SQLITE_DONE)
        return db.error("cannot read the stat cache");
    return cache;
}

Result<void> SandboxEngine::Impl::writeStatRow(std::int64_t sandboxId, const std::string& path, const std::string& data)
{
    lastSave.reset();
    forgetWalk(sandboxId);
    auto upsert = db.prepare("INSERT INTO workspace_stat (sandbox_id, path, data) VALUES (?1, ?2, ?3) "
                             "ON CONFLICT (sandbox_id, path) DO UPDATE SET data = excluded.data");
    if (!upsert)
        return errorOf(upsert);
    sqlite::Binder bind(upsert->get());
    bind.integer(1, sandboxId).blob(2, path).blob(3, data);
    if (!bind.ok() || sqlite3_step(upsert->get()) != SQLITE_DONE)
        return db.error("cannot update the stat cache");
    return {};
}

// Brings the cache in line with a walk: one row per directory, written only where it changed.
Result<void> SandboxEngine::Impl::updateStatCache(std::int64_t sandboxId, const StatCache& old, const ScanResult& scan)
{
    lastSave.reset();
    forgetWalk(sandboxId);
    for (const auto& [path, packed] : scan.directories) {
        if (auto before = old.find(path); before != old.end() && before->second == packed)
            continue;
        if (auto ok = writeStatRow(sandboxId, path, packed); !ok)
            return ok;
    }
    auto remove = db.prepare("DELETE FROM workspace_stat WHERE sandbox_id = ?1 AND path = ?2");
    if (!remove)
        return errorOf(remove);
    for (const auto& [path, packed] : old) {
        if (scan.directories.contains(path))
            continue;
        sqlite3_reset(remove->get());
        sqlite::Binder bind(remove->get());
        bind.integer(1, sandboxId).blob(2, path);
        if (!bind.ok() || sqlite3_step(remove->get()) != SQLITE_DONE)
            return db.error("cannot update the stat cache");
    }
    return {};
}

// Forgets every path at or below `prefix` ("" = all): a restore rewrote them.
Result<void> SandboxEngine::Impl::dropStatCacheUnder(std::int64_t sandboxId, const std::string& prefix)
{
    lastSave.reset();
    forgetWalk(sandboxId);
    Result<sqlite::Statement> statement = prefix.empty()
                                           ? db.prepare("DELETE FROM workspace_stat WHERE sandbox_id = ?1")
                                           : db.prepare("DELETE FROM workspace_stat WHERE sandbox_id = ?1 AND "
                                                        "(path = ?2 OR (path >= ?3 AND path < ?4))");
    if (!statement)
        return errorOf(statement);
    const std::string below = prefix + "/";
    const std::string after = prefix + "0"; // '0' follows '/'
    sqlite::Binder bind(statement->get());
    bind.integer(1, sandboxId);
    if (!prefix.empty())
        bind.blob(2, prefix).blob(3, below).blob(4, after);
    if (!bind.ok() || sqlite3_step(statement->get()) != SQLITE_DONE)
        return db.error("cannot update the stat cache");
    return {};
}

} // namespace sb
