// A sandbox held for a run (SandboxEngine::holdForRun) and what the next holder of a sandbox's lock takes back:
// a workspace a run that died left lent to its transient identity, and the job folders such runs left
// (isolation/workspace_lending.h).

#include "isolation/workspace_lending.h"
#include "checkpoints/files.h"
#include "workspace_fixture.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace sb::workspacetest {
namespace {

class RunHoldTest : public WorkspaceTest {
protected:
    fs::path lockFile(const std::string& sandbox) const
    {
        return SandboxEngine::dataFolder(storePath()) / "locks" / sandbox;
    }
    bool lockIsFree(const std::string& sandbox) const
    {
        auto lock = FileLock::tryAcquire(lockFile(sandbox), FileLock::Mode::Exclusive);
        return lock && lock->valid();
    }
};

uid_t ownerOf(const fs::path& path)
{
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0 ? st.st_uid : static_cast<uid_t>(-1);
}

TEST_F(RunHoldTest, AHeldSandboxIsLockedUntilTheHoldGoes)
{
    create("sb");
    {
        auto hold = engine().holdForRun("sb");
        ASSERT_TRUE(hold) << hold.error().message;
        EXPECT_EQ(hold->sandbox.name, "sb");
        EXPECT_EQ(hold->sandbox.workspace, workspace("sb"));
        EXPECT_GE(hold->lockDescriptor(), 0);
        EXPECT_FALSE(hold->usedBytes); // no quota: nothing measured
        EXPECT_FALSE(lockIsFree("sb"));
        EXPECT_TRUE(lockIsFree("main")); // other sandboxes are not held
    }
    EXPECT_TRUE(lockIsFree("sb"));
}

TEST_F(RunHoldTest, AQuotaSandboxsUsageIsMeasuredUnderTheHold)
{
    CreateSandboxRequest request;
    request.name = "sb";
    request.quotaBytes = 1 << 20;
    ASSERT_TRUE(engine().createSandbox(request));
    writeFile(workspace("sb") / "a.bin", std::string(1000, 'a'));
    auto hold = engine().holdForRun("sb");
    ASSERT_TRUE(hold) << hold.error().message;
    ASSERT_TRUE(hold->usedBytes);
    EXPECT_EQ(*hold->usedBytes, 1000u);
}

// Checkpoints through a hold (an agent session's, around each call) start from the head and stat cache the
// last one left. Every change between them must still be seen, a same-size rewrite included, and each checkpoint
// must hold the workspace as it was: made into sandboxes of their own afterwards, they are compared file by file.
TEST_F(RunHoldTest, CheckpointsThroughAHoldSeeEveryChangeBetweenThem)
{
    create("sb");
    const fs::path ws = workspace("sb");
    std::vector<std::pair<std::string, std::map<std::string, std::string>>> taken;
    {
        auto hold = engine().holdForRun("sb");
        ASSERT_TRUE(hold) << hold.error().message;
        std::string head;
        const auto checkpointHeld = [&](bool changed) {
            CheckpointRequest request;
            request.sandbox = "sb";
            request.onlyWhenChanged = true;
            auto made = engine().checkpoint(request, *hold);
            ASSERT_TRUE(made) << made.error().message;
            EXPECT_EQ(made->created, changed) << taken.size();
            if (changed)
                EXPECT_NE(made->checkpoint.id, head);
            else
                EXPECT_EQ(made->checkpoint.id, head);
            head = made->checkpoint.id;
            taken.emplace_back(head, snapshot(ws));
        };
        writeFile(ws / "a.txt", "one\n");
        checkpointHeld(true);
        checkpointHeld(false);
        writeFile(ws / "a.txt", "two\n"); // the same size, and likely the same mtime second
        checkpointHeld(true);
        writeFile(ws / "sub" / "b.txt", "bee\n");
        checkpointHeld(true);
        checkpointHeld(false);
        fs::remove(ws / "a.txt");
        checkpointHeld(true);
        fs::remove_all(ws / "sub");
        writeFile(ws / "sub", "a file where the folder was\n");
        checkpointHeld(true);
    }
    for (std::size_t i = 0; i < taken.size(); ++i) {
        const std::string name = "copy-" + std::to_string(i);
        create(name, taken[i].first);
        EXPECT_EQ(snapshot(workspace(name)), taken[i].second) << "checkpoint " << i;
    }
}

TEST_F(RunHoldTest, JobFoldersOfRunsThatDiedAreRemovedByTheNextHolder)
{
    create("sb");
    const fs::path job = workspace("sb") / (std::string(lending::kJobFolderPrefix) + "of-a-killed-run");
    writeFile(job / "snippet.py", "print(1)\n");
    writeFile(workspace("sb") / "kept.txt", "kept\n");
    const std::string id = checkpoint("sb");
    EXPECT_FALSE(fs::exists(job));
    EXPECT_EQ(readFile(workspace("sb") / "kept.txt"), "kept\n");
    auto files = engine().files(id);
    ASSERT_TRUE(files) << files.error().message;
    for (const auto& entry : *files)
        EXPECT_FALSE(entry.path.starts_with(lending::kJobFolderPrefix)) << entry.path;
}

// What a run left lent when it died (the workspace's folder and files of transient uids): whichever operation
// takes the sandbox's lock next (here a checkpoint, which must not save a lent workspace) gives it back to the
// owner of the sandbox's folder; a file another user owns stays theirs.
TEST_F(RunHoldTest, AWorkspaceLeftLentIsTakenBackByTheNextHolder)
{
    if (::geteuid() != 0)
        GTEST_SKIP() << "only root's runs are lent a workspace (transient uids), and only root can make one";
    create("sb");
    const fs::path ws = workspace("sb");
    writeFile(ws / "made" / "by-a-run.txt", "run\n");
    writeFile(ws / "a-users.txt", "user\n");
    constexpr uid_t kRun = kTransientIdBase + 77;
    for (const fs::path& p : {ws, ws / "made", ws / "made" / "by-a-run.txt"})
        ASSERT_EQ(::chown(p.c_str(), kRun, kRun), 0);
    ASSERT_EQ(::chown((ws / "a-users.txt").c_str(), 12345, 12345), 0);

    const std::string id = checkpoint("sb");
    ASSERT_FALSE(id.empty());
    for (const fs::path& p : {ws, ws / "made", ws / "made" / "by-a-run.txt"})
        EXPECT_EQ(ownerOf(p), ::geteuid()) << p;
    EXPECT_EQ(ownerOf(ws / "a-users.txt"), 12345u);
}

} // namespace
} // namespace sb::workspacetest
