// Promotion: the three-way merge (every conflict kind, clean merges both ways, no ancestor, identical
// changes), impact and risk thresholds, approval, the compatibility check, export and patch, audit entries,
// and hostile workspaces (links out, names that are not UTF-8) that are carried, never followed.

#include "workspace_fixture.h"

#include "store/audit.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <sys/stat.h>
#include <sys/wait.h>

namespace sb::workspacetest {
namespace {

using namespace std::string_literals;

class PromoteTest : public WorkspaceTest {
protected:
    PromotionReport promote(const std::string& source, PromotionRequest::Mode mode = PromotionRequest::Mode::Apply,
                            const std::string& target = "main")
    {
        PromotionRequest request;
        request.source = source;
        request.target = target;
        request.mode = mode;
        auto report = engine().promote(request);
        EXPECT_TRUE(report) << report.error().message;
        return report ? *report : PromotionReport{};
    }

    PromotionReport promote(const PromotionRequest& request)
    {
        auto report = engine().promote(request);
        EXPECT_TRUE(report) << report.error().message;
        return report ? *report : PromotionReport{};
    }

    // main with a few files, checkpointed, and a sandbox made from it.
    void start(const std::string& sandbox = "feature")
    {
        const fs::path main = workspace("main");
        writeFile(main / "a.txt", "alpha\none\ntwo\n");
        writeFile(main / "b.txt", "bravo\n");
        writeFile(main / "dir/c.txt", "charlie\n");
        writeFile(main / "dir/sub/d.txt", "delta\n");
        checkpoint("main", "base");
        create(sandbox);
    }

    static const MergeConflict* conflictAt(const PromotionReport& report, const std::string& path)
    {
        for (const auto& c : report.conflicts)
            if (c.path == path)
                return &c;
        return nullptr;
    }

    std::vector<AuditRecord> audit(const std::string& operation)
    {
        auto entries = listAudit(*m_store, AuditFilter{.operation = operation});
        EXPECT_TRUE(entries) << entries.error().message;
        return entries ? *entries : std::vector<AuditRecord>{};
    }
};

TEST_F(PromoteTest, ChangesOnlyOnTheSourceAreTakenAndRecordedWithTwoParents)
{
    start();
    const fs::path feature = workspace("feature");
    writeFile(feature / "a.txt", "alpha\none\nTWO\nthree\n");
    writeFile(feature / "new/e.txt", "echo\n");
    fs::remove(feature / "b.txt");
    const std::string featureHead = checkpoint("feature");
    const std::string mainHead = engine().sandbox("main")->head;

    const auto report = promote("feature");
    EXPECT_EQ(report.status, "applied");
    EXPECT_TRUE(report.applied);
    EXPECT_TRUE(report.conflicts.empty());
    ASSERT_TRUE(report.ancestor);
    EXPECT_EQ(report.impact.added, 1u);
    EXPECT_EQ(report.impact.removed, 1u);
    EXPECT_EQ(report.impact.modified, 1u);
    EXPECT_EQ(report.impact.files, 3u);
    EXPECT_EQ(report.impact.linesAdded, 3u);   // TWO, three, echo
    EXPECT_EQ(report.impact.linesRemoved, 2u); // two, bravo
    EXPECT_EQ(report.risk, RiskLevel::Low); // three files, a few lines
    EXPECT_EQ(snapshot(workspace("main")), snapshot(feature));

    auto made = engine().findCheckpoint(report.checkpoint);
    ASSERT_TRUE(made);
    EXPECT_EQ(made->kind, "promote");
    EXPECT_EQ(made->parents, (std::vector<std::string>{mainHead, featureHead}));
    EXPECT_EQ(made->source, featureHead);
    EXPECT_EQ(engine().sandbox("main")->head, report.checkpoint);
    EXPECT_TRUE(engine().verifyCheckpoint(report.checkpoint));
    auto drift = engine().diff(report.checkpoint, "");
    ASSERT_TRUE(drift);
    EXPECT_TRUE(drift->files.empty());

    const auto promoted = audit("promote");
    ASSERT_EQ(promoted.size(), 1u);
    EXPECT_EQ(promoted[0].subject, "main");
    const auto details = nlohmann::json::parse(promoted[0].details);
    EXPECT_EQ(details["checkpoint"], report.checkpoint);
    EXPECT_EQ(details["source"], "feature");
    EXPECT_EQ(details["source_checkpoint"], featureHead);
    EXPECT_EQ(details["risk"], "low");
    EXPECT_TRUE(details["approval"].is_null());
    EXPECT_TRUE(audit("approve").empty());
    EXPECT_TRUE(verifyAudit(*m_store)->intact());
}

TEST_F(PromoteTest, ChangesOnBothSidesMergeCleanlyInEitherDirection)
{
    start();
    writeFile(workspace("feature") / "a.txt", "alpha\none\ntwo\nfrom feature\n");
    writeFile(workspace("feature") / "dir/f.txt", "feature file\n");
    writeFile(workspace("main") / "b.txt", "bravo from main\n");
    fs::remove(workspace("main") / "dir/sub/d.txt");
    // Unsaved on both sides: promotion checkpoints them first.
    const auto report = promote("feature");
    EXPECT_EQ(report.status, "applied") << (report.blocked.empty() ? "" : report.blocked.front());
    EXPECT_EQ(report.saved.size(), 2u);
    const auto main = snapshot(workspace("main"));
    EXPECT_EQ(main.at("a.txt"), "alpha\none\ntwo\nfrom feature\n");
    EXPECT_EQ(main.at("b.txt"), "bravo from main\n");
    EXPECT_EQ(main.at("dir/f.txt"), "feature file\n");
    EXPECT_FALSE(main.contains("dir/sub/d.txt"));
    // Only the source's side is a change to main.
    EXPECT_EQ(report.impact.files, 2u);

    // The other way: main's changes into the sandbox, from the promotion as ancestor.
    writeFile(workspace("main") / "g.txt", "golf\n");
    checkpoint("main");
    const auto back = promote("main", PromotionRequest::Mode::Apply, "feature");
    EXPECT_EQ(back.status, "applied");
    EXPECT_EQ(snapshot(workspace("feature")), snapshot(workspace("main")));
    EXPECT_TRUE(back.conflicts.empty());

    // Promoting again with nothing new changes nothing.
    const auto again = promote("feature");
    EXPECT_EQ(again.status, "up-to-date");
    EXPECT_FALSE(again.applied);
}

TEST_F(PromoteTest, IdenticalChangesOnBothSidesAreNoConflict)
{
    start();
    for (const char* side : {"main", "feature"}) {
        writeFile(workspace(side) / "a.txt", "the same edit\n");
        fs::remove(workspace(side) / "b.txt");
        writeFile(workspace(side) / "both/new.txt", "same\n");
    }
    const auto report = promote("feature");
    EXPECT_TRUE(report.conflicts.empty());
    EXPECT_EQ(report.status, "up-to-date"); // main holds every change already
    EXPECT_TRUE(report.changes.empty());
    EXPECT_FALSE(report.applied);
    EXPECT_EQ(readFile(workspace("main") / "a.txt"), "the same edit\n");
}

TEST_F(PromoteTest, EachKindOfConflictBlocksAndChangesNothing)
{
    start();
    const fs::path main = workspace("main");
    const fs::path feature = workspace("feature");
    // both-modified
    writeFile(main / "a.txt", "main's a\n");
    writeFile(feature / "a.txt", "feature's a\n");
    // modify-delete, both ways
    writeFile(main / "b.txt", "main changed b\n");
    fs::remove(feature / "b.txt");
    fs::remove(main / "dir/c.txt");
    writeFile(feature / "dir/c.txt", "feature changed c\n");
    // add-add
    writeFile(main / "added.txt", "main's\n");
    writeFile(feature / "added.txt", "feature's\n");
    // type-change: a file on one side, a folder on the other
    fs::remove(main / "dir/sub/d.txt");
    writeFile(main / "dir/sub/d.txt/inner", "now a folder\n");
    writeFile(feature / "dir/sub/d.txt", "still a file, changed\n");
    // and a change on one side only, which alone would merge
    writeFile(feature / "clean.txt", "clean\n");
    checkpoint("main");
    checkpoint("feature");
    const auto before = snapshot(main);
    const std::string head = engine().sandbox("main")->head;

    const auto report = promote("feature");
    EXPECT_EQ(report.status, "blocked");
    EXPECT_FALSE(report.applied);
    EXPECT_FALSE(report.blocked.empty());
    ASSERT_EQ(report.conflicts.size(), 5u);
    ASSERT_TRUE(conflictAt(report, "a.txt"));
    EXPECT_EQ(conflictAt(report, "a.txt")->kind, ConflictKind::BothModified);
    ASSERT_TRUE(conflictAt(report, "b.txt"));
    EXPECT_EQ(conflictAt(report, "b.txt")->kind, ConflictKind::ModifyDelete);
    ASSERT_TRUE(conflictAt(report, "dir/c.txt"));
    EXPECT_EQ(conflictAt(report, "dir/c.txt")->kind, ConflictKind::ModifyDelete);
    ASSERT_TRUE(conflictAt(report, "added.txt"));
    EXPECT_EQ(conflictAt(report, "added.txt")->kind, ConflictKind::AddAdd);
    ASSERT_TRUE(conflictAt(report, "dir/sub/d.txt"));
    EXPECT_EQ(conflictAt(report, "dir/sub/d.txt")->kind, ConflictKind::TypeChange);
    EXPECT_EQ(toString(ConflictKind::TypeChange), "type-change");
    EXPECT_EQ(snapshot(main), before);
    EXPECT_EQ(engine().sandbox("main")->head, head);
    EXPECT_TRUE(audit("promote").empty());

    // Resolved in the sandbox (take main's side of each), the promotion goes through.
    ASSERT_TRUE(engine().restore(engine().sandbox("main")->head, {}, "feature"));
    writeFile(feature / "clean.txt", "clean\n");
    const auto resolved = promote("feature");
    EXPECT_EQ(resolved.status, "applied");
    EXPECT_EQ(readFile(main / "clean.txt"), "clean\n");
    EXPECT_EQ(readFile(main / "a.txt"), "main's a\n");
}

TEST_F(PromoteTest, ConflictsCanBeSettledPathByPathWithEitherSide)
{
    start();
    writeFile(workspace("main") / "a.txt", "main's a\n");
    writeFile(workspace("feature") / "a.txt", "feature's a\n");
    writeFile(workspace("main") / "b.txt", "main's b\n");
    fs::remove(workspace("feature") / "b.txt");
    writeFile(workspace("feature") / "c.txt", "clean\n");
    PromotionRequest request;
    request.source = "feature";
    request.resolutions = {{"a.txt", MergeSide::Source}, {"b.txt", MergeSide::Source}};
    const auto report = promote(request);
    ASSERT_EQ(report.status, "applied") << (report.blocked.empty() ? "" : report.blocked.front());
    EXPECT_TRUE(report.conflicts.empty());
    ASSERT_EQ(report.resolved.size(), 2u);
    EXPECT_EQ(report.resolved[0].first.kind, ConflictKind::BothModified);
    EXPECT_EQ(report.resolved[1].first.kind, ConflictKind::ModifyDelete);
    EXPECT_EQ(readFile(workspace("main") / "a.txt"), "feature's a\n");
    EXPECT_FALSE(fs::exists(workspace("main") / "b.txt"));
    EXPECT_EQ(readFile(workspace("main") / "c.txt"), "clean\n");
    const auto promoted = audit("promote");
    ASSERT_EQ(promoted.size(), 1u);
    EXPECT_EQ(nlohmann::json::parse(promoted[0].details)["resolved"].size(), 2u);

    // The target's side; and a resolution naming no conflict blocks (a stale or mistyped path).
    writeFile(workspace("main") / "a.txt", "main again\n");
    writeFile(workspace("feature") / "a.txt", "feature again\n");
    request.resolutions = {{"a.txt", MergeSide::Target}, {"nope.txt", MergeSide::Source}};
    const auto stale = promote(request);
    EXPECT_EQ(stale.status, "blocked");
    ASSERT_EQ(stale.blocked.size(), 1u);
    EXPECT_NE(stale.blocked[0].find("nope.txt"), std::string::npos);
    request.resolutions = {{"a.txt", MergeSide::Target}};
    EXPECT_EQ(promote(request).status, "up-to-date"); // main's side of the one change: nothing to apply
    EXPECT_EQ(readFile(workspace("main") / "a.txt"), "main again\n");
}

TEST_F(PromoteTest, ADeletedFolderAgainstAChangeInsideConflictsAtTheChangedFile)
{
    start();
    fs::remove_all(workspace("main") / "dir");
    writeFile(workspace("feature") / "dir/sub/d.txt", "changed\n");
    const auto report = promote("feature");
    ASSERT_EQ(report.conflicts.size(), 1u);
    EXPECT_EQ(report.conflicts[0].path, "dir/sub/d.txt");
    EXPECT_EQ(report.conflicts[0].kind, ConflictKind::ModifyDelete);

    // Without the change inside, the deletion stands.
    ASSERT_TRUE(engine().restore(engine().findCheckpoint(report.ancestor.value())->id, {}, "feature"));
    writeFile(workspace("feature") / "z.txt", "z\n");
    const auto clean = promote("feature");
    EXPECT_EQ(clean.status, "applied") << (clean.blocked.empty() ? "" : clean.blocked.front());
    EXPECT_FALSE(fs::exists(workspace("main") / "dir"));
    EXPECT_EQ(readFile(workspace("main") / "z.txt"), "z\n");
}

TEST_F(PromoteTest, ContentOnOneSideAndPermissionsOnTheOtherBothLand)
{
    start();
    fs::permissions(workspace("main") / "a.txt", fs::perms::owner_all);
    writeFile(workspace("feature") / "a.txt", "new content\n");
    const auto report = promote("feature");
    EXPECT_TRUE(report.conflicts.empty());
    EXPECT_EQ(report.status, "applied");
    EXPECT_EQ(readFile(workspace("main") / "a.txt"), "new content\n");
    struct stat st {};
    ASSERT_EQ(::stat((workspace("main") / "a.txt").c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0700u);
}

TEST_F(PromoteTest, WithoutACommonAncestorEveryPathIsAnAddition)
{
    start();
    const fs::path outside = m_dir.path() / "import";
    writeFile(outside / "a.txt", "alpha\none\ntwo\n"); // as main has it: fine
    writeFile(outside / "b.txt", "another bravo\n");   // differs: add-add
    writeFile(outside / "x.txt", "only here\n");       // new
    CreateSandboxRequest request;
    request.name = "imported";
    request.importFrom = outside;
    ASSERT_TRUE(engine().createSandbox(request));
    const auto report = promote("imported", PromotionRequest::Mode::Preview);
    EXPECT_FALSE(report.ancestor);
    ASSERT_EQ(report.conflicts.size(), 1u);
    EXPECT_EQ(report.conflicts[0].path, "b.txt");
    EXPECT_EQ(report.conflicts[0].kind, ConflictKind::AddAdd);
    ASSERT_EQ(report.changes.size(), 1u); // x.txt; what only main has stays
    EXPECT_EQ(report.changes[0].change.path, "x.txt");
    EXPECT_EQ(report.status, "preview");
}

TEST_F(PromoteTest, RiskFollowsTheThresholdsAndTheirConfiguration)
{
    start();
    const fs::path feature = workspace("feature");
    for (int i = 0; i < 11; ++i)
        writeFile(feature / "many" / ("f" + std::to_string(i)), "x\n");
    auto report = promote("feature", PromotionRequest::Mode::Preview);
    EXPECT_EQ(report.risk, RiskLevel::Medium);
    ASSERT_FALSE(report.riskReasons.empty());
    EXPECT_NE(toString(report.riskReasons[0]).find("11 files changed"), std::string::npos)
        << toString(report.riskReasons[0]);
    EXPECT_FALSE(report.approvalRequired); // from high on, by default

    for (int i = 11; i < 51; ++i)
        writeFile(feature / "many" / ("f" + std::to_string(i)), "x\n");
    report = promote("feature", PromotionRequest::Mode::Preview);
    EXPECT_EQ(report.risk, RiskLevel::High);
    EXPECT_TRUE(report.approvalRequired);

    // Under the thresholds: low.
    fs::remove_all(feature / "many");
    writeFile(feature / "one.txt", "1\n");
    report = promote("feature", PromotionRequest::Mode::Preview);
    EXPECT_EQ(report.risk, RiskLevel::Low);
    EXPECT_TRUE(report.riskReasons.empty());

    // Many lines in one file: medium.
    std::string lines;
    for (int i = 0; i < 1001; ++i)
        lines += "line " + std::to_string(i) + "\n";
    writeFile(feature / "long.txt", lines);
    report = promote("feature", PromotionRequest::Mode::Preview);
    EXPECT_EQ(report.risk, RiskLevel::Medium);
    EXPECT_EQ(report.impact.linesAdded, 1002u);
    fs::remove(feature / "long.txt");

    // A policy file changed is high.
    writeFile(feature / "policies/p.yaml", "name: p\n");
    report = promote("feature", PromotionRequest::Mode::Preview);
    EXPECT_EQ(report.risk, RiskLevel::High);

    // Configured: STORE.d/promotion.yaml.
    writeFile(SandboxEngine::dataFolder(storePath()) / "promotion.yaml",
              "promotion:\n  high:\n    policy_changed: false\n    paths: [\"secret/**\"]\n  medium:\n"
              "    files_changed: 0\n");
    report = promote("feature", PromotionRequest::Mode::Preview);
    EXPECT_EQ(report.risk, RiskLevel::Medium);
    writeFile(feature / "secret/key", "k\n");
    report = promote("feature", PromotionRequest::Mode::Preview);
    EXPECT_EQ(report.risk, RiskLevel::High);

    // Removing more than 10 files is high by default.
    auto rules = RiskConfig{};
    PromotionImpact impact;
    impact.files = impact.removed = 11;
    RiskLevel level = RiskLevel::Low;
    std::vector<RiskReason> reasons;
    gradeRisk(rules, {}, impact, {}, level, reasons);
    EXPECT_EQ(level, RiskLevel::High);
    impact.files = impact.removed = 10;
    gradeRisk(rules, {}, impact, {}, level, reasons);
    EXPECT_EQ(level, RiskLevel::Low) << "ten removals are not more than ten";

    // A mistake in the configuration names its line.
    auto bad = RiskConfig::parse("promotion:\n  high:\n    files_changd: 3\n", "risk.yaml");
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("risk.yaml:3:"), std::string::npos) << bad.error().message;
    auto negative = RiskConfig::parse("promotion:\n  medium:\n    files_changed: -1\n", "risk.yaml");
    EXPECT_FALSE(negative);
    auto off = RiskConfig::parse("promotion:\n  high:\n    files_changed: null\n", "risk.yaml");
    ASSERT_TRUE(off) << off.error().message;
    EXPECT_FALSE(off->high.filesChanged);
    EXPECT_EQ(off->high.filesRemoved, 10u);
}

TEST_F(PromoteTest, ABinaryFileIsMediumRiskAndTheApprovalFollowsTheConfiguredLevel)
{
    start();
    writeFile(workspace("feature") / "assets/model.bin", "\x89PNG\x00\x01\x02"s);
    auto report = promote("feature", PromotionRequest::Mode::Preview);
    EXPECT_EQ(report.risk, RiskLevel::Medium);
    ASSERT_EQ(report.riskReasons.size(), 1u);
    EXPECT_EQ(toString(report.riskReasons[0]),
              "medium: binary file assets/model.bin (added, 7 bytes): it cannot be reviewed as text");
    EXPECT_FALSE(report.approvalRequired) << "by default the approval is required from high risk on";

    // Configured: approvals from medium on. Applying it without one is refused, saying which risk asks for it.
    writeFile(SandboxEngine::dataFolder(storePath()) / "promotion.yaml", "promotion:\n  approval: medium\n");
    report = promote("feature", PromotionRequest::Mode::Preview);
    EXPECT_EQ(report.risk, RiskLevel::Medium);
    EXPECT_TRUE(report.approvalRequired);
    auto refused = promote("feature");
    EXPECT_EQ(refused.status, "blocked");
    ASSERT_EQ(refused.blocked.size(), 1u);
    EXPECT_EQ(refused.blocked[0], "medium risk: an approval is required (--approve --by NAME --note TEXT)");

    // Configured: binary files not a risk.
    writeFile(SandboxEngine::dataFolder(storePath()) / "promotion.yaml",
              "promotion:\n  medium:\n    binary_changed: false\n");
    report = promote("feature", PromotionRequest::Mode::Preview);
    EXPECT_EQ(report.risk, RiskLevel::Low);
    EXPECT_FALSE(report.approvalRequired);
    auto bad = RiskConfig::parse("promotion:\n  approval: sometimes\n", "risk.yaml");
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.error().message.find("risk.yaml:2:"), std::string::npos) << bad.error().message;
    auto low = RiskConfig::parse("promotion:\n  approval: low\n", "risk.yaml");
    ASSERT_TRUE(low) << low.error().message;
    EXPECT_TRUE(approvalRequired(*low, RiskLevel::Low));
    EXPECT_FALSE(approvalRequired(RiskConfig{}, RiskLevel::Low));
    EXPECT_FALSE(approvalRequired(RiskConfig{}, RiskLevel::Medium));
    EXPECT_TRUE(approvalRequired(RiskConfig{}, RiskLevel::High));
}

TEST_F(PromoteTest, HighRiskNeedsAnApprovalWhichIsRecorded)
{
    start();
    writeFile(workspace("feature") / "policies/run.yaml", "name: run\nlevel: process\n");
    PromotionRequest request;
    request.source = "feature";
    auto refused = promote(request);
    EXPECT_EQ(refused.status, "blocked");
    EXPECT_EQ(refused.risk, RiskLevel::High);
    ASSERT_EQ(refused.blocked.size(), 1u);
    EXPECT_NE(refused.blocked[0].find("approval"), std::string::npos);
    EXPECT_FALSE(fs::exists(workspace("main") / "policies"));

    request.approval = Approval{"", "no name"};
    EXPECT_FALSE(engine().promote(request));

    request.approval = Approval{"alice", "reviewed the policy"};
    const auto report = promote(request);
    ASSERT_EQ(report.status, "applied");
    EXPECT_TRUE(fs::exists(workspace("main") / "policies/run.yaml"));
    ASSERT_TRUE(report.approval);
    const auto made = engine().findCheckpoint(report.checkpoint).value();
    EXPECT_NE(made.message.find("approved by alice: reviewed the policy"), std::string::npos) << made.message;

    const auto approvals = audit("approve");
    ASSERT_EQ(approvals.size(), 1u);
    EXPECT_EQ(approvals[0].actor, "alice");
    const auto details = nlohmann::json::parse(approvals[0].details);
    EXPECT_EQ(details["by"], "alice");
    EXPECT_EQ(details["note"], "reviewed the policy");
    EXPECT_EQ(details["risk"], "high");
    EXPECT_EQ(details["checkpoint"], report.checkpoint);
    const auto promoted = audit("promote");
    ASSERT_EQ(promoted.size(), 1u);
    EXPECT_EQ(promoted[0].seq, approvals[0].seq + 1);
    EXPECT_EQ(nlohmann::json::parse(promoted[0].details)["approval"]["by"], "alice");
    EXPECT_TRUE(verifyAudit(*m_store)->intact());
}

TEST_F(PromoteTest, APolicyThatDoesNotParseBlocksWithItsLine)
{
    start();
    writeFile(workspace("feature") / "policies/good.yaml", "name: good\nlevel: process\n");
    writeFile(workspace("feature") / "policies/bad.yaml", "name: bad\nlevel: process\nlimits:\n  wall_ms: lots\n");
    writeFile(workspace("feature") / "deep/x.policy.yaml", "name: x\nnot_a_field: 1\n");
    writeFile(workspace("feature") / "conf/policies/run/strict.yml", "name: strict\nlevel: process\n");
    writeFile(workspace("feature") / "policy.yaml", "name: top\n");
    writeFile(workspace("feature") / "notes/readme.yaml", "not: a policy\n"); // not a policy path: unchecked
    PromotionRequest request;
    request.source = "feature";
    request.approval = Approval{"bob", "ok"};
    const auto report = promote(request);
    EXPECT_EQ(report.status, "blocked");
    ASSERT_EQ(report.compatibility.size(), 5u);
    std::map<std::string, CompatibilityResult> byPath;
    for (const auto& c : report.compatibility)
        byPath[c.path] = c;
    EXPECT_TRUE(byPath["policies/good.yaml"].ok);
    EXPECT_FALSE(byPath["policies/bad.yaml"].ok);
    EXPECT_NE(byPath["policies/bad.yaml"].message.find("policies/bad.yaml:4:"), std::string::npos)
        << byPath["policies/bad.yaml"].message;
    EXPECT_FALSE(byPath["deep/x.policy.yaml"].ok);
    EXPECT_EQ(byPath["deep/x.policy.yaml"].check, "policy");
    EXPECT_TRUE(byPath["conf/policies/run/strict.yml"].ok) << byPath["conf/policies/run/strict.yml"].message;
    EXPECT_TRUE(byPath["policy.yaml"].ok) << byPath["policy.yaml"].message;
    EXPECT_FALSE(fs::exists(workspace("main") / "policies"));
}

TEST_F(PromoteTest, ExtraChecksAndRiskInputsTakePart)
{
    start();
    writeFile(workspace("feature") / "rules/r.yaml", "rules: []\n");
    PromotionRequest request;
    request.source = "feature";
    request.mode = PromotionRequest::Mode::Preview;
    request.checks.push_back([](const PromotionSubject& subject) -> Result<std::vector<CompatibilityResult>> {
        std::vector<CompatibilityResult> out;
        for (const auto& c : *subject.changes)
            if (c.change.path.starts_with("rules/"))
                out.push_back(CompatibilityResult{"rules", c.change.path, false, c.change.path + ":1:1: no rules"});
        return out;
    });
    request.riskInputs.push_back([](const PromotionSubject&) -> Result<std::vector<RiskFinding>> {
        return std::vector<RiskFinding>{{RiskLevel::High, Message::plain("impact rate 12% (more than 5%)"), std::nullopt}};
    });
    const auto report = promote(request);
    EXPECT_EQ(report.risk, RiskLevel::High);
    ASSERT_FALSE(report.riskReasons.empty());
    EXPECT_EQ(toString(report.riskReasons.back()), "high: impact rate 12% (more than 5%)");
    ASSERT_EQ(report.compatibility.size(), 1u);
    EXPECT_EQ(report.compatibility[0].check, "rules");
    EXPECT_FALSE(report.compatibility[0].ok);
}

TEST_F(PromoteTest, ExportWritesTheChangedFilesAndAManifestAndAppliesNothing)
{
    start();
    writeFile(workspace("feature") / "a.txt", "changed\n");
    writeFile(workspace("feature") / "dir/new.bin", "\x01\x00\x02"s);
    fs::remove(workspace("feature") / "b.txt");
    const auto before = snapshot(workspace("main"));
    const fs::path out = m_dir.path() / "review";
    const auto report = [&] {
        PromotionRequest request;
        request.source = "feature";
        request.mode = PromotionRequest::Mode::Export;
        request.output = out;
        return promote(request);
    }();
    EXPECT_EQ(report.status, "exported");
    EXPECT_FALSE(report.applied);
    EXPECT_EQ(snapshot(workspace("main")), before);
    EXPECT_EQ(readFile(out / "files/a.txt"), "changed\n");
    EXPECT_EQ(readFile(out / "files/dir/new.bin"), "\x01\x00\x02"s);
    EXPECT_FALSE(fs::exists(out / "files/b.txt"));
    EXPECT_FALSE(fs::exists(out / "files/dir/c.txt"));
    const auto manifest = nlohmann::json::parse(readFile(out / "manifest.json"));
    EXPECT_EQ(manifest["changes"]["added"], nlohmann::json::array({"dir/new.bin"}));
    EXPECT_EQ(manifest["changes"]["removed"], nlohmann::json::array({"b.txt"}));
    EXPECT_EQ(manifest["changes"]["modified"], nlohmann::json::array({"a.txt"}));
    EXPECT_EQ(manifest["applied"], false);

    // Never into a folder that holds something.
    PromotionRequest again;
    again.source = "feature";
    again.mode = PromotionRequest::Mode::Export;
    again.output = out;
    auto refused = engine().promote(again);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("not empty"), std::string::npos);
}

#ifdef SANDBENCH_GIT
TEST_F(PromoteTest, ThePatchAppliesWithGit)
{
    start();
    const fs::path feature = workspace("feature");
    writeFile(feature / "a.txt", "alpha\nONE\ntwo\nthree");       // last line without a newline
    writeFile(feature / "dir/new.txt", "new file\n");
    writeFile(feature / "empty.txt", "");
    writeFile(feature / "name with space.txt", "spaced\n");
    writeFile(feature / "tab\there.txt", "tabbed\n");
    writeFile(feature / "caf\xe9 \"quoted\".txt", "not UTF-8, quoted\n"); // C-quoted with octal escapes
    fs::create_symlink("a.txt", feature / "link");
    fs::remove(feature / "dir/sub/d.txt");
    fs::permissions(feature / "b.txt", fs::perms::owner_all);
    writeFile(feature / "image.bin", "\x89PNG\x00\x01"s);
    const fs::path patchFile = m_dir.path() / "change.patch";
    PromotionRequest request;
    request.source = "feature";
    request.mode = PromotionRequest::Mode::Patch;
    request.output = patchFile;
    const auto report = promote(request);
    EXPECT_EQ(report.status, "exported");
    const std::string patch = readFile(patchFile);
    EXPECT_NE(patch.find("diff --git a/a.txt b/a.txt"), std::string::npos);
    EXPECT_NE(patch.find("new file mode 100644"), std::string::npos);
    EXPECT_NE(patch.find("deleted file mode 100644"), std::string::npos);
    EXPECT_NE(patch.find("old mode 100644\nnew mode 100755"), std::string::npos);
    EXPECT_NE(patch.find("new file mode 120000"), std::string::npos);
    EXPECT_NE(patch.find("Binary files /dev/null and b/image.bin differ"), std::string::npos);

    // A copy of main as a git repository: the text part applies.
    const fs::path repo = m_dir.path() / "repo";
    fs::create_directories(repo);
    fs::copy(workspace("main"), repo, fs::copy_options::recursive);
    std::string textOnly;
    {
        // git apply --check refuses a binary patch without full index lines: leave that file out.
        std::size_t start = 0;
        while (start < patch.size()) {
            std::size_t next = patch.find("\ndiff --git ", start);
            next = next == std::string::npos ? patch.size() : next + 1;
            const std::string part = patch.substr(start, next - start);
            if (part.find("Binary files") == std::string::npos)
                textOnly += part;
            start = next;
        }
    }
    writeFile(m_dir.path() / "text.patch", textOnly);
    const std::string git = SANDBENCH_GIT;
    const std::string command = "cd '" + repo.string() + "' && " + git + " init -q . && " + git
                                + " apply --check '" + (m_dir.path() / "text.patch").string() + "' 2>&1 && " + git
                                + " apply '" + (m_dir.path() / "text.patch").string() + "' 2>&1";
    FILE* pipe = ::popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string output;
    char buffer[512];
    while (std::fgets(buffer, sizeof buffer, pipe))
        output += buffer;
    const int status = ::pclose(pipe);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << output << "\n" << patch;
    // What git made of it is what the promotion would make (but the binary file and git's folder).
    auto applied = snapshot(repo);
    for (auto it = applied.begin(); it != applied.end();)
        it = it->first.starts_with(".git") ? applied.erase(it) : std::next(it);
    auto expected = snapshot(feature);
    expected.erase("image.bin");
    expected.erase("dir/sub"); // git keeps no empty folders
    EXPECT_EQ(applied, expected);
}
#endif

TEST_F(PromoteTest, LinksOutAndNamesThatAreNotUtf8AreCarriedNeverFollowed)
{
    start();
    const fs::path outside = m_dir.path() / "outside";
    writeFile(outside / "secret.txt", "secret\n");
    const fs::path feature = workspace("feature");
    fs::create_symlink(outside / "secret.txt", feature / "abs-link");
    fs::create_directory_symlink(outside, feature / "dir-link");
    const std::string odd = "caf\xe9\xff.txt";
    writeFile(feature / odd, "latin-1 name\n");
    // A policy path that is a link out: refused by the check, never read through.
    fs::create_directories(feature / "policies");
    fs::create_symlink(outside / "secret.txt", feature / "policies/evil.yaml");

    auto blocked = promote("feature");
    EXPECT_EQ(blocked.status, "blocked");
    ASSERT_EQ(blocked.compatibility.size(), 1u);
    EXPECT_FALSE(blocked.compatibility[0].ok);
    EXPECT_NE(blocked.compatibility[0].message.find("symlink"), std::string::npos);
    fs::remove(feature / "policies/evil.yaml");

    // Exported, the links stay links.
    const fs::path out = m_dir.path() / "review";
    PromotionRequest exportRequest;
    exportRequest.source = "feature";
    exportRequest.mode = PromotionRequest::Mode::Export;
    exportRequest.output = out;
    promote(exportRequest);
    EXPECT_TRUE(fs::is_symlink(out / "files/dir-link"));
    EXPECT_FALSE(fs::exists(out / "files/dir-link/secret.txt") && !fs::is_symlink(out / "files/dir-link"));
    EXPECT_EQ(readFile(out / "files" / odd), "latin-1 name\n");

    const auto report = promote("feature");
    ASSERT_EQ(report.status, "applied") << (report.blocked.empty() ? "" : report.blocked.front());
    const fs::path main = workspace("main");
    EXPECT_TRUE(fs::is_symlink(main / "abs-link"));
    EXPECT_EQ(fs::read_symlink(main / "abs-link"), outside / "secret.txt");
    EXPECT_TRUE(fs::is_symlink(main / "dir-link"));
    EXPECT_EQ(readFile(main / odd), "latin-1 name\n");
    EXPECT_EQ(readFile(outside / "secret.txt"), "secret\n");
    EXPECT_EQ(snapshot(outside).size(), 1u);
    const auto json = promotionToJson(report);
    bool hex = false;
    for (const auto& f : json["files"])
        hex = hex || f.contains("path_hex");
    EXPECT_TRUE(hex);
    EXPECT_FALSE(json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).empty());
}

TEST_F(PromoteTest, RequestsThatCannotBeAreRefused)
{
    start();
    PromotionRequest self;
    self.source = "main";
    EXPECT_FALSE(engine().promote(self));
    PromotionRequest missing;
    missing.source = "nope";
    EXPECT_FALSE(engine().promote(missing));
    PromotionRequest bad;
    bad.source = "../etc";
    EXPECT_FALSE(engine().promote(bad));
    PromotionRequest noOutput;
    noOutput.source = "feature";
    noOutput.mode = PromotionRequest::Mode::Patch;
    EXPECT_FALSE(engine().promote(noOutput));
}

} // namespace
} // namespace sb::workspacetest
