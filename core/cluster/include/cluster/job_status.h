#pragma once

// What a job folder in the spool says of the command that made it, for anyone following the spool (the
// window's Dashboard) on any machine that sees it:
// - `status.json`: what the command is (its kind and what was asked), where it runs (user, host, process),
//   its phase and its jobs' progress, rewritten as it goes (written aside and renamed);
// - `cancel`: a file anyone who may write the folder leaves to ask the command to cancel its jobs. The
//   command reads it at each poll of the queue and cancels as Ctrl-C would (scancel, then waits until Slurm
//   has none of the jobs left).
//
// A command that ends well removes its folder; one whose stage failed keeps it, with status "failed" and the
// error. A folder whose command is gone without a word (killed) is told apart: on the same host its process is
// no longer there; elsewhere its status has not been rewritten for a minute.

#include "cluster/slurm.h"
#include "util/error.h"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace sb::cluster {

inline constexpr std::string_view kStatusFile = "status.json";
inline constexpr std::string_view kCancelFile = "cancel";

struct JobStatus {
    std::filesystem::path folder;
    std::string kind;  // "rules", "batch", "agent"
    std::string title; // what was asked, as the user would say it
    std::string phase; // the command's: "splitting", "scanning", "evaluating", "merging", "running", "failed"
    std::string error; // when failed
    StageProgress progress;
    std::string user, host;
    long pid = 0;
    std::int64_t startedMs = 0, updatedMs = 0; // milliseconds since the epoch
    bool cancelRequested = false;              // the cancel file is there
    bool alive = true;                         // the command still runs, as far as can be told

    bool failed() const { return phase == "failed"; }
};

// What became of a job, as every front end says it: its command runs (Running), runs and was asked to cancel
// (Cancelling), failed and kept its folder (Failed), ended without a word (Gone), or its status cannot be read
// (Unreadable).
enum class JobState { Running, Cancelling, Failed, Gone, Unreadable };
JobState jobState(const JobStatus& job);
std::string_view toString(JobState state); // "running", "cancelling", "failed", "gone", "unreadable"

// Writes a job folder's status.json for the command that made it: at once, at every change of phase, and at
// most every quarter second otherwise.
class JobStatusWriter {
public:
    JobStatusWriter(std::filesystem::path folder, std::string kind, std::string title);

    void update(std::string_view phase, const StageProgress& progress);
    // The command failed: the status says so, with the error, whatever was written last.
    void fail(std::string_view error);
    const std::filesystem::path& folder() const { return m_status.folder; }

private:
    void write();
    JobStatus m_status;
    std::uint64_t m_pidStart = 0; // this process's start (processStart): written with the pid
    std::chrono::steady_clock::time_point m_written{};
};

// Every job folder in `spool` with a status, the newest first. Folders without one (another program's, or
// being made) are passed over; one whose status cannot be read is listed with phase "unreadable" and the
// error.
Result<std::vector<JobStatus>> listJobs(const std::filesystem::path& spool);

// A job folder's status (as listJobs reads it).
Result<JobStatus> readJobStatus(const std::filesystem::path& folder);

// The job `id` names: its folder's name, a unique prefix of it of at least 4 characters, or the id of one of
// its Slurm jobs; an error saying which when none or several are.
Result<JobStatus> findJob(const std::filesystem::path& spool, const std::string& id);

// Asks the command of the job in `folder` to cancel its jobs; an error when the folder is not a job's or
// cannot be written.
Result<void> requestCancel(const std::filesystem::path& folder);
bool cancelRequested(const std::filesystem::path& folder);

// Removes a job folder whose command has ended (failed, or gone without a word: then the Slurm jobs its
// status lists are cancelled first); an error naming why when its command still runs, a job cannot be
// cancelled or it is not a job's folder.
Result<void> removeJobFolder(const std::filesystem::path& folder);

} // namespace sb::cluster
