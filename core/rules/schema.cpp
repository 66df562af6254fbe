#include "rules/schema.h"

#include <algorithm>

namespace sb::rules {

std::string_view toString(FieldType type)
{
    switch (type) {
    case FieldType::Int: return "int";
    case FieldType::Double: return "double";
    case FieldType::Bool: return "bool";
    case FieldType::String: return "string";
    case FieldType::Timestamp: return "timestamp";
    }
    return "string";
}

std::optional<FieldType> fieldTypeFromString(std::string_view text)
{
    if (text == "int" || text == "integer" || text == "int64")
        return FieldType::Int;
    if (text == "double" || text == "float" || text == "number")
        return FieldType::Double;
    if (text == "bool" || text == "boolean")
        return FieldType::Bool;
    if (text == "string")
        return FieldType::String;
    if (text == "timestamp" || text == "google.protobuf.Timestamp")
        return FieldType::Timestamp;
    return std::nullopt;
}

cel::Type celType(FieldType type)
{
    switch (type) {
    case FieldType::Int: return cel::Type::integer();
    case FieldType::Double: return cel::Type::real();
    case FieldType::Bool: return cel::Type::boolean();
    case FieldType::String: return cel::Type::string();
    case FieldType::Timestamp: return cel::Type::timestamp();
    }
    return cel::Type::dyn();
}

int Schema::find(std::string_view name) const
{
    const auto it = std::find_if(fields.begin(), fields.end(), [&](const Field& f) { return f.name == name; });
    return it == fields.end() ? -1 : static_cast<int>(it - fields.begin());
}

} // namespace sb::rules
