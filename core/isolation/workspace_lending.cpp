#include "isolation/workspace_lending.h"

#include <fmt/format.h>

#include <dirent.h>
#include <fcntl.h>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>

namespace sb::lending {

namespace {

namespace fs = std::filesystem;

// One hand-over: which entries change hands, and to whom.
struct Handover {
    uid_t from = 0;            // the entries of this uid...
    bool anyTransient = false; // ...or of any transient uid
    bool multiLinked = false;  // files with more than one hard link too
    Owner to;

    bool takes(const struct stat& st) const
    {
        const bool whose = anyTransient ? isTransientId(st.st_uid) : st.st_uid == from;
        return whose && (S_ISDIR(st.st_mode) || st.st_nlink == 1 || multiLinked);
    }
};

// Never follows a symlink (a symlink's own owner changes) nor leaves the workspace's file system; folders
// nest at most kMaxDepth deep, as deep as a checkpoint walks (core/checkpoints/scan.cpp).
void handOverBelow(int dirFd, dev_t device, const Handover& handover, int depth)
{
    constexpr int kMaxDepth = 256;
    if (depth > kMaxDepth)
        return;
    const int listFd = ::dup(dirFd);
    DIR* dir = listFd >= 0 ? ::fdopendir(listFd) : nullptr;
    if (!dir) {
        if (listFd >= 0)
            ::close(listFd);
        return;
    }
    while (const dirent* entry = ::readdir(dir)) {
        const std::string_view name(entry->d_name);
        if (name == "." || name == "..")
            continue;
        struct stat st {};
        if (::fstatat(dirFd, entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || st.st_dev != device)
            continue;
        if (handover.takes(st))
            ::fchownat(dirFd, entry->d_name, handover.to.uid, handover.to.gid, AT_SYMLINK_NOFOLLOW);
        if (S_ISDIR(st.st_mode)) {
            const int sub = ::openat(dirFd, entry->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub >= 0) {
                handOverBelow(sub, device, handover, depth + 1);
                ::close(sub);
            }
        }
    }
    ::closedir(dir);
}

enum class Root { First, Last };

void handOver(const fs::path& workspace, const Handover& handover, Root root)
{
    const int fd = ::open(workspace.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return;
    struct stat st {};
    if (::fstat(fd, &st) == 0) {
        const bool takesRoot = handover.takes(st);
        if (takesRoot && root == Root::First)
            ::fchown(fd, handover.to.uid, handover.to.gid);
        handOverBelow(fd, st.st_dev, handover, 0);
        if (takesRoot && root == Root::Last)
            ::fchown(fd, handover.to.uid, handover.to.gid);
    }
    ::close(fd);
}

} // namespace

void lend(const fs::path& workspace, Owner owner, Owner to)
{
    handOver(workspace, Handover{.from = owner.uid, .to = to}, Root::First);
}

void giveBack(const fs::path& workspace, uid_t from, Owner owner)
{
    handOver(workspace, Handover{.from = from, .multiLinked = true, .to = owner}, Root::Last);
}

uid_t lentTo(const fs::path& workspace)
{
    struct stat st {};
    if (::lstat(workspace.c_str(), &st) != 0 || !isTransientId(st.st_uid))
        return 0;
    return st.st_uid;
}

Result<void> reclaim(const fs::path& workspace, Owner owner)
{
    const uid_t lent = lentTo(workspace);
    if (lent == 0)
        return {};
    if (::geteuid() != 0)
        return fail(fmt::format("the workspace {} is still lent to the identity of a run that did not finish (uid {}), "
                                "and only root can take it back: run `sandbench sandbox path` on this sandbox as "
                                "root once",
                                workspace.string(), lent));
    handOver(workspace, Handover{.anyTransient = true, .multiLinked = true, .to = owner}, Root::Last);
    if (const uid_t still = lentTo(workspace); still != 0)
        return fail(
            fmt::format("cannot take the workspace {} back from a run's identity (uid {})", workspace.string(), still));
    return {};
}

} // namespace sb::lending
