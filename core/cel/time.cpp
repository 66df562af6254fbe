#include "cel/time.h"

#include "int128.h"
#include "util/input_file.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <sstream>
#include <unordered_set>
#include <vector>

namespace sb::cel {

std::int64_t daysFromCivil(std::int64_t y, int m, int d)
{
    // Howard Hinnant's days_from_civil (proleptic Gregorian calendar).
    y -= m <= 2 ? 1 : 0;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const std::int64_t yoe = y - era * 400;
    const std::int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

CivilTime civilFromSeconds(std::int64_t seconds)
{
    std::int64_t days = seconds / 86400;
    std::int64_t rem = seconds % 86400;
    if (rem < 0) {
        rem += 86400;
        --days;
    }
    CivilTime c;
    c.hour = static_cast<int>(rem / 3600);
    c.minute = static_cast<int>(rem / 60 % 60);
    c.second = static_cast<int>(rem % 60);
    c.dayOfWeek = static_cast<int>(((days % 7) + 11) % 7); // 1970-01-01 was a Thursday (4)
    const std::int64_t z = days + 719468;
    const std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const std::int64_t doe = z - era * 146097;
    const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const std::int64_t mp = (5 * doy + 2) / 153;
    c.day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
    c.month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
    c.year = yoe + era * 400 + (c.month <= 2 ? 1 : 0);
    c.dayOfYear = static_cast<int>(days - daysFromCivil(c.year, 1, 1));
    return c;
}

namespace {

bool digits(std::string_view s, std::size_t at, std::size_t n, int& out)
{
    if (at + n > s.size())
        return false;
    int v = 0;
    for (std::size_t i = at; i < at + n; ++i) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (s[i] - '0');
    }
    out = v;
    return true;
}

bool isLeap(std::int64_t y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int daysInMonth(std::int64_t y, int m)
{
    static const int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && isLeap(y) ? 29 : kDays[m - 1];
}

} // namespace

std::optional<Timestamp> parseTimestamp(std::string_view s)
{
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    if (!digits(s, 0, 4, year) || s.size() < 20 || s[4] != '-' || !digits(s, 5, 2, month) || s[7] != '-'
        || !digits(s, 8, 2, day) || (s[10] != 'T' && s[10] != 't') || !digits(s, 11, 2, hour) || s[13] != ':'
        || !digits(s, 14, 2, minute) || s[16] != ':' || !digits(s, 17, 2, second))
        return std::nullopt;
    if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59
        || second > 59)
        return std::nullopt;
    std::size_t at = 19;
    std::int64_t nanos = 0;
    if (at < s.size() && s[at] == '.') {
        ++at;
        int n = 0;
        while (at < s.size() && s[at] >= '0' && s[at] <= '9') {
            if (n < 9) {
                nanos = nanos * 10 + (s[at] - '0');
                ++n;
            }
            ++at;
        }
        if (n == 0)
            return std::nullopt;
        for (; n < 9; ++n)
            nanos *= 10;
    }
    std::int64_t offset = 0;
    if (at < s.size() && (s[at] == 'Z' || s[at] == 'z')) {
        ++at;
    } else if (at < s.size() && (s[at] == '+' || s[at] == '-')) {
        int oh = 0, om = 0;
        if (!digits(s, at + 1, 2, oh) || at + 3 >= s.size() || s[at + 3] != ':' || !digits(s, at + 4, 2, om) || oh > 23
            || om > 59)
            return std::nullopt;
        offset = (oh * 3600 + om * 60) * (s[at] == '-' ? -1 : 1);
        at += 6;
    } else {
        return std::nullopt;
    }
    if (at != s.size())
        return std::nullopt;
    const std::int64_t seconds = daysFromCivil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second - offset;
    if (seconds < kMinTimestampSeconds || seconds > kMaxTimestampSeconds)
        return std::nullopt;
    return Timestamp{seconds, static_cast<std::int32_t>(nanos)};
}

std::string formatTimestamp(std::int64_t seconds, std::int32_t nanos)
{
    const CivilTime c = civilFromSeconds(seconds);
    char buf[64];
    int n = std::snprintf(buf, sizeof buf, "%04lld-%02d-%02dT%02d:%02d:%02d", static_cast<long long>(c.year), c.month,
                          c.day, c.hour, c.minute, c.second);
    std::string out(buf, static_cast<std::size_t>(n));
    if (nanos > 0) {
        n = std::snprintf(buf, sizeof buf, ".%09d", nanos);
        std::string frac(buf, static_cast<std::size_t>(n));
        while (frac.back() == '0')
            frac.pop_back();
        out += frac;
    }
    out += 'Z';
    return out;
}

std::optional<std::int64_t> parseDuration(std::string_view s, DurationError* error)
{
    auto fail = [&](DurationError e) -> std::optional<std::int64_t> {
        if (error)
            *error = e;
        return std::nullopt;
    };
    if (error)
        *error = DurationError::None;
    bool negative = false;
    std::size_t at = 0;
    if (at < s.size() && (s[at] == '-' || s[at] == '+'))
        negative = s[at++] == '-';
    if (s.substr(at) == "0")
        return 0;
    if (at == s.size())
        return fail(DurationError::Syntax);
    // Sum in 128 bits so that any overflow of the 64-bit result is seen, not wrapped.
    Int128 total = 0;
    const Int128 kLimit = static_cast<Int128>(INT64_MAX) + 1;
    while (at < s.size()) {
        Int128 whole = 0;
        std::int64_t frac = 0, scale = 1;
        bool any = false;
        while (at < s.size() && s[at] >= '0' && s[at] <= '9') {
            whole = whole * 10 + (s[at++] - '0');
            any = true;
            if (whole > kLimit * 1000)
                return fail(DurationError::Range);
        }
        if (at < s.size() && s[at] == '.') {
            ++at;
            while (at < s.size() && s[at] >= '0' && s[at] <= '9') {
                if (scale < 1'000'000'000'000'000'000LL / 10) {
                    frac = frac * 10 + (s[at] - '0');
                    scale *= 10;
                }
                ++at;
                any = true;
            }
        }
        if (!any)
            return fail(DurationError::Syntax);
        const std::size_t unitStart = at;
        while (at < s.size() && s[at] != '.' && (s[at] < '0' || s[at] > '9'))
            ++at;
        const std::string_view unit = s.substr(unitStart, at - unitStart);
        std::int64_t mult = 0;
        if (unit == "ns")
            mult = 1;
        else if (unit == "us" || unit == "\xc2\xb5s" || unit == "\xce\xbcs")
            mult = 1'000;
        else if (unit == "ms")
            mult = 1'000'000;
        else if (unit == "s")
            mult = 1'000'000'000;
        else if (unit == "m")
            mult = 60'000'000'000LL;
        else if (unit == "h")
            mult = 3'600'000'000'000LL;
        else
            return fail(DurationError::Syntax);
        total += whole * mult + static_cast<Int128>(frac) * mult / scale;
        if (total > kLimit)
            return fail(DurationError::Range);
    }
    if (negative)
        total = -total;
    if (total > INT64_MAX || total < INT64_MIN)
        return fail(DurationError::Range);
    return static_cast<std::int64_t>(total);
}

std::string formatDuration(std::int64_t nanos)
{
    const bool negative = nanos < 0;
    const UInt128 abs = negative ? static_cast<UInt128>(-static_cast<Int128>(nanos)) : static_cast<UInt128>(nanos);
    const auto whole = static_cast<unsigned long long>(abs / 1'000'000'000);
    const auto frac = static_cast<unsigned long long>(abs % 1'000'000'000);
    std::string out = negative ? "-" : "";
    out += std::to_string(whole);
    if (frac) {
        char buf[16];
        std::snprintf(buf, sizeof buf, "%09llu", frac);
        std::string f(buf);
        while (f.back() == '0')
            f.pop_back();
        out += '.';
        out += f;
    }
    out += 's';
    return out;
}

// ---- Time zones -------------------------------------------------------------------------------------------

namespace {

// The POSIX TZ rule a TZif file ends with ("AEST-10AEDT,M10.1.0,M4.1.0/3"): what holds after its last
// listed transition (Debian's files list them up to 2037).
struct PosixRule {
    struct Date {
        char kind = 'M'; // 'M': month.week.day, 'J': day 1..365 without Feb 29, 'N': day 0..365
        int month = 0, week = 0, day = 0;
        std::int64_t time = 7200; // seconds after local midnight
    };
    std::int64_t stdOffset = 0; // seconds east of UTC
    std::int64_t dstOffset = 0;
    bool hasDst = false;
    Date start, end;

    // Seconds from the start of `year` (local) to the rule's date, at its time.
    static std::int64_t secondsInYear(std::int64_t year, const Date& d)
    {
        std::int64_t day = 0;
        if (d.kind == 'J') {
            day = d.day - 1;
            if (isLeap(year) && d.day >= 60)
                ++day;
        } else if (d.kind == 'N') {
            day = d.day;
        } else {
            const std::int64_t first = daysFromCivil(year, d.month, 1);
            const int firstDow = static_cast<int>(((first % 7) + 11) % 7);
            int mday = 1 + (d.day - firstDow + 7) % 7 + (d.week - 1) * 7;
            while (mday > daysInMonth(year, d.month))
                mday -= 7;
            day = daysFromCivil(year, d.month, mday) - daysFromCivil(year, 1, 1);
        }
        return day * 86400 + d.time;
    }

    std::int64_t offsetAt(std::int64_t t) const
    {
        if (!hasDst)
            return stdOffset;
        const std::int64_t year = civilFromSeconds(t + stdOffset).year;
        const std::int64_t yearStart = daysFromCivil(year, 1, 1) * 86400;
        // A transition happens at the local time in force before it.
        const std::int64_t dstBegins = yearStart + secondsInYear(year, start) - stdOffset;
        const std::int64_t dstEnds = yearStart + secondsInYear(year, end) - dstOffset;
        const bool dst = dstBegins < dstEnds ? (t >= dstBegins && t < dstEnds) : !(t >= dstEnds && t < dstBegins);
        return dst ? dstOffset : stdOffset;
    }

    static std::optional<PosixRule> parse(std::string_view s)
    {
        std::size_t at = 0;
        auto name = [&]() {
            if (at < s.size() && s[at] == '<') {
                const std::size_t close = s.find('>', at);
                if (close == std::string_view::npos)
                    return false;
                at = close + 1;
                return true;
            }
            const std::size_t from = at;
            while (at < s.size() && ((s[at] >= 'a' && s[at] <= 'z') || (s[at] >= 'A' && s[at] <= 'Z')))
                ++at;
            return at - from >= 3;
        };
        // [+-]hh[:mm[:ss]] as seconds.
        auto clock = [&](std::int64_t& out) {
            int sign = 1;
            if (at < s.size() && (s[at] == '+' || s[at] == '-'))
                sign = s[at++] == '-' ? -1 : 1;
            std::int64_t parts[3] = {0, 0, 0};
            for (int k = 0; k < 3; ++k) {
                if (k > 0) {
                    if (at >= s.size() || s[at] != ':')
                        break;
                    ++at;
                }
                const std::size_t from = at;
                while (at < s.size() && s[at] >= '0' && s[at] <= '9' && at - from < 3)
                    parts[k] = parts[k] * 10 + (s[at++] - '0');
                if (at == from)
                    return false;
            }
            out = sign * (parts[0] * 3600 + parts[1] * 60 + parts[2]);
            return true;
        };
        auto number = [&](int& out) {
            const std::size_t from = at;
            out = 0;
            while (at < s.size() && s[at] >= '0' && s[at] <= '9' && at - from < 4)
                out = out * 10 + (s[at++] - '0');
            return at > from;
        };
        auto date = [&](Date& d) {
            if (at < s.size() && s[at] == 'M') {
                ++at;
                d.kind = 'M';
                if (!number(d.month) || at >= s.size() || s[at++] != '.' || !number(d.week) || at >= s.size()
                    || s[at++] != '.' || !number(d.day) || d.month < 1 || d.month > 12 || d.week < 1 || d.week > 5
                    || d.day > 6)
                    return false;
            } else if (at < s.size() && s[at] == 'J') {
                ++at;
                d.kind = 'J';
                if (!number(d.day) || d.day < 1 || d.day > 365)
                    return false;
            } else {
                d.kind = 'N';
                if (!number(d.day) || d.day > 365)
                    return false;
            }
            if (at < s.size() && s[at] == '/') {
                ++at;
                return clock(d.time);
            }
            return true;
        };
        PosixRule r;
        std::int64_t posixStd = 0;
        if (!name() || !clock(posixStd))
            return std::nullopt;
        r.stdOffset = -posixStd; // POSIX counts west of UTC
        if (at == s.size())
            return r;
        if (!name())
            return std::nullopt;
        r.hasDst = true;
        r.dstOffset = r.stdOffset + 3600;
        if (at < s.size() && s[at] != ',') {
            std::int64_t posixDst = 0;
            if (!clock(posixDst))
                return std::nullopt;
            r.dstOffset = -posixDst;
        }
        if (at >= s.size() || s[at++] != ',' || !date(r.start) || at >= s.size() || s[at++] != ',' || !date(r.end)
            || at != s.size())
            return std::nullopt;
        return r;
    }
};

// One zone from a TZif file (RFC 8536): transition instants and the UTC offset in force from each, then
// the footer's rule.
struct Zone {
    std::vector<std::int64_t> at;
    std::vector<std::int32_t> offsetFrom;
    std::int32_t initialOffset = 0;
    std::optional<PosixRule> rule;

    std::int64_t offsetAt(std::int64_t t) const
    {
        const auto it = std::upper_bound(at.begin(), at.end(), t);
        if (it == at.begin())
            return at.empty() && rule ? rule->offsetAt(t) : initialOffset;
        if (it == at.end() && rule)
            return rule->offsetAt(t);
        return offsetFrom[static_cast<std::size_t>(it - at.begin() - 1)];
    }
};

std::uint32_t be32(const unsigned char* p)
{
    return (std::uint32_t{p[0]} << 24) | (std::uint32_t{p[1]} << 16) | (std::uint32_t{p[2]} << 8) | p[3];
}

std::optional<Zone> parseTzif(const std::string& data)
{
    const auto* p = reinterpret_cast<const unsigned char*>(data.data());
    const std::size_t size = data.size();
    auto header = [&](std::size_t at, std::uint32_t c[6]) {
        if (at + 44 > size || std::string_view(data).substr(at, 4) != "TZif")
            return false;
        for (int i = 0; i < 6; ++i)
            c[i] = be32(p + at + 20 + 4 * i);
        return true;
    };
    std::uint32_t c[6]; // isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
    if (!header(0, c))
        return std::nullopt;
    const char version = data[4];
    std::size_t at = 44;
    int timeSize = 4;
    if (version >= '2') {
        // Skip the 32-bit block; the 64-bit one follows with its own header.
        at += std::size_t{c[3]} * 5 + std::size_t{c[4]} * 6 + c[5] + std::size_t{c[2]} * 8 + c[1] + c[0];
        if (!header(at, c))
            return std::nullopt;
        at += 44;
        timeSize = 8;
    }
    const std::uint32_t timecnt = c[3], typecnt = c[4];
    if (typecnt == 0 || at + std::size_t{timecnt} * (timeSize + 1) + std::size_t{typecnt} * 6 > size)
        return std::nullopt;
    Zone zone;
    zone.at.reserve(timecnt);
    for (std::uint32_t i = 0; i < timecnt; ++i) {
        const unsigned char* q = p + at + std::size_t{i} * timeSize;
        std::int64_t t = timeSize == 8 ? static_cast<std::int64_t>((std::uint64_t{be32(q)} << 32) | be32(q + 4))
                                       : static_cast<std::int32_t>(be32(q));
        zone.at.push_back(t);
    }
    const unsigned char* idx = p + at + std::size_t{timecnt} * timeSize;
    const unsigned char* types = idx + timecnt;
    auto offsetOf = [&](std::size_t type) { return static_cast<std::int32_t>(be32(types + 6 * type)); };
    for (std::uint32_t i = 0; i < timecnt; ++i) {
        if (idx[i] >= typecnt)
            return std::nullopt;
        zone.offsetFrom.push_back(offsetOf(idx[i]));
    }
    // Before the first transition: the first standard-time type (RFC 8536 §3.2), else type 0.
    zone.initialOffset = offsetOf(0);
    for (std::uint32_t t = 0; t < typecnt; ++t) {
        if (types[6 * t + 4] == 0) {
            zone.initialOffset = offsetOf(t);
            break;
        }
    }
    if (!std::is_sorted(zone.at.begin(), zone.at.end()))
        return std::nullopt;
    if (timeSize == 8) {
        // The footer: "\nRULE\n" after the 64-bit data block.
        const std::size_t end =
            at + std::size_t{timecnt} * 9 + std::size_t{typecnt} * 6 + c[5] + std::size_t{c[2]} * 12 + c[1] + c[0];
        if (end + 2 <= size && data[end] == '\n') {
            const std::size_t close = data.find('\n', end + 1);
            if (close != std::string::npos)
                zone.rule = PosixRule::parse(std::string_view(data).substr(end + 1, close - end - 1));
        }
    }
    return zone;
}

bool validZoneName(std::string_view name)
{
    if (name.empty() || name.size() > 64 || name.front() == '/' || name.find("..") != std::string_view::npos)
        return false;
    return std::all_of(name.begin(), name.end(), [](char ch) {
        return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '/'
               || ch == '_' || ch == '-' || ch == '+';
    });
}

std::string zoneinfoRoot()
{
    const char* dir = std::getenv("TZDIR");
    return dir && *dir ? dir : "/usr/share/zoneinfo";
}

// What a zone database holds, as far as telling a name that is no zone from a zone whose file is missing.
struct ZoneIndex {
    bool present = false;                  // the folder exists and holds something
    std::unordered_set<std::string> names; // the zones and links its tzdata.zi lists (none without one)
};

ZoneIndex readZoneIndex(const std::string& root)
{
    ZoneIndex index;
    std::error_code ec;
    const std::filesystem::directory_iterator entries(root, ec);
    index.present = !ec && entries != std::filesystem::directory_iterator();
    if (!index.present)
        return index;
    // "Z America/New_York -4:56:2 - LMT 1883 N 18 17u" names a zone, "L America/New_York US/Eastern" a link.
    auto text = readInputText(root + "/tzdata.zi", input::kTimeZone);
    if (!text)
        return index;
    std::istringstream lines(*text);
    std::string line;
    while (std::getline(lines, line)) {
        std::istringstream words(line);
        std::string kind, first, second;
        words >> kind >> first >> second;
        if (kind == "Z")
            index.names.insert(first);
        else if (kind == "L")
            index.names.insert(second);
    }
    return index;
}

// Why `root` has no zone `name`; the database is looked at once per root.
ZoneProblem diagnoseMissingZone(const std::string& root, std::string_view name)
{
    static std::mutex mutex;
    static std::map<std::string, ZoneIndex, std::less<>> indexes;
    std::lock_guard lock(mutex);
    auto it = indexes.find(root);
    if (it == indexes.end())
        it = indexes.emplace(root, readZoneIndex(root)).first;
    if (!it->second.present)
        return ZoneProblem::NoDatabase;
    return it->second.names.contains(std::string(name)) ? ZoneProblem::MissingFile : ZoneProblem::UnknownName;
}

struct ZoneLookup {
    const Zone* zone = nullptr; // null: not found, for `problem`
    ZoneProblem problem = ZoneProblem::UnknownName;
};

ZoneLookup loadZone(std::string_view name)
{
    // Entries are never removed, so the pointers handed out stay valid for every thread. Zones that exist
    // are bounded by the files in zoneinfo; names that do not are remembered up to a limit (a rule evaluated
    // over a million records asks a million times), then looked up each time. Keyed by the file's path:
    // TZDIR may name another database.
    struct Entry {
        std::unique_ptr<Zone> zone;
        ZoneProblem problem = ZoneProblem::UnknownName;
    };
    static std::shared_mutex mutex;
    static std::map<std::string, Entry, std::less<>> cache;
    static std::size_t unknown = 0;
    if (!validZoneName(name))
        return {};
    const std::string root = zoneinfoRoot();
    const std::string path = root + "/" + std::string(name);
    {
        std::shared_lock lock(mutex);
        if (auto it = cache.find(path); it != cache.end())
            return {it->second.zone.get(), it->second.problem};
    }
    Entry entry;
    // A name can be a folder ("America") or anything else: the reader takes only a regular file of sane size.
    if (auto data = readInputFile(path, input::kTimeZone)) {
        if (auto parsed = parseTzif(*data))
            entry.zone = std::make_unique<Zone>(std::move(*parsed));
    }
    if (!entry.zone)
        entry.problem = diagnoseMissingZone(root, name);
    std::unique_lock lock(mutex);
    if (auto it = cache.find(path); it != cache.end())
        return {it->second.zone.get(), it->second.problem};
    if (!entry.zone) {
        if (unknown >= 4096)
            return {nullptr, entry.problem};
        ++unknown;
    }
    const Entry& kept = cache.emplace(path, std::move(entry)).first->second;
    return {kept.zone.get(), kept.problem};
}

} // namespace

std::expected<std::int64_t, ZoneProblem> utcOffset(std::string_view zone, std::int64_t utcSeconds)
{
    if (zone == "UTC" || zone == "Z" || zone == "GMT" || zone == "Etc/UTC")
        return 0;
    // [+-]HH:MM, the sign optional.
    std::string_view z = zone;
    int sign = 1;
    if (!z.empty() && (z[0] == '+' || z[0] == '-')) {
        sign = z[0] == '-' ? -1 : 1;
        z.remove_prefix(1);
    }
    int h = 0, m = 0;
    if (z.size() == 5 && digits(z, 0, 2, h) && z[2] == ':' && digits(z, 3, 2, m)) {
        if (h > 23 || m > 59)
            return std::unexpected(ZoneProblem::UnknownName);
        return sign * (h * 3600 + m * 60);
    }
    const ZoneLookup found = loadZone(zone);
    if (found.zone)
        return found.zone->offsetAt(utcSeconds);
    return std::unexpected(found.problem);
}

std::string unknownZoneMessage(std::string_view zone, ZoneProblem problem)
{
    const std::string head = "unknown time zone '" + std::string(zone) + "'";
    switch (problem) {
    case ZoneProblem::NoDatabase:
        return head + ": this machine has no time zone database (" + zoneinfoRoot()
               + " is missing or empty); install the Debian package tzdata";
    case ZoneProblem::MissingFile:
        return head + ": the time zone database in " + zoneinfoRoot()
               + " lists it but has no readable file for it; reinstall the Debian package tzdata";
    case ZoneProblem::UnknownName: break;
    }
    return head;
}

} // namespace sb::cel
