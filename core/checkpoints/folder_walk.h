#pragma once

// What the walk of a folder and its stat prefetch share: the depth limit and a stat as a FileStat.

#include "checkpoints/scan.h"

#include <cstdint>
#include <string>
#include <sys/stat.h>

namespace sb::scanning {

// Deeper trees are refused: each level holds a descriptor open, and no real workspace comes near this.
constexpr int kMaxDepth = 256;

inline std::int64_t nanoseconds(const timespec& ts)
{
    return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

inline FileStat statOf(const struct stat& st)
{
    return FileStat{static_cast<std::uint64_t>(st.st_ino), static_cast<std::uint64_t>(st.st_size),
                    nanoseconds(st.st_mtim), nanoseconds(st.st_ctim), static_cast<std::uint32_t>(st.st_mode)};
}

} // namespace sb::scanning
