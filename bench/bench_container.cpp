// Container-level start of /bin/true through sb::Runner vs bubblewrap doing the same job
// (`bwrap --unshare-all --die-with-parent --ro-bind /usr /usr ... /bin/true`), interleaved A, B, A, B.
// PRODUCT.md: at most half of bubblewrap's time. Also the kernel's floor for the same namespaces and root
// (floor_sandbox.h), the process level and a bare posix_spawn for scale.
//
//   bench_container [N] [WARMUP]              the side-by-side figures
//   bench_container [N] [WARMUP] --breakdown  where a container-level (and a process-level) start goes:
//       N runs each with SANDBENCH_TRACE_START set (start_trace.h), the median of every phase
//   bench_container [N] [WARMUP] --breakdown --pooled   the same for runs taken from a warm pool (the
//       phases from the Runner's run() on; the sandbox was prepared before)

#include "bench_common.h"
#include "floor_sandbox.h"

#include "isolation/runner.h"
#include "isolation/warm_pool.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string_view>

namespace {

// The phases in the order they happen; a run's marks that are absent (the process level has no pid 1 and
// no root) are skipped, so each row is the time from the previous mark present to this one.
constexpr std::pair<const char*, const char*> kPhases[] = {
    {"runner.enter", "Runner: start of run()"},
    {"runner.planned", "Runner: the request checked, the launch spec's sandbox part"},
    {"runner.spawned", "Runner: work dir, pipes; the zygote forks a launcher (zygote.h)"},
    {"runner.prepared", "Runner: snippet, argv and environment"},
    {"runner.spec_sent", "Runner: spec sent"},
    {"launcher.spec", "launcher: reads and decodes the spec (it started meanwhile)"},
    {"launcher.clone", "launcher: signals, channels (cgroup)"},
    {"init.start", "clone into new namespaces but the network's (pid 1 runs)"},
    {"init.cgroup", "pid 1: moves itself into the run's cgroup (strict)"},
    {"init.mapped", "pid 1: waits for the uid/gid maps"},
    {"root.opened", "pid 1: hostname, private mounts, the root's host paths opened"},
    {"root.mounted", "pid 1: tmpfs root, binds, /dev, /proc, /tmp, /work"},
    {"root.pivoted", "pid 1: pivot_root, detach the old root"},
    {"init.root", "pid 1: root read-only, chdir"},
    {"init.net", "pid 1: joins the network namespace its helper made meanwhile"},
    {"child.start", "fork of the program's process"},
    {"child.identity", "program: fds, capabilities/uid, no_new_privs"},
    {"child.landlock", "program: Landlock"},
    {"child.seccomp", "program: seccomp filter, notification fd handed over"},
    {"child.job", "program: reads and parses its job (pooled; the filter was loaded ahead)"},
    {"child.execve", "program: rlimits, argv"},
    {"init.reaped", "execve; the program runs and ends; pid 1 reaps it"},
    {"init.told", "pid 1: the rest of the run ended (none here), the program's end told"},
    {"launcher.told", "launcher: has pid 1's word; pid 1 ends meanwhile"},
    {"launcher.reaped", "container: pid 1 reaped, in runs where that came first; process level: execve to reaped"},
    {"launcher.done", "launcher: no process of the run is left"},
    {"launcher.result", "launcher: result assembled"},
    {"runner.drained", "Runner: has the result line and EOF on the output pipes"},
    {"runner.reaped", "Runner: lets the launcher end (the zygote reaps it)"},
    {"runner.judged", "Runner: result decoded, outcome judged"},
    {"runner.return", "Runner: work dir removed"},
};

int breakdown(int n, int warmup, bool pooled)
{
    using namespace std::chrono_literals;
    const auto file = std::filesystem::temp_directory_path() / ("sandbench-trace-" + std::to_string(::getpid()));
    ::setenv("SANDBENCH_TRACE_START", file.c_str(), 1);
    for (const auto level : {sb::IsolationLevel::Container, sb::IsolationLevel::Strict, sb::IsolationLevel::Process}) {
        sb::RunRequest request;
        request.language = sb::Language::Command;
        request.command = {"/bin/true"};
        request.policy.level = level;
        sb::RunnerOptions options;
        if (pooled) {
            sb::WarmPoolOptions poolOptions;
            poolOptions.prototype = request;
            poolOptions.size = 1;
            options.warmPool = std::make_shared<sb::WarmPool>(poolOptions);
        }
        const sb::Runner runner(options);
        std::filesystem::remove(file);
        for (int i = -warmup; i < n; ++i) {
            if (i == 0)
                std::filesystem::remove(file);
            if (pooled && !options.warmPool->waitUntilReady(10s)) {
                std::cerr << "the pool did not get ready: " << options.warmPool->lastError() << '\n';
                return 1;
            }
            const auto r = runner.run(request);
            if (r.outcome != sb::Outcome::Ok) {
                std::cerr << "sandboxed /bin/true: " << sb::toString(r.outcome) << ": " << r.message << '\n';
                return 1;
            }
        }
        std::map<std::string, bench::Stats> phases;
        bench::Stats total;
        std::ifstream in(file);
        for (std::string line; std::getline(in, line);) {
            const auto j = nlohmann::json::parse(line);
            std::map<std::string, std::int64_t> at;
            for (const auto& m : j.at("marks"))
                at[m.at(0).get<std::string>()] = m.at(1).get<std::int64_t>();
            // A pooled sandbox was prepared before the run: only what happened from run() on counts.
            std::erase_if(at, [&](const auto& mark) { return mark.second < at.at("runner.enter"); });
            std::int64_t previous = -1;
            for (const auto& [label, what] : kPhases) {
                const auto it = at.find(label);
                if (it == at.end())
                    continue;
                if (previous >= 0)
                    phases[label].add(static_cast<double>(it->second - previous) / 1000.0);
                previous = it->second;
            }
            total.add(static_cast<double>(at.at("runner.return") - at.at("runner.enter")) / 1000.0);
        }
        std::printf("\n%s level, /bin/true, %s, N=%d: median of each phase in microseconds\n\n",
                    level == sb::IsolationLevel::Container ? "Container"
                    : level == sb::IsolationLevel::Strict  ? "Strict"
                                                           : "Process",
                    pooled ? "from a warm pool" : "cold", n);
        double sum = 0;
        for (const auto& [label, what] : kPhases) {
            const auto it = phases.find(label);
            if (it == phases.end())
                continue;
            sum += it->second.median();
            std::printf("  %8.0f  %-18s %s\n", it->second.median(), label, what);
        }
        std::printf("  %8.0f  (sum of the medians; median of the totals %.0f)\n", sum, total.median());
    }
    std::filesystem::remove(file);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    const int n = argc > 1 ? bench::parseCount(argv[1], "N") : 40;
    const int warmup = argc > 2 ? bench::parseCount(argv[2], "WARMUP") : 5;
    if (argc > 3 && std::string_view(argv[3]) == "--breakdown")
        return breakdown(n, warmup, argc > 4 && std::string_view(argv[4]) == "--pooled");
    const std::vector<std::string> bwrap = bench::bwrapTrueArgs();
    const std::vector<std::string> bare = {"/bin/true"};
    const sb::Runner runner;
    auto runAt = [&](sb::IsolationLevel level, bench::Stats& stats, bench::Stats& inside) {
        sb::RunRequest request;
        request.language = sb::Language::Command;
        request.command = {"/bin/true"};
        request.policy.level = level;
        const auto start = bench::Clock::now();
        const auto r = runner.run(request);
        const double ms = bench::msSince(start);
        if (r.outcome != sb::Outcome::Ok) {
            std::cerr << "sandboxed /bin/true: " << sb::toString(r.outcome) << ": " << r.message << '\n';
            std::exit(1);
        }
        stats.add(ms);
        inside.add(r.durationMs);
    };
    char floorWork[] = "/tmp/bench-floor-XXXXXX";
    if (!::mkdtemp(floorWork)) {
        std::perror("mkdtemp");
        return 1;
    }
    bench::Stats container, containerInside, process, processInside, bwrapStats, floorStats, bareStats;
    bench::Stats scratch; // warm-up rounds land here and are discarded
    for (int i = -warmup; i < n; ++i) {
        runAt(sb::IsolationLevel::Container, i < 0 ? scratch : container, i < 0 ? scratch : containerInside);
        const auto b = bench::spawnAndWait(bwrap);
        if (!b.ok) {
            std::cerr << "bwrap: " << b.error << '\n';
            return 1;
        }
        if (i >= 0)
            bwrapStats.add(b.wallMs);
        const auto f = bench::floor::run("/bin/true", floorWork);
        if (!f.ok) {
            std::cerr << "the kernel's floor: " << f.error << '\n';
            ::rmdir(floorWork);
            return 1;
        }
        if (i >= 0)
            floorStats.add(f.wallMs);
        runAt(sb::IsolationLevel::Process, i < 0 ? scratch : process, i < 0 ? scratch : processInside);
        const auto t = bench::spawnAndWait(bare);
        if (i >= 0)
            bareStats.add(t.wallMs);
    }
    auto row = [](const char* name, const bench::Stats& s) {
        std::printf("  %-58s %8.2f %8.2f %8.2f\n", name, s.median(), s.percentile(10), s.percentile(90));
    };
    std::printf("Container start: N=%d interleaved rounds after %d warm-up rounds; wall ms seen by the caller\n\n", n,
                warmup);
    std::printf("  %-58s %8s %8s %8s\n", "case", "median", "p10", "p90");
    row("/bin/true, container level (sb::Runner::run)", container);
    std::printf("    (launcher-measured median %.2f)\n", containerInside.median());
    row("/bin/true, bwrap --unshare-all --die-with-parent ...", bwrapStats);
    row("/bin/true, the kernel's floor (floor_sandbox.h)", floorStats);
    row("/bin/true, process level (sb::Runner::run)", process);
    row("/bin/true, bare posix_spawn + wait", bareStats);
    const double ratio = container.median() / bwrapStats.median();
    const double floorRatio = floorStats.median() / bwrapStats.median();
    std::printf("  => container / bwrap, ratio of medians: %.2fx  (PRODUCT.md target <= 0.50x: %s)\n", ratio,
                ratio <= 0.5 ? "met" : "not met");
    std::printf("  => the kernel's floor / bwrap: %.2fx; container / the floor: %.2fx\n", floorRatio,
                container.median() / floorStats.median());
    std::printf("{\"bench\":\"container\",\"n\":%d,\"container_median_ms\":%.3f,\"bwrap_median_ms\":%.3f,"
                "\"floor_median_ms\":%.3f,\"process_median_ms\":%.3f,\"bare_median_ms\":%.3f,"
                "\"ratio_container_bwrap\":%.3f,\"ratio_floor_bwrap\":%.3f}\n",
                n, container.median(), bwrapStats.median(), floorStats.median(), process.median(), bareStats.median(),
                ratio, floorRatio);
    ::rmdir(floorWork);
    return 0;
}
