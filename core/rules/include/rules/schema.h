#pragma once

// The types a record's fields have, shared by rule sets (`fields:`) and datasets (their columns): the five a
// CSV cell or a JSON Lines value can be read as, each with the CEL type rule conditions see it as.

#include "cel/types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sb::rules {

enum class FieldType : std::uint8_t { Int, Double, Bool, String, Timestamp };

// "int", "double", "bool", "string", "timestamp"
std::string_view toString(FieldType type);
// The names above; also "integer", "float", "number", "boolean" and "google.protobuf.Timestamp" as people
// write them elsewhere. Empty for anything else.
std::optional<FieldType> fieldTypeFromString(std::string_view text);
cel::Type celType(FieldType type);

struct Field {
    std::string name;
    FieldType type = FieldType::String;
    bool operator==(const Field&) const = default;
};

// The columns of a dataset, in order: a column's index is its slot in a rule condition's activation.
struct Schema {
    std::vector<Field> fields;

    // The index of the column called `name`, or -1.
    int find(std::string_view name) const;
    std::size_t size() const { return fields.size(); }
    bool operator==(const Schema&) const = default;
};

} // namespace sb::rules
