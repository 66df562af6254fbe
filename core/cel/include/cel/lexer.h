#pragma once

// The CEL lexer. tokenize() never fails: what it cannot read becomes an Error token, so an editor can
// highlight any text as it is typed (the parser reports those tokens with line:column).

#include <cstdint>
#include <string_view>
#include <vector>

namespace sb::cel {

enum class TokenKind : std::uint8_t {
    End,
    Error,            // a character or literal the lexer cannot read (unterminated string, stray '#', ...)
    Comment,          // "// ..." to the end of the line
    Identifier,       // also the reserved words that cannot be identifiers (as, break, ... while)
    QuotedIdentifier, // `field-name` (only after '.' or as a field name)
    Int,
    Uint,
    Double,
    String,
    Bytes,
    True,
    False,
    Null,
    In,
    // punctuation and operators
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Dot,
    Comma,
    Colon,
    Question,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Not,
    And,
    Or,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    OptionalDot,     // .?  (CEL optionals: recognised, not supported)
    OptionalBracket, // [?
};

struct Token {
    TokenKind kind = TokenKind::End;
    std::uint32_t offset = 0; // bytes from the start of the source
    std::uint32_t length = 0; // bytes
};

// Every token but whitespace, comments included, ending with an End token at the source's end.
std::vector<Token> tokenize(std::string_view source);

// CEL's reserved words (as, break, const, ...): not usable as identifiers, though fine as field names.
bool isReservedWord(std::string_view word);

// 1-based line and column (in code points) of a byte offset, for messages and editors.
struct SourcePosition {
    int line = 1;
    int column = 1;
};
SourcePosition positionOf(std::string_view source, std::uint32_t offset);

// Where a source's lines start, for many positions in one large source (a rule set of thousands of rules):
// each position costs a search among the lines and a walk along one line, not a walk from the start.
class LineStarts {
public:
    LineStarts() = default; // of an empty source
    explicit LineStarts(std::string_view source);
    // As positionOf(source, offset); `source` must be the text this was built from.
    SourcePosition positionOf(std::string_view source, std::uint32_t offset) const;

private:
    std::vector<std::uint32_t> m_starts{0}; // the offset of every line's first byte; the first is 0
};

} // namespace sb::cel
