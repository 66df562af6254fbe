#include "workspace/duration.h"

#include <fmt/format.h>

#include <array>
#include <limits>

namespace sb {

namespace {

struct Unit {
    char letter;
    std::int64_t ms;
};

// Falling order: a duration names each unit at most once, larger ones first.
constexpr std::array<Unit, 5> kUnits = {{
    {'w', 7LL * 24 * 3600 * 1000},
    {'d', 24LL * 3600 * 1000},
    {'h', 3600LL * 1000},
    {'m', 60LL * 1000},
    {'s', 1000},
}};

constexpr std::int64_t kMaxMs = 100LL * 366 * 24 * 3600 * 1000; // a century: far beyond any expiry

std::unexpected<Error> invalid(std::string_view text, std::string_view why)
{
    return fail(fmt::format("'{}' is not a duration ({}); write a number and a unit (s, m, h, d, w), e.g. 30m, "
                            "2h, 7d or 1h30m",
                            text, why));
}

} // namespace

Result<std::int64_t> parseDuration(std::string_view text)
{
    if (text.empty())
        return invalid(text, "it is empty");
    std::int64_t total = 0;
    std::size_t nextUnit = 0; // index into kUnits: units must fall
    std::size_t i = 0;
    while (i < text.size()) {
        const std::size_t start = i;
        std::int64_t number = 0;
        while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
            if (number > kMaxMs)
                return invalid(text, "too long: at most 100 years");
            number = number * 10 + (text[i] - '0');
            ++i;
        }
        if (i == start)
            return invalid(text, fmt::format("expected a number at position {}", start + 1));
        if (i == text.size())
            return invalid(text, "the number has no unit");
        const char letter = text[i++];
        std::size_t unit = nextUnit;
        while (unit < kUnits.size() && kUnits[unit].letter != letter)
            ++unit;
        if (unit == kUnits.size()) {
            bool known = false;
            for (const auto& u : kUnits)
                known = known || u.letter == letter;
            return invalid(text, known ? "units must go from larger to smaller, each once"
                                       : fmt::format("unknown unit '{}'", letter));
        }
        nextUnit = unit + 1;
        if (number > kMaxMs / kUnits[unit].ms)
            return invalid(text, "too long: at most 100 years");
        total += number * kUnits[unit].ms;
        if (total > kMaxMs)
            return invalid(text, "too long: at most 100 years");
    }
    if (total <= 0)
        return invalid(text, "it must be longer than zero");
    return total;
}

std::string formatDuration(std::int64_t ms)
{
    if (ms < 1000)
        return fmt::format("{}s", ms <= 0 ? 0 : 1);
    std::string out;
    std::int64_t rest = ms;
    int parts = 0;
    for (const auto& unit : kUnits) {
        if (unit.letter == 'w')
            continue; // days read better than weeks in listings
        const std::int64_t n = rest / unit.ms;
        if (n > 0 && parts < 2) {
            out += fmt::format("{}{}", n, unit.letter);
            rest -= n * unit.ms;
            ++parts;
        } else if (parts > 0) {
            ++parts; // only two adjacent units: "1d3h", never "1d0h5m"
        }
    }
    return out;
}

} // namespace sb
