#include "cluster/job_status.h"

#include "cluster/spool.h"
#include "util/user_account.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace sb::cluster {

namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

constexpr int kStatusVersion = 1;
constexpr auto kRewriteEvery = std::chrono::milliseconds(250);
// A command elsewhere whose status has not been rewritten for this long is taken as gone (it rewrites it at
// every poll of the queue, a few times a second, while its jobs run).
constexpr std::int64_t kSilentForMs = 60'000;

std::int64_t nowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string hostName()
{
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) != 0)
        return {};
    return name;
}

// When a process started (field 22 of /proc/PID/stat, in clock ticks since boot): a pid with another start is
// another process.
std::uint64_t processStart(long pid)
{
    std::ifstream in(fmt::format("/proc/{}/stat", pid));
    std::string text;
    if (!std::getline(in, text))
        return 0;
    const auto close = text.rfind(')'); // the command's name may hold spaces and parentheses
    if (close == std::string::npos)
        return 0;
    std::istringstream fields(text.substr(close + 2));
    std::string field;
    for (int i = 3; i <= 22 && fields >> field; ++i) {
        if (i == 22)
            return std::strtoull(field.c_str(), nullptr, 10);
    }
    return 0;
}

Json progressToJson(const StageProgress& p)
{
    return Json{{"tasks", p.tasks},   {"queued", p.queued},           {"running", p.running},
                {"done", p.done},     {"retried", p.retried},         {"records_done", p.recordsDone},
                {"jobs", p.jobs}};
}

Result<JobStatus> statusFromJson(const Json& json, const fs::path& file)
{
    try {
        if (json.at("version").get<int>() != kStatusVersion)
            return fail(fmt::format("{}: a status of another version of Sandbench", file.string()));
        JobStatus s;
        s.kind = json.at("kind").get<std::string>();
        s.title = json.at("title").get<std::string>();
        s.phase = json.at("phase").get<std::string>();
        s.error = json.value("error", "");
        const Json& p = json.at("progress");
        s.progress.tasks = p.at("tasks").get<std::size_t>();
        s.progress.queued = p.at("queued").get<std::size_t>();
        s.progress.running = p.at("running").get<std::size_t>();
        s.progress.done = p.at("done").get<std::size_t>();
        s.progress.retried = p.at("retried").get<std::size_t>();
        s.progress.recordsDone = p.at("records_done").get<std::uint64_t>();
        s.progress.jobs = p.at("jobs").get<std::vector<std::string>>();
        s.user = json.at("user").get<std::string>();
        s.host = json.at("host").get<std::string>();
        s.pid = json.at("pid").get<long>();
        s.startedMs = json.at("started_ms").get<std::int64_t>();
        s.updatedMs = json.at("updated_ms").get<std::int64_t>();
        const auto pidStart = json.at("pid_start").get<std::uint64_t>();
        if (s.failed())
            s.alive = false;
        else if (s.host == hostName())
            s.alive = s.pid > 0 && processStart(s.pid) == pidStart;
        else
            s.alive = nowMs() - s.updatedMs < kSilentForMs;
        return s;
    } catch (const Json::exception& e) {
        return fail(fmt::format("{}: not a job's status: {}", file.string(), e.what()));
    }
}

} // namespace

JobState jobState(const JobStatus& job)
{
    if (job.phase == "unreadable")
        return JobState::Unreadable;
    if (job.failed())
        return JobState::Failed;
    if (!job.alive)
        return JobState::Gone;
    return job.cancelRequested ? JobState::Cancelling : JobState::Running;
}

std::string_view toString(JobState state)
{
    switch (state) {
    case JobState::Running: return "running";
    case JobState::Cancelling: return "cancelling";
    case JobState::Failed: return "failed";
    case JobState::Gone: return "gone";
    case JobState::Unreadable: return "unreadable";
    }
    return "?";
}

JobStatusWriter::JobStatusWriter(fs::path folder, std::string kind, std::string title)
{
    m_status.folder = std::move(folder);
    m_status.kind = std::move(kind);
    m_status.title = std::move(title);
    m_status.phase = "submitting";
    m_status.user = knownAccountName(::getuid()).value_or(std::to_string(::getuid()));
    m_status.host = hostName();
    m_status.pid = ::getpid();
    m_status.startedMs = nowMs();
    m_pidStart = processStart(m_status.pid);
    write();
}

void JobStatusWriter::update(std::string_view phase, const StageProgress& progress)
{
    const bool changed = phase != m_status.phase;
    m_status.phase = std::string(phase);
    m_status.progress = progress;
    if (changed || std::chrono::steady_clock::now() - m_written >= kRewriteEvery)
        write();
}

void JobStatusWriter::fail(std::string_view error)
{
    m_status.phase = "failed";
    m_status.error = std::string(error);
    write();
}

void JobStatusWriter::write()
{
    m_written = std::chrono::steady_clock::now();
    m_status.updatedMs = nowMs();
    const Json json{{"version", kStatusVersion},
                    {"kind", m_status.kind},
                    {"title", m_status.title},
                    {"phase", m_status.phase},
                    {"error", m_status.error},
                    {"progress", progressToJson(m_status.progress)},
                    {"user", m_status.user},
                    {"host", m_status.host},
                    {"pid", m_status.pid},
                    {"pid_start", m_pidStart},
                    {"started_ms", m_status.startedMs},
                    {"updated_ms", m_status.updatedMs}};
    // Following the command is a convenience: a status that cannot be written leaves its jobs running.
    (void)writeSpoolFile(m_status.folder / kStatusFile, json.dump());
}

Result<JobStatus> readJobStatus(const fs::path& folder)
{
    const fs::path file = folder / kStatusFile;
    auto json = readSpoolJson(file);
    if (!json)
        return std::unexpected(json.error());
    auto status = statusFromJson(*json, file);
    if (!status)
        return status;
    status->folder = folder;
    status->cancelRequested = cancelRequested(folder);
    return status;
}

Result<std::vector<JobStatus>> listJobs(const fs::path& spool)
{
    std::error_code ec;
    fs::directory_iterator it(spool, ec);
    if (ec)
        return fail(fmt::format("{}: cannot list the spool: {}", spool.string(), ec.message()));
    std::vector<JobStatus> jobs;
    for (; it != fs::directory_iterator(); it.increment(ec)) {
        if (ec)
            return fail(fmt::format("{}: cannot list the spool: {}", spool.string(), ec.message()));
        std::error_code e;
        if (!it->is_directory(e) || !fs::exists(it->path() / kStatusFile, e))
            continue;
        auto status = readJobStatus(it->path());
        if (status) {
            jobs.push_back(std::move(*status));
            continue;
        }
        JobStatus unreadable;
        unreadable.folder = it->path();
        unreadable.phase = "unreadable";
        unreadable.error = status.error().message;
        unreadable.alive = false;
        jobs.push_back(std::move(unreadable));
    }
    std::sort(jobs.begin(), jobs.end(), [](const JobStatus& a, const JobStatus& b) {
        return a.startedMs != b.startedMs ? a.startedMs > b.startedMs : a.folder < b.folder;
    });
    return jobs;
}

Result<JobStatus> findJob(const fs::path& spool, const std::string& id)
{
    auto jobs = listJobs(spool);
    if (!jobs)
        return std::unexpected(jobs.error());
    std::vector<const JobStatus*> found;
    for (const auto& job : *jobs) {
        const std::string name = job.folder.filename().string();
        if (name == id)
            return job;
        const bool prefix = id.size() >= 4 && name.compare(0, id.size(), id) == 0;
        const bool slurmJob = std::find(job.progress.jobs.begin(), job.progress.jobs.end(), id) != job.progress.jobs.end();
        if (prefix || slurmJob)
            found.push_back(&job);
    }
    if (found.empty())
        return fail(fmt::format("no job {} in the spool {}{}", id, spool.string(),
                                id.size() < 4 ? " (give at least 4 characters of its name)" : ""));
    if (found.size() > 1) {
        std::vector<std::string> names;
        for (const JobStatus* job : found)
            names.push_back(job->folder.filename().string());
        return fail(fmt::format("{} names {} jobs: {}", id, found.size(), fmt::join(names, ", ")));
    }
    return *found.front();
}

Result<void> requestCancel(const fs::path& folder)
{
    std::error_code ec;
    if (!fs::exists(folder / kStatusFile, ec))
        return fail(fmt::format("{}: not a Sandbench job's folder (it has no {})", folder.string(), kStatusFile));
    return writeSpoolFile(folder / kCancelFile, fmt::format("asked by {} on {} (pid {})\n",
                                                            knownAccountName(::getuid()).value_or("?"), hostName(),
                                                            ::getpid()));
}

bool cancelRequested(const fs::path& folder)
{
    std::error_code ec;
    return fs::exists(folder / kCancelFile, ec);
}

Result<void> removeJobFolder(const fs::path& folder)
{
    std::error_code ec;
    if (!fs::exists(folder / kStatusFile, ec))
        return fail(fmt::format("{}: not a Sandbench job's folder (it has no {})", folder.string(), kStatusFile));
    auto status = readJobStatus(folder);
    if (status && status->alive)
        return fail(fmt::format("{}: its command still runs (pid {} on {}): cancel it instead", folder.string(),
                                status->pid, status->host));
    // A command gone without a word did not cancel its jobs: whatever of them Slurm still has would go on
    // writing into the folder.
    // It waits until Slurm lists none of them, so no task still writes while the folder is removed.
    if (status && !status->failed() && !status->progress.jobs.empty()) {
        if (auto ok = cancelJobsAndWait(status->progress.jobs); !ok)
            return fail(fmt::format("{}: its Slurm jobs could not be cancelled, so the folder is kept: {}",
                                    folder.string(), ok.error().message));
    }
    fs::remove_all(folder, ec);
    if (ec)
        return fail(fmt::format("{}: cannot remove: {}", folder.string(), ec.message()));
    return {};
}

} // namespace sb::cluster
