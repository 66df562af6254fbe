#include "checkpoints/scan.h"

#include "checkpoints/files.h"
#include "folder_walk.h"
#include "stat_cache_format.h"
#include "stat_prefetch.h"
#include "util/input_file.h"
#include "util/threads.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <functional>
#include <iterator>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <sys/stat.h>
#include <system_error>
#include <thread>
#include <unordered_set>
#include <utility>
#include <vector>
#include <unistd.h>

namespace sb {

namespace {

using scanning::kMaxDepth;
using scanning::statOf;
using statcache::PackedReader;
using statcache::PackedWriter;
using statcache::StatView;

struct DirSummary {
    ContentHash hash{};
    std::uint64_t files = 0;
    std::uint64_t bytes = 0;
    std::size_t entries = 0;
    bool reused = false; // taken from the stat cache: nothing in the subtree changed
};

// What the threads of one walk share.
struct WalkShared {
    WalkShared(const ScanOptions& o, dev_t d, int threads)
        : options(o), device(d), startNs(wallClockNs()), spare(threads - 1)
    {
    }
    const ScanOptions& options;
    const dev_t device;
    const std::int64_t startNs;
    std::mutex progressLock; // the caller's callback is called by one thread at a time
    std::atomic<bool> cancelled{false};
    std::atomic<std::uint64_t> files{0};
    std::atomic<std::uint64_t> bytesRead{0};
    std::atomic<int> spare; // more threads that may start now
    StatPrefetch::Impl* prefetch = nullptr; // a walk through the stat cache: the other thread's stats
    // With ScanOptions::changed: the directories changed and every directory above one. The others are taken
    // from the cache unwalked.
    bool hinted = false;
    std::unordered_set<std::string> touched;

    bool takeThread()
    {
        int now = spare.load();
        while (now > 0) {
            if (spare.compare_exchange_weak(now, now - 1))
                return true;
        }
        return false;
    }
};

void merge(ScanResult& into, ScanResult& from)
{
    into.trees.merge(from.trees);
    into.directories.merge(from.directories);
    into.skipped.insert(into.skipped.end(), std::make_move_iterator(from.skipped.begin()),
                        std::make_move_iterator(from.skipped.end()));
    into.filesRead += from.filesRead;
    into.bytesRead += from.bytesRead;
    into.directoriesListed += from.directoriesListed;
    into.newBlobs += from.newBlobs;
    into.newBytes += from.newBytes;
    into.reusedListings.insert(into.reusedListings.end(), from.reusedListings.begin(), from.reusedListings.end());
    into.unwalked.insert(into.unwalked.end(), std::make_move_iterator(from.unwalked.begin()),
                         std::make_move_iterator(from.unwalked.end()));
}

// The listing and the mode a stat-cache row gives a directory a watch vouches for; nullopt when the row
// cannot (none, unreadable, without a listing).
struct CachedDirectory {
    DirectoryStat::Listing listing;
    std::uint32_t mode = 0;
};
std::optional<CachedDirectory> cachedDirectory(const StatCache& cache, const std::string& path)
{
    const auto it = cache.find(path);
    if (it == cache.end())
        return std::nullopt;
    const PackedReader reader(it->second);
    if (!reader.valid() || !reader.listing)
        return std::nullopt;
    return CachedDirectory{*reader.listing, reader.self.mode & 0777};
}

class Walker {
public:
    Walker(WalkShared& shared, ScanResult& out) : m_shared(shared), m_options(shared.options), m_out(out) {}

    bool trustedAt(const FileStat& stat) const
    {
        return std::max(stat.mtimeNs, stat.ctimeNs) + kRacyMarginNs < m_shared.startNs;
    }

    Result<DirSummary> walk(int dirfd, const std::string& prefix, const FileStat& self, int depth)
    {
        if (m_shared.cancelled)
            return fail(std::string(kCancelled));
        Directory d(dirfd, prefix, self, depth, m_shared.cancelled);
        d.selfTrusted = trustedAt(self);
        readCache(d);
        if (auto ok = readNames(d); !ok)
            return std::unexpected(ok.error());
        // This directory's listing can be taken from the cache if every entry turns out unchanged.
        d.reusable = d.fromCache && d.selfTrusted && d.cached->listing && m_options.reuseListings;
        d.deferring = d.reusable;
        d.slots.reserve(d.names.size());
        d.skippedBefore = m_out.skipped.size();
        d.haveCachedView = d.cached && d.cached->next(d.cachedView);
        d.prefetched = m_shared.prefetch ? m_shared.prefetch->claim(prefix, self.inode) : nullptr;

        for (const std::string_view nameView : d.names) {
            if (auto ok = visit(d, nameView); !ok)
                return std::unexpected(ok.error());
        }
        if (d.prefetched)
            std::vector<StatPrefetch::Impl::Stat>().swap(*d.prefetched); // a large tree's stats are not kept to its end
        if (!d.deferred.empty() && !progress(prefix))
            return fail(std::string(kCancelled));
        if (auto ok = takeSubdirectoryWalks(d); !ok)
            return std::unexpected(ok.error());
        return finishDirectory(d);
    }

private:
    // Subdirectories walked by other threads; their entries are filled in once those end.
    struct Pending {
        std::size_t slot = 0;
        std::string name;
        std::string path;
        std::uint32_t mode = 0;
        ScanResult out;
        Result<DirSummary> result = fail("not walked");
        std::thread thread;
    };

    // While every entry so far is unchanged, an unchanged file costs its stat only: its tree entry and its
    // stat-cache entry are made (from the cache) only should something later in the directory turn out
    // changed, which is rare; otherwise the whole listing is reused as it is.
    struct Deferred {
        std::size_t slot = 0; // the file's slot; unused for a name
        StatView view;        // a file: its cache entry; else the name and kind only
    };

    // One directory being walked.
    struct Directory {
        Directory(int fd, const std::string& path, const FileStat& stat, int level, std::atomic<bool>& cancelled)
            : dirfd(fd), prefix(path), self(stat), depth(level), joiner{pending, cancelled}
        {
        }

        const int dirfd;
        const std::string& prefix;
        const FileStat& self;
        const int depth;
        bool selfTrusted = false;
        // What the last walk saw here, if anything: read in step with the sorted names, never copied.
        std::optional<PackedReader> cached;
        StatView cachedView;
        bool haveCachedView = false;
        PackedWriter seen;
        std::vector<std::string> listed;
        std::vector<std::string_view> names;
        bool fromCache = false;
        std::string name; // NUL-terminated for the system calls
        std::vector<StatPrefetch::Impl::Stat>* prefetched = nullptr;
        std::size_t nextPrefetched = 0;
        std::vector<std::optional<TreeEntry>> slots;
        std::vector<ContentHash> reusedChildren; // listings of unchanged subdirectories
        bool reusable = false;
        std::size_t skippedBefore = 0;
        std::vector<Deferred> deferred;
        bool deferring = false;
        std::list<Pending> pending;
        // Leaving early (an error here) stops the threads started here before waiting for them.
        struct Joiner {
            std::list<Pending>& pending;
            std::atomic<bool>& cancelled;
            bool done = false;
            void join()
            {
                for (auto& p : pending) {
                    if (p.thread.joinable())
                        p.thread.join();
                }
            }
            ~Joiner()
            {
                if (!done)
                    cancelled = true;
                join();
            }
        } joiner;
    };

    void readCache(Directory& d) const
    {
        if (!m_options.cache)
            return;
        if (auto it = m_options.cache->find(d.prefix); it != m_options.cache->end()) {
            d.cached.emplace(it->second);
            if (!d.cached->valid())
                d.cached.reset();
        }
    }

    // The names: from the cache while the directory itself is unchanged (adding, removing or renaming a
    // name changes its mtime and ctime), else listed.
    Result<void> readNames(Directory& d)
    {
        if (d.cached && d.cached->trusted && d.cached->self == d.self && !m_options.filter) {
            PackedReader again = *d.cached;
            StatView view;
            d.names.reserve(static_cast<std::size_t>(again.count));
            while (again.next(view))
                d.names.push_back(view.name);
            if (!again.complete()) {
                d.names.clear();
                d.cached.reset();
            }
            d.fromCache = d.cached && d.names.size() == d.cached->count && d.cached->count > 0;
        }
        if (d.fromCache)
            return {};
        d.names.clear();
        DIR* dir = ::fdopendir(::fcntl(d.dirfd, F_DUPFD_CLOEXEC, 0));
        if (!dir)
            return fail(fmt::format("{}: {}", d.prefix.empty() ? "." : d.prefix, errnoText(errno)));
        errno = 0;
        while (const dirent* entry = ::readdir(dir)) {
            const std::string_view name = entry->d_name;
            if (name != "." && name != "..")
                d.listed.emplace_back(name);
        }
        const int error = errno;
        ::closedir(dir);
        if (error != 0)
            return fail(fmt::format("{}: cannot list: {}", d.prefix.empty() ? "." : d.prefix, errnoText(error)));
        std::sort(d.listed.begin(), d.listed.end());
        d.names.assign(d.listed.begin(), d.listed.end());
        ++m_out.directoriesListed;
        return {};
    }

    // The deferred entries made after all: something in the directory changed.
    void flush(Directory& d) const
    {
        for (const Deferred& item : d.deferred) {
            if (item.view.kind != StatEntry::Kind::File) {
                d.seen.name(item.view.name, item.view.kind);
                continue;
            }
            d.slots[item.slot] = fileFromCache(item.view);
            d.seen.file(item.view.name, item.view.stat, trustedAt(item.view.stat), item.view.storage,
                        item.view.content);
        }
        d.deferred.clear();
        d.deferring = false;
    }

    // The entry's stat: the prefetch's when it has it, else its own. 0, or the errno of the stat.
    static int statEntry(Directory& d, std::string_view nameView, struct stat& st)
    {
        if (d.prefetched) {
            while (d.nextPrefetched < d.prefetched->size() && (*d.prefetched)[d.nextPrefetched].name < nameView)
                ++d.nextPrefetched;
        }
        if (d.prefetched && d.nextPrefetched < d.prefetched->size()
            && (*d.prefetched)[d.nextPrefetched].name == nameView) {
            (*d.prefetched)[d.nextPrefetched].get(st);
            return (*d.prefetched)[d.nextPrefetched].error;
        }
        if (::fstatat(d.dirfd, d.name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
            return errno;
        return 0;
    }

    // One name of the directory: a file, a subdirectory (walked here or on another thread), a symlink, or
    // something that is not kept.
    Result<void> visit(Directory& d, std::string_view nameView)
    {
        d.name.assign(nameView);
        const std::string& name = d.name;
        const StatView* before = nullptr;
        while (d.haveCachedView && d.cachedView.name < nameView)
            d.haveCachedView = d.cached->next(d.cachedView);
        if (d.haveCachedView && d.cachedView.name == nameView)
            before = &d.cachedView;
        if (before && before->kind == StatEntry::Kind::Directory && m_shared.hinted)
            if (unwalked(d, nameView))
                return {};
        struct stat st {};
        if (const int statError = statEntry(d, nameView, st); statError != 0) {
            if (d.deferring)
                flush(d);
            if (statError != ENOENT) // gone since it was listed: not there, nothing to say
                skip(treePath(d.prefix, name), fmt::format("cannot read its status: {}", errnoText(statError)));
            d.reusable = false;
            return {};
        }
        const StatEntry::Kind kind = S_ISREG(st.st_mode)   ? StatEntry::Kind::File
                                     : S_ISDIR(st.st_mode) ? StatEntry::Kind::Directory
                                     : S_ISLNK(st.st_mode) ? StatEntry::Kind::Symlink
                                                           : StatEntry::Kind::Other;
        if (!before || before->kind != kind)
            d.reusable = false;
        if (d.deferring) {
            if (d.reusable && kind == StatEntry::Kind::File && before->trusted && before->stat == statOf(st)
                && static_cast<std::uint64_t>(st.st_size) <= m_options.maxFileSize && !isIgnored(st)) {
                d.deferred.push_back(Deferred{d.slots.size(), *before});
                d.slots.emplace_back();
                ++m_shared.files;
                return {};
            }
            // A directory is walked meanwhile (only its name waits); anything else ends the deferral here.
            if (!d.reusable || kind != StatEntry::Kind::Directory || isIgnored(st))
                flush(d);
        }
        const std::string path = treePath(d.prefix, name);
        bool recorded = false; // a file records its own stat entry
        if (isIgnored(st)) {
            skip(path, "the Sandbench store's own file");
            d.seen.name(name, StatEntry::Kind::Other);
            recorded = true;
        } else if (S_ISDIR(st.st_mode)) {
            if (auto ok = subdirectory(d, path, st); !ok)
                return ok;
        } else if (S_ISREG(st.st_mode)) {
            if (!m_options.filter || m_options.filter->takes(path)) {
                bool fromCacheFile = false;
                auto taken = file(d.dirfd, name, path, st, before, d.seen, fromCacheFile);
                if (!taken)
                    return std::unexpected(taken.error());
                d.slots.push_back(std::move(*taken));
                recorded = true;
                d.reusable = d.reusable && fromCacheFile;
            }
        } else if (S_ISLNK(st.st_mode)) {
            if (!m_options.filter || m_options.filter->takes(path))
                d.slots.push_back(symlink(d.dirfd, name, path));
        } else {
            skip(path, fmt::format("{}; special files are not kept in checkpoints", fileKindName(st.st_mode)));
        }
        if (!recorded) {
            if (d.deferring) {
                StatView item;
                item.name = nameView;
                item.kind = kind;
                d.deferred.push_back(Deferred{0, item});
            } else {
                d.seen.name(name, kind);
            }
        }
        if (d.deferring && !d.reusable)
            flush(d);
        return {};
    }

    // A subdirectory that nothing in changed since the walk the cache came from (ScanOptions::changed): its
    // entry from its cache row, with no system call; false when it is to be walked after all.
    bool unwalked(Directory& d, std::string_view nameView)
    {
        std::string path = treePath(d.prefix, nameView);
        if (m_shared.touched.contains(path))
            return false;
        const auto cached = cachedDirectory(*m_options.cache, path);
        if (!cached)
            return false;
        TreeEntry entry;
        entry.name = std::string(nameView);
        entry.type = EntryType::Directory;
        entry.mode = cached->mode;
        entry.hash = cached->listing.hash;
        entry.size = cached->listing.bytes;
        entry.files = cached->listing.files;
        if (d.deferring) {
            StatView item;
            item.name = nameView;
            item.kind = StatEntry::Kind::Directory;
            d.deferred.push_back(Deferred{0, item});
        } else {
            d.seen.name(nameView, StatEntry::Kind::Directory);
        }
        d.slots.emplace_back(std::move(entry));
        d.reusedChildren.push_back(cached->listing.hash);
        m_shared.files += cached->listing.files;
        m_out.unwalked.push_back(std::move(path));
        return true;
    }

    // A subdirectory: walked on another thread when one is spare, else here.
    Result<void> subdirectory(Directory& d, const std::string& path, const struct stat& st)
    {
        const std::string& name = d.name;
        auto child = openSubdirectory(d.dirfd, name, path, st, d.depth);
        if (!child)
            return std::unexpected(child.error());
        if (!child->has_value()) {
            d.reusable = false;
            return {};
        }
        auto& [fd, childStat] = **child;
        const auto mode = static_cast<std::uint32_t>(st.st_mode & 0777);
        if (m_shared.takeThread()) {
            Pending& p = d.pending.emplace_back();
            p.slot = d.slots.size();
            p.name = name;
            p.path = path;
            p.mode = mode;
            try {
                p.thread = startThreadElsewhere([this, &p, fd = std::move(fd), childStat, depth = d.depth]() {
                    Walker walker(m_shared, p.out);
                    p.result = walker.walk(fd.get(), p.path, childStat, depth + 1);
                    if (!p.result)
                        m_shared.cancelled = true; // the walk fails as a whole; stop the others early
                    m_shared.spare.fetch_add(1);
                });
                d.slots.emplace_back();
                return {};
            } catch (const std::system_error&) {
                d.pending.pop_back();
                m_shared.spare.fetch_add(1);
            }
        }
        auto walked = walk(fd.get(), path, childStat, d.depth + 1);
        if (!walked)
            return std::unexpected(walked.error());
        d.slots.push_back(directoryEntry(name, path, mode, *walked));
        if (walked->reused)
            d.reusedChildren.push_back(walked->hash);
        else
            d.reusable = false;
        return {};
    }

    // Waits for the subdirectories walked on other threads and takes their entries.
    Result<void> takeSubdirectoryWalks(Directory& d)
    {
        d.joiner.join();
        d.joiner.done = true;
        // The first real failure rather than a "cancelled" it caused elsewhere.
        const Error* failure = nullptr;
        for (auto& p : d.pending) {
            if (!p.result && (!failure || failure->message == kCancelled))
                failure = &p.result.error();
        }
        if (failure)
            return std::unexpected(*failure);
        for (auto& p : d.pending) {
            merge(m_out, p.out);
            d.slots[p.slot] = directoryEntry(p.name, p.path, p.mode, *p.result);
            if (p.result->reused)
                d.reusedChildren.push_back(p.result->hash);
            else
                d.reusable = false;
        }
        if (m_out.skipped.size() != d.skippedBefore)
            d.reusable = false;
        return {};
    }

    // The directory's listing: the one last built when nothing here changed, else made of its entries.
    Result<DirSummary> finishDirectory(Directory& d)
    {
        DirSummary summary;
        if (d.reusable) {
            // Nothing here changed: the listing is the one last built, whose blob the store holds. Its
            // subdirectories' listings need no check of their own.
            const DirectoryStat::Listing& listing = *d.cached->listing;
            summary.hash = listing.hash;
            summary.files = listing.files;
            summary.bytes = listing.bytes;
            summary.entries = static_cast<std::size_t>(listing.entries);
            summary.reused = true;
            m_out.directories.insert_or_assign(d.prefix, m_options.cache->find(d.prefix)->second);
            return summary;
        }
        if (d.deferring)
            flush(d);
        m_out.reusedListings.insert(m_out.reusedListings.end(), d.reusedChildren.begin(), d.reusedChildren.end());

        Tree tree;
        tree.entries.reserve(d.slots.size());
        for (auto& slot : d.slots) {
            if (!slot)
                continue;
            summary.files += slot->type == EntryType::Directory ? slot->files : 1;
            summary.bytes += slot->size;
            tree.entries.push_back(std::move(*slot));
        }
        std::string bytes = serializeTree(tree);
        auto digest = sha256(bytes);
        if (!digest)
            return std::unexpected(digest.error());
        summary.hash = *digest;
        summary.entries = tree.entries.size();
        m_out.trees.try_emplace(*digest, std::move(bytes));
        m_out.directories.insert_or_assign(
            d.prefix, d.seen.finish(d.self, d.selfTrusted,
                                    DirectoryStat::Listing{summary.hash, summary.files, summary.bytes, summary.entries}));
        return summary;
    }

    bool isIgnored(const struct stat& st) const
    {
        for (const auto& [device, inode] : m_options.ignore) {
            if (device == static_cast<std::uint64_t>(st.st_dev) && inode == static_cast<std::uint64_t>(st.st_ino))
                return true;
        }
        return false;
    }

    void skip(const std::string& path, std::string reason)
    {
        m_out.skipped.push_back(Skipped{path, std::move(reason)});
    }

    bool progress(const std::string& path)
    {
        if (m_shared.cancelled)
            return false;
        if (!m_options.progress)
            return true;
        const std::lock_guard lock(m_shared.progressLock);
        if (!m_options.progress(ScanProgress{m_shared.files.load(), m_shared.bytesRead.load(), path}))
            m_shared.cancelled = true;
        return !m_shared.cancelled;
    }

    // Opens a subdirectory to walk, or says why not (nullopt: skipped, with a message when there is one).
    Result<std::optional<std::pair<Fd, FileStat>>>
    openSubdirectory(int dirfd, const std::string& name, const std::string& path, const struct stat& st, int depth)
    {
        using Opened = std::optional<std::pair<Fd, FileStat>>;
        if (st.st_dev != m_shared.device) {
            skip(path, "another file system is mounted here; it is not walked into");
            return Opened{};
        }
        if (m_options.filter && m_options.filter->skipsDirectory(path))
            return Opened{};
        if (depth >= kMaxDepth) {
            skip(path, fmt::format("deeper than {} levels; not walked into", kMaxDepth));
            return Opened{};
        }
        auto child = openDirectoryAt(dirfd, name);
        if (!child) {
            skip(path, fmt::format("cannot open the directory: {}", child.error().message));
            return Opened{};
        }
        // The directory as opened: a swap between the stat and the open shows here.
        struct stat opened {};
        if (::fstat(child->get(), &opened) != 0 || opened.st_ino != st.st_ino) {
            skip(path, "it was replaced while being read");
            return Opened{};
        }
        return Opened(std::pair{std::move(*child), statOf(opened)});
    }

    std::optional<TreeEntry> directoryEntry(const std::string& name, const std::string& path, std::uint32_t mode,
                                            const DirSummary& summary) const
    {
        // With a filter, a directory left empty by it is dropped unless the filter takes the directory itself.
        if (summary.entries == 0 && m_options.filter && !m_options.filter->empty() && !m_options.filter->takes(path))
            return std::nullopt;
        TreeEntry entry;
        entry.name = name;
        entry.type = EntryType::Directory;
        entry.mode = mode;
        entry.hash = summary.hash;
        entry.size = summary.bytes;
        entry.files = summary.files;
        return entry;
    }

    // A file's tree entry from its stat-cache entry (which vouched for it).
    static TreeEntry fileFromCache(const StatView& before)
    {
        TreeEntry entry;
        entry.name = before.name;
        entry.type = EntryType::File;
        entry.mode = before.stat.mode & 0777;
        entry.size = before.stat.size;
        entry.storage = before.storage;
        if (before.storage == Storage::Inline)
            entry.data = std::string(before.content);
        else
            std::copy(before.content.begin(), before.content.end(), entry.hash.begin());
        return entry;
    }

    // Takes a file: from the stat cache when it vouches for it (`before`), else read. Its stat entry goes to
    // `seen`, trusted when the next walk may rely on it.
    Result<std::optional<TreeEntry>> file(int dirfd, const std::string& name, const std::string& path,
                                          const struct stat& st, const StatView* before, PackedWriter& seen,
                                          bool& fromCache)
    {
        const FileStat stat = statOf(st);
        auto untaken = [&] {
            seen.file(name, stat, false, Storage::Inline, {});
            return std::optional<TreeEntry>{};
        };
        if (!progress(path))
            return fail(std::string(kCancelled));
        if (static_cast<std::uint64_t>(st.st_size) > m_options.maxFileSize) {
            skip(path,
                 fmt::format("{} MiB, larger than the limit of {} MiB", st.st_size >> 20, m_options.maxFileSize >> 20));
            return untaken();
        }
        TreeEntry entry;
        entry.name = name;
        entry.type = EntryType::File;
        entry.mode = static_cast<std::uint32_t>(st.st_mode & 0777);
        entry.size = stat.size;

        if (before && before->kind == StatEntry::Kind::File && before->trusted && before->stat == stat) {
            entry = fileFromCache(*before);
            seen.file(name, stat, trustedAt(stat), before->storage, before->content);
            fromCache = true;
            ++m_shared.files;
            return std::optional<TreeEntry>(std::move(entry));
        }

        const int fd = ::openat(dirfd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
        if (fd < 0) {
            if (errno == ENOENT)
                return untaken();
            skip(path, fmt::format("cannot read it: {}", errnoText(errno)));
            return untaken();
        }
        Fd guard(fd);
        struct stat opened {};
        if (::fstat(fd, &opened) != 0 || !S_ISREG(opened.st_mode) || opened.st_ino != st.st_ino) {
            skip(path, "it was replaced while being read");
            return untaken();
        }
        std::uint64_t counted = 0;
        auto stored = storeFile(fd, m_options.store, [&](std::uint64_t bytes) {
            m_shared.bytesRead += bytes - counted;
            counted = bytes;
            return progress(path);
        });
        if (!stored) {
            // A store that cannot keep what is read (a full disk) ends the walk: skipping the file would leave
            // it out of the checkpoint.
            if (!stored.error().unreadable)
                return std::unexpected(std::move(stored.error().error));
            skip(path, fmt::format("cannot read it: {}", stored.error().error.message));
            return untaken();
        }
        ++m_out.filesRead;
        m_out.bytesRead += stored->size;
        m_out.newBlobs += stored->newBlobs;
        m_out.newBytes += stored->newBytes;
        entry.size = stored->size; // what was read, should it have changed since the stat
        entry.storage = stored->storage;
        entry.hash = stored->hash;
        entry.data = std::move(stored->inlineBytes);
        // The stat vouches for this content next time only if the file was still as stat'ed when read.
        seen.file(name, stat, trustedAt(stat) && stored->size == stat.size, entry.storage,
                  entry.storage == Storage::Inline
                      ? std::string_view(entry.data)
                      : std::string_view(reinterpret_cast<const char*>(entry.hash.data()), entry.hash.size()));
        ++m_shared.files;
        return std::optional<TreeEntry>(std::move(entry));
    }

    std::optional<TreeEntry> symlink(int dirfd, const std::string& name, const std::string& path)
    {
        char target[4096];
        const ssize_t length = ::readlinkat(dirfd, name.c_str(), target, sizeof target);
        if (length <= 0 || static_cast<std::size_t>(length) >= sizeof target) {
            skip(path, length < 0 ? fmt::format("cannot read the link: {}", errnoText(errno))
                                  : std::string("the link's target is empty or too long"));
            return std::nullopt;
        }
        ++m_shared.files;
        TreeEntry entry;
        entry.name = name;
        entry.type = EntryType::Symlink;
        entry.mode = 0777;
        entry.size = static_cast<std::uint64_t>(length);
        entry.data.assign(target, static_cast<std::size_t>(length));
        return entry;
    }

    WalkShared& m_shared;
    const ScanOptions& m_options;
    ScanResult& m_out;
};

} // namespace

std::optional<StatEntry> ScanResult::find(std::string_view path) const
{
    const auto slash = path.rfind('/');
    const std::string folder(slash == std::string_view::npos ? std::string_view() : path.substr(0, slash));
    const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
    auto it = directories.find(folder);
    if (it == directories.end())
        return std::nullopt;
    PackedReader reader(it->second);
    StatView view;
    while (reader.next(view)) {
        if (view.name == name) {
            return StatEntry{std::string(view.name), view.kind,    view.stat,
                             view.trusted,           view.storage, std::string(view.content)};
        }
        if (view.name > name)
            break;
    }
    return std::nullopt;
}

namespace {

std::uint64_t cachedNames(const StatCache& cache)
{
    std::uint64_t names = 0;
    for (const auto& [path, packed] : cache) {
        const PackedReader reader(packed);
        if (reader.valid())
            names += reader.count;
    }
    return names;
}

// The stat-cache rows of the directories taken unwalked, and of every directory below them: the next cache.
void takeUnwalkedRows(const StatCache& cache, ScanResult& result)
{
    const std::unordered_set<std::string_view> unwalked(result.unwalked.begin(), result.unwalked.end());
    for (const auto& [path, packed] : cache) {
        for (std::string_view above = path;;) {
            if (unwalked.contains(above)) {
                result.directories.try_emplace(path, packed);
                break;
            }
            const auto slash = above.rfind('/');
            if (slash == std::string_view::npos)
                break;
            above = above.substr(0, slash);
        }
    }
}

} // namespace

Result<ScanResult> scanFolder(const std::filesystem::path& root, const ScanOptions& options)
{
    const int fd = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | (options.followRoot ? 0 : O_NOFOLLOW));
    if (fd < 0) {
        const int error = errno;
        struct stat link {};
        const bool symlink = ::lstat(root.c_str(), &link) == 0 && S_ISLNK(link.st_mode);
        return fail(fmt::format("{}: cannot open the folder: {}", root.string(),
                                symlink ? std::string("it is a symlink, not a folder") : errnoText(error)));
    }
    Fd guard(fd);
    struct stat st {};
    if (::fstat(fd, &st) != 0)
        return fail(fmt::format("{}: {}", root.string(), errnoText(errno)));
    ScanResult result;
    // The machine's cores are read once (from /sys): a session checkpoints around every call.
    static const int cores = static_cast<int>(std::clamp(std::thread::hardware_concurrency(), 1u, 4u));
    const int threads = options.threads > 0 ? options.threads : cores;
    // Threads walking subdirectories side by side pay off where the walk reads and hashes (a first checkpoint,
    // an import). A walk through a stat cache is mostly fstatat(2) of unchanged files: starting a thread per
    // subdirectory there costs more than it saves, so one thread stats ahead (StatPrefetch) instead.
    const bool incremental = options.cache && !options.cache->empty();
    const bool automatic = options.threads <= 0;
    WalkShared shared(options, st.st_dev, incremental && automatic ? 1 : threads);
    std::unique_ptr<StatPrefetch> ownPrefetch;
    StatPrefetch* prefetch = nullptr;
    // A walk a watch guides stats only what changed: no other thread stats the rest.
    const bool hinted = options.changed && incremental && !options.filter && options.reuseListings;
    if (incremental && automatic && threads > 1 && !hinted) {
        prefetch = options.prefetch;
        if (!prefetch && cachedNames(*options.cache) >= StatPrefetch::kMinFiles) {
            ownPrefetch = StatPrefetch::start(fd);
            prefetch = ownPrefetch.get();
        }
    }
    shared.prefetch = prefetch ? prefetch->m_impl.get() : nullptr;
    if (shared.prefetch)
        shared.prefetch->cache = options.cache;
    if (hinted) {
        shared.hinted = true;
        for (const std::string& path : *options.changed) {
            for (std::string above = path;;) {
                if (!shared.touched.insert(above).second || above.empty())
                    break;
                const auto slash = above.rfind('/');
                above.resize(slash == std::string::npos ? 0 : slash);
            }
        }
        // Nothing changed anywhere: the whole tree is the cache's.
        if (!shared.touched.contains("")) {
            if (const auto cached = cachedDirectory(*options.cache, "")) {
                result.root = cached->listing.hash;
                result.files = cached->listing.files;
                result.bytes = cached->listing.bytes;
                result.directories = *options.cache;
                result.reusedListings.push_back(cached->listing.hash);
                result.unwalked.emplace_back();
                return result;
            }
        }
    }
    Walker walker(shared, result);
    auto summary = walker.walk(fd, "", statOf(st), 0);
    if (shared.prefetch)
        shared.prefetch->finish(); // done with the cache, which is the caller's
    if (!summary) {
        if (summary.error().message == kCancelled)
            return std::unexpected(summary.error());
        return fail(fmt::format("{}: {}", root.string(), summary.error().message));
    }
    // Threads finish in any order: messages come in path order.
    std::sort(result.skipped.begin(), result.skipped.end(),
              [](const Skipped& a, const Skipped& b) { return a.path < b.path; });
    if (summary->reused)
        result.reusedListings.push_back(summary->hash);
    if (!result.unwalked.empty())
        takeUnwalkedRows(*options.cache, result);
    result.root = summary->hash;
    result.files = summary->files;
    result.bytes = summary->bytes;
    return result;
}

} // namespace sb
