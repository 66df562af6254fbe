// sandbench policy presets | show | check | versions

#include "command_line.h"
#include "commands.h"

#include <memory>

namespace sb::cli {

void addPolicyCommands(CommandLine& commandLine)
{
    auto policy = std::make_shared<PolicyOptions>();
    auto* policyCmd = commandLine.app().add_subcommand(
        "policy", "Policies: list and show the presets, check a policy file, list and show stored versions");
    policyCmd->require_subcommand(1);
    auto* presetsCmd = policyCmd->add_subcommand("presets", "List the built-in presets");
    auto* showCmd = policyCmd->add_subcommand("show", "Print a preset's YAML, or with --version a stored version's");
    showCmd->add_option("name", policy->argument, "Preset name, or with --version a policy name")->required();
    auto* showVersion =
        showCmd->add_option("--version", policy->version, "A version of the policy recorded in the store")
            ->check(CLI::PositiveNumber);
    addStoreOption(showCmd, policy->store, "Store file (with --version)")->needs(showVersion);
    auto* checkCmd = policyCmd->add_subcommand("check", "Validate a policy file and print it as Sandbench reads it");
    checkCmd->add_option("file", policy->argument, "Policy file (YAML) or preset name")->required();
    auto* versionsCmd = policyCmd->add_subcommand(
        "versions", "The policy versions recorded in the store: name, version, sha256, created, runs");
    versionsCmd->add_option("name", policy->argument, "Only the versions of this policy");
    addStoreOption(versionsCmd, policy->store);
    for (auto* sub : {presetsCmd, showCmd, checkCmd, versionsCmd})
        addJsonFlag(sub, policy->json);

    commandLine.onParsed(policyCmd, [policy, presetsCmd, showCmd, versionsCmd] {
        policy->action = presetsCmd->parsed()    ? "presets"
                         : showCmd->parsed()     ? "show"
                         : versionsCmd->parsed() ? "versions"
                                                 : "check";
        return policyCommand(*policy);
    });
}

} // namespace sb::cli
