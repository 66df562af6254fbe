// What `exec` and `run` report stays reported: a run whose command printed it as recorded is in the store after
// a SIGKILL of any process of the command (the command itself, the launcher's zygote, a launcher, the sandbox's
// processes) at any moment, including a fresh store's first command (its schema, its audit key). Every store
// left behind opens, passes SQLite's integrity check and `audit verify`.
//
// The moments and the victims are random; the seed is printed, and SANDBENCH_DURABILITY_SEED replays one.

#include "durability.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <thread>
#include <vector>

namespace sb::clitest {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

TEST_F(Cli, AReportedRunSurvivesASigkillOfAnyOfItsProcessesAtAnyMoment)
{
    const std::uint32_t seed = durabilitySeed();
    SCOPED_TRACE("SANDBENCH_DURABILITY_SEED=" + std::to_string(seed));
    std::mt19937 random(seed);
    // The runs' folders in a work root of the test's own, to see what is left.
    const fs::path work = m_dir / "tmp";
    fs::create_directories(work);
    // A root caller's runs have identities of their own, which must reach their folders, as in /tmp.
    fs::permissions(m_dir, fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec);
    fs::permissions(work, fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec);
    const char* tmpdir = std::getenv("TMPDIR");
    const std::string callersTmpdir = tmpdir ? tmpdir : "";
    ::setenv("TMPDIR", work.c_str(), 1);
    struct Restore {
        std::string value;
        ~Restore() { value.empty() ? ::unsetenv("TMPDIR") : ::setenv("TMPDIR", value.c_str(), 1); }
    } restore{callersTmpdir};

    const std::string snippet = write("print.py", "print(1)\n");
    const std::vector<std::vector<std::string>> commands = {
        {"exec", "--level", "process", "--", "/bin/true"},
        {"exec", "--level", deepestLevel(), "--", "/bin/sh", "-c", "echo hi"},
        {"run", snippet},
    };
    const fs::path out = m_dir / "out.json";

    // How long a command takes here when nothing kills it: the kills are spread over that time and a bit more.
    auto longest = std::chrono::microseconds(0);
    // The options go before the command's own words (after `--` everything is the command's).
    auto withStore = [](std::vector<std::string> args, const std::string& store) {
        args.insert(args.begin() + 1, {"--json", "--store", store});
        return args;
    };
    for (const auto& command : commands) {
        const std::vector<std::string> args = withStore(command, m_store);
        const auto began = Clock::now();
        const pid_t pid = spawnCli(args, out);
        ASSERT_GT(pid, 0);
        const int status = waitStatus(pid);
        ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << readFile(out);
        longest = std::max(longest, std::chrono::duration_cast<std::chrono::microseconds>(Clock::now() - began));
    }
    const std::set<std::string> before = storedRunIds(m_store);
    ASSERT_EQ(before.size(), commands.size());

    // Under AddressSanitizer every command costs about 0.4 s of the sanitizer's own start and exit: half the
    // rounds there, which look for memory errors on the paths a kill takes; the other builds make every round.
#if defined(__SANITIZE_ADDRESS__)
    constexpr int kRounds = 60;
#else
    constexpr int kRounds = 120;
#endif
    constexpr int kFreshStoreEvery = 12; // a store's first command: its schema, its audit key
    std::map<std::string, std::set<std::string>> reported{{m_store, before}};
    std::string store = m_store;
    int killedCommands = 0;
    int killedBelow = 0;
    for (int round = 0; round < kRounds; ++round) {
        if (round % kFreshStoreEvery == kFreshStoreEvery - 1)
            store = (m_dir / ("fresh-" + std::to_string(round) + ".db")).string();
        const std::vector<std::string> args = withStore(commands[random() % commands.size()], store);
        const auto delay = std::chrono::microseconds(random() % (longest.count() * 13 / 10 + 1));
        const unsigned victim = random() % 3; // 0 the command, 1 a process below it, 2 none

        const pid_t pid = spawnCli(args, out);
        ASSERT_GT(pid, 0);
        std::this_thread::sleep_for(delay);
        if (victim == 0) {
            killedCommands += ::kill(pid, SIGKILL) == 0 ? 1 : 0;
        } else if (victim == 1) {
            const std::vector<pid_t> below = descendantsOf(pid);
            if (!below.empty())
                killedBelow += ::kill(below[random() % below.size()], SIGKILL) == 0 ? 1 : 0;
        }
        std::string what = "round " + std::to_string(round) + " (" + (victim == 0 ? "command killed" : victim == 1 ? "a process below killed" : "nothing killed") + " after " + std::to_string(delay.count()) + " us):";
        for (const auto& arg : args)
            what += " " + arg;
        const int status = waitWithin(pid, std::chrono::seconds(30), what);
        if (!WIFEXITED(status))
            continue; // killed: it reported nothing
        const json printed = json::parse(readFile(out), nullptr, false);
        if (printed.is_discarded() || !printed.value("recorded", false))
            continue; // it said the run is not recorded (and exited 1), or printed nothing
        reported[store].insert(printed.value("run_id", std::string()));
        // Reported, so in the store at once, for any other process.
        EXPECT_TRUE(storedRunIds(store).count(printed.value("run_id", std::string())))
            << "round " << round << ": " << printed.dump();
    }
    EXPECT_GT(killedCommands, 0);
    EXPECT_GT(killedBelow, 0);

    for (const auto& [path, ids] : reported) {
        SCOPED_TRACE(path);
        if (!fs::exists(path))
            continue; // a fresh store's first command killed before it made the file
        EXPECT_EQ(sqliteCheck(path), "ok");
        const std::set<std::string> stored = storedRunIds(path);
        for (const auto& id : ids)
            EXPECT_TRUE(stored.count(id)) << "reported run " << id << " is not in the store";
        // Usable: it opens, records the next run, and its audit log verifies with the key it was signed with.
        const auto next = cli("exec --level process --json --store " + path + " -- /bin/true");
        EXPECT_EQ(next.status, 0) << next.out;
        const auto verified = cli("audit verify --store " + path, true);
        EXPECT_EQ(verified.status, 0) << verified.out;
    }

    // A caller killed after making its run's folder and before its launcher took charge of it leaves the
    // folder; the next command removes it once it has been left alone for a minute (here: made to look so).
    // Nothing else is left: every other moment has a process that removes it (the launcher, or its zygote).
    std::vector<fs::path> left;
    for (const auto& entry : fs::directory_iterator(work))
        left.push_back(entry.path());
    for (const auto& folder : left) {
        EXPECT_TRUE(folder.filename().string().starts_with("sandbench-run-")) << folder;
        fs::last_write_time(folder, fs::file_time_type::clock::now() - std::chrono::minutes(2));
    }
    std::cout << "[          ] " << killedCommands << " commands and " << killedBelow
              << " of their processes killed; run folders left by killed callers: " << left.size() << '\n';
    const auto next = cli("exec --level process --json --store " + m_store + " -- /bin/true");
    EXPECT_EQ(next.status, 0) << next.out;
    std::vector<std::string> after;
    for (const auto& entry : fs::directory_iterator(work))
        after.push_back(entry.path().filename().string());
    EXPECT_EQ(after, std::vector<std::string>{});
}

} // namespace
} // namespace sb::clitest
