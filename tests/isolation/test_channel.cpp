// Channel runs (RunRequest::channelIn, channelOut): the program's standard input and output are the caller's
// channel, over which the two speak while the run goes on (the MCP gateway's JSON-RPC), at every level this
// machine offers. Nothing but the program holds the program's ends, so either side's end is the other's EOF,
// and the run ends by its limits and a cancel as any other.

#include "isolation/doctor.h"
#include "isolation/warm_pool.h"
#include "run_helpers.h"
#include "util/unique_fd.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <future>
#include <map>
#include <optional>
#include <poll.h>
#include <sstream>
#include <string>
#include <sys/socket.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace sb;
using namespace sb::test;
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

// How long a read waits for what a live program sends before the test fails instead of hanging. Far longer
// than any of these runs takes, far shorter than the wall limits of those that must be ended otherwise.
constexpr auto kHangGuard = 30s;

bool writeAll(int fd, std::string_view text)
{
    while (!text.empty()) {
        const ssize_t n = ::write(fd, text.data(), text.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        text.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
}

// What the program writes on the caller's end, a line at a time or all of it.
class Reader {
public:
    explicit Reader(int fd) : m_fd(fd) {}

    // The next line without its newline; nothing at EOF. Past the guard the test fails and gets nothing.
    std::optional<std::string> line()
    {
        for (;;) {
            if (const auto newline = m_buffer.find('\n'); newline != std::string::npos) {
                std::string text = m_buffer.substr(0, newline);
                m_buffer.erase(0, newline + 1);
                return text;
            }
            if (!fill())
                return std::nullopt;
        }
    }

    // Everything until EOF.
    std::string rest()
    {
        while (fill()) {
        }
        return std::exchange(m_buffer, {});
    }

    bool sawEof() const { return m_eof; }

private:
    bool fill()
    {
        if (m_eof)
            return false;
        pollfd p{m_fd, POLLIN, 0};
        const int ready = ::poll(&p, 1, static_cast<int>(std::chrono::milliseconds(kHangGuard).count()));
        if (ready <= 0) {
            ADD_FAILURE() << "nothing came from the program, nor EOF, within the guard";
            return false;
        }
        char buf[65536];
        const ssize_t n = ::read(m_fd, buf, sizeof buf);
        if (n <= 0) {
            m_eof = n == 0;
            return false;
        }
        m_buffer.append(buf, static_cast<std::size_t>(n));
        return true;
    }

    int m_fd;
    std::string m_buffer;
    bool m_eof = false;
};

// A channel run seen from the caller: Runner::run goes on a thread of its own with the program's ends of two
// pipes, while the test holds the others and speaks with the program.
class ChannelRun {
public:
    explicit ChannelRun(RunRequest request, RunnerOptions options = {})
    {
        std::signal(SIGPIPE, SIG_IGN); // writing to a program that is gone: EPIPE, as a caller must expect
        int in[2] = {-1, -1};
        int out[2] = {-1, -1};
        if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0)
            throw std::runtime_error("pipe2");
        request.channelIn = in[0];
        request.channelOut = out[1];
        m_toProgram.reset(in[1]);
        m_fromProgram.reset(out[0]);
        m_reader.emplace(m_fromProgram.get());
        m_run = std::async(std::launch::async, [this, request = std::move(request), options = std::move(options)] {
            return Runner(options).run(request, &m_cancel);
        });
    }
    ~ChannelRun()
    {
        // A test that stopped early must not wait for the program's wall limit.
        m_cancel = true;
        m_toProgram.reset();
        m_fromProgram.reset();
        if (m_run.valid())
            m_run.wait();
    }
    ChannelRun(const ChannelRun&) = delete;
    ChannelRun& operator=(const ChannelRun&) = delete;

    // False once nothing reads what the caller writes (EPIPE).
    bool write(std::string_view text) { return writeAll(m_toProgram.get(), text); }
    void closeInput() { m_toProgram.reset(); }
    Reader& read() { return *m_reader; }
    // The pipes the program's fd 0 and fd 1 are (their inode numbers, as /proc shows them: pipe:[n]).
    std::string inputPipe() const { return pipeName(m_toProgram.get()); }
    std::string outputPipe() const { return pipeName(m_fromProgram.get()); }
    void cancel() { m_cancel = true; }
    bool ended() const { return m_run.wait_for(0s) == std::future_status::ready; }
    RunResult result() { return m_run.get(); }

private:
    static std::string pipeName(int fd)
    {
        struct stat st {};
        ::fstat(fd, &st);
        return "pipe:[" + std::to_string(st.st_ino) + "]";
    }

    std::atomic<bool> m_cancel{false};
    UniqueFd m_toProgram;
    UniqueFd m_fromProgram;
    std::optional<Reader> m_reader;
    std::future<RunResult> m_run;
};

RunRequest command(std::vector<std::string> argv, IsolationLevel level = IsolationLevel::Process)
{
    RunRequest request;
    request.language = Language::Command;
    request.command = std::move(argv);
    request.label = "channel";
    request.policy.level = level;
    request.policy.limits.wallMs = 120000; // ended by the test, never by the clock, unless a test says so
    return request;
}

std::string describe(const RunResult& r)
{
    std::string text = std::string(toString(r.outcome)) + ": " + r.message.text() + " | stderr: " + r.stderrText;
    for (const auto& b : r.blocked)
        text += " | blocked " + b.kind + " " + b.detail;
    return text;
}

// Echoes two lines, one at a time (each answered before the next is sent: the channel is live, not read at
// the end), then ends at the EOF of its input.
void echoesLines(ChannelRun& run)
{
    ASSERT_TRUE(run.write("{\"jsonrpc\":\"2.0\",\"id\":1}\n"));
    EXPECT_EQ(run.read().line(), "{\"jsonrpc\":\"2.0\",\"id\":1}");
    ASSERT_TRUE(run.write("second line\n"));
    EXPECT_EQ(run.read().line(), "second line");
    run.closeInput();
    EXPECT_EQ(run.read().line(), std::nullopt);
    EXPECT_TRUE(run.read().sawEof());
    const auto r = run.result();
    ASSERT_EQ(r.outcome, Outcome::Ok) << describe(r);
    EXPECT_EQ(r.exitCode, 0);
    EXPECT_TRUE(r.stdoutText.empty()) << "a channel run's stdout is the caller's, not captured: " << r.stdoutText;
    EXPECT_FALSE(r.stdoutTruncated);
}

} // namespace

class ChannelAtLevel : public ::testing::TestWithParam<IsolationLevel> {
protected:
    void SetUp() override
    {
        if (highestAvailableLevel() < GetParam())
            GTEST_SKIP() << toString(GetParam()) << " is not available here";
    }
};

TEST_P(ChannelAtLevel, LinesGoBothWaysWhileTheProgramRuns)
{
    ChannelRun run(command({"/bin/cat"}, GetParam()));
    echoesLines(run);
}

TEST_P(ChannelAtLevel, LinesGoBothWaysInASandboxsWorkspace)
{
    TempDir root;
    const fs::path workspace = root.path() / "workspace";
    fs::create_directories(workspace);
    auto request = command({"/bin/cat"}, GetParam());
    request.workspace = workspace;
    ChannelRun run(request);
    echoesLines(run);
    EXPECT_TRUE(fs::is_empty(workspace)) << "the job's folder goes, as after any workspace run";
}

// The program has its channel as fd 0 and 1, its stderr as fd 2, and nothing else of the outside: what its
// /proc/self/fd lists.
TEST_P(ChannelAtLevel, TheProgramSeesTheChannelAndItsStderrAlone)
{
    auto request = command({"/usr/bin/python3", "-I", "-c",
                            "import os\n"
                            "with os.scandir('/proc/self/fd') as listing:\n"
                            "    for e in listing:\n"
                            "        print(e.name, os.readlink(e.path))\n"},
                           GetParam());
    // The process level's Landlock rules leave /proc out; a container has a /proc of its own.
    if (GetParam() == IsolationLevel::Process)
        request.policy.readPaths.push_back("/proc");
    ChannelRun run(request);
    std::map<int, std::string> fds;
    int listings = 0;
    std::istringstream lines(run.read().rest());
    for (std::string line; std::getline(lines, line);) {
        const auto space = line.find(' ');
        ASSERT_NE(space, std::string::npos) << line;
        const std::string target = line.substr(space + 1);
        if (target.starts_with("/proc/") && target.ends_with("/fd"))
            ++listings; // the listing's own descriptor
        else
            fds[std::stoi(line.substr(0, space))] = target;
    }
    const auto r = run.result();
    ASSERT_EQ(r.outcome, Outcome::Ok) << describe(r);
    EXPECT_EQ(listings, 1);
    ASSERT_EQ(fds.size(), 3u) << "descriptors: " << [&] {
        std::string all;
        for (const auto& [fd, target] : fds)
            all += std::to_string(fd) + " " + target + "; ";
        return all;
    }();
    EXPECT_EQ(fds[0], run.inputPipe());
    EXPECT_EQ(fds[1], run.outputPipe());
    EXPECT_TRUE(fds[2].starts_with("pipe:[")) << fds[2];
    EXPECT_NE(fds[2], fds[0]);
    EXPECT_NE(fds[2], fds[1]);
}

// Neither the Runner, nor the launcher, nor a container's pid 1 holds the program's ends: when the program
// lets go of them, the caller sees EOF on its read end and EPIPE on its write end while the run goes on.
TEST_P(ChannelAtLevel, NothingButTheProgramHoldsItsEnds)
{
    ChannelRun run(command({"/usr/bin/python3", "-I", "-c",
                            "import os, time\n"
                            "os.close(0)\n"
                            "os.close(1)\n"
                            "time.sleep(600)\n"},
                           GetParam()));
    EXPECT_EQ(run.read().rest(), "");
    EXPECT_TRUE(run.read().sawEof());
    EXPECT_FALSE(run.write("anyone there?\n"));
    EXPECT_EQ(errno, EPIPE);
    EXPECT_FALSE(run.ended()) << "the program still runs: the EOF is not the run's end";
    run.cancel();
    const auto r = run.result();
    EXPECT_EQ(r.outcome, Outcome::Error) << describe(r);
    EXPECT_EQ(r.message.text(), "cancelled");
}

INSTANTIATE_TEST_SUITE_P(Levels, ChannelAtLevel,
                         ::testing::Values(IsolationLevel::Process, IsolationLevel::Container, IsolationLevel::Strict),
                         [](const auto& level) { return std::string(toString(level.param)); });

// The program's output reaches the caller whole: limits.output_bytes caps what the Runner captures, and a
// channel run's stdout is not captured.
TEST(Channel, OutputIsNotTruncated)
{
    constexpr std::size_t kBytes = 10'000'000;
    auto request = command({"/usr/bin/head", "-c", std::to_string(kBytes), "/dev/zero"});
    ASSERT_LT(request.policy.limits.outputBytes, static_cast<std::int64_t>(kBytes));
    ChannelRun run(request);
    const std::string out = run.read().rest();
    const auto r = run.result();
    ASSERT_EQ(r.outcome, Outcome::Ok) << describe(r);
    EXPECT_EQ(out.size(), kBytes);
    EXPECT_EQ(std::count(out.begin(), out.end(), '\0'), static_cast<std::ptrdiff_t>(kBytes));
    EXPECT_TRUE(r.stdoutText.empty()) << r.stdoutText.size() << " bytes captured";
    EXPECT_FALSE(r.stdoutTruncated);
}

// The caller's EOF is the program's (LinesGoBothWays: cat ends at it); the program's end is the caller's EOF on
// its read end, and its writes fail, though it still holds its write end.
TEST(Channel, TheProgramsEndIsTheCallersEndOfFile)
{
    ChannelRun run(command({"/usr/bin/python3", "-I", "-c", "print('bye')"}));
    EXPECT_EQ(run.read().line(), "bye");
    EXPECT_EQ(run.read().line(), std::nullopt);
    EXPECT_TRUE(run.read().sawEof());
    const auto r = run.result();
    EXPECT_EQ(r.outcome, Outcome::Ok) << describe(r);
    EXPECT_FALSE(run.write("too late\n"));
    EXPECT_EQ(errno, EPIPE);
}

TEST(Channel, TheWallLimitEndsARunWhoseCallerHoldsItsEnds)
{
    auto request = command({"/bin/cat"});
    request.policy.limits.wallMs = 1000;
    ChannelRun run(request);
    const auto r = run.result();
    EXPECT_EQ(r.outcome, Outcome::Timeout) << describe(r);
    EXPECT_EQ(run.read().rest(), "");
    EXPECT_TRUE(run.read().sawEof());
    EXPECT_FALSE(run.write("too late\n"));
    EXPECT_EQ(errno, EPIPE);
}

TEST(Channel, CancelEndsTheRun)
{
    ChannelRun run(command({"/bin/cat"}));
    ASSERT_TRUE(run.write("ping\n"));
    EXPECT_EQ(run.read().line(), "ping"); // the program runs
    run.cancel();
    const auto r = run.result();
    EXPECT_EQ(r.outcome, Outcome::Error) << describe(r);
    EXPECT_EQ(r.message.text(), "cancelled");
    EXPECT_EQ(run.read().line(), std::nullopt);
    EXPECT_TRUE(run.read().sawEof());
}

// A socket may be both ends: the program reads and writes the one descriptor.
TEST(Channel, OneSocketServesBothWays)
{
    int pair[2] = {-1, -1};
    ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), 0);
    const UniqueFd caller(pair[1]);
    auto request = command({"/bin/cat"});
    request.channelIn = pair[0];
    request.channelOut = pair[0];
    auto running = std::async(std::launch::async, [&] { return Runner().run(request); });
    ASSERT_TRUE(writeAll(caller.get(), "over a socket\n"));
    Reader reader(caller.get());
    EXPECT_EQ(reader.line(), "over a socket");
    ::shutdown(caller.get(), SHUT_WR);
    EXPECT_EQ(reader.line(), std::nullopt);
    EXPECT_TRUE(reader.sawEof());
    const auto r = running.get();
    EXPECT_EQ(r.outcome, Outcome::Ok) << describe(r);
}

// One descriptor without the other is refused, and run() still takes (closes) the one it was given.
TEST(Channel, OneDescriptorAloneIsRefused)
{
    std::signal(SIGPIPE, SIG_IGN);
    int in[2] = {-1, -1};
    ASSERT_EQ(::pipe2(in, O_CLOEXEC), 0);
    const UniqueFd toProgram(in[1]);
    auto request = command({"/bin/cat"});
    request.channelIn = in[0];
    auto r = Runner().run(request);
    EXPECT_EQ(r.outcome, Outcome::InternalError);
    EXPECT_NE(r.message.text().find("RunRequest::channelOut is not set"), std::string::npos) << r.message;
    EXPECT_FALSE(writeAll(toProgram.get(), "x")) << "run() closes the channel's descriptor it was given";
    EXPECT_EQ(errno, EPIPE);

    int out[2] = {-1, -1};
    ASSERT_EQ(::pipe2(out, O_CLOEXEC), 0);
    const UniqueFd fromProgram(out[0]);
    request = command({"/bin/cat"});
    request.channelOut = out[1];
    r = Runner().run(request);
    EXPECT_EQ(r.outcome, Outcome::InternalError);
    EXPECT_NE(r.message.text().find("RunRequest::channelIn is not set"), std::string::npos) << r.message;
    Reader reader(fromProgram.get());
    EXPECT_EQ(reader.rest(), "");
    EXPECT_TRUE(reader.sawEof()) << "run() closes the channel's descriptor it was given";
}

TEST(Channel, ADescriptorThatIsNotOpenIsRefused)
{
    int out[2] = {-1, -1};
    ASSERT_EQ(::pipe2(out, O_CLOEXEC), 0);
    const UniqueFd fromProgram(out[0]);
    const int closed = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    ASSERT_GE(closed, 0);
    ::close(closed);
    auto request = command({"/bin/cat"});
    request.channelIn = closed;
    request.channelOut = out[1];
    const auto r = Runner().run(request);
    EXPECT_EQ(r.outcome, Outcome::InternalError);
    EXPECT_NE(r.message.text().find("RunRequest::channelIn (fd " + std::to_string(closed) + ") is not open"),
              std::string::npos)
        << r.message;
}

// A pooled sandbox's standard descriptors were fixed when it was prepared: a channel run starts cold.
TEST(Channel, NeverTakesAPooledSandbox)
{
    WarmPoolOptions poolOptions;
    poolOptions.prototype = command({"/bin/cat"});
    poolOptions.size = 1;
    auto pool = std::make_shared<WarmPool>(poolOptions);
    ASSERT_TRUE(pool->waitUntilReady(kHangGuard)) << pool->lastError();
    RunnerOptions options;
    options.warmPool = pool;
    auto request = command({"/bin/cat"});
    EXPECT_TRUE(pool->serves(request));
    request.channelIn = 0; // any open descriptors: serves() only looks
    request.channelOut = 1;
    EXPECT_FALSE(pool->serves(request));
    ChannelRun run(command({"/bin/cat"}), options);
    echoesLines(run);
    EXPECT_EQ(pool->stats().handedOut, 0u);
}

// Nor is a pool prepared for one: it says why, and no launcher gets the prototype's descriptors.
TEST(Channel, APoolForChannelRunsIsRefused)
{
    WarmPoolOptions poolOptions;
    poolOptions.prototype = command({"/bin/cat"});
    poolOptions.prototype.channelIn = 0;
    poolOptions.prototype.channelOut = 1;
    poolOptions.size = 1;
    const WarmPool pool(poolOptions);
    const auto deadline = std::chrono::steady_clock::now() + kHangGuard;
    while (pool.stats().failed == 0 && pool.stats().ready == 0 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(10ms);
    EXPECT_EQ(pool.stats().ready, 0u);
    EXPECT_NE(pool.lastError().find("channel"), std::string::npos) << pool.lastError();
}
