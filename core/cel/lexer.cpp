#include "cel/lexer.h"

#include <algorithm>
#include <array>

namespace sb::cel {

namespace {

bool isIdentStart(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool isHex(char c)
{
    return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

class Lexer {
public:
    explicit Lexer(std::string_view s) : m_s(s) {}

    std::vector<Token> run()
    {
        std::vector<Token> out;
        out.reserve(m_s.size() / 3 + 2);
        while (true) {
            skipWhitespace();
            if (m_at >= m_s.size())
                break;
            out.push_back(next());
        }
        out.push_back(Token{TokenKind::End, static_cast<std::uint32_t>(m_s.size()), 0});
        return out;
    }

private:
    char peek(std::size_t ahead = 0) const { return m_at + ahead < m_s.size() ? m_s[m_at + ahead] : '\0'; }

    void skipWhitespace()
    {
        while (m_at < m_s.size()) {
            const char c = m_s[m_at];
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f')
                ++m_at;
            else
                break;
        }
    }

    Token make(TokenKind kind, std::size_t start) const
    {
        return Token{kind, static_cast<std::uint32_t>(start), static_cast<std::uint32_t>(m_at - start)};
    }

    Token next()
    {
        const std::size_t start = m_at;
        const char c = m_s[m_at];
        if (c == '/' && peek(1) == '/') {
            while (m_at < m_s.size() && m_s[m_at] != '\n')
                ++m_at;
            return make(TokenKind::Comment, start);
        }
        // String prefixes: r, b, and both in either order, any case.
        if (c == 'r' || c == 'R' || c == 'b' || c == 'B') {
            std::size_t p = 1;
            bool raw = c == 'r' || c == 'R', bytes = c == 'b' || c == 'B';
            const char c2 = peek(1);
            if (((c2 == 'r' || c2 == 'R') && bytes) || ((c2 == 'b' || c2 == 'B') && raw)) {
                raw = bytes = true;
                p = 2;
            }
            if (peek(p) == '\'' || peek(p) == '"') {
                m_at += p;
                return quoted(start, raw, bytes);
            }
        }
        if (isIdentStart(c)) {
            while (m_at < m_s.size() && (isIdentStart(m_s[m_at]) || isDigit(m_s[m_at])))
                ++m_at;
            const std::string_view word = m_s.substr(start, m_at - start);
            if (word == "true")
                return make(TokenKind::True, start);
            if (word == "false")
                return make(TokenKind::False, start);
            if (word == "null")
                return make(TokenKind::Null, start);
            if (word == "in")
                return make(TokenKind::In, start);
            return make(TokenKind::Identifier, start);
        }
        if (isDigit(c) || (c == '.' && isDigit(peek(1))))
            return number(start);
        if (c == '\'' || c == '"')
            return quoted(start, false, false);
        if (c == '`') {
            ++m_at;
            while (m_at < m_s.size() && m_s[m_at] != '`' && m_s[m_at] != '\n') {
                const char q = m_s[m_at];
                if (!(isIdentStart(q) || isDigit(q) || q == '.' || q == '-' || q == '/' || q == ' '))
                    break;
                ++m_at;
            }
            if (m_at < m_s.size() && m_s[m_at] == '`' && m_at > start + 1) {
                ++m_at;
                return make(TokenKind::QuotedIdentifier, start);
            }
            m_at = std::max(m_at, start + 1);
            return make(TokenKind::Error, start);
        }
        ++m_at;
        switch (c) {
        case '(': return make(TokenKind::LParen, start);
        case ')': return make(TokenKind::RParen, start);
        case '[':
            if (peek() == '?') {
                ++m_at;
                return make(TokenKind::OptionalBracket, start);
            }
            return make(TokenKind::LBracket, start);
        case ']': return make(TokenKind::RBracket, start);
        case '{': return make(TokenKind::LBrace, start);
        case '}': return make(TokenKind::RBrace, start);
        case '.':
            if (peek() == '?') {
                ++m_at;
                return make(TokenKind::OptionalDot, start);
            }
            return make(TokenKind::Dot, start);
        case ',': return make(TokenKind::Comma, start);
        case ':': return make(TokenKind::Colon, start);
        case '?': return make(TokenKind::Question, start);
        case '+': return make(TokenKind::Plus, start);
        case '-': return make(TokenKind::Minus, start);
        case '*': return make(TokenKind::Star, start);
        case '/': return make(TokenKind::Slash, start);
        case '%': return make(TokenKind::Percent, start);
        case '!':
            if (peek() == '=') {
                ++m_at;
                return make(TokenKind::Ne, start);
            }
            return make(TokenKind::Not, start);
        case '&':
            if (peek() == '&') {
                ++m_at;
                return make(TokenKind::And, start);
            }
            return make(TokenKind::Error, start);
        case '|':
            if (peek() == '|') {
                ++m_at;
                return make(TokenKind::Or, start);
            }
            return make(TokenKind::Error, start);
        case '=':
            if (peek() == '=') {
                ++m_at;
                return make(TokenKind::Eq, start);
            }
            return make(TokenKind::Error, start);
        case '<':
            if (peek() == '=') {
                ++m_at;
                return make(TokenKind::Le, start);
            }
            return make(TokenKind::Lt, start);
        case '>':
            if (peek() == '=') {
                ++m_at;
                return make(TokenKind::Ge, start);
            }
            return make(TokenKind::Gt, start);
        default:
            // One whole UTF-8 sequence per error token, so columns stay right.
            while (m_at < m_s.size() && (static_cast<unsigned char>(m_s[m_at]) & 0xC0) == 0x80)
                ++m_at;
            return make(TokenKind::Error, start);
        }
    }

    Token number(std::size_t start)
    {
        if (m_s[m_at] == '0' && (peek(1) == 'x' || peek(1) == 'X') && isHex(peek(2))) {
            m_at += 2;
            while (m_at < m_s.size() && isHex(m_s[m_at]))
                ++m_at;
            if (peek() == 'u' || peek() == 'U') {
                ++m_at;
                return make(TokenKind::Uint, start);
            }
            return make(TokenKind::Int, start);
        }
        bool isDouble = false;
        while (m_at < m_s.size() && isDigit(m_s[m_at]))
            ++m_at;
        if (peek() == '.' && isDigit(peek(1))) {
            isDouble = true;
            ++m_at;
            while (m_at < m_s.size() && isDigit(m_s[m_at]))
                ++m_at;
        }
        if (peek() == 'e' || peek() == 'E') {
            std::size_t p = 1;
            if (peek(1) == '+' || peek(1) == '-')
                p = 2;
            if (isDigit(peek(p))) {
                isDouble = true;
                m_at += p;
                while (m_at < m_s.size() && isDigit(m_s[m_at]))
                    ++m_at;
            }
        }
        if (!isDouble && (peek() == 'u' || peek() == 'U')) {
            ++m_at;
            return make(TokenKind::Uint, start);
        }
        return make(isDouble ? TokenKind::Double : TokenKind::Int, start);
    }

    // m_at is on the opening quote. Escapes are checked by the parser when it decodes the literal; here
    // only the extent matters (a backslash escapes the next character unless the string is raw).
    Token quoted(std::size_t start, bool raw, bool bytes)
    {
        const char q = m_s[m_at];
        const bool triple = peek(1) == q && peek(2) == q;
        m_at += triple ? 3 : 1;
        while (m_at < m_s.size()) {
            const char c = m_s[m_at];
            if (c == '\\' && !raw) {
                m_at += 2;
                continue;
            }
            if (triple) {
                if (c == q && peek(1) == q && peek(2) == q) {
                    m_at += 3;
                    return make(bytes ? TokenKind::Bytes : TokenKind::String, start);
                }
            } else {
                if (c == '\n' || c == '\r')
                    break;
                if (c == q) {
                    ++m_at;
                    return make(bytes ? TokenKind::Bytes : TokenKind::String, start);
                }
            }
            ++m_at;
        }
        m_at = std::min(m_at, m_s.size());
        return make(TokenKind::Error, start);
    }

    std::string_view m_s;
    std::size_t m_at = 0;
};

} // namespace

std::vector<Token> tokenize(std::string_view source)
{
    return Lexer(source).run();
}

bool isReservedWord(std::string_view word)
{
    static constexpr std::array<std::string_view, 17> kReserved = {
        "as",  "break", "const",   "continue",  "else",   "for", "function", "if",   "import",
        "let", "loop",  "package", "namespace", "return", "var", "void",     "while"};
    return std::find(kReserved.begin(), kReserved.end(), word) != kReserved.end();
}

namespace {

// `from` advanced over source[begin, end): lines at '\n', columns in code points (continuation bytes skipped).
SourcePosition advance(SourcePosition from, std::string_view source, std::size_t begin, std::size_t end)
{
    for (std::size_t i = begin; i < end; ++i) {
        const auto c = static_cast<unsigned char>(source[i]);
        if (c == '\n') {
            ++from.line;
            from.column = 1;
        } else if ((c & 0xC0) != 0x80) {
            ++from.column;
        }
    }
    return from;
}

} // namespace

SourcePosition positionOf(std::string_view source, std::uint32_t offset)
{
    return advance(SourcePosition{}, source, 0, std::min<std::size_t>(offset, source.size()));
}

LineStarts::LineStarts(std::string_view source)
{
    for (std::size_t i = source.find('\n'); i != std::string_view::npos; i = source.find('\n', i + 1))
        m_starts.push_back(static_cast<std::uint32_t>(i + 1));
}

SourcePosition LineStarts::positionOf(std::string_view source, std::uint32_t offset) const
{
    const std::size_t end = std::min<std::size_t>(offset, source.size());
    // The last line starting at or before `end`.
    const auto line = std::upper_bound(m_starts.begin(), m_starts.end(), end) - 1;
    const SourcePosition lineStart{static_cast<int>(line - m_starts.begin()) + 1, 1};
    return advance(lineStart, source, *line, end);
}

} // namespace sb::cel
