#pragma once

// Timestamps and durations as CEL has them: timestamps from 0001-01-01 to 9999-12-31 (UTC) with nanoseconds,
// written as RFC 3339; durations as signed 64-bit nanoseconds (about ±292 years), written like "1.5s" and
// read in Go's duration syntax ("1h30m", "-999999999ns"). Time zones for the accessors are fixed offsets
// ("+05:30", "-02:00") or IANA names read from the system's zoneinfo files ("Australia/Sydney").

#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>

namespace sb::cel {

inline constexpr std::int64_t kMinTimestampSeconds = -62135596800; // 0001-01-01T00:00:00Z
inline constexpr std::int64_t kMaxTimestampSeconds = 253402300799; // 9999-12-31T23:59:59Z

struct Timestamp {
    std::int64_t seconds = 0;
    std::int32_t nanos = 0;
};

struct CivilTime {
    std::int64_t year = 1970;
    int month = 1; // 1..12
    int day = 1;   // 1..31
    int hour = 0;
    int minute = 0;
    int second = 0;
    int dayOfWeek = 4; // 0 = Sunday
    int dayOfYear = 0; // 0-based
};

std::int64_t daysFromCivil(std::int64_t year, int month, int day);
CivilTime civilFromSeconds(std::int64_t seconds);

// RFC 3339 ("2009-02-13T23:31:30Z", "2009-02-13T23:31:30.5+01:00"); empty when malformed or out of range.
std::optional<Timestamp> parseTimestamp(std::string_view text);
// "2009-02-13T23:31:30Z", with as many fraction digits as needed (none, up to 9).
std::string formatTimestamp(std::int64_t seconds, std::int32_t nanos);

enum class DurationError { None, Syntax, Range };
// Go's syntax: an optional sign, then one or more decimal numbers with units (ns, us, µs, ms, s, m, h).
std::optional<std::int64_t> parseDuration(std::string_view text, DurationError* error = nullptr);
// Seconds with the fraction that is needed: "0s", "1.5s", "-0.000000001s", "3600s".
std::string formatDuration(std::int64_t nanos);

// Why a time zone has no offset: a name that is no zone (a typo), no time zone database on the machine at
// all ($TZDIR, else /usr/share/zoneinfo, missing or empty), or a zone the database lists without its file.
enum class ZoneProblem { UnknownName, NoDatabase, MissingFile };

// The UTC offset in seconds of `zone` at `utcSeconds`: "UTC", "+05:30", "-02:00", "02:00" or an IANA name
// (read from $TZDIR, else /usr/share/zoneinfo).
std::expected<std::int64_t, ZoneProblem> utcOffset(std::string_view zone, std::int64_t utcSeconds);
// The error an unknown zone gives, saying what is missing: "unknown time zone 'X'", and for a missing
// database or zone file, where it was looked for and the Debian package that provides it (tzdata).
std::string unknownZoneMessage(std::string_view zone, ZoneProblem problem);

} // namespace sb::cel
