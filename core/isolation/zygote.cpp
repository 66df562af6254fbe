#include "isolation/zygote.h"

#include "isolation/fd_passing.h"
#include "isolation/launch_spec.h"

#include <array>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <string>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace sb::zygote {

namespace {

constexpr std::size_t kReplyIndex = 4;

void reapAll()
{
    for (;;) {
        const pid_t pid = ::waitpid(-1, nullptr, WNOHANG);
        if (pid > 0 || (pid < 0 && errno == EINTR))
            continue;
        return;
    }
}

// In the forked child: the run's descriptors at their places, nothing else open, signals as after exec.
[[noreturn]] void becomeLauncher(const std::array<int, 6>& received, int (*launch)(int), pid_t zygote)
{
    // Out of the way first, so that moving one into place never overwrites another.
    std::array<int, 6> high{};
    for (std::size_t i = 0; i < received.size(); ++i)
        high[i] = received[i] >= 0 && i != kReplyIndex ? ::fcntl(received[i], F_DUPFD_CLOEXEC, 16) : -1;
    const int devNull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (devNull < 0 || ::dup2(devNull, 0) < 0 || ::dup2(high[0], 1) < 0 || ::dup2(high[1], 2) < 0
        || ::dup2(high[2], kLauncherSpecFd) < 0 || ::dup2(high[3], kLauncherResultFd) < 0
        || ::dup2(high[5], kLauncherEventFd) < 0)
        ::_exit(127);
    ::syscall(SYS_close_range, kLauncherEventFd + 1, ~0U, 0);
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

    std::string message;
    for (;;) {
        pollfd fds[2] = {{kSocketFd, POLLIN, 0}, {sigFd, POLLIN, 0}};
        if (::poll(fds, sigFd >= 0 ? 2 : 1, -1) < 0 && errno != EINTR)
            return 1;
        if (sigFd >= 0 && (fds[1].revents & POLLIN)) {
            signalfd_siginfo info{};
            while (::read(sigFd, &info, sizeof info) == sizeof info) {
            }
            reapAll();
        }
        if (!fds[0].revents)
            continue;
        std::array<int, 6> received{-1, -1, -1, -1, -1, -1};
        const int count = receiveFds(kSocketFd, message, received);
        if (count < 0)
            return 0; // the owner is gone (or spoke nonsense): so are we
        if (message != kRequest || count != 6) {
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
        // Taken before anything reaps it (zombies wait for reapAll), so the pidfd is always this child's.
        const int pidfd = child > 0 ? static_cast<int>(::syscall(SYS_pidfd_open, child, 0)) : -1;
        const std::string answer = pidfd >= 0 ? "pid " + std::to_string(child) : "error";
        sendFds(reply, answer, pidfd >= 0 ? std::span<const int>(&pidfd, 1) : std::span<const int>());
        if (pidfd >= 0)
            ::close(pidfd);
        for (int fd : received) {
            if (fd >= 0)
                ::close(fd);
        }
        reapAll();
    }
}

} // namespace sb::zygote
