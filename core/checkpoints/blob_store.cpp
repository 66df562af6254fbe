#include "checkpoints/blob_store.h"

#include "chunker.h"
#include "util/errno_text.h"
#include "util/varint.h"

#include <fmt/format.h>
#include <sqlite3.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <optional>
#include <system_error>
#include <unistd.h>
#include <utility>
#include <vector>

namespace sb {

namespace {

// zstd's own default: about 300 MB/s per core here, and the ratio of gzip -6 at a fraction of its time.
constexpr int kZstdLevel = 3;
// A batch of blob writes is committed after about this many stored bytes.
constexpr std::uint64_t kBatchBytes = 32ULL * 1024 * 1024;

constexpr std::string_view kChunkListMagic = "SBCL";

enum Codec : int { kStoredAsIs = 0, kZstd = 1 };

std::string_view asChars(const ContentHash& hash)
{
    return {reinterpret_cast<const char*>(hash.data()), hash.size()};
}

bool getVarint(std::string_view bytes, std::size_t& pos, std::uint64_t& value)
{
    value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (pos >= bytes.size())
            return false;
        const auto byte = static_cast<std::uint8_t>(bytes[pos++]);
        value |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
        if ((byte & 0x80) == 0)
            return true;
    }
    return false;
}

struct Chunk {
    ContentHash hash{};
    std::uint64_t size = 0;
};

struct ChunkList {
    std::uint64_t size = 0;
    ContentHash content{}; // SHA-256 of the whole file
    std::vector<Chunk> chunks;
};

std::string serializeChunkList(const ChunkList& list)
{
    std::string out(kChunkListMagic);
    putVarint(out, list.size);
    out += asChars(list.content);
    putVarint(out, list.chunks.size());
    for (const auto& chunk : list.chunks) {
        out += asChars(chunk.hash);
        putVarint(out, chunk.size);
    }
    return out;
}

Result<ChunkList> parseChunkList(std::string_view bytes)
{
    auto damaged = [] { return fail("a stored chunk list is damaged"); };
    if (!bytes.starts_with(kChunkListMagic))
        return damaged();
    std::size_t pos = kChunkListMagic.size();
    ChunkList list;
    std::uint64_t count = 0;
    if (!getVarint(bytes, pos, list.size) || bytes.size() - pos < list.content.size())
        return damaged();
    std::memcpy(list.content.data(), bytes.data() + pos, list.content.size());
    pos += list.content.size();
    if (!getVarint(bytes, pos, count) || count > bytes.size())
        return damaged();
    std::uint64_t total = 0;
    for (std::uint64_t i = 0; i < count; ++i) {
        Chunk chunk;
        if (bytes.size() - pos < chunk.hash.size())
            return damaged();
        std::memcpy(chunk.hash.data(), bytes.data() + pos, chunk.hash.size());
        pos += chunk.hash.size();
        if (!getVarint(bytes, pos, chunk.size) || chunk.size == 0 || chunk.size > ChunkSizes::kMax)
            return damaged();
        total += chunk.size;
        list.chunks.push_back(chunk);
    }
    if (pos != bytes.size() || total != list.size)
        return damaged();
    return list;
}

} // namespace

struct CContextFree {
    void operator()(ZSTD_CCtx* c) const noexcept { ZSTD_freeCCtx(c); }
};
struct DContextFree {
    void operator()(ZSTD_DCtx* d) const noexcept { ZSTD_freeDCtx(d); }
};

// One compression context per thread: a walk compresses on several threads, outside the store's lock.
ZSTD_CCtx* threadCompressor()
{
    thread_local std::unique_ptr<ZSTD_CCtx, CContextFree> context{ZSTD_createCCtx()};
    return context.get();
}

struct BlobStore::Impl {
    std::unique_ptr<ZSTD_DCtx, DContextFree> decompressor{ZSTD_createDCtx()};
    // The statements, the batch and the connection are used by one thread at a time.
    std::mutex mutex;
    sqlite::Statement find;
    sqlite::Statement insert;
    sqlite::Statement read;
    bool batching = false;
    std::optional<sqlite::Transaction> batch;
    std::uint64_t batchBytes = 0;
    // The first write of the batch that failed. SQLite may have rolled the batch back with it (a full disk
    // does), so every later write of the batch, and endBatch(), fail with it too: none commits on its own.
    std::optional<Error> batchFailure;
};

BlobStore::BlobStore(sqlite::Db db) : m_db(db), m_impl(std::make_unique<Impl>()) {}

BlobStore::~BlobStore() = default;

Result<bool> BlobStore::contains(const ContentHash& hash)
{
    const std::lock_guard lock(m_impl->mutex);
    return containsLocked(hash);
}

Result<bool> BlobStore::containsLocked(const ContentHash& hash)
{
    if (!m_impl->find) {
        auto statement = m_db.prepare("SELECT 1 FROM blobs WHERE hash = ?1");
        if (!statement)
            return std::unexpected(statement.error());
        m_impl->find = std::move(*statement);
    }
    sqlite3_stmt* s = m_impl->find.get();
    sqlite3_reset(s);
    sqlite::Binder bind(s);
    bind.blob(1, asChars(hash));
    const int rc = bind.ok() ? sqlite3_step(s) : SQLITE_ERROR;
    const bool found = rc == SQLITE_ROW;
    sqlite3_reset(s);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return m_db.error("cannot look up a blob");
    return found;
}

Result<BlobStore::Added> BlobStore::put(const ContentHash& hash, BlobKind kind, std::string_view bytes)
{
    {
        const std::lock_guard lock(m_impl->mutex);
        auto present = containsLocked(hash);
        if (!present)
            return std::unexpected(present.error());
        if (*present)
            return Added{};
    }
    // Compressed outside the lock, so that the threads of a walk compress side by side.
    ZSTD_CCtx* compressor = threadCompressor();
    if (!compressor)
        return fail("zstd: cannot create a compression context (out of memory)");
    thread_local std::string compressed;
    compressed.resize(ZSTD_compressBound(bytes.size()));
    const std::size_t length =
        ZSTD_compressCCtx(compressor, compressed.data(), compressed.size(), bytes.data(), bytes.size(), kZstdLevel);
    if (ZSTD_isError(length))
        return fail(fmt::format("zstd: {}", ZSTD_getErrorName(length)));
    const bool useCompressed = length < bytes.size();
    const std::string_view data = useCompressed ? std::string_view(compressed.data(), length) : bytes;

    const std::lock_guard lock(m_impl->mutex);
    auto added = putLocked(hash, kind, bytes.size(), useCompressed, data);
    if (!added && m_impl->batching && !m_impl->batchFailure)
        m_impl->batchFailure = added.error();
    return added;
}

Result<BlobStore::Added> BlobStore::putLocked(const ContentHash& hash, BlobKind kind, std::size_t size,
                                              bool compressed, std::string_view data)
{
    if (m_impl->batchFailure)
        return std::unexpected(*m_impl->batchFailure);
    if (m_impl->batching && !m_impl->batch) {
        m_impl->batch.emplace(m_db);
        if (auto ok = m_impl->batch->begin(); !ok) {
            m_impl->batch.reset();
            return std::unexpected(ok.error());
        }
    }
    if (!m_impl->insert) {
        // OR IGNORE: another thread of the same walk may have stored the same bytes meanwhile.
        auto statement =
            m_db.prepare("INSERT OR IGNORE INTO blobs (hash, kind, size, codec, data) VALUES (?1, ?2, ?3, ?4, ?5)");
        if (!statement)
            return std::unexpected(statement.error());
        m_impl->insert = std::move(*statement);
    }
    sqlite3_stmt* s = m_impl->insert.get();
    sqlite3_reset(s);
    sqlite::Binder bind(s);
    bind.blob(1, asChars(hash))
        .integer(2, static_cast<int>(kind))
        .integer(3, static_cast<std::int64_t>(size))
        .integer(4, compressed ? kZstd : kStoredAsIs)
        .blob(5, data);
    const int rc = bind.ok() ? sqlite3_step(s) : SQLITE_ERROR;
    sqlite3_reset(s);
    if (rc != SQLITE_DONE)
        return m_db.error("cannot store a blob");
    if (m_db.changes() == 0)
        return Added{};
    if (auto ok = afterWrite(data.size()); !ok)
        return std::unexpected(ok.error());
    return Added{true, data.size()};
}

Result<BlobStore::Added> BlobStore::put(BlobKind kind, std::string_view bytes, ContentHash* hash)
{
    auto digest = sha256(bytes);
    if (!digest)
        return std::unexpected(digest.error());
    if (hash)
        *hash = *digest;
    return put(*digest, kind, bytes);
}

Result<std::string> BlobStore::get(const ContentHash& hash)
{
    const std::lock_guard lock(m_impl->mutex);
    if (!m_impl->read) {
        auto statement = m_db.prepare("SELECT size, codec, data FROM blobs WHERE hash = ?1");
        if (!statement)
            return std::unexpected(statement.error());
        m_impl->read = std::move(*statement);
    }
    sqlite3_stmt* s = m_impl->read.get();
    sqlite3_reset(s);
    sqlite::Binder bind(s);
    bind.blob(1, asChars(hash));
    const int rc = bind.ok() ? sqlite3_step(s) : SQLITE_ERROR;
    if (rc == SQLITE_DONE)
        return fail(fmt::format("store {}: blob {} is missing", m_db.path().string(), hashHex(hash)));
    if (rc != SQLITE_ROW) {
        sqlite3_reset(s);
        return m_db.error("cannot read a blob");
    }
    const std::int64_t size = sqlite3_column_int64(s, 0);
    const int codec = sqlite3_column_int(s, 1);
    const auto* data = static_cast<const char*>(sqlite3_column_blob(s, 2));
    const auto length = static_cast<std::size_t>(sqlite3_column_bytes(s, 2));
    std::string bytes;
    std::string problem;
    if (size < 0 || size > (1LL << 31)) {
        problem = "its size is out of range";
    } else if (codec == kStoredAsIs) {
        bytes.assign(data ? data : "", length);
    } else if (codec == kZstd) {
        bytes.resize(static_cast<std::size_t>(size));
        const std::size_t produced =
            !m_impl->decompressor ? 0
                                  : ZSTD_decompressDCtx(m_impl->decompressor.get(), bytes.data(), bytes.size(), data, length);
        if (!m_impl->decompressor || ZSTD_isError(produced) || produced != bytes.size())
            problem = "it does not decompress";
    } else {
        problem = fmt::format("unknown codec {}", codec);
    }
    sqlite3_reset(s);
    if (problem.empty() && bytes.size() != static_cast<std::size_t>(size))
        problem = "its size does not match";
    if (problem.empty()) {
        auto digest = sha256(bytes);
        if (!digest)
            return std::unexpected(digest.error());
        if (*digest != hash)
            problem = "its bytes do not match its hash";
    }
    if (!problem.empty())
        return fail(fmt::format("store {}: blob {} is damaged: {}", m_db.path().string(), hashHex(hash), problem));
    return bytes;
}

Result<void> BlobStore::beginBatch()
{
    const std::lock_guard lock(m_impl->mutex);
    m_impl->batching = true;
    m_impl->batchBytes = 0;
    m_impl->batchFailure.reset();
    return {};
}

Result<void> BlobStore::endBatch()
{
    const std::lock_guard lock(m_impl->mutex);
    m_impl->batching = false;
    if (auto failure = std::exchange(m_impl->batchFailure, std::nullopt)) {
        m_impl->batch.reset(); // rolls back whatever SQLite kept of it
        return std::unexpected(std::move(*failure));
    }
    if (m_impl->batch) {
        auto ok = m_impl->batch->commit();
        m_impl->batch.reset();
        return ok;
    }
    return {};
}

Result<void> BlobStore::afterWrite(std::uint64_t bytes)
{
    if (!m_impl->batch)
        return {};
    m_impl->batchBytes += bytes;
    if (m_impl->batchBytes < kBatchBytes)
        return {};
    m_impl->batchBytes = 0;
    auto ok = m_impl->batch->commit();
    m_impl->batch.reset();
    return ok;
}

// -----------------------------------------------------------------------------------------------------------

namespace {

// Feeds a file's bytes through the whole-content hash and the chunker, storing (or only hashing) each chunk.
class FileStorer {
public:
    explicit FileStorer(BlobStore* store) : m_store(store) {}

    Result<void> chunk(std::string_view bytes)
    {
        auto digest = sha256(bytes);
        if (!digest)
            return std::unexpected(digest.error());
        if (m_store) {
            auto added = m_store->put(*digest, BlobKind::Bytes, bytes);
            if (!added)
                return std::unexpected(added.error());
            count(*added);
        }
        m_list.chunks.push_back(Chunk{*digest, bytes.size()});
        return {};
    }

    Result<StoredFile> finish(std::uint64_t size, const ContentHash& content)
    {
        m_list.size = size;
        m_list.content = content;
        const std::string listBytes = serializeChunkList(m_list);
        auto digest = sha256(listBytes);
        if (!digest)
            return std::unexpected(digest.error());
        if (m_store) {
            auto added = m_store->put(*digest, BlobKind::ChunkList, listBytes);
            if (!added)
                return std::unexpected(added.error());
            count(*added);
        }
        m_result.storage = Storage::Chunked;
        m_result.hash = *digest;
        m_result.size = size;
        return m_result;
    }

    void count(const BlobStore::Added& added)
    {
        if (added.added) {
            ++m_result.newBlobs;
            m_result.newBytes += added.stored;
        }
    }

    StoredFile& result() { return m_result; }

private:
    BlobStore* m_store;
    ChunkList m_list;
    StoredFile m_result;
};

Result<StoredFile> storeSmall(std::string_view bytes, BlobStore* store)
{
    StoredFile result;
    result.size = bytes.size();
    if (bytes.size() <= kInlineMax) {
        result.storage = Storage::Inline;
        result.inlineBytes = std::string(bytes);
        return result;
    }
    result.storage = Storage::Whole;
    auto digest = sha256(bytes);
    if (!digest)
        return std::unexpected(digest.error());
    result.hash = *digest;
    if (store) {
        auto added = store->put(*digest, BlobKind::Bytes, bytes);
        if (!added)
            return std::unexpected(added.error());
        if (added->added) {
            result.newBlobs = 1;
            result.newBytes = added->stored;
        }
    }
    return result;
}

} // namespace

Result<StoredFile> storeBytes(std::string_view bytes, BlobStore* store)
{
    if (bytes.size() <= kWholeMax)
        return storeSmall(bytes, store);
    FileStorer storer(store);
    Sha256 content;
    content.update(bytes);
    std::size_t pos = 0;
    while (pos < bytes.size()) {
        const std::size_t length = nextChunkLength(
            std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(bytes.data()) + pos, bytes.size() - pos));
        if (auto ok = storer.chunk(bytes.substr(pos, length)); !ok)
            return std::unexpected(ok.error());
        pos += length;
    }
    auto digest = content.finish();
    if (!digest)
        return std::unexpected(digest.error());
    return storer.finish(bytes.size(), *digest);
}

std::expected<StoredFile, FileNotStored> storeFile(int fd, BlobStore* store, const ReadProgress& progress)
{
    const auto notStored = [](Error error) { return std::unexpected(FileNotStored{std::move(error), false}); };
    constexpr std::size_t kRead = 1024 * 1024;
    // Holds the chunk being cut plus the next read: a cut needs kMax bytes ahead unless the file ends. One per
    // thread, kept and never cleared: a walk reads thousands of files, and zeroing a fresh buffer for each
    // cost more than reading them.
    constexpr std::size_t kCapacity = ChunkSizes::kMax + kRead;
    thread_local std::unique_ptr<std::uint8_t[]> storage;
    if (!storage)
        storage.reset(new std::uint8_t[kCapacity]);
    const std::span<std::uint8_t> buffer(storage.get(), kCapacity);
    std::size_t filled = 0;
    std::uint64_t total = 0;
    bool ended = false;

    auto fill = [&]() -> std::expected<void, FileNotStored> {
        while (!ended && filled < buffer.size()) {
            const ssize_t n = ::read(fd, buffer.data() + filled, buffer.size() - filled);
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                return std::unexpected(FileNotStored{Error{errnoText(errno)}, true});
            }
            if (n == 0) {
                ended = true;
                break;
            }
            filled += static_cast<std::size_t>(n);
            total += static_cast<std::uint64_t>(n);
            if (progress && !progress(total))
                return std::unexpected(FileNotStored{Error{std::string(kCancelled)}, false});
        }
        return {};
    };

    // Small files: one read decides.
    if (auto ok = fill(); !ok)
        return std::unexpected(ok.error());
    if (ended && filled <= kWholeMax) {
        auto small = storeSmall(std::string_view(reinterpret_cast<const char*>(buffer.data()), filled), store);
        if (!small)
            return notStored(small.error());
        return std::move(*small);
    }

    FileStorer storer(store);
    Sha256 content;
    std::size_t start = 0; // where the current chunk begins in `buffer`
    for (;;) {
        while (filled - start >= ChunkSizes::kMax || (ended && filled > start)) {
            const std::span<const std::uint8_t> rest(buffer.data() + start, filled - start);
            const std::size_t length = nextChunkLength(rest);
            const std::string_view piece(reinterpret_cast<const char*>(buffer.data() + start), length);
            content.update(piece);
            if (auto ok = storer.chunk(piece); !ok)
                return notStored(ok.error());
            start += length;
        }
        if (ended)
            break;
        // Move the unfinished chunk to the front and read more behind it.
        std::memmove(buffer.data(), buffer.data() + start, filled - start);
        filled -= start;
        start = 0;
        if (auto ok = fill(); !ok)
            return std::unexpected(ok.error());
    }
    auto digest = content.finish();
    if (!digest)
        return notStored(digest.error());
    auto stored = storer.finish(total, *digest);
    if (!stored)
        return notStored(stored.error());
    return std::move(*stored);
}

Result<std::vector<ContentHash>> chunksOf(BlobStore& store, const ContentHash& chunkList)
{
    auto bytes = store.get(chunkList);
    if (!bytes)
        return std::unexpected(bytes.error());
    auto list = parseChunkList(*bytes);
    if (!list)
        return std::unexpected(list.error());
    std::vector<ContentHash> hashes;
    hashes.reserve(list->chunks.size());
    for (const auto& chunk : list->chunks)
        hashes.push_back(chunk.hash);
    return hashes;
}

Result<void> readFile(BlobStore& store, const TreeEntry& entry, const ByteSink& sink)
{
    if (entry.type != EntryType::File)
        return fail(fmt::format("'{}' is not a file", entry.name));
    switch (entry.storage) {
    case Storage::Inline:
        if (entry.data.size() != entry.size)
            return fail(fmt::format("'{}': the stored size does not match", entry.name));
        return sink(entry.data);
    case Storage::Whole: {
        auto bytes = store.get(entry.hash);
        if (!bytes)
            return std::unexpected(bytes.error());
        if (bytes->size() != entry.size)
            return fail(fmt::format("'{}': the stored size does not match", entry.name));
        return sink(*bytes);
    }
    case Storage::Chunked: {
        auto listBytes = store.get(entry.hash);
        if (!listBytes)
            return std::unexpected(listBytes.error());
        auto list = parseChunkList(*listBytes);
        if (!list)
            return std::unexpected(list.error());
        if (list->size != entry.size)
            return fail(fmt::format("'{}': the stored size does not match", entry.name));
        Sha256 content;
        for (const auto& chunk : list->chunks) {
            auto bytes = store.get(chunk.hash);
            if (!bytes)
                return std::unexpected(bytes.error());
            if (bytes->size() != chunk.size)
                return fail(fmt::format("'{}': a chunk's size does not match", entry.name));
            content.update(*bytes);
            if (auto ok = sink(*bytes); !ok)
                return ok;
        }
        auto digest = content.finish();
        if (!digest)
            return std::unexpected(digest.error());
        if (*digest != list->content)
            return fail(fmt::format("'{}': the chunks do not add up to the stored content", entry.name));
        return {};
    }
    }
    return fail("unknown storage");
}

Result<std::string> readFileBytes(BlobStore& store, const TreeEntry& entry, std::uint64_t limit)
{
    if (entry.size > limit)
        return fail(fmt::format("'{}' is {} bytes, more than {} bytes", entry.name, entry.size, limit));
    std::string out;
    out.reserve(static_cast<std::size_t>(entry.size));
    auto ok = readFile(store, entry, [&](std::string_view bytes) -> Result<void> {
        out += bytes;
        return {};
    });
    if (!ok)
        return std::unexpected(ok.error());
    return out;
}

} // namespace sb
