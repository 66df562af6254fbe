#pragma once

// `sandbench agent run --backend slurm`: an agent session as the task of a Slurm job, recorded here as if it had
// run here.
//
// Here, what a local session settles first: the sandbox (made from main when none is named) and the policy.
// The workspace is checkpointed (a checkpoint only when it changed since the sandbox's head), and that
// checkpoint is written to the job's folder in the spool (`seed/`) with the policy (`policy.yaml`, canonical)
// and the agent's command line (`job.json`). On the node, `sandbench agent-task --job FOLDER` makes a store of
// its own in the node's scratch space ($TMPDIR), a sandbox of the same name from `seed/`, and runs the session
// there as `agent run` does (agent_session.h) under that policy, with nobody to answer approvals: a call that
// needs one waits the policy's approval timeout and is denied. Its store comes back whole (`session.db`,
// written aside and renamed) and is imported here (session_import.h): checkpoints, runs, steps, audit entries,
// and the sandbox's workspace as the session left it. A task that leaves Slurm's queue without its result is
// run again from the same seed in a new scratch store; a cancelled job records nothing.
//
// Live control (`--step`, `sessions control`) needs the gateway on this machine: refused on a cluster.

#include "agents/agent_session.h"
#include "cluster/config.h"
#include "cluster/slurm.h"
#include "store/store.h"
#include "util/error.h"

#include <atomic>
#include <filesystem>
#include <functional>
#include <string>

namespace sb::agents {

struct ClusterAgentRequest {
    AgentSessionRequest session; // stepMode is refused; approvals, stop and started are not used
    cluster::SlurmSettings slurm;
    std::string partition;
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(const cluster::StageProgress&)> progress;
    std::string title; // what was asked, for the job's status in the spool
};

struct ClusterAgentResult {
    AgentSessionResult result;
    std::string job;  // the Slurm job (the last, when the task was run again)
    std::string node; // where the session ran
    std::size_t retried = 0;
};

Result<ClusterAgentResult> runAgentSessionOnSlurm(Store& store, const ClusterAgentRequest& request);

// The task of such a job: the session on this node, its store written to `folder`. `stop` (Slurm's SIGTERM at
// a cancel) ends the session as interrupted and writes nothing back; the scratch store is removed either way.
Result<void> runAgentTask(const std::filesystem::path& folder, const std::atomic<bool>* stop = nullptr);

} // namespace sb::agents
