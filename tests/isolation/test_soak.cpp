// Soak: thousands of runs in a row leave nothing behind — no process, no descriptor, no thread, no mount,
// no work dir, no zombie. (PRODUCT.md holds us to 10 000; 2 000 keeps this an ordinary test of seconds.)

#include "proc_scan.h"
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <dirent.h>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

using namespace sb;
using namespace sb::test;
namespace fs = std::filesystem;

namespace {

// Under AddressSanitizer, where a run costs five times as much, 500: a leak of anything per run shows as well.
#if defined(__SANITIZE_ADDRESS__)
constexpr int kRuns = 500;
#else
constexpr int kRuns = 2000;
#endif
constexpr int kBackgroundEvery = 200; // every 200th run leaves a background process for the launcher to kill

std::size_t countEntries(const fs::path& dir)
{
    std::error_code ec;
    std::size_t n = 0;
    for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
        ++n;
    return n;
}

std::size_t countLines(const fs::path& file)
{
    std::ifstream in(file);
    std::size_t n = 0;
    for (std::string line; std::getline(in, line);)
        ++n;
    return n;
}

struct ProcessScan {
    std::size_t ourChildren = 0;   // processes whose parent is this test process (zombies included)
    std::size_t withMarker = 0;    // processes carrying the soak's marker in their command line
};

ProcessScan scanProcesses(const std::string& marker)
{
    ProcessScan scan;
    const std::string self = std::to_string(::getpid());
    for (const pid_t pid : allPids()) {
        const std::string dir = "/proc/" + std::to_string(pid);
        const std::string stat = readWhole(dir + "/stat");
        const auto close = stat.rfind(')');
        if (close != std::string::npos) {
            char state = 0;
            int ppid = 0;
            if (std::sscanf(stat.c_str() + close + 1, " %c %d", &state, &ppid) == 2 && std::to_string(ppid) == self)
                ++scan.ourChildren;
        }
        if (readWhole(dir + "/cmdline").find(marker) != std::string::npos)
            ++scan.withMarker;
    }
    return scan;
}

} // namespace

TEST(Soak, ThousandsOfRunsLeaveNothingBehind)
{
    TempDir root;
    // The runs' own identities (root callers) must be able to pass through the work root.
    fs::permissions(root.path(), fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec);
    const std::string marker = "sandbench-soak-" + std::to_string(::getpid());

    const Runner runner(RunnerOptions{{}, root.path()});
    Policy quick;
    quick.limits.wallMs = 5000;
    Policy background = bashPolicy();
    background.limits.wallMs = 5000;
    const RunRequest colon{Language::Shell, ":\n", quick, "soak"};
    const RunRequest leaver{Language::Shell, "(exec -a " + marker + " sleep 60) &\n:\n", background, "soak"};

    // A warm-up run, so that lazily opened descriptors (none expected) are counted in the baseline.
    ASSERT_EQ(runner.run(colon).outcome, Outcome::Ok);
    const std::size_t fdsBefore = countEntries("/proc/self/fd");
    const std::size_t threadsBefore = countEntries("/proc/self/task");
    const std::size_t mountsBefore = countLines("/proc/self/mountinfo");
    const ProcessScan before = scanProcesses(marker);

    int failures = 0;
    std::string firstFailure;
    for (int i = 0; i < kRuns; ++i) {
        const bool leave = i % kBackgroundEvery == kBackgroundEvery - 1;
        const auto r = runner.run(leave ? leaver : colon);
        if (r.outcome != Outcome::Ok || !r.stdoutText.empty()) {
            if (failures++ == 0)
                firstFailure = "run " + std::to_string(i) + ": " + std::string(toString(r.outcome)) + " "
                               + r.message.text() + " " + r.stderrText;
        }
    }

    EXPECT_EQ(failures, 0) << firstFailure;
    EXPECT_EQ(countEntries("/proc/self/fd"), fdsBefore) << "descriptors leaked in the caller";
    EXPECT_EQ(countEntries("/proc/self/task"), threadsBefore) << "threads left in the caller";
    EXPECT_EQ(countLines("/proc/self/mountinfo"), mountsBefore) << "mounts appeared";
    EXPECT_EQ(countEntries(root.path()), 0u) << "a sandbench-run-* work dir was left in " << root.path();
    const ProcessScan after = scanProcesses(marker);
    EXPECT_EQ(after.withMarker, 0u) << "a background process of a run survived it";
    EXPECT_EQ(after.ourChildren, before.ourChildren) << "a launcher or zombie was left";
    // No zombie: no child ended without being reaped (the launcher zygote, zygote.h, is a live child).
    errno = 0;
    const pid_t unreaped = ::waitpid(-1, nullptr, WNOHANG);
    EXPECT_TRUE(unreaped == 0 || (unreaped == -1 && errno == ECHILD)) << "an unreaped child of the caller";
}
