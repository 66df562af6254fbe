#pragma once

// The three-way merge of checkpoint trees that promotion stands on: per path, the change one side made since
// the common ancestor is taken, and a path both sides changed differently is a conflict.

#include "util/error.h"
#include "checkpoints/tree.h"
#include "checkpoints/tree_reader.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sb {

// Why a path cannot be merged. The names (toString) are a contract: promote --json prints them.
enum class ConflictKind {
    BothModified,   // "both-modified": both sides changed the content (or permissions) differently
    ModifyDelete,   // "modify-delete": one side changed it, the other deleted it
    AddAdd,         // "add-add": both sides added it (no ancestor had it) with different content
    TypeChange,     // "type-change": both sides changed it and they disagree on file / directory / symlink
};
std::string_view toString(ConflictKind kind);

struct MergeConflict {
    std::string path;
    ConflictKind kind = ConflictKind::BothModified;
    std::optional<TreeEntry> ancestor; // what each side holds at the path (nullopt: nothing)
    std::optional<TreeEntry> target;
    std::optional<TreeEntry> source;
    std::string detail;                // for people: what each side did
};

// How a conflicting path is settled when the person promoting has chosen: the source's or the target's side
// (the side's entry, or its absence, wholesale).
enum class MergeSide { Source, Target };
using MergeResolutions = std::map<std::string, MergeSide, std::less<>>;

struct MergeResult {
    ContentHash tree{};                // the merged root listing (conflicting paths keep the target's entry)
    TreeReader::Listings listings;     // listings the merge made (not in the store yet)
    std::vector<MergeConflict> conflicts; // in path order
    // Conflicts settled by a resolution, with the side taken.
    std::vector<std::pair<MergeConflict, MergeSide>> resolved;
};

// Merges what `source` changed since `ancestor` into `target` (nullopt ancestor: the empty tree, so every
// path is an addition on each side that holds it). Changed only on the source: the source's; only on the
// target: the target's; on both alike: that. A directory changed on both sides is merged name by name, so a
// deleted directory against a change inside it conflicts at the changed paths. A file whose content changed
// on one side and permissions on the other takes both. A conflict at a path `resolutions` names takes that
// side instead (and is listed in `resolved`).
Result<MergeResult> mergeTrees(TreeReader& reader, const std::optional<ContentHash>& ancestor,
                               const ContentHash& target, const ContentHash& source,
                               const MergeResolutions& resolutions = {});

} // namespace sb
