// Policies versioned in the store (schema v2): one row per distinct canonical YAML, numbered per name in the
// order of first use; runs point at their version; a v1 store moves its runs' policies over in place.

#include "store_fixture.h"

#include "store/store.h"
#include "util/hash.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace sb {
namespace {

using namespace std::string_literals;
using namespace storetest;

Policy policyNamed(std::string name, std::int64_t wallMs = 5000)
{
    Policy policy;
    policy.name = std::move(name);
    policy.limits.wallMs = wallMs;
    return policy;
}

RunRequest requestWith(const Policy& policy)
{
    RunRequest request = makeRequest();
    request.policy = policy;
    return request;
}

std::string shaOf(const std::string& text)
{
    auto sha = sha256Hex(text);
    EXPECT_TRUE(sha) << sha.error().message;
    return sha ? *sha : std::string();
}

// ---------------------------------------------------------------------------------------------------------
// Recording and reading versions

TEST_F(StoreTest, RecordPolicyIsIdempotentByContent)
{
    Store store = openStore();
    const Policy first = policyNamed("alpha", 1000);
    const Policy second = policyNamed("alpha", 2000);

    auto v1 = store.recordPolicy(first);
    ASSERT_TRUE(v1) << v1.error().message;
    EXPECT_EQ(v1->name, "alpha");
    EXPECT_EQ(v1->version, 1);
    EXPECT_EQ(v1->sha256, shaOf(renderPolicy(first)));
    EXPECT_GT(v1->createdAtMs, 0);

    auto again = store.recordPolicy(first);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->id, v1->id);
    EXPECT_EQ(again->version, 1);
    EXPECT_EQ(again->createdAtMs, v1->createdAtMs);

    auto v2 = store.recordPolicy(second);
    ASSERT_TRUE(v2);
    EXPECT_EQ(v2->version, 2);
    EXPECT_NE(v2->sha256, v1->sha256);

    // Going back to earlier content is that earlier version, not a new one.
    auto back = store.recordPolicy(first);
    ASSERT_TRUE(back);
    EXPECT_EQ(back->version, 1);

    // Versions count per name.
    auto other = store.recordPolicy(policyNamed("beta", 1000));
    ASSERT_TRUE(other);
    EXPECT_EQ(other->version, 1);

    RawDb raw(dbPath());
    EXPECT_EQ(raw.integer("SELECT count(*) FROM policies"), 3);
}

TEST_F(StoreTest, RunsReadBackWithTheirPolicyVersion)
{
    Store store = openStore();
    const Policy a = policyNamed("alpha", 1000);
    const Policy b = policyNamed("alpha", 2000);
    const Policy c = policyNamed("beta", 1000);

    PolicyVersion recorded;
    ASSERT_TRUE(store.recordRun(requestWith(a), makeResult("a1", 100), &recorded));
    EXPECT_EQ(recorded.name, "alpha");
    EXPECT_EQ(recorded.version, 1);
    EXPECT_EQ(recorded.createdAtMs, 100); // first used by the run that started at 100
    ASSERT_TRUE(store.recordRun(requestWith(b), makeResult("b1", 200), &recorded));
    EXPECT_EQ(recorded.version, 2);
    ASSERT_TRUE(store.recordRun(requestWith(a), makeResult("a2", 300), &recorded));
    EXPECT_EQ(recorded.version, 1);
    EXPECT_EQ(recorded.createdAtMs, 100);
    ASSERT_TRUE(store.recordRun(requestWith(a), makeResult("a3", 400)));
    ASSERT_TRUE(store.recordRun(requestWith(c), makeResult("c1", 500)));

    auto run = store.findRun("b1");
    ASSERT_TRUE(run && run->has_value());
    EXPECT_EQ((*run)->policy.name, "alpha");
    EXPECT_EQ((*run)->policy.version, 2);
    EXPECT_EQ((*run)->policy.sha256, shaOf(renderPolicy(b)));
    EXPECT_EQ((*run)->request.policy, b);
    EXPECT_EQ((*run)->policyError, "");

    auto recent = store.recentRuns(10);
    ASSERT_TRUE(recent);
    std::map<std::string, std::string> versionOf;
    for (const auto& r : *recent)
        versionOf[r.result.runId] = r.policy.name + "@" + std::to_string(r.policy.version);
    EXPECT_EQ(versionOf, (std::map<std::string, std::string>{
                             {"a1", "alpha@1"}, {"a2", "alpha@1"}, {"a3", "alpha@1"}, {"b1", "alpha@2"}, {"c1", "beta@1"}}));

    auto alpha = store.policyVersions("alpha");
    ASSERT_TRUE(alpha) << alpha.error().message;
    ASSERT_EQ(alpha->size(), 2u);
    EXPECT_EQ((*alpha)[0].policy.version, 1);
    EXPECT_EQ((*alpha)[0].runs, 3);
    EXPECT_EQ((*alpha)[1].policy.version, 2);
    EXPECT_EQ((*alpha)[1].runs, 1);

    auto all = store.policyVersions();
    ASSERT_TRUE(all);
    std::vector<std::string> listed;
    for (const auto& use : *all)
        listed.push_back(use.policy.name + "@" + std::to_string(use.policy.version));
    EXPECT_EQ(listed, (std::vector<std::string>{"alpha@1", "alpha@2", "beta@1"}));

    auto none = store.policyVersions("gamma");
    ASSERT_TRUE(none);
    EXPECT_TRUE(none->empty());
}

TEST_F(StoreTest, FindPolicyGivesTheYamlAsStored)
{
    Store store = openStore();
    Policy policy = policyNamed("alpha", 1234);
    policy.envSet = {{"LANG", "C.UTF-8"}};
    ASSERT_TRUE(store.recordPolicy(policyNamed("alpha", 1)));
    ASSERT_TRUE(store.recordPolicy(policy));

    auto found = store.findPolicy("alpha", 2);
    ASSERT_TRUE(found) << found.error().message;
    ASSERT_TRUE(found->has_value());
    EXPECT_EQ((*found)->yaml, renderPolicy(policy));
    EXPECT_EQ((*found)->policy.sha256, shaOf((*found)->yaml));
    auto parsed = parsePolicy((*found)->yaml, "stored");
    ASSERT_TRUE(parsed) << parsed.error().message;
    EXPECT_EQ(*parsed, policy);

    for (auto [name, version] : {std::pair{"alpha", 3}, std::pair{"alpha", 0}, std::pair{"nope", 1}}) {
        auto missing = store.findPolicy(name, version);
        ASSERT_TRUE(missing) << missing.error().message;
        EXPECT_FALSE(missing->has_value()) << name << "@" << version;
    }
}

TEST_F(StoreTest, OddPolicyNamesRoundTrip)
{
    Store store = openStore();
    const std::string odd = "caf\xc3\xa9 \xff name"s; // one valid UTF-8 character, one invalid byte
    auto stored = store.recordPolicy(policyNamed(odd));
    ASSERT_TRUE(stored) << stored.error().message;
    auto versions = store.policyVersions(odd);
    ASSERT_TRUE(versions);
    ASSERT_EQ(versions->size(), 1u);
    EXPECT_EQ((*versions)[0].policy.name, odd);
    auto found = store.findPolicy(odd, 1);
    ASSERT_TRUE(found && found->has_value());
}

// ---------------------------------------------------------------------------------------------------------
// Stores edited by hand: the run is never lost, and the message says which version is wrong and where

TEST_F(StoreTest, AStoredPolicyThatNamesAProfileFileIsNotFollowed)
{
    // A stored policy carries its rules; a `profile` was written by hand, and reading must not open it.
    const fs::path profile = m_dir.path() / "profile.json";
    writeBytes(profile, R"({"defaultAction": "SCMP_ACT_ALLOW", "syscalls": []})");
    Store store = openStore();
    ASSERT_TRUE(store.recordRun(requestWith(policyNamed("alpha")), makeResult("r", 1)));
    {
        RawDb raw(dbPath());
        raw.exec("UPDATE policies SET yaml = 'name: alpha\nsyscalls:\n  profile: " + profile.string() + "\n'");
    }
    auto found = store.findRun("r");
    ASSERT_TRUE(found && found->has_value());
    const std::string& error = (*found)->policyError;
    EXPECT_NE(error.find("alpha@1"), std::string::npos) << error;
    EXPECT_NE(error.find("syscalls.profile"), std::string::npos) << error;
    EXPECT_EQ((*found)->request.policy, Policy{});
}

TEST_F(StoreTest, ARunWhosePolicyRowIsGoneIsStillRead)
{
    Store store = openStore();
    ASSERT_TRUE(store.recordRun(requestWith(policyNamed("alpha")), makeResult("gone", 1)));
    ASSERT_TRUE(store.recordRun(requestWith(policyNamed("beta")), makeResult("null", 2)));
    {
        RawDb raw(dbPath());
        raw.exec("PRAGMA foreign_keys = OFF; DELETE FROM policies WHERE name = 'alpha'; "
                 "UPDATE runs SET policy_id = NULL WHERE run_id = 'null'");
    }
    auto runs = store.recentRuns(10);
    ASSERT_TRUE(runs) << runs.error().message;
    ASSERT_EQ(runs->size(), 2u);
    for (const auto& run : *runs) {
        EXPECT_EQ(run.request.policy, Policy{});
        EXPECT_EQ(run.policy.id, 0);
        EXPECT_NE(run.policyError.find("run " + run.result.runId), std::string::npos) << run.policyError;
    }
    EXPECT_NE((*runs)[0].policyError.find("runs.policy_id is NULL"), std::string::npos) << (*runs)[0].policyError;
    EXPECT_NE((*runs)[1].policyError.find("is missing"), std::string::npos) << (*runs)[1].policyError;
}

// ---------------------------------------------------------------------------------------------------------
// Migrating a v1 store

// The schema as released in version 1 (store_tables.cpp's kSchemaV1), to make files the way that build did.
constexpr const char* kReleasedSchemaV1 = R"sql(
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    run_id TEXT UNIQUE NOT NULL,
    started_at_ms INTEGER NOT NULL DEFAULT 0,
    label TEXT NOT NULL DEFAULT '',
    language TEXT NOT NULL,
    source TEXT NOT NULL,
    policy_yaml TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN
        ('ok', 'error', 'blocked', 'timeout', 'memory_limit', 'crashed', 'internal_error')),
    exit_code INTEGER,
    signal INTEGER,
    stdout TEXT,
    stderr TEXT,
    stdout_truncated INTEGER NOT NULL DEFAULT 0,
    stderr_truncated INTEGER NOT NULL DEFAULT 0,
    duration_ms REAL,
    cpu_ms REAL,
    peak_rss_kb INTEGER,
    isolation_level TEXT,
    isolation_layers TEXT,
    message TEXT
);
CREATE TABLE blocked_events (
    id INTEGER PRIMARY KEY,
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    detail TEXT NOT NULL
);
CREATE INDEX runs_started_at ON runs(started_at_ms);
CREATE INDEX runs_outcome ON runs(outcome);
CREATE INDEX blocked_events_run ON blocked_events(run_id, seq);
PRAGMA application_id = 1396854339;
PRAGMA user_version = 1;
)sql";

std::string sqlQuote(const std::string& text)
{
    std::string quoted = "'";
    for (char c : text)
        quoted += c == '\'' ? "''" : std::string(1, c);
    return quoted + "'";
}

class MigrationTest : public StoreTest {
protected:
    struct V1Run {
        std::string runId;
        std::int64_t startedAtMs;
        std::string policyYaml;
    };

    // A v1 store holding these runs, each with an `ok` outcome, known outputs and two blocked events.
    void writeV1Store(const std::vector<V1Run>& runs)
    {
        RawDb raw(dbPath());
        raw.exec(kReleasedSchemaV1);
        for (const auto& run : runs) {
            raw.exec("INSERT INTO runs (run_id, started_at_ms, label, language, source, policy_yaml, outcome, "
                     "exit_code, signal, stdout, stderr, duration_ms, cpu_ms, peak_rss_kb, isolation_level, "
                     "isolation_layers, message) VALUES ("
                     + sqlQuote(run.runId) + ", " + std::to_string(run.startedAtMs) + ", 'label-" + run.runId
                     + "', 'python', 'print(1)', " + sqlQuote(run.policyYaml)
                     + ", 'ok', 0, 0, 'out-" + run.runId + "', x'00ff', 12.5, 3.5, 1234, 'container', "
                     "'{\"seccomp\":true}', 'message')");
            raw.exec("INSERT INTO blocked_events (run_id, seq, kind, detail) SELECT id, 0, 'import', 'os' FROM runs "
                     "WHERE run_id = " + sqlQuote(run.runId) + "; "
                     "INSERT INTO blocked_events (run_id, seq, kind, detail) SELECT id, 1, 'syscall', 'ptrace' "
                     "FROM runs WHERE run_id = " + sqlQuote(run.runId));
        }
    }
};

TEST_F(MigrationTest, AVersionOneStoreMovesItsPoliciesInPlace)
{
    const std::string alphaShort = renderPolicy(policyNamed("alpha", 1000));
    const std::string alphaLong = renderPolicy(policyNamed("alpha", 9000));
    const std::string beta = renderPolicy(policyNamed("beta"));
    const std::string unparsable = "limits: [unclosed";
    const std::string badLevel = "name: gamma\nlevel: sideways\n";
    // Recorded out of time order on purpose: versions follow first use (start time), not row order.
    writeV1Store({{"r-alpha-long-1", 300, alphaLong},
                  {"r-alpha-short", 100, alphaShort},
                  {"r-alpha-long-2", 200, alphaLong},
                  {"r-beta", 50, beta},
                  {"r-unparsable", 400, unparsable},
                  {"r-bad-level", 500, badLevel}});

    {
        Store store = openStore();
        EXPECT_EQ(store.schemaVersion(), Store::kSchemaVersion);

        auto runs = store.recentRuns(100);
        ASSERT_TRUE(runs) << runs.error().message;
        ASSERT_EQ(runs->size(), 6u);
        std::map<std::string, const StoredRun*> byId;
        for (const auto& run : *runs)
            byId[run.result.runId] = &run;

        // Everything else of every run is as it was.
        for (const auto& [id, run] : byId) {
            EXPECT_EQ(run->request.label, "label-" + id);
            EXPECT_EQ(run->request.source, "print(1)");
            EXPECT_EQ(run->result.stdoutText, "out-" + id);
            EXPECT_EQ(run->result.stderrText, "\0\xff"s);
            EXPECT_DOUBLE_EQ(run->result.durationMs, 12.5);
            EXPECT_EQ(run->result.peakRssKb, 1234);
            EXPECT_EQ(run->result.isolation.level, IsolationLevel::Container);
            EXPECT_EQ(run->result.blocked, (std::vector<BlockedEvent>{{"import", "os"}, {"syscall", "ptrace"}}));
        }

        auto versionOf = [&](const std::string& id) {
            return byId.at(id)->policy.name + "@" + std::to_string(byId.at(id)->policy.version);
        };
        EXPECT_EQ(versionOf("r-alpha-short"), "alpha@1"); // first used at 100
        EXPECT_EQ(versionOf("r-alpha-long-2"), "alpha@2"); // first used at 200
        EXPECT_EQ(versionOf("r-alpha-long-1"), "alpha@2");
        EXPECT_EQ(versionOf("r-beta"), "beta@1");
        EXPECT_EQ(versionOf("r-unparsable"), Policy{}.name + "@1"); // no name to read: the parser's default
        EXPECT_EQ(versionOf("r-bad-level"), "gamma@1");               // the name its YAML gives

        EXPECT_EQ(byId.at("r-alpha-long-1")->request.policy, policyNamed("alpha", 9000));
        EXPECT_EQ(byId.at("r-alpha-short")->request.policy, policyNamed("alpha", 1000));
        EXPECT_EQ(byId.at("r-alpha-short")->policyError, "");
        EXPECT_EQ(byId.at("r-alpha-long-1")->policy.createdAtMs, 200);

        const std::string& unreadable = byId.at("r-bad-level")->policyError;
        EXPECT_NE(unreadable.find("gamma@1"), std::string::npos) << unreadable;
        EXPECT_NE(unreadable.find("yaml:2:"), std::string::npos) << unreadable;
        EXPECT_NE(byId.at("r-unparsable")->policyError.find("yaml:1:"), std::string::npos)
            << byId.at("r-unparsable")->policyError;

        // New runs continue the numbering.
        PolicyVersion next;
        ASSERT_TRUE(store.recordRun(requestWith(policyNamed("alpha", 7)), makeResult("new", 600), &next));
        EXPECT_EQ(next.version, 3);
        ASSERT_TRUE(store.recordRun(requestWith(policyNamed("alpha", 1000)), makeResult("again", 700), &next));
        EXPECT_EQ(next.version, 1);
    }

    // The texts moved byte for byte and are found by their hash; the old column is gone.
    RawDb raw(dbPath());
    EXPECT_EQ(raw.integer("PRAGMA user_version"), Store::kSchemaVersion);
    EXPECT_EQ(raw.integer("SELECT count(*) FROM policies"), 6);
    for (const std::string* text : {&alphaShort, &alphaLong, &beta, &unparsable, &badLevel})
        EXPECT_EQ(raw.integer("SELECT count(*) FROM policies WHERE sha256 = '" + shaOf(*text) + "' AND yaml = "
                              + sqlQuote(*text)),
                  1)
            << *text;
    EXPECT_EQ(raw.integer("SELECT count(*) FROM pragma_table_info('runs') WHERE name = 'policy_yaml'"), 0);
    EXPECT_EQ(raw.integer("SELECT count(*) FROM runs WHERE policy_id IS NULL"), 0);
    EXPECT_EQ(raw.integer("SELECT count(*) FROM blocked_events"), 2 * 6);
    EXPECT_EQ(raw.text("PRAGMA quick_check"), "ok");
    EXPECT_EQ(raw.integer("SELECT count(*) FROM pragma_foreign_key_check"), 0);
}

TEST_F(MigrationTest, AnEmptyVersionOneStoreMigrates)
{
    writeV1Store({});
    Store store = openStore();
    EXPECT_EQ(store.schemaVersion(), Store::kSchemaVersion);
    auto versions = store.policyVersions();
    ASSERT_TRUE(versions);
    EXPECT_TRUE(versions->empty());
}

TEST_F(MigrationTest, AFailedMigrationLeavesVersionOneAsItWas)
{
    // Something of the user's that depends on the old column (our application id, so the file is accepted):
    // dropping the column fails, and the whole step must roll back.
    const std::string yaml = renderPolicy(policyNamed("alpha"));
    writeV1Store({{"r", 1, yaml}});
    {
        RawDb raw(dbPath());
        raw.exec("CREATE VIEW run_policies AS SELECT run_id, policy_yaml FROM runs");
    }
    auto store = Store::open(dbPath());
    ASSERT_FALSE(store) << "migrated despite the view";
    EXPECT_NE(store.error().message.find(dbPath().string()), std::string::npos) << store.error().message;
    EXPECT_NE(store.error().message.find("schema version 2"), std::string::npos) << store.error().message;

    RawDb raw(dbPath());
    EXPECT_EQ(raw.integer("PRAGMA user_version"), 1);
    EXPECT_EQ(raw.integer("SELECT count(*) FROM sqlite_master WHERE name = 'policies'"), 0);
    EXPECT_EQ(raw.integer("SELECT count(*) FROM pragma_table_info('runs') WHERE name = 'policy_id'"), 0);
    EXPECT_EQ(raw.text("SELECT policy_yaml FROM runs WHERE run_id = 'r'"), yaml);
    EXPECT_EQ(raw.integer("SELECT count(*) FROM blocked_events"), 2);
}

} // namespace
} // namespace sb
