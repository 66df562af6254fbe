#pragma once

// What the tests that kill a command's processes at random moments share: the processes below one, waiting for
// a command with a limit (one that never ends fails the test with what its processes wait for), and what a store
// holds afterwards (SQLite's integrity check, the ids of its runs and checkpoints).

#include "../isolation/proc_scan.h"
#include "cli_fixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <linux/kcmp.h>
#include <map>
#include <set>
#include <string>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace sb::clitest {

// The seed of a test's random moments and victims: $SANDBENCH_DURABILITY_SEED, which replays a run, else the clock.
inline std::uint32_t durabilitySeed()
{
    const char* given = std::getenv("SANDBENCH_DURABILITY_SEED");
    return given ? static_cast<std::uint32_t>(std::strtoul(given, nullptr, 10))
                 : static_cast<std::uint32_t>(std::chrono::steady_clock::now().time_since_epoch().count());
}

// Its parent's pid; -1 when it is gone.
inline pid_t parentOf(pid_t pid)
{
    const std::string stat = test::readWhole("/proc/" + std::to_string(pid) + "/stat");
    const auto close = stat.rfind(')');
    int ppid = -1;
    char state = 0;
    if (close == std::string::npos || std::sscanf(stat.c_str() + close + 1, " %c %d", &state, &ppid) != 2)
        return -1;
    return ppid;
}

// Whether `pid` shares its parent's memory: a task the parent cloned of itself (CLONE_VM), not a process of the
// run. kcmp says it exactly; where it cannot (no permission), the task counts as a process of the run.
inline bool sharesMemoryWith(pid_t pid, pid_t parent)
{
    return ::syscall(SYS_kcmp, parent, pid, KCMP_VM, 0, 0) == 0;
}

// Every process below `root` now that runs the run: its zygote, launchers, the sandbox's pid 1 and program. Not
// the tasks a process clones of itself in its own memory: the user-namespace probe's child, which only ends,
// posix_spawn's child before its exec, and, in a sanitizer build, LeakSanitizer's tracer at the exit of the
// command and of each launcher, whose death leaves that process spinning for it (an artefact of the sanitizer,
// which a release build does not have).
inline std::vector<pid_t> descendantsOf(pid_t root)
{
    std::map<pid_t, pid_t> parents;
    for (const pid_t pid : test::allPids())
        parents[pid] = parentOf(pid);
    std::vector<pid_t> out;
    for (const auto& [pid, parent] : parents) {
        if (parent > 1 && sharesMemoryWith(pid, parent))
            continue;
        for (pid_t up = parent; up > 1; up = parents.count(up) ? parents[up] : -1) {
            if (up == root) {
                out.push_back(pid);
                break;
            }
        }
    }
    return out;
}

// Every process below `root`, the command's own tasks too, each with its state and where it waits in the kernel:
// what a command that does not end is waiting for.
inline std::string treeBelow(pid_t root)
{
    std::map<pid_t, pid_t> parents;
    for (const pid_t pid : test::allPids())
        parents[pid] = parentOf(pid);
    std::string out;
    for (const auto& [pid, parent] : parents) {
        bool below = pid == root;
        for (pid_t up = parent; !below && up > 1; up = parents.count(up) ? parents[up] : -1)
            below = up == root;
        if (!below)
            continue;
        const std::string proc = "/proc/" + std::to_string(pid);
        std::string cmdline = test::readWhole(proc + "/cmdline");
        std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
        const std::string stat = test::readWhole(proc + "/stat");
        const auto close = stat.rfind(')');
        out += "  " + std::to_string(pid) + " (parent " + std::to_string(parent) + ") state "
               + (close == std::string::npos ? std::string("?") : stat.substr(close + 2, 1)) + " wchan "
               + test::readWhole(proc + "/wchan") + ": " + cmdline + "\n";
    }
    return out;
}

// Its wait status once it has ended; a command still running after `limit` fails the test with what it and
// the processes below it wait for (a kill must never leave a command waiting), then is killed with them.
inline int waitWithin(pid_t pid, std::chrono::seconds limit, const std::string& what)
{
    const auto deadline = std::chrono::steady_clock::now() + limit;
    int status = 0;
    for (;;) {
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid || (done < 0 && errno != EINTR))
            return status;
        if (std::chrono::steady_clock::now() > deadline)
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    ADD_FAILURE() << what << " has not ended after " << limit.count() << " s:\n" << treeBelow(pid);
    for (const pid_t below : descendantsOf(pid))
        ::kill(below, SIGKILL);
    ::kill(pid, SIGKILL);
    return waitStatus(pid);
}

// The deepest level `doctor` says this machine offers.
inline std::string deepestLevel()
{
    const nlohmann::json doctor = nlohmann::json::parse(cli("doctor --json").out, nullptr, false);
    std::string deepest = "process";
    for (const char* level : {"container", "strict"}) {
        if (!doctor.is_discarded() && doctor["levels"].value(level, false))
            deepest = level;
    }
    return deepest;
}

inline std::string sqliteCheck(const std::string& store)
{
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(store.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        const std::string why = db ? sqlite3_errmsg(db) : "cannot open";
        sqlite3_close(db);
        return why;
    }
    std::string verdict;
    sqlite3_stmt* check = nullptr;
    if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &check, nullptr) == SQLITE_OK) {
        while (sqlite3_step(check) == SQLITE_ROW)
            verdict += reinterpret_cast<const char*>(sqlite3_column_text(check, 0));
    } else {
        verdict = sqlite3_errmsg(db);
    }
    sqlite3_finalize(check);
    sqlite3_close(db);
    return verdict;
}

// Whether `pid` has ended: gone, or a zombie its parent has not reaped yet.
inline bool ended(pid_t pid)
{
    const std::string stat = test::readWhole("/proc/" + std::to_string(pid) + "/stat");
    const auto close = stat.rfind(')');
    return close == std::string::npos || stat.compare(close + 1, 3, " Z ") == 0
           || stat.compare(close + 1, 3, " X ") == 0;
}

// The first column of every row `select` gives, as text: the ids a store holds.
inline std::set<std::string> storedIds(const std::string& store, const char* select)
{
    std::set<std::string> ids;
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(store.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
        sqlite3_stmt* statement = nullptr;
        if (sqlite3_prepare_v2(db, select, -1, &statement, nullptr) == SQLITE_OK) {
            while (sqlite3_step(statement) == SQLITE_ROW)
                ids.insert(reinterpret_cast<const char*>(sqlite3_column_text(statement, 0)));
        }
        sqlite3_finalize(statement);
    }
    sqlite3_close(db);
    return ids;
}

inline std::set<std::string> storedRunIds(const std::string& store)
{
    return storedIds(store, "SELECT run_id FROM runs");
}

inline std::set<std::string> storedCheckpointIds(const std::string& store)
{
    return storedIds(store, "SELECT checkpoint_id FROM checkpoints");
}

} // namespace sb::clitest
