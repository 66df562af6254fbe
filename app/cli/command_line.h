#pragma once

// The command line's frame: each command family registers its subcommands (addRunCommands() and the others
// below, each in its family's *_cli.cpp), with the options every family shares defined here once, and main()
// runs the one that was given.

#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace sb::cli {

// The subcommands that can run, and what runs for each.
class CommandLine {
public:
    explicit CommandLine(CLI::App& app)
        : m_app(app)
    {
    }

    CLI::App& app() { return m_app; }

    // `run` gives the exit status when `command` was given.
    void onParsed(CLI::App* command, std::function<int()> run);
    // After parsing: the exit status of the command given (kExitUsage when none was).
    int runParsed() const;

private:
    CLI::App& m_app;
    std::vector<std::pair<CLI::App*, std::function<int()>>> m_commands;
};

// --store FILE and --json, as every command that has them spells them.
CLI::Option* addStoreOption(CLI::App* command, std::string& store, const std::string& description = "Store file");
CLI::Option* addJsonFlag(CLI::App* command, bool& json, const std::string& description = "Print JSON");

// Values checked by the parser, so a bad one is a usage error (exit 2) before the store is opened.
const CLI::Validator& sandboxNameValidator();
const CLI::Validator& durationValidator();       // 30m, 2h, 7d, 1h30m
const CLI::Validator& durationOrNoneValidator(); // ... or none
const CLI::Validator& sizeValidator();           // 500M, 2G
const CLI::Validator& sizeOrNoneValidator();     // ... or none
const CLI::Validator& timePointValidator();      // ISO 8601, or a duration ago

// The command families, in the order --help lists them.
void addRunCommands(CommandLine& commandLine);        // run, exec, demo, metrics, history
void addBatchCommand(CommandLine& commandLine);       // batch (and batch-task, a Slurm task)
void addJobsCommands(CommandLine& commandLine);       // jobs list|cancel|remove
void addPolicyCommands(CommandLine& commandLine);     // policy presets|show|check|versions
void addAuditCommands(CommandLine& commandLine);      // audit list|verify
void addRulesCommands(CommandLine& commandLine);      // rules expr|check|eval|impact|ab|explain
void addSandboxCommands(CommandLine& commandLine);    // sandbox create|list|path|destroy|sweep|set|show
void addCheckpointCommands(CommandLine& commandLine); // checkpoint create|list|diff|restore|fork|prune|label
void addDataCommands(CommandLine& commandLine);       // data import|list|show|generate
void addPromoteCommand(CommandLine& commandLine);     // promote
void addAgentCommands(CommandLine& commandLine);      // mcp wrap, agent run, sessions list|show|control
void addSessionExportCommand(CommandLine& commandLine); // sessions export (after addAgentCommands)
void addDoctorCommand(CommandLine& commandLine);      // doctor

} // namespace sb::cli
