// The batch evaluator (batch.h): a plan of typed sub-expressions built from a compiled program's
// instructions, each evaluated as one loop over a batch of rows. A deferred row of a bool node is the byte
// kBatchDefer; of any other node the value kDeferred, of a kind no sub-expression of the plan has, so every
// loop tests only "is this operand of my kind".

#include "cel/batch.h"

#include "program_impl.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>
#include <type_traits>

namespace sb::cel {

namespace {

const Value kDeferred = Value::error(nullptr);

enum class NodeOp : std::uint8_t {
    Slot,     // a record field: the column itself, no copy
    Const,    // a constant, repeated over a batch-sized buffer
    CmpConst, // operand `rel` constant
    Cmp,      // operand `rel` operand, same kinds
    Arith,    // + - * / on ints or doubles
    And,
    Or,
    Not,
    Cond,
    In,         // operand in a constant list
    StringTest, // contains / startsWith / endsWith with a constant argument
    TimeOfDay,  // getHours / getDayOfWeek / ... of a timestamp in UTC
    Call,       // any other function of the subset, through the interpreter's callFunction
    Matches,    // a constant regular expression, one match per distinct string
};

bool scalarKind(Kind k)
{
    return k == Kind::Bool || k == Kind::Int || k == Kind::Double || k == Kind::String || k == Kind::Timestamp;
}

std::optional<Kind> kindOfType(const Type& t)
{
    switch (t.kind()) {
    case Type::Kind::Bool: return Kind::Bool;
    case Type::Kind::Int: return Kind::Int;
    case Type::Kind::Double: return Kind::Double;
    case Type::Kind::String: return Kind::String;
    case Type::Kind::Timestamp: return Kind::Timestamp;
    default: return std::nullopt;
    }
}

// A string of at most 16 bytes as two words and its length, read without touching a byte outside it (the
// first and last 4 or 8 bytes, overlapping). Two such strings are equal exactly when their keys are: rule
// data is mostly short codes and categories, and comparing two words costs less than a loop over bytes
// whose exit the branch predictor cannot guess.
struct ShortKey {
    std::uint64_t a = 0, b = 0;
    std::size_t size = 0;
};

} // namespace

struct BatchProgram::Plan {
    struct Node {
        NodeOp op = NodeOp::Const;
        Kind kind = Kind::Bool;    // of the node's value on rows that are not deferred
        Kind operand = Kind::Bool; // of the operands (comparisons, arithmetic)
        Op rel = Op::Eq;           // comparison or arithmetic operator
        Fn fn = Fn::Unknown;
        std::uint8_t argc = 0;
        std::int32_t astNode = -1;
        std::uint32_t a = 0, b = 0, c = 0; // operand nodes
        std::uint32_t slot = 0;
        std::uint32_t regex = 0;
        Value k; // the constant of CmpConst, StringTest, In (a list)
        std::uint8_t variant = 0;            // In: 1 a short list of short strings only, 2 of ints only
        std::vector<ShortKey> keys;          // In, variant 1: the items' keys
        std::vector<std::uint32_t> terms;    // And, Or: the operands of a whole chain, cheapest first
        std::vector<Value> broadcast;        // Const: the constant kBatchRows times
        std::vector<std::uint8_t> broadcastBits; // the same as bytes, for a bool constant
    };
    Program program; // keeps the constants and regular expressions alive
    std::vector<Node> nodes;
    std::vector<Value> deferredColumn; // kBatchRows deferred values: a field the data does not have
    std::vector<std::uint8_t> deferredBits;
    const Program::Impl* impl = nullptr; // program's
};

std::size_t BatchScratch::MatchHash::operator()(const MatchKey& k) const
{
    const std::size_t h = std::hash<const void*>()(k.chars) * 0x9E3779B97F4A7C15ull;
    return h ^ (k.size * 0xC2B2AE3D27D4EB4Full) ^ std::hash<const void*>()(k.regex);
}

BatchScratch::BatchScratch() = default;
BatchScratch::~BatchScratch() = default;

namespace {

using Plan = BatchProgram::Plan;
using PlanNode = Plan::Node;

class Builder {
public:
    Builder(const Program::Impl& p, const Declarations& decls, Plan& plan) : m_p(p), m_decls(decls), m_plan(plan) {}

    // The node of instruction `i`, or empty when it is outside the subset.
    std::optional<std::uint32_t> build(std::uint32_t i)
    {
        const Instr& in = m_p.code[i];
        PlanNode n;
        n.astNode = in.node;
        n.fn = in.fn;
        switch (in.op) {
        case Op::Slot: {
            const auto vars = m_decls.variables();
            const auto var = std::find_if(vars.begin(), vars.end(),
                                          [&](const Variable& v) { return v.slot == static_cast<int>(in.a); });
            if (var == vars.end())
                return std::nullopt;
            const auto kind = kindOfType(var->type);
            if (!kind)
                return std::nullopt;
            n.op = NodeOp::Slot;
            n.kind = *kind;
            n.slot = in.a;
            return add(std::move(n));
        }
        case Op::Const: {
            const Value& v = m_p.constants[in.a];
            if (!scalarKind(v.kind()))
                return std::nullopt;
            n.op = NodeOp::Const;
            n.kind = v.kind();
            n.k = v;
            n.broadcast.assign(kBatchRows, v);
            return add(std::move(n));
        }
        case Op::EqC:
        case Op::NeC:
        case Op::LtC:
        case Op::LeC:
        case Op::GtC:
        case Op::GeC: {
            const auto x = build(in.n ? in.b : in.a);
            if (!x || kindOf(*x) != in.k.kind() || !scalarKind(in.k.kind()))
                return std::nullopt;
            n.op = NodeOp::CmpConst;
            n.kind = Kind::Bool;
            n.operand = in.k.kind();
            n.rel = in.op;
            n.a = *x;
            n.k = in.k;
            return add(std::move(n));
        }
        case Op::Eq:
        case Op::Ne:
        case Op::Lt:
        case Op::Le:
        case Op::Gt:
        case Op::Ge: {
            const auto x = build(in.a), y = build(in.b);
            if (!x || !y || kindOf(*x) != kindOf(*y))
                return std::nullopt;
            n.op = NodeOp::Cmp;
            n.kind = Kind::Bool;
            n.operand = kindOf(*x);
            n.rel = in.op;
            n.a = *x;
            n.b = *y;
            return add(std::move(n));
        }
        case Op::Add:
        case Op::Sub:
        case Op::Mul:
        case Op::Div: {
            const auto x = build(in.a), y = build(in.b);
            if (!x || !y || kindOf(*x) != kindOf(*y) || (kindOf(*x) != Kind::Int && kindOf(*x) != Kind::Double))
                return std::nullopt;
            n.op = NodeOp::Arith;
            n.kind = n.operand = kindOf(*x);
            n.rel = in.op;
            n.a = *x;
            n.b = *y;
            return add(std::move(n));
        }
        case Op::And:
        case Op::Or: {
            const auto x = build(in.a), y = build(in.b);
            if (!x || !y || kindOf(*x) != Kind::Bool || kindOf(*y) != Kind::Bool)
                return std::nullopt;
            n.op = in.op == Op::And ? NodeOp::And : NodeOp::Or;
            n.a = *x;
            n.b = *y;
            return add(std::move(n));
        }
        case Op::Not: {
            const auto x = build(in.a);
            if (!x || kindOf(*x) != Kind::Bool)
                return std::nullopt;
            n.op = NodeOp::Not;
            n.a = *x;
            return add(std::move(n));
        }
        case Op::Cond: {
            const auto c = build(in.a), x = build(in.b), y = build(in.c);
            if (!c || !x || !y || kindOf(*c) != Kind::Bool || kindOf(*x) != kindOf(*y))
                return std::nullopt;
            n.op = NodeOp::Cond;
            n.kind = kindOf(*x);
            n.a = *c;
            n.b = *x;
            n.c = *y;
            return add(std::move(n));
        }
        case Op::In: {
            if (m_p.code[in.b].op != Op::Const || m_p.constants[m_p.code[in.b].a].kind() != Kind::List)
                return std::nullopt;
            const auto x = build(in.a);
            if (!x || kindOf(*x) == Kind::Timestamp || kindOf(*x) == Kind::Bool)
                return std::nullopt;
            n.op = NodeOp::In;
            n.a = *x;
            n.k = m_p.constants[m_p.code[in.b].a];
            return add(std::move(n));
        }
        case Op::MatchesConst: {
            const auto x = build(in.a);
            if (!x || kindOf(*x) != Kind::String)
                return std::nullopt;
            n.op = NodeOp::Matches;
            n.a = *x;
            n.regex = in.b;
            return add(std::move(n));
        }
        case Op::Call1:
        case Op::Call2: return call(in, std::move(n));
        default: return std::nullopt;
        }
    }

private:
    Kind kindOf(std::uint32_t node) const { return m_plan.nodes[node].kind; }

    std::uint32_t add(PlanNode n)
    {
        m_plan.nodes.push_back(std::move(n));
        return static_cast<std::uint32_t>(m_plan.nodes.size() - 1);
    }

    std::optional<std::uint32_t> call(const Instr& in, PlanNode n)
    {
        const bool two = in.op == Op::Call2;
        const auto x = build(in.a);
        if (!x)
            return std::nullopt;
        std::optional<std::uint32_t> y;
        if (two) {
            y = build(in.b);
            if (!y)
                return std::nullopt;
        }
        const Kind kx = kindOf(*x);
        const Kind ky = two ? kindOf(*y) : Kind::Null;
        n.op = NodeOp::Call;
        n.a = *x;
        n.b = two ? *y : 0;
        n.argc = two ? 2 : 1;
        switch (in.fn) {
        case Fn::Size:
            if (two || kx != Kind::String)
                return std::nullopt;
            n.kind = Kind::Int;
            break;
        case Fn::Contains:
        case Fn::StartsWith:
        case Fn::EndsWith:
            if (!two || kx != Kind::String || ky != Kind::String)
                return std::nullopt;
            n.kind = Kind::Bool;
            if (m_plan.nodes[*y].op == NodeOp::Const) {
                n.op = NodeOp::StringTest;
                n.k = m_plan.nodes[*y].k;
            }
            break;
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
            if (kx != Kind::Timestamp || (two && ky != Kind::String))
                return std::nullopt;
            n.kind = Kind::Int;
            if (!two && (in.fn == Fn::GetHours || in.fn == Fn::GetMinutes || in.fn == Fn::GetSeconds
                         || in.fn == Fn::GetDayOfWeek))
                n.op = NodeOp::TimeOfDay;
            break;
        case Fn::LowerAscii:
        case Fn::UpperAscii:
        case Fn::Trim:
            if (two || kx != Kind::String)
                return std::nullopt;
            n.kind = Kind::String;
            break;
        case Fn::Neg:
            if (two || (kx != Kind::Int && kx != Kind::Double))
                return std::nullopt;
            n.kind = kx;
            break;
        case Fn::Mod:
            if (!two || kx != Kind::Int || ky != Kind::Int)
                return std::nullopt;
            n.kind = Kind::Int;
            break;
        case Fn::ToDouble:
            if (two || kx != Kind::Int)
                return std::nullopt;
            n.kind = Kind::Double;
            break;
        case Fn::ToInt:
            if (two || (kx != Kind::Double && kx != Kind::Timestamp))
                return std::nullopt;
            n.kind = Kind::Int;
            break;
        default: return std::nullopt;
        }
        return add(std::move(n));
    }

    const Program::Impl& m_p;
    const Declarations& m_decls;
    Plan& m_plan;
};

// ---- kernels: one loop over the rows each ----
//
// A bool node's values are bytes, kBatchFalse (0) < kBatchDefer (1) < kBatchTrue (2): CEL's && is then the
// minimum of its sides (false wins over anything, an error only over true), || the maximum, ! is 2 - x.
// Other nodes hold Values, kDeferred where deferred.
//
// A node is evaluated on a selection of the batch's rows: all of them (dense loops, which vectorize), or the
// listed ones. The right side of && only where the left is not false, of || only where the left is not
// true, a branch of the conditional only where the condition chose it: the rows skipped are those where
// CEL's result does not depend on that side at all, errors included, so skipping them changes nothing but
// the time.

using Bits = std::uint8_t;
using Row = std::uint16_t;

constexpr Bits bit(bool b)
{
    return b ? kBatchTrue : kBatchFalse;
}

struct Rows {
    const Row* sel = nullptr; // null: rows [0, count)
    std::size_t count = 0;
};

// The selection is copied to locals: the loops store bytes, which may alias anything, and would otherwise
// reload the count after every store (and not vectorize).
template <typename F> [[gnu::always_inline]] inline void forRows(const Rows& rows, F&& f)
{
    const Row* const sel = rows.sel;
    const std::size_t count = rows.count;
    if (!sel) {
        for (std::size_t i = 0; i < count; ++i)
            f(i);
    } else {
        for (std::size_t j = 0; j < count; ++j)
            f(static_cast<std::size_t>(sel[j]));
    }
}

template <Op O, typename T> bool relate(const T& x, const T& y)
{
    if constexpr (O == Op::Eq)
        return x == y;
    else if constexpr (O == Op::Ne)
        return x != y;
    else if constexpr (O == Op::Lt)
        return x < y;
    else if constexpr (O == Op::Le)
        return x <= y;
    else if constexpr (O == Op::Gt)
        return x > y;
    else
        return x >= y;
}


template <std::size_t N> std::uint64_t loadBytes(const char* p)
{
    std::conditional_t<N == 4, std::uint32_t, std::uint64_t> v;
    std::memcpy(&v, p, N);
    return v;
}

constexpr std::size_t kShortKeyBytes = 16;

// `s` must be at most kShortKeyBytes long for the key to stand for it.
inline ShortKey shortKey(std::string_view s)
{
    const std::size_t m = s.size();
    const char* p = s.data();
    ShortKey k;
    k.size = m;
    if (m >= 9) {
        k.a = loadBytes<8>(p);
        k.b = loadBytes<8>(p + m - 8);
    } else if (m >= 4) {
        k.a = loadBytes<4>(p) | (loadBytes<4>(p + m - 4) << 32);
    } else if (m > 0) {
        const auto byte = [&](std::size_t i) { return std::uint64_t{static_cast<unsigned char>(p[i])}; };
        k.a = byte(0) | (byte(m / 2) << 8) | (byte(m - 1) << 16);
    }
    return k;
}

inline bool sameKey(const ShortKey& x, const ShortKey& y)
{
    return (x.size == y.size) & (x.a == y.a) & (x.b == y.b);
}

// Byte equality of two strings, by their keys when both are short.
inline bool sameString(std::string_view x, std::string_view y)
{
    if (x.size() <= kShortKeyBytes && y.size() <= kShortKeyBytes)
        return sameKey(shortKey(x), shortKey(y));
    return sameBytes(x, y);
}

template <Op O, Kind K> bool relateValues(const Value& x, const Value& y)
{
    if constexpr (K == Kind::Double) {
        return relate<O>(x.asDouble(), y.asDouble());
    } else if constexpr (K == Kind::String) {
        if constexpr (O == Op::Eq)
            return sameString(x.asString(), y.asString());
        else if constexpr (O == Op::Ne)
            return !sameString(x.asString(), y.asString());
        else
            return relate<O>(x.asString(), y.asString());
    } else if constexpr (K == Kind::Timestamp) {
        const std::pair<std::int64_t, std::int32_t> a{x.seconds(), x.nanos()}, b{y.seconds(), y.nanos()};
        return relate<O>(a, b);
    } else {
        return relate<O>(x.asInt(), y.asInt());
    }
}

template <Op O, Kind K> void compareConst(const Rows& rows, const Value* x, const Value& k, Bits* out)
{
    if constexpr (K == Kind::Double) {
        // Branch-free, so that it vectorizes: the kind decides only which byte is stored.
        const double c = k.asDouble();
        forRows(rows, [&](std::size_t i) {
            const Bits r = bit(relate<O>(x[i].asDouble(), c));
            out[i] = x[i].kind() == K ? r : kBatchDefer;
        });
    } else if constexpr (K == Kind::Int) {
        const std::int64_t c = k.asInt();
        forRows(rows, [&](std::size_t i) {
            const Bits r = bit(relate<O>(x[i].asInt(), c));
            out[i] = x[i].kind() == K ? r : kBatchDefer;
        });
    } else if constexpr (K == Kind::String && (O == Op::Eq || O == Op::Ne)) {
        const std::string_view c = k.asString();
        if (c.size() > kShortKeyBytes) {
            forRows(rows, [&](std::size_t i) {
                out[i] = x[i].kind() == K ? bit(relateValues<O, K>(x[i], k)) : kBatchDefer;
            });
            return;
        }
        // A string of another length differs; one of the same length is short, and its key decides.
        const ShortKey ck = shortKey(c);
        forRows(rows, [&](std::size_t i) {
            if (x[i].kind() != K) {
                out[i] = kBatchDefer;
                return;
            }
            const bool same = x[i].asString().size() == ck.size && sameKey(shortKey(x[i].asString()), ck);
            out[i] = bit(O == Op::Eq ? same : !same);
        });
    } else {
        forRows(rows, [&](std::size_t i) {
            out[i] = x[i].kind() == K ? bit(relateValues<O, K>(x[i], k)) : kBatchDefer;
        });
    }
}

template <Op O, Kind K> void compare(const Rows& rows, const Value* x, const Value* y, Bits* out)
{
    forRows(rows, [&](std::size_t i) {
        out[i] = x[i].kind() == K && y[i].kind() == K ? bit(relateValues<O, K>(x[i], y[i])) : kBatchDefer;
    });
}

// Bools compared: false < true, as the interpreter orders them.
template <Op O> void compareBits(const Rows& rows, const Bits* x, const Bits* y, Bits* out)
{
    forRows(rows, [&](std::size_t i) {
        const Bits r = bit(relate<O>(x[i], y[i]));
        out[i] = x[i] == kBatchDefer || y[i] == kBatchDefer ? kBatchDefer : r;
    });
}

using CompareConstFn = void (*)(const Rows&, const Value*, const Value&, Bits*);
using CompareFn = void (*)(const Rows&, const Value*, const Value*, Bits*);
using CompareBitsFn = void (*)(const Rows&, const Bits*, const Bits*, Bits*);

template <Op O> CompareConstFn compareConstFor(Kind k)
{
    switch (k) {
    case Kind::Int: return &compareConst<O, Kind::Int>;
    case Kind::Double: return &compareConst<O, Kind::Double>;
    case Kind::String: return &compareConst<O, Kind::String>;
    default: return &compareConst<O, Kind::Timestamp>;
    }
}

template <Op O> CompareFn compareFor(Kind k)
{
    switch (k) {
    case Kind::Int: return &compare<O, Kind::Int>;
    case Kind::Double: return &compare<O, Kind::Double>;
    case Kind::String: return &compare<O, Kind::String>;
    default: return &compare<O, Kind::Timestamp>;
    }
}

// The constant comparisons keep their mirrored operator (EqC, LtC, ...): one name space for both.
Op plainOp(Op rel)
{
    switch (rel) {
    case Op::EqC: return Op::Eq;
    case Op::NeC: return Op::Ne;
    case Op::LtC: return Op::Lt;
    case Op::LeC: return Op::Le;
    case Op::GtC: return Op::Gt;
    case Op::GeC: return Op::Ge;
    default: return rel;
    }
}

CompareConstFn compareConstKernel(Op rel, Kind k)
{
    switch (plainOp(rel)) {
    case Op::Eq: return compareConstFor<Op::Eq>(k);
    case Op::Ne: return compareConstFor<Op::Ne>(k);
    case Op::Lt: return compareConstFor<Op::Lt>(k);
    case Op::Le: return compareConstFor<Op::Le>(k);
    case Op::Gt: return compareConstFor<Op::Gt>(k);
    default: return compareConstFor<Op::Ge>(k);
    }
}

CompareFn compareKernel(Op rel, Kind k)
{
    switch (plainOp(rel)) {
    case Op::Eq: return compareFor<Op::Eq>(k);
    case Op::Ne: return compareFor<Op::Ne>(k);
    case Op::Lt: return compareFor<Op::Lt>(k);
    case Op::Le: return compareFor<Op::Le>(k);
    case Op::Gt: return compareFor<Op::Gt>(k);
    default: return compareFor<Op::Ge>(k);
    }
}

CompareBitsFn compareBitsKernel(Op rel)
{
    switch (plainOp(rel)) {
    case Op::Eq: return &compareBits<Op::Eq>;
    case Op::Ne: return &compareBits<Op::Ne>;
    case Op::Lt: return &compareBits<Op::Lt>;
    case Op::Le: return &compareBits<Op::Le>;
    case Op::Gt: return &compareBits<Op::Gt>;
    default: return &compareBits<Op::Ge>;
    }
}

void arithInt(const Rows& rows, Op rel, const Value* x, const Value* y, Value* out)
{
    forRows(rows, [&](std::size_t i) {
        if (x[i].kind() != Kind::Int || y[i].kind() != Kind::Int) {
            out[i] = kDeferred;
            return;
        }
        const std::int64_t a = x[i].asInt(), b = y[i].asInt();
        std::int64_t r = 0;
        bool overflow = false;
        switch (rel) {
        case Op::Add: overflow = __builtin_add_overflow(a, b, &r); break;
        case Op::Sub: overflow = __builtin_sub_overflow(a, b, &r); break;
        case Op::Mul: overflow = __builtin_mul_overflow(a, b, &r); break;
        default: // Div: by zero and the one overflowing quotient are the interpreter's errors
            overflow = b == 0 || (b == -1 && a == std::numeric_limits<std::int64_t>::min());
            r = overflow ? 0 : a / b;
            break;
        }
        out[i] = overflow ? kDeferred : Value::integer(r);
    });
}

template <Op O> void arithDouble(const Rows& rows, const Value* x, const Value* y, Value* out)
{
    forRows(rows, [&](std::size_t i) {
        const double a = x[i].asDouble(), b = y[i].asDouble();
        double r;
        if constexpr (O == Op::Add)
            r = a + b;
        else if constexpr (O == Op::Sub)
            r = a - b;
        else if constexpr (O == Op::Mul)
            r = a * b;
        else
            r = a / b;
        out[i] = x[i].kind() == Kind::Double && y[i].kind() == Kind::Double ? Value::real(r) : kDeferred;
    });
}

template <Fn F> void stringTest(const Rows& rows, const Value* x, std::string_view t, Bits* out)
{
    forRows(rows, [&](std::size_t i) {
        if (x[i].kind() != Kind::String) {
            out[i] = kBatchDefer;
            return;
        }
        const std::string_view s = x[i].asString();
        bool r;
        if constexpr (F == Fn::Contains)
            r = s.find(t) != std::string_view::npos;
        else if constexpr (F == Fn::StartsWith)
            r = s.size() >= t.size() && sameBytes(s.substr(0, t.size()), t);
        else
            r = s.size() >= t.size() && sameBytes(s.substr(s.size() - t.size()), t);
        out[i] = bit(r);
    });
}

// `s in [...]` over a short list of short strings only (BatchProgram::build made their keys): the row's key
// against every item's, without a branch per item. A longer string is none of them.
void inShortStrings(const Rows& rows, const Value* x, const std::vector<ShortKey>& keys, Bits* out)
{
    const ShortKey* items = keys.data();
    const std::size_t size = keys.size();
    forRows(rows, [&](std::size_t i) {
        if (x[i].kind() != Kind::String) {
            out[i] = kBatchDefer;
            return;
        }
        const std::string_view s = x[i].asString();
        if (s.size() > kShortKeyBytes) {
            out[i] = kBatchFalse;
            return;
        }
        const ShortKey key = shortKey(s);
        bool found = false;
        for (std::size_t j = 0; j < size; ++j)
            found |= sameKey(key, items[j]);
        out[i] = bit(found);
    });
}

// `i in [...]` over a list of ints only.
void inInts(const Rows& rows, const Value* x, const ListData& list, Bits* out)
{
    const Value* items = list.items;
    const std::uint32_t size = list.size;
    forRows(rows, [&](std::size_t i) {
        const std::int64_t v = x[i].asInt();
        bool found = false;
        for (std::uint32_t j = 0; j < size; ++j)
            found |= items[j].asInt() == v;
        out[i] = x[i].kind() == Kind::Int ? bit(found) : kBatchDefer;
    });
}

std::int64_t floorMod(std::int64_t a, std::int64_t m)
{
    const std::int64_t r = a % m;
    return r < 0 ? r + m : r;
}

template <Fn F> void timeOfDay(const Rows& rows, const Value* x, Value* out)
{
    forRows(rows, [&](std::size_t i) {
        const std::int64_t s = x[i].seconds();
        std::int64_t r;
        if constexpr (F == Fn::GetHours)
            r = floorMod(s, 86400) / 3600;
        else if constexpr (F == Fn::GetMinutes)
            r = floorMod(s, 86400) / 60 % 60;
        else if constexpr (F == Fn::GetSeconds)
            r = floorMod(s, 86400) % 60;
        else // GetDayOfWeek: 1970-01-01 was a Thursday (4), Sunday is 0
            r = floorMod((s - floorMod(s, 86400)) / 86400 + 4, 7);
        out[i] = x[i].kind() == Kind::Timestamp ? Value::integer(r) : kDeferred;
    });
}

// Operand nodes of a node.
std::vector<std::uint32_t> operandsOf(const PlanNode& n)
{
    switch (n.op) {
    case NodeOp::Slot:
    case NodeOp::Const: return {};
    case NodeOp::Cmp:
    case NodeOp::Arith:
    case NodeOp::And:
    case NodeOp::Or: return {n.a, n.b};
    case NodeOp::Cond: return {n.a, n.b, n.c};
    case NodeOp::Call: return n.argc == 2 ? std::vector<std::uint32_t>{n.a, n.b} : std::vector<std::uint32_t>{n.a};
    default: return {n.a};
    }
}

// A rough cost per row of a node's own loop: numbers and bools are cheap, strings less so, calls into the
// interpreter's functions and regular expressions most.
std::uint32_t ownCost(const PlanNode& n)
{
    switch (n.op) {
    case NodeOp::Slot: return n.kind == Kind::Bool ? 1 : 0;
    case NodeOp::Const: return 0;
    case NodeOp::CmpConst: return n.operand == Kind::String ? 3 : 1;
    case NodeOp::Cmp: return n.operand == Kind::String ? 4 : 2;
    case NodeOp::In: return n.variant ? 3 : 6;
    case NodeOp::StringTest: return 4;
    case NodeOp::Call:
    case NodeOp::Matches: return 12;
    default: return 2;
    }
}

// Flattens chains of && (and of ||) into one node with all their terms, ordered cheapest first (stable), and
// returns the cost of node j's subtree.
std::uint32_t orderTerms(BatchProgram::Plan& plan, std::uint32_t j, std::vector<std::uint32_t>& costs)
{
    std::uint32_t cost = ownCost(plan.nodes[j]);
    for (const std::uint32_t o : operandsOf(plan.nodes[j]))
        cost += orderTerms(plan, o, costs);
    costs[j] = cost;
    PlanNode& node = plan.nodes[j];
    if (node.op == NodeOp::And || node.op == NodeOp::Or) {
        node.terms.clear();
        for (const std::uint32_t o : {node.a, node.b}) {
            const PlanNode& operand = plan.nodes[o];
            if (operand.op == node.op)
                node.terms.insert(node.terms.end(), operand.terms.begin(), operand.terms.end());
            else
                node.terms.push_back(o);
        }
        std::stable_sort(node.terms.begin(), node.terms.end(),
                         [&](std::uint32_t x, std::uint32_t y) { return costs[x] < costs[y]; });
    }
    return cost;
}

bool allOfKind(const ListData& list, Kind k)
{
    for (std::uint32_t j = 0; j < list.size; ++j) {
        if (list.items[j].kind() != k)
            return false;
    }
    return true;
}

} // namespace

// One batch's evaluation: each node's values (its column, its constant or its scratch buffer), computed from
// the root down on the rows that need them.
class BatchRun {
public:
    BatchRun(const BatchProgram::Plan& plan, std::span<const Value* const> columns, std::size_t first,
             BatchScratch& scratch)
        : m_plan(plan), m_columns(columns), m_first(first), m_scratch(scratch), m_arena(scratch.m_ctx.arena())
    {
        const std::size_t nodes = plan.nodes.size();
        if (scratch.m_values.size() < nodes * kBatchRows) {
            scratch.m_values.resize(nodes * kBatchRows);
            scratch.m_bits.resize(nodes * kBatchRows);
            scratch.m_rows.resize(2 * nodes * kBatchRows);
        }
        scratch.m_src.resize(nodes);
        scratch.m_srcBits.resize(nodes);
        m_src = scratch.m_src.data();
        m_bits = scratch.m_srcBits.data();
        m_arena.reset();
    }

    const Bits* bitsOf(std::uint32_t j) const { return m_bits[j]; }

    void eval(std::uint32_t j, const Rows& rows)
    {
        const PlanNode& node = m_plan.nodes[j];
        Value* dst = m_scratch.m_values.data() + j * kBatchRows;
        Bits* dstBits = m_scratch.m_bits.data() + j * kBatchRows;
        m_src[j] = dst;
        m_bits[j] = dstBits;
        switch (node.op) {
        case NodeOp::Slot: {
            const Value* column = node.slot < m_columns.size() ? m_columns[node.slot] : nullptr;
            if (!column) {
                m_src[j] = m_plan.deferredColumn.data();
                m_bits[j] = m_plan.deferredBits.data();
            } else if (node.kind == Kind::Bool) {
                const Value* x = column + m_first;
                forRows(rows,
                        [&](std::size_t i) { dstBits[i] = x[i].kind() == Kind::Bool ? bit(x[i].asBool()) : kBatchDefer; });
            } else {
                m_src[j] = column + m_first;
            }
            return;
        }
        case NodeOp::Const:
            m_src[j] = node.broadcast.data();
            m_bits[j] = node.broadcastBits.data();
            return;
        case NodeOp::And:
        case NodeOp::Or: {
            // A chain of && (or ||), cheapest terms first (see orderTerms): each term only on the rows the
            // terms before it left undecided. The minimum (maximum) does not depend on the order.
            const Bits decides = node.op == NodeOp::And ? kBatchFalse : kBatchTrue;
            const bool isAnd = node.op == NodeOp::And;
            Row* sel = m_scratch.m_rows.data() + 2 * j * kBatchRows;
            Rows current = rows;
            eval(node.terms[0], current);
            const Bits* x = m_bits[node.terms[0]];
            forRows(rows, [&](std::size_t i) { dstBits[i] = x[i]; });
            for (std::size_t t = 1; t < node.terms.size(); ++t) {
                std::size_t count = 0;
                forRows(current, [&](std::size_t i) {
                    sel[count] = static_cast<Row>(i); // in place when current is sel: count never passes i
                    count += dstBits[i] != decides ? 1 : 0;
                });
                if (count == 0)
                    break;
                if (count != current.count)
                    current = narrow(current, Rows{sel, count});
                eval(node.terms[t], current);
                const Bits* y = m_bits[node.terms[t]];
                if (isAnd)
                    forRows(current, [&](std::size_t i) { dstBits[i] = std::min(dstBits[i], y[i]); });
                else
                    forRows(current, [&](std::size_t i) { dstBits[i] = std::max(dstBits[i], y[i]); });
            }
            return;
        }
        case NodeOp::Cond: {
            eval(node.a, rows);
            const Bits* c = m_bits[node.a];
            Row* whenTrue = m_scratch.m_rows.data() + 2 * j * kBatchRows;
            Row* whenFalse = whenTrue + kBatchRows;
            std::size_t nt = 0, nf = 0;
            forRows(rows, [&](std::size_t i) {
                whenTrue[nt] = static_cast<Row>(i);
                whenFalse[nf] = static_cast<Row>(i);
                nt += c[i] == kBatchTrue ? 1 : 0;
                nf += c[i] == kBatchFalse ? 1 : 0;
            });
            // A branch no row takes is not evaluated: its values must still be readable.
            m_src[node.b] = m_src[node.c] = m_plan.deferredColumn.data();
            m_bits[node.b] = m_bits[node.c] = m_plan.deferredBits.data();
            if (nt)
                eval(node.b, narrow(rows, Rows{whenTrue, nt}));
            if (nf)
                eval(node.c, narrow(rows, Rows{whenFalse, nf}));
            if (node.kind == Kind::Bool) {
                const Bits *x = m_bits[node.b], *y = m_bits[node.c];
                forRows(rows, [&](std::size_t i) {
                    dstBits[i] = c[i] == kBatchTrue ? x[i] : (c[i] == kBatchFalse ? y[i] : kBatchDefer);
                });
            } else {
                const Value *x = m_src[node.b], *y = m_src[node.c];
                forRows(rows, [&](std::size_t i) {
                    dst[i] = c[i] == kBatchTrue ? x[i] : (c[i] == kBatchFalse ? y[i] : kDeferred);
                });
            }
            return;
        }
        default: break;
        }
        // Every other node: its operands on the same rows, then its loop.
        eval(node.a, rows);
        if (node.op == NodeOp::Cmp || node.op == NodeOp::Arith || (node.op == NodeOp::Call && node.argc == 2))
            eval(node.b, rows);
        compute(node, rows, dst, dstBits);
    }

private:
    // A selection of rows, dense again when it keeps most of a dense batch (a few wasted rows cost less
    // than loops over indices).
    static Rows narrow(const Rows& from, const Rows& to)
    {
        if (!from.sel && to.count * 4 >= from.count * 3)
            return from;
        return to;
    }

    void compute(const PlanNode& node, const Rows& rows, Value* dst, Bits* dstBits)
    {
        const Value** src = m_src;
        switch (node.op) {
        case NodeOp::CmpConst:
            if (node.operand == Kind::Bool) {
                const Bits* x = m_bits[node.a];
                const Bits k = bit(node.k.asBool());
                forRows(rows, [&](std::size_t i) { dstBits[i] = k; }); // the constant as a column
                compareBitsKernel(node.rel)(rows, x, dstBits, dstBits);
            } else {
                compareConstKernel(node.rel, node.operand)(rows, src[node.a], node.k, dstBits);
            }
            break;
        case NodeOp::Cmp:
            if (node.operand == Kind::Bool)
                compareBitsKernel(node.rel)(rows, m_bits[node.a], m_bits[node.b], dstBits);
            else
                compareKernel(node.rel, node.operand)(rows, src[node.a], src[node.b], dstBits);
            break;
        case NodeOp::Arith:
            if (node.kind == Kind::Int) {
                arithInt(rows, node.rel, src[node.a], src[node.b], dst);
            } else {
                switch (node.rel) {
                case Op::Add: arithDouble<Op::Add>(rows, src[node.a], src[node.b], dst); break;
                case Op::Sub: arithDouble<Op::Sub>(rows, src[node.a], src[node.b], dst); break;
                case Op::Mul: arithDouble<Op::Mul>(rows, src[node.a], src[node.b], dst); break;
                default: arithDouble<Op::Div>(rows, src[node.a], src[node.b], dst); break;
                }
            }
            break;
        case NodeOp::Not: {
            const Bits* x = m_bits[node.a];
            forRows(rows, [&](std::size_t i) { dstBits[i] = static_cast<Bits>(kBatchTrue - x[i]); });
            break;
        }
        case NodeOp::In: {
            const Value* x = src[node.a];
            const ListData& list = node.k.asList();
            if (node.variant == 1) {
                inShortStrings(rows, x, node.keys, dstBits);
            } else if (node.variant == 2) {
                inInts(rows, x, list, dstBits);
            } else {
                const Kind k = m_plan.nodes[node.a].kind;
                forRows(rows, [&](std::size_t i) {
                    dstBits[i] = x[i].kind() == k ? bit(listContains(list, x[i])) : kBatchDefer;
                });
            }
            break;
        }
        case NodeOp::StringTest: {
            const std::string_view t = node.k.asString();
            switch (node.fn) {
            case Fn::Contains: stringTest<Fn::Contains>(rows, src[node.a], t, dstBits); break;
            case Fn::StartsWith: stringTest<Fn::StartsWith>(rows, src[node.a], t, dstBits); break;
            default: stringTest<Fn::EndsWith>(rows, src[node.a], t, dstBits); break;
            }
            break;
        }
        case NodeOp::TimeOfDay:
            switch (node.fn) {
            case Fn::GetHours: timeOfDay<Fn::GetHours>(rows, src[node.a], dst); break;
            case Fn::GetMinutes: timeOfDay<Fn::GetMinutes>(rows, src[node.a], dst); break;
            case Fn::GetSeconds: timeOfDay<Fn::GetSeconds>(rows, src[node.a], dst); break;
            default: timeOfDay<Fn::GetDayOfWeek>(rows, src[node.a], dst); break;
            }
            break;
        case NodeOp::Call: {
            // Arguments are never bools (see Builder::call): their Values are in src.
            const Value *x = src[node.a], *y = src[node.b];
            const Kind kx = m_plan.nodes[node.a].kind;
            const Kind ky = node.argc == 2 ? m_plan.nodes[node.b].kind : Kind::Null;
            forRows(rows, [&](std::size_t i) {
                Value r = kDeferred;
                if (x[i].kind() == kx && (node.argc == 1 || y[i].kind() == ky)) {
                    const Value args[2] = {x[i], node.argc == 2 ? y[i] : Value()};
                    r = callFunction(node.fn, {args, node.argc}, m_arena, node.astNode, &m_scratch.m_ctx);
                    if (r.kind() != node.kind)
                        r = kDeferred;
                }
                if (node.kind == Kind::Bool)
                    dstBits[i] = r.isBool() ? bit(r.asBool()) : kBatchDefer;
                else
                    dst[i] = r;
            });
            break;
        }
        case NodeOp::Matches: {
            const Value* x = src[node.a];
            const Program::Impl& p = *m_plan.impl;
            const RE2& shared = *p.regexes[node.regex];
            const RE2& re = *contextRegexCopy(m_scratch.m_ctx, p.id, node.regex, shared);
            // Field values stay where they are for the whole evaluation: one match per distinct string. A
            // computed string (lowerAscii, ...) lives in the arena, whose bytes the next batch reuses.
            const bool cacheable = m_plan.nodes[node.a].op == NodeOp::Slot;
            auto& cache = m_scratch.m_matches;
            forRows(rows, [&](std::size_t i) {
                if (x[i].kind() != Kind::String) {
                    dstBits[i] = kBatchDefer;
                    return;
                }
                const std::string_view s = x[i].asString();
                if (!cacheable) {
                    dstBits[i] = bit(RE2::PartialMatch(re2::StringPiece(s.data(), s.size()), re));
                    return;
                }
                const BatchScratch::MatchKey key{&shared, s.data(), s.size()};
                auto it = cache.find(key);
                if (it == cache.end())
                    it = cache.emplace(key, RE2::PartialMatch(re2::StringPiece(s.data(), s.size()), re)).first;
                dstBits[i] = bit(it->second);
            });
            break;
        }
        default: break; // Slot, Const, And, Or, Cond: in eval()
        }
    }

    const BatchProgram::Plan& m_plan;
    std::span<const Value* const> m_columns;
    std::size_t m_first;
    BatchScratch& m_scratch;
    Arena& m_arena;
    const Value** m_src = nullptr;
    const Bits** m_bits = nullptr;
};

std::optional<BatchProgram> BatchProgram::build(const Program& program, const Declarations& declarations)
{
    auto plan = std::make_shared<Plan>(Plan{program, {}, {}, {}, program.m_impl.get()});
    const Program::Impl& p = *program.m_impl;
    Builder builder(p, declarations, *plan);
    const auto root = builder.build(p.root);
    if (!root || plan->nodes[*root].kind != Kind::Bool || plan->nodes.size() > 0xffff)
        return std::nullopt;
    plan->deferredColumn.assign(kBatchRows, kDeferred);
    plan->deferredBits.assign(kBatchRows, kBatchDefer);
    for (PlanNode& node : plan->nodes) {
        if (node.op == NodeOp::Const && node.kind == Kind::Bool)
            node.broadcastBits.assign(kBatchRows, bit(node.k.asBool()));
        if (node.op == NodeOp::In) {
            const ListData& list = node.k.asList();
            const Kind operand = plan->nodes[node.a].kind;
            if (operand == Kind::String && list.size <= 16 && allOfKind(list, Kind::String)
                && std::all_of(list.items, list.items + list.size,
                               [](const Value& v) { return v.asString().size() <= kShortKeyBytes; })) {
                node.variant = 1;
                for (std::uint32_t j = 0; j < list.size; ++j)
                    node.keys.push_back(shortKey(list.items[j].asString()));
            }
            else if (operand == Kind::Int && list.size <= 16 && allOfKind(list, Kind::Int))
                node.variant = 2;
        }
    }
    std::vector<std::uint32_t> costs(plan->nodes.size(), 0);
    orderTerms(*plan, *root, costs);
    return BatchProgram(std::move(plan));
}

void BatchProgram::eval(std::span<const Value* const> columns, std::size_t first, std::size_t rows,
                        BatchScratch& scratch, std::uint8_t* out) const
{
    const std::size_t n = std::min(rows, kBatchRows);
    if (scratch.m_matches.size() > (1u << 16))
        scratch.m_matches.clear();
    BatchRun run(*m_plan, columns, first, scratch);
    const auto root = static_cast<std::uint32_t>(m_plan->nodes.size() - 1);
    run.eval(root, Rows{nullptr, n});
    std::copy(run.bitsOf(root), run.bitsOf(root) + n, out);
}

} // namespace sb::cel
