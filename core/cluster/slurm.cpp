#include "cluster/slurm.h"

#include "cluster/command.h"
#include "util/errno_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace sb::cluster {

namespace {

using namespace std::chrono_literals;

// A client command, with what to install when it is missing.
Result<CommandResult> slurm(const std::vector<std::string>& argv, std::chrono::milliseconds timeout = 30s)
{
    auto result = runCommand(argv, timeout);
    if (!result && result.error().message.find(": cannot run it: No such file") != std::string::npos)
        return fail(fmt::format("{} is not installed (Debian: slurm-client): Sandbench submits to Slurm with its "
                                "client commands",
                                argv[0]));
    return result;
}

std::vector<std::string> split(std::string_view text, char sep)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    for (;;) {
        const std::size_t end = text.find(sep, start);
        out.emplace_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos)
            return out;
        start = end + 1;
    }
}

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
        if (!line.empty() && line.back() == '\r')
            line.pop_back();
        if (!line.empty())
            out.push_back(line);
    }
    return out;
}

// The value of KEY=VALUE in scontrol's one-line form (values have no spaces but for Reason=, which is last of
// interest and read up to the next " Key=").
std::string field(const std::string& line, std::string_view key)
{
    const std::string needle = " " + std::string(key) + "=";
    std::size_t at = (" " + line).find(needle);
    if (at == std::string::npos)
        return {};
    at += needle.size() - 1; // in `line`
    const std::size_t end = line.find(' ', at);
    return line.substr(at, end == std::string::npos ? std::string::npos : end - at);
}

std::string logTail(const std::filesystem::path& file)
{
    std::ifstream in(file);
    std::string line, last;
    while (std::getline(in, line)) {
        if (!line.empty())
            last = line;
    }
    return last;
}

} // namespace

std::string shellQuote(const std::string& text)
{
    const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("_-./:=,+@%", c);
    });
    if (plain)
        return text;
    std::string out = "'";
    for (const char c : text) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    return out + "'";
}

std::string arraySpec(std::vector<std::size_t> indices)
{
    std::sort(indices.begin(), indices.end());
    indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
    std::string spec;
    for (std::size_t i = 0; i < indices.size();) {
        std::size_t j = i;
        while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1)
            ++j;
        spec += (spec.empty() ? "" : ",") + (j == i ? std::to_string(indices[i])
                                                    : fmt::format("{}-{}", indices[i], indices[j]));
        i = j + 1;
    }
    return spec;
}

Result<std::vector<Partition>> partitions(std::chrono::milliseconds timeout)
{
    auto r = slurm({"sinfo", "--noheader", "--format=%P|%a|%D"}, timeout);
    if (!r)
        return std::unexpected(r.error());
    if (!r->ok())
        return fail(fmt::format("sinfo cannot reach the Slurm controller: {}", r->message()));
    std::vector<Partition> out;
    for (const auto& line : lines(r->out)) {
        const auto parts = split(line, '|');
        if (parts.size() != 3)
            continue;
        Partition p;
        p.name = parts[0];
        if (!p.name.empty() && p.name.back() == '*') {
            p.isDefault = true;
            p.name.pop_back();
        }
        p.up = parts[1] == "up";
        p.nodes = std::atoi(parts[2].c_str());
        out.push_back(std::move(p));
    }
    return out;
}

Result<std::string> choosePartition(const SlurmSettings& settings, const std::string& wanted)
{
    auto list = partitions();
    if (!list)
        return std::unexpected(list.error());
    const std::string name = !wanted.empty() ? wanted : settings.partition;
    std::string names;
    for (const auto& p : *list)
        names += (names.empty() ? "" : ", ") + p.name;
    for (const auto& p : *list) {
        if (name.empty() ? p.isDefault : p.name == name) {
            if (!p.up)
                return fail(fmt::format("the Slurm partition {} is not up", p.name));
            return p.name;
        }
    }
    if (name.empty())
        return fail(fmt::format("Slurm has no default partition: name one with --partition or slurm.partition "
                                "(partitions: {})",
                                names.empty() ? "none" : names));
    return fail(fmt::format("no Slurm partition named {} (partitions: {})", name, names.empty() ? "none" : names));
}

Result<void> checkSpool(const std::filesystem::path& spool)
{
    std::error_code ec;
    if (!std::filesystem::is_directory(spool, ec))
        return fail(fmt::format("the spool {} is not a folder (slurm.spool: a folder every node sees)", spool.string()));
    const std::filesystem::path probe = spool / fmt::format(".sandbench-probe-{}", ::getpid());
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return fail(fmt::format("the spool {} cannot be written: {}", spool.string(), errnoText(errno)));
    ::close(fd);
    std::filesystem::remove(probe, ec);
    return {};
}

bool SlurmDoctor::ok() const
{
    return configured && configError.empty()
           && std::all_of(checks.begin(), checks.end(), [](const SlurmCheck& c) { return c.ok; });
}

SlurmDoctor checkSlurm()
{
    SlurmDoctor out;
    auto config = loadClusterConfig();
    if (!config) {
        out.config = configPath();
        out.configured = true;
        out.configError = config.error().message;
        return out;
    }
    out.config = config->file;
    if (!config->slurm)
        return out;
    out.configured = true;
    const SlurmSettings& settings = *config->slurm;
    auto list = partitions(10s);
    out.checks.push_back({"sinfo", bool(list), list ? fmt::format("reaches the controller: {} partitions", list->size())
                                                   : list.error().message});
    if (list) {
        auto partition = choosePartition(settings, "");
        std::string detail = partition ? *partition : partition.error().message;
        if (partition) {
            for (const auto& p : *list) {
                if (p.name == *partition)
                    detail = fmt::format("{}: up, {} {}{}", p.name, p.nodes, p.nodes == 1 ? "node" : "nodes",
                                         settings.partition.empty() ? " (Slurm's default)" : "");
            }
        }
        out.checks.push_back({"partition", bool(partition), detail});
    }
    auto spool = checkSpool(settings.spool);
    out.checks.push_back({"spool", bool(spool), spool ? fmt::format("{}: writable", settings.spool.string())
                                                      : spool.error().message});
    return out;
}

Result<std::string> submitArray(const ArraySubmission& s)
{
    std::vector<std::string> argv = {"sbatch",
                                     "--parsable",
                                     "--job-name=" + s.name,
                                     "--array=" + arraySpec(s.tasks),
                                     "--output=" + (s.logs / (s.name + "-%A_%a.log")).string(),
                                     "--chdir=" + s.logs.string(),
                                     "--requeue"};
    if (!s.partition.empty())
        argv.push_back("--partition=" + s.partition);
    if (s.timeLimitMinutes > 0)
        argv.push_back(fmt::format("--time={}", s.timeLimitMinutes));
    argv.push_back(s.script.string());
    auto r = slurm(argv);
    if (!r)
        return std::unexpected(r.error());
    if (!r->ok())
        return fail(fmt::format("sbatch refused the job: {}", r->message()));
    const auto out = lines(r->out);
    if (out.empty())
        return fail("sbatch printed no job id");
    std::string id = split(out.back(), ';').front(); // --parsable: ID or ID;CLUSTER
    if (id.empty() || !std::all_of(id.begin(), id.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return fail(fmt::format("sbatch printed no job id: {}", out.back()));
    return id;
}

Result<std::vector<QueuedTask>> queuedTasks(const std::string& jobId)
{
    auto r = slurm({"squeue", "--noheader", "--array", "--jobs=" + jobId, "--format=%K|%T|%N|%r"});
    if (!r)
        return std::unexpected(r.error());
    std::vector<QueuedTask> out;
    if (!r->ok()) {
        // A job the controller has forgotten is not queued; anything else is an error.
        if (r->err.find("Invalid job id") != std::string::npos)
            return out;
        return fail(fmt::format("squeue cannot reach the Slurm controller: {}", r->message()));
    }
    for (const auto& line : lines(r->out)) {
        const auto parts = split(line, '|');
        if (parts.size() < 4)
            continue;
        QueuedTask t;
        char* end = nullptr;
        const unsigned long long index = std::strtoull(parts[0].c_str(), &end, 10);
        if (end == parts[0].c_str() || *end != '\0')
            continue; // a line of the array not yet split into tasks ("0-3"): tasks are listed with --array
        t.index = static_cast<std::size_t>(index);
        t.state = parts[1];
        t.node = parts[2];
        t.reason = parts[3];
        out.push_back(std::move(t));
    }
    return out;
}

std::optional<FinishedTask> finishedTask(const std::string& jobId, std::size_t index)
{
    auto r = slurm({"scontrol", "--oneliner", "show", "job", fmt::format("{}_{}", jobId, index)});
    if (!r || !r->ok())
        return std::nullopt;
    const auto out = lines(r->out);
    if (out.empty())
        return std::nullopt;
    FinishedTask t;
    t.state = field(out.front(), "JobState");
    t.exitCode = field(out.front(), "ExitCode");
    t.node = field(out.front(), "NodeList");
    t.reason = field(out.front(), "Reason");
    return t;
}

Result<void> cancelJob(const std::string& jobId)
{
    auto r = slurm({"scancel", jobId});
    if (!r)
        return std::unexpected(r.error());
    if (!r->ok() && r->err.find("Invalid job id") == std::string::npos)
        return fail(fmt::format("scancel {}: {}", jobId, r->message()));
    return {};
}

Result<std::filesystem::path> programForNodes(const SlurmSettings& settings)
{
    std::error_code ec;
    std::filesystem::path program =
        settings.sandbench.empty() ? std::filesystem::read_symlink("/proc/self/exe", ec) : settings.sandbench;
    if (program.empty())
        return fail("cannot tell which sandbench the nodes should run: set slurm.sandbench");
    return program;
}

Result<void> cancelJobsAndWait(const std::vector<std::string>& jobIds, std::chrono::milliseconds wait)
{
    for (const auto& id : jobIds) {
        if (auto ok = cancelJob(id); !ok)
            return ok;
    }
    const auto deadline = std::chrono::steady_clock::now() + wait;
    for (;;) {
        bool any = false;
        for (const auto& id : jobIds) {
            auto q = queuedTasks(id);
            any = any || !q || !q->empty();
        }
        if (!any)
            return {};
        if (std::chrono::steady_clock::now() > deadline)
            return fail(fmt::format("Slurm still lists jobs {} {} ms after scancel", fmt::join(jobIds, ", "),
                                    wait.count()));
        std::this_thread::sleep_for(100ms);
    }
}

Result<StageReport> runArrayStage(const SlurmSettings& settings, const StageRequest& request,
                                  const std::atomic<bool>* cancel,
                                  const std::function<void(const StageProgress&)>& onProgress)
{
    const std::filesystem::path script = request.folder / (request.name + ".sh");
    {
        std::ofstream out(script, std::ios::trunc);
        out << "#!/bin/sh\n# " << request.name << ": one task of a Sandbench array job.\nexec";
        for (const auto& arg : request.command)
            out << ' ' << shellQuote(arg);
        out << '\n';
        if (!out.flush())
            return fail(fmt::format("{}: cannot write the job's script", script.string()));
    }
    std::filesystem::permissions(script, std::filesystem::perms::owner_all | std::filesystem::perms::group_read
                                             | std::filesystem::perms::others_read);

    StageReport report;
    std::map<std::size_t, std::string> jobOf; // the task's current submission
    std::map<std::size_t, int> attempts;
    std::map<std::size_t, std::string> lastNode;
    std::set<std::size_t> done;
    auto submit = [&](std::vector<std::size_t> tasks) -> Result<void> {
        ArraySubmission s{request.name, script, request.folder, tasks, request.partition, settings.timeLimitMinutes};
        auto id = submitArray(s);
        if (!id)
            return std::unexpected(id.error());
        report.jobs.push_back(*id);
        for (const std::size_t k : tasks) {
            jobOf[k] = *id;
            ++attempts[k];
        }
        return {};
    };
    auto cancelAll = [&]() { return cancelJobsAndWait(report.jobs); };

    std::vector<std::size_t> all(request.tasks);
    for (std::size_t k = 0; k < request.tasks; ++k)
        all[k] = k;
    if (auto ok = submit(all); !ok)
        return std::unexpected(ok.error());

    std::map<std::size_t, std::chrono::steady_clock::time_point> missingSince;
    for (;;) {
        // Wait a poll's time, looking at the cancel flag often.
        const auto wake = std::chrono::steady_clock::now() + std::chrono::milliseconds(settings.pollMs);
        for (int tick = 0; std::chrono::steady_clock::now() < wake; ++tick) {
            const bool asked = cancel && cancel->load();
            // The cancel file is looked for every 100 ms: on a shared file system each look is a round trip.
            std::error_code ec;
            const bool askedInSpool = !asked && !request.cancelFile.empty() && tick % 5 == 0
                                      && std::filesystem::exists(request.cancelFile, ec);
            if (asked || askedInSpool) {
                auto ok = cancelAll();
                const std::string how = askedInSpool ? fmt::format(" (asked in {})", request.cancelFile.string())
                                                     : std::string();
                return fail(ok ? fmt::format("cancelled{}: the Slurm jobs were cancelled (scancel)", how)
                               : fmt::format("cancelled{}, but {}", how, ok.error().message));
            }
            std::this_thread::sleep_for(20ms);
        }
        std::map<std::size_t, QueuedTask> queued;
        std::set<std::string> active;
        for (const auto& [k, id] : jobOf) {
            if (!done.count(k))
                active.insert(id);
        }
        for (const auto& id : active) {
            auto q = queuedTasks(id);
            if (!q) {
                (void)cancelAll();
                return std::unexpected(q.error());
            }
            for (auto& t : *q) {
                if (jobOf.count(t.index) && jobOf[t.index] == id)
                    queued[t.index] = t;
            }
        }
        StageProgress progress;
        progress.tasks = request.tasks;
        std::vector<std::size_t> again;
        for (std::size_t k = 0; k < request.tasks; ++k) {
            if (done.count(k))
                continue;
            if (request.finished(k)) {
                done.insert(k);
                continue;
            }
            const auto q = queued.find(k);
            if (q != queued.end()) {
                missingSince.erase(k);
                if (!q->second.node.empty())
                    lastNode[k] = q->second.node;
                (q->second.state == "PENDING" ? progress.queued : progress.running)++;
                continue;
            }
            // Out of the queue without its result: give a shared file system a moment to show it, then count
            // it failed.
            const auto now = std::chrono::steady_clock::now();
            const auto since = missingSince.emplace(k, now).first->second;
            if (now - since < 3s) {
                ++progress.running;
                continue;
            }
            missingSince.erase(k);
            const std::string id = jobOf[k];
            const auto finished = finishedTask(id, k);
            const std::string node = finished && !finished->node.empty() && finished->node != "(null)"
                                         ? finished->node
                                         : lastNode.count(k) ? lastNode[k] : std::string("unknown");
            if (attempts[k] <= settings.retries) {
                again.push_back(k);
                ++report.retried;
                continue;
            }
            const std::string tail = logTail(request.folder / fmt::format("{}-{}_{}.log", request.name, id, k));
            (void)cancelAll();
            return fail(fmt::format("Slurm job {}_{} (task {} of {}) failed on node {}{}{} after {} attempts{}", id, k,
                                    k + 1, request.tasks, node,
                                    finished ? fmt::format(": {}", finished->state) : std::string(),
                                    finished && !finished->exitCode.empty() ? fmt::format(", exit code {}", finished->exitCode)
                                                                            : std::string(),
                                    attempts[k], tail.empty() ? std::string() : fmt::format(": {}", tail)));
        }
        if (!again.empty()) {
            if (auto ok = submit(again); !ok) {
                (void)cancelAll();
                return std::unexpected(ok.error());
            }
            progress.queued += again.size();
        }
        progress.done = done.size();
        progress.retried = report.retried;
        progress.jobs = report.jobs;
        if (request.recordsDone)
            progress.recordsDone = request.recordsDone();
        if (onProgress)
            onProgress(progress);
        if (done.size() == request.tasks)
            return report;
    }
}

} // namespace sb::cluster
