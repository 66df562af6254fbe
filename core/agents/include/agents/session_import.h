#pragma once

// An agent session run elsewhere, recorded here as if it had run here: a session of `agent run --backend slurm`
// runs on a cluster's node in a store of its own (agents/agent_cluster.h), whose whole file comes back
// through the spool. What it holds joins this store:
//   - its checkpoints, into the history of the sandbox here (SandboxEngine::adoptCheckpoints), the node's
//     first one being the checkpoint here its sandbox was written from; their ids are new here, and the
//     session's steps name them by those;
//   - its runs (the agent's own, and those of its run_code calls) with their blocked events, and the policy
//     versions they ran under, by content;
//   - the session and its steps;
//   - its audit entries, appended to this store's log in their order with their times and actors, each saying
//     where it was made (`provenance`); those of the node's own sandbox, checkpoints and policy versions are
//     not copied, as this store audits its own;
// and the sandbox's workspace is then restored to the session's last checkpoint, as the session left it.
// A session already here is refused. Runs, session, steps and audit entries go in one transaction.

#include "agents/session_store.h"
#include "sandboxes/sandbox_engine.h"
#include "store/store.h"
#include "util/error.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

namespace sb::agents {

struct NodeSession {
    std::filesystem::path database; // the other store's file, whole
    std::string sessionId;
    std::string sandbox;            // the sandbox here the session worked in; the other store's has its name
    std::string startCheckpoint;    // the checkpoint here the other store's sandbox was written from
    std::string policyRef;          // the session's policy as it was named here
    nlohmann::json provenance = nlohmann::json::object(); // added to every audit entry's details
};

Result<SessionInfo> importNodeSession(Store& store, SandboxEngine& engine, const NodeSession& node);

} // namespace sb::agents
