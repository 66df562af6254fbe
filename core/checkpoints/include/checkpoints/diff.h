#pragma once

#include "util/error.h"
#include "checkpoints/tree.h"
#include "checkpoints/tree_reader.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sb {

enum class ChangeKind { Added, Removed, Modified };
std::string_view toString(ChangeKind kind);

// One path that differs between two trees. Paths are of files, symlinks and empty directories (a directory
// with content shows as the paths below it); a directory whose permissions alone changed is Modified itself.
// A path that changed type (file to directory) is Removed and its new paths Added.
struct TreeChange {
    std::string path;
    ChangeKind kind = ChangeKind::Modified;
    std::optional<TreeEntry> before; // Removed, Modified
    std::optional<TreeEntry> after;  // Added, Modified
};

// The changes from tree `from` to tree `to`, in path order. Subtrees with equal hashes are not read.
Result<std::vector<TreeChange>> diffTrees(TreeReader& reader, const ContentHash& from, const ContentHash& to);

// Text or not, as git decides: a NUL byte in the first 8000 bytes means binary.
bool looksBinary(std::string_view bytes);

// A unified diff (as `diff -u`, with `context` lines around each change) of two texts, headed
// "--- fromName" / "+++ toName"; empty when they are equal. A last line without a newline is marked
// "\ No newline at end of file". Above a few thousand differing lines it gives one hunk replacing all of
// the differing middle rather than searching for the shortest script.
std::string unifiedDiff(std::string_view from, std::string_view to, std::string_view fromName,
                        std::string_view toName, int context = 3);

} // namespace sb
