#pragma once

// A cell's text as a value: the numbers, booleans and timestamps a column may hold, inference of a column's
// type from its cells, and conversion to the column's type.

#include "cel/time.h"
#include "cel/value.h"
#include "rules/dataset.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sb::rules::datafile {

// Without the spaces and tabs around it.
std::string_view trimSpaces(std::string_view s);

std::optional<std::int64_t> parseInt(std::string_view s);

std::optional<double> parseDouble(std::string_view s);

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

Converted convertText(std::string_view text, FieldType type, std::size_t column, DatasetBuilder* builder);

// ASCII first, 8 bytes at a time: most data is, and the full decoder is only needed where it is not.
bool isValidUtf8Fast(std::string_view s);

} // namespace sb::rules::datafile
