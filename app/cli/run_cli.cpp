// sandbench run | exec | demo | metrics | history | doctor: runs in the sandbox, and what the store holds of them.

#include "command_line.h"
#include "commands.h"

#include <memory>

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

} // namespace

void addRunCommands(CommandLine& commandLine)
{
    CLI::App& app = commandLine.app();

    auto run = std::make_shared<RunOptions>();
    auto* runCmd = app.add_subcommand("run", "Run a Python or shell snippet in the sandbox and record it");
    runCmd->add_option("file", run->file, "Snippet file, or - for standard input")->required();
    runCmd->add_option("--lang", run->language, "Language (default: from the file extension, else python)")
        ->check(CLI::IsMember({"python", "sh"}));
    addRunOptions(runCmd, *run, "Policy file (YAML) or preset name (see: sandbench policy presets)", false);
    commandLine.onParsed(runCmd, [run] { return runCommand(*run); });

    auto exec = std::make_shared<RunOptions>();
    auto* execCmd = app.add_subcommand("exec", "Run any command in the sandbox: sandbench exec [options] -- CMD ARGS...");
    execCmd->add_option("command", exec->command, "The command and its arguments (after --)")->required();
    addRunOptions(execCmd, *exec, "Policy file (YAML) or preset name", true);
    commandLine.onParsed(execCmd, [exec] { return execCommand(*exec); });

    auto idleExit = std::make_shared<std::int64_t>(600);
    auto* serveCmd = app.add_subcommand(
        "serve", "The run helper: keeps stores open and sandboxes ready for run and exec, which ask it first and run "
                 "themselves when it is not there (SANDBENCH_HELPER=off: never ask)");
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
