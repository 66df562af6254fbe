#pragma once

// CEL runtime values. A Value is 16 trivially copyable bytes: scalars live inside it, strings and bytes are
// views (into a record's storage, a program's constants or an evaluation's arena), lists, maps and errors are
// pointers into an Arena. Nothing is reference counted and nothing is freed one by one: an evaluation's
// arena is reset as a whole before the next record, so the hot path allocates only for values it creates
// (string concatenation, list literals over variables, ...), and then only by bumping a pointer.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sb::cel {

enum class Kind : std::uint8_t {
    Null,
    Bool,
    Int,
    Uint,
    Double,
    String,
    Bytes,
    Timestamp,
    Duration,
    List,
    Map,
    Type,
    Error
};

// The CEL name of the type a kind denotes: "int", "google.protobuf.Timestamp", "null_type", ...
std::string_view kindName(Kind kind);

struct ListData;
struct MapData;
struct ErrorData;

class Value {
public:
    constexpr Value() : m_int(0) {}

    static constexpr Value null() { return {}; }
    static constexpr Value boolean(bool b) { return Value(Kind::Bool, 0, b ? 1 : 0); }
    static constexpr Value integer(std::int64_t i) { return Value(Kind::Int, 0, i); }
    static Value uinteger(std::uint64_t u)
    {
        Value v(Kind::Uint, 0, 0);
        v.m_uint = u;
        return v;
    }
    static Value real(double d)
    {
        Value v(Kind::Double, 0, 0);
        v.m_double = d;
        return v;
    }
    // Views: the bytes must outlive the value. Longer than 4 GiB is cut (callers refuse such input earlier).
    static Value string(std::string_view s) { return view(Kind::String, s); }
    static Value bytes(std::string_view s) { return view(Kind::Bytes, s); }
    // seconds since the Unix epoch and 0..999'999'999 nanoseconds; years 1..9999 (makeTimestamp checks).
    static constexpr Value timestamp(std::int64_t seconds, std::int32_t nanos)
    {
        return Value(Kind::Timestamp, static_cast<std::uint32_t>(nanos), seconds);
    }
    static constexpr Value duration(std::int64_t nanos) { return Value(Kind::Duration, 0, nanos); }
    static Value list(const ListData* data)
    {
        Value v(Kind::List, 0, 0);
        v.m_list = data;
        return v;
    }
    static Value map(const MapData* data)
    {
        Value v(Kind::Map, 0, 0);
        v.m_map = data;
        return v;
    }
    static constexpr Value type(Kind denoted) { return Value(Kind::Type, static_cast<std::uint32_t>(denoted), 0); }
    static Value error(const ErrorData* data)
    {
        Value v(Kind::Error, 0, 0);
        v.m_error = data;
        return v;
    }

    constexpr Kind kind() const { return m_kind; }
    constexpr bool isError() const { return m_kind == Kind::Error; }
    constexpr bool isNull() const { return m_kind == Kind::Null; }
    constexpr bool isBool() const { return m_kind == Kind::Bool; }
    constexpr bool isTrue() const { return m_kind == Kind::Bool && m_int != 0; }
    constexpr bool isFalse() const { return m_kind == Kind::Bool && m_int == 0; }

    constexpr bool asBool() const { return m_int != 0; }
    constexpr std::int64_t asInt() const { return m_int; }
    std::uint64_t asUint() const { return m_uint; }
    double asDouble() const { return m_double; }
    std::string_view asString() const { return {m_chars, m_aux}; } // String and Bytes
    constexpr std::int64_t seconds() const { return m_int; }       // Timestamp
    constexpr std::int32_t nanos() const { return static_cast<std::int32_t>(m_aux); }
    constexpr std::int64_t durationNanos() const { return m_int; }
    const ListData& asList() const { return *m_list; }
    const MapData& asMap() const { return *m_map; }
    constexpr Kind asType() const { return static_cast<Kind>(m_aux); }
    const ErrorData& asError() const { return *m_error; }

private:
    constexpr Value(Kind kind, std::uint32_t aux, std::int64_t i) : m_kind(kind), m_aux(aux), m_int(i) {}
    static Value view(Kind kind, std::string_view s)
    {
        Value v(kind, static_cast<std::uint32_t>(s.size() > 0xffffffffu ? 0xffffffffu : s.size()), 0);
        v.m_chars = s.data();
        return v;
    }

    Kind m_kind = Kind::Null;
    std::uint32_t m_aux = 0; // string length, timestamp nanos, denoted kind of a type value
    union {
        std::int64_t m_int;
        std::uint64_t m_uint;
        double m_double;
        const char* m_chars;
        const ListData* m_list;
        const MapData* m_map;
        const ErrorData* m_error;
    };
};
static_assert(sizeof(Value) == 16, "Value must stay two words: it is copied on every step of an evaluation");

// A hash index over keys (maps) or elements (large constant lists for `in`): open addressing, buckets hold
// 1 + the entry index, 0 is empty. Only built when it pays (more than a few entries).
struct HashIndex {
    const std::uint32_t* buckets = nullptr;
    std::uint32_t mask = 0; // capacity - 1; no index when buckets is null
};

struct ListData {
    const Value* items = nullptr;
    std::uint32_t size = 0;
    HashIndex index;
    std::span<const Value> view() const { return {items, size}; }
};

struct MapData {
    const Value* keys = nullptr;
    const Value* values = nullptr;
    std::uint32_t size = 0;
    HashIndex index;
};

struct ErrorData {
    std::string_view message;
    std::int32_t node = -1; // the AST node that failed (for line:column), -1 when unknown
};

// A bump allocator. Values made during one evaluation live here until reset(); blocks are kept for reuse. Its
// memory is not cleared: what is allocated is written before it is read.
class Arena {
public:
    static constexpr std::size_t kFirstBlock = 16 * 1024;

    Arena() = default;
    // A first block of `firstBlock` bytes: small for an arena that holds a few values (a program's constants,
    // of which a rule set of 40 000 rules has 40 000 arenas).
    explicit Arena(std::size_t firstBlock) : m_firstBlock(firstBlock) {}
    Arena(const Arena&) = delete;
    Arena& operator=(const Arena&) = delete;
    Arena(Arena&&) noexcept = default;
    Arena& operator=(Arena&&) noexcept = default;

    void* allocate(std::size_t bytes, std::size_t align);
    template <typename T> T* allocArray(std::size_t n)
    {
        return static_cast<T*>(allocate(sizeof(T) * (n == 0 ? 1 : n), alignof(T)));
    }
    std::string_view copy(std::string_view s);
    void reset()
    {
        m_block = 0;
        m_offset = 0;
        m_usedBefore = 0;
    }
    // Bytes handed out since the last reset (blocks skipped for lack of room count as used).
    std::size_t bytesUsed() const { return m_usedBefore + m_offset; }

private:
    struct Block {
        std::unique_ptr<std::byte[]> data;
        std::size_t size = 0;
    };
    std::vector<Block> m_blocks;
    std::size_t m_block = 0;      // the block being filled
    std::size_t m_offset = 0;     // within it
    std::size_t m_usedBefore = 0; // sizes of the blocks before m_block
    std::size_t m_firstBlock = kFirstBlock;
};

// Building composite values in an arena.
Value makeError(Arena& arena, std::string_view message, std::int32_t node = -1);
// An error whose message is a string literal (static storage): no copy.
Value makeStaticError(Arena& arena, std::string_view staticMessage, std::int32_t node = -1);
Value makeList(Arena& arena, std::span<const Value> items);
// Refuses keys that are not int, uint, bool or string, and repeated keys (1 and 1u are the same key).
Value makeMap(Arena& arena, std::span<const Value> keys, std::span<const Value> values);
// A list that `in` can answer in constant time (used for constant lists in programs).
Value makeIndexedList(Arena& arena, std::span<const Value> items);
// Checked constructor: years 1..9999 and nanos in range, else an error value.
Value makeTimestamp(Arena& arena, std::int64_t seconds, std::int64_t nanos);

// Equality of two strings' bytes, inlined: rule data is mostly short strings (codes, categories), where a
// call to memcmp costs more than the comparison.
inline bool sameBytes(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    const char* x = a.data();
    const char* y = b.data();
    std::size_t n = a.size();
    if (n > 16)
        return std::char_traits<char>::compare(x, y, n) == 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (x[i] != y[i])
            return false;
    }
    return true;
}

// Heterogeneous equality as the spec defines it: numbers compare by value across int, uint and double;
// values of different kinds are unequal; lists and maps compare element-wise. Never an error.
bool equals(const Value& a, const Value& b);

enum class Order : std::uint8_t { Less, Equal, Greater, Unordered /* NaN */, NoOverload };
// Ordering for <, <=, >, >=: same kinds (bool, string, bytes, timestamp, duration) and numbers across kinds.
Order compare(const Value& a, const Value& b);

// Map lookup with heterogeneous numeric keys (a double key finds an int or uint key of the same value).
const Value* mapFind(const MapData& map, const Value& key);
bool listContains(const ListData& list, const Value& item);

// Text for people: CEL literal syntax (1, 2u, 1.5, "a", b"\xff", [1, 2], {"k": v}, timestamp("..."),
// duration("1.5s"), int, error: message).
std::string toDebugString(const Value& value);
// CEL's string(double) as the reference implementation (Go's %g) writes it: the shortest digits that read
// back the same double, in exponent form when the exponent is below -4 or at least 6 (1e+06).
std::string formatDouble(double d);

} // namespace sb::cel
