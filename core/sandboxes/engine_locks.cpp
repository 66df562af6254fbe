// The engine's locks (a sandbox, several sandboxes, the garbage collection) and its folders beside the store.

#include "engine_internal.h"

#include "isolation/workspace_lending.h"

#include <fcntl.h>
#include <sys/stat.h>

namespace sb {

using namespace engine;

Result<FileLock> SandboxEngine::Impl::lockSandbox(std::string_view name)
{
    auto lock = FileLock::acquire(lockOf(name), FileLock::Mode::Exclusive, kSandboxLockWaitMs,
                                  fmt::format("sandbox '{}'", name));
    if (!lock)
        return lock;
    if (auto ok = reclaimWorkspace(name); !ok)
        return errorOf(ok);
    return lock;
}

Result<void> SandboxEngine::Impl::reclaimWorkspace(std::string_view name)
{
    struct stat folder {};
    if (::lstat(sandboxFolder(name).c_str(), &folder) != 0 || !S_ISDIR(folder.st_mode))
        return {}; // not made yet (or being made under this lock)
    const fs::path workspace = workspaceOf(name);
    if (auto ok = lending::reclaim(workspace, {folder.st_uid, folder.st_gid}); !ok)
        return fail(fmt::format("sandbox '{}': {}", name, ok.error().message));
    auto dir = openDirectory(workspace);
    if (!dir)
        return {}; // archived: no workspace folder
    std::vector<std::string> jobFolders;
    std::error_code ec;
    for (fs::directory_iterator it(workspace, ec), end; !ec && it != end; it.increment(ec)) {
        std::string entry = it->path().filename().string();
        if (entry.starts_with(lending::kJobFolderPrefix))
            jobFolders.push_back(std::move(entry));
    }
    for (const auto& job : jobFolders) {
        if (auto ok = removeTreeAt(dir->get(), job); !ok)
            return fail(fmt::format("cannot remove {} (a run's job folder): {}", (workspace / job).string(),
                                    ok.error().message));
    }
    return {};
}

Result<std::vector<FileLock>> SandboxEngine::Impl::lockSandboxes(std::vector<std::string> names)
{
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    std::vector<FileLock> locks;
    for (const auto& name : names) {
        auto lock = lockSandbox(name);
        if (!lock)
            return errorOf(lock);
        locks.push_back(std::move(*lock));
    }
    return locks;
}

Result<FileLock> SandboxEngine::Impl::lockGarbage(FileLock::Mode mode)
{
    return FileLock::acquire(root / "locks" / ".gc", mode, kGarbageLockWaitMs, "the store's garbage collection");
}

Result<void> SandboxEngine::Impl::prepareFolders()
{
    for (const char* sub : {"sandboxes", "locks", "trash"}) {
        if (auto ok = makeDirectories(root / sub); !ok)
            return ok;
    }
    return {};
}

// Moves a folder out of the way (into trash/) and removes it: the rename is atomic, so a crash during the
// removal leaves it in trash/ for the next sweep, never half in place.
Result<void> SandboxEngine::Impl::discardFolder(const fs::path& folder)
{
    std::error_code ec;
    if (!fs::exists(fs::symlink_status(folder, ec)))
        return {};
    const fs::path trash = root / "trash" / fmt::format("{}-{}", folder.filename().string(), randomHex(6));
    if (::rename(folder.c_str(), trash.c_str()) != 0)
        return fail(fmt::format("cannot move {} away: {}", folder.string(), errnoText(errno)));
    return removeTree(trash);
}

} // namespace sb
