#include "checkpoints/workspace_watch.h"

#include "checkpoints/files.h"
#include "folder_walk.h"
#include "util/errno_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <map>
#include <string_view>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <system_error>
#include <unistd.h>
#include <unordered_map>
#include <utility>
#include <vector>

namespace sb {

namespace {

using scanning::kMaxDepth;

constexpr int kDirectoryFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

constexpr std::uint32_t kWatchMask = IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM
                                     | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR | IN_EXCL_UNLINK;

// File systems whose every change goes through this kernel, so that inotify hears of it. A network or FUSE
// file system can change underneath with no event, and overlayfs does not report changes made to its layers.
bool reportsEveryChange(std::uint32_t type)
{
    constexpr std::array<std::uint32_t, 6> kLocal = {
        0xEF53,     // ext2, ext3, ext4
        0x58465342, // xfs
        0x9123683E, // btrfs
        0x01021994, // tmpfs
        0x858458F6, // ramfs
        0xF2F52010, // f2fs
    };
    return std::find(kLocal.begin(), kLocal.end(), type) != kLocal.end();
}

// Why a directory could not be opened, when the walk could not go into it either: it is gone or replaced
// (its parent reports that), or closed to this user (a change of its permissions is reported in its parent).
bool unreachable(int error)
{
    return error == ENOENT || error == ENOTDIR || error == ELOOP || error == EACCES || error == EPERM;
}

std::string childPath(const std::string& parent, std::string_view name)
{
    if (parent.empty())
        return std::string(name);
    std::string path;
    path.reserve(parent.size() + 1 + name.size());
    path.append(parent).append(1, '/').append(name);
    return path;
}

std::string parentOf(const std::string& path)
{
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

// The root is at depth 0, "a" at 1, "a/b" at 2.
int depthOf(const std::string& path)
{
    return path.empty() ? 0 : 1 + static_cast<int>(std::count(path.begin(), path.end(), '/'));
}

// The keys of an ordered container strictly below the directory `top` ("top/..."): one range, which need
// not start right after `top` itself ("top-x" sorts between "top" and "top/").
template <typename Ordered> auto below(Ordered& ordered, const std::string& top)
{
    return std::pair{ordered.lower_bound(top + '/'), ordered.lower_bound(top + static_cast<char>('/' + 1))};
}

// Removes `top` and everything below it from an ordered set.
void eraseSubtree(std::set<std::string>& paths, const std::string& top)
{
    paths.erase(top);
    const auto [first, last] = below(paths, top);
    paths.erase(first, last);
}

} // namespace

struct WorkspaceWatch::Impl {
    std::filesystem::path root;
    // The root, opened by its path when an event needs it and closed at the end of the take(): a descriptor
    // kept open would hold the directory, whose removal is reported (IN_DELETE_SELF) only once nothing does.
    Fd rootFd;
    Fd inotify;
    dev_t device = 0;
    int rootWd = -1;
    // wd -> the directories it watches: one, unless a directory is reachable at two paths (a bind mount on
    // the same file system) or a directory moved while its new parent was being walked.
    std::unordered_map<int, std::vector<std::string>> paths;
    // directory -> wd, ordered so that a subtree's directories are a range.
    std::map<std::string, int> watches;
    // Files with more than one link, and how many of them each directory holds.
    std::set<std::string> linked;
    std::map<std::string, std::size_t> linkedIn;
    // Directories in which a file was written while watched (a shared mapping may write it at any time).
    std::set<std::string> written;
    // Directories changed since the last take().
    std::set<std::string> changed;
    // What moved out (IN_MOVED_FROM) had written directories, relative to it, or was a linked file, by the
    // move's cookie: its IN_MOVED_TO takes them to the new place. Kept for the take() after too, should the
    // two events have been read apart.
    struct Moved {
        bool directory = false;
        bool linked = false;              // a file with more than one link
        std::vector<std::string> written; // "" for what moved (a directory) or its directory, else "/sub/dir"
    };
    std::unordered_map<std::uint32_t, Moved> moves;
    std::unordered_map<std::uint32_t, Moved> earlierMoves;
    bool everything = true;
    bool broken = false;
    alignas(inotify_event) std::array<char, 64 * 1024> buffer{};

    std::string shown(const std::string& path) const { return path.empty() ? root.string() : (root / path).string(); }

    void reset()
    {
        inotify = Fd();
        rootFd = Fd();
        rootWd = -1;
        paths.clear();
        watches.clear();
        linked.clear();
        linkedIn.clear();
        written.clear();
        changed.clear();
        moves.clear();
        earlierMoves.clear();
    }

    // The start steps: the root opened and checked, inotify, every directory watched.
    Result<void> begin()
    {
        reset();
        everything = true;
        Fd fd(::open(root.c_str(), kDirectoryFlags));
        if (!fd.valid()) {
            const int error = errno;
            struct stat link {};
            const bool symlink = ::lstat(root.c_str(), &link) == 0 && S_ISLNK(link.st_mode);
            return fail(fmt::format("{}: cannot watch the folder: {}", root.string(),
                                    symlink ? std::string("it is a symlink, not a folder") : errnoText(error)));
        }
        struct stat st {};
        if (::fstat(fd.get(), &st) != 0)
            return fail(fmt::format("{}: {}", root.string(), errnoText(errno)));
        struct statfs fs {};
        if (::fstatfs(fd.get(), &fs) != 0)
            return fail(fmt::format("{}: {}", root.string(), errnoText(errno)));
        const auto type = static_cast<std::uint32_t>(fs.f_type);
        if (!reportsEveryChange(type))
            return fail(fmt::format("{}: the folder's file system (0x{:x}) is not one whose every change this "
                                    "machine's kernel reports; it is walked in full instead",
                                    root.string(), type));
        inotify = Fd(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC));
        if (!inotify.valid()) {
            const int error = errno;
            return fail(fmt::format("{}: cannot watch the folder: inotify is not available: {}{}", root.string(),
                                    errnoText(error),
                                    error == EMFILE ? " (the limit fs.inotify.max_user_instances is reached)" : ""));
        }
        device = st.st_dev;
        auto watched = watchOpened(fd.get(), "", 0, false);
        if (!watched)
            return watched;
        rootWd = watches.at("");
        return {};
    }

    // Watches the directory open as `fd`, at `path` (`depth` levels below the root), and below it every
    // directory the walk goes into. The watch is added before the listing, so that nothing made meanwhile
    // is missed. `fresh`: made or moved in since the last take(), so reported with everything below it.
    Result<void> watchOpened(int fd, const std::string& path, int depth, bool fresh)
    {
        // Through the descriptor: the kernel watches the very directory opened, never a symlink swapped in.
        const std::string proc = fmt::format("/proc/self/fd/{}", fd);
        const int wd = ::inotify_add_watch(inotify.get(), proc.c_str(), kWatchMask);
        if (wd < 0) {
            const int error = errno;
            return fail(fmt::format("{}: cannot watch the directory: {}{}", shown(path), errnoText(error),
                                    error == ENOSPC ? " (the limit fs.inotify.max_user_watches is reached)" : ""));
        }
        bind(path, wd);
        if (fresh)
            changed.insert(path);

        DIR* dir = ::fdopendir(::fcntl(fd, F_DUPFD_CLOEXEC, 0));
        if (!dir)
            return fail(fmt::format("{}: cannot list the directory: {}", shown(path), errnoText(errno)));
        std::vector<std::string> subdirectories;
        errno = 0;
        while (const dirent* entry = ::readdir(dir)) {
            const std::string_view name = entry->d_name;
            if (name == "." || name == "..")
                continue;
            if (entry->d_type == DT_DIR) {
                subdirectories.emplace_back(name);
            } else if (entry->d_type == DT_REG || entry->d_type == DT_UNKNOWN) {
                struct stat st {};
                if (::fstatat(fd, entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
                    continue; // gone already: its removal is reported
                if (S_ISDIR(st.st_mode))
                    subdirectories.emplace_back(name);
                else if (S_ISREG(st.st_mode) && st.st_nlink > 1)
                    addLinked(childPath(path, name));
            }
            errno = 0;
        }
        const int error = errno;
        ::closedir(dir);
        if (error != 0)
            return fail(fmt::format("{}: cannot list the directory: {}", shown(path), errnoText(error)));
        if (depth >= kMaxDepth)
            return {}; // the walk goes no deeper
        for (const std::string& name : subdirectories) {
            if (auto ok = watchBelow(fd, name, childPath(path, name), depth + 1, fresh); !ok)
                return ok;
        }
        return {};
    }

    // Opens the directory `name` below `parentFd` and watches it as watchOpened() does, unless the walk does
    // not go into it: another file system is mounted there, or it cannot be opened.
    Result<void> watchBelow(int parentFd, const std::string& name, const std::string& path, int depth, bool fresh)
    {
        Fd fd(::openat(parentFd, name.c_str(), kDirectoryFlags));
        if (!fd.valid()) {
            const int error = errno;
            if (unreachable(error))
                return {};
            return fail(fmt::format("{}: cannot open the directory: {}", shown(path), errnoText(error)));
        }
        struct stat st {};
        if (::fstat(fd.get(), &st) != 0)
            return fail(fmt::format("{}: {}", shown(path), errnoText(errno)));
        if (st.st_dev != device)
            return {};
        return watchOpened(fd.get(), path, depth, fresh);
    }

    // The root's descriptor, -1 (errno set) when it cannot be opened.
    int rootDescriptor()
    {
        if (!rootFd.valid())
            rootFd = Fd(::open(root.c_str(), kDirectoryFlags));
        return rootFd.get();
    }

    // Opens the directory at `path` below the root one component at a time, never through a symlink.
    Fd openPath(const std::string& path, int& error)
    {
        const int base = rootDescriptor();
        if (base < 0) {
            error = errno;
            return Fd();
        }
        Fd current(::fcntl(base, F_DUPFD_CLOEXEC, 0));
        std::size_t start = 0;
        while (current.valid() && start < path.size()) {
            std::size_t slash = path.find('/', start);
            if (slash == std::string::npos)
                slash = path.size();
            const std::string name = path.substr(start, slash - start);
            start = slash + 1;
            const int next = ::openat(current.get(), name.c_str(), kDirectoryFlags);
            if (next < 0) {
                error = errno;
                return Fd();
            }
            current = Fd(next);
        }
        error = current.valid() ? 0 : errno;
        return current;
    }

    // A directory made or moved in at `path`: watched, with every directory below it, and all reported.
    void watchNew(const std::string& path)
    {
        const int depth = depthOf(path);
        if (depth > kMaxDepth)
            return;
        const std::string parent = parentOf(path);
        const std::string name = path.substr(parent.empty() ? 0 : parent.size() + 1);
        int error = 0;
        const Fd parentFd = openPath(parent, error);
        if (!parentFd.valid()) {
            broken = broken || !unreachable(error);
            return;
        }
        if (!watchBelow(parentFd.get(), name, path, depth, true))
            broken = true;
    }

    // `path` is watched through `wd`: where `path` was watched through another wd, that one is let go of.
    void bind(const std::string& path, int wd)
    {
        auto [at, added] = watches.try_emplace(path, wd);
        if (!added && at->second != wd) {
            unbind(path, at->second);
            at->second = wd;
        }
        auto& list = paths[wd];
        if (std::find(list.begin(), list.end(), path) == list.end())
            list.push_back(path);
    }

    // `path` is no longer watched through `wd`; a wd left with no path is removed.
    void unbind(const std::string& path, int wd)
    {
        const auto found = paths.find(wd);
        if (found == paths.end())
            return;
        auto& list = found->second;
        list.erase(std::remove(list.begin(), list.end(), path), list.end());
        if (list.empty() && wd != rootWd) {
            ::inotify_rm_watch(inotify.get(), wd); // fails harmlessly where the directory went already
            paths.erase(found);
        }
    }

    // The directory `top` left (removed or moved away): nothing at or below it is watched any more. What
    // was written there is kept under the move's cookie, for its IN_MOVED_TO.
    void dropSubtree(const std::string& top, std::uint32_t cookie)
    {
        auto forget = [&](auto first, auto last) {
            for (auto it = first; it != last; ++it)
                unbind(it->first, it->second);
            watches.erase(first, last);
        };
        if (auto it = watches.find(top); it != watches.end())
            forget(it, std::next(it));
        const auto [first, last] = below(watches, top);
        forget(first, last);

        const auto [linkedFirst, linkedLast] = below(linked, top);
        const std::vector<std::string> gone(linkedFirst, linkedLast);
        for (const std::string& file : gone)
            removeLinked(file);

        if (cookie != 0) {
            Moved moved{true, false, {}};
            if (written.contains(top))
                moved.written.emplace_back();
            const auto [writtenFirst, writtenLast] = below(written, top);
            for (auto it = writtenFirst; it != writtenLast; ++it)
                moved.written.push_back(it->substr(top.size()));
            if (!moved.written.empty())
                moves[cookie] = std::move(moved);
        }
        eraseSubtree(written, top);
        eraseSubtree(changed, top);
    }

    // What moved out under `cookie`, where it is worth keeping.
    const Moved* movedOut(std::uint32_t cookie) const
    {
        if (cookie == 0)
            return nullptr;
        if (auto it = moves.find(cookie); it != moves.end())
            return &it->second;
        if (auto it = earlierMoves.find(cookie); it != earlierMoves.end())
            return &it->second;
        return nullptr;
    }

    void addLinked(const std::string& file)
    {
        if (linked.insert(file).second)
            ++linkedIn[parentOf(file)];
    }

    void removeLinked(const std::string& file)
    {
        if (linked.erase(file) == 0)
            return;
        const auto it = linkedIn.find(parentOf(file));
        if (it != linkedIn.end() && --it->second == 0)
            linkedIn.erase(it);
    }

    // Whether a file has more than one link now, kept in `linked` accordingly.
    bool checkLinks(const std::string& file)
    {
        struct stat st {};
        if (::fstatat(rootDescriptor(), file.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode)
            && st.st_nlink > 1) {
            addLinked(file);
            return true;
        }
        removeLinked(file);
        return false;
    }

    // An event about the entry `name` of the directory at `directory`.
    void entryEvent(const std::string& directory, std::uint32_t mask, std::uint32_t cookie, std::string_view name)
    {
        changed.insert(directory);
        const std::string path = childPath(directory, name);
        if (mask & IN_ISDIR)
            directoryEvent(path, mask, cookie);
        else
            fileEvent(directory, path, mask, cookie);
    }

    void directoryEvent(const std::string& path, std::uint32_t mask, std::uint32_t cookie)
    {
        if (mask & IN_CREATE) {
            // Watched already: walked this take(), with its parent, after it was made.
            if (!watches.contains(path))
                watchNew(path);
        } else if (mask & IN_MOVED_TO) {
            dropSubtree(path, 0); // a directory it replaced, or an earlier walk of this one
            watchNew(path);
            if (const Moved* moved = movedOut(cookie); moved && moved->directory) {
                for (const std::string& suffix : moved->written)
                    written.insert(path + suffix);
            }
        } else if (mask & (IN_DELETE | IN_MOVED_FROM)) {
            dropSubtree(path, (mask & IN_MOVED_FROM) ? cookie : 0);
        } else if (mask & IN_ATTRIB) {
            // Its permissions may now stop the walk, or let it in where it could not go before.
            changed.insert(path);
            if (!watches.contains(path))
                watchNew(path);
        }
    }

    void fileEvent(const std::string& directory, const std::string& path, std::uint32_t mask, std::uint32_t cookie)
    {
        if (mask & (IN_MODIFY | IN_CLOSE_WRITE))
            written.insert(directory);
        if (mask & (IN_DELETE | IN_MOVED_FROM)) {
            const bool wasLinked = linked.contains(path);
            removeLinked(path);
            const bool wasWritten = written.contains(directory);
            if ((mask & IN_MOVED_FROM) && cookie != 0 && (wasLinked || wasWritten))
                moves[cookie] =
                    Moved{false, wasLinked,
                          wasWritten ? std::vector<std::string>{std::string()} : std::vector<std::string>{}};
        }
        if (mask & (IN_CREATE | IN_MOVED_TO | IN_ATTRIB)) {
            const Moved* moved = (mask & IN_MOVED_TO) ? movedOut(cookie) : nullptr;
            if (moved && !moved->directory && !moved->written.empty())
                written.insert(directory);
            const bool renamed = moved && !moved->directory && moved->linked;
            // A new name for a file that has another: link(2) reports the new name only, and the other one,
            // should it be in the workspace, had its link count change unseen. Starting over finds it.
            if (checkLinks(path) && (mask & (IN_CREATE | IN_MOVED_TO)) && !renamed)
                broken = true;
        }
    }

    void event(int wd, std::uint32_t mask, std::uint32_t cookie, std::string_view name)
    {
        if (mask & (IN_Q_OVERFLOW | IN_UNMOUNT)) {
            broken = true;
            return;
        }
        if (wd == rootWd && (mask & (IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED))) {
            broken = true;
            return;
        }
        const auto found = paths.find(wd);
        if (found == paths.end())
            return; // removed earlier
        if (mask & IN_IGNORED) {
            for (const std::string& path : found->second) {
                if (auto it = watches.find(path); it != watches.end() && it->second == wd)
                    watches.erase(it);
            }
            paths.erase(found);
            return;
        }
        if (mask & (IN_DELETE_SELF | IN_MOVE_SELF))
            return; // its parent reports it
        // Copied: the event may change which paths the wd has.
        const std::vector<std::string> directories = found->second;
        for (const std::string& directory : directories) {
            if (name.empty()) {
                if (mask & IN_ATTRIB)
                    changed.insert(directory); // the directory's own attributes
            } else {
                entryEvent(directory, mask, cookie, name);
            }
            if (broken)
                return;
        }
    }

    // Reads and applies every queued event; stops early once the watch is broken.
    void readEvents()
    {
        while (inotify.valid() && !broken) {
            const ssize_t got = ::read(inotify.get(), buffer.data(), buffer.size());
            if (got < 0) {
                if (errno == EINTR)
                    continue;
                broken = errno != EAGAIN;
                return;
            }
            if (got == 0)
                return;
            const auto size = static_cast<std::size_t>(got);
            std::size_t offset = 0;
            while (offset + sizeof(inotify_event) <= size && !broken) {
                inotify_event header{};
                std::memcpy(&header, buffer.data() + offset, sizeof header);
                const char* name = buffer.data() + offset + sizeof header;
                const std::size_t next = offset + sizeof header + header.len;
                if (next > size)
                    break;
                event(header.wd, header.mask, header.cookie, std::string_view(name, ::strnlen(name, header.len)));
                offset = next;
            }
        }
    }

    Changes collect()
    {
        Changes out;
        earlierMoves = std::exchange(moves, {});
        if (std::exchange(everything, false)) {
            out.everything = true;
            changed.clear();
            return out;
        }
        out.directories = std::exchange(changed, {});
        out.directories.insert(written.begin(), written.end());
        for (const auto& [directory, count] : linkedIn)
            out.directories.insert(out.directories.end(), directory);
        return out;
    }
};

Result<std::unique_ptr<WorkspaceWatch>> WorkspaceWatch::start(const std::filesystem::path& root)
{
    auto impl = std::make_unique<Impl>();
    std::error_code error;
    impl->root = std::filesystem::absolute(root, error); // the same folder should this process change directory
    if (error)
        impl->root = root;
    if (auto ok = impl->begin(); !ok)
        return std::unexpected(ok.error());
    return std::unique_ptr<WorkspaceWatch>(new WorkspaceWatch(std::move(impl)));
}

WorkspaceWatch::WorkspaceWatch(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}

WorkspaceWatch::~WorkspaceWatch() = default;

WorkspaceWatch::Changes WorkspaceWatch::take()
{
    Impl& watch = *m_impl;
    try {
        watch.readEvents();
        watch.rootFd = Fd();
        if (watch.broken) {
            // Starts over on the same root; where that fails, the next take() tries again.
            watch.broken = !watch.begin();
            watch.everything = true;
        }
        return watch.collect();
    } catch (...) {
        // Out of memory halfway through an event: what the maps say can no longer be trusted.
        watch.broken = true;
        return Changes{true, {}};
    }
}

} // namespace sb
