#pragma once

// Many runs at once (`sandbench batch`), each prepared, recorded and audited as `sandbench run` records one
// (run.h). Here the runs run one after another. On a Slurm cluster each run is a task of one array job: the
// task runs it on its node under the policy and isolation level settled here (Slurm's cgroups confine a job's
// resources; they are not a sandbox, and a node that cannot give the run's layers refuses it, as this machine
// would), and writes its result to the spool, which comes back to be recorded here. A task that leaves
// Slurm's queue without its result is submitted again (cluster/slurm.h); a cancelled batch records none of
// the runs it had not got back.
//
// A task is `sandbench batch-task --job FOLDER`, SLURM_ARRAY_TASK_ID its run.

#include "cluster/config.h"
#include "cluster/slurm.h"
#include "isolation/runner.h"
#include "store/store.h"
#include "usecases/run.h"
#include "util/error.h"

#include <atomic>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sb {

struct BatchRequest {
    std::vector<RunOrder> orders;
    std::optional<cluster::SlurmSettings> slurm; // set: on the cluster
    std::string partition;
    const std::atomic<bool>* cancel = nullptr;
    // Each run as it is recorded (its index in orders), and the cluster's progress.
    std::function<void(std::size_t, const RunRecord&)> recorded;
    std::function<void(const cluster::StageProgress&)> progress;
    std::string title; // what was asked, for the job's status in the spool (cluster/job_status.h)
};

struct BatchEntry {
    std::optional<RunRecord> record; // empty: the run was refused before it started (error)
    std::string error;
};

struct BatchResult {
    std::vector<BatchEntry> entries; // by order
    std::vector<std::string> jobs;   // on a cluster: the Slurm jobs
    std::size_t retried = 0;
};

// An error value: nothing was run (the store is read-only, the cluster cannot be used, cancelled before a run
// was recorded on a cluster).
Result<BatchResult> runBatch(Store& store, const Runner& runner, const BatchRequest& request);

// One task of a batch's job in `folder`: the run `index`.
Result<void> runBatchTask(const std::filesystem::path& folder, std::size_t index);

} // namespace sb
