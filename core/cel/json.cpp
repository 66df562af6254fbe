#include "cel/json.h"

#include "cel/time.h"

#include <cmath>
#include <limits>

namespace sb::cel {

namespace {

template <typename Json> TypedValue convert(const Json& j, Arena& arena, int depth)
{
    using T = nlohmann::json::value_t;
    switch (j.type()) {
    case T::null: return {Type::null(), Value::null()};
    case T::boolean: return {Type::boolean(), Value::boolean(j.template get<bool>())};
    case T::number_integer: return {Type::integer(), Value::integer(j.template get<std::int64_t>())};
    case T::number_unsigned: {
        const auto u = j.template get<std::uint64_t>();
        if (u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            return {Type::integer(), Value::integer(static_cast<std::int64_t>(u))};
        return {Type::uinteger(), Value::uinteger(u)};
    }
    case T::number_float: return {Type::real(), Value::real(j.template get<double>())};
    case T::string: return {Type::string(), Value::string(arena.copy(j.template get_ref<const std::string&>()))};
    case T::array: {
        std::vector<Value> items;
        items.reserve(j.size());
        for (const auto& e : j)
            items.push_back(depth > 64 ? Value::null() : convert(e, arena, depth + 1).value);
        return {Type::list(Type::dyn()), makeList(arena, items)};
    }
    case T::object: {
        std::vector<Value> keys, values;
        for (const auto& [k, v] : j.items()) {
            keys.push_back(Value::string(arena.copy(k)));
            values.push_back(depth > 64 ? Value::null() : convert(v, arena, depth + 1).value);
        }
        return {Type::map(Type::string(), Type::dyn()), makeMap(arena, keys, values)};
    }
    case T::binary:
    case T::discarded: break;
    }
    return {Type::null(), Value::null()};
}

std::string base64(std::string_view in)
{
    static const char* chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    std::size_t i = 0;
    for (; i + 2 < in.size(); i += 3) {
        const auto n = (std::uint32_t(std::uint8_t(in[i])) << 16) | (std::uint32_t(std::uint8_t(in[i + 1])) << 8)
                       | std::uint8_t(in[i + 2]);
        out += chars[n >> 18];
        out += chars[(n >> 12) & 63];
        out += chars[(n >> 6) & 63];
        out += chars[n & 63];
    }
    if (i + 1 == in.size()) {
        const auto n = std::uint32_t(std::uint8_t(in[i])) << 16;
        out += chars[n >> 18];
        out += chars[(n >> 12) & 63];
        out += "==";
    } else if (i + 2 == in.size()) {
        const auto n = (std::uint32_t(std::uint8_t(in[i])) << 16) | (std::uint32_t(std::uint8_t(in[i + 1])) << 8);
        out += chars[n >> 18];
        out += chars[(n >> 12) & 63];
        out += chars[(n >> 6) & 63];
        out += '=';
    }
    return out;
}

} // namespace

TypedValue fromJson(const nlohmann::json& json, Arena& arena)
{
    return convert(json, arena, 0);
}

TypedValue fromJson(const nlohmann::ordered_json& json, Arena& arena)
{
    return convert(json, arena, 0);
}

sb::Result<JsonRecord> recordFromJson(std::string_view text, Arena& arena)
{
    // Depth bounded by the parser's callback: a record nested thousands deep is not a record.
    int depth = 0;
    bool tooDeep = false;
    // Ordered: the fields get their slots in the order the record lists them.
    const auto json = nlohmann::ordered_json::parse(
        text,
        [&](int d, nlohmann::ordered_json::parse_event_t, nlohmann::ordered_json&) {
            depth = d;
            tooDeep = tooDeep || d > 64;
            return !tooDeep;
        },
        false);
    (void)depth;
    if (tooDeep)
        return sb::fail("the record nests deeper than 64 levels");
    if (json.is_discarded())
        return sb::fail("the record is not valid JSON");
    if (!json.is_object())
        return sb::fail("the record must be a JSON object ({\"field\": value, ...})");
    JsonRecord record;
    for (const auto& [name, value] : json.items()) {
        TypedValue tv = fromJson(value, arena);
        if (value.is_string()) {
            if (const auto ts = parseTimestamp(value.get_ref<const std::string&>())) {
                tv = {Type::timestamp(), Value::timestamp(ts->seconds, ts->nanos)};
            }
        }
        // A null field may hold anything in other records: dyn, so that `field == null` checks.
        if (tv.type.kind() == Type::Kind::Null)
            tv.type = Type::dyn();
        auto slot = record.declarations.add(name, tv.type);
        if (!slot)
            return sb::fail("record field " + slot.error().message);
        record.values.push_back(tv.value);
    }
    return record;
}

nlohmann::json toJson(const Value& v)
{
    switch (v.kind()) {
    case Kind::Null: return nullptr;
    case Kind::Bool: return v.asBool();
    case Kind::Int: return v.asInt();
    case Kind::Uint: return v.asUint();
    case Kind::Double: {
        const double d = v.asDouble();
        if (std::isnan(d))
            return "NaN";
        if (std::isinf(d))
            return d > 0 ? "Infinity" : "-Infinity";
        return d;
    }
    case Kind::String: return std::string(v.asString());
    case Kind::Bytes: return base64(v.asString());
    case Kind::Timestamp: return formatTimestamp(v.seconds(), v.nanos());
    case Kind::Duration: return formatDuration(v.durationNanos());
    case Kind::Type: return std::string(kindName(v.asType()));
    case Kind::List: {
        nlohmann::json out = nlohmann::json::array();
        for (const Value& item : v.asList().view())
            out.push_back(toJson(item));
        return out;
    }
    case Kind::Map: {
        nlohmann::json out = nlohmann::json::object();
        const MapData& m = v.asMap();
        for (std::uint32_t i = 0; i < m.size; ++i) {
            const Value& k = m.keys[i];
            out[k.kind() == Kind::String ? std::string(k.asString()) : toDebugString(k)] = toJson(m.values[i]);
        }
        return out;
    }
    case Kind::Error: return {{"error", std::string(v.asError().message)}};
    }
    return nullptr;
}

} // namespace sb::cel
