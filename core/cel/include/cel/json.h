#pragma once

// CEL values to and from JSON: a record given as a JSON object (sandbench rules expr --record, JSON Lines
// datasets), and values printed as JSON (--json).
//
// From JSON: integers are int (uint beyond int's range), other numbers double, strings string, true/false
// bool, null null, arrays lists, objects maps with string keys. A record's top-level string field that is an
// RFC 3339 timestamp is a timestamp, as dataset columns are inferred.
//
// To JSON: int and uint as numbers, double as a number (NaN and the infinities as the strings "NaN",
// "Infinity", "-Infinity"), bytes as base64, timestamps as RFC 3339, durations as "1.5s", types as their
// names, maps as objects (keys that are not strings written as their CEL literals).

#include "cel/types.h"
#include "cel/value.h"
#include "util/error.h"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace sb::cel {

struct TypedValue {
    Type type;
    Value value;
};

// A JSON value as a CEL value (nested arrays and objects as list(dyn) and map(string, dyn)); strings and
// containers are stored in `arena`.
TypedValue fromJson(const nlohmann::json& json, Arena& arena);
TypedValue fromJson(const nlohmann::ordered_json& json, Arena& arena); // objects keep their order

// A record: the fields of a JSON object, declared with the types their values have, in the object's order.
struct JsonRecord {
    Declarations declarations;
    std::vector<Value> values; // by slot
};
sb::Result<JsonRecord> recordFromJson(std::string_view text, Arena& arena);

nlohmann::json toJson(const Value& value);

} // namespace sb::cel
