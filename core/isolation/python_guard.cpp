#include "python_guard.h"

#include "isolation/launch_spec.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <utility>

namespace sb {

namespace {

constexpr const char* kPrelude = R"PY(import sys, builtins
def _sandbench_main(blocked, guard, path):
    real_import = builtins.__import__
    def guarded_import(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and name.partition('.')[0] in blocked:
            importer = sys._getframe(1).f_globals
            if importer.get('__name__', '__main__') == '__main__':
                raise ImportError("sandbench: import of '%s' is blocked by the sandbox policy" % name, name=name)
        return real_import(name, globals, locals, fromlist, level)
    with open(path, 'rb') as f:
        source = f.read()
    scope = {'__name__': '__main__', '__file__': 'snippet.py', '__builtins__': builtins}
    try:
        code = compile(source, 'snippet.py', 'exec')
        if guard:
            builtins.__import__ = guarded_import
        exec(code, scope)
    except SystemExit:
        raise
    except BaseException as e:
        builtins.__import__ = real_import
        if isinstance(e, MemoryError):
            scope.clear() # what the snippet held, so that the report below can be written
        # Formatted here rather than with the traceback module, whose import costs more than the run.
        lines = source.decode('utf-8', 'replace').splitlines()
        out = []
        tb = e.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == 'snippet.py':
                n = tb.tb_lineno
                out.append('  File "snippet.py", line %d, in %s\n' % (n, tb.tb_frame.f_code.co_name))
                if 0 < n <= len(lines):
                    out.append('    %s\n' % lines[n - 1].strip())
            tb = tb.tb_next
        if out:
            out.insert(0, 'Traceback (most recent call last):\n')
        if isinstance(e, SyntaxError):
            out.append('  File "snippet.py", line %s\n' % e.lineno)
            if e.text:
                out.append('    %s\n' % e.text.strip())
            out.append('%s: %s\n' % (type(e).__name__, e.msg))
        else:
            message = str(e)
            out.append('%s: %s\n' % (type(e).__name__, message) if message else type(e).__name__ + '\n')
        sys.stderr.write(''.join(out))
        sys.exit(1)
    finally:
        try:
            sys.stdout.flush()
        except Exception:
            pass
{wait}_sandbench_main(frozenset({blocked}), {guard}, sys.argv[1])
)PY";

// A program started ahead waits here until its job has come; the descriptor is gone before the snippet is read.
constexpr const char* kAheadWait = R"PY(import posix
_go = posix.read({fd}, 1)
posix.close({fd})
if not _go:
    raise SystemExit(0)
del _go, posix
)PY";

std::string pythonStringLiteral(const std::string& s)
{
    std::string out = "'";
    for (char c : s) {
        if (c == '\\' || c == '\'')
            out += '\\';
        out += c;
    }
    return out + "'";
}

// Python source as its tokenizer reads it, as far as finding import statements needs: names, operators and
// the end of each logical line; strings, numbers and comments pass as nothing the caller looks at.
class SourceReader {
public:
    struct Token {
        enum class Kind { Name, Op, LineEnd, Other, End };
        Kind kind = Kind::End;
        std::string_view text;
        int line = 0;
        bool is(Kind k, std::string_view t) const { return kind == k && text == t; }
    };

    explicit SourceReader(std::string_view source) : m_source(source)
    {
        if (m_source.starts_with("\xEF\xBB\xBF"))
            m_pos = 3;
    }

    Token peek()
    {
        if (!m_peeked)
            m_peeked = read();
        return *m_peeked;
    }

    Token next()
    {
        const Token t = peek();
        m_peeked.reset();
        return t;
    }

private:
    using Kind = Token::Kind;

    char at(std::size_t i) const { return i < m_source.size() ? m_source[i] : '\0'; }
    static bool nameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || (c & 0x80); }
    static bool nameChar(char c) { return nameStart(c) || std::isdigit(static_cast<unsigned char>(c)); }

    Token make(Kind kind, std::size_t from, int line) const { return {kind, m_source.substr(from, m_pos - from), line}; }

    Token read()
    {
        while (m_pos < m_source.size()) {
            const char c = m_source[m_pos];
            const std::size_t from = m_pos;
            const int line = m_line;
            if (c == ' ' || c == '\t' || c == '\f' || c == '\r') {
                ++m_pos;
            } else if (c == '\\' && (at(m_pos + 1) == '\n' || (at(m_pos + 1) == '\r' && at(m_pos + 2) == '\n'))) {
                m_pos += at(m_pos + 1) == '\n' ? 2 : 3; // a line continued: one logical line
                ++m_line;
            } else if (c == '#') {
                while (m_pos < m_source.size() && m_source[m_pos] != '\n')
                    ++m_pos;
            } else if (c == '\n') {
                ++m_pos;
                ++m_line;
                if (m_depth == 0)
                    return make(Kind::LineEnd, from, line);
            } else if (c == '\'' || c == '"') {
                skipString();
                return make(Kind::Other, from, line);
            } else if (nameStart(c)) {
                while (m_pos < m_source.size() && nameChar(m_source[m_pos]))
                    ++m_pos;
                if (isStringPrefix(m_source.substr(from, m_pos - from)) && (at(m_pos) == '\'' || at(m_pos) == '"')) {
                    skipString();
                    return make(Kind::Other, from, line);
                }
                return make(Kind::Name, from, line);
            } else if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && std::isdigit(static_cast<unsigned char>(at(m_pos + 1))))) {
                ++m_pos;
                while (m_pos < m_source.size()) {
                    const char d = m_source[m_pos];
                    const char before = m_source[m_pos - 1];
                    if (nameChar(d) || d == '.' || ((d == '+' || d == '-') && (before == 'e' || before == 'E')))
                        ++m_pos;
                    else
                        break;
                }
                return make(Kind::Other, from, line);
            } else {
                if (c == '(' || c == '[' || c == '{')
                    ++m_depth;
                else if ((c == ')' || c == ']' || c == '}') && m_depth > 0)
                    --m_depth;
                m_pos += c == '.' && at(m_pos + 1) == '.' && at(m_pos + 2) == '.' ? 3 : 1;
                return make(Kind::Op, from, line);
            }
        }
        return {Kind::End, {}, m_line};
    }

    static bool isStringPrefix(std::string_view name)
    {
        if (name.empty() || name.size() > 2)
            return false;
        std::string lower;
        for (char c : name)
            lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        for (std::string_view prefix : {"r", "u", "b", "f", "br", "rb", "fr", "rf"}) {
            if (lower == prefix)
                return true;
        }
        return false;
    }

    // From the opening quote past the closing one (or to the end of the line of an unclosed short string).
    void skipString()
    {
        const char quote = m_source[m_pos];
        const bool triple = at(m_pos + 1) == quote && at(m_pos + 2) == quote;
        m_pos += triple ? 3 : 1;
        while (m_pos < m_source.size()) {
            const char c = m_source[m_pos];
            if (c == '\\') { // in raw strings too, a backslash keeps the next character in the string
                if (at(m_pos + 1) == '\n')
                    ++m_line;
                m_pos += 2;
            } else if (c == quote && (!triple || (at(m_pos + 1) == quote && at(m_pos + 2) == quote))) {
                m_pos += triple ? 3 : 1;
                return;
            } else if (c == '\n') {
                if (!triple)
                    return;
                ++m_line;
                ++m_pos;
            } else {
                ++m_pos;
            }
        }
        m_pos = std::min(m_pos, m_source.size());
    }

    std::string_view m_source;
    std::size_t m_pos = 0;
    int m_line = 1;
    int m_depth = 0;
    std::optional<Token> m_peeked;
};

// A dotted module name (`a.b.c`) at the reader, or nothing.
std::optional<std::string> readDottedName(SourceReader& reader)
{
    using Kind = SourceReader::Token::Kind;
    if (reader.peek().kind != Kind::Name)
        return std::nullopt;
    std::string name(reader.next().text);
    while (reader.peek().is(Kind::Op, ".")) {
        reader.next();
        if (reader.peek().kind != Kind::Name)
            break;
        name += '.';
        name += reader.next().text;
    }
    return name;
}

} // namespace

std::vector<RefusedImport> refusedImports(std::string_view source, const std::vector<std::string>& blockedModules)
{
    using Kind = SourceReader::Token::Kind;
    std::vector<RefusedImport> found;
    auto consider = [&](const std::string& module, int line) {
        const std::string top = module.substr(0, module.find('.'));
        if (std::find(blockedModules.begin(), blockedModules.end(), top) == blockedModules.end())
            return;
        if (std::none_of(found.begin(), found.end(), [&](const RefusedImport& r) { return r.module == top; }))
            found.push_back({top, line});
    };
    SourceReader reader(source);
    bool statementStart = true;
    for (;;) {
        const auto token = reader.next();
        if (token.kind == Kind::End)
            break;
        // A statement starts a logical line, or follows `;` or the `:` of a compound statement's header
        // (`if x: import os`); no valid code has `import` or `from` anywhere else after these.
        if (token.kind == Kind::LineEnd || token.is(Kind::Op, ";") || token.is(Kind::Op, ":")) {
            statementStart = true;
            continue;
        }
        const bool start = std::exchange(statementStart, false);
        if (!start || token.kind != Kind::Name)
            continue;
        if (token.text == "import") {
            for (;;) { // import a.b as c, d
                if (auto module = readDottedName(reader))
                    consider(*module, token.line);
                if (reader.peek().is(Kind::Name, "as")) {
                    reader.next();
                    reader.next();
                }
                if (!reader.peek().is(Kind::Op, ","))
                    break;
                reader.next();
            }
        } else if (token.text == "from") {
            if (reader.peek().is(Kind::Op, ".") || reader.peek().is(Kind::Op, "..."))
                continue; // relative: the snippet's own package
            if (auto module = readDottedName(reader))
                consider(*module, token.line);
        }
    }
    return found;
}

std::vector<ProgramClaim> claimsFromOutput(std::string_view stderrText)
{
    constexpr std::string_view kBefore = "sandbench: import of '";
    constexpr std::string_view kAfter = "' is blocked by the sandbox policy";
    constexpr std::size_t kMaxClaims = 100;
    std::vector<ProgramClaim> claims;
    auto add = [&](std::string kind, std::string detail) {
        ProgramClaim claim{std::move(kind), std::move(detail)};
        if (claims.size() < kMaxClaims && std::find(claims.begin(), claims.end(), claim) == claims.end())
            claims.push_back(std::move(claim));
    };
    for (auto at = stderrText.find(kBefore); at != std::string_view::npos; at = stderrText.find(kBefore, at + 1)) {
        const auto nameStart = at + kBefore.size();
        const auto end = stderrText.find(kAfter, nameStart);
        const auto lineEnd = stderrText.find('\n', nameStart);
        if (end == std::string_view::npos || end == nameStart || end - nameStart > 200 || lineEnd < end)
            continue;
        add("import", std::string(stderrText.substr(nameStart, end - nameStart)));
    }
    std::size_t lineStart = 0;
    while (lineStart < stderrText.size()) {
        const auto lineEnd = std::min(stderrText.find('\n', lineStart), stderrText.size());
        const auto line = stderrText.substr(lineStart, lineEnd - lineStart);
        if (line == "MemoryError" || line.starts_with("MemoryError:"))
            add("memory", "MemoryError");
        lineStart = lineEnd + 1;
    }
    return claims;
}

std::string pythonPrelude(const std::vector<std::string>& blockedModules, bool guardEnabled, bool startsAhead)
{
    std::string list = "(";
    for (const auto& m : blockedModules)
        list += pythonStringLiteral(m) + ", ";
    list += ")";
    std::string prelude = kPrelude;
    auto replace = [&](std::string_view key, const std::string& value) {
        const auto pos = prelude.find(key);
        prelude.replace(pos, key.size(), value);
    };
    replace("{blocked}", list);
    replace("{guard}", guardEnabled ? "True" : "False");
    std::string wait;
    if (startsAhead) {
        wait = kAheadWait;
        for (auto pos = wait.find("{fd}"); pos != std::string::npos; pos = wait.find("{fd}"))
            wait.replace(pos, 4, std::to_string(kAheadGoFd));
    }
    replace("{wait}", wait);
    return prelude;
}

} // namespace sb
