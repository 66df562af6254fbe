// sandbench run | exec | demo | metrics | history | doctor: runs in the sandbox, and what the store holds of them.

#include "command_line.h"
#include "commands.h"
#include "util/errno_text.h"
#include "util/unique_fd.h"

#include <cerrno>
#include <fcntl.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <memory>
#include <optional>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace sb::cli {

namespace {

// The options run and exec share, after each one's own first ones.
void addRunOptions(CLI::App* command, RunOptions& options, const std::string& policyHelp, bool levelExcludesPolicy)
{
    command->add_option("--timeout-ms", options.timeoutMs, "Wall-clock limit in milliseconds (default 5000)")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{86'400'000}));
    command->add_option("--memory-mb", options.memoryMb, "Memory limit in MiB: address space per process, resident memory of the run as a whole (default 256)")
        ->check(CLI::Range(std::int64_t{16}, std::int64_t{1'048'576}));
    auto* policy = command->add_option("--policy", options.policyFile, policyHelp);
    auto* level = command->add_option("--level", options.level, "Isolation level (default: the policy's, else the deepest this machine offers; see sandbench doctor)")
        ->check(CLI::IsMember({"process", "container", "strict"}));
    if (levelExcludesPolicy)
        level->excludes(policy);
    addJsonFlag(command, options.json, "Print one JSON object describing the run");
    addStoreOption(command, options.store, "Store file (default: see below)");
    command->add_option("--sandbox", options.sandbox,
                        "Work in this sandbox's workspace (kept afterwards) instead of a fresh, private work dir");
}

CLI::App* defineRunCommand(CLI::App& app, RunOptions& run)
{
    auto* runCmd = app.add_subcommand("run", "Run a Python or shell snippet in the sandbox and record it");
    runCmd->add_option("file", run.file, "Snippet file, or - for standard input")->required();
    runCmd->add_option("--lang", run.language, "Language (default: from the file extension, else python)")
        ->check(CLI::IsMember({"python", "sh"}));
    addRunOptions(runCmd, run, "Policy file (YAML) or preset name (see: sandbench policy presets)", false);
    return runCmd;
}

CLI::App* defineExecCommand(CLI::App& app, RunOptions& exec)
{
    auto* execCmd = app.add_subcommand("exec", "Run any command in the sandbox: sandbench exec [options] -- CMD ARGS...");
    execCmd->add_option("command", exec.command, "The command and its arguments (after --)")->required();
    addRunOptions(execCmd, exec, "Policy file (YAML) or preset name", true);
    return execCmd;
}

// A file a command line names that could mean something else in the helper's process than in the command's: a
// magic link (/dev/stdin, a shell's <(...) as /dev/fd/63, anything through /proc/PID/fd) names each process's
// own descriptor, /proc's files describe the process that reads them, and a pipe or device read here would read
// the helper's or block it. The command reads those itself; the kernel resolves the name (openat2
// RESOLVE_NO_MAGICLINKS), so a symlink to any of them is caught too.
std::optional<std::string> whyNotReadByTheHelper(const std::string& file)
{
    if (file.empty())
        return std::nullopt;
    if (file == "-")
        return std::string("a snippet on standard input (the command's own)");
    open_how how{};
    how.flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;
    how.resolve = RESOLVE_NO_MAGICLINKS;
    const UniqueFd fd(static_cast<int>(::syscall(SYS_openat2, AT_FDCWD, file.c_str(), &how, sizeof how)));
    if (!fd.valid()) {
        if (errno == ENOENT || errno == ENOTDIR)
            return std::nullopt; // not a file (a preset's name), or one the command says it cannot read
        return file + ": " + errnoText(errno) + " here (the command reads it itself)";
    }
    struct stat st {};
    struct statfs fs {};
    if (::fstat(fd.get(), &st) != 0 || !S_ISREG(st.st_mode) || ::fstatfs(fd.get(), &fs) != 0
        || fs.f_type == PROC_SUPER_MAGIC)
        return file + ": not a regular file outside /proc (the command reads it itself)";
    return std::nullopt;
}

} // namespace

std::expected<helper::Request, std::string> helperRequestOfCommandLine(const std::vector<std::string>& args,
                                                                       const helper::Environment& context)
{
    if (!args.empty() && args.front() == "checkpoint")
        return checkpointRequestForHelper(args, context);
    if (args.empty() || (args.front() != "run" && args.front() != "exec"))
        return std::unexpected(std::string("not a run, exec or checkpoint command line"));
    CLI::App app{"", "sandbench"};
    app.require_subcommand(1);
    RunOptions options;
    auto* runCmd = defineRunCommand(app, options);
    defineExecCommand(app, options);
    std::vector<std::string> reversed(args.rbegin(), args.rend()); // CLI11 takes them last first
    try {
        app.parse(reversed);
    } catch (const CLI::ParseError&) {
        return std::unexpected(std::string("a command line the command parses itself (a usage error or --help)"));
    }
    for (const std::string* file : {&options.file, &options.policyFile}) {
        if (auto why = whyNotReadByTheHelper(*file))
            return std::unexpected(*why);
    }
    auto request = runCmd->parsed() ? runRequestOf(options) : Result<RunRequest>(execRequestOf(options));
    if (!request)
        return std::unexpected(request.error().message);
    return helperRequestOf(std::move(*request), options, context);
}

void addRunCommands(CommandLine& commandLine)
{
    CLI::App& app = commandLine.app();

    auto run = std::make_shared<RunOptions>();
    auto* runCmd = defineRunCommand(app, *run);
    commandLine.onParsed(runCmd, [run] { return runCommand(*run); });

    auto exec = std::make_shared<RunOptions>();
    auto* execCmd = defineExecCommand(app, *exec);
    commandLine.onParsed(execCmd, [exec] { return execCommand(*exec); });

    auto idleExit = std::make_shared<std::int64_t>(600);
    auto* serveCmd = app.add_subcommand(
        "serve", "The run helper: keeps stores open, sandboxes ready and workspaces watched for run, exec, checkpoint "
                 "create and checkpoint restore, which ask it first and do the work themselves when it is not there "
                 "(SANDBENCH_HELPER=off: never ask)");
    serveCmd->add_option("--idle-exit", *idleExit, "Exit after this many seconds without a command (default 600; 0: never)")
        ->check(CLI::Range(std::int64_t{0}, std::int64_t{31'536'000}));
    commandLine.onParsed(serveCmd, [idleExit] { return serveCommand(*idleExit); });

    struct StoreReport {
        bool json = false;
        std::string store;
        int limit = 20;
    };
    auto demo = std::make_shared<StoreReport>();
    auto* demoCmd = app.add_subcommand("demo", "Run the demo cases (ok, blocked, timeout, error, memory, fork bomb, "
                                               "crash) and record the worked example as an agent session");
    addJsonFlag(demoCmd, demo->json);
    addStoreOption(demoCmd, demo->store);
    commandLine.onParsed(demoCmd, [demo] { return demoCommand(demo->store, demo->json); });

    auto metrics = std::make_shared<StoreReport>();
    auto* metricsCmd = app.add_subcommand("metrics", "Totals and rates per outcome, duration percentiles, recent events");
    addJsonFlag(metricsCmd, metrics->json);
    addStoreOption(metricsCmd, metrics->store);
    commandLine.onParsed(metricsCmd, [metrics] { return metricsCommand(metrics->store, metrics->json); });

    auto history = std::make_shared<StoreReport>();
    auto* historyCmd = app.add_subcommand("history", "The most recent runs in the store, newest first");
    addJsonFlag(historyCmd, history->json);
    addStoreOption(historyCmd, history->store);
    historyCmd->add_option("--limit", history->limit, "How many runs (default 20)")->check(CLI::Range(1, 100000));
    commandLine.onParsed(historyCmd,
                         [history] { return historyCommand(history->store, history->limit, history->json); });
}

void addDoctorCommand(CommandLine& commandLine)
{
    auto json = std::make_shared<bool>(false);
    auto* doctorCmd =
        commandLine.app().add_subcommand("doctor", "Which isolation layers this machine and user can have, and why not");
    addJsonFlag(doctorCmd, *json);
    commandLine.onParsed(doctorCmd, [json] { return doctorCommand(*json); });
}

} // namespace sb::cli
