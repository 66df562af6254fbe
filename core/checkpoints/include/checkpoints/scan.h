#pragma once

#include "util/error.h"
#include "checkpoints/blob_store.h"
#include "checkpoints/path_filter.h"
#include "checkpoints/tree.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string_view>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace sb {

// What a file looked like when its content was last read: if it still looks exactly so (same inode, size,
// modification and change times to the nanosecond, mode), its content is taken as unchanged and not read.
// The change time cannot be set by a program, so a content change hidden behind a restored mtime is seen.
struct FileStat {
    std::uint64_t inode = 0;
    std::uint64_t size = 0;
    std::int64_t mtimeNs = 0;
    std::int64_t ctimeNs = 0;
    std::uint32_t mode = 0; // st_mode, type bits included
    bool operator==(const FileStat&) const = default;
};

// One name of a directory as a walk saw it.
struct StatEntry {
    enum class Kind : std::uint8_t { File = 1, Symlink = 2, Directory = 3, Other = 4 };
    std::string name;
    Kind kind = Kind::File;
    // Files: their stat before reading, and the content then read. `trusted` when the stat can vouch for the
    // content next time (a file changed within the last moments before the walk could change again unseen
    // within the same clock tick).
    FileStat stat;
    bool trusted = false;
    Storage storage = Storage::Inline;
    std::string content; // Inline: the bytes; otherwise the 32 hash bytes
};

// A directory as a walk saw it: its own stat and every name in it, sorted. While its stat stays the same
// (and was trusted) its names are the same, so the next walk need not list it again.
struct DirectoryStat {
    FileStat self;
    bool trusted = false;
    // The directory's listing as last built, while nothing in it has changed since: reused without building it
    // again (its blob is in the store, as part of a checkpoint).
    struct Listing {
        ContentHash hash{};
        std::uint64_t files = 0;
        std::uint64_t bytes = 0;
        std::uint64_t entries = 0;
        bool operator==(const Listing&) const = default;
    };
    std::optional<Listing> listing;
    std::vector<StatEntry> entries;

    const StatEntry* find(std::string_view name) const;
};

// The stat cache kept between walks of one folder: per directory path ("" for the root) its packed
// DirectoryStat, unpacked only when the walk gets there.
using StatCache = std::unordered_map<std::string, std::string>;
std::string packDirectoryStat(const DirectoryStat& directory);
Result<DirectoryStat> unpackDirectoryStat(std::string_view bytes);

// Something the walk did not take, and why (special files, unreadable ones, too large, another file system).
struct Skipped {
    std::string path;
    std::string reason;
};

struct ScanOptions;
struct ScanResult;

// Stats the names of a folder on a thread of its own, for a walk through the stat cache, which then finds
// about half of them done (how they share the work: scan.cpp). It lists the folder itself, so it can start as
// soon as the folder is known, before the stat cache is read; hand it to the walk in ScanOptions::prefetch.
// Destroying it stops its thread.
class StatPrefetch {
public:
    // A walk through a cache of fewer names (or a workspace of fewer files) does without one.
    static constexpr std::uint64_t kMinFiles = 2000;

    // Null when the folder cannot be opened as a folder (a symlink is not followed) or no thread can start.
    static std::unique_ptr<StatPrefetch> start(const std::filesystem::path& root);
    static std::unique_ptr<StatPrefetch> start(int rootfd);
    ~StatPrefetch();
    StatPrefetch(const StatPrefetch&) = delete;
    StatPrefetch& operator=(const StatPrefetch&) = delete;

    struct Impl;

private:
    explicit StatPrefetch(std::unique_ptr<Impl> impl);
    static std::unique_ptr<StatPrefetch> launch(int fd); // takes fd
    std::unique_ptr<Impl> m_impl;
    friend Result<ScanResult> scanFolder(const std::filesystem::path& root, const ScanOptions& options);
};

struct ScanProgress {
    std::uint64_t files = 0;       // files seen so far
    std::uint64_t bytesRead = 0;   // bytes read so far (files the stat cache could not vouch for)
    std::string_view path;
};

struct ScanOptions {
    BlobStore* store = nullptr;            // null: compute references only, store nothing
    const StatCache* cache = nullptr;      // trusted stats from the last scan of this folder
    const PathFilter* filter = nullptr;    // null: everything
    std::uint64_t maxFileSize = 1ULL << 30;
    // Never taken, by (device, inode): the store's own files when a folder that holds them is imported.
    std::vector<std::pair<std::uint64_t, std::uint64_t>> ignore;
    // Called for every file (by one thread at a time); returning false cancels the walk.
    std::function<bool(const ScanProgress&)> progress;
    // A walk through a stat cache with threads > 1 (or 0) shares its fstatat(2) calls with this prefetch of
    // the same folder; without one it starts its own for a large cache. Unused by other walks.
    StatPrefetch* prefetch = nullptr;
    // Threads that walk subdirectories side by side (and hash and compress what they read); 0: the
    // machine's cores, at most 4, when there is no stat cache, else one.
    int threads = 0;
    // Take the listing of a directory whose every entry is unchanged from the cache (see DirectoryStat).
    bool reuseListings = true;
    // The directories a watch of the folder (checkpoints/workspace_watch.h) saw change since the walk that left
    // `cache`: every other directory is as that walk saw it, and is taken from the cache, its listing and its
    // stat-cache rows, without a system call (a directory with no row of its own is walked). Only for a cache
    // that walk left whole, and only without a filter.
    const std::set<std::string>* changed = nullptr;
    // Whether `root` itself may be a symlink to the folder (a folder to import, named by the user); a
    // workspace never is: one replaced by a symlink is refused rather than followed.
    bool followRoot = false;
};

struct ScanResult {
    ContentHash root{};
    std::uint64_t files = 0;   // files and symlinks taken
    std::uint64_t bytes = 0;   // their bytes
    // Every directory listing of the walked tree, serialized, by hash: written to the store with the
    // checkpoint, or read by a diff against the live folder.
    std::unordered_map<ContentHash, std::string, ContentHashHasher> trees;
    std::vector<Skipped> skipped;
    // What the walk saw, per directory path, packed (packDirectoryStat): the next stat cache.
    StatCache directories;
    std::uint64_t filesRead = 0;     // files whose bytes were read (the rest came from the cache)
    std::uint64_t bytesRead = 0;
    std::uint64_t directoriesListed = 0; // the rest: names from the cache
    // Listings taken from the stat cache instead of being built (the topmost of each unchanged subtree):
    // their blobs must be in the store for the walk's tree to be whole.
    std::vector<ContentHash> reusedListings;
    std::uint64_t newBlobs = 0;
    std::uint64_t newBytes = 0;
    // Directories taken from the cache unwalked, on the word of ScanOptions::changed (each with its subtree).
    std::vector<std::string> unwalked;

    // The entry a walk saw at a '/'-separated path; nullopt when none.
    std::optional<StatEntry> find(std::string_view path) const;
};

// Walks the folder `root` without following any symlink inside it and builds its tree: files (through the
// stat cache, reading only what changed), symlinks as links, directories. FIFOs, sockets, devices, files it
// cannot read, files above maxFileSize and other mounted file systems are skipped and listed in `skipped`.
Result<ScanResult> scanFolder(const std::filesystem::path& root, const ScanOptions& options);

// How far back a file's times must lie for its stat to be trusted (a few clock ticks).
inline constexpr std::int64_t kRacyMarginNs = 50'000'000;

} // namespace sb
