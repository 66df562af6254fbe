#pragma once

// Small helpers shared by the benches: a monotonic clock, order statistics, a bare posix_spawn (or fork and
// exec) that drains the child's output the way sb::Runner does, and a minimal JSON string escaper.

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <poll.h>
#include <spawn.h>
#include <string>
#include <string_view>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace bench {

using Clock = std::chrono::steady_clock;

inline double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Order statistics with linear interpolation between the closest ranks (p in [0, 100]).
struct Stats {
    std::vector<double> samples;

    void add(double v) { samples.push_back(v); }
    bool empty() const { return samples.empty(); }

    double percentile(double p) const
    {
        if (samples.empty())
            return std::nan("");
        std::vector<double> s = samples;
        std::sort(s.begin(), s.end());
        const double rank = p / 100.0 * static_cast<double>(s.size() - 1);
        const auto lo = static_cast<std::size_t>(std::floor(rank));
        const auto hi = static_cast<std::size_t>(std::ceil(rank));
        const double frac = rank - static_cast<double>(lo);
        return s[lo] + (s[hi] - s[lo]) * frac;
    }
    double median() const { return percentile(50); }
    double min() const { return samples.empty() ? std::nan("") : *std::min_element(samples.begin(), samples.end()); }
    double max() const { return samples.empty() ? std::nan("") : *std::max_element(samples.begin(), samples.end()); }
};

// The result of one bare process run.
struct Spawned {
    bool ok = false;       // spawned, exited normally with status 0
    std::string stdoutText;
    std::string error;     // why not ok
    double wallMs = 0;     // posix_spawn until waitpid returned
};

// How a bare run starts its process: posix_spawn (glibc: clone(CLONE_VM | CLONE_VFORK), the parent's
// memory is not copied) or a plain fork() and execve() in the child.
enum class Start { Spawn, ForkExec };

// Starts argv with stdin /dev/null and stdout/stderr on pipes that are drained with poll() until EOF,
// then waitpid: the same shape of work sb::Runner does around its launcher.
inline Spawned startAndWait(const std::vector<std::string>& args, Start how)
{
    Spawned r;
    int out[2];
    int err[2];
    if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) {
        r.error = std::string("pipe: ") + std::strerror(errno);
        return r;
    }
    std::vector<char*> argv;
    for (const auto& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], 1);
    posix_spawn_file_actions_adddup2(&actions, err[1], 2);

    const auto start = Clock::now();
    pid_t pid = -1;
    int rc = 0;
    if (how == Start::Spawn) {
        rc = ::posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    } else {
        pid = ::fork();
        if (pid == 0) {
            const int null = ::open("/dev/null", O_RDONLY);
            if (null < 0 || ::dup2(null, 0) < 0 || ::dup2(out[1], 1) < 0 || ::dup2(err[1], 2) < 0)
                ::_exit(127);
            ::execve(argv[0], argv.data(), environ);
            ::_exit(127);
        }
        rc = pid < 0 ? errno : 0;
    }
    posix_spawn_file_actions_destroy(&actions);
    ::close(out[1]);
    ::close(err[1]);
    if (rc != 0) {
        ::close(out[0]);
        ::close(err[0]);
        r.error = std::string(how == Start::Spawn ? "posix_spawn: " : "fork: ") + std::strerror(rc);
        return r;
    }
    std::string errText;
    int fds[2] = {out[0], err[0]};
    std::string* sinks[2] = {&r.stdoutText, &errText};
    char buf[65536];
    while (fds[0] >= 0 || fds[1] >= 0) {
        pollfd p[2];
        nfds_t n = 0;
        int idx[2];
        for (int i = 0; i < 2; ++i) {
            if (fds[i] >= 0) {
                p[n] = {fds[i], POLLIN, 0};
                idx[n++] = i;
            }
        }
        if (::poll(p, n, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (nfds_t k = 0; k < n; ++k) {
            if (!p[k].revents)
                continue;
            const int i = idx[k];
            const ssize_t got = ::read(fds[i], buf, sizeof buf);
            if (got > 0) {
                sinks[i]->append(buf, static_cast<std::size_t>(got));
            } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
                ::close(fds[i]);
                fds[i] = -1;
            }
        }
    }
    for (int fd : fds) {
        if (fd >= 0)
            ::close(fd);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    r.wallMs = msSince(start);
    r.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (!r.ok)
        r.error = "status " + std::to_string(status) + ": " + errText.substr(0, 200);
    return r;
}

inline Spawned spawnAndWait(const std::vector<std::string>& args)
{
    return startAndWait(args, Start::Spawn);
}

// The run helper (`sandbench serve`), as a user leaves it running, in a runtime folder of the bench's own:
// XDG_RUNTIME_DIR is set to `runtime` for this process and what it starts; the helper's log goes to `log`. Its
// pid once it listens, -1 (with a message) when it does not start within 10 s.
inline pid_t startHelper(const std::string& sandbench, const std::filesystem::path& runtime,
                         const std::filesystem::path& log)
{
    std::filesystem::create_directories(runtime);
    std::filesystem::permissions(runtime, std::filesystem::perms::owner_all);
    ::setenv("XDG_RUNTIME_DIR", runtime.c_str(), 1);
    std::vector<std::string> args = {sandbench, "serve", "--idle-exit", "0"};
    std::vector<char*> raw;
    for (auto& a : args)
        raw.push_back(a.data());
    raw.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    pid_t helper = -1;
    const int rc = ::posix_spawn(&helper, raw[0], &actions, nullptr, raw.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        std::fprintf(stderr, "cannot start %s serve: %s\n", sandbench.c_str(), std::strerror(rc));
        return -1;
    }
    for (int waited = 0; !std::filesystem::exists(runtime / "sandbench" / "helper.sock"); waited += 10) {
        if (waited > 10000) {
            std::fprintf(stderr, "the helper did not start (%s)\n", log.c_str());
            ::kill(helper, SIGKILL);
            ::waitpid(helper, nullptr, 0);
            return -1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return helper;
}

// The proportional set size of one process, in KiB (0 when it is gone).
inline long pssOf(pid_t pid)
{
    std::ifstream rollup("/proc/" + std::to_string(pid) + "/smaps_rollup");
    for (std::string line; std::getline(rollup, line);) {
        long kb = 0;
        if (std::sscanf(line.c_str(), "Pss: %ld kB", &kb) == 1)
            return kb;
    }
    return 0;
}

// The proportional set size of `root` and every process below it, in KiB: what the helper costs while idle.
inline long pssBelow(pid_t root)
{
    std::map<pid_t, pid_t> parents;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        const std::string name = entry.path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos)
            continue;
        std::ifstream stat(entry.path() / "stat");
        std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
        const auto close = text.rfind(')');
        int ppid = 0;
        char state = 0;
        if (close != std::string::npos && std::sscanf(text.c_str() + close + 1, " %c %d", &state, &ppid) == 2)
            parents[std::stoi(name)] = ppid;
    }
    long total = 0;
    for (const auto& [pid, parent] : parents) {
        bool below = pid == root;
        for (pid_t up = parent; !below && up > 1; up = parents.count(up) ? parents[up] : 0)
            below = up == root;
        if (below)
            total += pssOf(pid);
    }
    return total;
}

// The peer's command for a container-level start of /bin/true: bubblewrap with every namespace it has.
inline std::vector<std::string> bwrapTrueArgs()
{
    return {"/usr/bin/bwrap", "--unshare-all", "--die-with-parent", "--ro-bind", "/usr", "/usr", "--symlink",
            "usr/lib64", "/lib64", "--symlink", "usr/lib", "/lib", "--symlink", "usr/bin", "/bin", "--proc", "/proc",
            "--dev", "/dev", "/bin/true"};
}

inline std::string jsonString(std::string_view s)
{
    std::string out = "\"";
    for (char c : s) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\t': out += "\\t"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20) {
                char esc[8];
                std::snprintf(esc, sizeof esc, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
                out += esc;
            } else {
                out += c;
            }
        }
    }
    return out + "\"";
}

inline std::string jsonNumber(double v)
{
    if (!std::isfinite(v))
        return "null";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

// Parses a positive count, or exits with a usage message.
inline int parseCount(const char* text, const char* what)
{
    char* end = nullptr;
    const long v = std::strtol(text, &end, 10);
    if (!end || *end != '\0' || v < 1 || v > 100000) {
        std::fprintf(stderr, "bad %s '%s': expected an integer in [1, 100000]\n", what, text);
        std::exit(2);
    }
    return static_cast<int>(v);
}

} // namespace bench
