// sandbench sandbox ... and sandbench checkpoint ...: the sandbox engine (core/sandboxes) from the command
// line. Exit status 0 ok, 1 when it cannot be done (unknown sandbox or checkpoint, store trouble), 2 for
// usage errors (found by the parser: bad names, durations, counts).

#include "commands.h"

#include "report.h"

#include "store/store.h"
#include "rules/ruleset_diff.h"
#include "util/input_file.h"
#include "util/printable.h"
#include "util/size_text.h"
#include "util/time_text.h"
#include "checkpoints/files.h"
#include "sandboxes/sandbox_engine.h"
#include "usecases/checkpoint_rule_sets.h"
#include "usecases/sandbox_setup.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <ctime>
#include <iostream>
#include <memory>
#include <map>

namespace sb::cli {

namespace {

using nlohmann::json;

int failWith(const std::string& message, std::ostream& err = std::cerr)
{
    err << "sandbench: " << message << '\n';
    return kExitFailure;
}

std::string when(std::int64_t epochMs)
{
    const std::time_t t = static_cast<std::time_t>(epochMs / 1000);
    std::tm tm{};
    ::localtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
    return buf;
}

std::string bytesText(std::uint64_t bytes)
{
    if (bytes < 10 * 1024)
        return fmt::format("{} B", bytes);
    if (bytes < 10 * 1024 * 1024)
        return fmt::format("{:.1f} KiB", static_cast<double>(bytes) / 1024);
    return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1024 * 1024));
}

void warnSkipped(const std::vector<Skipped>& skipped, std::ostream& err = std::cerr)
{
    for (const auto& s : skipped)
        err << "sandbench: skipped " << printable(s.path) << ": " << s.reason << '\n';
}

json createdToJson(const CreateSandboxResult& made, std::int64_t now)
{
    json out = sandboxToJson(made.sandbox, now);
    out["checkpoint"] = checkpointToJson(made.checkpoint);
    out["saved_source"] = made.savedSource ? json(made.savedSource->id) : json(nullptr);
    out["skipped"] = skippedToJson(made.skipped);
    return out;
}

void printCreated(const CreateSandboxResult& made, std::string_view verb)
{
    warnSkipped(made.skipped);
    if (made.savedSource)
        std::cerr << fmt::format("sandbench: unsaved changes of the source were checkpointed first: {}\n",
                                 made.savedSource->id);
    std::cout << fmt::format("sandbox {} {} from {}\n", made.sandbox.name, verb,
                             made.sandbox.origin.empty() ? "nothing" : printable(made.sandbox.origin));
    std::cout << fmt::format("workspace  {}\ncheckpoint {}\n", made.sandbox.workspace.string(), made.checkpoint.id);
    if (made.sandbox.expiresAtMs)
        std::cout << fmt::format("expires    {}\n", when(*made.sandbox.expiresAtMs));
}

int create(Store& store, SandboxEngine& engine, const SandboxOptions& options)
{
    CreateSandboxRequest request;
    request.name = options.name;
    request.from = options.from;
    if (!options.importDir.empty())
        request.importFrom = std::filesystem::path(options.importDir);
    request.includes = options.includes;
    request.excludes = options.excludes;
    if (!options.expires.empty())
        request.expiresInMs = *parseLifetimeMs(options.expires); // checked by the parser
    if (!options.quota.empty())
        request.quotaBytes = *parseSizeBytes(options.quota); // checked by the parser
    if (!options.idle.empty())
        request.idleTimeoutMs = *parseLifetimeMs(options.idle); // checked by the parser
    SandboxCreation creation{std::move(request), options.policy, options.datasets, options.sample, options.seed};
    auto made = createSandbox(store, engine, creation);
    if (!made)
        return failWith(made.error().message);
    if (options.json) {
        std::cout << dumpJson(createdToJson(*made, nowMs())) << '\n';
        return 0;
    }
    printCreated(*made, "created");
    return 0;
}

// A sandbox with its governance: usage against its quota, idle time, state, policy, datasets.
json governedToJson(SandboxEngine& engine, const SandboxInfo& s, std::int64_t now, std::string* warning)
{
    json out = sandboxToJson(s, now);
    auto used = engine.usage(s.name);
    if (!used && warning)
        *warning = fmt::format("sandbox '{}': cannot measure its workspace: {}", s.name, used.error().message);
    out["usage_bytes"] = used ? json(*used) : json(nullptr);
    return out;
}

std::string quotaText(const std::optional<std::uint64_t>& used, const SandboxInfo& s)
{
    const std::string usage = used ? formatSize(*used) : std::string("?");
    return s.quotaBytes ? fmt::format("{} of {}", usage, formatSize(*s.quotaBytes)) : usage;
}

int list(SandboxEngine& engine, const SandboxOptions& options)
{
    auto sandboxes = engine.sandboxes();
    if (!sandboxes)
        return failWith(sandboxes.error().message);
    const std::int64_t now = nowMs();
    if (options.json) {
        json out = json::array();
        for (const auto& s : *sandboxes) {
            std::string warning;
            out.push_back(governedToJson(engine, s, now, &warning));
            if (!warning.empty())
                std::cerr << "sandbench: " << warning << '\n';
        }
        std::cout << dumpJson(out) << '\n';
        return 0;
    }
    std::cout << fmt::format("{:<24} {:>11}  {:<19}  {:<12}  {:<8}  {:<8}  {:<24}  {}\n", "name", "checkpoints",
                             "created", "expires", "state", "idle", "usage", "origin");
    for (const auto& s : *sandboxes) {
        std::string expires = "never";
        if (s.expiresAtMs)
            expires = s.expired(now) ? "expired" : "in " + formatDurationShort(*s.expiresAtMs - now);
        auto used = engine.usage(s.name);
        std::cout << fmt::format("{:<24} {:>11}  {:<19}  {:<12}  {:<8}  {:<8}  {:<24}  {}\n", s.name, s.checkpoints,
                                 when(s.createdAtMs), expires, s.state(), formatDurationShort(s.idleMs(now)),
                                 quotaText(used ? std::optional<std::uint64_t>(*used) : std::nullopt, s),
                                 printable(s.origin));
    }
    return 0;
}

int show(SandboxEngine& engine, const SandboxOptions& options)
{
    auto sandbox = engine.sandbox(options.name);
    if (!sandbox)
        return failWith(sandbox.error().message);
    const std::int64_t now = nowMs();
    std::string warning;
    const json out = governedToJson(engine, *sandbox, now, &warning);
    if (!warning.empty())
        std::cerr << "sandbench: " << warning << '\n';
    if (options.json) {
        std::cout << dumpJson(out) << '\n';
        return 0;
    }
    const SandboxInfo& s = *sandbox;
    auto line = [](std::string_view key, const std::string& value) {
        std::cout << fmt::format("{:<14}{}\n", key, value);
    };
    line("name", s.name);
    line("owner", printable(s.owner));
    line("state", std::string(s.state()));
    line("created", when(s.createdAtMs));
    line("expires", s.expiresAtMs ? (s.expired(now) ? "expired" : when(*s.expiresAtMs)) : "never");
    line("origin", s.origin.empty() ? "-" : printable(s.origin));
    line("head", s.head);
    line("checkpoints", std::to_string(s.checkpoints));
    line("workspace", s.workspace.string());
    line("usage", quotaText(out["usage_bytes"].is_null() ? std::nullopt
                                                          : std::optional<std::uint64_t>(out["usage_bytes"].get<std::uint64_t>()),
                            s));
    line("idle", s.idleTimeoutMs ? fmt::format("{} (archived after {})", formatDurationShort(s.idleMs(now)),
                                               formatDurationShort(*s.idleTimeoutMs))
                                 : formatDurationShort(s.idleMs(now)));
    line("policy", s.policy.empty() ? "-" : s.policy);
    if (s.datasets.empty())
        line("datasets", "-");
    for (const auto& d : s.datasets) {
        line("dataset", d.sampled ? fmt::format("{} -> {} (sample {} seed {}) {}", d.name, d.snapshot, d.sample, d.seed,
                                                d.sha256.substr(0, 12))
                                  : fmt::format("{} -> {} {}", d.name, d.snapshot, d.sha256.substr(0, 12)));
    }
    if (!s.includes.empty())
        line("includes", fmt::format("{}", fmt::join(s.includes, " ")));
    if (!s.excludes.empty())
        line("excludes", fmt::format("{}", fmt::join(s.excludes, " ")));
    return 0;
}

int set(Store& store, SandboxEngine& engine, const SandboxOptions& options)
{
    SandboxSettings settings;
    settings.name = options.name;
    // Values are checked by the parser; "none" removes.
    if (!options.quota.empty())
        settings.quotaBytes = options.quota == "none" ? std::optional<std::uint64_t>()
                                                      : std::optional<std::uint64_t>(*parseSizeBytes(options.quota));
    if (!options.idle.empty())
        settings.idleTimeoutMs = options.idle == "none" ? std::optional<std::int64_t>()
                                                        : std::optional<std::int64_t>(*parseLifetimeMs(options.idle));
    if (!options.expires.empty())
        settings.expiresInMs = options.expires == "none"
                                   ? std::optional<std::int64_t>()
                                   : std::optional<std::int64_t>(*parseLifetimeMs(options.expires));
    if (!options.owner.empty())
        settings.owner = options.owner;
    settings.dropDatasets = options.dropDatasets;
    auto changed = changeSandbox(store, engine, SandboxChange{std::move(settings), options.policy, options.datasets});
    if (!changed)
        return failWith(changed.error().message);
    if (options.json) {
        std::string warning;
        std::cout << dumpJson(governedToJson(engine, *changed, nowMs(), &warning)) << '\n';
        return 0;
    }
    std::cout << fmt::format("sandbox {} changed\n", changed->name);
    return 0;
}

int path(SandboxEngine& engine, const SandboxOptions& options)
{
    // Asking for the folder is about to use it: an archived sandbox is revived.
    auto sandbox = engine.use(options.name);
    if (!sandbox)
        return failWith(sandbox.error().message);
    if (options.json)
        std::cout << dumpJson({{"name", sandbox->name}, {"path", sandbox->workspace.string()}}) << '\n';
    else
        std::cout << sandbox->workspace.string() << '\n';
    return 0;
}

int destroy(SandboxEngine& engine, const SandboxOptions& options)
{
    auto destroyed = engine.destroySandbox(options.name);
    if (!destroyed)
        return failWith(destroyed.error().message);
    if (options.json) {
        std::cout << dumpJson({{"name", destroyed->sandbox},
                               {"destroyed", destroyed->sandbox},
                               {"datasets_removed", destroyed->datasetsRemoved},
                               {"checkpoints_removed", destroyed->checkpointsRemoved},
                               {"blobs_freed", destroyed->garbage.blobsRemoved},
                               {"bytes_freed", destroyed->garbage.bytesRemoved}})
                  << '\n';
        return 0;
    }
    std::cout << fmt::format("sandbox {} destroyed: {} checkpoints removed, {} blobs ({}) freed\n", destroyed->sandbox,
                             destroyed->checkpointsRemoved, destroyed->garbage.blobsRemoved,
                             bytesText(destroyed->garbage.bytesRemoved));
    for (const auto& name : destroyed->datasetsRemoved)
        std::cout << fmt::format("dataset {} (sampled for it alone) removed\n", name);
    return 0;
}

int sweep(SandboxEngine& engine, const SandboxOptions& options)
{
    auto swept = engine.sweep();
    if (!swept)
        return failWith(swept.error().message);
    if (options.json) {
        std::cout << dumpJson({{"destroyed", swept->destroyed},
                               {"archived", swept->archived},
                               {"saved", swept->savedCheckpoints},
                               {"checkpoints_removed", swept->checkpointsRemoved},
                               {"blobs_freed", swept->garbage.blobsRemoved},
                               {"bytes_freed", swept->garbage.bytesRemoved}})
                  << '\n';
        return 0;
    }
    if (swept->destroyed.empty())
        std::cout << "no expired sandboxes\n";
    for (const auto& name : swept->destroyed)
        std::cout << "destroyed expired sandbox " << name << '\n';
    for (const auto& name : swept->archived)
        std::cout << "archived idle sandbox " << name << " (its work is checkpointed; it comes back on its next use)\n";
    std::cout << fmt::format("{} blobs ({}) freed\n", swept->garbage.blobsRemoved, bytesText(swept->garbage.bytesRemoved));
    return 0;
}

// --- checkpoints ------------------------------------------------------------------------------------------

} // namespace

int checkpointCreate(SandboxEngine& engine, const CheckpointOptions& options, std::ostream& out, std::ostream& err,
                     const ProgressCallback& progress)
{
    auto made = engine.checkpoint(CheckpointRequest{options.sandbox, options.label, options.message, {}}, progress);
    if (!made)
        return failWith(made.error().message, err);
    if (options.json) {
        json printed = checkpointToJson(made->checkpoint);
        printed["changes"] = {{"added", made->changes.added}, {"removed", made->changes.removed}, {"modified", made->changes.modified}};
        printed["skipped"] = skippedToJson(made->skipped);
        printed["files_read"] = made->filesRead;
        printed["bytes_read"] = made->bytesRead;
        printed["new_blobs"] = made->newBlobs;
        printed["new_bytes_stored"] = made->newBytes;
        printed["watched"] = made->watched;
        out << dumpJson(printed) << '\n';
        return 0;
    }
    warnSkipped(made->skipped, err);
    out << made->checkpoint.id << '\n';
    return 0;
}

namespace {


int checkpointList(SandboxEngine& engine, const CheckpointOptions& options)
{
    auto list = engine.checkpoints(options.sandbox);
    if (!list)
        return failWith(list.error().message);
    if (options.json) {
        json out = json::array();
        for (const auto& c : *list)
            out.push_back(checkpointToJson(c));
        std::cout << dumpJson(out) << '\n';
        return 0;
    }
    for (const auto& c : *list) {
        std::string what = c.label.empty() ? c.message : c.label;
        std::cout << fmt::format("{}  {}  {:<10} {:>6} files  {}\n", c.id, when(c.createdAtMs), c.kind, c.files,
                                 printable(what));
    }
    return 0;
}

json ruleSetDiffToJson(const rules::RuleSetDiff& diff)
{
    json added = json::array();
    json removed = json::array();
    json changed = json::array();
    auto ruleJson = [](const rules::Rule& r) {
        return json{{"when", r.when}, {"decision", r.decision}, {"score", r.score}, {"enabled", r.enabled}};
    };
    for (const auto& c : diff.rules) {
        if (c.kind == rules::RuleChange::Kind::Added)
            added.push_back(c.id);
        else if (c.kind == rules::RuleChange::Kind::Removed)
            removed.push_back(c.id);
        else
            changed.push_back({{"id", c.id}, {"fields", c.fields}, {"old", ruleJson(*c.before)}, {"new", ruleJson(*c.after)}});
    }
    return {{"added", added}, {"removed", removed}, {"changed", changed}, {"settings", diff.settings},
            {"reordered", diff.reordered}};
}

std::string ruleSetDiffText(const rules::RuleSetDiff& diff)
{
    std::vector<std::string> parts;
    for (const auto& c : diff.rules) {
        if (c.kind == rules::RuleChange::Kind::Added)
            parts.push_back("+" + printable(c.id, 80));
        else if (c.kind == rules::RuleChange::Kind::Removed)
            parts.push_back("-" + printable(c.id, 80));
        else
            parts.push_back(fmt::format("~{} ({})", printable(c.id, 80), fmt::join(c.fields, ", ")));
    }
    if (!diff.settings.empty())
        parts.push_back(fmt::format("settings: {}", fmt::join(diff.settings, ", ")));
    if (diff.reordered)
        parts.emplace_back("rules reordered");
    return parts.empty() ? "no rule changed" : fmt::format("{}", fmt::join(parts, "; "));
}

int checkpointDiff(SandboxEngine& engine, const CheckpointOptions& options)
{
    DiffOptions diffOptions;
    diffOptions.text = !options.nameOnly;
    auto diff = engine.diff(options.first, options.second, diffOptions);
    if (!diff)
        return failWith(diff.error().message);
    const auto ruleSets = checkpointRuleSetDiffs(engine, *diff);
    if (options.json) {
        json out = diffToJson(*diff);
        for (auto& item : out["files"]) {
            const auto found = ruleSets.find(item["path"].get<std::string>());
            item["rules"] = found == ruleSets.end() ? json(nullptr) : ruleSetDiffToJson(found->second.diff);
        }
        std::cout << dumpJson(out) << '\n';
        return 0;
    }
    warnSkipped(diff->skipped);
    for (const auto& file : diff->files) {
        const char mark = file.change.kind == ChangeKind::Added ? 'A' : file.change.kind == ChangeKind::Removed ? 'D' : 'M';
        std::cout << mark << ' ' << printable(file.change.path) << '\n';
        if (const auto found = ruleSets.find(file.change.path); found != ruleSets.end())
            std::cout << "    rules: " << ruleSetDiffText(found->second.diff) << '\n';
    }
    if (options.nameOnly)
        return 0;
    for (const auto& file : diff->files) {
        if (file.binary)
            std::cout << '\n' << printable(file.change.path) << ": binary differs\n";
        else if (file.tooLarge)
            std::cout << '\n' << printable(file.change.path) << ": too large for a line diff\n";
        else if (!file.unified.empty())
            std::cout << '\n' << file.unified;
    }
    return 0;
}

} // namespace

int checkpointRestore(SandboxEngine& engine, const CheckpointOptions& options, std::ostream& out, std::ostream& err,
                      const ProgressCallback& progress)
{
    auto restored = engine.restore(options.first, progress, options.sandbox);
    if (!restored)
        return failWith(restored.error().message, err);
    auto sandbox = engine.sandbox(restored->sandbox);
    const std::string workspace = sandbox ? sandbox->workspace.string() : std::string();
    if (options.json) {
        out << dumpJson({{"sandbox", restored->sandbox},
                         {"restored", restored->restored.id},
                         {"checkpoint", restored->recorded.id},
                         {"saved", restored->saved ? json(restored->saved->id) : json(nullptr)},
                         {"added", restored->changes.added},
                         {"removed", restored->changes.removed},
                         {"modified", restored->changes.modified},
                         {"swapped", restored->swapped},
                         {"files_written", restored->filesWritten},
                         {"files_linked", restored->filesLinked},
                         {"skipped", skippedToJson(restored->skipped)},
                         {"path", workspace}})
            << '\n';
        return 0;
    }
    warnSkipped(restored->skipped, err);
    if (restored->saved)
        err << "sandbench: unsaved changes were checkpointed first: " << restored->saved->id << '\n';
    out << fmt::format("restored {} into sandbox {} ({} added, {} removed, {} modified)\nrecorded as {}\n",
                       restored->restored.id, restored->sandbox, restored->changes.added, restored->changes.removed,
                       restored->changes.modified, restored->recorded.id);
    return 0;
}

namespace {

int checkpointFork(SandboxEngine& engine, const CheckpointOptions& options)
{
    auto made = engine.fork(options.first, options.name);
    if (!made)
        return failWith(made.error().message);
    if (options.json) {
        std::cout << dumpJson(createdToJson(*made, nowMs())) << '\n';
        return 0;
    }
    printCreated(*made, "forked");
    return 0;
}

int checkpointLabel(SandboxEngine& engine, const CheckpointOptions& options)
{
    auto labelled = engine.setLabel(options.first, options.label);
    if (!labelled)
        return failWith(labelled.error().message);
    if (options.json) {
        std::cout << dumpJson(checkpointToJson(*labelled)) << '\n';
        return 0;
    }
    if (labelled->label.empty())
        std::cout << fmt::format("checkpoint {}: label cleared\n", labelled->id);
    else
        std::cout << fmt::format("checkpoint {} labelled {}\n", labelled->id, printable(labelled->label));
    return 0;
}

int checkpointPrune(SandboxEngine& engine, const CheckpointOptions& options)
{
    PrunePolicy policy;
    if (options.keepLast >= 0)
        policy.keepLast = options.keepLast;
    policy.keepLabelled = options.keepLabelled;
    if (!options.youngerThan.empty())
        policy.youngerThanMs = *parseLifetimeMs(options.youngerThan); // checked by the parser
    auto pruned = engine.prune(options.sandbox, policy);
    if (!pruned)
        return failWith(pruned.error().message);
    if (options.json) {
        std::cout << dumpJson({{"sandbox", pruned->sandbox},
                               {"removed", pruned->removed},
                               {"kept", pruned->kept},
                               {"blobs_freed", pruned->garbage.blobsRemoved},
                               {"bytes_freed", pruned->garbage.bytesRemoved}})
                  << '\n';
        return 0;
    }
    std::cout << fmt::format("{} checkpoints removed, {} kept; {} blobs ({}) freed\n", pruned->removed.size(),
                             pruned->kept, pruned->garbage.blobsRemoved, bytesText(pruned->garbage.bytesRemoved));
    return 0;
}

} // namespace

Result<OpenedEngine> openEngine(const std::string& path)
{
    auto store = openStore(path);
    if (!store)
        return std::unexpected(store.error());
    OpenedEngine opened;
    opened.store = std::make_unique<Store>(std::move(*store));
    auto engine = SandboxEngine::open(*opened.store);
    if (!engine)
        return std::unexpected(engine.error());
    opened.engine = std::move(*engine);
    return opened;
}

int sandboxCommand(const SandboxOptions& options)
{
    auto opened = openEngine(options.store);
    if (!opened)
        return failWith(opened.error().message);
    SandboxEngine& engine = *opened->engine;
    if (options.action == "create")
        return create(*opened->store, engine, options);
    if (options.action == "list")
        return list(engine, options);
    if (options.action == "show")
        return show(engine, options);
    if (options.action == "set")
        return set(*opened->store, engine, options);
    if (options.action == "path")
        return path(engine, options);
    if (options.action == "destroy")
        return destroy(engine, options);
    return sweep(engine, options);
}

int checkpointCommand(const CheckpointOptions& options)
{
    auto opened = openEngine(options.store);
    if (!opened)
        return failWith(opened.error().message);
    SandboxEngine& engine = *opened->engine;
    if (options.action == "create")
        return checkpointCreate(engine, options, std::cout, std::cerr);
    if (options.action == "list")
        return checkpointList(engine, options);
    if (options.action == "diff")
        return checkpointDiff(engine, options);
    if (options.action == "restore")
        return checkpointRestore(engine, options, std::cout, std::cerr);
    if (options.action == "fork")
        return checkpointFork(engine, options);
    if (options.action == "label")
        return checkpointLabel(engine, options);
    return checkpointPrune(engine, options);
}

} // namespace sb::cli
