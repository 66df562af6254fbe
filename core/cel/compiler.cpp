// From a checked AST to instructions: names resolved to slots, operators to instructions, and every
// sub-expression whose inputs are constants evaluated once, here, instead of once per record.

#include "program_impl.h"

#include <algorithm>
#include <atomic>
#include <set>

namespace sb::cel {

Value foldInstruction(const Program::Impl& p, std::uint32_t instr, Arena& arena);

namespace {

class Compiler {
public:
    Compiler(Program::Impl& p, const CheckedAst& checked, bool strict) : m_p(p), m_checked(checked), m_strict(strict) {}

    std::uint32_t run() { return gen(m_p.ast.root); }

    CompileError errors;

private:
    const Ast& ast() const { return m_p.ast; }

    std::uint32_t emit(Instr in)
    {
        m_p.code.push_back(in);
        return static_cast<std::uint32_t>(m_p.code.size() - 1);
    }

    std::uint32_t constant(const Value& v)
    {
        m_p.constants.push_back(v);
        return static_cast<std::uint32_t>(m_p.constants.size() - 1);
    }

    std::uint32_t emitConst(const Value& v, std::int32_t node)
    {
        Instr in;
        in.op = Op::Const;
        in.a = constant(v);
        in.node = node;
        return emit(in);
    }

    bool isConst(std::uint32_t i) const { return m_p.code[i].op == Op::Const; }
    const Value& constOf(std::uint32_t i) const { return m_p.constants[m_p.code[i].a]; }

    // Replaces the instruction `i` (the last one emitted, its operands emitted from `start` on) by its value.
    std::uint32_t fold(std::uint32_t i, std::size_t start, std::size_t operandStart)
    {
        const Instr in = m_p.code[i];
        Value v;
        if (in.op == Op::List) {
            // Constant lists get a hash index so `x in [...]` stays fast however long the list.
            std::vector<Value> items;
            for (std::uint32_t k = 0; k < in.n; ++k)
                items.push_back(constOf(m_p.operands[in.a + k]));
            v = makeIndexedList(m_p.arena, items);
        } else {
            v = foldInstruction(m_p, i, m_p.arena);
        }
        m_p.code.resize(start);
        m_p.operands.resize(operandStart);
        return emitConst(v, in.node);
    }

    void diagnose(std::int32_t node, std::string message)
    {
        if (errors.diagnostics.size() >= 50) // as the checker: enough to act on, never pages
            return;
        const Node& n = ast().node(node);
        const SourcePosition p = positionOf(ast().source, n.pos);
        errors.diagnostics.push_back(
            Diagnostic{n.pos, std::max<std::uint32_t>(1, n.end - n.pos), p.line, p.column, std::move(message)});
    }

    std::uint32_t genReference(std::int32_t node, const Reference& ref)
    {
        switch (ref.kind) {
        case Reference::Kind::Variable: {
            Instr in;
            in.op = Op::Slot;
            in.a = static_cast<std::uint32_t>(ref.index);
            in.c = constant(makeError(m_p.arena, "no value for '" + ref.name + "'", node));
            in.node = node;
            if (std::find(m_p.slots.begin(), m_p.slots.end(), ref.index) == m_p.slots.end())
                m_p.slots.push_back(ref.index);
            return emit(in);
        }
        case Reference::Kind::IterVar: {
            Instr in;
            in.op = Op::Local;
            in.a = static_cast<std::uint32_t>(ref.index);
            in.node = node;
            return emit(in);
        }
        case Reference::Kind::TypeName: return emitConst(Value::type(static_cast<Kind>(ref.index)), node);
        case Reference::Kind::Unbound:
        case Reference::Kind::None: break;
        }
        Instr in;
        in.op = Op::Unbound;
        in.a = constant(makeError(m_p.arena, "undeclared reference to '" + ref.name + "'", node));
        in.node = node;
        return emit(in);
    }

    std::uint32_t gen(std::int32_t node)
    {
        const Node& n = ast().node(node);
        const Reference& ref = m_checked.refs[static_cast<std::size_t>(node)];
        const std::size_t start = m_p.code.size();
        const std::size_t operandStart = m_p.operands.size();
        switch (n.kind) {
        case NodeKind::Literal: return emitConst(literalValue(n.literal), node);
        case NodeKind::Ident: return genReference(node, ref);
        case NodeKind::Select: {
            if (!n.testOnly && ref.kind != Reference::Kind::None)
                return genReference(node, ref);
            Instr in;
            in.op = n.testOnly ? Op::Has : Op::Select;
            in.a = gen(n.target);
            in.b = constant(Value::string(m_p.arena.copy(n.name)));
            in.node = node;
            const std::uint32_t i = emit(in);
            return isConst(in.a) ? fold(i, start, operandStart) : i;
        }
        case NodeKind::List:
        case NodeKind::Map: {
            std::vector<std::uint32_t> items;
            for (const std::int32_t a : n.args)
                items.push_back(gen(a));
            Instr in;
            in.op = n.kind == NodeKind::List ? Op::List : Op::Map;
            in.a = static_cast<std::uint32_t>(m_p.operands.size());
            in.n = static_cast<std::uint16_t>(n.kind == NodeKind::List ? items.size() : items.size() / 2);
            in.node = node;
            m_p.operands.insert(m_p.operands.end(), items.begin(), items.end());
            if (items.size() > 0xffff) {
                diagnose(node, "too many elements in one literal (at most 65535)");
                return emitConst(Value(), node);
            }
            const std::uint32_t i = emit(in);
            const bool allConst = std::all_of(items.begin(), items.end(), [&](std::uint32_t k) { return isConst(k); });
            return allConst ? fold(i, start, operandStart) : i;
        }
        case NodeKind::Comprehension: {
            LoopDesc d;
            d.macro = n.macro;
            d.twoVars = !n.var2.empty();
            d.local = static_cast<std::uint32_t>(m_checked.iterSlots[static_cast<std::size_t>(node)]);
            d.range = gen(n.target);
            if (n.args.size() == 2) {
                d.filter = static_cast<std::int32_t>(gen(n.args[0]));
                d.body = gen(n.args[1]);
            } else {
                d.body = gen(n.args[0]);
            }
            m_p.loops.push_back(d);
            Instr in;
            in.op = Op::Loop;
            in.a = static_cast<std::uint32_t>(m_p.loops.size() - 1);
            in.node = node;
            return emit(in);
        }
        case NodeKind::Call: return genCall(node, n, start, operandStart);
        }
        return emitConst(Value(), node);
    }

    Value literalValue(const Literal& l)
    {
        switch (l.kind) {
        case LiteralKind::Null: return Value::null();
        case LiteralKind::Bool: return Value::boolean(l.boolValue);
        case LiteralKind::Int: return Value::integer(l.intValue);
        case LiteralKind::Uint: return Value::uinteger(l.uintValue);
        case LiteralKind::Double: return Value::real(l.doubleValue);
        case LiteralKind::String: return Value::string(m_p.arena.copy(l.text));
        case LiteralKind::Bytes: return Value::bytes(m_p.arena.copy(l.text));
        }
        return Value::null();
    }

    std::uint32_t genCall(std::int32_t node, const Node& n, std::size_t start, std::size_t operandStart)
    {
        const Fn fn = m_checked.functions[static_cast<std::size_t>(node)];
        if (fn == Fn::Unknown) {
            Instr in;
            in.op = Op::Unbound;
            in.a = constant(makeError(m_p.arena, "unbound function '" + n.name + "'", node));
            in.node = node;
            return emit(in);
        }
        std::vector<std::int32_t> argNodes;
        if (n.target >= 0)
            argNodes.push_back(n.target);
        argNodes.insert(argNodes.end(), n.args.begin(), n.args.end());
        std::vector<std::uint32_t> args;
        for (const std::int32_t a : argNodes)
            args.push_back(gen(a));
        const bool allConst = std::all_of(args.begin(), args.end(), [&](std::uint32_t k) { return isConst(k); });

        Instr in;
        in.fn = fn;
        in.node = node;
        // Absorbing constants decide && and || whatever the other side is (an error, a non-bool).
        if ((fn == Fn::And || fn == Fn::Or) && args.size() == 2) {
            const bool absorbing = fn == Fn::Or;
            for (const std::uint32_t k : args) {
                if (isConst(k) && constOf(k).isBool() && constOf(k).asBool() == absorbing) {
                    const Value v = constOf(k);
                    m_p.code.resize(start);
                    m_p.operands.resize(operandStart);
                    return emitConst(v, node);
                }
            }
        }
        if (fn == Fn::Cond && args.size() == 3 && isConst(args[0]) && constOf(args[0]).isBool()) {
            // The branch not taken is dead code; leaving it costs nothing at run time.
            return constOf(args[0]).asBool() ? args[1] : args[2];
        }
        switch (fn) {
        case Fn::And:
        case Fn::Or: in.op = fn == Fn::And ? Op::And : Op::Or; break;
        case Fn::Not: in.op = Op::Not; break;
        case Fn::Cond: in.op = Op::Cond; break;
        case Fn::Add: in.op = Op::Add; break;
        case Fn::Sub: in.op = Op::Sub; break;
        case Fn::Mul: in.op = Op::Mul; break;
        case Fn::Div: in.op = Op::Div; break;
        case Fn::Eq: in.op = Op::Eq; break;
        case Fn::Ne: in.op = Op::Ne; break;
        case Fn::Lt: in.op = Op::Lt; break;
        case Fn::Le: in.op = Op::Le; break;
        case Fn::Gt: in.op = Op::Gt; break;
        case Fn::Ge: in.op = Op::Ge; break;
        case Fn::In: in.op = Op::In; break;
        case Fn::Index: in.op = Op::Index; break;
        default: in.op = args.size() == 1 ? Op::Call1 : (args.size() == 2 ? Op::Call2 : Op::CallN); break;
        }
        const bool binaryOp =
            in.op != Op::Call1 && in.op != Op::Call2 && in.op != Op::CallN && in.op != Op::Not && in.op != Op::Cond;
        if ((binaryOp || in.op == Op::Call2) && args.size() != 2)
            in.op = Op::CallN;
        if (in.op == Op::Cond && args.size() != 3)
            in.op = Op::CallN;
        if (in.op == Op::Not && args.size() != 1)
            in.op = Op::CallN;

        // A constant pattern is compiled once; an invalid one is a compile error where it is written.
        if (fn == Fn::Matches && args.size() == 2 && isConst(args[1]) && !isConst(args[0])
            && constOf(args[1]).kind() == Kind::String) {
            const std::string_view pattern = constOf(args[1]).asString();
            RE2::Options o;
            o.set_log_errors(false);
            auto re = std::make_unique<RE2>(re2::StringPiece(pattern.data(), pattern.size()), o);
            if (re->ok()) {
                in.op = Op::MatchesConst;
                in.a = args[0];
                in.b = static_cast<std::uint32_t>(m_p.regexes.size());
                m_p.regexes.push_back(std::move(re));
                return emit(in);
            }
            if (m_strict)
                diagnose(argNodes[1], "invalid regular expression: " + re->error());
        }

        if (in.op == Op::CallN) {
            in.a = static_cast<std::uint32_t>(m_p.operands.size());
            in.n = static_cast<std::uint16_t>(args.size());
            m_p.operands.insert(m_p.operands.end(), args.begin(), args.end());
        } else {
            in.a = args.size() > 0 ? args[0] : 0;
            in.b = args.size() > 1 ? args[1] : 0;
            in.c = args.size() > 2 ? args[2] : 0;
        }
        const std::uint32_t i = emit(in);
        return allConst ? fold(i, start, operandStart) : i;
    }

    Program::Impl& m_p;
    const CheckedAst& m_checked;
    bool m_strict;
};

// The constant-comparison form of a comparison with exactly one constant operand, else the op unchanged.
Op constComparison(const Instr& in, const std::vector<Instr>& code, const std::vector<Value>& constants)
{
    const bool binaryCompare =
        in.op == Op::Eq || in.op == Op::Ne || in.op == Op::Lt || in.op == Op::Le || in.op == Op::Gt || in.op == Op::Ge;
    if (!binaryCompare)
        return in.op;
    const bool left = code[in.a].op == Op::Const, right = code[in.b].op == Op::Const;
    if (left == right)
        return in.op;
    // A constant that is an error (a folded 1 / 0) must win as the left operand does in the general
    // path, which evaluates left first: leave such comparisons to it.
    if (constants[code[left ? in.a : in.b].a].isError())
        return in.op;
    switch (in.op) {
    case Op::Eq: return Op::EqC;
    case Op::Ne: return Op::NeC;
    case Op::Lt: return left ? Op::GtC : Op::LtC;
    case Op::Le: return left ? Op::GeC : Op::LeC;
    case Op::Gt: return left ? Op::LtC : Op::GtC;
    case Op::Ge: return left ? Op::LeC : Op::GeC;
    default: return in.op;
    }
}

Operand operandMode(Op op)
{
    return op == Op::Const ? Operand::Const : (op == Op::Slot ? Operand::Slot : Operand::Eval);
}

} // namespace

std::expected<Program, CompileError> compile(std::string_view source, const Declarations& declarations,
                                             const CompileOptions& options)
{
    auto ast = parse(source, options.limits);
    if (!ast)
        return std::unexpected(std::move(ast.error()));
    auto checked = check(*ast, declarations, options.check);
    if (!checked)
        return std::unexpected(std::move(checked.error()));
    auto impl = std::make_shared<Program::Impl>();
    static std::atomic<std::uint64_t> nextId{1};
    impl->id = nextId.fetch_add(1, std::memory_order_relaxed);
    impl->ast = std::move(*ast);
    impl->resultType = checked->resultType;
    impl->localCount = checked->localCount;
    Compiler compiler(*impl, *checked, options.check);
    impl->root = compiler.run();
    if (!compiler.errors.diagnostics.empty())
        return std::unexpected(std::move(compiler.errors));
    std::sort(impl->slots.begin(), impl->slots.end());
    // Operands that are constants or fields are read in place (see Operand). Only instructions that read
    // their operands through Evaluator::fetch have them; a traced evaluation still evaluates each one.
    for (Instr& in : impl->code) {
        if (const Op c = constComparison(in, impl->code, impl->constants); c != in.op) {
            in.n = impl->code[in.a].op == Op::Const ? 1 : 0;
            in.op = c;
            in.k = impl->constants[impl->code[in.n ? in.a : in.b].a];
        }
        switch (in.op) {
        case Op::EqC:
        case Op::NeC:
        case Op::LtC:
        case Op::LeC:
        case Op::GtC:
        case Op::GeC:
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
        case Op::Index:
        case Op::Call2:
        case Op::And:
        case Op::Or: in.mb = operandMode(impl->code[in.b].op); [[fallthrough]];
        case Op::Call1:
        case Op::Not:
        case Op::Cond:
        case Op::Select:
        case Op::Has:
        case Op::MatchesConst: in.ma = operandMode(impl->code[in.a].op); break;
        default: break;
        }
    }
    assignHandlers(*impl);
    return Program(std::move(impl));
}

} // namespace sb::cel
