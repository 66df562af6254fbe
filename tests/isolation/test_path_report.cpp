// Paths refused by Landlock or the mount layout are reported as `path` events by the launcher, without
// the program's help; every test also checks that the refused effect did not happen (the kernel stays
// the enforcer, the report is only a report).

#include "run_helpers.h"

#include "isolation/doctor.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace sb;
using namespace sb::test;
namespace fs = std::filesystem;

namespace {

constexpr const char* kSecretText = "SANDBENCH-PATH-REPORT-SECRET";

// A file the run must not read, in a folder every uid may enter: the refusal must come from the sandbox
// (Landlock, the layout), not from file permissions.
class HostSecret {
public:
    HostSecret()
    {
        fs::permissions(m_dir.path(), fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec
                                          | fs::perms::others_read | fs::perms::others_exec);
        std::ofstream(file()) << kSecretText << "\n";
        fs::permissions(file(), fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read
                                    | fs::perms::others_read);
    }
    fs::path dir() const { return m_dir.path(); }
    fs::path file() const { return m_dir.path() / "secret.txt"; }

private:
    TempDir m_dir;
};

std::vector<IsolationLevel> availableLevels()
{
    std::vector<IsolationLevel> levels{IsolationLevel::Process};
    const IsolationLevel highest = highestAvailableLevel();
    for (auto level : {IsolationLevel::Container, IsolationLevel::Strict}) {
        if (level <= highest)
            levels.push_back(level);
    }
    return levels;
}

Policy at(IsolationLevel level, bool guard = true)
{
    Policy p;
    p.level = level;
    p.importGuard = guard;
    if (!guard)
        p.blockedImports = {};
    return p;
}

std::string events(const RunResult& r)
{
    std::string out;
    for (const auto& b : r.blocked)
        out += b.kind + ": " + b.detail + "\n";
    return out;
}

std::vector<BlockedEvent> pathEvents(const RunResult& r)
{
    std::vector<BlockedEvent> out;
    std::copy_if(r.blocked.begin(), r.blocked.end(), std::back_inserter(out),
                 [](const BlockedEvent& b) { return b.kind == "path"; });
    return out;
}

// The reason the level gives for refusing to read a host file.
std::string readRefusal(IsolationLevel level)
{
    return level == IsolationLevel::Process ? "outside the policy's readable paths" : "not in the sandbox's root";
}

std::string quoted(const fs::path& p)
{
    return "'" + p.string() + "'";
}

} // namespace

TEST(PathReport, PlainRunsReportNothing)
{
    for (auto level : availableLevels()) {
        SCOPED_TRACE(toString(level));
        const auto py = runPython("print(1)\n", at(level));
        EXPECT_EQ(py.outcome, Outcome::Ok) << py.message << py.stderrText;
        EXPECT_EQ(py.stdoutText, "1\n");
        EXPECT_TRUE(py.blocked.empty()) << events(py);

        const auto sh = runShell("echo hi\n", at(level));
        EXPECT_EQ(sh.outcome, Outcome::Ok) << sh.message << sh.stderrText;
        EXPECT_EQ(sh.stdoutText, "hi\n");
        EXPECT_TRUE(sh.blocked.empty()) << events(sh);

        // A little more of what ordinary programs do: bash (terminal probe, its own user name), files in
        // the work dir, a temp file, a library that reads system configuration.
        Policy bash = at(level);
        bash.shell = "/bin/bash";
        const auto b = runShell("echo data > f && cat f && mkdir d && mv f d/g && rm -r d && ls -l >/dev/null\n", bash);
        EXPECT_EQ(b.outcome, Outcome::Ok) << b.message << b.stderrText;
        EXPECT_TRUE(b.blocked.empty()) << events(b);
        const auto lib = runPython("import tempfile, json, urllib.request\nwith tempfile.TemporaryFile() as f:\n"
                                   "    f.write(b'x')\nprint('ok')\n",
                                   at(level, false));
        EXPECT_EQ(lib.outcome, Outcome::Ok) << lib.message << lib.stderrText;
        EXPECT_TRUE(lib.blocked.empty()) << events(lib);
        // A runtime's start: the limits of its cgroup, as Node's libuv reads them (v1 and v2 spellings; the
        // sandbox answers with whatever it lets through, here nothing).
        const auto runtime = runPython(
            "for p in ('/sys/fs/cgroup/memory/memory.soft_limit_in_bytes', '/sys/fs/cgroup/memory/memory.limit_in_bytes',"
            " '/sys/fs/cgroup/memory.max', '/sys/fs/cgroup/cpu.max', '/sys/fs/cgroup/cpu/cpu.cfs_quota_us'):\n"
            "    try:\n"
            "        open(p).read()\n"
            "    except OSError:\n"
            "        pass\n"
            "print('ok')\n",
            at(level, false));
        EXPECT_EQ(runtime.stdoutText, "ok\n") << runtime.message << runtime.stderrText;
        EXPECT_TRUE(runtime.blocked.empty()) << events(runtime);
        // A write there is no probe: it is reported (the host's file of either cgroup version).
        for (const char* limit : {"/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "/sys/fs/cgroup/cpu.max"}) {
            if (!fs::exists(limit))
                continue;
            const auto write = runPython(std::string("try:\n    open('") + limit
                                             + "', 'w').write('1')\nexcept OSError:\n    pass\n",
                                         at(level, false));
            EXPECT_FALSE(pathEvents(write).empty()) << limit << ": " << events(write);
        }
    }
}

TEST(PathReport, ReadingAHostSecretIsReportedAndRefused)
{
    HostSecret secret;
    for (auto level : availableLevels()) {
        SCOPED_TRACE(toString(level));
        const auto sh = runShell("cat " + quoted(secret.file()) + "\n", at(level));
        EXPECT_EQ(sh.stdoutText.find(kSecretText), std::string::npos);
        EXPECT_EQ(sh.outcome, Outcome::Blocked) << sh.message << sh.stderrText;
        EXPECT_TRUE(hasBlocked(sh, "path", fmt::format("open {} (read): {}", secret.file().string(), readRefusal(level))))
            << events(sh);

        const auto py = runPython("print(open('" + secret.file().string() + "').read())\n", at(level));
        EXPECT_EQ(py.stdoutText.find(kSecretText), std::string::npos);
        EXPECT_EQ(py.outcome, Outcome::Blocked) << py.message;
        EXPECT_TRUE(hasBlocked(py, "path", "open " + secret.file().string() + " (read)")) << events(py);
        EXPECT_NE(py.message.text().find(secret.file().string()), std::string::npos) << py.message;
    }
}

TEST(PathReport, WritingOutsideTheWorkDirIsReportedAndDoesNotHappen)
{
    TempDir target;
    fs::permissions(target.path(), fs::perms::all); // even a world-writable folder
    const fs::path file = target.path() / "escaped";
    const fs::path dir = target.path() / "newdir";
    for (auto level : availableLevels()) {
        SCOPED_TRACE(toString(level));
        const auto r = runShell("echo pwned > " + quoted(file) + "\nmkdir " + quoted(dir) + "\nmkdir /usr/sandbench-x\n"
                                "echo inside > ./inside && echo inside-ok\n",
                                at(level));
        EXPECT_FALSE(fs::exists(file));
        EXPECT_FALSE(fs::exists(dir));
        EXPECT_FALSE(fs::exists("/usr/sandbench-x"));
        EXPECT_NE(r.stdoutText.find("inside-ok"), std::string::npos) << "the work dir stays writable";
        EXPECT_EQ(r.outcome, Outcome::Blocked) << r.message;
        // At the process level the folder is there and Landlock refuses; a container does not have it.
        const std::string why = level == IsolationLevel::Process ? "outside the policy's writable paths"
                                                                 : "not in the sandbox's root";
        EXPECT_TRUE(hasBlocked(r, "path", fmt::format("open {} (write): {}", file.string(), why))) << events(r);
        EXPECT_TRUE(hasBlocked(r, "path", fmt::format("mkdir {} (write): {}", dir.string(), why))) << events(r);
        EXPECT_TRUE(hasBlocked(r, "path", "mkdir /usr/sandbench-x (write): outside the policy's writable paths"))
            << events(r);
        EXPECT_FALSE(hasBlocked(r, "path", "inside")) << events(r);
    }
}

TEST(PathReport, RelativeAndDirfdRelativePathsAreResolvedAsTheProgramSawThem)
{
    HostSecret secret;
    const std::string name = secret.file().filename().string();
    // Process level: the secret's folder exists for the run, Landlock refuses what is in it.
    const auto r = runPython("import os\nd = os.open('" + secret.dir().string() + "', os.O_PATH)\n"
                             "for attempt in (lambda: os.open('" + name + "', os.O_RDONLY, dir_fd=d),\n"
                             "                lambda: open(os.path.relpath('" + secret.file().string() + "')),\n"
                             "                lambda: (os.chdir('" + secret.dir().string() + "'), open('./" + name + "'))):\n"
                             "    try:\n        attempt()\n        print('READ')\n    except OSError as e:\n"
                             "        print('refused', e.errno)\n",
                             at(IsolationLevel::Process, false));
    EXPECT_EQ(r.stdoutText.find("READ"), std::string::npos) << r.stdoutText;
    const std::string full = "open " + secret.file().string() + " (read, as \"";
    EXPECT_TRUE(hasBlocked(r, "path", full + name + "\")")) << events(r);   // dirfd-relative
    EXPECT_TRUE(hasBlocked(r, "path", full + "../")) << events(r);          // up from the work dir
    EXPECT_TRUE(hasBlocked(r, "path", full + "./" + name + "\")")) << events(r); // from a new cwd
    for (const auto& e : pathEvents(r))
        EXPECT_NE(e.detail.find(secret.file().string()), std::string::npos) << e.detail;

    // A container: relative paths climb its own root, and what they name there is looked up on the host.
    if (highestAvailableLevel() >= IsolationLevel::Container) {
        const std::string fromRoot = secret.file().string().substr(1);
        const auto c = runPython("import os\nos.chdir('/usr')\ntry:\n    print(open('../" + fromRoot +
                                     "').read())\nexcept OSError as e:\n    print('refused', e.errno)\n",
                                 at(IsolationLevel::Container, false));
        EXPECT_EQ(c.stdoutText.find(kSecretText), std::string::npos);
        EXPECT_TRUE(hasBlocked(c, "path", "open " + secret.file().string() + " (read, as \"../" + fromRoot +
                                              "\"): not in the sandbox's root"))
            << events(c);
    }
}

TEST(PathReport, SymlinksInTheWorkDirPointingOutAreReportedByWhatTheyReach)
{
    HostSecret secret;
    TempDir outside;
    fs::permissions(outside.path(), fs::perms::all);
    const fs::path created = outside.path() / "created-through-a-link";
    for (auto level : availableLevels()) {
        SCOPED_TRACE(toString(level));
        const auto r = runPython("import os\nos.symlink('" + secret.file().string() + "', 'link')\n"
                                 "os.symlink('" + created.string() + "', 'dangling')\n"
                                 "os.symlink('link', 'chain')\n"
                                 "for name, mode in (('link', 'r'), ('chain', 'r'), ('dangling', 'w')):\n"
                                 "    try:\n        f = open(name, mode)\n        print('OPENED', name, f.read() if mode == 'r' else '')\n"
                                 "    except OSError as e:\n        print('refused', name, e.errno)\n",
                                 at(level, false));
        EXPECT_EQ(r.stdoutText.find(kSecretText), std::string::npos) << r.stdoutText;
        EXPECT_EQ(r.stdoutText.find("OPENED"), std::string::npos) << r.stdoutText;
        EXPECT_FALSE(fs::exists(created));
        EXPECT_TRUE(hasBlocked(r, "path", "open " + secret.file().string() + " (read, as \"link\")")) << events(r);
        EXPECT_TRUE(hasBlocked(r, "path", "open " + secret.file().string() + " (read, as \"chain\")")) << events(r);
        EXPECT_TRUE(hasBlocked(r, "path", "open " + created.string() + " (write, as \"dangling\")")) << events(r);

        // A folder link in the work dir, first to a folder of its own, then swapped to the secret's: the
        // same absolute spelling must be judged by where it leads now.
        const auto swapped = runPython("import os\nos.mkdir('mine')\nopen('mine/secret.txt', 'w').write('own')\n"
                                       "os.symlink('mine', 'd')\nspelled = os.path.abspath('d') + '/secret.txt'\n"
                                       "print(open(spelled).read())\nos.symlink('" + secret.dir().string() + "', 'e')\n"
                                       "os.replace('e', 'd')\ntry:\n    print(open(spelled).read())\n"
                                       "except OSError as e:\n    print('refused', e.errno)\n",
                                       at(level, false));
        EXPECT_EQ(swapped.stdoutText.find(kSecretText), std::string::npos) << swapped.stdoutText;
        EXPECT_TRUE(swapped.stdoutText.starts_with("own\nrefused")) << swapped.stdoutText << swapped.stderrText;
        EXPECT_TRUE(hasBlocked(swapped, "path", "open " + secret.file().string() + " (read, as ")) << events(swapped);
        EXPECT_EQ(pathEvents(swapped).size(), 1U) << events(swapped);
    }
}

TEST(PathReport, ExecutingOutsideTheReadablePathsIsReported)
{
    HostSecret secret;
    const fs::path program = secret.dir() / "tool";
    fs::copy_file("/bin/true", program);
    fs::permissions(program, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec
                                 | fs::perms::others_read | fs::perms::others_exec);
    for (auto level : availableLevels()) {
        SCOPED_TRACE(toString(level));
        const auto r = runShell(quoted(program) + " && echo RAN\n", at(level));
        EXPECT_EQ(r.stdoutText.find("RAN"), std::string::npos);
        const std::string why = level == IsolationLevel::Process ? "outside the policy's readable paths"
                                                                 : "not in the sandbox's root";
        EXPECT_TRUE(hasBlocked(r, "path", fmt::format("exec {} (execute): {}", program.string(), why))) << events(r);
    }
}

TEST(PathReport, RepeatsAreReportedOnceAndTheListIsCapped)
{
    HostSecret secret;
    for (int i = 0; i < 150; ++i)
        std::ofstream(secret.dir() / fmt::format("f{}", i)) << i;
    const auto r = runPython("for _ in range(50):\n    try:\n        open('" + secret.file().string() + "')\n"
                             "    except OSError:\n        pass\nfor i in range(150):\n    try:\n"
                             "        open('" + secret.dir().string() + "/f%d' % i)\n    except OSError:\n        pass\n"
                             "print('done')\n",
                             at(IsolationLevel::Process));
    EXPECT_EQ(r.stdoutText, "done\n") << r.stderrText;
    const auto paths = pathEvents(r);
    ASSERT_EQ(paths.size(), 101U) << events(r);
    EXPECT_EQ(std::count_if(paths.begin(), paths.end(),
                            [&](const BlockedEvent& e) { return e.detail.find(secret.file().string()) != std::string::npos; }),
              1);
    EXPECT_NE(paths.back().detail.find("more refused paths were not listed"), std::string::npos) << paths.back().detail;
}

// A hostile program rewrites the path between the launcher's copy and the kernel's read of it, from
// another thread, and swaps a symlink under a third: the worst it gets is a wrong report, never the file.
TEST(PathReport, RacingThePathGivesAtWorstAWrongReportNeverTheFile)
{
    HostSecret secret;
    const std::string flipper = R"PY(
import ctypes, os, threading
libc = ctypes.CDLL(None, use_errno=True)
open('benign.txt', 'w').write('benign\n')
good = os.path.abspath('benign.txt').encode()
bad = SECRET.encode()
buf = ctypes.create_string_buffer(max(len(good), len(bad)) + 1)
stop = False
def flip():
    while not stop:
        ctypes.memmove(buf, bad, len(bad) + 1)
        ctypes.memmove(buf, good, len(good) + 1)
def swap():
    while not stop:
        os.symlink(SECRET, 'tmp'); os.replace('tmp', 'link')
        os.symlink('benign.txt', 'tmp'); os.replace('tmp', 'link')
os.symlink('benign.txt', 'link')
threads = [threading.Thread(target=flip), threading.Thread(target=swap)]
for t in threads: t.start()
leaked = 0
opened = 0
for i in range(3000):
    for path in (buf, b'link'):
        fd = libc.open(path, os.O_RDONLY)
        if fd >= 0:
            opened += 1
            if b'SECRET' in os.read(fd, 200): leaked += 1
            os.close(fd)
stop = True
for t in threads: t.join()
print('leaked', leaked, 'opened', opened)
)PY";
    for (auto level : availableLevels()) {
        SCOPED_TRACE(toString(level));
        Policy p = at(level, false);
        p.limits.wallMs = 60000;
        p.limits.cpuMs = 60000;
        const auto r = runPython("SECRET = '" + secret.file().string() + "'\n" + flipper, p);
        EXPECT_EQ(r.stdoutText.find(kSecretText), std::string::npos);
        EXPECT_NE(r.stdoutText.find("leaked 0 opened"), std::string::npos) << r.stdoutText << r.stderrText;
        EXPECT_EQ(r.stdoutText.find("opened 0\n"), std::string::npos) << "the benign file was never opened?";
        const auto paths = pathEvents(r);
        EXPECT_LE(paths.size(), 101U);
        for (const auto& e : paths)
            EXPECT_TRUE(e.detail.starts_with("open ")) << e.detail;
    }
}

// The calls the launcher inspects wait for it killable-only once it has them: signals to a shell that
// runs background jobs (SIGCHLD) while it opens files for redirections do not make those opens fail.
TEST(PathReport, SignalsDuringInspectedCallsDoNotBreakThem)
{
    for (auto level : availableLevels()) {
        SCOPED_TRACE(toString(level));
        Policy p = at(level);
        p.limits.wallMs = 60000;
        const auto r = runShell("i=0; fails=0\nwhile [ $i -lt 100 ]; do\n  /bin/true &\n  j=0\n"
                                "  while [ $j -lt 10 ]; do echo x > f || fails=$((fails+1)); j=$((j+1)); done\n"
                                "  wait\n  i=$((i+1))\ndone\necho fails=$fails\n",
                                p);
        EXPECT_EQ(r.outcome, Outcome::Ok) << r.message << r.stderrText;
        EXPECT_EQ(r.stdoutText, "fails=0\n") << r.stderrText;
        EXPECT_EQ(r.stderrText, "");
    }
}

// Inspecting every path call must not keep the launcher from its other duties: a program that does
// nothing but path calls, from several threads, still ends at its wall-clock limit.
TEST(PathReport, AFloodOfPathCallsStillEndsAtTheDeadline)
{
    Policy p = at(IsolationLevel::Process, false);
    p.limits.wallMs = 1000;
    const auto r = runPython("import os, threading\ndef flood():\n    while True:\n        try:\n"
                             "            os.close(os.open('/etc/hostname', os.O_RDONLY))\n"
                             "        except OSError:\n            pass\n"
                             "for _ in range(4):\n    threading.Thread(target=flood, daemon=True).start()\nflood()\n",
                             p);
    EXPECT_EQ(r.outcome, Outcome::Timeout) << r.message;
    EXPECT_LT(r.durationMs, 1000.0 + 500.0);
    EXPECT_TRUE(hasBlocked(r, "path", "/etc/hostname")) << events(r);
}
