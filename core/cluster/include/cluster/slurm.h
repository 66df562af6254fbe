#pragma once

// Slurm as Sandbench uses it: array jobs submitted with sbatch, their tasks followed with squeue (while queued
// or running) and scontrol (once finished), cancelled with scancel, the cluster probed with sinfo. The client
// commands are the machine's, configured as Slurm configures them (SLURM_CONF, /etc/slurm).
//
// A stage (runArrayStage) is one array job of N tasks, each of which leaves a result in the spool: a task that
// leaves Slurm's queue without its result (killed, its node lost, out of time) is submitted again, up to the
// retries the configuration allows, and then the stage fails naming the job, the task, the node and the
// error. Cancelling cancels every job of the stage with scancel and waits until Slurm has none of them left.

#include "cluster/config.h"
#include "util/error.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace sb::cluster {

struct QueuedTask {
    std::size_t index = 0; // the array index
    std::string state;     // Slurm's: PENDING, RUNNING, COMPLETING, ...
    std::string node;      // where it runs (empty while pending)
    std::string reason;    // why it waits
};

// What Slurm still remembers of a finished task (scontrol show job; forgotten after MinJobAge).
struct FinishedTask {
    std::string state;    // COMPLETED, FAILED, CANCELLED, NODE_FAIL, TIMEOUT, OUT_OF_MEMORY, ...
    std::string exitCode; // "0:0", "1:0", "0:9"
    std::string node;
    std::string reason;
};

struct Partition {
    std::string name;
    bool isDefault = false;
    bool up = false;
    int nodes = 0;
};

// The partitions sinfo lists; an error naming why sinfo could not be run or reached the controller within
// `timeout` (sinfo itself waits up to a minute for a configuration that is missing).
Result<std::vector<Partition>> partitions(std::chrono::milliseconds timeout = std::chrono::seconds(30));

// The partition jobs go to: `wanted` (a flag), else the configuration's, else Slurm's default; an error when
// it does not exist or is not up.
Result<std::string> choosePartition(const SlurmSettings& settings, const std::string& wanted);

// Checks that every node can use the spool: it exists, is a folder and can be written (a file is made and
// removed).
Result<void> checkSpool(const std::filesystem::path& spool);

struct ArraySubmission {
    std::string name;               // the job's name
    std::filesystem::path script;   // a shell script; SLURM_ARRAY_TASK_ID tells a task its index
    std::filesystem::path logs;     // a folder: each task's output goes to NAME-JOB_INDEX.log there
    std::vector<std::size_t> tasks; // array indices
    std::string partition;
    int timeLimitMinutes = 0;
};

// Submits the array job; its id.
Result<std::string> submitArray(const ArraySubmission& submission);
// The tasks of the job Slurm still has queued or running.
Result<std::vector<QueuedTask>> queuedTasks(const std::string& jobId);
// What Slurm remembers of a task that has left the queue; nullopt when it remembers nothing.
std::optional<FinishedTask> finishedTask(const std::string& jobId, std::size_t index);
Result<void> cancelJob(const std::string& jobId);
// Cancels the jobs and waits until Slurm lists none of their tasks (tasks being killed are COMPLETING a
// while and may still write), at most `wait`.
Result<void> cancelJobsAndWait(const std::vector<std::string>& jobIds,
                               std::chrono::milliseconds wait = std::chrono::seconds(60));

// The sandbench a job's tasks run: slurm.sandbench, else this very program (the nodes share its path).
Result<std::filesystem::path> programForNodes(const SlurmSettings& settings);

// "0-3,5,7-8": indices as sbatch --array takes them.
std::string arraySpec(std::vector<std::size_t> indices);

struct StageProgress {
    std::size_t tasks = 0, queued = 0, running = 0, done = 0, retried = 0;
    std::uint64_t recordsDone = 0; // what StageRequest::recordsDone says
    std::vector<std::string> jobs; // the ids of the stage's array jobs
};

struct StageRequest {
    std::string name;               // the job's name
    std::filesystem::path folder;   // the stage's folder in the spool: the script and logs go there
    std::vector<std::string> command; // what each task runs (SLURM_ARRAY_TASK_ID tells it its index)
    std::size_t tasks = 0;
    std::string partition;
    // Whether task k has left its result (read in the spool).
    std::function<bool(std::size_t)> finished;
    // The records the tasks have done so far, for progress (optional).
    std::function<std::uint64_t()> recordsDone;
    // A file whose appearance asks to cancel, as `cancel` does (optional; cluster/job_status.h).
    std::filesystem::path cancelFile;
};

struct StageReport {
    std::vector<std::string> jobs;
    std::size_t retried = 0;
};

Result<StageReport> runArrayStage(const SlurmSettings& settings, const StageRequest& request,
                                  const std::atomic<bool>* cancel,
                                  const std::function<void(const StageProgress&)>& onProgress);

// What `sandbench doctor` says of the Slurm backend: whether the configuration names one, and each of what
// a submission needs — sinfo reaches the controller, the partition is there and up, the spool can be written.
struct SlurmCheck {
    std::string name; // "sinfo", "partition", "spool"
    bool ok = false;
    std::string detail;
};
struct SlurmDoctor {
    std::filesystem::path config;
    bool configured = false;
    std::string configError; // the configuration could not be read
    std::vector<SlurmCheck> checks;
    bool ok() const;
};
SlurmDoctor checkSlurm();

// A text as a POSIX shell takes it as one word: as it is when it holds only letters, digits and _-./:=,+@%,
// else quoted ('it'\''s').
std::string shellQuote(const std::string& text);

} // namespace sb::cluster
