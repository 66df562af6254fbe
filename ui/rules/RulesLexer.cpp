#include "ui/rules/RulesLexer.h"

#include "cel/lexer.h"

#include <Qsci/qsciscintilla.h>

#include <QColor>
#include <QFont>

#include <cctype>

namespace sb::ui {

namespace {

bool isKeyChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
}

// Where a YAML comment starts in `line` (" #" or "#" at the start, outside quotes), or npos.
std::size_t commentStart(std::string_view line, std::size_t from)
{
    char quote = 0;
    for (std::size_t i = from; i < line.size(); ++i) {
        const char c = line[i];
        if (quote) {
            if (c == quote)
                quote = 0;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) {
            return i;
        }
    }
    return std::string_view::npos;
}

void styleCel(std::string_view text, std::size_t base, std::vector<std::uint8_t>& styles)
{
    using sb::cel::TokenKind;
    const auto tokens = sb::cel::tokenize(text);
    for (std::size_t t = 0; t < tokens.size(); ++t) {
        const auto& tok = tokens[t];
        if (tok.kind == TokenKind::End)
            break;
        RulesLexer::Style style = RulesLexer::CelOperator;
        switch (tok.kind) {
        case TokenKind::Error: style = RulesLexer::CelError; break;
        case TokenKind::Comment: style = RulesLexer::Comment; break;
        case TokenKind::Identifier:
        case TokenKind::QuotedIdentifier:
            style = t + 1 < tokens.size() && tokens[t + 1].kind == TokenKind::LParen ? RulesLexer::CelFunction
                                                                                   : RulesLexer::CelIdentifier;
            break;
        case TokenKind::Int:
        case TokenKind::Uint:
        case TokenKind::Double: style = RulesLexer::Number; break;
        case TokenKind::String:
        case TokenKind::Bytes: style = RulesLexer::String; break;
        case TokenKind::True:
        case TokenKind::False:
        case TokenKind::Null:
        case TokenKind::In: style = RulesLexer::CelKeyword; break;
        default: break;
        }
        for (std::uint32_t i = 0; i < tok.length && base + tok.offset + i < styles.size(); ++i)
            styles[base + tok.offset + i] = style;
    }
}

void styleScalar(std::string_view value, std::size_t base, std::vector<std::uint8_t>& styles)
{
    std::size_t b = 0;
    while (b < value.size() && value[b] == ' ')
        ++b;
    std::size_t e = value.size();
    while (e > b && (value[e - 1] == ' ' || value[e - 1] == '\r'))
        --e;
    if (b >= e)
        return;
    const std::string_view v = value.substr(b, e - b);
    RulesLexer::Style style = RulesLexer::Default;
    if (v.front() == '\'' || v.front() == '"')
        style = RulesLexer::String;
    else if (std::isdigit(static_cast<unsigned char>(v.front())) || (v.front() == '-' && v.size() > 1))
        style = RulesLexer::Number;
    else if (v.front() == '[' || v.front() == '{')
        style = RulesLexer::Punctuation;
    for (std::size_t i = b; i < e; ++i)
        styles[base + i] = style;
    if (style == RulesLexer::Punctuation) {
        for (std::size_t i = b + 1; i + 1 < e; ++i) {
            const char c = value[i];
            styles[base + i] = (c == ',' || c == ':') ? RulesLexer::Punctuation : RulesLexer::Default;
        }
    }
}

} // namespace

std::vector<std::uint8_t> RulesLexer::classify(std::string_view text)
{
    std::vector<std::uint8_t> styles(text.size(), Default);
    int blockIndent = -1; // inside a `when: |` block scalar: the indentation of its key
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t eol = text.find('\n', pos);
        if (eol == std::string_view::npos)
            eol = text.size();
        const std::string_view line = text.substr(pos, eol - pos);
        std::size_t indent = 0;
        while (indent < line.size() && line[indent] == ' ')
            ++indent;
        const bool blank = indent == line.size() || line.substr(indent) == "\r";
        if (blockIndent >= 0 && (blank || static_cast<int>(indent) > blockIndent)) {
            styleCel(line, pos, styles);
            pos = eol + 1;
            continue;
        }
        blockIndent = -1;
        std::size_t i = indent;
        while (i < line.size() && (line[i] == '-' || line[i] == ' ')) { // list item dashes
            if (line[i] == '-')
                styles[pos + i] = Punctuation;
            ++i;
        }
        const std::size_t comment = commentStart(line, i);
        const std::size_t content = comment == std::string_view::npos ? line.size() : comment;
        std::size_t k = i;
        while (k < content && isKeyChar(line[k]))
            ++k;
        if (k > i && k < content && line[k] == ':' && (k + 1 == content || line[k + 1] == ' ')) {
            for (std::size_t j = i; j < k; ++j)
                styles[pos + j] = Key;
            styles[pos + k] = Punctuation;
            const std::string_view key = line.substr(i, k - i);
            const std::string_view value = line.substr(k + 1, content - k - 1);
            std::size_t vb = 0;
            while (vb < value.size() && value[vb] == ' ')
                ++vb;
            if (key == "when") {
                const std::string_view v = value.substr(vb);
                if (!v.empty() && (v.front() == '|' || v.front() == '>'))
                    blockIndent = static_cast<int>(i);
                else if (!v.empty() && (v.front() == '"' || v.front() == '\'') && v.size() >= 2) {
                    // A quoted condition: colour the CEL between the quotes.
                    styles[pos + k + 1 + vb] = String;
                    const std::size_t close = v.rfind(v.front());
                    if (close > 0) {
                        styles[pos + k + 1 + vb + close] = String;
                        styleCel(v.substr(1, close - 1), pos + k + 2 + vb, styles);
                    }
                } else {
                    styleCel(value, pos + k + 1, styles);
                }
            } else {
                styleScalar(value, pos + k + 1, styles);
            }
        } else if (i < content) {
            styleScalar(line.substr(i, content - i), pos + i, styles);
        }
        for (std::size_t j = content; j < line.size(); ++j)
            styles[pos + j] = Comment;
        pos = eol + 1;
    }
    return styles;
}

RulesLexer::RulesLexer(QObject* parent)
    : QsciLexerCustom(parent)
{
}

QString RulesLexer::description(int style) const
{
    switch (style) {
    case Default: return tr("Default");
    case Comment: return tr("Comment");
    case Key: return tr("Key");
    case String: return tr("String");
    case Number: return tr("Number");
    case Punctuation: return tr("Punctuation");
    case CelIdentifier: return tr("Field");
    case CelKeyword: return tr("Keyword");
    case CelFunction: return tr("Function");
    case CelOperator: return tr("Operator");
    case CelError: return tr("Error");
    default: return {};
    }
}

void RulesLexer::applyPalette(const QFont& font)
{
    QFont bold = font;
    bold.setBold(true);
    QFont italic = font;
    italic.setItalic(true);
    setColor(QColor(0x8c, 0x8c, 0x8c), Comment);
    setFont(italic, Comment);
    setColor(QColor(0x00, 0x33, 0xb3), Key);
    setColor(QColor(0x06, 0x7d, 0x17), String);
    setColor(QColor(0x17, 0x50, 0xeb), Number);
    setColor(QColor(0x6a, 0x73, 0x7d), Punctuation);
    setColor(QColor(0x87, 0x10, 0x94), CelIdentifier);
    setColor(QColor(0x00, 0x33, 0xb3), CelKeyword);
    setFont(bold, CelKeyword);
    setColor(QColor(0x00, 0x62, 0x7a), CelFunction);
    setColor(QColor(0xb3, 0x50, 0x00), CelOperator);
    setFont(bold, CelOperator);
    setColor(QColor(0xc0, 0x39, 0x2b), CelError);
    setPaper(QColor(0xfd, 0xec, 0xea), CelError);
}

void RulesLexer::styleText(int /*start*/, int /*end*/)
{
    // Rule sets are small and a `when: |` block depends on lines above: restyle the whole document.
    auto* ed = editor();
    if (!ed)
        return;
    const QByteArray bytes = ed->text().toUtf8();
    const auto styles = classify(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
    startStyling(0);
    std::size_t i = 0;
    while (i < styles.size()) {
        std::size_t j = i;
        while (j < styles.size() && styles[j] == styles[i])
            ++j;
        setStyling(static_cast<int>(j - i), styles[i]);
        i = j;
    }
}

} // namespace sb::ui
