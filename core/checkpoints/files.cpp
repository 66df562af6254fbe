#include "checkpoints/files.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <system_error>
#include <thread>
#include <time.h>
#include <unistd.h>
#include <vector>

#ifndef RENAME_EXCHANGE
#include <linux/fs.h>
#endif
#include <stdio.h> // renameat2 (glibc 2.28+)

namespace sb {

Fd& Fd::operator=(Fd&& other) noexcept
{
    if (this != &other) {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = other.release();
    }
    return *this;
}

Fd::~Fd()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

Result<Fd> openDirectoryAt(int dirfd, const std::string& name)
{
    const int fd = ::openat(dirfd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return fail(errnoText(errno));
    return Fd(fd);
}

Result<Fd> openDirectory(const std::filesystem::path& path)
{
    const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return fail(fmt::format("{}: {}", path.string(), errnoText(errno)));
    return Fd(fd);
}

Result<Fd> openRelativeDirectory(int root, std::string_view relative)
{
    Fd current(::fcntl(root, F_DUPFD_CLOEXEC, 0));
    if (!current.valid())
        return fail(errnoText(errno));
    std::size_t start = 0;
    while (start < relative.size()) {
        std::size_t slash = relative.find('/', start);
        if (slash == std::string_view::npos)
            slash = relative.size();
        const std::string name(relative.substr(start, slash - start));
        start = slash + 1;
        if (name.empty())
            continue;
        auto next = openDirectoryAt(current.get(), name);
        if (!next)
            return fail(fmt::format("{}: {}", relative, next.error().message));
        current = std::move(*next);
    }
    return current;
}

namespace {

Result<void> emptyDirectory(int fd, int depth)
{
    if (depth > 4096)
        return fail("too deep");
    DIR* dir = ::fdopendir(::fcntl(fd, F_DUPFD_CLOEXEC, 0));
    if (!dir)
        return fail(errnoText(errno));
    ::rewinddir(dir);
    std::vector<std::pair<std::string, bool>> names; // name, is a directory
    while (const dirent* entry = ::readdir(dir)) {
        const std::string_view name = entry->d_name;
        if (name == "." || name == "..")
            continue;
        names.emplace_back(std::string(name), entry->d_type == DT_DIR);
    }
    ::closedir(dir);
    for (const auto& [name, isDirectory] : names) {
        if (::unlinkat(fd, name.c_str(), 0) == 0 || errno == ENOENT)
            continue;
        if (errno != EISDIR && errno != EPERM && !isDirectory)
            return fail(fmt::format("{}: {}", name, errnoText(errno)));
        const int child = ::openat(fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (child < 0) {
            if (errno == ENOENT)
                continue;
            return fail(fmt::format("{}: {}", name, errnoText(errno)));
        }
        Fd childFd(child);
        ::fchmod(child, 0700); // a read-only directory's entries cannot be removed otherwise
        if (auto ok = emptyDirectory(child, depth + 1); !ok)
            return fail(fmt::format("{}/{}", name, ok.error().message));
        if (::unlinkat(fd, name.c_str(), AT_REMOVEDIR) != 0 && errno != ENOENT)
            return fail(fmt::format("{}: {}", name, errnoText(errno)));
    }
    return {};
}

} // namespace

Result<void> removeTreeAt(int dirfd, const std::string& name)
{
    if (::unlinkat(dirfd, name.c_str(), 0) == 0 || errno == ENOENT)
        return {};
    const int fd = ::openat(dirfd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT)
            return {};
        return fail(fmt::format("cannot remove {}: {}", name, errnoText(errno)));
    }
    Fd guard(fd);
    ::fchmod(fd, 0700);
    if (auto ok = emptyDirectory(fd, 0); !ok)
        return fail(fmt::format("cannot remove {}/{}", name, ok.error().message));
    if (::unlinkat(dirfd, name.c_str(), AT_REMOVEDIR) != 0 && errno != ENOENT)
        return fail(fmt::format("cannot remove {}: {}", name, errnoText(errno)));
    return {};
}

Result<void> removeTree(const std::filesystem::path& path)
{
    const std::filesystem::path parent = path.parent_path().empty() ? "." : path.parent_path();
    const int fd = ::open(parent.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT)
            return {};
        return fail(fmt::format("cannot remove {}: {}", path.string(), errnoText(errno)));
    }
    Fd guard(fd);
    auto ok = removeTreeAt(fd, path.filename().string());
    if (!ok)
        return fail(fmt::format("{} ({})", ok.error().message, path.string()));
    return {};
}

Result<void> makeDirectories(const std::filesystem::path& path)
{
    std::error_code ec;
    std::vector<std::filesystem::path> missing;
    for (std::filesystem::path p = path; !p.empty() && !std::filesystem::exists(p, ec); p = p.parent_path()) {
        missing.push_back(p);
        if (p == p.parent_path())
            break;
    }
    for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
        if (::mkdir(it->c_str(), 0700) != 0 && errno != EEXIST)
            return fail(fmt::format("cannot create folder {}: {}", it->string(), errnoText(errno)));
    }
    if (!std::filesystem::is_directory(path, ec))
        return fail(fmt::format("{} is not a folder", path.string()));
    return {};
}

bool exchangeAt(int fromDir, const std::string& from, int toDir, const std::string& to, int& errorNumber)
{
    if (::renameat2(fromDir, from.c_str(), toDir, to.c_str(), RENAME_EXCHANGE) == 0)
        return true;
    errorNumber = errno;
    return false;
}

Result<FileLock> FileLock::acquire(const std::filesystem::path& path, Mode mode, int waitMs, std::string_view what)
{
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return fail(fmt::format("cannot open the lock {}: {}", path.string(), errnoText(errno)));
    FileLock lock;
    lock.m_fd = Fd(fd);
    const int operation = mode == Mode::Shared ? LOCK_SH : LOCK_EX;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(waitMs);
    for (int pause = 1;; pause = std::min(pause * 2, 50)) {
        if (::flock(fd, operation | LOCK_NB) == 0)
            return lock;
        if (errno != EWOULDBLOCK && errno != EINTR)
            return fail(fmt::format("cannot lock {}: {}", path.string(), errnoText(errno)));
        if (std::chrono::steady_clock::now() >= deadline)
            return fail(fmt::format("{} is busy: another Sandbench is working on it (waited {} s)", what,
                                    waitMs / 1000));
        std::this_thread::sleep_for(std::chrono::milliseconds(pause));
    }
}

Result<FileLock> FileLock::tryAcquire(const std::filesystem::path& path, Mode mode)
{
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0)
        return fail(fmt::format("cannot open the lock {}: {}", path.string(), errnoText(errno)));
    FileLock lock;
    if (::flock(fd, (mode == Mode::Shared ? LOCK_SH : LOCK_EX) | LOCK_NB) == 0) {
        lock.m_fd = Fd(fd);
        return lock;
    }
    const int error = errno;
    ::close(fd);
    if (error == EWOULDBLOCK)
        return lock;
    return fail(fmt::format("cannot lock {}: {}", path.string(), errnoText(error)));
}

std::int64_t wallClockNs()
{
    timespec ts{};
    ::clock_gettime(CLOCK_REALTIME, &ts);
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

std::int64_t nowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}


} // namespace sb
