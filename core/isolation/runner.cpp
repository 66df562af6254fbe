#include "isolation/runner.h"

#include "cgroup.h"
#include "container.h"
#include "isolation/doctor.h"
#include "fd_passing.h"
#include "launch.h"
#include "isolation/launch_spec.h"
#include "netproxy.h"
#include "python_guard.h"
#include "run_usage.h"
#include "seccomp_filter.h"
#include "isolation/start_trace.h"
#include "strict.h"
#include "isolation/warm_pool.h"
#include "isolation/workspace_lending.h"
#include "util/program_files.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <poll.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <system_error>
#include <thread>
#include <unistd.h>

namespace sb {

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Public system configuration that runtimes read on their own (refusing it only made a path report of
// every such run): /etc/locale.alias whenever a program sets its locale (Python at every start, through
// /usr/share/locale/locale.alias); OpenSSL's configuration and the CA certificates whenever a program
// loads OpenSSL (Python's ssl, imported by urllib), which TLS through the network allowlist needs anyway.
// /etc/ssl/private stays out.
constexpr std::array kSystemReadPaths = {"/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32",
                                         "/etc/ld.so.cache", "/etc/localtime", "/etc/locale.alias",
                                         "/etc/ssl/openssl.cnf", "/etc/ssl/certs", "/etc/alternatives",
                                         "/etc/python3", "/etc/python3.11"};
constexpr std::array<std::string_view, 3> kContainerOwnFolders = {kContainerWorkDir, "/proc", "/dev"};
constexpr std::array kDevicePaths = {"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"};

struct Pipe {
    launch::Fd read;
    launch::Fd write;
    static Result<Pipe> make()
    {
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC) != 0)
            return fail(fmt::format("pipe: {}", std::strerror(errno)));
        return Pipe{launch::Fd(fds[0]), launch::Fd(fds[1])};
    }
};

// Where the runs' folders are made.
fs::path workRootOf(const RunnerOptions& options)
{
    if (!options.workRoot.empty())
        return options.workRoot;
    const char* tmpdir = std::getenv("TMPDIR");
    return tmpdir && *tmpdir ? fs::path(tmpdir) : fs::path("/tmp");
}

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

constexpr const char* kPythonSnippet = "snippet.py";

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
    if (spec.cgroups) // the launcher could not remove the run's group; it empties as the killed run goes
        for (int attempt = 0; attempt < 20 && cgroup::pruneStale().busy > 0; ++attempt)
            ::usleep(5000);
}

// The compiled seccomp program of a policy. libseccomp takes ~0.3 ms to build one, and a caller runs the
// same few policies again and again: each is compiled once per process (a few, most recent, are kept).
Result<std::string> compiledFilter(const SyscallPolicy& syscalls, bool allowInetSockets)
{
    struct Entry {
        SyscallPolicy syscalls;
        bool allowInetSockets;
        std::string program;
    };
    static std::mutex mutex;
    static std::vector<Entry> cache;
    constexpr std::size_t kKept = 16;
    {
        const std::lock_guard lock(mutex);
        for (const auto& e : cache) {
            if (e.allowInetSockets == allowInetSockets && e.syscalls == syscalls)
                return e.program;
        }
    }
    auto program = seccomp::compileFilter(syscalls, allowInetSockets); // outside the lock: it takes a while
    if (!program)
        return program;
    const std::lock_guard lock(mutex);
    if (cache.size() >= kKept)
        cache.erase(cache.begin());
    cache.push_back({syscalls, allowInetSockets, *program});
    return program;
}

// The launcher beside this program, or where an installation puts it (util/program_files.h). Once found it is
// remembered: this program does not move while it runs, and reading /proc/self/exe every run is not free.
Result<fs::path> defaultLauncher()
{
    static std::mutex mutex;
    static fs::path found;
    const std::lock_guard lock(mutex);
    if (!found.empty() && ::access(found.c_str(), X_OK) == 0)
        return found;
    auto launcher = programs::locate(programs::kLauncher);
    if (launcher)
        found = *launcher;
    return launcher;
}

Result<fs::path> findLauncher(const RunnerOptions& options)
{
    if (!options.launcherPath.empty()) {
        if (::access(options.launcherPath.c_str(), X_OK) == 0)
            return options.launcherPath;
        return fail(fmt::format("launcher {} is missing or not executable", options.launcherPath.string()));
    }
    return defaultLauncher();
}

// A channel (RunRequest::channelIn, channelOut) is both descriptors or none, each open: a closed one would
// only fail later, where handing it to the launcher cannot say whose it was.
Result<void> checkChannel(const RunRequest& request)
{
    if (request.channelIn < 0 && request.channelOut < 0)
        return {};
    if (request.channelIn < 0 || request.channelOut < 0)
        return fail(fmt::format("RunRequest::{} is not set: a channel takes both descriptors, the program's input "
                                "and its output",
                                request.channelIn < 0 ? "channelIn" : "channelOut"));
    for (const auto& [name, fd] :
         {std::pair{"channelIn", request.channelIn}, std::pair{"channelOut", request.channelOut}}) {
        if (::fcntl(fd, F_GETFD) < 0)
            return fail(fmt::format("RunRequest::{} (fd {}) is not open: {}", name, fd, std::strerror(errno)));
    }
    return {};
}

std::int64_t epochMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

} // namespace

namespace launch {

RunResult refused(const RunRequest& request, std::string message)
{
    RunResult result;
    result.runId = makeRunId();
    result.startedAtMs = epochMs();
    result.isolation.level = request.policy.level;
    result.outcome = Outcome::InternalError;
    result.message = Message::plain(std::move(message));
    return result;
}

namespace {

// The rest of start(): the run's pipes and its launcher.
Result<std::unique_ptr<Started>> finishStart(std::unique_ptr<Started> started, const Plan& plan, bool pooled);

// A Python snippet's argv: the interpreter, isolated from the user's site and environment, running the prelude
// (python_guard.h) on the snippet at `seenSnippet`.
std::vector<std::string> pythonArgv(const Plan& plan, const fs::path& seenSnippet, bool startsAhead)
{
    const Policy& policy = plan.policy;
    return {plan.program, policy.sitePackages ? "-I" : "-IS", "-B", "-c",
            pythonPrelude(policy.blockedImports, policy.importGuard, startsAhead), seenSnippet.string()};
}

// The program's whole environment, with its work dir where the sandbox shows it.
std::vector<std::string> jobEnvironment(const Policy& policy, const fs::path& seenWorkDir)
{
    std::vector<std::string> env = cleanEnvironment(policy, seenWorkDir);
    if (policy.network == NetworkMode::Allowlist) {
        const std::string proxy = fmt::format("http://127.0.0.1:{}", netproxy::kPort);
        for (const char* name : {"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"})
            env.push_back(std::string(name) + "=" + proxy);
    }
    return env;
}

} // namespace

Result<Plan> makePlan(const RunRequest& request, const RunnerOptions& options)
{
    Plan plan;
    plan.policy = request.policy;
    plan.language = request.language;
    Policy& policy = plan.policy;
    // A run never silently gets less than it asked for: below the asked level only when the policy says so.
    const IsolationLevel available = options.availableLevel.value_or(highestAvailableLevel());
    if (policy.level > available) {
        if (!policy.allowLowerLevel) {
            const std::string why = whyUnavailable(policy.level);
            return fail(fmt::format("isolation level '{}' is not available here{}; the run was refused rather than run "
                                    "with less isolation (`sandbench doctor` says more)",
                                    toString(policy.level), why.empty() ? "" : ": " + why));
        }
        plan.note = Message(SB_TR("run outcome",
                                  "ran at level '{}': '{}' is not available here and the policy allows a lower level"),
                            {std::string(toString(available)), std::string(toString(policy.level))});
        policy.level = available;
    }
    const bool python = request.language == Language::Python;
    if (request.language == Language::Command) {
        if (request.command.empty() || request.command.front().empty())
            return fail("no command to run");
        auto found = findProgram(request.command.front());
        if (!found)
            return std::unexpected(found.error());
        plan.program = *found;
    } else {
        plan.program = python ? policy.python : policy.shell;
        if (::access(plan.program.c_str(), X_OK) != 0)
            return fail(fmt::format("interpreter {} is not available: {}", plan.program, std::strerror(errno)));
    }
    auto launcherPath = findLauncher(options);
    if (!launcherPath)
        return std::unexpected(launcherPath.error());
    plan.launcher = *launcherPath;
    plan.workRoot = workRootOf(options);
    plan.workspaceLock = request.workspaceLock;
    if (auto channel = checkChannel(request); !channel)
        return std::unexpected(channel.error());
    plan.channelIn = request.channelIn;
    plan.channelOut = request.channelOut;
    if (!request.workspace.empty()) {
        struct stat st {};
        if (!request.workspace.is_absolute() || ::lstat(request.workspace.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
            return fail(fmt::format("the workspace {} is not a folder (a symlink is not taken either)",
                                    request.workspace.string()));
        plan.workspace = request.workspace.lexically_normal();
    }

    LaunchSpec& spec = plan.spec;
    if (policy.network == NetworkMode::Allowlist && policy.level == IsolationLevel::Process)
        return fail("the network allowlist needs the container or strict level (an empty network namespace "
                    "with Sandbench's proxy); the run was refused rather than run with the network open");
    const bool strict = policy.level == IsolationLevel::Strict;
    spec.container = policy.level == IsolationLevel::Container || strict;
    spec.syscalls = strict ? strictSyscalls(policy.syscalls) : policy.syscalls;
    if (strict) {
        spec.tmpSizeMb = 0; // strict: no writable path but the work dir
        spec.cgroups = true;
        static std::once_flag delegation;
        std::call_once(delegation, [] {
            cgroup::prepareDelegation(nullptr);
            cgroup::pruneStale(); // groups of launchers killed outright, by an earlier process
        });
    }
    spec.limits = policy.limits;
    // Runs started by root become an identity of their own (chosen per run by start()).
    spec.dropPrivileges = ::geteuid() == 0;
    if (policy.network == NetworkMode::Allowlist)
        spec.networkAllow = policy.networkAllow;
    auto filter = compiledFilter(spec.syscalls, !spec.networkAllow.empty());
    if (!filter)
        return fail("a sandbox layer could not be applied, so the program was not run: seccomp: "
                    + filter.error().message);
    spec.seccompProgram = std::move(*filter);
    for (const char* p : kSystemReadPaths)
        spec.readPaths.emplace_back(p);
    // Extra paths as the kernel resolves them, and only where no listed folder already covers them
    // (a container mirrors each one into its read-only root).
    // A container's own folders (its work dir, /proc, /dev) cover what the host has at those paths: a read
    // path there would be hidden inside, so it is refused rather than quietly missing.
    auto addReadPath = [&](const std::string& path, std::string_view what) -> Result<void> {
        std::error_code resolveError;
        const std::string real = fs::weakly_canonical(path, resolveError).string();
        const std::string resolved = resolveError ? path : real;
        if (spec.container) {
            for (const std::string_view own : kContainerOwnFolders) {
                if (resolved == own || resolved.starts_with(std::string(own) + "/"))
                    return fail(fmt::format(
                        "{} {}{}: at the '{}' level the sandbox's own {} covers it, so the program could not read it; "
                        "the run was refused (move it out of {}, or run at the process level)",
                        what, path, resolved == path ? "" : " (" + resolved + ")", toString(policy.level), own, own));
            }
        }
        for (const auto& existing : spec.readPaths) {
            if (resolved == existing || resolved.starts_with(existing + "/"))
                return {};
        }
        spec.readPaths.push_back(resolved);
        return {};
    };
    if (auto ok = addReadPath(plan.program, "the program"); !ok)
        return std::unexpected(ok.error());
    for (const auto& p : policy.readPaths) {
        if (auto ok = addReadPath(p, "paths.read"); !ok)
            return std::unexpected(ok.error());
    }
    spec.devPaths.assign(kDevicePaths.begin(), kDevicePaths.end());
    spec.traceStart = !starttrace::outputFile().empty();
    // A Python snippet's interpreter starts ahead in a pooled container (start() keeps this for pooled sandboxes
    // alone): its job is known now (the container shows every work dir at one place; no caller's task count),
    // and its wait on kAheadGoFd must pass the filter, which it loads first.
    if (python && spec.container && plan.channelIn < 0 && plan.channelOut < 0 && plan.workspace.empty()
        && seccomp::fitsAPooledWait(spec.syscalls)) {
        spec.programAhead = true;
        const fs::path seenWorkDir = container::kWorkDir;
        spec.argv = pythonArgv(plan, seenWorkDir / kPythonSnippet, true);
        spec.env = jobEnvironment(policy, seenWorkDir);
        spec.processBase = 0;
    }
    return plan;
}

bool sameShape(const Plan& a, const Plan& b)
{
    return a.launcher == b.launcher && a.workRoot == b.workRoot && a.workspace == b.workspace && a.channelIn < 0
           && b.channelIn < 0 && sameSandbox(a.spec, b.spec);
}

Started::~Started()
{
    if (process) {
        specWrite.reset(); // no job: the launcher releases its sandbox and ends
        out.reset();
        err.reset();
        result.reset();
        process.reset(); // waits for it
    }
    if (keepWorkDir) {
        if (!jobDir.empty())
            removeWorkDir(jobDir.string());
        if (lentTo != 0) // every process of the run is gone by now
            lending::giveBack(workDir, lentTo, {ownerUid, ownerGid});
        if (!stageDir.empty())
            ::rmdir(stageDir.c_str()); // the mount on it went with the launcher's mount namespace
    } else if (!workDir.empty()) {
        removeWorkDir(workDir.string());
    }
}

namespace {

constexpr std::string_view kRunFolderPrefix = "sandbench-run-";

// An exclusive flock on a run's folder, held by the descriptor returned (-1 when it cannot be taken: the folder
// is then only swept once it is old, as a folder of a caller that could not lock it would be).
Fd lockFolder(const fs::path& folder)
{
    Fd fd(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW));
    if (fd.valid() && ::flock(fd.get(), LOCK_EX | LOCK_NB) != 0)
        fd.reset();
    return fd;
}

} // namespace

void sweepStaleRunFolders(const fs::path& workRoot, std::chrono::seconds minAge)
{
    DIR* root = ::opendir(workRoot.c_str());
    if (!root)
        return;
    const auto now = std::chrono::system_clock::now();
    while (const dirent* entry = ::readdir(root)) {
        const std::string_view name = entry->d_name;
        if (!name.starts_with(kRunFolderPrefix) || name.size() != kRunFolderPrefix.size() + 36)
            continue;
        const fs::path folder = workRoot / name;
        struct stat st {};
        if (::lstat(folder.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        if (::geteuid() != 0 && st.st_uid != ::geteuid())
            continue; // another user's (root's runs' folders belong to their transient identities)
        const auto changed = std::chrono::system_clock::time_point(std::chrono::seconds(st.st_mtim.tv_sec));
        if (now - changed < minAge)
            continue; // it may be a run's that has yet to lock it
        const Fd fd(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW));
        if (!fd.valid() || ::flock(fd.get(), LOCK_EX | LOCK_NB) != 0)
            continue; // a caller's run holds it (or it is not ours to open)
        removeWorkDir(folder.string());
    }
    ::closedir(root);
}

Result<std::unique_ptr<Started>> start(const Plan& plan, bool pooled)
{
    if (pooled && plan.channelIn >= 0)
        return fail("a channel run's sandbox is never prepared ahead: its standard descriptors are the caller's");
    auto started = std::make_unique<Started>();
    started->runId = makeRunId();
    started->pooled = pooled;
    LaunchSpec& spec = started->spec;
    spec = plan.spec;
    spec.pooled = pooled;
    spec.programAhead = pooled && plan.spec.programAhead;
    if (spec.dropPrivileges) {
        spec.uid = transientId();
        spec.gid = spec.uid;
    }

    if (!plan.workspace.empty()) {
        // A sandbox's workspace: the work dir itself, kept; the job's own files go in a folder of their own.
        const fs::path& workspace = plan.workspace;
        struct stat st {};
        if (::lstat(workspace.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
            return fail(fmt::format("the workspace {} is not a folder", workspace.string()));
        // Lent already: another run has it, or one that died does and nobody reclaimed it (the caller holds
        // the workspace's lock and reclaims first: workspace_lending.h). Lending it again would take its files
        // from under that run, so the run is refused.
        if (const uid_t lent = lending::lentTo(workspace); lent != 0)
            return fail(fmt::format("the workspace {} is lent to another run (uid {}); runs in one workspace wait "
                                    "for each other on its lock",
                                    workspace.string(), lent));
        started->workDir = workspace;
        started->keepWorkDir = true;
        spec.workDir = workspace.string();
        spec.keepWorkDir = true;
        started->workspaceLock = plan.workspaceLock;
        // disk_mb bounds what the run adds: the workspace's present size comes on top.
        const auto present = usage::diskUsage(workspace.string(), std::numeric_limits<std::int64_t>::max() / 4);
        spec.limits.diskMb += (present.kb + 1023) / 1024;
        // Named now (the launcher removes it should this process die), made by writeSnippet: a command has no
        // file of its own, and a folder it never uses would be walked by every checkpoint taken during the run.
        started->jobDir = workspace / (std::string(lending::kJobFolderPrefix) + started->runId);
        if (spec.dropPrivileges) {
            started->ownerUid = st.st_uid;
            started->ownerGid = st.st_gid;
            started->lentTo = spec.uid;
            lending::lend(workspace, {st.st_uid, st.st_gid}, {spec.uid, spec.gid});
            if (spec.container) {
                const fs::path stage = plan.workRoot / (std::string(kRunFolderPrefix) + started->runId);
                if (::mkdir(stage.c_str(), 0700) != 0)
                    return fail(fmt::format("cannot create {}: {}", stage.string(), std::strerror(errno)));
                started->stageDir = stage;
                started->folderLock = lockFolder(stage);
                if (::chown(stage.c_str(), spec.uid, spec.gid) != 0)
                    return fail(fmt::format("cannot create {}: {}", stage.string(), std::strerror(errno)));
                spec.stageDir = stage.string();
            }
        }
        return finishStart(std::move(started), plan, pooled);
    }
    // A private work dir, owned by the identity the run will have, removed afterwards.
    const fs::path workDir = plan.workRoot / (std::string(kRunFolderPrefix) + started->runId);
    if (::mkdir(workDir.c_str(), 0700) != 0)
        return fail(fmt::format("cannot create work dir {}: {}", workDir.string(), std::strerror(errno)));
    started->workDir = workDir;
    started->folderLock = lockFolder(workDir);
    spec.workDir = workDir.string();
    if (spec.dropPrivileges && ::chown(workDir.c_str(), spec.uid, spec.gid) != 0)
        return fail(fmt::format("cannot hand the work dir to the run's identity: {}", std::strerror(errno)));
    return finishStart(std::move(started), plan, pooled);
}

namespace {

Result<std::unique_ptr<Started>> finishStart(std::unique_ptr<Started> started, const Plan& plan, bool pooled)
{
    LaunchSpec& spec = started->spec;

    // A channel run's stdout is the caller's channel: not captured, no pipe of the Runner's.
    const bool channel = plan.channelOut >= 0;
    auto out = channel ? Result<Pipe>(Pipe{}) : Pipe::make();
    auto err = Pipe::make();
    auto resultPipe = Pipe::make();
    // The spec goes over a socket, not a pipe: send(MSG_NOSIGNAL) to a launcher that is gone fails with
    // EPIPE instead of raising SIGPIPE in the caller.
    int specPair[2] = {-1, -1};
    if (!out || !err || !resultPipe
        || ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, specPair) != 0)
        return fail("cannot create the run's pipes");
    const Fd specRead(specPair[0]);
    started->specWrite = Fd(specPair[1]);
    LauncherFds fds{channel ? plan.channelOut : out->write.get(), err->write.get(), specRead.get(),
                    resultPipe->write.get(), plan.channelIn};
    // The run's own folder, should the launcher be killed (a workspace run's is the job's folder in it).
    const fs::path& runDir = started->keepWorkDir ? started->jobDir : started->workDir;
    auto process = LauncherProcess::start(plan.launcher, fds, LauncherProcess::Via::Zygote, runDir);
    if (!process)
        return std::unexpected(process.error());
    started->process.emplace(std::move(*process));
    started->out = std::move(out->read);
    started->err = std::move(err->read);
    started->result = std::move(resultPipe->read);
    // The write ends (the launcher's now) close as the pipes go out of scope.
    // The workspace's lock goes to the launcher before anything else: held by it too, the workspace stays
    // locked as long as anything supervises the run, also if this process is killed (workspace_lending.h).
    if (started->workspaceLock >= 0
        && !sendFds(started->specWrite.get(), std::string_view(&kWorkspaceLockMarker, 1),
                    std::span<const int>(&started->workspaceLock, 1)))
        return fail(fmt::format("cannot hand the workspace's lock to the launcher: {}", std::strerror(errno)));
    if (pooled) {
        // The pool listens to many launchers on one thread: their result pipes must never block it.
        ::fcntl(started->result.get(), F_SETFL, O_NONBLOCK);
        if (!sendAll(started->specWrite.get(), encodeSandbox(spec) + '\n'))
            return fail(fmt::format("cannot send the launch spec: {}", std::strerror(errno)));
    }
    return started;
}

} // namespace

namespace {

// A signal's name ("SIGSEGV"): the same in every language, unlike strsignal's description.
std::string signalName(int signal)
{
    const char* abbrev = ::sigabbrev_np(signal);
    return abbrev ? std::string("SIG") + abbrev : std::to_string(signal);
}

bool hasBlocked(const RunResult& result, std::string_view kind, std::string_view detail)
{
    return std::any_of(result.blocked.begin(), result.blocked.end(),
                       [&](const BlockedEvent& e) { return e.kind == kind && e.detail == detail; });
}

// The run's outcome from what the kernel and the launcher observed, and the snippet's import statements
// Sandbench read before the run: never from anything the program said.
void judge(const LaunchResult& launched, const Policy& policy, const std::vector<RefusedImport>& imports,
           RunResult& result)
{
    std::vector<BlockedEvent> importEvents;
    for (const auto& refused : imports)
        importEvents.push_back({"import", refused.module});
    result.blocked.insert(result.blocked.begin(), importEvents.begin(), importEvents.end());

    if (launched.killedByPolicy) {
        result.outcome = Outcome::Blocked;
        result.message = result.blocked.empty()
                             ? Message(SB_TR("run outcome", "a syscall rule of the policy ended the run"))
                             : Message(SB_TR("run outcome", "the policy ends the run on {}"),
                                       {result.blocked.back().detail});
    } else if (launched.cancelled) {
        result.outcome = Outcome::Error;
        result.message = Message(SB_TR("run outcome", "cancelled"));
    } else if (launched.timedOut) {
        result.outcome = Outcome::Timeout;
        result.message = Message(SB_TR("run outcome",
                                       "wall-clock limit of {} ms reached; every process of the run was killed"),
                                 {std::to_string(policy.limits.wallMs)});
    } else if (launched.cpuLimited) {
        result.outcome = Outcome::Timeout;
        result.message = launched.limitMessage.empty()
                             ? Message(SB_TR("run outcome", "CPU time limit of {} ms reached"),
                                       {std::to_string(sb::cpuLimitUs(policy.limits) / 1000)})
                             : launched.limitMessage;
    } else if (launched.memoryLimited || (launched.memoryRefused && result.exitCode != 0)) {
        // The run as a whole was measured past its limit, or a process of it asked for more than its limit
        // allows, was refused, and the run did not end well.
        result.outcome = Outcome::MemoryLimit;
        result.message = launched.limitMessage.empty()
                             ? Message(SB_TR("run outcome", "memory limit of {} MiB reached"),
                                       {std::to_string(policy.limits.memoryMb)})
                             : launched.limitMessage;
    } else if (launched.diskLimited) {
        // Writing past the run's disk quota is refused like any other act the policy does not allow.
        result.outcome = Outcome::Blocked;
        result.blocked.push_back({"disk", fmt::format("the work dir grew past its quota (disk_mb: {})",
                                                      policy.limits.diskMb)});
        result.message = Message(SB_TR("run outcome", "disk quota of {} MiB reached: the run was ended"),
                                 {std::to_string(policy.limits.diskMb)});
    } else if (!imports.empty()) {
        result.outcome = Outcome::Blocked;
        result.message = Message(SB_TR("run outcome", "the policy refuses the snippet's import of '{}' (line {})"),
                                 {imports.front().module, std::to_string(imports.front().line)});
    } else if (!result.blocked.empty()) {
        result.outcome = Outcome::Blocked;
        result.message = Message(SB_TR("run outcome", "the policy refused {} {}"),
                                 {result.blocked.front().kind, result.blocked.front().detail});
    } else if (result.signal != 0) {
        result.outcome = Outcome::Crashed;
        result.message = Message(SB_TR("run outcome", "killed by signal {} ({})"),
                                 {std::to_string(result.signal), signalName(result.signal)});
    } else if (result.exitCode != 0) {
        result.outcome = Outcome::Error;
        result.message = Message(SB_TR("run outcome", "exited with status {}"), {std::to_string(result.exitCode)});
    } else {
        result.outcome = Outcome::Ok;
    }
}

} // namespace

namespace {

// Writes a snippet's source into the job's folder, owned by the run's identity; a command has no file.
Result<fs::path> writeSnippet(const Started& started, const RunRequest& request)
{
    const bool python = request.language == Language::Python;
    const fs::path snippet =
        (started.keepWorkDir ? started.jobDir : started.workDir) / (python ? kPythonSnippet : "snippet.sh");
    if (request.language == Language::Command)
        return snippet;
    const LaunchSpec& spec = started.spec;
    if (started.keepWorkDir) {
        // Made before the run's program starts, so nothing of the run's identity can be in its place; handed
        // to that identity when the workspace is lent (made by this process, it is root's otherwise).
        if (::mkdir(started.jobDir.c_str(), 0700) != 0)
            return fail(fmt::format("cannot create {}: {}", started.jobDir.string(), std::strerror(errno)));
        if (spec.dropPrivileges && ::chown(started.jobDir.c_str(), spec.uid, spec.gid) != 0)
            return fail(fmt::format("cannot hand {} to the run's identity: {}", started.jobDir.string(),
                                    std::strerror(errno)));
    }
    std::ofstream out(snippet, std::ios::binary);
    out.write(request.source.data(), static_cast<std::streamsize>(request.source.size()));
    if (!out)
        return fail(fmt::format("cannot write the snippet to {}", snippet.string()));
    if (spec.dropPrivileges && ::chown(snippet.c_str(), spec.uid, spec.gid) != 0)
        return fail(fmt::format("cannot hand the work dir to the run's identity: {}", std::strerror(errno)));
    return snippet;
}

// The job: what the program is, sees and gets, in the place the sandbox shows its work dir. A program started
// ahead was started with the same job (makePlan), which its launcher checks.
void describeJob(Started& started, const Plan& plan, const RunRequest& request, const fs::path& snippet)
{
    const Policy& policy = plan.policy;
    LaunchSpec& spec = started.spec;
    const fs::path seenWorkDir = spec.container ? fs::path(container::kWorkDir) : started.workDir;
    // In a workspace, the job's folder; named from the working directory outside a container, where a root
    // caller's run may not search the folders above the workspace.
    const fs::path seenSnippet = !started.keepWorkDir ? seenWorkDir / snippet.filename()
                                 : spec.container     ? seenWorkDir / started.jobDir.filename() / snippet.filename()
                                                      : started.jobDir.filename() / snippet.filename();
    if (request.language == Language::Python) {
        spec.argv = pythonArgv(plan, seenSnippet, spec.programAhead);
    } else if (request.language == Language::Command) {
        spec.argv = request.command;
        spec.argv.front() = plan.program;
    } else {
        spec.argv = {plan.program, seenSnippet.string()};
    }
    spec.env = jobEnvironment(policy, seenWorkDir);
    // Tasks the caller's uid has now: an unprivileged caller's RLIMIT_NPROC counts them too at the process
    // level. A cold launcher counts them itself while the program's process sets up; a pooled run's are
    // counted here, at its job. In a container the limit counts the tasks of the run's own user namespace
    // alone (the kernel keeps the count per namespace), as for a root caller's transient uid: none to add.
    spec.processBase = spec.dropPrivileges || spec.container ? 0
                      : started.pooled                      ? usage::tasksOfUid(::getuid())
                                                            : kProcessBaseCountedByLauncher;
}

// What the launcher and the run's program wrote, read until the launcher's result is complete and the
// program's output pipes are at their end.
struct Drained {
    Capture out;
    Capture err;
    Capture result;
    bool launcherHung = false; // past the safety deadline, killed
    bool orphanKilled = false; // the launcher went without a result; the run's processes were killed
    int status = 0;            // the launcher's wait status, when it was waited for

    // The launcher's result is one line: complete, with the run's output pipes at EOF, the run is over.
    bool resultComplete() const
    {
        return !result.text.empty() && result.text.back() == '\n' && result.text.find('{') != std::string::npos;
    }
};

Drained drainLauncher(Started& started, const Policy& policy, const std::atomic<bool>* cancel)
{
    LauncherProcess& launcher = *started.process;
    const auto cap = static_cast<std::size_t>(policy.limits.outputBytes);
    Drained d{Capture{{}, false, cap}, Capture{{}, false, cap}, Capture{started.reported, false, 4 * 1024 * 1024}};
    struct Stream {
        Fd* fd;
        Capture* capture;
    };
    std::array<Stream, 3> streams = {Stream{&started.out, &d.out}, Stream{&started.err, &d.err},
                                     Stream{&started.result, &d.result}};
    // The launcher enforces the wall limit; this later deadline only guards against a launcher gone wrong.
    auto safetyDeadline = Clock::now() + std::chrono::milliseconds(policy.limits.wallMs + 10000);
    bool cancelSent = false;
    std::array<char, 65536> buf; // not zeroed: read() fills what is used, and zeroing 64 KiB costs every run
    for (;;) {
        std::array<pollfd, 3> fds{};
        std::array<Stream*, 3> which{};
        nfds_t count = 0;
        for (auto& s : streams) {
            if (s.fd->get() >= 0) {
                fds[count] = {s.fd->get(), POLLIN, 0};
                which[count++] = &s;
            }
        }
        if (count == 0 || (count == 1 && which[0]->capture == &d.result && d.resultComplete()))
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
            launcher.signal(SIGTERM);
            cancelSent = true;
        }
        // The result pipe ended without a result: the launcher is gone (killed from outside), and with it the
        // run's supervision. Its processes end now, not when they let go of their output pipes.
        if (!d.orphanKilled && !started.result.valid() && !d.resultComplete()) {
            if (const pid_t first = splitLauncherReport(d.result.text).started; first > 0)
                killOrphanedRun(first, started.spec);
            d.orphanKilled = true;
            safetyDeadline = std::min(safetyDeadline, Clock::now() + std::chrono::seconds(2));
        }
        if (Clock::now() > safetyDeadline) {
            if (!d.orphanKilled) {
                launcher.signal(SIGKILL);
                d.launcherHung = true;
            }
            break;
        }
    }
    return d;
}

// What the launcher measured, into the run's result.
void takeMeasurements(const LaunchResult& launched, bool importGuarded, RunResult& result)
{
    result.exitCode = launched.exitCode;
    result.signal = launched.signal;
    result.durationMs = launched.wallMs;
    result.cpuMs = launched.cpuMs;
    result.peakRssKb = launched.peakRssKb;
    result.blocked = launched.blocked;
    result.isolation.layers = launched.layers;
    result.isolation.layers.emplace_back("clean_env", true);
    result.isolation.layers.emplace_back("private_workdir", true);
    result.isolation.layers.emplace_back("import_guard", importGuarded);
}

// What the program said about itself, where Sandbench did not see it happen, kept apart as claims.
void keepUnobservedClaims(RunResult& result)
{
    for (auto& claim : claimsFromOutput(result.stderrText)) {
        const std::string module = claim.detail.substr(0, claim.detail.find('.')); // the guard's unit
        const bool observed = claim.kind == "import" ? hasBlocked(result, "import", module)
                                                     : result.outcome == Outcome::MemoryLimit;
        if (!observed)
            result.claims.push_back(std::move(claim));
    }
}

} // namespace

RunResult runJob(std::unique_ptr<Started> started, const Plan& plan, const RunRequest& request,
                 const std::atomic<bool>* cancel, starttrace::Marks trace)
{
    const bool traced = plan.spec.traceStart;
    auto mark = [&](const char* label) {
        if (traced)
            trace.emplace_back(label, starttrace::nowNs());
    };
    const Policy& policy = plan.policy;
    RunResult result;
    result.runId = started->runId;
    result.startedAtMs = epochMs();
    result.isolation.level = policy.level;
    result.message = plan.note;
    auto refuse = [&](std::string message) {
        result.outcome = Outcome::InternalError;
        result.message = Message::plain(std::move(message));
        return result;
    };
    const bool python = request.language == Language::Python;

    const auto snippet = writeSnippet(*started, request);
    if (!snippet)
        return refuse(snippet.error().message);
    describeJob(*started, plan, request, *snippet);
    mark("runner.prepared");

    // A cold launcher gets both lines now; a pooled one has its sandbox and waits for the job alone. The
    // wall clock starts when the launcher has it.
    sendAll(started->specWrite.get(),
            started->pooled ? encodeJob(started->spec) + '\n' : encodeSpec(started->spec));
    started->specWrite.reset();
    mark("runner.spec_sent");

    Drained drained = drainLauncher(*started, policy, cancel);
    mark("runner.drained");
    if (drained.resultComplete())
        started->process->detach(); // its exit is no part of the run
    else
        drained.status = started->process->wait();
    mark("runner.reaped");

    const LauncherReport report = splitLauncherReport(drained.result.text);
    auto launched = decodeResult(report.json);
    if (!launched && report.started > 0 && !drained.orphanKilled)
        killOrphanedRun(report.started, started->spec);

    result.stdoutText = std::move(drained.out.text);
    result.stderrText = std::move(drained.err.text);
    result.stdoutTruncated = drained.out.truncated;
    result.stderrTruncated = drained.err.truncated;
    if (drained.launcherHung)
        return refuse("the launcher did not finish in time and was killed");
    if (!launched)
        return refuse(fmt::format("the launcher ended without a result ({}; status {:#x})", launched.error().message,
                                  drained.status));
    takeMeasurements(*launched, python && policy.importGuard, result);
    if (traced)
        trace.insert(trace.end(), launched->trace.begin(), launched->trace.end());
    if (launched->setupFailed)
        return refuse("a sandbox layer could not be applied, so the program was not run: " + launched->setupError);

    std::vector<RefusedImport> imports;
    if (python && policy.importGuard)
        imports = refusedImports(request.source, policy.blockedImports);
    judge(*launched, policy, imports, result);
    if (python)
        keepUnobservedClaims(result);
    mark("runner.judged");
    started.reset(); // the work dir goes
    if (traced) {
        mark("runner.return");
        starttrace::append(starttrace::outputFile(), result.runId, trace);
    }
    return result;
}

} // namespace launch

Runner::Runner(RunnerOptions options) : m_options(std::move(options)) {}

namespace {

// A run's folder is locked within microseconds of being made; one unchanged and unlocked for this long was left.
constexpr std::chrono::seconds kStaleRunFolderAge{60};

} // namespace

Result<fs::path> Runner::launcher() const
{
    return findLauncher(m_options);
}

void Runner::prepare() const
{
    if (auto path = findLauncher(m_options))
        startLauncherZygote(*path);
    launch::sweepStaleRunFolders(workRootOf(m_options), kStaleRunFolderAge);
}

struct SandboxAhead::Impl {
    RunRequest request; // copies: the caller goes on with its own, and the thread may outlive its Runner
    RunnerOptions options;
    Result<launch::Plan> plan = fail("not planned");
    std::thread thread;
    Result<std::unique_ptr<launch::Started>> started = fail("not started");

    // An untaken sandbox is released by Started's destructor: its launcher ends, nothing ran in it.
    ~Impl() { wait(); }

    // Once the sandbox's launcher is started (or could not be).
    void wait()
    {
        if (thread.joinable())
            thread.join();
    }

    // The prepared sandbox for `runPlan`; null when it is of another shape or could not be started (the run
    // then starts cold, and a layer that cannot be applied is refused there).
    std::unique_ptr<launch::Started> take(const launch::Plan& runPlan)
    {
        wait();
        if (!plan || !started || !launch::sameShape(runPlan, *plan))
            return nullptr;
        return std::move(*started);
    }
};

SandboxAhead::SandboxAhead(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}

SandboxAhead::~SandboxAhead() = default;

std::unique_ptr<SandboxAhead> Runner::prepareAhead(const RunRequest& request) const
{
    if (!request.workspace.empty() || request.channelIn >= 0 || request.channelOut >= 0)
        return nullptr;
    auto impl = std::make_unique<SandboxAhead::Impl>();
    impl->request = request;
    impl->options = m_options;
    try {
        // Planned on the thread too: making the plan compiles the policy's syscall filter (cached for the run's
        // own plan), a good part of a millisecond the caller spends opening its store instead.
        impl->thread = std::thread([state = impl.get()] {
            state->plan = launch::makePlan(state->request, state->options);
            if (state->plan)
                state->started = launch::start(*state->plan, true);
        });
    } catch (const std::system_error&) {
        return nullptr; // no thread: the run starts cold
    }
    return std::unique_ptr<SandboxAhead>(new SandboxAhead(std::move(impl)));
}

RunResult Runner::run(const RunRequest& request, const std::atomic<bool>* cancel) const
{
    return run(request, nullptr, cancel);
}

RunResult Runner::run(const RunRequest& request, std::unique_ptr<SandboxAhead> ahead,
                      const std::atomic<bool>* cancel) const
{
    // The channel's descriptors are this run's (run.h): closed once its launcher has copies, or on a refusal.
    launch::Fd channelIn(request.channelIn);
    launch::Fd channelOut(request.channelOut != request.channelIn ? request.channelOut : -1);
    starttrace::Marks trace;
    if (!starttrace::outputFile().empty())
        trace.emplace_back("runner.enter", starttrace::nowNs());
    if (ahead)
        ahead->m_impl->wait(); // its plan has compiled the policy's filter, which this one finds made
    auto plan = launch::makePlan(request, m_options);
    if (!plan)
        return launch::refused(request, plan.error().message);
    if (plan->spec.traceStart)
        trace.emplace_back("runner.planned", starttrace::nowNs());
    // A sandbox prepared ahead for requests like this one, else one started now (a workspace's or a channel's
    // run: always).
    std::unique_ptr<launch::Started> started;
    if (ahead)
        started = ahead->m_impl->take(*plan);
    if (!started && m_options.warmPool && plan->workspace.empty() && plan->channelIn < 0)
        started = m_options.warmPool->take(*plan);
    if (!started) {
        auto cold = launch::start(*plan, false);
        if (!cold) {
            auto r = launch::refused(request, cold.error().message);
            r.isolation.level = plan->policy.level;
            return r;
        }
        started = std::move(*cold);
        if (plan->spec.traceStart)
            trace.emplace_back("runner.spawned", starttrace::nowNs());
    }
    // Held by the program alone from here on: its end is the caller's EOF.
    channelIn.reset();
    channelOut.reset();
    return launch::runJob(std::move(started), *plan, request, cancel, std::move(trace));
}

} // namespace sb
