// Rule sets compared rule by rule (core/rules/ruleset_diff.h), and which files count as rule sets.

#include "rules/ruleset_diff.h"

#include <gtest/gtest.h>

namespace sb::rules {
namespace {

ParsedRuleSet parsed(const std::string& text)
{
    auto p = parseRuleSet(text, "rules.yaml");
    EXPECT_FALSE(p.hasErrors()) << text;
    return p;
}

const std::string kBase = R"(name: card
version: 1
strategy: first_match
default: {decision: allow, score: 0}
rules:
  - id: big
    when: amount > 1000.0
    decision: review
    score: 40
  - id: foreign
    when: country != "US"
    decision: review
    score: 20
  - id: old
    when: hour < 3
    decision: block
    score: 90
)";

TEST(RuleSetDiff, AddedRemovedAndChangedRulesWithTheirFields)
{
    const auto a = parsed(kBase);
    std::string text = kBase;
    text.replace(text.find("amount > 1000.0"), 15, "amount > 500.0");
    text.replace(text.find("score: 40"), 9, "score: 45");
    text.replace(text.find("  - id: old"), std::string::npos,
                 "  - id: fresh\n    when: hour > 22\n    decision: block\n    score: 70\n");
    text.replace(text.find("version: 1"), 10, "version: 2");
    const auto b = parsed(text);
    const auto diff = diffRuleSets(&a.ruleSet, &b.ruleSet);
    ASSERT_EQ(diff.rules.size(), 3u);
    EXPECT_EQ(diff.rules[0].kind, RuleChange::Kind::Changed);
    EXPECT_EQ(diff.rules[0].id, "big");
    EXPECT_EQ(diff.rules[0].fields, (std::vector<std::string>{"condition", "score"}));
    EXPECT_EQ(diff.rules[1].kind, RuleChange::Kind::Removed);
    EXPECT_EQ(diff.rules[1].id, "old");
    EXPECT_EQ(diff.rules[2].kind, RuleChange::Kind::Added);
    EXPECT_EQ(diff.rules[2].id, "fresh");
    EXPECT_EQ(diff.settings, std::vector<std::string>{"version"});
    EXPECT_FALSE(diff.reordered);
}

TEST(RuleSetDiff, SameRulesInAnotherOrderAndWholeFiles)
{
    const auto a = parsed(kBase);
    std::string text = kBase;
    const auto foreign = text.find("  - id: foreign");
    const auto old = text.find("  - id: old");
    const std::string moved = text.substr(foreign, old - foreign);
    text.erase(foreign, old - foreign);
    text += moved;
    const auto b = parsed(text);
    const auto diff = diffRuleSets(&a.ruleSet, &b.ruleSet);
    EXPECT_TRUE(diff.rules.empty());
    EXPECT_TRUE(diff.reordered);
    EXPECT_FALSE(diff.empty());
    EXPECT_TRUE(diffRuleSets(&a.ruleSet, &a.ruleSet).empty());

    const auto added = diffRuleSets(nullptr, &a.ruleSet);
    ASSERT_EQ(added.rules.size(), 3u);
    for (const auto& c : added.rules)
        EXPECT_EQ(c.kind, RuleChange::Kind::Added);
    const auto removed = diffRuleSets(&a.ruleSet, nullptr);
    ASSERT_EQ(removed.rules.size(), 3u);
    EXPECT_EQ(removed.rules[0].kind, RuleChange::Kind::Removed);
}

TEST(RuleSetDiff, WhatCountsAsARuleSet)
{
    EXPECT_TRUE(looksLikeRuleSet("r.yaml", kBase));
    EXPECT_TRUE(looksLikeRuleSet("dir/r.yml", "rules: []\n"));
    EXPECT_FALSE(looksLikeRuleSet("r.txt", kBase));
    EXPECT_FALSE(looksLikeRuleSet("policy.yaml", "name: p\nlimits: {wall_ms: 10}\n"));
    EXPECT_FALSE(looksLikeRuleSet("r.yaml", "rules: not a list\n"));
    EXPECT_TRUE(looksLikeRuleSet("r.yaml", "name: [unclosed\nrules:\n  - id: x\n")); // broken, still reported
    EXPECT_FALSE(looksLikeRuleSet("r.yaml", std::string("\0\1\2", 3)));
}

} // namespace
} // namespace sb::rules
