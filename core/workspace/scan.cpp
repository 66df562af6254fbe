#include "workspace/scan.h"

#include "workspace/files.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sb {

namespace {

// Deeper trees are refused: each level holds a descriptor open, and no real workspace comes near this.
constexpr int kMaxDepth = 256;

std::int64_t nanoseconds(const timespec& ts)
{
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

FileStat statOf(const struct stat& st)
{
    return FileStat{static_cast<std::uint64_t>(st.st_ino), static_cast<std::uint64_t>(st.st_size),
                    nanoseconds(st.st_mtim), nanoseconds(st.st_ctim), static_cast<std::uint32_t>(st.st_mode)};
}

std::string specialKind(mode_t mode)
{
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

std::string joinPath(const std::string& prefix, const std::string& name)
{
    return prefix.empty() ? name : prefix + "/" + name;
}

struct DirSummary {
    ContentHash hash{};
    std::uint64_t files = 0;
    std::uint64_t bytes = 0;
    std::size_t entries = 0;
};

class Walker {
public:
    Walker(const ScanOptions& options, ScanResult& out, dev_t device)
        : m_options(options), m_out(out), m_device(device), m_startNs(wallClockNs())
    {
    }

    Result<DirSummary> walk(int dirfd, const std::string& prefix, int depth)
    {
        std::vector<std::string> names;
        {
            DIR* dir = ::fdopendir(::fcntl(dirfd, F_DUPFD_CLOEXEC, 0));
            if (!dir)
                return fail(fmt::format("{}: {}", prefix.empty() ? "." : prefix, errnoText(errno)));
            errno = 0;
            while (const dirent* entry = ::readdir(dir)) {
                const std::string_view name = entry->d_name;
                if (name != "." && name != "..")
                    names.emplace_back(name);
            }
            const int error = errno;
            ::closedir(dir);
            if (error != 0)
                return fail(fmt::format("{}: cannot list: {}", prefix.empty() ? "." : prefix, errnoText(error)));
        }
        std::sort(names.begin(), names.end());

        Tree tree;
        DirSummary summary;
        for (const auto& name : names) {
            const std::string path = joinPath(prefix, name);
            struct stat st {};
            if (::fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
                if (errno != ENOENT) // gone since it was listed: not there, nothing to say
                    skip(path, fmt::format("cannot read its status: {}", errnoText(errno)));
                continue;
            }
            if (isIgnored(st)) {
                skip(path, "the Sandbench store's own file");
                continue;
            }
            if (S_ISDIR(st.st_mode)) {
                auto entry = directory(dirfd, name, path, st, depth);
                if (!entry)
                    return std::unexpected(entry.error());
                if (entry->has_value()) {
                    summary.files += (*entry)->files;
                    summary.bytes += (*entry)->size;
                    tree.entries.push_back(std::move(**entry));
                }
            } else if (S_ISREG(st.st_mode)) {
                if (m_options.filter && !m_options.filter->takes(path))
                    continue;
                auto entry = file(dirfd, name, path, st);
                if (!entry)
                    return std::unexpected(entry.error());
                if (entry->has_value()) {
                    summary.files += 1;
                    summary.bytes += (*entry)->size;
                    tree.entries.push_back(std::move(**entry));
                }
            } else if (S_ISLNK(st.st_mode)) {
                if (m_options.filter && !m_options.filter->takes(path))
                    continue;
                if (auto entry = symlink(dirfd, name, path)) {
                    summary.files += 1;
                    summary.bytes += entry->size;
                    tree.entries.push_back(std::move(*entry));
                }
            } else {
                skip(path, fmt::format("{}; special files are not kept in checkpoints", specialKind(st.st_mode)));
            }
        }

        std::string bytes = serializeTree(tree);
        auto digest = sha256(bytes);
        if (!digest)
            return std::unexpected(digest.error());
        summary.hash = *digest;
        summary.entries = tree.entries.size();
        m_out.trees.try_emplace(*digest, std::move(bytes));
        return summary;
    }

private:
    bool isIgnored(const struct stat& st) const
    {
        for (const auto& [device, inode] : m_options.ignore) {
            if (device == static_cast<std::uint64_t>(st.st_dev) && inode == static_cast<std::uint64_t>(st.st_ino))
                return true;
        }
        return false;
    }

    void skip(const std::string& path, std::string reason) { m_out.skipped.push_back(Skipped{path, std::move(reason)}); }

    bool progress(const std::string& path)
    {
        if (!m_options.progress)
            return true;
        return m_options.progress(ScanProgress{m_out.files, m_out.bytesRead, path});
    }

    Result<std::optional<TreeEntry>> directory(int dirfd, const std::string& name, const std::string& path,
                                               const struct stat& st, int depth)
    {
        if (st.st_dev != m_device) {
            skip(path, "another file system is mounted here; it is not walked into");
            return std::optional<TreeEntry>{};
        }
        if (m_options.filter && m_options.filter->skipsDirectory(path))
            return std::optional<TreeEntry>{};
        if (depth >= kMaxDepth) {
            skip(path, fmt::format("deeper than {} levels; not walked into", kMaxDepth));
            return std::optional<TreeEntry>{};
        }
        auto child = openDirectoryAt(dirfd, name);
        if (!child) {
            skip(path, fmt::format("cannot open the directory: {}", child.error().message));
            return std::optional<TreeEntry>{};
        }
        auto summary = walk(child->get(), path, depth + 1);
        if (!summary)
            return std::unexpected(summary.error());
        // With a filter, a directory left empty by it is dropped unless the filter takes the directory itself.
        if (summary->entries == 0 && m_options.filter && !m_options.filter->empty() && !m_options.filter->takes(path))
            return std::optional<TreeEntry>{};
        TreeEntry entry;
        entry.name = name;
        entry.type = EntryType::Directory;
        entry.mode = static_cast<std::uint32_t>(st.st_mode & 0777);
        entry.hash = summary->hash;
        entry.size = summary->bytes;
        entry.files = summary->files;
        return std::optional<TreeEntry>(std::move(entry));
    }

    Result<std::optional<TreeEntry>> file(int dirfd, const std::string& name, const std::string& path,
                                          const struct stat& st)
    {
        if (!progress(path))
            return fail(std::string(kCancelled));
        if (static_cast<std::uint64_t>(st.st_size) > m_options.maxFileSize) {
            skip(path, fmt::format("{} MiB, larger than the limit of {} MiB", st.st_size >> 20,
                                   m_options.maxFileSize >> 20));
            return std::optional<TreeEntry>{};
        }
        const FileStat stat = statOf(st);
        const bool trusted = std::max(stat.mtimeNs, stat.ctimeNs) + kRacyMarginNs < m_startNs;

        TreeEntry entry;
        entry.name = name;
        entry.type = EntryType::File;
        entry.mode = static_cast<std::uint32_t>(st.st_mode & 0777);
        entry.size = stat.size;

        StatRow row;
        row.stat = stat;
        if (m_options.cache) {
            if (auto hit = m_options.cache->find(path); hit != m_options.cache->end() && hit->second.stat == stat) {
                row = hit->second;
                entry.storage = row.storage;
                if (row.storage == Storage::Inline) {
                    entry.data = row.content;
                } else if (row.content.size() == entry.hash.size()) {
                    std::copy(row.content.begin(), row.content.end(), entry.hash.begin());
                } else {
                    return fail(fmt::format("the stat cache row of '{}' is damaged", path));
                }
                ++m_out.files;
                m_out.seen[path] = ScanResult::Seen{std::move(row), trusted};
                return std::optional<TreeEntry>(std::move(entry));
            }
        }

        const int fd = ::openat(dirfd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
        if (fd < 0) {
            if (errno == ENOENT)
                return std::optional<TreeEntry>{};
            skip(path, fmt::format("cannot read it: {}", errnoText(errno)));
            return std::optional<TreeEntry>{};
        }
        Fd guard(fd);
        struct stat opened {};
        if (::fstat(fd, &opened) != 0 || !S_ISREG(opened.st_mode) || opened.st_ino != st.st_ino) {
            skip(path, "it was replaced while being read");
            return std::optional<TreeEntry>{};
        }
        const std::uint64_t before = m_out.bytesRead;
        auto stored = storeFile(fd, m_options.store, [&](std::uint64_t bytes) {
            m_out.bytesRead = before + bytes;
            return progress(path);
        });
        if (!stored) {
            if (stored.error().message == kCancelled)
                return std::unexpected(stored.error());
            skip(path, fmt::format("cannot read it: {}", stored.error().message));
            return std::optional<TreeEntry>{};
        }
        ++m_out.filesRead;
        m_out.newBlobs += stored->newBlobs;
        m_out.newBytes += stored->newBytes;
        entry.size = stored->size; // what was read, should it have changed since the stat
        entry.storage = stored->storage;
        entry.hash = stored->hash;
        entry.data = std::move(stored->inlineBytes);
        // The stat cache vouches for this content only if the file is still as it was stat'ed before reading.
        const bool unchanged = stored->size == stat.size;
        row.storage = entry.storage;
        row.content = entry.storage == Storage::Inline
                          ? entry.data
                          : std::string(reinterpret_cast<const char*>(entry.hash.data()), entry.hash.size());
        ++m_out.files;
        m_out.seen[path] = ScanResult::Seen{std::move(row), trusted && unchanged};
        return std::optional<TreeEntry>(std::move(entry));
    }

    std::optional<TreeEntry> symlink(int dirfd, const std::string& name, const std::string& path)
    {
        std::string target(4096, '\0');
        const ssize_t length = ::readlinkat(dirfd, name.c_str(), target.data(), target.size());
        if (length <= 0 || static_cast<std::size_t>(length) >= target.size()) {
            skip(path, length < 0 ? fmt::format("cannot read the link: {}", errnoText(errno))
                                  : std::string("the link's target is empty or too long"));
            return std::nullopt;
        }
        target.resize(static_cast<std::size_t>(length));
        ++m_out.files;
        TreeEntry entry;
        entry.name = name;
        entry.type = EntryType::Symlink;
        entry.mode = 0777;
        entry.size = target.size();
        entry.data = std::move(target);
        return entry;
    }

    const ScanOptions& m_options;
    ScanResult& m_out;
    dev_t m_device;
    std::int64_t m_startNs;
};

} // namespace

Result<ScanResult> scanFolder(const std::filesystem::path& root, const ScanOptions& options)
{
    const int fd = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return fail(fmt::format("{}: cannot open the folder: {}", root.string(), errnoText(errno)));
    Fd guard(fd);
    struct stat st {};
    if (::fstat(fd, &st) != 0)
        return fail(fmt::format("{}: {}", root.string(), errnoText(errno)));
    ScanResult result;
    Walker walker(options, result, st.st_dev);
    auto summary = walker.walk(fd, "", 0);
    if (!summary) {
        if (summary.error().message == kCancelled)
            return std::unexpected(summary.error());
        return fail(fmt::format("{}: {}", root.string(), summary.error().message));
    }
    result.root = summary->hash;
    result.files = summary->files;
    result.bytes = summary->bytes;
    return result;
}

} // namespace sb
