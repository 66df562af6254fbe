#pragma once

// What the CLI tests share: running the real `sandbench` through /bin/sh and a fixture with a private folder
// and store (never the user's).

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace sb::clitest {

namespace fs = std::filesystem;

struct Output {
    int status = -1;
    std::string out;
};

// Runs a command line through /bin/sh with stdout captured.
inline Output shell(const std::string& command)
{
    Output o;
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe)
        return o;
    std::array<char, 4096> buf{};
    size_t n = 0;
    while ((n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0)
        o.out.append(buf.data(), n);
    const int rc = ::pclose(pipe);
    o.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
    return o;
}

// A program under test: as built (`built`, a path tests/cli/CMakeLists.txt compiles in), or its copy in the
// folder $SANDBENCH_TEST_BIN names: scripts/test runs some of these tests as an unprivileged user, on copies that
// user may run wherever the checkout is.
inline std::string programUnderTest(const char* built)
{
    const char* folder = std::getenv("SANDBENCH_TEST_BIN");
    if (!folder || !*folder)
        return built;
    return (fs::path(folder) / fs::path(built).filename()).string();
}

// The command the helpers below run: SANDBENCH_CLI (tests/cli/CMakeLists.txt says which program that is); a
// fixture may set another for its tests (the run helper's run the small client in every build).
inline std::string& cliProgram()
{
    static std::string program = programUnderTest(SANDBENCH_CLI);
    return program;
}

// Runs the CLI through /bin/sh with stdout captured (stderr folded in when asked).
inline Output cli(const std::string& args, bool withStderr = false, const std::string& input = "")
{
    std::string command = cliProgram() + " " + args;
    if (!input.empty())
        command = "printf '%s' '" + input + "' | " + command;
    return shell(command + (withStderr ? " 2>&1" : " 2>/dev/null"));
}

// As cli(), stopped after `seconds` (exit status 124, as timeout(1) gives): for an input that could block, so
// that a regression fails the test instead of hanging it.
inline Output cliWithin(int seconds, const std::string& args, bool withStderr = false)
{
    return shell("timeout -k 5 " + std::to_string(seconds) + " " + cliProgram() + " " + args
                 + (withStderr ? " 2>&1" : " 2>/dev/null"));
}

// One word for /bin/sh, whatever bytes it holds.
inline std::string quoted(const std::string& word)
{
    std::string out = "'";
    for (char c : word)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// Output without its trailing newlines and spaces.
inline std::string trimmed(std::string text)
{
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.pop_back();
    return text;
}

inline void writeFile(const fs::path& path, const std::string& bytes)
{
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << bytes;
}

inline std::string readFile(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// `argv` started in the background: stdin /dev/null, stdout to `out` (truncated), stderr to `err` (appended),
// and `fd3`, when there is one, as descriptor 3. -1 when it could not be started.
inline pid_t spawnProcess(std::vector<std::string> argv, const fs::path& out, const fs::path& err, int fd3 = -1)
{
    std::vector<char*> raw;
    for (auto& a : argv)
        raw.push_back(a.data());
    raw.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (fd3 >= 0)
        posix_spawn_file_actions_adddup2(&actions, fd3, 3);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, raw[0], &actions, nullptr, raw.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    return rc == 0 ? pid : -1;
}

// The CLI started in the background (stdin /dev/null, stdout to `out`, stderr dropped), for tests that kill it
// or its processes; -1 when it could not be started.
inline pid_t spawnCli(const std::vector<std::string>& args, const fs::path& out)
{
    std::vector<std::string> argv = {cliProgram()};
    argv.insert(argv.end(), args.begin(), args.end());
    return spawnProcess(std::move(argv), out, "/dev/null");
}

// Its wait status, once it has ended.
inline int waitStatus(pid_t pid)
{
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

// Runs SQL on a store below the CLI, as a person with the sqlite3 shell would.
inline void editStore(const std::string& path, const std::string& sql)
{
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* error = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
    EXPECT_EQ(rc, SQLITE_OK) << sql << ": " << (error ? error : "");
    sqlite3_free(error);
    sqlite3_close(db);
}

class Cli : public ::testing::Test {
protected:
    void SetUp() override
    {
        std::string pattern = (fs::temp_directory_path() / "sandbench-cli-XXXXXX").string();
        m_dir = ::mkdtemp(pattern.data());
        m_store = (m_dir / "store.db").string();
        // Never the user's store, even for a command that forgets --store, nor the user's audit keys.
        ::setenv("XDG_DATA_HOME", (m_dir / "xdg").c_str(), 1);
        ::setenv("XDG_CONFIG_HOME", (m_dir / "config").c_str(), 1);
        ::unsetenv("SANDBENCH_STORE");
        ::unsetenv("SANDBENCH_AUDIT_KEYS");
        // Sockets (the run helper, live control) in the test's own folder: a helper the user runs is never asked.
        ::setenv("XDG_RUNTIME_DIR", m_dir.c_str(), 1);
        ::unsetenv("SANDBENCH_HELPER");
    }
    void TearDown() override { fs::remove_all(m_dir); }

    std::string write(const std::string& name, const std::string& text)
    {
        const auto path = m_dir / name;
        std::ofstream(path, std::ios::binary) << text;
        return path.string();
    }
    std::string store() const { return " --store " + m_store; }

    // `args --json --store …`, expecting that exit status and JSON on stdout.
    nlohmann::json run(const std::string& args, int expectStatus = 0)
    {
        const auto r = cli(args + " --json" + store());
        EXPECT_EQ(r.status, expectStatus) << args << "\n" << r.out;
        auto parsed = nlohmann::json::parse(r.out, nullptr, false);
        EXPECT_FALSE(parsed.is_discarded()) << args << ": not JSON: " << r.out;
        return parsed;
    }
    // A sandbox's workspace folder, as `sandbox path` prints it.
    fs::path path(const std::string& sandbox)
    {
        const auto r = cli("sandbox path " + sandbox + store());
        EXPECT_EQ(r.status, 0) << r.out;
        return fs::path(trimmed(r.out));
    }

    fs::path m_dir;
    std::string m_store;
};

} // namespace sb::clitest
