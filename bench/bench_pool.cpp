// The warm pool (warm_pool.h), side by side with its peers in one run.
//
//   bench_pool [N=40] [WARMUP=5] [THROUGHPUT_RUNS=200] [--idle MS]
//
// 1. Start: a pooled run of a program through sb::Runner vs a bare start + wait of the same argv (stdout/
//    stderr drained from pipes, as the Runner does), once by posix_spawn and once by fork + execve,
//    interleaved A, B, C, A, B, C, ... N times after WARMUP untimed rounds, for /bin/true and
//    `python3 -c 'print(1)'`, at each level the machine offers.
//    Before each pooled run the pool is given the time to be full again (untimed): this measures a start
//    from a ready pool, the case a pool is for (the pool prepares the next sandbox once the run has ended,
//    WarmPoolOptions::refillGrace). The figure: pooled start <= 1.5x a bare fork + exec of the
//    same program; posix_spawn, which does not copy the caller's memory, is the stricter peer and is
//    reported beside it. For scale, a second pass interleaves a cold run of the same request with the bare
//    posix_spawn start (apart, so that a cold run's namespace teardown, which the kernel finishes in the
//    background, does not land on a pooled run).
//    --idle MS: the machine is left idle for MS ms before each timed start of the first pass, pooled and
//    bare alike: a request that comes after a pause, when the pool's processes and the CPUs have gone to
//    sleep, instead of one of a burst.
// 2. Throughput: T = 1, 2, 4 threads sharing THROUGHPUT_RUNS runs of /bin/true back to back at each
//    level (cold, then through a pool of T sandboxes), and the same with bare spawns; runs per second and
//    the speed-up over one thread, and how many cores the machine kept busy meanwhile (/proc/stat; other
//    load on the machine counts too). On 2 cores, 2 threads should give close to 2x, 4 threads no more,
//    unless one thread already keeps more than one core busy. bubblewrap's container-level start of
//    /bin/true (bench_container's command) is measured the same way, as the peer for the scaling.
// Ends with one JSON line starting with {"bench":"pool".

#include "bench_common.h"

#include "isolation/doctor.h"
#include "isolation/runner.h"
#include "isolation/warm_pool.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace std::chrono_literals;

sb::RunRequest commandRequest(const std::vector<std::string>& argv, sb::IsolationLevel level)
{
    sb::RunRequest request;
    request.language = sb::Language::Command;
    request.command = argv;
    request.policy.level = level;
    request.label = "bench_pool";
    return request;
}

[[noreturn]] void failed(const std::string& what, const sb::RunResult& r)
{
    std::cerr << what << ": " << sb::toString(r.outcome) << ": " << r.message << " " << r.stderrText << '\n';
    std::exit(1);
}

struct StartRow {
    std::string program;
    std::string level;
    bench::Stats pooled;
    bench::Stats bare;     // posix_spawn
    bench::Stats bareFork; // fork + execve, the words
    bench::Stats cold;
    bench::Stats coldBare; // the bare starts of the cold pass
};

StartRow measureStart(const std::vector<std::string>& argv, const std::string& expect, sb::IsolationLevel level,
                      int n, int warmup, std::chrono::milliseconds idle)
{
    const auto request = commandRequest(argv, level);
    sb::WarmPoolOptions poolOptions;
    poolOptions.prototype = request;
    poolOptions.size = 1;
    auto pool = std::make_shared<sb::WarmPool>(poolOptions);
    sb::RunnerOptions pooledOptions;
    pooledOptions.warmPool = pool;
    const sb::Runner pooled(pooledOptions);
    const sb::Runner cold;
    StartRow row{argv.front() == "/bin/true" ? "/bin/true" : "python3 -c 'print(1)'", std::string(sb::toString(level)),
                 {}, {}, {}, {}, {}};
    bench::Stats scratch;
    auto pause = [&] {
        if (idle.count() > 0)
            std::this_thread::sleep_for(idle);
    };
    auto bare = [&](bench::Stats& into, bench::Start how = bench::Start::Spawn) {
        pause();
        const auto b = bench::startAndWait(argv, how);
        if (!b.ok || b.stdoutText != expect) {
            std::cerr << "bare " << argv.front() << ": " << b.error << '\n';
            std::exit(1);
        }
        into.add(b.wallMs);
    };
    for (int i = -warmup; i < n; ++i) {
        if (!pool->waitUntilReady(10s)) {
            std::cerr << "the pool did not get ready: " << pool->lastError() << '\n';
            std::exit(1);
        }
        pause();
        const auto handedOut = pool->stats().handedOut;
        const auto start = bench::Clock::now();
        const auto p = pooled.run(request);
        const double pooledMs = bench::msSince(start);
        if (p.outcome != sb::Outcome::Ok || p.stdoutText != expect)
            failed("pooled " + argv.front(), p);
        if (pool->stats().handedOut != handedOut + 1) {
            std::cerr << "a pooled run did not come from the pool\n";
            std::exit(1);
        }
        (i < 0 ? scratch : row.pooled).add(pooledMs);
        bare(i < 0 ? scratch : row.bare);
        bare(i < 0 ? scratch : row.bareFork, bench::Start::ForkExec);
    }
    for (int i = -warmup; i < n; ++i) {
        const auto start = bench::Clock::now();
        const auto c = cold.run(request);
        const double coldMs = bench::msSince(start);
        if (c.outcome != sb::Outcome::Ok || c.stdoutText != expect)
            failed("cold " + argv.front(), c);
        (i < 0 ? scratch : row.cold).add(coldMs);
        const auto b = bench::startAndWait(argv, bench::Start::Spawn);
        if (!b.ok || b.stdoutText != expect) {
            std::cerr << "bare " << argv.front() << ": " << b.error << '\n';
            std::exit(1);
        }
        (i < 0 ? scratch : row.coldBare).add(b.wallMs);
    }
    return row;
}

// CPU time the whole machine spent busy so far (every core, the kernel's workers included), in seconds,
// from /proc/stat: a run's namespaces are torn down partly in kernel workers, after the run.
double machineBusySeconds()
{
    std::FILE* f = std::fopen("/proc/stat", "r");
    if (!f)
        return 0;
    unsigned long long user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
    const int n = std::fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &system, &idle, &iowait,
                              &irq, &softirq, &steal);
    std::fclose(f);
    if (n != 8)
        return 0;
    return static_cast<double>(user + nice + system + irq + softirq + steal) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

struct Rate {
    double perSecond = 0;
    double coresBusy = 0; // the machine's busy CPU time over the wall time: how many cores the runs kept busy
};

// Runs per second with `threads` threads sharing `total` runs of `job`.
template <typename Job>
Rate throughput(int threads, int total, Job job)
{
    std::atomic<int> left{total};
    std::atomic<bool> ok{true};
    const double busyBefore = machineBusySeconds();
    const auto start = bench::Clock::now();
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back([&] {
            while (left.fetch_sub(1) > 0) {
                if (!job())
                    ok = false;
            }
        });
    }
    for (auto& w : workers)
        w.join();
    const double seconds = bench::msSince(start) / 1000.0;
    const double busy = machineBusySeconds() - busyBefore;
    if (!ok) {
        std::cerr << "a run failed during the throughput measurement\n";
        std::exit(1);
    }
    return {total / seconds, busy / seconds};
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<const char*> args(argv + 1, argv + argc);
    std::chrono::milliseconds idle{0};
    if (args.size() >= 2 && std::string_view(args[args.size() - 2]) == "--idle") {
        idle = std::chrono::milliseconds(bench::parseCount(args.back(), "--idle MS"));
        args.resize(args.size() - 2);
    }
    const int n = args.size() > 0 ? bench::parseCount(args[0], "N") : 40;
    const int warmup = args.size() > 1 ? bench::parseCount(args[1], "WARMUP") : 5;
    const int runs = args.size() > 2 ? bench::parseCount(args[2], "THROUGHPUT_RUNS") : 200;
    const sb::IsolationLevel deepest = sb::highestAvailableLevel();
    std::vector<sb::IsolationLevel> levels = {sb::IsolationLevel::Process};
    if (deepest >= sb::IsolationLevel::Container)
        levels.push_back(sb::IsolationLevel::Container);
    if (deepest >= sb::IsolationLevel::Strict)
        levels.push_back(sb::IsolationLevel::Strict);

    std::vector<StartRow> rows;
    const std::vector<std::pair<std::vector<std::string>, std::string>> programs = {
        {{"/bin/true"}, ""}, {{"/usr/bin/python3", "-c", "print(1)"}, "1\n"}};
    for (const auto& [program, expect] : programs) {
        for (const auto level : levels)
            rows.push_back(measureStart(program, expect, level, n, warmup, idle));
    }
    std::printf("Pooled start: N=%d interleaved rounds after %d warm-up rounds; wall ms seen by the caller", n, warmup);
    if (idle.count() > 0)
        std::printf("; each after %lld ms idle", static_cast<long long>(idle.count()));
    std::printf("\n\n");
    std::printf("  %-24s %-10s %8s %8s %8s %8s %8s %10s %8s | %8s %8s %8s\n", "program", "level", "pooled", "p10", "p90",
                "spawn", "ratio", "fork+exec", "ratio", "cold", "spawn", "ratio");
    std::string json = "{\"bench\":\"pool\",\"n\":" + std::to_string(n)
                       + ",\"idle_ms\":" + std::to_string(idle.count()) + ",\"start\":[";
    bool allMet = true;
    bool allMetFork = true;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        const double ratio = r.pooled.median() / r.bare.median();
        const double ratioFork = r.pooled.median() / r.bareFork.median();
        allMet = allMet && ratio <= 1.5;
        allMetFork = allMetFork && ratioFork <= 1.5;
        std::printf("  %-24s %-10s %8.2f %8.2f %8.2f %8.2f %7.2fx %10.2f %7.2fx | %8.2f %8.2f %7.2fx\n",
                    r.program.c_str(), r.level.c_str(), r.pooled.median(), r.pooled.percentile(10),
                    r.pooled.percentile(90), r.bare.median(), ratio, r.bareFork.median(), ratioFork, r.cold.median(),
                    r.coldBare.median(), r.cold.median() / r.coldBare.median());
        json += std::string(i ? "," : "") + "{\"program\":" + bench::jsonString(r.program) + ",\"level\":\"" + r.level
                + "\",\"pooled_median_ms\":" + bench::jsonNumber(r.pooled.median())
                + ",\"bare_median_ms\":" + bench::jsonNumber(r.bare.median())
                + ",\"bare_fork_exec_median_ms\":" + bench::jsonNumber(r.bareFork.median())
                + ",\"cold_median_ms\":" + bench::jsonNumber(r.cold.median())
                + ",\"cold_pass_bare_median_ms\":" + bench::jsonNumber(r.coldBare.median())
                + ",\"ratio_pooled_bare\":" + bench::jsonNumber(ratio)
                + ",\"ratio_pooled_fork_exec\":" + bench::jsonNumber(ratioFork) + "}";
    }
    std::printf("  => pooled / bare fork+exec, ratio of medians (issue target <= 1.5x): %s\n",
                allMetFork ? "met" : "not met");
    std::printf("  => pooled / bare posix_spawn (vfork: the parent's memory is not copied), the stricter peer: %s\n\n",
                allMet ? "within 1.5x" : "not within 1.5x");

    // Throughput: /bin/true at each level, 1, 2 and 4 threads.
    std::printf("Throughput: %d runs of /bin/true shared by T threads; runs per second (speed-up over T = 1)\n\n",
                runs);
    std::printf("  %-10s %-8s %23s %23s %23s\n", "level", "threads", "cold (cores busy)", "pooled (cores busy)",
                "bare spawn (cores busy)");
    json += "],\"throughput\":[";
    bool firstRow = true;
    auto cell = [](const Rate& r, double one) {
        char text[64];
        std::snprintf(text, sizeof text, "%5.0f/s %4.2fx (%3.1f)", r.perSecond, r.perSecond / one, r.coresBusy);
        return std::string(text);
    };
    for (const auto level : levels) {
        const auto request = commandRequest({"/bin/true"}, level);
        const sb::Runner cold;
        double base[3] = {0, 0, 0};
        for (const int threads : {1, 2, 4}) {
            const Rate coldRate =
                throughput(threads, runs, [&] { return cold.run(request).outcome == sb::Outcome::Ok; });
            sb::WarmPoolOptions poolOptions;
            poolOptions.prototype = request;
            poolOptions.size = static_cast<std::size_t>(threads);
            auto pool = std::make_shared<sb::WarmPool>(poolOptions);
            pool->waitUntilReady(10s);
            sb::RunnerOptions pooledOptions;
            pooledOptions.warmPool = pool;
            const sb::Runner pooled(pooledOptions);
            const Rate pooledRate =
                throughput(threads, runs, [&] { return pooled.run(request).outcome == sb::Outcome::Ok; });
            const Rate bareRate = throughput(threads, runs, [] { return bench::spawnAndWait({"/bin/true"}).ok; });
            if (threads == 1) {
                base[0] = coldRate.perSecond;
                base[1] = pooledRate.perSecond;
                base[2] = bareRate.perSecond;
            }
            std::printf("  %-10s %-8d %23s %23s %23s\n", std::string(sb::toString(level)).c_str(), threads,
                        cell(coldRate, base[0]).c_str(), cell(pooledRate, base[1]).c_str(), cell(bareRate, base[2]).c_str());
            json += std::string(firstRow ? "" : ",") + "{\"level\":\"" + std::string(sb::toString(level))
                    + "\",\"threads\":" + std::to_string(threads)
                    + ",\"cold_per_s\":" + bench::jsonNumber(coldRate.perSecond)
                    + ",\"cold_cores_busy\":" + bench::jsonNumber(coldRate.coresBusy)
                    + ",\"pooled_per_s\":" + bench::jsonNumber(pooledRate.perSecond)
                    + ",\"pooled_cores_busy\":" + bench::jsonNumber(pooledRate.coresBusy)
                    + ",\"bare_per_s\":" + bench::jsonNumber(bareRate.perSecond)
                    + ",\"bare_cores_busy\":" + bench::jsonNumber(bareRate.coresBusy) + "}";
            firstRow = false;
        }
    }
    json += "],\"peer_throughput\":[";
    if (::access("/usr/bin/bwrap", X_OK) == 0) {
        double one = 0;
        for (const int threads : {1, 2, 4}) {
            const Rate rate = throughput(threads, runs, [] { return bench::spawnAndWait(bench::bwrapTrueArgs()).ok; });
            if (threads == 1)
                one = rate.perSecond;
            std::printf("  %-10s %-8d %23s\n", "bwrap", threads, cell(rate, one).c_str());
            json += std::string(threads == 1 ? "" : ",") + "{\"peer\":\"bwrap\",\"threads\":" + std::to_string(threads)
                    + ",\"per_s\":" + bench::jsonNumber(rate.perSecond)
                    + ",\"cores_busy\":" + bench::jsonNumber(rate.coresBusy) + "}";
        }
    } else {
        std::printf("  bwrap: not installed, no peer for the scaling\n");
    }
    json += "]}";
    std::printf("\n%s\n", json.c_str());
    return 0;
}
