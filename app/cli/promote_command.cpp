// sandbench promote SANDBOX: the promotion gate (promotion/promote.h, usecases/promotion.h) from the command
// line. Exit status 0 applied (or nothing to promote, or a clean preview or export), 1 blocked (conflicts, a
// failed compatibility check, a risk that needs an approval, without one) or not possible, 2 usage errors.

#include "commands.h"
#include "rules_support.h"

#include "report.h"

#include "usecases/promotion.h"
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
        std::cout << "  - " << toString(reason) << '\n';
    for (const auto& d : r.decisionImpacts)
        std::cout << fmt::format("rules    {}: {} of {} decisions change on {} (impact rate {:.2f} %)\n",
                                 printable(d.path), d.changed, d.records, printable(d.data), d.rate * 100);
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
    PromotionPlan plan{std::move(request), options.riskConfig, options.data};
    auto prepared = preparePromotion(std::move(plan), [&options] { return openStore(options.store); });
    if (!prepared)
        return reportError(prepared.error().message);
    reportBadRows(prepared->dataSource, prepared->dataReport);
    auto opened = openEngine(options.store);
    if (!opened)
        return reportError(opened.error().message);
    auto report = opened->engine->promote(prepared->request);
    if (!report)
        return reportError(report.error().message);
    if (options.json)
        std::cout << dumpJson(promotionToJson(*report)) << '\n';
    else
        printReport(*report);
    return promotionPasses(*report) ? 0 : kExitFailure;
}

} // namespace sb::cli
