// The cluster module without a cluster: the configuration's form and its refusals, the array specs sbatch
// takes, shell quoting of the job's script, and running a client command (its status, its outputs, a timeout).
// The backend against a real Slurm is tests/cli/test_cli_slurm.cpp.

#include "cluster/command.h"
#include "cluster/config.h"
#include "cluster/job_status.h"
#include "cluster/spool.h"
#include "cluster/slurm.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <stdexcept>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

namespace sb::cluster {
namespace {

using namespace std::chrono_literals;

class Spool {
public:
    Spool()
    {
        std::string pattern = (std::filesystem::temp_directory_path() / "sandbench-spool-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr)
            throw std::runtime_error("mkdtemp failed");
        m_path = pattern;
    }
    ~Spool()
    {
        std::error_code ec;
        std::filesystem::remove_all(m_path, ec);
    }
    Spool(const Spool&) = delete;
    Spool& operator=(const Spool&) = delete;
    const std::filesystem::path& path() const { return m_path; }

private:
    std::filesystem::path m_path;
};

std::string refusal(const std::string& yaml)
{
    auto config = parseClusterConfig(yaml, "config.yaml");
    return config ? std::string() : config.error().message;
}

TEST(ClusterConfig, ReadsTheSlurmSection)
{
    auto config = parseClusterConfig("slurm:\n  spool: /shared/sb\n  partition: batch\n  sandbench: /usr/bin/sandbench\n"
                                     "  retries: 0\n  time_limit: 90\n  poll_ms: 20\n",
                                     "config.yaml");
    ASSERT_TRUE(config) << config.error().message;
    ASSERT_TRUE(config->slurm);
    EXPECT_EQ(config->slurm->spool, "/shared/sb");
    EXPECT_EQ(config->slurm->partition, "batch");
    EXPECT_EQ(config->slurm->sandbench, "/usr/bin/sandbench");
    EXPECT_EQ(config->slurm->retries, 0);
    EXPECT_EQ(config->slurm->timeLimitMinutes, 90);
    EXPECT_EQ(config->slurm->pollMs, 20);
    // Defaults, and a file with nothing in it.
    auto minimal = parseClusterConfig("slurm: {spool: /s}\n", "config.yaml");
    ASSERT_TRUE(minimal && minimal->slurm);
    EXPECT_EQ(minimal->slurm->retries, 2);
    EXPECT_EQ(minimal->slurm->partition, "");
    auto empty = parseClusterConfig("", "config.yaml");
    ASSERT_TRUE(empty);
    EXPECT_FALSE(empty->slurm);
}

TEST(ClusterConfig, RefusesWhatIsNotOfItsFormNamingTheLine)
{
    EXPECT_EQ(refusal("slurm:\n  spool: rel/path\n"), "config.yaml:2: slurm.spool: an absolute path (every node must find it)");
    EXPECT_EQ(refusal("slurm:\n  spool: /s\n  retries: 21\n"), "config.yaml:3: slurm.retries is a whole number from 0 to 20");
    EXPECT_EQ(refusal("slurm:\n  spool: /s\n  poll_ms: fast\n"), "config.yaml:3: slurm.poll_ms is a whole number from 20 to 60000");
    EXPECT_NE(refusal("slurm:\n  spool: /s\n  spoool: /t\n").find("config.yaml:3: slurm: unknown setting 'spoool'"),
              std::string::npos);
    EXPECT_NE(refusal("slurm:\n  partition: p\n").find("slurm: no spool"), std::string::npos);
    EXPECT_NE(refusal("kubernetes: {}\n").find("config.yaml:1: unknown section 'kubernetes'"), std::string::npos);
    EXPECT_NE(refusal("- a\n- b\n").find("a mapping of sections"), std::string::npos);
    EXPECT_NE(refusal("slurm: [\n").find("config.yaml:"), std::string::npos);
    EXPECT_NE(refusal("slurm: 3\n").find("slurm: a mapping of settings"), std::string::npos);
    EXPECT_NE(refusal("slurm:\n  spool: [/a, /b]\n").find("slurm.spool: a non-empty text"), std::string::npos);
}

TEST(ClusterSlurm, ArraySpecsAndShellQuoting)
{
    EXPECT_EQ(arraySpec({0, 1, 2, 5, 7, 8}), "0-2,5,7-8");
    EXPECT_EQ(arraySpec({8, 7, 5, 2, 1, 0, 1}), "0-2,5,7-8");
    EXPECT_EQ(arraySpec({3}), "3");
    EXPECT_EQ(arraySpec({}), "");
    EXPECT_EQ(shellQuote("plain"), "plain");
    EXPECT_EQ(shellQuote("/usr/bin/sandbench"), "/usr/bin/sandbench");
    EXPECT_EQ(shellQuote("--data=tx.csv"), "--data=tx.csv");
    EXPECT_EQ(shellQuote(""), "''");
    EXPECT_EQ(shellQuote("a b"), "'a b'");
    EXPECT_EQ(shellQuote("x;rm"), "'x;rm'");
    EXPECT_EQ(shellQuote("~user"), "'~user'");
    EXPECT_EQ(shellQuote("it's $HOME `x`"), "'it'\\''s $HOME `x`'");
}

TEST(ClusterCommand, StatusOutputsAndTimeout)
{
    auto r = runCommand({"/bin/sh", "-c", "echo out; echo first >&2; echo last >&2; exit 3"});
    ASSERT_TRUE(r) << r.error().message;
    EXPECT_EQ(r->exitStatus, 3);
    EXPECT_FALSE(r->ok());
    EXPECT_EQ(r->out, "out\n");
    EXPECT_EQ(r->message(), "last");
    auto quiet = runCommand({"/bin/sh", "-c", "echo only out"});
    ASSERT_TRUE(quiet);
    EXPECT_TRUE(quiet->ok());
    EXPECT_EQ(quiet->message(), "only out");

    const auto started = std::chrono::steady_clock::now();
    auto slow = runCommand({"/bin/sh", "-c", "echo waiting >&2; sleep 30"}, 300ms);
    ASSERT_FALSE(slow);
    EXPECT_LT(std::chrono::steady_clock::now() - started, 10s);
    EXPECT_EQ(slow.error().message, "/bin/sh: did not finish within 0.3 s: waiting");

    auto missing = runCommand({"no-such-program-sandbench"});
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("no-such-program-sandbench: cannot run it"), std::string::npos);
}

TEST(JobStatus, FollowsTheCommandAndItsCancel)
{
    Spool spool;
    auto made = JobFolder::create(spool.path(), "rules");
    ASSERT_TRUE(made) << made.error().message;
    JobStatusWriter writer(made->path(), "rules", "sandbench rules impact --data tx.csv");
    StageProgress p;
    p.tasks = 4;
    p.queued = 1;
    p.running = 2;
    p.done = 1;
    p.retried = 1;
    p.recordsDone = 12345;
    p.jobs = {"17", "18"};
    writer.update("evaluating", p);

    auto jobs = listJobs(spool.path());
    ASSERT_TRUE(jobs) << jobs.error().message;
    ASSERT_EQ(jobs->size(), 1u);
    const JobStatus& s = jobs->front();
    EXPECT_EQ(s.folder, made->path());
    EXPECT_EQ(s.kind, "rules");
    EXPECT_EQ(s.title, "sandbench rules impact --data tx.csv");
    EXPECT_EQ(s.phase, "evaluating");
    EXPECT_EQ(s.progress.tasks, 4u);
    EXPECT_EQ(s.progress.queued, 1u);
    EXPECT_EQ(s.progress.running, 2u);
    EXPECT_EQ(s.progress.done, 1u);
    EXPECT_EQ(s.progress.retried, 1u);
    EXPECT_EQ(s.progress.recordsDone, 12345u);
    EXPECT_EQ(s.progress.jobs, (std::vector<std::string>{"17", "18"}));
    EXPECT_EQ(s.pid, ::getpid());
    EXPECT_TRUE(s.alive);
    EXPECT_EQ(jobState(s), JobState::Running);
    EXPECT_FALSE(s.cancelRequested);
    EXPECT_FALSE(cancelRequested(made->path()));

    // A running command's folder is not removed; its cancel is asked for in the spool.
    auto removed = removeJobFolder(made->path());
    ASSERT_FALSE(removed);
    EXPECT_NE(removed.error().message.find("still runs"), std::string::npos) << removed.error().message;
    ASSERT_TRUE(requestCancel(made->path()));
    EXPECT_TRUE(cancelRequested(made->path()));
    auto again = readJobStatus(made->path());
    ASSERT_TRUE(again);
    EXPECT_TRUE(again->cancelRequested);
    EXPECT_EQ(toString(jobState(*again)), "cancelling");

    // A failed command keeps its folder, says why, and can be removed.
    writer.fail("Slurm job 18_2 (task 3 of 4) failed on node n1: FAILED");
    auto failed = readJobStatus(made->path());
    ASSERT_TRUE(failed);
    EXPECT_TRUE(failed->failed());
    EXPECT_FALSE(failed->alive);
    EXPECT_EQ(jobState(*failed), JobState::Failed);
    EXPECT_EQ(failed->error, "Slurm job 18_2 (task 3 of 4) failed on node n1: FAILED");
    made->keep();
    ASSERT_TRUE(removeJobFolder(made->path()));
    EXPECT_FALSE(std::filesystem::exists(made->path()));
}

TEST(JobStatus, ACommandGoneWithoutAWordIsNotAlive)
{
    Spool spool;
    std::filesystem::path folder;
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        auto made = JobFolder::create(spool.path(), "batch");
        if (!made)
            ::_exit(1);
        made->keep();
        JobStatusWriter writer(made->path(), "batch", "sandbench batch a.py");
        ::_exit(0);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    auto jobs = listJobs(spool.path());
    ASSERT_TRUE(jobs) << jobs.error().message;
    ASSERT_EQ(jobs->size(), 1u);
    EXPECT_EQ(jobs->front().kind, "batch");
    EXPECT_EQ(jobs->front().phase, "submitting");
    EXPECT_FALSE(jobs->front().alive);
    EXPECT_EQ(toString(jobState(jobs->front())), "gone");
    EXPECT_TRUE(removeJobFolder(jobs->front().folder));
}

TEST(JobStatus, TheSpoolsOtherFoldersAndBadStatuses)
{
    Spool spool;
    std::filesystem::create_directory(spool.path() / "not-a-job");
    std::ofstream(spool.path() / "loose-file") << "x";
    std::filesystem::create_directory(spool.path() / "rules-bad");
    std::ofstream(spool.path() / "rules-bad" / "status.json") << "{\"version\": 1, \"kind\": 3";
    std::filesystem::create_directory(spool.path() / "rules-other");
    std::ofstream(spool.path() / "rules-other" / "status.json") << R"({"version": 99})";
    auto jobs = listJobs(spool.path());
    ASSERT_TRUE(jobs) << jobs.error().message;
    ASSERT_EQ(jobs->size(), 2u);
    for (const auto& job : *jobs) {
        EXPECT_EQ(job.phase, "unreadable");
        EXPECT_EQ(jobState(job), JobState::Unreadable);
        EXPECT_FALSE(job.alive);
        EXPECT_NE(job.error.find("status.json"), std::string::npos) << job.error;
    }
    auto cancel = requestCancel(spool.path() / "not-a-job");
    ASSERT_FALSE(cancel);
    EXPECT_NE(cancel.error().message.find("not a Sandbench job's folder"), std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(spool.path() / "not-a-job" / "cancel"));
    EXPECT_FALSE(removeJobFolder(spool.path() / "not-a-job"));
    EXPECT_TRUE(std::filesystem::exists(spool.path() / "not-a-job"));
    EXPECT_FALSE(listJobs(spool.path() / "missing"));
}

} // namespace
} // namespace sb::cluster
