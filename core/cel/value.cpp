#include "cel/value.h"

#include "cel/time.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

namespace sb::cel {

std::string_view kindName(Kind kind)
{
    switch (kind) {
    case Kind::Null: return "null_type";
    case Kind::Bool: return "bool";
    case Kind::Int: return "int";
    case Kind::Uint: return "uint";
    case Kind::Double: return "double";
    case Kind::String: return "string";
    case Kind::Bytes: return "bytes";
    case Kind::Timestamp: return "google.protobuf.Timestamp";
    case Kind::Duration: return "google.protobuf.Duration";
    case Kind::List: return "list";
    case Kind::Map: return "map";
    case Kind::Type: return "type";
    case Kind::Error: return "error";
    }
    return "unknown";
}

// ---- Arena ----------------------------------------------------------------------------------------------

void* Arena::allocate(std::size_t bytes, std::size_t align)
{
    while (m_block < m_blocks.size()) {
        Block& b = m_blocks[m_block];
        const std::size_t start = (m_offset + align - 1) & ~(align - 1);
        if (start + bytes <= b.size) {
            m_offset = start + bytes;
            return b.data.get() + start;
        }
        m_usedBefore += b.size;
        ++m_block;
        m_offset = 0;
    }
    // A new block at the end, large enough; the next ones double up to 1 MiB so long runs settle quickly.
    std::size_t size = m_blocks.empty() ? m_firstBlock : std::min<std::size_t>(m_blocks.back().size * 2, 1 << 20);
    size = std::max(size, bytes + align);
    m_blocks.push_back(Block{std::make_unique_for_overwrite<std::byte[]>(size), size});
    m_block = m_blocks.size() - 1;
    const auto base = reinterpret_cast<std::uintptr_t>(m_blocks.back().data.get());
    const std::size_t start = ((base + align - 1) & ~(static_cast<std::uintptr_t>(align) - 1)) - base;
    m_offset = start + bytes;
    return m_blocks.back().data.get() + start;
}

std::string_view Arena::copy(std::string_view s)
{
    if (s.empty())
        return {};
    char* p = static_cast<char*>(allocate(s.size(), 1));
    std::memcpy(p, s.data(), s.size());
    return {p, s.size()};
}

// ---- Hashing keys -----------------------------------------------------------------------------------------

namespace {

constexpr std::uint64_t mix(std::uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

// Equal keys hash alike across kinds: 3, 3u and 3.0 share a hash. Empty when no map key can equal it.
std::optional<std::uint64_t> keyHash(const Value& v)
{
    switch (v.kind()) {
    case Kind::Int: return mix(static_cast<std::uint64_t>(v.asInt()));
    case Kind::Uint: return mix(v.asUint());
    case Kind::Bool: return mix(v.asBool() ? 0x5bd1e995u : 0x27d4eb2fu);
    case Kind::String: return std::hash<std::string_view>{}(v.asString());
    case Kind::Double: {
        const double d = v.asDouble();
        if (d != std::trunc(d)) // also NaN and the infinities fall out below
            return std::nullopt;
        if (d >= -9223372036854775808.0 && d < 9223372036854775808.0)
            return mix(static_cast<std::uint64_t>(static_cast<std::int64_t>(d)));
        if (d >= 0 && d < 18446744073709551616.0)
            return mix(static_cast<std::uint64_t>(d));
        return std::nullopt;
    }
    default: return std::nullopt;
    }
}

bool validKey(const Value& v)
{
    const Kind k = v.kind();
    return k == Kind::Int || k == Kind::Uint || k == Kind::Bool || k == Kind::String;
}

// Builds an index over `items` when every one is hashable; returns false (and no index) otherwise, or when
// two items are equal (`duplicate` then names the second).
bool buildIndex(Arena& arena, std::span<const Value> items, HashIndex& index, std::size_t* duplicate)
{
    std::uint32_t capacity = 16;
    while (capacity < items.size() * 2)
        capacity <<= 1;
    auto* slots = arena.allocArray<std::uint32_t>(capacity);
    std::memset(slots, 0, sizeof(std::uint32_t) * capacity);
    const std::uint32_t mask = capacity - 1;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const auto h = keyHash(items[i]);
        if (!h)
            return false;
        std::uint32_t s = static_cast<std::uint32_t>(*h) & mask;
        while (slots[s] != 0) {
            if (equals(items[slots[s] - 1], items[i])) {
                if (duplicate)
                    *duplicate = i;
                return false;
            }
            s = (s + 1) & mask;
        }
        slots[s] = static_cast<std::uint32_t>(i + 1);
    }
    index.buckets = slots;
    index.mask = mask;
    return true;
}

const Value* indexFind(const HashIndex& index, const Value* items, const Value& key)
{
    const auto h = keyHash(key);
    if (!h)
        return nullptr;
    std::uint32_t s = static_cast<std::uint32_t>(*h) & index.mask;
    while (index.buckets[s] != 0) {
        const Value* candidate = items + (index.buckets[s] - 1);
        if (equals(*candidate, key))
            return candidate;
        s = (s + 1) & index.mask;
    }
    return nullptr;
}

constexpr std::size_t kIndexThreshold = 8;

} // namespace

// ---- Construction -----------------------------------------------------------------------------------------

Value makeError(Arena& arena, std::string_view message, std::int32_t node)
{
    auto* e = arena.allocArray<ErrorData>(1);
    new (e) ErrorData{arena.copy(message), node};
    return Value::error(e);
}

Value makeStaticError(Arena& arena, std::string_view staticMessage, std::int32_t node)
{
    auto* e = arena.allocArray<ErrorData>(1);
    new (e) ErrorData{staticMessage, node};
    return Value::error(e);
}

Value makeList(Arena& arena, std::span<const Value> items)
{
    auto* data = arena.allocArray<ListData>(1);
    auto* copy = arena.allocArray<Value>(items.size());
    std::copy(items.begin(), items.end(), copy);
    new (data) ListData{copy, static_cast<std::uint32_t>(items.size()), {}};
    return Value::list(data);
}

Value makeIndexedList(Arena& arena, std::span<const Value> items)
{
    Value list = makeList(arena, items);
    if (items.size() > kIndexThreshold) {
        auto* data = const_cast<ListData*>(&list.asList());
        HashIndex index;
        std::size_t dup = 0;
        // Repeated items are fine in a list but defeat the index's one-slot-per-value layout: no index then.
        if (buildIndex(arena, data->view(), index, &dup))
            data->index = index;
    }
    return list;
}

Value makeMap(Arena& arena, std::span<const Value> keys, std::span<const Value> values)
{
    for (const Value& k : keys) {
        if (!validKey(k))
            return makeStaticError(arena, "unsupported key type");
    }
    auto* data = arena.allocArray<MapData>(1);
    auto* k = arena.allocArray<Value>(keys.size());
    auto* v = arena.allocArray<Value>(values.size());
    std::copy(keys.begin(), keys.end(), k);
    std::copy(values.begin(), values.end(), v);
    new (data) MapData{k, v, static_cast<std::uint32_t>(keys.size()), {}};
    if (keys.size() > kIndexThreshold) {
        std::size_t dup = keys.size();
        if (!buildIndex(arena, {k, keys.size()}, data->index, &dup))
            return makeError(arena, "Failed with repeated key: " + toDebugString(keys[dup]));
    } else {
        for (std::size_t i = 1; i < keys.size(); ++i) {
            for (std::size_t j = 0; j < i; ++j) {
                if (equals(keys[i], keys[j]))
                    return makeError(arena, "Failed with repeated key: " + toDebugString(keys[i]));
            }
        }
    }
    return Value::map(data);
}

Value makeTimestamp(Arena& arena, std::int64_t seconds, std::int64_t nanos)
{
    if (nanos < 0 || nanos > 999'999'999) {
        seconds += nanos / 1'000'000'000;
        nanos %= 1'000'000'000;
        if (nanos < 0) {
            nanos += 1'000'000'000;
            --seconds;
        }
    }
    if (seconds < kMinTimestampSeconds || seconds > kMaxTimestampSeconds)
        return makeStaticError(arena, "timestamp out of range (years 1 to 9999)");
    return Value::timestamp(seconds, static_cast<std::int32_t>(nanos));
}

// ---- Equality and order -----------------------------------------------------------------------------------

namespace {

bool isNumber(Kind k)
{
    return k == Kind::Int || k == Kind::Uint || k == Kind::Double;
}

template <typename T> Order orderOf(T a, T b)
{
    return a < b ? Order::Less : (b < a ? Order::Greater : Order::Equal);
}

Order orderDouble(double a, double b)
{
    if (std::isnan(a) || std::isnan(b))
        return Order::Unordered;
    return orderOf(a, b);
}

Order compareNumbers(const Value& a, const Value& b)
{
    switch (a.kind()) {
    case Kind::Int:
        switch (b.kind()) {
        case Kind::Int: return orderOf(a.asInt(), b.asInt());
        case Kind::Uint:
            if (a.asInt() < 0)
                return Order::Less;
            return orderOf(static_cast<std::uint64_t>(a.asInt()), b.asUint());
        default: return orderDouble(static_cast<double>(a.asInt()), b.asDouble());
        }
    case Kind::Uint:
        switch (b.kind()) {
        case Kind::Int:
            if (b.asInt() < 0)
                return Order::Greater;
            return orderOf(a.asUint(), static_cast<std::uint64_t>(b.asInt()));
        case Kind::Uint: return orderOf(a.asUint(), b.asUint());
        default: return orderDouble(static_cast<double>(a.asUint()), b.asDouble());
        }
    default:
        switch (b.kind()) {
        case Kind::Int: return orderDouble(a.asDouble(), static_cast<double>(b.asInt()));
        case Kind::Uint: return orderDouble(a.asDouble(), static_cast<double>(b.asUint()));
        default: return orderDouble(a.asDouble(), b.asDouble());
        }
    }
}

} // namespace

bool equals(const Value& a, const Value& b)
{
    if (a.kind() != b.kind()) {
        if (isNumber(a.kind()) && isNumber(b.kind()))
            return compareNumbers(a, b) == Order::Equal;
        return false;
    }
    switch (a.kind()) {
    case Kind::Null: return true;
    case Kind::Bool:
    case Kind::Int:
    case Kind::Duration: return a.asInt() == b.asInt();
    case Kind::Uint: return a.asUint() == b.asUint();
    case Kind::Double: return a.asDouble() == b.asDouble();
    case Kind::String:
    case Kind::Bytes: return sameBytes(a.asString(), b.asString());
    case Kind::Timestamp: return a.seconds() == b.seconds() && a.nanos() == b.nanos();
    case Kind::Type: return a.asType() == b.asType();
    case Kind::List: {
        const ListData& x = a.asList();
        const ListData& y = b.asList();
        if (x.size != y.size)
            return false;
        for (std::uint32_t i = 0; i < x.size; ++i) {
            if (!equals(x.items[i], y.items[i]))
                return false;
        }
        return true;
    }
    case Kind::Map: {
        const MapData& x = a.asMap();
        const MapData& y = b.asMap();
        if (x.size != y.size)
            return false;
        for (std::uint32_t i = 0; i < x.size; ++i) {
            const Value* other = mapFind(y, x.keys[i]);
            if (!other || !equals(x.values[i], *other))
                return false;
        }
        return true;
    }
    case Kind::Error: return false;
    }
    return false;
}

Order compare(const Value& a, const Value& b)
{
    if (isNumber(a.kind()) && isNumber(b.kind()))
        return compareNumbers(a, b);
    if (a.kind() != b.kind())
        return Order::NoOverload;
    switch (a.kind()) {
    case Kind::Bool:
    case Kind::Duration: return orderOf(a.asInt(), b.asInt());
    case Kind::String:
    case Kind::Bytes: {
        // Byte order of UTF-8 is code point order, which is what CEL asks for strings.
        const int c = a.asString().compare(b.asString());
        return c < 0 ? Order::Less : (c > 0 ? Order::Greater : Order::Equal);
    }
    case Kind::Timestamp: {
        const Order o = orderOf(a.seconds(), b.seconds());
        return o != Order::Equal ? o : orderOf(a.nanos(), b.nanos());
    }
    default: return Order::NoOverload;
    }
}

const Value* mapFind(const MapData& map, const Value& key)
{
    if (map.index.buckets)
        return [&]() -> const Value* {
            const Value* k = indexFind(map.index, map.keys, key);
            return k ? map.values + (k - map.keys) : nullptr;
        }();
    for (std::uint32_t i = 0; i < map.size; ++i) {
        if (equals(map.keys[i], key))
            return map.values + i;
    }
    return nullptr;
}

bool listContains(const ListData& list, const Value& item)
{
    if (list.index.buckets) {
        // Only hashable items were indexed; anything else (a list, a NaN, ...) cannot be among them.
        return indexFind(list.index, list.items, item) != nullptr;
    }
    if (item.kind() == Kind::String) {
        // The common case in rules (country in ['US', 'CA', ...]), without the generic dispatch.
        const std::string_view s = item.asString();
        for (std::uint32_t i = 0; i < list.size; ++i) {
            if (list.items[i].kind() == Kind::String && sameBytes(list.items[i].asString(), s))
                return true;
        }
        return false;
    }
    for (std::uint32_t i = 0; i < list.size; ++i) {
        if (equals(list.items[i], item))
            return true;
    }
    return false;
}

// ---- Text -------------------------------------------------------------------------------------------------

std::string formatDouble(double d)
{
    if (std::isnan(d))
        return "NaN";
    if (std::isinf(d))
        return d > 0 ? "+Inf" : "-Inf";
    if (d == 0)
        return std::signbit(d) ? "-0" : "0";
    // Shortest digits in scientific form, then laid out the way Go's %g does.
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
    std::string sci(buf, res.ptr);
    const bool negative = sci[0] == '-';
    if (negative)
        sci.erase(0, 1);
    const std::size_t e = sci.find('e');
    std::string digits = sci.substr(0, e);
    digits.erase(std::remove(digits.begin(), digits.end(), '.'), digits.end());
    const int exp = std::stoi(sci.substr(e + 1));
    std::string out = negative ? "-" : "";
    if (exp < -4 || exp >= 6) {
        out += digits[0];
        if (digits.size() > 1) {
            out += '.';
            out += digits.substr(1);
        }
        out += 'e';
        out += exp < 0 ? '-' : '+';
        const int a = exp < 0 ? -exp : exp;
        if (a < 10)
            out += '0';
        out += std::to_string(a);
        return out;
    }
    if (exp < 0) {
        out += "0.";
        out.append(static_cast<std::size_t>(-exp - 1), '0');
        out += digits;
        return out;
    }
    const auto intDigits = static_cast<std::size_t>(exp + 1);
    if (digits.size() <= intDigits) {
        out += digits;
        out.append(intDigits - digits.size(), '0');
    } else {
        out += digits.substr(0, intDigits);
        out += '.';
        out += digits.substr(intDigits);
    }
    return out;
}

namespace {

void appendQuoted(std::string& out, std::string_view s, bool bytes)
{
    out += bytes ? "b\"" : "\"";
    for (unsigned char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20 || c == 0x7f || (bytes && c >= 0x80)) {
                static const char* hex = "0123456789abcdef";
                out += "\\x";
                out += hex[c >> 4];
                out += hex[c & 15];
            } else {
                out += static_cast<char>(c);
            }
        }
    }
    out += '"';
}

void appendDebug(std::string& out, const Value& v)
{
    switch (v.kind()) {
    case Kind::Null: out += "null"; break;
    case Kind::Bool: out += v.asBool() ? "true" : "false"; break;
    case Kind::Int: out += std::to_string(v.asInt()); break;
    case Kind::Uint:
        out += std::to_string(v.asUint());
        out += 'u';
        break;
    case Kind::Double: {
        std::string d = formatDouble(v.asDouble());
        // Keep doubles recognisable as doubles: 1.0, not 1.
        if (d.find_first_of(".eIN") == std::string::npos)
            d += ".0";
        out += d;
        break;
    }
    case Kind::String: appendQuoted(out, v.asString(), false); break;
    case Kind::Bytes: appendQuoted(out, v.asString(), true); break;
    case Kind::Timestamp:
        out += "timestamp(\"";
        out += formatTimestamp(v.seconds(), v.nanos());
        out += "\")";
        break;
    case Kind::Duration:
        out += "duration(\"";
        out += formatDuration(v.durationNanos());
        out += "\")";
        break;
    case Kind::List: {
        out += '[';
        const ListData& l = v.asList();
        for (std::uint32_t i = 0; i < l.size; ++i) {
            if (i)
                out += ", ";
            appendDebug(out, l.items[i]);
        }
        out += ']';
        break;
    }
    case Kind::Map: {
        out += '{';
        const MapData& m = v.asMap();
        for (std::uint32_t i = 0; i < m.size; ++i) {
            if (i)
                out += ", ";
            appendDebug(out, m.keys[i]);
            out += ": ";
            appendDebug(out, m.values[i]);
        }
        out += '}';
        break;
    }
    case Kind::Type: out += kindName(v.asType()); break;
    case Kind::Error:
        out += "error: ";
        out += v.asError().message;
        break;
    }
}

} // namespace

std::string toDebugString(const Value& value)
{
    std::string out;
    appendDebug(out, value);
    return out;
}

} // namespace sb::cel
