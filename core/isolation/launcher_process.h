#pragma once

// Starting sandbench-launcher for a run, and waiting for it. Launchers are forked by the process's
// launcher zygote (zygote.h: one exec per caller process and launcher path instead of one per run); when
// the zygote cannot be had, the launcher is exec'd directly (posix_spawn), as before there was one.
// Either way the caller holds a pidfd: it signals and awaits the launcher without racing pid reuse, from
// any thread, whether or not the launcher is its child.

#include "util/error.h"

#include <filesystem>
#include <sys/types.h>

namespace sb {

// The launcher's descriptors (launch_spec.h): they become its 1, 2, 3 and 4, and `in` its 0 (-1: /dev/null).
struct LauncherFds {
    int out = -1;
    int err = -1;
    int spec = -1;
    int result = -1;
    int in = -1; // a channel run's input (RunRequest::channelIn)
};

class LauncherProcess {
public:
    enum class Via { Zygote, Exec };

    // `via`: Zygote falls back to Exec when no zygote can be started. `runDir`: the run's own folder, which
    // the zygote removes should the launcher be killed from outside (zygote.h); empty for none.
    static Result<LauncherProcess> start(const std::filesystem::path& launcher, const LauncherFds& fds,
                                         Via via = Via::Zygote, const std::filesystem::path& runDir = {});

    LauncherProcess(LauncherProcess&& other) noexcept;
    LauncherProcess& operator=(LauncherProcess&& other) noexcept;
    LauncherProcess(const LauncherProcess&) = delete;
    LauncherProcess& operator=(const LauncherProcess&) = delete;
    // Waits for the launcher if it still runs: every launcher started is awaited (and, if ours, reaped).
    ~LauncherProcess();

    pid_t pid() const { return m_pid; }
    // Readable once the launcher has ended (poll); -1 if it is not known.
    int pidfd() const { return m_pidfd; }
    void signal(int sig) const;
    // Blocks until the launcher has ended; its wait status when it was our child, else 0.
    int wait();
    // As wait(), for at most `timeoutMs`; false if it still runs.
    bool waitFor(int timeoutMs, int* status = nullptr);
    // Lets a launcher forked by the zygote end on its own (the zygote reaps it): for one that has written
    // its result, whose exit nothing waits for. An exec'd launcher, our child, is awaited as always.
    void detach();

private:
    LauncherProcess(pid_t pid, int pidfd, bool child) : m_pid(pid), m_pidfd(pidfd), m_child(child) {}
    void reset();

    pid_t m_pid = -1;
    int m_pidfd = -1;
    bool m_child = false; // exec'd by us: ours to reap
    bool m_ended = false;
    int m_status = 0;
};

// The pid of this process's zygote for `launcher`, or -1 when none runs (for tests).
pid_t launcherZygotePid(const std::filesystem::path& launcher);

// Starts this process's zygote for `launcher` if none runs, without waiting for it to be ready.
void startLauncherZygote(const std::filesystem::path& launcher);

} // namespace sb
