// Watched workspaces: a long-lived engine (the run helper's) walks only what a watch of the workspace saw change.

#include "engine_internal.h"

#include <algorithm>

namespace sb {

using namespace engine;

namespace {

// A watch that could not start (another file system, no watches left) is not tried again for this long.
constexpr std::chrono::seconds kRetryRefusedWatch{60};

// The directory that holds a '/'-separated path ("" for the root).
std::string parentOf(const std::string& path)
{
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

} // namespace

void SandboxEngine::watchWorkspaces()
{
    m_impl->watching = true;
}

Result<std::int64_t> SandboxEngine::Impl::dataVersion()
{
    auto statement = db.prepare("PRAGMA data_version");
    if (!statement)
        return errorOf(statement);
    if (sqlite3_step(statement->get()) != SQLITE_ROW)
        return db.error("cannot read the store's data version");
    return sqlite3_column_int64(statement->get(), 0);
}

std::optional<SandboxEngine::Impl::WalkGuide> SandboxEngine::Impl::guideWalk(const SandboxRow& sandbox)
{
    if (!watching)
        return std::nullopt;
    const auto version = dataVersion();
    if (!version)
        return std::nullopt;
    auto it = watched.find(sandbox.id);
    if (it == watched.end() || it->second.workspace != sandbox.info.workspace) {
        if (it == watched.end() && watched.size() >= SandboxEngine::kMaxWatched) {
            auto oldest = std::min_element(watched.begin(), watched.end(), [](const auto& a, const auto& b) {
                return a.second.lastUse < b.second.lastUse;
            });
            watched.erase(oldest);
        }
        it = watched.insert_or_assign(sandbox.id, WatchedWorkspace{sandbox.info.workspace, nullptr, {}, {}, 0}).first;
    }
    WatchedWorkspace& entry = it->second;
    entry.lastUse = ++watchUses;
    const auto now = std::chrono::steady_clock::now();
    if (!entry.watch && (!entry.refusedAt || now - *entry.refusedAt >= kRetryRefusedWatch)) {
        auto started = WorkspaceWatch::start(sandbox.info.workspace);
        if (started) {
            entry.watch = std::move(*started);
            entry.refusedAt.reset();
        } else {
            entry.refusedAt = now;
        }
    }
    if (!entry.watch)
        return std::nullopt;
    WalkGuide guide;
    guide.dataVersion = *version;
    WorkspaceWatch::Changes changes = entry.watch->take();
    std::optional<KnownWalk> known = std::exchange(entry.known, std::nullopt);
    if (changes.everything || !known || known->dataVersion != *version || !sandbox.headRow
        || known->head.id != *sandbox.headRow)
        return guide;
    guide.changed = std::move(changes.directories);
    guide.changed.insert(known->skippedIn.begin(), known->skippedIn.end());
    guide.known = std::move(known);
    return guide;
}

void SandboxEngine::Impl::rememberWalk(std::int64_t sandboxId, const WalkGuide& guide, CheckpointRow head,
                                       StatCache cache, const std::vector<Skipped>& skipped)
{
    auto it = watched.find(sandboxId);
    if (it == watched.end() || !it->second.watch)
        return;
    KnownWalk known;
    known.head = std::move(head);
    known.dataVersion = guide.dataVersion;
    known.cache = std::move(cache);
    for (const Skipped& item : skipped)
        known.skippedIn.insert(parentOf(item.path));
    it->second.known = std::move(known);
}

void SandboxEngine::Impl::forgetWalk(std::int64_t sandboxId)
{
    if (auto it = watched.find(sandboxId); it != watched.end())
        it->second.known.reset();
}

} // namespace sb
