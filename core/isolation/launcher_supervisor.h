#pragma once

// sandbench-launcher's supervisor side: what the launcher does while the run goes on. A pooled sandbox's
// wait for its job (awaitJob), then the run itself (Supervision): it reaps, holds the wall clock and the
// limits on the run as a whole (RunMeter), answers seccomp notifications, serves the network proxy, kills
// the run's whole process tree at its end, and measures what the run used (measureUsage).

#include "cgroup.h"
#include "isolation/launch_spec.h"
#include "launcher_io.h"
#include "netproxy.h"
#include "path_report.h"
#include "run_usage.h"

#include <seccomp.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <sys/types.h>

namespace sb::launcher {

using Clock = std::chrono::steady_clock;

// ---- a pooled launcher, before its job -------------------------------------------------------------

struct Waiting {
    int sigFd;
    int errFd;   // the program's process: its markers, else why it failed; EOF when it is gone
    pid_t child; // the program's first process (pid 1 of a container)
};

// Waits until the program's process is ready (every layer the job does not decide is in place: it says so
// with "ready" on the result fd) and has its job (the Runner writes it to the process itself). When the
// sandbox is let go without a job or cannot take one, every process of it ends, and the launcher with it.
void awaitJob(const LaunchSpec& spec, const Waiting& w, sb::cgroup::RunGroup& group, sb::paths::Reporter& paths);

// A sandbox let go without a job (or that cannot take one) ends: every process of it, its cgroup and its work
// dir, and the launcher with `why` as its error.
[[noreturn]] void releaseSandbox(const LaunchSpec& spec, const Waiting& w, sb::cgroup::RunGroup& group,
                                 const std::string& why);

// A program started ahead (LaunchSpec::programAhead), until its job comes: where the job comes (the spec fd),
// and the pipe on whose write end the program gets its one byte.
struct AheadJob {
    LineReader* job;
    int goFd;
};

// ---- the run ------------------------------------------------------------------------------------------

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
    bool exceeded(pid_t child, const sb::cgroup::Figures* figures, LaunchResult& result);

private:
    static constexpr auto kEvery = std::chrono::milliseconds(50);
    static constexpr auto kMinDiskGap = std::chrono::milliseconds(2);

    bool processesExceeded(pid_t child, const sb::cgroup::Figures* figures, LaunchResult& result);

    const LaunchSpec& m_spec;
    sb::usage::WorkDirWatch m_watch;
    Clock::time_point m_nextSample;
    Clock::time_point m_nextDisk;
    Clock::time_point m_lastDisk{};
    std::chrono::microseconds m_diskGap = kMinDiskGap;
    bool m_diskDue = false;
};

// The supervisor's ends of the channels, once the program's process runs.
struct SupervisorEnds {
    int gateFd = -1;
    std::unique_ptr<sb::netproxy::Proxy> proxy;
    int statusFd = -1;
};

// The run from the program's start until every process of it is gone: reaps, holds the wall clock and the
// meter's limits, answers seccomp notifications, serves the network proxy, and keeps what the program's
// setup reported.
class Supervision {
public:
    // ahead: a program started ahead, whose job is still to come (its wall clock starts then, not at `start`).
    Supervision(const LaunchSpec& spec, pid_t child, Clock::time_point start, int errFd, int sockFd, int sigFd,
                SupervisorEnds ends, std::optional<sb::cgroup::Figures>& figures, sb::paths::Reporter& paths,
                AheadJob* ahead = nullptr);

    // Until the run is over: the main program reaped with nothing of the run left, pid 1's word that the run
    // has ended, or poll failing. A program started ahead is served from its exec (its seccomp notifications,
    // its ready marker) until its job comes; should the sandbox be let go or end before that, run() returns
    // with releasedBeforeItsJob() saying why: there is no run to report.
    void run();
    std::optional<std::string> releasedBeforeItsJob() const { return m_releasedWhy; }
    Clock::time_point startedAt() const { return m_start; } // when the run's wall clock started

    // What the run left after it: the proxy's refusals, the setup's error, pid 1's word of the program's end.
    void collect();

    LaunchResult& result() { return m_result; }
    const std::optional<ProgramEnd>& programEnd() const { return m_programEnd; }
    bool mainExited() const { return m_mainExited; }
    int statusFd() const { return m_statusFd; }

private:
    enum class Step { Go, Done };

    void endRun();
    // Reaps whatever has ended; the main program's status is the run's. True when nothing is left to reap
    // after the main program.
    bool reap();
    // How long the next poll may wait: until the deadline or the meter's next check. Empty when the run was
    // just ended (its deadline passed, a limit was exceeded): the loop reaps first.
    std::optional<int> pollTimeoutMs();
    // One poll of every open channel, and what came on each.
    Step waitAndServe(int timeoutMs);
    void readSignals();
    void readSetupError();
    void takeAheadJob();
    void endedBeforeItsJob();
    void serveGate();
    void answerNotification(short revents);

    const LaunchSpec& m_spec;
    const pid_t m_child;
    Clock::time_point m_start;
    Clock::time_point m_deadline;
    AheadJob* m_ahead;            // until the job of a program started ahead has come
    bool m_ready = false;         // the program started ahead said it is (its process's last word before exec)
    std::optional<std::string> m_releasedWhy;
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
                  const std::optional<sb::cgroup::Figures>& figures, LaunchResult& result);

} // namespace sb::launcher
