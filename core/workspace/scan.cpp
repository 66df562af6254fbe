#include "workspace/scan.h"

#include "workspace/files.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
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

void putVarint(std::string& out, std::uint64_t value)
{
    while (value >= 0x80) {
        out.push_back(static_cast<char>((value & 0x7F) | 0x80));
        value >>= 7;
    }
    out.push_back(static_cast<char>(value));
}

void putSigned(std::string& out, std::int64_t value)
{
    putVarint(out, (static_cast<std::uint64_t>(value) << 1) ^ static_cast<std::uint64_t>(value >> 63));
}

void putStat(std::string& out, const FileStat& stat)
{
    putVarint(out, stat.inode);
    putVarint(out, stat.size);
    putSigned(out, stat.mtimeNs);
    putSigned(out, stat.ctimeNs);
    putVarint(out, stat.mode);
}

class Unpacker {
public:
    explicit Unpacker(std::string_view bytes) : m_bytes(bytes) {}
    bool varint(std::uint64_t& value)
    {
        value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (m_pos >= m_bytes.size())
                return false;
            const auto byte = static_cast<std::uint8_t>(m_bytes[m_pos++]);
            value |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
            if ((byte & 0x80) == 0)
                return true;
        }
        return false;
    }
    bool signedVarint(std::int64_t& value)
    {
        std::uint64_t raw = 0;
        if (!varint(raw))
            return false;
        value = static_cast<std::int64_t>(raw >> 1) ^ -static_cast<std::int64_t>(raw & 1);
        return true;
    }
    bool byte(std::uint8_t& value)
    {
        if (m_pos >= m_bytes.size())
            return false;
        value = static_cast<std::uint8_t>(m_bytes[m_pos++]);
        return true;
    }
    bool bytes(std::string& out)
    {
        std::uint64_t length = 0;
        if (!varint(length) || length > m_bytes.size() - m_pos)
            return false;
        out.assign(m_bytes.substr(m_pos, static_cast<std::size_t>(length)));
        m_pos += static_cast<std::size_t>(length);
        return true;
    }
    bool stat(FileStat& out)
    {
        std::uint64_t mode = 0;
        if (!varint(out.inode) || !varint(out.size) || !signedVarint(out.mtimeNs) || !signedVarint(out.ctimeNs)
            || !varint(mode))
            return false;
        out.mode = static_cast<std::uint32_t>(mode);
        return true;
    }
    bool done() const { return m_pos == m_bytes.size(); }

private:
    std::string_view m_bytes;
    std::size_t m_pos = 0;
};

constexpr std::string_view kStatMagic = "SBS1";

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

    bool trustedAt(const FileStat& stat) const { return std::max(stat.mtimeNs, stat.ctimeNs) + kRacyMarginNs < m_startNs; }

    Result<DirSummary> walk(int dirfd, const std::string& prefix, const FileStat& self, int depth)
    {
        // What the last walk saw here, if anything.
        std::optional<DirectoryStat> cached;
        if (m_options.cache) {
            if (auto it = m_options.cache->find(prefix); it != m_options.cache->end()) {
                if (auto unpacked = unpackDirectoryStat(it->second))
                    cached = std::move(*unpacked);
            }
        }
        DirectoryStat seen;
        seen.self = self;
        seen.trusted = trustedAt(self);

        // The names: from the cache while the directory itself is unchanged (adding, removing or renaming a
        // name changes its mtime and ctime), else listed.
        std::vector<std::string> names;
        if (cached && cached->trusted && cached->self == self && !m_options.filter) {
            names.reserve(cached->entries.size());
            for (const auto& entry : cached->entries)
                names.push_back(entry.name);
        } else {
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
            std::sort(names.begin(), names.end());
            ++m_out.directoriesListed;
        }

        Tree tree;
        DirSummary summary;
        seen.entries.reserve(names.size());
        std::size_t next = 0; // merge position in the cached entries (both sorted)
        for (const auto& name : names) {
            const StatEntry* before = nullptr;
            if (cached) {
                while (next < cached->entries.size() && cached->entries[next].name < name)
                    ++next;
                if (next < cached->entries.size() && cached->entries[next].name == name)
                    before = &cached->entries[next];
            }
            const std::string path = joinPath(prefix, name);
            struct stat st {};
            if (::fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
                if (errno != ENOENT) // gone since it was listed: not there, nothing to say
                    skip(path, fmt::format("cannot read its status: {}", errnoText(errno)));
                continue;
            }
            StatEntry entry;
            entry.name = name;
            entry.kind = S_ISREG(st.st_mode)   ? StatEntry::Kind::File
                         : S_ISDIR(st.st_mode) ? StatEntry::Kind::Directory
                         : S_ISLNK(st.st_mode) ? StatEntry::Kind::Symlink
                                               : StatEntry::Kind::Other;
            if (isIgnored(st)) {
                skip(path, "the Sandbench store's own file");
                entry.kind = StatEntry::Kind::Other;
            } else if (S_ISDIR(st.st_mode)) {
                auto child = directory(dirfd, name, path, st, depth);
                if (!child)
                    return std::unexpected(child.error());
                if (child->has_value()) {
                    summary.files += (*child)->files;
                    summary.bytes += (*child)->size;
                    tree.entries.push_back(std::move(**child));
                }
            } else if (S_ISREG(st.st_mode)) {
                if (!m_options.filter || m_options.filter->takes(path)) {
                    auto taken = file(dirfd, name, path, st, before, entry);
                    if (!taken)
                        return std::unexpected(taken.error());
                    if (taken->has_value()) {
                        summary.files += 1;
                        summary.bytes += (*taken)->size;
                        tree.entries.push_back(std::move(**taken));
                    }
                }
            } else if (S_ISLNK(st.st_mode)) {
                if (!m_options.filter || m_options.filter->takes(path)) {
                    if (auto link = symlink(dirfd, name, path)) {
                        summary.files += 1;
                        summary.bytes += link->size;
                        tree.entries.push_back(std::move(*link));
                    }
                }
            } else {
                skip(path, fmt::format("{}; special files are not kept in checkpoints", specialKind(st.st_mode)));
            }
            seen.entries.push_back(std::move(entry));
        }

        std::string bytes = serializeTree(tree);
        auto digest = sha256(bytes);
        if (!digest)
            return std::unexpected(digest.error());
        summary.hash = *digest;
        summary.entries = tree.entries.size();
        m_out.trees.try_emplace(*digest, std::move(bytes));
        m_out.directories.insert_or_assign(prefix, std::move(seen));
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
        // The directory as opened: a swap between the stat and the open would show here.
        struct stat opened {};
        if (::fstat(child->get(), &opened) != 0 || opened.st_ino != st.st_ino) {
            skip(path, "it was replaced while being read");
            return std::optional<TreeEntry>{};
        }
        auto summary = walk(child->get(), path, statOf(opened), depth + 1);
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

    // Takes a file: from the stat cache when it vouches for it (`before`), else read. `seen` receives what
    // the next walk may trust.
    Result<std::optional<TreeEntry>> file(int dirfd, const std::string& name, const std::string& path,
                                          const struct stat& st, const StatEntry* before, StatEntry& seen)
    {
        if (!progress(path))
            return fail(std::string(kCancelled));
        if (static_cast<std::uint64_t>(st.st_size) > m_options.maxFileSize) {
            skip(path, fmt::format("{} MiB, larger than the limit of {} MiB", st.st_size >> 20,
                                   m_options.maxFileSize >> 20));
            return std::optional<TreeEntry>{};
        }
        const FileStat stat = statOf(st);
        seen.stat = stat;
        TreeEntry entry;
        entry.name = name;
        entry.type = EntryType::File;
        entry.mode = static_cast<std::uint32_t>(st.st_mode & 0777);
        entry.size = stat.size;

        if (before && before->kind == StatEntry::Kind::File && before->trusted && before->stat == stat) {
            entry.storage = before->storage;
            if (before->storage == Storage::Inline)
                entry.data = before->content;
            else
                std::copy(before->content.begin(), before->content.end(), entry.hash.begin());
            seen.trusted = trustedAt(stat);
            seen.storage = before->storage;
            seen.content = before->content;
            ++m_out.files;
            return std::optional<TreeEntry>(std::move(entry));
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
        const std::uint64_t bytesBefore = m_out.bytesRead;
        auto stored = storeFile(fd, m_options.store, [&](std::uint64_t bytes) {
            m_out.bytesRead = bytesBefore + bytes;
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
        // The stat vouches for this content next time only if the file was still as stat'ed when read.
        seen.trusted = trustedAt(stat) && stored->size == stat.size;
        seen.storage = entry.storage;
        seen.content = entry.storage == Storage::Inline
                           ? entry.data
                           : std::string(reinterpret_cast<const char*>(entry.hash.data()), entry.hash.size());
        ++m_out.files;
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
        ++m_out.files;
        TreeEntry entry;
        entry.name = name;
        entry.type = EntryType::Symlink;
        entry.mode = 0777;
        entry.size = static_cast<std::uint64_t>(length);
        entry.data.assign(target, static_cast<std::size_t>(length));
        return entry;
    }

    const ScanOptions& m_options;
    ScanResult& m_out;
    dev_t m_device;
    std::int64_t m_startNs;
};

} // namespace

std::string packDirectoryStat(const DirectoryStat& directory)
{
    std::string out(kStatMagic);
    putStat(out, directory.self);
    out.push_back(directory.trusted ? 1 : 0);
    putVarint(out, directory.entries.size());
    for (const auto& entry : directory.entries) {
        putVarint(out, entry.name.size());
        out += entry.name;
        out.push_back(static_cast<char>(entry.kind));
        if (entry.kind != StatEntry::Kind::File)
            continue;
        putStat(out, entry.stat);
        out.push_back(entry.trusted ? 1 : 0);
        out.push_back(static_cast<char>(entry.storage));
        putVarint(out, entry.content.size());
        out += entry.content;
    }
    return out;
}

Result<DirectoryStat> unpackDirectoryStat(std::string_view bytes)
{
    auto damaged = [] { return fail("a stat cache row is damaged"); };
    if (!bytes.starts_with(kStatMagic))
        return damaged();
    Unpacker in(bytes.substr(kStatMagic.size()));
    DirectoryStat directory;
    std::uint8_t flag = 0;
    std::uint64_t count = 0;
    if (!in.stat(directory.self) || !in.byte(flag) || !in.varint(count) || count > bytes.size())
        return damaged();
    directory.trusted = flag != 0;
    directory.entries.reserve(static_cast<std::size_t>(count));
    for (std::uint64_t i = 0; i < count; ++i) {
        StatEntry entry;
        std::uint8_t kind = 0;
        if (!in.bytes(entry.name) || !in.byte(kind) || kind < 1 || kind > 4 || !isValidName(entry.name))
            return damaged();
        if (!directory.entries.empty() && !(directory.entries.back().name < entry.name))
            return damaged();
        entry.kind = static_cast<StatEntry::Kind>(kind);
        if (entry.kind == StatEntry::Kind::File) {
            std::uint8_t storage = 0;
            if (!in.stat(entry.stat) || !in.byte(flag) || !in.byte(storage) || storage > 2 || !in.bytes(entry.content))
                return damaged();
            entry.trusted = flag != 0;
            entry.storage = static_cast<Storage>(storage);
            if (entry.trusted && entry.storage != Storage::Inline && entry.content.size() != sizeof(ContentHash))
                return damaged();
        }
        directory.entries.push_back(std::move(entry));
    }
    if (!in.done())
        return damaged();
    return directory;
}

const StatEntry* DirectoryStat::find(std::string_view name) const
{
    auto it = std::lower_bound(entries.begin(), entries.end(), name,
                               [](const StatEntry& e, std::string_view n) { return std::string_view(e.name) < n; });
    return it != entries.end() && it->name == name ? &*it : nullptr;
}

const StatEntry* ScanResult::find(std::string_view path) const
{
    const auto slash = path.rfind('/');
    const std::string folder(slash == std::string_view::npos ? std::string_view() : path.substr(0, slash));
    auto it = directories.find(folder);
    if (it == directories.end())
        return nullptr;
    return it->second.find(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

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
    auto summary = walker.walk(fd, "", statOf(st), 0);
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
