#include "wal_vfs.h"

#include <sqlite3.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstring>
#include <limits>
#include <mutex>
#include <new>
#include <vector>

// How the WAL's frames are held and written: wal_vfs.h. Every other call goes to SQLite's "unix" VFS as it is;
// files other than WAL files are opened by it directly, with its own methods.

namespace sb::store_vfs {

namespace {

constexpr const char* kName = "sandbench-unix";
// A WAL frame's header: its page number, then the database's size in pages after a commit (0 for the frames
// before a commit's last), both big-endian, then salts and checksums.
constexpr int kFrameHeaderBytes = 24;
constexpr std::size_t kRealAlignment = alignof(std::max_align_t);

sqlite3_vfs* g_root = nullptr;
sqlite3_vfs g_vfs{};
std::atomic<std::uint64_t> g_requested{0};
std::atomic<std::uint64_t> g_made{0};

struct WalFile {
    sqlite3_file base{}; // what SQLite sees: first, so that a WalFile* is its sqlite3_file*
    sqlite3_file* real = nullptr;
    std::vector<unsigned char> held;
    sqlite3_int64 heldAt = 0;
    // The end of what is written to the file: a write there or past it appends.
    sqlite3_int64 written = 0;
    // The last write held was a commit frame's header: its page completes the commit.
    bool commitHeaderHeld = false;
};

constexpr std::size_t realOffset()
{
    return (sizeof(WalFile) + kRealAlignment - 1) / kRealAlignment * kRealAlignment;
}

WalFile& walFile(sqlite3_file* file)
{
    return *reinterpret_cast<WalFile*>(file);
}

sqlite3_file* real(sqlite3_file* file)
{
    return walFile(file).real;
}

// The unix VFS writes at most kMaxWrite bytes a call (it masks the length with it).
constexpr int kMaxWrite = 0x1ffff;

int writeThrough(WalFile& f, const void* data, int amount, sqlite3_int64 offset)
{
    const auto* bytes = static_cast<const unsigned char*>(data);
    for (int done = 0; done < amount;) {
        const int part = std::min(amount - done, kMaxWrite);
        ++g_made;
        if (const int rc = f.real->pMethods->xWrite(f.real, bytes + done, part, offset + done); rc != SQLITE_OK)
            return rc;
        done += part;
        f.written = std::max(f.written, offset + done);
    }
    return SQLITE_OK;
}

// What is held is dropped even when its write fails: SQLite answers the error by abandoning the transaction
// those frames belong to, as it would had their own writes failed.
int flush(WalFile& f)
{
    if (f.held.empty())
        return SQLITE_OK;
    const int rc = writeThrough(f, f.held.data(), static_cast<int>(f.held.size()), f.heldAt);
    f.held.clear();
    f.commitHeaderHeld = false;
    return rc;
}

bool isCommitFrameHeader(const void* data, int amount)
{
    if (amount != kFrameHeaderBytes)
        return false;
    const auto* bytes = static_cast<const unsigned char*>(data);
    return (bytes[4] | bytes[5] | bytes[6] | bytes[7]) != 0;
}

int walWrite(sqlite3_file* file, const void* data, int amount, sqlite3_int64 offset) noexcept
{
    WalFile& f = walFile(file);
    ++g_requested;
    const bool appends = f.held.empty() ? offset >= f.written
                                        : offset == f.heldAt + static_cast<sqlite3_int64>(f.held.size());
    if (!appends) {
        if (const int rc = flush(f); rc != SQLITE_OK)
            return rc;
        if (offset < f.written)
            return writeThrough(f, data, amount, offset);
    }
    try {
        if (f.held.empty()) {
            f.heldAt = offset;
            f.held.reserve(64 * 1024);
        }
        const auto* bytes = static_cast<const unsigned char*>(data);
        f.held.insert(f.held.end(), bytes, bytes + amount);
    } catch (const std::bad_alloc&) {
        const int rc = flush(f);
        return rc != SQLITE_OK ? rc : writeThrough(f, data, amount, offset);
    }
    const bool completesCommit = f.commitHeaderHeld;
    f.commitHeaderHeld = isCommitFrameHeader(data, amount);
    if (completesCommit || f.held.size() >= kMaxHeldBytes)
        return flush(f);
    return SQLITE_OK;
}

int walClose(sqlite3_file* file) noexcept
{
    WalFile& f = walFile(file);
    const int flushed = flush(f);
    const int closed = f.real->pMethods->xClose(f.real);
    f.~WalFile();
    return flushed != SQLITE_OK ? flushed : closed;
}

int walRead(sqlite3_file* file, void* data, int amount, sqlite3_int64 offset) noexcept
{
    if (const int rc = flush(walFile(file)); rc != SQLITE_OK)
        return rc;
    return real(file)->pMethods->xRead(real(file), data, amount, offset);
}

int walTruncate(sqlite3_file* file, sqlite3_int64 size) noexcept
{
    WalFile& f = walFile(file);
    if (const int rc = flush(f); rc != SQLITE_OK)
        return rc;
    const int rc = f.real->pMethods->xTruncate(f.real, size);
    if (rc == SQLITE_OK)
        f.written = size;
    return rc;
}

int walSync(sqlite3_file* file, int flags) noexcept
{
    if (const int rc = flush(walFile(file)); rc != SQLITE_OK)
        return rc;
    return real(file)->pMethods->xSync(real(file), flags);
}

int walFileSize(sqlite3_file* file, sqlite3_int64* size) noexcept
{
    if (const int rc = flush(walFile(file)); rc != SQLITE_OK)
        return rc;
    return real(file)->pMethods->xFileSize(real(file), size);
}

int walLock(sqlite3_file* file, int level) noexcept
{
    return real(file)->pMethods->xLock(real(file), level);
}

int walUnlock(sqlite3_file* file, int level) noexcept
{
    return real(file)->pMethods->xUnlock(real(file), level);
}

int walCheckReservedLock(sqlite3_file* file, int* out) noexcept
{
    return real(file)->pMethods->xCheckReservedLock(real(file), out);
}

int walFileControl(sqlite3_file* file, int op, void* arg) noexcept
{
    if (const int rc = flush(walFile(file)); rc != SQLITE_OK)
        return rc;
    return real(file)->pMethods->xFileControl(real(file), op, arg);
}

int walSectorSize(sqlite3_file* file) noexcept
{
    return real(file)->pMethods->xSectorSize(real(file));
}

int walDeviceCharacteristics(sqlite3_file* file) noexcept
{
    return real(file)->pMethods->xDeviceCharacteristics(real(file));
}

// A WAL file is never mapped nor has a WAL index of its own; these pass on what SQLite might still ask, to the
// real file's methods where its version has them.
bool has(sqlite3_file* file, int version)
{
    return real(file)->pMethods->iVersion >= version;
}

int walShmMap(sqlite3_file* file, int page, int size, int extend, void volatile** out) noexcept
{
    return has(file, 2) ? real(file)->pMethods->xShmMap(real(file), page, size, extend, out) : SQLITE_IOERR_SHMMAP;
}

int walShmLock(sqlite3_file* file, int offset, int n, int flags) noexcept
{
    return has(file, 2) ? real(file)->pMethods->xShmLock(real(file), offset, n, flags) : SQLITE_IOERR_SHMLOCK;
}

void walShmBarrier(sqlite3_file* file) noexcept
{
    if (has(file, 2))
        real(file)->pMethods->xShmBarrier(real(file));
}

int walShmUnmap(sqlite3_file* file, int deleteFlag) noexcept
{
    return has(file, 2) ? real(file)->pMethods->xShmUnmap(real(file), deleteFlag) : SQLITE_OK;
}

int walFetch(sqlite3_file* file, sqlite3_int64 offset, int amount, void** out) noexcept
{
    *out = nullptr;
    if (const int rc = flush(walFile(file)); rc != SQLITE_OK || !has(file, 3))
        return rc;
    return real(file)->pMethods->xFetch(real(file), offset, amount, out);
}

int walUnfetch(sqlite3_file* file, sqlite3_int64 offset, void* page) noexcept
{
    return has(file, 3) ? real(file)->pMethods->xUnfetch(real(file), offset, page) : SQLITE_OK;
}

const sqlite3_io_methods kWalMethods = {
    3,
    walClose,
    walRead,
    walWrite,
    walTruncate,
    walSync,
    walFileSize,
    walLock,
    walUnlock,
    walCheckReservedLock,
    walFileControl,
    walSectorSize,
    walDeviceCharacteristics,
    walShmMap,
    walShmLock,
    walShmBarrier,
    walShmUnmap,
    walFetch,
    walUnfetch,
};

int vfsOpen(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* file, int flags, int* outFlags) noexcept
{
    if ((flags & SQLITE_OPEN_WAL) == 0)
        return g_root->xOpen(g_root, name, file, flags, outFlags);
    auto* f = new (file) WalFile{};
    f->real = reinterpret_cast<sqlite3_file*>(reinterpret_cast<char*>(file) + realOffset());
    const int rc = g_root->xOpen(g_root, name, f->real, flags, outFlags);
    if (rc != SQLITE_OK) {
        f->~WalFile();
        file->pMethods = nullptr; // SQLite closes only a file whose open set its methods
        return rc;
    }
    // Unknown, every write goes straight to the file.
    sqlite3_int64 size = 0;
    f->written = f->real->pMethods->xFileSize(f->real, &size) == SQLITE_OK
                     ? size
                     : std::numeric_limits<sqlite3_int64>::max();
    f->base.pMethods = &kWalMethods;
    return SQLITE_OK;
}

// The unix VFS's functions find their state through the sqlite3_vfs they are given: each is called with its own.
int vfsDelete(sqlite3_vfs*, const char* name, int syncDir) noexcept
{
    return g_root->xDelete(g_root, name, syncDir);
}

int vfsAccess(sqlite3_vfs*, const char* name, int flags, int* out) noexcept
{
    return g_root->xAccess(g_root, name, flags, out);
}

int vfsFullPathname(sqlite3_vfs*, const char* name, int size, char* out) noexcept
{
    return g_root->xFullPathname(g_root, name, size, out);
}

void* vfsDlOpen(sqlite3_vfs*, const char* name) noexcept
{
    return g_root->xDlOpen(g_root, name);
}

void vfsDlError(sqlite3_vfs*, int size, char* out) noexcept
{
    g_root->xDlError(g_root, size, out);
}

void (*vfsDlSym(sqlite3_vfs*, void* handle, const char* symbol))(void)
{
    return g_root->xDlSym(g_root, handle, symbol);
}

void vfsDlClose(sqlite3_vfs*, void* handle) noexcept
{
    g_root->xDlClose(g_root, handle);
}

int vfsRandomness(sqlite3_vfs*, int size, char* out) noexcept
{
    return g_root->xRandomness(g_root, size, out);
}

int vfsSleep(sqlite3_vfs*, int microseconds) noexcept
{
    return g_root->xSleep(g_root, microseconds);
}

int vfsCurrentTime(sqlite3_vfs*, double* out) noexcept
{
    return g_root->xCurrentTime(g_root, out);
}

int vfsGetLastError(sqlite3_vfs*, int size, char* out) noexcept
{
    return g_root->xGetLastError(g_root, size, out);
}

int vfsCurrentTimeInt64(sqlite3_vfs*, sqlite3_int64* out) noexcept
{
    return g_root->xCurrentTimeInt64(g_root, out);
}

int vfsSetSystemCall(sqlite3_vfs*, const char* name, sqlite3_syscall_ptr call) noexcept
{
    return g_root->xSetSystemCall(g_root, name, call);
}

sqlite3_syscall_ptr vfsGetSystemCall(sqlite3_vfs*, const char* name) noexcept
{
    return g_root->xGetSystemCall(g_root, name);
}

const char* vfsNextSystemCall(sqlite3_vfs*, const char* name) noexcept
{
    return g_root->xNextSystemCall(g_root, name);
}

bool registerVfs()
{
    g_root = sqlite3_vfs_find("unix");
    // The methods this VFS passes on are those of version 3, which the unix VFS has.
    if (!g_root || g_root->iVersion < 3)
        return false;
    g_vfs.iVersion = 3;
    g_vfs.szOsFile = static_cast<int>(realOffset()) + g_root->szOsFile;
    g_vfs.mxPathname = g_root->mxPathname;
    g_vfs.zName = kName;
    g_vfs.xOpen = vfsOpen;
    g_vfs.xDelete = vfsDelete;
    g_vfs.xAccess = vfsAccess;
    g_vfs.xFullPathname = vfsFullPathname;
    g_vfs.xDlOpen = vfsDlOpen;
    g_vfs.xDlError = vfsDlError;
    g_vfs.xDlSym = vfsDlSym;
    g_vfs.xDlClose = vfsDlClose;
    g_vfs.xRandomness = vfsRandomness;
    g_vfs.xSleep = vfsSleep;
    g_vfs.xCurrentTime = vfsCurrentTime;
    g_vfs.xGetLastError = vfsGetLastError;
    g_vfs.xCurrentTimeInt64 = vfsCurrentTimeInt64;
    g_vfs.xSetSystemCall = vfsSetSystemCall;
    g_vfs.xGetSystemCall = vfsGetSystemCall;
    g_vfs.xNextSystemCall = vfsNextSystemCall;
    return sqlite3_vfs_register(&g_vfs, 0) == SQLITE_OK;
}

} // namespace

const char* name()
{
    static const bool registered = registerVfs();
    return registered ? kName : nullptr;
}

WalCounters walCounters()
{
    return WalCounters{.requested = g_requested.load(), .made = g_made.load()};
}

} // namespace sb::store_vfs
