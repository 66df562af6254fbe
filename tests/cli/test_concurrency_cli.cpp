// Runs in one sandbox at the same time, and what is left when a run is killed midway, through the real CLI, as
// agents that make tool calls concurrently use it. Runs in one sandbox queue (isolation/workspace_lending.h):
// each ends as its snippet says, the workspace belongs to its owner afterwards, whatever died, and later runs
// work. The load test mixes runs, checkpoints and sandbox commands from eight writers on one store.

#include "cli_fixture.h"
#include "../isolation/proc_scan.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <map>
#include <mutex>
#include <set>
#include <sys/stat.h>
#include <thread>
#include <vector>


namespace sb::clitest {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr std::string_view kJobFolderPrefix = ".sandbench-run-";

// Every entry of the workspace (and the workspace itself) whose owner is not `uid`, and every job folder left.
std::vector<std::string> notOwnedBy(const fs::path& workspace, uid_t uid)
{
    std::vector<std::string> out;
    struct stat st {};
    if (::lstat(workspace.c_str(), &st) != 0 || st.st_uid != uid)
        out.push_back(workspace.string() + " (uid " + std::to_string(st.st_uid) + ")");
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(workspace, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
        if (::lstat(it->path().c_str(), &st) == 0 && st.st_uid != uid)
            out.push_back(it->path().string() + " (uid " + std::to_string(st.st_uid) + ")");
        if (it->path().filename().string().starts_with(kJobFolderPrefix))
            out.push_back(it->path().string() + " (a job folder left)");
    }
    return out;
}

// The isolation levels this machine offers, as `sandbench doctor` reports them.
std::vector<std::string> availableLevels()
{
    const auto r = cli("doctor --json");
    const json doctor = json::parse(r.out, nullptr, false);
    std::vector<std::string> out;
    for (const char* level : {"process", "container", "strict"}) {
        if (!doctor.is_discarded() && doctor["levels"].value(level, false))
            out.emplace_back(level);
    }
    return out;
}

bool waitForFile(const fs::path& path, std::chrono::seconds patience)
{
    const auto deadline = Clock::now() + patience;
    while (Clock::now() < deadline) {
        if (fs::exists(path))
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
}

std::string procField(pid_t pid, const char* file)
{
    return trimmed(test::readWhole("/proc/" + std::to_string(pid) + "/" + file));
}

pid_t parentOf(pid_t pid)
{
    // /proc/PID/stat: "pid (comm) state ppid ...", comm may hold spaces and parentheses.
    const std::string stat = test::readWhole("/proc/" + std::to_string(pid) + "/stat");
    const auto close = stat.rfind(')');
    if (close == std::string::npos)
        return -1;
    int ppid = -1;
    char state = 0;
    if (std::sscanf(stat.c_str() + close + 1, " %c %d", &state, &ppid) != 2)
        return -1;
    return ppid;
}

// The launcher of `caller`'s run: forked by the caller's zygote, or exec'd by the caller itself.
pid_t launcherOf(pid_t caller)
{
    for (const pid_t pid : test::allPids()) {
        if (procField(pid, "comm") != "sandbench-launc")
            continue;
        const pid_t parent = parentOf(pid);
        if (parent == caller || (procField(parent, "comm") == "sandbench-zygot" && parentOf(parent) == caller))
            return pid;
    }
    return -1;
}

struct Reply {
    int status = -1;
    std::string out;
    std::string err;
};

class ConcurrencyCli : public Cli {
protected:
    void SetUp() override
    {
        Cli::SetUp();
        const auto made = cli("sandbox create sb" + store(), true);
        ASSERT_EQ(made.status, 0) << made.out;
        m_workspace = path("sb");
        struct stat st {};
        ASSERT_EQ(::lstat(m_workspace.parent_path().c_str(), &st), 0);
        m_owner = st.st_uid;
    }

    // `count` runs of the same snippet in the sandbox at once; each writes a file of its own and prints it.
    std::vector<json> runTogether(int count, const std::string& level)
    {
        const std::string snippet = write("own-file.py", "import pathlib, random\n"
                                                         "name = 'from-%d' % random.randrange(10**12)\n"
                                                         "pathlib.Path(name).write_text('mine')\n"
                                                         "print(pathlib.Path(name).read_text())\n");
        std::vector<Output> outputs(static_cast<std::size_t>(count));
        std::vector<std::thread> threads;
        for (std::size_t i = 0; i < outputs.size(); ++i)
            threads.emplace_back([&, i] {
                outputs[i] = cli("run --sandbox sb --json --level " + level + " " + quoted(snippet) + store());
            });
        for (auto& t : threads)
            t.join();
        std::vector<json> results;
        for (const auto& o : outputs) {
            EXPECT_EQ(o.status, 0) << o.out;
            results.push_back(json::parse(o.out, nullptr, false));
        }
        return results;
    }

    void expectUsable(const std::string& why)
    {
        EXPECT_EQ(notOwnedBy(m_workspace, m_owner), std::vector<std::string>{}) << why;
        const std::string snippet = write("later.py", "open('later.txt', 'w').write('later')\nprint('later')\n");
        const auto later = cli("run --sandbox sb --json " + quoted(snippet) + store());
        const json r = json::parse(later.out, nullptr, false);
        ASSERT_FALSE(r.is_discarded()) << later.out;
        EXPECT_EQ(r["outcome"], "ok") << why << ": " << r.dump();
        EXPECT_EQ(r["stdout"], "later\n");
        EXPECT_EQ(notOwnedBy(m_workspace, m_owner), std::vector<std::string>{}) << why << ", after a later run";
    }

    fs::path m_workspace;
    uid_t m_owner = 0;
};

TEST_F(ConcurrencyCli, TwoRunsAtOnceInOneSandboxBothWork)
{
    for (const std::string& level : availableLevels()) {
        SCOPED_TRACE(level);
        for (const json& r : runTogether(2, level)) {
            ASSERT_FALSE(r.is_discarded());
            EXPECT_EQ(r["outcome"], "ok") << r.dump();
            EXPECT_EQ(r["stdout"], "mine\n") << r.dump();
        }
        expectUsable("two runs at the " + level + " level");
    }
}

// A run records the sandbox it worked in: history names it (null for a run in a private folder), and so does the
// run's audit entry.
TEST_F(ConcurrencyCli, ARunRecordsItsSandbox)
{
    const std::string snippet = write("hello.py", "print('hello')\n");
    const auto inSandbox = cli("run --sandbox sb --json " + quoted(snippet) + store());
    ASSERT_EQ(inSandbox.status, 0) << inSandbox.out;
    const json inside = json::parse(inSandbox.out, nullptr, false);
    ASSERT_FALSE(inside.is_discarded()) << inSandbox.out;
    const auto alone = cli("run --json " + quoted(snippet) + store());
    ASSERT_EQ(alone.status, 0) << alone.out;

    const auto history = cli("history --json" + store());
    ASSERT_EQ(history.status, 0) << history.out;
    const json runs = json::parse(history.out, nullptr, false);
    ASSERT_TRUE(runs.is_array()) << history.out;
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_TRUE(runs[0]["sandbox"].is_null()) << runs[0].dump(); // newest first
    EXPECT_EQ(runs[1]["sandbox"], "sb");
    EXPECT_EQ(runs[1]["run_id"], inside["run_id"]);
    const auto text = cli("history" + store());
    EXPECT_NE(text.out.find("  in sb\n"), std::string::npos) << text.out;

    const auto audit = cli("audit list --operation run --json" + store());
    ASSERT_EQ(audit.status, 0) << audit.out;
    const json entries = json::parse(audit.out, nullptr, false);
    ASSERT_TRUE(entries.is_array()) << audit.out;
    ASSERT_EQ(entries.size(), 2u);
    const json& first = entries[0]["subject"] == inside["run_id"] ? entries[0] : entries[1];
    ASSERT_EQ(first["subject"], inside["run_id"]) << audit.out;
    EXPECT_EQ(first["details"]["sandbox"], "sb") << first.dump();
    const json& second = &first == &entries[0] ? entries[1] : entries[0];
    EXPECT_FALSE(second["details"].contains("sandbox")) << second.dump();
}

TEST_F(ConcurrencyCli, FourRunsAtOnceInOneSandboxAllWork)
{
    auto filesWritten = [&] {
        std::size_t files = 0;
        for (const auto& e : fs::directory_iterator(m_workspace))
            files += e.path().filename().string().starts_with("from-") ? 1 : 0;
        return files;
    };
    for (const std::string& level : availableLevels()) {
        SCOPED_TRACE(level);
        const std::size_t before = filesWritten();
        for (int round = 0; round < 5; ++round) {
            for (const json& r : runTogether(4, level)) {
                ASSERT_FALSE(r.is_discarded());
                EXPECT_EQ(r["outcome"], "ok") << r.dump();
            }
        }
        EXPECT_EQ(filesWritten() - before, 20u); // every run wrote its own
        expectUsable("four runs at once at the " + level + " level");
    }
}

// The run's sandbench is killed while its snippet runs: the launcher goes on holding the sandbox's lock until
// the run has ended, and the next command that takes the lock (here `sandbox path`, as any run, checkpoint or
// restore would) gives back what the run was lent and removes its job folder.
TEST_F(ConcurrencyCli, AKilledSandbenchLeavesTheSandboxUsable)
{
    const std::string snippet =
        write("long.py", "import pathlib, time\npathlib.Path('started').write_text('1')\ntime.sleep(60)\n");
    const pid_t pid = spawnCli({"run", "--sandbox", "sb", "--json", "--store", m_store, snippet}, m_dir / "killed.out");
    ASSERT_GT(pid, 0);
    ASSERT_TRUE(waitForFile(m_workspace / "started", std::chrono::seconds(30)));
    ::kill(pid, SIGKILL);
    waitStatus(pid);
    const auto next = cli("sandbox path sb" + store(), true);
    EXPECT_EQ(next.status, 0) << next.out;
    expectUsable("after sandbench was killed mid-run");
}

// The run's launcher is killed while its snippet runs: sandbench ends the run and gives the workspace back
// itself, before it exits.
TEST_F(ConcurrencyCli, AKilledLauncherLeavesTheSandboxUsable)
{
    const std::string snippet =
        write("long.py", "import pathlib, time\npathlib.Path('started').write_text('1')\ntime.sleep(60)\n");
    const fs::path out = m_dir / "orphaned.out";
    const pid_t pid = spawnCli({"run", "--sandbox", "sb", "--json", "--store", m_store, snippet}, out);
    ASSERT_GT(pid, 0);
    ASSERT_TRUE(waitForFile(m_workspace / "started", std::chrono::seconds(30)));
    const pid_t launcher = launcherOf(pid);
    ASSERT_GT(launcher, 0) << "no launcher of " << pid;
    ::kill(launcher, SIGKILL);
    const int status = waitStatus(pid);
    EXPECT_TRUE(WIFEXITED(status)) << status;
    const json r = json::parse(readFile(out), nullptr, false);
    ASSERT_FALSE(r.is_discarded()) << readFile(out);
    EXPECT_EQ(r["outcome"], "internal_error") << r.dump();
    EXPECT_EQ(notOwnedBy(m_workspace, m_owner), std::vector<std::string>{}) << "given back by the run's sandbench";
    expectUsable("after the launcher was killed mid-run");
}

// A workspace left lent to runs' identities (what two unqueued runs left: the folder of one run's transient uid,
// a file of the other's) is taken back by a restore, also where the restore itself changes nothing (only the
// folder below holds a change), and runs work in it again.
TEST_F(ConcurrencyCli, RestoreTakesBackAWorkspaceLeftLent)
{
    if (::geteuid() != 0)
        GTEST_SKIP() << "only root's runs are lent a workspace (transient uids), and only root can make one";
    writeFile(m_workspace / "kept.txt", "kept\n");
    writeFile(m_workspace / "deeper" / "a.txt", "a\n");
    const auto made = cli("checkpoint create --sandbox sb" + store());
    ASSERT_EQ(made.status, 0) << made.out;
    const std::string id = trimmed(made.out);
    writeFile(m_workspace / "deeper" / "made-by-a-run.txt", "x\n");
    constexpr uid_t kOneRun = 1'600'000'123;
    constexpr uid_t kOtherRun = 1'600'000'456;
    for (const fs::path& p : {m_workspace, m_workspace / "deeper", m_workspace / "deeper" / "made-by-a-run.txt"})
        ASSERT_EQ(::chown(p.c_str(), kOneRun, kOneRun), 0);
    ASSERT_EQ(::chown((m_workspace / "kept.txt").c_str(), kOtherRun, kOtherRun), 0);
    fs::create_directory(m_workspace / (std::string(kJobFolderPrefix) + "left-by-a-dead-run"));

    const auto restored = cli("checkpoint restore " + id + store(), true);
    EXPECT_EQ(restored.status, 0) << restored.out;
    EXPECT_EQ(readFile(m_workspace / "kept.txt"), "kept\n");
    EXPECT_FALSE(fs::exists(m_workspace / "deeper" / "made-by-a-run.txt")); // the restore did restore
    expectUsable("after a restore");
}

// SANDBENCH_LOAD_SECONDS (default 60: the minute the issue asks for) of eight writers mixing runs in the
// sandbox, runs outside it, checkpoints, restores, sandboxes made from it and destroyed, and reads, on one
// store. Every command must succeed; every run reported must be in the history; the sandbox must be usable,
// the audit log whole and the SQLite file sound afterwards.
TEST_F(ConcurrencyCli, EightWritersForAMinute)
{
    const char* seconds = std::getenv("SANDBENCH_LOAD_SECONDS");
    const auto duration = std::chrono::seconds(seconds && *seconds ? std::atoi(seconds) : 60);
    const std::string first = trimmed(cli("checkpoint create --sandbox sb --label first" + store()).out);
    ASSERT_EQ(first.size(), 64u) << first;
    const std::string inSandbox =
        write("writer.py", "with open('log.txt', 'a') as f:\n    f.write('run\\n')\nprint('written')\n");
    const std::string outside = write("outside.py", "print(6 * 7)\n");

    std::mutex mutex;
    std::set<std::string> runIds;
    std::map<std::string, int> done;
    std::vector<std::string> failures;
    // Each command's stderr apart, so that its stdout stays JSON and a failure still says why.
    auto command = [&](const std::string& args, int writer) {
        const fs::path err = m_dir / ("writer-" + std::to_string(writer) + ".err");
        Reply reply;
        // cli() puts its own redirection after the command line: after `; exit $?` it is exit's alone.
        const Output o = cli(args + " 2>" + err.string() + "; exit $?");
        reply.status = o.status;
        reply.out = o.out;
        reply.err = readFile(err);
        return reply;
    };
    auto record = [&](const std::string& what, const Reply& o, bool isRun) {
        const std::lock_guard lock(mutex);
        ++done[what];
        const json r = isRun ? json::parse(o.out, nullptr, false) : json();
        const bool ranOk = !isRun || (r.is_object() && r["outcome"] == "ok");
        if (o.status != 0 || !ranOk) {
            const std::string outcome =
                r.is_object() ? r.value("outcome", "") + " (" + r.value("message", "") + ") " : std::string();
            failures.push_back(what + " exited " + std::to_string(o.status) + ": " + outcome + o.err.substr(0, 600));
            return;
        }
        if (!isRun)
            return;
        runIds.insert(r["run_id"].get<std::string>());
    };

    const auto deadline = Clock::now() + duration;
    std::vector<std::thread> writers;
    for (int w = 0; w < 8; ++w) {
        writers.emplace_back([&, w] {
            for (int step = w; Clock::now() < deadline; ++step) {
                const std::string mine = "w" + std::to_string(w);
                switch (step % 9) {
                case 0:
                case 1:
                    record("run --sandbox", command("run --sandbox sb --json " + quoted(inSandbox) + store(), w), true);
                    break;
                case 2:
                    record("exec --sandbox",
                           command("exec --sandbox sb --json" + store() + " -- /bin/sh -c 'echo exec >> log.txt'", w),
                           true);
                    break;
                case 3: record("run", command("run --json " + quoted(outside) + store(), w), true); break;
                case 4:
                    record("checkpoint create",
                           command("checkpoint create --sandbox sb --json --label " + mine + store(), w), false);
                    break;
                case 5:
                    record("checkpoint restore", command("checkpoint restore " + first + " --json" + store(), w),
                           false);
                    break;
                case 6: {
                    const std::string name = "from-sb-" + mine;
                    record("sandbox create --from",
                           command("sandbox create " + name + " --from sb --json" + store(), w), false);
                    record("sandbox destroy", command("sandbox destroy " + name + " --json" + store(), w), false);
                    break;
                }
                case 7:
                    record("sandbox show", command("sandbox show sb --json" + store(), w), false);
                    record("checkpoint list", command("checkpoint list --sandbox sb --json" + store(), w), false);
                    break;
                default:
                    record("sandbox path", command("sandbox path sb" + store(), w), false);
                    record("history", command("history --json --limit 5" + store(), w), false);
                    break;
                }
            }
        });
    }
    for (auto& t : writers)
        t.join();

    std::string counts;
    for (const auto& [what, n] : done)
        counts += "  " + what + ": " + std::to_string(n) + "\n";
    std::cout << "[ load     ] " << duration.count() << " s, 8 writers, " << runIds.size() << " runs recorded:\n"
              << counts;
    EXPECT_EQ(failures, std::vector<std::string>{});
    EXPECT_GE(done["run --sandbox"], 1);
    EXPECT_GE(done["checkpoint restore"], 1);

    // Every run reported is in the history.
    const auto history = cli("history --json --limit 100000" + store());
    const json listed = json::parse(history.out, nullptr, false);
    ASSERT_TRUE(listed.is_array()) << history.out.substr(0, 600);
    std::set<std::string> recorded;
    for (const auto& run : listed)
        recorded.insert(run["run_id"].get<std::string>());
    std::vector<std::string> missing;
    for (const auto& id : runIds) {
        if (!recorded.contains(id))
            missing.push_back(id);
    }
    EXPECT_EQ(missing, std::vector<std::string>{});

    expectUsable("after the load");
    const auto verified = cli("audit verify" + store(), true);
    EXPECT_EQ(verified.status, 0) << verified.out;
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open_v2(m_store.c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    std::string integrity;
    sqlite3_exec(
        db, "PRAGMA integrity_check",
        [](void* out, int, char** values, char**) {
            *static_cast<std::string*>(out) += values[0] ? values[0] : "";
            return 0;
        },
        &integrity, nullptr);
    sqlite3_close(db);
    EXPECT_EQ(integrity, "ok");
}

} // namespace
} // namespace sb::clitest
