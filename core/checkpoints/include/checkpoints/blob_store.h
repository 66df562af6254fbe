#pragma once

#include "store/sqlite_db.h"
#include "util/error.h"
#include "checkpoints/tree.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace sb {

// What a blob holds; informational (a blob is found by its hash alone, and equal hashes mean equal bytes).
enum class BlobKind : int { Bytes = 0, ChunkList = 1, Tree = 2 };

// Content-addressed storage in the store's blobs table: each piece once, under the SHA-256 of its
// uncompressed bytes, zstd-compressed when that makes it smaller. Reads check the hash of what they return,
// so a damaged or edited row is reported, never restored.
//
// Safe to call from several threads (the walk of a checkpoint hashes and compresses on all cores); the SQL
// work is serialized by a lock, compression is not.
//
// Writes happen in the caller's transaction, or, between beginBatch() and endBatch(), in transactions of
// their own committed every few tens of MB: a large import then neither holds the write lock for long nor
// grows the WAL to the size of the import. Blobs committed that way and never referenced (the process was
// killed before its checkpoint was recorded) are reclaimed by the next garbage collection.
class BlobStore {
public:
    explicit BlobStore(sqlite::Db db);
    ~BlobStore();
    BlobStore(const BlobStore&) = delete;
    BlobStore& operator=(const BlobStore&) = delete;

    struct Added {
        bool added = false;        // false: it was stored already
        std::uint64_t stored = 0;  // bytes it takes in the table (compressed), when added
    };

    Result<bool> contains(const ContentHash& hash);
    Result<Added> put(const ContentHash& hash, BlobKind kind, std::string_view bytes);
    Result<Added> put(BlobKind kind, std::string_view bytes, ContentHash* hash = nullptr);
    // The uncompressed bytes; an error when missing or when they do not hash to `hash`.
    Result<std::string> get(const ContentHash& hash);

    Result<void> beginBatch();
    // Commits what the batch holds; fails with the batch's first failed write, if any, and then commits
    // nothing.
    Result<void> endBatch();

    const sqlite::Db& db() const { return m_db; }

private:
    Result<bool> containsLocked(const ContentHash& hash);
    Result<Added> putLocked(const ContentHash& hash, BlobKind kind, std::size_t size, bool compressed,
                            std::string_view data);
    Result<void> afterWrite(std::uint64_t bytes);

    sqlite::Db m_db;
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

// How a file's bytes were kept (see Storage in tree.h) and what that cost.
struct StoredFile {
    Storage storage = Storage::Inline;
    ContentHash hash{};       // Whole: the content's blob; Chunked: the chunk list's blob
    std::string inlineBytes;  // Inline
    std::uint64_t size = 0;
    std::uint64_t newBlobs = 0;
    std::uint64_t newBytes = 0; // stored (compressed) bytes of the new blobs
};

// Called with the bytes read so far; returning false cancels the work (the call then fails with kCancelled).
using ReadProgress = std::function<bool(std::uint64_t bytes)>;
inline constexpr std::string_view kCancelled = "cancelled";

// Why storeFile did not take a file: `unreadable` when reading it failed (a walk skips such a file and says
// why); otherwise the store could not keep it, or the work was cancelled (kCancelled), and a walk stops.
struct FileNotStored {
    Error error;
    bool unreadable = false;
};

// Reads `fd` to its end and stores its content: inline, whole or chunked by its size. With `store` null
// only the references are computed (the same ones), nothing is written.
std::expected<StoredFile, FileNotStored> storeFile(int fd, BlobStore* store, const ReadProgress& progress = {});
// The same for bytes in memory.
Result<StoredFile> storeBytes(std::string_view bytes, BlobStore* store);

// Writes a file's content, as a tree entry describes it, to `sink` piece by piece (a chunked file never
// whole in memory). Checks the size and the content's SHA-256 against what was stored.
using ByteSink = std::function<Result<void>(std::string_view bytes)>;
Result<void> readFile(BlobStore& store, const TreeEntry& entry, const ByteSink& sink);
// Whole file in memory (diff, merge); refuses files above `limit` bytes.
Result<std::string> readFileBytes(BlobStore& store, const TreeEntry& entry, std::uint64_t limit);

// The blobs a chunked file's list names (for garbage collection and verification).
Result<std::vector<ContentHash>> chunksOf(BlobStore& store, const ContentHash& chunkList);

} // namespace sb
