#include "checkpoints/materialize.h"

#include "checkpoints/files.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sb {

namespace {

std::int64_t nanoseconds(const timespec& ts)
{
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

class Writer {
public:
    Writer(TreeReader& reader, const std::function<bool(std::uint64_t)>& progress)
        : m_reader(reader), m_progress(progress)
    {
    }

    // `live`: the live folder at the same place (-1 when there is none) and its tree.
    Result<void> directory(const ContentHash& hash, int target, const std::string& path, int live,
                           const Tree* liveTree, const LinkSource* link)
    {
        auto tree = m_reader.read(hash);
        if (!tree)
            return std::unexpected(tree.error());
        for (const auto& entry : (*tree)->entries) {
            const std::string childPath = path.empty() ? entry.name : path + "/" + entry.name;
            const TreeEntry* liveEntry = nullptr;
            if (liveTree) {
                auto it = std::lower_bound(liveTree->entries.begin(), liveTree->entries.end(), entry.name,
                                           [](const TreeEntry& e, const std::string& n) { return e.name < n; });
                if (it != liveTree->entries.end() && it->name == entry.name)
                    liveEntry = &*it;
            }
            Result<void> ok;
            switch (entry.type) {
            case EntryType::Directory:
                ok = subdirectory(entry, target, childPath, live, liveEntry, link);
                break;
            case EntryType::File:
                ok = file(entry, target, childPath, live, liveEntry, link);
                break;
            case EntryType::Symlink:
                if (::symlinkat(entry.data.c_str(), target, entry.name.c_str()) != 0)
                    ok = fail(fmt::format("{}: cannot create the symlink: {}", childPath, errnoText(errno)));
                ++m_files;
                break;
            }
            if (!ok)
                return ok;
            if (m_progress && !m_progress(m_files))
                return fail(std::string(kCancelled));
        }
        return {};
    }

    WriteStats stats;

private:
    Result<void> subdirectory(const TreeEntry& entry, int target, const std::string& path, int live,
                              const TreeEntry* liveEntry, const LinkSource* link)
    {
        if (::mkdirat(target, entry.name.c_str(), 0700) != 0)
            return fail(fmt::format("{}: cannot create the directory: {}", path, errnoText(errno)));
        auto child = openDirectoryAt(target, entry.name);
        if (!child)
            return fail(fmt::format("{}: {}", path, child.error().message));
        Fd liveChild;
        const Tree* liveChildTree = nullptr;
        if (live >= 0 && liveEntry && liveEntry->type == EntryType::Directory) {
            if (auto opened = openDirectoryAt(live, entry.name)) {
                auto tree = m_reader.read(liveEntry->hash);
                if (!tree)
                    return std::unexpected(tree.error());
                liveChild = std::move(*opened);
                liveChildTree = *tree;
            }
        }
        if (auto ok = directory(entry.hash, child->get(), path, liveChild.get(), liveChildTree, link); !ok)
            return ok;
        // Last, so that a read-only directory could still be filled.
        if (::fchmod(child->get(), entry.mode) != 0)
            return fail(fmt::format("{}: cannot set its mode: {}", path, errnoText(errno)));
        return {};
    }

    bool linked(const TreeEntry& entry, int target, const std::string& path, int live, const TreeEntry* liveEntry,
                const LinkSource* link)
    {
        if (live < 0 || !liveEntry || !link || !link->scan || !liveEntry->sameAs(entry))
            return false;
        const std::optional<StatEntry> seen = link->scan->find(link->prefix.empty() ? path : link->prefix + "/" + path);
        if (!seen || seen->kind != StatEntry::Kind::File || !seen->trusted)
            return false;
        struct stat st {};
        if (::fstatat(live, entry.name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
            return false;
        const FileStat now{static_cast<std::uint64_t>(st.st_ino), static_cast<std::uint64_t>(st.st_size),
                           nanoseconds(st.st_mtim), nanoseconds(st.st_ctim), static_cast<std::uint32_t>(st.st_mode)};
        if (!(now == seen->stat))
            return false;
        return ::linkat(live, entry.name.c_str(), target, entry.name.c_str(), 0) == 0;
    }

    Result<void> file(const TreeEntry& entry, int target, const std::string& path, int live,
                      const TreeEntry* liveEntry, const LinkSource* link)
    {
        ++m_files;
        if (linked(entry, target, path, live, liveEntry, link)) {
            ++stats.filesLinked;
            return {};
        }
        const int fd = ::openat(target, entry.name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0)
            return fail(fmt::format("{}: cannot create the file: {}", path, errnoText(errno)));
        Fd guard(fd);
        auto ok = readFile(m_reader.blobs(), entry, [&](std::string_view bytes) { return writeAll(fd, bytes); });
        if (!ok)
            return fail(fmt::format("{}: {}", path, ok.error().message));
        if (::fchmod(fd, entry.mode) != 0)
            return fail(fmt::format("{}: cannot set its mode: {}", path, errnoText(errno)));
        ++stats.filesWritten;
        stats.bytesWritten += entry.size;
        return {};
    }

    TreeReader& m_reader;
    const std::function<bool(std::uint64_t)>& m_progress;
    std::uint64_t m_files = 0;
};

} // namespace

Result<WriteStats> writeTree(TreeReader& reader, const ContentHash& tree, int target, const LinkSource* link,
                             const std::function<bool(std::uint64_t files)>& progress)
{
    Writer writer(reader, progress);
    const Tree* liveTree = nullptr;
    if (link && link->folder >= 0) {
        auto parsed = reader.read(link->tree);
        if (!parsed)
            return std::unexpected(parsed.error());
        liveTree = *parsed;
    }
    if (auto ok = writer.directory(tree, target, "", link ? link->folder : -1, liveTree, link); !ok)
        return std::unexpected(ok.error());
    return writer.stats;
}

} // namespace sb
