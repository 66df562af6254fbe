// `rules eval | impact | ab --backend slurm` on a real single-node Slurm cluster (tests/slurm/slurm-cluster,
// started by the ctest fixture slurm_cluster, SLURM_CONF naming it): the merged JSON is byte for byte the
// local run's on the demo dataset and a generated million-record one, inferred types and bad rows included, and
// on stored snapshots of them (a missing or damaged one refused as locally, before anything is submitted);
// a task killed mid-run is retried (or, with no retries left, reported naming the job and node); Ctrl-C
// cancels every job and leaves none behind, and so does the cancel file the window leaves in the job's folder,
// whose status follows the command; a batch's runs and an agent session run on the node are recorded here as
// local ones are; what is misconfigured is refused, naming what.

#include "cli_fixture.h"
#include "scripted_agent.h"
#include "../isolation/proc_scan.h"

#include "cluster/job_status.h"
#include "demo/demo.h"
#include "isolation/outcome.h"

#include <fmt/format.h>

#include <chrono>
#include <csignal>
#include <algorithm>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

namespace sb::clitest {
namespace {

using namespace std::chrono_literals;

// The demo's rule sets without their `fields:`: every column's type is then inferred, which takes the
// cluster's scan stage.
std::string withoutFields(const std::string& yaml)
{
    return std::regex_replace(yaml, std::regex("fields:\n(  [^\n]*\n)+"), "");
}

class SlurmCli : public Cli {
protected:
    void SetUp() override
    {
        Cli::SetUp();
        ASSERT_NE(std::getenv("SLURM_CONF"), nullptr) << "run through ctest: the fixture slurm_cluster sets SLURM_CONF";
        // The spool: in the cluster's folder, where the jobs (run as this user) may write.
        const fs::path clusterDir = fs::path(std::getenv("SLURM_CONF")).parent_path();
        m_spool = clusterDir / ("spool-" + m_dir.filename().string());
        fs::create_directories(m_spool);
        configure("slurm:\n  spool: " + m_spool.string() + "\n  poll_ms: 50\n  retries: 2\n");
        m_demo = fs::path(SANDBENCH_DEMO_DIR);
    }
    void TearDown() override
    {
        fs::remove_all(m_spool);
        Cli::TearDown();
    }

    void configure(const std::string& yaml)
    {
        m_config = write("config.yaml", yaml);
        ::setenv("SANDBENCH_CONFIG", m_config.c_str(), 1);
    }

    // The command's stdout and exit status, locally and on the cluster.
    void expectSameAsLocal(const std::string& args, const std::string& shards = "4")
    {
        SCOPED_TRACE(args);
        const Output local = cli(args + " --json");
        const Output slurm = cli(args + " --json --backend slurm --shards " + shards);
        EXPECT_EQ(slurm.status, local.status) << slurm.out;
        EXPECT_EQ(slurm.out, local.out);
        EXPECT_TRUE(spoolIsEmpty());
    }

    bool spoolIsEmpty() const { return fs::is_empty(m_spool); }

    // Jobs of this test's runs Slurm still lists.
    std::string ourJobs() const
    {
        return trimmed(shell("squeue --noheader --name=sandbench-scan,sandbench-eval,sandbench-batch,sandbench-agent 2>&1").out);
    }

    // Nothing of this test's runs left in the cluster. A task that has written its result, or that scancel
    // ended, is COMPLETING (CG) a moment after its command returned while slurmd tears it down; any other
    // state (pending, running) left behind is a failure at once, and so is a CG task that never leaves.
    void expectNoJobsLeft() const
    {
        const std::string format = " --format='%i|%T' --name=sandbench-scan,sandbench-eval,sandbench-batch,sandbench-agent 2>&1";
        const auto deadline = std::chrono::steady_clock::now() + 60s;
        std::string left = trimmed(shell("squeue --noheader" + format).out);
        std::istringstream listed(left);
        for (std::string line; std::getline(listed, line);)
            EXPECT_NE(line.find("|COMPLETING"), std::string::npos) << "left in the cluster: " << left;
        while (!left.empty() && std::chrono::steady_clock::now() < deadline) {
            std::this_thread::sleep_for(20ms);
            left = trimmed(shell("squeue --noheader" + format).out);
        }
        EXPECT_EQ(left, "");
    }

    // Ctrl-C to a command whose jobs Slurm lists: it exits 1 saying it cancelled them, and Slurm lists none.
    void interruptAndExpectCancelled(pid_t command);

    std::string demo(const std::string& name) const { return quoted((m_demo / name).string()); }

    std::string millionRecords()
    {
        const fs::path file = m_dir / "million.csv";
        const auto r = cli("data generate --rows 1000000 " + quoted(file.string()));
        EXPECT_EQ(r.status, 0) << r.out;
        return quoted(file.string());
    }

    fs::path m_spool;
    std::string m_config;
    fs::path m_demo;
};

TEST_F(SlurmCli, DemoImpactAndAbAreTheLocalJson)
{
    const std::string data = " --data " + demo("transactions.csv");
    expectSameAsLocal("rules impact --baseline " + demo("rules/current.yaml") + " --candidate " +
                      demo("rules/variant_a.yaml") + data + " --label-column is_fraud --amount-column amount");
    expectSameAsLocal("rules impact --baseline " + demo("rules/current.yaml") + " --candidate " +
                      demo("rules/variant_b.yaml") + data + " --limit 7");
    expectSameAsLocal("rules ab --baseline " + demo("rules/current.yaml") + " --variant " +
                      demo("rules/variant_a.yaml") + " --variant " + demo("rules/variant_b.yaml") + data +
                      " --label-column is_fraud --amount-column amount");
    // One shard, and more shards than the cluster has cores.
    expectSameAsLocal("rules ab --baseline " + demo("rules/current.yaml") + " --variant " +
                          demo("rules/variant_b.yaml") + data + " --label-column is_fraud",
                      "1");
    expectSameAsLocal("rules impact --baseline " + demo("rules/current.yaml") + " --candidate " +
                          demo("rules/variant_b.yaml") + data,
                      "13");
}

TEST_F(SlurmCli, EvalIsTheLocalJsonButForItsTiming)
{
    const std::string args = "rules eval --rules " + demo("rules/variant_b.yaml") + " --data " +
                             demo("transactions.csv") + " --json";
    const Output local = cli(args);
    const Output slurm = cli(args + " --backend slurm --shards 3");
    ASSERT_EQ(slurm.status, 0) << slurm.out;
    auto a = nlohmann::json::parse(local.out), b = nlohmann::json::parse(slurm.out);
    ASSERT_TRUE(a.contains("timing") && b.contains("timing"));
    a.erase("timing");
    b.erase("timing");
    EXPECT_EQ(a, b);
}

TEST_F(SlurmCli, AMillionRecordsWithInferredTypesAreTheLocalJson)
{
    const std::string data = " --data " + millionRecords();
    const std::string current = write("current.yaml", withoutFields(readFile(m_demo / "rules/current.yaml")));
    const std::string a = write("variant_a.yaml", withoutFields(readFile(m_demo / "rules/variant_a.yaml")));
    const std::string b = write("variant_b.yaml", withoutFields(readFile(m_demo / "rules/variant_b.yaml")));
    ASSERT_EQ(readFile(current).find("fields:"), std::string::npos);
    expectSameAsLocal("rules impact --baseline " + quoted(current) + " --candidate " + quoted(a) + data +
                      " --label-column is_fraud --amount-column amount");
    expectSameAsLocal("rules ab --baseline " + quoted(current) + " --variant " + quoted(a) + " --variant " + quoted(b) +
                      data + " --label-column is_fraud --amount-column amount --limit 50");
}

TEST_F(SlurmCli, JsonLinesBadRowsAndInputErrorsAreTheLocalOnes)
{
    // JSON Lines with fields that appear late and a type settled by the last record, and lines that are not JSON.
    std::string jsonl;
    for (int i = 0; i < 3000; ++i) {
        jsonl += "{\"id\": \"r" + std::to_string(i) + "\", \"amount\": " + std::to_string(i % 400) +
                 (i % 100 == 0 ? ", \"extra\": {\"flag\": true}" : "") + ", \"country\": \"" +
                 (i % 3 ? "US" : "NG") + "\"}\n";
        if (i % 701 == 0)
            jsonl += "{not json\n";
    }
    jsonl += "{\"id\": \"last\", \"amount\": 2.5, \"country\": \"FR\"}\n";
    const std::string data = write("records.jsonl", jsonl);
    const std::string base = write("base.yaml", "name: base\ndefault: {decision: allow, score: 0}\nrules:\n"
                                                "  - {id: big, when: 'amount > 300.0', decision: review, score: 10}\n");
    const std::string cand = write("cand.yaml", "name: cand\ndefault: {decision: allow, score: 0}\nrules:\n"
                                                "  - {id: big, when: 'amount > 200.0', decision: review, score: 10}\n"
                                                "  - {id: ng, when: \"country == 'NG'\", decision: block, score: 50}\n");
    const std::string impact = "rules impact --baseline " + quoted(base) + " --candidate " + quoted(cand) + " --data " + quoted(data);
    expectSameAsLocal(impact + " --on-bad-row skip", "5");
    // A bad row refused: the same error, naming the same line.
    expectSameAsLocal(impact, "5");
    const Output refused = cli(impact + " --backend slurm --shards 5", true);
    EXPECT_EQ(refused.status, 1);
    EXPECT_NE(refused.out.find("records.jsonl:2: not valid JSON"), std::string::npos) << refused.out;
    // A candidate that does not compile against the data, a label column the data lacks.
    const std::string broken = write("broken.yaml", "name: b\ndefault: {decision: allow, score: 0}\nrules:\n"
                                                    "  - {id: x, when: 'amount > \"text\"', decision: block, score: 1}\n");
    expectSameAsLocal("rules impact --baseline " + quoted(base) + " --candidate " + quoted(broken) + " --data " +
                          quoted(data) + " --on-bad-row skip",
                      "3");
    expectSameAsLocal(impact + " --on-bad-row skip --label-column nope", "3");

    // Without an id column records are named by their number in the whole file, whichever shard they are in.
    std::string numbered = "amount,country\n";
    for (int i = 0; i < 2000; ++i)
        numbered += std::to_string(i % 400) + (i % 7 == 0 ? ",NG\n" : ",US\n");
    const std::string noIds = write("no-ids.csv", numbered);
    expectSameAsLocal("rules impact --baseline " + quoted(base) + " --candidate " + quoted(cand) + " --data " +
                          quoted(noIds),
                      "4");
    const auto changed = nlohmann::json::parse(
        cli("rules impact --baseline " + quoted(base) + " --candidate " + quoted(cand) + " --data " + quoted(noIds) +
            " --json --backend slurm --shards 4")
            .out)["changed"];
    ASSERT_FALSE(changed.empty());
    // The last changed records are in the last shard: named past the first shard's 500 or so.
    EXPECT_GT(std::stoi(changed.back()["record_id"].get<std::string>()), 1500);
}

TEST_F(SlurmCli, StoredSnapshotsAreTheLocalJson)
{
    // The demo's records, a million generated ones, and records without an id column (numbered across the
    // shards), each imported as a snapshot and cut by records.
    ASSERT_EQ(cli("data import " + demo("transactions.csv") + " --name demo" + store()).status, 0);
    ASSERT_EQ(cli("data import " + millionRecords() + " --name million" + store()).status, 0);
    std::string numbered = "amount,country,is_fraud\n";
    for (int i = 0; i < 2000; ++i)
        numbered += std::to_string(i % 400) + (i % 7 == 0 ? ",NG," : ",US,") + (i % 11 == 0 ? "true\n" : "false\n");
    ASSERT_EQ(cli("data import " + quoted(write("no-ids.csv", numbered)) + " --name no-ids" + store()).status, 0);

    const std::string current = demo("rules/current.yaml"), a = demo("rules/variant_a.yaml"),
                      b = demo("rules/variant_b.yaml");
    for (const char* name : {"demo", "million"}) {
        const std::string data = std::string(" --data ") + name + store();
        expectSameAsLocal("rules impact --baseline " + current + " --candidate " + a + data +
                          " --label-column is_fraud --amount-column amount");
        expectSameAsLocal("rules ab --baseline " + current + " --variant " + a + " --variant " + b + data +
                          " --label-column is_fraud --amount-column amount --limit 50");
    }
    // The data's facts are the snapshot's: its name, kind and SHA-256.
    const auto stored = nlohmann::json::parse(cli("rules impact --baseline " + current + " --candidate " + a +
                                                  " --data demo --json --backend slurm --shards 3" + store())
                                                  .out)["data"];
    EXPECT_EQ(stored["source"], "demo");
    EXPECT_EQ(stored["kind"], "dataset");
    EXPECT_EQ(stored["sha256"], nlohmann::json::parse(cli("data show demo --json" + store()).out)["sha256"]);
    // One shard, and more shards than records.
    expectSameAsLocal("rules impact --baseline " + current + " --candidate " + b + " --data demo" + store(), "1");
    const std::string base = write("base.yaml", "name: base\ndefault: {decision: allow, score: 0}\nrules:\n"
                                                "  - {id: big, when: 'amount > 300', decision: review, score: 10}\n");
    const std::string cand = write("cand.yaml", "name: cand\ndefault: {decision: allow, score: 0}\nrules:\n"
                                                "  - {id: big, when: 'amount > 200', decision: review, score: 10}\n"
                                                "  - {id: ng, when: \"country == 'NG'\", decision: block, score: 50}\n");
    expectSameAsLocal("rules impact --baseline " + quoted(base) + " --candidate " + quoted(cand) +
                          " --data no-ids --label-column is_fraud" + store(),
                      "4");
    expectSameAsLocal("rules ab --baseline " + quoted(base) + " --variant " + quoted(cand) + " --data no-ids" + store(),
                      "13");
    const auto changed = nlohmann::json::parse(cli("rules impact --baseline " + quoted(base) + " --candidate " +
                                                   quoted(cand) + " --data no-ids --json --backend slurm --shards 4" +
                                                   store())
                                                   .out)["changed"];
    ASSERT_FALSE(changed.empty());
    EXPECT_GT(std::stoi(changed.back()["record_id"].get<std::string>()), 1500);

    // eval: the local JSON but for its timing.
    const std::string eval = "rules eval --rules " + b + " --data million --json" + store();
    auto local = nlohmann::json::parse(cli(eval).out), slurm = nlohmann::json::parse(cli(eval + " --backend slurm --shards 3").out);
    local.erase("timing");
    slurm.erase("timing");
    EXPECT_EQ(slurm, local);

    // A sandbox's reference to a sample of a snapshot, resolved as locally.
    ASSERT_EQ(cli("sandbox create s --dataset demo --sample 0.5 --seed 7" + store()).status, 0);
    expectSameAsLocal("rules impact --baseline " + current + " --candidate " + a +
                      " --data demo --sandbox s --label-column is_fraud" + store());
    EXPECT_TRUE(spoolIsEmpty());
}

TEST_F(SlurmCli, AMissingOrDamagedSnapshotIsRefusedAsLocallyBeforeAnyJob)
{
    const std::string impact = "rules impact --baseline " + demo("rules/current.yaml") + " --candidate " +
                               demo("rules/variant_a.yaml") + store();
    // Not in the store, and a declared type the snapshot's column cannot take.
    expectSameAsLocal(impact + " --data nowhere");
    ASSERT_EQ(cli("data import " + demo("transactions.csv") + " --name demo" + store()).status, 0);
    const std::string undeclared = write("current.yaml", withoutFields(readFile(m_demo / "rules/current.yaml")));
    const Output local = cli("rules eval --rules " + quoted(undeclared) + " --data demo --field country:int --json" + store());
    EXPECT_EQ(local.status, 1);
    EXPECT_NE(local.out.find("dataset demo: field 'country' is declared int but the data has it as string"),
              std::string::npos)
        << local.out;
    EXPECT_EQ(cli("rules eval --rules " + quoted(undeclared) +
                  " --data demo --field country:int --json --backend slurm" + store())
                  .out,
              local.out);
    // Its hash altered, then its bytes cut short: refused as a local load refuses it, naming it.
    editStore(m_store, "UPDATE datasets SET sha256 = '" + std::string(64, '0') + "' WHERE name = 'demo'");
    expectSameAsLocal(impact + " --data demo");
    Output r = cli(impact + " --data demo --backend slurm", true);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.out.find("dataset demo: the stored snapshot does not match its SHA-256"), std::string::npos) << r.out;
    editStore(m_store, "UPDATE datasets SET data = substr(data, 1, length(data) / 2) WHERE name = 'demo'");
    expectSameAsLocal(impact + " --data demo");
    r = cli(impact + " --data demo --backend slurm", true);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.out.find("dataset demo: the stored snapshot is damaged"), std::string::npos) << r.out;
    expectNoJobsLeft();
    EXPECT_TRUE(spoolIsEmpty());
}

// Runs the CLI in the background with `args`; its pid.
pid_t startCli(const std::string& args, const fs::path& out, const fs::path& err)
{
    const std::string command = "exec " + std::string(SANDBENCH_CLI) + " " + args + " > " + quoted(out.string()) +
                                " 2> " + quoted(err.string());
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    return pid;
}

int waitFor(pid_t pid)
{
    int status = 0;
    ::waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void SlurmCli::interruptAndExpectCancelled(pid_t command)
{
    ::kill(command, SIGINT);
    EXPECT_EQ(waitFor(command), 1);
    EXPECT_NE(readFile(m_dir / "err").find("cancelled: the Slurm jobs were cancelled (scancel)"), std::string::npos)
        << readFile(m_dir / "err");
    expectNoJobsLeft();
}

// The processes whose command line has these words in a row (a task: "rules", "task", ..., "--stage", "eval").
std::vector<pid_t> processesWith(const std::vector<std::string>& words)
{
    std::vector<pid_t> out;
    for (const pid_t pid : test::allPids()) {
        const std::string cmdline = test::readWhole("/proc/" + std::to_string(pid) + "/cmdline");
        std::vector<std::string> args;
        for (std::size_t at = 0; at < cmdline.size();) {
            const std::size_t end = cmdline.find('\0', at);
            args.push_back(cmdline.substr(at, end - at));
            at = end == std::string::npos ? cmdline.size() : end + 1;
        }
        if (std::search(args.begin(), args.end(), words.begin(), words.end()) != args.end())
            out.push_back(pid);
    }
    return out;
}

// Kills (SIGKILL) the first evaluating task that runs, as a node's crash would; whether one was found.
bool killARunningTask(pid_t command)
{
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (std::chrono::steady_clock::now() < deadline) {
        if (const auto tasks = processesWith({"--stage", "eval"}); !tasks.empty()) {
            ::kill(tasks.front(), SIGKILL);
            return true;
        }
        int status = 0;
        if (::waitpid(command, &status, WNOHANG) == command)
            return false; // it ended before a task could be caught
        std::this_thread::sleep_for(2ms);
    }
    return false;
}

TEST_F(SlurmCli, ATaskKilledMidRunIsRetriedThenReported)
{
    const std::string args = "rules impact --baseline " + demo("rules/current.yaml") + " --candidate " +
                             demo("rules/variant_a.yaml") + " --data " + millionRecords() +
                             " --label-column is_fraud --amount-column amount --threads 1 --json --backend slurm --shards 2";
    const Output local = cli("rules impact --baseline " + demo("rules/current.yaml") + " --candidate " +
                             demo("rules/variant_a.yaml") + " --data " + quoted((m_dir / "million.csv").string()) +
                             " --label-column is_fraud --amount-column amount --threads 1 --json");
    ASSERT_EQ(local.status, 0);

    // Retried: the same result, and the retry said.
    const pid_t retried = startCli(args, m_dir / "out", m_dir / "err");
    ASSERT_TRUE(killARunningTask(retried));
    EXPECT_EQ(waitFor(retried), 0) << readFile(m_dir / "err");
    EXPECT_EQ(readFile(m_dir / "out"), local.out);
    EXPECT_NE(readFile(m_dir / "err").find("1 retried"), std::string::npos) << readFile(m_dir / "err");
    EXPECT_TRUE(spoolIsEmpty());

    // No retries left: reported, naming the job, the task and the node; nothing printed as a result.
    configure("slurm:\n  spool: " + m_spool.string() + "\n  poll_ms: 50\n  retries: 0\n");
    const pid_t reported = startCli(args, m_dir / "out", m_dir / "err");
    ASSERT_TRUE(killARunningTask(reported));
    EXPECT_EQ(waitFor(reported), 1);
    const std::string err = readFile(m_dir / "err");
    EXPECT_TRUE(std::regex_search(err, std::regex(R"(Slurm job \d+_\d \(task \d of 2\) failed on node sbtest-node)"))) << err;
    EXPECT_NE(err.find("the job's folder, with each task's log, is kept"), std::string::npos) << err;
    const auto out = nlohmann::json::parse(readFile(m_dir / "out"));
    EXPECT_EQ(out.value("ok", true), false);
    EXPECT_FALSE(out.contains("affected"));
    expectNoJobsLeft();
}

TEST_F(SlurmCli, CtrlCCancelsEveryJobAndLeavesNoneBehind)
{
    const std::string args = "rules ab --baseline " + demo("rules/current.yaml") + " --variant " + demo("rules/variant_a.yaml") +
                             " --variant " + demo("rules/variant_b.yaml") + " --data " + millionRecords() +
                             " --threads 1 --json --backend slurm --shards 6";
    const pid_t command = startCli(args, m_dir / "out", m_dir / "err");
    // Once Slurm has its jobs queued or running.
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (ourJobs().empty() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(5ms);
    ASSERT_NE(ourJobs(), "") << readFile(m_dir / "err");
    interruptAndExpectCancelled(command);
    EXPECT_TRUE(processesWith({"rules", "task"}).empty());
    EXPECT_TRUE(spoolIsEmpty());
}

TEST_F(SlurmCli, TheSpoolSaysHowFarAJobIsAndJobsCancelCancelsIt)
{
    const std::string args = "rules impact --baseline " + demo("rules/current.yaml") + " --candidate " +
                             demo("rules/variant_a.yaml") + " --data " + millionRecords() +
                             " --threads 1 --json --backend slurm --shards 3";
    const pid_t command = startCli(args, m_dir / "out", m_dir / "err");
    // Followed as the window follows it: the job's status in the spool, until its tasks run.
    std::optional<cluster::JobStatus> seen;
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (std::chrono::steady_clock::now() < deadline) {
        auto jobs = cluster::listJobs(m_spool);
        ASSERT_TRUE(jobs) << jobs.error().message;
        if (!jobs->empty() && jobs->front().phase == "evaluating" && !jobs->front().progress.jobs.empty()) {
            seen = jobs->front();
            break;
        }
        std::this_thread::sleep_for(5ms);
    }
    ASSERT_TRUE(seen) << readFile(m_dir / "err");
    EXPECT_EQ(seen->kind, "rules");
    EXPECT_NE(seen->title.find("rules impact --baseline"), std::string::npos) << seen->title;
    EXPECT_NE(seen->title.find("--backend slurm --shards 3"), std::string::npos) << seen->title;
    EXPECT_EQ(seen->progress.tasks, 3u);
    EXPECT_EQ(seen->pid, command);
    EXPECT_TRUE(seen->alive);
    EXPECT_NE(ourJobs(), "");

    // Cancelled from another terminal, naming one of its Slurm jobs: `jobs cancel` returns once it has.
    const Output cancelled = cli("jobs cancel " + seen->progress.jobs.front(), true);
    EXPECT_EQ(cancelled.status, 0) << cancelled.out;
    EXPECT_NE(cancelled.out.find("Job " + seen->folder.filename().string() + " cancelled"), std::string::npos)
        << cancelled.out;
    EXPECT_EQ(waitFor(command), 1);
    const std::string err = readFile(m_dir / "err");
    EXPECT_NE(err.find("cancelled (asked in " + (seen->folder / "cancel").string() +
                       "): the Slurm jobs were cancelled (scancel)"),
              std::string::npos)
        << err;
    expectNoJobsLeft();
    EXPECT_TRUE(processesWith({"rules", "task"}).empty());
    EXPECT_TRUE(spoolIsEmpty());
}

TEST_F(SlurmCli, ACommandKilledOutrightLeavesAGoneJobWhoseRemovalCancelsItsJobs)
{
    const std::string args = "rules ab --baseline " + demo("rules/current.yaml") + " --variant " +
                             demo("rules/variant_a.yaml") + " --data " + millionRecords() +
                             " --threads 1 --json --backend slurm --shards 4";
    const pid_t command = startCli(args, m_dir / "out", m_dir / "err");
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (ourJobs().empty() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(5ms);
    ASSERT_NE(ourJobs(), "") << readFile(m_dir / "err");
    // Its status names its jobs by the time they are queued (it is written as the queue is first polled).
    std::this_thread::sleep_for(200ms);
    ::kill(command, SIGKILL);
    waitFor(command);

    const Output listed = cli("jobs list --json");
    ASSERT_EQ(listed.status, 0) << listed.out;
    const auto jobs = nlohmann::json::parse(listed.out);
    ASSERT_EQ(jobs.size(), 1u) << listed.out;
    EXPECT_EQ(jobs[0].at("alive"), false);
    EXPECT_FALSE(jobs[0].at("slurm_jobs").empty()) << listed.out;
    EXPECT_NE(cli("jobs list").out.find("  gone  rules  "), std::string::npos);
    const Output removed = cli("jobs remove " + jobs[0].at("id").get<std::string>(), true);
    EXPECT_EQ(removed.status, 0) << removed.out;
    expectNoJobsLeft();
    EXPECT_TRUE(spoolIsEmpty());
}

TEST_F(SlurmCli, ABatchOfTheDemoCasesEndsAsExpectedEachRunRecordedHere)
{
    // The demo's cases as files, batched by their limits: each on a node, under the policy settled here.
    std::map<std::pair<std::int64_t, std::int64_t>, std::vector<std::size_t>> byLimits;
    const auto& cases = demoCases();
    for (std::size_t i = 0; i < cases.size(); ++i)
        byLimits[{cases[i].timeoutMs, cases[i].memoryMb}].push_back(i);
    std::set<std::string> runIds;
    for (const auto& [limits, indices] : byLimits) {
        std::string files;
        for (const std::size_t i : indices)
            files += " " + quoted(write(fmt::format("case{}{}", i, cases[i].language == Language::Shell ? ".sh" : ".py"),
                                        cases[i].source));
        const auto r = cli(fmt::format("batch{} --timeout-ms {} --memory-mb {} --json --backend slurm", files,
                                       limits.first, limits.second) + store());
        const auto out = nlohmann::json::parse(r.out, nullptr, false);
        ASSERT_FALSE(out.is_discarded()) << r.out;
        EXPECT_EQ(out["backend"], "slurm");
        EXPECT_FALSE(out["slurm"]["jobs"].empty());
        ASSERT_EQ(out["runs"].size(), indices.size());
        for (std::size_t k = 0; k < indices.size(); ++k) {
            const DemoCase& c = cases[indices[k]];
            const auto& run = out["runs"][k];
            SCOPED_TRACE(c.name);
            EXPECT_EQ(run["recorded"], true);
            const auto outcome = outcomeFromString(run["outcome"].get<std::string>());
            ASSERT_TRUE(outcome) << run.dump();
            EXPECT_NE(std::find(c.expected.begin(), c.expected.end(), *outcome), c.expected.end())
                << "outcome " << run["outcome"] << ": " << run.dump();
            if (*outcome == Outcome::Blocked) {
                EXPECT_FALSE(run["blocked"].empty());
            }
            runIds.insert(run["run_id"].get<std::string>());
        }
    }
    // Every run is in this store's history and audit log, as a local run would be.
    const auto history = nlohmann::json::parse(cli("history --json --limit 100" + store()).out);
    std::set<std::string> recorded;
    for (const auto& h : history)
        recorded.insert(h["run_id"].get<std::string>());
    EXPECT_EQ(recorded, runIds);
    EXPECT_EQ(cli("audit verify" + store()).status, 0);
    EXPECT_TRUE(spoolIsEmpty());
    expectNoJobsLeft();
}

TEST_F(SlurmCli, DoctorReportsTheBackend)
{
    auto doctor = [](bool withStderr = false) {
        const Output r = cli("doctor --json", withStderr);
        return nlohmann::json::parse(r.out)["backends"]["slurm"];
    };
    auto ready = doctor();
    EXPECT_EQ(ready["configured"], true);
    EXPECT_EQ(ready["ready"], true) << ready.dump();
    EXPECT_EQ(ready["checks"]["sinfo"]["ok"], true);
    EXPECT_EQ(ready["checks"]["partition"]["detail"], "sbtest: up, 1 node (Slurm's default)");
    EXPECT_EQ(ready["checks"]["spool"]["ok"], true);

    configure("slurm:\n  spool: " + m_spool.string() + "\n  partition: nowhere\n");
    auto noPartition = doctor();
    EXPECT_EQ(noPartition["ready"], false);
    EXPECT_EQ(noPartition["checks"]["partition"]["detail"], "no Slurm partition named nowhere (partitions: sbtest)");

    configure("slurm:\n  spool: " + write("a-file", "not a folder") + "\n");
    auto notAFolder = doctor();
    EXPECT_EQ(notAFolder["checks"]["spool"]["ok"], false);
    EXPECT_NE(notAFolder["checks"]["spool"]["detail"].get<std::string>().find("is not a folder"), std::string::npos);

    configure("slurm: {spool: 3\n");
    auto unreadable = doctor();
    EXPECT_EQ(unreadable["ready"], false);
    EXPECT_NE(unreadable["error"].get<std::string>().find("config.yaml:"), std::string::npos) << unreadable.dump();

    ::setenv("SANDBENCH_CONFIG", (m_dir / "none.yaml").c_str(), 1);
    auto none = doctor();
    EXPECT_EQ(none["configured"], false);
    EXPECT_EQ(none["checks"], nlohmann::json::object());
}

TEST_F(SlurmCli, WhatIsMisconfiguredIsRefusedNamingIt)
{
    const std::string impact = "rules impact --baseline " + demo("rules/current.yaml") + " --candidate " +
                               demo("rules/variant_a.yaml") + " --data " + demo("transactions.csv") + " --backend slurm";
    ::setenv("SANDBENCH_CONFIG", (m_dir / "none.yaml").c_str(), 1);
    auto r = cli(impact, true);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.out.find("no Slurm is configured: add a slurm section with a spool folder to " + (m_dir / "none.yaml").string()),
              std::string::npos) << r.out;

    configure("slurm:\n  spool: relative/path\n");
    r = cli(impact, true);
    EXPECT_NE(r.out.find("config.yaml:2: slurm.spool: an absolute path"), std::string::npos) << r.out;
    configure("slurm:\n  spool: /tmp\n  retries: many\n");
    r = cli(impact, true);
    EXPECT_NE(r.out.find("config.yaml:3: slurm.retries is a whole number from 0 to 20"), std::string::npos) << r.out;
    configure("slurm:\n  spool: /tmp\n  spoool: /tmp\n");
    r = cli(impact, true);
    EXPECT_NE(r.out.find("config.yaml:3: slurm: unknown setting 'spoool'"), std::string::npos) << r.out;
    configure("slurm: [\n");
    r = cli(impact, true);
    EXPECT_NE(r.out.find("config.yaml:"), std::string::npos) << r.out;
    EXPECT_EQ(r.status, 1);

    configure("slurm:\n  spool: " + (m_dir / "missing").string() + "\n");
    r = cli(impact, true);
    EXPECT_NE(r.out.find("is not a folder (slurm.spool: a folder every node sees)"), std::string::npos) << r.out;

    configure("slurm:\n  spool: " + m_spool.string() + "\n");
    r = cli(impact + " --partition nowhere", true);
    EXPECT_NE(r.out.find("no Slurm partition named nowhere (partitions: sbtest)"), std::string::npos) << r.out;

    // A stored dataset the store does not have.
    r = cli("rules impact --baseline " + demo("rules/current.yaml") + " --candidate " + demo("rules/variant_a.yaml") +
                " --data some_snapshot --backend slurm" + store(),
            true);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.out.find("some_snapshot: no such file, and no dataset of that name in store"), std::string::npos)
        << r.out;
    // --shards and --partition only go with --backend.
    EXPECT_EQ(cli("rules impact --baseline a.yaml --candidate b.yaml --data x.csv --shards 3").status, 2);
    expectNoJobsLeft();
}

TEST_F(SlurmCli, AFolderOfCsvPartsIsTheLocalJson)
{
    // The demo's records in parts of unequal sizes (one big enough to be cut, some small ones grouped), with
    // what is not read beside them; every type inferred, which takes the scan stage.
    const std::string transactions = readFile(m_demo / "transactions.csv");
    const std::string header = transactions.substr(0, transactions.find('\n') + 1);
    std::vector<std::string> rows;
    for (std::size_t at = header.size(); at < transactions.size();) {
        const auto end = transactions.find('\n', at);
        rows.push_back(transactions.substr(at, end == std::string::npos ? end : end + 1 - at));
        at = end == std::string::npos ? transactions.size() : end + 1;
    }
    ASSERT_GT(rows.size(), 100u);
    fs::create_directories(m_dir / "parts" / "old");
    const std::size_t sizes[] = {rows.size() / 2, 5, 1, 7, rows.size()};
    std::size_t next = 0;
    for (std::size_t p = 0; p < std::size(sizes) && next < rows.size(); ++p) {
        std::string part = header;
        for (std::size_t i = 0; i < sizes[p] && next < rows.size(); ++i)
            part += rows[next++];
        write(fmt::format("parts/part-{:03}.csv", p), part);
    }
    write("parts/.part-999.csv", "hidden,file\n");
    write("parts/old/part-000.csv", "old,header\n");
    write("parts/_SUCCESS", "");
    const std::string current = write("current.yaml", withoutFields(readFile(m_demo / "rules/current.yaml")));
    const std::string variant = write("variant_a.yaml", withoutFields(readFile(m_demo / "rules/variant_a.yaml")));
    const std::string data = " --data " + quoted((m_dir / "parts").string());
    expectSameAsLocal("rules impact --baseline " + quoted(current) + " --candidate " + quoted(variant) + data +
                          " --label-column is_fraud --amount-column amount",
                      "3");
    expectSameAsLocal("rules ab --baseline " + demo("rules/current.yaml") + " --variant " + demo("rules/variant_a.yaml") +
                          " --variant " + demo("rules/variant_b.yaml") + data + " --label-column is_fraud",
                      "3");

    // Without ids, with bad rows in a later file: numbered across the folder, skips and the first error named
    // by file and line, as locally.
    fs::create_directories(m_dir / "noids");
    std::string all = "amount,country\n";
    for (int f = 0; f < 4; ++f) {
        std::string part = "amount,country\n";
        for (int i = 0; i < 300 * (f + 1); ++i)
            part += std::to_string((f * 1000 + i) % 400) + (i % 7 == 0 ? ",NG\n" : ",US\n");
        if (f == 2)
            part += "x,US\n12,US,extra\n";
        write(fmt::format("noids/p{}.csv", f), part);
    }
    const std::string base = write("base.yaml", "name: base\ndefault: {decision: allow, score: 0}\nfields: {amount: double}\n"
                                                "rules:\n  - {id: big, when: 'amount > 300.0', decision: review, score: 10}\n");
    const std::string cand = write("cand.yaml", "name: cand\ndefault: {decision: allow, score: 0}\nfields: {amount: double}\n"
                                                "rules:\n  - {id: big, when: 'amount > 200.0', decision: review, score: 10}\n"
                                                "  - {id: ng, when: \"country == 'NG'\", decision: block, score: 50}\n");
    const std::string impact = "rules impact --baseline " + quoted(base) + " --candidate " + quoted(cand) +
                               " --data " + quoted((m_dir / "noids").string());
    expectSameAsLocal(impact + " --on-bad-row skip", "3");
    expectSameAsLocal(impact, "3");
    const Output refused = cli(impact + " --backend slurm --shards 3", true);
    EXPECT_EQ(refused.status, 1);
    EXPECT_NE(refused.out.find((m_dir / "noids" / "p2.csv").string() + ":902: field 'amount': 'x' is not a double"),
              std::string::npos)
        << refused.out;
    const auto skipped = nlohmann::json::parse(cli(impact + " --on-bad-row skip --json --backend slurm --shards 3").out);
    EXPECT_EQ(skipped["data"]["bad_rows"]["examples"][0]["file"], (m_dir / "noids" / "p2.csv").string());
    EXPECT_GT(std::stoi(skipped["changed"].back()["record_id"].get<std::string>()), 1800);

    // Two headers: refused before any job, naming the file.
    write("noids/p9.csv", "amount,city\n1,Paris\n");
    const Output headers = cli(impact + " --backend slurm --shards 3", true);
    EXPECT_EQ(headers.status, 1);
    EXPECT_NE(headers.out.find("p9.csv: its header differs"), std::string::npos) << headers.out;
    expectNoJobsLeft();
    EXPECT_TRUE(spoolIsEmpty());
}

TEST_F(SlurmCli, AFolderOfJsonLinesPartsIsTheLocalJson)
{
    // Fields that first appear in a later file, a type settled by the last record, a line that is not JSON.
    fs::create_directories(m_dir / "jparts");
    for (int f = 0; f < 5; ++f) {
        std::string part;
        for (int i = 0; i < 200 * (f % 2 ? 1 : 4); ++i) {
            const int n = f * 1000 + i;
            part += "{\"id\": \"r" + std::to_string(n) + "\", \"amount\": " + std::to_string(n % 400) +
                    (f >= 2 && i % 50 == 0 ? ", \"extra\": {\"flag\": true}" : "") + ", \"country\": \"" +
                    (i % 3 ? "US" : "NG") + "\"}\n";
        }
        if (f == 3)
            part += "{not json\n";
        if (f == 4)
            part += "{\"id\": \"last\", \"amount\": 2.5, \"country\": \"FR\"}\n";
        write(fmt::format("jparts/{:02}.{}", f, f % 2 ? "ndjson" : "jsonl"), part);
    }
    const std::string base = write("base.yaml", "name: base\ndefault: {decision: allow, score: 0}\nrules:\n"
                                                "  - {id: big, when: 'amount > 300.0', decision: review, score: 10}\n");
    const std::string cand = write("cand.yaml", "name: cand\ndefault: {decision: allow, score: 0}\nrules:\n"
                                                "  - {id: big, when: 'amount > 200.0', decision: review, score: 10}\n"
                                                "  - {id: ng, when: \"country == 'NG'\", decision: block, score: 50}\n");
    const std::string impact = "rules impact --baseline " + quoted(base) + " --candidate " + quoted(cand) +
                               " --data " + quoted((m_dir / "jparts").string());
    expectSameAsLocal(impact + " --on-bad-row skip", "3");
    expectSameAsLocal(impact, "3");
    const Output refused = cli(impact + " --backend slurm --shards 3", true);
    EXPECT_EQ(refused.status, 1);
    EXPECT_NE(refused.out.find((m_dir / "jparts" / "03.ndjson").string() + ":201: not valid JSON"), std::string::npos)
        << refused.out;
}

} // namespace
} // namespace sb::clitest

namespace sb::clitest {
namespace {

class SlurmAgent : public SlurmCli {
protected:
    void SetUp() override
    {
        SlurmCli::SetUp();
        m_agentDir = writeScriptedAgent(m_dir, m_dir / "agent");
        writeAgentCalls(m_agentDir, calls());
    }

    static std::vector<nlohmann::json> calls()
    {
        auto call = [](std::string tool, nlohmann::json args) {
            return nlohmann::json{{"name", std::move(tool)}, {"arguments", std::move(args)}};
        };
        return {call("write_file", {{"path", "notes/a.txt"}, {"content", "hello"}}),
                call("read_file", {{"path", "/work/notes/a.txt"}}),
                call("edit_file", {{"path", "notes/a.txt"}, {"old_text", "hello"}, {"new_text", "hello, world"}}),
                call("list_dir", {{"path", "notes"}}),
                call("read_file", {{"path", "../../etc/passwd"}}),
                call("write_file", {{"path", "/etc/evil"}, {"content", "x"}}),
                call("run_code", {{"language", "python"}, {"code", "print(open('notes/a.txt').read())"}}),
                call("write_file", {{"path", "notes/b.txt"}, {"content", "the end"}})};
    }

    Output agentRun(const std::string& options, const std::string& storeFile)
    {
        return cli("agent run --json --read " + quoted(m_agentDir.string()) + " " + options + " --store " +
                   quoted(storeFile) + " -- python3 " + quoted((m_agentDir / "agent.py").string()));
    }

    nlohmann::json show(const std::string& id, const std::string& storeFile)
    {
        const auto r = cli("sessions show " + id + " --json --store " + quoted(storeFile));
        EXPECT_EQ(r.status, 0) << r.out;
        return nlohmann::json::parse(r.out, nullptr, false);
    }

    fs::path m_agentDir;
};

TEST_F(SlurmAgent, ASessionOnANodeIsRecordedHereAsALocalOneIs)
{
    const std::string here = (m_dir / "here.db").string();
    const std::string there = (m_dir / "there.db").string();
    const Output local = agentRun("", here);
    ASSERT_EQ(local.status, 0) << local.out;
    const Output slurm = agentRun("--backend slurm", there);
    ASSERT_EQ(slurm.status, 0) << slurm.out;
    const auto a = nlohmann::json::parse(local.out), b = nlohmann::json::parse(slurm.out);
    EXPECT_EQ(b["status"], "completed") << slurm.out;
    EXPECT_EQ(b["steps"], a["steps"]);
    EXPECT_EQ(b["policy"]["ref"], "agent");
    EXPECT_EQ(b["policy"]["name"], a["policy"]["name"]);
    EXPECT_EQ(b["agent"]["outcome"], a["agent"]["outcome"]);
    EXPECT_FALSE(b["slurm"]["job"].get<std::string>().empty()) << slurm.out;
    EXPECT_FALSE(b["slurm"]["node"].get<std::string>().empty()) << slurm.out;
    const auto socket = b.value("control_socket", nlohmann::json());
    EXPECT_TRUE(socket.is_null() || socket == "") << slurm.out; // no live control of a node's session

    // Step by step: the same tools, verdicts, rules and answers (run_code's run ids and times aside).
    const auto stepsA = show(a["id"], here)["steps"], stepsB = show(b["id"], there)["steps"];
    ASSERT_EQ(stepsB.size(), calls().size()) << stepsB.dump(2);
    ASSERT_EQ(stepsA.size(), stepsB.size());
    for (std::size_t i = 0; i < stepsA.size(); ++i) {
        SCOPED_TRACE(stepsB[i].dump());
        EXPECT_EQ(stepsB[i]["tool"], stepsA[i]["tool"]);
        EXPECT_EQ(stepsB[i]["verdict"], stepsA[i]["verdict"]);
        EXPECT_EQ(stepsB[i]["rule"], stepsA[i]["rule"]);
        EXPECT_EQ(stepsB[i]["arguments"], stepsA[i]["arguments"]);
        if (stepsA[i]["tool"] != "run_code") {
            EXPECT_EQ(stepsB[i]["result"], stepsA[i]["result"]);
        }
    }

    // The sandbox here is as the session left it.
    const std::string sandbox = b["sandbox"];
    const fs::path workspace = trimmed(cli("sandbox path " + sandbox + " --store " + quoted(there)).out);
    EXPECT_EQ(readFile(workspace / "notes" / "a.txt"), "hello, world");
    EXPECT_EQ(readFile(workspace / "notes" / "b.txt"), "the end");
    EXPECT_FALSE(fs::exists("/etc/evil"));

    // Its checkpoints are this store's: rewinding to before the edit (step 3) gives the file as it was then.
    const Output rewound = cli("sessions rewind " + b["id"].get<std::string>() + " --to-step 3 --json --store " +
                               quoted(there));
    ASSERT_EQ(rewound.status, 0) << rewound.out;
    EXPECT_EQ(readFile(workspace / "notes" / "a.txt"), "hello");
    EXPECT_FALSE(fs::exists(workspace / "notes" / "b.txt"));

    // Its runs are in this store's history, and the audit log holds the session with where it ran.
    const auto history = nlohmann::json::parse(cli("history --json --limit 100 --store " + quoted(there)).out);
    std::set<std::string> runs;
    for (const auto& h : history)
        runs.insert(h["run_id"].get<std::string>());
    EXPECT_TRUE(runs.count(b["agent"]["run_id"].get<std::string>())) << history.dump(2);
    EXPECT_EQ(runs.size(), 2u) << history.dump(2); // the agent's own, and its run_code's
    EXPECT_EQ(cli("audit verify --store " + quoted(there)).status, 0);
    const auto audit = nlohmann::json::parse(
        cli("audit list --json --operation session.end --store " + quoted(there)).out, nullptr, false);
    ASSERT_TRUE(audit.is_array() && audit.size() == 1) << audit.dump(2);
    EXPECT_EQ(audit[0]["subject"], b["id"]);
    EXPECT_EQ(audit[0]["details"]["cluster"]["job"], b["slurm"]["job"]) << audit.dump(2);

    // Nothing is left on the cluster or in the spool.
    EXPECT_TRUE(spoolIsEmpty());
    expectNoJobsLeft();
}

TEST_F(SlurmAgent, CtrlCCancelsTheSessionsJobAndRecordsNothing)
{
    // An agent that never speaks: the session runs until cancelled.
    const std::string store = (m_dir / "store.db").string();
    const pid_t command = startCli("agent run --json --backend slurm --store " + quoted(store) +
                                       " -- python3 -c 'import time; time.sleep(120)'",
                                   m_dir / "out", m_dir / "err");
    const auto deadline = std::chrono::steady_clock::now() + 60s;
    while (trimmed(shell("squeue --noheader --states=RUNNING --name=sandbench-agent 2>&1").out).empty() &&
           std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(5ms);
    ASSERT_NE(ourJobs(), "") << readFile(m_dir / "err");
    interruptAndExpectCancelled(command);
    EXPECT_TRUE(processesWith({"agent-task"}).empty());
    EXPECT_TRUE(processesWith({"-c", "import time; time.sleep(120)"}).empty());
    // The task's scratch store went with it.
    for (const auto& entry : fs::directory_iterator(fs::temp_directory_path()))
        EXPECT_FALSE(entry.path().filename().string().starts_with("sandbench-agent-")
                     && fs::last_write_time(entry.path()) > fs::last_write_time(m_dir))
            << entry.path();
    EXPECT_TRUE(spoolIsEmpty());
    const auto sessions = nlohmann::json::parse(cli("sessions list --json --store " + quoted(store)).out, nullptr, false);
    EXPECT_EQ(sessions, nlohmann::json::array()) << sessions.dump(2);
}

TEST_F(SlurmAgent, LiveControlIsRefusedAndNothingIsSubmitted)
{
    const std::string store = (m_dir / "store.db").string();
    const Output r = cli("agent run --step --backend slurm --store " + quoted(store) + " -- python3 " +
                         quoted((m_agentDir / "agent.py").string()), true);
    EXPECT_NE(r.status, 0);
    EXPECT_NE(r.out.find("--step needs live control"), std::string::npos) << r.out;
    EXPECT_TRUE(spoolIsEmpty());
    expectNoJobsLeft();
}

} // namespace
} // namespace sb::clitest
