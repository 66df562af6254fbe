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
//
// The program's process before execve, and the container's pid 1, are in launcher_child.cpp; the supervision
// of the run in launcher_supervisor.cpp; the launcher's descriptors and its result in launcher_io.cpp. Here:
// the run's steps, from the spec to the result.

#include "cgroup.h"
#include "container.h"
#include "fd_passing.h"
#include "isolation/launch_spec.h"
#include "isolation/start_trace.h"
#include "landlock.h"
#include "launcher_child.h"
#include "launcher_io.h"
#include "launcher_supervisor.h"
#include "netproxy.h"
#include "path_report.h"
#include "run_usage.h"
#include "zygote.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <optional>
#include <sched.h>
#include <string>
#include <string_view>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace sb::launcher {

namespace {

double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

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
    int goPipe[2] = {-1, -1};     // a program started ahead: its one byte when its job has come
};

Channels openChannels(const LaunchSpec& spec, LineReader& specIn)
{
    Channels ch;
    if (::pipe2(ch.errPipe, O_CLOEXEC) != 0 || ::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ch.fdPair) != 0)
        finishWithError(fmt::format("launcher: channels: {}", std::strerror(errno)));
    // Pooled: the spec fd goes to the program's process, which reads its job there itself (one hop
    // less); moved above the launcher's fixed descriptors. A program started ahead is exec'd before its job:
    // the launcher reads the job and tells the program on a pipe of its own.
    if (spec.programAhead) {
        if (::pipe2(ch.goPipe, O_CLOEXEC) != 0)
            finishWithError(fmt::format("launcher: channels: {}", std::strerror(errno)));
    } else if (spec.pooled) {
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
        if (ch.goPipe[1] >= 0)
            ::close(ch.goPipe[1]);
        if (spec.container) {
            ::close(ch.syncPipe[1]);
            ::close(ch.statusPair[0]);
            if (ch.gatePair[0] >= 0)
                ::close(ch.gatePair[0]);
            runContainerInit(spec, ch.errPipe[1], ch.fdPair[1], job, ch.goPipe[0], ch.syncPipe[0], ch.statusPair[1],
                             ch.gatePair[1], cgroupTasks);
        }
        runChild(spec, ch.errPipe[1], ch.fdPair[1], job, ch.basePipe[0], ch.goPipe[0]);
    }
    sb::starttrace::mark("launcher.cloned");
    return child;
}

// The launcher's side of the program's start: the child's ends closed here, the Runner told whom to kill, the
// task count handed over and, in a container, the child moved into the run's cgroup and its ids mapped.
SupervisorEnds connectToProgram(const LaunchSpec& spec, const Channels& ch, LineReader* job, pid_t child,
                                sb::cgroup::RunGroup& group, const std::vector<int>& cgroupTasks)
{
    for (int fd : cgroupTasks)
        ::close(fd);
    ::close(ch.errPipe[1]);
    ::close(ch.fdPair[1]);
    if (ch.goPipe[0] >= 0)
        ::close(ch.goPipe[0]);
    // The program's stdin and stdout are its own now: /dev/null in their place here, so that a channel run's
    // caller (RunRequest::channelIn, channelOut) sees EOF when the program's side is gone, not at the report.
    if (const int devNull = ::open("/dev/null", O_RDWR | O_CLOEXEC); devNull >= 0) {
        ::dup2(devNull, 0);
        ::dup2(devNull, 1);
        ::close(devNull);
    }
    if (job)
        ::close(job->fd()); // the program's process alone reads the job
    SupervisorEnds ends;
    if (ch.gatePair[0] >= 0) {
        ::close(ch.gatePair[1]);
        ends.gateFd = ch.gatePair[0];
        ends.proxy = std::make_unique<sb::netproxy::Proxy>(spec.networkAllow);
    }
    // Tell the Runner at once whom to kill should this launcher die without a result.
    writeFully(sb::kLauncherResultFd, fmt::format("started {}\n", child));
    if (ch.basePipe[1] >= 0) {
        ::close(ch.basePipe[0]);
        // The program's own process is counted now; the limit's `processes` include it.
        const std::int64_t tasks = std::max<std::int64_t>(sb::usage::tasksOfUid(::getuid()) - 1, 0);
        writeFully(ch.basePipe[1], std::string(reinterpret_cast<const char*>(&tasks), sizeof tasks));
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
        writeFully(ch.syncPipe[1], "1");
        ::close(ch.syncPipe[1]);
        sb::starttrace::mark("launcher.mapped");
    }
    return ends;
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
    LineReader* const job = spec.pooled && !spec.programAhead ? &specIn : nullptr; // read by the program's process
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
    const Waiting waiting{sigFd, channels.errPipe[0], child};
    if (spec.pooled && !spec.programAhead) {
        // Prepared ahead (warm pool): wait for the job; the run and its wall clock start when it comes.
        awaitJob(spec, waiting, group, pathReporter);
        start = Clock::now();
    }

    // A program started ahead is supervised from its exec: its job, and the wall clock, come during the run.
    std::optional<AheadJob> ahead;
    if (spec.programAhead)
        ahead.emplace(AheadJob{&specIn, channels.goPipe[1]});
    Supervision run(spec, child, start, channels.errPipe[0], channels.fdPair[0], sigFd, std::move(ends), figures,
                    pathReporter, ahead ? &*ahead : nullptr);
    run.run();
    if (const auto why = run.releasedBeforeItsJob())
        releaseSandbox(spec, waiting, group, *why);
    run.collect();
    LaunchResult& result = run.result();
    result.wallMs = msSince(run.startedAt()); // the last process of the run is gone
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

} // namespace sb::launcher

int main(int argc, char** argv)
{
    if (argc > 1 && std::string_view(argv[1]) == sb::zygote::kArgument)
        return sb::zygote::serve(sb::launcher::launch);
    return sb::launcher::launch(0);
}
