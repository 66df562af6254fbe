// Governance of sandboxes: the schema 6 migration, quotas, idle archive and revive, policy and dataset
// references (inherited, restored), checkpoint labels, and the audit chain through all of it.

#include "workspace_fixture.h"

#include "store/audit.h"
#include "store/sqlite_db.h"

#include <gtest/gtest.h>

namespace sb::workspacetest {
namespace {

constexpr std::int64_t kHour = 3'600'000;

class GovernanceTest : public WorkspaceTest {
protected:
    void SetUp() override
    {
        WorkspaceTest::SetUp();
        engine().setClock([this] { return m_now; });
    }

    void reopenWithClock()
    {
        reopen();
        engine().setClock([this] { return m_now; });
    }

    void expectAuditIntact()
    {
        auto verified = verifyAudit(*m_store);
        ASSERT_TRUE(verified) << verified.error().message;
        EXPECT_TRUE(verified->intact());
    }

    std::vector<std::string> operations()
    {
        std::vector<std::string> out;
        sqlite3* db = sqlite::connectionOf(*m_store).value().handle();
        sqlite3_stmt* statement = nullptr;
        sqlite3_prepare_v2(db, "SELECT operation FROM audit_log ORDER BY seq", -1, &statement, nullptr);
        while (sqlite3_step(statement) == SQLITE_ROW)
            out.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(statement, 0)));
        sqlite3_finalize(statement);
        return out;
    }

    std::int64_t m_now = 1'800'000'000'000;
};

DatasetRef ref(const std::string& name)
{
    return DatasetRef{name, name, std::string(64, 'a'), false, 1.0, 0};
}

TEST_F(GovernanceTest, AStoreOfSchemaFiveMigratesWithItsSandboxesAndCheckpoints)
{
    writeFile(workspace("main") / "app.py", "print(1)\n");
    const std::string first = checkpoint("main", "release 1");
    create("feature");
    writeFile(workspace("feature") / "app.py", "print(2)\n");
    const std::string second = checkpoint("feature");
    const std::string headBefore = engine().sandbox("feature")->head;

    // The file as schema 5 left it: without the columns schemas 6, 7, 8 and 10 add, the tables of 9, and its
    // version number; with no audit key, which schema 8 brought.
    m_engine.reset();
    m_store.reset();
    {
        sqlite3* raw = nullptr;
        ASSERT_EQ(sqlite3_open(storePath().c_str(), &raw), SQLITE_OK);
        for (const char* sql :
             {"ALTER TABLE sandboxes DROP COLUMN quota_bytes", "ALTER TABLE sandboxes DROP COLUMN idle_timeout_ms",
              "ALTER TABLE sandboxes DROP COLUMN last_activity_ms", "ALTER TABLE sandboxes DROP COLUMN state",
              "ALTER TABLE sandboxes DROP COLUMN policy", "ALTER TABLE sandboxes DROP COLUMN datasets",
              "ALTER TABLE checkpoints DROP COLUMN meta", "ALTER TABLE checkpoints DROP COLUMN relabel",
              "ALTER TABLE runs DROP COLUMN claims", "ALTER TABLE audit_log DROP COLUMN mac",
              "ALTER TABLE log_heads DROP COLUMN key_id", "ALTER TABLE log_heads DROP COLUMN mac",
              "ALTER TABLE runs DROP COLUMN message_parts", "ALTER TABLE runs DROP COLUMN sandbox",
              "DROP TABLE agent_steps", "DROP TABLE agent_sessions",
              "PRAGMA user_version = 5"}) {
            char* error = nullptr;
            ASSERT_EQ(sqlite3_exec(raw, sql, nullptr, nullptr, &error), SQLITE_OK) << sql << ": " << error;
        }
        sqlite3_close(raw);
        fs::remove_all(m_dir.path() / "keys");
    }
    reopenWithClock();
    EXPECT_EQ(m_store->schemaVersion(), Store::kSchemaVersion);
    EXPECT_EQ(count("PRAGMA user_version"), Store::kSchemaVersion);

    auto feature = engine().sandbox("feature");
    ASSERT_TRUE(feature) << feature.error().message;
    EXPECT_EQ(feature->head, headBefore);
    EXPECT_FALSE(feature->archived);
    EXPECT_FALSE(feature->quotaBytes);
    EXPECT_FALSE(feature->idleTimeoutMs);
    EXPECT_EQ(feature->lastActivityMs, feature->createdAtMs); // measured from its creation until used
    EXPECT_TRUE(feature->policy.empty());
    EXPECT_TRUE(feature->datasets.empty());
    auto old = engine().findCheckpoint(first);
    ASSERT_TRUE(old) << old.error().message;
    EXPECT_EQ(old->id, first);
    EXPECT_EQ(old->label, "release 1");
    EXPECT_TRUE(engine().verifyCheckpoint(second));

    // Governance works on the migrated store, and an old checkpoint restores without touching it.
    SandboxSettings settings;
    settings.name = "feature";
    settings.policy = "preset:agent";
    settings.quotaBytes = std::optional<std::uint64_t>(1 << 20);
    ASSERT_TRUE(engine().setSandbox(settings));
    auto restored = engine().restore(second);
    ASSERT_TRUE(restored) << restored.error().message;
    EXPECT_EQ(engine().sandbox("feature")->policy, "preset:agent");
    expectAuditIntact();
}

TEST_F(GovernanceTest, QuotasRefuseCreationImportAndCheckpointsOverThem)
{
    writeFile(workspace("main") / "data.bin", noise(4000, 1));
    checkpoint("main");

    CreateSandboxRequest tooSmall;
    tooSmall.name = "small";
    tooSmall.quotaBytes = 1000;
    auto refused = engine().createSandbox(tooSmall);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("'small'"), std::string::npos) << refused.error().message;
    EXPECT_NE(refused.error().message.find("4000 bytes"), std::string::npos) << refused.error().message;
    EXPECT_NE(refused.error().message.find("quota of 1000 bytes"), std::string::npos) << refused.error().message;
    EXPECT_FALSE(engine().sandbox("small"));
    EXPECT_FALSE(fs::exists(m_dir.path() / "store.db.d" / "sandboxes" / "small"));

    const fs::path folder = m_dir.path() / "import";
    writeFile(folder / "big.bin", noise(3000, 2));
    CreateSandboxRequest import;
    import.name = "imported";
    import.importFrom = folder;
    import.quotaBytes = 2000;
    auto importRefused = engine().createSandbox(import);
    ASSERT_FALSE(importRefused);
    EXPECT_NE(importRefused.error().message.find("quota of 2000 bytes"), std::string::npos);
    EXPECT_FALSE(engine().sandbox("imported"));

    CreateSandboxRequest fits;
    fits.name = "fits";
    fits.quotaBytes = 6000;
    auto made = engine().createSandbox(fits);
    ASSERT_TRUE(made) << made.error().message;
    EXPECT_EQ(made->sandbox.quotaBytes, 6000u);
    EXPECT_EQ(engine().usage("fits").value(), 4000u);

    // Over the quota: the checkpoint is refused and nothing is stored (no row, no blob left behind).
    ASSERT_TRUE(engine().collectGarbage()); // what the refused import stored
    const std::int64_t checkpointsBefore = count("SELECT count(*) FROM checkpoints");
    const std::int64_t blobsBefore = count("SELECT count(*) FROM blobs");
    const std::string headBefore = engine().sandbox("fits")->head;
    writeFile(workspace("fits") / "more.bin", noise(3000, 3));
    auto over = engine().checkpoint(CheckpointRequest{"fits", "too much", {}, {}});
    ASSERT_FALSE(over);
    EXPECT_NE(over.error().message.find("sandbox 'fits' holds 7000 bytes, over its quota of 6000 bytes"),
              std::string::npos)
        << over.error().message;
    EXPECT_EQ(count("SELECT count(*) FROM checkpoints"), checkpointsBefore);
    EXPECT_EQ(count("SELECT count(*) FROM blobs"), blobsBefore);
    EXPECT_EQ(engine().sandbox("fits")->head, headBefore);

    // A quota below what the workspace holds is refused too; removing the quota lets the checkpoint through.
    SandboxSettings lower;
    lower.name = "fits";
    lower.quotaBytes = std::optional<std::uint64_t>(100);
    EXPECT_FALSE(engine().setSandbox(lower));
    EXPECT_EQ(engine().sandbox("fits")->quotaBytes, 6000u);
    SandboxSettings none;
    none.name = "fits";
    none.quotaBytes = std::optional<std::uint64_t>();
    ASSERT_TRUE(engine().setSandbox(none));
    EXPECT_FALSE(engine().sandbox("fits")->quotaBytes);
    EXPECT_TRUE(engine().checkpoint(CheckpointRequest{"fits", {}, {}, {}}));

    // A restore is held to the quota too: a checkpoint larger than it is not restored, nothing changes.
    const std::string large = engine().sandbox("fits")->head; // 7000 bytes
    SandboxSettings small;
    small.name = "fits";
    small.quotaBytes = std::optional<std::uint64_t>(4000);
    ASSERT_TRUE(fs::remove(workspace("fits") / "more.bin"));
    ASSERT_TRUE(engine().setSandbox(small));
    const auto liveBefore = snapshot(workspace("fits"));
    auto tooLarge = engine().restore(large);
    ASSERT_FALSE(tooLarge);
    EXPECT_NE(tooLarge.error().message.find("over the quota of sandbox 'fits' (4000 bytes)"), std::string::npos)
        << tooLarge.error().message;
    EXPECT_EQ(snapshot(workspace("fits")), liveBefore);
    EXPECT_EQ(engine().sandbox("fits")->head, large);

    // A promotion into a sandbox with a quota is blocked when the result would be over it.
    SandboxSettings mainQuota;
    mainQuota.name = "main";
    mainQuota.quotaBytes = std::optional<std::uint64_t>(5000);
    ASSERT_TRUE(engine().setSandbox(mainQuota));
    writeFile(workspace("fits") / "extra.bin", noise(2000, 4));
    PromotionRequest promotion;
    promotion.source = "fits";
    promotion.approval = Approval{"reviewer", "ok"};
    auto promoted = engine().promote(promotion);
    ASSERT_TRUE(promoted) << promoted.error().message;
    EXPECT_EQ(promoted->status, "blocked");
    ASSERT_FALSE(promoted->blocked.empty());
    EXPECT_NE(promoted->blocked.back().find("quota: 'main' would hold 6000 bytes, over its quota of 5000 bytes"),
              std::string::npos)
        << promoted->blocked.back();
    EXPECT_FALSE(fs::exists(workspace("main") / "extra.bin"));
    ASSERT_TRUE(fs::remove(workspace("fits") / "extra.bin"));

    // A fork keeps the quota of the sandbox it comes from, and is held to it.
    SandboxSettings again;
    again.name = "fits";
    again.quotaBytes = std::optional<std::uint64_t>(8000);
    ASSERT_TRUE(engine().setSandbox(again));
    auto forked = engine().fork(engine().sandbox("fits")->head, "forked");
    ASSERT_TRUE(forked) << forked.error().message;
    EXPECT_EQ(forked->sandbox.quotaBytes, 8000u);
    expectAuditIntact();
}

TEST_F(GovernanceTest, ASweepArchivesAnIdleSandboxKeepingItsWorkAndItsNextUseRevivesIt)
{
    writeFile(workspace("main") / "keep.txt", "main\n");
    checkpoint("main");
    CreateSandboxRequest request;
    request.name = "idle";
    request.idleTimeoutMs = kHour;
    ASSERT_TRUE(engine().createSandbox(request));
    create("busy");
    writeFile(workspace("idle") / "notes/todo.txt", "unsaved work\n");
    writeFile(workspace("idle") / "notes/deep/x.bin", noise(70000, 5));
    const auto before = snapshot(workspace("idle"));
    const auto mainBefore = snapshot(workspace("main"));

    // Not idle long enough yet: nothing happens.
    m_now += kHour / 2;
    auto early = engine().sweep();
    ASSERT_TRUE(early) << early.error().message;
    EXPECT_TRUE(early->archived.empty());

    m_now += kHour;
    auto swept = engine().sweep();
    ASSERT_TRUE(swept) << swept.error().message;
    EXPECT_EQ(swept->archived, std::vector<std::string>{"idle"});
    EXPECT_TRUE(swept->destroyed.empty());
    ASSERT_EQ(swept->savedCheckpoints.size(), 1u);

    auto idle = engine().sandbox("idle");
    ASSERT_TRUE(idle);
    EXPECT_TRUE(idle->archived);
    EXPECT_EQ(idle->state(), "archived");
    EXPECT_FALSE(fs::exists(idle->workspace)); // the disk is freed
    EXPECT_EQ(idle->head, swept->savedCheckpoints.front());
    auto saved = engine().findCheckpoint(swept->savedCheckpoints.front());
    ASSERT_TRUE(saved);
    EXPECT_EQ(saved->kind, "auto");
    EXPECT_NE(saved->message.find("archived"), std::string::npos) << saved->message;
    // main and a sandbox with no idle timeout stay as they are.
    EXPECT_FALSE(engine().sandbox("main")->archived);
    EXPECT_FALSE(engine().sandbox("busy")->archived);
    EXPECT_EQ(snapshot(workspace("main")), mainBefore);

    // Opening the engine again (what every command does) does not bring the folder back.
    reopenWithClock();
    EXPECT_FALSE(fs::exists(engine().sandbox("idle")->workspace));
    // A second sweep leaves an archived sandbox be.
    auto again = engine().sweep();
    ASSERT_TRUE(again);
    EXPECT_TRUE(again->archived.empty());

    // Its next use revives it: the exact tree it had, active, its activity now.
    m_now += kHour;
    auto used = engine().use("idle");
    ASSERT_TRUE(used) << used.error().message;
    EXPECT_FALSE(used->archived);
    EXPECT_EQ(used->lastActivityMs, m_now);
    EXPECT_EQ(snapshot(used->workspace), before);
    EXPECT_EQ(engine().sandbox("idle")->head, swept->savedCheckpoints.front());
    const auto ops = operations();
    EXPECT_NE(std::find(ops.begin(), ops.end(), "sandbox.archive"), ops.end());
    EXPECT_NE(std::find(ops.begin(), ops.end(), "sandbox.revive"), ops.end());
    expectAuditIntact();
}

TEST_F(GovernanceTest, CheckpointRestoreAndPromoteReviveAnArchivedSandbox)
{
    CreateSandboxRequest request;
    request.name = "s";
    request.idleTimeoutMs = kHour;
    ASSERT_TRUE(engine().createSandbox(request));
    writeFile(workspace("s") / "a.txt", "a\n");
    const std::string first = checkpoint("s");
    writeFile(workspace("s") / "a.txt", "b\n");
    m_now += 2 * kHour;
    ASSERT_TRUE(engine().sweep());
    ASSERT_TRUE(engine().sandbox("s")->archived);

    // A checkpoint of an archived sandbox revives it first (and finds nothing changed since its head).
    auto made = engine().checkpoint(CheckpointRequest{"s", "after", {}, {}});
    ASSERT_TRUE(made) << made.error().message;
    EXPECT_FALSE(engine().sandbox("s")->archived);
    EXPECT_EQ(made->changes.added + made->changes.removed + made->changes.modified, 0u);
    EXPECT_EQ(readFile(workspace("s") / "a.txt"), "b\n");

    m_now += 2 * kHour;
    ASSERT_TRUE(engine().sweep());
    ASSERT_TRUE(engine().sandbox("s")->archived);
    auto restored = engine().restore(first);
    ASSERT_TRUE(restored) << restored.error().message;
    EXPECT_FALSE(engine().sandbox("s")->archived);
    EXPECT_EQ(readFile(workspace("s") / "a.txt"), "a\n");

    m_now += 2 * kHour;
    ASSERT_TRUE(engine().sweep());
    ASSERT_TRUE(engine().sandbox("s")->archived);
    PromotionRequest promotion;
    promotion.source = "s";
    promotion.approval = Approval{"reviewer", "ok"};
    auto promoted = engine().promote(promotion);
    ASSERT_TRUE(promoted) << promoted.error().message;
    EXPECT_FALSE(engine().sandbox("s")->archived);
    EXPECT_EQ(engine().sandbox("s")->lastActivityMs, m_now);
    EXPECT_EQ(readFile(workspace("main") / "a.txt"), "a\n");

    // A promotion is activity of the promoted sandbox too: it is not archived by the next sweep.
    m_now += kHour / 2;
    writeFile(workspace("s") / "a.txt", "c\n");
    PromotionRequest again;
    again.source = "s";
    again.approval = Approval{"reviewer", "again"};
    ASSERT_TRUE(engine().promote(again));
    EXPECT_EQ(engine().sandbox("s")->lastActivityMs, m_now);
    m_now += kHour * 3 / 4;
    ASSERT_TRUE(engine().sweep());
    EXPECT_FALSE(engine().sandbox("s")->archived);
    expectAuditIntact();
}

TEST_F(GovernanceTest, PolicyAndDatasetsAreInheritedKeptPerCheckpointAndRestored)
{
    CreateSandboxRequest request;
    request.name = "s";
    request.policy = "preset:agent";
    request.datasets = {ref("tx"), ref("users")};
    auto made = engine().createSandbox(request);
    ASSERT_TRUE(made) << made.error().message;
    EXPECT_EQ(made->sandbox.policy, "preset:agent");
    EXPECT_EQ(made->checkpoint.policy, "preset:agent");
    ASSERT_EQ(made->checkpoint.datasets.size(), 2u);
    const std::string withBoth = checkpoint("s");

    // From the sandbox: its references come along; a --dataset of the same name replaces one.
    CreateSandboxRequest child;
    child.name = "child";
    child.from = "s";
    DatasetRef sampled = ref("tx");
    sampled.snapshot = "child.tx";
    sampled.sampled = true;
    sampled.sample = 0.5;
    child.datasets = {sampled};
    auto childMade = engine().createSandbox(child);
    ASSERT_TRUE(childMade) << childMade.error().message;
    EXPECT_EQ(childMade->sandbox.policy, "preset:agent");
    ASSERT_EQ(childMade->sandbox.datasets.size(), 2u);
    EXPECT_EQ(childMade->sandbox.datasets[0].name, "users");
    EXPECT_EQ(childMade->sandbox.datasets[1], sampled);

    // Changed later: the checkpoint keeps what was, a restore brings it back, a fork copies it.
    SandboxSettings settings;
    settings.name = "s";
    settings.policy = std::string();
    settings.dropDatasets = {"users"};
    auto changed = engine().setSandbox(settings);
    ASSERT_TRUE(changed) << changed.error().message;
    EXPECT_TRUE(changed->policy.empty());
    EXPECT_EQ(changed->datasets.size(), 1u);
    auto forked = engine().fork(withBoth, "forked");
    ASSERT_TRUE(forked) << forked.error().message;
    EXPECT_EQ(forked->sandbox.policy, "preset:agent");
    EXPECT_EQ(forked->sandbox.datasets.size(), 2u);
    auto restored = engine().restore(withBoth);
    ASSERT_TRUE(restored) << restored.error().message;
    EXPECT_EQ(engine().sandbox("s")->policy, "preset:agent");
    EXPECT_EQ(engine().sandbox("s")->datasets.size(), 2u);

    // Bad settings change nothing.
    SandboxSettings unknown;
    unknown.name = "s";
    unknown.dropDatasets = {"nope"};
    auto refused = engine().setSandbox(unknown);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("'nope'"), std::string::npos);
    SandboxSettings mainIdle;
    mainIdle.name = "main";
    mainIdle.idleTimeoutMs = std::optional<std::int64_t>(kHour);
    EXPECT_FALSE(engine().setSandbox(mainIdle));
    SandboxSettings nothing;
    nothing.name = "s";
    EXPECT_FALSE(engine().setSandbox(nothing));
    EXPECT_EQ(engine().sandbox("s")->datasets.size(), 2u);
    expectAuditIntact();
}

TEST_F(GovernanceTest, LabelsChangeAndClearWithoutChangingTheId)
{
    writeFile(workspace("main") / "a.txt", "a\n");
    const std::string id = checkpoint("main", "first name");
    const std::int64_t rows = count("SELECT count(*) FROM checkpoints");

    auto labelled = engine().setLabel(id.substr(0, 12), "release 2");
    ASSERT_TRUE(labelled) << labelled.error().message;
    EXPECT_EQ(labelled->id, id);
    EXPECT_EQ(engine().findCheckpoint(id)->label, "release 2");
    EXPECT_EQ(engine().checkpoints("main")->front().label, "release 2");

    auto cleared = engine().setLabel(id, "");
    ASSERT_TRUE(cleared);
    EXPECT_EQ(engine().findCheckpoint(id)->label, "");
    EXPECT_EQ(count("SELECT count(*) FROM checkpoints"), rows);
    EXPECT_TRUE(engine().verifyCheckpoint(id));

    // A cleared label is not kept by prune --keep-labelled; a new one is.
    auto unknown = engine().setLabel("0123456789abcdef", "x");
    ASSERT_FALSE(unknown);
    EXPECT_NE(unknown.error().message.find("0123456789abcdef"), std::string::npos);
    EXPECT_FALSE(engine().setLabel(id, "two\nlines"));
    EXPECT_EQ(engine().findCheckpoint(id)->label, "");

    const auto ops = operations();
    EXPECT_EQ(std::count(ops.begin(), ops.end(), "checkpoint.label"), 2);
    expectAuditIntact();
}

} // namespace
} // namespace sb::workspacetest
