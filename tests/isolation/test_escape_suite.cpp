// The escape suite: hostile snippets and commands that go beyond test_escape.cpp. Every test asserts
// that the EFFECT did not happen (a secret was not read, a file was not written, a process was not
// signalled, a message did not cross from one run to the next), not merely the outcome label.
//
// Known holes: where the effect DID happen and only a change in core/ can stop it, the test observes the
// effect, cleans up, and then skips with "REAL HOLE ..." and the evidence (see docs/THREAT_MODEL.md).
// Set SANDBENCH_CHECK_KNOWN_HOLES=1 to turn those skips into failures, e.g. to verify a fix.

#include "proc_scan.h"
#include "run_helpers.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <dirent.h>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <mqueue.h>
#include <sched.h>
#include <sstream>
#include <sys/ioctl.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace sb;
using namespace sb::test;
namespace fs = std::filesystem;

namespace {

std::string blockedText(const RunResult& r)
{
    std::string out;
    for (const auto& b : r.blocked)
        out += b.kind + ":" + b.detail + "; ";
    return out;
}

std::string describe(const RunResult& r)
{
    return "outcome=" + std::string(toString(r.outcome)) + " signal=" + std::to_string(r.signal) + " message="
           + r.message.text() + "\nstdout:\n" + r.stdoutText + "\nstderr:\n" + r.stderrText + "\nblocked: " + blockedText(r);
}

// The level this run of the suite checks (SANDBENCH_TEST_LEVEL, see run_helpers.h). Some effects are
// allowed by design at the deeper levels: a container has its own /proc and its own private /tmp.
IsolationLevel suiteLevel()
{
    return atTestLevel(Policy{}).level;
}

std::string slurp(const fs::path& path)
{
    return readWhole(path.string());
}

std::vector<pid_t> processesWith(const std::string& marker)
{
    return processesWithMarker(marker);
}

// Polls until no process carries marker (true) or the time is up (false). Generous: "did it end".
bool waitUntilGone(const std::string& marker, std::chrono::milliseconds limit = std::chrono::seconds(5))
{
    const auto until = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < until) {
        if (processesWith(marker).empty())
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return processesWith(marker).empty();
}

bool waitUntilPresent(const std::string& marker, std::size_t count, std::chrono::milliseconds limit)
{
    const auto until = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < until) {
        if (processesWith(marker).size() >= count)
            return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return false;
}

void killAll(const std::string& marker)
{
    for (pid_t pid : processesWith(marker))
        ::kill(pid, SIGKILL);
}

Policy noGuard()
{
    Policy p;
    p.importGuard = false; // the OS layers must hold on their own
    return p;
}

std::string unique(const std::string& what)
{
    static std::atomic<int> counter{0};
    return "sandbench-" + what + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
}

// A host secret the run must not read: world-readable, in a world-searchable folder outside every path
// the sandbox allows, so only the sandbox (not file permissions) keeps it out.
class HostSecret {
public:
    HostSecret()
    {
        fs::permissions(m_dir.path(), fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec
                                          | fs::perms::others_read | fs::perms::others_exec);
        m_file = m_dir.path() / "secret.txt";
        std::ofstream(m_file) << m_text << "\n";
        fs::permissions(m_file, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read
                                    | fs::perms::others_read);
    }
    const fs::path& dir() const { return m_dir.path(); }
    const fs::path& file() const { return m_file; }
    const std::string& text() const { return m_text; }
    fs::path outside() const { return m_dir.path() / "written-from-the-sandbox"; }

private:
    TempDir m_dir;
    fs::path m_file;
    std::string m_text = "hunter2-" + std::to_string(::getpid()) + "-host-secret";
};

std::string q(const fs::path& p)
{
    return "'" + p.string() + "'";
}

} // namespace

// ---- the kernel's attack surface ---------------------------------------------------------------------

// Each of these syscalls is called with arguments that would work outside the sandbox (or at least get
// past argument checks); each must fail with EPERM, be reported, and create nothing (no fd, no key).
TEST(EscapeSuite, KernelAttackSurfaceIsRefusedAndReported)
{
    struct Call {
        const char* name;
        long nr;
        const char* args; // Python expression list, after the syscall number
    };
    const std::vector<Call> calls = {
        {"io_uring_setup", SYS_io_uring_setup, "4, ctypes.byref(params)"},
        {"userfaultfd", SYS_userfaultfd, "0o2000000"},
        // BPF_MAP_CREATE of a 4-entry array map; attr: type, key_size, value_size, max_entries
        {"bpf", SYS_bpf, "0, ctypes.byref(bpf_attr), ctypes.sizeof(bpf_attr)"},
        // a software CPU-clock counter on this process: the least privileged event there is
        {"perf_event_open", SYS_perf_event_open, "ctypes.byref(perf_attr), 0, -1, -1, 0"},
        // KEYCTL_JOIN_SESSION_KEYRING (1) would give the run a named keyring of its own
        {"keyctl", SYS_keyctl, "1, b'sandbench-escape'"},
        // add_key("user", "sandbench-escape", "x", 1, KEY_SPEC_PROCESS_KEYRING)
        {"add_key", SYS_add_key, "b'user', b'sandbench-escape', b'x', 1, -2"},
        {"request_key", SYS_request_key, "b'user', b'sandbench-escape', None, -2"},
        {"init_module", SYS_init_module, "module, len(module), b''"},
        {"finit_module", SYS_finit_module, "0, b'', 0"},
        {"delete_module", SYS_delete_module, "b'loop', 0o4000"},
        {"kexec_load", SYS_kexec_load, "0, 0, None, 0"},
#ifdef SYS_kexec_file_load
        {"kexec_file_load", SYS_kexec_file_load, "0, 0, 0, b'', 2"},
#endif
        // setns into our own user namespace through a pidfd: the call itself is the escape hatch
        {"setns", SYS_setns, "pidfd, 0x10000000"},
        {"unshare", SYS_unshare, "0x10000000"},
        {"pidfd_getfd", SYS_pidfd_getfd, "pidfd, 0, 0"},
        {"open_by_handle_at", SYS_open_by_handle_at, "-100, ctypes.byref(params), 0"},
        {"fanotify_init", SYS_fanotify_init, "0, 0"},
        {"personality", SYS_personality, "0x0400000"}, // READ_IMPLIES_EXEC
        {"syslog", SYS_syslog, "3, ctypes.byref(params), 100"},   // SYSLOG_ACTION_READ_ALL: the kernel log
        {"swapon", SYS_swapon, "b'/dev/null', 0"},
        {"sethostname", SYS_sethostname, "b'pwned', 5"},
#if defined(__x86_64__)
        {"iopl", SYS_iopl, "3"},
        {"ioperm", SYS_ioperm, "0x80, 1, 1"},
#endif
    };
    std::string py = "import ctypes, os\n"
                     "libc = ctypes.CDLL(None, use_errno=True)\n"
                     "libc.syscall.restype = ctypes.c_long\n"
                     "params = ctypes.create_string_buffer(256)\n"
                     "bpf_attr = (ctypes.c_uint32 * 32)(1, 4, 4, 4)\n"
                     "perf_attr = (ctypes.c_uint32 * 32)()\n"
                     "perf_attr[0] = 1\n"    // PERF_TYPE_SOFTWARE
                     "perf_attr[1] = 128\n"  // size
                     "module = b'\\x7fELF' + bytes(60)\n"
                     "pidfd = libc.syscall(" + std::to_string(SYS_pidfd_open) + ", os.getpid(), 0)\n"
                     "def call(name, nr, *args):\n"
                     "    ctypes.set_errno(0)\n"
                     "    rc = libc.syscall(nr, *args)\n"
                     "    print(name, rc, ctypes.get_errno(), flush=True)\n";
    for (const auto& c : calls)
        py += "call('" + std::string(c.name) + "', " + std::to_string(c.nr) + ", " + c.args + ")\n";
    py += "print('end')\n";

    const auto r = runPython(py, noGuard());
    ASSERT_NE(r.stdoutText.find("end\n"), std::string::npos) << describe(r);
    EXPECT_EQ(r.outcome, Outcome::Blocked) << describe(r);
    for (const auto& c : calls) {
        const std::string expected = std::string(c.name) + " -1 " + std::to_string(EPERM) + "\n";
        EXPECT_NE(r.stdoutText.find(expected), std::string::npos)
            << c.name << " did not fail with EPERM (an fd, key or module may exist)\n" << describe(r);
        EXPECT_TRUE(hasBlocked(r, "syscall", c.name)) << c.name << " was not reported\n" << blockedText(r);
    }
}

// A secret in the memory of the test process (the caller): process_vm_readv and /proc/PID/mem.
TEST(EscapeSuite, HostProcessMemoryIsNotReadable)
{
    static char secret[64];
    const std::string text = "hunter2-memory-" + std::to_string(::getpid());
    std::snprintf(secret, sizeof secret, "%s", text.c_str());
    const auto address = reinterpret_cast<std::uintptr_t>(&secret[0]);
    const std::string pid = std::to_string(::getpid());
    const std::string py =
        "import ctypes\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "buf = ctypes.create_string_buffer(64)\n"
        "class IOV(ctypes.Structure):\n"
        "    _fields_ = [('base', ctypes.c_void_p), ('len', ctypes.c_size_t)]\n"
        "local = IOV(ctypes.cast(buf, ctypes.c_void_p), 64)\n"
        "remote = IOV(" + std::to_string(address) + ", 64)\n"
        "libc.process_vm_readv.restype = ctypes.c_ssize_t\n"
        "rc = libc.process_vm_readv(" + pid + ", ctypes.byref(local), 1, ctypes.byref(remote), 1, 0)\n"
        "print('vm_readv', rc, ctypes.get_errno(), buf.raw.hex())\n"
        "try:\n"
        "    with open('/proc/" + pid + "/mem', 'rb') as f:\n"
        "        f.seek(" + std::to_string(address) + ")\n"
        "        print('mem', f.read(64).hex())\n"
        "except OSError as e:\n"
        "    print('mem refused', e.errno)\n";
    const auto r = runPython(py, noGuard());
    std::string hex;
    for (unsigned char c : text)
        hex += fmt::format("{:02x}", c);
    EXPECT_EQ(r.stdoutText.find(text), std::string::npos) << describe(r);
    EXPECT_EQ(r.stdoutText.find(hex.substr(0, 16)), std::string::npos) << "the caller's memory was read\n" << describe(r);
    EXPECT_NE(r.stdoutText.find("vm_readv -1"), std::string::npos) << describe(r);
    EXPECT_NE(r.stdoutText.find("mem refused"), std::string::npos) << describe(r);
    EXPECT_TRUE(hasBlocked(r, "syscall", "process_vm_readv")) << blockedText(r);
}

// Decision: a binary dropped into memory (memfd_create + execve) or into the work dir RUNS — the work dir
// is the run's own and executing what it wrote there is not an escape. What matters is that it runs
// under every layer: it cannot read the secret, write outside, connect anywhere or be root.
TEST(EscapeSuite, DroppedBinariesRunButStayConfined)
{
    HostSecret secret;
    const std::string payload = "echo RAN; id -u; cat " + q(secret.file()) + "; echo x > " + q(secret.outside())
                                + "; echo hi > /dev/tcp/127.0.0.1/9 && echo CONNECTED; echo end";
    const std::string py = "import os\n"
                           "fd = os.memfd_create('dropped', 0)\n"
                           "os.write(fd, open('/bin/bash', 'rb').read())\n"
                           "os.execve(fd, ['bash', '-c', " + fmt::format("'''{}'''", payload) + "], {})\n";
    const auto r = runPython(py, noGuard());
    // The strict allowlist refuses memfd_create itself (and says so); below it memfd exec is allowed by
    // design and what the dropped binary does must stay confined.
    const bool refusedAtOnce = hasBlocked(r, "syscall", "memfd_create");
    EXPECT_EQ(refusedAtOnce, suiteLevel() == IsolationLevel::Strict) << describe(r);
    if (!refusedAtOnce) {
        EXPECT_NE(r.stdoutText.find("RAN\n"), std::string::npos) << "memfd exec is allowed by design\n" << describe(r);
        EXPECT_NE(r.stdoutText.find("end\n"), std::string::npos) << describe(r);
        EXPECT_TRUE(hasBlocked(r, "network", "socket(AF_INET")) << blockedText(r);
    }
    EXPECT_EQ(r.stdoutText.find(secret.text()), std::string::npos) << describe(r);
    EXPECT_EQ(r.stdoutText.find("CONNECTED"), std::string::npos) << describe(r);
    EXPECT_EQ(r.stdoutText.find("\n0\n"), std::string::npos) << "the dropped binary ran as root\n" << describe(r);
    EXPECT_FALSE(fs::exists(secret.outside()));

    // The same with a copy in the work dir, exec'd by path.
    const auto w = runShell("cp /bin/cat ./mycat && chmod 755 ./mycat && echo COPIED\n./mycat " + q(secret.file())
                            + "\n./mycat /etc/hostname\necho end\n");
    EXPECT_NE(w.stdoutText.find("COPIED\n"), std::string::npos) << describe(w);
    EXPECT_NE(w.stdoutText.find("end\n"), std::string::npos) << describe(w);
    EXPECT_EQ(w.stdoutText.find(secret.text()), std::string::npos) << describe(w);
}

// The 32-bit entry points (int 0x80, and the x32 ABI) would sidestep a filter written for x86-64 syscall
// numbers. The filter must kill the caller before the call has any effect.
TEST(EscapeSuite, ThirtyTwoBitSyscallAbiIsKilled)
{
#if !defined(__x86_64__)
    GTEST_SKIP() << "x86-64 only";
#else
    // int 0x80 with eax=4 (i386 write): writes "LEAK" to stdout if the i386 ABI gets through. The code and
    // the message sit in a MAP_32BIT page so that 32-bit registers can hold their addresses.
    const std::string i386 =
        "import ctypes, mmap\n"
        "m = mmap.mmap(-1, 4096, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | 0x40,\n"
        "              prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)\n"
        "addr = ctypes.addressof(ctypes.c_char.from_buffer(m))\n"
        "assert addr < 2**32\n"
        "m[64:69] = b'LEAK\\n'\n"
        "code = (b'\\x53' + b'\\xb8\\x04\\x00\\x00\\x00' + b'\\xbb\\x01\\x00\\x00\\x00'\n"
        "        + b'\\xb9' + (addr + 64).to_bytes(4, 'little') + b'\\xba\\x05\\x00\\x00\\x00'\n"
        "        + b'\\xcd\\x80' + b'\\x5b' + b'\\xc3')\n"
        "m[0:len(code)] = code\n"
        "print('calling', flush=True)\n"
        "print('returned', ctypes.CFUNCTYPE(ctypes.c_int)(addr)(), flush=True)\n";
    const auto r = runPython(i386, noGuard());
    ASSERT_NE(r.stdoutText.find("calling"), std::string::npos) << describe(r);
    EXPECT_EQ(r.stdoutText.find("LEAK"), std::string::npos) << "an i386 syscall ran\n" << describe(r);
    EXPECT_EQ(r.stdoutText.find("returned"), std::string::npos) << describe(r);
    // SIGSYS from seccomp; SIGSEGV on a kernel without IA-32 emulation. Either way: killed, no effect.
    EXPECT_TRUE(r.signal == SIGSYS || r.signal == SIGSEGV) << describe(r);

    // The x32 ABI: socket(AF_INET, SOCK_STREAM) as syscall 0x40000000 | 41.
    const std::string x32 =
        "import ctypes, mmap\n"
        "m = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)\n"
        "addr = ctypes.addressof(ctypes.c_char.from_buffer(m))\n"
        "code = (b'\\xb8\\x29\\x00\\x00\\x40' + b'\\xbf\\x02\\x00\\x00\\x00' + b'\\xbe\\x01\\x00\\x00\\x00'\n"
        "        + b'\\x31\\xd2' + b'\\x0f\\x05' + b'\\xc3')\n"
        "m[0:len(code)] = code\n"
        "print('calling', flush=True)\n"
        "print('returned', ctypes.CFUNCTYPE(ctypes.c_long)(addr)(), flush=True)\n";
    const auto x = runPython(x32, noGuard());
    ASSERT_NE(x.stdoutText.find("calling"), std::string::npos) << describe(x);
    // A socket would be a non-negative fd; -38 (ENOSYS) means the kernel has no x32 and nothing happened.
    const auto at = x.stdoutText.find("returned ");
    if (at != std::string::npos) {
        const long rc = std::atol(x.stdoutText.c_str() + at + 9);
        EXPECT_LT(rc, 0) << "an x32 socket() succeeded\n" << describe(x);
    } else {
        EXPECT_EQ(x.signal, SIGSYS) << describe(x);
    }
#endif
}

// ---- the file system ---------------------------------------------------------------------------------

TEST(EscapeSuite, SymlinksAndHardlinksThroughTheWorkDirDoNotReachTheHost)
{
    HostSecret secret;
    const auto r = runShell("ln -s " + q(secret.file()) + " ./sym && echo SYMLINKED\n"
                            "cat ./sym\n"
                            "ln -s " + q(secret.dir()) + " ./symdir && ls ./symdir/ && echo LISTED\n"
                            "ln " + q(secret.file()) + " ./hard && echo HARDLINKED\n"
                            "cat ./hard\n"
                            "ln -s /proc/1/root ./root1 && cat ./root1/etc/hostname && echo ROOT1\n"
                            "ln -s " + q(secret.outside()) + " ./out && echo pwned > ./out && echo WROTE-THROUGH\n"
                            "echo end\n",
                            bashPolicy());
    EXPECT_NE(r.stdoutText.find("end\n"), std::string::npos) << describe(r);
    EXPECT_NE(r.stdoutText.find("SYMLINKED"), std::string::npos) << "a symlink itself is harmless\n" << describe(r);
    EXPECT_EQ(r.stdoutText.find(secret.text()), std::string::npos) << describe(r);
    EXPECT_EQ(r.stdoutText.find("secret.txt"), std::string::npos) << describe(r);
    EXPECT_EQ(r.stdoutText.find("LISTED"), std::string::npos) << describe(r);
    EXPECT_EQ(r.stdoutText.find("HARDLINKED"), std::string::npos) << describe(r);
    EXPECT_EQ(r.stdoutText.find("ROOT1"), std::string::npos) << describe(r);
    EXPECT_EQ(r.stdoutText.find("WROTE-THROUGH"), std::string::npos) << describe(r);
    EXPECT_FALSE(fs::exists(secret.outside()));
    EXPECT_EQ(fs::hard_link_count(secret.file()), 1u);
}

// The Runner removes the work dir with the caller's rights (root, for root callers) after the run: links
// the run left there must not make it touch, chmod or delete anything outside.
TEST(EscapeSuite, WorkDirCleanupDoesNotFollowLinksLeftByTheRun)
{
    TempDir hostDir;
    fs::permissions(hostDir.path(), fs::perms::owner_all | fs::perms::others_exec | fs::perms::group_exec);
    const fs::path guarded = hostDir.path() / "guarded";
    fs::create_directory(guarded);
    fs::permissions(guarded, fs::perms::owner_read | fs::perms::owner_exec); // 0500: no one may write here
    const fs::path keep = hostDir.path() / "keep.txt";
    std::ofstream(keep) << "keep me";
    fs::permissions(keep, fs::perms::owner_read);
    const auto r = runShell("ln -s " + q(guarded) + " ./dirlink\nln -s " + q(keep) + " ./filelink\n"
                            "mkdir -p sub/deeper && ln -s " + q(hostDir.path()) + " sub/deeper/up\n"
                            "ln -s / ./rootlink\nchmod 000 sub/deeper sub\necho end\n");
    EXPECT_NE(r.stdoutText.find("end\n"), std::string::npos) << describe(r);
    EXPECT_EQ(fs::status(guarded).permissions(), fs::perms::owner_read | fs::perms::owner_exec);
    EXPECT_EQ(fs::status(keep).permissions(), fs::perms::owner_read);
    fs::permissions(keep, fs::perms::owner_read | fs::perms::owner_write);
    EXPECT_EQ(slurp(keep), "keep me");
    EXPECT_TRUE(fs::exists(hostDir.path()));
    EXPECT_TRUE(fs::exists("/usr/bin"));
    fs::permissions(guarded, fs::perms::owner_all);
}

TEST(EscapeSuite, ProcAndSysLeakNothing)
{
    const std::string pid = std::to_string(::getpid());
    const std::string self = fs::read_symlink("/proc/self/exe").filename().string();
    const auto r = runShell("ls /proc && echo PROC-LISTED\n"
                            "cat /proc/" + pid + "/cmdline && echo CMDLINE-READ\n"
                            "cat /proc/" + pid + "/environ && echo ENVIRON-READ\n"
                            "readlink /proc/" + pid + "/exe && echo EXE-READ\n"
                            "cat /proc/self/status && echo SELF-READ\n"
                            "ls /sys/class/net && echo NET-LISTED\n"
                            "cat /proc/cmdline && echo KCMDLINE\n"
                            "ps ax && echo PS\n"
                            "cat /proc/1/cmdline; echo\n"
                            "echo end\n");
    EXPECT_NE(r.stdoutText.find("end\n"), std::string::npos) << describe(r);
    std::vector<const char*> leaks = {"CMDLINE-READ", "ENVIRON-READ", "EXE-READ", "NET-LISTED"};
    // A container has a /proc of its own pid namespace (itself, nothing of the host's processes) and shows
    // the kernel's command line as bubblewrap does; the process level refuses /proc altogether.
    if (suiteLevel() == IsolationLevel::Process)
        leaks.insert(leaks.end(), {"PROC-LISTED", "SELF-READ", "KCMDLINE", "PS"});
    for (const char* leak : leaks)
        EXPECT_EQ(r.stdoutText.find(std::string(leak) + "\n"), std::string::npos) << leak << "\n" << describe(r);
    EXPECT_EQ(r.stdoutText.find(self), std::string::npos) << "the caller's command line leaked\n" << describe(r);
    const std::string installDir = fs::read_symlink("/proc/self/exe").parent_path().string();
    EXPECT_EQ(r.stdoutText.find(installDir), std::string::npos) << "where Sandbench is installed leaked\n"
                                                                 << describe(r);
    EXPECT_EQ(r.stdoutText.find("\n" + pid + "\n"), std::string::npos) << describe(r);
}

// Run 1 leaves files wherever a later run (or the host) might look; run 2 must find none of them.
TEST(EscapeSuite, NoFileChannelBetweenRuns)
{
    const std::string name = unique("crossrun");
    const std::string msg = "message-from-run-1-" + name;
    const std::vector<std::string> places = {"/dev/shm/" + name, "/tmp/" + name, "/var/tmp/" + name,
                                             "/run/lock/" + name, "/dev/mqueue/" + name};
    std::string write = "cd \"$TMPDIR\" && echo " + msg + " > ./" + name + " && echo LOCAL-OK\n";
    std::string read = "ls \"$TMPDIR\"\ncat ./" + name + " ../" + name + "\n";
    for (const auto& p : places) {
        write += "echo " + msg + " > " + p + " && echo WROTE " + p + "\n";
        read += "cat " + p + "\n";
    }
    Policy py = noGuard();
    const auto r1 = runShell(write);
    const auto shm = runPython("from multiprocessing import shared_memory\n"
                               "s = shared_memory.SharedMemory(name='" + name + "-py', create=True, size=64)\n"
                               "s.buf[:5] = b'hello'\nprint('SHM-CREATED')\n",
                               py);
    const auto r2 = runShell(read);
    EXPECT_NE(r1.stdoutText.find("LOCAL-OK"), std::string::npos) << describe(r1);
    // A container's /tmp is its own tmpfs, gone with the run: writing there is allowed, reading it later not.
    if (suiteLevel() == IsolationLevel::Process) {
        EXPECT_EQ(r1.stdoutText.find("WROTE"), std::string::npos) << describe(r1);
    }
    EXPECT_EQ(shm.stdoutText.find("SHM-CREATED"), std::string::npos) << describe(shm);
    EXPECT_EQ(r2.stdoutText.find(msg), std::string::npos) << describe(r2);
    EXPECT_EQ(r2.stdoutText.find(name), std::string::npos) << "run 2 saw run 1's file\n" << describe(r2);
    for (const auto& p : places)
        EXPECT_FALSE(fs::exists(p)) << p;
    EXPECT_FALSE(fs::exists("/dev/shm/" + name + "-py"));
    ::unlink(("/dev/shm/" + name + "-py").c_str());
}

// ---- resources ---------------------------------------------------------------------------------------

TEST(EscapeSuite, OutputFloodEndsByTimeoutAndIsCapped)
{
    const std::string marker = unique("flood");
    Policy p = bashPolicy();
    p.limits.wallMs = 800;
    p.limits.outputBytes = 4096;
    const auto r = runShell("(exec -a " + marker + " yes STDERR-FLOOD) >&2 &\nexec -a " + marker + " yes\n", p);
    EXPECT_EQ(r.outcome, Outcome::Timeout) << r.message;
    EXPECT_EQ(r.stdoutText.size(), 4096u);
    EXPECT_TRUE(r.stdoutTruncated);
    EXPECT_LE(r.stderrText.size(), 4096u);
    EXPECT_TRUE(r.stderrTruncated);
    EXPECT_LT(r.durationMs, 800.0 + 5000.0);
    EXPECT_TRUE(waitUntilGone(marker)) << "a flooding process outlived the run";
    killAll(marker);
}

// The file-size limit holds per file, and disk_mb bounds the run's work dir as a whole: a run writing
// file after file is ended as `blocked` (a `disk` event) soon after it passes the quota. The launcher
// measures the work dir as soon as inotify says it changed (at most every few ms), so the test watches
// the host side itself and allows a few files written at page-cache speed meanwhile.
TEST(EscapeSuite, DiskFloodIsBounded)
{
    TempDir root;
    fs::permissions(root.path(), fs::perms::owner_all | fs::perms::others_exec | fs::perms::group_exec);
    Policy p;
    p.limits.fileSizeMb = 1;
    p.limits.diskMb = 4;
    p.limits.wallMs = 20000;
    std::atomic<bool> done{false};
    std::atomic<std::int64_t> peakKb{0};
    std::thread watcher([&] {
        while (!done) {
            std::int64_t kb = 0;
            std::error_code ec;
            for (auto it = fs::recursive_directory_iterator(root.path(), ec); !ec && it != fs::end(it);
                 it.increment(ec)) {
                struct stat st {};
                if (::lstat(it->path().c_str(), &st) == 0)
                    kb += st.st_blocks / 2;
            }
            peakKb = std::max<std::int64_t>(peakKb, kb);
            std::this_thread::sleep_for(std::chrono::milliseconds(2));
        }
    });
    // 400 files of (up to) 1 MiB: 100x the quota; a largest-file report comes first.
    const auto r = runSnippet(Language::Shell,
                              "trap '' XFSZ\nhead -c 2000000 /dev/zero > big\n"
                              "ls -l big | awk '{ print \"largest\", $5 }'\n"
                              "i=0\nwhile [ $i -lt 400 ]; do head -c 1000000 /dev/zero > f$i; i=$((i+1)); done\n"
                              "echo FLOODED\n",
                              p, RunnerOptions{{}, root.path()});
    done = true;
    watcher.join();
    EXPECT_TRUE(fs::is_empty(root.path())) << "the work dir (and its files) must be gone after the run";
    std::istringstream in(r.stdoutText);
    std::string key;
    long largest = -1;
    while (in >> key) {
        if (key == "largest")
            in >> largest;
    }
    ASSERT_GE(largest, 0) << describe(r);
    EXPECT_LE(largest, 1024 * 1024) << "a file grew past the file-size limit";
    EXPECT_EQ(r.stdoutText.find("FLOODED"), std::string::npos) << "the flood ran to its end\n" << describe(r);
    EXPECT_EQ(r.outcome, Outcome::Blocked) << describe(r);
    EXPECT_TRUE(hasBlocked(r, "disk", "disk_mb: 4")) << describe(r);
    EXPECT_LE(peakKb.load(), (4 + 16) * 1024) << "the work dir grew far past the quota before the run was ended";
}

// Children that keep burning CPU after the main program exits are killed with it.
TEST(EscapeSuite, BackgroundBurnersDieWithTheMainProgram)
{
    const std::string marker = unique("burner");
    Policy p = bashPolicy();
    p.limits.wallMs = 30000;
    const auto r = runShell("for i in 1 2 3; do (exec -a " + marker + " bash -c 'while :; do :; done') & done\n"
                            "sleep 0.2\necho parent-exits\n",
                            p);
    EXPECT_EQ(r.outcome, Outcome::Ok) << describe(r);
    EXPECT_EQ(r.stdoutText, "parent-exits\n");
    EXPECT_LT(r.durationMs, 15000.0) << "the burners kept the run alive";
    EXPECT_TRUE(waitUntilGone(marker)) << "a CPU burner outlived the run";
    killAll(marker);
}

// The CPU limit is a limit on the run: children that each stay under RLIMIT_CPU must not add up past it.
// Without a cgroup the launcher sums the run's CPU itself (reaped children + live processes) every 50 ms.
TEST(EscapeSuite, CpuLimitCoversTheWholeRun)
{
    Policy p;
    p.limits.cpuMs = 1000;
    p.limits.wallMs = 30000;
    const auto r = runShell("burn() { /usr/bin/python3 -c 'while True: pass'; }\nburn & burn & wait\nburn\necho survived\n", p);
    EXPECT_EQ(r.outcome, Outcome::Timeout) << describe(r);
    EXPECT_EQ(r.stdoutText.find("survived"), std::string::npos) << describe(r);
    // One sampling interval on two cores past the limit, plus the tick granularity of /proc.
    EXPECT_LT(r.cpuMs, 1000.0 + 300.0) << describe(r);
}

// The memory limit is a limit on the run: forked children each under RLIMIT_AS must not add up past it.
TEST(EscapeSuite, MemoryLimitCoversTheWholeRun)
{
    Policy p;
    p.limits.memoryMb = 128;
    p.limits.wallMs = 20000;
    // Four children would hold 80 MiB each (touched, so resident) together: 320 MiB under a 128 MiB limit.
    // They take theirs 300 ms apart, several sampling intervals (50 ms without a cgroup), so the run must end
    // as memory_limit once two of them hold theirs (160 MiB), before all four do. (Taken at the same instant,
    // a burst could land between two samples: that case is bounded by the sampling interval, not refused.)
    const std::string child = "/usr/bin/python3 -c \"import sys, time; time.sleep(float(sys.argv[1])); "
                              "b = bytearray(80 << 20); b[::4096] = b'x' * len(b[::4096]); "
                              "print('held', flush=True); time.sleep(3)\"";
    const auto r = runShell("for delay in 0 0.3 0.6 0.9; do " + child + " $delay & done\nwait\n", p);
    std::size_t held = 0;
    for (auto at = r.stdoutText.find("held"); at != std::string::npos; at = r.stdoutText.find("held", at + 1))
        ++held;
    // Without a cgroup the launcher ends the run; with one the kernel's OOM killer ends a child and the run
    // is classified from the cgroup's OOM count. Either way the four never held their memory together.
    EXPECT_EQ(r.outcome, Outcome::MemoryLimit) << describe(r);
    EXPECT_LT(held, 4u) << "all four children held their memory at once\n" << describe(r);
}

// ---- privileges --------------------------------------------------------------------------------------

TEST(EscapeSuite, SetuidBinariesGiveNoPrivilege)
{
    const auto mountsBefore = slurp("/proc/self/mountinfo");
    struct stat shadowBefore {};
    const bool haveShadow = ::stat("/etc/shadow", &shadowBefore) == 0;
    const auto r = runShell("mkdir m\n"
                            "mount -t tmpfs none ./m && echo MOUNTED\n"
                            "su -c 'id -u' root </dev/null && echo SU-ROOT\n"
                            "passwd -d root </dev/null && echo PASSWD-CHANGED\n"
                            "chsh -s /bin/sh root </dev/null && echo CHSH-CHANGED\n"
                            "newgrp root </dev/null && echo NEWGRP\n"
                            "grep -E '^(Uid|NoNewPrivs|CapEff)' /proc/self/status\n"
                            "id -u\necho end\n");
    EXPECT_NE(r.stdoutText.find("end\n"), std::string::npos) << describe(r);
    for (const char* effect : {"MOUNTED", "SU-ROOT", "PASSWD-CHANGED", "CHSH-CHANGED", "NEWGRP"})
        EXPECT_EQ(r.stdoutText.find(effect), std::string::npos) << effect << "\n" << describe(r);
    EXPECT_EQ(r.stdoutText.find("\n0\n"), std::string::npos) << describe(r);
    EXPECT_EQ(slurp("/proc/self/mountinfo"), mountsBefore) << "a mount appeared on the host";
    if (haveShadow) {
        struct stat shadowAfter {};
        ASSERT_EQ(::stat("/etc/shadow", &shadowAfter), 0);
        EXPECT_EQ(shadowAfter.st_mtim.tv_sec, shadowBefore.st_mtim.tv_sec);
        EXPECT_EQ(shadowAfter.st_mtim.tv_nsec, shadowBefore.st_mtim.tv_nsec);
        EXPECT_EQ(shadowAfter.st_size, shadowBefore.st_size);
    }
}

namespace {
std::atomic<int> g_usr1{0};
void countUsr1(int)
{
    g_usr1.fetch_add(1);
}
} // namespace

// Signals to the launcher (the run's parent) and to the Runner's own process: refused; the run still ends
// with a result of its own (a killed launcher would end it as internal_error).
TEST(EscapeSuite, SignalsToTheLauncherAndTheCallerAreRefused)
{
    struct sigaction sa {};
    struct sigaction old {};
    sa.sa_handler = countUsr1;
    sigemptyset(&sa.sa_mask);
    ASSERT_EQ(::sigaction(SIGUSR1, &sa, &old), 0);
    g_usr1 = 0;
    const std::string me = std::to_string(::getpid());
    const auto r = runShell("kill -USR1 " + me + " && echo SIGNALLED-CALLER\n"
                            "kill -STOP $PPID && echo STOPPED-LAUNCHER\n"
                            "kill -KILL $PPID && echo KILLED-LAUNCHER\n"
                            "python3 -c \"import ctypes, os, signal; libc = ctypes.CDLL(None, use_errno=True); "
                            "fd = libc.syscall(434, " + me + ", 0); print('pidfd', fd); "
                            "print('pidfd_send_signal', libc.syscall(424, fd, 10, None, 0))\"\n"
                            "echo end\n",
                            bashPolicy());
    std::this_thread::sleep_for(std::chrono::milliseconds(50)); // a signal in flight would have landed
    ::sigaction(SIGUSR1, &old, nullptr);
    EXPECT_EQ(g_usr1.load(), 0) << "the run signalled the Runner's process\n" << describe(r);
    EXPECT_NE(r.outcome, Outcome::InternalError) << "the launcher was stopped or killed\n" << describe(r);
    EXPECT_NE(r.stdoutText.find("end\n"), std::string::npos) << describe(r);
    for (const char* effect : {"SIGNALLED-CALLER", "STOPPED-LAUNCHER", "KILLED-LAUNCHER", "pidfd_send_signal 0"})
        EXPECT_EQ(r.stdoutText.find(effect), std::string::npos) << effect << "\n" << describe(r);
}

// An unprivileged caller's run shares its uid: it must still not change the scheduling, priority or
// resource limits of the caller's other processes (the workbench itself, the user's session).
TEST(EscapeSuite, CannotTamperWithProcessesOutside)
{
    const pid_t victim = ::fork();
    if (victim == 0) {
        ::pause();
        ::_exit(0);
    }
    ASSERT_GT(victim, 0);
    rlimit nofileBefore{};
    ::prlimit(victim, RLIMIT_NOFILE, nullptr, &nofileBefore);
    errno = 0;
    const int niceBefore = ::getpriority(PRIO_PROCESS, static_cast<id_t>(victim));
    const int policyBefore = ::sched_getscheduler(victim);
    cpu_set_t affinityBefore;
    CPU_ZERO(&affinityBefore);
    ::sched_getaffinity(victim, sizeof affinityBefore, &affinityBefore);
    const long ioprioBefore = ::syscall(SYS_ioprio_get, 1, victim);

    const std::string v = std::to_string(victim);
    const auto r = runPython("import ctypes\n"
                             "libc = ctypes.CDLL(None, use_errno=True)\n"
                             "class RL(ctypes.Structure):\n"
                             "    _fields_ = [('cur', ctypes.c_ulong), ('max', ctypes.c_ulong)]\n"
                             "print('prlimit', libc.prlimit(" + v + ", 7, ctypes.byref(RL(3, 3)), None))\n"
                             "print('setpriority', libc.setpriority(0, " + v + ", 19))\n"
                             "mask = ctypes.c_ulong(1)\n"
                             "print('affinity', libc.sched_setaffinity(" + v + ", 8, ctypes.byref(mask)))\n"
                             "param = ctypes.c_int(0)\n"
                             "print('scheduler', libc.sched_setscheduler(" + v + ", 5, ctypes.byref(param)))\n"
                             "print('ioprio', libc.syscall(" + std::to_string(SYS_ioprio_set) + ", 1, " + v
                                 + ", 3 << 13))\n",
                             noGuard());

    rlimit nofileAfter{};
    ::prlimit(victim, RLIMIT_NOFILE, nullptr, &nofileAfter);
    const int niceAfter = ::getpriority(PRIO_PROCESS, static_cast<id_t>(victim));
    const int policyAfter = ::sched_getscheduler(victim);
    cpu_set_t affinityAfter;
    CPU_ZERO(&affinityAfter);
    ::sched_getaffinity(victim, sizeof affinityAfter, &affinityAfter);
    const long ioprioAfter = ::syscall(SYS_ioprio_get, 1, victim);
    ::kill(victim, SIGKILL);
    int status = 0;
    ::waitpid(victim, &status, 0);

    std::string changed;
    if (nofileAfter.rlim_cur != nofileBefore.rlim_cur || nofileAfter.rlim_max != nofileBefore.rlim_max)
        changed += fmt::format("RLIMIT_NOFILE {} -> {}; ", nofileBefore.rlim_cur, nofileAfter.rlim_cur);
    if (niceAfter != niceBefore)
        changed += fmt::format("nice {} -> {}; ", niceBefore, niceAfter);
    if (policyAfter != policyBefore)
        changed += fmt::format("scheduler {} -> {}; ", policyBefore, policyAfter);
    if (!CPU_EQUAL(&affinityAfter, &affinityBefore))
        changed += "CPU affinity; ";
    if (ioprioAfter != ioprioBefore)
        changed += fmt::format("ioprio {} -> {}; ", ioprioBefore, ioprioAfter);
    EXPECT_TRUE(changed.empty()) << "a run of an unprivileged caller changed a process outside it (same uid): "
                                 << changed << describe(r);
}

// TIOCSTI pushes characters into a terminal's input as if typed. The run has no terminal even when the
// caller has one as its controlling terminal: nothing may be queued on the caller's terminal.
TEST(EscapeSuite, NoTerminalInjection)
{
    int toParent[2];
    ASSERT_EQ(::pipe(toParent), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::close(toParent[0]);
        auto report = [&](const std::string& text) {
            const ssize_t n = ::write(toParent[1], text.data(), text.size());
            ::_exit(n == static_cast<ssize_t>(text.size()) ? 0 : 3);
        };
        // A new session whose controlling terminal is a fresh pty: the caller of the run owns a terminal.
        if (::setsid() < 0)
            report("setup: setsid\n");
        const int master = ::posix_openpt(O_RDWR | O_NOCTTY);
        if (master < 0 || ::grantpt(master) != 0 || ::unlockpt(master) != 0)
            report("setup: pty\n");
        const int slave = ::open(::ptsname(master), O_RDWR);
        if (slave < 0 || ::ioctl(slave, TIOCSCTTY, 0) != 0)
            report("setup: controlling tty\n");
        const auto r = runPython("import fcntl, termios, os\n"
                                 "def inject(fd, label):\n"
                                 "    try:\n"
                                 "        for c in b'id\\n':\n"
                                 "            fcntl.ioctl(fd, termios.TIOCSTI, bytes([c]))\n"
                                 "        print('INJECTED', label)\n"
                                 "    except OSError as e:\n"
                                 "        print('refused', label, e.errno)\n"
                                 "for fd in (0, 1, 2):\n"
                                 "    inject(fd, fd)\n"
                                 "try:\n"
                                 "    tty = os.open('/dev/tty', os.O_RDWR)\n"
                                 "    inject(tty, 'tty')\n"
                                 "except OSError as e:\n"
                                 "    print('no /dev/tty', e.errno)\n"
                                 "print('end')\n",
                                 noGuard());
        int queued = -1;
        ::ioctl(slave, FIONREAD, &queued);
        report("queued=" + std::to_string(queued) + "\n" + r.stdoutText + r.stderrText);
    }
    ::close(toParent[1]);
    std::string text;
    char buf[4096];
    for (ssize_t n; (n = ::read(toParent[0], buf, sizeof buf)) > 0;)
        text.append(buf, static_cast<std::size_t>(n));
    ::close(toParent[0]);
    int status = 0;
    ::waitpid(child, &status, 0);
    ASSERT_EQ(text.find("setup:"), std::string::npos) << text;
    EXPECT_NE(text.find("queued=0\n"), std::string::npos) << "characters were queued on the caller's terminal\n" << text;
    EXPECT_EQ(text.find("INJECTED"), std::string::npos) << text;
    EXPECT_NE(text.find("end\n"), std::string::npos) << text;
}

// ---- the import guard is a signal, not the jail -------------------------------------------------------

// Each snippet gets around the guard its own way (these are not asserted: the guard may get stricter).
// What is asserted is what the OS layers still prevent with os/posix/socket/ctypes in hand: a shell may
// run (inside the sandbox), but no secret is read, nothing is written outside, no socket opens.
TEST(EscapeSuite, ImportGuardBypassesStillCannotEscape)
{
    HostSecret secret;
    const std::string home = std::getenv("HOME") ? std::getenv("HOME") : "/root";
    // Each prologue leaves `o` bound to an os-like module (os or posix).
    const std::vector<std::pair<std::string, std::string>> bypasses = {
        {"sys.modules posix", "import sys\no = sys.modules['posix']\n"},
        {"restored __import__",
         "import builtins\n"
         "for cell in builtins.__import__.__closure__ or ():\n"
         "    v = cell.cell_contents\n"
         "    if getattr(v, '__name__', '') == '__import__' and v is not builtins.__import__:\n"
         "        builtins.__import__ = v\n"
         "import os as o\n"},
        {"importlib internals", "import sys\no = sys.modules['_frozen_importlib']._gcd_import('os')\n"},
        {"BuiltinImporter via subclasses",
         "o = [c for c in ().__class__.__base__.__subclasses__() if c.__name__ == 'BuiltinImporter'][0]"
         ".load_module('posix')\n"},
    };
    for (const auto& [label, prologue] : bypasses) {
        const std::string py =
            prologue + "print('system', o.system(\"echo SHELL-RAN; cat " + secret.file().string() + "; echo x > "
            + secret.outside().string() + "; ls " + home + " && echo HOME-LISTED\"))\n"
            "try:\n"
            "    fd = o.open('" + secret.file().string() + "', o.O_RDONLY)\n"
            "    print('READ', o.read(fd, 100))\n"
            "except OSError as e:\n"
            "    print('read refused', e.errno)\n"
            "try:\n"
            "    o.open('" + secret.outside().string() + "', o.O_WRONLY | o.O_CREAT, 0o644)\n"
            "    print('CREATED-OUTSIDE')\n"
            "except OSError as e:\n"
            "    print('create refused', e.errno)\n"
            "try:\n"
            "    print('PROC', o.listdir('/proc')[:3])\n"
            "except OSError as e:\n"
            "    print('proc refused', e.errno)\n"
            "try:\n"
            "    import sys\n"
            "    _socket = sys.modules.get('_socket') or sys.modules['_frozen_importlib']._gcd_import('_socket')\n"
            "    s = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)\n"
            "    print('SOCKET-OPENED')\n"
            "except OSError as e:\n"
            "    print('socket refused', e.errno)\n"
            "try:\n"
            "    import sys\n"
            "    ct = sys.modules['_frozen_importlib']._gcd_import('ctypes')\n"
            "    libc = ct.CDLL(None, use_errno=True)\n"
            "    print('ctypes setuid0', libc.setuid(0), 'unshare', libc.unshare(0x10000000))\n"
            "except Exception as e:\n"
            "    print('ctypes refused', type(e).__name__)\n"
            "print('end')\n";
        const auto r = runPython(py); // the default policy: the guard is on
        SCOPED_TRACE(label);
        EXPECT_NE(r.stdoutText.find("end\n"), std::string::npos) << describe(r);
        EXPECT_EQ(r.stdoutText.find(secret.text()), std::string::npos) << describe(r);
        EXPECT_EQ(r.stdoutText.find("READ"), std::string::npos) << describe(r);
        EXPECT_EQ(r.stdoutText.find("CREATED-OUTSIDE"), std::string::npos) << describe(r);
        EXPECT_EQ(r.stdoutText.find("HOME-LISTED"), std::string::npos) << describe(r);
        if (suiteLevel() == IsolationLevel::Process) { // a container lists its own pid namespace
            EXPECT_EQ(r.stdoutText.find("PROC"), std::string::npos) << describe(r);
        }
        EXPECT_EQ(r.stdoutText.find("SOCKET-OPENED"), std::string::npos) << describe(r);
        EXPECT_EQ(r.stdoutText.find("setuid0 0"), std::string::npos) << describe(r);
        EXPECT_EQ(r.stdoutText.find("unshare 0"), std::string::npos) << describe(r);
        EXPECT_FALSE(fs::exists(secret.outside())) << label;
        EXPECT_TRUE(hasBlocked(r, "network", "socket(AF_INET")) << blockedText(r);
    }
}

// ---- what the program says is not what happened --------------------------------------------------------

// The program may write anything anywhere it can: nothing it writes may decide the recorded outcome. It has
// no descriptor to Sandbench but its output (the Python guard's reports come on its stderr too), and what
// it says there about itself (a MemoryError, a refused import) is recorded as its claim, never as a verdict.
TEST(EscapeSuite, TheProgramCannotForgeItsOutcome)
{
    const std::string reachPosix = "import sys\no = sys.modules['posix']\n";
    const auto forged = runPython(reachPosix + "for fd in range(3, 64):\n"
                                                "    try:\n"
                                                "        o.write(fd, b'memory_limit\\tMemoryError\\nimport\\tsocket\\n')\n"
                                                "        print('WROTE', fd)\n"
                                                "    except OSError:\n"
                                                "        pass\n"
                                                "sys.stderr.write('MemoryError\\n')\n"
                                                "sys.exit(1)\n");
    EXPECT_EQ(forged.outcome, Outcome::Error) << describe(forged);
    EXPECT_EQ(forged.stdoutText.find("WROTE"), std::string::npos) << "a descriptor beyond 0-2 was open\n"
                                                                   << describe(forged);
    EXPECT_TRUE(forged.blocked.empty()) << describe(forged);
    EXPECT_EQ(forged.claims, (std::vector<ProgramClaim>{{"memory", "MemoryError"}})) << describe(forged);

    // The guard's own message, written by the snippet: a claim; the outcome stays the exit's.
    const auto claimed = runPython("import sys\nsys.stderr.write(\"ImportError: sandbench: import of 'socket' is "
                                   "blocked by the sandbox policy\\n\")\nsys.exit(1)\n");
    EXPECT_EQ(claimed.outcome, Outcome::Error) << describe(claimed);
    EXPECT_TRUE(claimed.blocked.empty()) << describe(claimed);
    EXPECT_EQ(claimed.claims, (std::vector<ProgramClaim>{{"import", "socket"}})) << describe(claimed);

    // The same for a shell, which never had the guard's channel.
    const auto shell = runShell("for fd in 3 4 5 6 7 8 9; do { printf 'memory_limit\\tx\\n' >&$fd; } 2>/dev/null "
                                "&& echo WROTE $fd; done\necho 'Cannot allocate memory' >&2\nexit 1\n",
                                bashPolicy());
    EXPECT_EQ(shell.outcome, Outcome::Error) << describe(shell);
    EXPECT_EQ(shell.stdoutText.find("WROTE"), std::string::npos) << describe(shell);
}

// ---- cross-run channels through kernel objects -------------------------------------------------------

// SysV message queues and shared memory are not files: Landlock does not see them and, at the process
// level, there is no IPC namespace. Run 1 leaves a message and a segment; run 2 must not find them, and
// nothing of run 1 may outlive it.
TEST(EscapeSuite, SysvIpcIsNotACrossRunChannel)
{
    const key_t base = static_cast<key_t>(0x5B000000 | ((::getpid() & 0xffff) << 4));
    const std::string msgKey = std::to_string(base + 1);
    const std::string shmKey = std::to_string(base + 2);
    const std::string semKey = std::to_string(base + 3);
    const std::string mqName = "/" + unique("mq");
    const std::string common = "import ctypes\n"
                               "libc = ctypes.CDLL(None, use_errno=True)\n"
                               "libc.shmat.restype = ctypes.c_void_p\n"
                               "class Msg(ctypes.Structure):\n"
                               "    _fields_ = [('type', ctypes.c_long), ('text', ctypes.c_char * 64)]\n";
    const auto r1 = runPython(common + "q = libc.msgget(" + msgKey + ", 0o1666)\n"
                              "print('msgsnd', libc.msgsnd(q, ctypes.byref(Msg(1, b'msg-from-run-1')), 64, 0))\n"
                              "s = libc.shmget(" + shmKey + ", 4096, 0o1666)\n"
                              "a = libc.shmat(s, None, 0)\n"
                              "if a and a != 2**64 - 1:\n"
                              "    ctypes.memmove(a, b'shm-from-run-1', 14)\n"
                              "    print('shm written')\n"
                              "print('semget', libc.semget(" + semKey + ", 1, 0o1666) >= 0)\n"
                              "print('mq_open', libc.mq_open(b'" + mqName + "', 0o102, 0o666, None))\n",
                              noGuard());
    const auto r2 = runPython(common + "q = libc.msgget(" + msgKey + ", 0)\n"
                              "m = Msg()\n"
                              "print('msgrcv', libc.msgrcv(q, ctypes.byref(m), 64, 0, 0o4000), m.text)\n"
                              "s = libc.shmget(" + shmKey + ", 0, 0)\n"
                              "a = libc.shmat(s, None, 0)\n"
                              "print('shm', ctypes.string_at(a, 14) if a and a != 2**64 - 1 else None)\n",
                              noGuard());
    // What run 1 left behind, seen from the host; then clean up whatever there is.
    const int q = ::msgget(base + 1, 0);
    const int s = ::shmget(base + 2, 0, 0);
    const int sem = ::semget(base + 3, 0, 0);
    const mqd_t mq = ::mq_open(mqName.c_str(), O_RDONLY);
    if (q >= 0)
        ::msgctl(q, IPC_RMID, nullptr);
    if (s >= 0)
        ::shmctl(s, IPC_RMID, nullptr);
    if (sem >= 0)
        ::semctl(sem, 0, IPC_RMID);
    if (mq != static_cast<mqd_t>(-1)) {
        ::mq_close(mq);
        ::mq_unlink(mqName.c_str());
    }
    const bool crossed = r2.stdoutText.find("from-run-1") != std::string::npos;
    const bool leftBehind = q >= 0 || s >= 0 || sem >= 0 || mq != static_cast<mqd_t>(-1);
    EXPECT_NE(r1.stdoutText.find("mq_open -1"), std::string::npos) << "POSIX message queue created\n" << describe(r1);
    EXPECT_FALSE(crossed) << "run 2 read run 1's SysV message or segment\n" << describe(r2);
    EXPECT_FALSE(leftBehind);
}

// ---- orphans -----------------------------------------------------------------------------------------

namespace {

// A caller of its own (forked) whose run leaves three processes named marker for 20 s: two in the
// background, one in the foreground. The caller's pid, or -1 when the fork failed.
pid_t startCallerOfThreeSleepers(const std::string& marker, const fs::path& workRoot)
{
    const pid_t caller = ::fork();
    if (caller == 0) {
        Policy p = bashPolicy();
        p.limits.wallMs = 30000;
        const auto r = runSnippet(Language::Shell,
                                  "(exec -a " + marker + " sleep 20) &\n(exec -a " + marker
                                      + " sleep 20 >/dev/null 2>&1) &\nexec -a " + marker + " sleep 20\n",
                                  p, RunnerOptions{{}, workRoot});
        ::_exit(r.outcome == Outcome::Ok ? 0 : 1);
    }
    return caller;
}

} // namespace

// The caller (the process holding the Runner) is SIGKILLed mid-run: the run's processes end too, and
// nothing of the run (its work dir) is left behind.
TEST(EscapeSuite, RunEndsWhenTheCallerIsKilled)
{
    const std::string marker = unique("orphan");
    TempDir root;
    fs::permissions(root.path(), fs::perms::owner_all | fs::perms::others_exec | fs::perms::group_exec);
    const pid_t caller = startCallerOfThreeSleepers(marker, root.path());
    ASSERT_GE(caller, 0);
    const bool started = waitUntilPresent(marker, 3, std::chrono::seconds(10));
    ::kill(caller, SIGKILL);
    int status = 0;
    ::waitpid(caller, &status, 0);
    ASSERT_TRUE(started) << "the run did not start";
    const bool gone = waitUntilGone(marker, std::chrono::seconds(5));
    const auto left = processesWith(marker).size();
    killAll(marker);
    EXPECT_TRUE(gone) << left << " process(es) of the run outlived their caller";

    // The launcher removes the work dir after the last process is reaped: give it a moment.
    std::vector<std::string> leftDirs;
    for (int attempt = 0; attempt < 50; ++attempt) {
        leftDirs.clear();
        std::error_code ec;
        for (const auto& entry : fs::directory_iterator(root.path(), ec))
            leftDirs.push_back(entry.path().filename().string());
        if (leftDirs.empty())
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_TRUE(leftDirs.empty()) << "the work dir " << (leftDirs.empty() ? "" : leftDirs.front())
                                  << " outlived a SIGKILLed caller";
}

// The run's launcher: a sandbench-launcher whose parent is `caller` or its launcher zygote (zygote.h), which
// forks the launchers; -1 when there is none.
pid_t launcherOf(pid_t caller)
{
    auto parentOf = [](pid_t pid, std::string* comm) {
        const auto stat = slurp("/proc/" + std::to_string(pid) + "/stat");
        const auto open = stat.find('(');
        const auto close = stat.rfind(')');
        char state = 0;
        int ppid = 0;
        if (open == std::string::npos || close == std::string::npos
            || std::sscanf(stat.c_str() + close + 1, " %c %d", &state, &ppid) != 2)
            return -1;
        *comm = stat.substr(open + 1, close - open - 1);
        return ppid;
    };
    for (pid_t pid : allPids()) {
        std::string comm;
        std::string parentComm;
        const int ppid = parentOf(pid, &comm);
        if (comm != "sandbench-launc" || ppid <= 0)
            continue;
        if (ppid == caller || (parentOf(ppid, &parentComm) == caller && parentComm == "sandbench-zygot"))
            return pid;
    }
    return -1;
}

// The launcher itself is SIGKILLed (the OOM killer, an impatient user, the Runner's own safety net): the
// run's processes end at once, and the Runner says so without waiting for them to let go of its pipes.
TEST(EscapeSuite, RunEndsWhenTheLauncherIsKilled)
{
    const std::string marker = unique("launcherkill");
    Policy p = bashPolicy();
    p.limits.wallMs = 30000;
    RunResult result;
    std::atomic<bool> returned = false;
    std::thread runner([&] {
        result = runShell("(exec -a " + marker + " sleep 20) &\n(exec -a " + marker
                              + " sleep 20 >/dev/null 2>&1) &\nexec -a " + marker + " sleep 20\n",
                          p);
        returned = true;
    });
    const bool started = waitUntilPresent(marker, 3, std::chrono::seconds(10));
    const pid_t launcher = launcherOf(::getpid());
    if (launcher > 0)
        ::kill(launcher, SIGKILL);
    // Measured from the kill: "did it end", well before the run's own 20 s.
    const bool gone = waitUntilGone(marker, std::chrono::seconds(5));
    const auto left = processesWith(marker).size();
    for (int i = 0; i < 50 && !returned; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    const bool answered = returned;
    killAll(marker);
    runner.join();
    ASSERT_TRUE(started) << describe(result);
    ASSERT_GT(launcher, 0) << "launcher not found";
    EXPECT_EQ(result.outcome, Outcome::InternalError) << describe(result);
    EXPECT_TRUE(gone) << left << " process(es) of the run outlived a SIGKILLed launcher";
    EXPECT_TRUE(answered) << "the Runner waited for the run's processes instead of ending them";
}

// The launcher and then its caller are SIGKILLed: nothing of Sandbench's is left to wait for the run, and
// still none of its processes, nor its work dir, outlives them.
TEST(EscapeSuite, RunEndsWhenTheLauncherAndTheCallerAreKilled)
{
    const std::string marker = unique("bothkilled");
    TempDir root;
    fs::permissions(root.path(), fs::perms::owner_all | fs::perms::others_exec | fs::perms::group_exec);
    const pid_t caller = startCallerOfThreeSleepers(marker, root.path());
    ASSERT_GE(caller, 0);
    const bool started = waitUntilPresent(marker, 3, std::chrono::seconds(10));
    const pid_t launcher = launcherOf(caller);
    if (launcher > 0)
        ::kill(launcher, SIGKILL);
    ::kill(caller, SIGKILL);
    int status = 0;
    ::waitpid(caller, &status, 0);
    ASSERT_TRUE(started) << "the run did not start";
    ASSERT_GT(launcher, 0) << "launcher not found";
    const bool gone = waitUntilGone(marker, std::chrono::seconds(5));
    const auto left = processesWith(marker).size();
    killAll(marker);
    EXPECT_TRUE(gone) << left << " process(es) of the run outlived their launcher and their caller";
    std::vector<std::string> leftDirs;
    for (int attempt = 0; attempt < 50; ++attempt) {
        leftDirs.clear();
        std::error_code ec;
        for (const auto& entry : fs::directory_iterator(root.path(), ec))
            leftDirs.push_back(entry.path().filename().string());
        if (leftDirs.empty())
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_TRUE(leftDirs.empty()) << "the work dir " << (leftDirs.empty() ? "" : leftDirs.front())
                                  << " outlived its SIGKILLed launcher and caller";
}
