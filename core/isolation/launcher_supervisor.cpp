#include "launcher_supervisor.h"

#include "fd_passing.h"
#include "seccomp_filter.h"
#include "isolation/start_trace.h"

#include <fmt/format.h>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>
#include <utility>

namespace sb::launcher {

namespace {

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
    if (result.limitMessage.empty())
        result.limitMessage = Message(SB_TR("run outcome", "memory limit of {} MiB reached: a process of the run asked "
                                                           "for {} MiB more address space with {} MiB mapped already"),
                                      {std::to_string(limits.memoryMb), std::to_string((growth + (1 << 20) - 1) >> 20),
                                       std::to_string(mapped >> 20)});
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

} // namespace

// The sandbox is let go without a job (the pool shut down, its owner died) or cannot take one: every process
// of it ends, and the launcher with it.
[[noreturn]] void releaseSandbox(const LaunchSpec& spec, const Waiting& w, sb::cgroup::RunGroup& group,
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

void awaitJob(const LaunchSpec& spec, const Waiting& w, sb::cgroup::RunGroup& group, sb::paths::Reporter& paths)
{
    bool ready = false;
    for (;;) {
        pollfd fds[2] = {{w.sigFd, POLLIN, 0}, {w.errFd, POLLIN, 0}};
        if (::poll(fds, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            releaseSandbox(spec, w, group, fmt::format("launcher: poll: {}", std::strerror(errno)));
        }
        if (fds[0].revents & POLLIN) {
            signalfd_siginfo info{};
            while (::read(w.sigFd, &info, sizeof info) == sizeof info) {
                if (info.ssi_signo != SIGCHLD)
                    releaseSandbox(spec, w, group, "cancelled before a job was handed over");
            }
        }
        if (!fds[1].revents)
            continue;
        char buf[1024];
        const ssize_t n = ::read(w.errFd, buf, sizeof buf);
        if (n <= 0) // gone without a word: released (EOF instead of a job), or it failed silently
            releaseSandbox(spec, w, group, ready ? "released without a job" : "the sandbox ended before its job");
        std::string why;
        bool started = false;
        for (ssize_t i = 0; i < n; ++i) {
            if (buf[i] == kReadyMarker && !ready) {
                ready = true;
                sb::starttrace::mark("launcher.ready");
                writeFully(sb::kLauncherResultFd, "ready\n");
                paths.prepare(w.child); // the root is built: pid 1's is the program's
            } else if (buf[i] == kStartedMarker && ready && !started) {
                started = true;
                sb::starttrace::mark("launcher.job");
            } else {
                why += buf[i];
            }
        }
        if (!why.empty())
            releaseSandbox(spec, w, group, why); // it could not take its job: the run's result says why
        if (started)
            return;
    }
}

bool RunMeter::exceeded(pid_t child, const sb::cgroup::Figures* figures, LaunchResult& result)
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
            return true;
        }
    }
    return false;
}

bool RunMeter::processesExceeded(pid_t child, const sb::cgroup::Figures* figures, LaunchResult& result)
{
    m_nextSample = Clock::now() + kEvery;
    const auto& limits = m_spec.limits;
    if (figures) { // the cgroup holds memory and pids itself and counts every process's CPU
        // The kernel's OOM killer ended a process of the run: the run as a whole reached its memory
        // limit, and ends now, as it does where the launcher measures memory itself.
        if (figures->oomKilled()) {
            result.memoryLimited = true;
            result.limitMessage = Message(SB_TR("run outcome", "memory limit of {} MiB reached: the kernel ended a "
                                                               "process of the run"),
                                          {std::to_string(limits.memoryMb)});
            return true;
        }
        const std::int64_t usedUs = figures->cpuUsageUs();
        if (usedUs >= 0 && usedUs >= sb::cpuLimitUs(limits)) {
            result.cpuLimited = true;
            result.limitMessage = Message(SB_TR("run outcome", "CPU time limit of {} ms reached: the run used {} ms "
                                                               "of CPU time in all"),
                                          {std::to_string(sb::cpuLimitUs(limits) / 1000), std::to_string(usedUs / 1000)});
            return true;
        }
        return false;
    }
    const auto tree = sb::usage::sampleTree(child);
    const std::int64_t usedUs = sb::usage::reapedCpuUs() + tree.cpuUs;
    if (usedUs >= sb::cpuLimitUs(limits)) {
        result.cpuLimited = true;
        result.limitMessage = Message(SB_TR("run outcome", "CPU time limit of {} ms reached: the run's processes used "
                                                           "{} ms of CPU time in all"),
                                      {std::to_string(sb::cpuLimitUs(limits) / 1000), std::to_string(usedUs / 1000)});
        return true;
    }
    if (tree.anonKb > limits.memoryMb * 1024) {
        result.memoryLimited = true;
        result.limitMessage = Message(SB_TR("run outcome", "memory limit of {} MiB reached: the run's {} processes "
                                                           "held {} MiB of memory together"),
                                      {std::to_string(limits.memoryMb), std::to_string(tree.processes),
                                       std::to_string(tree.anonKb / 1024)});
        return true;
    }
    return false;
}

Supervision::Supervision(const LaunchSpec& spec, pid_t child, Clock::time_point start, int errFd, int sockFd,
                         int sigFd, SupervisorEnds ends, std::optional<sb::cgroup::Figures>& figures,
                         sb::paths::Reporter& paths, AheadJob* ahead)
    : m_spec(spec), m_child(child), m_start(start),
      m_deadline(ahead ? Clock::time_point::max() : start + std::chrono::milliseconds(spec.limits.wallMs)),
      m_ahead(ahead), m_meter(spec, start), m_sigFd(sigFd), m_errFd(errFd), m_sockFd(sockFd), m_gateFd(ends.gateFd),
      m_statusFd(ends.statusFd), m_proxy(std::move(ends.proxy)), m_figures(figures), m_paths(paths)
{
    if (seccomp_notify_alloc(&m_req, &m_resp) != 0)
        finishWithError("launcher: seccomp_notify_alloc failed");
}

void Supervision::run()
{
    for (;;) {
        if (reap() || m_releasedWhy)
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

void Supervision::collect()
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

void Supervision::endRun()
{
    if (!m_killed) {
        killTree(m_child, m_spec);
        m_killed = true;
    }
}

bool Supervision::reap()
{
    for (;;) {
        int status = 0;
        const pid_t pid = ::waitpid(-1, &status, WNOHANG | __WALL);
        if (pid <= 0)
            return pid < 0 && errno == ECHILD && m_mainExited;
        if (pid == m_child && m_ahead) {
            endedBeforeItsJob();
            return false;
        }
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

std::optional<int> Supervision::pollTimeoutMs()
{
    if (m_killed)
        return 100; // killed: only reaping is left
    if (m_ahead)
        return -1; // no clock and no meter before the job: the rlimits and the cgroup hold the program alone
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

Supervision::Step Supervision::waitAndServe(int timeoutMs)
{
    pollfd fds[7];
    nfds_t count = 0;
    // The descriptor's place in fds, or one past every place when there is none to watch.
    constexpr nfds_t kNotWatched = 99;
    const auto watch = [&](int fd) {
        if (fd < 0)
            return kNotWatched;
        fds[count] = {fd, POLLIN, 0};
        return count++;
    };
    watch(m_sigFd);
    const nfds_t errIndex = watch(m_errFd);
    const nfds_t sockIndex = watch(m_sockFd);
    const nfds_t notifyIndex = watch(m_notifyFd);
    const nfds_t gateIndex = watch(m_gateFd);
    const nfds_t statusIndex = watch(m_statusFd);
    const nfds_t watchIndex = watch(m_killed ? -1 : m_meter.watchFd());
    const nfds_t jobIndex = watch(m_ahead ? m_ahead->job->fd() : -1);

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
    if (m_ahead && (!m_setupError.empty() || (statusIndex < count && fds[statusIndex].revents))) {
        endedBeforeItsJob(); // it failed to start, or ended
        return Step::Done;
    }
    if (jobIndex < count && fds[jobIndex].revents) {
        takeAheadJob();
        if (m_releasedWhy)
            return Step::Done;
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

void Supervision::readSignals()
{
    signalfd_siginfo info{};
    while (::read(m_sigFd, &info, sizeof info) == sizeof info) {
        if (info.ssi_signo != SIGCHLD && m_ahead) {
            m_releasedWhy = "cancelled before a job was handed over";
        } else if (info.ssi_signo != SIGCHLD) {
            m_result.cancelled = true;
            endRun();
        }
    }
}

void Supervision::readSetupError()
{
    char buf[1024];
    const ssize_t n = ::read(m_errFd, buf, sizeof buf);
    if (n > 0) {
        std::string_view text(buf, static_cast<std::size_t>(n));
        if (m_spec.programAhead && !m_ready && text.front() == kReadyMarker) {
            // Every layer is in place; the limits and the exec follow. Its job may have come already (a run
            // takes a sandbox prepared for it alone at once: Runner::prepareAhead).
            m_ready = true;
            text.remove_prefix(1);
            sb::starttrace::mark("launcher.ready");
            writeFully(sb::kLauncherResultFd, "ready\n");
            m_paths.prepare(m_child); // the root is built: pid 1's is the program's
        }
        m_setupError.append(text);
    } else {
        ::close(m_errFd); // closed on exec: the program is running with every layer
        m_errFd = -1;
    }
}

// Before its job, the program started ahead cannot take one any more: the sandbox is let go, with the program's
// own word on why where it gave one.
void Supervision::endedBeforeItsJob()
{
    m_releasedWhy = m_setupError.empty() ? "the program started ahead ended before its job" : m_setupError;
}

// The job of a program started ahead: when it is the one the program was started for, the program gets its
// byte and the run's wall clock starts; any other is refused (the sandbox is not the run's), and EOF instead of
// a job lets the sandbox go.
void Supervision::takeAheadJob()
{
    const auto line = m_ahead->job->next();
    if (!line) {
        m_releasedWhy = "released without a job";
        return;
    }
    ::close(m_ahead->job->fd());
    if (!isTheJobStartedAhead(m_spec, *line)) {
        m_releasedWhy = "launch job: not the job its program was started ahead for";
        return;
    }
    const char go = 1;
    if (::write(m_ahead->goFd, &go, 1) != 1) {
        m_releasedWhy = fmt::format("launcher: telling the program its job came: {}", std::strerror(errno));
        return;
    }
    ::close(m_ahead->goFd);
    m_ahead = nullptr;
    m_start = Clock::now();
    m_deadline = m_start + std::chrono::milliseconds(m_spec.limits.wallMs);
    sb::starttrace::mark("launcher.job");
}

void Supervision::serveGate()
{
    const int client = sb::receiveFd(m_gateFd);
    if (client >= 0) {
        m_proxy->serve(client);
    } else {
        ::close(m_gateFd); // the gate is gone with the run
        m_gateFd = -1;
    }
}

void Supervision::answerNotification(short revents)
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

} // namespace sb::launcher
