#include "launcher_child.h"

#include "cgroup.h"
#include "container.h"
#include "fd_passing.h"
#include "landlock.h"
#include "launcher_io.h"
#include "netproxy.h"
#include "path_report.h"
#include "seccomp_filter.h"
#include "isolation/start_trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <grp.h>
#include <initializer_list>
#include <linux/capability.h>
#include <string>
#include <string_view>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace sb::launcher {

namespace {

// A job line is an argv and an environment that execve takes (a few MiB at most), written as JSON.
constexpr std::size_t kMaxJobLine = 8 << 20;

[[noreturn]] void childFail(int errFd, const std::string& message)
{
    writeFully(errFd, message);
    ::_exit(127);
}

void setLimit(int errFd, int resource, rlim_t soft, rlim_t hard, const char* name)
{
    const rlimit rl{soft, hard};
    if (::setrlimit(resource, &rl) != 0)
        childFail(errFd, fmt::format("rlimits: setrlimit({}): {}", name, std::strerror(errno)));
}

void dropPrivileges(int errFd, uid_t uid, gid_t gid)
{
    // Empty the bounding and ambient sets first, so nothing can be regained by any later exec.
    for (int cap = 0; cap <= CAP_LAST_CAP; ++cap) {
        if (::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL)
            childFail(errFd, fmt::format("identity: dropping capability {}: {}", cap, std::strerror(errno)));
    }
    ::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    if (::setgroups(0, nullptr) != 0)
        childFail(errFd, fmt::format("identity: setgroups: {}", std::strerror(errno)));
    if (::setresgid(gid, gid, gid) != 0)
        childFail(errFd, fmt::format("identity: setresgid({}): {}", gid, std::strerror(errno)));
    if (::setresuid(uid, uid, uid) != 0)
        childFail(errFd, fmt::format("identity: setresuid({}): {}", uid, std::strerror(errno)));
    // Verify rather than trust: no uid 0 anywhere and no capability left.
    uid_t r = 0, e = 0, s = 0;
    ::getresuid(&r, &e, &s);
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2]{};
    if (r == 0 || e == 0 || s == 0 || ::syscall(SYS_capget, &header, data) != 0 || data[0].effective
        || data[0].permitted || data[1].effective || data[1].permitted)
        childFail(errFd, "identity: privileges remain after the drop");
}

// Empties every capability set: a container's processes start with full capabilities in their user
// namespace, which the program must not keep.
void dropAllCapabilities(int errFd)
{
    for (int cap = 0; cap <= CAP_LAST_CAP; ++cap) {
        if (::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL)
            childFail(errFd, fmt::format("capabilities: dropping {}: {}", cap, std::strerror(errno)));
    }
    ::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
    __user_cap_data_struct data[2]{};
    if (::syscall(SYS_capset, &header, data) != 0)
        childFail(errFd, fmt::format("capabilities: capset: {}", std::strerror(errno)));
}

// Closes every descriptor from `from` up, except those in `keep`.
void closeAllBut(int from, std::initializer_list<int> keep)
{
    int kept[6];
    std::size_t n = 0;
    for (int fd : keep) { // in ascending order, by insertion
        if (fd < from || n == std::size(kept))
            continue;
        std::size_t i = n++;
        for (; i > 0 && kept[i - 1] > fd; --i)
            kept[i] = kept[i - 1];
        kept[i] = fd;
    }
    for (std::size_t i = 0; i < n; ++i) {
        if (kept[i] > from)
            ::syscall(SYS_close_range, from, kept[i] - 1, 0);
        from = kept[i] + 1;
    }
    ::syscall(SYS_close_range, from, ~0U, 0);
}

// A pooled sandbox's program process, every layer but the limits (and, unless it fits the wait, the
// seccomp filter) in place: says so and waits for the job, which the Runner writes straight here.
void awaitJobInChild(LaunchSpec& spec, int errFd, LineReader& job)
{
    writeFully(errFd, std::string(1, kReadyMarker));
    const auto line = job.next();
    if (!line && job.overflowed())
        childFail(errFd, fmt::format("launch spec: the job is larger than {} MiB", kMaxJobLine >> 20));
    if (!line)
        ::_exit(0); // released without a job (the pool went, or its owner)
    writeFully(errFd, std::string(1, kStartedMarker));
    ::close(job.fd());
    if (auto applied = sb::applyJob(spec, *line); !applied)
        childFail(errFd, applied.error().message);
    sb::starttrace::mark("child.job");
}

// A program started ahead waits on kAheadGoFd, the one descriptor of ours it keeps across exec: moved there
// (the channels that were there move up, closed on exec as before) while calls other than the filter's
// bootstrap ones are still allowed.
void placeTheWait(int& errFd, int& fdSocket, int goFd)
{
    for (int* fd : {&errFd, &fdSocket}) {
        if (*fd != sb::kAheadGoFd || goFd == sb::kAheadGoFd)
            continue;
        const int moved = ::fcntl(*fd, F_DUPFD_CLOEXEC, sb::kAheadGoFd + 1);
        if (moved < 0)
            childFail(errFd, fmt::format("launcher: the program's wait: {}", std::strerror(errno)));
        ::close(*fd);
        *fd = moved;
    }
    const bool placed = goFd == sb::kAheadGoFd ? ::fcntl(goFd, F_SETFD, 0) == 0 : ::dup2(goFd, sb::kAheadGoFd) >= 0;
    if (!placed)
        childFail(errFd, fmt::format("launcher: the program's wait: {}", std::strerror(errno)));
    if (goFd != sb::kAheadGoFd)
        ::close(goFd);
}

void loadSeccomp(const LaunchSpec& spec, int errFd, int fdSocket)
{
    auto notifyFd = spec.seccompProgram.empty() ? sb::seccomp::loadFilter(spec.syscalls, !spec.networkAllow.empty())
                                                : sb::seccomp::loadCompiled(spec.seccompProgram);
    if (!notifyFd)
        childFail(errFd, "seccomp: " + notifyFd.error().message);
    if (!sb::sendFd(fdSocket, *notifyFd))
        childFail(errFd, fmt::format("seccomp: handing over the notification fd: {}", std::strerror(errno)));
    ::close(*notifyFd);
    ::close(fdSocket);
    sb::starttrace::mark("child.seccomp");
}

// Adds a reaped process's CPU time and peak memory to the run's.
void countUsage(ProgramEnd& end, const rusage& usage)
{
    auto us = [](const timeval& tv) { return static_cast<std::int64_t>(tv.tv_sec) * 1'000'000 + tv.tv_usec; };
    end.cpuUs += us(usage.ru_utime) + us(usage.ru_stime);
    end.peakRssKb = std::max<std::int64_t>(end.peakRssKb, usage.ru_maxrss);
}

} // namespace

[[noreturn]] void runChild(LaunchSpec& spec, int errFd, int fdSocket, LineReader* job, int baseFd, int goFd)
{
    sb::starttrace::mark("child.start");
    ::setpgid(0, 0); // the run's own process group: one kill(-pgid) reaches all of it
    ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    for (int sig : {SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGCHLD})
        std::signal(sig, SIG_DFL);

    // Keep 0-2 and our private channels (closed on exec); close everything else: the program gets no
    // descriptor that reaches outside the sandbox but its output (and a channel run's channel: its 0 and 1).
    closeAllBut(3, {errFd, fdSocket, job ? job->fd() : -1, baseFd, goFd});
    if (goFd >= 0)
        placeTheWait(errFd, fdSocket, goFd);

    const std::string workDir = spec.container ? sb::container::kWorkDir : spec.workDir;
    if (::chdir(workDir.c_str()) != 0)
        childFail(errFd, fmt::format("work dir: chdir {}: {}", workDir, std::strerror(errno)));

    if (spec.container)
        dropAllCapabilities(errFd);
    else if (spec.dropPrivileges)
        dropPrivileges(errFd, spec.uid, spec.gid);
    // A change of identity clears the parent-death signal: set it again, and make sure the launcher is
    // still there to be the parent.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (!spec.container && ::getppid() == 1) // in a container the parent is the namespace's pid 1 anyway
        childFail(errFd, "launcher: gone before the program started");
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        childFail(errFd, fmt::format("no_new_privs: {}", std::strerror(errno)));
    if (::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) != 0)
        childFail(errFd, fmt::format("dumpable: {}", std::strerror(errno)));
    sb::starttrace::mark("child.identity");

    sb::landlock::Rules rules = sb::paths::landlockRules(spec); // the supervisor's path reports model these
    // The work dir is the working directory already: named "." it is found even where the run's identity may
    // not search the folders above it (a sandbox's workspace beside a root caller's store).
    if (!spec.container && !rules.writePaths.empty() && rules.writePaths.front() == spec.workDir)
        rules.writePaths.front().assign(1, '.');
    if (!spec.networkAllow.empty())
        rules.connectPorts.push_back(sb::netproxy::kPort);
    if (auto applied = sb::landlock::restrictSelf(rules); !applied)
        childFail(errFd, "landlock: " + applied.error().message);
    sb::starttrace::mark("child.landlock");
    const bool filterFirst = !job || sb::seccomp::fitsAPooledWait(spec.syscalls);
    if (job)
        job->reserve(kMaxJobLine);
    if (filterFirst)
        loadSeccomp(spec, errFd, fdSocket);
    if (job)
        awaitJobInChild(spec, errFd, *job);
    if (!filterFirst)
        loadSeccomp(spec, errFd, fdSocket);
    if (goFd >= 0) // started ahead: the limits and the exec follow, and the program waits for its job itself
        writeFully(errFd, std::string(1, kReadyMarker));

    if (spec.processBase == sb::kProcessBaseCountedByLauncher) {
        std::int64_t tasks = -1;
        ssize_t n = 0;
        do {
            n = baseFd >= 0 ? ::read(baseFd, &tasks, sizeof tasks) : -1;
        } while (n < 0 && errno == EINTR);
        if (n != static_cast<ssize_t>(sizeof tasks) || tasks < 0)
            childFail(errFd, "rlimits: the launcher could not count the caller's tasks for RLIMIT_NPROC");
        ::close(baseFd);
        spec.processBase = tasks;
    }
    // Nothing is allocated past RLIMIT_AS: a new mapping of this process's own (a sanitizer's allocator
    // maps afresh; its address space is far past any limit) would be refused before the program is there.
    std::vector<char*> argv;
    for (const auto& a : spec.argv)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    std::vector<char*> envp;
    for (const auto& e : spec.env)
        envp.push_back(const_cast<char*>(e.c_str()));
    envp.push_back(nullptr);
    const auto& l = spec.limits;
    const rlim_t mb = 1024 * 1024;
    const auto cpuSeconds = static_cast<rlim_t>(sb::cpuLimitSeconds(l));
    setLimit(errFd, RLIMIT_CPU, cpuSeconds, cpuSeconds + 1, "RLIMIT_CPU");
    setLimit(errFd, RLIMIT_AS, static_cast<rlim_t>(l.memoryMb) * mb, static_cast<rlim_t>(l.memoryMb) * mb, "RLIMIT_AS");
    setLimit(errFd, RLIMIT_FSIZE, static_cast<rlim_t>(l.fileSizeMb) * mb, static_cast<rlim_t>(l.fileSizeMb) * mb,
             "RLIMIT_FSIZE");
    setLimit(errFd, RLIMIT_NOFILE, static_cast<rlim_t>(l.openFiles), static_cast<rlim_t>(l.openFiles), "RLIMIT_NOFILE");
    const auto nproc = static_cast<rlim_t>(l.processes + spec.processBase);
    setLimit(errFd, RLIMIT_NPROC, nproc, nproc, "RLIMIT_NPROC");
    setLimit(errFd, RLIMIT_CORE, 0, 0, "RLIMIT_CORE");
    setLimit(errFd, RLIMIT_MEMLOCK, 0, 0, "RLIMIT_MEMLOCK");
    setLimit(errFd, RLIMIT_MSGQUEUE, 0, 0, "RLIMIT_MSGQUEUE");

    sb::starttrace::mark("child.execve");
    ::execve(argv[0], argv.data(), envp.data());
    childFail(errFd, fmt::format("exec {}: {}", spec.argv.front(), std::strerror(errno)));
}

[[noreturn]] void runContainerInit(LaunchSpec& spec, int errFd, int fdSocket, LineReader* job, int goFd, int syncFd,
                                   int statusFd, int gateFd, const std::vector<int>& cgroupTasks)
{
    sb::starttrace::mark("init.start");
    // Into the run's cgroup before anything of the run starts: all it forks is counted and limited there.
    if (!cgroupTasks.empty()) {
        if (!sb::cgroup::moveSelf(cgroupTasks))
            childFail(errFd, fmt::format("cgroup limits: the sandbox's pid 1 could not move into its cgroup: {}; the "
                                         "strict run was refused rather than run without them",
                                         std::strerror(errno)));
        for (int fd : cgroupTasks)
            ::close(fd);
        sb::starttrace::mark("init.cgroup");
    }
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    // The network namespace is made alongside (container.h, cloneFlags()) and joined before the run starts.
    auto network = sb::container::startNetworkNamespace();
    if (!network)
        childFail(errFd, "container: " + network.error().message);
    auto joinNetwork = [&] {
        if (network->pid < 0)
            return;
        if (auto joined = sb::container::enterNetworkNamespace(*network); !joined)
            childFail(errFd, "container: " + joined.error().message);
        sb::starttrace::mark("init.net");
    };
    char go = 0;
    if (::read(syncFd, &go, 1) != 1)
        childFail(errFd, "user namespace: the supervisor could not map the sandbox's ids");
    ::close(syncFd);
    sb::starttrace::mark("init.mapped");
    if (gateFd >= 0) {
        joinNetwork(); // the gate listens on the sandbox's loopback
        if (auto gate = sb::netproxy::startGate(gateFd); !gate)
            childFail(errFd, gate.error().message);
        ::close(gateFd);
    }
    const sb::container::RootSpec root{spec.stageDir.empty() ? spec.workDir : spec.stageDir, spec.readPaths,
                                       spec.devPaths, spec.tmpSizeMb};
    if (auto entered = sb::container::enterRoot(root); !entered)
        childFail(errFd, "container: " + entered.error().message);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0); // cleared by the change of identity in enterRoot
    sb::starttrace::mark("init.root");
    joinNetwork();

    const pid_t program = ::fork();
    if (program < 0)
        childFail(errFd, fmt::format("container: fork: {}", std::strerror(errno)));
    if (program == 0) {
        ::close(statusFd);
        runChild(spec, errFd, fdSocket, job, -1, goFd);
    }
    // Only the program and the supervisor hold the run's channels.
    ::close(errFd);
    ::close(fdSocket);
    if (job)
        ::close(job->fd());
    if (goFd >= 0)
        ::close(goFd);
    for (int fd : {0, 1, 2})
        ::close(fd);
    ProgramEnd end;
    bool programEnded = false;
    bool ending = false;
    for (;;) {
        int status = 0;
        rusage usage{};
        const pid_t pid = ::wait4(-1, &status, __WALL | (programEnded && !ending ? WNOHANG : 0), &usage);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            break; // no child left: every process of the namespace but this one is gone
        }
        ending = false;
        if (pid == 0) {
            // The program has ended, and so does the rest of the run: ended here, as the kernel would end it
            // at our exit, so that the supervisor has the run's end before that exit tears the namespaces
            // down. Again after every process reaped: one forked meanwhile is gone by the next round.
            ::kill(-1, SIGKILL);
            ending = true;
            continue;
        }
        countUsage(end, usage);
        if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
            end.sigkilled = true;
        if (pid == program) {
            sb::starttrace::mark("init.reaped");
            end.status = status;
            programEnded = true;
        }
    }
    sb::starttrace::mark("init.told");
    if (programEnded) {
        writeFully(statusFd, std::string(reinterpret_cast<const char*>(&end), sizeof end));
        // Our exit tears the namespaces down (~0.2 ms of a CPU): not before the supervisor has reported the
        // run, which it tells by closing its end (or by its death).
        char released = 0;
        [[maybe_unused]] const ssize_t n = ::read(statusFd, &released, 1);
    }
    ::_exit(0);
}

} // namespace sb::launcher
