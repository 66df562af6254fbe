#include "checker.h"

#include "cel/lexer.h"
#include "cel/value.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>

namespace sb::cel {

// ---- Function names ---------------------------------------------------------------------------------------

namespace {

struct FunctionName {
    std::string_view name;
    Fn fn;
    bool global;
    bool member;
};

constexpr std::array kFunctions = {
    FunctionName{"_+_", Fn::Add, true, false},
    FunctionName{"_-_", Fn::Sub, true, false},
    FunctionName{"_*_", Fn::Mul, true, false},
    FunctionName{"_/_", Fn::Div, true, false},
    FunctionName{"_%_", Fn::Mod, true, false},
    FunctionName{"-_", Fn::Neg, true, false},
    FunctionName{"!_", Fn::Not, true, false},
    FunctionName{"_&&_", Fn::And, true, false},
    FunctionName{"_||_", Fn::Or, true, false},
    FunctionName{"_?_:_", Fn::Cond, true, false},
    FunctionName{"_==_", Fn::Eq, true, false},
    FunctionName{"_!=_", Fn::Ne, true, false},
    FunctionName{"_<_", Fn::Lt, true, false},
    FunctionName{"_<=_", Fn::Le, true, false},
    FunctionName{"_>_", Fn::Gt, true, false},
    FunctionName{"_>=_", Fn::Ge, true, false},
    FunctionName{"@in", Fn::In, true, false},
    FunctionName{"_[_]", Fn::Index, true, false},
    FunctionName{"size", Fn::Size, true, true},
    FunctionName{"contains", Fn::Contains, false, true},
    FunctionName{"startsWith", Fn::StartsWith, false, true},
    FunctionName{"endsWith", Fn::EndsWith, false, true},
    FunctionName{"matches", Fn::Matches, true, true},
    FunctionName{"int", Fn::ToInt, true, false},
    FunctionName{"uint", Fn::ToUint, true, false},
    FunctionName{"double", Fn::ToDouble, true, false},
    FunctionName{"string", Fn::ToString, true, false},
    FunctionName{"bytes", Fn::ToBytes, true, false},
    FunctionName{"bool", Fn::ToBool, true, false},
    FunctionName{"timestamp", Fn::ToTimestamp, true, false},
    FunctionName{"duration", Fn::ToDuration, true, false},
    FunctionName{"dyn", Fn::ToDyn, true, false},
    FunctionName{"type", Fn::TypeOf, true, false},
    FunctionName{"getFullYear", Fn::GetFullYear, false, true},
    FunctionName{"getMonth", Fn::GetMonth, false, true},
    FunctionName{"getDate", Fn::GetDate, false, true},
    FunctionName{"getDayOfMonth", Fn::GetDayOfMonth, false, true},
    FunctionName{"getDayOfWeek", Fn::GetDayOfWeek, false, true},
    FunctionName{"getDayOfYear", Fn::GetDayOfYear, false, true},
    FunctionName{"getHours", Fn::GetHours, false, true},
    FunctionName{"getMinutes", Fn::GetMinutes, false, true},
    FunctionName{"getSeconds", Fn::GetSeconds, false, true},
    FunctionName{"getMilliseconds", Fn::GetMilliseconds, false, true},
    FunctionName{"lowerAscii", Fn::LowerAscii, false, true},
    FunctionName{"upperAscii", Fn::UpperAscii, false, true},
    FunctionName{"trim", Fn::Trim, false, true},
};

} // namespace

Fn lookupFunction(std::string_view name, bool member)
{
    for (const auto& f : kFunctions) {
        if (f.name == name && (member ? f.member : f.global))
            return f.fn;
    }
    return Fn::Unknown;
}

// ---- Overloads --------------------------------------------------------------------------------------------

namespace {

struct Overload {
    Fn fn;
    bool member;
    std::vector<Type> params;
    Type result;
};

// Signature types: the checker's own names plus type parameters A and B.
Type sigType(std::string_view s)
{
    if (s == "A")
        return Type::param(0);
    if (s == "B")
        return Type::param(1);
    if (s == "list(A)")
        return Type::list(Type::param(0));
    if (s == "map(A,B)")
        return Type::map(Type::param(0), Type::param(1));
    if (s == "type(A)")
        return Type::typeOf(Type::param(0));
    return *Type::parse(s);
}

void addOverload(std::vector<Overload>& out, Fn fn, bool member, std::initializer_list<std::string_view> params,
                 std::string_view result)
{
    Overload o{fn, member, {}, sigType(result)};
    for (auto p : params)
        o.params.push_back(sigType(p));
    out.push_back(std::move(o));
}

const std::vector<Overload>& overloads()
{
    static const std::vector<Overload> table = [] {
        std::vector<Overload> t;
        auto g = [&](Fn fn, std::initializer_list<std::string_view> p, std::string_view r) {
            addOverload(t, fn, false, p, r);
        };
        auto m = [&](Fn fn, std::initializer_list<std::string_view> p, std::string_view r) {
            addOverload(t, fn, true, p, r);
        };
        for (auto num : {"int", "uint", "double"}) {
            g(Fn::Add, {num, num}, num);
            g(Fn::Sub, {num, num}, num);
            g(Fn::Mul, {num, num}, num);
            g(Fn::Div, {num, num}, num);
        }
        g(Fn::Mod, {"int", "int"}, "int");
        g(Fn::Mod, {"uint", "uint"}, "uint");
        g(Fn::Add, {"string", "string"}, "string");
        g(Fn::Add, {"bytes", "bytes"}, "bytes");
        g(Fn::Add, {"list(A)", "list(A)"}, "list(A)");
        g(Fn::Add, {"timestamp", "duration"}, "timestamp");
        g(Fn::Add, {"duration", "timestamp"}, "timestamp");
        g(Fn::Add, {"duration", "duration"}, "duration");
        g(Fn::Sub, {"timestamp", "timestamp"}, "duration");
        g(Fn::Sub, {"timestamp", "duration"}, "timestamp");
        g(Fn::Sub, {"duration", "duration"}, "duration");
        g(Fn::Neg, {"int"}, "int");
        g(Fn::Neg, {"double"}, "double");
        g(Fn::Not, {"bool"}, "bool");
        g(Fn::And, {"bool", "bool"}, "bool");
        g(Fn::Or, {"bool", "bool"}, "bool");
        g(Fn::Cond, {"bool", "A", "A"}, "A");
        g(Fn::Eq, {"A", "A"}, "bool");
        g(Fn::Ne, {"A", "A"}, "bool");
        for (Fn fn : {Fn::Lt, Fn::Le, Fn::Gt, Fn::Ge}) {
            for (auto same : {"bool", "int", "uint", "double", "string", "bytes", "timestamp", "duration"})
                g(fn, {same, same}, "bool");
            for (auto a : {"int", "uint", "double"}) {
                for (auto b : {"int", "uint", "double"}) {
                    if (std::string_view(a) != b)
                        g(fn, {a, b}, "bool");
                }
            }
        }
        g(Fn::In, {"A", "list(A)"}, "bool");
        g(Fn::In, {"A", "map(A,B)"}, "bool");
        g(Fn::Index, {"list(A)", "int"}, "A");
        g(Fn::Index, {"map(A,B)", "A"}, "B");
        for (auto s : {"string", "bytes", "list(A)", "map(A,B)"}) {
            g(Fn::Size, {s}, "int");
            m(Fn::Size, {s}, "int");
        }
        m(Fn::Contains, {"string", "string"}, "bool");
        m(Fn::StartsWith, {"string", "string"}, "bool");
        m(Fn::EndsWith, {"string", "string"}, "bool");
        m(Fn::Matches, {"string", "string"}, "bool");
        g(Fn::Matches, {"string", "string"}, "bool");
        for (auto s : {"int", "uint", "double", "string", "timestamp"})
            g(Fn::ToInt, {s}, "int");
        for (auto s : {"int", "uint", "double", "string"})
            g(Fn::ToUint, {s}, "uint");
        for (auto s : {"int", "uint", "double", "string"})
            g(Fn::ToDouble, {s}, "double");
        for (auto s : {"int", "uint", "double", "bool", "string", "bytes", "timestamp", "duration"})
            g(Fn::ToString, {s}, "string");
        g(Fn::ToBytes, {"bytes"}, "bytes");
        g(Fn::ToBytes, {"string"}, "bytes");
        g(Fn::ToBool, {"bool"}, "bool");
        g(Fn::ToBool, {"string"}, "bool");
        for (auto s : {"string", "int", "timestamp"})
            g(Fn::ToTimestamp, {s}, "timestamp");
        g(Fn::ToDuration, {"string"}, "duration");
        g(Fn::ToDuration, {"duration"}, "duration");
        g(Fn::ToDyn, {"A"}, "dyn");
        g(Fn::TypeOf, {"A"}, "type(A)");
        for (Fn fn : {Fn::GetFullYear, Fn::GetMonth, Fn::GetDate, Fn::GetDayOfMonth, Fn::GetDayOfWeek, Fn::GetDayOfYear,
                      Fn::GetHours, Fn::GetMinutes, Fn::GetSeconds, Fn::GetMilliseconds}) {
            m(fn, {"timestamp"}, "int");
            m(fn, {"timestamp", "string"}, "int");
        }
        for (Fn fn : {Fn::GetHours, Fn::GetMinutes, Fn::GetSeconds, Fn::GetMilliseconds})
            m(fn, {"duration"}, "int");
        m(Fn::LowerAscii, {"string"}, "string");
        m(Fn::UpperAscii, {"string"}, "string");
        m(Fn::Trim, {"string"}, "string");
        return t;
    }();
    return table;
}

using Subst = std::array<std::optional<Type>, 2>;

bool assign(const Type& formal, const Type& actual, Subst& s)
{
    using K = Type::Kind;
    if (formal.kind() == K::Param) {
        auto& bound = s[static_cast<std::size_t>(formal.paramId())];
        if (!bound) {
            bound = (actual.kind() == K::Param || actual.kind() == K::Error) ? Type::dyn() : actual;
            return true;
        }
        return assign(*bound, actual, s);
    }
    if (formal.kind() == K::Dyn || actual.kind() == K::Dyn || formal.kind() == K::Error || actual.kind() == K::Error
        || actual.kind() == K::Param)
        return true;
    if (formal.kind() != actual.kind())
        return false;
    // Type values compare whatever they denote: type([1]) == type(['a']) is a fair question.
    if (formal.kind() == K::Type)
        return true;
    for (std::size_t i = 0; i < formal.params().size() && i < actual.params().size(); ++i) {
        if (!assign(formal.params()[i], actual.params()[i], s))
            return false;
    }
    return true;
}

Type substitute(const Type& t, const Subst& s)
{
    switch (t.kind()) {
    case Type::Kind::Param: {
        const auto& b = s[static_cast<std::size_t>(t.paramId())];
        return b ? *b : Type::dyn();
    }
    case Type::Kind::List: return Type::list(substitute(t.elem(), s));
    case Type::Kind::Map: return Type::map(substitute(t.key(), s), substitute(t.value(), s));
    case Type::Kind::Type: return Type::typeOf(substitute(t.elem(), s));
    default: return t;
    }
}

Type join(const Type& a, const Type& b)
{
    if (a == b || b.kind() == Type::Kind::Error)
        return a;
    if (a.kind() == Type::Kind::Error)
        return b;
    return Type::dyn();
}

std::optional<Kind> typeName(std::string_view name)
{
    static const std::map<std::string_view, Kind> kNames = {
        {"int", Kind::Int},
        {"uint", Kind::Uint},
        {"double", Kind::Double},
        {"bool", Kind::Bool},
        {"string", Kind::String},
        {"bytes", Kind::Bytes},
        {"list", Kind::List},
        {"map", Kind::Map},
        {"null_type", Kind::Null},
        {"type", Kind::Type},
        {"google.protobuf.Timestamp", Kind::Timestamp},
        {"google.protobuf.Duration", Kind::Duration},
    };
    const auto it = kNames.find(name);
    return it == kNames.end() ? std::nullopt : std::optional<Kind>(it->second);
}

Type staticTypeOf(Kind k)
{
    switch (k) {
    case Kind::Int: return Type::integer();
    case Kind::Uint: return Type::uinteger();
    case Kind::Double: return Type::real();
    case Kind::Bool: return Type::boolean();
    case Kind::String: return Type::string();
    case Kind::Bytes: return Type::bytes();
    case Kind::List: return Type::list(Type::dyn());
    case Kind::Map: return Type::map(Type::dyn(), Type::dyn());
    case Kind::Null: return Type::null();
    case Kind::Timestamp: return Type::timestamp();
    case Kind::Duration: return Type::duration();
    default: return Type::typeOf(Type::dyn());
    }
}

class Checker {
public:
    Checker(const Ast& ast, const Declarations& decls, bool strict) : m_ast(ast), m_decls(decls), m_strict(strict)
    {
        const std::size_t n = ast.nodes.size();
        m_out.types.assign(n, Type::dyn());
        m_out.refs.assign(n, Reference{});
        m_out.functions.assign(n, Fn::Unknown);
        m_out.iterSlots.assign(n, -1);
    }

    std::expected<CheckedAst, CompileError> run()
    {
        m_out.resultType = visit(m_ast.root);
        if (m_unreported > 0) {
            const Diagnostic& last = m_errors.diagnostics.back();
            m_errors.diagnostics.push_back(Diagnostic{last.offset, last.length, last.line, last.column,
                                                      std::to_string(m_unreported) + " more errors not shown"});
        }
        if (!m_errors.diagnostics.empty())
            return std::unexpected(std::move(m_errors));
        m_out.localCount = m_maxLocal;
        return std::move(m_out);
    }

private:
    // Enough to fix the expression in front of you; an expression of thousands of mistakes (generated,
    // pasted) must not cost seconds and pages of output.
    static constexpr std::size_t kMaxDiagnostics = 50;

    void error(std::int32_t node, std::string message)
    {
        if (m_errors.diagnostics.size() >= kMaxDiagnostics) {
            ++m_unreported;
            return;
        }
        const Node& n = m_ast.node(node);
        const SourcePosition p = positionOf(m_ast.source, n.pos);
        const std::uint32_t len = n.kind == NodeKind::Call && n.name.size() > 2 && n.name.front() == '_'
                                      ? 1
                                      : std::max<std::uint32_t>(1, n.end - n.pos);
        m_errors.diagnostics.push_back(Diagnostic{n.pos, len, p.line, p.column, std::move(message)});
    }

    const std::pair<std::string, int>* findIterVar(std::string_view name) const
    {
        for (auto it = m_scopes.rbegin(); it != m_scopes.rend(); ++it) {
            if (it->first == name)
                return &*it;
        }
        return nullptr;
    }

    // "a.b.c" for a Select chain over an identifier that is not an iteration variable, else empty.
    std::optional<std::string> dottedName(std::int32_t i) const
    {
        std::vector<std::string_view> parts;
        while (true) {
            const Node& n = m_ast.node(i);
            if (n.kind == NodeKind::Ident) {
                if (findIterVar(n.name))
                    return std::nullopt;
                parts.push_back(n.name);
                break;
            }
            if (n.kind != NodeKind::Select || n.testOnly)
                return std::nullopt;
            parts.push_back(n.name);
            i = n.target;
        }
        std::string out;
        for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
            if (!out.empty())
                out += '.';
            out += *it;
        }
        return out;
    }

    // A whole (dotted) name as a declared variable or a type name.
    bool resolveName(std::int32_t i, const std::string& name)
    {
        if (const Variable* v = m_decls.find(name)) {
            m_out.refs[static_cast<std::size_t>(i)] = Reference{Reference::Kind::Variable, v->slot, name};
            m_out.types[static_cast<std::size_t>(i)] = v->type;
            return true;
        }
        if (const auto k = typeName(name)) {
            m_out.refs[static_cast<std::size_t>(i)] = Reference{Reference::Kind::TypeName, static_cast<int>(*k), name};
            m_out.types[static_cast<std::size_t>(i)] = Type::typeOf(staticTypeOf(*k));
            return true;
        }
        return false;
    }

    Type visit(std::int32_t i)
    {
        Type t = visitNode(i);
        m_out.types[static_cast<std::size_t>(i)] = t;
        return t;
    }

    Type visitNode(std::int32_t i)
    {
        const Node& n = m_ast.node(i);
        switch (n.kind) {
        case NodeKind::Literal:
            switch (n.literal.kind) {
            case LiteralKind::Null: return Type::null();
            case LiteralKind::Bool: return Type::boolean();
            case LiteralKind::Int: return Type::integer();
            case LiteralKind::Uint: return Type::uinteger();
            case LiteralKind::Double: return Type::real();
            case LiteralKind::String: return Type::string();
            case LiteralKind::Bytes: return Type::bytes();
            }
            return Type::dyn();
        case NodeKind::Ident: {
            if (const auto* iv = findIterVar(n.name)) {
                m_out.refs[static_cast<std::size_t>(i)] = Reference{Reference::Kind::IterVar, iv->second, n.name};
                return m_iterTypes[static_cast<std::size_t>(iv->second)];
            }
            if (resolveName(i, n.name))
                return m_out.types[static_cast<std::size_t>(i)];
            m_out.refs[static_cast<std::size_t>(i)] = Reference{Reference::Kind::Unbound, 0, n.name};
            if (m_strict)
                error(i, "undeclared reference to '" + n.name + "'");
            return m_strict ? Type::error() : Type::dyn();
        }
        case NodeKind::Select: {
            if (!n.testOnly) {
                if (const auto dotted = dottedName(i); dotted && resolveName(i, *dotted))
                    return m_out.types[static_cast<std::size_t>(i)];
            }
            const Type operand = visit(n.target);
            Type field = Type::dyn();
            switch (operand.kind()) {
            case Type::Kind::Map: field = operand.value(); break;
            case Type::Kind::Dyn:
            case Type::Kind::Param:
            case Type::Kind::Error: break;
            default:
                if (m_strict) {
                    error(i, "type '" + operand.toString() + "' does not support field selection");
                    return Type::error();
                }
            }
            return n.testOnly ? Type::boolean() : field;
        }
        case NodeKind::Call: return visitCall(i, n);
        case NodeKind::List: {
            std::optional<Type> elem;
            for (const std::int32_t a : n.args) {
                const Type t = visit(a);
                elem = elem ? join(*elem, t) : t;
            }
            return Type::list(elem ? *elem : Type::dyn());
        }
        case NodeKind::Map: {
            std::optional<Type> key, value;
            for (std::size_t k = 0; k + 1 < n.args.size(); k += 2) {
                const Type kt = visit(n.args[k]);
                const Type vt = visit(n.args[k + 1]);
                key = key ? join(*key, kt) : kt;
                value = value ? join(*value, vt) : vt;
                using K = Type::Kind;
                if (m_strict
                    && !(kt.kind() == K::Int || kt.kind() == K::Uint || kt.kind() == K::Bool || kt.kind() == K::String
                         || kt.kind() == K::Dyn || kt.kind() == K::Error))
                    error(n.args[k], "a map key must be int, uint, bool or string, not " + kt.toString());
            }
            return Type::map(key ? *key : Type::dyn(), value ? *value : Type::dyn());
        }
        case NodeKind::Comprehension: return visitComprehension(i, n);
        }
        return Type::dyn();
    }

    Type visitCall(std::int32_t i, const Node& n)
    {
        const bool member = n.target >= 0;
        std::vector<Type> args;
        if (member)
            args.push_back(visit(n.target));
        for (const std::int32_t a : n.args)
            args.push_back(visit(a));
        const Fn fn = lookupFunction(n.name, member);
        m_out.functions[static_cast<std::size_t>(i)] = fn;
        if (fn == Fn::Unknown) {
            if (m_strict) {
                error(i, "undeclared reference to function '" + n.name + "'");
                return Type::error();
            }
            return Type::dyn();
        }
        std::optional<Type> result;
        bool any = false;
        for (const Overload& o : overloads()) {
            if (o.fn != fn || o.member != member || o.params.size() != args.size())
                continue;
            Subst s;
            bool ok = true;
            for (std::size_t k = 0; k < args.size() && ok; ++k)
                ok = assign(o.params[k], args[k], s);
            if (!ok)
                continue;
            const Type r = substitute(o.result, s);
            result = any ? join(*result, r) : r;
            any = true;
        }
        if (!any) {
            if (!m_strict)
                return Type::dyn();
            for (const Type& a : args) {
                if (a.kind() == Type::Kind::Error)
                    return Type::error(); // reported where it came from
            }
            std::string list;
            for (const Type& a : args) {
                if (!list.empty())
                    list += ", ";
                list += a.toString();
            }
            error(i, "found no matching overload for '" + std::string(n.name) + "' applied to '(" + list + ")'");
            return Type::error();
        }
        return *result;
    }

    Type visitComprehension(std::int32_t i, const Node& n)
    {
        const Type range = visit(n.target);
        const bool twoVars = !n.var2.empty();
        Type first = Type::dyn(), second = Type::dyn();
        switch (range.kind()) {
        case Type::Kind::List:
            if (twoVars) {
                first = Type::integer();
                second = range.elem();
            } else {
                first = range.elem();
            }
            break;
        case Type::Kind::Map:
            first = range.key();
            second = range.value();
            break;
        case Type::Kind::Dyn:
        case Type::Kind::Param:
        case Type::Kind::Error: break;
        default:
            if (m_strict)
                error(n.target, "'" + n.name + "' cannot range over a value of type " + range.toString());
        }
        const int slot = m_nextLocal;
        m_out.iterSlots[static_cast<std::size_t>(i)] = slot;
        m_nextLocal += twoVars ? 2 : 1;
        m_maxLocal = std::max(m_maxLocal, m_nextLocal);
        if (m_iterTypes.size() < static_cast<std::size_t>(m_nextLocal))
            m_iterTypes.resize(static_cast<std::size_t>(m_nextLocal));
        m_iterTypes[static_cast<std::size_t>(slot)] = first;
        m_scopes.emplace_back(n.var, slot);
        if (twoVars) {
            m_iterTypes[static_cast<std::size_t>(slot + 1)] = second;
            m_scopes.emplace_back(n.var2, slot + 1);
        }
        std::vector<Type> body;
        for (const std::int32_t a : n.args)
            body.push_back(visit(a));
        m_scopes.resize(m_scopes.size() - (twoVars ? 2 : 1));
        m_nextLocal = slot;

        auto expectBool = [&](std::size_t k) {
            const auto kind = body[k].kind();
            if (m_strict && kind != Type::Kind::Bool && kind != Type::Kind::Dyn && kind != Type::Kind::Error
                && kind != Type::Kind::Param)
                error(n.args[k], "'" + n.name + "' needs a condition of type bool, not " + body[k].toString());
        };
        switch (n.macro) {
        case Macro::All:
        case Macro::Exists:
        case Macro::ExistsOne: expectBool(0); return Type::boolean();
        case Macro::Map: return Type::list(body[0]);
        case Macro::MapFilter: expectBool(0); return Type::list(body[1]);
        case Macro::Filter: expectBool(0); return Type::list(first);
        case Macro::TransformList:
            if (body.size() == 2)
                expectBool(0);
            return Type::list(body.back());
        case Macro::TransformMap:
            if (body.size() == 2)
                expectBool(0);
            return Type::map(range.kind() == Type::Kind::List ? Type::integer() : first, body.back());
        case Macro::None: break;
        }
        return Type::dyn();
    }

    const Ast& m_ast;
    const Declarations& m_decls;
    bool m_strict;
    CheckedAst m_out;
    CompileError m_errors;
    std::vector<std::pair<std::string, int>> m_scopes; // iteration variables in scope: name, local slot
    std::vector<Type> m_iterTypes;                     // by local slot
    int m_nextLocal = 0;
    int m_maxLocal = 0;
    std::size_t m_unreported = 0;
};

} // namespace

std::expected<CheckedAst, CompileError> check(const Ast& ast, const Declarations& decls, bool strict)
{
    return Checker(ast, decls, strict).run();
}

} // namespace sb::cel
