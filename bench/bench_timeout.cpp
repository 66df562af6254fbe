// bench_timeout: how precisely the wall-clock limit fires, and how fast a blocked import is reported.
//
//   bench_timeout [N]      (default N = 10)
//
// 1. A Python `while True: pass` under wallMs = 1000 and wallMs = 250, N runs each (interleaved): the
//    overshoot durationMs - limit (RunResult::durationMs, measured by the launcher) and, for honesty,
//    the overshoot the caller sees (its wall clock around Runner::run, which also includes starting the
//    launcher and reaping every process). PRODUCT.md: a timeout of T ms fires between T and T+50 ms.
// 2. A snippet `import os` (blocked by the default policy): the outcome must be "blocked"; its
//    durationMs and caller-side wall time. PRODUCT.md: a blocked import is reported in tens of ms.
// Ends with one machine-readable JSON line starting with {"bench":"timeout".

#include "bench_common.h"

#include "isolation/runner.h"

#include <cstdio>
#include <map>
#include <string>

namespace {

using bench::Stats;

struct Series {
    std::string name;
    std::int64_t limitMs = 0;
    Stats overshoot;        // durationMs - limit
    Stats callerOvershoot;  // caller wall - limit
    Stats duration;         // durationMs
    Stats callerWall;
    std::map<std::string, int> outcomes;
    int within = 0;         // overshoot in [0, 50]
    int callerWithin = 0;
    int cpuLimit = 0;       // ended by RLIMIT_CPU ("CPU time limit reached") rather than the wall clock
};

void runOnce(const sb::Runner& runner, const std::string& source, std::int64_t limitMs, Series* s)
{
    sb::Policy policy;
    if (limitMs > 0)
        policy.limits.wallMs = limitMs;
    const auto start = bench::Clock::now();
    const sb::RunResult r = runner.run(sb::RunRequest{sb::Language::Python, source, policy, "bench_timeout"});
    const double wall = bench::msSince(start);
    s->duration.add(r.durationMs);
    s->callerWall.add(wall);
    s->outcomes[std::string(sb::toString(r.outcome))]++;
    s->cpuLimit += r.message.pattern.starts_with("CPU time limit");
    if (limitMs > 0) {
        const double over = r.durationMs - static_cast<double>(limitMs);
        const double callerOver = wall - static_cast<double>(limitMs);
        s->overshoot.add(over);
        s->callerOvershoot.add(callerOver);
        s->within += over >= 0 && over <= 50;
        s->callerWithin += callerOver >= 0 && callerOver <= 50;
    }
}

std::string outcomesText(const Series& s)
{
    std::string t;
    for (const auto& [k, v] : s.outcomes) {
        if (!t.empty())
            t += ", ";
        t += k;
        t += ' ';
        t += std::to_string(v);
    }
    return t;
}

std::string outcomesJson(const Series& s)
{
    std::string t = "{";
    for (const auto& [k, v] : s.outcomes) {
        if (t.size() > 1)
            t += ',';
        t += bench::jsonString(k);
        t += ':';
        t += std::to_string(v);
    }
    t += '}';
    return t;
}

std::string minMedMaxJson(const Stats& st)
{
    return "{\"min_ms\":" + bench::jsonNumber(st.min()) + ",\"median_ms\":" + bench::jsonNumber(st.median()) +
           ",\"p90_ms\":" + bench::jsonNumber(st.percentile(90)) + ",\"max_ms\":" + bench::jsonNumber(st.max()) + "}";
}

} // namespace

int main(int argc, char** argv)
{
    if (argc > 2 || (argc > 1 && (std::string(argv[1]) == "-h" || std::string(argv[1]) == "--help"))) {
        std::fprintf(stderr, "usage: %s [N (default 10)]\n", argv[0]);
        return 2;
    }
    const int n = argc > 1 ? bench::parseCount(argv[1], "N") : 10;

    sb::Runner runner;
    if (auto l = runner.launcher(); !l) {
        std::fprintf(stderr, "bench_timeout: %s\n", l.error().message.c_str());
        return 1;
    }

    Series t1000{"while True: pass, wallMs=1000", 1000, {}, {}, {}, {}, {}, 0, 0, 0};
    Series t250{"while True: pass, wallMs=250", 250, {}, {}, {}, {}, {}, 0, 0, 0};
    Series imp{"import os (blocked)", 0, {}, {}, {}, {}, {}, 0, 0, 0};
    Series ok{"print(1) (reference)", 0, {}, {}, {}, {}, {}, 0, 0, 0};

    // Warm-up: page cache, the launcher binary, Python's stdlib.
    Series scratch;
    for (int i = 0; i < 2; ++i) {
        runOnce(runner, "print(1)\n", 0, &scratch);
        runOnce(runner, "import os\n", 0, &scratch);
    }

    for (int i = 0; i < n; ++i) {
        runOnce(runner, "while True: pass\n", 1000, &t1000);
        runOnce(runner, "while True: pass\n", 250, &t250);
        runOnce(runner, "import os\n", 0, &imp);
        runOnce(runner, "print(1)\n", 0, &ok);
    }

    std::printf("Timeouts: N=%d per limit (interleaved); overshoot = time - limit, ms\n\n", n);
    std::printf("  %-32s %-10s %8s %8s %8s  %-14s  %s\n", "case", "measure", "min", "median", "max", "in [0,50] ms",
                "outcomes");
    for (const Series* s : {&t1000, &t250}) {
        std::printf("  %-32s %-10s %8.2f %8.2f %8.2f  %3d / %-8d  %s (%d of them by the CPU limit)\n", s->name.c_str(),
                    "durationMs", s->overshoot.min(), s->overshoot.median(), s->overshoot.max(), s->within, n,
                    outcomesText(*s).c_str(), s->cpuLimit);
        std::printf("  %-32s %-10s %8.2f %8.2f %8.2f  %3d / %-8d\n", "", "caller", s->callerOvershoot.min(),
                    s->callerOvershoot.median(), s->callerOvershoot.max(), s->callerWithin, n);
    }
    const int blockedCount = imp.outcomes.count("blocked") ? imp.outcomes.at("blocked") : 0;
    std::printf("\nBlocked import: N=%d; time to the reported outcome, ms\n\n", n);
    std::printf("  %-32s %-10s %8s %8s %8s %8s  %s\n", "case", "measure", "min", "median", "p90", "max", "outcomes");
    for (const Series* s : {&imp, &ok}) {
        std::printf("  %-32s %-10s %8.2f %8.2f %8.2f %8.2f  %s\n", s->name.c_str(), "durationMs", s->duration.min(),
                    s->duration.median(), s->duration.percentile(90), s->duration.max(), outcomesText(*s).c_str());
        std::printf("  %-32s %-10s %8.2f %8.2f %8.2f %8.2f\n", "", "caller", s->callerWall.min(), s->callerWall.median(),
                    s->callerWall.percentile(90), s->callerWall.max());
    }
    std::printf("  => %d / %d `import os` runs ended \"blocked\"\n", blockedCount, n);

    std::printf("{\"bench\":\"timeout\",\"n\":%d,\"timeouts\":[", n);
    bool first = true;
    for (const Series* s : {&t1000, &t250}) {
        std::printf("%s{\"limit_ms\":%lld,\"overshoot\":%s,\"within_0_50\":%d,\"caller_overshoot\":%s,"
                    "\"caller_within_0_50\":%d,\"by_cpu_limit\":%d,\"outcomes\":%s}",
                    first ? "" : ",", static_cast<long long>(s->limitMs), minMedMaxJson(s->overshoot).c_str(),
                    s->within, minMedMaxJson(s->callerOvershoot).c_str(), s->callerWithin, s->cpuLimit, outcomesJson(*s).c_str());
        first = false;
    }
    std::printf("],\"blocked_import\":{\"duration\":%s,\"caller_wall\":%s,\"blocked\":%d,\"outcomes\":%s},"
                "\"print1_reference\":{\"duration\":%s,\"caller_wall\":%s}}\n",
                minMedMaxJson(imp.duration).c_str(), minMedMaxJson(imp.callerWall).c_str(), blockedCount,
                outcomesJson(imp).c_str(), minMedMaxJson(ok.duration).c_str(), minMedMaxJson(ok.callerWall).c_str());
    return 0;
}
