#pragma once

// What the commands that can run on a cluster share: --backend and its options, the Slurm settings of the
// user's configuration (cluster/config.h), progress on stderr, and Ctrl-C as a cancel.

#include "cluster/config.h"
#include "cluster/slurm.h"
#include "util/error.h"

#include <atomic>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace CLI {
class App;
}

namespace sb::cli {

struct BackendOptions {
    std::string backend = "local"; // local, slurm
    std::size_t shards = 0;        // 0: one per node of the partition
    std::string partition;         // empty: the configuration's, else Slurm's default
    bool slurm() const { return backend == "slurm"; }
};

// --backend, --shards and --partition on `command`; `what` says what goes to the cluster ("the dataset's
// shards", "each run").
void addBackendOptions(CLI::App* command, BackendOptions& options, std::string_view what, bool shards);

// The Slurm settings of the configuration; an error naming the file when there are none.
Result<cluster::SlurmSettings> slurmSettings();

// The shards to cut into: --shards, else one per node of the partition.
Result<std::size_t> shardCount(const BackendOptions& options, const cluster::SlurmSettings& settings);

// The array index Slurm gives a task (SLURM_ARRAY_TASK_ID); nullopt when it is not a task of an array job.
std::optional<std::size_t> slurmArrayTaskId();

// The command line this process was started with, as a shell would take it ("sandbench rules impact --data
// tx.csv …"): what a job's status in the spool says was asked.
std::string commandTitle();

// From now on Ctrl-C and SIGTERM set this flag instead of ending the process: a cluster's jobs are cancelled
// before the command ends.
const std::atomic<bool>* catchCancel();

// Progress of work on a cluster, on stderr: rewritten in place on a terminal, else a line per change.
class ClusterProgress {
public:
    void show(std::string_view phase, const cluster::StageProgress& progress);
    void finish();

private:
    std::string m_last;
    bool m_inPlace = false;
    bool m_decided = false;
};

} // namespace sb::cli
