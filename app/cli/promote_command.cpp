// sandbench promote SANDBOX: the promotion gate (core/promotion/promote.h) from the command line. Exit status
// 0 applied (or nothing to promote, or a clean preview or export), 1 blocked (conflicts, a failed
// compatibility check, high risk without an approval) or not possible, 2 usage errors.

#include "commands.h"
#include "rules_support.h"

#include "report.h"

#include "rules/promotion_gate.h"
#include "util/printable.h"
#include "promotion/promote.h"
#include "sandboxes/sandbox_engine.h"

#include <fmt/format.h>

#include <iostream>

namespace sb::cli {

namespace {

char mark(ChangeKind kind)
{
    return kind == ChangeKind::Added ? 'A' : kind == ChangeKind::Removed ? 'D' : 'M';
}

void printReport(const PromotionReport& r)
{
    const std::string head = fmt::format("promote {} -> {}: ", r.source, r.target);
    if (r.status == "applied")
        std::cout << head << "applied as checkpoint " << r.checkpoint << '\n';
    else if (r.status == "up-to-date")
        std::cout << head << "nothing to promote: the target already holds everything of the sandbox\n";
    else if (r.status == "exported")
        std::cout << head << "written to " << r.output << " (nothing applied)\n";
    else if (r.status == "preview")
        std::cout << head << (r.blocked.empty() ? "would apply" : "would be blocked")
                  << " (dry run, nothing applied)\n";
    else
        std::cout << head << "BLOCKED, nothing applied\n";
    for (const auto& id : r.saved)
        std::cout << "saved unsaved work first as checkpoint " << id << '\n';
    for (const auto& name : r.unsaved)
        std::cout << "with the unsaved work of " << name << " (a promotion checkpoints it first)\n";
    std::cout << fmt::format("source   {}\ntarget   {}\nancestor {}\n", r.sourceCheckpoint, r.targetCheckpoint,
                             r.ancestor ? *r.ancestor : std::string("none (no common checkpoint)"));
    const PromotionImpact& i = r.impact;
    std::cout << fmt::format("changes  {} files: {} added, {} removed, {} modified; +{} -{} bytes, +{} -{} lines\n",
                             i.files, i.added, i.removed, i.modified, i.bytesAdded, i.bytesRemoved, i.linesAdded,
                             i.linesRemoved);
    for (const auto& c : r.changes) {
        std::cout << "  " << mark(c.change.kind) << ' ' << printable(c.change.path);
        if (c.binary)
            std::cout << " (binary)";
        else if (c.linesAdded || c.linesRemoved)
            std::cout << fmt::format(" (+{} -{})", c.linesAdded, c.linesRemoved);
        std::cout << '\n';
    }
    std::cout << "risk     " << toString(r.risk) << (r.approvalRequired ? " (approval required)" : "") << '\n';
    for (const auto& reason : r.riskReasons)
        std::cout << "  - " << reason << '\n';
    if (r.approval)
        std::cout << "approval " << printable(r.approval->by) << ": " << printable(r.approval->note) << '\n';
    for (const auto& c : r.compatibility)
        std::cout << fmt::format("check    {} {}: {}\n", c.check, printable(c.path),
                                 c.ok ? "ok" : printable(c.message));
    if (!r.conflicts.empty()) {
        std::cout << "conflicts (the target keeps its version until they are resolved in the sandbox):\n";
        for (const auto& c : r.conflicts)
            std::cout << fmt::format("  {:<14} {}  ({})\n", toString(c.kind), printable(c.path), c.detail);
    }
    for (const auto& [c, side] : r.resolved)
        std::cout << fmt::format("resolved {:<14} {}: took the {}'s side\n", toString(c.kind), printable(c.path),
                                 toString(side));
    for (const auto& reason : r.blocked)
        std::cerr << "sandbench: promote: " << reason << '\n';
}

} // namespace

int promoteCommand(const PromoteOptions& options)
{
    PromotionRequest request;
    request.source = options.sandbox;
    request.target = options.target;
    if (options.approve)
        request.approval = Approval{options.by, options.note};
    for (const auto& path : options.takeSource)
        request.resolutions[path] = MergeSide::Source;
    for (const auto& path : options.takeTarget)
        request.resolutions[path] = MergeSide::Target;
    if (options.dryRun) {
        request.mode = PromotionRequest::Mode::Preview;
    } else if (!options.exportDir.empty()) {
        request.mode = PromotionRequest::Mode::Export;
        request.output = options.exportDir;
    } else if (!options.patchFile.empty()) {
        request.mode = PromotionRequest::Mode::Patch;
        request.output = options.patchFile;
    }
    if (!options.riskConfig.empty()) {
        auto config = RiskConfig::load(options.riskConfig);
        if (!config)
            return reportError(config.error().message);
        request.risk = std::move(*config);
    }
    // Rule sets in the tree must parse and compile; with --data, every field they read must be a column of the
    // data, and each changed rule set's impact rate on it grades the risk.
    std::shared_ptr<const rules::Dataset> data;
    if (!options.data.empty()) {
        DataSourceOptions source;
        source.data = options.data;
        source.store = options.store;
        // A name the promoted sandbox refers to is its snapshot (as `rules impact --sandbox` reads it).
        source.sandbox = options.sandbox;
        source.storeIfNotReferenced = true;
        auto loaded = loadData(source, {});
        if (!loaded)
            return reportError(loaded.error().message);
        reportBadRows(*loaded);
        data = std::make_shared<const rules::Dataset>(std::move(loaded->data));
        request.riskInputs.push_back(rules::ruleSetImpactRisk(data));
    }
    request.checks.push_back(rules::ruleSetCompatibilityCheck(data));
    auto opened = openEngine(options.store);
    if (!opened)
        return reportError(opened.error().message);
    auto report = opened->engine->promote(request);
    if (!report)
        return reportError(report.error().message);
    if (options.json)
        std::cout << dumpJson(promotionToJson(*report)) << '\n';
    else
        printReport(*report);
    if (report->status == "applied" || report->status == "up-to-date")
        return 0;
    if (report->status == "blocked")
        return kExitFailure;
    // A preview or an export: fine unless conflicts or failed checks would block the promotion itself.
    bool failedCheck = false;
    for (const auto& c : report->compatibility)
        failedCheck = failedCheck || !c.ok;
    return report->conflicts.empty() && !failedCheck ? 0 : kExitFailure;
}

} // namespace sb::cli
