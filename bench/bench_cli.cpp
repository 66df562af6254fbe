// The whole command, as a user meets it: `sandbench exec` and `sandbench run` as processes (argument parsing, the
// store opened and checked, the run, the run recorded with its audit entry, the exit), interleaved with their
// peers in one loop, each round in a new order:
//
//   sandbench exec --level container -- /bin/true   vs  bwrap --unshare-all ... /bin/true
//   sandbench run print1.py (the default level)      vs  /usr/bin/python3 print1.py
//   sandbench exec --level process -- /bin/true     (for scale)
//   sandbench --version                             (the process alone: exec, dynamic linking, static init)
//   sandbench-cli --version                         (the same without the small client in front of it)
//
// The two sandbench commands measured against their peers run both through the run helper (`sandbench serve`,
// started by the bench in a private runtime folder, as a user would leave it running) and without it
// (SANDBENCH_HELPER=off), in the same rounds. The helper's memory once idle (its own and its pooled sandboxes',
// proportional set sizes) is printed at the end.
//
//   bench_cli [N=60] [WARMUP=5]          SANDBENCH_BIN=PATH: that sandbench instead of the one beside this bench
//
// Every sandbench command records into one store in a fresh temporary folder (with its own audit key), which
// grows by a run per command as a user's does; the store's size at the end is printed. Every command must exit 0
// and every recorded run must be in the store at the end, or the bench fails; so must every command meant for
// the helper be served by it, handed over by the small client as typed (its log counts them).

#include "bench_common.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <numeric>
#include <random>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Case {
    std::string name;
    std::vector<std::string> argv;
    bench::Stats stats;
    bool recorded = false; // a sandbench command that records a run
    bool helper = false;   // asks the run helper (the others run with SANDBENCH_HELPER=off)
};

std::string sibling(const char* name)
{
    return (fs::canonical("/proc/self/exe").parent_path() / name).string();
}

std::string runCount(const std::string& sandbench, const std::string& store)
{
    const auto r = bench::spawnAndWait({sandbench, "metrics", "--store", store, "--json"});
    if (!r.ok)
        return "?";
    const auto json = nlohmann::json::parse(r.stdoutText, nullptr, false);
    if (json.is_discarded() || !json.contains("total"))
        return "?";
    return json["total"].dump();
}

void row(const Case& c)
{
    std::printf("  %-52s median %7.2f ms   p10 %7.2f   p90 %7.2f\n", c.name.c_str(), c.stats.median(),
                c.stats.percentile(10), c.stats.percentile(90));
}

} // namespace

int main(int argc, char** argv)
{
    const int n = argc > 1 ? bench::parseCount(argv[1], "N") : 60;
    const int warmup = argc > 2 ? bench::parseCount(argv[2], "WARMUP") : 5;
    // SANDBENCH_BIN: another build's sandbench (its sandbench-launcher beside it), as compare-builds.sh runs it.
    const char* other = std::getenv("SANDBENCH_BIN");
    const std::string sandbench = other && *other ? std::string(other) : sibling("sandbench");
    if (::access(sandbench.c_str(), X_OK) != 0 || ::access("/usr/bin/bwrap", X_OK) != 0
        || ::access("/usr/bin/python3", X_OK) != 0) {
        std::fprintf(stderr, "bench_cli needs %s, /usr/bin/bwrap and /usr/bin/python3\n", sandbench.c_str());
        return 1;
    }
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = (fs::path(tmp && *tmp ? tmp : "/tmp") / "sandbench-bench-cli-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) {
        std::perror("mkdtemp");
        return 1;
    }
    const fs::path dir = pattern;
    const std::string store = (dir / "bench.db").string();
    const std::string script = (dir / "print1.py").string();
    std::ofstream(script) << "print(1)\n";
    // The store's audit key beside it, not in the user's configuration.
    ::setenv("SANDBENCH_AUDIT_KEYS", (dir / "audit-keys").c_str(), 1);

    // The run helper, in a runtime folder of the bench's own.
    const fs::path helperLog = dir / "serve.log";
    const pid_t helper = bench::startHelper(sandbench, dir / "runtime", helperLog);
    if (helper < 0)
        return 1;

    std::vector<Case> cases;
    cases.push_back({"sandbench exec --level container -- /bin/true",
                     {sandbench, "exec", "--store", store, "--level", "container", "--", "/bin/true"}, {}, true});
    cases.push_back({"bwrap --unshare-all ... /bin/true", bench::bwrapTrueArgs(), {}, false});
    cases.push_back({"sandbench run print1.py (default level)", {sandbench, "run", "--store", store, script}, {}, true});
    cases.push_back({"python3 print1.py", {"/usr/bin/python3", script}, {}, false});
    cases.push_back({"sandbench exec --level process -- /bin/true",
                     {sandbench, "exec", "--store", store, "--level", "process", "--", "/bin/true"}, {}, true});
    cases.push_back({"sandbench --version", {sandbench, "--version"}, {}, false});
    const std::string commandLine = (fs::path(sandbench).parent_path() / "sandbench-cli").string();
    cases.push_back({"sandbench-cli --version", {commandLine, "--version"}, {}, false});
    cases.push_back({"  the same exec through the helper",
                     {sandbench, "exec", "--store", store, "--level", "container", "--", "/bin/true"}, {}, true, true});
    cases.push_back({"  the same run through the helper", {sandbench, "run", "--store", store, script}, {}, true, true});

    std::vector<std::size_t> order(cases.size());
    std::iota(order.begin(), order.end(), 0);
    std::mt19937 shuffle(42);
    int recorded = 0;
    for (int i = -warmup; i < n; ++i) {
        std::shuffle(order.begin(), order.end(), shuffle);
        for (const std::size_t k : order) {
            Case& c = cases[k];
            if (c.helper)
                ::unsetenv("SANDBENCH_HELPER");
            else
                ::setenv("SANDBENCH_HELPER", "off", 1);
            const auto r = bench::spawnAndWait(c.argv);
            if (!r.ok) {
                std::fprintf(stderr, "%s: %s\n", c.name.c_str(), r.error.c_str());
                return 1;
            }
            if (i >= 0)
                c.stats.add(r.wallMs);
            recorded += c.recorded ? 1 : 0;
        }
    }
    // Idle: its pools refilled, nothing asked.
    std::this_thread::sleep_for(std::chrono::seconds(2));
    const long helperPssKb = bench::pssBelow(helper);
    ::kill(helper, SIGTERM);
    int helperStatus = 0;
    ::waitpid(helper, &helperStatus, 0);
    int served = 0;
    int typed = 0; // handed over by the small client as typed
    std::string helperLines;
    {
        std::ifstream log(helperLog);
        for (std::string line; std::getline(log, line);) {
            served += line.find("sandbox): exit status 0") != std::string::npos ? 1 : 0;
            typed += line.find(": as typed: ") != std::string::npos ? 1 : 0;
            helperLines += line + "\n";
        }
    }
    int meantForHelper = 0;
    for (const auto& c : cases)
        meantForHelper += c.helper ? n + warmup : 0;
    const std::string stored = runCount(sandbench, store);
    std::error_code ec;
    const auto storeBytes = fs::file_size(store, ec);
    const auto walBytes = fs::file_size(store + "-wal", ec);

    std::printf("bench_cli %d rounds (+%d warm-up), whole processes, each round in a new order\n", n, warmup);
    for (const auto& c : cases)
        row(c);
    const double execRatio = cases[0].stats.median() / cases[1].stats.median();
    const double runRatio = cases[2].stats.median() / cases[3].stats.median();
    std::printf("\n  ratios of medians (below 1 is faster):\n");
    const double helperExecRatio = cases[7].stats.median() / cases[1].stats.median();
    const double helperRunRatio = cases[8].stats.median() / cases[3].stats.median();
    const double clientRatio = cases[5].stats.median() / cases[6].stats.median();
    std::printf("  exec --level container / bwrap     %.2fx without the helper, %.2fx through it   (target: at most 1)\n",
                execRatio, helperExecRatio);
    std::printf("  run print(1), default level / python3  %.2fx without the helper, %.2fx through it   (target: at most "
                "1.15)\n",
                runRatio, helperRunRatio);
    std::printf("  sandbench --version / sandbench-cli --version  %.2fx (the small client in front of a command it "
                "does not hand over)\n",
                clientRatio);
    std::printf("  the helper: served %d of the %d commands meant for it (as typed: %d); idle, with its pooled sandboxes: %.1f MiB "
                "(proportional set size)\n",
                served, meantForHelper, typed, static_cast<double>(helperPssKb) / 1024);
    std::printf("  store: %s runs recorded of %d, %.1f MB (+ WAL %.1f MB)\n", stored.c_str(), recorded,
                static_cast<double>(storeBytes) / (1 << 20), static_cast<double>(walBytes) / (1 << 20));
    const bool allRecorded = stored == std::to_string(recorded);
    fs::remove_all(dir, ec);

    nlohmann::json out = {{"bench", "cli"},
                          {"rounds", n},
                          {"exec_container_vs_bwrap", execRatio},
                          {"run_default_vs_python3", runRatio},
                          {"helper_exec_container_vs_bwrap", helperExecRatio},
                          {"helper_run_default_vs_python3", helperRunRatio},
                          {"client_version_vs_cli_version", clientRatio},
                          {"helper_served_as_typed", typed},
                          {"helper_idle_pss_kib", helperPssKb},
                          {"all_recorded", allRecorded}};
    for (const auto& c : cases)
        out["median_ms"][c.name] = c.stats.median();
    std::cout << out.dump() << '\n';
    if (served != meantForHelper || typed != meantForHelper) {
        std::fprintf(stderr,
                     "bench_cli: the helper served %d of the %d commands meant for it, %d as typed; its log:\n%s",
                     served, meantForHelper, typed, helperLines.c_str());
        return 1;
    }
    if (!allRecorded) {
        std::fprintf(stderr, "bench_cli: the store holds %s runs, %d were run\n", stored.c_str(), recorded);
        return 1;
    }
    return 0;
}
