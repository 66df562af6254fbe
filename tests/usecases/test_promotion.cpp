// What a promotion asks of the gate (usecases/promotion.h).

#include "usecases/promotion.h"

#include "usecase_fixture.h"

#include "rules/dataset_store.h"
#include "rules/demo_data.h"

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
    auto prepared = preparePromotion(plan(), never);
    ASSERT_TRUE(prepared) << prepared.error().message;
    EXPECT_EQ(prepared->request.source, "exp");
    EXPECT_EQ(prepared->request.mode, PromotionRequest::Mode::Preview);
    EXPECT_EQ(prepared->request.checks.size(), 1u);
    EXPECT_TRUE(prepared->request.riskInputs.empty());
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
