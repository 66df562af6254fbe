// The rule sets among the changes of a checkpoint diff (usecases/checkpoint_rule_sets.h).

#include "usecases/checkpoint_rule_sets.h"

#include "usecase_fixture.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace sb {
namespace {

namespace fs = std::filesystem;

const char* const kRuleSet = "name: fraud\nversion: 1\nstrategy: first_match\ndefault: {decision: allow, score: 0}\n"
                             "rules:\n  - id: big\n    when: amount > %s\n    decision: block\n    score: 80\n";

std::string ruleSet(const std::string& threshold)
{
    std::string text = kRuleSet;
    return text.replace(text.find("%s"), 2, threshold);
}

class CheckpointRuleSetsTest : public usecasetest::StoreTest {
protected:
    void SetUp() override
    {
        usecasetest::StoreTest::SetUp();
        auto engine = SandboxEngine::open(*m_store);
        ASSERT_TRUE(engine) << engine.error().message;
        m_engine = std::move(*engine);
        CreateSandboxRequest request;
        request.name = "exp";
        auto made = m_engine->createSandbox(request);
        ASSERT_TRUE(made) << made.error().message;
        m_workspace = made->sandbox.workspace;
    }
    void TearDown() override
    {
        m_engine.reset();
        usecasetest::StoreTest::TearDown();
    }
    void writeInWorkspace(const std::string& path, const std::string& text) const
    {
        fs::create_directories((m_workspace / path).parent_path());
        std::ofstream(m_workspace / path) << text;
    }
    std::string checkpoint()
    {
        auto made = m_engine->checkpoint(CheckpointRequest{"exp", {}, {}, {}});
        EXPECT_TRUE(made) << made.error().message;
        return made ? made->checkpoint.id : std::string();
    }

    fs::path m_workspace;
    std::unique_ptr<SandboxEngine> m_engine;
};

TEST_F(CheckpointRuleSetsTest, ChangedRuleSetsAreComparedRuleByRuleAndOtherFilesLeftOut)
{
    writeInWorkspace("rules/fraud.yaml", ruleSet("100.0"));
    writeInWorkspace("config.yaml", "threshold: 3\n");
    const std::string first = checkpoint();
    writeInWorkspace("rules/fraud.yaml", ruleSet("250.0"));
    writeInWorkspace("config.yaml", "threshold: 4\n");
    writeInWorkspace("notes.txt", "x\n");
    const std::string second = checkpoint();
    auto diff = m_engine->diff(first, second);
    ASSERT_TRUE(diff) << diff.error().message;
    const auto ruleSets = checkpointRuleSetDiffs(*m_engine, *diff);
    ASSERT_EQ(ruleSets.size(), 1u);
    const auto& changed = ruleSets.at("rules/fraud.yaml");
    ASSERT_TRUE(changed.before);
    ASSERT_TRUE(changed.after);
    ASSERT_EQ(changed.diff.rules.size(), 1u);
}

TEST_F(CheckpointRuleSetsTest, TheLiveWorkspaceIsReadWhenTheDiffRunsToIt)
{
    const std::string first = checkpoint();
    writeInWorkspace("rules/new.yml", ruleSet("10.0"));
    auto diff = m_engine->diff(first, {});
    ASSERT_TRUE(diff) << diff.error().message;
    const auto ruleSets = checkpointRuleSetDiffs(*m_engine, *diff);
    ASSERT_EQ(ruleSets.size(), 1u);
    const auto& added = ruleSets.at("rules/new.yml");
    EXPECT_FALSE(added.before);
    ASSERT_TRUE(added.after);
    EXPECT_EQ(added.diff.rules.size(), 1u);
}

} // namespace
} // namespace sb
