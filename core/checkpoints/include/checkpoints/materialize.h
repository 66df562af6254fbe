#pragma once

#include "util/error.h"
#include "checkpoints/scan.h"
#include "checkpoints/tree_reader.h"

#include <cstdint>
#include <functional>
#include <string>

namespace sb {

// Where unchanged files can be hard-linked from instead of written: the live folder a restore replaces (its
// descriptor at the same relative place as the tree being written), the tree a walk found there and what each
// file looked like then. A file is linked only when its content and mode are the ones wanted and it still
// looks exactly as the walk saw it, so a file changed since is written from the store instead.
struct LinkSource {
    int folder = -1;                  // the live folder matching the tree's root
    ContentHash tree{};               // its tree, as walked
    std::string prefix;               // its path relative to the workspace, as `scan` knows it
    const ScanResult* scan = nullptr;
};

struct WriteStats {
    std::uint64_t filesWritten = 0;
    std::uint64_t filesLinked = 0;
    std::uint64_t bytesWritten = 0;
};

// Writes the tree `tree` into the empty folder `target`: directories, files (from the store, or linked from
// `link`), symlinks as they were recorded (never followed). Directory modes are applied after their content
// is in place. Calls `progress` with the files done; returning false cancels.
Result<WriteStats> writeTree(TreeReader& reader, const ContentHash& tree, int target, const LinkSource* link,
                             const std::function<bool(std::uint64_t files)>& progress = {});

} // namespace sb
