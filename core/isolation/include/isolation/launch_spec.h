#pragma once

// The contract between the Runner (in the caller's process) and sandbench-launcher (a small, fresh process,
// forked by the launcher zygote, that sets up and supervises one run). Both sides are built from this one
// definition.
//
// Launcher file descriptors: 0 /dev/null, 1 and 2 the run's stdout/stderr pipes, 3 the spec (a socket), 4
// the result (one JSON line, written once at the end). A channel run (RunRequest::channelIn, channelOut) has
// the caller's channel as 0 and 1 instead. Everything else is closed by the launcher before it starts. The
// sandboxed program gets 0, 1 and 2 and nothing else of the outside: no descriptor through which it could
// speak to Sandbench but its output (and a channel run's channel, the caller's to speak on). Once the
// program's process exists the launcher holds /dev/null as 0 and 1, so a channel's ends are the program's
// alone; 2 it holds until it reports.
//
// The spec is two JSON lines: the sandbox (encodeSandbox: everything the policy decides) and the job
// (encodeJob: argv, environment). A cold start writes both at once. A pooled launcher (spec.pooled, see
// warm_pool.h) gets the sandbox line alone, prepares every layer it can, reports "ready" and waits; the
// job line comes when a run takes it, and the wall clock starts then.
//
// A pooled sandbox whose program starts ahead (spec.programAhead: a Python snippet's interpreter, in a
// container) has its job in the sandbox line already: its program is exec'd with every layer and limit in
// place and waits, before any of the snippet is there, for one byte on its descriptor kAheadGoFd. The job
// line the run sends must be that job again; the launcher then writes that byte, and the wall clock starts.

#include "isolation/run.h"
#include "isolation/start_trace.h"
#include "util/error.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace sb {

inline constexpr int kLauncherSpecFd = 3;
inline constexpr int kLauncherResultFd = 4;

// A workspace run's lock (RunRequest::workspaceLock) comes first on the spec socket, alone: this one byte
// with the lock's descriptor. The launcher holds it until the run's result is written, so the workspace stays
// locked while anything supervises the run, also when the caller is killed (workspace_lending.h).
inline constexpr char kWorkspaceLockMarker = '\x02';

// LaunchSpec::processBase of a cold process-level run of an unprivileged caller: the launcher counts the
// caller's tasks (a /proc walk, 50-150 µs) while the program's process applies its first layers, instead
// of the caller before it sends the spec.
inline constexpr std::int64_t kProcessBaseCountedByLauncher = -1;

// The descriptor on which a program started ahead waits for its run (LaunchSpec::programAhead): one byte when
// its job has come, EOF when the sandbox is let go without one. The program closes it before the run's own
// code: the snippet gets 0, 1 and 2 alone, as any run's program.
inline constexpr int kAheadGoFd = 3;

struct LaunchSpec {
    std::vector<std::string> argv;   // argv[0] is an absolute path
    std::vector<std::string> env;    // NAME=value, the whole environment of the program
    std::string workDir;
    bool keepWorkDir = false;        // the work dir is a sandbox's workspace: kept, never removed by the launcher
    // A root caller's workspace run in a container: an empty folder the run's identity can reach, on which the
    // launcher mounts the workspace (in a mount namespace of its own) for the sandbox to take from there.
    std::string stageDir;
    Limits limits;
    bool dropPrivileges = false;     // started by root: become uid/gid below, with no capabilities
    uid_t uid = 0;
    gid_t gid = 0;
    std::vector<std::string> readPaths;  // read and execute
    std::vector<std::string> devPaths;   // device files that may be read and written (/dev/null, ...)
    std::int64_t processBase = 0;    // tasks the uid already has (unprivileged callers share RLIMIT_NPROC);
                                     // kProcessBaseCountedByLauncher: counted by the launcher (cold runs)
    SyscallPolicy syscalls;          // the policy's syscall rules, on top of the built-in refusals
    std::string seccompProgram;      // those rules compiled (seccomp::compileFilter); empty: compiled by the launcher
    std::vector<std::string> networkAllow; // non-empty: the allowlist proxy (netproxy.h), container only
    bool cgroups = false;            // strict: limits for the run as a whole where cgroups allow (cgroup.h)
    bool container = false;          // the container level: namespaces and a minimal root (container.h)
    std::int64_t tmpSizeMb = 64;     // container: size of the private /tmp, 0 for none
    bool traceStart = false;         // mark the start-up phases (start_trace.h) and return them
    bool pooled = false;             // the job follows later on the spec fd (warm pool)
    // Pooled only: the program (argv, env, processBase above, which the sandbox line carries) is exec'd before
    // its job comes, and waits on kAheadGoFd (see above). Its seccomp filter is then loaded before the wait.
    bool programAhead = false;
};

struct LaunchResult {
    bool setupFailed = false;        // a layer could not be applied: the program never ran
    std::string setupError;
    int exitCode = -1;
    int signal = 0;
    bool timedOut = false;
    bool cpuLimited = false;
    bool cancelled = false;
    bool killedByPolicy = false;     // a syscall rule with action kill ended the run
    // The run as a whole passed a limit: the kernel's OOM killer ended a process of the run's cgroup, or
    // the launcher measured more resident memory (memoryLimited) or work-dir space (diskLimited) than the
    // policy allows. limitMessage is then the run's message: which limit, and what was measured.
    bool memoryLimited = false;
    bool diskLimited = false;
    // A process of the run asked the kernel for more address space than its limit allows (RLIMIT_AS refuses
    // such a call with ENOMEM): seen by the launcher in the call's own arguments (seccomp_filter.h).
    bool memoryRefused = false;
    Message limitMessage;
    double wallMs = 0;
    double cpuMs = 0;
    std::int64_t peakRssKb = 0;
    std::vector<BlockedEvent> blocked;                 // refused syscalls, decoded by the launcher
    std::vector<std::pair<std::string, bool>> layers;  // what the launcher really applied
    starttrace::Marks trace;                           // only when the spec asked for it
};

// The CPU time the run may use in all, in microseconds (the same default as below, to the millisecond).
inline std::int64_t cpuLimitUs(const Limits& limits)
{
    return (limits.cpuMs > 0 ? limits.cpuMs : limits.wallMs + 1000) * 1000;
}

// RLIMIT_CPU's soft limit in whole seconds. Without an explicit CPU limit it sits a second past the wall
// limit, so that the wall clock, which is precise, decides a runaway loop and the two never race.
inline std::int64_t cpuLimitSeconds(const Limits& limits)
{
    const std::int64_t ms = limits.cpuMs > 0 ? limits.cpuMs : limits.wallMs + 1000;
    return (ms + 999) / 1000;
}

// Runs started by root become a uid/gid of their own from this range: nobody else owns it, so the run
// cannot signal or read other processes, RLIMIT_NPROC counts this run alone, and one kill(-1) as that
// uid ends everything the run started.
inline constexpr std::uint32_t kTransientIdBase = 1'600'000'000;
inline constexpr std::uint32_t kTransientIdRange = 1'000'000;

inline bool isTransientId(std::uint32_t id)
{
    return id >= kTransientIdBase && id - kTransientIdBase < kTransientIdRange;
}

// Kills every process of a transient uid (one kill(-1) as that uid, from a short-lived child). Only for
// runs of a uid of their own: nothing else runs as it. Async-signal-safe after fork.
void killAllOfTransientUid(uid_t uid, gid_t gid);

// Removes a run's work dir even if the program left read-only folders behind (never follows symlinks).
void removeWorkDir(const std::string& dir);

// One JSON line each (no newline inside): the sandbox part of a spec (argv, env and processBase left out,
// unless the program starts ahead), and the job part (those three).
std::string encodeSandbox(const LaunchSpec& spec);
std::string encodeJob(const LaunchSpec& spec);
// Whether two specs make the same sandbox: every field of the sandbox line but those each sandbox has of
// its own (work dir, identity) and the tracing and pooling switches; with a program started ahead, its job too.
bool sameSandbox(const LaunchSpec& a, const LaunchSpec& b);
// Whether a job line is the job a program started ahead was started with (argv, env, processBase).
bool isTheJobStartedAhead(const LaunchSpec& spec, std::string_view jobLine);
// Both lines, newline-terminated: what a cold start writes.
std::string encodeSpec(const LaunchSpec& spec);
Result<LaunchSpec> decodeSandbox(std::string_view line);
// Fills argv, env and processBase from a job line; argv[0] must be an absolute path.
Result<void> applyJob(LaunchSpec& spec, std::string_view line);
Result<LaunchSpec> decodeSpec(std::string_view text);
std::string encodeResult(const LaunchResult& result);
// The launcher's result pipe carries "started PID\n" as soon as the program's first process exists, a
// pooled launcher's "ready\n" once every layer is in place, then the JSON result. Splits them; pid is 0
// when the launcher never got that far.
struct LauncherReport {
    pid_t started = 0;
    bool ready = false;
    std::string json;
};
LauncherReport splitLauncherReport(const std::string& text);
Result<LaunchResult> decodeResult(const std::string& json);

} // namespace sb
