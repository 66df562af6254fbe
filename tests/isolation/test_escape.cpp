// Hostile snippets: each test asserts that the effect did not happen, not merely the outcome label.

#include "proc_scan.h"
#include "run_helpers.h"

#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <csignal>
#include <fcntl.h>
#include <fstream>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>

using namespace sb;
using namespace sb::test;

namespace {


bool anyProcessHasInCmdline(const std::string& marker)
{
    return !processesWithMarker(marker).empty();
}

} // namespace

TEST(Escape, CallerEnvironmentIsNotVisible)
{
    ::setenv("SANDBENCH_TEST_SECRET", "hunter2-env", 1);
    const auto r = runShell("env\n");
    EXPECT_EQ(r.outcome, Outcome::Ok) << r.stderrText;
    EXPECT_EQ(r.stdoutText.find("hunter2-env"), std::string::npos) << r.stdoutText;
    EXPECT_NE(r.stdoutText.find("PATH="), std::string::npos);

    Policy pass;
    pass.envPass = {"SANDBENCH_TEST_SECRET"};
    pass.envSet = {{"GREETING", "hello"}};
    const auto passed = runShell("echo $SANDBENCH_TEST_SECRET $GREETING\n", pass);
    EXPECT_EQ(passed.stdoutText, "hunter2-env hello\n");
    ::unsetenv("SANDBENCH_TEST_SECRET");
}

TEST(Escape, NoDescriptorOfTheCallerReachesTheChild)
{
    // A descriptor deliberately left inheritable (no O_CLOEXEC), as a careless library might.
    TempDir dir;
    const auto secret = dir.path() / "store.db";
    std::ofstream(secret) << "the store";
    const int fd = ::open(secret.c_str(), O_RDONLY);
    ASSERT_GE(fd, 0);
    const int high = ::dup2(fd, 77);
    ASSERT_EQ(high, 77);
    Policy p;
    p.importGuard = false;
    const auto r = runPython("import os\nopen_fds = []\nfor fd in range(3, 1024):\n    try:\n        os.fstat(fd)\n"
                             "        open_fds.append(fd)\n    except OSError:\n        pass\nprint(open_fds)\n",
                             p);
    ::close(fd);
    ::close(high);
    EXPECT_EQ(r.outcome, Outcome::Ok) << r.stderrText;
    EXPECT_EQ(r.stdoutText, "[]\n") << "nothing but stdin, stdout and stderr may be open; found: " << r.stdoutText;
}

TEST(Escape, FilesOutsideTheWorkDirAreNotReadable)
{
    TempDir dir;
    std::filesystem::permissions(dir.path(), std::filesystem::perms::all);
    const auto secret = dir.path() / "secret.txt";
    std::ofstream(secret) << "top-secret-contents";
    std::filesystem::permissions(secret, std::filesystem::perms::owner_read | std::filesystem::perms::group_read
                                             | std::filesystem::perms::others_read);
    const auto r = runShell("cat '" + secret.string() + "'\nls '" + dir.path().string() + "'\ncat /etc/hostname\n");
    EXPECT_EQ(r.stdoutText.find("top-secret-contents"), std::string::npos);
    EXPECT_EQ(r.stdoutText.find("secret.txt"), std::string::npos);
    EXPECT_NE(r.stderrText.find("Permission denied"), std::string::npos) << r.stderrText;

    const auto py = runPython("print(open('" + secret.string() + "').read())\n");
    EXPECT_EQ(py.outcome, Outcome::Blocked) << py.message;
    EXPECT_TRUE(hasBlocked(py, "path", secret.string())) << py.message;
    EXPECT_EQ(py.stdoutText.find("top-secret-contents"), std::string::npos);
}

TEST(Escape, CallersHomeIsNotReadable)
{
    const char* home = std::getenv("HOME");
    if (!home || !std::filesystem::is_directory(home))
        GTEST_SKIP() << "no home directory for this user";
    const auto r = runShell(std::string("ls -a '") + home + "' && echo LISTED\n");
    EXPECT_EQ(r.stdoutText.find("LISTED"), std::string::npos) << r.stdoutText;
}

TEST(Escape, NothingIsWrittenOutsideTheWorkDir)
{
    TempDir dir;
    std::filesystem::permissions(dir.path(), std::filesystem::perms::all); // even a world-writable folder
    const auto target = dir.path() / "escaped";
    const auto r = runShell("echo pwned > '" + target.string() + "'\necho pwned > /tmp/sandbench-escape-probe\n"
                            "mkdir '" + dir.path().string() + "/newdir'\ntouch ./inside && echo inside-ok\n");
    EXPECT_FALSE(std::filesystem::exists(target));
    EXPECT_FALSE(std::filesystem::exists(dir.path() / "newdir"));
    EXPECT_FALSE(std::filesystem::exists("/tmp/sandbench-escape-probe"));
    EXPECT_NE(r.stdoutText.find("inside-ok"), std::string::npos) << "the work dir itself stays writable";
}

TEST(Escape, ProcIsNotReadable)
{
    const auto r = runShell("cat /proc/1/environ /proc/self/status 2>&1 | head -c 200; echo\n");
    EXPECT_EQ(r.stdoutText.find("Name:"), std::string::npos) << r.stdoutText;
}

TEST(Escape, NetworkSocketIsRefusedAndReported)
{
    // A listening socket of the host on loopback: the sandbox must not reach it.
    const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    ASSERT_GE(listener, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    ASSERT_EQ(::listen(listener, 4), 0);
    socklen_t len = sizeof addr;
    ::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
    const int port = ntohs(addr.sin_port);

    const auto r = runShell("echo hi > /dev/tcp/127.0.0.1/" + std::to_string(port) + " && echo CONNECTED\n", bashPolicy());
    EXPECT_EQ(r.outcome, Outcome::Blocked) << r.stderrText;
    EXPECT_TRUE(hasBlocked(r, "network", "socket(AF_INET, SOCK_STREAM)")) << (r.blocked.empty() ? "" : r.blocked[0].detail);
    EXPECT_EQ(r.stdoutText.find("CONNECTED"), std::string::npos);
    EXPECT_LT(::accept(listener, nullptr, nullptr), 0) << "a connection reached the host";
    ::close(listener);
}

TEST(Escape, UnixSocketsAreRefusedToo)
{
    Policy p;
    p.importGuard = false; // the OS layers must hold on their own
    const auto r = runPython("import socket\ns = socket.socket(socket.AF_UNIX)\nprint('GOT', s)\n", p);
    EXPECT_EQ(r.outcome, Outcome::Error);
    EXPECT_NE(r.stderrText.find("PermissionError"), std::string::npos) << r.stderrText;
    EXPECT_EQ(r.stdoutText.find("GOT"), std::string::npos);
}

TEST(Escape, NamespacesAreRefusedAndReported)
{
    const auto r = runShell("unshare --user --map-root-user id -u && echo ESCAPED\n");
    EXPECT_EQ(r.stdoutText.find("ESCAPED"), std::string::npos) << r.stdoutText;
    EXPECT_EQ(r.outcome, Outcome::Blocked) << r.stderrText;
    EXPECT_TRUE(hasBlocked(r, "syscall", "unshare(CLONE_NEWUSER")) << (r.blocked.empty() ? "" : r.blocked[0].detail);
}

TEST(Escape, PtraceAndMountAreRefused)
{
    Policy p;
    p.importGuard = false;
    const auto r = runPython("import ctypes\nlibc = ctypes.CDLL(None)\n"
                             "print('ptrace', libc.ptrace(16, 1, 0, 0))\n"
                             "print('mount', libc.mount(b'none', b'/tmp', b'tmpfs', 0, None))\n",
                             p);
    EXPECT_EQ(r.outcome, Outcome::Blocked) << r.stderrText;
    EXPECT_NE(r.stdoutText.find("ptrace -1"), std::string::npos) << r.stdoutText;
    EXPECT_NE(r.stdoutText.find("mount -1"), std::string::npos) << r.stdoutText;
    EXPECT_TRUE(hasBlocked(r, "syscall", "ptrace(PTRACE_ATTACH, 1)"));
    EXPECT_TRUE(hasBlocked(r, "syscall", "mount(\"none\", \"/tmp\", \"tmpfs\")"));
}

TEST(Escape, NoProcessOutlivesTheRun)
{
    const std::string marker = "sandbench-survivor-" + std::to_string(::getpid());
    const auto r = runShell("(exec -a " + marker + " sleep 60) &\n(exec -a " + marker
                                + " sleep 60) &\nsleep 0.2\necho started\n",
                            bashPolicy());
    EXPECT_EQ(r.outcome, Outcome::Ok) << r.stderrText;
    EXPECT_EQ(r.stdoutText, "started\n");
    EXPECT_FALSE(anyProcessHasInCmdline(marker)) << "a process of the run survived it";
}

TEST(Escape, LeavingTheProcessGroupIsRefused)
{
    const std::string marker = "sandbench-setsid-" + std::to_string(::getpid());
    const auto r = runShell("setsid bash -c 'exec -a " + marker + " sleep 60' &\nsleep 0.3\necho done\n", bashPolicy());
    EXPECT_FALSE(anyProcessHasInCmdline(marker));
    EXPECT_TRUE(hasBlocked(r, "syscall", "setsid")) << toString(r.outcome);
}

TEST(Escape, CannotSignalProcessesOutside)
{
    const pid_t victim = ::fork();
    if (victim == 0) {
        ::pause();
        ::_exit(0);
    }
    ASSERT_GT(victim, 0);
    const auto r = runShell("kill -9 " + std::to_string(victim) + " && echo KILLED\n");
    EXPECT_EQ(r.stdoutText.find("KILLED"), std::string::npos);
    int status = 0;
    EXPECT_EQ(::waitpid(victim, &status, WNOHANG), 0) << "the process outside was killed from the sandbox";
    ::kill(victim, SIGKILL);
    ::waitpid(victim, &status, 0);
}

TEST(Escape, NeverRunsAsRoot)
{
    const auto r = runShell("id -u\nid -g\ngrep -E '^Cap(Eff|Prm|Bnd)' /proc/self/status || true\n");
    EXPECT_EQ(r.outcome, Outcome::Ok) << r.stderrText;
    std::istringstream lines(r.stdoutText);
    std::string uid, gid;
    lines >> uid >> gid;
    EXPECT_NE(uid, "0");
    EXPECT_NE(gid, "0");
    if (::geteuid() != 0) {
        EXPECT_EQ(uid, std::to_string(::getuid()));
    }
}

TEST(Escape, NoNewPrivilegesThroughSetuidBinaries)
{
    if (!std::filesystem::exists("/usr/bin/su") && !std::filesystem::exists("/bin/su"))
        GTEST_SKIP() << "no setuid binary to try";
    const auto r = runShell("grep NoNewPrivs /proc/self/status; su -c 'id -u' root </dev/null && echo ROOT\n");
    EXPECT_EQ(r.stdoutText.find("ROOT"), std::string::npos) << r.stdoutText;
}
