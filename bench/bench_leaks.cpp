// PRODUCT.md: "Nothing leaks: 10 000 runs in a row leave no process, file descriptor, mount, cgroup or
// temp dir." Runs N sandboxed `:` commands in a row (every 100th leaves a background process behind for
// the launcher to kill), at the process level and at the deepest level this machine offers, and counts
// what is left afterwards against what was there before. Prints the counts; exits 1 if anything leaked.

#include "bench_common.h"

#include "isolation/doctor.h"
#include "isolation/runner.h"
#include "proc_scan.h" // tests/isolation: reads /proc without throwing when a process ends mid-read

#include <cstdio>
#include <dirent.h>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

int countEntries(const char* dir, const std::string& prefix = "")
{
    int n = 0;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        if (prefix.empty() || e.path().filename().string().rfind(prefix, 0) == 0)
            ++n;
    }
    return n;
}

int countLines(const char* file)
{
    std::ifstream in(file);
    int n = 0;
    for (std::string line; std::getline(in, line);)
        ++n;
    return n;
}

// Processes whose command line mentions the marker.
int processesWith(const std::string& marker)
{
    return static_cast<int>(sb::test::processesWithMarker(marker).size());
}

int cgroupsOfSandbench()
{
    int n = 0;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator("/sys/fs/cgroup", fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (it->is_directory(ec) && it->path().filename().string().rfind("sandbench-", 0) == 0) {
            ++n;
            it.disable_recursion_pending();
        }
        if (it.depth() > 4)
            it.disable_recursion_pending();
    }
    return n;
}

// The count once it has stopped changing: a launcher removes its run's cgroup after the result, once the
// sandbox's pid 1 has exited.
int settledCgroupsOfSandbench()
{
    int count = cgroupsOfSandbench();
    for (int i = 0; i < 100; ++i) {
        ::usleep(10'000);
        const int now = cgroupsOfSandbench();
        if (now == count)
            return count;
        count = now;
    }
    return count;
}

} // namespace

int main(int argc, char** argv)
{
    const int n = argc > 1 ? bench::parseCount(argv[1], "N") : 10000;
    const fs::path root = fs::temp_directory_path() / ("sandbench-bench-leaks-" + std::to_string(::getpid()));
    fs::create_directories(root);
    fs::permissions(root, fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec);
    const std::string marker = "sandbench-leak-marker-" + std::to_string(::getpid());

    bool leaked = false;
    for (const auto level : {sb::IsolationLevel::Process, sb::highestAvailableLevel()}) {
        sb::RunnerOptions options;
        options.workRoot = root;
        const sb::Runner runner(options);
        // One run first: the launcher zygote's socket, opened at the first run of a process, is no leak.
        {
            sb::RunRequest warmup;
            warmup.language = sb::Language::Shell;
            warmup.policy.level = level;
            warmup.source = ":\n";
            runner.run(warmup);
        }
        const int fdsBefore = countEntries("/proc/self/fd");
        const int mountsBefore = countLines("/proc/self/mountinfo");
        const int cgroupsBefore = settledCgroupsOfSandbench(); // the warm-up run's group is gone
        int failures = 0;
        const auto start = bench::Clock::now();
        for (int i = 0; i < n; ++i) {
            sb::RunRequest request;
            request.language = sb::Language::Shell;
            request.policy.level = level;
            request.policy.shell = "/bin/bash";
            request.source = i % 100 == 0 ? "(exec -a " + marker + " sleep 30) &\n:\n" : ":\n";
            const auto r = runner.run(request);
            failures += r.outcome != sb::Outcome::Ok;
        }
        const double seconds = bench::msSince(start) / 1000.0;
        // A launcher ends on its own after its result (removing its cgroup first): what is still there
        // after it had the time to is left behind.
        for (int i = 0; i < 100 && cgroupsOfSandbench() != cgroupsBefore; ++i)
            ::usleep(10'000);
        const int fds = countEntries("/proc/self/fd") - fdsBefore;
        const int mounts = countLines("/proc/self/mountinfo") - mountsBefore;
        const int cgroups = cgroupsOfSandbench() - cgroupsBefore;
        const int dirs = countEntries(root.c_str());
        const int processes = processesWith(marker);
        const bool clean = fds == 0 && mounts == 0 && cgroups == 0 && dirs == 0 && processes == 0 && failures == 0;
        leaked = leaked || !clean;
        std::printf("%-9s %6d runs in %6.1f s (%5.2f ms each): failed %d; left behind: processes %d, fds %d, "
                    "mounts %d, cgroups %d, work dirs %d  => %s\n",
                    std::string(sb::toString(level)).c_str(), n, seconds, seconds * 1000.0 / n, failures, processes,
                    fds, mounts, cgroups, dirs, clean ? "nothing leaked" : "LEAKED");
        std::printf("{\"bench\":\"leaks\",\"level\":\"%s\",\"runs\":%d,\"seconds\":%.2f,\"failed\":%d,\"processes\":%d,"
                    "\"fds\":%d,\"mounts\":%d,\"cgroups\":%d,\"work_dirs\":%d}\n",
                    std::string(sb::toString(level)).c_str(), n, seconds, failures, processes, fds, mounts, cgroups,
                    dirs);
    }
    std::error_code ec;
    fs::remove_all(root, ec);
    return leaked ? 1 : 0;
}
