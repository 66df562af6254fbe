// The run helper (`sandbench serve`, usecases/run_helper.h): `run` and `exec` ask it first and print what they
// would have printed, the run recorded in the same store; anything that is not this user's own unconfined
// sandbench, with the same environment, is not served, and the command then runs itself; a command that goes
// away cancels its run; the helper never stands between a command and its run (a helper that is not there, or
// cannot take the run, changes nothing but the time).

#include "durability.h"
#include "usecases/run_helper.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <thread>

namespace sb::clitest {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// The small client, `sandbench` (app/client), which hands commands to the run helper.
std::string client()
{
    return programUnderTest(SANDBENCH_CLIENT);
}

// Commands go through the small client (app/client), as a person's do, in every build.
class Helper : public Cli {
protected:
    void SetUp() override
    {
        Cli::SetUp();
        cliProgram() = client();
    }

    void TearDown() override
    {
        stopHelper();
        cliProgram() = programUnderTest(SANDBENCH_CLI);
        Cli::TearDown();
    }

    fs::path socket() const { return m_dir / "sandbench" / "helper.sock"; }
    fs::path log() const { return m_dir / "serve.log"; }

    // `sandbench serve` in the background, its stderr in log(); returns once it answers.
    void startHelper(const std::string& binary = client())
    {
        m_helper = spawnProcess({binary, "serve", "--idle-exit", "0"}, "/dev/null", log());
        ASSERT_GT(m_helper, 0);
        const auto deadline = Clock::now() + std::chrono::seconds(20);
        while (readFile(log()).find("listening on") == std::string::npos) {
            ASSERT_LT(Clock::now(), deadline) << readFile(log());
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    }

    // SIGTERM, as systemd or a person stops it; its exit status.
    int stopHelper()
    {
        if (m_helper <= 0)
            return -1;
        ::kill(m_helper, SIGTERM);
        const int status = waitStatus(m_helper);
        m_helper = -1;
        return status;
    }

    // The helper's log lines that say a run was served (its own exit status in them), once there are
    // `expected` of them or 10 s have passed: the helper logs a run after it has answered the command.
    int served(int expected) const
    {
        const auto deadline = Clock::now() + std::chrono::seconds(10);
        while (served() < expected && Clock::now() < deadline)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        return served();
    }

    int served() const
    {
        const std::string text = readFile(log());
        int count = 0;
        for (std::size_t at = 0; (at = text.find("sandbox): exit status", at)) != std::string::npos; ++at)
            ++count;
        return count;
    }

    // Waits until the log holds `what` (the helper logs a connection once it has answered it).
    bool logged(const std::string& what, std::chrono::seconds within = std::chrono::seconds(10)) const
    {
        const auto deadline = Clock::now() + within;
        while (readFile(log()).find(what) == std::string::npos) {
            if (Clock::now() > deadline)
                return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return true;
    }

    // The workspace of a new sandbox "work" holding `files` files, fI holding "file I", in `dirs` folders
    // dir0, dir1, … (fI in dir(I % dirs)); empty when the sandbox could not be made.
    fs::path workspace(int files, int dirs)
    {
        if (cli("sandbox create work" + store()).status != 0)
            return {};
        const fs::path ws = path("work");
        for (int i = 0; !ws.empty() && i < files; ++i) {
            const fs::path dir = ws / ("dir" + std::to_string(i % dirs));
            fs::create_directories(dir);
            std::ofstream(dir / ("f" + std::to_string(i))) << "file " << i << '\n';
        }
        return ws;
    }

    // `exec --level process --json --store … -- COMMAND`, expecting exit status 0 and JSON on stdout.
    json exec(const std::string& command)
    {
        const auto r = cli("exec --level process --json" + store() + " -- " + command);
        EXPECT_EQ(r.status, 0) << command << "\n" << r.out;
        auto parsed = json::parse(r.out, nullptr, false);
        EXPECT_FALSE(parsed.is_discarded()) << command << ": not JSON: " << r.out;
        return parsed.is_discarded() ? json::object() : parsed;
    }

    // `sandbench serve` as systemd starts it on a socket unit: the listening socket on descriptor 3, LISTEN_PID
    // and LISTEN_FDS in its environment (sd_listen_fds(3)). Returns at once.
    void startActivated(int listener, const std::string& idleExit)
    {
        const int high = ::fcntl(listener, F_DUPFD_CLOEXEC, 10);
        ASSERT_GE(high, 10);
        m_helper = spawnProcess({"/bin/sh", "-c",
                                 "export LISTEN_PID=$$ LISTEN_FDS=1; exec \"$0\" serve --idle-exit \"$1\"",
                                 client(), idleExit},
                                "/dev/null", log(), high);
        ASSERT_GT(m_helper, 0);
        ::close(high);
    }

    // A listening socket at `path`, as systemd makes one from a socket unit.
    static int listeningSocket(const fs::path& path)
    {
        const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
        const mode_t before = ::umask(0177);
        const bool ok = fd >= 0 && ::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0
                        && ::listen(fd, 16) == 0;
        ::umask(before);
        EXPECT_TRUE(ok) << path << ": " << std::strerror(errno);
        return fd;
    }

    pid_t m_helper = -1;
};

TEST_F(Helper, RunAndExecAreServedAsTheCommandWouldMakeThemAndRecorded)
{
    startHelper();
    const std::string snippet = write("hello.py", "print('hello from a snippet')\n");

    const json viaHelper = exec("/bin/echo served");
    EXPECT_EQ(viaHelper.value("outcome", ""), "ok") << viaHelper.dump();
    EXPECT_EQ(viaHelper.value("stdout", ""), "served\n");
    EXPECT_TRUE(viaHelper.value("recorded", false));
    const json snippetRun = run("run " + snippet);
    EXPECT_EQ(snippetRun.value("stdout", ""), "hello from a snippet\n") << snippetRun.dump();
    ASSERT_TRUE(logged("python hello.py"));
    EXPECT_EQ(served(2), 2) << readFile(log());

    // What a command prints is the same through the helper as without one, field for field but the run's own.
    ::setenv("SANDBENCH_HELPER", "off", 1);
    const json direct = exec("/bin/echo served");
    ::unsetenv("SANDBENCH_HELPER");
    EXPECT_EQ(served(2), 2) << "SANDBENCH_HELPER=off asked the helper";
    for (const auto& [key, value] : direct.items()) {
        EXPECT_TRUE(viaHelper.contains(key)) << key;
        if (key == "outcome" || key == "stdout" || key == "exit_code" || key == "recorded" || key == "policy"
            || key == "policy_source" || key == "isolation" || key == "limits") {
            EXPECT_EQ(viaHelper[key], value) << key;
        }
    }
    EXPECT_EQ(viaHelper.size(), direct.size()) << viaHelper.dump() << "\n" << direct.dump();

    // In the store at once, for every other process, and in the audit log, which verifies.
    const json history = run("history --limit 10");
    std::set<std::string> ids;
    for (const auto& entry : history)
        ids.insert(entry.value("run_id", ""));
    EXPECT_TRUE(ids.count(viaHelper.value("run_id", ""))) << history.dump();
    EXPECT_TRUE(ids.count(snippetRun.value("run_id", ""))) << history.dump();
    EXPECT_EQ(cli("audit verify" + store()).status, 0);
}

TEST_F(Helper, TheRunsOutputAndExitStatusAreTheCommandsOwn)
{
    startHelper();
    const std::string program = "echo out; echo err >&2; exit 3";
    const std::string command = client() + " exec --level process" + store() + " -- /bin/sh -c "
                                + quoted(program) + " 2>" + (m_dir / "err").string();
    const auto viaHelper = shell(command);
    const std::string servedErr = readFile(m_dir / "err");
    ::setenv("SANDBENCH_HELPER", "off", 1);
    const auto direct = shell(command);
    ::unsetenv("SANDBENCH_HELPER");
    const std::string directErr = readFile(m_dir / "err");
    EXPECT_EQ(served(1), 1) << readFile(log());
    EXPECT_EQ(viaHelper.status, 10); // error: the program's own status is not 0
    EXPECT_EQ(viaHelper.status, direct.status);
    EXPECT_EQ(viaHelper.out, "out\n");
    EXPECT_EQ(viaHelper.out, direct.out);
    // stderr: the program's, then the summary line, whose run id and times are the run's own.
    const std::regex times("[0-9]+ ms|run [0-9a-f-]+|peak [0-9.]+ [KMG]?i?B");
    EXPECT_EQ(std::regex_replace(servedErr, times, "_"), std::regex_replace(directErr, times, "_"));
    EXPECT_EQ(servedErr.rfind("err\n[sandbench] error", 0), 0u) << servedErr;
}

TEST_F(Helper, WhatIsNotThisUsersOwnUnconfinedSandbenchWithTheSameEnvironmentIsNotServed)
{
    startHelper();
    // A confined process (every sandboxed run has no_new_privs): refused, and the command runs itself.
    const auto confined = shell("setpriv --no-new-privs " + client() + " exec --level process --json"
                                + store() + " -- /bin/echo confined 2>/dev/null");
    EXPECT_EQ(confined.status, 0) << confined.out;
    EXPECT_NE(confined.out.find("confined\\n"), std::string::npos) << confined.out;
    EXPECT_TRUE(logged("is confined (no_new_privs 1")) << readFile(log());

    // Another environment for the run or its record: declined, and the command runs itself.
    const fs::path otherTmp = m_dir / "other-tmp";
    fs::create_directories(otherTmp);
    const auto elsewhere = shell("TMPDIR=" + otherTmp.string() + " " + client() + " exec --level process --json"
                                 + store() + " -- /bin/echo elsewhere 2>/dev/null");
    EXPECT_EQ(elsewhere.status, 0) << elsewhere.out;
    EXPECT_TRUE(logged("differs from the helper's: $TMPDIR")) << readFile(log());

    // Another program on the socket (this test, speaking the helper's wire): refused before it may ask.
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    ASSERT_GE(fd, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, socket().c_str(), sizeof address.sun_path - 1);
    ASSERT_EQ(::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address), 0) << std::strerror(errno);
    std::string answer;
    char buffer[4096];
    for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;)
        answer.append(buffer, static_cast<std::size_t>(n));
    ::close(fd);
    ASSERT_GE(answer.size(), 5u);
    EXPECT_EQ(answer[4], 'D') << answer;
    EXPECT_NE(answer.find("does not run this executable"), std::string::npos) << answer;

    // Another build of sandbench (its small client, its command line and launcher): neither side takes the
    // other, through the small client or the command line's own program.
    const fs::path copy = m_dir / "copy";
    fs::create_directories(copy);
    for (const char* program : {"sandbench", "sandbench-cli", "sandbench-launcher"})
        fs::copy_file(fs::path(client()).parent_path() / program, copy / program);
    for (const char* program : {"sandbench", "sandbench-cli"}) {
        const auto other = shell((copy / program).string() + " exec --level process --json" + store()
                                 + " -- /bin/echo another-build 2>/dev/null");
        EXPECT_EQ(other.status, 0) << program << "\n" << other.out;
        EXPECT_NE(other.out.find("another-build"), std::string::npos) << program << "\n" << other.out;
    }

    EXPECT_EQ(served(), 0) << readFile(log());
    // Every one of those runs is in the store.
    EXPECT_EQ(run("history --limit 10").size(), 4u);
}

// Without --policy the helper settles the run's policy from what the command asked (its level, limits and the
// deepest level it probed); with one, the command settles it in its own folder. Either way the run's policy is the
// one the command would have used: the same stored version, level and layers as a run made without the helper.
TEST_F(Helper, ThePolicyIsTheOneTheCommandWouldSettle)
{
    startHelper();
    const fs::path folder = m_dir / "here";
    fs::create_directories(folder);
    write("here/tight.yaml", "name: tight\nlimits: {wall_ms: 3000, memory_mb: 128, output_bytes: 4096}\n");
    const std::vector<std::string> asks = {"", "--level process", "--level container", "--timeout-ms 1234 --memory-mb 99",
                                           "--policy tight.yaml", "--policy tight.yaml --timeout-ms 2000",
                                           "--policy untrusted-strict"};
    int meantForHelper = 0;
    for (const auto& ask : asks) {
        const std::string command = "cd " + quoted(folder.string()) + " && " + client() + " exec --json " + ask
                                    + store() + " -- /bin/echo settled 2>/dev/null";
        const auto viaHelper = shell(command);
        ++meantForHelper;
        ::setenv("SANDBENCH_HELPER", "off", 1);
        const auto direct = shell(command);
        ::unsetenv("SANDBENCH_HELPER");
        EXPECT_EQ(served(meantForHelper), meantForHelper) << ask << "\n" << readFile(log());
        EXPECT_EQ(viaHelper.status, direct.status) << ask << "\n" << viaHelper.out << direct.out;
        const json a = json::parse(viaHelper.out, nullptr, false);
        const json b = json::parse(direct.out, nullptr, false);
        ASSERT_TRUE(a.is_object() && b.is_object()) << ask << "\n" << viaHelper.out << direct.out;
        for (const char* key : {"policy", "policy_version", "policy_source", "isolation", "stdout"})
            EXPECT_EQ(a.value(key, json()), b.value(key, json())) << ask << ": " << key;
    }
    // Every run recorded: one through the helper and one without it for each ask.
    EXPECT_EQ(run("history --limit 20").size(), 2 * asks.size());
}

// A command in another user namespace sees other ids and may see other layers: it is not served.
TEST_F(Helper, ACommandInAnotherUserNamespaceIsNotServed)
{
    if (shell("unshare --user --map-root-user /bin/true 2>&1").status != 0)
        GTEST_SKIP() << "this user may not make a user namespace (unshare --user)";
    startHelper();
    const auto r = shell("unshare --user --map-root-user " + client() + " exec --level process --json"
                         + store() + " -- /bin/echo elsewhere 2>/dev/null");
    EXPECT_TRUE(logged("is in another user namespace")) << readFile(log());
    EXPECT_EQ(served(), 0) << readFile(log());
    // The command made the run itself (how it ends there is the namespace's business: a root mapped alone has no
    // transient identity to lend the work dir to), and recorded it.
    const json ran = json::parse(r.out, nullptr, false);
    ASSERT_TRUE(ran.is_object()) << r.out;
    EXPECT_TRUE(ran.value("recorded", false)) << r.out;
    EXPECT_EQ(run("history").size(), 1u);
}

// Many commands at once: each is served or runs itself, and every run is recorded once.
TEST_F(Helper, ManyCommandsAtOnceAreEachRunOnce)
{
    startHelper();
    std::vector<pid_t> commands;
    for (int i = 0; i < 24; ++i)
        commands.push_back(spawnCli({"exec", "--level", "process", "--store", m_store, "--", "/bin/echo",
                                     "at-once-" + std::to_string(i)},
                                    m_dir / ("out-" + std::to_string(i))));
    for (std::size_t i = 0; i < commands.size(); ++i) {
        ASSERT_GT(commands[i], 0);
        EXPECT_EQ(waitStatus(commands[i]), 0) << i;
        EXPECT_EQ(readFile(m_dir / ("out-" + std::to_string(i))).rfind("at-once-" + std::to_string(i) + "\n", 0), 0u);
    }
    const json history = run("history --limit 100");
    EXPECT_EQ(history.size(), commands.size()) << history.dump();
    std::set<std::string> ids;
    for (const auto& entry : history)
        ids.insert(entry.value("run_id", ""));
    EXPECT_EQ(ids.size(), commands.size());
    EXPECT_GT(served(), 0) << readFile(log());
    EXPECT_EQ(cli("audit verify" + store()).status, 0);
}

TEST_F(Helper, ACommandThatGoesAwayCancelsItsRunAndTheHelperGoesOn)
{
    startHelper();
    const std::string marker = "helper-cancel-" + m_dir.filename().string();
    const pid_t command = spawnCli({"exec", "--level", "process", "--timeout-ms", "60000", "--store", m_store, "--",
                                    "/bin/sh", "-c", "sleep 50; echo " + marker},
                                   m_dir / "out");
    ASSERT_GT(command, 0);
    // Under way: the program runs.
    const auto deadline = Clock::now() + std::chrono::seconds(20);
    while (test::processesWithMarker(marker).size() < 2) { // the command and the program's shell
        ASSERT_LT(Clock::now(), deadline);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ::kill(command, SIGKILL);
    waitStatus(command);
    ASSERT_TRUE(logged("cancelled: the command went away", std::chrono::seconds(20))) << readFile(log());
    EXPECT_EQ(test::processesWithMarker(marker), std::vector<pid_t>{});
    // It serves the next command.
    EXPECT_EQ(exec("/bin/echo next").value("stdout", ""), "next\n");
    EXPECT_EQ(served(2), 2) << readFile(log());
}

// What a command printed as recorded stays recorded when the helper served it: a SIGKILL of the helper, of a
// process below it (its pooled zygotes and launchers, a run's sandbox and program) or of the command, at any
// moment of an exec, a run or a checkpoint, leaves every run and checkpoint a command reported in the store, the
// store whole and its audit log verified, no command waiting and nothing of a killed helper running. A command
// whose helper died under it says so and exits 1: it never runs the command a second time itself.
//
// The moments and the victims are random; the seed is printed, and SANDBENCH_DURABILITY_SEED replays one.
TEST_F(Helper, WhatACommandReportedSurvivesASigkillOfTheHelperOrAnyProcessAtAnyMoment)
{
    const std::uint32_t seed = durabilitySeed();
    SCOPED_TRACE("SANDBENCH_DURABILITY_SEED=" + std::to_string(seed));
    std::mt19937 random(seed);

    const fs::path ws = workspace(20, 4);
    ASSERT_FALSE(ws.empty());
    const std::string snippet = write("print.py", "print(1)\n");
    const std::vector<std::vector<std::string>> commands = {
        {"exec", "--level", "process", "--", "/bin/true"},
        {"exec", "--level", deepestLevel(), "--", "/bin/sh", "-c", "echo hi"},
        {"run", snippet},
        {"checkpoint", "create", "--sandbox", "work"},
    };
    // The options go before `--` where there is one (after it everything is the command's).
    auto withStore = [&](std::vector<std::string> args) {
        const auto at = std::find(args.begin(), args.end(), "--");
        args.insert(at, {"--json", "--store", m_store});
        return args;
    };
    const fs::path out = m_dir / "out.json";
    int helpers = 0;
    auto restartHelper = [&] {
        // Each helper logs to a file of its own: startHelper() waits for its "listening on".
        fs::rename(log(), m_dir / ("serve-" + std::to_string(++helpers) + ".log"));
        startHelper();
    };
    startHelper();

    // How long each takes through the helper when nothing kills it: the kills are spread over that and a bit more.
    auto longest = std::chrono::microseconds(0);
    for (const auto& command : commands) {
        const auto began = Clock::now();
        const pid_t pid = spawnCli(withStore(command), out);
        ASSERT_GT(pid, 0);
        const int status = waitStatus(pid);
        ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << readFile(out);
        longest = std::max(longest, std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - began));
    }
    ASSERT_TRUE(logged("as typed: checkpoint create: exit status 0")) << readFile(log());
    std::set<std::string> reportedRuns = storedRunIds(m_store);
    std::set<std::string> reportedCheckpoints = storedCheckpointIds(m_store);
    ASSERT_EQ(reportedRuns.size(), 3u);

#if defined(__SANITIZE_ADDRESS__)
    constexpr int kRounds = 40;
#else
    constexpr int kRounds = 80;
#endif
    int killedCommands = 0;
    int killedHelpers = 0;
    int killedBelow = 0;
    int helperDiedUnder = 0;
    for (int round = 0; round < kRounds; ++round) {
        // Something for a checkpoint to record.
        std::ofstream(ws / ("dir" + std::to_string(round % 4)) / "changed") << "round " << round << '\n';
        const std::vector<std::string> args = withStore(commands[random() % commands.size()]);
        const auto delay = std::chrono::microseconds(random() % (longest.count() * 13 / 10 + 1));
        const unsigned victim = random() % 4; // 0 the command, 1 the helper, 2 a process below it, 3 none

        const pid_t pid = spawnCli(args, out);
        ASSERT_GT(pid, 0);
        std::this_thread::sleep_for(delay);
        std::vector<pid_t> orphans; // what ran below a killed helper
        if (victim == 0) {
            killedCommands += ::kill(pid, SIGKILL) == 0 ? 1 : 0;
        } else if (victim == 1) {
            orphans = descendantsOf(m_helper);
            killedHelpers += ::kill(m_helper, SIGKILL) == 0 ? 1 : 0;
        } else if (victim == 2) {
            const std::vector<pid_t> below = descendantsOf(m_helper);
            if (!below.empty())
                killedBelow += ::kill(below[random() % below.size()], SIGKILL) == 0 ? 1 : 0;
        }
        const char* victims[] = {"command killed", "helper killed", "a process below the helper killed",
                                 "nothing killed"};
        std::string what = "round " + std::to_string(round) + " (" + victims[victim] + " after "
                           + std::to_string(delay.count()) + " us):";
        for (const auto& arg : args)
            what += " " + arg;
        SCOPED_TRACE(what);
        const int status = waitWithin(pid, std::chrono::seconds(30), what);
        if (victim == 1) {
            waitStatus(m_helper);
            m_helper = -1;
            // Nothing it started goes on without it.
            const auto deadline = Clock::now() + std::chrono::seconds(10);
            while (!std::all_of(orphans.begin(), orphans.end(), ended) && Clock::now() < deadline)
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            for (const pid_t orphan : orphans)
                EXPECT_TRUE(ended(orphan)) << "process " << orphan << " of the killed helper still runs: "
                                           << test::readWhole("/proc/" + std::to_string(orphan) + "/cmdline");
            restartHelper();
        }
        if (!WIFEXITED(status))
            continue; // the command was killed: it reported nothing
        const std::string printed = readFile(out);
        if (WEXITSTATUS(status) != 0) {
            helperDiedUnder += victim == 1 && printed.empty() ? 1 : 0;
            continue; // it said what was not done (a run not recorded, a helper that died under it)
        }
        const json reply = json::parse(printed, nullptr, false);
        ASSERT_FALSE(reply.is_discarded()) << "exit status 0 without its JSON: " << printed;
        if (args[0] == "checkpoint") {
            const std::string id = reply.value("id", std::string());
            reportedCheckpoints.insert(id);
            // Reported, so in the store at once, for any other process.
            EXPECT_TRUE(storedCheckpointIds(m_store).count(id)) << reply.dump();
        } else {
            EXPECT_TRUE(reply.value("recorded", false)) << reply.dump();
            const std::string id = reply.value("run_id", std::string());
            reportedRuns.insert(id);
            EXPECT_TRUE(storedRunIds(m_store).count(id)) << reply.dump();
        }
    }
    EXPECT_GT(killedCommands, 0);
    EXPECT_GT(killedHelpers, 0);
    EXPECT_GT(killedBelow, 0);

    EXPECT_EQ(sqliteCheck(m_store), "ok");
    const std::set<std::string> runs = storedRunIds(m_store);
    for (const auto& id : reportedRuns)
        EXPECT_TRUE(runs.count(id)) << "reported run " << id << " is not in the store";
    const std::set<std::string> checkpoints = storedCheckpointIds(m_store);
    for (const auto& id : reportedCheckpoints)
        EXPECT_TRUE(checkpoints.count(id)) << "reported checkpoint " << id << " is not in the store";
    const auto verified = cli("audit verify" + store(), true);
    EXPECT_EQ(verified.status, 0) << verified.out;
    // The helper of the last round serves the next command, and the workspace's next checkpoint holds it whole.
    EXPECT_EQ(exec("/bin/echo next").value("stdout", ""), "next\n");
    EXPECT_TRUE(logged("sandbox): exit status 0")) << readFile(log());
    ::setenv("SANDBENCH_HELPER", "off", 1);
    const json last = run("checkpoint create --sandbox work");
    ::unsetenv("SANDBENCH_HELPER");
    EXPECT_EQ(last.value("files", 0), 24) << last.dump();
    std::cout << "[          ] " << killedCommands << " commands, " << killedHelpers << " helpers ("
              << helperDiedUnder << " under a command they had taken) and " << killedBelow
              << " processes below a helper killed\n";
}

TEST_F(Helper, AStoreRemovedOrReplacedIsOpenedAnew)
{
    startHelper();
    EXPECT_EQ(exec("/bin/true").value("outcome", ""), "ok");
    for (const char* suffix : {"", "-wal", "-shm"})
        fs::remove(m_store + suffix);
    const json again = exec("/bin/true");
    EXPECT_TRUE(again.value("recorded", false)) << again.dump();
    const json history = run("history");
    ASSERT_EQ(history.size(), 1u) << history.dump();
    EXPECT_EQ(history[0].value("run_id", ""), again.value("run_id", ""));
    EXPECT_EQ(served(2), 2) << readFile(log());
}

TEST_F(Helper, ARelativeStorePathIsInTheCommandsFolder)
{
    startHelper();
    const auto r = shell("cd " + quoted(m_dir.string()) + " && " + client()
                         + " exec --level process --json --store relative.db -- /bin/true 2>/dev/null");
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_TRUE(fs::exists(m_dir / "relative.db"));
    EXPECT_EQ(served(1), 1) << readFile(log());
}

// run and exec go to the helper as they were typed: it parses them with the command's own definitions, in the
// command's working folder, and serves what that makes. What it does not serve, the command does as without a
// helper, saying what it would say.
TEST_F(Helper, ACommandLineIsParsedInTheCommandsFolderAndServedAsTyped)
{
    startHelper();
    const fs::path folder = m_dir / "typed";
    fs::create_directories(folder / "sub");
    write("typed/sub/hello.py", "print('typed here')\n");
    const std::string in = "cd " + quoted(folder.string()) + " && ";
    const std::string cliHere = in + client();

    // A relative snippet and store: the command's folder's, not the helper's.
    const auto typed = shell(cliHere + " run --json --store rel.db sub/hello.py 2>/dev/null");
    EXPECT_EQ(typed.status, 0) << typed.out;
    EXPECT_NE(typed.out.find("typed here"), std::string::npos) << typed.out;
    EXPECT_TRUE(fs::exists(folder / "rel.db"));
    EXPECT_TRUE(logged("as typed: python hello.py")) << readFile(log());
    EXPECT_EQ(served(1), 1) << readFile(log());

    // What the command itself reports, in its own words and exit status, with or without the helper.
    const std::vector<std::pair<std::string, int>> ownReports = {
        {" exec --level nowhere --store rel.db -- /bin/true", 2},   // a usage error
        {" exec --help", 0},                                        // help
        {" run --store rel.db nowhere.py", 1},                      // a snippet that cannot be read
        {" run --store rel.db --policy missing.yaml sub/hello.py", 1}, // a policy that cannot be read
    };
    for (const auto& [args, status] : ownReports) {
        const auto viaHelper = shell(cliHere + args + " 2>&1");
        ::setenv("SANDBENCH_HELPER", "off", 1);
        const auto direct = shell(cliHere + args + " 2>&1");
        ::unsetenv("SANDBENCH_HELPER");
        EXPECT_EQ(viaHelper.status, status) << args << "\n" << viaHelper.out;
        EXPECT_EQ(viaHelper.status, direct.status) << args;
        EXPECT_EQ(viaHelper.out, direct.out) << args;
    }
    EXPECT_TRUE(logged("declined: a command line the command parses itself")) << readFile(log());
    EXPECT_TRUE(logged("declined: nowhere.py")) << readFile(log());

    // A store the command's environment names and the helper's does not: the command line is declined, and the
    // command asks with the run and the store it settled itself, as it does for what it parses first.
    const auto elsewhere = shell(in + "SANDBENCH_STORE=" + quoted((folder / "env.db").string()) + " " + client()
                                 + " exec --level process --json -- /bin/echo env 2>/dev/null");
    EXPECT_EQ(elsewhere.status, 0) << elsewhere.out;
    EXPECT_TRUE(fs::exists(folder / "env.db"));
    EXPECT_TRUE(logged("differs from the helper's: $SANDBENCH_STORE")) << readFile(log());
    EXPECT_TRUE(logged(": command /bin/echo env (")) << readFile(log());

    // Files that are each process's own (a shell's <(...), /dev/stdin, /proc/self/...) or not regular: the
    // command reads them itself.
    // A file of the helper's own, open on the descriptor the command names, must not be what runs.
    write("typed/decoy.py", "print('the decoy')\n");
    const auto substituted = shell("/bin/bash -c " + quoted(client() + " run --level process"
                                                             + store() + " <(echo 'print(42)') 2>&1"));
    EXPECT_NE(substituted.out.find("not a regular file but a FIFO"), std::string::npos) << substituted.out;
    for (const std::string name : {"/dev/stdin", "/proc/self/fd/0"}) {
        const auto viaMagic = shell(client() + " run --level process" + store() + " " + name
                                    + " < " + quoted((folder / "sub/hello.py").string()) + " 2>/dev/null");
        EXPECT_EQ(viaMagic.out, "typed here\n") << name << "\n" << readFile(log());
    }
    fs::create_symlink("/proc/self/cmdline", folder / "self.py");
    const auto viaProc = shell(cliHere + " run --level process --store rel.db self.py 2>/dev/null");
    EXPECT_EQ(readFile(log()).find("as typed: python self.py"), std::string::npos) << readFile(log());
    EXPECT_TRUE(logged("self.py: not a regular file outside /proc")) << readFile(log());
    EXPECT_EQ(readFile(log()).find("the decoy"), std::string::npos);

    // A run in a sandbox's workspace and a snippet on standard input are never sent as typed.
    const auto fromStdin = shell("echo 'print(7)' | " + client() + " run --level process"
                                 + store() + " - 2>/dev/null");
    EXPECT_EQ(fromStdin.out, "7\n");
    EXPECT_EQ(readFile(log()).find("as typed: python stdin"), std::string::npos) << readFile(log());

    // The first run as typed; then, asked as the command settled them, the other store's and the snippets the
    // command read itself (/dev/stdin, /proc/self/fd/0, standard input).
    EXPECT_EQ(served(), 5) << readFile(log());
    // No thread of the helper is left in the command's folder.
    for (const auto& task : fs::directory_iterator("/proc/" + std::to_string(m_helper) + "/task")) {
        std::error_code error;
        const fs::path cwd = fs::read_symlink(task.path() / "cwd", error);
        EXPECT_EQ(cwd.string().rfind(folder.string(), 0), std::string::npos) << task.path() << ": " << cwd;
    }
}

// checkpoint create and restore are served as typed, by the store's engine the helper keeps, whose watch of the
// workspace guides every save after the first; what they print and record is what the command would have.
TEST_F(Helper, CheckpointCreateAndRestoreAreServedAsTypedAndRecordTheWorkspace)
{
    startHelper();
    const fs::path ws = workspace(30, 5);
    ASSERT_FALSE(ws.empty());
    const json first = run("checkpoint create --sandbox work");
    EXPECT_TRUE(logged("as typed: checkpoint create: exit status 0")) << readFile(log());
    EXPECT_FALSE(first.value("watched", true)); // the watch started with this one
    EXPECT_EQ(first.value("files", 0), 30);

    std::ofstream(ws / "dir3" / "f8", std::ios::app) << "changed\n";
    const json second = run("checkpoint create --sandbox work");
    EXPECT_TRUE(second.value("watched", false)) << second.dump();
    EXPECT_EQ(second["changes"], json({{"added", 0}, {"removed", 0}, {"modified", 1}})) << second.dump();

    // The plain output and an error, byte for byte the command's own.
    for (const std::string args : {"checkpoint create --sandbox nowhere", "checkpoint restore 0000"}) {
        const auto viaHelper = cli(args + store(), true);
        ::setenv("SANDBENCH_HELPER", "off", 1);
        const auto direct = cli(args + store(), true);
        ::unsetenv("SANDBENCH_HELPER");
        EXPECT_EQ(viaHelper.status, 1) << args << "\n" << viaHelper.out;
        EXPECT_EQ(viaHelper.out, direct.out) << args;
    }
    EXPECT_TRUE(logged("as typed: checkpoint restore: exit status 1")) << readFile(log());

    // A restore through the helper, then a change after it: each recorded as the workspace holds it.
    const auto restored = cli("checkpoint restore " + first.value("id", std::string()) + store(), true);
    EXPECT_EQ(restored.status, 0) << restored.out;
    EXPECT_NE(restored.out.find("(0 added, 0 removed, 1 modified)"), std::string::npos) << restored.out;
    EXPECT_EQ(readFile(ws / "dir3" / "f8"), "file 8\n");
    std::ofstream(ws / "dir1" / "f6") << "after the restore\n";
    const json third = run("checkpoint create --sandbox work");
    EXPECT_TRUE(third.value("watched", false)) << third.dump();
    EXPECT_EQ(third["changes"], json({{"added", 0}, {"removed", 0}, {"modified", 1}})) << third.dump();

    // Another process's checkpoint writes to the store: the helper's next one walks everything.
    std::ofstream(ws / "dir0" / "f0") << "by the command itself\n";
    ::setenv("SANDBENCH_HELPER", "off", 1);
    const json direct = run("checkpoint create --sandbox work");
    ::unsetenv("SANDBENCH_HELPER");
    EXPECT_FALSE(direct.value("watched", true));
    std::ofstream(ws / "dir0" / "f5") << "then through the helper\n";
    const json fourth = run("checkpoint create --sandbox work");
    EXPECT_FALSE(fourth.value("watched", true)) << fourth.dump();
    EXPECT_EQ(fourth["changes"], json({{"added", 0}, {"removed", 0}, {"modified", 1}})) << fourth.dump();
    const auto diff = cli("checkpoint diff " + fourth.value("id", std::string()) + " --name-only" + store());
    EXPECT_EQ(diff.status, 0) << diff.out;
    EXPECT_EQ(diff.out.find("dir"), std::string::npos) << diff.out; // the live workspace is the checkpoint
}

TEST_F(Helper, ItListensOnlyInAPrivateFolderAndOnlyOnce)
{
    startHelper();
    const auto second = cli("serve --idle-exit 1", true);
    EXPECT_EQ(second.status, 1) << second.out;
    EXPECT_NE(second.out.find("a helper already answers on " + socket().string()), std::string::npos) << second.out;
    EXPECT_EQ(stopHelper(), 0);
    EXPECT_FALSE(fs::exists(socket())) << "the socket stays after the helper ended";
    EXPECT_TRUE(logged("ended (stopped)"));

    // A folder others may enter: no helper listens there, and no command asks one there.
    ::chmod((m_dir / "sandbench").c_str(), 0755);
    const auto open = cli("serve --idle-exit 1", true);
    EXPECT_EQ(open.status, 1) << open.out;
    EXPECT_NE(open.out.find("is not this user's own private folder"), std::string::npos) << open.out;
    EXPECT_EQ(exec("/bin/echo alone").value("stdout", ""), "alone\n");
}

// Socket activation (packaging/systemd/sandbench.socket): systemd listens on the socket, a command connects,
// and systemd starts the helper with the socket; this test plays systemd. The command waits for the helper's hello
// and is served; the helper ends when idle and leaves the socket to systemd, which starts it again for the next.
TEST_F(Helper, ASocketActivatedHelperServesTheCommandThatStartedIt)
{
    fs::create_directories(m_dir / "sandbench");
    ::chmod((m_dir / "sandbench").c_str(), 0700);
    const int listener = listeningSocket(socket());
    ASSERT_GE(listener, 0);

    const pid_t command = spawnCli({"exec", "--level", "process", "--json", "--store", m_store, "--", "/bin/echo",
                                    "activated"},
                                   m_dir / "out");
    ASSERT_GT(command, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(100)); // connected, and no helper yet
    startActivated(listener, "1");
    EXPECT_EQ(waitStatus(command), 0);
    EXPECT_NE(readFile(m_dir / "out").find("activated\\n"), std::string::npos) << readFile(m_dir / "out");
    EXPECT_TRUE(logged("listening on " + socket().string() + " (socket activation, pid")) << readFile(log());
    EXPECT_EQ(served(1), 1) << readFile(log());

    // Idle for a second: it ends, and the socket stays systemd's.
    EXPECT_EQ(waitStatus(m_helper), 0) << readFile(log());
    m_helper = -1;
    EXPECT_TRUE(logged("ended (idle for 1 s)")) << readFile(log());
    EXPECT_TRUE(fs::exists(socket()));

    // The next command, started again.
    const pid_t next = spawnCli({"exec", "--level", "process", "--store", m_store, "--", "/bin/echo", "again"},
                                m_dir / "next");
    ASSERT_GT(next, 0);
    startActivated(listener, "0");
    EXPECT_EQ(waitStatus(next), 0);
    EXPECT_EQ(readFile(m_dir / "next"), "again\n");
    EXPECT_EQ(served(2), 2) << readFile(log());
    EXPECT_EQ(stopHelper(), 0);
    ::close(listener);
    EXPECT_EQ(run("history").size(), 2u);
}

// A socket passed that is not the user's helper socket: the helper does not start, and says which it was given.
TEST_F(Helper, ASocketActivatedHelperRefusesASocketElsewhere)
{
    fs::create_directories(m_dir / "sandbench");
    ::chmod((m_dir / "sandbench").c_str(), 0700);
    const fs::path elsewhere = m_dir / "elsewhere.sock";
    const int listener = listeningSocket(elsewhere);
    ASSERT_GE(listener, 0);
    startActivated(listener, "0");
    const int status = waitStatus(m_helper);
    m_helper = -1;
    ::close(listener);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << status;
    EXPECT_NE(readFile(log()).find("socket activation passed is " + elsewhere.string() + ", not " + socket().string()),
              std::string::npos)
        << readFile(log());
    // Commands run themselves.
    EXPECT_EQ(exec("/bin/echo alone").value("stdout", ""), "alone\n");
}

TEST_F(Helper, ItEndsWhenIdle)
{
    const auto began = Clock::now();
    const auto idle = cli("serve --idle-exit 1", true);
    EXPECT_EQ(idle.status, 0) << idle.out;
    EXPECT_NE(idle.out.find("ended (idle for 1 s)"), std::string::npos) << idle.out;
    EXPECT_LT(Clock::now() - began, std::chrono::seconds(30));
}

// Every environment variable core and the command line read is in the helper's context (usecases/run_helper.h),
// or says why it does not bear on a run the helper serves: a variable read by the helper instead of the command
// would silently change a run or its record.
TEST(HelperContext, EveryVariableTheCodeReadsIsInTheContextOrDoesNotBearOnARun)
{
    const std::map<std::string, std::string> notForARun = {
        {"SANDBENCH_STORE", "the command locates the store and sends where it is; a command line is served only "
                            "when the command's value is the helper's (kCommandLineVariables)"},
        {"XDG_DATA_HOME", "the same as SANDBENCH_STORE"},
        {"XDG_RUNTIME_DIR", "where the helper's socket is: a command finds only the helper that shares it"},
        {"SANDBENCH_CONFIG", "the cluster's configuration, which run and exec do not read"},
        {"SLURM_ARRAY_TASK_ID", "a cluster task's index, which run and exec do not read"},
        {"SANDBENCH_HELPER", "whether the command asks a helper at all"},
        {"LISTEN_PID", "socket activation: which socket the helper serves, read and unset before it serves"},
        {"LISTEN_FDS", "socket activation: which socket the helper serves, read and unset before it serves"},
    };
    // Reads whose name is not written at the call: the file, and what it reads.
    const std::map<std::string, std::string> indirect = {
        {"core/store/audit_key.cpp", "kAuditKeysEnv: SANDBENCH_AUDIT_KEYS, in the context"},
        {"core/isolation/runner.cpp", "the policy's env_pass names: a policy with env_pass is not asked"},
        {"core/usecases/helper_client.cpp", "the context's own variables and the command line's"},
    };
    std::set<std::string> contextNames;
    for (const auto name : helper::kContextVariables)
        contextNames.insert(std::string(name));
    // What a command line's parsing reads (where the store is) is compared before the helper parses one.
    for (const auto name : helper::kCommandLineVariables)
        EXPECT_TRUE(notForARun.count(std::string(name))) << name;
    for (const char* name : {"SANDBENCH_STORE", "XDG_DATA_HOME"}) {
        EXPECT_NE(std::find(helper::kCommandLineVariables.begin(), helper::kCommandLineVariables.end(), name),
                  helper::kCommandLineVariables.end())
            << name << " decides where the store is: a command line is served only when it is the helper's";
    }

    const fs::path root = SANDBENCH_SOURCE_DIR;
    const std::regex literal(R"re(getenv\(\s*"([A-Za-z_0-9]+)"\s*\))re");
    const std::regex anyCall(R"re(\bgetenv\s*\()re");
    int files = 0;
    for (const char* top : {"core", "app"}) {
        for (const auto& entry : fs::recursive_directory_iterator(root / top)) {
            const auto ext = entry.path().extension();
            if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h"))
                continue;
            ++files;
            const std::string text = readFile(entry.path());
            const std::string relative = fs::relative(entry.path(), root).string();
            const auto calls = std::distance(std::sregex_iterator(text.begin(), text.end(), anyCall), std::sregex_iterator());
            long literals = 0;
            for (auto it = std::sregex_iterator(text.begin(), text.end(), literal); it != std::sregex_iterator(); ++it) {
                ++literals;
                const std::string name = (*it)[1];
                EXPECT_TRUE(contextNames.count(name) || notForARun.count(name))
                    << relative << " reads $" << name
                    << ": add it to helper::kContextVariables, or here with why it does not bear on a run";
            }
            if (calls > literals) {
                EXPECT_TRUE(indirect.count(relative))
                    << relative << " reads a variable whose name is not written at the call: say here what it reads";
            }
        }
    }
    EXPECT_GT(files, 100) << "the source tree was not found at " << root;
}

} // namespace
} // namespace sb::clitest
