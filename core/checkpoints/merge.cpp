#include "checkpoints/merge.h"

#include <fmt/format.h>

#include <array>
#include <map>

namespace sb {

std::string_view toString(ConflictKind kind)
{
    switch (kind) {
    case ConflictKind::BothModified: return "both-modified";
    case ConflictKind::ModifyDelete: return "modify-delete";
    case ConflictKind::AddAdd: return "add-add";
    case ConflictKind::TypeChange: return "type-change";
    }
    return "?";
}

namespace {

using Entry = std::optional<TreeEntry>;

bool same(const Entry& a, const Entry& b)
{
    if (!a || !b)
        return !a && !b;
    return a->sameAs(*b);
}

bool isDirectory(const Entry& e)
{
    return e && e->type == EntryType::Directory;
}

std::string describe(const Entry& before, const Entry& after)
{
    if (!after)
        return "deleted";
    if (!before)
        return fmt::format("added a {}", toString(after->type));
    if (before->type != after->type)
        return fmt::format("made it a {}", toString(after->type));
    return "changed it";
}

class Merger {
public:
    Merger(TreeReader& reader, const MergeResolutions& resolutions) : m_reader(reader), m_resolutions(resolutions) {}

    // The merged directory (nullopt: it goes) of three directory listings, any of them absent.
    Result<std::optional<TreeEntry>> directory(const std::string& path, const Entry& base, const Entry& target,
                                               const Entry& source)
    {
        std::map<std::string, std::array<Entry, 3>> names;
        const Entry* sides[3] = {&base, &target, &source};
        for (int side = 0; side < 3; ++side) {
            const Entry& e = *sides[side];
            if (!isDirectory(e))
                continue;
            auto listing = m_reader.read(e->hash);
            if (!listing)
                return std::unexpected(listing.error());
            for (const auto& child : (*listing)->entries)
                names[child.name][static_cast<std::size_t>(side)] = child;
        }
        Tree merged;
        std::uint64_t files = 0;
        std::uint64_t bytes = 0;
        for (auto& [name, three] : names) {
            auto child = entry(treePath(path, name), three[0], three[1], three[2]);
            if (!child)
                return std::unexpected(child.error());
            if (!*child)
                continue;
            TreeEntry kept = std::move(**child);
            kept.name = name;
            files += kept.type == EntryType::Directory ? kept.files : 1;
            bytes += kept.size;
            merged.entries.push_back(std::move(kept));
        }
        // A directory one side deleted stays deleted when nothing is left in it.
        if (merged.entries.empty() && (!isDirectory(target) || !isDirectory(source)) && !path.empty())
            return std::optional<TreeEntry>{};
        std::string serialized = serializeTree(merged);
        auto digest = sha256(serialized);
        if (!digest)
            return std::unexpected(digest.error());
        m_listings.try_emplace(*digest, std::move(serialized));
        TreeEntry out;
        out.type = EntryType::Directory;
        out.hash = *digest;
        out.files = files;
        out.size = bytes;
        out.mode = mergedMode(base, target, source);
        return std::optional<TreeEntry>(std::move(out));
    }

    TreeReader::Listings takeListings() { return std::move(m_listings); }
    std::vector<MergeConflict> takeConflicts() { return std::move(m_conflicts); }
    std::vector<std::pair<MergeConflict, MergeSide>> takeResolved() { return std::move(m_resolved); }

private:
    static std::uint32_t mergedMode(const Entry& base, const Entry& target, const Entry& source)
    {
        const bool baseDir = isDirectory(base);
        if (!isDirectory(target))
            return source->mode;
        if (!isDirectory(source))
            return target->mode;
        if (baseDir && source->mode == base->mode)
            return target->mode;
        if (baseDir && target->mode == base->mode)
            return source->mode;
        return target->mode; // both changed a directory's permissions: the target's (content decides conflicts)
    }

    Result<Entry> entry(const std::string& path, const Entry& base, const Entry& target, const Entry& source)
    {
        if (same(source, base))
            return target;
        if (same(target, base) || same(target, source))
            return source;
        // Both sides changed it, differently.
        const bool targetDir = isDirectory(target);
        const bool sourceDir = isDirectory(source);
        if ((targetDir || !target) && (sourceDir || !source) && (targetDir || sourceDir)
            && (isDirectory(base) || (targetDir && sourceDir)))
            return directory(path, isDirectory(base) ? base : Entry{}, target, source);
        if (target && source && base && target->type == EntryType::File && source->type == EntryType::File
            && base->type == EntryType::File) {
            // Content and permissions merge apart: one side's new bytes, the other's new mode.
            const bool contentTarget = !target->sameContent(*base);
            const bool contentSource = !source->sameContent(*base);
            const bool modeTarget = target->mode != base->mode;
            const bool modeSource = source->mode != base->mode;
            const bool contentClash = contentTarget && contentSource && !target->sameContent(*source);
            const bool modeClash = modeTarget && modeSource && target->mode != source->mode;
            if (!contentClash && !modeClash) {
                TreeEntry merged = contentSource ? *source : *target;
                merged.mode = modeSource ? source->mode : target->mode;
                return Entry(std::move(merged));
            }
        }
        MergeConflict conflict;
        conflict.path = path;
        conflict.ancestor = base;
        conflict.target = target;
        conflict.source = source;
        if (!target || !source)
            conflict.kind = ConflictKind::ModifyDelete;
        else if (target->type != source->type)
            conflict.kind = ConflictKind::TypeChange;
        else if (!base)
            conflict.kind = ConflictKind::AddAdd;
        else
            conflict.kind = ConflictKind::BothModified;
        conflict.detail = fmt::format("the target {}, the source {}", describe(base, target), describe(base, source));
        if (auto chosen = m_resolutions.find(path); chosen != m_resolutions.end()) {
            m_resolved.emplace_back(std::move(conflict), chosen->second);
            return chosen->second == MergeSide::Source ? source : target;
        }
        m_conflicts.push_back(std::move(conflict));
        return target; // the target's stays, so the merged tree is whole; the conflict blocks applying it
    }

    TreeReader& m_reader;
    const MergeResolutions& m_resolutions;
    TreeReader::Listings m_listings;
    std::vector<MergeConflict> m_conflicts;
    std::vector<std::pair<MergeConflict, MergeSide>> m_resolved;
};

} // namespace

Result<MergeResult> mergeTrees(TreeReader& reader, const std::optional<ContentHash>& ancestor,
                               const ContentHash& target, const ContentHash& source,
                               const MergeResolutions& resolutions)
{
    auto root = [](const ContentHash& hash) {
        TreeEntry e;
        e.type = EntryType::Directory;
        e.mode = 0700;
        e.hash = hash;
        return Entry(std::move(e));
    };
    MergeResult result;
    const Entry base = root(ancestor ? *ancestor : emptyTreeHash());
    if (source == base->hash || source == target) {
        result.tree = target;
        return result;
    }
    if (target == base->hash) {
        result.tree = source;
        return result;
    }
    Merger merger(reader, resolutions);
    auto merged = merger.directory("", base, root(target), root(source));
    if (!merged)
        return std::unexpected(merged.error());
    result.tree = (*merged)->hash;
    result.listings = merger.takeListings();
    result.conflicts = merger.takeConflicts();
    result.resolved = merger.takeResolved();
    return result;
}

} // namespace sb
