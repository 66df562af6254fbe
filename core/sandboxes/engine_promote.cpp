// Promotion: save both sandboxes, merge from the common ancestor, measure, grade, check, and then apply the
// merged tree to the target with the restore machinery (build beside, journal, one swap, record), or only
// report it, or write it out for review.

#include "engine_internal.h"

#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>

namespace sb {

using namespace engine;

namespace {

constexpr std::uint64_t kMaxTextBytes = 8ULL << 20; // larger files are not line-counted
constexpr std::string_view kRiskConfigFile = "promotion.yaml";

// A tree of some entries of another, built from their paths: the changed files an export writes.
struct SubsetNode {
    std::map<std::string, SubsetNode> children;
    std::optional<TreeEntry> leaf;
};

Result<TreeEntry> buildSubset(const SubsetNode& node, TreeReader::Listings& out)
{
    Tree tree;
    std::uint64_t files = 0;
    std::uint64_t bytes = 0;
    for (const auto& [name, child] : node.children) {
        TreeEntry entry;
        if (child.leaf && child.children.empty()) {
            entry = *child.leaf;
        } else {
            auto built = buildSubset(child, out);
            if (!built)
                return built;
            entry = std::move(*built);
        }
        entry.name = name;
        files += entry.type == EntryType::Directory ? entry.files : 1;
        bytes += entry.size;
        tree.entries.push_back(std::move(entry));
    }
    std::string serialized = serializeTree(tree);
    auto digest = sha256(serialized);
    if (!digest)
        return std::unexpected(digest.error());
    out.try_emplace(*digest, std::move(serialized));
    TreeEntry entry;
    entry.type = EntryType::Directory;
    entry.mode = 0755;
    entry.hash = *digest;
    entry.files = files;
    entry.size = bytes;
    return entry;
}

nlohmann::json promotionDetails(const PromotionReport& report)
{
    const PromotionImpact& i = report.impact;
    nlohmann::json resolved = nlohmann::json::array();
    for (const auto& [conflict, side] : report.resolved)
        resolved.push_back(
            {{"path", conflict.path}, {"kind", sb::toString(conflict.kind)}, {"took", sb::toString(side)}});
    return {{"source", report.source},
            {"target", report.target},
            {"source_checkpoint", report.sourceCheckpoint},
            {"target_checkpoint", report.targetCheckpoint},
            {"ancestor", report.ancestor ? nlohmann::json(*report.ancestor) : nlohmann::json(nullptr)},
            {"risk", toString(report.risk)},
            {"risk_reasons", riskReasonsToJson(report.riskReasons)},
            {"impact",
             {{"files", i.files},
              {"added", i.added},
              {"removed", i.removed},
              {"modified", i.modified},
              {"bytes_added", i.bytesAdded},
              {"bytes_removed", i.bytesRemoved},
              {"lines_added", i.linesAdded},
              {"lines_removed", i.linesRemoved}}},
            {"compatibility_checked", report.compatibility.size()},
            {"resolved", resolved},
            {"approval", report.approval ? nlohmann::json{{"by", report.approval->by}, {"note", report.approval->note}}
                                         : nlohmann::json(nullptr)}};
}

} // namespace

Result<void> SandboxEngine::Impl::writeExport(const PromotionReport& report, const fs::path& folder)
{
    std::error_code ec;
    const auto status = fs::symlink_status(folder, ec);
    if (fs::exists(status)) {
        if (!fs::is_directory(status))
            return fail(fmt::format("--export {}: exists and is not a folder", folder.string()));
        if (!fs::is_empty(folder, ec))
            return fail(fmt::format("--export {}: the folder is not empty (nothing is overwritten)", folder.string()));
    } else if (fs::create_directories(folder.parent_path().empty() ? fs::path(".") : folder.parent_path(), ec);
               ::mkdir(folder.c_str(), 0755) != 0) {
        return fail(fmt::format("--export {}: cannot create the folder: {}", folder.string(), errnoText(errno)));
    }
    auto out = openDirectory(folder);
    if (!out)
        return errorOf(out);
    // The changed entries as they would land (added and modified), in a tree of their own.
    SubsetNode top;
    for (const auto& c : report.changes) {
        if (!c.change.after)
            continue;
        SubsetNode* node = &top;
        std::size_t start = 0;
        const std::string& path = c.change.path;
        while (start <= path.size()) {
            std::size_t slash = path.find('/', start);
            if (slash == std::string::npos)
                slash = path.size();
            node = &node->children[path.substr(start, slash - start)];
            start = slash + 1;
        }
        node->leaf = *c.change.after;
        if (node->leaf->type == EntryType::Directory)
            node->leaf->hash = emptyTreeHash(); // an empty directory, or one whose permissions changed
    }
    TreeReader::Listings listings;
    listings.try_emplace(emptyTreeHash(), emptyTreeBytes());
    auto subset = buildSubset(top, listings);
    if (!subset)
        return errorOf(subset);
    TreeReader reader(blobs);
    reader.addUnstored(&listings);
    if (::mkdirat(out->get(), "files", 0755) != 0)
        return fail(fmt::format("--export {}: cannot create files/: {}", folder.string(), errnoText(errno)));
    auto files = openDirectoryAt(out->get(), "files");
    if (!files)
        return errorOf(files);
    if (auto written = writeTree(reader, subset->hash, files->get(), nullptr); !written)
        return errorOf(written);
    const int fd = ::openat(out->get(), "manifest.json", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
        return fail(fmt::format("--export {}: cannot write manifest.json: {}", folder.string(), errnoText(errno)));
    Fd guard(fd);
    const std::string manifest =
        promotionToJson(report).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    if (auto ok = writeAll(fd, manifest); !ok)
        return fail(fmt::format("--export {}: cannot write manifest.json: {}", folder.string(), ok.error().message));
    return {};
}

namespace {

// What the request asks is possible before anything is locked; the report names the two sandboxes.
Result<void> checkRequest(const PromotionRequest& request, PromotionReport& report)
{
    using Mode = PromotionRequest::Mode;
    report.source = request.source;
    report.target = request.target.empty() ? std::string(SandboxEngine::kMain) : request.target;
    if (auto ok = SandboxEngine::validateName(report.source); !ok)
        return errorOf(ok);
    if (auto ok = SandboxEngine::validateName(report.target); !ok)
        return errorOf(ok);
    if (report.source == report.target)
        return fail(fmt::format("cannot promote sandbox '{}' into itself", report.source));
    if ((request.mode == Mode::Export || request.mode == Mode::Patch) && request.output.empty())
        return fail("an export needs a folder, a patch a file to write");
    if (request.approval && (request.approval->by.empty() || request.approval->note.empty()))
        return fail("an approval names who approves (--by NAME) and why (--note TEXT)");
    return {};
}

// Why the promotion cannot be applied: conflicts, failed compatibility checks, resolutions of no conflict, a
// missing approval.
void noteBlocks(const PromotionRequest& request, PromotionReport& report)
{
    if (!report.conflicts.empty())
        report.blocked.push_back(fmt::format("{} conflict{}: change the sandbox so that they go, then promote again",
                                             report.conflicts.size(), report.conflicts.size() == 1 ? "" : "s"));
    for (const auto& c : report.compatibility) {
        if (!c.ok)
            report.blocked.push_back(fmt::format("compatibility ({}): {}", c.check, c.message));
    }
    for (const auto& [path, side] : request.resolutions) {
        const bool used = std::any_of(report.resolved.begin(), report.resolved.end(),
                                      [&](const auto& r) { return r.first.path == path; });
        if (!used)
            report.blocked.push_back(fmt::format("take the {} side of {}: there is no conflict at that path",
                                                 sb::toString(side), path));
    }
    if (report.approvalRequired && !report.approval)
        report.blocked.push_back(fmt::format("{} risk: an approval is required (--approve --by NAME --note TEXT)",
                                             sb::toString(report.risk)));
}

} // namespace

Result<RiskConfig> SandboxEngine::Impl::promotionRiskConfig(const PromotionRequest& request)
{
    RiskConfig config;
    if (request.risk) {
        config = *request.risk;
    } else if (const fs::path file = root / kRiskConfigFile; fs::exists(file)) {
        auto loaded = RiskConfig::load(file);
        if (!loaded)
            return errorOf(loaded);
        config = std::move(*loaded);
    }
    return config;
}

Result<std::pair<SandboxEngine::Impl::Saved, SandboxEngine::Impl::Saved>>
SandboxEngine::Impl::savePromotionSides(const SandboxRow& source, const SandboxRow& target, bool preview,
                                        const ProgressCallback& progress, PromotionReport& report)
{
    SaveRequest save;
    save.always = false;
    save.kind = "auto";
    save.message = fmt::format("unsaved changes, saved before promoting '{}' into '{}'", report.source, report.target);
    save.record = !preview;
    auto saveOrHead = [&](const SandboxRow& sandbox) -> Result<Saved> {
        if (!(preview && sandbox.info.archived))
            return saveWorkspace(sandbox, save, progress);
        if (!sandbox.headRow)
            return fail(fmt::format("sandbox '{}' has no head checkpoint (the store was edited?)", sandbox.info.name));
        auto head = checkpointByRow(*sandbox.headRow);
        if (!head)
            return errorOf(head);
        Saved saved;
        saved.scan.root = head->info.tree;
        saved.head = std::move(*head);
        return saved;
    };
    auto savedSource = saveOrHead(source);
    if (!savedSource)
        return errorOf(savedSource);
    auto savedTarget = saveOrHead(target);
    if (!savedTarget)
        return errorOf(savedTarget);
    for (const Saved* saved : {&*savedSource, &*savedTarget}) {
        if (saved->made)
            report.saved.push_back(saved->made->info.id);
    }
    return std::pair{std::move(*savedSource), std::move(*savedTarget)};
}

Result<void> SandboxEngine::Impl::gradePromotion(const PromotionRequest& request, const RiskConfig& config,
                                                 TreeReader& reader, const ContentHash& mergedTree,
                                                 PromotionReport& report)
{
    PromotionSubject subject;
    subject.changes = &report.changes;
    subject.config = &config;
    subject.mergedFiles = [&]() -> Result<std::vector<PathEntry>> {
        std::vector<PathEntry> out;
        auto ok = reader.walk(mergedTree, [&](const std::string& path, const TreeEntry& entry) -> Result<bool> {
            out.push_back(PathEntry{path, entry});
            return true;
        });
        if (!ok)
            return errorOf(ok);
        return out;
    };
    subject.read = [&](const TreeEntry& entry, std::uint64_t limit) { return readFileBytes(blobs, entry, limit); };
    std::vector<CompatibilityCheck> checks = {policyCompatibilityCheck()};
    checks.insert(checks.end(), request.checks.begin(), request.checks.end());
    for (const auto& check : checks) {
        auto results = check(subject);
        if (!results)
            return errorOf(results);
        report.compatibility.insert(report.compatibility.end(), results->begin(), results->end());
    }
    std::vector<RiskFinding> findings;
    for (const auto& input : request.riskInputs) {
        auto found = input(subject);
        if (!found)
            return errorOf(found);
        findings.insert(findings.end(), found->begin(), found->end());
    }
    gradeRisk(config, report.changes, report.impact, findings, report.risk, report.riskReasons);
    for (const auto& finding : findings) {
        if (finding.decisions)
            report.decisionImpacts.push_back(*finding.decisions);
    }
    report.approvalRequired = approvalRequired(config, report.risk);
    report.approval = request.approval;
    return {};
}

Result<void> SandboxEngine::Impl::applyPromotion(const PromotionRequest& request, const SandboxRow& target,
                                                 const Saved& savedTarget, const CheckpointRow& sourceHead,
                                                 TreeReader& reader, const MergeResult& merged,
                                                 const ProgressCallback& progress, const StepTrace& trace,
                                                 PromotionReport& report)
{
    auto totals = totalsOf(reader, merged.tree);
    if (!totals)
        return errorOf(totals);
    NewCheckpoint plan;
    plan.sandboxId = target.id;
    plan.sandboxName = report.target;
    plan.tree = merged.tree;
    plan.parents = {savedTarget.head.info.id, sourceHead.info.id};
    plan.kind = "promote";
    plan.message = fmt::format("promoted sandbox '{}' ({}), risk {}{}", report.source, sourceHead.info.id,
                               sb::toString(report.risk),
                               report.approval ? fmt::format("; approved by {}: {}", report.approval->by,
                                                             report.approval->note)
                                               : std::string());
    plan.author = actorOr(request.author);
    plan.createdAtMs = clock();
    plan.source = sourceHead.info.id;
    plan.files = totals->files;
    plan.bytes = totals->bytes;
    plan.meta = metaText(target.info.policy, target.info.datasets);
    auto id = freshId(plan);
    if (!id)
        return errorOf(id);
    const nlohmann::json details = promotionDetails(report);

    std::optional<std::int64_t> journalRow;
    fs::path staging;
    if (!report.changes.empty()) {
        auto swapPlan = planSwap(reader, savedTarget.scan.root, merged.tree);
        if (!swapPlan)
            return errorOf(swapPlan);
        report.swapped = swapPlan->path;
        auto prepared = prepareSwap(target, reader, *swapPlan, savedTarget.scan, progress);
        if (!prepared)
            return errorOf(prepared);
        staging = prepared->staging;
        step("promote.staged");
        trace("staged");

        sqlite::Transaction transaction(db);
        if (auto ok = transaction.begin(); !ok)
            return errorOf(ok);
        // The merged listings are stored with the journal row that names their tree.
        if (auto ok = storeListings(merged.listings); !ok)
            return errorOf(ok);
        auto insert = db.prepare("INSERT INTO workspace_journal (sandbox_id, staging, target_path, staging_inode, "
                                 "plan, created_at_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
        if (!insert)
            return errorOf(insert);
        const std::string planText = journalPlan(plan, *id, swapPlan->kind, &details);
        const std::string stagingName = staging.filename().string();
        sqlite::Binder bind(insert->get());
        bind.integer(1, target.id)
            .text(2, stagingName)
            .blob(3, report.swapped)
            .integer(4, static_cast<std::int64_t>(prepared->inode))
            .text(5, planText)
            .integer(6, plan.createdAtMs);
        if (!bind.ok() || sqlite3_step(insert->get()) != SQLITE_DONE)
            return db.error("cannot write the promotion journal");
        journalRow = db.lastInsertId();
        if (auto ok = transaction.commit(); !ok)
            return errorOf(ok);
        step("promote.journaled");
        trace("journaled");

        if (auto ok = swap(target, *swapPlan, staging); !ok)
            return errorOf(ok);
        step("promote.swapped");
        trace("swapped");
    }
    auto made = finishRestore(plan, *id, nullptr, report.swapped, journalRow, false, &details);
    if (!made)
        return errorOf(made);
    step("promote.recorded");
    trace("recorded");
    if (!staging.empty()) {
        (void)removeTree(staging);
        (void)removeTree(staging.string() + ".old");
    }
    report.applied = true;
    report.status = "applied";
    report.checkpoint = made->info.id;
    return {};
}

Result<PromotionReport> SandboxEngine::Impl::promote(const PromotionRequest& request, const ProgressCallback& progress)
{
    const StepTrace trace("promote");
    using Mode = PromotionRequest::Mode;
    PromotionReport report;
    if (auto ok = checkRequest(request, report); !ok)
        return errorOf(ok);
    auto config = promotionRiskConfig(request);
    if (!config)
        return errorOf(config);

    for (const auto& name : {report.source, report.target}) {
        if (name == kMain) {
            if (auto main = ensureMain(); !main)
                return errorOf(main);
        }
    }
    // Both sandboxes locked, in name order (as a creation from a sandbox does), then the collection shared.
    auto locks = lockSandboxes({report.source, report.target});
    if (!locks)
        return errorOf(locks);
    auto garbage = lockGarbage(FileLock::Mode::Shared);
    if (!garbage)
        return errorOf(garbage);
    auto source = requireSandbox(report.source);
    if (!source)
        return errorOf(source);
    auto target = requireSandbox(report.target);
    if (!target)
        return errorOf(target);
    // Archived sandboxes are used again: their workspaces come back from their heads. A preview changes
    // nothing: an archived sandbox is its head.
    const bool preview = request.mode == Mode::Preview;
    for (SandboxRow* sandbox : {&*source, &*target}) {
        if (preview && sandbox->info.archived)
            continue;
        if (auto ok = revive(*sandbox); !ok)
            return errorOf(ok);
    }

    // 1. Unsaved work of both becomes checkpoints first: what is merged is what is there, and nothing is lost.
    // A preview measures what is there without recording it.
    auto saved = savePromotionSides(*source, *target, preview, progress, report);
    if (!saved)
        return errorOf(saved);
    const Saved& savedSource = saved->first;
    const Saved& savedTarget = saved->second;
    const CheckpointRow& sourceHead = savedSource.head;
    const CheckpointRow& targetHead = savedTarget.head;
    // What each holds now: its head, or in a preview with unsaved changes, the walked tree.
    const ContentHash sourceTree = savedSource.scan.root;
    const ContentHash targetTree = savedTarget.scan.root;
    report.sourceCheckpoint = sourceHead.info.id;
    report.targetCheckpoint = targetHead.info.id;
    if (sourceTree != sourceHead.info.tree)
        report.unsaved.push_back(report.source);
    if (targetTree != targetHead.info.tree)
        report.unsaved.push_back(report.target);
    trace("saved");

    // 2. The merge, from the nearest common ancestor.
    auto ancestor = commonAncestor(sourceHead.id, targetHead.id);
    if (!ancestor)
        return errorOf(ancestor);
    std::optional<ContentHash> base;
    if (*ancestor) {
        report.ancestor = (*ancestor)->info.id;
        base = (*ancestor)->info.tree;
    }
    TreeReader reader(blobs);
    reader.addUnstored(&savedSource.scan.trees);
    reader.addUnstored(&savedTarget.scan.trees);
    auto merged = mergeTrees(reader, base, targetTree, sourceTree, request.resolutions);
    if (!merged)
        return errorOf(merged);
    reader.addUnstored(&merged->listings);
    report.mergedTree = merged->tree;
    report.conflicts = merged->conflicts;
    report.resolved = merged->resolved;
    trace("merged");

    // 3. What it changes in the target, measured.
    auto read = [&](const TreeEntry& entry) { return readFileBytes(blobs, entry, kMaxTextBytes); };
    auto changes = diffTrees(reader, targetTree, merged->tree);
    if (!changes)
        return errorOf(changes);
    auto measured = measureChanges(std::move(*changes), read, kMaxTextBytes, report.impact);
    if (!measured)
        return errorOf(measured);
    report.changes = std::move(*measured);

    // 4. Compatibility and risk.
    if (auto ok = gradePromotion(request, *config, reader, merged->tree, report); !ok)
        return errorOf(ok);
    trace("checked");
    noteBlocks(request, report);
    // The target's quota bounds what the promotion leaves in it.
    if (target->info.quotaBytes) {
        auto totals = totalsOf(reader, merged->tree);
        if (!totals)
            return errorOf(totals);
        if (totals->bytes > *target->info.quotaBytes)
            report.blocked.push_back(fmt::format("quota: '{}' would hold {} bytes, over its quota of {} bytes",
                                                 report.target, totals->bytes, *target->info.quotaBytes));
    }

    // 5. Only a report, or a copy for review.
    switch (request.mode) {
    case Mode::Preview:
        report.status = "preview";
        return report;
    case Mode::Export:
        report.status = "exported";
        report.output = request.output.string();
        if (auto ok = writeExport(report, request.output); !ok)
            return errorOf(ok);
        return report;
    case Mode::Patch: {
        report.status = "exported";
        report.output = request.output.string();
        auto patch = gitPatch(report.changes, read);
        if (!patch)
            return errorOf(patch);
        std::ofstream out(request.output, std::ios::binary | std::ios::trunc);
        out << *patch;
        out.close();
        if (!out)
            return fail(fmt::format("--patch {}: cannot write it", request.output.string()));
        return report;
    }
    case Mode::Apply: break;
    }

    if (!report.blocked.empty()) {
        report.status = "blocked";
        return report;
    }
    // Nothing to apply: the target already holds everything the source changed.
    if (report.changes.empty()) {
        report.status = "up-to-date";
        return report;
    }

    // 6. Apply: the merged tree is built beside the workspace, journaled, swapped in by one rename and
    // recorded with the audit entries in one transaction (as a restore is; recovery finishes or undoes it).
    auto applied = applyPromotion(request, *target, savedTarget, sourceHead, reader, *merged, progress, trace, report);
    if (!applied)
        return errorOf(applied);
    return report;
}

} // namespace sb
