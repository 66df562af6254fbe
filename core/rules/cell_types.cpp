#include "cell_types.h"

#include "cel/utf8.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

namespace sb::rules::datafile {

namespace {

char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

bool equalsIgnoreCase(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (lower(a[i]) != lower(b[i]))
            return false;
    }
    return true;
}

// Numbers as inference accepts them: an optional '-', an integer part without leading zeros (zip codes and
// account numbers such as 01234 stay strings), then for doubles a fraction and/or an exponent.
struct NumberShape {
    bool isInt = false;
    bool isDouble = false;
};

NumberShape numberShape(std::string_view s)
{
    std::size_t i = 0;
    const std::size_t n = s.size();
    if (i < n && s[i] == '-')
        ++i;
    const std::size_t digits = i;
    while (i < n && s[i] >= '0' && s[i] <= '9')
        ++i;
    const std::size_t intDigits = i - digits;
    if (intDigits == 0)
        return {};
    if (intDigits > 1 && s[digits] == '0')
        return {};
    if (i == n)
        return {true, true};
    bool fraction = false;
    if (s[i] == '.') {
        ++i;
        const std::size_t f = i;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            ++i;
        if (i == f)
            return {};
        fraction = true;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            ++i;
        const std::size_t e = i;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            ++i;
        if (i == e)
            return {};
        fraction = true;
    }
    if (i != n || !fraction)
        return {};
    return {false, true};
}

} // namespace

std::optional<bool> parseBool(std::string_view s, bool strict)
{
    if (s == "true")
        return true;
    if (s == "false")
        return false;
    s = trimSpaces(s);
    if (equalsIgnoreCase(s, "true"))
        return true;
    if (equalsIgnoreCase(s, "false"))
        return false;
    if (strict)
        return std::nullopt;
    for (std::string_view t : {"1", "yes", "y", "t"}) {
        if (equalsIgnoreCase(s, t))
            return true;
    }
    for (std::string_view f : {"0", "no", "n", "f"}) {
        if (equalsIgnoreCase(s, f))
            return false;
    }
    return std::nullopt;
}

std::optional<cel::Timestamp> parseTime(std::string_view s, bool strict)
{
    if (auto t = cel::parseTimestamp(s))
        return t;
    if (strict)
        return std::nullopt;
    s = trimSpaces(s);
    std::string text(s);
    if (text.size() == 10)
        text += "T00:00:00Z";
    else if (text.size() >= 19 && text[10] == ' ')
        text[10] = 'T';
    if (auto t = cel::parseTimestamp(text))
        return t;
    if (text.size() >= 19 && text.back() != 'Z' && text.find('+', 19) == std::string::npos
        && text.find('-', 19) == std::string::npos)
        return cel::parseTimestamp(text + "Z");
    return std::nullopt;
}

std::uint8_t possibleTypes(std::string_view s, std::uint8_t mask)
{
    std::uint8_t out = 0;
    const char c = s.front();
    if ((mask & (kMayInt | kMayDouble)) && (c == '-' || (c >= '0' && c <= '9'))) {
        const NumberShape shape = numberShape(s);
        if (shape.isInt && parseInt(s))
            out |= kMayInt;
        if (shape.isDouble)
            out |= kMayDouble;
    }
    if ((mask & kMayBool) && (c == 't' || c == 'T' || c == 'f' || c == 'F') && parseBool(s, true))
        out |= kMayBool;
    if ((mask & kMayTimestamp) && s.size() >= 20 && c >= '0' && c <= '9' && cel::parseTimestamp(s))
        out |= kMayTimestamp;
    return out & mask;
}

FieldType typeFromMask(std::uint8_t mask, bool sawValue)
{
    if (!sawValue)
        return FieldType::String;
    if (mask & kMayInt)
        return FieldType::Int;
    if (mask & kMayDouble)
        return FieldType::Double;
    if (mask & kMayBool)
        return FieldType::Bool;
    if (mask & kMayTimestamp)
        return FieldType::Timestamp;
    return FieldType::String;
}

std::string quoteForMessage(std::string_view s)
{
    std::string out = "'";
    std::size_t n = 0;
    for (const char c : s) {
        if (++n > 40) {
            out += "…";
            break;
        }
        out += static_cast<unsigned char>(c) < 0x20 ? '?' : c;
    }
    if (!cel::isValidUtf8(out))
        return "(not UTF-8)";
    return out + "'";
}

bool isValidUtf8Fast(std::string_view s)
{
    std::size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
        std::uint64_t w = 0;
        std::memcpy(&w, s.data() + i, 8);
        if (w & 0x8080808080808080ULL)
            return cel::isValidUtf8(s.substr(i));
    }
    for (; i < s.size(); ++i) {
        if (static_cast<unsigned char>(s[i]) & 0x80)
            return cel::isValidUtf8(s.substr(i));
    }
    return true;
}

} // namespace sb::rules::datafile
