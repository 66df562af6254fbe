// Comparing rule sets on one dataset (usecases/rule_comparison.h).

#include "usecases/rule_comparison.h"
#include "usecases/streamed_rules.h"

#include "rules/demo_data.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
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
    auto compared = compareRuleSets(
        b, {{"wide", &*wide.compiled, &wide.evaluation}, {"near", &*near.compiled, &near.evaluation}}, m_data, {});
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
    auto parsed = rules::parseRuleSet(
        std::string(kHead) + "rules:\n  - id: x\n    when: email_domain > 1\n    decision: block\n    score: 10\n",
        "bad.yaml");
    ASSERT_FALSE(parsed.hasErrors()) << errorsText(parsed.diagnostics, "bad.yaml");
    std::vector<rules::Diagnostic> warnings;
    auto evaluated = evaluateOn(parsed.ruleSet, "bad.yaml", m_data, {},
                                [&](const std::vector<rules::Diagnostic>& w) { warnings = w; });
    ASSERT_FALSE(evaluated);
    EXPECT_EQ(evaluated.error().message.rfind("bad.yaml:", 0), 0u) << evaluated.error().message;
}

// Read in parts on several threads, each part evaluated and tallied, the parts added up: the figures of the
// whole file read, evaluated and compared in memory. Bad rows skipped, a column of the candidate's inferred
// (two passes), records named by number (no id column), a rule failing on missing values, labels and amounts.
TEST(StreamedRules, ThePartsAddUpToTheWholeFilesComparison)
{
    std::string csv = rules::demoTransactionsCsv(3000, 11);
    csv.replace(0, csv.find(','), "ref"); // no `id` column: records are named by number
    std::string withBad;
    std::size_t line = 0;
    for (std::size_t pos = 0, next; pos < csv.size(); pos = next + 1, ++line) {
        next = csv.find('\n', pos);
        std::string row = csv.substr(pos, next - pos);
        if (line % 101 == 50)
            row = "broken,row";
        else if (line % 89 == 40)
            row.replace(row.find(',', row.find(',') + 1) + 1, 0, "x"); // an amount that is not a number
        withBad += row + "\n";
    }
    char folder[] = "/tmp/sandbench-streamed-XXXXXX";
    ASSERT_NE(::mkdtemp(folder), nullptr);
    const std::filesystem::path file = std::filesystem::path(folder) / "data.csv";
    std::ofstream(file) << withBad;

    const std::string head = "name: t\nversion: 1\nstrategy: first_match\ndefault: {decision: allow, score: 0}\n"
                             "fields: {amount: double}\n";
    const auto base = rules::parseRuleSet(head
                                              + "rules:\n  - id: big\n    when: amount > 500.0\n    decision: block\n"
                                                "    score: 90\n",
                                          "base.yaml");
    const auto cand = rules::parseRuleSet(
        head
            + "rules:\n  - id: big\n    when: amount > 300.0 && hour < 20\n    decision: block\n    score: 90\n"
              "  - id: odd\n    when: country == 'FR' || account_age_days < 30\n    decision: review\n"
              "    score: 50\n",
        "cand.yaml");
    ASSERT_FALSE(base.hasErrors());
    ASSERT_FALSE(cand.hasErrors());
    rules::ImpactOptions impact;
    impact.labelColumn = "is_fraud";
    impact.amountColumn = "amount";

    // The whole file in memory.
    rules::ReadOptions read;
    read.declared = {rules::Field{"amount", rules::FieldType::Double}};
    read.onBadRow = rules::BadRowPolicy::Skip;
    rules::ReadReport wholeReport;
    auto data = rules::readDataset(file, read, &wholeReport);
    ASSERT_TRUE(data) << data.error().message;
    rules::EvalOptions eval;
    eval.allRules = false;
    auto b = evaluateOn(base.ruleSet, "base.yaml", *data, eval);
    auto c = evaluateOn(cand.ruleSet, "cand.yaml", *data, eval);
    ASSERT_TRUE(b && c);
    auto whole = rules::computeImpact(*b->compiled, b->evaluation, *c->compiled, c->evaluation, *data, impact);
    ASSERT_TRUE(whole) << whole.error().message;

    // In parts of 37 records on three threads.
    StreamedRulesRequest request;
    request.ruleSets = {{"base.yaml", &base.ruleSet}, {"cand.yaml", &cand.ruleSet}};
    request.data.path = file;
    request.data.options = read;
    request.data.options.parallelMinBytes = 0;
    request.data.options.batchRecords = 37;
    request.impact = impact;
    request.allRules = false;
    request.threads = 3;
    auto streamed = runStreamedRules(request);
    ASSERT_TRUE(streamed) << streamed.error().message;
    std::filesystem::remove_all(folder);

    EXPECT_EQ(streamed->schema, data->schema());
    EXPECT_EQ(streamed->idColumn, -1);
    EXPECT_EQ(streamed->report.kept, wholeReport.kept);
    EXPECT_EQ(streamed->report.badRows, wholeReport.badRows);
    EXPECT_GT(wholeReport.badRows, 40);
    ASSERT_EQ(streamed->tallies.size(), 1u);
    const rules::Impact parts =
        rules::finishImpact(streamed->tallies[0], streamed->compiled[0], streamed->evaluations[0],
                            streamed->compiled[1], streamed->evaluations[1]);
    EXPECT_EQ(rules::impactToJson(parts, streamed->compiled[0], streamed->compiled[1]),
              rules::impactToJson(*whole, *b->compiled, *c->compiled));
    EXPECT_GT(whole->affected, 100);
    EXPECT_EQ(parts.changed.back().recordId, whole->changed.back().recordId);
    for (std::size_t s = 0; s < 2; ++s) {
        const rules::Evaluation& one = s == 0 ? b->evaluation : c->evaluation;
        const rules::Evaluation& added = streamed->evaluations[s];
        EXPECT_EQ(added.decisionCounts, one.decisionCounts);
        ASSERT_EQ(added.rules.size(), one.rules.size());
        for (std::size_t r = 0; r < one.rules.size(); ++r) {
            EXPECT_EQ(added.rules[r].hits, one.rules[r].hits);
            EXPECT_EQ(added.rules[r].decided, one.rules[r].decided);
            EXPECT_EQ(added.rules[r].errors, one.rules[r].errors);
            EXPECT_EQ(added.rules[r].firstErrorRecord, one.rules[r].firstErrorRecord);
        }
    }
}

// Only the columns the rules read (and the declared, id and label ones) are kept; the others are still checked.
TEST(StreamedRules, ColumnsNoRuleReadsAreCheckedButNotKept)
{
    char folder[] = "/tmp/sandbench-streamed-XXXXXX";
    ASSERT_NE(::mkdtemp(folder), nullptr);
    const std::filesystem::path file = std::filesystem::path(folder) / "data.csv";
    std::ofstream(file) << "id,a,unused,n\n1,5,x,7\n2,9,y,8\n3,1,z,oops\n";
    const auto rs = rules::parseRuleSet("name: t\nversion: 1\nstrategy: first_match\ndefault: {decision: allow, "
                                        "score: 0}\nfields: {n: int}\nrules:\n  - id: r\n    when: a > 4\n"
                                        "    decision: block\n    score: 1\n",
                                        "r.yaml");
    ASSERT_FALSE(rs.hasErrors());
    StreamedRulesRequest request;
    request.ruleSets = {{"r.yaml", &rs.ruleSet}, {"r.yaml", &rs.ruleSet}};
    request.data.path = file;
    request.data.options.declared = {rules::Field{"n", rules::FieldType::Int}};
    auto refused = runStreamedRules(request);
    ASSERT_FALSE(refused); // `n` is declared int, and no rule reads it: still checked
    EXPECT_NE(refused.error().message.find(":4:"), std::string::npos) << refused.error().message;
    request.data.options.onBadRow = rules::BadRowPolicy::Skip;
    auto streamed = runStreamedRules(request);
    std::filesystem::remove_all(folder);
    ASSERT_TRUE(streamed) << streamed.error().message;
    EXPECT_EQ(streamed->report.kept, 2);
    EXPECT_EQ(streamed->schema.fields.size(), 4u); // every column reported, with its type
    EXPECT_EQ(streamed->schema.fields[2].name, "unused");
    EXPECT_EQ(streamed->schema.fields[2].type, rules::FieldType::String);
    EXPECT_EQ(streamed->evaluations[0].decisionCounts, (std::vector<std::int64_t>{0, 2}));
    ASSERT_EQ(streamed->compiled[0].slotColumn.size(), 3u); // id, a, n: `unused` was not kept
}

} // namespace
} // namespace sb
