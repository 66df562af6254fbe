// The evaluator: a recursive walk over the flat instruction array, each instruction through the handler the
// compiler chose for it (small functions for the common shapes, the general switch otherwise); a traced
// evaluation goes through the switch and records every step. Recursion depth is bounded by the parser's
// nesting limit. Scalars never allocate; errors are values that flow up until an operator that absorbs them
// (&&, ||, the conditional, the all/exists macros) or the result.

#include "program_impl.h"

#include <algorithm>
#include <array>
#include <limits>

namespace sb::cel {

class Evaluator {
public:
    Evaluator(const Program::Impl& p, std::span<const Value> slots, Arena& arena, EvalContext* ctx, Value* locals,
              Trace* trace)
        : m_p(p), m_code(p.code.data()), m_slots(slots), m_arena(arena), m_ctx(ctx), m_locals(locals), m_trace(trace),
          m_maxBytes(ctx ? ctx->m_limits.maxBytes : std::numeric_limits<std::size_t>::max())
    {
    }

    template <bool Traced> Value eval(std::uint32_t i)
    {
        const Instr& in = m_code[i];
        if constexpr (!Traced)
            return in.handler(*this, in);
        const Value v = step<Traced>(in);
        if constexpr (Traced) {
            if (in.node >= 0) {
                if (m_trace->steps.size() < Trace::kMaxSteps) {
                    const Node& n = m_p.ast.node(in.node);
                    m_trace->steps.push_back(TraceStep{in.node, n.begin, n.end, v});
                } else {
                    m_trace->truncated = true;
                }
            }
        }
        return v;
    }

    // ---- handlers (see Handler in program_impl.h) ----
    static Value hStep(Evaluator& ev, const Instr& in) { return ev.step<false>(in); }
    static Value hConst(Evaluator& ev, const Instr& in) { return ev.m_p.constants[in.a]; }
    static Value hSlot(Evaluator& ev, const Instr& in)
    {
        return in.a < ev.m_slots.size() ? ev.m_slots[in.a] : ev.m_p.constants[in.c];
    }
    static Value hLocal(Evaluator& ev, const Instr& in) { return ev.m_locals[in.a]; }
    static Value hAnd(Evaluator& ev, const Instr& in) { return ev.logical<false>(in, true); }
    static Value hOr(Evaluator& ev, const Instr& in) { return ev.logical<false>(in, false); }
    static Value hBinary(Evaluator& ev, const Instr& in) { return ev.binary<false>(in); }

    // A field (M = Slot) or any operand (Eval) compared with a constant of kind K.
    template <Op O, Kind K, Operand M> static Value hCompare(Evaluator& ev, const Instr& in)
    {
        const std::uint32_t operand = in.n ? in.b : in.a;
        Value x;
        if constexpr (M == Operand::Slot) {
            const Instr& s = ev.m_code[operand];
            x = s.a < ev.m_slots.size() ? ev.m_slots[s.a] : ev.m_p.constants[s.c];
        } else {
            x = ev.eval<false>(operand);
        }
        if (x.kind() == K) {
            if constexpr (K == Kind::Double)
                return Value::boolean(relate<O>(x.asDouble(), in.k.asDouble()));
            else if constexpr (K == Kind::String) {
                if constexpr (O == Op::EqC)
                    return Value::boolean(sameBytes(x.asString(), in.k.asString()));
                else if constexpr (O == Op::NeC)
                    return Value::boolean(!sameBytes(x.asString(), in.k.asString()));
                else
                    return Value::boolean(relate<O>(x.asString(), in.k.asString()));
            } else {
                return Value::boolean(relate<O>(x.asInt(), in.k.asInt()));
            }
        }
        return ev.compareSlow(in, x);
    }

    template <Op O, Kind K> static Handler compareFor(Operand m)
    {
        return m == Operand::Slot ? &hCompare<O, K, Operand::Slot> : &hCompare<O, K, Operand::Eval>;
    }

    template <Op O> static Handler compareFor(Kind k, Operand m)
    {
        switch (k) {
        case Kind::Int: return compareFor<O, Kind::Int>(m);
        case Kind::Double: return compareFor<O, Kind::Double>(m);
        case Kind::String: return compareFor<O, Kind::String>(m);
        case Kind::Bool: return compareFor<O, Kind::Bool>(m);
        default: return &hStep;
        }
    }

    // s.contains('x'), s.startsWith('x'), s.endsWith('x') with a constant argument: the string tests of rules.
    template <Fn F, Operand M> static Value hStringTest(Evaluator& ev, const Instr& in)
    {
        const Value x = ev.fetch<false>(in.a, M);
        const Value& arg = ev.m_p.constants[ev.m_code[in.b].a];
        if (x.kind() == Kind::String) {
            const std::string_view s = x.asString(), t = arg.asString();
            if constexpr (F == Fn::Contains)
                return Value::boolean(s.find(t) != std::string_view::npos);
            else if constexpr (F == Fn::StartsWith)
                return Value::boolean(s.size() >= t.size() && sameBytes(s.substr(0, t.size()), t));
            else
                return Value::boolean(s.size() >= t.size() && sameBytes(s.substr(s.size() - t.size()), t));
        }
        return ev.step<false>(in); // errors and other kinds: the general path
    }

    template <Fn F> static Handler stringTestFor(Operand m)
    {
        return m == Operand::Slot ? &hStringTest<F, Operand::Slot> : &hStringTest<F, Operand::Eval>;
    }

    static Handler handlerFor(const Instr& in, const Program::Impl& p)
    {
        if (in.op == Op::Call2 && in.mb == Operand::Const && p.constants[p.code[in.b].a].kind() == Kind::String) {
            switch (in.fn) {
            case Fn::Contains: return stringTestFor<Fn::Contains>(in.ma);
            case Fn::StartsWith: return stringTestFor<Fn::StartsWith>(in.ma);
            case Fn::EndsWith: return stringTestFor<Fn::EndsWith>(in.ma);
            default: break;
            }
        }
        switch (in.op) {
        case Op::Const: return &hConst;
        case Op::Slot: return &hSlot;
        case Op::Local: return &hLocal;
        case Op::And: return &hAnd;
        case Op::Or: return &hOr;
        case Op::Add:
        case Op::Sub:
        case Op::Mul:
        case Op::Div:
        case Op::Eq:
        case Op::Ne:
        case Op::Lt:
        case Op::Le:
        case Op::Gt:
        case Op::Ge:
        case Op::In:
        case Op::Index: return &hBinary;
        case Op::EqC: return compareFor<Op::EqC>(in.k.kind(), in.n ? in.mb : in.ma);
        case Op::NeC: return compareFor<Op::NeC>(in.k.kind(), in.n ? in.mb : in.ma);
        case Op::LtC: return compareFor<Op::LtC>(in.k.kind(), in.n ? in.mb : in.ma);
        case Op::LeC: return compareFor<Op::LeC>(in.k.kind(), in.n ? in.mb : in.ma);
        case Op::GtC: return compareFor<Op::GtC>(in.k.kind(), in.n ? in.mb : in.ma);
        case Op::GeC: return compareFor<Op::GeC>(in.k.kind(), in.n ? in.mb : in.ma);
        default: return &hStep;
        }
    }

private:
    // Operand and constant of different kinds, or an error: the generic comparison.
    [[gnu::noinline]] Value compareSlow(const Instr& in, const Value& x)
    {
        if (x.isError())
            return x;
        const std::array<Value, 2> args = in.n ? std::array<Value, 2>{in.k, x} : std::array<Value, 2>{x, in.k};
        return callFunction(in.fn, args, m_arena, in.node, m_ctx);
    }

    // An operand: read in place when it is a constant or a field (not when tracing: every step is recorded).
    template <bool Traced> [[gnu::always_inline]] Value fetch(std::uint32_t i, Operand mode)
    {
        if constexpr (!Traced) {
            if (mode == Operand::Const)
                return m_p.constants[m_code[i].a];
            if (mode == Operand::Slot) {
                const Instr& s = m_code[i];
                return s.a < m_slots.size() ? m_slots[s.a] : m_p.constants[s.c];
            }
        }
        return eval<Traced>(i);
    }

    Value noOverload(std::int32_t node) { return makeStaticError(m_arena, "no such overload", node); }

    template <bool Traced> Value logical(const Instr& in, bool isAnd)
    {
        // Commutative error semantics: a deciding value on either side wins over an error on the other.
        const Value l = fetch<Traced>(in.a, in.ma);
        if (l.isBool() && l.asBool() != isAnd)
            return l;
        const Value r = fetch<Traced>(in.b, in.mb);
        if (r.isBool() && r.asBool() != isAnd)
            return r;
        if (l.isBool() && r.isBool())
            return l;
        if (l.isError())
            return l;
        if (r.isError())
            return r;
        return noOverload(in.node);
    }

    template <bool Traced> Value binary(const Instr& in)
    {
        const Value x = fetch<Traced>(in.a, in.ma);
        if (x.isError())
            return x;
        const Value y = fetch<Traced>(in.b, in.mb);
        if (y.isError())
            return y;
        // The common cases inline; the rest (and every error case) in callFunction.
        if (in.op == Op::In && y.kind() == Kind::List)
            return Value::boolean(listContains(y.asList(), x));
        if (x.kind() == y.kind()) {
            switch (x.kind()) {
            case Kind::Int: {
                const std::int64_t a = x.asInt(), b = y.asInt();
                std::int64_t r = 0;
                switch (in.op) {
                case Op::Add:
                    if (!__builtin_add_overflow(a, b, &r))
                        return Value::integer(r);
                    break;
                case Op::Sub:
                    if (!__builtin_sub_overflow(a, b, &r))
                        return Value::integer(r);
                    break;
                case Op::Mul:
                    if (!__builtin_mul_overflow(a, b, &r))
                        return Value::integer(r);
                    break;
                case Op::Eq: return Value::boolean(a == b);
                case Op::Ne: return Value::boolean(a != b);
                case Op::Lt: return Value::boolean(a < b);
                case Op::Le: return Value::boolean(a <= b);
                case Op::Gt: return Value::boolean(a > b);
                case Op::Ge: return Value::boolean(a >= b);
                default: break;
                }
                break;
            }
            case Kind::Double: {
                const double a = x.asDouble(), b = y.asDouble();
                switch (in.op) {
                case Op::Add: return Value::real(a + b);
                case Op::Sub: return Value::real(a - b);
                case Op::Mul: return Value::real(a * b);
                case Op::Div: return Value::real(a / b);
                case Op::Eq: return Value::boolean(a == b);
                case Op::Ne: return Value::boolean(a != b);
                case Op::Lt: return Value::boolean(a < b);
                case Op::Le: return Value::boolean(a <= b);
                case Op::Gt: return Value::boolean(a > b);
                case Op::Ge: return Value::boolean(a >= b);
                default: break;
                }
                break;
            }
            case Kind::String:
                if (in.op == Op::Eq)
                    return Value::boolean(sameBytes(x.asString(), y.asString()));
                if (in.op == Op::Ne)
                    return Value::boolean(!sameBytes(x.asString(), y.asString()));
                break;
            default: break;
            }
        }
        const std::array<Value, 2> args{x, y};
        return callFunction(in.fn, args, m_arena, in.node, m_ctx);
    }

    template <Op O, typename T> static bool relate(T x, T c)
    {
        switch (O) {
        case Op::EqC: return x == c;
        case Op::NeC: return x != c;
        case Op::LtC: return x < c;
        case Op::LeC: return x <= c;
        case Op::GtC: return x > c;
        default: return x >= c;
        }
    }

    // `x OP constant`, with the same-kind cases inline and the rest through callFunction.
    template <bool Traced, Op O> Value compareWithConstant(const Instr& in)
    {
        if constexpr (Traced)
            return binary<Traced>(in); // every operand recorded, as written
        const bool constLeft = in.n != 0;
        const Value x = constLeft ? fetch<Traced>(in.b, in.mb) : fetch<Traced>(in.a, in.ma);
        const Value& c = in.k;
        if (x.kind() == c.kind()) {
            switch (x.kind()) {
            case Kind::Int:
            case Kind::Bool: return Value::boolean(relate<O>(x.asInt(), c.asInt()));
            case Kind::Double: return Value::boolean(relate<O>(x.asDouble(), c.asDouble()));
            case Kind::String:
                if constexpr (O == Op::EqC)
                    return Value::boolean(sameBytes(x.asString(), c.asString()));
                else if constexpr (O == Op::NeC)
                    return Value::boolean(!sameBytes(x.asString(), c.asString()));
                else
                    return Value::boolean(relate<O>(x.asString(), c.asString()));
            default: break;
            }
        }
        if (x.isError())
            return x;
        const std::array<Value, 2> args = constLeft ? std::array<Value, 2>{c, x} : std::array<Value, 2>{x, c};
        return callFunction(in.fn, args, m_arena, in.node, m_ctx);
    }

    // The instructions rule conditions are made of; the rest (cold) out of line, so this stays small.
    template <bool Traced> Value step(const Instr& in)
    {
        switch (in.op) {
        case Op::Const:
        case Op::Unbound: return m_p.constants[in.a];
        case Op::Slot: return in.a < m_slots.size() ? m_slots[in.a] : m_p.constants[in.c];
        case Op::Local: return m_locals[in.a];
        case Op::And: return logical<Traced>(in, true);
        case Op::Or: return logical<Traced>(in, false);
        case Op::Not: {
            const Value v = fetch<Traced>(in.a, in.ma);
            if (v.isBool())
                return Value::boolean(!v.asBool());
            return v.isError() ? v : noOverload(in.node);
        }
        case Op::Cond: {
            const Value c = fetch<Traced>(in.a, in.ma);
            if (c.isBool())
                return eval<Traced>(c.asBool() ? in.b : in.c);
            return c.isError() ? c : noOverload(in.node);
        }
        case Op::EqC: return compareWithConstant<Traced, Op::EqC>(in);
        case Op::NeC: return compareWithConstant<Traced, Op::NeC>(in);
        case Op::LtC: return compareWithConstant<Traced, Op::LtC>(in);
        case Op::LeC: return compareWithConstant<Traced, Op::LeC>(in);
        case Op::GtC: return compareWithConstant<Traced, Op::GtC>(in);
        case Op::GeC: return compareWithConstant<Traced, Op::GeC>(in);
        case Op::Add:
        case Op::Sub:
        case Op::Mul:
        case Op::Div:
        case Op::Eq:
        case Op::Ne:
        case Op::Lt:
        case Op::Le:
        case Op::Gt:
        case Op::Ge:
        case Op::In:
        case Op::Index: return binary<Traced>(in);
        case Op::Call1: {
            const Value x = fetch<Traced>(in.a, in.ma);
            if (x.isError())
                return x;
            return callFunction(in.fn, {&x, 1}, m_arena, in.node, m_ctx);
        }
        case Op::Call2: {
            const Value x = fetch<Traced>(in.a, in.ma);
            if (x.isError())
                return x;
            const Value y = fetch<Traced>(in.b, in.mb);
            if (y.isError())
                return y;
            const std::array<Value, 2> args{x, y};
            return callFunction(in.fn, args, m_arena, in.node, m_ctx);
        }
        case Op::MatchesConst: {
            const Value s = fetch<Traced>(in.a, in.ma);
            if (s.isError())
                return s;
            if (s.kind() != Kind::String)
                return noOverload(in.node);
            const std::string_view text = s.asString();
            const RE2& shared = *m_p.regexes[in.b];
            const RE2& re = m_ctx ? *contextRegexCopy(*m_ctx, m_p.id, in.b, shared) : shared;
            return Value::boolean(RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), re));
        }
        default: return stepCold<Traced>(in);
        }
    }

    template <bool Traced> [[gnu::noinline]] Value stepCold(const Instr& in)
    {
        switch (in.op) {
        case Op::Select:
        case Op::Has: {
            const Value o = fetch<Traced>(in.a, in.ma);
            if (o.isError())
                return o;
            if (o.kind() != Kind::Map) {
                if (in.op == Op::Has)
                    return noOverload(in.node);
                return makeError(m_arena,
                                 "type '" + std::string(kindName(o.kind())) + "' does not support field selection",
                                 in.node);
            }
            const Value* v = mapFind(o.asMap(), m_p.constants[in.b]);
            if (in.op == Op::Has)
                return Value::boolean(v != nullptr);
            if (!v)
                return makeError(m_arena, "no such key: '" + std::string(m_p.constants[in.b].asString()) + "'",
                                 in.node);
            return *v;
        }
        case Op::CallN: {
            Value* args = m_arena.allocArray<Value>(in.n);
            for (std::uint32_t k = 0; k < in.n; ++k) {
                args[k] = eval<Traced>(m_p.operands[in.a + k]);
                if (args[k].isError())
                    return args[k];
            }
            if (in.n == 0)
                return noOverload(in.node);
            return callFunction(in.fn, {args, in.n}, m_arena, in.node, m_ctx);
        }
        case Op::List: {
            Value* items = m_arena.allocArray<Value>(in.n);
            for (std::uint32_t k = 0; k < in.n; ++k) {
                items[k] = eval<Traced>(m_p.operands[in.a + k]);
                if (items[k].isError())
                    return items[k];
            }
            auto* data = m_arena.allocArray<ListData>(1);
            new (data) ListData{items, in.n, {}};
            return Value::list(data);
        }
        case Op::Map: {
            Value* kv = m_arena.allocArray<Value>(2 * std::size_t{in.n});
            for (std::uint32_t k = 0; k < in.n; ++k) {
                kv[k] = eval<Traced>(m_p.operands[in.a + 2 * k]);
                if (kv[k].isError())
                    return kv[k];
                kv[in.n + k] = eval<Traced>(m_p.operands[in.a + 2 * k + 1]);
                if (kv[in.n + k].isError())
                    return kv[in.n + k];
            }
            const Value m = makeMap(m_arena, {kv, in.n}, {kv + in.n, in.n});
            if (m.isError())
                return makeError(m_arena, m.asError().message, in.node);
            return m;
        }
        case Op::Loop: return loop<Traced>(in);
        default: return noOverload(in.node);
        }
    }

    struct Growable {
        Value* data = nullptr;
        std::uint32_t size = 0;
        std::uint32_t capacity = 0;

        void push(Arena& arena, const Value& v)
        {
            if (size == capacity) {
                const std::uint32_t next = capacity ? capacity * 2 : 8;
                Value* grown = arena.allocArray<Value>(next);
                std::copy(data, data + size, grown);
                data = grown;
                capacity = next;
            }
            data[size++] = v;
        }
    };

    template <bool Traced> Value loop(const Instr& in)
    {
        const LoopDesc& d = m_p.loops[in.a];
        const Value range = eval<Traced>(d.range);
        if (range.isError())
            return range;
        const bool isList = range.kind() == Kind::List;
        if (!isList && range.kind() != Kind::Map)
            return makeError(m_arena, "cannot iterate over a value of type " + std::string(kindName(range.kind())),
                             in.node);
        const std::uint32_t n = isList ? range.asList().size : range.asMap().size;
        Value* vars = m_locals + d.local;
        // The budget of the whole evaluation, spent by every iteration of every (nested) macro.
        if (m_ctx) {
            m_ctx->m_iterationsLeft -= n;
            if (m_ctx->m_iterationsLeft < 0)
                return stopped(makeError(m_arena,
                                         "evaluation stopped: more than "
                                             + std::to_string(m_ctx->m_limits.maxIterations) + " macro iterations",
                                         in.node));
        }
        auto bind = [&](std::uint32_t k) {
            if (m_arena.bytesUsed() > m_maxBytes)
                return false;
            if (isList) {
                const Value& item = range.asList().items[k];
                if (d.twoVars) {
                    vars[0] = Value::integer(k);
                    vars[1] = item;
                } else {
                    vars[0] = item;
                }
            } else {
                vars[0] = range.asMap().keys[k];
                if (d.twoVars)
                    vars[1] = range.asMap().values[k];
            }
            return true;
        };
        auto tooBig = [&] {
            return stopped(makeError(
                m_arena, "evaluation stopped: its values take more than " + std::to_string(m_maxBytes >> 20) + " MiB",
                in.node));
        };
        switch (d.macro) {
        case Macro::All:
        case Macro::Exists: {
            // all: false decides, exists: true decides; otherwise the first error (or non-bool) is the result.
            const bool deciding = d.macro == Macro::Exists;
            Value pending;
            bool havePending = false;
            for (std::uint32_t k = 0; k < n; ++k) {
                if (!bind(k))
                    return tooBig();
                const Value v = eval<Traced>(d.body);
                if (v.isBool()) {
                    if (v.asBool() == deciding)
                        return v;
                } else if (!havePending) {
                    pending = v.isError() ? v : noOverload(in.node);
                    havePending = true;
                }
            }
            return havePending ? pending : Value::boolean(!deciding);
        }
        case Macro::ExistsOne: {
            std::uint32_t count = 0;
            for (std::uint32_t k = 0; k < n; ++k) {
                if (!bind(k))
                    return tooBig();
                const Value v = eval<Traced>(d.body);
                if (!v.isBool())
                    return v.isError() ? v : noOverload(in.node);
                count += v.asBool() ? 1 : 0;
            }
            return Value::boolean(count == 1);
        }
        case Macro::Map:
        case Macro::MapFilter:
        case Macro::Filter:
        case Macro::TransformList:
        case Macro::TransformMap: {
            Growable keys, values;
            for (std::uint32_t k = 0; k < n; ++k) {
                if (!bind(k))
                    return tooBig();
                if (d.filter >= 0) {
                    const Value f = eval<Traced>(static_cast<std::uint32_t>(d.filter));
                    if (!f.isBool())
                        return f.isError() ? f : noOverload(in.node);
                    if (!f.asBool())
                        continue;
                }
                const Value v = eval<Traced>(d.body);
                if (v.isError())
                    return v;
                if (d.macro == Macro::Filter) {
                    if (!v.isBool())
                        return noOverload(in.node);
                    if (v.asBool())
                        values.push(m_arena, vars[0]);
                    continue;
                }
                if (d.macro == Macro::TransformMap)
                    keys.push(m_arena, isList ? Value::integer(k) : range.asMap().keys[k]);
                values.push(m_arena, v);
            }
            if (d.macro == Macro::TransformMap) {
                auto* data = m_arena.allocArray<MapData>(1);
                new (data) MapData{keys.data, values.data, keys.size, {}};
                if (keys.size > 8)
                    return makeMap(m_arena, {keys.data, keys.size}, {values.data, values.size});
                return Value::map(data);
            }
            auto* data = m_arena.allocArray<ListData>(1);
            new (data) ListData{values.data, values.size, {}};
            return Value::list(data);
        }
        case Macro::None: break;
        }
        return noOverload(in.node);
    }

    // A limit reached is the result of the whole evaluation, whatever && or all() would make of it.
    Value stopped(const Value& error)
    {
        if (!m_stopped.isError())
            m_stopped = error;
        return m_stopped;
    }

public:
    Value result(const Value& v) const { return m_stopped.isError() ? m_stopped : v; }

private:
    Value m_stopped;
    const Program::Impl& m_p;
    const Instr* m_code;
    std::span<const Value> m_slots;
    Arena& m_arena;
    EvalContext* m_ctx;
    Value* m_locals;
    Trace* m_trace;
    std::size_t m_maxBytes;

    friend class Program;
    friend Value foldInstruction(const Program::Impl& p, std::uint32_t instr, Arena& arena);
};

Value stepHandler(Evaluator& ev, const Instr& in)
{
    return Evaluator::hStep(ev, in);
}

void assignHandlers(Program::Impl& p)
{
    for (Instr& in : p.code)
        in.handler = Evaluator::handlerFor(in, p);
}

Value foldInstruction(const Program::Impl& p, std::uint32_t instr, Arena& arena)
{
    Evaluator ev(p, {}, arena, nullptr, nullptr, nullptr);
    return ev.eval<false>(instr);
}

// ---- Program ----------------------------------------------------------------------------------------------

Value Program::eval(const Activation& activation, EvalContext& ctx) const
{
    ctx.m_arena.reset();
    ctx.m_iterationsLeft = ctx.m_limits.maxIterations;
    if (ctx.m_locals.size() < static_cast<std::size_t>(m_impl->localCount))
        ctx.m_locals.resize(static_cast<std::size_t>(m_impl->localCount));
    Evaluator ev(*m_impl, activation.values, ctx.m_arena, &ctx, ctx.m_locals.data(), nullptr);
    const Value v = ev.eval<false>(m_impl->root);
    return ev.result(v);
}

Value Program::evalTraced(const Activation& activation, EvalContext& ctx, Trace& trace) const
{
    ctx.m_arena.reset();
    ctx.m_iterationsLeft = ctx.m_limits.maxIterations;
    trace.steps.clear();
    trace.truncated = false;
    if (ctx.m_locals.size() < static_cast<std::size_t>(m_impl->localCount))
        ctx.m_locals.resize(static_cast<std::size_t>(m_impl->localCount));
    Evaluator ev(*m_impl, activation.values, ctx.m_arena, &ctx, ctx.m_locals.data(), &trace);
    const Value v = ev.eval<true>(m_impl->root);
    return ev.result(v);
}

const Type& Program::resultType() const
{
    return m_impl->resultType;
}

const Ast& Program::ast() const
{
    return m_impl->ast;
}

std::span<const int> Program::referencedSlots() const
{
    return m_impl->slots;
}

std::optional<Value> Program::constant() const
{
    const Instr& root = m_impl->code[m_impl->root];
    if (root.op != Op::Const)
        return std::nullopt;
    return m_impl->constants[root.a];
}

std::size_t Program::instructionCount() const
{
    return m_impl->code.size();
}

std::string Program::errorMessage(const Value& error) const
{
    if (!error.isError())
        return {};
    const ErrorData& e = error.asError();
    std::string message(e.message);
    if (e.node >= 0 && static_cast<std::size_t>(e.node) < m_impl->ast.nodes.size()) {
        const SourcePosition p = positionOf(m_impl->ast.source, m_impl->ast.node(e.node).pos);
        return std::to_string(p.line) + ":" + std::to_string(p.column) + ": " + message;
    }
    return message;
}

} // namespace sb::cel
