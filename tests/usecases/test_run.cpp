// A run as every front end asks for it (usecases/run.h): its policy, the sandbox's say, its record.

#include "usecases/run.h"

#include "usecase_fixture.h"

#include "usecases/policy_reference.h"

#include "isolation/doctor.h"
#include "sandboxes/sandbox_engine.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <linux/capability.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace sb {
namespace {

namespace fs = std::filesystem;

class RunUseCaseTest : public usecasetest::StoreTest {
protected:
    // A sandbox with a quota (bytes) and a policy reference.
    void createSandbox(const std::string& name, std::optional<std::uint64_t> quota, std::optional<std::string> policy)
    {
        auto engine = SandboxEngine::open(*m_store);
        ASSERT_TRUE(engine) << engine.error().message;
        CreateSandboxRequest request;
        request.name = name;
        request.quotaBytes = quota;
        request.policy = std::move(policy);
        auto created = (*engine)->createSandbox(request);
        ASSERT_TRUE(created) << created.error().message;
    }
    static RunOrder printOrder(RunPolicyRequest asked, std::string sandbox = {})
    {
        auto policy = resolveRunPolicy(asked);
        if (!policy)
            throw std::runtime_error(policy.error().message);
        RunOrder order;
        order.request.language = Language::Python;
        order.request.source = "print(6 * 7)\n";
        order.request.label = "print.py";
        order.request.policy = *policy;
        order.asked = std::move(asked);
        order.sandbox = std::move(sandbox);
        return order;
    }

    const Runner m_runner;
};

TEST_F(RunUseCaseTest, NothingAskedIsTheDefaultPolicyAtTheDeepestLevel)
{
    auto policy = resolveRunPolicy({});
    ASSERT_TRUE(policy) << policy.error().message;
    EXPECT_EQ(policy->level, highestAvailableLevel());
    EXPECT_EQ(renderPolicy(*policy), [] {
        Policy expected;
        expected.level = highestAvailableLevel();
        return renderPolicy(expected);
    }());
}

TEST_F(RunUseCaseTest, LimitsGoOnTopOfThePolicy)
{
    const auto file = write("p.yaml", "name: p\nlevel: process\nlimits:\n  wall_ms: 2000\n  memory_mb: 64\n");
    auto policy = resolveRunPolicy({.policy = file, .timeoutMs = 1234});
    ASSERT_TRUE(policy) << policy.error().message;
    EXPECT_EQ(policy->limits.wallMs, 1234);
    EXPECT_EQ(policy->limits.memoryMb, 64);
    EXPECT_EQ(policy->level, IsolationLevel::Process);
}

TEST_F(RunUseCaseTest, ALevelMayAskMoreThanThePolicyNamesNotLess)
{
    const auto process = write("process.yaml", "level: process\n");
    auto raised = resolveRunPolicy({.policy = process, .level = IsolationLevel::Container});
    ASSERT_TRUE(raised) << raised.error().message;
    EXPECT_EQ(raised->level, IsolationLevel::Container);

    const auto strict = write("strict.yaml", "level: strict\n");
    auto lowered = resolveRunPolicy({.policy = strict, .level = IsolationLevel::Process});
    ASSERT_FALSE(lowered);
    EXPECT_EQ(lowered.error().message,
              "--level process is below the level the policy '" + strict.string()
                  + "' needs (strict), and the policy does not allow a lower one (allow_lower_level)");

    const auto allowed = write("allowed.yaml", "level: strict\nallow_lower_level: true\n");
    auto lowerAllowed = resolveRunPolicy({.policy = allowed, .level = IsolationLevel::Process});
    ASSERT_TRUE(lowerAllowed) << lowerAllowed.error().message;
    EXPECT_EQ(lowerAllowed->level, IsolationLevel::Process);
}

TEST_F(RunUseCaseTest, APolicyThatNamesNoLevelTakesAnyAskedLevel)
{
    const auto open = write("open.yaml", "name: open\n");
    auto policy = resolveRunPolicy({.policy = open, .level = IsolationLevel::Process});
    ASSERT_TRUE(policy) << policy.error().message;
    EXPECT_EQ(policy->level, IsolationLevel::Process);
    auto unasked = resolveRunPolicy({.policy = open});
    ASSERT_TRUE(unasked) << unasked.error().message;
    EXPECT_EQ(unasked->level, highestAvailableLevel());
}

TEST_F(RunUseCaseTest, APolicyThatIsNeitherFileNorPresetIsRefused)
{
    auto policy = resolveRunPolicy({.policy = "no-such-policy"});
    ASSERT_FALSE(policy);
    EXPECT_NE(policy.error().message.find("no-such-policy: no such policy file, and not a preset"), std::string::npos);
}

TEST_F(RunUseCaseTest, PolicySourcesHaveTheirContractNames)
{
    EXPECT_EQ(toString(PolicySource::Default), "default");
    EXPECT_EQ(toString(PolicySource::Option), "option");
    EXPECT_EQ(toString(PolicySource::Sandbox), "sandbox");
}

TEST_F(RunUseCaseTest, ARunIsRecordedWithThePolicyItRanUnder)
{
    auto record = runAndRecord(*m_store, m_runner, printOrder({.timeoutMs = 4321}));
    ASSERT_TRUE(record) << record.error().message;
    EXPECT_TRUE(record->recorded()) << record->recordError;
    EXPECT_EQ(record->policySource, PolicySource::Default);
    EXPECT_EQ(record->result.outcome, Outcome::Ok) << record->result.message;
    auto runs = m_store->recentRuns(5);
    ASSERT_TRUE(runs) << runs.error().message;
    ASSERT_EQ(runs->size(), 1u);
    EXPECT_EQ(runs->front().result.runId, record->result.runId);
    EXPECT_EQ(runs->front().request.policy.limits.wallMs, 4321);
    ASSERT_TRUE(record->policy);
    EXPECT_EQ(runs->front().policy.id, record->policy->id);
}

TEST_F(RunUseCaseTest, AskedPolicyOrLevelIsTheOptionsSource)
{
    auto record = runAndRecord(*m_store, m_runner, printOrder({.level = IsolationLevel::Process}));
    ASSERT_TRUE(record) << record.error().message;
    EXPECT_EQ(record->policySource, PolicySource::Option);
    EXPECT_EQ(record->request.policy.level, IsolationLevel::Process);
}

TEST_F(RunUseCaseTest, ASandboxsPolicyAppliesUnlessOneIsAsked)
{
    createSandbox("sb", std::nullopt, "preset:untrusted-strict");
    auto record = runAndRecord(*m_store, m_runner, printOrder({.memoryMb = 128}, "sb"));
    ASSERT_TRUE(record) << record.error().message;
    EXPECT_EQ(record->policySource, PolicySource::Sandbox);
    EXPECT_EQ(record->sandboxPolicy, "preset:untrusted-strict");
    auto strict = policyFromReference(*m_store, "preset:untrusted-strict");
    ASSERT_TRUE(strict) << strict.error().message;
    EXPECT_EQ(record->request.policy.name, strict->name);
    EXPECT_EQ(record->request.policy.limits.memoryMb, 128); // asked limits go on top of the sandbox's policy
    EXPECT_FALSE(record->request.workspace.empty());

    auto asked = runAndRecord(*m_store, m_runner, printOrder({.level = IsolationLevel::Process}, "sb"));
    ASSERT_TRUE(asked) << asked.error().message;
    EXPECT_EQ(asked->policySource, PolicySource::Option);
    EXPECT_EQ(asked->sandboxPolicy, "preset:untrusted-strict");
    EXPECT_EQ(asked->request.policy.level, IsolationLevel::Process);
}

TEST_F(RunUseCaseTest, TheQuotaCapsDiskMb)
{
    createSandbox("small", 3u << 20, std::nullopt);
    auto record = runAndRecord(*m_store, m_runner, printOrder({}, "small"));
    ASSERT_TRUE(record) << record.error().message;
    EXPECT_TRUE(record->quotaCapped);
    EXPECT_EQ(record->request.policy.limits.diskMb, 3);

    createSandbox("roomy", std::uint64_t{1} << 40, std::nullopt);
    auto roomy = runAndRecord(*m_store, m_runner, printOrder({}, "roomy"));
    ASSERT_TRUE(roomy) << roomy.error().message;
    EXPECT_FALSE(roomy->quotaCapped);
    EXPECT_EQ(roomy->request.policy.limits.diskMb, Policy{}.limits.diskMb);
}

TEST_F(RunUseCaseTest, LessThanOneMibOfQuotaLeftIsRefusedBeforeTheRun)
{
    createSandbox("full", 512u * 1024, std::nullopt);
    auto record = runAndRecord(*m_store, m_runner, printOrder({}, "full"));
    ASSERT_FALSE(record);
    EXPECT_EQ(record.error().message,
              "sandbox 'full' holds 0 bytes of its quota of 524288 bytes: less than 1 MiB is left for a run (free "
              "space, or raise the quota with: sandbench sandbox set full --quota SIZE)");
    auto runs = m_store->recentRuns(5);
    ASSERT_TRUE(runs) << runs.error().message;
    EXPECT_TRUE(runs->empty());
}

TEST_F(RunUseCaseTest, AnUnknownSandboxIsRefused)
{
    auto record = runAndRecord(*m_store, m_runner, printOrder({}, "nowhere"));
    ASSERT_FALSE(record);
}

// Root writes any file through CAP_DAC_OVERRIDE: without it in its effective set, this thread is held to the
// file's mode as any user is. Capabilities are per thread, and the permitted set keeps it for the restore.
class FileModesHoldForThisThread {
public:
    FileModesHoldForThisThread()
    {
        if (::syscall(SYS_capget, &m_header, m_saved) != 0)
            return;
        __user_cap_data_struct lowered[2] = {m_saved[0], m_saved[1]};
        lowered[0].effective &= ~((1u << CAP_DAC_OVERRIDE) | (1u << CAP_DAC_READ_SEARCH) | (1u << CAP_FOWNER));
        m_lowered = ::syscall(SYS_capset, &m_header, lowered) == 0;
    }
    ~FileModesHoldForThisThread()
    {
        if (m_lowered)
            ::syscall(SYS_capset, &m_header, m_saved);
    }
    FileModesHoldForThisThread(const FileModesHoldForThisThread&) = delete;
    FileModesHoldForThisThread& operator=(const FileModesHoldForThisThread&) = delete;

private:
    __user_cap_header_struct m_header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct m_saved[2]{};
    bool m_lowered = false;
};

TEST_F(RunUseCaseTest, AReadOnlyStoreDoesNotStartTheRun)
{
    m_store.reset();
    const fs::path file = m_dir / "store.db";
    ASSERT_EQ(::chmod(file.c_str(), 0444), 0);
    std::optional<Store> store;
    {
        const FileModesHoldForThisThread modesHold;
        auto opened = Store::open(file);
        ASSERT_TRUE(opened) << opened.error().message;
        store.emplace(std::move(*opened));
    }
    ASSERT_TRUE(store->readOnly());
    auto record = runAndRecord(*store, m_runner, printOrder({}));
    ASSERT_FALSE(record);
    EXPECT_EQ(record.error().message,
              "store " + file.string() + " is read-only: the run was not started, as it could not be recorded");
    auto runs = store->recentRuns(5);
    ASSERT_TRUE(runs) << runs.error().message;
    EXPECT_TRUE(runs->empty());
}

} // namespace
} // namespace sb
