#pragma once

#include "util/error.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace sb {

// Times as people write them on a command line, and back. Every time is Unix epoch milliseconds.

// Milliseconds now, from the system clock.
std::int64_t nowEpochMs();

// A duration: one or more <whole number><unit> with units ms, s, m, h, d, w ("90s", "2h", "1h30m", "7d").
// A bare number is refused (seconds or minutes?), as are negative, empty and overflowing values.
// Units fall and each comes at most once ("1h30m", not "30m1h").
Result<std::int64_t> parseDurationMs(std::string_view text);

// A duration something lives or is kept for (an expiry, a retention): as above, longer than zero and at most
// a century.
Result<std::int64_t> parseLifetimeMs(std::string_view text);

// A duration rounded to its two largest adjacent units, for listings: "2h", "1d3h", "45s".
std::string formatDurationShort(std::int64_t ms);
// A duration exactly, as parseDurationMs reads it back: every unit that is not zero ("7d", "1d12h", "1m30s",
// "1s250ms"); "0s" for zero or less.
std::string formatDurationExact(std::int64_t ms);

// A point in time: ISO 8601 ("2024-05-01", "2024-05-01T12:30", "2024-05-01 12:30:15.250", optionally with
// "Z" or an offset such as "+02:00"; without one it is local time), "now", or a duration meaning that long
// before `nowMs` ("2h": two hours ago).
Result<std::int64_t> parseTimePointMs(std::string_view text, std::int64_t nowMs);

// ISO 8601 in UTC with milliseconds: "2024-05-01T10:30:15.250Z".
std::string formatIsoUtc(std::int64_t epochMs);

} // namespace sb
