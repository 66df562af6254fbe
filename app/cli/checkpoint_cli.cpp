// sandbench checkpoint create | list | diff | restore | fork | prune | label

#include "command_line.h"
#include "commands.h"

#include <atomic>
#include <iostream>
#include <memory>
#include <sstream>

namespace sb::cli {

namespace {

// The checkpoint family's commands, defined on `app` with their options into `checkpoint`.
struct CheckpointCommands {
    CLI::App* family = nullptr;
    CLI::App* create = nullptr;
    CLI::App* list = nullptr;
    CLI::App* diff = nullptr;
    CLI::App* restore = nullptr;
    CLI::App* fork = nullptr;
    CLI::App* prune = nullptr;
    CLI::App* label = nullptr;
    CLI::Option* keepLast = nullptr;
    CLI::Option* keepLabelled = nullptr;
    CLI::Option* youngerThan = nullptr;
};

CheckpointCommands defineCheckpointCommands(CLI::App& app, CheckpointOptions* checkpoint)
{
    auto* checkpointCmd = app.add_subcommand(
        "checkpoint", "Checkpoints: immutable snapshots of a sandbox's workspace, diffed, restored, forked, pruned");
    checkpointCmd->require_subcommand(1);
    auto* checkpointCreate = checkpointCmd->add_subcommand("create", "Checkpoint a sandbox's workspace; prints its id");
    checkpointCreate->add_option("--sandbox", checkpoint->sandbox, "Sandbox")->required()->check(sandboxNameValidator());
    checkpointCreate->add_option("--label", checkpoint->label, "A label, e.g. \"before step 12: write_file\"");
    checkpointCreate->add_option("--message", checkpoint->message, "Why, at more length");
    auto* checkpointList = checkpointCmd->add_subcommand("list", "A sandbox's checkpoints, newest first");
    checkpointList->add_option("--sandbox", checkpoint->sandbox, "Sandbox")->required()->check(sandboxNameValidator());
    auto* checkpointDiff = checkpointCmd->add_subcommand(
        "diff", "Added, removed and modified files from checkpoint A to B (default: A's live workspace)");
    checkpointDiff->add_option("a", checkpoint->first, "Checkpoint id (or a unique prefix)")->required();
    checkpointDiff->add_option("b", checkpoint->second, "Checkpoint id (default: the live workspace)");
    checkpointDiff->add_flag("--name-only", checkpoint->nameOnly, "Only the changed paths, no text diffs");
    auto* checkpointRestore = checkpointCmd->add_subcommand(
        "restore", "Make the workspace equal to a checkpoint, atomically; unsaved changes are checkpointed first");
    checkpointRestore->add_option("id", checkpoint->first, "Checkpoint id (or a unique prefix)")->required();
    checkpointRestore->add_option("--sandbox", checkpoint->sandbox, "Restore into this sandbox (default: the checkpoint's)")
        ->check(sandboxNameValidator());
    auto* checkpointFork = checkpointCmd->add_subcommand("fork", "Make a new sandbox from a checkpoint");
    checkpointFork->add_option("id", checkpoint->first, "Checkpoint id (or a unique prefix)")->required();
    checkpointFork->add_option("--name", checkpoint->name, "The new sandbox's name")->required()->check(sandboxNameValidator());
    auto* checkpointPrune = checkpointCmd->add_subcommand(
        "prune", "Delete a sandbox's checkpoints no rule keeps (its head and fork points always stay); free space");
    checkpointPrune->add_option("--sandbox", checkpoint->sandbox, "Sandbox")->required()->check(sandboxNameValidator());
    auto* keepLast = checkpointPrune->add_option("--keep-last", checkpoint->keepLast, "Keep the N newest")
                         ->check(CLI::Range(std::int64_t{0}, std::int64_t{1'000'000'000}));
    auto* keepLabelled = checkpointPrune->add_flag("--keep-labelled,--keep-labeled", checkpoint->keepLabelled,
                                                   "Keep every labelled checkpoint");
    auto* youngerThan = checkpointPrune->add_option("--younger-than", checkpoint->youngerThan,
                                                    "Keep those younger than this: 30m, 2h, 7d")
                            ->check(durationValidator());
    auto* checkpointLabel = checkpointCmd->add_subcommand(
        "label", "Give a checkpoint a label, or clear it with \"\" (mutable, like a tag; the id stays)");
    checkpointLabel->add_option("id", checkpoint->first, "Checkpoint id (or a unique prefix)")->required();
    checkpointLabel->add_option("text", checkpoint->label, "The label (\"\" clears it)")->required();
    for (auto* sub : {checkpointCreate, checkpointList, checkpointDiff, checkpointRestore, checkpointFork, checkpointPrune,
                      checkpointLabel}) {
        addJsonFlag(sub, checkpoint->json);
        addStoreOption(sub, checkpoint->store, "Store file (default: see below)");
    }
    return CheckpointCommands{checkpointCmd,  checkpointCreate, checkpointList, checkpointDiff, checkpointRestore,
                              checkpointFork, checkpointPrune,  checkpointLabel, keepLast,      keepLabelled,
                              youngerThan};
}

} // namespace

std::expected<helper::Request, std::string> checkpointRequestForHelper(const std::vector<std::string>& args,
                                                                       const helper::Environment& context)
{
    if (args.size() < 2 || args[0] != "checkpoint" || (args[1] != "create" && args[1] != "restore"))
        return std::unexpected(std::string("not a checkpoint create or restore command line"));
    CLI::App app{"", "sandbench"};
    app.require_subcommand(1);
    auto options = std::make_shared<CheckpointOptions>();
    const CheckpointCommands commands = defineCheckpointCommands(app, options.get());
    std::vector<std::string> reversed(args.rbegin(), args.rend()); // CLI11 takes them last first
    try {
        app.parse(reversed);
    } catch (const CLI::ParseError&) {
        return std::unexpected(std::string("a command line the command parses itself (a usage error or --help)"));
    }
    options->action = commands.create->parsed() ? "create" : "restore";
    helper::Request request;
    request.store = Store::locate(options->store);
    std::error_code error;
    request.store.path = std::filesystem::absolute(request.store.path, error);
    request.context = context;
    request.taskName = "checkpoint " + options->action;
    request.task = [options](SandboxEngine& engine, const std::atomic<bool>* cancel) {
        std::ostringstream out;
        std::ostringstream err;
        // The command going away (Ctrl-C) stops the walk, and a restore before it swaps anything.
        const ProgressCallback progress = [cancel](const Progress&) { return !cancel || !cancel->load(); };
        helper::Reply reply;
        reply.status = options->action == "create" ? checkpointCreate(engine, *options, out, err, progress)
                                                   : checkpointRestore(engine, *options, out, err, progress);
        reply.out = std::move(out).str();
        reply.err = std::move(err).str();
        return reply;
    };
    return request;
}

void addCheckpointCommands(CommandLine& commandLine)
{
    auto checkpoint = std::make_shared<CheckpointOptions>();
    const CheckpointCommands commands = defineCheckpointCommands(commandLine.app(), checkpoint.get());
    commandLine.onParsed(commands.family, [checkpoint, commands] {
        auto* checkpointCreate = commands.create;
        auto* checkpointList = commands.list;
        auto* checkpointDiff = commands.diff;
        auto* checkpointRestore = commands.restore;
        auto* checkpointFork = commands.fork;
        auto* checkpointPrune = commands.prune;
        auto* checkpointLabel = commands.label;
        auto* keepLast = commands.keepLast;
        auto* keepLabelled = commands.keepLabelled;
        auto* youngerThan = commands.youngerThan;
        if (checkpointPrune->parsed() && keepLast->count() == 0 && keepLabelled->count() == 0
            && youngerThan->count() == 0) {
            std::cerr << "sandbench: checkpoint prune: say what to keep: --keep-last N, --keep-labelled and/or "
                         "--younger-than D (the head is always kept)\n";
            return kExitUsage;
        }
        checkpoint->action = checkpointCreate->parsed()    ? "create"
                             : checkpointList->parsed()    ? "list"
                             : checkpointDiff->parsed()    ? "diff"
                             : checkpointRestore->parsed() ? "restore"
                             : checkpointFork->parsed()    ? "fork"
                             : checkpointLabel->parsed()   ? "label"
                                                           : "prune";
        return checkpointCommand(*checkpoint);
    });
}

} // namespace sb::cli
