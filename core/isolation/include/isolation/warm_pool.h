#pragma once

// A warm pool: sandboxes prepared ahead for bursts of runs of one kind, each handed one job on demand.
//
// A pooled sandbox is a launcher that has done all that the job does not decide: the work dir, the
// namespaces and the minimal root (container, strict), the cgroup (strict), the program's process with its
// identity, its capabilities dropped, no_new_privs and Landlock; then it waits. A run that takes it writes
// its snippet and sends the job (argv, environment); the launcher loads the seccomp filter, sets the
// limits and execs, and the run's wall clock starts then. A Python snippet's sandbox in a container has its
// interpreter started ahead, with every layer and limit, waiting for the job (launch_spec.h,
// LaunchSpec::programAhead). Outcomes, blocked events and layers are those of a cold run of the same request.
//
// Never reused: a sandbox serves one run and ends with it, and the pool starts another in the background
// (when that run has ended, or at once in a burst: WarmPoolOptions::refillGrace).
// Runs the pool does not fit (another policy, level or language, a command outside the system paths)
// start cold, as without a pool; so does a burst larger than the pool.
//
// Cleanup: destroying the pool ends its idle sandboxes and waits until nothing of them is left (process,
// descriptor, mount, cgroup, work dir); if the owning process dies instead, each launcher's parent-death
// signal ends its sandbox and the launcher removes its work dir itself.
//
// Thread-safe: Runners on any thread may draw from one pool (RunnerOptions::warmPool).

#include "isolation/run.h"
#include "isolation/runner.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace sb {

namespace launch {
struct Plan;
struct Started;
} // namespace launch

struct WarmPoolOptions {
    RunRequest prototype; // requests like this one (language, policy, a command's program) are served
    std::size_t size = 2; // sandboxes kept ready
    // A sandbox handed to a run is replaced once that run has ended, or this long after it began, whichever
    // comes first, so that preparing the next one does not slow the start of this one (on few cores it
    // does, measurably). Once a run finds the pool empty (a burst), taken sandboxes are replaced at once,
    // until no run has come for this long.
    std::chrono::milliseconds refillGrace{50};
    RunnerOptions runner; // the launcher, work root and available level (warmPool is ignored)
};

class WarmPool {
public:
    // Starts preparing `size` sandboxes in the background.
    explicit WarmPool(WarmPoolOptions options);
    ~WarmPool();
    WarmPool(const WarmPool&) = delete;
    WarmPool& operator=(const WarmPool&) = delete;

    struct Stats {
        std::size_t ready = 0;    // waiting for a job
        std::size_t starting = 0; // being prepared
        std::uint64_t handedOut = 0;
        std::uint64_t failed = 0; // sandboxes that could not be prepared (see lastError)
    };
    Stats stats() const;
    // Why the last sandbox could not be prepared; empty if none failed. While preparing fails, the pool
    // retries less and less often, and runs start cold (and say why, if it is about them).
    std::string lastError() const;

    // Blocks until every sandbox is ready, at most `timeout`; whether they all are.
    bool waitUntilReady(std::chrono::milliseconds timeout) const;

    // Whether the pool would serve `request`.
    bool serves(const RunRequest& request) const;

    // For the Runner: a ready sandbox for this plan (launch.h) if the pool's are of its shape, else null.
    // Each is given once.
    std::unique_ptr<launch::Started> take(const launch::Plan& plan);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

// For a burst known in advance (the demo, a batch): a pool of `size` for the kind of request that comes
// most often in `requests`, or null when no kind comes twice (nothing a pool would save).
std::shared_ptr<WarmPool> makeBurstPool(const std::vector<RunRequest>& requests, const RunnerOptions& options,
                                        std::size_t size = 2);

} // namespace sb
