// The warm pool: pooled runs are the runs cold starts would be (outcomes, blocked events, layers), each
// sandbox serves one run, the wall clock starts at the handover, nothing is left when the pool or its owner
// goes, and Runners on several threads share a pool.

#include "proc_scan.h"
#include "run_helpers.h"

#include "isolation/doctor.h"
#include "launch.h"
#include "launcher_process.h"
#include "isolation/warm_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <dirent.h>
#include <fstream>
#include <set>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace sb;
using namespace sb::test;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

bool levelAvailable(IsolationLevel level)
{
    return highestAvailableLevel() >= level;
}

std::size_t entriesIn(const fs::path& dir)
{
    std::error_code ec;
    std::size_t n = 0;
    for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator(); it.increment(ec))
        ++n;
    return n;
}

// A work root the runs' own identities (root callers) can pass through.
class WorkRoot : public TempDir {
public:
    WorkRoot() { fs::permissions(path(), fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec); }
};

struct Pooled {
    std::shared_ptr<WarmPool> pool;
    Runner runner;
};

Pooled makePooled(const RunRequest& prototype, const fs::path& workRoot, std::size_t size = 2,
                  std::chrono::milliseconds refillGrace = WarmPoolOptions{}.refillGrace)
{
    WarmPoolOptions options;
    options.prototype = prototype;
    options.size = size;
    options.refillGrace = refillGrace;
    options.runner.workRoot = workRoot;
    auto pool = std::make_shared<WarmPool>(options);
    RunnerOptions runnerOptions;
    runnerOptions.workRoot = workRoot;
    runnerOptions.warmPool = pool;
    return {pool, Runner(runnerOptions)};
}

RunRequest request(Language language, std::string source, IsolationLevel level, Policy policy = {})
{
    policy.level = level;
    return RunRequest{language, std::move(source), std::move(policy), "pool"};
}

std::string describe(const RunResult& r)
{
    std::string text = std::string(toString(r.outcome)) + ": " + r.message.text() + " | stdout: " + r.stdoutText
                       + " | stderr: " + r.stderrText;
    for (const auto& b : r.blocked)
        text += " | blocked " + b.kind + " " + b.detail;
    return text;
}

// Starts `request` on a thread of its own and returns once it has taken a sandbox; `ended` turns true when
// the run is over (and it ended ok).
std::thread runWithSandboxTaken(Pooled& pooled, const RunRequest& request, std::atomic<bool>& ended)
{
    const auto before = pooled.pool->stats().handedOut;
    std::thread run([&pooled, request, &ended] {
        const auto r = pooled.runner.run(request);
        EXPECT_EQ(r.outcome, Outcome::Ok) << describe(r);
        ended = true;
    });
    while (pooled.pool->stats().handedOut == before)
        std::this_thread::sleep_for(1ms);
    return run;
}

// The body of OwnersDeathLeavesNothing, for a pool of `language`'s runs.
void expectOwnersDeathLeavesNothing(Language language)
{
    const IsolationLevel level =
        levelAvailable(IsolationLevel::Container) ? IsolationLevel::Container : IsolationLevel::Process;
    WorkRoot root;
    int ready[2];
    ASSERT_EQ(::pipe(ready), 0);
    const pid_t owner = ::fork();
    ASSERT_GE(owner, 0);
    if (owner == 0) {
        ::close(ready[0]);
        auto pooled = makePooled(request(language, language == Language::Shell ? ":\n" : "pass\n", level), root.path(), 3);
        const bool ok = pooled.pool->waitUntilReady(10s);
        const pid_t zygote = launcherZygotePid(*pooled.runner.launcher());
        const int report[2] = {ok ? 1 : 0, zygote};
        [[maybe_unused]] const ssize_t n = ::write(ready[1], report, sizeof report);
        ::pause();
        ::_exit(0);
    }
    ::close(ready[1]);
    int report[2] = {0, 0};
    const bool heard = ::read(ready[0], report, sizeof report) == sizeof report;
    ::close(ready[0]);
    ::kill(owner, SIGKILL);
    ::waitpid(owner, nullptr, 0);
    ASSERT_TRUE(heard && report[0] == 1) << "the owner's pool did not get ready";
    // Running (not gone, not a zombie waiting for its new parent to reap it).
    auto running = [](pid_t pid) {
        std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
        std::string line;
        std::getline(stat, line);
        const auto close = line.rfind(')');
        return close != std::string::npos && close + 2 < line.size() && line[close + 2] != 'Z';
    };
    ASSERT_GT(report[1], 0) << "the owner had no zygote";
    bool clean = false;
    for (int i = 0; i < 100 && !clean; ++i) {
        clean = entriesIn(root.path()) == 0 && !running(report[1]);
        if (!clean)
            std::this_thread::sleep_for(50ms);
    }
    EXPECT_EQ(entriesIn(root.path()), 0u) << "work dirs of the dead owner's pool were left";
    EXPECT_FALSE(running(report[1])) << "the dead owner's zygote is still there";
}

} // namespace

class WarmPoolAtLevel : public ::testing::TestWithParam<IsolationLevel> {};

// The same requests, cold and pooled: the same outcome, exit, output, refusals and layers.
TEST_P(WarmPoolAtLevel, PooledRunsAreTheRunsColdStartsWouldBe)
{
    const IsolationLevel level = GetParam();
    if (!levelAvailable(level))
        GTEST_SKIP() << toString(level) << " is not available here";
    WorkRoot root;
    Policy shortWall;
    shortWall.limits.wallMs = 400;
    const std::vector<RunRequest> requests = {
        request(Language::Python, "print(6 * 7)\n", level),
        request(Language::Python, "import socket\n", level),
        request(Language::Python, "import ctypes, os\nprint(os.getuid() >= 0)\n", level),
        request(Language::Python, "raise SystemExit(3)\n", level),
        request(Language::Python, "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n", level),
        request(Language::Python, "while True:\n    pass\n", level, shortWall),
        request(Language::Python,
                "import _socket\ntry:\n    _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)\nexcept OSError as e:\n"
                "    print('refused', e.errno)\n",
                level),
    };
    RunnerOptions coldOptions;
    coldOptions.workRoot = root.path();
    const Runner cold(coldOptions);
    for (const auto& req : requests) {
        auto pooled = makePooled(req, root.path(), 1);
        ASSERT_TRUE(pooled.pool->waitUntilReady(10s)) << pooled.pool->lastError();
        const auto p = pooled.runner.run(req);
        EXPECT_EQ(pooled.pool->stats().handedOut, 1u) << "the run did not come from the pool";
        const auto c = cold.run(req);
        SCOPED_TRACE(req.source);
        EXPECT_EQ(p.outcome, c.outcome) << "pooled " << describe(p) << "\ncold " << describe(c);
        EXPECT_EQ(p.exitCode, c.exitCode);
        EXPECT_EQ(p.signal, c.signal);
        EXPECT_EQ(p.stdoutText, c.stdoutText);
        EXPECT_EQ(p.blocked, c.blocked);
        EXPECT_EQ(p.isolation.level, c.isolation.level);
        EXPECT_EQ(p.isolation.layers, c.isolation.layers);
        EXPECT_EQ(p.message, c.message);
    }
}

INSTANTIATE_TEST_SUITE_P(Levels, WarmPoolAtLevel,
                         ::testing::Values(IsolationLevel::Process, IsolationLevel::Container, IsolationLevel::Strict),
                         [](const auto& level) { return std::string(toString(level.param)); });

// Each sandbox serves one run: new ids, new work dirs, nothing a run leaves in /work, /tmp or /dev/shm is
// seen by the next one, and every work dir is gone after its run.
TEST(WarmPool, NoSandboxServesTwoRuns)
{
    if (!levelAvailable(IsolationLevel::Container))
        GTEST_SKIP() << "container is not available here";
    WorkRoot root;
    const auto req = request(Language::Shell,
                             "for f in /work/left /tmp/left /dev/shm/left; do [ -e $f ] && echo SEEN $f; done\n"
                             "echo x > /work/left; echo x > /tmp/left; echo x > /dev/shm/left; pwd\n",
                             IsolationLevel::Container);
    auto pooled = makePooled(req, root.path(), 2);
    ASSERT_TRUE(pooled.pool->waitUntilReady(10s)) << pooled.pool->lastError();
    std::set<std::string> ids;
    for (int i = 0; i < 6; ++i) {
        ASSERT_TRUE(pooled.pool->waitUntilReady(10s)) << pooled.pool->lastError();
        const auto r = pooled.runner.run(req);
        // /dev/shm is the sandbox's own but not writable: the refusal is reported (a `path` event).
        ASSERT_EQ(r.outcome, Outcome::Blocked) << describe(r);
        EXPECT_EQ(r.blocked.size(), 1u) << describe(r);
        EXPECT_EQ(r.stdoutText, "/work\n") << "a run saw what the one before left";
        EXPECT_TRUE(ids.insert(r.runId).second) << "run id " << r.runId << " twice";
        EXPECT_FALSE(fs::exists(root.path() / ("sandbench-run-" + r.runId))) << "work dir left after the run";
    }
    EXPECT_EQ(pooled.pool->stats().handedOut, 6u);
}

// A sandbox handed to a run is replaced once that run has ended, not while it starts (refillGrace).
TEST(WarmPool, AReplacementWaitsForTheRunItReplaces)
{
    WorkRoot root;
    const auto req = request(Language::Shell, "sleep 1\n", IsolationLevel::Process);
    auto pooled = makePooled(req, root.path(), 1, 60s);
    ASSERT_TRUE(pooled.pool->waitUntilReady(10s)) << pooled.pool->lastError();
    std::atomic<bool> ended = false;
    std::thread run = runWithSandboxTaken(pooled, req, ended);
    std::this_thread::sleep_for(300ms);
    const auto during = pooled.pool->stats();
    EXPECT_FALSE(ended);
    EXPECT_EQ(during.ready, 0u);
    EXPECT_EQ(during.starting, 0u) << "the replacement was prepared while its run started";
    run.join();
    // Well before the grace has passed: the run's end was the signal.
    EXPECT_TRUE(pooled.pool->waitUntilReady(10s)) << pooled.pool->lastError();
}

// In a burst (a run found the pool empty) taken sandboxes are replaced at once, runs still going or not.
TEST(WarmPool, InABurstSandboxesAreReplacedAtOnce)
{
    WorkRoot root;
    const auto req = request(Language::Shell, "sleep 4\n", IsolationLevel::Process);
    auto pooled = makePooled(req, root.path(), 1, 60s);
    ASSERT_TRUE(pooled.pool->waitUntilReady(10s)) << pooled.pool->lastError();
    std::atomic<bool> ended = false;
    std::thread first = runWithSandboxTaken(pooled, req, ended);
    // The pool is empty: this run starts cold, and the first run's sandbox is replaced now.
    const auto quick = request(Language::Shell, "echo cold\n", IsolationLevel::Process);
    const auto r = pooled.runner.run(quick);
    EXPECT_EQ(r.stdoutText, "cold\n") << describe(r);
    EXPECT_EQ(pooled.pool->stats().handedOut, 1u);
    EXPECT_TRUE(pooled.pool->waitUntilReady(3s)) << pooled.pool->lastError();
    EXPECT_FALSE(ended) << "the replacement waited for the run after all";
    first.join();
}

// The wall clock starts when the job is handed over, not when the sandbox was prepared.
TEST(WarmPool, WallClockStartsAtTheHandover)
{
    WorkRoot root;
    Policy p;
    p.limits.wallMs = 1000;
    const auto req = request(Language::Shell, "sleep 0.3; echo done\n", IsolationLevel::Process, p);
    auto pooled = makePooled(req, root.path(), 1);
    ASSERT_TRUE(pooled.pool->waitUntilReady(10s)) << pooled.pool->lastError();
    std::this_thread::sleep_for(1500ms);
    const auto r = pooled.runner.run(req);
    EXPECT_EQ(pooled.pool->stats().handedOut, 1u);
    EXPECT_EQ(r.outcome, Outcome::Ok) << describe(r);
    EXPECT_EQ(r.stdoutText, "done\n");
    EXPECT_GE(r.durationMs, 300.0);
    EXPECT_LT(r.durationMs, 1000.0);
    // And the limit still holds from there.
    const auto slow = request(Language::Shell, "sleep 5\n", IsolationLevel::Process, p);
    auto pooledSlow = makePooled(slow, root.path(), 1);
    ASSERT_TRUE(pooledSlow.pool->waitUntilReady(10s)) << pooledSlow.pool->lastError();
    const auto t = pooledSlow.runner.run(slow);
    EXPECT_EQ(t.outcome, Outcome::Timeout) << describe(t);
    EXPECT_GE(t.durationMs, 1000.0);
    EXPECT_LT(t.durationMs, 2000.0);
}

// Runs the pool was not made for start cold, and are the runs they would be without it.
TEST(WarmPool, OtherRequestsStartCold)
{
    WorkRoot root;
    auto pooled = makePooled(request(Language::Python, "pass\n", IsolationLevel::Process), root.path(), 1);
    ASSERT_TRUE(pooled.pool->waitUntilReady(10s)) << pooled.pool->lastError();
    Policy other;
    other.limits.memoryMb = 300;
    const auto otherPolicy = request(Language::Python, "print('other')\n", IsolationLevel::Process, other);
    EXPECT_FALSE(pooled.pool->serves(otherPolicy));
    EXPECT_TRUE(pooled.pool->serves(request(Language::Python, "print('any source')\n", IsolationLevel::Process)));
    EXPECT_EQ(pooled.runner.run(otherPolicy).stdoutText, "other\n");
    EXPECT_EQ(pooled.pool->stats().handedOut, 0u);
    EXPECT_EQ(pooled.pool->stats().ready, 1u);
    // The program comes with the job: a shell snippet under the same policy takes the same sandbox.
    const auto shell = request(Language::Shell, "echo shell\n", IsolationLevel::Process);
    EXPECT_TRUE(pooled.pool->serves(shell));
    EXPECT_EQ(pooled.runner.run(shell).stdoutText, "shell\n");
    EXPECT_EQ(pooled.pool->stats().handedOut, 1u);
}

// A pool that cannot prepare what it was made for says why, and runs go cold (and are refused as they
// would be without it).
TEST(WarmPool, APoolThatCannotPrepareSaysWhy)
{
    WorkRoot root;
    WarmPoolOptions options;
    options.prototype = request(Language::Shell, "echo hi\n", IsolationLevel::Container);
    options.runner.workRoot = root.path();
    options.runner.availableLevel = IsolationLevel::Process;
    const auto pool = std::make_shared<WarmPool>(options);
    EXPECT_FALSE(pool->waitUntilReady(200ms));
    EXPECT_NE(pool->lastError().find("not available"), std::string::npos) << pool->lastError();
    RunnerOptions runnerOptions = options.runner;
    runnerOptions.warmPool = pool;
    const auto r = Runner(runnerOptions).run(options.prototype);
    EXPECT_EQ(r.outcome, Outcome::InternalError);
    EXPECT_NE(r.message.text().find("not available"), std::string::npos) << r.message;
}

// A Python snippet's pooled container starts its interpreter ahead: it waits in the sandbox, with every layer,
// before any run; the snippet finds nothing of that wait (descriptor 3 is gone); the wall clock starts at the
// handover and the limit holds from there; destroying the pool ends every interpreter still waiting.
TEST(WarmPool, APythonInterpreterStartsAheadAndWaitsForItsRun)
{
    if (!levelAvailable(IsolationLevel::Container))
        GTEST_SKIP() << "container is not available here";
    WorkRoot root;
    Policy policy;
    policy.limits.wallMs = 1000;
    // In the interpreter's command line (the prelude lists it): tells this test's interpreters from any other's.
    const std::string marker = "sb_ahead_" + std::to_string(::getpid());
    policy.blockedImports.push_back(marker);
    const auto sleeper = request(Language::Python,
                                 "import io, time\ntime.sleep(0.3)\ntry:\n    io.open(3, 'rb', closefd=False)\n"
                                 "    print('descriptor 3 is open')\nexcept OSError:\n    print('done')\n",
                                 IsolationLevel::Container, policy);
    auto waiting = [&](std::size_t expected) {
        std::vector<pid_t> found;
        for (int i = 0; i < 500; ++i) {
            found = processesWithMarker(marker);
            if (found.size() == expected)
                break;
            std::this_thread::sleep_for(10ms);
        }
        return found;
    };
    {
        auto pooled = makePooled(sleeper, root.path(), 2);
        ASSERT_TRUE(pooled.pool->waitUntilReady(10s)) << pooled.pool->lastError();
        const auto interpreters = waiting(2);
        ASSERT_EQ(interpreters.size(), 2u) << "no interpreter waits in the pool's sandboxes";
        for (const pid_t pid : interpreters) {
            const std::string status = readWhole("/proc/" + std::to_string(pid) + "/status");
            EXPECT_NE(status.find("NoNewPrivs:\t1"), std::string::npos) << status;
            EXPECT_NE(status.find("Seccomp:\t2"), std::string::npos) << "waits without its filter:\n" << status;
        }
        std::this_thread::sleep_for(1500ms);
        const auto r = pooled.runner.run(sleeper);
        EXPECT_EQ(pooled.pool->stats().handedOut, 1u) << "the run did not come from the pool";
        EXPECT_EQ(r.outcome, Outcome::Ok) << describe(r);
        EXPECT_EQ(r.stdoutText, "done\n");
        EXPECT_GE(r.durationMs, 300.0);
        EXPECT_LT(r.durationMs, 1000.0) << "the wall clock ran while the interpreter waited";

        auto spinner = sleeper;
        spinner.source = "while True:\n    pass\n";
        const auto t = pooled.runner.run(spinner);
        EXPECT_EQ(pooled.pool->stats().handedOut, 2u) << "the run did not come from the pool";
        EXPECT_EQ(t.outcome, Outcome::Timeout) << describe(t);
        EXPECT_GE(t.durationMs, 1000.0);
        EXPECT_LT(t.durationMs, 2000.0);
        ASSERT_TRUE(pooled.pool->waitUntilReady(10s)) << "replenished after the runs";
    }
    EXPECT_EQ(waiting(0).size(), 0u) << "an interpreter of the destroyed pool is still there";
    EXPECT_EQ(entriesIn(root.path()), 0u) << "work dirs of the pool's sandboxes were left";
}

// A program started ahead runs the job it was started for and no other: the launcher refuses any other job
// (here: the same snippet without the import guard), and nothing runs.
TEST(WarmPool, AProgramStartedAheadTakesNoOtherJob)
{
    if (!levelAvailable(IsolationLevel::Container))
        GTEST_SKIP() << "container is not available here";
    WorkRoot root;
    RunnerOptions options;
    options.workRoot = root.path();
    const auto guarded = request(Language::Python, "print('ran')\n", IsolationLevel::Container);
    auto plan = launch::makePlan(guarded, options);
    ASSERT_TRUE(plan) << plan.error().message;
    ASSERT_TRUE(plan->spec.programAhead);
    auto unguarded = guarded;
    unguarded.policy.importGuard = false;
    auto other = launch::makePlan(unguarded, options);
    ASSERT_TRUE(other) << other.error().message;
    EXPECT_FALSE(launch::sameShape(*plan, *other)) << "a pool would hand this sandbox to the other run";
    auto started = launch::start(*plan, true);
    ASSERT_TRUE(started) << started.error().message;
    const auto r = launch::runJob(std::move(*started), *other, unguarded, nullptr, {});
    EXPECT_EQ(r.outcome, Outcome::InternalError) << describe(r);
    EXPECT_NE(r.message.text().find("not the job its program was started ahead for"), std::string::npos)
        << describe(r);
    EXPECT_EQ(r.stdoutText, "");
    EXPECT_EQ(entriesIn(root.path()), 0u) << "the refused sandbox's work dir was left";
}

// Destroying the pool ends its idle sandboxes: no process, work dir, mount or descriptor is left.
TEST(WarmPool, DestroyingThePoolLeavesNothing)
{
    const IsolationLevel level =
        levelAvailable(IsolationLevel::Container) ? IsolationLevel::Container : IsolationLevel::Process;
    WorkRoot root;
    const auto req = request(Language::Shell, ":\n", level);
    // A run first, so that the zygote and anything opened once per process count in the baseline.
    {
        RunnerOptions o;
        o.workRoot = root.path();
        ASSERT_EQ(Runner(o).run(req).outcome, Outcome::Ok);
    }
    const auto fdsBefore = entriesIn("/proc/self/fd");
    const auto threadsBefore = entriesIn("/proc/self/task");
    auto mountInfo = [] {
        std::ifstream in("/proc/self/mountinfo");
        return std::string((std::istreambuf_iterator<char>(in)), {});
    };
    const std::string mountInfoBefore = mountInfo();
    const Runner probe;
    const pid_t zygote = launcherZygotePid(*probe.launcher());
    ASSERT_GT(zygote, 0) << "no launcher zygote";
    auto zygoteChildren = [&] {
        std::size_t n = 0;
        DIR* proc = ::opendir("/proc");
        while (const dirent* e = proc ? ::readdir(proc) : nullptr) {
            std::ifstream stat(std::string("/proc/") + e->d_name + "/stat");
            std::string line;
            std::getline(stat, line);
            const auto close = line.rfind(')');
            int ppid = 0;
            char state = 0;
            if (close != std::string::npos && std::sscanf(line.c_str() + close + 1, " %c %d", &state, &ppid) == 2
                && ppid == zygote && state != 'Z')
                ++n;
        }
        if (proc)
            ::closedir(proc);
        return n;
    };
    // A launcher ends on its own after its result (the zygote reaps it): let the warm-up run's go.
    auto settled = [&](std::size_t expected) {
        for (int i = 0; i < 200 && zygoteChildren() != expected; ++i)
            std::this_thread::sleep_for(10ms);
        return zygoteChildren();
    };
    const auto launchersBefore = settled(0);
    {
        auto pooled = makePooled(req, root.path(), 3);
        ASSERT_TRUE(pooled.pool->waitUntilReady(10s)) << pooled.pool->lastError();
        EXPECT_EQ(entriesIn(root.path()), 3u) << "one work dir per prepared sandbox";
        EXPECT_EQ(settled(launchersBefore + 3), launchersBefore + 3);
        ASSERT_EQ(pooled.runner.run(req).outcome, Outcome::Ok);
        ASSERT_TRUE(pooled.pool->waitUntilReady(10s)) << "replenished after the run";
    }
    EXPECT_EQ(entriesIn(root.path()), 0u) << "work dirs of the pool's sandboxes were left";
    EXPECT_EQ(entriesIn("/proc/self/fd"), fdsBefore) << "descriptors leaked in the caller";
    // A thread that has returned leaves /proc/self/task a moment later; one left running stays.
    for (int i = 0; i < 200 && entriesIn("/proc/self/task") != threadsBefore; ++i)
        std::this_thread::sleep_for(10ms);
    EXPECT_EQ(entriesIn("/proc/self/task"), threadsBefore) << "the pool's thread was left";
    EXPECT_EQ(mountInfo(), mountInfoBefore);
    EXPECT_EQ(settled(launchersBefore), launchersBefore) << "a launcher of the pool was left";
}

// The process that owns the pool is SIGKILLed: its sandboxes end and their work dirs go, those of a shell's
// pool and of a Python pool whose interpreters wait, started ahead.
TEST(WarmPool, OwnersDeathLeavesNothing)
{
    for (const Language language : {Language::Shell, Language::Python}) {
        SCOPED_TRACE(std::string(toString(language)));
        expectOwnersDeathLeavesNothing(language);
    }
}

// Runners on several threads share one pool: every run gets its own sandbox and its own output.
TEST(WarmPool, ConcurrentRunnersShareAPool)
{
    WorkRoot root;
    const auto prototype = request(Language::Shell, ":\n", IsolationLevel::Process);
    auto pooled = makePooled(prototype, root.path(), 2);
    ASSERT_TRUE(pooled.pool->waitUntilReady(10s)) << pooled.pool->lastError();
    constexpr int kThreads = 4;
    constexpr int kRunsEach = 5;
    std::vector<std::vector<RunResult>> results(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            for (int i = 0; i < kRunsEach; ++i) {
                auto req = prototype;
                req.source = "echo " + std::to_string(t) + "-" + std::to_string(i) + "\n";
                results[t].push_back(pooled.runner.run(req));
            }
        });
    }
    for (auto& th : threads)
        th.join();
    std::set<std::string> ids;
    for (int t = 0; t < kThreads; ++t) {
        for (int i = 0; i < kRunsEach; ++i) {
            const auto& r = results[t][i];
            EXPECT_EQ(r.outcome, Outcome::Ok) << describe(r);
            EXPECT_EQ(r.stdoutText, std::to_string(t) + "-" + std::to_string(i) + "\n");
            EXPECT_TRUE(ids.insert(r.runId).second);
        }
    }
    EXPECT_GE(pooled.pool->stats().handedOut, 2u);
}

// Cancelling a pooled run ends it as a cold one's cancel does.
TEST(WarmPool, CancelEndsAPooledRun)
{
    WorkRoot root;
    Policy p;
    p.limits.wallMs = 20000;
    const auto req = request(Language::Shell, "sleep 10\n", IsolationLevel::Process, p);
    auto pooled = makePooled(req, root.path(), 1);
    ASSERT_TRUE(pooled.pool->waitUntilReady(10s)) << pooled.pool->lastError();
    std::atomic<bool> cancel{false};
    std::thread canceller([&] {
        std::this_thread::sleep_for(200ms);
        cancel = true;
    });
    const auto start = std::chrono::steady_clock::now();
    const auto r = pooled.runner.run(req, &cancel);
    canceller.join();
    EXPECT_EQ(pooled.pool->stats().handedOut, 1u);
    EXPECT_EQ(r.outcome, Outcome::Error) << describe(r);
    EXPECT_EQ(r.message.text(), "cancelled");
    EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
}
