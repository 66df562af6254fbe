#include "isolation/launch_spec.h"

#include "util/utf8.h"

#include "util/message_json.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <csignal>
#include <dirent.h>
#include <tuple>
#include <filesystem>
#include <sys/wait.h>
#include <unistd.h>

namespace sb {

using nlohmann::json;

namespace {

json limitsToJson(const Limits& l)
{
    return {{"wall_ms", l.wallMs},         {"cpu_ms", l.cpuMs},         {"memory_mb", l.memoryMb},
            {"processes", l.processes},    {"file_size_mb", l.fileSizeMb}, {"disk_mb", l.diskMb}, {"open_files", l.openFiles},
            {"output_bytes", l.outputBytes}};
}

Limits limitsFromJson(const json& j)
{
    Limits l;
    l.wallMs = j.at("wall_ms").get<std::int64_t>();
    l.cpuMs = j.at("cpu_ms").get<std::int64_t>();
    l.memoryMb = j.at("memory_mb").get<std::int64_t>();
    l.processes = j.at("processes").get<std::int64_t>();
    l.fileSizeMb = j.at("file_size_mb").get<std::int64_t>();
    l.diskMb = j.at("disk_mb").get<std::int64_t>();
    l.openFiles = j.at("open_files").get<std::int64_t>();
    l.outputBytes = j.at("output_bytes").get<std::int64_t>();
    return l;
}

// Enums travel as numbers: the launcher does not link the policy parser.
json syscallsToJson(const SyscallPolicy& p)
{
    json rules = json::array();
    for (const auto& r : p.rules) {
        json args = json::array();
        for (const auto& a : r.args)
            args.push_back({{"index", a.index}, {"op", static_cast<int>(a.op)}, {"value", a.value}, {"mask", a.mask}});
        rules.push_back({{"names", r.names}, {"action", static_cast<int>(r.action)}, {"errno", r.errnoValue}, {"args", args}});
    }
    return {{"default", static_cast<int>(p.defaultAction)}, {"default_errno", p.defaultErrno}, {"rules", rules}};
}

SyscallPolicy syscallsFromJson(const json& j)
{
    SyscallPolicy p;
    p.defaultAction = static_cast<SyscallAction>(j.at("default").get<int>());
    p.defaultErrno = j.at("default_errno").get<int>();
    for (const auto& r : j.at("rules")) {
        SyscallRule rule;
        rule.names = r.at("names").get<std::vector<std::string>>();
        rule.action = static_cast<SyscallAction>(r.at("action").get<int>());
        rule.errnoValue = r.at("errno").get<int>();
        for (const auto& a : r.at("args")) {
            ArgCondition c;
            c.index = a.at("index").get<unsigned>();
            c.op = static_cast<ArgOp>(a.at("op").get<int>());
            c.value = a.at("value").get<std::uint64_t>();
            c.mask = a.at("mask").get<std::uint64_t>();
            rule.args.push_back(c);
        }
        p.rules.push_back(std::move(rule));
    }
    return p;
}

// Binary (a BPF program) as hex: JSON strings are text.
std::string toHex(const std::string& bytes)
{
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (const char c : bytes) {
        const auto b = static_cast<unsigned char>(c);
        out += kDigits[b >> 4];
        out += kDigits[b & 0xf];
    }
    return out;
}

std::string fromHex(const std::string& text)
{
    auto digit = [](char c) -> int {
        if (c >= '0' && c <= '9')
            return c - '0';
        if (c >= 'a' && c <= 'f')
            return c - 'a' + 10;
        return -1;
    };
    if (text.size() % 2 != 0)
        throw json::other_error::create(501, "odd-length hex string", nullptr);
    std::string out(text.size() / 2, '\0');
    for (std::size_t i = 0; i < out.size(); ++i) {
        const int hi = digit(text[2 * i]);
        const int lo = digit(text[2 * i + 1]);
        if (hi < 0 || lo < 0)
            throw json::other_error::create(501, "not a hex string", nullptr);
        out[i] = static_cast<char>((hi << 4) | lo);
    }
    return out;
}

// Bytes from the caller (argv, the environment, paths): a JSON string when they are UTF-8, else
// {"hex": ...}. They reach the program byte for byte; a JSON dump would put U+FFFD for what is not UTF-8.
json bytesToJson(const std::string& bytes)
{
    return utf8::isPlainText(bytes) ? json(bytes) : json{{"hex", toHex(bytes)}};
}

std::string bytesFromJson(const json& j)
{
    return j.is_object() ? fromHex(j.at("hex").get<std::string>()) : j.get<std::string>();
}

json bytesListToJson(const std::vector<std::string>& list)
{
    json out = json::array();
    for (const auto& item : list)
        out.push_back(bytesToJson(item));
    return out;
}

std::vector<std::string> bytesListFromJson(const json& j)
{
    std::vector<std::string> out;
    for (const auto& item : j)
        out.push_back(bytesFromJson(item));
    return out;
}

} // namespace

void killAllOfTransientUid(uid_t uid, gid_t gid)
{
    const pid_t killer = ::fork();
    if (killer == 0) {
        if (::setresgid(gid, gid, gid) == 0 && ::setresuid(uid, uid, uid) == 0)
            ::kill(-1, SIGKILL);
        ::_exit(0);
    }
    if (killer > 0)
        ::waitpid(killer, nullptr, __WALL);
}

void removeWorkDir(const std::string& dir)
{
    // The common case in a few calls: no folders in it (unlinkat never follows a link).
    if (DIR* d = ::opendir(dir.c_str())) {
        bool flat = true;
        while (const dirent* e = ::readdir(d)) {
            const std::string_view name = e->d_name;
            if (name == "." || name == "..")
                continue;
            if (e->d_type == DT_DIR || e->d_type == DT_UNKNOWN || ::unlinkat(::dirfd(d), e->d_name, 0) != 0) {
                flat = false;
                break;
            }
        }
        ::closedir(d);
        if (flat && ::rmdir(dir.c_str()) == 0)
            return;
    } else if (errno == ENOENT) {
        return;
    }
    namespace fs = std::filesystem;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (it->is_directory(ec) && !it->is_symlink(ec))
            fs::permissions(it->path(), fs::perms::owner_all, fs::perm_options::add, ec);
    }
    fs::permissions(dir, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(dir, ec);
}

namespace {

json jobToJson(const LaunchSpec& s)
{
    return {{"argv", bytesListToJson(s.argv)}, {"env", bytesListToJson(s.env)}, {"process_base", s.processBase}};
}

// Fills argv, env and processBase; throws json::exception on a malformed job.
Result<void> applyJobJson(LaunchSpec& spec, const json& j)
{
    auto argv = bytesListFromJson(j.at("argv"));
    auto env = bytesListFromJson(j.at("env"));
    const auto processBase = j.at("process_base").get<std::int64_t>();
    if (argv.empty() || argv.front().empty() || argv.front().front() != '/')
        return fail("launch spec: argv[0] must be an absolute path");
    spec.argv = std::move(argv);
    spec.env = std::move(env);
    spec.processBase = processBase;
    return {};
}

} // namespace

std::string encodeSandbox(const LaunchSpec& s)
{
    json j = {{"work_dir", bytesToJson(s.workDir)},
              {"keep_work_dir", s.keepWorkDir},
              {"stage_dir", bytesToJson(s.stageDir)},
              {"limits", limitsToJson(s.limits)},
              {"drop_privileges", s.dropPrivileges},
              {"uid", s.uid},
              {"gid", s.gid},
              {"read_paths", bytesListToJson(s.readPaths)},
              {"dev_paths", bytesListToJson(s.devPaths)},
              {"syscalls", syscallsToJson(s.syscalls)},
              {"seccomp_program", toHex(s.seccompProgram)},
              {"network_allow", s.networkAllow},
              {"cgroups", s.cgroups},
              {"container", s.container},
              {"tmp_size_mb", s.tmpSizeMb},
              {"trace_start", s.traceStart},
              {"pooled", s.pooled},
              {"program_ahead", s.programAhead}};
    if (s.programAhead)
        j["job"] = jobToJson(s);
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

bool sameSandbox(const LaunchSpec& a, const LaunchSpec& b)
{
    // The fields of encodeSandbox(), less work_dir, uid, gid, trace_start and pooled.
    auto fields = [](const LaunchSpec& s) {
        return std::tie(s.keepWorkDir, s.stageDir, s.limits, s.dropPrivileges, s.readPaths, s.devPaths, s.syscalls,
                        s.seccompProgram, s.networkAllow, s.cgroups, s.container, s.tmpSizeMb, s.programAhead);
    };
    auto job = [](const LaunchSpec& s) { return std::tie(s.argv, s.env, s.processBase); };
    return fields(a) == fields(b) && (!a.programAhead || job(a) == job(b));
}

std::string encodeJob(const LaunchSpec& s)
{
    return jobToJson(s).dump(-1, ' ', false, json::error_handler_t::replace);
}

bool isTheJobStartedAhead(const LaunchSpec& spec, std::string_view jobLine)
{
    LaunchSpec job;
    return spec.programAhead && applyJob(job, jobLine)
           && std::tie(job.argv, job.env, job.processBase) == std::tie(spec.argv, spec.env, spec.processBase);
}

std::string encodeSpec(const LaunchSpec& spec)
{
    return encodeSandbox(spec) + '\n' + encodeJob(spec) + '\n';
}

Result<LaunchSpec> decodeSandbox(std::string_view text)
{
    try {
        const json j = json::parse(text.begin(), text.end());
        LaunchSpec s;
        s.workDir = bytesFromJson(j.at("work_dir"));
        s.keepWorkDir = j.at("keep_work_dir").get<bool>();
        s.stageDir = bytesFromJson(j.at("stage_dir"));
        s.limits = limitsFromJson(j.at("limits"));
        s.dropPrivileges = j.at("drop_privileges").get<bool>();
        s.uid = j.at("uid").get<uid_t>();
        s.gid = j.at("gid").get<gid_t>();
        s.readPaths = bytesListFromJson(j.at("read_paths"));
        s.devPaths = bytesListFromJson(j.at("dev_paths"));
        s.syscalls = syscallsFromJson(j.at("syscalls"));
        s.seccompProgram = fromHex(j.at("seccomp_program").get<std::string>());
        s.networkAllow = j.at("network_allow").get<std::vector<std::string>>();
        s.cgroups = j.at("cgroups").get<bool>();
        s.container = j.at("container").get<bool>();
        s.tmpSizeMb = j.at("tmp_size_mb").get<std::int64_t>();
        s.traceStart = j.at("trace_start").get<bool>();
        s.pooled = j.at("pooled").get<bool>();
        s.programAhead = j.at("program_ahead").get<bool>();
        if (s.programAhead) {
            if (!s.pooled)
                return fail("launch spec: only a pooled sandbox starts its program ahead");
            if (auto job = applyJobJson(s, j.at("job")); !job)
                return std::unexpected(job.error());
        }
        return s;
    } catch (const json::exception& e) {
        return fail(std::string("launch spec: ") + e.what());
    }
}

Result<void> applyJob(LaunchSpec& spec, std::string_view text)
{
    try {
        return applyJobJson(spec, json::parse(text.begin(), text.end()));
    } catch (const json::exception& e) {
        return fail(std::string("launch job: ") + e.what());
    }
}

Result<LaunchSpec> decodeSpec(std::string_view text)
{
    const auto newline = text.find('\n');
    if (newline == std::string_view::npos)
        return fail("launch spec: the job is missing");
    auto spec = decodeSandbox(text.substr(0, newline));
    if (!spec)
        return spec;
    if (auto job = applyJob(*spec, text.substr(newline + 1)); !job)
        return std::unexpected(job.error());
    return spec;
}

std::string encodeResult(const LaunchResult& r)
{
    json blocked = json::array();
    for (const auto& b : r.blocked)
        blocked.push_back({{"kind", b.kind}, {"detail", b.detail}});
    json layers = json::array();
    for (const auto& [name, on] : r.layers)
        layers.push_back({name, on});
    json j = {{"setup_failed", r.setupFailed},
              {"setup_error", r.setupError},
              {"exit_code", r.exitCode},
              {"signal", r.signal},
              {"timed_out", r.timedOut},
              {"cpu_limited", r.cpuLimited},
              {"cancelled", r.cancelled},
              {"killed_by_policy", r.killedByPolicy},
              {"memory_limited", r.memoryLimited},
              {"memory_refused", r.memoryRefused},
              {"disk_limited", r.diskLimited},
              {"limit_message", messageToJson(r.limitMessage)},
              {"wall_ms", r.wallMs},
              {"cpu_ms", r.cpuMs},
              {"peak_rss_kb", r.peakRssKb},
              {"blocked", blocked},
              {"layers", layers}};
    if (!r.trace.empty())
        j["trace"] = r.trace;
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

LauncherReport splitLauncherReport(const std::string& text)
{
    LauncherReport report;
    std::string_view rest = text;
    constexpr std::string_view kStarted = "started ";
    if (rest.starts_with(kStarted)) {
        const auto newline = rest.find('\n');
        if (newline != std::string_view::npos) {
            report.started = static_cast<pid_t>(std::atol(std::string(rest.substr(kStarted.size(), newline)).c_str()));
            rest.remove_prefix(newline + 1);
        }
    }
    constexpr std::string_view kReady = "ready\n";
    if (rest.starts_with(kReady)) {
        report.ready = true;
        rest.remove_prefix(kReady.size());
    }
    report.json = std::string(rest);
    return report;
}

Result<LaunchResult> decodeResult(const std::string& text)
{
    try {
        const json j = json::parse(text.begin(), text.end());
        LaunchResult r;
        r.setupFailed = j.at("setup_failed").get<bool>();
        r.setupError = j.at("setup_error").get<std::string>();
        r.exitCode = j.at("exit_code").get<int>();
        r.signal = j.at("signal").get<int>();
        r.timedOut = j.at("timed_out").get<bool>();
        r.cpuLimited = j.at("cpu_limited").get<bool>();
        r.cancelled = j.at("cancelled").get<bool>();
        r.killedByPolicy = j.at("killed_by_policy").get<bool>();
        r.memoryLimited = j.at("memory_limited").get<bool>();
        r.memoryRefused = j.at("memory_refused").get<bool>();
        r.diskLimited = j.at("disk_limited").get<bool>();
        auto limit = messageFromJson(j.at("limit_message"));
        if (!limit)
            return fail("launcher result: limit_message is not a message");
        r.limitMessage = std::move(*limit);
        r.wallMs = j.at("wall_ms").get<double>();
        r.cpuMs = j.at("cpu_ms").get<double>();
        r.peakRssKb = j.at("peak_rss_kb").get<std::int64_t>();
        for (const auto& b : j.at("blocked"))
            r.blocked.push_back({b.at("kind").get<std::string>(), b.at("detail").get<std::string>()});
        for (const auto& l : j.at("layers"))
            r.layers.emplace_back(l.at(0).get<std::string>(), l.at(1).get<bool>());
        if (j.contains("trace"))
            r.trace = j.at("trace").get<starttrace::Marks>();
        return r;
    } catch (const json::exception& e) {
        return fail(std::string("launcher result: ") + e.what());
    }
}

} // namespace sb
