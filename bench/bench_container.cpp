// Container-level start of /bin/true through sb::Runner vs bubblewrap doing the same job
// (`bwrap --unshare-all --die-with-parent --ro-bind /usr /usr ... /bin/true`), interleaved A, B, A, B.
// PRODUCT.md: at most half of bubblewrap's time. Also the process level and a bare posix_spawn for scale.

#include "bench_common.h"

#include "isolation/runner.h"

#include <cstdio>
#include <iostream>

int main(int argc, char** argv)
{
    const int n = argc > 1 ? bench::parseCount(argv[1], "N") : 40;
    const int warmup = argc > 2 ? bench::parseCount(argv[2], "WARMUP") : 5;
    const std::vector<std::string> bwrap = {"/usr/bin/bwrap", "--unshare-all", "--die-with-parent", "--ro-bind", "/usr",
                                            "/usr", "--symlink", "usr/lib64", "/lib64", "--symlink", "usr/lib", "/lib",
                                            "--symlink", "usr/bin", "/bin", "--proc", "/proc", "--dev", "/dev",
                                            "/bin/true"};
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
    bench::Stats container, containerInside, process, processInside, bwrapStats, bareStats;
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
    row("/bin/true, process level (sb::Runner::run)", process);
    row("/bin/true, bare posix_spawn + wait", bareStats);
    const double ratio = container.median() / bwrapStats.median();
    std::printf("  => container / bwrap, ratio of medians: %.2fx  (PRODUCT.md target <= 0.50x: %s)\n", ratio,
                ratio <= 0.5 ? "met" : "not met");
    std::printf("{\"bench\":\"container\",\"n\":%d,\"container_median_ms\":%.3f,\"bwrap_median_ms\":%.3f,"
                "\"process_median_ms\":%.3f,\"bare_median_ms\":%.3f,\"ratio_container_bwrap\":%.3f}\n",
                n, container.median(), bwrapStats.median(), process.median(), bareStats.median(), ratio);
    return 0;
}
