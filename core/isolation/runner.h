#pragma once

#include "isolation/run.h"

#include <atomic>
#include <filesystem>
#include <functional>
#include <optional>

namespace sb {

struct RunnerOptions {
    // The sandbench-launcher executable; empty means "look beside this program, then in libexec".
    std::filesystem::path launcherPath;
    // Where private work dirs are made; empty means $TMPDIR or /tmp.
    std::filesystem::path workRoot;
    // The deepest level this machine offers; empty means "probe it" (highestAvailableLevel()).
    std::optional<IsolationLevel> availableLevel{};
};

// Runs snippets under a policy. Thread-safe: one Runner may serve concurrent runs.
class Runner {
public:
    explicit Runner(RunnerOptions options = {});

    // Blocks until the run has ended and every process of it is gone. Setting *cancel ends the run early
    // (outcome error, message "cancelled"). Never throws: engine failures become Outcome::InternalError.
    RunResult run(const RunRequest& request, const std::atomic<bool>* cancel = nullptr) const;

    // The launcher this runner uses, or an error saying why none was found.
    Result<std::filesystem::path> launcher() const;

private:
    RunnerOptions m_options;
};

} // namespace sb
