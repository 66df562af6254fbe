// sandbench promote SANDBOX

#include "command_line.h"
#include "commands.h"

#include <algorithm>
#include <iostream>
#include <memory>

namespace sb::cli {

void addPromoteCommand(CommandLine& commandLine)
{
    auto promote = std::make_shared<PromoteOptions>();
    auto* promoteCmd = commandLine.app().add_subcommand(
        "promote", "Merge a sandbox's changes into its target (main): conflicts, impact, risk, compatibility, approval, "
                   "atomic apply; or only report (--dry-run), or write them out (--export, --patch)");
    promoteCmd->add_option("sandbox", promote->sandbox, "The sandbox whose changes are promoted")
        ->required()
        ->check(sandboxNameValidator());
    promoteCmd->add_option("--to", promote->target, "The target sandbox (default: main)")->check(sandboxNameValidator());
    auto* approveFlag = promoteCmd->add_flag("--approve", promote->approve,
                                             "Approve the promotion (required when its risk is high); with --by and --note");
    promoteCmd->add_option("--by", promote->by, "Who approves")->needs(approveFlag);
    promoteCmd->add_option("--note", promote->note, "Why it is approved")->needs(approveFlag);
    auto* dryRun = promoteCmd->add_flag("--dry-run", promote->dryRun, "Only report what would happen; apply nothing");
    auto* exportOption = promoteCmd->add_option(
        "--export", promote->exportDir, "Write the changed files and manifest.json to this new or empty folder; apply nothing");
    auto* patchOption = promoteCmd->add_option(
        "--patch", promote->patchFile, "Write the change as a git-style unified diff to this file; apply nothing");
    dryRun->excludes(exportOption)->excludes(patchOption);
    exportOption->excludes(patchOption);
    promoteCmd->add_option("--data", promote->data,
                           "A dataset (stored name, or a .csv/.jsonl file): rule sets are checked against its columns "
                           "and the decisions each changed rule set flips on it grade the risk (default: the sandbox's first "
                           "dataset reference, when it has one)");
    promoteCmd->add_option("--risk-config", promote->riskConfig,
                           "Risk thresholds (YAML, a `promotion:` section; default STORE.d/promotion.yaml if present)");
    promoteCmd->add_option("--take-source", promote->takeSource,
                           "Settle the conflict at this path with the sandbox's side (repeatable)");
    promoteCmd->add_option("--take-target", promote->takeTarget,
                           "Settle the conflict at this path with the target's side (repeatable)");
    addJsonFlag(promoteCmd, promote->json);
    addStoreOption(promoteCmd, promote->store, "Store file (default: see below)");

    commandLine.onParsed(promoteCmd, [promote] {
        if (promote->approve && (promote->by.empty() || promote->note.empty())) {
            std::cerr << "sandbench: promote: --approve needs --by NAME and --note TEXT (who approves, and why)\n";
            return kExitUsage;
        }
        for (const auto& path : promote->takeSource) {
            if (std::find(promote->takeTarget.begin(), promote->takeTarget.end(), path) != promote->takeTarget.end()) {
                std::cerr << "sandbench: promote: " << path << ": --take-source and --take-target both name it\n";
                return kExitUsage;
            }
        }
        return promoteCommand(*promote);
    });
}

} // namespace sb::cli
