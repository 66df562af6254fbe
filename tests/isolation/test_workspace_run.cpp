// Runs in a sandbox's workspace (RunRequest::workspace): the run works in that folder and leaves its files
// there, at every level this machine offers, and nothing else changes: no escape through it, no job files
// left, ownership as before, and disk_mb counting only what the run adds.

#include "isolation/doctor.h"
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

using namespace sb;
using namespace sb::test;
namespace fs = std::filesystem;

namespace {

std::vector<IsolationLevel> levels()
{
    std::vector<IsolationLevel> out;
    for (auto level : {IsolationLevel::Process, IsolationLevel::Container, IsolationLevel::Strict}) {
        if (highestAvailableLevel() >= level)
            out.push_back(level);
    }
    return out;
}

void writeFile(const fs::path& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary);
    out << bytes;
}

std::string readFile(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), {});
}

RunResult runIn(const fs::path& workspace, Language language, const std::string& source, IsolationLevel level,
                Policy policy = {})
{
    policy.level = level;
    RunRequest request{language, source, std::move(policy), "workspace"};
    request.workspace = workspace;
    return Runner().run(request);
}

// Every entry below `dir` (and dir itself) has the owner of `dir`'s parent's creator: the caller.
std::vector<std::string> entriesNotOwnedBy(const fs::path& dir, uid_t uid)
{
    std::vector<std::string> out;
    struct stat st {};
    if (::lstat(dir.c_str(), &st) == 0 && st.st_uid != uid)
        out.push_back(dir.string());
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
        if (::lstat(it->path().c_str(), &st) == 0 && st.st_uid != uid)
            out.push_back(it->path().string());
    }
    return out;
}

class WorkspaceRun : public ::testing::TestWithParam<IsolationLevel> {};

TEST_P(WorkspaceRun, WorksInTheFolderAndLeavesItsFilesThere)
{
    TempDir root;
    const fs::path workspace = root.path() / "workspace";
    fs::create_directories(workspace / "data");
    writeFile(workspace / "data" / "in.txt", "forty-two\n");
    const auto r = runIn(workspace, Language::Python,
                         "import pathlib\n"
                         "text = pathlib.Path('data/in.txt').read_text()\n"
                         "pathlib.Path('out.txt').write_text(text.upper())\n"
                         "pathlib.Path('made/deeper').mkdir(parents=True)\n"
                         "print(text.strip())\n",
                         GetParam());
    ASSERT_EQ(r.outcome, Outcome::Ok) << r.message << r.stderrText;
    EXPECT_EQ(r.stdoutText, "forty-two\n");
    EXPECT_EQ(readFile(workspace / "out.txt"), "FORTY-TWO\n");
    EXPECT_TRUE(fs::is_directory(workspace / "made" / "deeper"));
    EXPECT_EQ(readFile(workspace / "data" / "in.txt"), "forty-two\n");
    // The job's own files are gone; the workspace and everything in it belong to its owner again.
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(workspace))
        names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"data", "made", "out.txt"}));
    EXPECT_EQ(entriesNotOwnedBy(workspace, ::geteuid()), std::vector<std::string>{});
}

// A command has no file of its own, so its run makes no job folder: what it lists (and what a checkpoint taken
// while it runs walks) is the workspace alone. A snippet's run sees its own job folder beside the files.
TEST_P(WorkspaceRun, OnlyASnippetRunHasAJobFolder)
{
    TempDir root;
    const fs::path workspace = root.path() / "workspace";
    fs::create_directories(workspace);
    writeFile(workspace / "kept.txt", "kept\n");

    Policy policy = bashPolicy();
    policy.level = GetParam();
    RunRequest request{Language::Command, "ls -A", policy, "workspace"};
    request.command = {"ls", "-A"};
    request.workspace = workspace;
    const auto command = Runner().run(request);
    ASSERT_EQ(command.outcome, Outcome::Ok) << command.message << command.stderrText;
    EXPECT_EQ(command.stdoutText, "kept.txt\n");

    const auto snippet = runIn(workspace, Language::Python,
                               "import pathlib\nprint(sorted(p.name[:15] for p in pathlib.Path('.').iterdir()))\n", GetParam());
    ASSERT_EQ(snippet.outcome, Outcome::Ok) << snippet.message << snippet.stderrText;
    EXPECT_EQ(snippet.stdoutText, "['.sandbench-run-', 'kept.txt']\n");

    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(workspace))
        names.push_back(e.path().filename().string());
    EXPECT_EQ(names, std::vector<std::string>{"kept.txt"});
}

TEST_P(WorkspaceRun, NothingOutsideTheWorkspaceIsWritable)
{
    TempDir root;
    const fs::path workspace = root.path() / "workspace";
    fs::create_directories(workspace);
    writeFile(root.path() / "beside.txt", "keep\n");
    fs::create_symlink(root.path(), workspace / "up");
    const auto r = runIn(workspace, Language::Shell,
                         "echo changed > ../beside.txt\n"
                         "echo changed > up/beside.txt\n"
                         "echo new > up/new.txt\n"
                         "echo new > ../new.txt\n"
                         "exit 0\n",
                         GetParam(), bashPolicy());
    EXPECT_NE(r.outcome, Outcome::InternalError) << r.message;
    EXPECT_EQ(readFile(root.path() / "beside.txt"), "keep\n");
    EXPECT_FALSE(fs::exists(root.path() / "new.txt"));
    EXPECT_TRUE(fs::is_symlink(workspace / "up")); // left as it was
}

TEST_P(WorkspaceRun, DiskQuotaCountsWhatTheRunAdds)
{
    TempDir root;
    const fs::path workspace = root.path() / "workspace";
    fs::create_directories(workspace);
    writeFile(workspace / "big.bin", std::string(3 << 20, 'x')); // already more than the quota
    Policy policy;
    policy.limits.diskMb = 1;
    const auto small = runIn(workspace, Language::Python, "open('small.bin', 'wb').write(b'y' * 100_000)\n",
                             GetParam(), policy);
    EXPECT_EQ(small.outcome, Outcome::Ok) << small.message << small.stderrText;
    const auto large = runIn(workspace, Language::Python,
                             "import time\n"
                             "with open('large.bin', 'wb') as f:\n"
                             "    for _ in range(40):\n"
                             "        f.write(b'z' * (256 * 1024)); f.flush(); time.sleep(0.01)\n"
                             "time.sleep(2)\n",
                             GetParam(), policy);
    EXPECT_EQ(large.outcome, Outcome::Blocked) << large.message;
    EXPECT_TRUE(hasBlocked(large, "disk", "")) << large.message;
    EXPECT_EQ(fs::file_size(workspace / "big.bin"), 3u << 20); // what was there is untouched
}

INSTANTIATE_TEST_SUITE_P(Levels, WorkspaceRun, ::testing::ValuesIn(levels()),
                         [](const auto& levelInfo) { return std::string(toString(levelInfo.param)); });

TEST(WorkspaceRunRefusal, NotAFolderIsRefused)
{
    TempDir root;
    writeFile(root.path() / "file", "x");
    fs::create_directories(root.path() / "real");
    fs::create_symlink(root.path() / "real", root.path() / "link");
    for (const fs::path& bad : {root.path() / "file", root.path() / "link", root.path() / "missing", fs::path("relative")}) {
        const auto r = runIn(bad, Language::Shell, "echo hi\n", IsolationLevel::Process);
        EXPECT_EQ(r.outcome, Outcome::InternalError) << bad;
        EXPECT_NE(r.message.text().find("is not a folder"), std::string::npos) << r.message;
    }
}

TEST(WorkspaceRunRefusal, AFileWithOtherHardLinksIsNotLentToTheRun)
{
    if (::geteuid() != 0)
        GTEST_SKIP() << "only a root caller lends the workspace to a transient identity";
    TempDir root;
    const fs::path workspace = root.path() / "workspace";
    fs::create_directories(workspace);
    writeFile(root.path() / "outside.txt", "outside\n");
    fs::create_hard_link(root.path() / "outside.txt", workspace / "linked.txt");
    const auto r = runIn(workspace, Language::Shell, "echo changed > linked.txt\n", IsolationLevel::Process);
    EXPECT_NE(r.outcome, Outcome::Ok);
    EXPECT_EQ(readFile(root.path() / "outside.txt"), "outside\n");
    struct stat st {};
    ASSERT_EQ(::stat((root.path() / "outside.txt").c_str(), &st), 0);
    EXPECT_EQ(st.st_uid, 0u);
}

} // namespace
