// A store on a file system that fills up: every command that writes the store fails (exit status 1) and says
// which file system is full, and how much is free; nothing already stored is lost, and once space is freed
// the store works on, intact.
//
// The file system is a small tmpfs mounted in a mount namespace of a child process, so the test needs no
// privileges: as root a private mount namespace, otherwise a user namespace of one's own uid as well (where
// tmpfs may be mounted). A machine where neither can be made fails the test, saying so: it is never skipped.

#include "cli_fixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <sched.h>
#include <sqlite3.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

using sb::clitest::Cli;
using sb::clitest::quoted;
using sb::clitest::readFile;
using sb::clitest::writeFile;

namespace {

// Writes `text` to an already opened /proc file of this process; false on any failure.
bool writeProcFile(const char* path, const std::string& text)
{
    const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    return ok;
}

// In the child: a mount namespace of its own (and, without root, a user namespace mapping only its own ids),
// then a tmpfs of `bytes` at `mountPoint`. Returns what failed, or an empty string.
std::string enterNamespaceWithTmpfs(const fs::path& mountPoint, std::size_t bytes)
{
    const uid_t uid = ::geteuid();
    const gid_t gid = ::getegid();
    if (uid == 0) {
        if (::unshare(CLONE_NEWNS) != 0)
            return std::string("unshare(CLONE_NEWNS): ") + std::strerror(errno);
    } else {
        if (::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0)
            return std::string("unshare(CLONE_NEWUSER | CLONE_NEWNS): ") + std::strerror(errno);
        if (!writeProcFile("/proc/self/setgroups", "deny")
            || !writeProcFile("/proc/self/uid_map", std::to_string(uid) + " " + std::to_string(uid) + " 1")
            || !writeProcFile("/proc/self/gid_map", std::to_string(gid) + " " + std::to_string(gid) + " 1"))
            return std::string("cannot write the user namespace's id maps: ") + std::strerror(errno);
    }
    if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
        return std::string("cannot make the mounts private: ") + std::strerror(errno);
    const std::string options = "size=" + std::to_string(bytes) + ",mode=0700";
    if (::mount("tmpfs", mountPoint.c_str(), "tmpfs", MS_NOSUID | MS_NODEV, options.c_str()) != 0)
        return std::string("cannot mount a tmpfs: ") + std::strerror(errno);
    return {};
}

// Runs `script` with /bin/sh in a child whose `mountPoint` is a fresh tmpfs of `bytes`; the tmpfs ends with
// the child. Returns the script's exit status, or what kept it from running.
std::string runOnSmallFileSystem(const fs::path& mountPoint, std::size_t bytes, const std::string& script,
                                 int& status)
{
    int report[2];
    if (::pipe2(report, O_CLOEXEC) != 0)
        return std::string("pipe: ") + std::strerror(errno);
    const pid_t child = ::fork();
    if (child < 0)
        return std::string("fork: ") + std::strerror(errno);
    if (child == 0) {
        ::close(report[0]);
        const std::string failed = enterNamespaceWithTmpfs(mountPoint, bytes);
        if (!failed.empty()) {
            (void)!::write(report[1], failed.data(), failed.size());
            ::_exit(127);
        }
        ::execl("/bin/sh", "sh", "-c", script.c_str(), static_cast<char*>(nullptr));
        const std::string execFailed = std::string("exec /bin/sh: ") + std::strerror(errno);
        (void)!::write(report[1], execFailed.data(), execFailed.size());
        ::_exit(127);
    }
    ::close(report[1]);
    std::string failed;
    char buffer[512];
    ssize_t n = 0;
    while ((n = ::read(report[0], buffer, sizeof buffer)) > 0)
        failed.append(buffer, static_cast<std::size_t>(n));
    ::close(report[0]);
    int raw = 0;
    while (::waitpid(child, &raw, 0) < 0 && errno == EINTR) {
    }
    status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    return failed;
}

class StoreFull : public Cli {
protected:
    // One step of the script: `sandbench COMMAND --store STORE ARGS` with its exit status, stdout and stderr
    // kept under out/NAME.
    std::string step(const std::string& name, const std::string& command, const std::string& args)
    {
        const fs::path out = m_dir / "out" / name;
        return std::string(SANDBENCH_CLI) + " " + command + " --store " + quoted(m_full.string() + "/store.db") + " "
               + args + " >" + quoted(out.string() + ".stdout") + " 2>" + quoted(out.string() + ".stderr")
               + "; echo $? >" + quoted(out.string() + ".status") + "\n";
    }

    struct Step {
        int status = -1;
        std::string out;
        std::string err;
    };
    Step result(const std::string& name)
    {
        const fs::path out = m_dir / "out" / name;
        Step s;
        const std::string status = readFile(out.string() + ".status");
        s.status = status.empty() ? -1 : std::stoi(status);
        s.out = readFile(out.string() + ".stdout");
        s.err = readFile(out.string() + ".stderr");
        return s;
    }

    // A failure on the full file system: exit status 1 and a message naming the store's folder as full, with
    // its free space.
    void expectNamesTheFullFileSystem(const std::string& name)
    {
        SCOPED_TRACE(name);
        const Step s = result(name);
        EXPECT_EQ(s.status, 1) << s.err << s.out;
        const std::string said = "the file system holding " + m_full.string() + " is full";
        EXPECT_NE(s.err.find(said), std::string::npos) << "expected \"" << said << "\" in:\n" << s.err;
        EXPECT_NE(s.err.find("bytes free of"), std::string::npos) << s.err;
    }

    void SetUp() override
    {
        Cli::SetUp();
        m_full = m_dir / "full";
        fs::create_directories(m_full);
        fs::create_directories(m_dir / "out");
        fs::create_directories(m_dir / "kept");
    }

    fs::path m_full; // the tmpfs, inside the child only
};

TEST_F(StoreFull, EveryWriteSaysTheDiskIsFullAndNothingStoredIsLost)
{
    constexpr std::size_t kFileSystemBytes = 16u << 20;
    const std::string snippet = write("a.py", "print(1)\n");
    writeFile(m_dir / "data.csv", "id,amount\n1,10\n2,20\n");
    const std::string full = quoted(m_full.string());

    std::string script = "set -u\n";
    script += step("run-before", "run", "--level process " + quoted(snippet));
    script += step("sandbox-before", "sandbox create", "sb");
    // 2 MB that does not compress, in the sandbox's workspace, for a checkpoint to store.
    script += "w=$(" + std::string(SANDBENCH_CLI) + " sandbox path sb --store " + full + "/store.db)\n";
    script += "for i in $(seq 1 20); do head -c 100000 /dev/urandom >\"$w/f$i\"; done\n";
    // Every byte of the file system taken.
    script += "dd if=/dev/zero of=" + full + "/filler bs=4096 2>/dev/null\n";
    script += "df -k " + full + " >" + quoted((m_dir / "out" / "df").string()) + "\n";
    script += step("run-full", "run", "--level process " + quoted(snippet));
    script += step("run-full-json", "run", "--json --level process " + quoted(snippet));
    script += step("exec-full", "exec", "--level process -- /bin/true");
    script += step("checkpoint-full", "checkpoint create", "--sandbox sb");
    script += step("sandbox-full", "sandbox create", "sb2");
    script += step("import-full", "data import", quoted((m_dir / "data.csv").string()) + " --name d");
    // Space freed: the store is whole, and works on.
    script += "rm " + full + "/filler\n";
    script += step("history-after", "history", "--json");
    script += step("verify-after", "audit verify", "--json");
    script += step("checkpoint-after", "checkpoint create", "--sandbox sb");
    script += step("run-after", "run", "--level process " + quoted(snippet));
    script += "cp " + full + "/store.db " + full + "/store.db-wal " + quoted((m_dir / "kept").string()) + "/\n";

    int status = -1;
    const std::string failed = runOnSmallFileSystem(m_full, kFileSystemBytes, script, status);
    ASSERT_TRUE(failed.empty()) << "no small file system could be made for the test (it needs a mount namespace: "
                                   "as root, or with unprivileged user namespaces): "
                                << failed;
    ASSERT_EQ(status, 0) << "the script itself failed";

    const Step before = result("run-before");
    ASSERT_EQ(before.status, 0) << before.err;
    ASSERT_EQ(result("sandbox-before").status, 0) << result("sandbox-before").err;
    ASSERT_NE(readFile(m_dir / "out" / "df").find("100%"), std::string::npos)
        << "the file system was not filled: " << readFile(m_dir / "out" / "df");

    for (const char* name : {"run-full", "run-full-json", "exec-full", "checkpoint-full", "sandbox-full",
                             "import-full"})
        expectNamesTheFullFileSystem(name);

    // The run still happened and is printed, with why it was not recorded.
    const auto json = nlohmann::json::parse(result("run-full-json").out, nullptr, false);
    ASSERT_FALSE(json.is_discarded()) << result("run-full-json").out;
    EXPECT_EQ(json["outcome"], "ok");
    EXPECT_EQ(json["recorded"], false);
    EXPECT_TRUE(json["policy_version"].is_null());
    EXPECT_NE(json.value("record_error", "").find("is full"), std::string::npos) << json.dump();

    // Afterwards: the run made before is there, and only it; the log is intact; the store works on.
    const Step history = result("history-after");
    ASSERT_EQ(history.status, 0) << history.err;
    const auto runs = nlohmann::json::parse(history.out, nullptr, false);
    ASSERT_TRUE(runs.is_array()) << history.out;
    ASSERT_EQ(runs.size(), 1u) << history.out;
    EXPECT_EQ(runs[0]["outcome"], "ok");
    const Step verified = result("verify-after");
    EXPECT_EQ(verified.status, 0) << verified.out << verified.err;
    EXPECT_EQ(nlohmann::json::parse(verified.out, nullptr, false).value("intact", false), true) << verified.out;
    EXPECT_EQ(result("checkpoint-after").status, 0) << result("checkpoint-after").err;
    EXPECT_EQ(result("run-after").status, 0) << result("run-after").err;

    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open_v2((m_dir / "kept" / "store.db").c_str(), &db, SQLITE_OPEN_READWRITE, nullptr), SQLITE_OK);
    sqlite3_stmt* check = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &check, nullptr), SQLITE_OK);
    ASSERT_EQ(sqlite3_step(check), SQLITE_ROW);
    EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(check, 0)), "ok");
    sqlite3_finalize(check);
    sqlite3_close(db);
}

} // namespace
