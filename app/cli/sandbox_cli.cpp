// sandbench sandbox create | list | path | destroy | sweep | set | show

#include "command_line.h"
#include "commands.h"

#include <iostream>
#include <memory>

namespace sb::cli {

void addSandboxCommands(CommandLine& commandLine)
{
    auto sandbox = std::make_shared<SandboxOptions>();
    auto* sandboxCmd = commandLine.app().add_subcommand(
        "sandbox", "Sandboxes: named worlds with a workspace folder of their own; main is production");
    sandboxCmd->require_subcommand(1);
    auto* sandboxCreate = sandboxCmd->add_subcommand(
        "create", "Make a sandbox from main, another sandbox, a checkpoint, or an imported folder (copied)");
    sandboxCreate->add_option("name", sandbox->name, "The new sandbox's name")->required()->check(sandboxNameValidator());
    auto* fromOption = sandboxCreate->add_option("--from", sandbox->from, "main (the default), a sandbox, or a checkpoint id");
    sandboxCreate->add_option("--import", sandbox->importDir, "Copy this folder in as the workspace (never mounted)")
        ->excludes(fromOption);
    sandboxCreate->add_option("--include", sandbox->includes, "Take only paths matching these globs (** spans folders)");
    sandboxCreate->add_option("--exclude", sandbox->excludes, "Leave out paths matching these globs");
    sandboxCreate->add_option("--expires", sandbox->expires, "Destroyed by the next sweep after this long: 30m, 2h, 7d, 1h30m")
        ->check(durationValidator());
    sandboxCreate->add_option("--quota", sandbox->quota,
                              "Bound the workspace's bytes: 500M, 2G (creation, checkpoints and runs are held to it)")
        ->check(sizeValidator());
    sandboxCreate->add_option("--idle", sandbox->idle,
                              "Archived by the next sweep after this long unused (its work kept): 30m, 2h, 7d")
        ->check(durationValidator());
    sandboxCreate->add_option("--policy", sandbox->policy,
                              "The policy its runs use: a policy file (YAML) or preset (default: the source's)");
    sandboxCreate->add_option("--dataset", sandbox->datasets,
                              "Refer to this stored dataset snapshot (repeatable; the source's references come along)");
    auto* sampleOption =
        sandboxCreate->add_option("--sample", sandbox->sample,
                                  "Refer to a sampled snapshot of each --dataset instead, named SANDBOX.DATASET")
            ->check(CLI::Range(0.000001, 1.0));
    sandboxCreate->add_option("--seed", sandbox->seed, "Sampling seed: the same seed keeps the same records (default 0)")
        ->needs(sampleOption);
    auto* sandboxList = sandboxCmd->add_subcommand(
        "list", "Every sandbox: name, checkpoints, created, expiry, state, idle time, usage, origin");
    auto* sandboxPath = sandboxCmd->add_subcommand("path", "Print a sandbox's workspace folder");
    sandboxPath->add_option("name", sandbox->name, "Sandbox")->required()->check(sandboxNameValidator());
    auto* sandboxDestroy = sandboxCmd->add_subcommand(
        "destroy", "Delete a sandbox, its workspace and checkpoints, and free what nothing else uses");
    sandboxDestroy->add_option("name", sandbox->name, "Sandbox")->required()->check(sandboxNameValidator());
    auto* sandboxSweep = sandboxCmd->add_subcommand(
        "sweep", "Destroy every expired sandbox, archive every one idle past its timeout, free unreferenced blobs");
    auto* sandboxSet = sandboxCmd->add_subcommand(
        "set", "Change a sandbox's quota, idle timeout, expiry, policy, owner or dataset references");
    sandboxSet->add_option("name", sandbox->name, "Sandbox")->required()->check(sandboxNameValidator());
    sandboxSet->add_option("--quota", sandbox->quota, "Bound the workspace's bytes (500M, 2G), or none")->check(sizeOrNoneValidator());
    sandboxSet->add_option("--idle", sandbox->idle, "Archive after this long unused (30m, 7d), or none")
        ->check(durationOrNoneValidator());
    sandboxSet->add_option("--expires", sandbox->expires, "Destroyed by a sweep this long from now (2h, 7d), or none")
        ->check(durationOrNoneValidator());
    sandboxSet->add_option("--policy", sandbox->policy, "The policy its runs use: a file (YAML) or preset, or none");
    sandboxSet->add_option("--owner", sandbox->owner, "Its owner");
    sandboxSet->add_option("--dataset", sandbox->datasets, "Refer to this stored dataset snapshot (repeatable)");
    sandboxSet->add_option("--drop-dataset", sandbox->dropDatasets, "No longer refer to this dataset (repeatable)");
    auto* sandboxShow = sandboxCmd->add_subcommand(
        "show", "Everything about a sandbox: usage and quota, idle time and state, policy, datasets, head");
    sandboxShow->add_option("name", sandbox->name, "Sandbox")->required()->check(sandboxNameValidator());
    for (auto* sub : {sandboxCreate, sandboxList, sandboxPath, sandboxDestroy, sandboxSweep, sandboxSet, sandboxShow}) {
        addJsonFlag(sub, sandbox->json);
        addStoreOption(sub, sandbox->store, "Store file (default: see below)");
    }

    commandLine.onParsed(sandboxCmd, [sandbox, sandboxCreate, sandboxList, sandboxPath, sandboxDestroy, sandboxSet,
                                      sandboxShow] {
        sandbox->action = sandboxCreate->parsed()    ? "create"
                          : sandboxList->parsed()    ? "list"
                          : sandboxPath->parsed()    ? "path"
                          : sandboxDestroy->parsed() ? "destroy"
                          : sandboxSet->parsed()     ? "set"
                          : sandboxShow->parsed()    ? "show"
                                                     : "sweep";
        if (sandboxCreate->parsed() && sandbox->sample < 1.0 && sandbox->datasets.empty()) {
            std::cerr << "sandbench: sandbox create: --sample samples the --dataset snapshots: name at least one\n";
            return kExitUsage;
        }
        return sandboxCommand(*sandbox);
    });
}

} // namespace sb::cli
