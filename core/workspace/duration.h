#pragma once

#include "util/error.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace sb {

// A span of time as people write it on a command line: a number and a unit, or several in falling order:
// "90s", "30m", "2h", "7d", "2w", "1h30m". Units: s, m, h, d, w. Returns milliseconds; refuses zero, signs,
// fractions, spaces, unknown or repeated units, a number without a unit and anything above 100 years, each
// with a message saying what is wrong and what is accepted.
Result<std::int64_t> parseDuration(std::string_view text);

// The inverse, rounded to the largest units: "2h", "1d3h", "45s".
std::string formatDuration(std::int64_t ms);

} // namespace sb
