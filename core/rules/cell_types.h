#pragma once

// A cell's text as a value: the numbers, booleans and timestamps a column may hold, inference of a column's
// type from its cells, and conversion to the column's type. What runs for every cell a reader converts
// (convertText, trimSpaces, parseInt, parseDouble) is defined here, inline, so that the readers' loops
// (csv_reader.cpp, json_lines.cpp) compile it into themselves.

#include "cel/time.h"
#include "cel/value.h"
#include "rules/dataset.h"

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sb::rules::datafile {

// Without the spaces and tabs around it.
inline std::string_view trimSpaces(std::string_view s)
{
    const auto space = [](char c) { return c == ' ' || c == '\t'; };
    while (!s.empty() && space(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && space(s.back()))
        s.remove_suffix(1);
    return s;
}

// An optional '+' or '-' and digits, with spaces around them.
inline std::optional<std::int64_t> parseInt(std::string_view s)
{
    s = trimSpaces(s);
    if (!s.empty() && s.front() == '+')
        s.remove_prefix(1);
    std::int64_t v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size())
        return std::nullopt;
    return v;
}

inline std::optional<double> parseDouble(std::string_view s)
{
    s = trimSpaces(s);
    if (!s.empty() && s.front() == '+')
        s.remove_prefix(1);
    double v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || r.ec != std::errc() || r.ptr != s.data() + s.size())
        return std::nullopt;
    return v;
}

std::optional<bool> parseBool(std::string_view s, bool strict);

// RFC 3339; declared timestamp columns also take a date alone (midnight UTC) and a space for the 'T'
// with no zone (UTC), as spreadsheets write them.
std::optional<cel::Timestamp> parseTime(std::string_view s, bool strict);

// What a cell may be, for inference: a bit per type.
enum : std::uint8_t { kMayInt = 1, kMayDouble = 2, kMayBool = 4, kMayTimestamp = 8, kMayAll = 15 };

std::uint8_t possibleTypes(std::string_view s, std::uint8_t mask);

FieldType typeFromMask(std::uint8_t mask, bool sawValue);

std::string quoteForMessage(std::string_view s);

// The value of a cell of a column of type `type`; an error message when it is not one.
struct Converted {
    cel::Value value;
    const char* problem = nullptr; // "an int", "a double", ...
};

inline Converted convertText(std::string_view text, FieldType type, std::size_t column, DatasetBuilder* builder)
{
    if (type != FieldType::String)
        text = trimSpaces(text);
    if (text.empty() && type != FieldType::String)
        return {builder ? builder->missing(column) : cel::Value::null()};
    switch (type) {
    case FieldType::Int:
        if (auto v = parseInt(text))
            return {cel::Value::integer(*v)};
        return {{}, "an int"};
    case FieldType::Double:
        if (auto v = parseDouble(text))
            return {cel::Value::real(*v)};
        return {{}, "a double"};
    case FieldType::Bool:
        if (auto v = parseBool(text, false))
            return {cel::Value::boolean(*v)};
        return {{}, "a bool (true or false)"};
    case FieldType::Timestamp:
        if (auto v = parseTime(text, false))
            return {cel::Value::timestamp(v->seconds, v->nanos)};
        return {{}, "a timestamp (RFC 3339, such as 2024-05-01T12:00:00Z)"};
    case FieldType::String: return {builder ? builder->string(column, text) : cel::Value::null()};
    }
    return {{}, "a value"};
}

// ASCII first, 8 bytes at a time: most data is, and the full decoder is only needed where it is not.
bool isValidUtf8Fast(std::string_view s);

} // namespace sb::rules::datafile
