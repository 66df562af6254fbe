// Lending a workspace to a run (isolation/workspace_lending.h): the run's launcher holds the workspace's lock
// as long as the run lives, a workspace already lent is never lent again, and what a root caller's run made
// goes back to the workspace's owner, whoever that is.

#include "isolation/doctor.h"
#include "isolation/workspace_lending.h"
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <fcntl.h>
#include <fstream>
#include <sys/file.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace sb;
using namespace sb::test;
namespace fs = std::filesystem;

namespace {

constexpr uid_t kSomeUser = 12345; // no account needed: ownership is all these tests look at

void writeFile(const fs::path& path, const std::string& bytes)
{
    std::ofstream(path, std::ios::binary) << bytes;
}

RunRequest inWorkspace(const fs::path& workspace, const std::string& source)
{
    Policy policy;
    policy.level = highestAvailableLevel();
    policy.blockedImports.clear(); // the snippets below use os; the import guard is no part of these tests
    RunRequest request{Language::Python, source, policy, "lending"};
    request.workspace = workspace;
    return request;
}

uid_t ownerOf(const fs::path& path)
{
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0 ? st.st_uid : static_cast<uid_t>(-1);
}

bool waitForFile(const fs::path& path)
{
    for (int i = 0; i < 1500 && !fs::exists(path); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return fs::exists(path);
}

// Whether another open file description can take the lock, now or (`patience`) within 10 s: the launcher lets
// it go after the run's result, as the last process of a container (its pid 1) ends.
bool lockIsFree(const fs::path& lockFile, bool patience = false)
{
    const int fd = ::open(lockFile.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return false;
    bool free = ::flock(fd, LOCK_EX | LOCK_NB) == 0;
    for (int i = 0; patience && !free && i < 500; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        free = ::flock(fd, LOCK_EX | LOCK_NB) == 0;
    }
    ::close(fd);
    return free;
}

// The caller's own descriptor of the lock is gone (as when the caller is killed) while its run goes on: the
// launcher still holds the lock, until the run has ended.
TEST(WorkspaceLending, TheLauncherHoldsTheWorkspaceLockWhileTheRunLives)
{
    TempDir root;
    const fs::path workspace = root.path() / "workspace";
    fs::create_directories(workspace);
    const fs::path lockFile = root.path() / "lock";
    const int lock = ::open(lockFile.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    ASSERT_GE(lock, 0);
    ASSERT_EQ(::flock(lock, LOCK_EX), 0);
    RunRequest request = inWorkspace(workspace, "import os, pathlib, time\n"
                                                "pathlib.Path('started').write_text('1')\n"
                                                "for _ in range(1000):\n"
                                                "    if os.path.exists('release'):\n"
                                                "        break\n"
                                                "    time.sleep(0.02)\n");
    request.policy.limits.wallMs = 60'000;
    request.workspaceLock = lock;
    RunResult result;
    std::thread run([&] { result = Runner().run(request); });
    const bool started = waitForFile(workspace / "started");
    ::close(lock); // the run started: the Runner does not use the descriptor again
    const bool freeWhileRunning = lockIsFree(lockFile);
    writeFile(workspace / "release", "");
    run.join();
    ASSERT_TRUE(started) << result.message << result.stderrText;
    EXPECT_FALSE(freeWhileRunning) << "the launcher does not hold the workspace's lock";
    EXPECT_EQ(result.outcome, Outcome::Ok) << result.message << result.stderrText;
    EXPECT_TRUE(lockIsFree(lockFile, true)) << "the lock outlived the run";
}

TEST(WorkspaceLending, AWorkspaceLentAlreadyIsNotLentAgain)
{
    if (::geteuid() != 0)
        GTEST_SKIP() << "only a root caller's runs are lent a workspace (transient uids)";
    TempDir root;
    const fs::path workspace = root.path() / "workspace";
    fs::create_directories(workspace);
    writeFile(workspace / "theirs.txt", "another run's\n");
    constexpr uid_t kOtherRun = kTransientIdBase + 4242;
    ASSERT_EQ(::chown(workspace.c_str(), kOtherRun, kOtherRun), 0);
    ASSERT_EQ(::chown((workspace / "theirs.txt").c_str(), kOtherRun, kOtherRun), 0);
    const auto r = Runner().run(inWorkspace(workspace, "open('theirs.txt', 'w').write('mine')\n"));
    EXPECT_EQ(r.outcome, Outcome::InternalError) << r.message;
    EXPECT_NE(r.message.text().find("lent to another run"), std::string::npos) << r.message;
    EXPECT_EQ(ownerOf(workspace), kOtherRun);
    EXPECT_EQ(ownerOf(workspace / "theirs.txt"), kOtherRun);
    EXPECT_EQ(std::vector<fs::path>(fs::directory_iterator(workspace), {}).size(), 1u); // no job folder left
}

// A workspace of someone else than root (a user's sandbox, run by root): the run gets its job folder and the
// workspace, and everything goes back to that user, also files the run gave a second name.
TEST(WorkspaceLending, WhatTheRunMadeGoesBackToTheWorkspacesOwner)
{
    if (::geteuid() != 0)
        GTEST_SKIP() << "only a root caller's runs are lent a workspace (transient uids)";
    TempDir root;
    const fs::path workspace = root.path() / "workspace";
    fs::create_directories(workspace / "data");
    writeFile(workspace / "data" / "in.txt", "in\n");
    for (const fs::path& p : {workspace, workspace / "data", workspace / "data" / "in.txt"})
        ASSERT_EQ(::chown(p.c_str(), kSomeUser, kSomeUser), 0);
    const auto r = Runner().run(inWorkspace(workspace, "import os\n"
                                                       "open('out.txt', 'w').write(open('data/in.txt').read())\n"
                                                       "os.link('out.txt', 'data/second-name.txt')\n"
                                                       "os.mkdir('made')\n"
                                                       "print('done')\n"));
    ASSERT_EQ(r.outcome, Outcome::Ok) << r.message << r.stderrText;
    EXPECT_EQ(r.stdoutText, "done\n");
    for (const fs::path& p : {workspace, workspace / "data", workspace / "data" / "in.txt", workspace / "out.txt",
                              workspace / "data" / "second-name.txt", workspace / "made"})
        EXPECT_EQ(ownerOf(p), kSomeUser) << p;
}

TEST(WorkspaceLending, ReclaimGivesBackEveryTransientEntryAndLeavesOthersAlone)
{
    if (::geteuid() != 0)
        GTEST_SKIP() << "giving back a transient uid's files needs root";
    TempDir root;
    const fs::path workspace = root.path() / "workspace";
    fs::create_directories(workspace / "deep" / "er");
    writeFile(workspace / "deep" / "er" / "run.txt", "a run's\n");
    writeFile(workspace / "users.txt", "a user's\n");
    for (const fs::path& p :
         {workspace, workspace / "deep", workspace / "deep" / "er", workspace / "deep" / "er" / "run.txt"})
        ASSERT_EQ(::chown(p.c_str(), kTransientIdBase + 1, kTransientIdBase + 1), 0);
    ASSERT_EQ(::chown((workspace / "users.txt").c_str(), kSomeUser, kSomeUser), 0);
    EXPECT_EQ(lending::lentTo(workspace), kTransientIdBase + 1);
    ASSERT_TRUE(lending::reclaim(workspace, {0, 0}));
    EXPECT_EQ(lending::lentTo(workspace), 0u);
    for (const fs::path& p :
         {workspace, workspace / "deep", workspace / "deep" / "er", workspace / "deep" / "er" / "run.txt"})
        EXPECT_EQ(ownerOf(p), 0u) << p;
    EXPECT_EQ(ownerOf(workspace / "users.txt"), kSomeUser);
}

} // namespace
