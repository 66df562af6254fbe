// What a policy argument and a sandbox's policy reference mean (usecases/policy_reference.h).

#include "usecases/policy_reference.h"

#include "usecase_fixture.h"

#include "isolation/doctor.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace sb {
namespace {

namespace fs = std::filesystem;

using PolicyReferenceTest = usecasetest::StoreTest;

TEST_F(PolicyReferenceTest, APresetIsReferredToByItsName)
{
    auto reference = policyReference(*m_store, "untrusted-strict");
    ASSERT_TRUE(reference) << reference.error().message;
    EXPECT_EQ(*reference, "preset:untrusted-strict");
    auto policy = policyFromReference(*m_store, *reference);
    ASSERT_TRUE(policy) << policy.error().message;
    auto preset = builtinPreset("untrusted-strict");
    ASSERT_TRUE(preset);
    EXPECT_EQ(renderPolicy(*policy), renderPolicy(*preset));
}

TEST_F(PolicyReferenceTest, AFileIsRecordedAsAVersionAndReadBackFromTheStore)
{
    const fs::path file = write("tight.yaml", "name: tight\nlevel: process\nlimits:\n  wall_ms: 1234\n");
    auto reference = policyReference(*m_store, file.string());
    ASSERT_TRUE(reference) << reference.error().message;
    EXPECT_EQ(*reference, "tight@1");
    // The file may change or go: the reference names what was recorded.
    fs::remove(file);
    auto policy = policyFromReference(*m_store, *reference);
    ASSERT_TRUE(policy) << policy.error().message;
    EXPECT_EQ(policy->limits.wallMs, 1234);
    EXPECT_EQ(policy->level, IsolationLevel::Process);
}

TEST_F(PolicyReferenceTest, AFileThatNamesNoLevelGetsTheDeepestThisMachineOffers)
{
    const fs::path file = write("open.yaml", "name: open\n");
    bool namesLevel = true;
    auto loaded = loadPolicyOrPreset(file.string(), namesLevel);
    ASSERT_TRUE(loaded) << loaded.error().message;
    EXPECT_FALSE(namesLevel);
    auto reference = policyReference(*m_store, file.string());
    ASSERT_TRUE(reference) << reference.error().message;
    auto policy = policyFromReference(*m_store, *reference);
    ASSERT_TRUE(policy) << policy.error().message;
    EXPECT_EQ(policy->level, highestAvailableLevel());
}

TEST_F(PolicyReferenceTest, ABadFileIsRefusedWithItsLine)
{
    const fs::path file = write("bad.yaml", "name: bad\nlimits:\n  wall_ms: [1, 2\n");
    auto reference = policyReference(*m_store, file.string());
    ASSERT_FALSE(reference);
    // FILE:LINE:COL: what is wrong.
    EXPECT_TRUE(std::regex_search(reference.error().message, std::regex(R"(bad\.yaml:[0-9]+:[0-9]+: )")))
        << reference.error().message;
}

TEST_F(PolicyReferenceTest, ANameThatIsNeitherFileNorPresetListsThePresets)
{
    bool namesLevel = false;
    auto loaded = loadPolicyOrPreset((m_dir / "nowhere.yaml").string(), namesLevel);
    ASSERT_FALSE(loaded);
    EXPECT_NE(loaded.error().message.find("no such policy file, and not a preset"), std::string::npos);
    EXPECT_NE(loaded.error().message.find("untrusted-strict"), std::string::npos) << loaded.error().message;
}

TEST_F(PolicyReferenceTest, MalformedAndUnknownReferencesAreRefused)
{
    for (const std::string reference : {"tight", "tight@", "tight@zero", "tight@0", "tight@-3"}) {
        auto policy = policyFromReference(*m_store, reference);
        ASSERT_FALSE(policy) << reference;
        EXPECT_NE(policy.error().message.find("is not a policy reference"), std::string::npos)
            << reference << ": " << policy.error().message;
    }
    auto unknown = policyFromReference(*m_store, "tight@7");
    ASSERT_FALSE(unknown);
    EXPECT_NE(unknown.error().message.find("policy tight@7 is not in store"), std::string::npos)
        << unknown.error().message;
    auto noPreset = policyFromReference(*m_store, "preset:nosuch");
    EXPECT_FALSE(noPreset);
}

} // namespace
} // namespace sb
