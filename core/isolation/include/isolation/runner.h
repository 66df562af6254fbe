#pragma once

#include "isolation/run.h"

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>

namespace sb {

class WarmPool;

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
