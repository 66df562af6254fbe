#include "launcher_process.h"

#include "fd_passing.h"
#include "isolation/launch_spec.h"
#include "zygote.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <memory>
#include <mutex>
#include <poll.h>
#include <spawn.h>
#include <string>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace sb {

namespace {

namespace fs = std::filesystem;

int pidfdOpen(pid_t pid)
{
    return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
}

// posix_spawn with every signal at its default and none blocked, an empty environment, the given
// descriptors moved to their places and /dev/null as stdin unless one is moved there.
Result<pid_t> spawn(const fs::path& program, const char* argument, const std::vector<std::pair<int, int>>& moves)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (std::none_of(moves.begin(), moves.end(), [](const auto& move) { return move.second == 0; }))
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    for (const auto& [from, to] : moves)
        posix_spawn_file_actions_adddup2(&actions, from, to);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t allDefault;
    sigfillset(&allDefault);
    sigset_t noneBlocked;
    sigemptyset(&noneBlocked);
    posix_spawnattr_setsigdefault(&attr, &allDefault);
    posix_spawnattr_setsigmask(&attr, &noneBlocked);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    const std::string path = program.string();
    // argv[0] without the host path: a container's pid 1 is a clone of the launcher, and its
    // /proc/1/cmdline must not tell the run where Sandbench is installed.
    char name[] = "sandbench-launcher";
    char* argv[] = {name, const_cast<char*>(argument), nullptr};
    char* emptyEnv[] = {nullptr};
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, path.c_str(), &actions, &attr, argv, emptyEnv);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (rc != 0)
        return fail(fmt::format("cannot start {}: {}", path, std::strerror(rc)));
    return pid;
}

// This process's zygote for one launcher path (zygote.h). Its socket is close-on-exec and the zygote ends
// at its EOF, so it never outlives this process (nor an exec of it).
class Zygote {
public:
    static Result<std::shared_ptr<Zygote>> start(const fs::path& launcher)
    {
        int pair[2];
        if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) != 0)
            return fail(fmt::format("zygote: socketpair: {}", std::strerror(errno)));
        auto pid = spawn(launcher, zygote::kArgument, {{pair[1], zygote::kSocketFd}});
        ::close(pair[1]);
        if (!pid) {
            ::close(pair[0]);
            return std::unexpected(pid.error());
        }
        return std::make_shared<Zygote>(*pid, pair[0]);
    }

    Zygote(pid_t pid, int socket) : m_pid(pid), m_socket(socket), m_owner(::getpid()) {}
    ~Zygote()
    {
        if (m_socket >= 0)
            ::close(m_socket); // its EOF ends the zygote
        if (ours())
            ::waitpid(m_pid, nullptr, 0);
    }
    // Inherited through fork(): the parent's zygote. Our copy of its socket goes (so that the parent's end
    // alone keeps it alive); the zygote is not ours to wait for.
    void forget()
    {
        ::close(m_socket);
        m_socket = -1;
        m_owner = 0;
    }
    Zygote(const Zygote&) = delete;
    Zygote& operator=(const Zygote&) = delete;

    pid_t pid() const { return m_pid; }
    // Still this process's own (a fork of this process must not use its parent's zygote)?
    bool ours() const { return m_owner == ::getpid(); }

    // A fresh launcher with the run's descriptors: its pid and pidfd.
    Result<std::pair<pid_t, int>> launch(const LauncherFds& fds, const fs::path& runDir)
    {
        int reply[2];
        if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, reply) != 0)
            return fail(fmt::format("zygote: socketpair: {}", std::strerror(errno)));
        const int passed[] = {fds.out, fds.err, fds.spec, fds.result, reply[1], fds.in};
        std::string request = zygote::kRequest;
        if (!runDir.empty())
            request += '\0' + runDir.string();
        // The input last, and only for a channel run: the zygote gives its launcher /dev/null without it.
        const bool sent =
            sendFds(m_socket, request, std::span(passed).first(std::size(passed) - (fds.in >= 0 ? 0 : 1)));
        ::close(reply[1]);
        if (!sent) {
            ::close(reply[0]);
            return fail("zygote: gone");
        }
        pollfd p{reply[0], POLLIN, 0};
        int ready = 0;
        do {
            ready = ::poll(&p, 1, 5000);
        } while (ready < 0 && errno == EINTR);
        std::string answer;
        int pidfd = -1;
        const int got = ready > 0 ? receiveFds(reply[0], answer, std::span<int>(&pidfd, 1)) : -1;
        ::close(reply[0]);
        if (got != 1 || !answer.starts_with("pid ")) {
            if (got == 1)
                ::close(pidfd);
            return fail("zygote: no launcher");
        }
        return std::pair{static_cast<pid_t>(std::atol(answer.c_str() + 4)), pidfd};
    }

private:
    pid_t m_pid;
    int m_socket;
    pid_t m_owner;
};

struct Registry {
    std::mutex mutex;
    std::map<std::string, std::shared_ptr<Zygote>> zygotes;
};

// Never destroyed: zygotes live as long as this process (the kernel closes their sockets at its end), and
// runs on other threads may still use them while static destructors run.
Registry& registry()
{
    static auto* r = new Registry;
    return *r;
}

// This process's zygote for `launcher`, started if need be; null when none can be started.
std::shared_ptr<Zygote> zygoteFor(const fs::path& launcher, const std::shared_ptr<Zygote>& failed = nullptr)
{
    auto& r = registry();
    const std::lock_guard lock(r.mutex);
    auto& slot = r.zygotes[launcher.string()];
    if (slot && !slot->ours()) {
        slot->forget();
        slot.reset();
    }
    if (slot && slot == failed) {
        ::kill(slot->pid(), SIGKILL);
        slot.reset();
    }
    if (!slot) {
        auto started = Zygote::start(launcher);
        if (started)
            slot = std::move(*started);
    }
    return slot;
}

} // namespace

Result<LauncherProcess> LauncherProcess::start(const fs::path& launcher, const LauncherFds& fds, Via via,
                                               const fs::path& runDir)
{
    if (via == Via::Zygote) {
        std::shared_ptr<Zygote> failed;
        for (int attempt = 0; attempt < 2; ++attempt) {
            auto zygote = zygoteFor(launcher, failed);
            if (!zygote)
                break;
            if (auto launched = zygote->launch(fds, runDir))
                return LauncherProcess(launched->first, launched->second, false);
            failed = zygote; // killed (or gone): a new one is started once
        }
    }
    // One after another: a channel's input first, so that no other move overwrites the caller's descriptor
    // before it is read (the caller's own fd 1 to 4 may be given).
    std::vector<std::pair<int, int>> moves;
    if (fds.in >= 0)
        moves.emplace_back(fds.in, 0);
    moves.insert(moves.end(),
                 {{fds.out, 1}, {fds.err, 2}, {fds.spec, kLauncherSpecFd}, {fds.result, kLauncherResultFd}});
    auto pid = spawn(launcher, nullptr, moves);
    if (!pid)
        return std::unexpected(pid.error());
    // Our child and not reaped before wait(): the pidfd cannot name another process.
    return LauncherProcess(*pid, pidfdOpen(*pid), true);
}

LauncherProcess::LauncherProcess(LauncherProcess&& other) noexcept
    : m_pid(std::exchange(other.m_pid, -1)), m_pidfd(std::exchange(other.m_pidfd, -1)), m_child(other.m_child),
      m_ended(other.m_ended), m_status(other.m_status)
{
}

LauncherProcess& LauncherProcess::operator=(LauncherProcess&& other) noexcept
{
    if (this != &other) {
        reset();
        m_pid = std::exchange(other.m_pid, -1);
        m_pidfd = std::exchange(other.m_pidfd, -1);
        m_child = other.m_child;
        m_ended = other.m_ended;
        m_status = other.m_status;
    }
    return *this;
}

LauncherProcess::~LauncherProcess()
{
    reset();
}

void LauncherProcess::reset()
{
    if (m_pid > 0 && !m_ended)
        wait();
    if (m_pidfd >= 0)
        ::close(m_pidfd);
    m_pid = -1;
    m_pidfd = -1;
}

void LauncherProcess::signal(int sig) const
{
    if (m_pid <= 0 || m_ended)
        return;
    if (m_pidfd >= 0)
        ::syscall(SYS_pidfd_send_signal, m_pidfd, sig, nullptr, 0);
    else if (m_child)
        ::kill(m_pid, sig); // not reaped yet: still ours
}

bool LauncherProcess::waitFor(int timeoutMs, int* status)
{
    if (!m_ended && m_pid > 0) {
        if (m_pidfd >= 0) {
            pollfd p{m_pidfd, POLLIN, 0};
            int ready = 0;
            do {
                ready = ::poll(&p, 1, timeoutMs);
            } while (ready < 0 && errno == EINTR);
            if (ready == 0)
                return false;
        }
        if (m_child) {
            int s = 0;
            while (::waitpid(m_pid, &s, 0) < 0 && errno == EINTR) {
            }
            m_status = s;
        }
        m_ended = true;
    }
    if (status)
        *status = m_status;
    return true;
}

void LauncherProcess::detach()
{
    if (m_child) {
        wait();
        return;
    }
    m_ended = true;
}

int LauncherProcess::wait()
{
    int status = 0;
    waitFor(-1, &status);
    return status;
}

pid_t launcherZygotePid(const fs::path& launcher)
{
    auto& r = registry();
    const std::lock_guard lock(r.mutex);
    const auto it = r.zygotes.find(launcher.string());
    return it != r.zygotes.end() && it->second && it->second->ours() ? it->second->pid() : -1;
}

void startLauncherZygote(const fs::path& launcher)
{
    zygoteFor(launcher); // none started: the first run execs its launcher instead, as without a zygote
}

} // namespace sb
