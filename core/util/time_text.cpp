#include "util/time_text.h"

#include <fmt/format.h>

#include <array>
#include <utility>

#include <chrono>
#include <ctime>
#include <limits>
#include <optional>

namespace sb {

namespace {

using namespace std::chrono;

constexpr std::int64_t kMaxInt = std::numeric_limits<std::int64_t>::max();

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

// Reads exactly `count` digits at `pos` (advancing it), or nothing.
std::optional<int> digits(std::string_view text, std::size_t& pos, std::size_t count)
{
    if (text.size() - pos < count)
        return std::nullopt;
    int value = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const char c = text[pos + i];
        if (!isDigit(c))
            return std::nullopt;
        value = value * 10 + (c - '0');
    }
    pos += count;
    return value;
}

std::unexpected<Error> badTime(std::string_view text)
{
    return fail(fmt::format("'{}' is not a time: use ISO 8601 (2024-05-01, 2024-05-01T12:30:00Z, "
                            "2024-05-01 12:30+02:00), 'now', or a duration before now (30m, 2h, 7d)",
                            text));
}

Result<std::int64_t> parseIso(std::string_view text)
{
    std::size_t pos = 0;
    const auto year = digits(text, pos, 4);
    if (!year || pos >= text.size() || text[pos++] != '-')
        return badTime(text);
    const auto month = digits(text, pos, 2);
    if (!month || pos >= text.size() || text[pos++] != '-')
        return badTime(text);
    const auto day = digits(text, pos, 2);
    if (!day)
        return badTime(text);
    const year_month_day date{std::chrono::year(*year), std::chrono::month(static_cast<unsigned>(*month)),
                              std::chrono::day(static_cast<unsigned>(*day))};
    if (!date.ok())
        return fail(fmt::format("'{}' is not a time: there is no day {:04}-{:02}-{:02}", text, *year, *month, *day));

    int hour = 0, minute = 0, second = 0, millisecond = 0;
    if (pos < text.size() && (text[pos] == 'T' || text[pos] == 't' || text[pos] == ' ')) {
        ++pos;
        const auto h = digits(text, pos, 2);
        if (!h || pos >= text.size() || text[pos++] != ':')
            return badTime(text);
        const auto m = digits(text, pos, 2);
        if (!m)
            return badTime(text);
        hour = *h;
        minute = *m;
        if (pos < text.size() && text[pos] == ':') {
            ++pos;
            const auto s = digits(text, pos, 2);
            if (!s)
                return badTime(text);
            second = *s;
            if (pos < text.size() && (text[pos] == '.' || text[pos] == ',')) {
                ++pos;
                const std::size_t first = pos;
                int scale = 100;
                while (pos < text.size() && isDigit(text[pos])) {
                    millisecond += (text[pos] - '0') * scale; // digits past milliseconds are dropped
                    scale /= 10;
                    ++pos;
                }
                if (pos == first)
                    return badTime(text);
            }
        }
        if (hour > 23 || minute > 59 || second > 59)
            return fail(
                fmt::format("'{}' is not a time: {:02}:{:02}:{:02} is out of range", text, hour, minute, second));
    }

    std::optional<int> offsetMinutes; // east of UTC
    if (pos < text.size()) {
        const char zone = text[pos++];
        if ((zone == 'Z' || zone == 'z') && pos == text.size()) {
            offsetMinutes = 0;
        } else if (zone == '+' || zone == '-') {
            const auto h = digits(text, pos, 2);
            if (!h)
                return badTime(text);
            int m = 0;
            if (pos < text.size()) {
                if (text[pos] == ':')
                    ++pos;
                const auto mm = digits(text, pos, 2);
                if (!mm)
                    return badTime(text);
                m = *mm;
            }
            if (pos != text.size() || *h > 23 || m > 59)
                return badTime(text);
            offsetMinutes = (zone == '+' ? 1 : -1) * (*h * 60 + m);
        } else {
            return badTime(text);
        }
    }

    if (offsetMinutes) {
        const auto utc = sys_days(date) + hours(hour) + minutes(minute) + seconds(second) + milliseconds(millisecond)
                         - minutes(*offsetMinutes);
        return duration_cast<milliseconds>(utc.time_since_epoch()).count();
    }
    // Local time, as date(1) reads it; mktime settles daylight saving time by itself.
    std::tm local{};
    local.tm_year = *year - 1900;
    local.tm_mon = *month - 1;
    local.tm_mday = *day;
    local.tm_hour = hour;
    local.tm_min = minute;
    local.tm_sec = second;
    local.tm_isdst = -1;
    const std::time_t seconds = std::mktime(&local);
    return static_cast<std::int64_t>(seconds) * 1000 + millisecond;
}

} // namespace

std::int64_t nowEpochMs()
{
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

Result<std::int64_t> parseDurationMs(std::string_view text)
{
    auto bad = [text](std::string_view why) {
        return fail(fmt::format("'{}' is not a duration: {} (use e.g. 90s, 30m, 2h, 1h30m, 7d, 2w)", text, why));
    };
    if (text.empty())
        return bad("it is empty");
    std::int64_t total = 0;
    std::int64_t previousScale = kMaxInt; // units fall, each at most once: "1h30m", never "30m1h" or "1h1h"
    std::size_t pos = 0;
    while (pos < text.size()) {
        if (!isDigit(text[pos]))
            return bad("a number must come first");
        std::int64_t number = 0;
        while (pos < text.size() && isDigit(text[pos])) {
            const int digit = text[pos++] - '0';
            if (number > (kMaxInt - digit) / 10)
                return bad("it is too long");
            number = number * 10 + digit;
        }
        const std::size_t unitStart = pos;
        while (pos < text.size() && !isDigit(text[pos]))
            ++pos;
        const std::string_view unit = text.substr(unitStart, pos - unitStart);
        std::int64_t scale = 0;
        if (unit == "ms")
            scale = 1;
        else if (unit == "s")
            scale = 1000;
        else if (unit == "m" || unit == "min")
            scale = 60'000;
        else if (unit == "h")
            scale = 3'600'000;
        else if (unit == "d")
            scale = 86'400'000;
        else if (unit == "w")
            scale = 7 * 86'400'000LL;
        else if (unit.empty())
            return bad("a number needs a unit");
        else
            return bad(fmt::format("'{}' is not a unit", unit));
        if (scale >= previousScale)
            return bad("units must go from larger to smaller, each once");
        previousScale = scale;
        if (number > kMaxInt / scale || total > kMaxInt - number * scale)
            return bad("it is too long");
        total += number * scale;
    }
    return total;
}

Result<std::int64_t> parseTimePointMs(std::string_view text, std::int64_t nowMs)
{
    if (text == "now")
        return nowMs;
    // A year first (four digits and a dash) means a date; anything else must be a duration.
    if (text.size() >= 5 && isDigit(text[0]) && isDigit(text[1]) && isDigit(text[2]) && isDigit(text[3])
        && text[4] == '-')
        return parseIso(text);
    if (!text.empty() && isDigit(text[0])) {
        auto duration = parseDurationMs(text);
        if (!duration)
            return badTime(text);
        return nowMs - *duration;
    }
    return badTime(text);
}

Result<std::int64_t> parseLifetimeMs(std::string_view text)
{
    constexpr std::int64_t kCentury = 100LL * 366 * 86'400'000;
    auto ms = parseDurationMs(text);
    if (!ms)
        return ms;
    if (*ms <= 0)
        return fail(fmt::format("'{}' is not a duration for this: it must be longer than zero", text));
    if (*ms > kCentury)
        return fail(fmt::format("'{}' is not a duration for this: at most 100 years", text));
    return ms;
}

std::string formatDurationShort(std::int64_t ms)
{
    if (ms < 1000)
        return ms <= 0 ? "0s" : "1s";
    constexpr std::array<std::pair<char, std::int64_t>, 4> kUnits = {
        {{'d', 86'400'000}, {'h', 3'600'000}, {'m', 60'000}, {'s', 1000}}}; // days read better than weeks
    std::string out;
    std::int64_t rest = ms;
    int parts = 0;
    for (const auto& [letter, scale] : kUnits) {
        const std::int64_t n = rest / scale;
        if (n > 0 && parts < 2) {
            out += fmt::format("{}{}", n, letter);
            rest -= n * scale;
            ++parts;
        } else if (parts > 0) {
            ++parts; // only two adjacent units: "1d3h", never "1d0h5m"
        }
    }
    return out;
}

std::string formatDurationExact(std::int64_t ms)
{
    if (ms <= 0)
        return "0s";
    constexpr std::array<std::pair<const char*, std::int64_t>, 5> kUnits = {
        {{"d", 86'400'000}, {"h", 3'600'000}, {"m", 60'000}, {"s", 1000}, {"ms", 1}}};
    std::string out;
    for (const auto& [unit, scale] : kUnits) {
        if (ms >= scale) {
            out += fmt::format("{}{}", ms / scale, unit);
            ms %= scale;
        }
    }
    return out;
}

std::string formatIsoUtc(std::int64_t epochMs)
{
    const sys_time<milliseconds> time{milliseconds(epochMs)};
    const auto day = floor<days>(time);
    const year_month_day date{day};
    const hh_mm_ss clock{time - day};
    return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z", static_cast<int>(date.year()),
                       static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()), clock.hours().count(),
                       clock.minutes().count(), clock.seconds().count(), clock.subseconds().count());
}

} // namespace sb
