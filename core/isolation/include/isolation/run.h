#pragma once

#include "isolation/outcome.h"
#include "isolation/policy.h"
#include "util/message.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace sb {

// Where a run at the container and strict levels sees its work dir (or its sandbox's workspace).
inline constexpr const char* kContainerWorkDir = "/work";

// Something a policy refused. kind is one of: import, syscall, path, network, disk (the work-dir quota), action.
struct BlockedEvent {
    std::string kind;
    std::string detail;
    bool operator==(const BlockedEvent&) const = default;
};

// Something the sandboxed program said about itself (on its stderr): that the import guard refused a
// module ("import"), that it ran out of memory ("memory"). Recorded as the program's word, apart from what
// Sandbench observed; it never decides an outcome, as the program can write anything.
struct ProgramClaim {
    std::string kind;
    std::string detail;
    bool operator==(const ProgramClaim&) const = default;
};

// The layers a run really had, in a stable order (e.g. {"rlimits", true}, {"seccomp", true}, ...).
struct IsolationReport {
    IsolationLevel level = IsolationLevel::Process;
    std::vector<std::pair<std::string, bool>> layers;
};

struct RunRequest {
    Language language = Language::Python;
    std::string source;                // the snippet; for a command, its command line as text (for history)
    Policy policy;
    std::string label; // optional: a demo case name or file name, shown in history
    std::vector<std::string> command{}; // Language::Command: the argv; argv[0] is looked up on PATH
    // Non-empty: the run works in this folder (a sandbox's workspace, core/sandboxes) instead of a fresh
    // private work dir. It is the run's working directory and only writable place (/work in a container),
    // and stays afterwards with what the run left in it. limits.disk_mb bounds what the run adds to it.
    // Such a run never comes from a warm pool.
    std::filesystem::path workspace{};
    // With a workspace: the descriptor of the workspace's lock, which the caller holds (core/sandboxes: the
    // sandbox's lock) and keeps open until run() returns; the run's launcher holds it too (workspace_lending.h).
    // Runs in one workspace must not overlap: -1 leaves that to the caller.
    int workspaceLock = -1;
    // A channel, for a program that speaks a protocol over its standard input and output (the MCP gateway's
    // JSON-RPC): with both set, the program's fd 0 is channelIn (it reads what the caller writes on the other
    // end) and its fd 1 is channelOut (the caller reads what it writes). Its stdout is then not captured:
    // RunResult::stdoutText stays empty and limits.output_bytes does not bound fd 1 (the caller's reader has
    // bounds of its own); stderr is captured as usual. One descriptor may serve as both (a socket).
    // run() takes them: it closes its copies once the run's launcher has its own, and on every path where it
    // has not, so the caller sees EOF once the program's side is gone. Create them close-on-exec: another
    // child of the caller that inherited one would hold the channel open. Only one of the two set is refused.
    // Such a run never comes from a warm pool.
    int channelIn = -1;
    int channelOut = -1;
};

struct RunResult {
    std::string runId;             // UUID, also names the private work dir
    Outcome outcome = Outcome::InternalError;
    int exitCode = -1;             // -1 when the process did not exit normally
    int signal = 0;                // the signal that ended it, 0 if none
    std::string stdoutText;
    std::string stderrText;
    bool stdoutTruncated = false;
    bool stderrTruncated = false;
    double durationMs = 0;         // wall time from start to the last process gone
    double cpuMs = 0;              // user + system time of every process of the run
    std::int64_t peakRssKb = 0;    // largest resident set of any process of the run
    std::vector<BlockedEvent> blocked; // what Sandbench observed the policy refuse
    std::vector<ProgramClaim> claims;  // what the program said it met, not observed by Sandbench
    IsolationReport isolation;
    Message message;               // why the outcome is what it is, for people (e.g. the failing layer)
    std::int64_t startedAtMs = 0;  // Unix epoch milliseconds
};

} // namespace sb
