#pragma once

// Small, careful file-system steps for the workspace engine: every walk goes through directory descriptors
// opened with O_NOFOLLOW, so a symlink planted by a sandboxed program is never followed out of the workspace.

#include "util/errno_text.h"
#include "util/error.h"
#include "util/fd_io.h" // writeAll

#include <filesystem>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace sb {

// An owned file descriptor.
class Fd {
public:
    Fd() = default;
    explicit Fd(int fd) : m_fd(fd) {}
    Fd(Fd&& other) noexcept : m_fd(other.release()) {}
    Fd& operator=(Fd&& other) noexcept;
    Fd(const Fd&) = delete;
    Fd& operator=(const Fd&) = delete;
    ~Fd();

    int get() const { return m_fd; }
    bool valid() const { return m_fd >= 0; }
    int release()
    {
        const int fd = m_fd;
        m_fd = -1;
        return fd;
    }

private:
    int m_fd = -1;
};

// Opens a directory below `dirfd` (one path component, no symlink followed).
Result<Fd> openDirectoryAt(int dirfd, const std::string& name);
// Opens a directory by path; only the last component must not be a symlink.
Result<Fd> openDirectory(const std::filesystem::path& path);
// Walks a relative '/'-separated path from `root` component by component, never through a symlink.
Result<Fd> openRelativeDirectory(int root, std::string_view relative);


// Removes the entry `name` below `dirfd` and everything under it, never following a symlink; read-only
// directories inside are made writable first. Missing is fine.
Result<void> removeTreeAt(int dirfd, const std::string& name);
Result<void> removeTree(const std::filesystem::path& path);


// Creates the folder (and missing parents) with mode 0700.
Result<void> makeDirectories(const std::filesystem::path& path);

// Swaps two names atomically (renameat2 RENAME_EXCHANGE). Fails with errno EINVAL or ENOSYS where the
// file system cannot; `errorNumber` receives errno.
bool exchangeAt(int fromDir, const std::string& from, int toDir, const std::string& to, int& errorNumber);

// An advisory lock on a file (flock), released when this object goes or the process dies, even by
// SIGKILL: which is what lets the next Sandbench tell an operation that died from one still running.
class FileLock {
public:
    enum class Mode { Shared, Exclusive };
    FileLock() = default;
    // Waits up to `waitMs` for the lock; `what` names the lock in the error.
    static Result<FileLock> acquire(const std::filesystem::path& path, Mode mode, int waitMs, std::string_view what);
    // Takes the lock only if it is free now; an empty lock (valid() false) when it is not.
    static Result<FileLock> tryAcquire(const std::filesystem::path& path, Mode mode);
    bool valid() const { return m_fd.valid(); }
    // Another process given this descriptor (SCM_RIGHTS) holds the same lock, until both have closed it.
    int descriptor() const { return m_fd.get(); }

private:
    Fd m_fd;
};

// Nanoseconds since the epoch (CLOCK_REALTIME), the clock file times use.
std::int64_t wallClockNs();
std::int64_t nowMs();

} // namespace sb
