// Governance of sandboxes: quotas, idle detection (archive and revive), policy and dataset references,
// checkpoint labels.

#include "engine_internal.h"

#include "store/audit.h"

#include <sys/stat.h>

namespace sb {

using namespace engine;

namespace {

nlohmann::json optionalJson(const std::optional<std::int64_t>& value)
{
    return value ? nlohmann::json(*value) : nlohmann::json();
}

nlohmann::json optionalJson(const std::optional<std::uint64_t>& value)
{
    return value ? nlohmann::json(*value) : nlohmann::json();
}

} // namespace

Result<void> SandboxEngine::Impl::writeGovernance(std::int64_t sandboxId, const SandboxInfo& info)
{
    auto update = db.prepare("UPDATE sandboxes SET owner = ?1, expires_at_ms = ?2, quota_bytes = ?3, "
                             "idle_timeout_ms = ?4, policy = ?5, datasets = ?6 WHERE id = ?7");
    if (!update)
        return errorOf(update);
    const std::string datasets = jsonText(datasetsToJson(info.datasets));
    sqlite::Binder bind(update->get());
    bind.text(1, info.owner).text(5, info.policy).text(6, datasets).integer(7, sandboxId);
    if (info.expiresAtMs)
        bind.integer(2, *info.expiresAtMs);
    else
        bind.null(2);
    if (info.quotaBytes)
        bind.integer(3, static_cast<std::int64_t>(*info.quotaBytes));
    else
        bind.null(3);
    if (info.idleTimeoutMs)
        bind.integer(4, *info.idleTimeoutMs);
    else
        bind.null(4);
    if (!bind.ok() || sqlite3_step(update->get()) != SQLITE_DONE)
        return db.error("cannot record a sandbox's settings");
    return {};
}

Result<void> SandboxEngine::Impl::applyMeta(std::int64_t sandboxId, const std::string& meta)
{
    if (meta.empty())
        return {};
    std::string policy;
    std::vector<DatasetRef> datasets;
    readMeta(meta, policy, datasets);
    auto update = db.prepare("UPDATE sandboxes SET policy = ?1, datasets = ?2 WHERE id = ?3");
    if (!update)
        return errorOf(update);
    const std::string datasetsText = jsonText(datasetsToJson(datasets));
    sqlite::Binder bind(update->get());
    bind.text(1, policy).text(2, datasetsText).integer(3, sandboxId);
    if (!bind.ok() || sqlite3_step(update->get()) != SQLITE_DONE)
        return db.error("cannot record a sandbox's policy and datasets");
    return {};
}

Result<std::uint64_t> SandboxEngine::Impl::liveBytes(const SandboxRow& sandbox)
{
    if (sandbox.info.archived)
        return sandbox.info.bytes;
    const StatCache cache = loadStatCache(sandbox.id).value_or(StatCache{});
    auto scan = walkWorkspace(sandbox.info.workspace, cache, nullptr, {});
    if (!scan)
        return errorOf(scan);
    return scan->bytes;
}

Result<void> SandboxEngine::Impl::revive(SandboxRow& sandbox)
{
    if (!sandbox.info.archived)
        return {};
    if (!sandbox.headRow)
        return fail(
            fmt::format("sandbox '{}' is archived but has no head checkpoint to revive it from", sandbox.info.name));
    auto head = checkpointByRow(*sandbox.headRow);
    if (!head)
        return errorOf(head);
    const fs::path folder = sandboxFolder(sandbox.info.name);
    if (auto ok = makeDirectories(folder); !ok)
        return ok;
    // A workspace left by an archive cut short equals the head (it was saved first): written anew all the same.
    if (auto ok = discardFolder(sandbox.info.workspace); !ok)
        return ok;
    TreeReader reader(blobs);
    auto written = writeWorkspace(reader, head->info.tree, folder, {});
    if (!written)
        return errorOf(written);
    step("revive.written");
    const std::int64_t now = clock();
    sqlite::Transaction transaction(db);
    if (auto ok = transaction.begin(); !ok)
        return ok;
    if (auto ok = db.exec(fmt::format("UPDATE sandboxes SET state = 'active' WHERE id = {}", sandbox.id),
                          "cannot revive a sandbox");
        !ok)
        return ok;
    if (auto ok = dropStatCacheUnder(sandbox.id, ""); !ok)
        return ok;
    const nlohmann::json details = {
        {"head", head->info.id}, {"files", written->filesWritten}, {"idle_ms", sandbox.info.idleMs(now)}};
    if (auto ok = commit(transaction, Operation{std::string(audit_op::kSandboxRevive), sandbox.info.name, head->info.id,
                                                currentUser(), now, jsonText(details)});
        !ok)
        return ok;
    sandbox.info.archived = false;
    sandbox.info.lastActivityMs = now;
    return {};
}

Result<std::optional<CheckpointInfo>> SandboxEngine::Impl::archive(const SandboxRow& sandbox, std::int64_t now)
{
    // Never loses work: whatever differs from the head is checkpointed first.
    SaveRequest save;
    save.always = false;
    save.kind = "auto";
    save.message =
        fmt::format("unsaved changes, saved before sandbox '{}' was archived ({} idle, timeout {})", sandbox.info.name,
                    sandbox.info.idleMs(now), sandbox.info.idleTimeoutMs ? *sandbox.info.idleTimeoutMs : 0);
    auto saved = saveWorkspace(sandbox, save, {});
    if (!saved)
        return errorOf(saved);
    sqlite::Transaction transaction(db);
    if (auto ok = transaction.begin(); !ok)
        return errorOf(ok);
    if (auto ok = db.exec(fmt::format("UPDATE sandboxes SET state = 'archived' WHERE id = {}", sandbox.id),
                          "cannot archive a sandbox");
        !ok)
        return errorOf(ok);
    if (auto ok = dropStatCacheUnder(sandbox.id, ""); !ok)
        return errorOf(ok);
    const nlohmann::json details = {{"head", saved->head.info.id},
                                    {"saved", saved->made ? nlohmann::json(saved->made->info.id) : nlohmann::json()},
                                    {"idle_ms", sandbox.info.idleMs(now)},
                                    {"idle_timeout_ms", optionalJson(sandbox.info.idleTimeoutMs)},
                                    {"files", saved->head.info.files},
                                    {"bytes", saved->head.info.bytes}};
    if (auto ok = commit(transaction, Operation{std::string(audit_op::kSandboxArchive), sandbox.info.name,
                                                saved->head.info.id, currentUser(), now, jsonText(details)});
        !ok)
        return errorOf(ok);
    step("archive.recorded");
    // Recorded first: a crash before the folder is gone leaves a workspace equal to the head, which the revive
    // replaces.
    if (auto ok = discardFolder(sandbox.info.workspace); !ok)
        return errorOf(ok);
    if (saved->made)
        return std::optional<CheckpointInfo>(saved->made->info);
    return std::optional<CheckpointInfo>{};
}

Result<std::vector<DatasetRef>> SandboxEngine::Impl::sampledDatasetsOf(const SandboxRow& sandbox)
{
    std::vector<DatasetRef> out;
    auto add = [&](const std::vector<DatasetRef>& refs) {
        for (const auto& ref : refs) {
            const bool known = std::any_of(out.begin(), out.end(), [&](const DatasetRef& r) {
                return r.snapshot == ref.snapshot && r.sha256 == ref.sha256;
            });
            if (ref.sampled && !known)
                out.push_back(ref);
        }
    };
    add(sandbox.info.datasets);
    auto statement = db.prepare("SELECT meta FROM checkpoints WHERE sandbox_id = ?1 AND meta != ''");
    if (!statement)
        return errorOf(statement);
    sqlite3_bind_int64(statement->get(), 1, sandbox.id);
    int rc = 0;
    while ((rc = sqlite3_step(statement->get())) == SQLITE_ROW) {
        std::string policy;
        std::vector<DatasetRef> refs;
        readMeta(sqlite::columnString(statement->get(), 0), policy, refs);
        add(refs);
    }
    if (rc != SQLITE_DONE)
        return db.error("cannot read checkpoints");
    return out;
}

Result<std::vector<std::string>> SandboxEngine::Impl::dropSampledDatasets(const SandboxRow& sandbox,
                                                                          const std::vector<DatasetRef>& candidates)
{
    std::vector<std::string> removed;
    for (const auto& ref : candidates) {
        // Referred to anywhere else (another sandbox, a checkpoint of another sandbox)? Then it stays.
        const std::string needle = jsonText(nlohmann::json(ref.snapshot));
        auto statement =
            db.prepare("SELECT (SELECT count(*) FROM sandboxes WHERE id != ?1 AND instr(datasets, ?2) > 0) + "
                       "(SELECT count(*) FROM checkpoints WHERE (sandbox_id IS NULL OR sandbox_id != ?1) AND "
                       "instr(meta, ?2) > 0)");
        if (!statement)
            return errorOf(statement);
        sqlite::Binder bind(statement->get());
        bind.integer(1, sandbox.id).text(2, needle);
        if (!bind.ok() || sqlite3_step(statement->get()) != SQLITE_ROW)
            return db.error("cannot look up dataset references");
        if (sqlite3_column_int64(statement->get(), 0) > 0)
            continue;
        auto remove = db.prepare("DELETE FROM datasets WHERE name = ?1 AND sha256 = ?2");
        if (!remove)
            return errorOf(remove);
        sqlite::Binder bindRemove(remove->get());
        bindRemove.text(1, ref.snapshot).text(2, ref.sha256);
        if (!bindRemove.ok() || sqlite3_step(remove->get()) != SQLITE_DONE)
            return db.error("cannot remove a sampled dataset");
        if (db.changes() > 0)
            removed.push_back(ref.snapshot);
    }
    return removed;
}

// -----------------------------------------------------------------------------------------------------------

Result<SandboxInfo> SandboxEngine::setSandbox(const SandboxSettings& settings)
{
    const std::string& name = settings.name;
    if (name == kMain) {
        if (auto main = m_impl->ensureMain(); !main)
            return errorOf(main);
        if (settings.expiresInMs && *settings.expiresInMs)
            return fail("'main' is the production sandbox: it never expires");
        if (settings.idleTimeoutMs && *settings.idleTimeoutMs)
            return fail("'main' is the production sandbox: it is never archived, so it takes no idle timeout");
    } else if (auto ok = validateName(name); !ok) {
        return errorOf(ok);
    }
    if (settings.expiresInMs && *settings.expiresInMs && **settings.expiresInMs <= 0)
        return fail("an expiry must lie in the future");
    if (settings.idleTimeoutMs && *settings.idleTimeoutMs && **settings.idleTimeoutMs <= 0)
        return fail("an idle timeout must be longer than zero");
    if (settings.quotaBytes && *settings.quotaBytes && **settings.quotaBytes == 0)
        return fail("a quota must be larger than zero");
    if (settings.owner && settings.owner->empty())
        return fail("an owner cannot be empty");
    auto lock = m_impl->lockSandbox(name);
    if (!lock)
        return errorOf(lock);
    auto row = m_impl->requireSandbox(name);
    if (!row)
        return errorOf(row);
    SandboxInfo next = row->info;
    const std::int64_t now = m_impl->clock();
    nlohmann::json changed = nlohmann::json::object();
    if (settings.quotaBytes) {
        next.quotaBytes = *settings.quotaBytes;
        if (next.quotaBytes) {
            auto used = m_impl->liveBytes(*row);
            if (!used)
                return errorOf(used);
            if (*used > *next.quotaBytes)
                return fail(fmt::format("sandbox '{}' holds {} bytes, more than the quota of {} bytes asked for: "
                                        "free space first",
                                        name, *used, *next.quotaBytes));
        }
        changed["quota_bytes"] = optionalJson(next.quotaBytes);
    }
    if (settings.idleTimeoutMs) {
        next.idleTimeoutMs = *settings.idleTimeoutMs;
        changed["idle_timeout_ms"] = optionalJson(next.idleTimeoutMs);
    }
    if (settings.expiresInMs) {
        next.expiresAtMs =
            *settings.expiresInMs ? std::optional<std::int64_t>(now + **settings.expiresInMs) : std::nullopt;
        changed["expires_at_ms"] = optionalJson(next.expiresAtMs);
    }
    if (settings.policy) {
        next.policy = *settings.policy;
        changed["policy"] = next.policy;
    }
    if (settings.owner) {
        next.owner = *settings.owner;
        changed["owner"] = next.owner;
    }
    for (const auto& drop : settings.dropDatasets) {
        const auto before = next.datasets.size();
        std::erase_if(next.datasets, [&](const DatasetRef& r) { return r.name == drop; });
        if (next.datasets.size() == before)
            return fail(fmt::format("sandbox '{}' has no dataset '{}'", name, drop));
    }
    for (const auto& add : settings.addDatasets) {
        std::erase_if(next.datasets, [&](const DatasetRef& r) { return r.name == add.name; });
        next.datasets.push_back(add);
    }
    if (!settings.dropDatasets.empty() || !settings.addDatasets.empty())
        changed["datasets"] = datasetsToJson(next.datasets);
    if (changed.empty())
        return fail(
            "nothing to change: give --quota, --idle, --expires, --policy, --owner, --dataset or --drop-dataset");

    sqlite::Transaction transaction(m_impl->db);
    if (auto ok = transaction.begin(); !ok)
        return errorOf(ok);
    if (auto ok = m_impl->writeGovernance(row->id, next); !ok)
        return errorOf(ok);
    if (auto ok = m_impl->commit(transaction, Operation{std::string(audit_op::kSandboxSet), name, "", currentUser(),
                                                        now, jsonText(changed)});
        !ok)
        return errorOf(ok);
    auto after = m_impl->requireSandbox(name);
    if (!after)
        return errorOf(after);
    return std::move(after->info);
}

Result<SandboxInfo> SandboxEngine::use(std::string_view name)
{
    auto lock = m_impl->lockForUse(name);
    if (!lock)
        return errorOf(lock);
    return m_impl->useLocked(name);
}

Result<SandboxHold> SandboxEngine::holdForRun(std::string_view name)
{
    auto lock = m_impl->lockForUse(name);
    if (!lock)
        return errorOf(lock);
    auto used = m_impl->useLocked(name);
    if (!used)
        return errorOf(used);
    SandboxHold hold;
    if (used->quotaBytes) {
        auto row = m_impl->requireSandbox(name);
        if (!row)
            return errorOf(row);
        auto bytes = m_impl->liveBytes(*row);
        if (!bytes)
            return errorOf(bytes);
        hold.usedBytes = *bytes;
    }
    hold.sandbox = std::move(*used);
    hold.lock = std::move(*lock);
    return hold;
}

Result<FileLock> SandboxEngine::Impl::lockForUse(std::string_view name)
{
    if (name == kMain) {
        if (auto main = ensureMain(); !main)
            return errorOf(main);
    } else if (auto ok = validateName(name); !ok) {
        return errorOf(ok);
    }
    return lockSandbox(name);
}

Result<SandboxInfo> SandboxEngine::Impl::useLocked(std::string_view name)
{
    auto garbage = lockGarbage(FileLock::Mode::Shared);
    if (!garbage)
        return errorOf(garbage);
    auto row = requireSandbox(name);
    if (!row)
        return errorOf(row);
    if (auto ok = revive(*row); !ok)
        return errorOf(ok);
    // A run or a look at its folder is activity too; not an operation of the audit log (a run has its record).
    const std::int64_t now = clock();
    auto touch =
        db.prepare("UPDATE sandboxes SET last_activity_ms = max(coalesce(last_activity_ms, 0), ?1) WHERE id = ?2");
    if (!touch)
        return errorOf(touch);
    sqlite3_bind_int64(touch->get(), 1, now);
    sqlite3_bind_int64(touch->get(), 2, row->id);
    if (sqlite3_step(touch->get()) != SQLITE_DONE)
        return db.error("cannot record a sandbox's activity");
    row->info.lastActivityMs = std::max(row->info.lastActivityMs, now);
    return std::move(row->info);
}

Result<std::uint64_t> SandboxEngine::usage(std::string_view name)
{
    auto row = m_impl->requireSandbox(name);
    if (!row)
        return errorOf(row);
    return m_impl->liveBytes(*row);
}

Result<CheckpointInfo> SandboxEngine::setLabel(std::string_view checkpoint, std::string_view label)
{
    auto row = m_impl->resolveCheckpoint(checkpoint);
    if (!row)
        return errorOf(row);
    if (label.find('\n') != std::string_view::npos)
        return fail("a label is one line");
    const std::string before = row->info.label;
    sqlite::Transaction transaction(m_impl->db);
    if (auto ok = transaction.begin(); !ok)
        return errorOf(ok);
    auto update = m_impl->db.prepare("UPDATE checkpoints SET relabel = ?1 WHERE id = ?2");
    if (!update)
        return errorOf(update);
    sqlite::Binder bind(update->get());
    bind.text(1, label).integer(2, row->id);
    if (!bind.ok() || sqlite3_step(update->get()) != SQLITE_DONE)
        return m_impl->db.error("cannot label a checkpoint");
    const nlohmann::json details = {{"label", label}, {"previous", before}};
    // The audit subject is the checkpoint's sandbox, as for the other checkpoint operations.
    if (auto ok =
            m_impl->commit(transaction, Operation{std::string(audit_op::kCheckpointLabel), row->info.sandbox,
                                                  row->info.id, currentUser(), m_impl->clock(), jsonText(details)});
        !ok)
        return errorOf(ok);
    row->info.label = std::string(label);
    return std::move(row->info);
}

} // namespace sb
