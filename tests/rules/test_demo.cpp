// The demo content: the generator is deterministic, the shipped CSV is what it generates, and the shipped rule
// sets are clean against it.

#include "rules/demo_data.h"
#include "rules/evaluate.h"
#include "rules/ruleset.h"

#include "rules_test_util.h"

#include <gtest/gtest.h>

namespace sb::rules {
namespace {

const std::filesystem::path kDemo = SANDBENCH_DEMO_DIR;

TEST(DemoData, ShippedFileIsWhatTheGeneratorWrites)
{
    const std::string shipped = readFile(kDemo / "transactions.csv");
    ASSERT_FALSE(shipped.empty()) << "missing " << (kDemo / "transactions.csv");
    // Compared whole, and a hint when they differ: regenerate with
    //   sandbench data generate --rows 5000 resources/demo/transactions.csv
    EXPECT_TRUE(shipped == demoTransactionsCsv(kDemoRows, kDemoSeed))
        << "resources/demo/transactions.csv is not demoTransactionsCsv(kDemoRows, kDemoSeed)";
}

TEST(DemoData, DeterministicAndSeeded)
{
    EXPECT_EQ(demoTransactionsCsv(200, 1), demoTransactionsCsv(200, 1));
    EXPECT_NE(demoTransactionsCsv(200, 1), demoTransactionsCsv(200, 2));
    // The first rows do not depend on how many are asked for (but their times spread over the days asked).
    const std::string header = demoTransactionsCsv(0, 1);
    EXPECT_EQ(header.find("id,created,amount,currency,country,card_country,ip_country,merchant_category,channel,"
                          "card_present,hour,account_age_days,txn_count_24h,email_domain,device_new,is_fraud\n"),
              0u);
}

TEST(DemoData, ReadsBackTypedWithAFraudRateOfAFewPercent)
{
    ReadOptions o;
    auto data = readDatasetText(demoTransactionsCsv(20000, 3), "demo.csv", o);
    ASSERT_TRUE(data) << data.error().message;
    const Schema& s = data->schema();
    EXPECT_EQ(s.fields[static_cast<std::size_t>(s.find("created"))].type, FieldType::Timestamp);
    EXPECT_EQ(s.fields[static_cast<std::size_t>(s.find("amount"))].type, FieldType::Double);
    EXPECT_EQ(s.fields[static_cast<std::size_t>(s.find("hour"))].type, FieldType::Int);
    EXPECT_EQ(s.fields[static_cast<std::size_t>(s.find("is_fraud"))].type, FieldType::Bool);
    EXPECT_EQ(s.fields[static_cast<std::size_t>(s.find("country"))].type, FieldType::String);
    const auto fraud = data->column(static_cast<std::size_t>(s.find("is_fraud")));
    std::size_t positives = 0;
    for (const auto& v : fraud)
        positives += v.asBool() ? 1 : 0;
    EXPECT_GT(positives, 20000u / 100);
    EXPECT_LT(positives, 20000u / 20);
    EXPECT_EQ(data->recordId(0), "t0000001");
}

TEST(DemoRules, CleanAgainstTheDemoData)
{
    ReadOptions o;
    auto data = readDataset(kDemo / "transactions.csv", o);
    ASSERT_TRUE(data) << data.error().message;
    for (const char* name : {"current.yaml", "variant_a.yaml", "variant_b.yaml"}) {
        auto parsed = loadRuleSetFile(kDemo / "rules" / name);
        ASSERT_TRUE(parsed) << name;
        EXPECT_FALSE(parsed->hasErrors()) << name;
        EXPECT_GE(parsed->ruleSet.rules.size(), 18u) << name;
        auto compiled = compileRuleSet(parsed->ruleSet, &data->schema());
        ASSERT_TRUE(compiled.compiled) << name;
        for (const auto& d : compiled.diagnostics)
            EXPECT_EQ(d.code, "never_fires") << name << ": " << d.format(name); // only the disabled legacy rule
        auto ev = evaluate(*compiled.compiled, *data);
        ASSERT_TRUE(ev);
        EXPECT_EQ(ev->recordsWithErrors, 0) << name;
        EXPECT_TRUE(dataDiagnostics(*compiled.compiled, *ev, *data).empty()) << name;
    }
}

} // namespace
} // namespace sb::rules
