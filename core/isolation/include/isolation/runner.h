#pragma once

#include "isolation/run.h"

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>

namespace sb {

class WarmPool;
class Runner;

// One sandbox started for one request before its run: the CLI starts it as it opens its store, so that the
// sandbox's layers (namespaces, root, identity, Landlock; warm_pool.h) are prepared, in the launcher's own
// processes, while the store opens. The run of that request takes it; a run of another shape starts cold.
// Nothing runs in it before its run sends the job: dropped untaken (the store could not be opened, the run was
// refused), its launcher ends and its work dir goes, as a warm pool's idle sandboxes do.
class SandboxAhead {
public:
    ~SandboxAhead();
    SandboxAhead(const SandboxAhead&) = delete;
    SandboxAhead& operator=(const SandboxAhead&) = delete;

private:
    friend class Runner;
    struct Impl;
    explicit SandboxAhead(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

struct RunnerOptions {
    // The sandbench-launcher executable; empty means "look beside this program, then in libexec".
    std::filesystem::path launcherPath;
    // Where private work dirs are made; empty means $TMPDIR or /tmp.
    std::filesystem::path workRoot;
    // The deepest level this machine offers; empty means "probe it" (highestAvailableLevel()).
    std::optional<IsolationLevel> availableLevel{};
    // Sandboxes prepared ahead (warm_pool.h): a run whose sandbox would be the same as the pool's takes one,
    // any other starts cold. Shared: several Runners (and threads) may draw from one pool.
    std::shared_ptr<WarmPool> warmPool{};
};

// Runs snippets under a policy. Thread-safe: one Runner may serve concurrent runs. Every run gets a fresh
// sandbox: started for it (cold), or prepared ahead by the warm pool and never used before (pooled).
class Runner {
public:
    explicit Runner(RunnerOptions options = {});

    // Blocks until the run has ended and every process of it is gone. Setting *cancel ends the run early
    // (outcome error, message "cancelled"). Never throws: engine failures become Outcome::InternalError.
    RunResult run(const RunRequest& request, const std::atomic<bool>* cancel = nullptr) const;
    // The same, in the sandbox prepared ahead for it when that one is of its shape (prepareAhead).
    RunResult run(const RunRequest& request, std::unique_ptr<SandboxAhead> ahead,
                  const std::atomic<bool>* cancel = nullptr) const;

    // Starts preparing the sandbox of `request` on a thread of its own, and returns at once; null when its run
    // would not take one prepared ahead (a workspace's or a channel's run, a request the run refuses).
    std::unique_ptr<SandboxAhead> prepareAhead(const RunRequest& request) const;

    // The launcher this runner uses, or an error saying why none was found.
    Result<std::filesystem::path> launcher() const;

    // Starts, without waiting for it, what the first run of this process needs whatever the request (the
    // launcher zygote, launcher_process.h), so that it gets ready while the caller does other work, such as
    // opening its store. Optional: run() starts it itself when it is not there.
    void prepare() const;

private:
    RunnerOptions m_options;
};

} // namespace sb
