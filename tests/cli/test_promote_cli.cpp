// The command-line contract of `sandbench promote`: JSON fields, exit statuses (0 applied or a clean
// report, 1 blocked or impossible, 2 usage), approval, export and patch.

#include "cli_fixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <thread>

namespace sb::clitest {
namespace {

using nlohmann::json;

class PromoteCli : public Cli {
protected:
    void start()
    {
        writeFile(path("main") / "a.txt", "alpha\n");
        writeFile(path("main") / "b.txt", "bravo\n");
        ASSERT_EQ(cli("checkpoint create --sandbox main" + store()).status, 0);
        ASSERT_EQ(cli("sandbox create feature" + store()).status, 0);
    }
};

TEST_F(PromoteCli, PromoteAppliesAndPrintsEveryField)
{
    start();
    writeFile(path("feature") / "a.txt", "alpha\nmore\n");
    writeFile(path("feature") / "c.txt", "charlie\n");
    const json out = run("promote feature --to main");
    for (const char* field : {"status", "source", "target", "ancestor", "source_checkpoint", "target_checkpoint",
                              "saved", "applied", "checkpoint", "risk", "risk_reasons", "approval_required",
                              "approval", "conflicts", "changes", "files", "impact", "compatibility", "blocked"})
        EXPECT_TRUE(out.contains(field)) << field;
    for (const char* field : {"files", "bytes_added", "bytes_removed", "lines_added", "lines_removed"})
        EXPECT_TRUE(out["impact"].contains(field)) << field;
    EXPECT_EQ(out["status"], "applied");
    EXPECT_EQ(out["applied"], true);
    EXPECT_EQ(out["source"], "feature");
    EXPECT_EQ(out["target"], "main");
    EXPECT_EQ(out["risk"], "low");
    EXPECT_TRUE(out["approval"].is_null());
    EXPECT_EQ(out["changes"]["added"], json::array({"c.txt"}));
    EXPECT_EQ(out["changes"]["modified"], json::array({"a.txt"}));
    EXPECT_EQ(out["impact"]["files"], 2);
    EXPECT_EQ(out["impact"]["lines_added"], 2);
    EXPECT_EQ(readFile(path("main") / "c.txt"), "charlie\n");

    const json list = run("checkpoint list --sandbox main");
    EXPECT_EQ(list[0]["id"], out["checkpoint"]);
    EXPECT_EQ(list[0]["kind"], "promote");
    EXPECT_EQ(list[0]["parents"].size(), 2u);
    const json audit = run("audit list --operation promote");
    ASSERT_EQ(audit.size(), 1u);
    EXPECT_EQ(audit[0]["details"]["checkpoint"], out["checkpoint"]);
    EXPECT_EQ(run("audit verify")["intact"], true);

    // Nothing new: still fine.
    EXPECT_EQ(run("promote feature")["status"], "up-to-date");
    const auto text = cli("promote feature" + store());
    EXPECT_EQ(text.status, 0);
    EXPECT_NE(text.out.find("nothing to promote"), std::string::npos);
}

TEST_F(PromoteCli, ConflictsBlockWithTheirKinds)
{
    start();
    writeFile(path("main") / "a.txt", "main's\n");
    writeFile(path("feature") / "a.txt", "feature's\n");
    fs::remove(path("feature") / "b.txt");
    writeFile(path("main") / "b.txt", "main changed b\n");
    const json out = run("promote feature", 1);
    EXPECT_EQ(out["status"], "blocked");
    EXPECT_EQ(out["applied"], false);
    ASSERT_EQ(out["conflicts"].size(), 2u);
    EXPECT_EQ(out["conflicts"][0]["path"], "a.txt");
    EXPECT_EQ(out["conflicts"][0]["kind"], "both-modified");
    EXPECT_EQ(out["conflicts"][1]["path"], "b.txt");
    EXPECT_EQ(out["conflicts"][1]["kind"], "modify-delete");
    EXPECT_EQ(readFile(path("main") / "a.txt"), "main's\n");
    const auto text = cli("promote feature" + store(), true);
    EXPECT_EQ(text.status, 1);
    EXPECT_NE(text.out.find("both-modified"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("a.txt"), std::string::npos);
    // A dry run reports the same and is also status 1 (it would be blocked).
    EXPECT_EQ(run("promote feature --dry-run", 1)["status"], "preview");

    // Settled path by path.
    EXPECT_EQ(cli("promote feature --take-source a.txt --take-target a.txt" + store()).status, 2);
    const json settled = run("promote feature --take-source a.txt --take-target b.txt");
    EXPECT_EQ(settled["status"], "applied");
    ASSERT_EQ(settled["resolved"].size(), 2u);
    EXPECT_EQ(settled["resolved"][0]["path"], "a.txt");
    EXPECT_EQ(settled["resolved"][0]["took"], "source");
    EXPECT_EQ(settled["resolved"][1]["took"], "target");
    EXPECT_EQ(readFile(path("main") / "a.txt"), "feature's\n");
    EXPECT_EQ(readFile(path("main") / "b.txt"), "main changed b\n");
}

// A dry run changes nothing: unsaved work is measured as it is (not checkpointed first), nothing is written
// to either sandbox's history or the audit log, and an archived sandbox stays archived.
TEST_F(PromoteCli, DryRunRecordsNothing)
{
    start();
    writeFile(path("feature") / "a.txt", "alpha\nmore\n");
    writeFile(path("feature") / "c.txt", "charlie\n");
    writeFile(path("main") / "b.txt", "bravo, changed in main\n");
    const std::size_t mainBefore = run("checkpoint list --sandbox main").size();
    const std::size_t featureBefore = run("checkpoint list --sandbox feature").size();
    const std::size_t auditBefore = run("audit list").size();

    const json preview = run("promote feature --dry-run");
    EXPECT_EQ(preview["status"], "preview");
    EXPECT_EQ(preview["saved"], json::array());
    EXPECT_EQ(preview["unsaved"], json::array({"feature", "main"}));
    const auto text = cli("promote feature --dry-run" + store());
    EXPECT_NE(text.out.find("with the unsaved work of feature"), std::string::npos) << text.out;
    EXPECT_EQ(preview["changes"]["added"], json::array({"c.txt"}));
    EXPECT_EQ(preview["changes"]["modified"], json::array({"a.txt"}));
    EXPECT_TRUE(preview["conflicts"].empty());
    EXPECT_EQ(run("checkpoint list --sandbox main").size(), mainBefore);
    EXPECT_EQ(run("checkpoint list --sandbox feature").size(), featureBefore);
    EXPECT_EQ(run("audit list").size(), auditBefore);
    EXPECT_EQ(readFile(path("main") / "b.txt"), "bravo, changed in main\n");

    // The promotion itself checkpoints both first and applies what the preview showed.
    const json applied = run("promote feature");
    EXPECT_EQ(applied["saved"].size(), 2u);
    EXPECT_EQ(applied["unsaved"], json::array());
    EXPECT_EQ(applied["changes"], preview["changes"]);
    EXPECT_EQ(readFile(path("main") / "c.txt"), "charlie\n");
    EXPECT_EQ(readFile(path("main") / "b.txt"), "bravo, changed in main\n");

    // An archived sandbox is previewed from its head and left archived.
    run("sandbox set feature --idle 1ms");
    writeFile(path("feature") / "d.txt", "delta\n");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(run("sandbox sweep")["archived"], json::array({"feature"}));
    const std::size_t auditArchived = run("audit list").size();
    const json archived = run("promote feature --dry-run");
    EXPECT_EQ(archived["changes"]["added"], json::array({"d.txt"}));
    EXPECT_EQ(archived["unsaved"], json::array()); // the sweep checkpointed it when it archived it
    EXPECT_EQ(run("sandbox show feature")["state"], "archived");
    EXPECT_EQ(run("audit list").size(), auditArchived);
    EXPECT_EQ(run("audit verify")["intact"], true);
}

TEST_F(PromoteCli, HighRiskNeedsAnApprovalWithNameAndNote)
{
    start();
    writeFile(path("feature") / "policies/p.yaml", "name: p\nlevel: process\n");
    const json refused = run("promote feature", 1);
    EXPECT_EQ(refused["risk"], "high");
    EXPECT_EQ(refused["approval_required"], true);
    EXPECT_EQ(refused["status"], "blocked");
    const auto text = cli("promote feature" + store(), true);
    EXPECT_EQ(text.status, 1);
    EXPECT_NE(text.out.find("--approve --by NAME --note TEXT"), std::string::npos) << text.out;

    EXPECT_EQ(cli("promote feature --approve" + store()).status, 2);
    EXPECT_EQ(cli("promote feature --approve --by alice" + store()).status, 2);
    EXPECT_EQ(cli("promote feature --by alice --note x" + store()).status, 2);
    EXPECT_EQ(cli("promote feature --export a --patch b" + store()).status, 2);
    EXPECT_EQ(cli("promote 'bad name'" + store()).status, 2);
    EXPECT_EQ(cli("promote nosuch" + store()).status, 1);

    // A dry run says approval is needed but is not blocked by it.
    const json preview = run("promote feature --dry-run");
    EXPECT_EQ(preview["applied"], false);
    EXPECT_FALSE(fs::exists(path("main") / "policies"));

    const json applied = run("promote feature --approve --by alice --note 'policy reviewed'");
    EXPECT_EQ(applied["status"], "applied");
    EXPECT_EQ(applied["approval"]["by"], "alice");
    EXPECT_EQ(applied["approval"]["note"], "policy reviewed");
    const json approvals = run("audit list --operation approve");
    ASSERT_EQ(approvals.size(), 1u);
    EXPECT_EQ(approvals[0]["actor"], "alice");
    EXPECT_EQ(approvals[0]["details"]["note"], "policy reviewed");
    EXPECT_EQ(approvals[0]["details"]["risk"], "high");
    EXPECT_EQ(run("audit verify")["intact"], true);
}

TEST_F(PromoteCli, APolicyThatDoesNotParseBlocksWithFileAndLine)
{
    start();
    writeFile(path("feature") / "policies/bad.yaml", "name: bad\nlimits:\n  wall_ms: soon\n");
    const auto text = cli("promote feature --approve --by a --note b" + store(), true);
    EXPECT_EQ(text.status, 1);
    EXPECT_NE(text.out.find("policies/bad.yaml:3:"), std::string::npos) << text.out;
    const json out = run("promote feature --approve --by a --note b", 1);
    ASSERT_EQ(out["compatibility"].size(), 1u);
    EXPECT_EQ(out["compatibility"][0]["ok"], false);
    EXPECT_EQ(out["compatibility"][0]["path"], "policies/bad.yaml");
}

TEST_F(PromoteCli, RiskThresholdsComeFromAFile)
{
    start();
    writeFile(path("feature") / "c.txt", "c\n");
    EXPECT_EQ(run("promote feature --dry-run")["risk"], "low");
    const std::string config = write("risk.yaml", "promotion:\n  high:\n    files_changed: 0\n");
    EXPECT_EQ(run("promote feature --dry-run --risk-config " + config)["risk"], "high");
    const std::string broken = write("broken.yaml", "promotion:\n  high:\n    nonsense: 1\n");
    const auto text = cli("promote feature --risk-config " + broken + store(), true);
    EXPECT_EQ(text.status, 1);
    EXPECT_NE(text.out.find("broken.yaml:3:"), std::string::npos) << text.out;
}

TEST_F(PromoteCli, RuleSetsAreCheckedAndTheirImpactGradesTheRisk)
{
    const fs::path demo = SANDBENCH_DEMO_DIR;
    writeFile(path("main") / "rules/card.yaml", readFile(demo / "rules/current.yaml"));
    ASSERT_EQ(cli("checkpoint create --sandbox main" + store()).status, 0);
    ASSERT_EQ(cli("sandbox create feature" + store()).status, 0);
    writeFile(path("feature") / "rules/card.yaml", readFile(demo / "rules/variant_b.yaml"));
    const std::string data = quoted((demo / "transactions.csv").string());

    // Without data: the rule set is checked; a changed rule set whose impact is not measured is high risk
    // (nothing shows it flips few decisions), so the approval is required.
    const json plain = run("promote feature --dry-run");
    ASSERT_EQ(plain["compatibility"].size(), 1u);
    EXPECT_EQ(plain["compatibility"][0]["check"], "rules");
    EXPECT_EQ(plain["compatibility"][0]["ok"], true);
    EXPECT_EQ(plain["risk"], "high");
    EXPECT_EQ(plain["approval_required"], true);
    EXPECT_EQ(plain["rule_impact"], json::array());
    EXPECT_NE(plain["risk_reasons"].dump().find("not measured"), std::string::npos) << plain["risk_reasons"].dump();

    // With data: the decisions the changed rule set flips are counted, as `rules impact` counts them, and graded.
    const json measured = run("promote feature --dry-run --data " + data);
    bool rated = false;
    for (const auto& reason : measured["risk_reasons"])
        rated = rated || reason.get<std::string>().find("impact rate") != std::string::npos;
    EXPECT_TRUE(rated) << measured["risk_reasons"].dump();
    const json impact = run("rules impact --baseline " + quoted((demo / "rules/current.yaml").string())
                            + " --candidate " + quoted((demo / "rules/variant_b.yaml").string()) + " --data " + data);
    ASSERT_EQ(measured["rule_impact"].size(), 1u) << measured.dump(1);
    EXPECT_EQ(measured["rule_impact"][0]["path"], "rules/card.yaml");
    EXPECT_EQ(measured["rule_impact"][0]["decisions_changed"], impact["affected"]) << impact.dump(1);
    EXPECT_EQ(measured["rule_impact"][0]["records"], impact["total"]);
    EXPECT_GT(measured["rule_impact"][0]["decisions_changed"].get<int>(), 0);
    const auto text = cli("promote feature --dry-run --data " + data + store());
    const std::string line = "rules    rules/card.yaml: " + std::to_string(impact["affected"].get<int>()) + " of "
                             + std::to_string(impact["total"].get<int>()) + " decisions change";
    EXPECT_NE(text.out.find(line), std::string::npos) << text.out;
    const std::string strict = write("strict.yaml", "promotion:\n  high:\n    impact_rate: 0.0001\n");
    const json high = run("promote feature --dry-run --data " + data + " --risk-config " + strict);
    EXPECT_EQ(high["risk"], "high");
    EXPECT_EQ(high["approval_required"], true);
    const std::string badRate = write("bad-rate.yaml", "promotion:\n  medium:\n    impact_rate: 5\n");
    EXPECT_EQ(cli("promote feature --dry-run --risk-config " + badRate + store()).status, 1);

    // A condition that reads a field the data does not have blocks, naming file:line:column.
    writeFile(path("feature") / "rules/card.yaml",
              "name: card\nstrategy: first_match\ndefault: {decision: allow, score: 0}\nrules:\n"
              "  - id: typo\n    when: amout > 10.0\n    decision: block\n    score: 1\n");
    const auto blocked = cli("promote feature --data " + data + store(), true);
    EXPECT_EQ(blocked.status, 1);
    EXPECT_NE(blocked.out.find("rules/card.yaml:6:11:"), std::string::npos) << blocked.out;
    EXPECT_NE(blocked.out.find("amout"), std::string::npos) << blocked.out;
    EXPECT_EQ(readFile(path("main") / "rules/card.yaml"), readFile(demo / "rules/current.yaml"));
}

TEST_F(PromoteCli, ExportAndPatchApplyNothing)
{
    start();
    writeFile(path("feature") / "a.txt", "alpha\nchanged\n");
    writeFile(path("feature") / "new/d.txt", "delta\n");
    fs::remove(path("feature") / "b.txt");
    const fs::path dir = m_dir / "reviews" / "review"; // missing folders on the way are made
    const json exported = run("promote feature --export " + dir.string());
    EXPECT_EQ(exported["status"], "exported");
    EXPECT_EQ(exported["applied"], false);
    EXPECT_EQ(readFile(dir / "files/new/d.txt"), "delta\n");
    const auto manifest = json::parse(readFile(dir / "manifest.json"));
    EXPECT_EQ(manifest["changes"]["removed"], json::array({"b.txt"}));
    EXPECT_EQ(readFile(path("main") / "a.txt"), "alpha\n");

    const fs::path patch = m_dir / "change.patch";
    EXPECT_EQ(run("promote feature --patch " + patch.string())["status"], "exported");
    const std::string text = readFile(patch);
    EXPECT_NE(text.find("diff --git a/a.txt b/a.txt"), std::string::npos) << text;
    EXPECT_NE(text.find("deleted file mode 100644"), std::string::npos);
    EXPECT_TRUE(fs::exists(path("main") / "b.txt"));
#ifdef SANDBENCH_GIT
    const std::string git = SANDBENCH_GIT;
    const std::string repo = path("main").string();
    const int rc = std::system(("cd '" + repo + "' && " + git + " init -q . && " + git + " apply --check '" +
                                patch.string() + "'")
                                   .c_str());
    EXPECT_EQ(rc, 0);
    fs::remove_all(path("main") / ".git");
#endif
}

} // namespace
} // namespace sb::clitest
