#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

namespace sb {

// Content-defined chunking (FastCDC: Xia et al., USENIX ATC 2016): a rolling "gear" hash over the bytes picks
// the cut points, so a cut depends only on the few dozen bytes before it. Inserting or changing bytes in the
// middle of a large file moves the cuts around that place only; every chunk before and after keeps its bytes
// and its hash, and is stored once. Normalised chunking (a stricter mask before the average size, a looser
// one after) keeps chunk sizes close to the average.
//
// The gear table and masks are part of the store format in practice: changing them does not break old
// checkpoints (chunks are found by the hash of their bytes), but new chunks would no longer match old ones.
struct ChunkSizes {
    static constexpr std::size_t kMin = 16 * 1024;
    static constexpr std::size_t kAverage = 64 * 1024;
    static constexpr std::size_t kMax = 256 * 1024;
};

// The length of the chunk that starts at data[0]: between kMin and kMax, or all of `data` when it is shorter
// than that. Call with at least kMax bytes unless `data` is the end of the file.
std::size_t nextChunkLength(std::span<const std::uint8_t> data);

} // namespace sb
