// Restores: the one-rename swap, its journal, and the recovery that settles a restore a kill interrupted.

#include "engine_internal.h"

#include "store/audit.h"

#include <fcntl.h>
#include <sys/stat.h>

namespace sb {

using namespace engine;

Result<SandboxEngine::Impl::SwapPlan> SandboxEngine::Impl::planSwap(TreeReader& reader, const ContentHash& liveRoot,
                                                                    const ContentHash& targetRoot)
{
    ContentHash live = liveRoot;
    ContentHash target = targetRoot;
    std::string path;
    for (;;) {
        auto a = reader.read(live);
        if (!a)
            return errorOf(a);
        auto b = reader.read(target);
        if (!b)
            return errorOf(b);
        const auto& left = (*a)->entries;
        const auto& right = (*b)->entries;
        std::vector<std::pair<const TreeEntry*, const TreeEntry*>> differing;
        std::size_t i = 0;
        std::size_t j = 0;
        while ((i < left.size() || j < right.size()) && differing.size() < 2) {
            if (j == right.size() || (i < left.size() && left[i].name < right[j].name)) {
                differing.emplace_back(&left[i++], nullptr);
            } else if (i == left.size() || right[j].name < left[i].name) {
                differing.emplace_back(nullptr, &right[j++]);
            } else {
                if (!left[i].sameAs(right[j]))
                    differing.emplace_back(&left[i], &right[j]);
                ++i;
                ++j;
            }
        }
        if (differing.size() == 1) {
            const auto [before, after] = differing.front();
            const std::string& name = before ? before->name : after->name;
            const std::string childPath = treePath(path, name);
            if (before && after && before->type == EntryType::Directory && after->type == EntryType::Directory
                && before->mode == after->mode) {
                path = childPath; // every difference is further down
                live = before->hash;
                target = after->hash;
                continue;
            }
            SwapPlan plan;
            plan.kind = !before ? SwapPlan::Kind::Add : !after ? SwapPlan::Kind::Remove : SwapPlan::Kind::Exchange;
            plan.path = childPath;
            if (before)
                plan.live = *before;
            if (after)
                plan.target = *after;
            return plan;
        }
        // Several differences here: this directory is swapped whole.
        SwapPlan plan;
        plan.path = path;
        TreeEntry liveFolder;
        liveFolder.type = EntryType::Directory;
        liveFolder.hash = live;
        TreeEntry targetFolder = liveFolder;
        targetFolder.hash = target;
        if (!path.empty()) {
            auto found = reader.find(targetRoot, path);
            if (!found)
                return errorOf(found);
            if (*found)
                targetFolder.mode = (*found)->mode;
        } else {
            targetFolder.mode = 0700;
        }
        plan.live = liveFolder;
        plan.target = targetFolder;
        return plan;
    }
}

// The swap of a restore is done: record the restore checkpoint, move the head, forget the stat cache
// below the swapped folder, settle the journal row (if any), all in one transaction.
Result<CheckpointRow> SandboxEngine::Impl::finishRestore(const NewCheckpoint& plan, const std::string& id,
                                                         const Saved* deferred, const std::string& swapped,
                                                         std::optional<std::int64_t> journalRow, bool recovered,
                                                         const nlohmann::json* promotion)
{
    sqlite::Transaction transaction(db);
    if (auto ok = transaction.begin(); !ok)
        return errorOf(ok);
    // The stat cache of the walk before the swap, when saving it was left to this transaction.
    if (deferred && !deferred->cacheSaved) {
        if (auto ok = updateStatCache(plan.sandboxId, deferred->cache, deferred->scan); !ok)
            return errorOf(ok);
    }
    // A promotion's source head is not locked once its process died: should a prune have removed it before
    // the recovery, the record goes on with the parents that remain rather than failing every open.
    NewCheckpoint kept = plan;
    if (recovered && plan.kind == "promote") {
        std::erase_if(kept.parents, [&](const std::string& parent) {
            auto row = checkpointRowOf(parent);
            return row && !*row;
        });
    }
    auto made = insertCheckpoint(kept, id);
    if (!made)
        return errorOf(made);
    if (auto ok = setHead(plan.sandboxId, made->id); !ok)
        return errorOf(ok);
    // Cache rows of folders at or below the swapped entry describe the replaced tree (a restore that
    // changed nothing swapped nothing and keeps them all).
    if (journalRow) {
        if (auto ok = dropStatCacheUnder(plan.sandboxId, swapped); !ok)
            return errorOf(ok);
        if (auto ok = db.exec(fmt::format("DELETE FROM workspace_journal WHERE id = {}", *journalRow),
                              "cannot settle the restore journal");
            !ok)
            return errorOf(ok);
    }
    if (plan.kind == "promote") {
        // The promotion's record: its approval (when given) and the promotion itself, with the checkpoint.
        nlohmann::json details = promotion && promotion->is_object() ? *promotion : nlohmann::json::object();
        details["parents"] = kept.parents;
        details["tree"] = hashHex(plan.tree);
        details["swapped"] = swapped;
        details["recovered"] = recovered;
        std::vector<Operation> operations;
        const auto approval = details.find("approval");
        if (approval != details.end() && approval->is_object()) {
            const nlohmann::json approved = {{"by", approval->value("by", "")},
                                             {"note", approval->value("note", "")},
                                             {"risk", details.value("risk", "")},
                                             {"risk_reasons", details.value("risk_reasons", nlohmann::json::array())},
                                             {"source", details.value("source", "")},
                                             {"source_checkpoint", details.value("source_checkpoint", "")}};
            operations.push_back(Operation{std::string(audit_op::kApprove), plan.sandboxName, id,
                                           approval->value("by", plan.author), plan.createdAtMs, jsonText(approved)});
        }
        operations.push_back(Operation{std::string(audit_op::kPromote), plan.sandboxName, id, plan.author,
                                       plan.createdAtMs, jsonText(details)});
        // The promoted sandbox was used too (the audit entries name the target).
        if (const auto source = details.find("source"); source != details.end() && source->is_string()) {
            auto touch = db.prepare("UPDATE sandboxes SET last_activity_ms = max(coalesce(last_activity_ms, 0), ?1) "
                                    "WHERE name = ?2");
            if (!touch)
                return errorOf(touch);
            const std::string sourceName = source->get<std::string>(); // bound without a copy: must outlive the step
            sqlite::Binder bind(touch->get());
            bind.integer(1, plan.createdAtMs).text(2, sourceName);
            if (!bind.ok() || sqlite3_step(touch->get()) != SQLITE_DONE)
                return db.error("cannot record a sandbox's activity");
        }
        if (auto ok = commit(transaction, operations); !ok)
            return errorOf(ok);
        return made;
    }
    if (auto ok = applyMeta(plan.sandboxId, plan.meta); !ok)
        return errorOf(ok);
    const nlohmann::json details = {{"restored", plan.source},
                                    {"parent", plan.parents.empty() ? std::string() : plan.parents.front()},
                                    {"tree", hashHex(plan.tree)},
                                    {"swapped", swapped},
                                    {"recovered", recovered}};
    if (auto ok = commit(transaction, Operation{"checkpoint.restore", plan.sandboxName, id, plan.author,
                                                plan.createdAtMs, jsonText(details)});
        !ok)
        return errorOf(ok);
    return made;
}

Result<RestoreResult> SandboxEngine::Impl::restore(std::string_view checkpointText, const ProgressCallback& progress,
                                                   std::string_view intoSandbox)
{
    const StepTrace trace("restore");
    auto target = resolveCheckpoint(checkpointText);
    if (!target)
        return errorOf(target);
    std::string name(intoSandbox);
    if (name.empty()) {
        if (!target->sandboxId)
            return fail(fmt::format("checkpoint {} belongs to sandbox '{}', which was destroyed; fork it into a "
                                    "new sandbox instead",
                                    target->info.id, target->info.sandbox));
        name = target->info.sandbox;
    }
    if (name == kMain) {
        if (auto main = ensureMain(); !main)
            return errorOf(main);
    }
    auto lock = lockSandbox(name);
    if (!lock)
        return errorOf(lock);
    auto garbage = lockGarbage(FileLock::Mode::Shared);
    if (!garbage)
        return errorOf(garbage);
    auto sandbox = requireSandbox(name);
    if (!sandbox)
        return errorOf(sandbox);
    // The quota bounds the workspace a restore leaves, as it bounds a new sandbox's.
    if (sandbox->info.quotaBytes && target->info.bytes > *sandbox->info.quotaBytes)
        return fail(fmt::format("checkpoint {} holds {} bytes, over the quota of sandbox '{}' ({} bytes): nothing was "
                                "restored (raise the quota with: sandbench sandbox set {} --quota SIZE)",
                                target->info.id, target->info.bytes, name, *sandbox->info.quotaBytes, name));
    if (auto ok = revive(*sandbox); !ok)
        return errorOf(ok);

    // 1. Unsaved changes become a checkpoint first: a restore never loses work.
    SaveRequest save;
    save.always = false;
    save.kind = "auto";
    save.message = fmt::format("unsaved changes, saved before restoring {}", target->info.id);
    save.deferCache = true;
    auto saved = saveWorkspace(*sandbox, save, progress);
    if (!saved)
        return errorOf(saved);

    trace("saved");
    RestoreResult result;
    result.sandbox = name;
    result.restored = target->info;
    if (saved->made)
        result.saved = saved->made->info;
    result.skipped = saved->scan.skipped;

    TreeReader reader(blobs);
    reader.addUnstored(&saved->scan.trees);
    const ContentHash live = saved->scan.root;
    auto changes = diffTrees(reader, live, target->info.tree);
    if (!changes)
        return errorOf(changes);
    result.changes = countChanges(*changes);

    NewCheckpoint plan;
    plan.sandboxId = sandbox->id;
    plan.sandboxName = name;
    plan.tree = target->info.tree;
    plan.parents = {saved->head.info.id};
    plan.kind = "restore";
    plan.message = fmt::format("restored {}", target->info.id);
    plan.author = currentUser();
    plan.createdAtMs = clock();
    plan.source = target->info.id;
    plan.files = target->info.files;
    plan.bytes = target->info.bytes;
    // The whole state comes back: the policy and dataset references the checkpoint was made with (one from
    // before they were kept says nothing of them, and the sandbox keeps its own).
    plan.meta = target->meta;
    if (plan.meta.empty())
        plan.meta = metaText(sandbox->info.policy, sandbox->info.datasets);
    auto id = freshId(plan);
    if (!id)
        return errorOf(id);

    std::optional<std::int64_t> journalRow;
    fs::path staging;
    if (!changes->empty()) {
        auto swapPlan = planSwap(reader, live, target->info.tree);
        if (!swapPlan)
            return errorOf(swapPlan);
        result.swapped = swapPlan->path;
        auto prepared = prepareSwap(*sandbox, reader, *swapPlan, saved->scan, progress);
        if (!prepared)
            return errorOf(prepared);
        staging = prepared->staging;
        step("restore.staged");
        trace("staged");
        result.filesWritten = prepared->stats.filesWritten;
        result.filesLinked = prepared->stats.filesLinked;

        // 2. The journal names the built tree before anything in the workspace changes.
        sqlite::Transaction transaction(db);
        if (auto ok = transaction.begin(); !ok)
            return errorOf(ok);
        auto insert = db.prepare("INSERT INTO workspace_journal (sandbox_id, staging, target_path, staging_inode, "
                                 "plan, created_at_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
        if (!insert)
            return errorOf(insert);
        const std::string planText = journalPlan(plan, *id, swapPlan->kind);
        const std::string stagingName = staging.filename().string();
        sqlite::Binder bind(insert->get());
        bind.integer(1, sandbox->id)
            .text(2, stagingName)
            .blob(3, result.swapped)
            .integer(4, static_cast<std::int64_t>(prepared->inode))
            .text(5, planText)
            .integer(6, plan.createdAtMs);
        if (!bind.ok() || sqlite3_step(insert->get()) != SQLITE_DONE)
            return db.error("cannot write the restore journal");
        journalRow = db.lastInsertId();
        if (auto ok = transaction.commit(); !ok)
            return errorOf(ok);
        step("restore.journaled");
        trace("journaled");

        // 3. One rename swaps the whole change in.
        if (auto ok = swap(*sandbox, *swapPlan, staging); !ok)
            return errorOf(ok);
        step("restore.swapped");
        trace("swapped");
    }

    // 4. Recorded; what was replaced (now the staging entry) goes.
    auto made = finishRestore(plan, *id, &*saved, result.swapped, journalRow, false);
    if (!made)
        return errorOf(made);
    result.recorded = made->info;
    step("restore.recorded");
    trace("recorded");
    if (saved->guide) {
        // The store's stat cache is the walk's but for the folders at or below the swapped entry, which went.
        StatCache cache = std::move(saved->scan.directories);
        if (journalRow) {
            std::erase_if(cache, [&](const auto& row) {
                return result.swapped.empty() || row.first == result.swapped
                       || (row.first.size() > result.swapped.size() && row.first.starts_with(result.swapped)
                           && row.first[result.swapped.size()] == '/');
            });
        }
        rememberWalk(sandbox->id, *saved->guide, *made, std::move(cache), saved->scan.skipped);
    }
    if (!staging.empty()) {
        (void)removeTree(staging);
        (void)removeTree(staging.string() + ".old");
    }
    trace("cleaned");
    return result;
}

// Builds the new entry beside the workspace, in the sandbox's folder (the same file system), linking
// unchanged files from the live workspace.
Result<SandboxEngine::Impl::PreparedSwap> SandboxEngine::Impl::prepareSwap(const SandboxRow& sandbox,
                                                                           TreeReader& reader, const SwapPlan& plan,
                                                                           const ScanResult& scan,
                                                                           const ProgressCallback& progress)
{
    PreparedSwap prepared;
    const std::string name = std::string(kStagingPrefix) + randomHex(8);
    prepared.staging = sandboxFolder(sandbox.info.name) / name;
    if (plan.kind == SwapPlan::Kind::Remove)
        return prepared;
    auto folder = openDirectory(sandboxFolder(sandbox.info.name));
    if (!folder)
        return errorOf(folder);
    auto cleanup = [&](const Error& error) -> std::unexpected<Error> {
        (void)removeTree(prepared.staging);
        return std::unexpected(error);
    };
    const TreeEntry& entry = *plan.target;
    if (entry.type == EntryType::Symlink) {
        if (::symlinkat(entry.data.c_str(), folder->get(), name.c_str()) != 0)
            return cleanup(Error{fmt::format("cannot create the restored link: {}", errnoText(errno))});
    } else if (entry.type == EntryType::File) {
        const int fd =
            ::openat(folder->get(), name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0)
            return cleanup(Error{fmt::format("cannot create the restored file: {}", errnoText(errno))});
        Fd guard(fd);
        auto ok = sb::readFile(blobs, entry, [&](std::string_view bytes) { return writeAll(fd, bytes); });
        if (!ok)
            return cleanup(Error{fmt::format("{}: {}", plan.path, ok.error().message)});
        if (::fchmod(fd, entry.mode) != 0)
            return cleanup(Error{fmt::format("cannot set the restored file's mode: {}", errnoText(errno))});
        prepared.stats.filesWritten = 1;
        prepared.stats.bytesWritten = entry.size;
    } else {
        if (::mkdirat(folder->get(), name.c_str(), 0700) != 0)
            return cleanup(Error{fmt::format("cannot create the restored folder: {}", errnoText(errno))});
        auto treeFd = openDirectoryAt(folder->get(), name);
        if (!treeFd)
            return cleanup(treeFd.error());
        // Unchanged files come from the live folder at the same place, when there is one.
        Fd liveFd;
        LinkSource link;
        if (plan.live && plan.live->type == EntryType::Directory) {
            auto workspaceFd = openDirectory(sandbox.info.workspace);
            if (!workspaceFd)
                return cleanup(workspaceFd.error());
            auto opened = openRelativeDirectory(workspaceFd->get(), plan.path);
            if (!opened)
                return cleanup(opened.error());
            liveFd = std::move(*opened);
            link.folder = liveFd.get();
            link.tree = plan.live->hash;
            link.prefix = plan.path;
            link.scan = &scan;
        }
        std::function<bool(std::uint64_t)> onFile;
        if (progress)
            onFile = [&](std::uint64_t files) { return progress(Progress{SB_TR("checkpoint progress", "writing"), files, 0, plan.path}); };
        auto stats = writeTree(reader, entry.hash, treeFd->get(), liveFd.valid() ? &link : nullptr, onFile);
        if (!stats)
            return cleanup(stats.error());
        prepared.stats = *stats;
        if (::fchmod(treeFd->get(), entry.mode) != 0)
            return cleanup(Error{fmt::format("cannot set the restored folder's mode: {}", errnoText(errno))});
    }
    struct stat st {};
    if (::fstatat(folder->get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
        return cleanup(Error{errnoText(errno)});
    prepared.inode = static_cast<std::uint64_t>(st.st_ino);
    return prepared;
}

// The folder holding the swapped entry, opened without following symlinks, and the entry's name there.
Result<std::pair<Fd, std::string>> SandboxEngine::Impl::swapPlace(const SandboxRow& sandbox, const std::string& swapped)
{
    if (swapped.empty()) {
        auto folder = openDirectory(sandboxFolder(sandbox.info.name));
        if (!folder)
            return errorOf(folder);
        return std::pair{std::move(*folder), std::string(kWorkspaceFolder)};
    }
    auto workspaceFd = openDirectory(sandbox.info.workspace);
    if (!workspaceFd)
        return errorOf(workspaceFd);
    auto parent = openRelativeDirectory(workspaceFd->get(), parentPath(swapped));
    if (!parent)
        return errorOf(parent);
    return std::pair{std::move(*parent), baseName(swapped)};
}

// The one step that changes the workspace: a single rename (renameat2), so the workspace is wholly before
// or wholly after at every moment.
Result<void> SandboxEngine::Impl::swap(const SandboxRow& sandbox, const SwapPlan& plan, const fs::path& staging)
{
    auto place = swapPlace(sandbox, plan.path);
    if (!place)
        return errorOf(place);
    auto folder = openDirectory(staging.parent_path());
    if (!folder)
        return errorOf(folder);
    const std::string name = staging.filename().string();
    switch (plan.kind) {
    case SwapPlan::Kind::Add:
        if (::renameat2(folder->get(), name.c_str(), place->first.get(), place->second.c_str(), RENAME_NOREPLACE) != 0)
            return fail(fmt::format("cannot move the restored {} in: {}", plan.path, errnoText(errno)));
        return {};
    case SwapPlan::Kind::Remove:
        if (::renameat2(place->first.get(), place->second.c_str(), folder->get(), name.c_str(), RENAME_NOREPLACE) != 0)
            return fail(fmt::format("cannot move {} out: {}", plan.path, errnoText(errno)));
        return {};
    case SwapPlan::Kind::Exchange: break;
    }
    int error = 0;
    if (exchangeAt(place->first.get(), place->second, folder->get(), name, error))
        return {};
    if (error != EINVAL && error != ENOSYS && error != ENOTSUP)
        return fail(fmt::format("cannot swap the restored {} in: {}", plan.path.empty() ? "workspace" : plan.path,
                                errnoText(error)));
    // No RENAME_EXCHANGE on this file system: two renames; the journal lets the next open finish them.
    const std::string old = name + ".old";
    if (::renameat(place->first.get(), place->second.c_str(), folder->get(), old.c_str()) != 0)
        return fail(fmt::format("cannot move the old {} aside: {}", plan.path, errnoText(errno)));
    if (::renameat(folder->get(), name.c_str(), place->first.get(), place->second.c_str()) != 0)
        return fail(fmt::format("cannot move the restored {} in: {}", plan.path, errnoText(errno)));
    return {};
}

// Settles restores a killed process left in the journal: finished when the swap happened, undone when not.
Result<void> SandboxEngine::Impl::recover()
{
    struct Entry {
        std::int64_t id = 0;
        std::int64_t sandboxId = 0;
        std::string staging;
        std::string swapped;
        std::uint64_t inode = 0;
        std::string plan;
    };
    std::vector<Entry> entries;
    {
        auto statement =
            db.prepare("SELECT id, sandbox_id, staging, target_path, staging_inode, plan FROM workspace_journal");
        if (!statement)
            return errorOf(statement);
        int rc = 0;
        while ((rc = sqlite3_step(statement->get())) == SQLITE_ROW) {
            sqlite3_stmt* s = statement->get();
            entries.push_back(Entry{sqlite3_column_int64(s, 0), sqlite3_column_int64(s, 1), sqlite::columnString(s, 2),
                                    sqlite::columnString(s, 3), static_cast<std::uint64_t>(sqlite3_column_int64(s, 4)),
                                    sqlite::columnString(s, 5)});
        }
        if (rc != SQLITE_DONE)
            return db.error("cannot read the restore journal");
    }
    for (const auto& entry : entries) {
        auto plan = newCheckpointFromJson(entry.plan);
        if (!plan)
            return errorOf(plan);
        const std::string& name = plan->first.sandboxName;
        if (!validateName(name) || entry.staging.find('/') != std::string::npos
            || !entry.staging.starts_with(kStagingPrefix))
            return fail(fmt::format("store {}: restore journal row {} is damaged", db.path().string(), entry.id));
        auto lock = FileLock::tryAcquire(lockOf(name), FileLock::Mode::Exclusive);
        if (!lock)
            return errorOf(lock);
        if (!lock->valid())
            continue; // its restore is still running
        auto garbage = lockGarbage(FileLock::Mode::Shared);
        if (!garbage)
            return errorOf(garbage);
        // Settled by another process while we waited for the lock?
        auto still = db.prepare(fmt::format("SELECT 1 FROM workspace_journal WHERE id = {}", entry.id));
        if (!still)
            return errorOf(still);
        if (sqlite3_step(still->get()) != SQLITE_ROW)
            continue;
        auto sandbox = findSandbox(name);
        if (!sandbox)
            return errorOf(sandbox);
        const fs::path staging = sandboxFolder(name) / entry.staging;
        if (!*sandbox) {
            (void)db.exec(fmt::format("DELETE FROM workspace_journal WHERE id = {}", entry.id), "settle the journal");
            continue;
        }
        const auto planJson = nlohmann::json::parse(entry.plan, nullptr, false);
        const std::string kindText = planJson.is_object() && planJson.contains("swap") && planJson["swap"].is_string()
                                         ? planJson["swap"].get<std::string>()
                                         : std::string("exchange");
        const SwapPlan::Kind kind = kindText == "add"      ? SwapPlan::Kind::Add
                                    : kindText == "remove" ? SwapPlan::Kind::Remove
                                                           : SwapPlan::Kind::Exchange;
        const bool swappedIn = settleSwap(**sandbox, entry.swapped, kind, entry.inode, staging);
        if (swappedIn) {
            const nlohmann::json* promotion =
                planJson.is_object() && planJson.contains("promotion") ? &planJson["promotion"] : nullptr;
            auto made = finishRestore(plan->first, plan->second, nullptr, entry.swapped, entry.id, true, promotion);
            if (!made)
                return errorOf(made);
        } else if (auto ok = db.exec(fmt::format("DELETE FROM workspace_journal WHERE id = {}", entry.id),
                                     "cannot settle the restore journal");
                   !ok) {
            return ok;
        }
        (void)removeTree(staging);
        (void)removeTree(staging.string() + ".old");
    }
    return cleanLeftovers();
}

// Whether the restored entry is (now) in place. A two-rename exchange (file systems without
// RENAME_EXCHANGE) cut between its renames is finished here, the journal being written.
bool SandboxEngine::Impl::settleSwap(const SandboxRow& sandbox, const std::string& swapped, SwapPlan::Kind kind,
                                     std::uint64_t inode, const fs::path& staging)
{
    auto place = swapPlace(sandbox, swapped);
    if (!place)
        return false;
    struct stat st {};
    if (::fstatat(place->first.get(), place->second.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0)
        return kind != SwapPlan::Kind::Remove && static_cast<std::uint64_t>(st.st_ino) == inode;
    if (errno != ENOENT)
        return false;
    if (kind == SwapPlan::Kind::Remove)
        return true;
    if (kind == SwapPlan::Kind::Add)
        return false;
    auto folder = openDirectory(staging.parent_path());
    if (!folder)
        return false;
    const std::string name = staging.filename().string();
    if (::renameat(folder->get(), name.c_str(), place->first.get(), place->second.c_str()) == 0)
        return true;
    (void)::renameat(folder->get(), (name + ".old").c_str(), place->first.get(), place->second.c_str());
    return false;
}

// Staging folders of restores that never reached the journal, and half-written new workspaces, of
// sandboxes no one is working on; a workspace folder that is missing is written again from its head.
Result<void> SandboxEngine::Impl::cleanLeftovers()
{
    auto rows = sandboxRows(std::nullopt);
    if (!rows)
        return errorOf(rows);
    for (const auto& row : *rows) {
        const fs::path folder = sandboxFolder(row.info.name);
        std::error_code ec;
        // An archived sandbox has no workspace folder on purpose: its next use writes it.
        bool leftovers = !row.info.archived && !fs::exists(fs::symlink_status(row.info.workspace, ec));
        for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
            const std::string entryName = it->path().filename().string();
            if (entryName.starts_with(kStagingPrefix) || entryName == kNewWorkspaceFolder)
                leftovers = true;
        }
        if (!leftovers)
            continue;
        auto lock = FileLock::tryAcquire(lockOf(row.info.name), FileLock::Mode::Exclusive);
        if (!lock)
            return errorOf(lock);
        if (!lock->valid())
            continue;
        // The rows were read before the lock: the command that held it may have destroyed the sandbox (its
        // folder and head gone), made it anew, or journaled a restore since.
        auto current = findSandbox(row.info.name);
        if (!current)
            return errorOf(current);
        if (!*current)
            continue;
        if (auto ok = cleanLeftoversLocked(**current); !ok)
            return ok;
    }
    return {};
}

Result<void> SandboxEngine::Impl::cleanLeftoversLocked(const SandboxRow& sandbox)
{
    std::set<std::string> journaled;
    {
        auto statement = db.prepare("SELECT staging FROM workspace_journal WHERE sandbox_id = ?1");
        if (!statement)
            return errorOf(statement);
        sqlite3_bind_int64(statement->get(), 1, sandbox.id);
        while (sqlite3_step(statement->get()) == SQLITE_ROW)
            journaled.insert(sqlite::columnString(statement->get(), 0));
    }
    const fs::path folder = sandboxFolder(sandbox.info.name);
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string entryName = it->path().filename().string();
        const std::string owner = entryName.ends_with(".old") ? entryName.substr(0, entryName.size() - 4) : entryName;
        if ((entryName.starts_with(kStagingPrefix) && !journaled.contains(owner)) || entryName == kNewWorkspaceFolder)
            (void)removeTree(it->path());
    }
    const bool workspaceMissing = !sandbox.info.archived && !fs::exists(fs::symlink_status(sandbox.info.workspace, ec));
    if (!workspaceMissing || !sandbox.headRow)
        return {};
    auto head = checkpointByRow(*sandbox.headRow);
    if (!head)
        return errorOf(head);
    if (auto ok = makeDirectories(folder); !ok)
        return ok;
    TreeReader reader(blobs);
    if (auto written = writeWorkspace(reader, head->info.tree, folder, {}); !written)
        return errorOf(written);
    (void)dropStatCacheUnder(sandbox.id, "");
    return {};
}

} // namespace sb
