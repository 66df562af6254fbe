// sandbench-launcher: sets up and supervises one sandboxed run.
//
// Every run gets a fresh launcher process, forked by the caller process's launcher zygote (zygote.h; or
// exec'd, posix_spawn, when there is none), so that the set-up below runs single-threaded, far from the
// caller's threads and memory: peak-memory figures are the run's own, not a copy of a large caller's, and
// no descriptor of the caller survives (everything above fd 5 is closed at once). The launcher forks the
// program, applies the layers in the child, then supervises: it answers
// refused syscalls (seccomp user notification), enforces the wall-clock limit, reaps every descendant
// (it is their subreaper) and kills the whole tree when the program ends, times out or is cancelled.
// It writes one JSON result on fd 4 and nothing on stdout/stderr, which belong to the program.

#include "cgroup.h"
#include "container.h"
#include "fd_passing.h"
#include "landlock.h"
#include "isolation/launch_spec.h"
#include "netproxy.h"
#include "path_report.h"
#include "run_usage.h"
#include "seccomp_filter.h"
#include "isolation/start_trace.h"
#include "zygote.h"

#include <fmt/format.h>
#include <seccomp.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <poll.h>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using sb::LaunchResult;
using sb::LaunchSpec;
using Clock = std::chrono::steady_clock;

void writeAll(int fd, const std::string& data)
{
    std::size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return;
        done += static_cast<std::size_t>(n);
    }
}

std::string readAll(int fd)
{
    std::string out;
    char buf[8192];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return out;
        out.append(buf, static_cast<std::size_t>(n));
    }
}

// The spec fd, a line at a time: the sandbox line at once, the job line then or (pooled) when a run comes.
class LineReader {
public:
    explicit LineReader(int fd) : m_fd(fd) {}
    int fd() const { return m_fd; }
    // Goes on reading from `fd` (what it read ahead stays).
    void adopt(int fd) { m_fd = fd; }
    // Reads lines of at most `bytes` without allocating any more memory: a pooled sandbox's program process
    // waits for its job under its seccomp filter, whose large mappings go to a launcher that does not answer
    // until the job has come (seccomp_filter.h, kSupervisedMappingBytes).
    void reserve(std::size_t bytes)
    {
        m_buffer.reserve(bytes);
        m_capacity = bytes;
    }
    // A line was longer than reserve() allows: next() gave nothing.
    bool overflowed() const { return m_overflowed; }
    // The next line without its newline; nothing at EOF (a last line without newline counts).
    std::optional<std::string> next()
    {
        for (;;) {
            if (const auto newline = m_buffer.find('\n'); newline != std::string::npos) {
                std::string rest = m_buffer.substr(newline + 1); // nothing after a job line
                std::string line = std::exchange(m_buffer, std::move(rest));
                line.resize(newline);
                return line;
            }
            char buf[8192];
            const ssize_t n = ::read(m_fd, buf, sizeof buf);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0) {
                if (m_buffer.empty())
                    return std::nullopt;
                return std::exchange(m_buffer, {});
            }
            if (m_capacity > 0 && m_buffer.size() + static_cast<std::size_t>(n) > m_capacity) {
                m_overflowed = true;
                return std::nullopt;
            }
            m_buffer.append(buf, static_cast<std::size_t>(n));
        }
    }

private:
    int m_fd;
    std::string m_buffer;
    std::size_t m_capacity = 0;
    bool m_overflowed = false;
};

// A job line is an argv and an environment that execve takes (a few MiB at most), written as JSON.
constexpr std::size_t kMaxJobLine = 8 << 20;

// The result, newline-terminated: a complete line tells the Runner that the run is over without waiting
// for this process to end. The run's output pipes are closed first, so their EOF comes with it; what is
// left to this process (a cgroup to remove, its exit, a mount namespace to tear down) is off the caller's
// path.
void report(const LaunchResult& result)
{
    ::close(1);
    ::close(2);
    writeAll(sb::kLauncherResultFd, sb::encodeResult(result) + '\n');
}

[[noreturn]] void finish(const LaunchResult& result)
{
    report(result);
    ::_exit(0);
}

[[noreturn]] void finishWithError(const std::string& message)
{
    LaunchResult r;
    r.setupFailed = true;
    r.setupError = message;
    finish(r);
}

// ---- child side: runs between fork and execve; reports failure on errFd and exits --------------------

[[noreturn]] void childFail(int errFd, const std::string& message)
{
    writeAll(errFd, message);
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

// Markers on the error channel, which never carries these bytes otherwise.
constexpr char kReadyMarker = '\0';   // a pooled sandbox is prepared and waits for its job
constexpr char kStartedMarker = '\1'; // its job came

// Whether a pooled sandbox's program process may load its seccomp filter before it waits for its job:
// only if the filter lets every call of that wait through untouched (reading and parsing the job,
// reporting on the error channel, ending when released): no rule refuses one, and a default-deny filter
// (strict) allows each unconditionally. Then the filter costs nothing after the job.
bool filterFitsTheWait(const sb::SyscallPolicy& policy)
{
    static constexpr std::string_view kWaitCalls[] = {"read", "write", "close", "brk", "mmap", "munmap", "mremap",
                                                      "madvise", "futex", "exit", "exit_group", "rt_sigreturn"};
    for (const std::string_view call : kWaitCalls) {
        bool allowed = policy.defaultAction == sb::SyscallAction::Allow || sb::seccomp::isBootstrapSyscall(call);
        for (const auto& rule : policy.rules) {
            if (std::find(rule.names.begin(), rule.names.end(), call) == rule.names.end())
                continue;
            if (rule.action != sb::SyscallAction::Allow && rule.action != sb::SyscallAction::Log)
                return false;
            allowed = allowed || rule.args.empty();
        }
        if (!allowed)
            return false;
    }
    return true;
}

// A pooled sandbox's program process, every layer but the limits (and, unless it fits the wait, the
// seccomp filter) in place: says so and waits for the job, which the Runner writes straight here.
void awaitJobInChild(LaunchSpec& spec, int errFd, LineReader& job)
{
    writeAll(errFd, std::string(1, kReadyMarker));
    const auto line = job.next();
    if (!line && job.overflowed())
        childFail(errFd, fmt::format("launch spec: the job is larger than {} MiB", kMaxJobLine >> 20));
    if (!line)
        ::_exit(0); // released without a job (the pool went, or its owner)
    writeAll(errFd, std::string(1, kStartedMarker));
    ::close(job.fd());
    if (auto applied = sb::applyJob(spec, *line); !applied)
        childFail(errFd, applied.error().message);
    sb::starttrace::mark("child.job");
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

// The program: applies the layers and becomes the snippet or command. In a container it runs as the
// sandbox user inside the new root; otherwise on the host, as a dropped or the caller's identity.
// job: where a pooled sandbox's job comes from; null when the spec has its job already.
// baseFd: where the launcher sends the caller's task count (kProcessBaseCountedByLauncher), else -1.
[[noreturn]] void runChild(LaunchSpec& spec, int errFd, int fdSocket, LineReader* job, int baseFd)
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
    // descriptor that reaches outside the sandbox but its output.
    closeAllBut(3, {errFd, fdSocket, job ? job->fd() : -1, baseFd});

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
    const bool filterFirst = !job || filterFitsTheWait(spec.syscalls);
    if (job)
        job->reserve(kMaxJobLine);
    if (filterFirst)
        loadSeccomp(spec, errFd, fdSocket);
    if (job)
        awaitJobInChild(spec, errFd, *job);
    if (!filterFirst)
        loadSeccomp(spec, errFd, fdSocket);

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

// How the program ended, from the container's pid 1: its wait status, and the CPU time and peak memory of
// the run's processes as wait4 gave them when each was reaped (the program's own, with its reaped children),
// not pid 1's or its network helper's. Sent when every process of the run but pid 1 is gone.
struct ProgramEnd {
    int status = 0;
    std::int64_t cpuUs = 0;
    std::int64_t peakRssKb = 0;
    bool sigkilled = false; // a process of the run ended by SIGKILL (the OOM killer's, or pid 1's at the end)
};

void countUsage(ProgramEnd& end, const rusage& usage)
{
    auto us = [](const timeval& tv) { return static_cast<std::int64_t>(tv.tv_sec) * 1'000'000 + tv.tv_usec; };
    end.cpuUs += us(usage.ru_utime) + us(usage.ru_stime);
    end.peakRssKb = std::max<std::int64_t>(end.peakRssKb, usage.ru_maxrss);
}

// pid 1's ProgramEnd, read as soon as it is there (pid 1 is still ending); nothing when pid 1 ended
// without one (killed: a timeout, a cancel).
std::optional<ProgramEnd> readProgramEnd(int fd)
{
    ProgramEnd end;
    auto* bytes = reinterpret_cast<char*>(&end);
    std::size_t got = 0;
    while (got < sizeof end) {
        const ssize_t n = ::read(fd, bytes + got, sizeof end - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return std::nullopt;
        got += static_cast<std::size_t>(n);
    }
    return end;
}

// The container's pid 1: waits for its id maps, builds the root, starts the program and reaps until the
// program ends; then it ends every other process of the pid namespace, tells the supervisor, and exits.
[[noreturn]] void runContainerInit(LaunchSpec& spec, int errFd, int fdSocket, LineReader* job, int syncFd,
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
        runChild(spec, errFd, fdSocket, job, -1);
    }
    // Only the program and the supervisor hold the run's channels.
    ::close(errFd);
    ::close(fdSocket);
    if (job)
        ::close(job->fd());
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
        writeAll(statusFd, std::string(reinterpret_cast<const char*>(&end), sizeof end));
        // Our exit tears the namespaces down (~0.2 ms of a CPU): not before the supervisor has reported the
        // run, which it tells by closing its end (or by its death).
        char released = 0;
        [[maybe_unused]] const ssize_t n = ::read(statusFd, &released, 1);
    }
    ::_exit(0);
}

// ---- supervisor side ----------------------------------------------------------------------------------

// Every process of the run, wherever it went: the process group, every child we are subreaper of, and
// (when we dropped to a uid of the run's own) everything that uid has.
void killTree(pid_t pgid, const LaunchSpec& spec)
{
    if (pgid > 0)
        ::kill(-pgid, SIGKILL);
    if (spec.dropPrivileges)
        sb::killAllOfTransientUid(spec.uid, spec.gid);
    const std::string self = std::to_string(::getpid());
    if (DIR* proc = ::opendir("/proc")) {
        while (const dirent* entry = ::readdir(proc)) {
            const char* name = entry->d_name;
            if (name[0] < '1' || name[0] > '9')
                continue;
            const int fd = ::open(fmt::format("/proc/{}/stat", name).c_str(), O_RDONLY | O_CLOEXEC);
            if (fd < 0)
                continue;
            char buf[512];
            const ssize_t n = ::read(fd, buf, sizeof buf - 1);
            ::close(fd);
            if (n <= 0)
                continue;
            buf[n] = 0;
            const char* close = std::strrchr(buf, ')');
            int ppid = 0;
            char state = 0;
            if (close && std::sscanf(close + 1, " %c %d", &state, &ppid) == 2 && std::to_string(ppid) == self)
                ::kill(std::atoi(name), SIGKILL);
        }
        ::closedir(proc);
    }
}

// Limits on the run as a whole, checked while it goes on: CPU time and memory from the run's cgroup where
// it has one, else summed over its process tree by the launcher every 50 ms; the work dir's size as soon
// as the run writes there (inotify), and every 100 ms or more anyway. rlimits stay in force per process
// underneath, so a single large allocation or file still stops at once.
class RunMeter {
public:
    RunMeter(const LaunchSpec& spec, Clock::time_point start)
        : m_spec(spec), m_watch(spec.workDir), m_nextSample(start + kEvery), m_nextDisk(start + kEvery)
    {
    }

    int watchFd() const { return m_watch.fd(); }
    void workDirChanged() { m_diskDue = m_watch.drain() || m_diskDue; }

    // When exceeded() wants to be called next.
    Clock::time_point nextCheck() const
    {
        return m_diskDue ? std::min(m_nextSample, m_lastDisk + m_diskGap) : std::min(m_nextSample, m_nextDisk);
    }

    // Samples what is due; true (with the reason in `result`) when the run passed a limit and must end.
    // figures: the run's cgroup's, when it has one.
    bool exceeded(pid_t child, const sb::cgroup::Figures* figures, LaunchResult& result)
    {
        const auto now = Clock::now();
        const auto& limits = m_spec.limits;
        if (now >= m_nextSample && processesExceeded(child, figures, result))
            return true;
        if (now >= m_nextDisk || (m_diskDue && now >= m_lastDisk + m_diskGap)) {
            const auto disk = sb::usage::diskUsage(m_spec.workDir, limits.diskMb * 1024);
            m_lastDisk = Clock::now();
            m_diskDue = false;
            // A large work dir costs more to measure: look less often, at most a few percent of a core.
            const auto took = std::chrono::duration_cast<std::chrono::microseconds>(m_lastDisk - now);
            m_diskGap = std::max<std::chrono::microseconds>(kMinDiskGap, took * 10);
            m_nextDisk = m_lastDisk + std::max<std::chrono::microseconds>(kEvery * 2, took * 30);
            if (disk.kb > limits.diskMb * 1024) {
                result.diskLimited = true;
                result.limitDetail = fmt::format("the work dir grew past its quota (disk_mb: {})", limits.diskMb);
                return true;
            }
        }
        return false;
    }

private:
    static constexpr auto kEvery = std::chrono::milliseconds(50);
    static constexpr auto kMinDiskGap = std::chrono::milliseconds(2);

    bool processesExceeded(pid_t child, const sb::cgroup::Figures* figures, LaunchResult& result)
    {
        m_nextSample = Clock::now() + kEvery;
        const auto& limits = m_spec.limits;
        if (figures) { // the cgroup holds memory and pids itself and counts every process's CPU
            // The kernel's OOM killer ended a process of the run: the run as a whole reached its memory
            // limit, and ends now, as it does where the launcher measures memory itself.
            if (figures->oomKilled()) {
                result.memoryLimited = true;
                result.limitDetail = fmt::format("the kernel ended a process of the run at its memory limit of {} MiB",
                                                 limits.memoryMb);
                return true;
            }
            const std::int64_t usedUs = figures->cpuUsageUs();
            if (usedUs >= 0 && usedUs >= sb::cpuLimitUs(limits)) {
                result.cpuLimited = true;
                result.limitDetail = fmt::format("the run used {} ms of CPU time in all", usedUs / 1000);
                return true;
            }
            return false;
        }
        const auto tree = sb::usage::sampleTree(child);
        const std::int64_t usedUs = sb::usage::reapedCpuUs() + tree.cpuUs;
        if (usedUs >= sb::cpuLimitUs(limits)) {
            result.cpuLimited = true;
            result.limitDetail = fmt::format("the run's processes used {} ms of CPU time in all", usedUs / 1000);
            return true;
        }
        if (tree.anonKb > limits.memoryMb * 1024) {
            result.memoryLimited = true;
            result.limitDetail = fmt::format("the run's {} processes held {} MiB of memory together", tree.processes,
                                             tree.anonKb / 1024);
            return true;
        }
        return false;
    }

    const LaunchSpec& m_spec;
    sb::usage::WorkDirWatch m_watch;
    Clock::time_point m_nextSample;
    Clock::time_point m_nextDisk;
    Clock::time_point m_lastDisk{};
    std::chrono::microseconds m_diskGap = kMinDiskGap;
    bool m_diskDue = false;
};

// A large mapping asked for by a process of the run, seen while it waits in the call: past its RLIMIT_AS
// (the policy's memory_mb), the kernel refuses it once the call goes on. The launcher's own sight of the run
// reaching its memory limit.
void noteAddressSpaceRequest(const seccomp_notif& request, std::uint64_t growth, const sb::Limits& limits,
                             int notifyFd, LaunchResult& result)
{
    const std::int64_t mapped = sb::usage::addressSpaceBytes(static_cast<pid_t>(request.pid));
    // Read while the caller waits; still the same call (and process) afterwards?
    if (mapped < 0 || seccomp_notify_id_valid(notifyFd, request.id) != 0)
        return;
    const auto limit = static_cast<std::uint64_t>(limits.memoryMb) << 20;
    if (static_cast<std::uint64_t>(mapped) + growth <= limit)
        return;
    result.memoryRefused = true;
    if (result.limitDetail.empty())
        result.limitDetail = fmt::format("a process of the run asked for {} MiB more address space with {} MiB "
                                         "mapped already, past its limit",
                                         (growth + (1 << 20) - 1) >> 20, mapped >> 20);
}

// Whether the program is there: its process has gone through execve (which closed the last writer of errFd,
// the launcher's pipe from its child), so what it maps is the program's, not the launcher's own code before
// exec (a job being copied, a sanitizer's allocator). A call waiting in the filter after exec finds the pipe
// closed already, whatever the order its readiness was seen in.
bool programStarted(int errFd)
{
    if (errFd < 0)
        return true;
    pollfd fd{errFd, POLLIN, 0};
    return ::poll(&fd, 1, 0) == 1 && (fd.revents & POLLHUP) != 0;
}

// ---- a pooled launcher, before its job -------------------------------------------------------------

struct Waiting {
    int sigFd;
    int errFd;   // the program's process: its markers, else why it failed; EOF when it is gone
    pid_t child; // the program's first process (pid 1 of a container)
};

// The sandbox is let go without a job (the pool shut down, its owner died) or cannot take one: every process
// of it ends, and the launcher with it.
[[noreturn]] void release(const LaunchSpec& spec, const Waiting& w, sb::cgroup::RunGroup& group,
                          const std::string& why)
{
    killTree(w.child, spec);
    for (;;) {
        if (::waitpid(-1, nullptr, __WALL) < 0 && errno != EINTR)
            break;
    }
    if (group.active())
        sb::cgroup::destroy(group);
    // The work dir of a sandbox no run took is nobody else's to remove when the caller died, and its EOF
    // may come before the parent-death signal says so.
    if (!spec.keepWorkDir)
        sb::removeWorkDir(spec.workDir);
    finishWithError(why);
}

// Waits until the program's process is ready (every layer the job does not decide is in place: it says so
// with "ready" on the result fd) and has its job (the Runner writes it to the process itself).
void awaitJob(const LaunchSpec& spec, const Waiting& w, sb::cgroup::RunGroup& group, sb::paths::Reporter& paths)
{
    bool ready = false;
    for (;;) {
        pollfd fds[2] = {{w.sigFd, POLLIN, 0}, {w.errFd, POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            release(spec, w, group, fmt::format("launcher: poll: {}", std::strerror(errno)));
        }
        if (fds[0].revents & POLLIN) {
            signalfd_siginfo info{};
            while (::read(w.sigFd, &info, sizeof info) == sizeof info) {
                if (info.ssi_signo != SIGCHLD)
                    release(spec, w, group, "cancelled before a job was handed over");
            }
        }
        if (!fds[1].revents)
            continue;
        char buf[1024];
        const ssize_t n = ::read(w.errFd, buf, sizeof buf);
        if (n <= 0) // gone without a word: released (EOF instead of a job), or it failed silently
            release(spec, w, group, ready ? "released without a job" : "the sandbox ended before its job");
        std::string why;
        bool started = false;
        for (ssize_t i = 0; i < n; ++i) {
            if (buf[i] == kReadyMarker && !ready) {
                ready = true;
                sb::starttrace::mark("launcher.ready");
                writeAll(sb::kLauncherResultFd, "ready\n");
                paths.prepare(w.child); // the root is built: pid 1's is the program's
            } else if (buf[i] == kStartedMarker && ready && !started) {
                started = true;
                sb::starttrace::mark("launcher.job");
            } else {
                why += buf[i];
            }
        }
        if (!why.empty())
            release(spec, w, group, why); // it could not take its job: the run's result says why
        if (started)
            return;
    }
}

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

} // namespace

namespace {

// ---- the run, step by step ----------------------------------------------------------------------------

// The spec from fd 3 and, unless the sandbox is pooled (its process reads its own job), its job.
LaunchSpec readSpec(LineReader& specIn, std::int64_t enteredNs)
{
    const auto sandboxLine = specIn.next();
    auto spec = sandboxLine ? sb::decodeSandbox(*sandboxLine) : sb::fail("launch spec: empty");
    if (!spec)
        finishWithError(spec.error().message);
    if (!spec->pooled) {
        const auto jobLine = specIn.next();
        if (!jobLine)
            finishWithError("launch spec: the job is missing");
        if (auto job = sb::applyJob(*spec, *jobLine); !job)
            finishWithError(job.error().message);
        ::close(sb::kLauncherSpecFd);
    }
    if (spec->traceStart) {
        sb::starttrace::enable();
        sb::starttrace::mark("launcher.main", enteredNs);
        sb::starttrace::mark("launcher.spec");
    }
    return std::move(*spec);
}

// SIGCHLD and the signals that cancel the run, read from a descriptor the supervisor polls; the launcher is
// the subreaper of the run's orphans.
int watchSignals()
{
    sigset_t handled;
    sigemptyset(&handled);
    for (int sig : {SIGCHLD, SIGTERM, SIGINT, SIGHUP})
        sigaddset(&handled, sig);
    ::sigprocmask(SIG_BLOCK, &handled, nullptr);
    std::signal(SIGPIPE, SIG_IGN);
    const int sigFd = ::signalfd(-1, &handled, SFD_CLOEXEC | SFD_NONBLOCK);
    if (sigFd < 0)
        finishWithError(fmt::format("launcher: signalfd: {}", std::strerror(errno)));
    if (::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0)
        finishWithError(fmt::format("launcher: subreaper: {}", std::strerror(errno)));
    return sigFd;
}

// The channels between the launcher and the program's process; -1 where the run does without one.
struct Channels {
    int errPipe[2] = {-1, -1};    // why the setup failed (closed on exec), or a pooled sandbox's markers
    int fdPair[2] = {-1, -1};     // the seccomp notification fd, handed over
    int syncPipe[2] = {-1, -1};   // container: holds the child until its ids are mapped
    int statusPair[2] = {-1, -1}; // container: pid 1 tells the program's end (ProgramEnd)
    int gatePair[2] = {-1, -1};   // network allowlist: connections for the proxy
    int basePipe[2] = {-1, -1};   // the caller's task count, for the program's RLIMIT_NPROC
};

Channels openChannels(const LaunchSpec& spec, LineReader& specIn)
{
    Channels ch;
    if (::pipe2(ch.errPipe, O_CLOEXEC) != 0 || ::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ch.fdPair) != 0)
        finishWithError(fmt::format("launcher: channels: {}", std::strerror(errno)));
    // Pooled: the spec fd goes to the program's process, which reads its job there itself (one hop
    // less); moved above the launcher's fixed descriptors.
    if (spec.pooled) {
        const int jobFd = ::fcntl(sb::kLauncherSpecFd, F_DUPFD_CLOEXEC, sb::kLauncherResultFd + 1);
        if (jobFd < 0)
            finishWithError(fmt::format("launcher: channels: {}", std::strerror(errno)));
        ::close(sb::kLauncherSpecFd);
        specIn.adopt(jobFd);
    }

    // The container level: one clone into every namespace, a pipe to hold the child until its ids are
    // mapped, and a socket on which pid 1 tells the program's end (the supervisor only sees pid 1's) and
    // waits until the run is reported (ProgramEnd).
    if (!spec.networkAllow.empty() && !spec.container)
        finishWithError("network allowlist: needs the container or strict level");
    if (!spec.networkAllow.empty()
        && ::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ch.gatePair) != 0)
        finishWithError(fmt::format("network proxy: channel: {}", std::strerror(errno)));
    if (spec.container) {
        if (::pipe2(ch.syncPipe, O_CLOEXEC) != 0
            || ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ch.statusPair) != 0)
            finishWithError(fmt::format("launcher: container channels: {}", std::strerror(errno)));
    }
    // The caller's task count, for the program's RLIMIT_NPROC: counted here once the program's process is
    // forked, while it applies its first layers. Its end sits above the descriptors that process sets up.
    if (spec.processBase == sb::kProcessBaseCountedByLauncher && !spec.container) {
        if (::pipe2(ch.basePipe, O_CLOEXEC) != 0)
            finishWithError(fmt::format("launcher: channels: {}", std::strerror(errno)));
        const int readEnd = ::fcntl(ch.basePipe[0], F_DUPFD_CLOEXEC, sb::kLauncherResultFd + 1);
        if (readEnd < 0)
            finishWithError(fmt::format("launcher: channels: {}", std::strerror(errno)));
        ::close(ch.basePipe[0]);
        ch.basePipe[0] = readEnd;
    }
    return ch;
}

// Strict runs: limits for the run as a whole, where the machine offers cgroups. Offered but not made
// (a full hierarchy, a name taken) is a layer that failed: the run is refused, not run without it.
sb::cgroup::RunGroup makeRunGroup(const LaunchSpec& spec)
{
    sb::cgroup::RunGroup group;
    if (spec.cgroups) {
        auto made = sb::cgroup::create(sb::cgroup::runGroupName(), spec.limits.memoryMb * 1024 * 1024,
                                       spec.limits.processes);
        if (made.offered && !made.group.active())
            finishWithError(fmt::format("cgroup limits: {}; the strict run was refused rather than run without them",
                                        made.whyNot));
        group = std::move(made.group);
    }
    return group;
}

// A root caller's workspace run in a container: the workspace may lie below folders the run's identity
// cannot search (a store beside root's home). Mounted on an empty folder the run can reach, in a mount
// namespace of the launcher's own, it is taken from there and nothing above it is searched.
void showWorkspaceToRun(const LaunchSpec& spec)
{
    if (spec.stageDir.empty())
        return;
    if (::unshare(CLONE_NEWNS) != 0 || ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0
        || ::mount(spec.workDir.c_str(), spec.stageDir.c_str(), nullptr, MS_BIND, nullptr) != 0)
        finishWithError(fmt::format("container: cannot show the workspace to the run: {}", std::strerror(errno)));
}

// The program's process: cloned into every namespace at the container level, forked otherwise. The child
// never returns: it becomes the program, or pid 1 of the container around it.
pid_t startProgram(LaunchSpec& spec, const Channels& ch, LineReader* job, int sigFd, int workspaceLock,
                   const std::vector<int>& cgroupTasks)
{
    sb::starttrace::mark("launcher.clone");
    const pid_t child = spec.container
                            ? static_cast<pid_t>(::syscall(SYS_clone, SIGCHLD | sb::container::cloneFlags(), nullptr,
                                                           nullptr, nullptr, nullptr))
                            : ::fork();
    if (child < 0) {
        const int cloneErrno = errno;
        if (spec.container)
            finishWithError(fmt::format("container: cannot create the namespaces (clone: {}); `sandbench doctor` "
                                        "tells why user namespaces are unavailable",
                                        std::strerror(cloneErrno)));
        finishWithError(fmt::format("launcher: fork: {}", std::strerror(cloneErrno)));
    }
    if (child == 0) {
        if (workspaceLock >= 0)
            ::close(workspaceLock); // the supervisor's alone: nothing in the sandbox holds it
        ::close(ch.errPipe[0]);
        ::close(ch.fdPair[0]);
        ::close(sigFd);
        if (spec.container) {
            ::close(ch.syncPipe[1]);
            ::close(ch.statusPair[0]);
            if (ch.gatePair[0] >= 0)
                ::close(ch.gatePair[0]);
            runContainerInit(spec, ch.errPipe[1], ch.fdPair[1], job, ch.syncPipe[0], ch.statusPair[1], ch.gatePair[1],
                             cgroupTasks);
        }
        runChild(spec, ch.errPipe[1], ch.fdPair[1], job, ch.basePipe[0]);
    }
    sb::starttrace::mark("launcher.cloned");
    return child;
}

// The supervisor's ends of the channels, once the program's process runs.
struct SupervisorEnds {
    int gateFd = -1;
    std::unique_ptr<sb::netproxy::Proxy> proxy;
    int statusFd = -1;
};

// The launcher's side of the program's start: the child's ends closed here, the Runner told whom to kill, the
// task count handed over and, in a container, the child moved into the run's cgroup and its ids mapped.
SupervisorEnds connectToProgram(const LaunchSpec& spec, const Channels& ch, LineReader* job, pid_t child,
                                sb::cgroup::RunGroup& group, const std::vector<int>& cgroupTasks)
{
    for (int fd : cgroupTasks)
        ::close(fd);
    ::close(ch.errPipe[1]);
    ::close(ch.fdPair[1]);
    if (job)
        ::close(job->fd()); // the program's process alone reads the job
    SupervisorEnds ends;
    if (ch.gatePair[0] >= 0) {
        ::close(ch.gatePair[1]);
        ends.gateFd = ch.gatePair[0];
        ends.proxy = std::make_unique<sb::netproxy::Proxy>(spec.networkAllow);
    }
    // Tell the Runner at once whom to kill should this launcher die without a result.
    writeAll(sb::kLauncherResultFd, fmt::format("started {}\n", child));
    if (ch.basePipe[1] >= 0) {
        ::close(ch.basePipe[0]);
        // The program's own process is counted now; the limit's `processes` include it.
        const std::int64_t tasks = std::max<std::int64_t>(sb::usage::tasksOfUid(::getuid()) - 1, 0);
        writeAll(ch.basePipe[1], std::string(reinterpret_cast<const char*>(&tasks), sizeof tasks));
        ::close(ch.basePipe[1]);
        sb::starttrace::mark("launcher.counted");
    }
    if (spec.container) {
        ::close(ch.syncPipe[0]);
        ::close(ch.statusPair[1]);
        ends.statusFd = ch.statusPair[0];
        const uid_t outerUid = spec.dropPrivileges ? spec.uid : ::getuid();
        const gid_t outerGid = spec.dropPrivileges ? spec.gid : ::getgid();
        if (group.active() && cgroupTasks.empty() && !sb::cgroup::addProcess(group, child)) {
            const int addErrno = errno;
            ::kill(child, SIGKILL);
            ::waitpid(child, nullptr, 0);
            sb::cgroup::destroy(group);
            finishWithError(fmt::format("cgroup limits: cannot move the run into {}: {}; the strict run was refused "
                                        "rather than run without them",
                                        group.memoryDir, std::strerror(addErrno)));
        }
        if (auto mapped = sb::container::writeIdMaps(child, outerUid, outerGid); !mapped) {
            ::kill(child, SIGKILL);
            ::waitpid(child, nullptr, 0);
            finishWithError("user namespace: " + mapped.error().message);
        }
        // Held to the end, so that tearing down the sandbox's mounts (an RCU grace period) happens when
        // this launcher exits, after the result, and not in pid 1's exit, which the run waits for.
        [[maybe_unused]] const int mountNamespace =
            ::open(fmt::format("/proc/{}/ns/mnt", child).c_str(), O_RDONLY | O_CLOEXEC);
        writeAll(ch.syncPipe[1], "1");
        ::close(ch.syncPipe[1]);
        sb::starttrace::mark("launcher.mapped");
    }
    return ends;
}

// The run from the program's start until every process of it is gone: reaps, holds the wall clock and the
// meter's limits, answers seccomp notifications, serves the network proxy, and keeps what the program's
// setup reported.
class Supervision {
public:
    Supervision(const LaunchSpec& spec, pid_t child, Clock::time_point start, int errFd, int sockFd, int sigFd,
                SupervisorEnds ends, std::optional<sb::cgroup::Figures>& figures, sb::paths::Reporter& paths)
        : m_spec(spec), m_child(child), m_deadline(start + std::chrono::milliseconds(spec.limits.wallMs)),
          m_meter(spec, start), m_sigFd(sigFd), m_errFd(errFd), m_sockFd(sockFd), m_gateFd(ends.gateFd),
          m_statusFd(ends.statusFd), m_proxy(std::move(ends.proxy)), m_figures(figures), m_paths(paths)
    {
        if (seccomp_notify_alloc(&m_req, &m_resp) != 0)
            finishWithError("launcher: seccomp_notify_alloc failed");
    }

    // Until the run is over: the main program reaped with nothing of the run left, pid 1's word that the run
    // has ended, or poll failing.
    void run()
    {
        for (;;) {
            if (reap())
                return;
            if (m_mainExited && !m_killed) {
                // Background processes of the program end with it. Orphans are reparented to us (subreaper)
                // and nothing can leave the process group, so no child left means no process of the run left.
                siginfo_t info{};
                if (::waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT | __WALL) == 0)
                    endRun();
                else
                    return; // nothing left to kill
            }
            const auto timeoutMs = pollTimeoutMs();
            if (!timeoutMs)
                continue;
            if (waitAndServe(*timeoutMs) == Step::Done)
                return;
        }
    }

    // What the run left after it: the proxy's refusals, the setup's error, pid 1's word of the program's end.
    void collect()
    {
        sb::starttrace::mark("launcher.done");
        seccomp_notify_free(m_req, m_resp);
        if (m_gateFd >= 0)
            ::close(m_gateFd);
        if (m_proxy) {
            m_proxy->shutdown();
            for (auto& refusal : m_proxy->refusals()) {
                if (m_result.blocked.size() < 1000)
                    m_result.blocked.push_back(std::move(refusal));
            }
        }
        if (m_errFd >= 0) {
            m_setupError += readAll(m_errFd);
            ::close(m_errFd);
        }
        if (!m_setupError.empty()) {
            m_result.setupFailed = true;
            m_result.setupError = m_setupError;
        }
        if (m_statusFd >= 0 && !m_programEnd) {
            m_programEnd = readProgramEnd(m_statusFd);
            ::close(m_statusFd);
            m_statusFd = -1;
        }
        if (m_programEnd) { // the program's own end, as its pid 1 saw it; absent when pid 1 was killed
            m_result.exitCode = WIFEXITED(m_programEnd->status) ? WEXITSTATUS(m_programEnd->status) : -1;
            m_result.signal = WIFSIGNALED(m_programEnd->status) ? WTERMSIG(m_programEnd->status) : 0;
        }
    }

    LaunchResult& result() { return m_result; }
    const std::optional<ProgramEnd>& programEnd() const { return m_programEnd; }
    bool mainExited() const { return m_mainExited; }
    int statusFd() const { return m_statusFd; }

private:
    enum class Step { Go, Done };

    void endRun()
    {
        if (!m_killed) {
            killTree(m_child, m_spec);
            m_killed = true;
        }
    }

    // Reaps whatever has ended; the main program's status is the run's. True when nothing is left to reap
    // after the main program.
    bool reap()
    {
        for (;;) {
            int status = 0;
            const pid_t pid = ::waitpid(-1, &status, WNOHANG | __WALL);
            if (pid <= 0)
                return pid < 0 && errno == ECHILD && m_mainExited;
            if (pid == m_child) {
                sb::starttrace::mark("launcher.reaped");
                m_mainExited = true;
                if (WIFEXITED(status)) {
                    m_result.exitCode = WEXITSTATUS(status);
                } else if (WIFSIGNALED(status)) {
                    m_result.signal = WTERMSIG(status);
                }
            }
        }
    }

    // How long the next poll may wait: until the deadline or the meter's next check. Empty when the run was
    // just ended (its deadline passed, a limit was exceeded): the loop reaps first.
    std::optional<int> pollTimeoutMs()
    {
        if (m_killed)
            return 100; // killed: only reaping is left
        const auto left = std::chrono::ceil<std::chrono::milliseconds>(m_deadline - Clock::now()).count();
        if (left <= 0) {
            m_result.timedOut = true;
            endRun();
            return std::nullopt;
        }
        int timeoutMs = static_cast<int>(left);
        if (Clock::now() >= m_meter.nextCheck()
            && m_meter.exceeded(m_child, m_figures ? &*m_figures : nullptr, m_result)) {
            endRun();
            return std::nullopt;
        }
        const auto untilCheck = std::chrono::ceil<std::chrono::milliseconds>(m_meter.nextCheck() - Clock::now());
        return std::min(timeoutMs, static_cast<int>(std::max<std::int64_t>(untilCheck.count(), 1)));
    }

    // One poll of every open channel, and what came on each.
    Step waitAndServe(int timeoutMs)
    {
        pollfd fds[7];
        nfds_t count = 0;
        fds[count++] = {m_sigFd, POLLIN, 0};
        const nfds_t errIndex = m_errFd >= 0 ? count : 99;
        if (m_errFd >= 0)
            fds[count++] = {m_errFd, POLLIN, 0};
        const nfds_t sockIndex = m_sockFd >= 0 ? count : 99;
        if (m_sockFd >= 0)
            fds[count++] = {m_sockFd, POLLIN, 0};
        const nfds_t notifyIndex = m_notifyFd >= 0 ? count : 99;
        if (m_notifyFd >= 0)
            fds[count++] = {m_notifyFd, POLLIN, 0};
        const nfds_t gateIndex = m_gateFd >= 0 ? count : 99;
        if (m_gateFd >= 0)
            fds[count++] = {m_gateFd, POLLIN, 0};
        const nfds_t statusIndex = m_statusFd >= 0 ? count : 99;
        if (m_statusFd >= 0)
            fds[count++] = {m_statusFd, POLLIN, 0};
        const nfds_t watchIndex = !m_killed && m_meter.watchFd() >= 0 ? count : 99;
        if (watchIndex < 99)
            fds[count++] = {m_meter.watchFd(), POLLIN, 0};

        const int ready = ::poll(fds, count, timeoutMs);
        if (ready < 0 && errno != EINTR)
            return Step::Done;
        if (ready <= 0)
            return Step::Go;

        if (fds[0].revents & POLLIN)
            readSignals();
        if (errIndex < count && fds[errIndex].revents)
            readSetupError();
        if (sockIndex < count && fds[sockIndex].revents) {
            m_notifyFd = sb::receiveFd(m_sockFd);
            sb::seccomp::preferSyncWakeups(m_notifyFd);
            ::close(m_sockFd);
            m_sockFd = -1;
        }
        if (statusIndex < count && fds[statusIndex].revents) {
            m_programEnd = readProgramEnd(m_statusFd);
            if (!m_programEnd) {
                ::close(m_statusFd);
                m_statusFd = -1;
            } else {
                sb::starttrace::mark("launcher.told");
                return Step::Done; // every process of the run is gone; pid 1's own exit is not the run's business
            }
        }
        if (watchIndex < count && fds[watchIndex].revents)
            m_meter.workDirChanged();
        if (gateIndex < count && fds[gateIndex].revents)
            serveGate();
        if (notifyIndex < count && fds[notifyIndex].revents)
            answerNotification(fds[notifyIndex].revents);
        return Step::Go;
    }

    void readSignals()
    {
        signalfd_siginfo info{};
        while (::read(m_sigFd, &info, sizeof info) == sizeof info) {
            if (info.ssi_signo != SIGCHLD) {
                m_result.cancelled = true;
                endRun();
            }
        }
    }

    void readSetupError()
    {
        char buf[1024];
        const ssize_t n = ::read(m_errFd, buf, sizeof buf);
        if (n > 0) {
            m_setupError.append(buf, static_cast<std::size_t>(n));
        } else {
            ::close(m_errFd); // closed on exec: the program is running with every layer
            m_errFd = -1;
        }
    }

    void serveGate()
    {
        const int client = sb::receiveFd(m_gateFd);
        if (client >= 0) {
            m_proxy->serve(client);
        } else {
            ::close(m_gateFd); // the gate is gone with the run
            m_gateFd = -1;
        }
    }

    void answerNotification(short revents)
    {
        if (revents & (POLLHUP | POLLERR)) {
            ::close(m_notifyFd);
            m_notifyFd = -1;
            return;
        }
        std::memset(m_req, 0, sizeof *m_req);
        if (seccomp_notify_receive(m_notifyFd, m_req) != 0)
            return;
        const auto decision = sb::seccomp::decide(m_spec.syscalls, *m_req, !m_spec.networkAllow.empty());
        if (decision.report && m_result.blocked.size() < 1000)
            m_result.blocked.push_back(sb::seccomp::describe(*m_req));
        if (decision.addressSpaceGrowth > 0 && !m_result.memoryRefused && programStarted(m_errFd))
            noteAddressSpaceRequest(*m_req, decision.addressSpaceGrowth, m_spec.limits, m_notifyFd, m_result);
        // A path call: copied while the caller waits, judged once it has gone on (path_report.h).
        auto pathCall = decision.allow ? m_paths.capture(m_notifyFd, *m_req) : std::nullopt;
        std::memset(m_resp, 0, sizeof *m_resp);
        m_resp->id = m_req->id;
        if (decision.allow)
            m_resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE; // decided on registers, not memory
        else
            m_resp->error = -decision.error;
        seccomp_notify_respond(m_notifyFd, m_resp);
        if (pathCall)
            m_paths.judge(*pathCall, m_result.blocked);
        if (decision.endRun) {
            m_result.killedByPolicy = true;
            endRun();
        }
    }

    const LaunchSpec& m_spec;
    const pid_t m_child;
    const Clock::time_point m_deadline;
    RunMeter m_meter;
    const int m_sigFd;
    int m_errFd;
    int m_sockFd;
    int m_notifyFd = -1;
    int m_gateFd;
    int m_statusFd;
    std::unique_ptr<sb::netproxy::Proxy> m_proxy;
    std::optional<sb::cgroup::Figures>& m_figures;
    sb::paths::Reporter& m_paths;
    LaunchResult m_result;
    std::string m_setupError;
    bool m_mainExited = false;
    bool m_killed = false;
    std::optional<ProgramEnd> m_programEnd; // container: pid 1's word that the run has ended
    seccomp_notif* m_req = nullptr;
    seccomp_notif_resp* m_resp = nullptr;
};

// The run's CPU time and peak memory, and which limit ended it: from pid 1's word when there is one, else
// from the launcher's reaped children, and from the cgroup where it counts more.
void measureUsage(const LaunchSpec& spec, const std::optional<ProgramEnd>& programEnd,
                  const std::optional<sb::cgroup::Figures>& figures, LaunchResult& result)
{
    std::int64_t groupCpuUs = -1;
    if (figures) {
        // With pid 1's word, its figures are the run's processes' own (pid 1 and its helper are not counted),
        // and only a process ended by SIGKILL may have been the OOM killer's.
        result.memoryLimited = (!programEnd || programEnd->sigkilled) && figures->oomKilled();
        if (!programEnd)
            groupCpuUs = figures->cpuUsageUs();
    }
    if (programEnd) { // the run's processes as pid 1 reaped them (pid 1 itself is not reaped yet, nor the run's)
        result.cpuMs = static_cast<double>(programEnd->cpuUs) / 1000.0;
        result.peakRssKb = programEnd->peakRssKb;
    } else {
        rusage usage{};
        ::getrusage(RUSAGE_CHILDREN, &usage);
        auto toMs = [](const timeval& tv) {
            return static_cast<double>(tv.tv_sec) * 1000.0 + static_cast<double>(tv.tv_usec) / 1000.0;
        };
        result.cpuMs = toMs(usage.ru_utime) + toMs(usage.ru_stime);
        result.peakRssKb = usage.ru_maxrss;
    }
    if (groupCpuUs >= 0) // the cgroup counts every process, also those the kernel ended with pid 1
        result.cpuMs = std::max(result.cpuMs, static_cast<double>(groupCpuUs) / 1000.0);
    // RLIMIT_CPU sends SIGXCPU at the soft limit and SIGKILL at the hard one; a SIGKILL the program sent
    // itself is told apart by the CPU time it had used.
    const auto cpuLimitMs = static_cast<double>(sb::cpuLimitSeconds(spec.limits) * 1000);
    if (!result.timedOut && !result.cancelled
        && (result.signal == SIGXCPU || (result.signal == SIGKILL && result.cpuMs >= cpuLimitMs - 20)))
        result.cpuLimited = true;
}

// The isolation layers the run had, by name.
void noteLayers(const LaunchSpec& spec, const sb::cgroup::RunGroup& group, LaunchResult& result)
{
    std::string why;
    const int abi = sb::landlock::abiVersion(&why);
    result.layers = {{"rlimits", true},
                     {"seccomp", true},
                     {"landlock", abi > 0},
                     {"landlock_network", abi >= 4},
                     {"landlock_scope", abi >= 6},
                     {"no_new_privs", true},
                     {"unprivileged", true},
                     {"process_group", true}};
    for (const char* ns : {"user_namespace", "pid_namespace", "net_namespace", "mount_namespace", "ipc_namespace",
                           "uts_namespace", "cgroup_namespace", "minimal_root"})
        result.layers.emplace_back(ns, spec.container);
    result.layers.emplace_back("network_proxy", !spec.networkAllow.empty());
    result.layers.emplace_back("syscall_allowlist", spec.syscalls.defaultAction != sb::SyscallAction::Allow);
    result.layers.emplace_back("cgroup_limits", group.active());
}

// One run, from the spec on fd 3 to the result on fd 4. `parent`: the zygote that forked this launcher
// (zygote.h), 0 when it was exec'd for the run.
int launch(int parent)
{
    const std::int64_t enteredNs = sb::starttrace::nowNs();
    // Nothing of the caller beyond our six descriptors: the store, sockets and files stay outside.
    ::syscall(SYS_close_range, sb::kLauncherResultFd + 1, ~0U, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
    const pid_t caller = ::getppid();
    if (caller == 1 || (parent > 0 && caller != parent))
        return 1; // whoever started us is gone already

    // A workspace run's lock comes first, when there is one; held until the run's result is written.
    const int workspaceLock = sb::receiveMarkedFd(sb::kLauncherSpecFd, sb::kWorkspaceLockMarker);
    LineReader specIn(sb::kLauncherSpecFd);
    LaunchSpec spec = readSpec(specIn, enteredNs);
    const int sigFd = watchSignals();
    const Channels channels = openChannels(spec, specIn);
    LineReader* const job = spec.pooled ? &specIn : nullptr;
    sb::cgroup::RunGroup group = makeRunGroup(spec);
    // cgroup v1: pid 1 moves itself in through these (cgroup.h, moveSelf), which spares the run the RCU grace
    // period of moving it from here. Where they cannot be had, it is moved from here after the clone.
    const std::vector<int> cgroupTasks = spec.container ? sb::cgroup::openTasksFiles(group) : std::vector<int>{};
    showWorkspaceToRun(spec);

    auto start = Clock::now();
    const pid_t child = startProgram(spec, channels, job, sigFd, workspaceLock, cgroupTasks);
    SupervisorEnds ends = connectToProgram(spec, channels, job, child, group, cgroupTasks);
    std::optional<sb::cgroup::Figures> figures; // opened while pid 1 builds the root, or a job is awaited
    if (group.active())
        figures.emplace(group);

    sb::paths::Reporter pathReporter(spec);
    if (spec.pooled) {
        // Prepared ahead (warm pool): wait for the job; the run and its wall clock start when it comes.
        awaitJob(spec, {sigFd, channels.errPipe[0], child}, group, pathReporter);
        start = Clock::now();
    }

    Supervision run(spec, child, start, channels.errPipe[0], channels.fdPair[0], sigFd, std::move(ends), figures,
                    pathReporter);
    run.run();
    run.collect();
    LaunchResult& result = run.result();
    result.wallMs = msSince(start); // the last process of the run is gone
    if (::getppid() != caller && !spec.keepWorkDir)
        sb::removeWorkDir(spec.workDir); // the caller died: nobody else will clean up after the run
    measureUsage(spec, run.programEnd(), figures, result);
    noteLayers(spec, group, result);
    sb::starttrace::mark("launcher.result");
    result.trace = sb::starttrace::collected();
    report(result);
    if (workspaceLock >= 0)
        ::close(workspaceLock); // every process of the run is gone: the caller gives the workspace back
    if (run.statusFd() >= 0)
        ::close(run.statusFd()); // pid 1 may end now
    if (run.programEnd() && !run.mainExited())
        ::waitpid(child, nullptr, __WALL);
    // Empty (every process of it is reaped), and no longer the caller's business: removing a memory cgroup
    // can take a while.
    figures.reset();
    if (group.active())
        sb::cgroup::destroy(group);
    ::_exit(0);
}

} // namespace

int main(int argc, char** argv)
{
    if (argc > 1 && std::string_view(argv[1]) == sb::zygote::kArgument)
        return sb::zygote::serve(launch);
    return launch(0);
}
