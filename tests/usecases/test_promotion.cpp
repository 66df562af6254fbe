// What a promotion asks of the gate (usecases/promotion.h).

#include "usecases/promotion.h"

#include "usecase_fixture.h"

#include "rules/dataset_store.h"
#include "rules/demo_data.h"
#include "sandboxes/sandbox_engine.h"
#include "usecases/sandbox_datasets.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace sb {
namespace {

namespace fs = std::filesystem;

class PromotionPlanTest : public usecasetest::FolderTest {
protected:
    static PromotionPlan plan()
    {
        PromotionPlan out;
        out.request.source = "exp";
        out.request.mode = PromotionRequest::Mode::Preview;
        return out;
    }
};

TEST_F(PromotionPlanTest, EveryPromotionChecksTheRuleSets)
{
    const StoreOpener never = []() -> Result<Store> { return fail("opened"); };
    PromotionPlan p = plan();
    p.sandboxData = false;
    auto prepared = preparePromotion(p, never);
    ASSERT_TRUE(prepared) << prepared.error().message;
    EXPECT_EQ(prepared->request.source, "exp");
    EXPECT_EQ(prepared->request.mode, PromotionRequest::Mode::Preview);
    EXPECT_EQ(prepared->request.checks.size(), 1u);
    EXPECT_EQ(prepared->request.riskInputs.size(), 1u); // rule sets added or changed are graded without data too
    EXPECT_TRUE(prepared->dataName.empty());
    EXPECT_FALSE(prepared->request.risk);
}

TEST_F(PromotionPlanTest, DataGradesTheRiskByImpactRate)
{
    const fs::path file = m_dir / "t.csv";
    {
        std::ofstream out(file);
        rules::writeDemoTransactions(out, 200, 3);
    }
    PromotionPlan p = plan();
    p.data = file.string();
    auto prepared = preparePromotion(p, opener());
    ASSERT_TRUE(prepared) << prepared.error().message;
    EXPECT_EQ(prepared->request.checks.size(), 1u);
    EXPECT_EQ(prepared->request.riskInputs.size(), 1u);
    EXPECT_EQ(prepared->dataReport.kept, 200);
    EXPECT_FALSE(prepared->dataSource.empty());
}

TEST_F(PromotionPlanTest, ARiskConfigFileIsReadAndABadOneRefused)
{
    const fs::path config = m_dir / "promotion.yaml";
    std::ofstream(config) << "promotion:\n  medium: {files_changed: 3}\n";
    PromotionPlan p = plan();
    p.sandboxData = false; // no sandbox "exp" here: only the risk config is read
    p.riskConfig = config.string();
    auto prepared = preparePromotion(p, opener());
    ASSERT_TRUE(prepared) << prepared.error().message;
    ASSERT_TRUE(prepared->request.risk);
    p.riskConfig = (m_dir / "missing.yaml").string();
    EXPECT_FALSE(preparePromotion(p, opener()));
}

TEST_F(PromotionPlanTest, MissingDataIsAnError)
{
    PromotionPlan p = plan();
    p.data = (m_dir / "missing.csv").string();
    auto prepared = preparePromotion(p, opener());
    ASSERT_FALSE(prepared);
    EXPECT_EQ(prepared.error().message, p.data + ": no such file");
}

// A sandbox that refers to a dataset is measured on it: the decisions its changed rule set flips are counted,
// and graded with a new binary file beside it: at least medium, the approval required when that is high.
TEST_F(PromotionPlanTest, TheSandboxsDatasetMeasuresItsChangedRuleSets)
{
    const fs::path csv = m_dir / "t.csv";
    {
        std::ofstream out(csv);
        rules::writeDemoTransactions(out, 400, 11);
    }
    DatasetImport import;
    import.file = csv.string();
    import.name = "tx";
    ASSERT_TRUE(importDatasetFile(import, opener()));
    auto store = Store::open(storePath());
    ASSERT_TRUE(store) << store.error().message;
    auto engine = SandboxEngine::open(*store);
    ASSERT_TRUE(engine) << engine.error().message;
    auto ruleSet = [](const char* threshold) {
        return std::string("name: card\nstrategy: first_match\ndefault: {decision: allow, score: 0}\n"
                           "fields: {amount: double}\nrules:\n  - id: big\n    when: amount > ")
               + threshold + "\n    decision: review\n    score: 10\n";
    };
    auto production = (*engine)->sandbox("main");
    ASSERT_TRUE(production) << production.error().message;
    std::ofstream(production->workspace / "card.yaml") << ruleSet("1000.0");
    ASSERT_TRUE((*engine)->checkpoint(CheckpointRequest{"main", "rules", "", {}}));
    auto ref = datasetReference(*store, "tx");
    ASSERT_TRUE(ref) << ref.error().message;
    CreateSandboxRequest create;
    create.name = "exp";
    create.datasets = {*ref};
    auto made = (*engine)->createSandbox(create);
    ASSERT_TRUE(made) << made.error().message;
    std::ofstream(made->sandbox.workspace / "card.yaml") << ruleSet("500.0");
    std::ofstream(made->sandbox.workspace / "model.bin", std::ios::binary) << std::string("\x01\x00\x02", 3);

    auto prepared = preparePromotion(plan(), opener());
    ASSERT_TRUE(prepared) << prepared.error().message;
    EXPECT_EQ(prepared->dataName, "tx");
    auto report = (*engine)->promote(prepared->request);
    ASSERT_TRUE(report) << report.error().message;
    ASSERT_EQ(report->decisionImpacts.size(), 1u);
    const DecisionImpact& d = report->decisionImpacts[0];
    EXPECT_EQ(d.path, "card.yaml");
    EXPECT_EQ(d.records, 400u);
    // Counted here from the file: the records the lower threshold flips from allow to review.
    std::uint64_t flipped = 0;
    std::ifstream in(csv);
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
        std::size_t column = 0;
        for (int i = 0; i < 2; ++i)
            column = line.find(',', column) + 1;
        const double amount = std::stod(line.substr(column, line.find(',', column) - column));
        flipped += amount > 500.0 && amount <= 1000.0 ? 1 : 0;
    }
    EXPECT_GT(flipped, 0u);
    EXPECT_EQ(d.changed, flipped);
    EXPECT_GE(report->risk, RiskLevel::Medium);
    EXPECT_EQ(report->approvalRequired, report->risk == RiskLevel::High);
    bool binary = false;
    for (const auto& reason : report->riskReasons)
        binary = binary || toString(reason).find("binary file model.bin") != std::string::npos;
    EXPECT_TRUE(binary) << riskReasonsToJson(report->riskReasons).dump();
}

TEST(PromotionPasses, ByStatusConflictsAndChecks)
{
    PromotionReport report;
    report.status = "applied";
    EXPECT_TRUE(promotionPasses(report));
    report.status = "up-to-date";
    EXPECT_TRUE(promotionPasses(report));
    report.status = "blocked";
    EXPECT_FALSE(promotionPasses(report));
    report.status = "preview";
    EXPECT_TRUE(promotionPasses(report));
    report.compatibility.push_back(CompatibilityResult{"rules", "r.yaml", false, "r.yaml:1:1: error"});
    EXPECT_FALSE(promotionPasses(report));
    report.compatibility.clear();
    report.conflicts.emplace_back();
    EXPECT_FALSE(promotionPasses(report));
}

} // namespace
} // namespace sb
