// Checkpoints that travel between stores (SandboxEngine::writeCheckpoint, adoptCheckpoints): a checkpoint
// written out is the folder it holds; checkpoints another store made of a sandbox written from it join this
// store's history with their parents, content and audit entries; a damaged or foreign store is refused and
// leaves nothing behind.

#include "workspace_fixture.h"

#include "store/audit.h"

#include <nlohmann/json.hpp>

#include <random>

namespace sb::workspacetest {
namespace {

std::string randomBytes(std::size_t n)
{
    std::mt19937 rng(7);
    std::string out(n, '\0');
    for (auto& c : out)
        c = static_cast<char>(rng() & 0xff);
    return out;
}

std::int64_t count(const fs::path& store, const std::string& sql)
{
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(store.c_str(), &db), SQLITE_OK);
    sqlite3_stmt* s = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    std::int64_t n = -1;
    if (sqlite3_step(s) == SQLITE_ROW)
        n = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    sqlite3_close(db);
    return n;
}

void exec(const fs::path& store, const std::string& sql)
{
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(store.c_str(), &db), SQLITE_OK);
    char* error = nullptr;
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK) << (error ? error : "");
    sqlite3_free(error);
    sqlite3_close(db);
}

class Adopt : public ::testing::Test {
protected:
    void SetUp() override
    {
        const fs::path origin = m_dir.path() / "origin";
        writeFile(origin / "a.txt", "alpha\n");
        writeFile(origin / "bin" / "run.sh", "#!/bin/sh\necho hi\n");
        fs::permissions(origin / "bin" / "run.sh", fs::perms::owner_all | fs::perms::group_read);
        fs::create_symlink("a.txt", origin / "link");
        m_original = snapshot(origin);

        auto store = Store::open(m_here);
        ASSERT_TRUE(store) << store.error().message;
        auto engine = SandboxEngine::open(*store);
        ASSERT_TRUE(engine) << engine.error().message;
        CreateSandboxRequest create;
        create.name = "s";
        create.importFrom = origin;
        auto made = (*engine)->createSandbox(create);
        ASSERT_TRUE(made) << made.error().message;
        m_start = made->checkpoint.id;
        ASSERT_TRUE((*engine)->writeCheckpoint(m_start, m_seed));
    }

    // The other store: a sandbox `s` from the seed, changed twice, a checkpoint each time.
    void workElsewhere()
    {
        auto store = Store::open(m_there);
        ASSERT_TRUE(store) << store.error().message;
        auto engine = SandboxEngine::open(*store);
        ASSERT_TRUE(engine);
        CreateSandboxRequest create;
        create.name = "s";
        create.importFrom = m_seed;
        auto made = (*engine)->createSandbox(create);
        ASSERT_TRUE(made) << made.error().message;
        m_theirStart = made->checkpoint.id;
        const fs::path workspace = made->sandbox.workspace;
        writeFile(workspace / "a.txt", "alpha, edited\n");
        CheckpointRequest save;
        save.sandbox = "s";
        save.label = "after step 1";
        auto first = (*engine)->checkpoint(save);
        ASSERT_TRUE(first) << first.error().message;
        writeFile(workspace / "c.bin", randomBytes(200'000));
        fs::remove(workspace / "bin" / "run.sh");
        save.label = "after step 2";
        auto second = (*engine)->checkpoint(save);
        ASSERT_TRUE(second) << second.error().message;
        m_theirs = {first->checkpoint.id, second->checkpoint.id};
        m_theirWorkspace = snapshot(workspace);
    }

    AdoptRequest request() const
    {
        return AdoptRequest{"s", m_there, m_start, R"({"cluster": {"node": "n1"}})"};
    }

    TempDir m_dir;
    fs::path m_here = m_dir.path() / "here.db";
    fs::path m_there = m_dir.path() / "there.db";
    fs::path m_seed = m_dir.path() / "seed";
    std::map<std::string, std::string> m_original;
    std::string m_start;
    std::string m_theirStart;
    std::vector<std::string> m_theirs;
    std::map<std::string, std::string> m_theirWorkspace;
};

TEST_F(Adopt, ACheckpointWrittenOutIsTheFolderItHolds)
{
    EXPECT_EQ(snapshot(m_seed), m_original);
    EXPECT_EQ(fs::status(m_seed / "bin" / "run.sh").permissions() & fs::perms::all,
              fs::perms::owner_all | fs::perms::group_read);
    auto store = Store::open(m_here);
    ASSERT_TRUE(store);
    auto engine = SandboxEngine::open(*store);
    ASSERT_TRUE(engine);
    const auto again = (*engine)->writeCheckpoint(m_start, m_seed);
    ASSERT_FALSE(again);
    EXPECT_NE(again.error().message.find("not empty"), std::string::npos) << again.error().message;
}

TEST_F(Adopt, CheckpointsMadeElsewhereJoinTheHistoryWithTheirParentsAndContent)
{
    workElsewhere();
    auto store = Store::open(m_here);
    ASSERT_TRUE(store);
    auto engine = SandboxEngine::open(*store);
    ASSERT_TRUE(engine);
    auto adopted = (*engine)->adoptCheckpoints(request());
    ASSERT_TRUE(adopted) << adopted.error().message;

    // The other store's start is this store's start (the same tree); the rest are new here, in a chain.
    ASSERT_EQ(adopted->ids.size(), 3u);
    EXPECT_EQ(adopted->ids.at(m_theirStart), m_start);
    const std::string first = adopted->ids.at(m_theirs[0]);
    const std::string second = adopted->ids.at(m_theirs[1]);
    EXPECT_EQ(adopted->head, second);
    auto one = (*engine)->findCheckpoint(first);
    auto two = (*engine)->findCheckpoint(second);
    ASSERT_TRUE(one && two);
    EXPECT_EQ(one->parents, std::vector<std::string>{m_start});
    EXPECT_EQ(two->parents, std::vector<std::string>{first});
    EXPECT_EQ(two->label, "after step 2");
    EXPECT_EQ(two->sandbox, "s");
    EXPECT_TRUE((*engine)->verifyCheckpoint(second));

    // The head and the workspace stay until a restore brings the session's end back.
    auto sandbox = (*engine)->sandbox("s");
    ASSERT_TRUE(sandbox);
    EXPECT_EQ(snapshot(sandbox->workspace), m_original);
    auto restored = (*engine)->restore(second, {}, "s");
    ASSERT_TRUE(restored) << restored.error().message;
    EXPECT_EQ(snapshot(sandbox->workspace), m_theirWorkspace);

    // Each is audited with where it was made.
    AuditFilter filter;
    filter.operation = "checkpoint.create";
    auto entries = listAudit(*store, filter);
    ASSERT_TRUE(entries);
    int made = 0;
    for (const auto& e : *entries) {
        const auto details = nlohmann::json::parse(e.details);
        if (!details.contains("made_as"))
            continue;
        ++made;
        EXPECT_EQ(details["cluster"]["node"], "n1");
    }
    EXPECT_EQ(made, 2);
    EXPECT_TRUE(verifyAudit(*store).value().intact());
}

TEST_F(Adopt, DamagedContentIsRefusedAndNothingIsKept)
{
    workElsewhere();
    // The largest blob (c.bin's content) no longer holds what its hash says.
    exec(m_there, "UPDATE blobs SET data = zeroblob(64) WHERE id = (SELECT id FROM blobs ORDER BY size DESC LIMIT 1)");
    const auto checkpoints = count(m_here, "SELECT count(*) FROM checkpoints");
    const auto blobs = count(m_here, "SELECT count(*) FROM blobs");
    const auto audit = count(m_here, "SELECT count(*) FROM audit_log");
    {
        auto store = Store::open(m_here);
        ASSERT_TRUE(store);
        auto engine = SandboxEngine::open(*store);
        ASSERT_TRUE(engine);
        auto adopted = (*engine)->adoptCheckpoints(request());
        ASSERT_FALSE(adopted);
        EXPECT_NE(adopted.error().message.find("c.bin"), std::string::npos) << adopted.error().message;
    }
    EXPECT_EQ(count(m_here, "SELECT count(*) FROM checkpoints"), checkpoints);
    EXPECT_EQ(count(m_here, "SELECT count(*) FROM blobs"), blobs);
    EXPECT_EQ(count(m_here, "SELECT count(*) FROM audit_log"), audit);
}

TEST_F(Adopt, WhatIsNotAStoreOfTheSameSandboxIsRefused)
{
    workElsewhere();
    auto store = Store::open(m_here);
    ASSERT_TRUE(store);
    auto engine = SandboxEngine::open(*store);
    ASSERT_TRUE(engine);

    AdoptRequest missing = request();
    missing.source = m_dir.path() / "nothing.db";
    EXPECT_FALSE((*engine)->adoptCheckpoints(missing));

    AdoptRequest text = request();
    text.source = m_dir.path() / "text.db";
    writeFile(text.source, "not a database, just words that go on for a while\n");
    auto refused = (*engine)->adoptCheckpoints(text);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("text.db"), std::string::npos) << refused.error().message;

    AdoptRequest other = request();
    other.sandbox = "t";
    CreateSandboxRequest t;
    t.name = "t";
    ASSERT_TRUE((*engine)->createSandbox(t));
    auto wrongSandbox = (*engine)->adoptCheckpoints(other);
    ASSERT_FALSE(wrongSandbox);
    EXPECT_NE(wrongSandbox.error().message.find("is not of sandbox 't'"), std::string::npos)
        << wrongSandbox.error().message;

    exec(m_there, "PRAGMA user_version = 3");
    auto older = (*engine)->adoptCheckpoints(request());
    ASSERT_FALSE(older);
    EXPECT_NE(older.error().message.find("schema version 3"), std::string::npos) << older.error().message;
    EXPECT_EQ(count(m_here, "SELECT count(*) FROM checkpoints WHERE sandbox_name = 's'"), 1);
}

} // namespace
} // namespace sb::workspacetest
