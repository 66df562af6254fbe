#include "chunker.h"

#include <array>

namespace sb {

namespace {

// 256 fixed pseudo-random 64-bit values (splitmix64 from a fixed seed), computed at compile time.
constexpr std::array<std::uint64_t, 256> makeGear()
{
    std::array<std::uint64_t, 256> gear{};
    std::uint64_t state = 0x5342'4e43'4350'4b31ULL; // "SBNCCPK1"
    for (auto& value : gear) {
        state += 0x9E3779B97F4A7C15ULL;
        std::uint64_t z = state;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        value = z ^ (z >> 31);
    }
    return gear;
}

constexpr std::array<std::uint64_t, 256> kGear = makeGear();

// The gear hash shifts left once per byte, so its high bits depend on the most bytes: the masks test those.
// 2^16 = the average size; normalisation level 2 (18 bits before the average, 14 after).
constexpr std::uint64_t kMaskStrict = ~0ULL << (64 - 18);
constexpr std::uint64_t kMaskLoose = ~0ULL << (64 - 14);

} // namespace

std::size_t nextChunkLength(std::span<const std::uint8_t> data)
{
    std::size_t n = data.size();
    if (n <= ChunkSizes::kMin)
        return n;
    if (n > ChunkSizes::kMax)
        n = ChunkSizes::kMax;
    const std::size_t normal = n < ChunkSizes::kAverage ? n : ChunkSizes::kAverage;
    std::uint64_t hash = 0;
    std::size_t i = ChunkSizes::kMin;
    // The first kMin bytes cannot end a chunk; the hash starts fresh here, which is what makes a cut depend
    // only on nearby bytes.
    for (; i < normal; ++i) {
        hash = (hash << 1) + kGear[data[i]];
        if ((hash & kMaskStrict) == 0)
            return i + 1;
    }
    for (; i < n; ++i) {
        hash = (hash << 1) + kGear[data[i]];
        if ((hash & kMaskLoose) == 0)
            return i + 1;
    }
    return n;
}

} // namespace sb
