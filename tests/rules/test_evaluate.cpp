// Evaluation, impact, A/B ranking and explanations (core/rules/evaluate.h), on data small enough to check by
// hand.

#include "rules/evaluate.h"

#include "rules/demo_data.h"

#include <gtest/gtest.h>

#include <memory>

namespace sb::rules {
namespace {

// r2 and r3 are fraud. Baseline: r1 allow, r2 review (night), r3 block (big), r4 review (night), r5 allow,
// r6 block (big). Candidate: r2 block (big), r4 review (risky, score 60): one decision changes.
const char* const kData = "id,amount,country,hour,is_fraud\n"
                          "r1,50,US,12,false\n"
                          "r2,1500,US,3,true\n"
                          "r3,2500,NG,14,true\n"
                          "r4,20,NG,2,false\n"
                          "r5,900,FR,23,false\n"
                          "r6,3000,US,13,false\n";

const char* const kBaseline = "name: baseline\n"
                              "default: {decision: allow, score: 0}\n"
                              "fields: {amount: double}\n"
                              "rules:\n"
                              "  - id: big\n"
                              "    when: amount > 2000.0\n"
                              "    decision: block\n"
                              "    score: 90\n"
                              "  - id: night\n"
                              "    when: hour < 5\n"
                              "    decision: review\n"
                              "    score: 50\n";

const char* const kCandidate = "name: candidate\n"
                               "default: {decision: allow, score: 0}\n"
                               "fields: {amount: double}\n"
                               "rules:\n"
                               "  - id: big\n"
                               "    when: amount > 1000.0\n"
                               "    decision: block\n"
                               "    score: 90\n"
                               "  - id: risky\n"
                               "    when: country == 'NG'\n"
                               "    decision: review\n"
                               "    score: 60\n"
                               "  - id: night\n"
                               "    when: hour < 5 && amount > 100.0\n"
                               "    decision: review\n"
                               "    score: 50\n";

Dataset load(const std::string& csv, std::vector<Field> declared = {{"amount", FieldType::Double}})
{
    ReadOptions o;
    o.declared = std::move(declared);
    auto d = readDatasetText(csv, "data.csv", o);
    EXPECT_TRUE(d) << (d ? "" : d.error().message);
    return d ? std::move(*d) : Dataset{};
}

struct Compiled {
    std::unique_ptr<ParsedRuleSet> parsed;
    CompiledRuleSet rules;
};

Compiled compile(const std::string& yaml, const Dataset& data)
{
    Compiled c;
    c.parsed = std::make_unique<ParsedRuleSet>(parseRuleSet(yaml, "rules.yaml"));
    EXPECT_FALSE(c.parsed->hasErrors());
    auto result = compileRuleSet(c.parsed->ruleSet, &data.schema());
    for (const auto& d : result.diagnostics)
        EXPECT_NE(d.severity, Severity::Error) << d.format("rules.yaml");
    if (result.compiled)
        c.rules = std::move(*result.compiled);
    return c;
}

Evaluation run(const Compiled& c, const Dataset& data, EvalOptions options = {})
{
    auto ev = evaluate(c.rules, data, options);
    EXPECT_TRUE(ev) << (ev ? "" : ev.error().message);
    return ev ? std::move(*ev) : Evaluation{};
}

std::string decisionOf(const Compiled& c, const Evaluation& ev, std::size_t row)
{
    return c.rules.decisions[ev.records[row].decision];
}

TEST(Evaluate, FirstMatchInFileOrder)
{
    const Dataset data = load(kData);
    const Compiled base = compile(kBaseline, data);
    const Evaluation ev = run(base, data);
    ASSERT_EQ(ev.records.size(), 6u);
    EXPECT_EQ(decisionOf(base, ev, 0), "allow");
    EXPECT_EQ(ev.records[0].rule, -1);
    EXPECT_EQ(decisionOf(base, ev, 1), "review");
    EXPECT_EQ(ev.records[1].score, 50);
    EXPECT_EQ(decisionOf(base, ev, 2), "block");
    EXPECT_EQ(ev.records[2].rule, 0);
    EXPECT_EQ(decisionOf(base, ev, 3), "review");
    EXPECT_EQ(decisionOf(base, ev, 5), "block");
    EXPECT_EQ(ev.decisionCounts, (std::vector<std::int64_t>{2, 2, 2}));
    EXPECT_EQ(ev.rules[0].hits, 2);
    EXPECT_EQ(ev.rules[1].hits, 2);
    EXPECT_EQ(ev.recordsWithErrors, 0);
}

TEST(Evaluate, MaxScoreTakesTheHighestAndTheFirstOfTies)
{
    const Dataset data = load(kData);
    const Compiled c = compile("name: m\nstrategy: max_score\ndefault: {decision: allow, score: 1}\n"
                               "rules:\n"
                               "  - id: low\n    when: amount > 10.0\n    decision: watch\n    score: 10\n"
                               "  - id: high\n    when: hour < 5\n    decision: block\n    score: 80\n"
                               "  - id: tie\n    when: country == 'NG'\n    decision: review\n    score: 80\n",
                               data);
    const Evaluation ev = run(c, data);
    EXPECT_EQ(decisionOf(c, ev, 0), "watch");  // only low
    EXPECT_EQ(decisionOf(c, ev, 1), "block");  // low and high
    EXPECT_EQ(decisionOf(c, ev, 2), "review"); // low and tie: tie scores more
    EXPECT_EQ(decisionOf(c, ev, 3), "block");  // low, high and tie: high and tie equal, high first
    EXPECT_EQ(ev.records[3].rule, 1);
    EXPECT_EQ(ev.rules[2].hits, 2);
    EXPECT_EQ(ev.rules[2].decided, 1);
    EXPECT_EQ(ev.rules[2].shadowedBy.at(1), 1);
}

TEST(Evaluate, ErrorsAreCountedPerRuleNotCrashes)
{
    const Dataset data = load("id,amount,n\na,5,1\nb,,2\nc,7,9223372036854775807\n");
    const Compiled c = compile("name: e\ndefault: allow\nrules:\n"
                               "  - id: uses_amount\n    when: amount > 6.0\n    decision: block\n    score: 1\n"
                               "  - id: overflow\n    when: n * 2 > 3\n    decision: review\n    score: 1\n",
                               data);
    const Evaluation ev = run(c, data);
    EXPECT_EQ(ev.rules[0].errors, 1); // b has no amount
    EXPECT_EQ(ev.rules[0].firstErrorRow, 1);
    EXPECT_NE(ev.rules[0].firstError.find("no value for 'amount'"), std::string::npos) << ev.rules[0].firstError;
    EXPECT_EQ(ev.rules[1].errors, 1); // c overflows
    EXPECT_NE(ev.rules[1].firstError.find("overflow"), std::string::npos) << ev.rules[1].firstError;
    EXPECT_EQ(ev.recordsWithErrors, 2);
    EXPECT_EQ(decisionOf(c, ev, 1), "review"); // the error counts as not matching; the next rule decides
    EXPECT_EQ(decisionOf(c, ev, 2), "block");
    EXPECT_EQ(ev.records[1].errors, 1);
}

TEST(Evaluate, ThreadsGiveTheSameResultAsOne)
{
    ReadOptions o;
    auto data = readDatasetText(demoTransactionsCsv(3000, 7), "demo.csv", o);
    ASSERT_TRUE(data);
    const Compiled c = compile("name: d\ndefault: allow\nrules:\n"
                               "  - id: a\n    when: amount > 500.0 && card_country != country\n    decision: block\n"
                               "    score: 1\n"
                               "  - id: b\n    when: txn_count_24h > 5\n    decision: review\n    score: 1\n"
                               "  - id: c\n    when: created.getHours() < 5\n    decision: review\n    score: 1\n",
                               *data);
    EvalOptions one;
    one.threads = 1;
    EvalOptions many;
    many.threads = 4;
    many.chunk = 64;
    const Evaluation a = run(c, *data, one);
    const Evaluation b = run(c, *data, many);
    EXPECT_EQ(b.threads, 4u);
    ASSERT_EQ(a.records.size(), b.records.size());
    for (std::size_t r = 0; r < a.records.size(); ++r) {
        ASSERT_EQ(a.records[r].decision, b.records[r].decision) << r;
        ASSERT_EQ(a.records[r].rule, b.records[r].rule) << r;
    }
    for (std::size_t k = 0; k < a.rules.size(); ++k) {
        EXPECT_EQ(a.rules[k].hits, b.rules[k].hits);
        EXPECT_EQ(a.rules[k].decided, b.rules[k].decided);
        EXPECT_EQ(a.rules[k].shadowedBy, b.rules[k].shadowedBy);
    }
    EXPECT_EQ(a.decisionCounts, b.decisionCounts);
    EXPECT_GT(a.rules[0].hits, 0);
}

TEST(Evaluate, ShadowedOnTheData)
{
    const Dataset data = load(kData);
    const Compiled c = compile("name: s\ndefault: allow\nrules:\n"
                               "  - id: big\n    when: amount > 1000.0\n    decision: block\n    score: 1\n"
                               "  - id: bigger\n    when: amount > 2000.0\n    decision: review\n    score: 1\n"
                               "  - id: never\n    when: amount > 1000000.0\n    decision: review\n    score: 1\n",
                               data);
    const Evaluation ev = run(c, data);
    const auto diagnostics = dataDiagnostics(c.rules, ev, data);
    ASSERT_EQ(diagnostics.size(), 1u);
    EXPECT_EQ(diagnostics[0].rule, "bigger");
    EXPECT_EQ(diagnostics[0].code, "shadowed");
    EXPECT_EQ(diagnostics[0].pos, (SourcePos{8, 5}));
    EXPECT_NE(diagnostics[0].message.find("fully shadowed on data.csv: each of the 2 records it matches was already "
                                          "matched by an earlier rule (most often by 'big', line 4)"),
              std::string::npos)
        << diagnostics[0].message;
}

TEST(Impact, HandComputed)
{
    const Dataset data = load(kData);
    const Compiled base = compile(kBaseline, data);
    const Compiled cand = compile(kCandidate, data);
    EvalOptions fast;
    fast.allRules = false;
    const Evaluation be = run(base, data, fast);
    const Evaluation ce = run(cand, data, fast);
    auto impact = computeImpact(base.rules, be, cand.rules, ce, data, {"is_fraud", "amount"});
    ASSERT_TRUE(impact) << impact.error().message;
    EXPECT_EQ(impact->total, 6);
    EXPECT_EQ(impact->affected, 1);
    EXPECT_DOUBLE_EQ(impact->impactRate, 1.0 / 6.0);
    EXPECT_EQ(impact->scoreChanged, 1); // r4: review 50 -> review 60
    EXPECT_EQ(impact->changedRows, (std::vector<std::size_t>{1}));
    EXPECT_EQ(impact->positives, 2);
    EXPECT_EQ(impact->negatives, 4);

    const auto j = impactToJson(*impact, base.rules, cand.rules);
    EXPECT_EQ(j["total"], 6);
    EXPECT_EQ(j["affected"], 1);
    EXPECT_DOUBLE_EQ(j["impact_rate"].get<double>(), 1.0 / 6.0);
    EXPECT_EQ(j["distribution"]["baseline"], nlohmann::ordered_json({{"allow", 2}, {"block", 2}, {"review", 2}}));
    EXPECT_EQ(j["distribution"]["candidate"], nlohmann::ordered_json({{"allow", 2}, {"block", 3}, {"review", 1}}));
    ASSERT_EQ(j["changed"].size(), 1u);
    const auto& changed = j["changed"][0];
    EXPECT_EQ(changed["record_id"], "r2");
    EXPECT_EQ(changed["old_decision"], "review");
    EXPECT_EQ(changed["new_decision"], "block");
    EXPECT_EQ(changed["old_score"], 50);
    EXPECT_EQ(changed["new_score"], 90);
    EXPECT_EQ(changed["old_rule"], "night");
    EXPECT_EQ(changed["new_rule"], "big");

    const auto& block = j["labels"]["decisions"]["block"];
    EXPECT_EQ(block["baseline"]["tp"], 1);
    EXPECT_EQ(block["baseline"]["fp"], 1);
    EXPECT_EQ(block["baseline"]["fn"], 1);
    EXPECT_EQ(block["baseline"]["tn"], 3);
    EXPECT_DOUBLE_EQ(block["baseline"]["precision"].get<double>(), 0.5);
    EXPECT_DOUBLE_EQ(block["baseline"]["recall"].get<double>(), 0.5);
    EXPECT_DOUBLE_EQ(block["baseline"]["fpr"].get<double>(), 0.25);
    EXPECT_EQ(block["baseline"]["amount_caught"], 2500);
    EXPECT_EQ(block["baseline"]["amount_hurt"], 3000);
    EXPECT_EQ(block["candidate"]["tp"], 2);
    EXPECT_EQ(block["candidate"]["fn"], 0);
    EXPECT_DOUBLE_EQ(block["candidate"]["precision"].get<double>(), 2.0 / 3.0);
    EXPECT_DOUBLE_EQ(block["candidate"]["recall"].get<double>(), 1.0);
    EXPECT_EQ(block["candidate"]["amount_caught"], 4000);
    EXPECT_EQ(block["delta"]["tp"], 1);
    EXPECT_EQ(block["delta"]["fp"], 0);
    EXPECT_DOUBLE_EQ(block["delta"]["recall"].get<double>(), 0.5);
    EXPECT_EQ(block["delta"]["amount_caught"], 1500);
    const auto& review = j["labels"]["decisions"]["review"];
    EXPECT_EQ(review["candidate"]["tp"], 0);
    EXPECT_EQ(review["candidate"]["fp"], 1);
    EXPECT_DOUBLE_EQ(review["candidate"]["precision"].get<double>(), 0.0);
    EXPECT_EQ(review["candidate"]["amount_hurt"], 20);
    EXPECT_EQ(j["labels"]["positives"], 2);

    const LabelFigures flagged = flaggedFigures(cand.rules, ce, data, {"is_fraud", "amount"}, "allow");
    EXPECT_EQ(flagged.tp, 2);
    EXPECT_EQ(flagged.fp, 2);
    EXPECT_EQ(flagged.fn, 0);
    EXPECT_EQ(flagged.tn, 2);

    // Without labels there is no labels section; a label column the data lacks is an error.
    auto plain = computeImpact(base.rules, be, cand.rules, ce, data, {});
    ASSERT_TRUE(plain);
    EXPECT_FALSE(impactToJson(*plain, base.rules, cand.rules).contains("labels"));
    auto missing = computeImpact(base.rules, be, cand.rules, ce, data, {"fraud", ""});
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("no column 'fraud'"), std::string::npos);
    auto text = computeImpact(base.rules, be, cand.rules, ce, data, {"is_fraud", "country"});
    ASSERT_FALSE(text);
    EXPECT_NE(text.error().message.find("not a number"), std::string::npos);
}

TEST(Impact, RankingOfVariants)
{
    std::vector<VariantSummary> v(3);
    v[0].name = "a";
    v[0].impactRate = 0.2;
    v[0].f1 = 0.5;
    v[1].name = "b";
    v[1].impactRate = 0.1;
    v[1].f1 = 0.7;
    v[2].name = "c";
    v[2].impactRate = 0.05;
    v[2].f1 = 0.5;
    EXPECT_EQ(rankVariants(v, true), (std::vector<std::size_t>{1, 2, 0}));
    EXPECT_EQ(rankVariants(v, false), (std::vector<std::size_t>{2, 1, 0}));
}

TEST(Explain, TheSubExpressionsThatDecided)
{
    const Dataset data = load(kData);
    const Compiled cand = compile(kCandidate, data);
    auto ex = explainRecord(cand.rules, data, 3); // r4: NG at 2 am, 20.00
    ASSERT_TRUE(ex) << ex.error().message;
    EXPECT_EQ(ex->recordId, "r4");
    EXPECT_EQ(ex->line, 5);
    EXPECT_EQ(cand.rules.decisions[ex->outcome.decision], "review");
    EXPECT_EQ(ex->outcome.rule, 1);
    ASSERT_EQ(ex->rules.size(), 3u);

    const RuleExplanation& big = ex->rules[0];
    EXPECT_EQ(big.matched, std::optional<bool>(false));
    EXPECT_FALSE(big.decided);
    ASSERT_EQ(big.steps.size(), 1u);
    EXPECT_EQ(big.steps[0].expression, "amount > 1000.0");
    EXPECT_EQ(big.steps[0].text, "false");
    EXPECT_EQ(big.steps[0].pos, (SourcePos{6, 11}));
    ASSERT_EQ(big.steps[0].operands.size(), 1u);
    EXPECT_EQ(big.steps[0].operands[0], (std::pair<std::string, std::string>{"amount", "20.0"}));

    const RuleExplanation& risky = ex->rules[1];
    EXPECT_EQ(risky.matched, std::optional<bool>(true));
    EXPECT_TRUE(risky.decided);

    // hour < 5 held, amount > 100.0 did not: only the false side decided the &&.
    const RuleExplanation& night = ex->rules[2];
    EXPECT_EQ(night.matched, std::optional<bool>(false));
    ASSERT_EQ(night.steps.size(), 1u);
    EXPECT_EQ(night.steps[0].expression, "amount > 100.0");
    EXPECT_EQ(night.steps[0].pos, (SourcePos{14, 23}));

    // A true && shows both sides.
    auto r2 = explainRecord(cand.rules, data, 1);
    ASSERT_TRUE(r2);
    EXPECT_EQ(r2->rules[0].steps.size(), 1u);
    const Compiled base = compile(kBaseline, data);
    auto bex = explainRecord(base.rules, data, 3);
    ASSERT_TRUE(bex);
    EXPECT_EQ(bex->rules[1].steps[0].expression, "hour < 5");
    EXPECT_EQ(bex->rules[1].steps[0].operands[0].second, "2");

    EXPECT_FALSE(explainRecord(cand.rules, data, 99));
}

TEST(Explain, ErrorsAndDisabledRules)
{
    const Dataset data = load("id,amount,hour\na,,3\n");
    const Compiled c =
        compile("name: e\ndefault: allow\nfields: {amount: double}\nrules:\n"
                "  - id: off\n    enabled: false\n    when: hour < 5\n    decision: block\n    score: 1\n"
                "  - id: both\n    when: hour < 5 && amount > 10.0\n    decision: block\n    score: 1\n",
                data);
    auto ex = explainRecord(c.rules, data, 0);
    ASSERT_TRUE(ex);
    EXPECT_FALSE(ex->rules[0].enabled);
    EXPECT_FALSE(ex->rules[0].matched);
    EXPECT_FALSE(ex->rules[1].matched);
    EXPECT_NE(ex->rules[1].error.find("no value for 'amount'"), std::string::npos) << ex->rules[1].error;
    ASSERT_EQ(ex->rules[1].steps.size(), 1u);
    EXPECT_EQ(ex->rules[1].steps[0].expression, "amount > 10.0");
    EXPECT_EQ(ex->outcome.rule, -1);
    EXPECT_EQ(ex->outcome.errors, 1);
}

} // namespace
} // namespace sb::rules
