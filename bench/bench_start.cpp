// bench_start: how much a sandboxed start costs next to a bare start of the same interpreter.
//
//   bench_start [N] [WARMUP]      (defaults: N = 40, WARMUP = 5)
//
// Two groups, each measured interleaved (A, B, A, B, ...) N times after WARMUP untimed rounds:
//   python: A = sb::Runner running `print(1)` (default policy) vs B = posix_spawn("/usr/bin/python3 -c
//           'print(1)'") with stdout/stderr drained from pipes and waited, like the Runner does.
//           A third, informative column C = the same bare spawn but with the sandbox's exact Python argv
//           (-IS -B -c <prelude> snippet.py) and no sandbox: C - B is what the prelude costs, A - C what
//           the sandbox mechanics cost.
//   shell:  A = sb::Runner running the sh snippet `:` vs B = posix_spawn("/bin/sh -c :").
// Every time is the caller's wall clock around the whole call (for the Runner: run() in, run() out), so
// both sides pay for process creation and teardown. The Runner's own durationMs (measured inside the
// launcher, from its fork to the program's end) is shown too, for the breakdown.
// Ends with one machine-readable JSON line starting with {"bench":"start".

#include "bench_common.h"

#include "python_guard.h"
#include "isolation/runner.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

using bench::Stats;

constexpr double kTargetIssue = 1.3;    // the issue's figure: sandboxed print(1) <= 1.3x bare python3
constexpr double kTargetProduct = 1.15; // PRODUCT.md "Figures": <= 1.15x

struct Side {
    const char* name;
    Stats wall;       // the caller's wall clock
    Stats internal;   // RunResult::durationMs (sandboxed sides only)
    int failures = 0;
    std::string firstFailure;

    void fail(const std::string& why)
    {
        if (failures++ == 0)
            firstFailure = why;
    }
};

void sandboxed(const sb::Runner& runner, sb::Language language, const std::string& source, const char* expect,
               Side* side, bool record, sb::IsolationLevel level = sb::IsolationLevel::Process)
{
    sb::Policy policy;
    policy.level = level;
    const auto start = bench::Clock::now();
    const sb::RunResult r = runner.run(sb::RunRequest{language, source, policy, "bench_start"});
    const double wall = bench::msSince(start);
    const bool ok = r.outcome == sb::Outcome::Ok && r.stdoutText == expect;
    if (record) {
        side->wall.add(wall);
        side->internal.add(r.durationMs);
        if (!ok)
            side->fail(std::string(sb::toString(r.outcome)) + ": " + r.message.text() + " " + r.stderrText.substr(0, 200));
    }

}

void bare(const std::vector<std::string>& argv, const char* expect, Side* side, bool record)
{
    const bench::Spawned s = bench::spawnAndWait(argv);
    if (!record)
        return;
    side->wall.add(s.wallMs);
    if (!s.ok || s.stdoutText != expect)
        side->fail(s.ok ? "unexpected stdout: " + s.stdoutText : s.error);
}

void row(const Side& s, bool showInternal)
{
    std::printf("  %-52s %8.2f %8.2f %8.2f", s.name, s.wall.median(), s.wall.percentile(10), s.wall.percentile(90));
    if (showInternal && !s.internal.empty())
        std::printf("   (launcher-measured median %.2f)", s.internal.median());
    if (s.failures)
        std::printf("   FAILED %d: %s", s.failures, s.firstFailure.c_str());
    std::printf("\n");
}

std::string sideJson(const Side& s)
{
    std::string j = "{\"median_ms\":" + bench::jsonNumber(s.wall.median()) +
                    ",\"p10_ms\":" + bench::jsonNumber(s.wall.percentile(10)) +
                    ",\"p90_ms\":" + bench::jsonNumber(s.wall.percentile(90)) +
                    ",\"min_ms\":" + bench::jsonNumber(s.wall.min()) + ",\"max_ms\":" + bench::jsonNumber(s.wall.max());
    if (!s.internal.empty())
        j += ",\"launcher_measured_median_ms\":" + bench::jsonNumber(s.internal.median());
    j += ",\"failures\":" + std::to_string(s.failures) + "}";
    return j;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc > 3 || (argc > 1 && (std::string(argv[1]) == "-h" || std::string(argv[1]) == "--help"))) {
        std::fprintf(stderr, "usage: %s [N (default 40)] [WARMUP (default 5)]\n", argv[0]);
        return 2;
    }
    const int n = argc > 1 ? bench::parseCount(argv[1], "N") : 40;
    const int warmup = argc > 2 ? bench::parseCount(argv[2], "WARMUP") : 5;

    sb::Runner runner;
    if (auto l = runner.launcher(); !l) {
        std::fprintf(stderr, "bench_start: %s\n", l.error().message.c_str());
        return 1;
    }

    // The sandbox's own Python argv, run bare (no launcher, no layers), for the breakdown column.
    namespace fs = std::filesystem;
    const fs::path tmp = fs::temp_directory_path() / ("sandbench-bench-start-" + std::to_string(::getpid()));
    fs::create_directories(tmp);
    const fs::path snippet = tmp / "snippet.py";
    std::ofstream(snippet) << "print(1)\n";
    const sb::Policy defaults;
    const std::vector<std::string> preludeArgv = {defaults.python, defaults.sitePackages ? "-I" : "-IS", "-B", "-c",
                                                  sb::pythonPrelude(defaults.blockedImports, defaults.importGuard),
                                                  snippet.string()};
    const std::vector<std::string> bareArgv = {defaults.python, "-c", "print(1)"};
    const std::vector<std::string> shArgv = {defaults.shell, "-c", ":"};

    Side pyA{"python print(1): sandboxed (sb::Runner::run)", {}, {}, 0, {}};
    Side pyB{"python print(1): bare python3 -c (posix_spawn+wait)", {}, {}, 0, {}};
    Side pyC{"  [info] bare python3 -IS -B -c <prelude> snippet.py", {}, {}, 0, {}};
    Side pyS{"python print(1): sandboxed at the strict level", {}, {}, 0, {}};
    Side shA{"sh ':': sandboxed (sb::Runner::run)", {}, {}, 0, {}};
    Side shB{"sh ':': bare /bin/sh -c : (posix_spawn+wait)", {}, {}, 0, {}};

    for (int i = 0; i < warmup + n; ++i) {
        const bool record = i >= warmup;
        sandboxed(runner, sb::Language::Python, "print(1)\n", "1\n", &pyA, record);
        bare(bareArgv, "1\n", &pyB, record);
        bare(preludeArgv, "1\n", &pyC, record);
        sandboxed(runner, sb::Language::Python, "print(1)\n", "1\n", &pyS, record, sb::IsolationLevel::Strict);
    }
    for (int i = 0; i < warmup + n; ++i) {
        const bool record = i >= warmup;
        sandboxed(runner, sb::Language::Shell, ":\n", "", &shA, record);
        bare(shArgv, "", &shB, record);
    }
    std::error_code ec;
    fs::remove_all(tmp, ec);

    const double pyRatio = pyA.wall.median() / pyB.wall.median();
    const double preludeRatio = pyC.wall.median() / pyB.wall.median();
    const double shRatio = shA.wall.median() / shB.wall.median();
    const double shDelta = shA.wall.median() - shB.wall.median();

    std::printf("Sandbox start: N=%d interleaved rounds after %d warm-up rounds; wall ms seen by the caller\n\n", n,
                warmup);
    std::printf("  %-52s %8s %8s %8s\n", "case", "median", "p10", "p90");
    row(pyA, true);
    row(pyB, false);
    row(pyC, false);
    std::printf("  => sandboxed/bare python print(1), ratio of medians: %.2fx  (issue target <= %.2fx: %s; "
                "PRODUCT.md <= %.2fx: %s)\n",
                pyRatio, kTargetIssue, pyRatio <= kTargetIssue ? "met" : "NOT met", kTargetProduct,
                pyRatio <= kTargetProduct ? "met" : "NOT met");
    std::printf("     prelude argv alone (no sandbox) / bare: %.2fx; sandbox mechanics add %.2f ms on top of it\n",
                preludeRatio, pyA.wall.median() - pyC.wall.median());
    row(pyS, true);
    std::printf("  => strict-level (namespaces, minimal root, syscall allowlist) / bare: %.2fx\n\n",
                pyS.wall.median() / pyB.wall.median());
    row(shA, true);
    row(shB, false);
    std::printf("  => sandboxed/bare sh ':', ratio of medians: %.2fx  (%+.2f ms per start)\n", shRatio, shDelta);

    std::printf("{\"bench\":\"start\",\"n\":%d,\"warmup\":%d,\"python\":{\"sandboxed\":%s,\"bare\":%s,"
                "\"bare_with_sandbox_argv\":%s,\"ratio\":%s,\"target_issue\":%.2f,\"target_product\":%.2f,"
                "\"within_issue_target\":%s,\"within_product_target\":%s},\"shell\":{\"sandboxed\":%s,\"bare\":%s,"
                "\"ratio\":%s,\"delta_ms\":%s}}\n",
                n, warmup, sideJson(pyA).c_str(), sideJson(pyB).c_str(), sideJson(pyC).c_str(),
                bench::jsonNumber(pyRatio).c_str(), kTargetIssue, kTargetProduct,
                pyRatio <= kTargetIssue ? "true" : "false", pyRatio <= kTargetProduct ? "true" : "false",
                sideJson(shA).c_str(), sideJson(shB).c_str(), bench::jsonNumber(shRatio).c_str(),
                bench::jsonNumber(shDelta).c_str());
    const bool failed = pyS.failures || pyA.failures || pyB.failures || pyC.failures || shA.failures || shB.failures;
    return failed ? 1 : 0;
}
