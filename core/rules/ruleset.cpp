#include "rules/ruleset.h"

#include "cel/lexer.h"
#include "cel/parser.h"
#include "cel/utf8.h"
#include "util/input_file.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <set>
#include <unordered_map>

namespace sb::rules {

std::string_view toString(Strategy strategy)
{
    return strategy == Strategy::FirstMatch ? "first_match" : "max_score";
}

std::optional<Strategy> strategyFromString(std::string_view text)
{
    if (text == "first_match")
        return Strategy::FirstMatch;
    if (text == "max_score")
        return Strategy::MaxScore;
    return std::nullopt;
}

std::string_view toString(Severity severity)
{
    return severity == Severity::Error ? "error" : "warning";
}

std::string Diagnostic::format(std::string_view file) const
{
    std::string where(file);
    if (pos.line > 0)
        where += fmt::format(":{}:{}", pos.line, pos.column);
    return fmt::format("{}: {}: {}", where, toString(severity), message);
}

bool ParsedRuleSet::hasErrors() const
{
    return std::any_of(diagnostics.begin(), diagnostics.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::Error; });
}

CheckCounts countDiagnostics(const std::vector<Diagnostic>& diagnostics)
{
    CheckCounts c;
    for (const auto& d : diagnostics)
        (d.severity == Severity::Error ? c.errors : c.warnings)++;
    return c;
}

void sortDiagnostics(std::vector<Diagnostic>& diagnostics)
{
    std::stable_sort(diagnostics.begin(), diagnostics.end(), [](const Diagnostic& a, const Diagnostic& b) {
        if (a.pos.line != b.pos.line)
            return a.pos.line < b.pos.line;
        return a.pos.column < b.pos.column;
    });
}

SourcePos RuleSet::positionInWhen(const Rule& rule, std::uint32_t offset) const
{
    if (rule.whenOffsets.empty())
        return rule.whenPos;
    const std::uint32_t at = rule.whenOffsets[std::min<std::size_t>(offset, rule.whenOffsets.size() - 1)];
    const cel::SourcePosition p = lines.positionOf(text, at);
    return {p.line, p.column};
}

std::vector<Field> RuleSet::declaredFields() const
{
    std::vector<Field> out;
    for (const auto& f : fields)
        out.push_back(f.field);
    return out;
}

int CompiledRuleSet::findDecision(std::string_view decision) const
{
    for (std::size_t i = 0; i < decisions.size(); ++i) {
        if (decisions[i] == decision)
            return static_cast<int>(i);
    }
    return -1;
}

namespace {

// ---- Positions --------------------------------------------------------------------------------------------

SourcePos posOf(const YAML::Mark& mark)
{
    if (mark.is_null())
        return {};
    return {mark.line + 1, mark.column + 1};
}

// yaml-cpp counts columns in bytes; people (and CEL's diagnostics) count characters.
SourcePos posAt(const RuleSet& rs, const YAML::Mark& mark)
{
    if (mark.is_null() || mark.pos < 0 || static_cast<std::size_t>(mark.pos) > rs.text.size())
        return posOf(mark);
    const cel::SourcePosition p = rs.lines.positionOf(rs.text, static_cast<std::uint32_t>(mark.pos));
    return {p.line, p.column};
}

bool isYamlSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

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

// The bytes a double-quoted escape at text[j] ('\\') stands for, and how long it is; nullopt when unknown.
// An escaped line break stands for nothing.
std::optional<std::string> yamlEscape(std::string_view text, std::size_t j, std::size_t& length)
{
    if (j + 1 >= text.size())
        return std::nullopt;
    const char c = text[j + 1];
    length = 2;
    switch (c) {
    case '0': return std::string(1, '\0');
    case 'a': return "\a";
    case 'b': return "\b";
    case 't':
    case '\t': return "\t";
    case 'n': return "\n";
    case 'v': return "\v";
    case 'f': return "\f";
    case 'r': return "\r";
    case 'e': return "\x1b";
    case ' ': return " ";
    case '"': return "\"";
    case '/': return "/";
    case '\\': return "\\";
    case 'N': return "\xC2\x85";
    case '_': return "\xC2\xA0";
    case 'L': return "\xE2\x80\xA8";
    case 'P': return "\xE2\x80\xA9";
    case '\n':
    case '\r': {
        std::size_t k = j + 1;
        if (text[k] == '\r' && k + 1 < text.size() && text[k + 1] == '\n')
            ++k;
        ++k;
        while (k < text.size() && (text[k] == ' ' || text[k] == '\t'))
            ++k;
        length = k - j;
        return std::string();
    }
    case 'x':
    case 'u':
    case 'U': {
        const std::size_t digits = c == 'x' ? 2 : c == 'u' ? 4 : 8;
        if (j + 2 + digits > text.size())
            return std::nullopt;
        std::uint32_t cp = 0;
        for (std::size_t k = 0; k < digits; ++k) {
            const int h = hexValue(text[j + 2 + k]);
            if (h < 0)
                return std::nullopt;
            cp = cp * 16 + static_cast<std::uint32_t>(h);
        }
        length = 2 + digits;
        std::string out;
        cel::appendUtf8(out, cp);
        return out;
    }
    default: return std::nullopt;
    }
}

// Where each byte of a scalar's value is in the file: the value's characters appear in the file in order,
// apart from indentation and line folding (whitespace the file has and the value does not), the quotes'
// escapes, and '' in single quotes. Walking both side by side gives every non-blank character its place;
// when the walk fails (a form this does not know), every byte points at the scalar's start.
std::vector<std::uint32_t> scalarOffsets(std::string_view text, const YAML::Mark& mark, std::string_view value)
{
    const std::uint32_t start = mark.pos >= 0 ? static_cast<std::uint32_t>(mark.pos) : 0;
    std::vector<std::uint32_t> map(value.size() + 1, start);
    if (start >= text.size())
        return map;
    std::size_t j = start;
    const char style = text[j];
    if (style == '|' || style == '>') {
        const std::size_t nl = text.find('\n', j);
        if (nl == std::string_view::npos)
            return map;
        j = nl + 1;
    } else if (style == '"' || style == '\'') {
        ++j;
    }
    std::vector<std::uint32_t> out(value.size() + 1, start);
    std::size_t i = 0;
    while (i < value.size()) {
        if (j >= text.size())
            return map;
        if (style == '"' && text[j] == '\\') {
            std::size_t length = 0;
            const auto bytes = yamlEscape(text, j, length);
            if (!bytes)
                return map;
            if (value.substr(i, bytes->size()) != *bytes)
                return map;
            for (std::size_t k = 0; k < bytes->size(); ++k)
                out[i + k] = static_cast<std::uint32_t>(j);
            i += bytes->size();
            j += length;
            continue;
        }
        if (style == '\'' && text[j] == '\'' && j + 1 < text.size() && text[j + 1] == '\'') {
            if (value[i] != '\'')
                return map;
            out[i++] = static_cast<std::uint32_t>(j);
            j += 2;
            continue;
        }
        if (value[i] == text[j]) {
            out[i++] = static_cast<std::uint32_t>(j++);
            continue;
        }
        if (isYamlSpace(text[j])) {
            // Folded away, or indentation. A space or newline of the value stands for it.
            if (value[i] == ' ' || value[i] == '\n') {
                out[i++] = static_cast<std::uint32_t>(j);
            }
            ++j;
            continue;
        }
        return map;
    }
    out[value.size()] = static_cast<std::uint32_t>(std::min(j, text.size()));
    return out;
}

// ---- Reading the YAML -------------------------------------------------------------------------------------

class Reader {
public:
    explicit Reader(ParsedRuleSet& out) : m_out(out) {}

    void error(const YAML::Node& at, std::string message, std::string code, std::string rule = {})
    {
        add(Severity::Error, at.IsDefined() ? pos(at) : SourcePos{}, std::move(message), std::move(code),
            std::move(rule));
    }
    void warning(const YAML::Node& at, std::string message, std::string code, std::string rule = {})
    {
        add(Severity::Warning, at.IsDefined() ? pos(at) : SourcePos{}, std::move(message), std::move(code),
            std::move(rule));
    }
    void add(Severity s, SourcePos pos, std::string message, std::string code, std::string rule)
    {
        m_out.diagnostics.push_back(Diagnostic{s, pos, std::move(message), std::move(rule), std::move(code)});
    }
    SourcePos pos(const YAML::Node& n) const { return posAt(m_out.ruleSet, n.Mark()); }

    // The keys of a map, each checked against the known ones; repeated keys are errors (YAML allows no two,
    // and yaml-cpp would silently keep the first).
    void checkKeys(const YAML::Node& map, std::initializer_list<std::string_view> known, std::string_view what,
                   const std::string& rule = {}, bool warnUnknown = true)
    {
        std::map<std::string, SourcePos> seen;
        for (auto it = map.begin(); it != map.end(); ++it) {
            const YAML::Node key = it->first;
            if (!key.IsScalar()) {
                error(key, fmt::format("{}: a key must be a name", what), "type", rule);
                continue;
            }
            const std::string name = key.Scalar();
            if (auto [at, inserted] = seen.emplace(name, pos(key)); !inserted) {
                error(key, fmt::format("{}: duplicate key '{}' (first at line {})", what, name, at->second.line),
                      "duplicate", rule);
                continue;
            }
            if (warnUnknown && std::find(known.begin(), known.end(), name) == known.end()) {
                std::string list;
                for (auto k : known)
                    list += (list.empty() ? "" : ", ") + std::string(k);
                warning(key, fmt::format("unknown field '{}' in {} (ignored; known: {})", name, what, list),
                        "unknown_field", rule);
            }
        }
    }

    std::optional<std::string> text(const YAML::Node& map, std::string_view key, std::string_view what, bool required,
                                    const std::string& rule = {})
    {
        const YAML::Node n = map[std::string(key)];
        if (!n.IsDefined() || n.IsNull()) {
            if (required)
                error(n.IsDefined() ? n : map, fmt::format("{}: missing '{}'", what, key), "missing", rule);
            return std::nullopt;
        }
        if (!n.IsScalar()) {
            error(n, fmt::format("{}: '{}' must be text, not a {}", what, key, n.IsMap() ? "map" : "list"), "type",
                  rule);
            return std::nullopt;
        }
        if (required && n.Scalar().empty()) {
            error(n, fmt::format("{}: '{}' is empty", what, key), "missing", rule);
            return std::nullopt;
        }
        return n.Scalar();
    }

    std::optional<double> number(const YAML::Node& map, std::string_view key, std::string_view what, bool required,
                                 const std::string& rule = {})
    {
        const YAML::Node n = map[std::string(key)];
        if (!n.IsDefined() || n.IsNull()) {
            if (required)
                error(n.IsDefined() ? n : map, fmt::format("{}: missing '{}'", what, key), "missing", rule);
            return std::nullopt;
        }
        if (n.IsScalar()) {
            std::string_view s = n.Scalar();
            if (!s.empty() && s.front() == '+')
                s.remove_prefix(1);
            double v = 0;
            const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
            if (!s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size() && std::isfinite(v))
                return v;
        }
        error(n, fmt::format("{}: '{}' must be a number", what, key), "type", rule);
        return std::nullopt;
    }

    std::optional<bool> boolean(const YAML::Node& map, std::string_view key, std::string_view what,
                                const std::string& rule = {})
    {
        const YAML::Node n = map[std::string(key)];
        if (!n.IsDefined() || n.IsNull())
            return std::nullopt;
        if (n.IsScalar()) {
            const std::string& s = n.Scalar();
            if (s == "true" || s == "True" || s == "TRUE")
                return true;
            if (s == "false" || s == "False" || s == "FALSE")
                return false;
        }
        error(n, fmt::format("{}: '{}' must be true or false", what, key), "type", rule);
        return std::nullopt;
    }

private:
    ParsedRuleSet& m_out;
};

bool isValidRuleId(std::string_view id)
{
    if (id.empty() || id.size() > 200)
        return false;
    return std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'
               || c == '.' || c == ':' || c == '/';
    });
}

void readRules(Reader& r, const YAML::Node& root, RuleSet& rs)
{
    const YAML::Node rules = root["rules"];
    if (!rules.IsDefined() || rules.IsNull()) {
        r.error(rules.IsDefined() ? rules : root, "missing 'rules' (a list of rules)", "missing");
        return;
    }
    if (!rules.IsSequence()) {
        r.error(rules, "'rules' must be a list of rules (each starting with '- id: ...')", "type");
        return;
    }
    // Bounds on what aliases could multiply (a list referenced from thousands of places).
    constexpr std::size_t kMaxRules = 100'000;
    constexpr std::size_t kMaxTags = 100;
    std::unordered_map<std::string, SourcePos> ids;
    std::size_t index = 0;
    for (const YAML::Node& n : rules) {
        if (++index > kMaxRules) {
            r.error(n, fmt::format("more than {} rules", kMaxRules), "value");
            break;
        }
        const std::string what = fmt::format("rule {}", index);
        if (!n.IsMap()) {
            r.error(n, fmt::format("{}: a rule must be a map with id, when, decision and score", what), "type");
            continue;
        }
        Rule rule;
        rule.pos = r.pos(n);
        bool ok = true;
        const auto id = r.text(n, "id", what, true);
        if (!id) {
            ok = false;
        } else if (!isValidRuleId(*id)) {
            r.error(n["id"], fmt::format("{}: id '{}' may only hold letters, digits and _ - . : /", what, *id),
                    "value");
            ok = false;
        } else if (auto [at, inserted] = ids.emplace(*id, r.pos(n["id"])); !inserted) {
            r.error(n["id"], fmt::format("duplicate rule id '{}' (first at line {})", *id, at->second.line),
                    "duplicate", *id);
            ok = false;
        } else {
            rule.id = *id;
        }
        const std::string label = rule.id.empty() ? what : fmt::format("rule '{}'", rule.id);
        r.checkKeys(n, {"id", "when", "decision", "score", "enabled", "description", "tags"}, label, rule.id);
        if (const auto when = r.text(n, "when", label, true, rule.id)) {
            rule.when = *when;
            const YAML::Node w = n["when"];
            rule.whenPos = r.pos(w);
            rule.whenOffsets = scalarOffsets(rs.text, w.Mark(), rule.when);
        } else {
            ok = false;
        }
        if (const auto decision = r.text(n, "decision", label, true, rule.id))
            rule.decision = *decision;
        else
            ok = false;
        if (const auto score = r.number(n, "score", label, true, rule.id))
            rule.score = *score;
        else
            ok = false;
        if (const auto enabled = r.boolean(n, "enabled", label, rule.id))
            rule.enabled = *enabled;
        if (const auto description = r.text(n, "description", label, false, rule.id))
            rule.description = *description;
        if (const YAML::Node tags = n["tags"]; tags.IsDefined() && !tags.IsNull()) {
            if (tags.IsSequence() && tags.size() > kMaxTags) {
                r.error(tags, fmt::format("{}: more than {} tags", label, kMaxTags), "value", rule.id);
            } else if (tags.IsSequence()) {
                for (const YAML::Node& t : tags) {
                    if (t.IsScalar())
                        rule.tags.push_back(t.Scalar());
                    else
                        r.error(t, fmt::format("{}: each tag must be text", label), "type", rule.id);
                }
            } else if (tags.IsScalar()) {
                rule.tags.push_back(tags.Scalar());
            } else {
                r.error(tags, fmt::format("{}: 'tags' must be a list of text", label), "type", rule.id);
            }
        }
        if (ok)
            rs.rules.push_back(std::move(rule));
    }
}

} // namespace

ParsedRuleSet parseRuleSet(std::string_view text, std::string file)
{
    ParsedRuleSet out;
    RuleSet& rs = out.ruleSet;
    rs.file = std::move(file);
    rs.text = std::string(text);
    rs.lines = cel::LineStarts(rs.text);
    Reader r(out);

    YAML::Node root;
    try {
        root = YAML::Load(rs.text);
    } catch (const YAML::Exception& e) {
        r.add(Severity::Error, posAt(rs, e.mark), "malformed YAML: " + e.msg, "yaml", {});
        return out;
    }
    if (!root.IsDefined() || root.IsNull()) {
        r.add(Severity::Error, {1, 1}, "empty: a rule set has name, default and rules", "missing", {});
        return out;
    }
    if (!root.IsMap()) {
        r.error(root, "a rule set must be a map (name, version, strategy, default, fields, rules)", "type");
        return out;
    }
    r.checkKeys(root, {"name", "version", "strategy", "default", "fields", "rules", "description"}, "the rule set");

    if (const auto name = r.text(root, "name", "the rule set", true))
        rs.name = *name;
    if (const auto version = r.text(root, "version", "the rule set", false))
        rs.version = *version;
    if (const auto strategy = r.text(root, "strategy", "the rule set", false)) {
        if (const auto s = strategyFromString(*strategy))
            rs.strategy = *s;
        else
            r.error(root["strategy"],
                    fmt::format("unknown strategy '{}' (expected first_match or max_score)", *strategy), "strategy");
    }

    const YAML::Node def = root["default"];
    if (!def.IsDefined() || def.IsNull()) {
        r.error(def.IsDefined() ? def : root, "missing 'default' (decision and score when no rule matches)", "missing");
    } else if (def.IsScalar()) {
        rs.defaultDecision = def.Scalar(); // default: allow
    } else if (!def.IsMap()) {
        r.error(def, "'default' must be a map with decision and score", "type");
    } else {
        r.checkKeys(def, {"decision", "score"}, "default");
        if (const auto decision = r.text(def, "decision", "default", true))
            rs.defaultDecision = *decision;
        if (const auto score = r.number(def, "score", "default", false))
            rs.defaultScore = *score;
    }

    if (const YAML::Node fields = root["fields"]; fields.IsDefined() && !fields.IsNull()) {
        rs.declaresFields = true;
        if (!fields.IsMap()) {
            r.error(fields, "'fields' must be a map of field name to type (int, double, bool, string, timestamp)",
                    "type");
        } else {
            r.checkKeys(fields, {}, "fields", {}, false); // repeated names only
            std::set<std::string> seen;
            for (auto it = fields.begin(); it != fields.end(); ++it) {
                const YAML::Node key = it->first;
                const YAML::Node value = it->second;
                if (!key.IsScalar())
                    continue;
                const std::string name = key.Scalar();
                if (!seen.insert(name).second)
                    continue;
                if (!value.IsScalar()) {
                    r.error(value,
                            fmt::format("field '{}': the type must be int, double, bool, string or "
                                        "timestamp",
                                        name),
                            "type");
                    continue;
                }
                const auto type = fieldTypeFromString(value.Scalar());
                if (!type) {
                    r.error(value,
                            fmt::format("field '{}': unknown type '{}' (expected int, double, bool, "
                                        "string or timestamp)",
                                        name, value.Scalar()),
                            "type");
                    continue;
                }
                cel::Declarations probe;
                if (auto ok = probe.add(name, cel::Type::dyn()); !ok) {
                    r.error(key, fmt::format("field '{}': {}", name, ok.error().message), "value");
                    continue;
                }
                rs.fields.push_back(FieldDecl{Field{name, *type}, r.pos(key)});
            }
        }
    }

    readRules(r, root, rs);
    sortDiagnostics(out.diagnostics);
    return out;
}

Result<std::string> readRuleSetFile(const std::filesystem::path& path)
{
    auto text = readInputFile(path, input::kRuleSet);
    if (!text)
        return text;
    if (const auto nul = text->find('\0'); nul != std::string::npos) {
        const auto p = cel::positionOf(*text, static_cast<std::uint32_t>(nul));
        return fail(fmt::format("{}:{}:{}: error: binary content (a NUL byte); a rule set is YAML text", path.string(),
                                p.line, p.column));
    }
    if (const auto bad = utf8::firstInvalid(*text); bad != std::string::npos) {
        const auto p = cel::positionOf(*text, static_cast<std::uint32_t>(bad));
        return fail(fmt::format("{}:{}:{}: error: not UTF-8 text", path.string(), p.line, p.column));
    }
    return text;
}

Result<ParsedRuleSet> loadRuleSetFile(const std::filesystem::path& path)
{
    auto text = readRuleSetFile(path);
    if (!text)
        return std::unexpected(text.error());
    return parseRuleSet(*text, path.string());
}

// ---- Compiling --------------------------------------------------------------------------------------------

namespace {

// The names a condition reads that no comprehension binds: what it needs declared.
void collectFreeNames(const cel::Ast& ast, std::int32_t node, std::vector<std::string>& bound,
                      std::vector<std::pair<std::string, std::uint32_t>>& out)
{
    if (node < 0)
        return;
    const cel::Node& n = ast.node(node);
    switch (n.kind) {
    case cel::NodeKind::Ident:
        if (std::find(bound.begin(), bound.end(), n.name) == bound.end())
            out.emplace_back(n.name, n.begin);
        return;
    case cel::NodeKind::Select: {
        // a.b.c read as one dotted name when it starts with a free identifier (like the checker does)
        std::string dotted = n.name;
        std::int32_t t = n.target;
        while (t >= 0 && ast.node(t).kind == cel::NodeKind::Select && !ast.node(t).testOnly) {
            dotted = ast.node(t).name + "." + dotted;
            t = ast.node(t).target;
        }
        if (!n.testOnly && t >= 0 && ast.node(t).kind == cel::NodeKind::Ident
            && std::find(bound.begin(), bound.end(), ast.node(t).name) == bound.end()) {
            out.emplace_back(ast.node(t).name, ast.node(t).begin);
            return;
        }
        collectFreeNames(ast, n.target, bound, out);
        return;
    }
    case cel::NodeKind::Comprehension: {
        collectFreeNames(ast, n.target, bound, out);
        bound.push_back(n.var);
        if (!n.var2.empty())
            bound.push_back(n.var2);
        for (auto a : n.args)
            collectFreeNames(ast, a, bound, out);
        bound.pop_back();
        if (!n.var2.empty())
            bound.pop_back();
        return;
    }
    default:
        collectFreeNames(ast, n.target, bound, out);
        for (auto a : n.args)
            collectFreeNames(ast, a, bound, out);
        return;
    }
}

// The names a rule's condition reads that no comprehension binds, with their offsets; none when it does not parse.
std::vector<std::pair<std::string, std::uint32_t>> freeNamesOf(const Rule& rule)
{
    std::vector<std::pair<std::string, std::uint32_t>> names;
    if (auto ast = cel::parse(rule.when)) {
        std::vector<std::string> bound;
        collectFreeNames(*ast, ast->root, bound, names);
    }
    return names;
}

bool isTypeName(std::string_view name)
{
    static const std::set<std::string_view> names = {"int",   "uint",      "double",   "bool",      "string",
                                                     "bytes", "list",      "map",      "null_type", "type",
                                                     "dyn",   "timestamp", "duration", "google"};
    return names.contains(name);
}

// ---- Conditions that can never hold ----------------------------------------------------------------------
//
// A conjunction of comparisons of one field with constants (amount > 1000.0 && amount < 500.0, country ==
// "US" && country == "FR", x in ["a"] && x == "b") that no value satisfies.

struct Bound {
    double value = 0;
    bool inclusive = true;
    std::int32_t node = -1;
};

struct FieldConstraint {
    std::optional<Bound> lo, hi;
    std::optional<std::pair<cel::Literal, std::int32_t>> eq;
    std::vector<std::pair<cel::Literal, std::int32_t>> ne;
};

bool isNumber(const cel::Literal& l)
{
    return l.kind == cel::LiteralKind::Int || l.kind == cel::LiteralKind::Uint || l.kind == cel::LiteralKind::Double;
}

double numberOf(const cel::Literal& l)
{
    switch (l.kind) {
    case cel::LiteralKind::Int: return static_cast<double>(l.intValue);
    case cel::LiteralKind::Uint: return static_cast<double>(l.uintValue);
    default: return l.doubleValue;
    }
}

bool sameLiteral(const cel::Literal& a, const cel::Literal& b)
{
    if (isNumber(a) && isNumber(b))
        return numberOf(a) == numberOf(b);
    if (a.kind != b.kind)
        return false;
    switch (a.kind) {
    case cel::LiteralKind::Bool: return a.boolValue == b.boolValue;
    case cel::LiteralKind::String:
    case cel::LiteralKind::Bytes: return a.text == b.text;
    case cel::LiteralKind::Null: return true;
    default: return false;
    }
}

void conjuncts(const cel::Ast& ast, std::int32_t node, std::vector<std::int32_t>& out)
{
    const cel::Node& n = ast.node(node);
    if (n.kind == cel::NodeKind::Call && n.name == "_&&_" && n.args.size() == 2) {
        conjuncts(ast, n.args[0], out);
        conjuncts(ast, n.args[1], out);
        return;
    }
    out.push_back(node);
}

std::optional<std::string> contradiction(const cel::Ast& ast)
{
    std::vector<std::int32_t> parts;
    conjuncts(ast, ast.root, parts);
    if (parts.size() < 2)
        return std::nullopt;
    std::map<std::string, FieldConstraint> fields;
    auto text = [&](std::int32_t node) { return std::string(ast.text(node)); };
    for (std::int32_t p : parts) {
        const cel::Node& n = ast.node(p);
        if (n.kind != cel::NodeKind::Call || n.args.size() != 2 || n.target >= 0)
            continue;
        std::string op = n.name;
        const cel::Node* a = &ast.node(n.args[0]);
        const cel::Node* b = &ast.node(n.args[1]);
        if (a->kind == cel::NodeKind::Literal && b->kind == cel::NodeKind::Ident) {
            std::swap(a, b);
            if (op == "_<_")
                op = "_>_";
            else if (op == "_<=_")
                op = "_>=_";
            else if (op == "_>_")
                op = "_<_";
            else if (op == "_>=_")
                op = "_<=_";
        }
        if (a->kind != cel::NodeKind::Ident || b->kind != cel::NodeKind::Literal)
            continue;
        FieldConstraint& f = fields[a->name];
        const cel::Literal& lit = b->literal;
        if (op == "_==_") {
            if (f.eq && !sameLiteral(f.eq->first, lit))
                return fmt::format("'{}' and '{}' cannot both hold", text(f.eq->second), text(p));
            f.eq = std::make_pair(lit, p);
        } else if (op == "_!=_") {
            f.ne.emplace_back(lit, p);
        } else if (isNumber(lit) && (op == "_>_" || op == "_>=_")) {
            const Bound nb{numberOf(lit), op == "_>=_", p};
            if (!f.lo || nb.value > f.lo->value || (nb.value == f.lo->value && !nb.inclusive))
                f.lo = nb;
        } else if (isNumber(lit) && (op == "_<_" || op == "_<=_")) {
            const Bound nb{numberOf(lit), op == "_<=_", p};
            if (!f.hi || nb.value < f.hi->value || (nb.value == f.hi->value && !nb.inclusive))
                f.hi = nb;
        } else {
            continue;
        }
        if (f.lo && f.hi
            && (f.lo->value > f.hi->value || (f.lo->value == f.hi->value && !(f.lo->inclusive && f.hi->inclusive))))
            return fmt::format("'{}' and '{}' cannot both hold", text(f.lo->node), text(f.hi->node));
        if (f.eq) {
            for (const auto& [l, node] : f.ne) {
                if (sameLiteral(l, f.eq->first))
                    return fmt::format("'{}' and '{}' cannot both hold", text(f.eq->second), text(node));
            }
            if (isNumber(f.eq->first)) {
                const double v = numberOf(f.eq->first);
                if (f.lo && (v < f.lo->value || (v == f.lo->value && !f.lo->inclusive)))
                    return fmt::format("'{}' and '{}' cannot both hold", text(f.eq->second), text(f.lo->node));
                if (f.hi && (v > f.hi->value || (v == f.hi->value && !f.hi->inclusive)))
                    return fmt::format("'{}' and '{}' cannot both hold", text(f.eq->second), text(f.hi->node));
            }
        }
    }
    return std::nullopt;
}

} // namespace

std::vector<std::string> namesRead(const RuleSet& rs)
{
    std::set<std::string> names;
    for (const Rule& rule : rs.rules) {
        for (auto& [name, offset] : freeNamesOf(rule))
            names.insert(std::move(name));
    }
    return {names.begin(), names.end()};
}

bool readsColumn(const std::vector<std::string>& names, std::string_view column)
{
    for (const std::string& name : names) {
        if (column == name || (column.size() > name.size() && column.starts_with(name) && column[name.size()] == '.'))
            return true;
    }
    return false;
}

CompileResult compileRuleSet(const RuleSet& rs, const Schema* data)
{
    CompileResult result;
    auto& diags = result.diagnostics;
    CompiledRuleSet out;
    out.source = &rs;
    out.strategy = rs.strategy;
    out.defaultScore = rs.defaultScore;
    out.decisions.push_back(rs.defaultDecision);
    out.defaultDecision = 0;

    auto warn = [&](SourcePos pos, std::string message, std::string code, std::string rule = {}) {
        diags.push_back(Diagnostic{Severity::Warning, pos, std::move(message), std::move(rule), std::move(code)});
    };
    auto error = [&](SourcePos pos, std::string message, std::string code, std::string rule = {}) {
        diags.push_back(Diagnostic{Severity::Error, pos, std::move(message), std::move(rule), std::move(code)});
    };

    // The fields: the data's columns first (slot = order of declaration), then declared fields it lacks.
    std::vector<int> slotColumn;
    auto declare = [&](const std::string& name, cel::Type type, int column) {
        if (auto slot = out.declarations.add(name, std::move(type)); slot)
            slotColumn.push_back(column);
    };
    if (data) {
        for (std::size_t c = 0; c < data->fields.size(); ++c) {
            const Field& col = data->fields[c];
            FieldType type = col.type;
            for (const auto& f : rs.fields) {
                if (f.field.name == col.name && f.field.type != col.type) {
                    error(f.pos,
                          fmt::format("field '{}' is declared {} but the data has it as {}", col.name,
                                      toString(f.field.type), toString(col.type)),
                          "data");
                    type = f.field.type;
                }
            }
            declare(col.name, celType(type), static_cast<int>(c));
        }
        out.columnSlots = slotColumn.size();
        for (const auto& f : rs.fields) {
            if (data->find(f.field.name) < 0) {
                warn(f.pos,
                     fmt::format("field '{}' is declared but the data has no such column: rules reading it fail "
                                 "on every record",
                                 f.field.name),
                     "data");
                declare(f.field.name, celType(f.field.type), -1);
            }
        }
    } else if (!rs.fields.empty() || rs.declaresFields) {
        for (const auto& f : rs.fields)
            declare(f.field.name, celType(f.field.type), -1);
    } else {
        // Neither: the names the conditions read, unchecked (dyn), each reported once.
        std::set<std::string> seen;
        for (const Rule& rule : rs.rules) {
            for (const auto& [name, offset] : freeNamesOf(rule)) {
                if (isTypeName(name) || !seen.insert(name).second)
                    continue;
                warn(rs.positionInWhen(rule, offset),
                     fmt::format("unknown field '{}': no fields: section declares it and no data was given, so "
                                 "its type is not checked",
                                 name),
                     "unknown_field", rule.id);
                declare(name, cel::Type::dyn(), -1);
            }
        }
    }
    out.slotColumn = slotColumn;

    bool failed =
        std::any_of(diags.begin(), diags.end(), [](const Diagnostic& d) { return d.severity == Severity::Error; });
    std::set<int> referenced;
    std::optional<std::size_t> alwaysTrue; // first_match: an enabled rule that matches everything
    // Decisions by name, numbered in order of first use (a rule set may name a new one in each of its rules).
    std::unordered_map<std::string_view, std::size_t> decisionIndex{{rs.defaultDecision, 0}};
    for (std::size_t i = 0; i < rs.rules.size(); ++i) {
        const Rule& rule = rs.rules[i];
        CompiledRule cr;
        cr.index = i;
        cr.score = rule.score;
        cr.enabled = rule.enabled;
        const auto [decision, added] = decisionIndex.emplace(rule.decision, out.decisions.size());
        if (added)
            out.decisions.push_back(rule.decision);
        cr.decision = static_cast<std::uint16_t>(decision->second);

        auto program = cel::compile(rule.when, out.declarations);
        if (!program) {
            for (const auto& d : program.error().diagnostics)
                error(rs.positionInWhen(rule, d.offset), fmt::format("rule '{}': {}", rule.id, d.message), "cel",
                      rule.id);
            failed = true;
            out.rules.push_back(std::move(cr));
            continue;
        }
        const auto kind = program->resultType().kind();
        if (kind != cel::Type::Kind::Bool && kind != cel::Type::Kind::Dyn) {
            error(rule.whenPos,
                  fmt::format("rule '{}': the condition is {}, not a bool", rule.id, program->resultType().toString()),
                  "not_bool", rule.id);
            failed = true;
        }
        if (!rule.enabled) {
            warn(rule.pos, fmt::format("rule '{}' can never fire: it is disabled", rule.id), "never_fires", rule.id);
        } else if (const auto constant = program->constant(); constant && !constant->isTrue()) {
            cr.alwaysFalse = true;
            warn(rule.whenPos,
                 fmt::format("rule '{}' can never fire: its condition is always {}", rule.id,
                             constant->isError() ? "an error (" + std::string(constant->asError().message) + ")"
                                                 : cel::toDebugString(*constant)),
                 "never_fires", rule.id);
        } else if (const auto why = contradiction(program->ast())) {
            cr.alwaysFalse = true;
            warn(rule.whenPos, fmt::format("rule '{}' can never fire: {}", rule.id, *why), "never_fires", rule.id);
        } else if (alwaysTrue && rs.strategy == Strategy::FirstMatch) {
            const Rule& first = rs.rules[*alwaysTrue];
            warn(rule.pos,
                 fmt::format("rule '{}' can never fire: rule '{}' (line {}) before it always matches", rule.id,
                             first.id, first.pos.line),
                 "shadowed", rule.id);
        } else if (constant && constant->isTrue() && !alwaysTrue) {
            alwaysTrue = i;
        }
        if (rule.enabled) {
            for (const int slot : program->referencedSlots()) {
                if (slot >= 0 && static_cast<std::size_t>(slot) < out.slotColumn.size() && out.slotColumn[slot] >= 0)
                    referenced.insert(out.slotColumn[slot]);
            }
        }
        cr.program = std::move(*program);
        out.rules.push_back(std::move(cr));
    }
    if (out.decisions.size() > 65535) {
        error({}, "more than 65535 distinct decisions", "value");
        failed = true;
    }
    out.referencedColumns.assign(referenced.begin(), referenced.end());
    sortDiagnostics(diags);
    if (!failed)
        result.compiled = std::move(out);
    return result;
}

} // namespace sb::rules
