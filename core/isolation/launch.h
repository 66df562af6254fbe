#pragma once

// How a request becomes a run, in the three steps a warm pool (warm_pool.h) takes apart:
//   makePlan  what the request decides (level, program, the sandbox part of the launch spec): no file, no
//             process yet;
//   start     a work dir, the run's pipes and a launcher (pooled: sent the sandbox line, it prepares every
//             layer it can and waits; cold: nothing sent yet);
//   runJob    the snippet written, the job handed over, the output drained, the result read and judged.
// Internal to core/isolation (runner.cpp, warm_pool.cpp): callers use Runner and WarmPool.

#include "isolation/launch_spec.h"
#include "launcher_process.h"
#include "isolation/runner.h"
#include "isolation/start_trace.h"
#include "util/unique_fd.h"

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <sys/types.h>
#include <string>
#include <utility>

namespace sb::launch {

// The run's descriptors: closed at the end of their scope (util/unique_fd.h).
using Fd = UniqueFd;

struct Plan {
    Policy policy;                  // as it runs: the level lowered where the policy allows it
    Message note;                   // RunResult::message when the level was lowered
    Language language = Language::Python;
    std::string program;            // what is exec'd: the interpreter, or the command's program
    std::filesystem::path launcher;
    std::filesystem::path workRoot; // where work dirs are made
    std::filesystem::path workspace; // the request's (RunRequest::workspace): the work dir itself when set
    int workspaceLock = -1;         // the request's (RunRequest::workspaceLock), borrowed
    // The request's channel (RunRequest::channelIn, channelOut), borrowed: the program's fd 0 and 1, handed to
    // its launcher by start(). -1 both: none (stdin /dev/null, stdout captured).
    int channelIn = -1;
    int channelOut = -1;
    LaunchSpec spec;                // the sandbox part; the work dir and the run's identity come with start()
};

// Whether a sandbox started for one plan can run the other's job. Never when either has a channel: a
// sandbox's standard descriptors are fixed when its launcher starts.
bool sameShape(const Plan& a, const Plan& b);

// Refusals (the level is not available here, no program, no launcher, a policy whose syscall filter
// cannot be built) are errors, worded for RunResult::message.
Result<Plan> makePlan(const RunRequest& request, const RunnerOptions& options);

// A launcher started for a plan: its work dir (removed when this goes), the caller's ends of its pipes,
// its process. Without a job it is released when this goes: the spec pipe's EOF ends the launcher and its
// sandbox, and the destructor waits for that before it removes the work dir.
struct Started {
    std::string runId;              // a UUID; names the work dir
    std::filesystem::path workDir;
    // A workspace run: the work dir is kept, only the folder of the job's own files in it goes; for a root
    // caller, what the run's transient identity owns in it is given back to the workspace's owner.
    bool keepWorkDir = false;
    std::filesystem::path jobDir;
    std::filesystem::path stageDir; // the spec's (launch_spec.h), removed when this goes
    // Held (flock) on the run's own folder in the work root (its work dir, or a workspace run's stage dir)
    // for as long as this lives, so that sweepStaleRunFolders() tells a folder in use from one a killed caller
    // left before its launcher could take charge of it.
    Fd folderLock;
    uid_t lentTo = 0;               // the transient uid the workspace was lent to (0: not lent)
    uid_t ownerUid = 0;
    gid_t ownerGid = 0;
    int workspaceLock = -1;         // the plan's, sent to the launcher (workspace_lending.h)
    LaunchSpec spec;                // the plan's, with the work dir and the identity
    bool pooled = false;
    std::string reported;           // what the launcher said on the result pipe so far ("started", "ready")
    Fd out;
    Fd err;
    Fd specWrite;
    Fd result;
    std::optional<LauncherProcess> process;

    Started() = default;
    Started(const Started&) = delete;
    Started& operator=(const Started&) = delete;
    ~Started();
};

// Removes the run folders (`sandbench-run-*`) in `workRoot` that no caller holds (Started::folderLock) and that
// have not changed for `minAge`: what a caller killed between making a run's folder and starting its launcher
// leaves (every later moment has a process that removes it: the launcher, or the zygote above it).
void sweepStaleRunFolders(const std::filesystem::path& workRoot, std::chrono::seconds minAge);

// `pooled`: the launcher gets the sandbox line now and the job later (runJob); else both come in runJob. A
// plan with a channel is never pooled. The plan's channel descriptors stay the caller's: once this returns,
// the launcher holds copies of its own (or never will).
Result<std::unique_ptr<Started>> start(const Plan& plan, bool pooled);

// Gives `request` (whose plan is `plan`, of the same shape as the one `started` was made for) to the
// launcher and runs it to its end. `trace` holds the caller's start-trace marks so far.
RunResult runJob(std::unique_ptr<Started> started, const Plan& plan, const RunRequest& request,
                 const std::atomic<bool>* cancel, starttrace::Marks trace);

// What a run refused before it started looks like.
RunResult refused(const RunRequest& request, std::string message);

} // namespace sb::launch
