#pragma once

#include "util/error.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace sb {

// Sizes as people write them on a command line, and back.

// A size in bytes: a whole number, optionally followed by a unit K, M, G or T (powers of 1024; "KiB", "MB"
// and "k" are read the same) or B: "500M", "2G", "1536K", "4096". Zero, negative, fractional and overflowing
// sizes are refused with a message naming the text.
Result<std::uint64_t> parseSizeBytes(std::string_view text);

// A size for listings, in the largest binary unit that keeps it at least 1: "512 B", "1.5 KiB", "2.0 GiB".
std::string formatSize(std::uint64_t bytes);
// A size exactly, as parseSizeBytes reads it back: the largest unit that divides it ("2G", "1536K", "4097").
std::string formatSizeExact(std::uint64_t bytes);

} // namespace sb
