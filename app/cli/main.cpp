// sandbench-cli: every capability of the workbench, headless, with --json for scripts and CI, started by the
// command a person types (sandbench, app/client). Each command family registers its subcommands in its own file
// (command_line.h); main() parses and runs the one given.

#include "command_line.h"
#include "commands.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

int main(int argc, char** argv)
{
    using namespace sb::cli;
    CLI::App app{"Sandbench: run what you do not trust inside an OS sandbox, and measure every outcome.", "sandbench"};
    app.set_version_flag("--version", std::string("sandbench ") + SANDBENCH_VERSION);
    app.require_subcommand(1);
    app.footer("Exit status: 0 ok; 10 error, 11 blocked, 12 timeout, 13 memory_limit, 14 crashed, 15 internal_error;\n"
               "1 Sandbench could not do it (store, input, unknown sandbox or checkpoint, a run not recorded), audit\n"
               "verify found the log broken or without its key, a rules expression does not compile or evaluates\n"
               "to an error, or a rule set has errors;\n"
               "2 usage error. The store is $SANDBENCH_STORE, else $XDG_DATA_HOME/sandbench/workbench.db;\n"
               "sandbox workspaces live beside it, in STORE.d/sandboxes/NAME/workspace. The key that signs its\n"
               "audit log is in $SANDBENCH_AUDIT_KEYS, else $XDG_CONFIG_HOME/sandbench/audit-keys.");

    CommandLine commandLine(app);
    // The families, in the order --help lists them, each with the commands it registers. Making every command's
    // options is most of what a command costs before it starts, so only the family of the command named first is
    // made; --help, --version, a command of none of them (mistyped, or none) get them all.
    // Cli.EveryCommandsHelpIsItsFamilys checks the names against what each family registers.
    using Add = void (*)(CommandLine&);
    struct Family {
        std::vector<std::string_view> commands;
        std::vector<Add> add;
    };
    const std::vector<Family> families = {
        {{"run", "exec", "serve", "demo", "metrics", "history"}, {addRunCommands}},
        {{"batch", "batch-task"}, {addBatchCommand}},
        {{"jobs"}, {addJobsCommands}},
        {{"policy"}, {addPolicyCommands}},
        {{"audit"}, {addAuditCommands}},
        {{"rules"}, {addRulesCommands}},
        {{"sandbox"}, {addSandboxCommands}},
        {{"checkpoint"}, {addCheckpointCommands}},
        {{"data"}, {addDataCommands}},
        {{"promote"}, {addPromoteCommand}},
        {{"mcp", "agent", "agent-task", "sessions"}, {addAgentCommands, addSessionExportCommand}},
        {{"doctor"}, {addDoctorCommand}}};
    const std::string_view named = argc > 1 && argv[1][0] != '-' ? argv[1] : "";
    const auto has = [&](const Family& family) {
        return std::find(family.commands.begin(), family.commands.end(), named) != family.commands.end();
    };
    const auto its = std::find_if(families.begin(), families.end(), has);
    for (const auto& family : families) {
        if (its == families.end() || &family == &*its) {
            for (const Add add : family.add)
                add(commandLine);
        }
    }

    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return kExitUsage;
    }
    return commandLine.runParsed();
}
