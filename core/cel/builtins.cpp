// The standard functions on runtime values. Every function first dispatches on the kinds of its
// arguments: values arrive untyped (dyn), and a combination no overload accepts is the error "no such
// overload", as the spec's dynamic dispatch has it. Arithmetic that overflows, division by zero and
// conversions out of range are errors too, never undefined behaviour.

#include "int128.h"
#include "program_impl.h"
#include "cel/time.h"
#include "cel/utf8.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <unordered_map>

namespace sb::cel {

namespace {

constexpr std::string_view kNoOverload = "no such overload";

Value noOverload(Arena& arena, std::int32_t node)
{
    return makeStaticError(arena, kNoOverload, node);
}

Value err(Arena& arena, std::string_view staticMessage, std::int32_t node)
{
    return makeStaticError(arena, staticMessage, node);
}

Value concat(Arena& arena, std::string_view a, std::string_view b, bool bytes, std::int32_t node)
{
    if (a.size() + b.size() > 0xffffffffu)
        return err(arena, "string too long", node);
    char* p = static_cast<char*>(arena.allocate(a.size() + b.size() + 1, 1));
    if (!a.empty())
        std::memcpy(p, a.data(), a.size());
    if (!b.empty())
        std::memcpy(p + a.size(), b.data(), b.size());
    const std::string_view s(p, a.size() + b.size());
    return bytes ? Value::bytes(s) : Value::string(s);
}

Value concatLists(Arena& arena, const ListData& a, const ListData& b)
{
    if (a.size == 0)
        return Value::list(&b);
    if (b.size == 0)
        return Value::list(&a);
    auto* items = arena.allocArray<Value>(std::size_t{a.size} + b.size);
    std::copy(a.items, a.items + a.size, items);
    std::copy(b.items, b.items + b.size, items + a.size);
    auto* data = arena.allocArray<ListData>(1);
    new (data) ListData{items, a.size + b.size, {}};
    return Value::list(data);
}

// timestamp + nanos, checked against the timestamp range.
Value addToTimestamp(Arena& arena, const Value& ts, std::int64_t nanos, std::int32_t node)
{
    const Int128 total = static_cast<Int128>(ts.seconds()) * 1'000'000'000 + ts.nanos() + nanos;
    Int128 secs = total / 1'000'000'000;
    Int128 ns = total % 1'000'000'000;
    if (ns < 0) {
        ns += 1'000'000'000;
        --secs;
    }
    if (secs < kMinTimestampSeconds || secs > kMaxTimestampSeconds)
        return err(arena, "timestamp out of range", node);
    return Value::timestamp(static_cast<std::int64_t>(secs), static_cast<std::int32_t>(ns));
}

Value toInt(Arena& arena, const Value& v, std::int32_t node)
{
    switch (v.kind()) {
    case Kind::Int: return v;
    case Kind::Uint:
        if (v.asUint() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
            return err(arena, "int() range error: value too large", node);
        return Value::integer(static_cast<std::int64_t>(v.asUint()));
    case Kind::Double: {
        const double d = v.asDouble();
        // Strictly inside (-2^63, 2^63): the bounds themselves round-trip badly, as the spec's tests insist.
        if (!(d > -9223372036854775808.0 && d < 9223372036854775808.0))
            return err(arena, "int() range error: double out of range", node);
        return Value::integer(static_cast<std::int64_t>(d));
    }
    case Kind::String: {
        std::string_view s = v.asString();
        if (!s.empty() && s[0] == '+')
            s.remove_prefix(1);
        std::int64_t out = 0;
        const auto res = std::from_chars(s.data(), s.data() + s.size(), out);
        if (s.empty() || res.ec != std::errc() || res.ptr != s.data() + s.size())
            return err(arena, "int() cannot convert this string", node);
        return Value::integer(out);
    }
    case Kind::Timestamp: return Value::integer(v.seconds());
    default: return noOverload(arena, node);
    }
}

Value toUint(Arena& arena, const Value& v, std::int32_t node)
{
    switch (v.kind()) {
    case Kind::Uint: return v;
    case Kind::Int:
        if (v.asInt() < 0)
            return err(arena, "uint() range error: negative value", node);
        return Value::uinteger(static_cast<std::uint64_t>(v.asInt()));
    case Kind::Double: {
        const double d = v.asDouble();
        if (!(d >= 0 && d < 18446744073709551616.0))
            return err(arena, "uint() range error: double out of range", node);
        return Value::uinteger(static_cast<std::uint64_t>(d));
    }
    case Kind::String: {
        std::string_view s = v.asString();
        if (!s.empty() && s[0] == '+')
            s.remove_prefix(1);
        std::uint64_t out = 0;
        const auto res = std::from_chars(s.data(), s.data() + s.size(), out);
        if (s.empty() || res.ec != std::errc() || res.ptr != s.data() + s.size())
            return err(arena, "uint() cannot convert this string", node);
        return Value::uinteger(out);
    }
    default: return noOverload(arena, node);
    }
}

Value toDouble(Arena& arena, const Value& v, std::int32_t node)
{
    switch (v.kind()) {
    case Kind::Double: return v;
    case Kind::Int: return Value::real(static_cast<double>(v.asInt()));
    case Kind::Uint: return Value::real(static_cast<double>(v.asUint()));
    case Kind::String: {
        std::string_view s = v.asString();
        if (!s.empty() && s[0] == '+')
            s.remove_prefix(1);
        // Spellings of the special values as the reference accepts them.
        std::string_view rest = s;
        const bool neg = !rest.empty() && rest[0] == '-';
        if (neg)
            rest.remove_prefix(1);
        auto iequals = [](std::string_view a, std::string_view b) {
            return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
                       return std::tolower(static_cast<unsigned char>(x))
                              == std::tolower(static_cast<unsigned char>(y));
                   });
        };
        if (iequals(rest, "inf") || iequals(rest, "infinity"))
            return Value::real(neg ? -HUGE_VAL : HUGE_VAL);
        if (iequals(rest, "nan"))
            return Value::real(std::nan(""));
        double out = 0;
        const auto res = std::from_chars(s.data(), s.data() + s.size(), out);
        if (s.empty() || (res.ec != std::errc() && res.ec != std::errc::result_out_of_range)
            || res.ptr != s.data() + s.size())
            return err(arena, "double() cannot convert this string", node);
        if (res.ec == std::errc::result_out_of_range) {
            // from_chars leaves `out` alone then. Too small rounds to zero; too large is an error, as in the
            // reference implementation (not infinity: '1e999' is more likely a mistake than a wish).
            const std::size_t e = s.find_first_of("eE");
            if (e == std::string_view::npos || s.substr(e + 1).starts_with('-'))
                return Value::real(neg ? -0.0 : 0.0);
            return err(arena, "double() range error: the number is too large", node);
        }
        return Value::real(out);
    }
    default: return noOverload(arena, node);
    }
}

Value ownedString(Arena& arena, const std::string& s)
{
    return Value::string(arena.copy(s));
}

Value toString(Arena& arena, const Value& v, std::int32_t node)
{
    switch (v.kind()) {
    case Kind::String: return v;
    case Kind::Int: return ownedString(arena, std::to_string(v.asInt()));
    case Kind::Uint: return ownedString(arena, std::to_string(v.asUint()));
    case Kind::Double: return ownedString(arena, formatDouble(v.asDouble()));
    case Kind::Bool: return Value::string(v.asBool() ? "true" : "false");
    case Kind::Bytes:
        if (!isValidUtf8(v.asString()))
            return err(arena, "string() of bytes that are not valid UTF-8", node);
        return Value::string(v.asString());
    case Kind::Timestamp: return ownedString(arena, formatTimestamp(v.seconds(), v.nanos()));
    case Kind::Duration: return ownedString(arena, formatDuration(v.durationNanos()));
    default: return noOverload(arena, node);
    }
}

Value toBool(Arena& arena, const Value& v, std::int32_t node)
{
    if (v.kind() == Kind::Bool)
        return v;
    if (v.kind() != Kind::String)
        return noOverload(arena, node);
    const std::string_view s = v.asString();
    if (s == "1" || s == "t" || s == "true" || s == "TRUE" || s == "True")
        return Value::boolean(true);
    if (s == "0" || s == "f" || s == "false" || s == "FALSE" || s == "False")
        return Value::boolean(false);
    return err(arena, "bool() cannot convert this string", node);
}

Value toTimestamp(Arena& arena, const Value& v, std::int32_t node)
{
    switch (v.kind()) {
    case Kind::Timestamp: return v;
    case Kind::String: {
        const auto ts = parseTimestamp(v.asString());
        if (!ts)
            return err(arena, "timestamp() needs RFC 3339 text within years 1 to 9999 (range or syntax error)", node);
        return Value::timestamp(ts->seconds, ts->nanos);
    }
    case Kind::Int:
        if (v.asInt() < kMinTimestampSeconds || v.asInt() > kMaxTimestampSeconds)
            return err(arena, "timestamp() range error", node);
        return Value::timestamp(v.asInt(), 0);
    default: return noOverload(arena, node);
    }
}

Value toDuration(Arena& arena, const Value& v, std::int32_t node)
{
    switch (v.kind()) {
    case Kind::Duration: return v;
    case Kind::String: {
        DurationError e = DurationError::None;
        const auto d = parseDuration(v.asString(), &e);
        if (!d)
            return err(arena,
                       e == DurationError::Range ? "duration() range error" : "duration() cannot parse this text",
                       node);
        return Value::duration(*d);
    }
    default: return noOverload(arena, node);
    }
}

Value timestampPart(Fn fn, std::span<const Value> args, Arena& arena, std::int32_t node)
{
    const Value& ts = args[0];
    std::int64_t local = ts.seconds();
    if (args.size() == 2) {
        if (args[1].kind() != Kind::String)
            return noOverload(arena, node);
        const auto offset = utcOffset(args[1].asString(), ts.seconds());
        if (!offset)
            return makeError(arena, unknownZoneMessage(args[1].asString(), offset.error()), node);
        local += *offset;
    }
    // Time of day needs no calendar: the common accessors in rules skip the date arithmetic.
    const std::int64_t ofDay = ((local % 86400) + 86400) % 86400;
    switch (fn) {
    case Fn::GetHours: return Value::integer(ofDay / 3600);
    case Fn::GetMinutes: return Value::integer(ofDay / 60 % 60);
    case Fn::GetSeconds: return Value::integer(ofDay % 60);
    case Fn::GetMilliseconds: return Value::integer(ts.nanos() / 1'000'000);
    default: break;
    }
    const CivilTime c = civilFromSeconds(local);
    switch (fn) {
    case Fn::GetFullYear: return Value::integer(c.year);
    case Fn::GetMonth: return Value::integer(c.month - 1);
    case Fn::GetDate: return Value::integer(c.day);
    case Fn::GetDayOfMonth: return Value::integer(c.day - 1);
    case Fn::GetDayOfWeek: return Value::integer(c.dayOfWeek);
    case Fn::GetDayOfYear: return Value::integer(c.dayOfYear);
    case Fn::GetHours: return Value::integer(c.hour);
    case Fn::GetMinutes: return Value::integer(c.minute);
    case Fn::GetSeconds: return Value::integer(c.second);
    case Fn::GetMilliseconds: return Value::integer(ts.nanos() / 1'000'000);
    default: return noOverload(arena, node);
    }
}

Value durationPart(Fn fn, const Value& d, Arena& arena, std::int32_t node)
{
    const std::int64_t ns = d.durationNanos();
    switch (fn) {
    case Fn::GetHours: return Value::integer(ns / 3'600'000'000'000LL);
    case Fn::GetMinutes: return Value::integer(ns / 60'000'000'000LL);
    case Fn::GetSeconds: return Value::integer(ns / 1'000'000'000LL);
    case Fn::GetMilliseconds: return Value::integer(ns % 1'000'000'000LL / 1'000'000LL);
    default: return noOverload(arena, node);
    }
}

Value mapAscii(Arena& arena, std::string_view s, int (*f)(int))
{
    char* p = static_cast<char*>(arena.allocate(s.size() + 1, 1));
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        p[i] = c < 0x80 ? static_cast<char>(f(c)) : static_cast<char>(c);
    }
    return Value::string({p, s.size()});
}

bool isSpace(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

// The sum: numbers of one kind (overflow is an error), strings, bytes and lists joined, a duration added to
// a timestamp or to a duration.
Value add(const Value& a, const Value& b, Arena& arena, std::int32_t node)
{
    if (a.kind() != b.kind()) {
        if (a.kind() == Kind::Timestamp && b.kind() == Kind::Duration)
            return addToTimestamp(arena, a, b.durationNanos(), node);
        if (a.kind() == Kind::Duration && b.kind() == Kind::Timestamp)
            return addToTimestamp(arena, b, a.durationNanos(), node);
        return noOverload(arena, node);
    }
    switch (a.kind()) {
    case Kind::Int: {
        std::int64_t r = 0;
        if (__builtin_add_overflow(a.asInt(), b.asInt(), &r))
            return err(arena, "integer overflow", node);
        return Value::integer(r);
    }
    case Kind::Uint: {
        std::uint64_t r = 0;
        if (__builtin_add_overflow(a.asUint(), b.asUint(), &r))
            return err(arena, "unsigned integer overflow", node);
        return Value::uinteger(r);
    }
    case Kind::Double: return Value::real(a.asDouble() + b.asDouble());
    case Kind::String: return concat(arena, a.asString(), b.asString(), false, node);
    case Kind::Bytes: return concat(arena, a.asString(), b.asString(), true, node);
    case Kind::List: return concatLists(arena, a.asList(), b.asList());
    case Kind::Duration: {
        std::int64_t r = 0;
        if (__builtin_add_overflow(a.durationNanos(), b.durationNanos(), &r))
            return err(arena, "duration out of range", node);
        return Value::duration(r);
    }
    default: return noOverload(arena, node);
    }
}

// The difference: numbers of one kind, durations, two timestamps (a duration), a duration taken from a timestamp.
Value subtract(const Value& a, const Value& b, Arena& arena, std::int32_t node)
{
    if (a.kind() == Kind::Timestamp && b.kind() == Kind::Duration) {
        if (b.durationNanos() == std::numeric_limits<std::int64_t>::min())
            return err(arena, "timestamp out of range", node);
        return addToTimestamp(arena, a, -b.durationNanos(), node);
    }
    if (a.kind() != b.kind())
        return noOverload(arena, node);
    switch (a.kind()) {
    case Kind::Int: {
        std::int64_t r = 0;
        if (__builtin_sub_overflow(a.asInt(), b.asInt(), &r))
            return err(arena, "integer overflow", node);
        return Value::integer(r);
    }
    case Kind::Uint: {
        std::uint64_t r = 0;
        if (__builtin_sub_overflow(a.asUint(), b.asUint(), &r))
            return err(arena, "unsigned integer overflow", node);
        return Value::uinteger(r);
    }
    case Kind::Double: return Value::real(a.asDouble() - b.asDouble());
    case Kind::Duration: {
        std::int64_t r = 0;
        if (__builtin_sub_overflow(a.durationNanos(), b.durationNanos(), &r))
            return err(arena, "duration out of range", node);
        return Value::duration(r);
    }
    case Kind::Timestamp: {
        const Int128 d = (static_cast<Int128>(a.seconds()) - b.seconds()) * 1'000'000'000 + a.nanos() - b.nanos();
        if (d > std::numeric_limits<std::int64_t>::max() || d < std::numeric_limits<std::int64_t>::min())
            return err(arena, "duration out of range", node);
        return Value::duration(static_cast<std::int64_t>(d));
    }
    default: return noOverload(arena, node);
    }
}

// The product of two numbers of one kind.
Value multiply(const Value& a, const Value& b, Arena& arena, std::int32_t node)
{
    if (a.kind() != b.kind())
        return noOverload(arena, node);
    switch (a.kind()) {
    case Kind::Int: {
        std::int64_t r = 0;
        if (__builtin_mul_overflow(a.asInt(), b.asInt(), &r))
            return err(arena, "integer overflow", node);
        return Value::integer(r);
    }
    case Kind::Uint: {
        std::uint64_t r = 0;
        if (__builtin_mul_overflow(a.asUint(), b.asUint(), &r))
            return err(arena, "unsigned integer overflow", node);
        return Value::uinteger(r);
    }
    case Kind::Double: return Value::real(a.asDouble() * b.asDouble());
    default: return noOverload(arena, node);
    }
}

// The quotient of two numbers of one kind; integers by zero are an error.
Value divide(const Value& a, const Value& b, Arena& arena, std::int32_t node)
{
    if (a.kind() != b.kind())
        return noOverload(arena, node);
    switch (a.kind()) {
    case Kind::Int:
        if (b.asInt() == 0)
            return err(arena, "division by zero", node);
        if (b.asInt() == -1 && a.asInt() == std::numeric_limits<std::int64_t>::min())
            return err(arena, "integer overflow", node);
        return Value::integer(a.asInt() / b.asInt());
    case Kind::Uint:
        if (b.asUint() == 0)
            return err(arena, "division by zero", node);
        return Value::uinteger(a.asUint() / b.asUint());
    case Kind::Double: return Value::real(a.asDouble() / b.asDouble());
    default: return noOverload(arena, node);
    }
}

// The remainder of two integers of one kind; by zero is an error.
Value modulo(const Value& a, const Value& b, Arena& arena, std::int32_t node)
{
    if (a.kind() != b.kind())
        return noOverload(arena, node);
    switch (a.kind()) {
    case Kind::Int:
        if (b.asInt() == 0)
            return err(arena, "modulus by zero", node);
        if (b.asInt() == -1 && a.asInt() == std::numeric_limits<std::int64_t>::min())
            return err(arena, "integer overflow", node);
        return Value::integer(a.asInt() % b.asInt());
    case Kind::Uint:
        if (b.asUint() == 0)
            return err(arena, "modulus by zero", node);
        return Value::uinteger(a.asUint() % b.asUint());
    default: return noOverload(arena, node);
    }
}

// The element of a list at an index (an int, a uint or a whole double), or the value of a map at a key.
Value elementAt(const Value& a, const Value& i, Arena& arena, std::int32_t node)
{
    if (a.kind() == Kind::List) {
        const ListData& l = a.asList();
        std::int64_t index = 0;
        switch (i.kind()) {
        case Kind::Int: index = i.asInt(); break;
        case Kind::Uint:
            index = i.asUint() > l.size ? static_cast<std::int64_t>(l.size) : static_cast<std::int64_t>(i.asUint());
            break;
        case Kind::Double: {
            const double d = i.asDouble();
            if (d != std::trunc(d) || !(d > -1e18 && d < 1e18))
                return err(arena, "invalid_argument: list index is not an integer", node);
            index = static_cast<std::int64_t>(d);
            break;
        }
        default: return err(arena, "invalid_argument: list index of the wrong type", node);
        }
        if (index < 0 || index >= static_cast<std::int64_t>(l.size))
            return makeError(arena, "invalid_argument: index out of range: " + std::to_string(index), node);
        return l.items[index];
    }
    if (a.kind() == Kind::Map) {
        if (const Value* v = mapFind(a.asMap(), i))
            return *v;
        return makeError(arena, "no such key: " + toDebugString(i), node);
    }
    return noOverload(arena, node);
}

} // namespace

Value callFunction(Fn fn, std::span<const Value> args, Arena& arena, std::int32_t node, EvalContext* ctx)
{
    const Value& a = args[0];
    switch (fn) {
    case Fn::Add: return add(a, args[1], arena, node);
    case Fn::Sub: return subtract(a, args[1], arena, node);
    case Fn::Mul: return multiply(a, args[1], arena, node);
    case Fn::Div: return divide(a, args[1], arena, node);
    case Fn::Mod: return modulo(a, args[1], arena, node);
    case Fn::Neg:
        if (a.kind() == Kind::Int) {
            if (a.asInt() == std::numeric_limits<std::int64_t>::min())
                return err(arena, "integer overflow", node);
            return Value::integer(-a.asInt());
        }
        if (a.kind() == Kind::Double)
            return Value::real(-a.asDouble());
        return noOverload(arena, node);
    case Fn::Not:
        if (a.kind() == Kind::Bool)
            return Value::boolean(!a.asBool());
        return noOverload(arena, node);
    case Fn::Eq: return Value::boolean(equals(a, args[1]));
    case Fn::Ne: return Value::boolean(!equals(a, args[1]));
    case Fn::Lt:
    case Fn::Le:
    case Fn::Gt:
    case Fn::Ge: {
        const Order o = compare(a, args[1]);
        switch (o) {
        case Order::NoOverload: return noOverload(arena, node);
        case Order::Unordered: return Value::boolean(false);
        case Order::Less: return Value::boolean(fn == Fn::Lt || fn == Fn::Le);
        case Order::Equal: return Value::boolean(fn == Fn::Le || fn == Fn::Ge);
        case Order::Greater: return Value::boolean(fn == Fn::Gt || fn == Fn::Ge);
        }
        return noOverload(arena, node);
    }
    case Fn::In: {
        const Value& c = args[1];
        if (c.kind() == Kind::List)
            return Value::boolean(listContains(c.asList(), a));
        if (c.kind() == Kind::Map)
            return Value::boolean(mapFind(c.asMap(), a) != nullptr);
        return noOverload(arena, node);
    }
    case Fn::Index: return elementAt(a, args[1], arena, node);
    case Fn::Size:
        switch (a.kind()) {
        case Kind::String: return Value::integer(static_cast<std::int64_t>(codePoints(a.asString())));
        case Kind::Bytes: return Value::integer(static_cast<std::int64_t>(a.asString().size()));
        case Kind::List: return Value::integer(a.asList().size);
        case Kind::Map: return Value::integer(a.asMap().size);
        default: return noOverload(arena, node);
        }
    case Fn::Contains:
    case Fn::StartsWith:
    case Fn::EndsWith:
    case Fn::Matches: {
        if (args.size() != 2 || a.kind() != Kind::String || args[1].kind() != Kind::String)
            return noOverload(arena, node);
        const std::string_view s = a.asString(), t = args[1].asString();
        if (fn == Fn::Contains)
            return Value::boolean(s.find(t) != std::string_view::npos);
        if (fn == Fn::StartsWith)
            return Value::boolean(s.starts_with(t));
        if (fn == Fn::EndsWith)
            return Value::boolean(s.ends_with(t));
        const RE2* re = ctx ? contextRegex(*ctx, t) : nullptr;
        if (!re) {
            // Without a context (constant folding) the pattern is compiled on the spot.
            RE2::Options o;
            o.set_log_errors(false);
            RE2 local(re2::StringPiece(t.data(), t.size()), o);
            if (!local.ok())
                return makeError(arena, "invalid regular expression: " + local.error(), node);
            return Value::boolean(RE2::PartialMatch(re2::StringPiece(s.data(), s.size()), local));
        }
        if (!re->ok())
            return makeError(arena, "invalid regular expression: " + re->error(), node);
        return Value::boolean(RE2::PartialMatch(re2::StringPiece(s.data(), s.size()), *re));
    }
    case Fn::ToInt: return toInt(arena, a, node);
    case Fn::ToUint: return toUint(arena, a, node);
    case Fn::ToDouble: return toDouble(arena, a, node);
    case Fn::ToString: return toString(arena, a, node);
    case Fn::ToBytes:
        if (a.kind() == Kind::Bytes || a.kind() == Kind::String)
            return Value::bytes(a.asString());
        return noOverload(arena, node);
    case Fn::ToBool: return toBool(arena, a, node);
    case Fn::ToTimestamp: return toTimestamp(arena, a, node);
    case Fn::ToDuration: return toDuration(arena, a, node);
    case Fn::ToDyn: return a;
    case Fn::TypeOf: return Value::type(a.kind());
    case Fn::GetFullYear:
    case Fn::GetMonth:
    case Fn::GetDate:
    case Fn::GetDayOfMonth:
    case Fn::GetDayOfWeek:
    case Fn::GetDayOfYear:
    case Fn::GetHours:
    case Fn::GetMinutes:
    case Fn::GetSeconds:
    case Fn::GetMilliseconds:
        if (a.kind() == Kind::Timestamp)
            return timestampPart(fn, args, arena, node);
        if (a.kind() == Kind::Duration && args.size() == 1)
            return durationPart(fn, a, arena, node);
        return noOverload(arena, node);
    case Fn::LowerAscii:
        if (a.kind() != Kind::String)
            return noOverload(arena, node);
        return mapAscii(arena, a.asString(), [](int c) { return (c >= 'A' && c <= 'Z') ? c + 32 : c; });
    case Fn::UpperAscii:
        if (a.kind() != Kind::String)
            return noOverload(arena, node);
        return mapAscii(arena, a.asString(), [](int c) { return (c >= 'a' && c <= 'z') ? c - 32 : c; });
    case Fn::Trim: {
        if (a.kind() != Kind::String)
            return noOverload(arena, node);
        std::string_view s = a.asString();
        while (!s.empty() && isSpace(static_cast<unsigned char>(s.front())))
            s.remove_prefix(1);
        while (!s.empty() && isSpace(static_cast<unsigned char>(s.back())))
            s.remove_suffix(1);
        return Value::string(s);
    }
    case Fn::And:
    case Fn::Or:
    case Fn::Cond:
    case Fn::Unknown: break;
    }
    return noOverload(arena, node);
}

// ---- Regular expressions of a context ---------------------------------------------------------------------

struct EvalContext::RegexCache {
    std::unordered_map<std::string, std::unique_ptr<RE2>> patterns;
    std::unordered_map<std::uint64_t, std::unique_ptr<RE2>> copies; // (program id << 20) | regex index
};

EvalContext::EvalContext(const EvalLimits& limits) : m_limits(limits), m_regexes(std::make_unique<RegexCache>()) {}
EvalContext::EvalContext() : EvalContext(EvalLimits{}) {}
EvalContext::~EvalContext() = default;

const RE2* contextRegex(EvalContext& ctx, std::string_view pattern)
{
    auto& cache = ctx.m_regexes->patterns;
    if (auto it = cache.find(std::string(pattern)); it != cache.end())
        return it->second.get();
    // Patterns from data can be many: keep the cache bounded rather than clever.
    if (cache.size() >= 256)
        cache.clear();
    RE2::Options o;
    o.set_log_errors(false);
    auto re = std::make_unique<RE2>(re2::StringPiece(pattern.data(), pattern.size()), o);
    const RE2* out = re.get();
    cache.emplace(std::string(pattern), std::move(re));
    return out;
}

const RE2* contextRegexCopy(EvalContext& ctx, std::uint64_t programId, std::uint32_t index, const RE2& shared)
{
    auto& copies = ctx.m_regexes->copies;
    const std::uint64_t key = (programId << 20) | (index & 0xfffff);
    if (auto it = copies.find(key); it != copies.end())
        return it->second.get();
    // A context may see many programs over its life (an editor recompiles as people type): bounded.
    if (copies.size() >= 1024)
        copies.clear();
    auto copy = std::make_unique<RE2>(shared.pattern(), shared.options());
    const RE2* out = copy.get();
    copies.emplace(key, std::move(copy));
    return out;
}

} // namespace sb::cel
