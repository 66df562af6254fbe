#pragma once

// Running a cluster's client commands (sbatch, squeue, scancel, sinfo, ...) as a person would from a shell,
// but without one: the program is looked up on PATH, its arguments are passed as they are, its output is
// collected, and a command that does not finish in time is killed.

#include "util/error.h"

#include <chrono>
#include <string>
#include <vector>

namespace sb::cluster {

struct CommandResult {
    int exitStatus = -1; // the exit status; 128 + N for a command killed by signal N
    std::string out, err;
    bool ok() const { return exitStatus == 0; }
    // The command's message for a person: its standard error's last line, else its standard output's.
    std::string message() const;
};

// Runs argv[0] (found on PATH) with `argv`; an error only when it cannot be started or does not finish within
// `timeout` (it is killed then). Its standard input is /dev/null; each output is kept up to 16 MiB.
Result<CommandResult> runCommand(const std::vector<std::string>& argv,
                                 std::chrono::milliseconds timeout = std::chrono::seconds(30));

} // namespace sb::cluster
