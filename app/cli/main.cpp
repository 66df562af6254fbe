// sandbench: every capability of the workbench, headless, with --json for scripts and CI. Each command family
// registers its subcommands in its own file (command_line.h); main() parses and runs the one given.

#include "command_line.h"
#include "commands.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace {

bool hasCommand(const CLI::App& app, const std::string& name)
{
    const auto commands = app.get_subcommands([](const CLI::App*) { return true; });
    return std::any_of(commands.begin(), commands.end(), [&](const CLI::App* command) { return command->check_name(name); });
}

} // namespace

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
    // The families, in the order --help lists them. Making every command's options is most of what a command
    // costs before it starts, so they are made up to the family that has the command named first; --help,
    // --version, a mistyped command or none get them all. `sessions export` joins its family's `sessions`.
    using Family = void (*)(CommandLine&);
    const std::vector<std::vector<Family>> families = {
        {addRunCommands},     {addBatchCommand},      {addJobsCommands},   {addPolicyCommands},
        {addAuditCommands},   {addRulesCommands},     {addSandboxCommands}, {addCheckpointCommands},
        {addDataCommands},    {addPromoteCommand},    {addAgentCommands, addSessionExportCommand},
        {addDoctorCommand}};
    const std::string named = argc > 1 && argv[1][0] != '-' ? argv[1] : "";
    for (const auto& family : families) {
        for (const Family add : family)
            add(commandLine);
        if (!named.empty() && hasCommand(app, named))
            break;
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
