#include "zygote.h"

#include "fd_passing.h"
#include "isolation/launch_spec.h"

#include <array>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <map>
#include <poll.h>
#include <string>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace sb::zygote {

namespace {

constexpr std::size_t kReplyIndex = 4;
constexpr std::size_t kInputIndex = 5; // a channel run's input, the launcher's fd 0 (else /dev/null)

// The launchers this zygote forked and still runs, each with its run's folder (empty: none to remove).
using Launchers = std::map<pid_t, std::string>;

// Reaps every child that has ended. A launcher killed from outside (it never dies of a signal otherwise)
// leaves its run's folder in `orphanedDirs`: nobody else may be left to remove it.
void reapAll(Launchers& launchers, std::vector<std::string>& orphanedDirs)
{
    for (;;) {
        int status = 0;
        const pid_t pid = ::waitpid(-1, &status, WNOHANG);
        if (pid < 0 && errno == EINTR)
            continue;
        if (pid <= 0)
            return;
        const auto it = launchers.find(pid);
        if (it == launchers.end())
            continue; // a process of a run, reparented here and ended
        if (WIFSIGNALED(status) && !it->second.empty())
            orphanedDirs.push_back(it->second);
        launchers.erase(it);
    }
}

// Ends every process of a run whose launcher is gone. This zygote is a subreaper: what a killed launcher
// supervised is reparented here, and is ended with its whole process group (a run cannot leave its group:
// seccomp refuses setpgid and setsid) and, for a root caller's run, with everything its transient uid has.
void endOrphanedRuns(const Launchers& launchers)
{
    const std::string self = std::to_string(::getpid());
    const int fd = ::open(("/proc/" + self + "/task/" + self + "/children").c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return;
    std::string text;
    char buf[4096];
    for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;)
        text.append(buf, static_cast<std::size_t>(n));
    ::close(fd);
    const char* at = text.c_str();
    char* end = nullptr;
    for (long pid = std::strtol(at, &end, 10); end != at; at = end, pid = std::strtol(at, &end, 10)) {
        const auto child = static_cast<pid_t>(pid);
        if (launchers.contains(child))
            continue;
        struct stat owner {};
        const bool transient = ::geteuid() == 0 && ::stat(("/proc/" + std::to_string(child)).c_str(), &owner) == 0
                               && isTransientId(owner.st_uid);
        if (const pid_t group = ::getpgid(child); group > 0 && group != ::getpgrp())
            ::kill(-group, SIGKILL);
        ::kill(child, SIGKILL);
        if (transient)
            killAllOfTransientUid(owner.st_uid, owner.st_gid);
    }
}

// Both of the above, then the orphaned folders: once their runs' processes are ended.
void collect(Launchers& launchers)
{
    std::vector<std::string> orphanedDirs;
    reapAll(launchers, orphanedDirs);
    endOrphanedRuns(launchers);
    for (const auto& dir : orphanedDirs)
        removeWorkDir(dir);
}

// The owner is gone, and nobody but this zygote is left to clean up after its runs: every launcher is
// told to end its run (as its parent-death signal would), orphans of killed ones are ended as they come,
// and once every child has ended, every run's folder is removed.
void drain(Launchers& launchers)
{
    std::vector<std::string> dirs;
    for (const auto& [pid, dir] : launchers) {
        ::kill(pid, SIGTERM);
        if (!dir.empty())
            dirs.push_back(dir);
    }
    for (;;) {
        endOrphanedRuns(launchers); // a launcher's death (the wait below) is what brings new ones
        const pid_t pid = ::waitpid(-1, nullptr, 0);
        if (pid < 0 && errno == EINTR)
            continue;
        if (pid < 0)
            break; // no child left
        launchers.erase(pid);
    }
    for (const auto& dir : dirs)
        removeWorkDir(dir);
}

constexpr std::size_t kDescriptors = 5; // and kInputIndex, for a channel run
constexpr std::size_t kMostDescriptors = kDescriptors + 1;

// In the forked child: the run's descriptors at their places, nothing else open, signals as after exec.
[[noreturn]] void becomeLauncher(const std::array<int, kMostDescriptors>& received, int (*launch)(int), pid_t zygote)
{
    // Out of the way first, so that moving one into place never overwrites another.
    std::array<int, kMostDescriptors> high{};
    for (std::size_t i = 0; i < received.size(); ++i)
        high[i] = received[i] >= 0 && i != kReplyIndex ? ::fcntl(received[i], F_DUPFD_CLOEXEC, 16) : -1;
    const int input = high[kInputIndex] >= 0 ? high[kInputIndex] : ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (input < 0 || ::dup2(input, 0) < 0 || ::dup2(high[0], 1) < 0 || ::dup2(high[1], 2) < 0
        || ::dup2(high[2], kLauncherSpecFd) < 0 || ::dup2(high[3], kLauncherResultFd) < 0)
        ::_exit(127);
    ::syscall(SYS_close_range, kLauncherResultFd + 1, ~0U, 0);
    // As posix_spawn left the exec'd launcher: every signal at its default (the zygote changed SIGPIPE's
    // alone), none blocked.
    std::signal(SIGPIPE, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::prctl(PR_SET_NAME, "sandbench-launc", 0, 0, 0);
    ::_exit(launch(zygote));
}

} // namespace

int serve(int (*launch)(int parent))
{
    ::prctl(PR_SET_NAME, "sandbench-zygot", 0, 0, 0);
    ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); // a killed launcher's run is reparented here (endOrphanedRuns)
    // Nothing of the owner's but the control socket; no output of its own.
    ::syscall(SYS_close_range, kSocketFd + 1, ~0U, 0);
    if (const int devNull = ::open("/dev/null", O_RDWR); devNull >= 0) {
        for (int fd = 0; fd < 3; ++fd)
            ::dup2(devNull, fd);
        if (devNull > 2)
            ::close(devNull);
    }
    ::fcntl(kSocketFd, F_SETFD, FD_CLOEXEC);
    sigset_t chld;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    ::sigprocmask(SIG_BLOCK, &chld, nullptr);
    // The only disposition the zygote changes (becomeLauncher() puts it back); it was started with every
    // other at its default.
    std::signal(SIGPIPE, SIG_IGN);
    const int sigFd = ::signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
    const pid_t self = ::getpid();

    Launchers launchers;
    std::string message;
    for (;;) {
        pollfd fds[2] = {{kSocketFd, POLLIN, 0}, {sigFd, POLLIN, 0}};
        if (::poll(fds, sigFd >= 0 ? 2 : 1, -1) < 0 && errno != EINTR)
            return 1;
        if (sigFd >= 0 && (fds[1].revents & POLLIN)) {
            signalfd_siginfo info{};
            while (::read(sigFd, &info, sizeof info) == sizeof info) {
            }
            collect(launchers);
        }
        if (!fds[0].revents)
            continue;
        std::array<int, kMostDescriptors> received{-1, -1, -1, -1, -1, -1};
        const int count = receiveFds(kSocketFd, message, received);
        if (count < 0) {
            collect(launchers);
            drain(launchers); // the owner is gone (or spoke nonsense): so are we
            return 0;
        }
        const std::string_view request(message);
        const std::string_view verb = request.substr(0, request.find('\0'));
        if (verb != kRequest || count < static_cast<int>(kDescriptors)) {
            for (int fd : received) {
                if (fd >= 0)
                    ::close(fd);
            }
            continue;
        }
        const int reply = received[kReplyIndex];
        const pid_t child = ::fork();
        if (child == 0) {
            ::close(kSocketFd);
            if (sigFd >= 0)
                ::close(sigFd);
            ::close(reply);
            becomeLauncher(received, launch, self);
        }
        if (child > 0)
            launchers[child] = verb.size() < request.size() ? std::string(request.substr(verb.size() + 1)) : "";
        // Taken before anything reaps it (zombies wait for collect), so the pidfd is always this child's.
        const int pidfd = child > 0 ? static_cast<int>(::syscall(SYS_pidfd_open, child, 0)) : -1;
        const std::string answer = pidfd >= 0 ? "pid " + std::to_string(child) : "error";
        sendFds(reply, answer, pidfd >= 0 ? std::span<const int>(&pidfd, 1) : std::span<const int>());
        if (pidfd >= 0)
            ::close(pidfd);
        for (int fd : received) {
            if (fd >= 0)
                ::close(fd);
        }
        collect(launchers);
    }
}

} // namespace sb::zygote
