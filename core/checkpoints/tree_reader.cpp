#include "checkpoints/tree_reader.h"

#include <algorithm>

namespace sb {

Result<const Tree*> TreeReader::read(const ContentHash& hash)
{
    if (auto it = m_parsed.find(hash); it != m_parsed.end())
        return &it->second;
    std::optional<Result<Tree>> parsed;
    for (const Listings* listings : m_unstored) {
        if (auto it = listings->find(hash); it != listings->end()) {
            parsed = parseTree(it->second);
            break;
        }
    }
    if (!parsed) {
        auto bytes = m_blobs.get(hash);
        if (!bytes)
            return std::unexpected(bytes.error());
        parsed = parseTree(*bytes);
    }
    if (!*parsed)
        return std::unexpected(parsed->error());
    return &m_parsed.emplace(hash, std::move(**parsed)).first->second;
}

Result<std::optional<TreeEntry>> TreeReader::find(const ContentHash& root, std::string_view path)
{
    TreeEntry current;
    current.type = EntryType::Directory;
    current.hash = root;
    std::size_t start = 0;
    while (start < path.size()) {
        std::size_t slash = path.find('/', start);
        if (slash == std::string_view::npos)
            slash = path.size();
        const std::string_view name = path.substr(start, slash - start);
        start = slash + 1;
        if (name.empty())
            continue;
        if (current.type != EntryType::Directory)
            return std::optional<TreeEntry>{};
        auto tree = read(current.hash);
        if (!tree)
            return std::unexpected(tree.error());
        const auto& entries = (*tree)->entries;
        auto it = std::lower_bound(entries.begin(), entries.end(), name,
                                   [](const TreeEntry& e, std::string_view n) { return std::string_view(e.name) < n; });
        if (it == entries.end() || it->name != name)
            return std::optional<TreeEntry>{};
        current = *it;
    }
    return std::optional<TreeEntry>(std::move(current));
}

Result<void> TreeReader::walk(const ContentHash& root, const Visitor& visit, const std::string& prefix)
{
    auto tree = read(root);
    if (!tree)
        return std::unexpected(tree.error());
    // Stable while walking: parsed listings are only ever added to m_parsed (a node map), never changed.
    const std::vector<TreeEntry>& entries = (*tree)->entries;
    for (const auto& entry : entries) {
        const std::string path = prefix.empty() ? entry.name : prefix + "/" + entry.name;
        auto descend = visit(path, entry);
        if (!descend)
            return std::unexpected(descend.error());
        if (entry.type == EntryType::Directory && *descend) {
            if (auto ok = walk(entry.hash, visit, path); !ok)
                return ok;
        }
    }
    return {};
}

} // namespace sb
