// Comparing rule sets on one dataset (usecases/rule_comparison.h).

#include "usecases/rule_comparison.h"

#include "rules/demo_data.h"

#include <gtest/gtest.h>

#include <string>

namespace sb {
namespace {

const char* const kHead = "name: t\nversion: 1\nstrategy: first_match\ndefault: {decision: allow, score: 0}\n"
                          "fields: {amount: double}\n";

std::string ruleSetAbove(int amount)
{
    return std::string(kHead) + "rules:\n  - id: big\n    when: amount > " + std::to_string(amount)
           + ".0\n    decision: block\n    score: 90\n";
}

class RuleComparisonTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        rules::ReadOptions read;
        read.declared = {rules::Field{"amount", rules::FieldType::Double}};
        auto data = rules::readDatasetText(rules::demoTransactionsCsv(2000, 5), "transactions.csv", read);
        ASSERT_TRUE(data) << data.error().message;
        m_data = std::move(*data);
    }
    // Parsed, compiled and evaluated; the parsed rule set stays in m_parsed for the compiled one to point into.
    EvaluatedSide side(const std::string& text)
    {
        m_parsed.push_back(std::make_unique<rules::ParsedRuleSet>(rules::parseRuleSet(text, "rules.yaml")));
        EXPECT_FALSE(m_parsed.back()->hasErrors());
        auto evaluated = evaluateOn(m_parsed.back()->ruleSet, "rules.yaml", m_data, {});
        EXPECT_TRUE(evaluated) << evaluated.error().message;
        return evaluated ? std::move(*evaluated) : EvaluatedSide{};
    }

    rules::Dataset m_data;
    std::vector<std::unique_ptr<rules::ParsedRuleSet>> m_parsed;
};

TEST_F(RuleComparisonTest, ImpactsAreTheRulesLibrarysAndVariantsAreRankedByImpactRate)
{
    const EvaluatedSide base = side(ruleSetAbove(500));
    const EvaluatedSide wide = side(ruleSetAbove(100));
    const EvaluatedSide near = side(ruleSetAbove(450));
    const ComparedRuleSet b{"base", &*base.compiled, &base.evaluation};
    auto compared = compareRuleSets(b, {{"wide", &*wide.compiled, &wide.evaluation}, {"near", &*near.compiled, &near.evaluation}},
                                    m_data, {});
    ASSERT_TRUE(compared) << compared.error().message;
    EXPECT_EQ(compared->notFlagged, "allow");
    ASSERT_EQ(compared->impacts.size(), 2u);
    auto direct = rules::computeImpact(*base.compiled, base.evaluation, *wide.compiled, wide.evaluation, m_data, {});
    ASSERT_TRUE(direct);
    EXPECT_EQ(compared->impacts[0].affected, direct->affected);
    EXPECT_EQ(compared->summaries[0].name, "wide");
    EXPECT_GT(compared->summaries[0].affected, compared->summaries[1].affected);
    // Without labels: lowest impact rate first, and no flagged figures.
    EXPECT_EQ(compared->ranking, (std::vector<std::size_t>{1, 0}));
    EXPECT_FALSE(compared->baselineFlagged);
    EXPECT_FALSE(compared->summaries[0].flagged);
}

TEST_F(RuleComparisonTest, WithALabelEveryRuleSetGetsFlaggedFigures)
{
    const EvaluatedSide base = side(ruleSetAbove(500));
    const EvaluatedSide wide = side(ruleSetAbove(100));
    rules::ImpactOptions options;
    options.labelColumn = "is_fraud";
    options.amountColumn = "amount";
    auto compared = compareRuleSets({"base", &*base.compiled, &base.evaluation},
                                    {{"wide", &*wide.compiled, &wide.evaluation}}, m_data, options);
    ASSERT_TRUE(compared) << compared.error().message;
    ASSERT_TRUE(compared->baselineFlagged);
    ASSERT_TRUE(compared->summaries[0].flagged);
    EXPECT_EQ(compared->summaries[0].f1, f1Of(*compared->summaries[0].flagged));
    const auto direct = rules::flaggedFigures(*wide.compiled, wide.evaluation, m_data, options, "allow");
    EXPECT_EQ(compared->summaries[0].flagged->tp, direct.tp);
    EXPECT_EQ(compared->summaries[0].flagged->fp, direct.fp);
}

TEST(RuleComparison, F1IsZeroWhenNothingIsCaughtAndNoneWithoutAnythingToCatch)
{
    rules::LabelFigures nothing;
    EXPECT_FALSE(f1Of(nothing));
    rules::LabelFigures missed;
    missed.fn = 3;
    missed.recall = 0.0;
    EXPECT_EQ(f1Of(missed), 0.0);
    rules::LabelFigures some;
    some.tp = 1;
    some.precision = 0.5;
    some.recall = 1.0;
    EXPECT_NEAR(*f1Of(some), 2 * 0.5 / 1.5, 1e-12);
}

TEST_F(RuleComparisonTest, ARuleSetThatDoesNotCompileAgainstTheDataIsAnErrorWithItsPlace)
{
    auto parsed = rules::parseRuleSet(std::string(kHead) + "rules:\n  - id: x\n    when: email_domain > 1\n    decision: block\n    score: 10\n",
                                      "bad.yaml");
    ASSERT_FALSE(parsed.hasErrors()) << errorsText(parsed.diagnostics, "bad.yaml");
    std::vector<rules::Diagnostic> warnings;
    auto evaluated = evaluateOn(parsed.ruleSet, "bad.yaml", m_data, {},
                                [&](const std::vector<rules::Diagnostic>& w) { warnings = w; });
    ASSERT_FALSE(evaluated);
    EXPECT_EQ(evaluated.error().message.rfind("bad.yaml:", 0), 0u) << evaluated.error().message;
}

} // namespace
} // namespace sb
