#include "sandboxes/sandbox_engine.h"

#include "engine_internal.h"

#include <fcntl.h>
#include <sys/stat.h>

namespace sb {

using namespace engine;

// -----------------------------------------------------------------------------------------------------------

fs::path SandboxEngine::dataFolder(const fs::path& storePath)
{
    std::error_code ec;
    fs::path absolute = fs::absolute(storePath, ec);
    if (ec)
        absolute = storePath;
    return fs::path(absolute.lexically_normal().string() + ".d");
}

Result<void> SandboxEngine::validateName(std::string_view name)
{
    auto ok = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-'; };
    if (name.empty() || name.size() > 64 || !std::isalnum(static_cast<unsigned char>(name.front()))
        || !std::all_of(name.begin(), name.end(), ok))
        return fail(fmt::format("'{}' is not a valid sandbox name: use 1 to 64 letters, digits, '.', '_' or '-', "
                                "starting with a letter or digit",
                                name));
    return {};
}

SandboxEngine::SandboxEngine(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
SandboxEngine::~SandboxEngine() = default;

Result<std::unique_ptr<SandboxEngine>> SandboxEngine::open(Store& store)
{
    auto impl = std::make_unique<Impl>(store, dataFolder(store.path()));
    if (auto ok = impl->prepareFolders(); !ok)
        return errorOf(ok);
    if (auto ok = impl->recover(); !ok)
        return errorOf(ok);
    return std::unique_ptr<SandboxEngine>(new SandboxEngine(std::move(impl)));
}

void SandboxEngine::setObserver(OperationObserver* observer)
{
    m_impl->observer = observer;
}

void SandboxEngine::setMaxFileSize(std::uint64_t bytes)
{
    m_impl->maxFileSize = bytes;
}

void SandboxEngine::setClock(std::function<std::int64_t()> clock)
{
    m_impl->clock = std::move(clock);
}

void SandboxEngine::setFaultHook(std::function<void(std::string_view step)> hook)
{
    m_impl->faultHook = std::move(hook);
}

Result<CreateSandboxResult> SandboxEngine::createSandbox(const CreateSandboxRequest& request,
                                                         const ProgressCallback& progress)
{
    return m_impl->create(request, request.importFrom ? "import" : "create", progress);
}

Result<std::vector<SandboxInfo>> SandboxEngine::sandboxes()
{
    if (auto main = m_impl->ensureMain(); !main)
        return errorOf(main);
    auto rows = m_impl->sandboxRows(std::nullopt);
    if (!rows)
        return errorOf(rows);
    std::vector<SandboxInfo> out;
    for (auto& row : *rows)
        out.push_back(std::move(row.info));
    return out;
}

Result<SandboxInfo> SandboxEngine::sandbox(std::string_view name)
{
    auto row = m_impl->requireSandbox(name);
    if (!row)
        return errorOf(row);
    return std::move(row->info);
}

Result<DestroyResult> SandboxEngine::destroySandbox(std::string_view name)
{
    if (auto ok = validateName(name); !ok)
        return errorOf(ok);
    if (name == kMain)
        return fail("'main' is the production sandbox and cannot be destroyed");
    DestroyResult result;
    result.sandbox = std::string(name);
    {
        auto lock = m_impl->lockSandbox(name);
        if (!lock)
            return errorOf(lock);
        auto row = m_impl->requireSandbox(name);
        if (!row)
            return errorOf(row);
        auto removed = m_impl->destroyLocked(*row, "sandbox.destroy", m_impl->clock(), &result.datasetsRemoved);
        if (!removed)
            return errorOf(removed);
        result.checkpointsRemoved = *removed;
    }
    auto garbage = m_impl->collect();
    if (!garbage)
        return errorOf(garbage);
    result.garbage = *garbage;
    return result;
}

Result<SweepResult> SandboxEngine::sweep()
{
    SweepResult result;
    const std::int64_t now = m_impl->clock();
    auto rows = m_impl->sandboxRows(std::nullopt);
    if (!rows)
        return errorOf(rows);
    for (const auto& row : *rows) {
        if (row.info.name == kMain || !row.info.expired(now))
            continue;
        auto lock = m_impl->lockSandbox(row.info.name);
        if (!lock)
            return errorOf(lock);
        auto current = m_impl->findSandbox(row.info.name); // destroyed or renewed meanwhile?
        if (!current)
            return errorOf(current);
        if (!*current || !(*current)->info.expired(now))
            continue;
        auto removed = m_impl->destroyLocked(**current, "sandbox.sweep", now);
        if (!removed)
            return errorOf(removed);
        result.destroyed.push_back(row.info.name);
        result.checkpointsRemoved += *removed;
    }
    // Idle past their timeout: archived, never destroyed (their work is checkpointed first).
    for (const auto& row : *rows) {
        if (row.info.name == kMain || row.info.archived || row.info.expired(now) || !row.info.idleTooLong(now))
            continue;
        auto lock = m_impl->lockSandbox(row.info.name);
        if (!lock)
            return errorOf(lock);
        auto garbage = m_impl->lockGarbage(FileLock::Mode::Shared);
        if (!garbage)
            return errorOf(garbage);
        auto current = m_impl->findSandbox(row.info.name); // used, destroyed or changed meanwhile?
        if (!current)
            return errorOf(current);
        if (!*current || (*current)->info.archived || !(*current)->info.idleTooLong(now))
            continue;
        auto saved = m_impl->archive(**current, now);
        if (!saved)
            return errorOf(saved);
        result.archived.push_back(row.info.name);
        if (*saved)
            result.savedCheckpoints.push_back((*saved)->id);
    }
    // Folders of sandboxes that have no row (a destroy or create cut short), unless someone works on that name
    // now, and whatever such a cut left in trash/.
    std::set<std::string> known;
    if (auto current = m_impl->sandboxRows(std::nullopt)) {
        for (const auto& row : *current)
            known.insert(row.info.name);
    }
    std::error_code ec;
    for (fs::directory_iterator it(m_impl->root / "sandboxes", ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (known.contains(name) || !validateName(name))
            continue;
        auto lock = FileLock::tryAcquire(m_impl->lockOf(name), FileLock::Mode::Exclusive);
        if (!lock || !lock->valid())
            continue;
        auto row = m_impl->findSandbox(name);
        if (row && !*row)
            (void)m_impl->discardFolder(it->path());
    }
    for (fs::directory_iterator it(m_impl->root / "trash", ec), end; !ec && it != end; it.increment(ec))
        (void)removeTree(it->path());
    auto garbage = m_impl->collect();
    if (!garbage)
        return errorOf(garbage);
    result.garbage = *garbage;
    return result;
}

Result<CheckpointResult> SandboxEngine::checkpoint(const CheckpointRequest& request, const ProgressCallback& progress)
{
    if (request.sandbox == kMain) {
        if (auto main = m_impl->ensureMain(); !main)
            return errorOf(main);
    } else if (auto ok = validateName(request.sandbox); !ok) {
        return errorOf(ok);
    }
    auto lock = m_impl->lockSandbox(request.sandbox);
    if (!lock)
        return errorOf(lock);
    return checkpointLocked(request, progress, *lock, false);
}

Result<CheckpointResult> SandboxEngine::checkpoint(const CheckpointRequest& request, const SandboxHold& held,
                                                   const ProgressCallback& progress)
{
    if (held.sandbox.name != request.sandbox || !held.lock.valid())
        return fail(fmt::format("sandbox '{}': the checkpoint's sandbox is not the one held", request.sandbox));
    FileLock none;
    return checkpointLocked(request, progress, none, true);
}

Result<CheckpointResult> SandboxEngine::checkpointLocked(const CheckpointRequest& request,
                                                         const ProgressCallback& progress, FileLock& lock,
                                                         bool held)
{
    auto garbage = m_impl->lockGarbage(FileLock::Mode::Shared);
    if (!garbage)
        return errorOf(garbage);
    // The sandbox, its head and its stat cache, read from one snapshot.
    sqlite::ReadTransaction reading(m_impl->db);
    if (auto ok = reading.begin(); !ok)
        return errorOf(ok);
    auto sandbox = m_impl->requireSandbox(request.sandbox, engine::CheckpointCount::Skipped);
    if (!sandbox)
        return errorOf(sandbox);
    if (sandbox->info.archived) {
        reading.end(); // reviving writes
        if (auto ok = m_impl->revive(*sandbox); !ok)
            return errorOf(ok);
    }
    Impl::SaveRequest save;
    save.reuseLast = held;
    save.reading = &reading;
    save.label = request.label;
    save.message = request.message;
    save.author = request.author;
    save.quotaBytes = sandbox->info.quotaBytes;
    save.always = !request.onlyWhenChanged;
    auto saved = m_impl->saveWorkspace(*sandbox, save, progress);
    if (!saved) {
        // Over its quota: what the walk stored is referenced by nothing; freed now rather than at the next
        // collection, so a refused checkpoint leaves the store as it was.
        if (sandbox->info.quotaBytes) {
            garbage = FileLock();
            lock = FileLock();
            (void)m_impl->collect();
        }
        return errorOf(saved);
    }
    CheckpointResult result;
    result.created = saved->made.has_value();
    result.checkpoint = saved->made ? saved->made->info : saved->head.info;
    result.changes = saved->changes;
    result.skipped = std::move(saved->scan.skipped);
    result.filesRead = saved->scan.filesRead;
    result.bytesRead = saved->scan.bytesRead;
    result.newBlobs = saved->scan.newBlobs;
    result.newBytes = saved->scan.newBytes;
    result.watched = saved->guide && saved->guide->known;
    return result;
}

Result<std::vector<CheckpointInfo>> SandboxEngine::checkpoints(std::string_view name)
{
    auto sandbox = m_impl->requireSandbox(name);
    if (!sandbox)
        return errorOf(sandbox);
    auto rows = m_impl->checkpointRows("WHERE c.sandbox_id = ?1 ORDER BY c.created_at_ms DESC, c.id DESC",
                                       [&](sqlite3_stmt* s) { sqlite3_bind_int64(s, 1, sandbox->id); });
    if (!rows)
        return errorOf(rows);
    std::vector<CheckpointInfo> out;
    for (auto& row : *rows)
        out.push_back(std::move(row.info));
    return out;
}

Result<CheckpointInfo> SandboxEngine::findCheckpoint(std::string_view idOrPrefix)
{
    auto row = m_impl->resolveCheckpoint(idOrPrefix);
    if (!row)
        return errorOf(row);
    return std::move(row->info);
}

namespace {

// Reads a file of a live workspace (no symlink followed on the way), at most `limit` bytes.
Result<std::string> readLiveFile(const fs::path& workspace, const std::string& path, std::uint64_t limit)
{
    auto root = openDirectory(workspace);
    if (!root)
        return errorOf(root);
    auto folder = openRelativeDirectory(root->get(), parentPath(path));
    if (!folder)
        return errorOf(folder);
    const int fd = ::openat(folder->get(), baseName(path).c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return fail(fmt::format("{}: {}", path, errnoText(errno)));
    Fd guard(fd);
    std::string bytes;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return fail(fmt::format("{}: {}", path, errnoText(errno)));
        }
        if (n == 0)
            break;
        bytes.append(buffer, static_cast<std::size_t>(n));
        if (bytes.size() > limit)
            return fail(fmt::format("{}: larger than {} bytes", path, limit));
    }
    return bytes;
}

} // namespace

Result<DiffResult> SandboxEngine::diff(std::string_view from, std::string_view to, const DiffOptions& options,
                                       const ProgressCallback& progress, std::string_view liveSandbox)
{
    auto a = m_impl->resolveCheckpoint(from);
    if (!a)
        return errorOf(a);
    DiffResult result;
    result.from = a->info.id;
    TreeReader reader(m_impl->blobs);
    ContentHash toTree{};
    std::optional<ScanResult> scan;
    fs::path workspace;
    if (!to.empty()) {
        auto b = m_impl->resolveCheckpoint(to);
        if (!b)
            return errorOf(b);
        result.to = b->info.id;
        toTree = b->info.tree;
    } else {
        std::string name(liveSandbox);
        if (name.empty()) {
            if (!a->sandboxId)
                return fail(fmt::format("checkpoint {} belongs to sandbox '{}', which was destroyed: name a second "
                                        "checkpoint to compare with",
                                        a->info.id, a->info.sandbox));
            name = a->info.sandbox;
        }
        auto sandbox = m_impl->requireSandbox(name);
        if (!sandbox)
            return errorOf(sandbox);
        result.to = "workspace";
        result.sandbox = name;
        if (sandbox->info.archived && sandbox->headRow) {
            // An archived sandbox's workspace is its head, kept in the store.
            auto head = m_impl->checkpointByRow(*sandbox->headRow);
            if (!head)
                return errorOf(head);
            toTree = head->info.tree;
        } else {
            const StatCache cache = m_impl->loadStatCache(sandbox->id).value_or(StatCache{});
            // Read only: nothing is stored, the references are computed the way a checkpoint would.
            auto walked = m_impl->walkWorkspace(sandbox->info.workspace, cache, nullptr, progress);
            if (!walked)
                return errorOf(walked);
            scan = std::move(*walked);
            reader.addUnstored(&scan->trees);
            toTree = scan->root;
            result.skipped = scan->skipped;
            workspace = sandbox->info.workspace;
        }
    }
    auto changes = diffTrees(reader, a->info.tree, toTree);
    if (!changes)
        return errorOf(changes);
    result.counts = countChanges(*changes);

    auto contentOf = [&](const TreeEntry& entry, const std::string& path, bool live) -> Result<std::string> {
        if (entry.type == EntryType::Symlink)
            return entry.data + "\n";
        if (live)
            return readLiveFile(workspace, path, options.maxTextBytes);
        return readFileBytes(m_impl->blobs, entry, options.maxTextBytes);
    };
    for (auto& change : *changes) {
        FileDiff file;
        const TreeEntry* before = change.before ? &*change.before : nullptr;
        const TreeEntry* after = change.after ? &*change.after : nullptr;
        const bool textual = options.text && (!before || before->type != EntryType::Directory)
                             && (!after || after->type != EntryType::Directory) && (!before || !after || !before->sameContent(*after));
        if (textual) {
            const std::uint64_t largest = std::max(before ? before->size : 0, after ? after->size : 0);
            if (largest > options.maxTextBytes) {
                file.tooLarge = true;
            } else {
                std::string left;
                std::string right;
                if (before) {
                    auto bytes = contentOf(*before, change.path, false);
                    if (!bytes)
                        return errorOf(bytes);
                    left = std::move(*bytes);
                }
                if (after) {
                    auto bytes = contentOf(*after, change.path, scan.has_value());
                    if (!bytes)
                        return errorOf(bytes);
                    right = std::move(*bytes);
                }
                if (looksBinary(left) || looksBinary(right)) {
                    file.binary = true;
                } else {
                    file.unified = unifiedDiff(left, right, before ? "a/" + change.path : "/dev/null",
                                               after ? "b/" + change.path : "/dev/null", options.context);
                }
            }
        }
        file.change = std::move(change);
        result.files.push_back(std::move(file));
    }
    return result;
}

Result<RestoreResult> SandboxEngine::restore(std::string_view checkpoint, const ProgressCallback& progress,
                                             std::string_view intoSandbox)
{
    return m_impl->restore(checkpoint, progress, intoSandbox);
}

Result<CreateSandboxResult> SandboxEngine::fork(std::string_view checkpoint, std::string_view newName,
                                                const ProgressCallback& progress)
{
    auto source = m_impl->resolveCheckpoint(checkpoint);
    if (!source)
        return errorOf(source);
    CreateSandboxRequest request;
    request.name = std::string(newName);
    request.from = source->info.id;
    // A fork keeps the bounds of the sandbox it comes from (its policy and datasets come with the checkpoint).
    if (source->sandboxId) {
        auto from = m_impl->findSandbox(source->info.sandbox);
        if (!from)
            return errorOf(from);
        if (*from) {
            request.quotaBytes = (*from)->info.quotaBytes;
            request.idleTimeoutMs = (*from)->info.idleTimeoutMs;
        }
    }
    return m_impl->create(request, "fork", progress);
}

Result<PruneResult> SandboxEngine::prune(std::string_view name, const PrunePolicy& policy)
{
    if (policy.keepLast && *policy.keepLast < 0)
        return fail("--keep-last must be 0 or more");
    PruneResult result;
    result.sandbox = std::string(name);
    {
        if (name == kMain) {
            if (auto main = m_impl->ensureMain(); !main)
                return errorOf(main);
        }
        auto lock = m_impl->lockSandbox(name);
        if (!lock)
            return errorOf(lock);
        auto sandbox = m_impl->requireSandbox(name);
        if (!sandbox)
            return errorOf(sandbox);
        auto rows = m_impl->checkpointRows("WHERE c.sandbox_id = ?1 ORDER BY c.created_at_ms DESC, c.id DESC",
                                           [&](sqlite3_stmt* s) { sqlite3_bind_int64(s, 1, sandbox->id); });
        if (!rows)
            return errorOf(rows);
        // Checkpoints another sandbox's checkpoints descend from directly (where it was made or forked).
        std::set<std::int64_t> forkPoints;
        {
            auto statement = m_impl->db.prepare(
                "SELECT DISTINCT cp.parent_id FROM checkpoint_parents AS cp JOIN checkpoints AS child ON child.id = "
                "cp.child_id JOIN checkpoints AS parent ON parent.id = cp.parent_id WHERE parent.sandbox_id = ?1 AND "
                "(child.sandbox_id IS NULL OR child.sandbox_id != ?1)");
            if (!statement)
                return errorOf(statement);
            sqlite3_bind_int64(statement->get(), 1, sandbox->id);
            while (sqlite3_step(statement->get()) == SQLITE_ROW)
                forkPoints.insert(sqlite3_column_int64(statement->get(), 0));
        }
        const std::int64_t now = m_impl->clock();
        std::set<std::int64_t> doomed;
        for (std::size_t i = 0; i < rows->size(); ++i) {
            const CheckpointRow& row = (*rows)[i];
            const bool keep = (sandbox->headRow && row.id == *sandbox->headRow) || forkPoints.contains(row.id)
                              || (policy.keepLast && static_cast<std::int64_t>(i) < *policy.keepLast)
                              || (policy.keepLabelled && !row.info.label.empty())
                              || (policy.youngerThanMs && now - row.info.createdAtMs < *policy.youngerThanMs);
            if (keep) {
                ++result.kept;
            } else {
                doomed.insert(row.id);
                result.removed.push_back(row.info.id);
            }
        }
        if (!doomed.empty()) {
            sqlite::Transaction transaction(m_impl->db);
            if (auto ok = transaction.begin(); !ok)
                return errorOf(ok);
            if (auto ok = m_impl->removeCheckpoints(doomed); !ok)
                return errorOf(ok);
            nlohmann::json details = {{"removed", result.removed},
                                      {"kept", result.kept},
                                      {"keep_last", policy.keepLast ? nlohmann::json(*policy.keepLast) : nlohmann::json()},
                                      {"keep_labelled", policy.keepLabelled},
                                      {"younger_than_ms",
                                       policy.youngerThanMs ? nlohmann::json(*policy.youngerThanMs) : nlohmann::json()}};
            if (auto ok = m_impl->commit(transaction, Operation{"checkpoint.prune", result.sandbox, "", currentUser(), now,
                                                                jsonText(details)});
                !ok)
                return errorOf(ok);
        }
    }
    auto garbage = m_impl->collect();
    if (!garbage)
        return errorOf(garbage);
    result.garbage = *garbage;
    return result;
}

Result<GarbageStats> SandboxEngine::collectGarbage()
{
    return m_impl->collect();
}

Result<void> SandboxEngine::verifyCheckpoint(std::string_view checkpoint)
{
    auto row = m_impl->resolveCheckpoint(checkpoint);
    if (!row)
        return errorOf(row);
    TreeReader reader(m_impl->blobs);
    return reader.walk(row->info.tree, [&](const std::string& path, const TreeEntry& entry) -> Result<bool> {
        if (entry.type != EntryType::File)
            return true;
        auto ok = sb::readFile(m_impl->blobs, entry, [](std::string_view) -> Result<void> { return {}; });
        if (!ok)
            return fail(fmt::format("checkpoint {}: {}: {}", row->info.id, path, ok.error().message));
        return true;
    });
}

Result<std::optional<CheckpointInfo>> SandboxEngine::commonAncestor(std::string_view a, std::string_view b)
{
    auto left = m_impl->resolveCheckpoint(a);
    if (!left)
        return errorOf(left);
    auto right = m_impl->resolveCheckpoint(b);
    if (!right)
        return errorOf(right);
    auto row = m_impl->commonAncestor(left->id, right->id);
    if (!row)
        return errorOf(row);
    if (!*row)
        return std::optional<CheckpointInfo>{};
    return std::optional<CheckpointInfo>(std::move((*row)->info));
}

Result<PromotionReport> SandboxEngine::promote(const PromotionRequest& request, const ProgressCallback& progress)
{
    return m_impl->promote(request, progress);
}

Result<PromotionReport> SandboxEngine::preview(std::string_view source, std::string_view target)
{
    PromotionRequest request;
    request.source = std::string(source);
    request.target = std::string(target);
    request.mode = PromotionRequest::Mode::Preview;
    return m_impl->promote(request, {});
}

Result<std::vector<PathEntry>> SandboxEngine::files(std::string_view checkpoint)
{
    auto row = m_impl->resolveCheckpoint(checkpoint);
    if (!row)
        return errorOf(row);
    TreeReader reader(m_impl->blobs);
    std::vector<PathEntry> out;
    auto ok = reader.walk(row->info.tree, [&](const std::string& path, const TreeEntry& entry) -> Result<bool> {
        out.push_back(PathEntry{path, entry});
        return true;
    });
    if (!ok)
        return errorOf(ok);
    return out;
}

Result<std::optional<TreeEntry>> SandboxEngine::entryAt(std::string_view checkpoint, std::string_view path)
{
    auto row = m_impl->resolveCheckpoint(checkpoint);
    if (!row)
        return errorOf(row);
    TreeReader reader(m_impl->blobs);
    return reader.find(row->info.tree, path);
}

Result<std::string> SandboxEngine::readFile(const TreeEntry& entry, std::uint64_t limit)
{
    return readFileBytes(m_impl->blobs, entry, limit);
}

} // namespace sb
