// The demo as every front end runs it (usecases/demo_run.h).

#include "usecases/demo_run.h"

#include "isolation/doctor.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace sb {
namespace {

namespace fs = std::filesystem;

TEST(DemoRunTest, ExpectedOutcomesAreTheCasesOwn)
{
    for (const auto& demoCase : demoCases()) {
        ASSERT_FALSE(demoCase.expected.empty()) << demoCase.name;
        EXPECT_TRUE(endedAsExpected(demoCase, demoCase.expected.front())) << demoCase.name;
        EXPECT_FALSE(endedAsExpected(demoCase, Outcome::InternalError)) << demoCase.name;
    }
}

TEST(DemoRunTest, EveryCaseRunsUnderTheBaseLevelWithItsOwnLimitsAndIsRecorded)
{
    std::string pattern = (fs::temp_directory_path() / "sandbench-demo-usecase-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    const fs::path dir = pattern;
    {
        auto store = Store::open(dir / "store.db");
        ASSERT_TRUE(store) << store.error().message;
        Policy base;
        base.level = IsolationLevel::Process;
        base.limits.wallMs = 99'999;
        const DemoRun demo(base);
        ASSERT_EQ(demo.size(), demoCases().size());
        for (std::size_t i = 0; i < demo.size(); ++i) {
            const DemoCaseRun run = demo.runCase(i, &*store);
            EXPECT_EQ(run.demoCase, &demoCases()[i]);
            EXPECT_TRUE(run.recordError.empty()) << run.recordError;
            EXPECT_TRUE(run.policy.has_value());
            EXPECT_EQ(run.request.policy.level, IsolationLevel::Process);
            EXPECT_EQ(run.request.policy.limits.wallMs, demoCases()[i].timeoutMs);
            EXPECT_EQ(run.asExpected, endedAsExpected(demoCases()[i], run.result.outcome));
        }
        auto runs = store->recentRuns(100);
        ASSERT_TRUE(runs) << runs.error().message;
        EXPECT_EQ(runs->size(), demoCases().size());
    }
    std::error_code ec;
    fs::remove_all(dir, ec);
}

} // namespace
} // namespace sb
