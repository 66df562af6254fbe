#include "util/size_text.h"

#include <fmt/format.h>

#include <array>
#include <utility>
#include <cctype>
#include <limits>

namespace sb {

Result<std::uint64_t> parseSizeBytes(std::string_view text)
{
    auto bad = [&] {
        return fail(fmt::format("'{}' is not a size: use a whole number of bytes with an optional unit K, M, G or T "
                                "(powers of 1024): 500M, 2G, 1536K",
                                text));
    };
    std::size_t pos = 0;
    std::uint64_t value = 0;
    constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
        const auto digit = static_cast<std::uint64_t>(text[pos] - '0');
        if (value > (kMax - digit) / 10)
            return fail(fmt::format("'{}' is too large a size", text));
        value = value * 10 + digit;
        ++pos;
    }
    if (pos == 0)
        return bad();
    std::string unit;
    for (; pos < text.size(); ++pos)
        unit += static_cast<char>(std::toupper(static_cast<unsigned char>(text[pos])));
    std::uint64_t scale = 1;
    static constexpr std::array<std::pair<char, int>, 4> kUnits{{{'K', 10}, {'M', 20}, {'G', 30}, {'T', 40}}};
    if (!unit.empty() && unit != "B") {
        bool known = false;
        for (const auto& [letter, shift] : kUnits) {
            if (unit.front() == letter && (unit.size() == 1 || unit.substr(1) == "B" || unit.substr(1) == "IB")) {
                scale = std::uint64_t{1} << shift;
                known = true;
            }
        }
        if (!known)
            return bad();
    }
    if (value == 0)
        return fail(fmt::format("'{}': a size must be larger than zero", text));
    if (value > kMax / scale)
        return fail(fmt::format("'{}' is too large a size", text));
    return value * scale;
}

std::string formatSize(std::uint64_t bytes)
{
    static constexpr std::array<const char*, 5> kNames{"B", "KiB", "MiB", "GiB", "TiB"};
    if (bytes < 1024)
        return fmt::format("{} B", bytes);
    double value = static_cast<double>(bytes);
    std::size_t unit = 0;
    while (value >= 1024 && unit + 1 < kNames.size()) {
        value /= 1024;
        ++unit;
    }
    return fmt::format("{:.1f} {}", value, kNames[unit]);
}

std::string formatSizeExact(std::uint64_t bytes)
{
    static constexpr std::array<std::pair<char, int>, 4> kUnits{{{'T', 40}, {'G', 30}, {'M', 20}, {'K', 10}}};
    for (const auto& [letter, shift] : kUnits) {
        const std::uint64_t unit = 1ULL << shift;
        if (bytes != 0 && bytes % unit == 0)
            return fmt::format("{}{}", bytes / unit, letter);
    }
    return std::to_string(bytes);
}

} // namespace sb
