#include "util/input_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sb {

namespace {

std::unexpected<Error> notRegular(const std::string& name, const InputKind& kind, mode_t mode)
{
    return fail(fmt::format("{}: the {} is not a regular file but {}", name, kind.what, fileKindName(mode)));
}

std::unexpected<Error> tooLarge(const std::string& name, const InputKind& kind)
{
    return fail(fmt::format("{}: the {} is larger than {}", name, kind.what, capText(kind.maxBytes)));
}

std::unexpected<Error> cannotRead(const std::string& name, const InputKind& kind, int error)
{
    return fail(fmt::format("{}: cannot read the {}: {}", name, kind.what,
                            error == ENOENT ? "no such file" : std::strerror(error)));
}

// The 1-based line of text[at].
std::size_t lineOf(std::string_view text, std::size_t at)
{
    return 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

Result<std::string> refuseBinary(std::string text, const std::string& name, const InputKind& kind)
{
    if (const auto nul = text.find('\0'); nul != std::string::npos)
        return fail(fmt::format("{}: binary content (a NUL byte on line {}); a {} is text", name,
                                lineOf(text, nul), kind.what));
    return text;
}

} // namespace

std::string_view fileKindName(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    return "a special file";
}

std::string capText(std::uint64_t bytes)
{
    constexpr std::uint64_t kKiB = 1024;
    if (bytes >= kKiB * kKiB * kKiB && bytes % (kKiB * kKiB * kKiB) == 0)
        return fmt::format("{} GiB", bytes / (kKiB * kKiB * kKiB));
    if (bytes >= kKiB * kKiB && bytes % (kKiB * kKiB) == 0)
        return fmt::format("{} MiB", bytes / (kKiB * kKiB));
    if (bytes >= kKiB && bytes % kKiB == 0)
        return fmt::format("{} KiB", bytes / kKiB);
    return fmt::format("{} bytes", bytes);
}

Result<InputFile> InputFile::open(const std::filesystem::path& path, const InputKind& kind)
{
    const std::string name = path.string();
    // Looked at before it is opened: opening a device can have effects of its own.
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        return cannotRead(name, kind, errno);
    if (!S_ISREG(st.st_mode))
        return notRegular(name, kind, st.st_mode);
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
    if (!fd.valid())
        return cannotRead(name, kind, errno);
    // What was opened is what is read: the path may have been replaced since stat().
    if (::fstat(fd.get(), &st) != 0)
        return cannotRead(name, kind, errno);
    if (!S_ISREG(st.st_mode))
        return notRegular(name, kind, st.st_mode);
    if (static_cast<std::uint64_t>(st.st_size) > kind.maxBytes)
        return tooLarge(name, kind);
    return InputFile(std::move(fd), static_cast<std::uint64_t>(st.st_size), name, kind);
}

Result<std::size_t> InputFile::read(char* buffer, std::size_t size)
{
    for (;;) {
        const ssize_t n = ::read(m_fd.get(), buffer, size);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return cannotRead(m_name, m_kind, errno);
        m_read += static_cast<std::uint64_t>(n);
        if (m_read > m_kind.maxBytes) // it grew while we read it
            return tooLarge(m_name, m_kind);
        return static_cast<std::size_t>(n);
    }
}

Result<void> InputFile::rewind()
{
    if (::lseek(m_fd.get(), 0, SEEK_SET) != 0)
        return cannotRead(m_name, m_kind, errno);
    m_read = 0;
    return {};
}

Result<std::string> readInputFile(const std::filesystem::path& path, const InputKind& kind)
{
    auto file = InputFile::open(path, kind);
    if (!file)
        return std::unexpected(file.error());
    // One read for a file that keeps its size; more room (up to one byte past the cap) when it grows.
    std::string text(static_cast<std::size_t>(file->size()) + 1, '\0');
    std::size_t done = 0;
    for (;;) {
        if (done == text.size())
            text.resize(static_cast<std::size_t>(std::min<std::uint64_t>(text.size() * 2, kind.maxBytes + 1)));
        auto n = file->read(text.data() + done, text.size() - done);
        if (!n)
            return std::unexpected(n.error());
        if (*n == 0)
            break;
        done += *n;
    }
    text.resize(done);
    return text;
}

Result<std::string> readInputText(const std::filesystem::path& path, const InputKind& kind)
{
    auto bytes = readInputFile(path, kind);
    if (!bytes)
        return bytes;
    return refuseBinary(std::move(*bytes), path.string(), kind);
}

Result<std::string> readStdinText(const InputKind& kind)
{
    const std::string name = "stdin";
    std::string text;
    std::size_t done = 0;
    while (done <= kind.maxBytes) {
        if (done == text.size())
            text.resize(static_cast<std::size_t>(std::min<std::uint64_t>(std::max<std::size_t>(text.size() * 2, 65536),
                                                                         kind.maxBytes + 1)));
        const ssize_t n = ::read(STDIN_FILENO, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return cannotRead(name, kind, errno);
        if (n == 0)
            break;
        done += static_cast<std::size_t>(n);
    }
    if (done > kind.maxBytes)
        return tooLarge(name, kind);
    text.resize(done);
    return refuseBinary(std::move(text), name, kind);
}

} // namespace sb
