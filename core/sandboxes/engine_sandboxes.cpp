// Walking and saving workspaces, making sandboxes (main, from a sandbox, a checkpoint or a folder), destroying them.

#include "engine_internal.h"

#include <fcntl.h>
#include <sys/stat.h>

namespace sb {

namespace {
const std::chrono::steady_clock::time_point g_processStart = std::chrono::steady_clock::now(); // StepTrace's
}

std::chrono::steady_clock::time_point engine::StepTrace::processStart()
{
    return g_processStart;
}

using namespace engine;

ScanOptions SandboxEngine::Impl::scanOptions(const StatCache* cache, BlobStore* into,
                                             const ProgressCallback& progress) const
{
    ScanOptions options;
    options.store = into;
    options.cache = cache;
    options.maxFileSize = maxFileSize;
    if (progress) {
        options.progress = [progress](const ScanProgress& p) {
            return progress(Progress{SB_TR("checkpoint progress", "scanning"), p.files, 0, p.path});
        };
    }
    return options;
}

// Walks a workspace through its stat cache. Listings taken from the cache must be in the store; should
// one be missing (a collection removed what only a pruned checkpoint held) the walk is done again building
// every listing.
Result<ScanResult> SandboxEngine::Impl::walkWorkspace(const fs::path& workspace, const StatCache& cache,
                                                      BlobStore* into, const ProgressCallback& progress,
                                                      StatPrefetch* prefetch, const std::set<std::string>* changed)
{
    ScanOptions options = scanOptions(&cache, into, progress);
    options.prefetch = prefetch;
    options.changed = changed;
    auto scan = scanFolder(workspace, options);
    if (!scan)
        return scan;
    for (const auto& listing : scan->reusedListings) {
        auto present = blobs.contains(listing);
        if (!present)
            return errorOf(present);
        if (!*present) {
            options.reuseListings = false;
            options.prefetch = nullptr; // its stats are the first walk's
            options.changed = nullptr;
            return scanFolder(workspace, options);
        }
    }
    return scan;
}

// Walks the sandbox's workspace, storing new content, and records a checkpoint of it (always, or only when
// it differs from the head). Call with the sandbox and the shared garbage lock held.
Result<SandboxEngine::Impl::Saved> SandboxEngine::Impl::saveWorkspace(const SandboxRow& sandbox,
                                                                      const SaveRequest& request,
                                                                      const ProgressCallback& progress)
{
    if (!sandbox.headRow)
        return fail(fmt::format("sandbox '{}' has no head checkpoint (the store was edited?)", sandbox.info.name));
    const StepTrace trace("save");
    std::optional<CheckpointRow> head;
    StatCache cache;
    std::unique_ptr<StatPrefetch> prefetch;
    std::optional<LastSave> last = std::exchange(lastSave, std::nullopt);
    // A watched workspace: the watch's changes are taken now, before the walk, so that none made during it is
    // lost; what the last walk left is used when it still holds.
    std::optional<WalkGuide> guide = guideWalk(sandbox);
    const bool guided = guide && guide->known;
    if (guided) {
        head = std::move(guide->known->head);
        cache = std::move(guide->known->cache);
    } else if (request.reuseLast && last && last->sandboxId == sandbox.id && last->head.id == *sandbox.headRow) {
        head = std::move(last->head);
        cache = std::move(last->cache);
    } else {
        auto found = checkpointByRow(*sandbox.headRow);
        if (!found)
            return errorOf(found);
        head = std::move(*found);
        // A large workspace is mostly unchanged files to stat: another thread starts on them now, while the
        // stat cache is read.
        if (head->info.files >= StatPrefetch::kMinFiles)
            prefetch = StatPrefetch::start(sandbox.info.workspace);
        // The stat cache only saves reading files: one that cannot be read is walked without.
        cache = loadStatCache(sandbox.id).value_or(StatCache{});
    }
    if (request.reading)
        request.reading->end();
    trace("cache loaded");
    // After a save through the sandbox's hold, the next one starts from what this one leaves in the store.
    const auto keep = [&](const CheckpointRow& newHead, StatCache&& newCache) {
        if (request.reuseLast)
            lastSave = LastSave{sandbox.id, newHead, std::move(newCache)};
    };
    if (auto ok = blobs.beginBatch(); !ok)
        return errorOf(ok);
    auto scan = walkWorkspace(sandbox.info.workspace, cache, &blobs, progress, prefetch.get(),
                              guided ? &guide->changed : nullptr);
    prefetch.reset();
    if (!scan) {
        (void)blobs.endBatch(); // what was stored is kept: unreferenced, the next collection takes it
        return errorOf(scan);
    }
    trace("walked");
    if (auto ok = blobs.endBatch(); !ok)
        return errorOf(ok);

    if (request.quotaBytes && scan->bytes > *request.quotaBytes)
        return fail(fmt::format("sandbox '{}' holds {} bytes, over its quota of {} bytes: nothing was checkpointed "
                                "(free space, or raise the quota with: sandbench sandbox set {} --quota SIZE)",
                                sandbox.info.name, scan->bytes, *request.quotaBytes, sandbox.info.name));
    step("checkpoint.stored");
    Saved saved;
    saved.head = std::move(*head);
    const bool unchanged = scan->root == saved.head.info.tree;
    // Unchanged, and so is every folder the stat cache knows: nothing to write (no transaction either).
    const bool cacheCurrent = unchanged && scan->directories == cache;
    // The store's stat cache is the walk's from here on: the next walk of a watched workspace starts from it.
    const auto remember = [&](const CheckpointRow& newHead) {
        if (guide)
            rememberWalk(sandbox.id, *guide, newHead, scan->directories, scan->skipped);
    };
    if (!request.record || (unchanged && !request.always && (request.deferCache || cacheCurrent))) {
        if (request.record && cacheCurrent)
            remember(saved.head);
        saved.guide = std::move(guide);
        saved.cacheSaved = cacheCurrent;
        saved.scan = std::move(*scan);
        if (request.record && cacheCurrent)
            keep(saved.head, std::move(cache));
        else
            saved.cache = std::move(cache);
        return saved;
    }
    sqlite::Transaction transaction(db);
    if (auto ok = transaction.begin(); !ok)
        return errorOf(ok);
    if (auto ok = updateStatCache(sandbox.id, cache, *scan); !ok)
        return errorOf(ok);
    saved.cacheSaved = true;
    trace("cache saved");
    if (unchanged && !request.always) {
        if (auto ok = transaction.commit(); !ok)
            return errorOf(ok);
        remember(saved.head);
        saved.guide = std::move(guide);
        keep(saved.head, std::move(scan->directories));
        saved.scan = std::move(*scan);
        return saved;
    }

    if (auto ok = storeListings(scan->trees); !ok)
        return errorOf(ok);
    trace("listings");
    TreeReader reader(blobs);
    reader.addUnstored(&scan->trees);
    auto changes = diffTrees(reader, saved.head.info.tree, scan->root);
    if (!changes)
        return errorOf(changes);
    saved.changes = countChanges(*changes);
    trace("diffed");

    NewCheckpoint c;
    c.sandboxId = sandbox.id;
    c.sandboxName = sandbox.info.name;
    c.tree = scan->root;
    c.parents = {saved.head.info.id};
    c.kind = request.kind;
    c.label = request.label;
    c.message = request.message;
    c.author = actorOr(request.author);
    c.createdAtMs = clock();
    c.files = scan->files;
    c.bytes = scan->bytes;
    c.meta = metaText(sandbox.info.policy, sandbox.info.datasets);
    auto made = addCheckpoint(c);
    if (!made)
        return errorOf(made);
    if (auto ok = setHead(sandbox.id, made->id); !ok)
        return errorOf(ok);
    trace("recorded");
    const nlohmann::json details = {{"kind", c.kind},
                                    {"label", c.label},
                                    {"parent", saved.head.info.id},
                                    {"tree", hashHex(c.tree)},
                                    {"files", c.files},
                                    {"bytes", c.bytes},
                                    {"added", saved.changes.added},
                                    {"removed", saved.changes.removed},
                                    {"modified", saved.changes.modified}};
    if (auto ok = commit(transaction, Operation{"checkpoint.create", sandbox.info.name, made->info.id, c.author,
                                                c.createdAtMs, jsonText(details)});
        !ok)
        return errorOf(ok);
    trace("committed");
    remember(*made);
    saved.guide = std::move(guide);
    keep(*made, std::move(scan->directories));
    saved.head = *made;
    saved.made = std::move(*made);
    saved.scan = std::move(*scan);
    return saved;
}

Result<SandboxRow> SandboxEngine::Impl::ensureMain()
{
    auto existing = findSandbox(kMain);
    if (!existing)
        return errorOf(existing);
    if (*existing)
        return std::move(**existing);
    auto lock = lockSandbox(kMain);
    if (!lock)
        return errorOf(lock);
    auto garbage = lockGarbage(FileLock::Mode::Shared);
    if (!garbage)
        return errorOf(garbage);
    existing = findSandbox(kMain); // another process may have made it while we waited
    if (!existing)
        return errorOf(existing);
    if (*existing)
        return std::move(**existing);

    // Whatever is already in main's folder (a store made anew beside an old folder) is its first state.
    if (auto ok = makeDirectories(workspaceOf(kMain)); !ok)
        return errorOf(ok);
    if (auto ok = blobs.beginBatch(); !ok)
        return errorOf(ok);
    auto scan = scanFolder(workspaceOf(kMain), scanOptions(nullptr, &blobs, {}));
    if (!scan) {
        (void)blobs.endBatch();
        return errorOf(scan);
    }
    if (auto ok = blobs.endBatch(); !ok)
        return errorOf(ok);

    const std::string author = currentUser();
    const std::int64_t now = clock();
    sqlite::Transaction transaction(db);
    if (auto ok = transaction.begin(); !ok)
        return errorOf(ok);
    auto sandboxId = insertSandbox(std::string(kMain), author, now, std::nullopt, "", {}, {});
    if (!sandboxId)
        return errorOf(sandboxId);
    if (auto ok = storeListings(scan->trees); !ok)
        return errorOf(ok);
    NewCheckpoint c;
    c.sandboxId = *sandboxId;
    c.sandboxName = std::string(kMain);
    c.tree = scan->root;
    c.kind = "create";
    c.message = "main, the production sandbox, first used";
    c.meta = metaText({}, {});
    c.author = author;
    c.createdAtMs = now;
    c.files = scan->files;
    c.bytes = scan->bytes;
    auto made = addCheckpoint(c);
    if (!made)
        return errorOf(made);
    if (auto ok = setHead(*sandboxId, made->id); !ok)
        return errorOf(ok);
    if (auto ok = updateStatCache(*sandboxId, {}, *scan); !ok)
        return errorOf(ok);
    const nlohmann::json details = {{"origin", ""}, {"checkpoint", made->info.id}, {"implicit", true}};
    if (auto ok = commit(transaction, Operation{"sandbox.create", std::string(kMain), made->info.id, author, now,
                                                jsonText(details)});
        !ok)
        return errorOf(ok);
    auto row = findSandbox(kMain);
    if (!row)
        return errorOf(row);
    if (!*row)
        return fail("main vanished right after it was created");
    return std::move(**row);
}

Result<SandboxEngine::Impl::Totals> SandboxEngine::Impl::totalsOf(TreeReader& reader, const ContentHash& tree)
{
    auto listing = reader.read(tree);
    if (!listing)
        return errorOf(listing);
    Totals totals;
    for (const auto& entry : (*listing)->entries) {
        totals.files += entry.type == EntryType::Directory ? entry.files : 1;
        totals.bytes += entry.size;
    }
    return totals;
}

// The part of `tree` a filter takes, as new listings added to `out`; nullopt-free: an empty tree at worst.
Result<std::optional<TreeEntry>> SandboxEngine::Impl::filterTree(TreeReader& reader, const ContentHash& tree,
                                                                 const PathFilter& filter, const std::string& prefix,
                                                                 TreeReader::Listings& out)
{
    auto listing = reader.read(tree);
    if (!listing)
        return errorOf(listing);
    Tree kept;
    std::uint64_t files = 0;
    std::uint64_t bytes = 0;
    // Copied: the recursion reads more listings (the reader's map keeps references valid, but be plain).
    const std::vector<TreeEntry> entries = (*listing)->entries;
    for (const auto& entry : entries) {
        const std::string path = prefix.empty() ? entry.name : prefix + "/" + entry.name;
        if (entry.type == EntryType::Directory) {
            if (filter.skipsDirectory(path))
                continue;
            auto child = filterTree(reader, entry.hash, filter, path, out);
            if (!child)
                return errorOf(child);
            if (!*child)
                continue;
            TreeEntry copy = entry;
            copy.hash = (*child)->hash;
            copy.files = (*child)->files;
            copy.size = (*child)->size;
            files += copy.files;
            bytes += copy.size;
            kept.entries.push_back(std::move(copy));
        } else if (filter.takes(path)) {
            files += 1;
            bytes += entry.size;
            kept.entries.push_back(entry);
        }
    }
    if (kept.entries.empty() && !prefix.empty() && !filter.takes(prefix))
        return std::optional<TreeEntry>{};
    std::string bytesOut = serializeTree(kept);
    auto digest = sha256(bytesOut);
    if (!digest)
        return errorOf(digest);
    out.try_emplace(*digest, std::move(bytesOut));
    TreeEntry summary;
    summary.type = EntryType::Directory;
    summary.hash = *digest;
    summary.files = files;
    summary.size = bytes;
    return std::optional<TreeEntry>(std::move(summary));
}

// Writes `tree` as a new workspace of `folder`'s sandbox: into workspace.new, then renamed into place.
Result<WriteStats> SandboxEngine::Impl::writeWorkspace(TreeReader& reader, const ContentHash& tree,
                                                       const fs::path& folder, const ProgressCallback& progress)
{
    const fs::path staging = folder / kNewWorkspaceFolder;
    if (auto ok = removeTree(staging); !ok)
        return errorOf(ok);
    if (::mkdir(staging.c_str(), 0700) != 0)
        return fail(fmt::format("cannot create {}: {}", staging.string(), errnoText(errno)));
    auto fd = openDirectory(staging);
    if (!fd)
        return errorOf(fd);
    std::function<bool(std::uint64_t)> onFile;
    if (progress)
        onFile = [&](std::uint64_t files) { return progress(Progress{SB_TR("checkpoint progress", "writing"), files, 0, {}}); };
    auto stats = writeTree(reader, tree, fd->get(), nullptr, onFile);
    if (!stats)
        return errorOf(stats);
    const fs::path workspace = folder / kWorkspaceFolder;
    if (::rename(staging.c_str(), workspace.c_str()) != 0)
        return fail(fmt::format("cannot move {} into place: {}", staging.string(), errnoText(errno)));
    return stats;
}

namespace {

// What a creation asks is possible before anything is looked up or locked.
Result<void> checkCreateRequest(const CreateSandboxRequest& request)
{
    if (auto ok = SandboxEngine::validateName(request.name); !ok)
        return errorOf(ok);
    if (request.name == SandboxEngine::kMain)
        return fail("'main' is the production sandbox: it exists from the first use of the store and is not "
                    "created");
    if (request.importFrom && !request.from.empty())
        return fail("a sandbox comes from a sandbox or checkpoint, or from an imported folder: not both");
    if (request.expiresInMs && *request.expiresInMs <= 0)
        return fail("an expiry must lie in the future");
    if (request.idleTimeoutMs && *request.idleTimeoutMs <= 0)
        return fail("an idle timeout must be longer than zero");
    if (request.quotaBytes && *request.quotaBytes == 0)
        return fail("a quota must be larger than zero");
    return {};
}

} // namespace

Result<void> SandboxEngine::Impl::findOrigin(const CreateSandboxRequest& request, std::string& fromSandbox,
                                             std::optional<CheckpointRow>& fromCheckpoint)
{
    if (request.importFrom)
        return {};
    const std::string from = request.from.empty() ? std::string(kMain) : request.from;
    bool isSandbox = from == kMain;
    if (!isSandbox && validateName(from)) {
        auto row = findSandbox(from);
        if (!row)
            return errorOf(row);
        isSandbox = row->has_value();
    }
    if (isSandbox) {
        fromSandbox = from;
        if (from == kMain) {
            if (auto main = ensureMain(); !main)
                return errorOf(main);
        }
    } else if (isHexPrefix(from) && from.size() >= 4) {
        auto checkpoint = resolveCheckpoint(from);
        if (!checkpoint)
            return errorOf(checkpoint);
        fromCheckpoint = std::move(*checkpoint);
    } else {
        return fail(fmt::format("no sandbox or checkpoint named '{}'", from));
    }
    return {};
}

Result<SandboxEngine::Impl::Source>
SandboxEngine::Impl::takeSource(const CreateSandboxRequest& request, const std::string& fromSandbox,
                                std::optional<CheckpointRow>& fromCheckpoint, const PathFilter& filter,
                                TreeReader& reader, const ProgressCallback& progress)
{
    Source source;
    if (request.importFrom) {
        auto imported = importFolder(*request.importFrom, filter, progress);
        if (!imported)
            return errorOf(imported);
        source = std::move(*imported);
    } else if (!fromSandbox.empty()) {
        auto row = requireSandbox(fromSandbox);
        if (!row)
            return errorOf(row);
        if (auto ok = revive(*row); !ok)
            return errorOf(ok);
        source.policy = row->info.policy;
        source.datasets = row->info.datasets;
        SaveRequest save;
        save.always = false;
        save.kind = "auto";
        save.message = fmt::format("unsaved changes, saved before sandbox '{}' was made from it", request.name);
        auto saved = saveWorkspace(*row, save, progress);
        if (!saved)
            return errorOf(saved);
        if (saved->made)
            source.saved = saved->made->info;
        source.tree = saved->head.info.tree;
        source.origin = fromSandbox == kMain ? std::string(kMain) : fmt::format("sandbox {}", fromSandbox);
        source.checkpoint = std::move(saved->head);
    } else {
        source.policy = fromCheckpoint->info.policy;
        source.datasets = fromCheckpoint->info.datasets;
        source.tree = fromCheckpoint->info.tree;
        source.origin = fmt::format("checkpoint {}", fromCheckpoint->info.id);
        source.checkpoint = std::move(*fromCheckpoint);
    }
    if (!request.importFrom && !filter.empty()) {
        auto filtered = filterTree(reader, source.tree, filter, "", source.listings);
        if (!filtered)
            return errorOf(filtered);
        source.tree = (*filtered)->hash;
    }
    return source;
}

Result<CheckpointRow> SandboxEngine::Impl::recordNewSandbox(const CreateSandboxRequest& request, std::string_view kind,
                                                            const Source& source, const Totals& totals,
                                                            SandboxInfo& governance)
{
    const std::string author = actorOr(request.owner);
    const std::int64_t now = clock();
    sqlite::Transaction transaction(db);
    if (auto ok = transaction.begin(); !ok)
        return errorOf(ok);
    const std::optional<std::int64_t> expires =
        request.expiresInMs ? std::optional<std::int64_t>(now + *request.expiresInMs) : std::nullopt;
    auto sandboxId =
        insertSandbox(request.name, author, now, expires, source.origin, request.includes, request.excludes);
    if (!sandboxId)
        return errorOf(sandboxId);
    governance.owner = author;
    governance.expiresAtMs = expires;
    if (auto ok = writeGovernance(*sandboxId, governance); !ok)
        return errorOf(ok);
    if (auto ok = storeListings(source.listings); !ok)
        return errorOf(ok);
    NewCheckpoint c;
    c.sandboxId = *sandboxId;
    c.sandboxName = request.name;
    c.tree = source.tree;
    if (source.checkpoint)
        c.parents = {source.checkpoint->info.id};
    c.kind = std::string(kind);
    c.message =
        fmt::format("sandbox '{}' made from {}", request.name,
                    request.importFrom ? fmt::format("folder {}", request.importFrom->string()) : source.origin);
    c.author = author;
    c.createdAtMs = now;
    c.source = source.checkpoint ? source.checkpoint->info.id : std::string();
    c.files = totals.files;
    c.bytes = totals.bytes;
    c.meta = metaText(governance.policy, governance.datasets);
    auto made = addCheckpoint(c);
    if (!made)
        return errorOf(made);
    if (auto ok = setHead(*sandboxId, made->id); !ok)
        return errorOf(ok);
    const nlohmann::json details = {{"origin", source.origin},
                                    {"checkpoint", made->info.id},
                                    {"source", c.source},
                                    {"includes", request.includes},
                                    {"excludes", request.excludes},
                                    {"expires_at_ms", expires ? nlohmann::json(*expires) : nlohmann::json()},
                                    {"files", c.files},
                                    {"bytes", c.bytes},
                                    {"skipped", source.skipped.size()},
                                    {"quota_bytes", governance.quotaBytes ? nlohmann::json(*governance.quotaBytes)
                                                                          : nlohmann::json()},
                                    {"idle_timeout_ms", governance.idleTimeoutMs
                                                            ? nlohmann::json(*governance.idleTimeoutMs)
                                                            : nlohmann::json()},
                                    {"policy", governance.policy},
                                    {"datasets", datasetsToJson(governance.datasets)}};
    const std::string action = kind == "fork" ? "checkpoint.fork" : "sandbox.create";
    if (auto ok = commit(transaction, Operation{action, request.name, made->info.id, author, now, jsonText(details)});
        !ok)
        return errorOf(ok);
    return made;
}

Result<CreateSandboxResult> SandboxEngine::Impl::create(const CreateSandboxRequest& request, std::string_view kind,
                                                        const ProgressCallback& progress)
{
    if (auto ok = checkCreateRequest(request); !ok)
        return errorOf(ok);
    auto filter = PathFilter::make(request.includes, request.excludes);
    if (!filter)
        return errorOf(filter);
    if (auto ok = prepareFolders(); !ok)
        return errorOf(ok);

    // What the sandbox comes from: a sandbox (its current workspace), a checkpoint, or a folder.
    std::string fromSandbox;
    std::optional<CheckpointRow> fromCheckpoint;
    if (auto ok = findOrigin(request, fromSandbox, fromCheckpoint); !ok)
        return errorOf(ok);

    // Both names locked, in name order, so two creations from each other cannot wait on each other.
    std::vector<std::string> names = {request.name};
    if (!fromSandbox.empty())
        names.push_back(fromSandbox);
    auto locks = lockSandboxes(std::move(names));
    if (!locks)
        return errorOf(locks);
    auto garbage = lockGarbage(FileLock::Mode::Shared);
    if (!garbage)
        return errorOf(garbage);

    auto existing = findSandbox(request.name);
    if (!existing)
        return errorOf(existing);
    if (*existing)
        return fail(fmt::format("a sandbox named '{}' exists already", request.name));

    TreeReader reader(blobs);
    auto source = takeSource(request, fromSandbox, fromCheckpoint, *filter, reader, progress);
    if (!source)
        return errorOf(source);
    reader.addUnstored(&source->listings);
    auto totals = totalsOf(reader, source->tree);
    if (!totals)
        return errorOf(totals);
    if (request.quotaBytes && totals->bytes > *request.quotaBytes)
        return fail(fmt::format("sandbox '{}' would hold {} bytes, over its quota of {} bytes: nothing was created",
                                request.name, totals->bytes, *request.quotaBytes));
    SandboxInfo governance;
    governance.quotaBytes = request.quotaBytes;
    governance.idleTimeoutMs = request.idleTimeoutMs;
    governance.policy = request.policy ? *request.policy : source->policy;
    governance.datasets = std::move(source->datasets);
    for (const auto& add : request.datasets) {
        std::erase_if(governance.datasets, [&](const DatasetRef& r) { return r.name == add.name; });
        governance.datasets.push_back(add);
    }

    // The folder: anything left under this name (a crash, a destroy cut short) goes first.
    const fs::path folder = sandboxFolder(request.name);
    if (auto ok = discardFolder(folder); !ok)
        return errorOf(ok);
    if (::mkdir(folder.c_str(), 0700) != 0)
        return fail(fmt::format("cannot create {}: {}", folder.string(), errnoText(errno)));
    auto cleanup = [&](const Error& error) -> std::unexpected<Error> {
        (void)removeTree(folder);
        return std::unexpected(error);
    };
    if (auto written = writeWorkspace(reader, source->tree, folder, progress); !written)
        return cleanup(written.error());
    step("create.written");
    auto made = recordNewSandbox(request, kind, *source, *totals, governance);
    if (!made)
        return cleanup(made.error());

    auto row = findSandbox(request.name);
    if (!row)
        return errorOf(row);
    if (!*row)
        return fail(fmt::format("sandbox '{}' vanished right after it was created", request.name));
    CreateSandboxResult result;
    result.sandbox = std::move((*row)->info);
    result.checkpoint = std::move(made->info);
    result.savedSource = std::move(source->saved);
    result.skipped = std::move(source->skipped);
    return result;
}

Result<SandboxEngine::Impl::Source> SandboxEngine::Impl::importFolder(const fs::path& folder, const PathFilter& filter,
                                                                      const ProgressCallback& progress)
{
    std::error_code ec;
    const fs::path absolute = fs::absolute(folder, ec);
    struct stat st {};
    if (::stat(absolute.c_str(), &st) != 0)
        return fail(fmt::format("cannot import {}: {}", folder.string(), errnoText(errno)));
    if (!S_ISDIR(st.st_mode))
        return fail(fmt::format("cannot import {}: not a folder", folder.string()));
    ScanOptions options = scanOptions(nullptr, &blobs, progress);
    options.filter = &filter;
    options.followRoot = true;
    // The store's own files are never imported (importing a folder that holds the store).
    for (const fs::path& own :
         {store.path(), fs::path(store.path().string() + "-wal"), fs::path(store.path().string() + "-shm"), root}) {
        struct stat ownStat {};
        if (::stat(own.c_str(), &ownStat) == 0)
            options.ignore.emplace_back(static_cast<std::uint64_t>(ownStat.st_dev),
                                        static_cast<std::uint64_t>(ownStat.st_ino));
    }
    if (auto ok = blobs.beginBatch(); !ok)
        return errorOf(ok);
    auto scan = scanFolder(absolute, options);
    if (!scan) {
        (void)blobs.endBatch();
        return errorOf(scan);
    }
    if (auto ok = blobs.endBatch(); !ok)
        return errorOf(ok);
    Source source;
    source.tree = scan->root;
    source.origin = fmt::format("import {}", absolute.string());
    source.skipped = std::move(scan->skipped);
    source.listings = std::move(scan->trees);
    return source;
}

// Removes the sandbox's rows and its folder; the blobs stay for the caller's garbage collection.
Result<std::uint64_t> SandboxEngine::Impl::destroyLocked(const SandboxRow& sandbox, const std::string& action,
                                                         std::int64_t now, std::vector<std::string>* datasetsRemoved)
{
    auto doomed = checkpointRowsOfSandbox(sandbox.id);
    if (!doomed)
        return errorOf(doomed);
    auto sampledRefs = sampledDatasetsOf(sandbox);
    if (!sampledRefs)
        return errorOf(sampledRefs);
    sqlite::Transaction transaction(db);
    if (auto ok = transaction.begin(); !ok)
        return errorOf(ok);
    // The head goes with the sandbox; unlink it first so no row points at a removed checkpoint.
    if (auto ok = db.exec(fmt::format("UPDATE sandboxes SET head_id = NULL WHERE id = {}", sandbox.id),
                          "cannot destroy a sandbox");
        !ok)
        return errorOf(ok);
    if (auto ok = removeCheckpoints(*doomed); !ok)
        return errorOf(ok);
    // Snapshots sampled for this sandbox alone go with it; shared snapshots stay.
    auto sampled = dropSampledDatasets(sandbox, *sampledRefs);
    if (!sampled)
        return errorOf(sampled);
    if (auto ok = db.exec(fmt::format("DELETE FROM sandboxes WHERE id = {}", sandbox.id), "cannot destroy a sandbox");
        !ok)
        return errorOf(ok);
    const nlohmann::json details = {
        {"datasets_removed", *sampled},
        {"checkpoints_removed", doomed->size()},
        {"expired", sandbox.info.expired(now)},
        {"expires_at_ms", sandbox.info.expiresAtMs ? nlohmann::json(*sandbox.info.expiresAtMs) : nlohmann::json()}};
    if (auto ok = commit(transaction, Operation{action, sandbox.info.name, "", currentUser(), now, jsonText(details)});
        !ok)
        return errorOf(ok);
    step("destroy.recorded");
    if (datasetsRemoved)
        *datasetsRemoved = std::move(*sampled);
    if (auto ok = discardFolder(sandboxFolder(sandbox.info.name)); !ok)
        return errorOf(ok);
    return doomed->size();
}

} // namespace sb
