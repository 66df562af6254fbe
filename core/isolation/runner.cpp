#include "isolation/runner.h"

#include "isolation/container.h"
#include "isolation/doctor.h"
#include "isolation/launch_spec.h"
#include "isolation/netproxy.h"
#include "isolation/python_guard.h"
#include "isolation/strict.h"

#include <fmt/format.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <map>
#include <sstream>
#include <poll.h>
#include <spawn.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace sb {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Runs started by root become a uid/gid of their own from this range: nobody else owns it, so the run
// cannot signal or read other processes, RLIMIT_NPROC counts this run alone, and one kill(-1) as that
// uid ends everything the run started.
constexpr std::uint32_t kTransientIdBase = 1'600'000'000;
constexpr std::uint32_t kTransientIdRange = 1'000'000;

// Public system configuration that runtimes read on their own (refusing it only made a path report of
// every such run): /etc/locale.alias whenever a program sets its locale (Python at every start, through
// /usr/share/locale/locale.alias); OpenSSL's configuration and the CA certificates whenever a program
// loads OpenSSL (Python's ssl, imported by urllib), which TLS through the network allowlist needs anyway.
// /etc/ssl/private stays out.
constexpr std::array kSystemReadPaths = {"/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32",
                                         "/etc/ld.so.cache", "/etc/localtime", "/etc/locale.alias",
                                         "/etc/ssl/openssl.cnf", "/etc/ssl/certs", "/etc/alternatives",
                                         "/etc/python3", "/etc/python3.11"};
constexpr std::array kDevicePaths = {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"};

class Fd {
public:
    Fd() = default;
    explicit Fd(int fd) : m_fd(fd) {}
    ~Fd() { reset(); }
    Fd(Fd&& o) noexcept : m_fd(std::exchange(o.m_fd, -1)) {}
    Fd& operator=(Fd&& o) noexcept
    {
        if (this != &o) {
            reset();
            m_fd = std::exchange(o.m_fd, -1);
        }
        return *this;
    }
    int get() const { return m_fd; }
    void reset()
    {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = -1;
    }

private:
    int m_fd = -1;
};

struct Pipe {
    Fd read;
    Fd write;
    static Result<Pipe> make()
    {
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC) != 0)
            return fail(fmt::format("pipe: {}", std::strerror(errno)));
        return Pipe{Fd(fds[0]), Fd(fds[1])};
    }
};

std::string makeRunId()
{
    std::array<unsigned char, 16> b{};
    if (::getrandom(b.data(), b.size(), 0) != static_cast<ssize_t>(b.size())) {
        const auto now = static_cast<std::uint64_t>(Clock::now().time_since_epoch().count());
        std::memcpy(b.data(), &now, sizeof now);
    }
    b[6] = static_cast<unsigned char>((b[6] & 0x0f) | 0x40); // version 4
    b[8] = static_cast<unsigned char>((b[8] & 0x3f) | 0x80); // RFC 4122 variant
    return fmt::format("{:02x}{:02x}{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}-{:02x}{:02x}{:02x}{:02x}{:02x}{:02x}",
                       b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
                       b[15]);
}

std::uint32_t transientId()
{
    std::uint32_t r = 0;
    if (::getrandom(&r, sizeof r, 0) != sizeof r)
        r = static_cast<std::uint32_t>(::getpid());
    return kTransientIdBase + r % kTransientIdRange;
}

// Tasks (processes and threads) the uid has now: an unprivileged caller's RLIMIT_NPROC counts them too.
std::int64_t tasksOfUid(uid_t uid)
{
    std::int64_t tasks = 0;
    DIR* proc = ::opendir("/proc");
    if (!proc)
        return 0;
    while (const dirent* e = ::readdir(proc)) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        struct stat st {};
        const std::string dir = std::string("/proc/") + e->d_name;
        if (::stat(dir.c_str(), &st) != 0 || st.st_uid != uid)
            continue;
        std::ifstream stat(dir + "/stat");
        std::string line;
        std::getline(stat, line);
        const auto close = line.rfind(')');
        if (close == std::string::npos)
            continue;
        std::istringstream fields(line.substr(close + 2));
        std::string field;
        for (int i = 3; i <= 20 && fields >> field; ++i) {
            if (i == 20)
                tasks += std::atoll(field.c_str());
        }
    }
    ::closedir(proc);
    return tasks;
}

bool containsAny(const std::string& text, std::initializer_list<const char*> needles)
{
    for (const char* n : needles) {
        if (text.find(n) != std::string::npos)
            return true;
    }
    return false;
}

struct Capture {
    std::string text;
    bool truncated = false;
    std::size_t cap = 0;
    void append(const char* data, std::size_t n)
    {
        const std::size_t room = cap > text.size() ? cap - text.size() : 0;
        if (n > room)
            truncated = true;
        text.append(data, std::min(n, room));
    }
};

std::vector<std::string> cleanEnvironment(const Policy& policy, const fs::path& workDir)
{
    std::map<std::string, std::string> env = {
        {"PATH", "/usr/local/bin:/usr/bin:/bin"},
        {"HOME", workDir.string()},
        {"TMPDIR", workDir.string()},
        {"LANG", "C.UTF-8"},
        {"PYTHONDONTWRITEBYTECODE", "1"},
        {"PYTHONUNBUFFERED", "1"},
    };
    for (const auto& name : policy.envPass) {
        if (const char* value = std::getenv(name.c_str()))
            env[name] = value;
    }
    for (const auto& [k, v] : policy.envSet)
        env[k] = v;
    std::vector<std::string> out;
    for (const auto& [k, v] : env)
        out.push_back(k + "=" + v);
    return out;
}

// A command's program: a path as given, else the first executable of that name on the sandbox's PATH.
Result<std::string> findProgram(const std::string& name)
{
    if (name.find('/') != std::string::npos) {
        std::error_code ec;
        const auto path = fs::absolute(name, ec);
        if (ec || ::access(path.c_str(), X_OK) != 0 || fs::is_directory(path, ec))
            return fail(fmt::format("{} is not an executable file", name));
        return path.string();
    }
    for (const char* dir : {"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"}) {
        const auto path = fs::path(dir) / name;
        std::error_code ec;
        if (::access(path.c_str(), X_OK) == 0 && !fs::is_directory(path, ec))
            return path.string();
    }
    return fail(fmt::format("{}: command not found on the sandbox's PATH (/usr/local/bin:/usr/bin:/bin)", name));
}

// The launcher died without a result (killed from outside): its run must not outlive it. The program's
// first process leads the run's process group (and is pid 1 of a container's namespaces); a run of a
// transient uid is ended entirely by one kill(-1) as that uid.
void killOrphanedRun(pid_t started, const LaunchSpec& spec)
{
    ::kill(started, SIGKILL);
    ::kill(-started, SIGKILL);
    if (spec.dropPrivileges)
        killAllOfTransientUid(spec.uid, spec.gid);
}

} // namespace

Runner::Runner(RunnerOptions options) : m_options(std::move(options)) {}

Result<fs::path> Runner::launcher() const
{
    if (!m_options.launcherPath.empty()) {
        if (::access(m_options.launcherPath.c_str(), X_OK) == 0)
            return m_options.launcherPath;
        return fail(fmt::format("launcher {} is missing or not executable", m_options.launcherPath.string()));
    }
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    if (ec)
        return fail("cannot locate this program (/proc/self/exe): " + ec.message());
    for (const fs::path& candidate :
         {self.parent_path() / "sandbench-launcher", self.parent_path().parent_path() / "libexec/sandbench/sandbench-launcher"}) {
        if (::access(candidate.c_str(), X_OK) == 0)
            return candidate;
    }
    return fail(fmt::format("sandbench-launcher not found beside {} or in ../libexec/sandbench", self.string()));
}

RunResult Runner::run(const RunRequest& request, const std::atomic<bool>* cancel) const
{
    RunResult result;
    result.runId = makeRunId();
    result.startedAtMs = std::chrono::duration_cast<std::chrono::milliseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
    result.isolation.level = request.policy.level;
    auto refuse = [&](std::string message) {
        result.outcome = Outcome::InternalError;
        result.message = std::move(message);
        return result;
    };

    Policy policy = request.policy;
    // A run never silently gets less than it asked for: below the asked level only when the policy says so.
    const IsolationLevel available = m_options.availableLevel.value_or(highestAvailableLevel());
    if (policy.level > available) {
        if (!policy.allowLowerLevel)
            return refuse(fmt::format("isolation level '{}' is not available here (`sandbench doctor` says why); the "
                                      "run was refused rather than run with less isolation",
                                      toString(policy.level)));
        result.message = fmt::format("ran at level '{}': '{}' is not available here and the policy allows a lower "
                                     "level",
                                     toString(available), toString(policy.level));
        policy.level = available;
    }
    result.isolation.level = policy.level;
    const bool python = request.language == Language::Python;
    const bool command = request.language == Language::Command;
    std::string program; // what is exec'd: the interpreter, or the command's program
    if (command) {
        if (request.command.empty() || request.command.front().empty())
            return refuse("no command to run");
        auto found = findProgram(request.command.front());
        if (!found)
            return refuse(found.error().message);
        program = *found;
    } else {
        program = python ? policy.python : policy.shell;
        if (::access(program.c_str(), X_OK) != 0)
            return refuse(fmt::format("interpreter {} is not available: {}", program, std::strerror(errno)));
    }
    auto launcherPath = launcher();
    if (!launcherPath)
        return refuse(launcherPath.error().message);

    // A private work dir, owned by the identity the run will have, removed afterwards.
    std::error_code ec;
    const fs::path root = !m_options.workRoot.empty() ? m_options.workRoot
                          : std::getenv("TMPDIR") && *std::getenv("TMPDIR") ? fs::path(std::getenv("TMPDIR"))
                                                                             : fs::path("/tmp");
    const fs::path workDir = root / ("sandbench-run-" + result.runId);
    if (::mkdir(workDir.c_str(), 0700) != 0)
        return refuse(fmt::format("cannot create work dir {}: {}", workDir.string(), std::strerror(errno)));
    struct WorkDirGuard {
        fs::path dir;
        ~WorkDirGuard() { removeWorkDir(dir); }
    } guard{workDir};

    LaunchSpec spec;
    spec.workDir = workDir.string();
    if (policy.network == NetworkMode::Allowlist && policy.level == IsolationLevel::Process)
        return refuse("the network allowlist needs the container or strict level (an empty network namespace "
                      "with Sandbench's proxy); the run was refused rather than run with the network open");
    const bool strict = policy.level == IsolationLevel::Strict;
    spec.container = policy.level == IsolationLevel::Container || strict;
    spec.syscalls = strict ? strictSyscalls(policy.syscalls) : policy.syscalls;
    if (strict) {
        spec.tmpSizeMb = 0; // strict: no writable path but the work dir
        spec.cgroups = true;
    }
    // Where the program sees its work dir: the same path on the host, /work in a container.
    const fs::path seenWorkDir = spec.container ? fs::path(container::kWorkDir) : workDir;
    spec.limits = policy.limits;
    const bool root_caller = ::geteuid() == 0;
    if (root_caller) {
        spec.dropPrivileges = true;
        spec.uid = transientId();
        spec.gid = spec.uid;
    } else {
        spec.processBase = tasksOfUid(::getuid());
    }

    const fs::path snippet = workDir / (python ? "snippet.py" : "snippet.sh");
    if (!command) {
        std::ofstream out(snippet, std::ios::binary);
        out.write(request.source.data(), static_cast<std::streamsize>(request.source.size()));
        if (!out)
            return refuse(fmt::format("cannot write the snippet to {}", snippet.string()));
    }
    if (spec.dropPrivileges) {
        if (::chown(workDir.c_str(), spec.uid, spec.gid) != 0
            || (!command && ::chown(snippet.c_str(), spec.uid, spec.gid) != 0))
            return refuse(fmt::format("cannot hand the work dir to the run's identity: {}", std::strerror(errno)));
    }

    const fs::path seenSnippet = seenWorkDir / snippet.filename();
    if (python) {
        spec.argv = {program, policy.sitePackages ? "-I" : "-IS", "-B", "-c",
                     pythonPrelude(policy.blockedImports, policy.importGuard), seenSnippet.string()};
    } else if (command) {
        spec.argv = request.command;
        spec.argv.front() = program;
    } else {
        spec.argv = {program, seenSnippet.string()};
    }
    spec.env = cleanEnvironment(policy, seenWorkDir);
    if (policy.network == NetworkMode::Allowlist) {
        spec.networkAllow = policy.networkAllow;
        const std::string proxy = fmt::format("http://127.0.0.1:{}", netproxy::kPort);
        for (const char* name : {"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"})
            spec.env.push_back(std::string(name) + "=" + proxy);
    }
    for (const char* p : kSystemReadPaths)
        spec.readPaths.emplace_back(p);
    // Extra paths as the kernel resolves them, and only where no listed folder already covers them
    // (a container mirrors each one into its read-only root).
    auto addReadPath = [&](const std::string& path) {
        std::error_code resolveError;
        const std::string real = fs::weakly_canonical(path, resolveError).string();
        const std::string resolved = resolveError ? path : real;
        for (const auto& existing : spec.readPaths) {
            if (resolved == existing || resolved.starts_with(existing + "/"))
                return;
        }
        spec.readPaths.push_back(resolved);
    };
    addReadPath(program);
    for (const auto& p : policy.readPaths)
        addReadPath(p);
    spec.devPaths.assign(kDevicePaths.begin(), kDevicePaths.end());
    spec.passEventFd = python;

    auto out = Pipe::make();
    auto err = Pipe::make();
    auto events = Pipe::make();
    auto specPipe = Pipe::make();
    auto resultPipe = Pipe::make();
    if (!out || !err || !events || !specPipe || !resultPipe)
        return refuse("cannot create the run's pipes");

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out->write.get(), 1);
    posix_spawn_file_actions_adddup2(&actions, err->write.get(), 2);
    posix_spawn_file_actions_adddup2(&actions, specPipe->read.get(), kLauncherSpecFd);
    posix_spawn_file_actions_adddup2(&actions, resultPipe->write.get(), kLauncherResultFd);
    posix_spawn_file_actions_adddup2(&actions, events->write.get(), kLauncherEventFd);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    sigset_t allDefault;
    sigfillset(&allDefault);
    sigset_t noneBlocked;
    sigemptyset(&noneBlocked);
    posix_spawnattr_setsigdefault(&attr, &allDefault);
    posix_spawnattr_setsigmask(&attr, &noneBlocked);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    const std::string launcherStr = launcherPath->string();
    char* launcherArgv[] = {const_cast<char*>(launcherStr.c_str()), nullptr};
    char* emptyEnv[] = {nullptr};
    pid_t launcherPid = -1;
    const int spawnRc = ::posix_spawn(&launcherPid, launcherStr.c_str(), &actions, &attr, launcherArgv, emptyEnv);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    if (spawnRc != 0)
        return refuse(fmt::format("cannot start {}: {}", launcherStr, std::strerror(spawnRc)));

    out->write.reset();
    err->write.reset();
    events->write.reset();
    specPipe->read.reset();
    resultPipe->write.reset();

    // The spec is small (well under a pipe buffer) and the launcher reads it first.
    {
        const std::string text = encodeSpec(spec);
        std::size_t done = 0;
        while (done < text.size()) {
            const ssize_t n = ::write(specPipe->write.get(), text.data() + done, text.size() - done);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            done += static_cast<std::size_t>(n);
        }
        specPipe->write.reset();
    }

    const auto cap = static_cast<std::size_t>(policy.limits.outputBytes);
    Capture stdoutCap{{}, false, cap};
    Capture stderrCap{{}, false, cap};
    Capture eventCap{{}, false, 64 * 1024};
    Capture resultCap{{}, false, 4 * 1024 * 1024};
    struct Stream {
        Fd* fd;
        Capture* capture;
    };
    std::array<Stream, 4> streams = {Stream{&out->read, &stdoutCap}, Stream{&err->read, &stderrCap},
                                     Stream{&events->read, &eventCap}, Stream{&resultPipe->read, &resultCap}};
    // The launcher enforces the wall limit; this later deadline only guards against a launcher gone wrong.
    const auto safetyDeadline = Clock::now() + std::chrono::milliseconds(policy.limits.wallMs + 10000);
    bool cancelSent = false;
    bool launcherHung = false;
    std::array<char, 65536> buf{};
    for (;;) {
        std::array<pollfd, 4> fds{};
        std::array<Stream*, 4> which{};
        nfds_t count = 0;
        for (auto& s : streams) {
            if (s.fd->get() >= 0) {
                fds[count] = {s.fd->get(), POLLIN, 0};
                which[count++] = &s;
            }
        }
        if (count == 0)
            break;
        const int ready = ::poll(fds.data(), count, 50);
        if (ready < 0 && errno != EINTR)
            break;
        for (nfds_t i = 0; ready > 0 && i < count; ++i) {
            if (!fds[i].revents)
                continue;
            const ssize_t n = ::read(fds[i].fd, buf.data(), buf.size());
            if (n > 0)
                which[i]->capture->append(buf.data(), static_cast<std::size_t>(n));
            else if (n == 0 || (errno != EINTR && errno != EAGAIN))
                which[i]->fd->reset();
        }
        if (cancel && cancel->load() && !cancelSent) {
            ::kill(launcherPid, SIGTERM);
            cancelSent = true;
        }
        if (Clock::now() > safetyDeadline) {
            ::kill(launcherPid, SIGKILL);
            launcherHung = true;
            break;
        }
    }
    int status = 0;
    while (::waitpid(launcherPid, &status, 0) < 0 && errno == EINTR) {
    }

    const LauncherReport report = splitLauncherReport(resultCap.text);
    auto launched = decodeResult(report.json);
    if (!launched && report.started > 0)
        killOrphanedRun(report.started, spec);

    result.stdoutText = std::move(stdoutCap.text);
    result.stderrText = std::move(stderrCap.text);
    result.stdoutTruncated = stdoutCap.truncated;
    result.stderrTruncated = stderrCap.truncated;
    if (launcherHung)
        return refuse("the launcher did not finish in time and was killed");

    if (!launched)
        return refuse(fmt::format("the launcher ended without a result ({}; status {:#x})", launched.error().message,
                                  status));
    result.exitCode = launched->exitCode;
    result.signal = launched->signal;
    result.durationMs = launched->wallMs;
    result.cpuMs = launched->cpuMs;
    result.peakRssKb = launched->peakRssKb;
    result.blocked = launched->blocked;
    result.isolation.layers = launched->layers;
    result.isolation.layers.emplace_back("clean_env", true);
    result.isolation.layers.emplace_back("private_workdir", true);
    result.isolation.layers.emplace_back("import_guard", python && policy.importGuard);
    if (launched->setupFailed)
        return refuse("a sandbox layer could not be applied, so the program was not run: " + launched->setupError);

    // The guard's reports: "kind\tdetail" lines.
    bool memoryReported = false;
    std::istringstream lines(eventCap.text);
    for (std::string line; std::getline(lines, line);) {
        const auto tab = line.find('\t');
        const std::string kind = line.substr(0, tab);
        const std::string detail = tab == std::string::npos ? "" : line.substr(tab + 1);
        if (kind == "import" && !detail.empty() && result.blocked.size() < 1000)
            result.blocked.push_back({"import", detail});
        else if (kind == "memory_limit")
            memoryReported = true;
    }

    if (launched->killedByPolicy) {
        result.outcome = Outcome::Blocked;
        result.message = result.blocked.empty() ? "a syscall rule of the policy ended the run"
                                                : "the policy ends the run on " + result.blocked.back().detail;
    } else if (launched->cancelled) {
        result.outcome = Outcome::Error;
        result.message = "cancelled";
    } else if (launched->timedOut) {
        result.outcome = Outcome::Timeout;
        result.message = fmt::format("wall-clock limit of {} ms reached; every process of the run was killed",
                                     policy.limits.wallMs);
    } else if (launched->cpuLimited) {
        result.outcome = Outcome::Timeout;
        result.message = "CPU time limit reached";
    } else if (launched->memoryLimited
               || (result.exitCode != 0
               && (memoryReported
                   || (!python && containsAny(result.stderrText, {"Cannot allocate memory", "xmalloc", "out of memory"}))))) {
        result.outcome = Outcome::MemoryLimit;
        result.message = fmt::format("memory limit of {} MiB reached", policy.limits.memoryMb);
    } else if (!result.blocked.empty()) {
        result.outcome = Outcome::Blocked;
        result.message = fmt::format("the policy refused {} {}", result.blocked.front().kind, result.blocked.front().detail);
    } else if (result.signal != 0) {
        result.outcome = Outcome::Crashed;
        result.message = fmt::format("killed by signal {} ({})", result.signal, ::strsignal(result.signal));
    } else if (result.exitCode != 0) {
        result.outcome = Outcome::Error;
        result.message = fmt::format("exited with status {}", result.exitCode);
    } else {
        result.outcome = Outcome::Ok;
    }
    return result;
}

} // namespace sb
