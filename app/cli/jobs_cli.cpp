// sandbench jobs list | cancel | remove: the work sent to the cluster, as the spool's job folders say it
// (cluster/job_status.h) — from any terminal of any machine that sees the spool, as the window's Dashboard
// follows it.

#include "cluster_support.h"
#include "command_line.h"
#include "commands.h"

#include "cluster/config.h"
#include "cluster/job_status.h"
#include "util/printable.h"
#include "util/time_text.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <iostream>
#include <memory>
#include <thread>

namespace sb::cli {

namespace {

using Json = nlohmann::json;

struct JobsOptions {
    std::string id;
    bool json = false;
    bool noWait = false;
};

Json jobToJson(const cluster::JobStatus& job)
{
    return Json{{"id", job.folder.filename().string()},
                {"folder", job.folder.string()},
                {"kind", job.kind},
                {"title", job.title},
                {"phase", job.phase},
                {"error", job.error},
                {"tasks", job.progress.tasks},
                {"queued", job.progress.queued},
                {"running", job.progress.running},
                {"done", job.progress.done},
                {"retried", job.progress.retried},
                {"records_done", job.progress.recordsDone},
                {"slurm_jobs", job.progress.jobs},
                {"user", job.user},
                {"host", job.host},
                {"pid", job.pid},
                {"started_ms", job.startedMs},
                {"updated_ms", job.updatedMs},
                {"cancel_requested", job.cancelRequested},
                {"alive", job.alive}};
}

std::string tasksText(const cluster::JobStatus& job)
{
    if (job.progress.tasks == 0)
        return "-";
    std::string text = fmt::format("{}/{} done", job.progress.done, job.progress.tasks);
    if (job.progress.running)
        text += fmt::format(", {} running", job.progress.running);
    if (job.progress.queued)
        text += fmt::format(", {} queued", job.progress.queued);
    if (job.progress.retried)
        text += fmt::format(", {} retried", job.progress.retried);
    return text;
}

Result<cluster::SlurmSettings> settingsForJobs()
{
    auto config = cluster::loadClusterConfig();
    if (!config)
        return std::unexpected(config.error());
    if (!config->slurm)
        return fail(fmt::format("no Slurm is configured: there are no jobs to follow (a slurm section with a spool "
                                "folder in {} sends work there: docs/SCALING.md)",
                                config->file.string()));
    return *config->slurm;
}

int listCommand(const JobsOptions& o)
{
    auto settings = settingsForJobs();
    if (!settings)
        return reportError(settings.error().message);
    auto jobs = cluster::listJobs(settings->spool);
    if (!jobs)
        return reportError(jobs.error().message);
    if (o.json) {
        Json out = Json::array();
        for (const auto& job : *jobs)
            out.push_back(jobToJson(job));
        std::cout << out.dump(2) << '\n';
        return 0;
    }
    if (jobs->empty()) {
        std::cout << fmt::format("No jobs in the spool {}.\n", printable(settings->spool.string()));
        return 0;
    }
    const std::int64_t now = nowEpochMs();
    for (const auto& job : *jobs) {
        std::cout << fmt::format("{}  {}  {}  {}\n", job.folder.filename().string(),
                                 cluster::toString(cluster::jobState(job)),
                                 job.phase == "unreadable" ? std::string() : job.kind, printable(job.title));
        if (job.phase == "unreadable") {
            std::cout << fmt::format("    {}\n", printable(job.error));
            continue;
        }
        std::string line = fmt::format("    {}; tasks {}", job.phase, tasksText(job));
        if (job.progress.recordsDone)
            line += fmt::format("; {} records done", job.progress.recordsDone);
        if (!job.progress.jobs.empty())
            line += fmt::format("; Slurm jobs {}", fmt::join(job.progress.jobs, ", "));
        std::cout << line << '\n';
        std::cout << fmt::format("    {}@{}, pid {}, started {} ago\n", printable(job.user), printable(job.host), job.pid,
                                 formatDurationShort(now - job.startedMs));
        if (!job.error.empty())
            std::cout << fmt::format("    error: {}\n", printable(job.error));
    }
    return 0;
}

// The job `id` names in the configured spool.
Result<cluster::JobStatus> namedJob(const std::string& id)
{
    auto settings = settingsForJobs();
    if (!settings)
        return std::unexpected(settings.error());
    return cluster::findJob(settings->spool, id);
}

int cancelCommand(const JobsOptions& o)
{
    auto job = namedJob(o.id);
    if (!job)
        return reportError(job.error().message);
    const std::string name = job->folder.filename().string();
    if (!job->alive)
        return reportError(fmt::format("job {} is {}: nothing runs to cancel (sandbench jobs remove {} removes its "
                                       "folder)",
                                       name, cluster::toString(cluster::jobState(*job)), name));
    if (auto ok = cluster::requestCancel(job->folder); !ok)
        return reportError(ok.error().message);
    if (o.noWait) {
        std::cout << fmt::format("Asked job {} to cancel.\n", name);
        return 0;
    }
    // Until its command has cancelled its Slurm jobs (it removes its folder) or is gone; it looks for the
    // cancel file at each poll of the queue, and then waits until Slurm has none of its jobs left.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(2);
    while (std::chrono::steady_clock::now() < deadline) {
        std::error_code ec;
        if (!std::filesystem::exists(job->folder, ec)) {
            std::cout << fmt::format("Job {} cancelled: its Slurm jobs were cancelled (scancel).\n", name);
            return 0;
        }
        // Its command ended otherwise meanwhile: failed (its own error), or killed before it could cancel.
        if (auto now = cluster::readJobStatus(job->folder); now && !now->alive)
            return reportError(now->failed()
                                   ? fmt::format("job {} failed before it could cancel: {}", name, now->error)
                                   : fmt::format("job {}: its command ended without cancelling its jobs (sandbench "
                                                 "jobs remove {} cancels what Slurm still has of them)",
                                                 name, name));
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return reportError(fmt::format("job {} was asked to cancel, but its command (pid {} on {}) has not done so within "
                                   "2 minutes",
                                   name, job->pid, job->host));
}

int removeCommand(const JobsOptions& o)
{
    auto job = namedJob(o.id);
    if (!job)
        return reportError(job.error().message);
    if (auto ok = cluster::removeJobFolder(job->folder); !ok)
        return reportError(ok.error().message);
    std::cout << fmt::format("Removed job {} ({}).\n", job->folder.filename().string(), job->folder.string());
    return 0;
}

} // namespace

void addJobsCommands(CommandLine& commandLine)
{
    auto options = std::make_shared<JobsOptions>();
    auto* jobs = commandLine.app().add_subcommand(
        "jobs", "Work sent to the cluster (--backend slurm): follow it from any terminal, cancel it, remove what failed");
    jobs->require_subcommand(1);

    auto* list = jobs->add_subcommand("list", "Every job in the spool, newest first: what was asked, its phase, its "
                                              "tasks, its Slurm jobs, where its command runs");
    addJsonFlag(list, options->json);
    commandLine.onParsed(list, [options] { return listCommand(*options); });

    auto* cancel = jobs->add_subcommand("cancel", "Cancel a job's Slurm jobs (scancel), as Ctrl-C in its command "
                                                  "does, and wait until it has");
    cancel->add_option("id", options->id, "The job: its name, a unique prefix of it (4 characters or more), or a "
                                          "Slurm job id of it")
        ->required();
    cancel->add_flag("--no-wait", options->noWait, "Ask, and do not wait until the command has cancelled");
    commandLine.onParsed(cancel, [options] { return cancelCommand(*options); });

    auto* remove = jobs->add_subcommand("remove", "Remove the folder of a job that failed (its logs kept there) or "
                                                  "whose command is gone");
    remove->add_option("id", options->id, "The job: its name, a unique prefix of it, or a Slurm job id of it")->required();
    commandLine.onParsed(remove, [options] { return removeCommand(*options); });
}

} // namespace sb::cli
