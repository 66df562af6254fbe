#pragma once

// StatPrefetch's inside, shared with the walk that takes its stats.

#include "checkpoints/files.h"
#include "checkpoints/scan.h"
#include "folder_walk.h"
#include "stat_cache_format.h"

#include <array>
#include <atomic>
#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <thread>
#include <unordered_map>
#include <vector>
#include <unistd.h>

namespace sb {

// A walk through the stat cache is mostly fstatat(2) of unchanged files, a microsecond each, in directory
// order. A second thread shares it: it lists the folder itself, depth first with names in descending order,
// and stats the names of every directory it gets to first, while the walk goes the other way; each directory
// is claimed by exactly one of them, so they meet in the middle and nothing is stat'ed twice. Needing no
// cache, it can start before the cache is read (StatPrefetch::start). It never follows a symlink nor leaves
// the folder's file system, and the walk uses a directory's stats only when the prefetch stat'ed in the very
// directory the walk is in (same inode); anything else the walk stats itself, as without a prefetch.
struct StatPrefetch::Impl {
    // What the walk reads of a stat (one per name, so not the whole struct stat).
    struct Stat {
        std::string name;
        std::uint64_t device = 0;
        std::uint64_t inode = 0;
        std::int64_t size = 0;
        timespec mtime{};
        timespec ctime{};
        std::uint32_t mode = 0;
        int error = 0;

        void get(struct stat& st) const
        {
            st.st_dev = static_cast<dev_t>(device);
            st.st_ino = static_cast<ino_t>(inode);
            st.st_size = static_cast<off_t>(size);
            st.st_mtim = mtime;
            st.st_ctim = ctime;
            st.st_mode = static_cast<mode_t>(mode);
        }
    };
    struct Directory {
        std::atomic<int> state{kFree};
        std::uint64_t inode = 0; // of the directory the prefetch stat'ed in
        std::vector<Stat> stats; // sorted by name
    };
    static constexpr int kFree = 0;
    static constexpr int kWalk = 1; // the walk took it
    static constexpr int kPrefetching = 2;
    static constexpr int kDone = 3;
    static constexpr int kGaveUp = 4;
    // Deeper directories are left to the walk (each level holds a descriptor open).
    static constexpr int kMaxDepth = 64;

    explicit Impl(int fd) : rootfd(fd) {}
    ~Impl()
    {
        finish();
        ::close(rootfd);
    }

    void finish()
    {
        stop = true;
        if (thread.joinable())
            thread.join();
    }

    // The walk, entering the directory `path` whose inode is `inode`: the stats the prefetch took there, or
    // null when the walk must stat it itself (the prefetch did not get there first, or stat'ed in another
    // directory than the walk's). They are the walk's from then on: it frees them when done with them.
    std::vector<Stat>* claim(const std::string& path, std::uint64_t inode)
    {
        const auto [directory, taken] = take(path, kWalk);
        if (taken)
            return nullptr;
        int state = directory->state.load();
        while (state == kPrefetching) {
            std::this_thread::yield();
            state = directory->state.load();
        }
        if (state != kDone || directory->inode != inode)
            return nullptr;
        return &directory->stats;
    }

    // The directory at `path`, and whether this call took it (then it is in `state`, the taker's).
    std::pair<Directory*, bool> take(const std::string& path, int state)
    {
        const std::lock_guard lock(mutex);
        auto [it, added] = directories.try_emplace(path);
        if (added) {
            it->second = std::make_unique<Directory>();
            it->second->state.store(state);
        }
        return {it->second.get(), added};
    }

    void run()
    {
        struct stat self {};
        if (::fstat(rootfd, &self) == 0 && S_ISDIR(self.st_mode))
            visit(rootfd, "", self, 0);
    }

    template <typename Name> bool namesFromListing(int fd, std::vector<Name>& names)
    {
        for (;;) {
            const ssize_t n = ::getdents64(fd, listing.data(), listing.size());
            if (n < 0)
                return false;
            if (n == 0)
                break;
            for (ssize_t at = 0; at < n;) {
                const auto* entry = reinterpret_cast<const dirent64*>(listing.data() + at);
                const std::string_view name = entry->d_name;
                if (name != "." && name != "..")
                    names.push_back(Name{std::string(name), entry->d_type == DT_DIR || entry->d_type == DT_UNKNOWN});
                at += entry->d_reclen;
            }
        }
        std::sort(names.begin(), names.end(), [](const Name& a, const Name& b) { return a.name < b.name; });
        return true;
    }

    // Once the walk has begun, the names its stat cache lists, sorted: no listing (ext4 hashes every name of
    // a directory it lists). The walk copes with names that have come or gone since, as it does here.
    template <typename Name> bool namesFromCache(const std::string& path, std::vector<Name>& names)
    {
        const StatCache* known = cache.load();
        if (!known)
            return false;
        const auto it = known->find(path);
        if (it == known->end())
            return false;
        statcache::PackedReader reader(it->second);
        statcache::StatView view;
        while (reader.next(view))
            names.push_back(Name{std::string(view.name), view.kind == StatEntry::Kind::Directory});
        if (reader.complete())
            return true;
        names.clear();
        return false;
    }

    // Takes the directory `fd` (at `path`) unless the walk has, then its subdirectories, last name first.
    void visit(int fd, const std::string& path, const struct stat& self, int depth)
    {
        if (stop)
            return;
        struct Name {
            std::string name;
            bool directory; // or may be one (a name the listing gives no type for)
        };
        std::vector<Name> names;
        if (!namesFromCache(path, names) && !namesFromListing(fd, names))
            return;

        const auto [directory, taken] = take(path, kPrefetching);
        Directory* mine = taken ? directory : nullptr;
        std::vector<std::size_t> subdirectories;
        if (mine) {
            mine->inode = static_cast<std::uint64_t>(self.st_ino);
            mine->stats.reserve(names.size());
            for (std::size_t i = 0; i < names.size(); ++i) {
                if (i % 256 == 255 && stop) {
                    mine->state.store(kGaveUp); // the walk stats it itself
                    return;
                }
                Stat& stat = mine->stats.emplace_back();
                stat.name = names[i].name;
                struct stat st {};
                if (::fstatat(fd, stat.name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
                    stat.error = errno;
                    continue;
                }
                stat.device = static_cast<std::uint64_t>(st.st_dev);
                stat.inode = static_cast<std::uint64_t>(st.st_ino);
                stat.size = static_cast<std::int64_t>(st.st_size);
                stat.mtime = st.st_mtim;
                stat.ctime = st.st_ctim;
                stat.mode = static_cast<std::uint32_t>(st.st_mode);
                if (S_ISDIR(st.st_mode) && st.st_dev == self.st_dev)
                    subdirectories.push_back(i);
            }
            mine->state.store(kDone);
        } else {
            // The walk has it: only its subdirectories are of use here.
            for (std::size_t i = 0; i < names.size(); ++i) {
                if (names[i].directory)
                    subdirectories.push_back(i);
            }
        }
        if (depth + 1 >= kMaxDepth)
            return;
        for (auto k = subdirectories.rbegin(); k != subdirectories.rend() && !stop; ++k) {
            const std::string& name = names[*k].name;
            const int child = ::openat(fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (child < 0)
                continue;
            const Fd guard(child);
            struct stat st {};
            if (::fstat(child, &st) != 0 || st.st_dev != self.st_dev)
                continue; // another file system: the walk skips it too
            visit(child, treePath(path, name), st, depth + 1);
        }
    }

    const int rootfd;
    alignas(dirent64) std::array<char, 32768> listing; // getdents64 buffer: only the prefetch thread lists
    std::mutex mutex;
    std::unordered_map<std::string, std::unique_ptr<Directory>> directories; // by path, never erased
    std::atomic<bool> stop{false};
    std::atomic<const StatCache*> cache{nullptr}; // the walk's, while it walks
    std::thread thread;
};

} // namespace sb
