#include "cel/parser.h"

#include "cel/lexer.h"
#include "cel/utf8.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace sb::cel {

namespace {

// Where the first error is found the parse stops; the exception never leaves this file.
struct ParseAbort {};

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

class Parser {
public:
    Parser(std::string_view source, const ParseLimits& limits) : m_limits(limits)
    {
        m_ast.source = std::string(source);
    }

    std::expected<Ast, CompileError> run()
    {
        const std::string_view src = m_ast.source;
        try {
            if (src.size() > m_limits.maxSourceBytes)
                fail(static_cast<std::uint32_t>(m_limits.maxSourceBytes), 0,
                     "expression is longer than " + std::to_string(m_limits.maxSourceBytes) + " bytes");
            if (const std::size_t bad = utf8::firstInvalid(src); bad != std::string_view::npos)
                fail(static_cast<std::uint32_t>(bad), 1, "the expression is not valid UTF-8");
            for (const Token& t : tokenize(src)) {
                if (t.kind != TokenKind::Comment)
                    m_tokens.push_back(t);
            }
            const std::int32_t root = parseExpr();
            if (cur().kind != TokenKind::End)
                unexpected(cur());
            m_ast.root = root;
        } catch (const ParseAbort&) {
            return std::unexpected(m_error);
        }
        return std::move(m_ast);
    }

private:
    // ---- tokens ----
    const Token& cur() const { return m_tokens[m_at]; }
    const Token& peekToken(std::size_t n) const { return m_tokens[std::min(m_at + n, m_tokens.size() - 1)]; }
    std::string_view text(const Token& t) const { return std::string_view(m_ast.source).substr(t.offset, t.length); }
    Token advance()
    {
        const Token t = m_tokens[m_at];
        if (t.kind != TokenKind::End)
            ++m_at;
        return t;
    }
    bool accept(TokenKind k)
    {
        if (cur().kind != k)
            return false;
        advance();
        return true;
    }
    Token expect(TokenKind k, std::string_view what)
    {
        if (cur().kind != k) {
            const Token& t = cur();
            if (t.kind == TokenKind::End)
                fail(t.offset, 0, "expected " + std::string(what) + " but the expression ends");
            if (t.kind == TokenKind::Error)
                unexpected(t);
            fail(t.offset, t.length, "expected " + std::string(what) + " but found '" + std::string(text(t)) + "'");
        }
        return advance();
    }

    [[noreturn]] void fail(std::uint32_t offset, std::uint32_t length, std::string message)
    {
        const SourcePosition p = positionOf(m_ast.source, offset);
        m_error.diagnostics.push_back(Diagnostic{offset, length, p.line, p.column, std::move(message)});
        throw ParseAbort{};
    }

    [[noreturn]] void unexpected(const Token& t)
    {
        const std::string_view s = text(t);
        switch (t.kind) {
        case TokenKind::End: fail(t.offset, 0, "unexpected end of expression");
        case TokenKind::Error:
            // A string the lexer could not close: its quote comes first or after an r/b prefix.
            if (const std::size_t quote = s.find_first_of("'\"");
                quote != std::string_view::npos && quote <= 2
                && s.substr(0, quote).find_first_not_of("rRbB") == std::string_view::npos)
                fail(t.offset, t.length, "unterminated string literal");
            if (!s.empty() && s[0] == '`')
                fail(t.offset, t.length, "unterminated or invalid quoted identifier");
            if (s == "&" || s == "|" || s == "=")
                fail(t.offset, t.length,
                     "unexpected '" + std::string(s) + "' (did you mean '" + std::string(s) + std::string(s) + "'?)");
            fail(t.offset, t.length, "unexpected character '" + std::string(s) + "'");
        case TokenKind::OptionalDot:
        case TokenKind::OptionalBracket:
            fail(t.offset, t.length, "optional field syntax ('.?', '[?') is not supported");
        default: fail(t.offset, t.length, "unexpected '" + std::string(s) + "'");
        }
    }

    // ---- nodes ----
    std::int32_t add(Node n)
    {
        int h = 0;
        auto see = [&](std::int32_t c) {
            if (c >= 0) {
                const Node& child = m_ast.node(c);
                h = std::max<int>(h, child.height);
                n.begin = std::min(n.begin, child.begin);
                n.end = std::max(n.end, child.end);
            }
        };
        see(n.target);
        for (const std::int32_t a : n.args)
            see(a);
        if (h + 1 > m_limits.maxDepth)
            fail(n.pos, 1, "expression nests too deeply (more than " + std::to_string(m_limits.maxDepth) + " levels)");
        n.height = static_cast<std::uint16_t>(h + 1);
        m_ast.nodes.push_back(std::move(n));
        return static_cast<std::int32_t>(m_ast.nodes.size() - 1);
    }

    std::int32_t call(std::string name, std::int32_t target, std::vector<std::int32_t> args, std::uint32_t pos,
                      std::uint32_t begin, std::uint32_t end)
    {
        Node n;
        n.kind = NodeKind::Call;
        n.name = std::move(name);
        n.target = target;
        n.args = std::move(args);
        n.pos = pos;
        n.begin = begin;
        n.end = end;
        return add(std::move(n));
    }

    std::int32_t binary(std::string_view fn, std::int32_t a, std::int32_t b, const Token& op)
    {
        return call(std::string(fn), -1, {a, b}, op.offset, op.offset, op.offset + op.length);
    }

    // ---- grammar ----
    struct DepthGuard {
        Parser& p;
        DepthGuard(Parser& parser, std::uint32_t at) : p(parser)
        {
            if (++p.m_depth > p.m_limits.maxDepth)
                p.fail(at, 1,
                       "expression nests too deeply (more than " + std::to_string(p.m_limits.maxDepth) + " levels)");
        }
        ~DepthGuard() { --p.m_depth; }
        DepthGuard(const DepthGuard&) = delete;
        DepthGuard& operator=(const DepthGuard&) = delete;
    };

    std::int32_t parseExpr()
    {
        DepthGuard guard(*this, cur().offset);
        const std::int32_t cond = parseOr();
        if (cur().kind != TokenKind::Question)
            return cond;
        const Token q = advance();
        const std::int32_t a = parseOr();
        expect(TokenKind::Colon, "':'");
        const std::int32_t b = parseExpr();
        return call("_?_:_", -1, {cond, a, b}, q.offset, q.offset, q.offset + 1);
    }

    // A chain of || (or &&) becomes a balanced tree: same meaning (the operators are commutative, errors
    // included), depth log2(n) instead of n.
    std::int32_t chain(TokenKind opKind, std::string_view fn, std::int32_t (Parser::*operand)())
    {
        std::vector<std::int32_t> items{(this->*operand)()};
        std::vector<Token> ops;
        while (cur().kind == opKind) {
            ops.push_back(advance());
            items.push_back((this->*operand)());
        }
        if (items.size() == 1)
            return items[0];
        return balance(fn, items, ops, 0, items.size() - 1);
    }

    std::int32_t balance(std::string_view fn, const std::vector<std::int32_t>& items, const std::vector<Token>& ops,
                         std::size_t lo, std::size_t hi)
    {
        if (lo == hi)
            return items[lo];
        const std::size_t mid = (lo + hi) / 2;
        const std::int32_t left = balance(fn, items, ops, lo, mid);
        const std::int32_t right = balance(fn, items, ops, mid + 1, hi);
        return binary(fn, left, right, ops[mid]);
    }

    std::int32_t parseOr() { return chain(TokenKind::Or, "_||_", &Parser::parseAnd); }
    std::int32_t parseAnd() { return chain(TokenKind::And, "_&&_", &Parser::parseRelation); }

    std::int32_t parseRelation()
    {
        std::int32_t left = parseAddition();
        while (true) {
            std::string_view fn;
            switch (cur().kind) {
            case TokenKind::Lt: fn = "_<_"; break;
            case TokenKind::Le: fn = "_<=_"; break;
            case TokenKind::Gt: fn = "_>_"; break;
            case TokenKind::Ge: fn = "_>=_"; break;
            case TokenKind::Eq: fn = "_==_"; break;
            case TokenKind::Ne: fn = "_!=_"; break;
            case TokenKind::In: fn = "@in"; break;
            default: return left;
            }
            const Token op = advance();
            left = binary(fn, left, parseAddition(), op);
        }
    }

    std::int32_t parseAddition()
    {
        std::int32_t left = parseMultiplication();
        while (cur().kind == TokenKind::Plus || cur().kind == TokenKind::Minus) {
            const Token op = advance();
            left = binary(op.kind == TokenKind::Plus ? "_+_" : "_-_", left, parseMultiplication(), op);
        }
        return left;
    }

    std::int32_t parseMultiplication()
    {
        std::int32_t left = parseUnary();
        while (cur().kind == TokenKind::Star || cur().kind == TokenKind::Slash || cur().kind == TokenKind::Percent) {
            const Token op = advance();
            const std::string_view fn =
                op.kind == TokenKind::Star ? "_*_" : (op.kind == TokenKind::Slash ? "_/_" : "_%_");
            left = binary(fn, left, parseUnary(), op);
        }
        return left;
    }

    std::int32_t parseUnary()
    {
        if (cur().kind == TokenKind::Not) {
            std::vector<Token> nots;
            while (cur().kind == TokenKind::Not)
                nots.push_back(advance());
            std::int32_t e = parseMember(-1);
            for (auto it = nots.rbegin(); it != nots.rend(); ++it)
                e = call("!_", -1, {e}, it->offset, it->offset, it->offset + 1);
            return e;
        }
        if (cur().kind == TokenKind::Minus) {
            std::vector<Token> minuses;
            while (cur().kind == TokenKind::Minus)
                minuses.push_back(advance());
            std::int32_t e = -1;
            // The innermost minus belongs to a number literal: -9223372036854775808 is an int.
            if (cur().kind == TokenKind::Int || cur().kind == TokenKind::Double) {
                const Token sign = minuses.back();
                minuses.pop_back();
                e = literal(advance(), true, sign.offset);
            }
            e = parseMember(e);
            for (auto it = minuses.rbegin(); it != minuses.rend(); ++it)
                e = call("-_", -1, {e}, it->offset, it->offset, it->offset + 1);
            return e;
        }
        return parseMember(-1);
    }

    bool isQualifiedName(std::int32_t e) const
    {
        while (e >= 0) {
            const Node& n = m_ast.node(e);
            if (n.kind == NodeKind::Ident)
                return true;
            if (n.kind != NodeKind::Select || n.testOnly)
                return false;
            e = n.target;
        }
        return false;
    }

    std::int32_t parseMember(std::int32_t primary)
    {
        std::int32_t e = primary >= 0 ? primary : parsePrimary();
        while (true) {
            const Token& t = cur();
            if (t.kind == TokenKind::Dot) {
                const Token dot = advance();
                const Token nameTok = cur();
                std::string name;
                if (nameTok.kind == TokenKind::Identifier || nameTok.kind == TokenKind::True
                    || nameTok.kind == TokenKind::False || nameTok.kind == TokenKind::Null
                    || nameTok.kind == TokenKind::In) {
                    name = std::string(text(nameTok));
                } else if (nameTok.kind == TokenKind::QuotedIdentifier) {
                    const std::string_view q = text(nameTok);
                    name = std::string(q.substr(1, q.size() - 2));
                } else {
                    if (nameTok.kind == TokenKind::End)
                        fail(nameTok.offset, 0, "expected a field or function name after '.'");
                    unexpected(nameTok);
                }
                advance();
                if (cur().kind == TokenKind::LParen && nameTok.kind != TokenKind::QuotedIdentifier) {
                    std::uint32_t end = 0;
                    auto args = parseArgs(end);
                    e = makeCall(std::move(name), e, std::move(args), nameTok.offset, end);
                } else {
                    Node n;
                    n.kind = NodeKind::Select;
                    n.name = std::move(name);
                    n.target = e;
                    n.pos = dot.offset;
                    n.begin = dot.offset;
                    n.end = nameTok.offset + nameTok.length;
                    e = add(std::move(n));
                }
            } else if (t.kind == TokenKind::LBracket) {
                const Token open = advance();
                const std::int32_t index = parseExpr();
                const Token close = expect(TokenKind::RBracket, "']'");
                e = call("_[_]", -1, {e, index}, open.offset, open.offset, close.offset + 1);
            } else if (t.kind == TokenKind::LBrace && isQualifiedName(e)) {
                fail(t.offset, t.length,
                     "message construction (Type{field: ...}) needs protobuf types, which Sandbench rules do not have");
            } else if (t.kind == TokenKind::OptionalDot || t.kind == TokenKind::OptionalBracket) {
                unexpected(t);
            } else {
                return e;
            }
        }
    }

    std::vector<std::int32_t> parseArgs(std::uint32_t& end)
    {
        expect(TokenKind::LParen, "'('");
        std::vector<std::int32_t> args;
        if (cur().kind != TokenKind::RParen) {
            args.push_back(parseExpr());
            while (accept(TokenKind::Comma))
                args.push_back(parseExpr());
        }
        const Token close = expect(TokenKind::RParen, "')' or ','");
        end = close.offset + 1;
        return args;
    }

    std::int32_t parsePrimary()
    {
        const Token t = cur();
        switch (t.kind) {
        case TokenKind::Int:
        case TokenKind::Uint:
        case TokenKind::Double:
        case TokenKind::String:
        case TokenKind::Bytes:
        case TokenKind::True:
        case TokenKind::False:
        case TokenKind::Null: advance(); return literal(t, false, t.offset);
        case TokenKind::Dot:
        case TokenKind::Identifier: {
            advance();
            Token nameTok = t;
            if (t.kind == TokenKind::Dot) {
                nameTok = cur();
                if (nameTok.kind != TokenKind::Identifier)
                    unexpected(nameTok);
                advance();
            }
            const std::string name(text(nameTok));
            if (isReservedWord(name))
                fail(nameTok.offset, nameTok.length, "reserved identifier '" + name + "'");
            if (cur().kind == TokenKind::LParen) {
                std::uint32_t end = 0;
                auto args = parseArgs(end);
                return makeCall(name, -1, std::move(args), t.offset, end);
            }
            Node n;
            n.kind = NodeKind::Ident;
            n.name = name;
            n.pos = nameTok.offset;
            n.begin = t.offset;
            n.end = nameTok.offset + nameTok.length;
            return add(std::move(n));
        }
        case TokenKind::LParen: {
            advance();
            const std::int32_t e = parseExpr();
            expect(TokenKind::RParen, "')'");
            return e;
        }
        case TokenKind::LBracket: {
            advance();
            Node n;
            n.kind = NodeKind::List;
            n.pos = n.begin = t.offset;
            while (cur().kind != TokenKind::RBracket) {
                n.args.push_back(parseExpr());
                if (!accept(TokenKind::Comma))
                    break;
            }
            n.end = expect(TokenKind::RBracket, "']' or ','").offset + 1;
            return add(std::move(n));
        }
        case TokenKind::LBrace: {
            advance();
            Node n;
            n.kind = NodeKind::Map;
            n.pos = n.begin = t.offset;
            while (cur().kind != TokenKind::RBrace) {
                if (cur().kind == TokenKind::Question)
                    fail(cur().offset, 1, "optional map entries ('?key: value') are not supported");
                n.args.push_back(parseExpr());
                expect(TokenKind::Colon, "':'");
                n.args.push_back(parseExpr());
                if (!accept(TokenKind::Comma))
                    break;
            }
            n.end = expect(TokenKind::RBrace, "'}' or ','").offset + 1;
            return add(std::move(n));
        }
        default: unexpected(t);
        }
    }

    // ---- literals ----
    std::int32_t literal(const Token& t, bool negative, std::uint32_t begin)
    {
        Node n;
        n.kind = NodeKind::Literal;
        n.pos = begin;
        n.begin = begin;
        n.end = t.offset + t.length;
        Literal& lit = n.literal;
        std::string_view s = text(t);
        switch (t.kind) {
        case TokenKind::True:
        case TokenKind::False:
            lit.kind = LiteralKind::Bool;
            lit.boolValue = t.kind == TokenKind::True;
            break;
        case TokenKind::Null: lit.kind = LiteralKind::Null; break;
        case TokenKind::Int: {
            std::uint64_t magnitude = 0;
            if (!parseUnsigned(s, magnitude))
                fail(t.offset, t.length, "integer literal out of range: " + std::string(s));
            const std::uint64_t limit = negative ? 9223372036854775808ULL : 9223372036854775807ULL;
            if (magnitude > limit)
                fail(t.offset, t.length,
                     "integer literal out of range: " + std::string(negative ? "-" : "") + std::string(s));
            lit.kind = LiteralKind::Int;
            lit.intValue = negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
            break;
        }
        case TokenKind::Uint: {
            std::uint64_t value = 0;
            if (!parseUnsigned(s.substr(0, s.size() - 1), value))
                fail(t.offset, t.length, "unsigned integer literal out of range: " + std::string(s));
            lit.kind = LiteralKind::Uint;
            lit.uintValue = value;
            break;
        }
        case TokenKind::Double: {
            double d = 0;
            const auto res = std::from_chars(s.data(), s.data() + s.size(), d);
            if (res.ec == std::errc::result_out_of_range) {
                // Beyond the double range: infinity or zero, as IEEE 754 (and the reference) round it.
                d = (s.find_first_of("eE") != std::string_view::npos && s.find("e-") == std::string_view::npos
                     && s.find("E-") == std::string_view::npos)
                        ? HUGE_VAL
                        : 0.0;
            } else if (res.ec != std::errc() || res.ptr != s.data() + s.size()) {
                fail(t.offset, t.length, "invalid floating-point literal: " + std::string(s));
            }
            lit.kind = LiteralKind::Double;
            lit.doubleValue = negative ? -d : d;
            break;
        }
        case TokenKind::String:
        case TokenKind::Bytes: {
            bool raw = false, bytes = false;
            std::size_t p = 0;
            while (p < s.size() && s[p] != '\'' && s[p] != '"') {
                raw = raw || s[p] == 'r' || s[p] == 'R';
                bytes = bytes || s[p] == 'b' || s[p] == 'B';
                ++p;
            }
            const bool triple = s.size() - p >= 6 && s[p + 1] == s[p] && s[p + 2] == s[p];
            const std::size_t q = triple ? 3 : 1;
            const std::string_view body = s.substr(p + q, s.size() - p - 2 * q);
            lit.kind = bytes ? LiteralKind::Bytes : LiteralKind::String;
            decode(body, t.offset + static_cast<std::uint32_t>(p + q), raw, bytes, lit.text);
            break;
        }
        default: unexpected(t);
        }
        return add(std::move(n));
    }

    static bool parseUnsigned(std::string_view s, std::uint64_t& out)
    {
        int base = 10;
        if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
            s.remove_prefix(2);
            base = 16;
        }
        const auto res = std::from_chars(s.data(), s.data() + s.size(), out, base);
        return res.ec == std::errc() && res.ptr == s.data() + s.size();
    }

    void decode(std::string_view body, std::uint32_t bodyOffset, bool raw, bool bytes, std::string& out)
    {
        if (raw) {
            out.assign(body);
            return;
        }
        out.reserve(body.size());
        for (std::size_t i = 0; i < body.size();) {
            const char c = body[i];
            if (c != '\\') {
                out += c;
                ++i;
                continue;
            }
            const auto at = static_cast<std::uint32_t>(bodyOffset + i);
            if (i + 1 >= body.size())
                fail(at, 1, "invalid escape sequence at the end of the literal");
            const char e = body[i + 1];
            auto badEscape = [&](std::size_t len) {
                fail(at, static_cast<std::uint32_t>(std::min(len, body.size() - i)),
                     "invalid escape sequence '" + std::string(body.substr(i, std::min(len, body.size() - i))) + "'");
            };
            switch (e) {
            case 'a':
                out += '\a';
                i += 2;
                continue;
            case 'b':
                out += '\b';
                i += 2;
                continue;
            case 'f':
                out += '\f';
                i += 2;
                continue;
            case 'n':
                out += '\n';
                i += 2;
                continue;
            case 'r':
                out += '\r';
                i += 2;
                continue;
            case 't':
                out += '\t';
                i += 2;
                continue;
            case 'v':
                out += '\v';
                i += 2;
                continue;
            case '\\':
            case '?':
            case '"':
            case '\'':
            case '`':
                out += e;
                i += 2;
                continue;
            default: break;
            }
            std::uint32_t value = 0;
            std::size_t len = 0;
            if (e == 'x' || e == 'X' || e == 'u' || e == 'U') {
                const std::size_t digits = (e == 'x' || e == 'X') ? 2 : (e == 'u' ? 4 : 8);
                if (bytes && (e == 'u' || e == 'U'))
                    fail(at, 2, "\\u and \\U escapes are not allowed in bytes literals");
                if (i + 2 + digits > body.size())
                    badEscape(2 + digits);
                for (std::size_t k = 0; k < digits; ++k) {
                    const int h = hexValue(body[i + 2 + k]);
                    if (h < 0)
                        badEscape(2 + digits);
                    value = value * 16 + static_cast<std::uint32_t>(h);
                }
                len = 2 + digits;
            } else if (e >= '0' && e <= '3') {
                if (i + 4 > body.size())
                    badEscape(4);
                for (std::size_t k = 1; k <= 3; ++k) {
                    const char o = body[i + k];
                    if (o < '0' || o > '7')
                        badEscape(4);
                    value = value * 8 + static_cast<std::uint32_t>(o - '0');
                }
                len = 4;
            } else {
                badEscape(2);
            }
            if (bytes) {
                out += static_cast<char>(value);
            } else {
                if (value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF))
                    fail(at, static_cast<std::uint32_t>(len), "invalid code point in escape sequence");
                appendUtf8(out, value);
            }
            i += len;
        }
    }

    // ---- macros ----
    std::int32_t makeCall(std::string name, std::int32_t target, std::vector<std::int32_t> args, std::uint32_t pos,
                          std::uint32_t end)
    {
        const std::uint32_t begin = target >= 0 ? m_ast.node(target).begin : pos;
        if (target < 0 && name == "has" && args.size() == 1) {
            Node& arg = m_ast.nodes[static_cast<std::size_t>(args[0])];
            if (arg.kind != NodeKind::Select || arg.testOnly)
                fail(arg.begin, arg.end - arg.begin, "has() needs a field selection, like has(record.field)");
            arg.testOnly = true;
            arg.begin = pos;
            arg.end = end;
            return args[0];
        }
        if (target >= 0) {
            Macro macro = Macro::None;
            std::size_t vars = 0;
            const std::size_t n = args.size();
            if ((name == "all" || name == "exists") && (n == 2 || n == 3)) {
                macro = name == "all" ? Macro::All : Macro::Exists;
                vars = n - 1;
            } else if (name == "exists_one" && (n == 2 || n == 3)) {
                macro = Macro::ExistsOne;
                vars = n - 1;
            } else if (name == "existsOne" && n == 3) {
                macro = Macro::ExistsOne;
                vars = 2;
            } else if (name == "map" && (n == 2 || n == 3)) {
                macro = n == 2 ? Macro::Map : Macro::MapFilter;
                vars = 1;
            } else if (name == "filter" && n == 2) {
                macro = Macro::Filter;
                vars = 1;
            } else if ((name == "transformList" || name == "transformMap") && (n == 3 || n == 4)) {
                macro = name == "transformList" ? Macro::TransformList : Macro::TransformMap;
                vars = 2;
            }
            if (macro != Macro::None) {
                Node c;
                c.kind = NodeKind::Comprehension;
                c.macro = macro;
                c.name = name;
                c.target = target;
                c.pos = pos;
                c.begin = begin;
                c.end = end;
                for (std::size_t v = 0; v < vars; ++v) {
                    const Node& var = m_ast.node(args[v]);
                    if (var.kind != NodeKind::Ident || var.begin != var.pos)
                        fail(var.begin, var.end - var.begin, name + "() needs a simple variable name here");
                    (v == 0 ? c.var : c.var2) = var.name;
                }
                if (vars == 2 && c.var == c.var2)
                    fail(m_ast.node(args[1]).begin, 1, "the two variables of " + name + "() must have different names");
                c.args.assign(args.begin() + static_cast<std::ptrdiff_t>(vars), args.end());
                return add(std::move(c));
            }
        }
        return call(std::move(name), target, std::move(args), pos, begin, end);
    }

    ParseLimits m_limits;
    Ast m_ast;
    std::vector<Token> m_tokens;
    std::size_t m_at = 0;
    int m_depth = 0;
    CompileError m_error;
};

} // namespace

std::expected<Ast, CompileError> parse(std::string_view source, const ParseLimits& limits)
{
    return Parser(source, limits).run();
}

} // namespace sb::cel
