// Rule sets (core/rules/ruleset.h): the YAML, errors and warnings placed at the file's line:column.

#include "rules/ruleset.h"

#include "rules_test_util.h"

#include <gtest/gtest.h>

namespace sb::rules {
namespace {

struct Checked {
    ParsedRuleSet parsed;
    std::vector<Diagnostic> diagnostics; // parse and compile together

    std::vector<std::string> formatted(Severity severity) const
    {
        std::vector<std::string> out;
        for (const auto& d : diagnostics) {
            if (d.severity == severity)
                out.push_back(d.format("rules.yaml"));
        }
        return out;
    }
    std::string all() const
    {
        std::string out;
        for (const auto& d : diagnostics)
            out += d.format("rules.yaml") + "\n";
        return out;
    }
    bool has(std::string_view text) const { return all().find(text) != std::string::npos; }
};

Checked check(const std::string& yaml, const Schema* data = nullptr)
{
    Checked c;
    c.parsed = parseRuleSet(yaml, "rules.yaml");
    c.diagnostics = c.parsed.diagnostics;
    if (!c.parsed.hasErrors()) {
        auto compiled = compileRuleSet(c.parsed.ruleSet, data);
        c.diagnostics.insert(c.diagnostics.end(), compiled.diagnostics.begin(), compiled.diagnostics.end());
    }
    sortDiagnostics(c.diagnostics);
    return c;
}

const std::string kHeader = "name: t\n"
                            "default: allow\n"
                            "fields:\n"
                            "  amount: double\n"
                            "  country: string\n"
                            "rules:\n"; // rules start on line 7

TEST(RuleSet, ReadsEveryPart)
{
    const auto c = check("name: card\n"
                         "version: 3\n"
                         "strategy: max_score\n"
                         "default: {decision: allow, score: 1.5}\n"
                         "fields: {amount: double, n: int, ok: bool, s: string, t: timestamp}\n"
                         "rules:\n"
                         "  - id: big\n"
                         "    when: amount > 100.0\n"
                         "    decision: review\n"
                         "    score: 50\n"
                         "    enabled: true\n"
                         "    description: Big ones\n"
                         "    tags: [amount, x]\n");
    EXPECT_EQ(c.all(), "");
    const RuleSet& rs = c.parsed.ruleSet;
    EXPECT_EQ(rs.name, "card");
    EXPECT_EQ(rs.version, "3");
    EXPECT_EQ(rs.strategy, Strategy::MaxScore);
    EXPECT_EQ(rs.defaultDecision, "allow");
    EXPECT_EQ(rs.defaultScore, 1.5);
    ASSERT_EQ(rs.fields.size(), 5u);
    EXPECT_EQ(rs.fields[4].field.type, FieldType::Timestamp);
    ASSERT_EQ(rs.rules.size(), 1u);
    EXPECT_EQ(rs.rules[0].id, "big");
    EXPECT_EQ(rs.rules[0].score, 50);
    EXPECT_EQ(rs.rules[0].description, "Big ones");
    EXPECT_EQ(rs.rules[0].tags, (std::vector<std::string>{"amount", "x"}));
    EXPECT_EQ(rs.rules[0].pos, (SourcePos{7, 5}));
    EXPECT_EQ(rs.rules[0].whenPos, (SourcePos{8, 11}));
}

TEST(RuleSet, CelErrorsPointIntoTheFile)
{
    const auto c = check(kHeader
                         + "  - id: plain\n"                         // 7
                           "    when: amount > 1.0 && amout < 5.0\n" // 8: amout at column 27
                           "    decision: block\n"
                           "    score: 1\n"
                           "  - id: literal\n"        // 11
                           "    when: |\n"            // 12
                           "      amount > 1.0 &&\n"  // 13
                           "        cuntry == 'US'\n" // 14: cuntry at column 9
                           "    decision: block\n"
                           "    score: 1\n"
                           "  - id: quoted\n"                                   // 17
                           "    when: \"country == \\\"US\\\" && amout > 1\"\n" // 18: amout at column 33
                           "    decision: block\n"
                           "    score: 1\n"
                           "  - id: folded\n"           // 21
                           "    when: >-\n"             // 22
                           "      amount > 1.0 &&\n"    // 23
                           "      'x' + 1 == country\n" // 24: '+' at column 11
                           "    decision: block\n"
                           "    score: 1\n"
                           "  - id: single\n"                             // 27
                           "    when: 'country == ''US'' && amout > 1'\n" // 28: amout at column 33
                           "    decision: block\n"
                           "    score: 1\n"
                           "  - id: syntax\n"      // 31
                           "    when: amount > \n" // 32
                           "    decision: block\n"
                           "    score: 1\n");
    const auto errors = c.formatted(Severity::Error);
    EXPECT_TRUE(c.has("rules.yaml:8:27: error: rule 'plain': undeclared reference to 'amout'")) << c.all();
    EXPECT_TRUE(c.has("rules.yaml:14:9: error: rule 'literal': undeclared reference to 'cuntry'")) << c.all();
    EXPECT_TRUE(c.has("rules.yaml:18:33: error: rule 'quoted': undeclared reference to 'amout'")) << c.all();
    EXPECT_TRUE(c.has("rules.yaml:24:11: error: rule 'folded': found no matching overload for '_+_'")) << c.all();
    EXPECT_TRUE(c.has("rules.yaml:28:33: error: rule 'single': undeclared reference to 'amout'")) << c.all();
    EXPECT_TRUE(c.has("rules.yaml:32:") && c.has("error: rule 'syntax'")) << c.all();
}

TEST(RuleSet, MalformedYamlNamesItsPlace)
{
    const auto c = check("name: t\nrules: [\n  - id: a\n");
    ASSERT_FALSE(c.diagnostics.empty());
    EXPECT_EQ(c.diagnostics[0].code, "yaml");
    EXPECT_GT(c.diagnostics[0].pos.line, 0);
    EXPECT_TRUE(c.has("error: malformed YAML")) << c.all();
    const auto tab = check("name: t\n\tdefault: allow\n");
    EXPECT_TRUE(tab.has("rules.yaml:2:")) << tab.all();
    EXPECT_TRUE(check("").has("rules.yaml:1:1: error: empty")) << check("").all();
    EXPECT_TRUE(check("- a\n- b\n").has("error: a rule set must be a map")) << check("- a\n").all();
}

TEST(RuleSet, StructuralErrors)
{
    const auto c = check("name: t\n"              // 1
                         "strategy: best_guess\n" // 2
                         "default: allow\n"       // 3
                         "rules:\n"               // 4
                         "  - when: amount > 1\n" // 5: no id
                         "    decision: block\n"
                         "    score: 1\n"
                         "  - id: a\n" // 8
                         "    when: true\n"
                         "    decision: block\n"
                         "    score: high\n" // 11
                         "  - id: a\n"       // 12: duplicate
                         "    when: true\n"
                         "    decision: block\n"
                         "    score: 2\n"
                         "  - id: b\n" // 16
                         "    when: true\n"
                         "    score: 2\n"       // no decision
                         "    enabled: maybe\n" // 19
                         "  - id: c d\n"        // 20: bad id
                         "    when: [1, 2]\n"   // 21: not text
                         "    decision: block\n"
                         "    score: 1\n"
                         "  - just a string\n"); // 24
    EXPECT_TRUE(c.has("rules.yaml:2:11: error: unknown strategy 'best_guess' (expected first_match or max_score)"))
        << c.all();
    EXPECT_TRUE(c.has("rules.yaml:5:5: error: rule 1: missing 'id'")) << c.all();
    EXPECT_TRUE(c.has("rules.yaml:11:12: error: rule 'a': 'score' must be a number")) << c.all();
    EXPECT_TRUE(c.has("rules.yaml:12:9: error: duplicate rule id 'a' (first at line 8)")) << c.all();
    EXPECT_TRUE(c.has("rules.yaml:16:5: error: rule 'b': missing 'decision'")) << c.all();
    EXPECT_TRUE(c.has("rules.yaml:19:14: error: rule 'b': 'enabled' must be true or false")) << c.all();
    EXPECT_TRUE(c.has("rules.yaml:20:9: error: rule 5: id 'c d' may only hold")) << c.all();
    EXPECT_TRUE(c.has("rules.yaml:21:11: error: rule 5: 'when' must be text, not a list")) << c.all();
    EXPECT_TRUE(c.has("rules.yaml:24:5: error: rule 6: a rule must be a map")) << c.all();

    const auto missing = check("version: 1\n");
    EXPECT_TRUE(missing.has("error: the rule set: missing 'name'")) << missing.all();
    EXPECT_TRUE(missing.has("error: missing 'default'")) << missing.all();
    EXPECT_TRUE(missing.has("error: missing 'rules'")) << missing.all();

    const auto types = check("name: t\ndefault: allow\nfields:\n  amount: money\n  n: [int]\nrules: {a: 1}\n");
    EXPECT_TRUE(types.has("rules.yaml:4:11: error: field 'amount': unknown type 'money'")) << types.all();
    EXPECT_TRUE(types.has("rules.yaml:5:6: error: field 'n': the type must be")) << types.all();
    EXPECT_TRUE(types.has("rules.yaml:6:8: error: 'rules' must be a list")) << types.all();

    const auto dupKey = check(kHeader
                              + "  - id: a\n    when: amount > 1.0\n    when: amount > 2.0\n"
                                "    decision: block\n    score: 1\n");
    EXPECT_TRUE(dupKey.has("rules.yaml:9:5: error: rule 'a': duplicate key 'when' (first at line 8)")) << dupKey.all();
}

TEST(RuleSet, ConditionMustBeBool)
{
    const auto c = check(kHeader + "  - id: a\n    when: amount + 1.0\n    decision: block\n    score: 1\n");
    EXPECT_TRUE(c.has("rules.yaml:8:11: error: rule 'a': the condition is double, not a bool")) << c.all();
}

TEST(RuleSet, WarningsForRulesThatCanNeverFire)
{
    const auto c = check(kHeader
                         + "  - id: off\n" // 7
                           "    enabled: false\n"
                           "    when: amount > 1.0\n"
                           "    decision: block\n"
                           "    score: 1\n"
                           "  - id: folds\n"                   // 12
                           "    when: 1 > 2 && amount > 5.0\n" // 13
                           "    decision: block\n"
                           "    score: 1\n"
                           "  - id: contradiction\n" // 16
                           "    when: amount > 100.0 && country == 'US' && amount < 50.0\n"
                           "    decision: block\n"
                           "    score: 1\n"
                           "  - id: two_countries\n" // 20
                           "    when: country == 'US' && country == 'FR'\n"
                           "    decision: block\n"
                           "    score: 1\n"
                           "  - id: fine\n" // 24
                           "    when: amount > 1.0 && amount <= 1.0 || country == 'US'\n"
                           "    descripton: typo\n" // 26
                           "    decision: block\n"
                           "    score: 1\n"
                           "  - id: catch_all\n" // 29
                           "    when: 'true'\n"
                           "    decision: review\n"
                           "    score: 1\n"
                           "  - id: after\n" // 33
                           "    when: amount > 1.0\n"
                           "    decision: block\n"
                           "    score: 1\n");
    EXPECT_EQ(c.formatted(Severity::Error), std::vector<std::string>{}) << c.all();
    EXPECT_TRUE(c.has("rules.yaml:7:5: warning: rule 'off' can never fire: it is disabled")) << c.all();
    EXPECT_TRUE(c.has("rules.yaml:13:11: warning: rule 'folds' can never fire: its condition is always false"))
        << c.all();
    EXPECT_TRUE(c.has("rules.yaml:17:11: warning: rule 'contradiction' can never fire: 'amount > 100.0' and "
                      "'amount < 50.0' cannot both hold"))
        << c.all();
    EXPECT_TRUE(c.has("warning: rule 'two_countries' can never fire: 'country == 'US'' and 'country == 'FR'' cannot "
                      "both hold"))
        << c.all();
    EXPECT_TRUE(c.has("rules.yaml:33:5: warning: rule 'after' can never fire: rule 'catch_all' (line 29) before it "
                      "always matches"))
        << c.all();
    EXPECT_TRUE(c.has("rules.yaml:26:5: warning: unknown field 'descripton' in rule 'fine' (ignored")) << c.all();
    EXPECT_FALSE(c.has("rule 'fine' can never fire")) << c.all();
    EXPECT_FALSE(c.has("rule 'catch_all' can never")) << c.all();
}

TEST(RuleSet, MaxScoreHasNoOrderShadowing)
{
    const auto c = check("name: t\nstrategy: max_score\ndefault: allow\nfields: {amount: double}\nrules:\n"
                         "  - id: all\n    when: 'true'\n    decision: review\n    score: 1\n"
                         "  - id: big\n    when: amount > 1.0\n    decision: block\n    score: 9\n");
    EXPECT_EQ(c.all(), "");
}

TEST(RuleSet, UnknownFieldsWithoutDeclarationsAreWarnings)
{
    const auto c = check("name: t\ndefault: allow\nrules:\n"
                         "  - id: a\n    when: amount > 100.0 && tags.exists(t, t == 'x') && m.country == 'US'\n"
                         "    decision: block\n    score: 1\n");
    EXPECT_EQ(c.formatted(Severity::Error), std::vector<std::string>{}) << c.all();
    EXPECT_TRUE(c.has("rules.yaml:5:11: warning: unknown field 'amount'")) << c.all();
    EXPECT_TRUE(c.has("rules.yaml:5:29: warning: unknown field 'tags'")) << c.all();
    EXPECT_TRUE(c.has("warning: unknown field 'm'")) << c.all();
    EXPECT_FALSE(c.has("unknown field 't'")) << c.all();
}

TEST(RuleSet, CompiledAgainstDataColumns)
{
    Schema data;
    data.fields = {{"id", FieldType::String},
                   {"amount", FieldType::Double},
                   {"country", FieldType::String},
                   {"hour", FieldType::Int}};
    // No fields declared: the data's columns are the fields.
    const auto ok = check("name: t\ndefault: allow\nrules:\n"
                          "  - id: a\n    when: hour < 5 && amount > 10.0\n    decision: block\n    score: 1\n",
                          &data);
    EXPECT_EQ(ok.all(), "");
    const auto bad = check("name: t\ndefault: allow\nrules:\n"
                           "  - id: a\n    when: hour < 'five'\n    decision: block\n    score: 1\n",
                           &data);
    EXPECT_TRUE(bad.has("rules.yaml:5:16: error: rule 'a': found no matching overload for '_<_' applied to '(int, "
                        "string)'"))
        << bad.all();
    // Declared with another type than the data has, or missing from the data.
    const auto mismatch = check("name: t\ndefault: allow\nfields: {amount: int, extra: bool}\nrules:\n"
                                "  - id: a\n    when: amount > 1\n    decision: block\n    score: 1\n",
                                &data);
    EXPECT_TRUE(mismatch.has("rules.yaml:3:10: error: field 'amount' is declared int but the data has it as double"))
        << mismatch.all();
    EXPECT_TRUE(mismatch.has("rules.yaml:3:23: warning: field 'extra' is declared but the data has no such column"))
        << mismatch.all();

    auto parsed = parseRuleSet("name: t\ndefault: allow\nrules:\n"
                               "  - id: a\n    when: country == 'US'\n    decision: block\n    score: 1\n"
                               "  - id: b\n    when: hour > 3\n    decision: review\n    score: 1\n",
                               "r.yaml");
    auto compiled = compileRuleSet(parsed.ruleSet, &data);
    ASSERT_TRUE(compiled.compiled);
    EXPECT_EQ(compiled.compiled->referencedColumns, (std::vector<int>{2, 3}));
    EXPECT_EQ(compiled.compiled->decisions, (std::vector<std::string>{"allow", "block", "review"}));
    EXPECT_EQ(compiled.compiled->columnSlots, 4u);
}

TEST(RuleSet, FilesThatAreNotRuleSets)
{
    TempFolder dir;
    std::string binary = "name: t\x01";
    binary += '\0';
    auto r = loadRuleSetFile(dir.write("bin.yaml", binary));
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("bin.yaml:1:9: error: binary content"), std::string::npos) << r.error().message;
    r = loadRuleSetFile(dir.write("latin1.yaml", "name: caf\xE9\n"));
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("latin1.yaml:1:10: error: not UTF-8"), std::string::npos) << r.error().message;
    r = loadRuleSetFile(dir.path() / "none.yaml");
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("no such file"), std::string::npos);
    r = loadRuleSetFile(dir.path());
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().message.find("not a regular file but a folder"), std::string::npos);
}

} // namespace
} // namespace sb::rules
