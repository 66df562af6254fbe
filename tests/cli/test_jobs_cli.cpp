// `sandbench jobs list | cancel | remove` over a spool whose job folders this test writes as the commands
// that send work to the cluster write them (cluster/job_status.h): one whose command is this process (alive),
// one that failed, one whose command is gone, one unreadable. The cancel of a real job on a real cluster is
// tests/cli/test_cli_slurm.cpp.

#include "cli_fixture.h"

#include "cluster/job_status.h"
#include "cluster/spool.h"

#include <chrono>
#include <csignal>
#include <future>
#include <thread>

namespace sb::clitest {
namespace {

using namespace std::chrono_literals;

class JobsCli : public Cli {
protected:
    void SetUp() override
    {
        Cli::SetUp();
        m_spool = m_dir / "spool";
        fs::create_directories(m_spool);
        ::setenv("SANDBENCH_CONFIG", write("config.yaml", "slurm:\n  spool: " + m_spool.string() + "\n").c_str(), 1);
    }
    void TearDown() override
    {
        ::unsetenv("SANDBENCH_CONFIG");
        Cli::TearDown();
    }

    // A job folder whose status this process writes: its command "runs" as long as the test does.
    cluster::JobFolder liveJob(const std::string& title, std::unique_ptr<cluster::JobStatusWriter>& writer)
    {
        auto made = cluster::JobFolder::create(m_spool, "rules");
        EXPECT_TRUE(made);
        writer = std::make_unique<cluster::JobStatusWriter>(made->path(), "rules", title);
        cluster::StageProgress p;
        p.tasks = 4;
        p.running = 3;
        p.done = 1;
        p.recordsDone = 250000;
        p.jobs = {"4711"};
        writer->update("evaluating", p);
        return std::move(*made);
    }

    // `jobs list --json`.
    nlohmann::json listed()
    {
        const auto r = cli("jobs list --json");
        EXPECT_EQ(r.status, 0) << r.out;
        auto parsed = nlohmann::json::parse(r.out, nullptr, false);
        EXPECT_FALSE(parsed.is_discarded()) << "not JSON: " << r.out;
        return parsed;
    }

    fs::path m_spool;
};

TEST_F(JobsCli, ListsEveryJobWithWhatBecameOfIt)
{
    std::unique_ptr<cluster::JobStatusWriter> live;
    cluster::JobFolder running = liveJob("sandbench rules impact --data tx.csv --backend slurm", live);
    auto failedFolder = cluster::JobFolder::create(m_spool, "batch");
    ASSERT_TRUE(failedFolder);
    failedFolder->keep();
    cluster::JobStatusWriter(failedFolder->path(), "batch", "sandbench batch a.py b.py --backend slurm")
        .fail("Slurm job 12_1 (task 2 of 2) failed on node n3: NODE_FAIL");
    fs::create_directory(m_spool / "rules-unreadable");
    writeFile(m_spool / "rules-unreadable" / "status.json", "{\"version\": 1");

    const auto list = listed();
    ASSERT_TRUE(list.is_array());
    ASSERT_EQ(list.size(), 3u) << list.dump(2);
    std::map<std::string, nlohmann::json> byId;
    for (const auto& job : list)
        byId[job.at("id").get<std::string>()] = job;
    const auto& r = byId.at(running.path().filename().string());
    EXPECT_EQ(r.at("kind"), "rules");
    EXPECT_EQ(r.at("phase"), "evaluating");
    EXPECT_EQ(r.at("tasks"), 4);
    EXPECT_EQ(r.at("running"), 3);
    EXPECT_EQ(r.at("done"), 1);
    EXPECT_EQ(r.at("records_done"), 250000);
    EXPECT_EQ(r.at("slurm_jobs"), nlohmann::json::array({"4711"}));
    EXPECT_EQ(r.at("pid"), ::getpid());
    EXPECT_EQ(r.at("alive"), true);
    EXPECT_EQ(r.at("title"), "sandbench rules impact --data tx.csv --backend slurm");
    const auto& f = byId.at(failedFolder->path().filename().string());
    EXPECT_EQ(f.at("phase"), "failed");
    EXPECT_EQ(f.at("alive"), false);
    EXPECT_EQ(f.at("error"), "Slurm job 12_1 (task 2 of 2) failed on node n3: NODE_FAIL");
    EXPECT_EQ(byId.at("rules-unreadable").at("phase"), "unreadable");

    const auto text = cli("jobs list");
    EXPECT_EQ(text.status, 0);
    EXPECT_NE(text.out.find(running.path().filename().string() + "  running  rules  sandbench rules impact"),
              std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("evaluating; tasks 1/4 done, 3 running; 250000 records done; Slurm jobs 4711"),
              std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("  failed  batch  "), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("error: Slurm job 12_1"), std::string::npos) << text.out;

    // What ended is removed; what runs is not, and what failed is not cancelled.
    const auto refused = cli("jobs remove 4711", true);
    EXPECT_EQ(refused.status, 1);
    EXPECT_NE(refused.out.find("its command still runs"), std::string::npos) << refused.out;
    EXPECT_TRUE(fs::exists(running.path()));
    const auto notRunning = cli("jobs cancel " + failedFolder->path().filename().string(), true);
    EXPECT_EQ(notRunning.status, 1);
    EXPECT_NE(notRunning.out.find("is failed: nothing runs to cancel"), std::string::npos) << notRunning.out;
    EXPECT_FALSE(cluster::cancelRequested(failedFolder->path()));
    const auto removed = cli("jobs remove " + failedFolder->path().filename().string().substr(0, 12), true);
    EXPECT_EQ(removed.status, 0) << removed.out;
    EXPECT_FALSE(fs::exists(failedFolder->path()));
}

TEST_F(JobsCli, CancelAsksTheCommandAndWaitsUntilItHasCancelled)
{
    std::unique_ptr<cluster::JobStatusWriter> live;
    cluster::JobFolder running = liveJob("sandbench rules ab --backend slurm", live);
    const std::string name = running.path().filename().string();

    const auto asked = cli("jobs cancel " + name + " --no-wait", true);
    EXPECT_EQ(asked.status, 0) << asked.out;
    EXPECT_TRUE(cluster::cancelRequested(running.path()));
    EXPECT_EQ(listed().at(0).at("cancel_requested"), true);
    EXPECT_NE(cli("jobs list").out.find(name + "  cancelling  "), std::string::npos);
    fs::remove(running.path() / "cancel");

    // Waiting: until the command (here, this test) has cancelled and removed its folder.
    auto waiting = std::async(std::launch::async, [] { return cli("jobs cancel 4711", true); });
    const auto deadline = std::chrono::steady_clock::now() + 30s;
    while (!cluster::cancelRequested(running.path()) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(5ms);
    ASSERT_TRUE(cluster::cancelRequested(running.path()));
    EXPECT_EQ(waiting.wait_for(300ms), std::future_status::timeout);
    fs::remove_all(running.path());
    const auto done = waiting.get();
    EXPECT_EQ(done.status, 0) << done.out;
    EXPECT_NE(done.out.find("Job " + name + " cancelled"), std::string::npos) << done.out;
}

TEST_F(JobsCli, ACommandKilledWhileAskedToCancelIsSaidSo)
{
    const pid_t command = ::fork();
    ASSERT_GE(command, 0);
    if (command == 0) {
        auto made = cluster::JobFolder::create(m_spool, "batch");
        if (!made)
            ::_exit(1);
        made->keep();
        cluster::JobStatusWriter writer(made->path(), "batch", "sandbench batch a.py --backend slurm");
        for (;;)
            ::pause();
    }
    const auto deadline = std::chrono::steady_clock::now() + 30s;
    std::vector<cluster::JobStatus> jobs;
    while (jobs.empty() && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(5ms);
        jobs = cluster::listJobs(m_spool).value_or(std::vector<cluster::JobStatus>{});
    }
    ASSERT_EQ(jobs.size(), 1u);
    const std::string name = jobs.front().folder.filename().string();
    auto waiting = std::async(std::launch::async, [&name] { return cli("jobs cancel " + name, true); });
    while (!cluster::cancelRequested(jobs.front().folder) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(5ms);
    ::kill(command, SIGKILL);
    ::waitpid(command, nullptr, 0);
    const auto said = waiting.get();
    EXPECT_EQ(said.status, 1);
    EXPECT_NE(said.out.find("its command ended without cancelling its jobs (sandbench jobs remove " + name),
              std::string::npos)
        << said.out;
}

TEST_F(JobsCli, WhatIsNotAJobIsRefusedNamingIt)
{
    const auto none = cli("jobs cancel abcd", true);
    EXPECT_EQ(none.status, 1);
    EXPECT_NE(none.out.find("no job abcd in the spool"), std::string::npos) << none.out;
    const auto shortId = cli("jobs remove ab", true);
    EXPECT_EQ(shortId.status, 1);
    EXPECT_NE(shortId.out.find("give at least 4 characters"), std::string::npos) << shortId.out;
    EXPECT_EQ(listed().size(), 0u);

    std::unique_ptr<cluster::JobStatusWriter> a, b;
    cluster::JobFolder first = liveJob("one", a);
    cluster::JobFolder second = liveJob("two", b);
    const auto ambiguous = cli("jobs cancel rules", true);
    EXPECT_EQ(ambiguous.status, 1);
    EXPECT_NE(ambiguous.out.find("rules names 2 jobs"), std::string::npos) << ambiguous.out;
    EXPECT_FALSE(cluster::cancelRequested(first.path()));
    EXPECT_FALSE(cluster::cancelRequested(second.path()));

    ::setenv("SANDBENCH_CONFIG", write("empty.yaml", "").c_str(), 1);
    const auto unconfigured = cli("jobs list", true);
    EXPECT_EQ(unconfigured.status, 1);
    EXPECT_NE(unconfigured.out.find("no Slurm is configured"), std::string::npos) << unconfigured.out;
    ::setenv("SANDBENCH_CONFIG", write("bad.yaml", "slurm:\n  spool: relative\n").c_str(), 1);
    const auto bad = cli("jobs list", true);
    EXPECT_EQ(bad.status, 1);
    EXPECT_NE(bad.out.find("bad.yaml"), std::string::npos) << bad.out;
}

} // namespace
} // namespace sb::clitest
