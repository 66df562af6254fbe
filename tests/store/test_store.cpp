#include "store_fixture.h"

#include "store/run_points.h"
#include "store/store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace sb {
namespace {

namespace fs = std::filesystem;
using namespace std::string_literals;
using namespace storetest;

// ---------------------------------------------------------------------------------------------------------
// Round trips

TEST_F(StoreTest, RoundTripOfARunWithBlockedEvents)
{
    Store store = openStore();

    RunRequest request;
    request.language = Language::Shell;
    request.source = "echo hi; curl example.com\n";
    request.label = "network probe";
    request.policy.name = "tight";
    request.policy.level = IsolationLevel::Container;
    request.policy.limits.wallMs = 1234;
    request.policy.limits.memoryMb = 64;
    request.policy.blockedImports = {"socket", "ctypes"};
    request.policy.envSet = {{"LANG", "C.UTF-8"}};

    RunResult result = makeResult("6f1c0c1e-4a4b-4d5e-8f00-000000000001", 1'700'000'000'123, Outcome::Blocked, 87.25);
    result.exitCode = -1;
    result.signal = 31;
    result.stdoutText = "hi\n";
    result.stderrText = "blocked: connect\n";
    result.stdoutTruncated = true;
    result.stderrTruncated = false;
    result.cpuMs = 3.5;
    result.peakRssKb = 12345;
    result.blocked = {{"syscall", "connect"}, {"network", "example.com:443"}, {"import", "socket"}};
    result.claims = {{"import", "os"}, {"memory", "MemoryError"}};
    result.isolation.level = IsolationLevel::Container;
    // Deliberately not alphabetical: the stored order must be the report's order.
    result.isolation.layers = {{"user_ns", true}, {"seccomp", true}, {"cgroup", false}, {"landlock", true}};
    result.message = Message::plain("network is none");

    auto id = store.recordRun(request, result);
    ASSERT_TRUE(id) << id.error().message;
    EXPECT_GT(*id, 0);

    auto found = store.findRun(result.runId);
    ASSERT_TRUE(found) << found.error().message;
    ASSERT_TRUE(found->has_value());
    const StoredRun& run = **found;
    EXPECT_EQ(run.id, *id);
    EXPECT_EQ(run.request.language, Language::Shell);
    EXPECT_EQ(run.request.source, request.source);
    EXPECT_EQ(run.request.label, request.label);
    EXPECT_EQ(run.request.policy.name, "tight");
    EXPECT_EQ(run.request.policy.level, IsolationLevel::Container);
    EXPECT_EQ(run.request.policy.limits.wallMs, 1234);
    EXPECT_EQ(run.request.policy.limits.memoryMb, 64);
    EXPECT_EQ(run.request.policy.blockedImports, request.policy.blockedImports);
    EXPECT_EQ(run.request.policy.envSet, request.policy.envSet);
    EXPECT_EQ(run.request.policy, request.policy);
    EXPECT_EQ(run.policyError, "");
    EXPECT_EQ(run.policy.name, "tight");
    EXPECT_EQ(run.policy.version, 1);
    EXPECT_EQ(run.policy.sha256.size(), 64u);

    const RunResult& back = run.result;
    EXPECT_EQ(back.runId, result.runId);
    EXPECT_EQ(back.startedAtMs, result.startedAtMs);
    EXPECT_EQ(back.outcome, Outcome::Blocked);
    EXPECT_EQ(back.exitCode, -1);
    EXPECT_EQ(back.signal, 31);
    EXPECT_EQ(back.stdoutText, result.stdoutText);
    EXPECT_EQ(back.stderrText, result.stderrText);
    EXPECT_TRUE(back.stdoutTruncated);
    EXPECT_FALSE(back.stderrTruncated);
    EXPECT_DOUBLE_EQ(back.durationMs, 87.25);
    EXPECT_DOUBLE_EQ(back.cpuMs, 3.5);
    EXPECT_EQ(back.peakRssKb, 12345);
    EXPECT_EQ(back.blocked, result.blocked);
    EXPECT_EQ(back.claims, result.claims);
    EXPECT_EQ(back.isolation.level, IsolationLevel::Container);
    EXPECT_EQ(back.isolation.layers, result.isolation.layers);
    EXPECT_EQ(back.message, result.message);

    // The layers column is a JSON object in report order, readable by other tools.
    RawDb raw(dbPath());
    EXPECT_EQ(raw.text("SELECT isolation_layers FROM runs"),
              R"({"user_ns":true,"seccomp":true,"cgroup":false,"landlock":true})");
    EXPECT_EQ(raw.integer("SELECT count(*) FROM blocked_events"), 3);
    EXPECT_EQ(raw.text("SELECT claims FROM runs"),
              R"([{"detail":"os","kind":"import"},{"detail":"MemoryError","kind":"memory"}])");
}

// The sandbox a run worked in comes back with it, and its audit entry names it; a run in no sandbox has none.
TEST_F(StoreTest, ARunKeepsItsSandbox)
{
    Store store = openStore();
    RunRequest request;
    request.source = "print(1)\n";
    const RunResult inSandbox = makeResult("6f1c0c1e-4a4b-4d5e-8f00-0000000000a1", 1'700'000'000'000, Outcome::Ok, 5);
    const RunResult alone = makeResult("6f1c0c1e-4a4b-4d5e-8f00-0000000000a2", 1'700'000'001'000, Outcome::Ok, 5);
    ASSERT_TRUE(store.recordRun(request, inSandbox, nullptr, "feature-x"));
    ASSERT_TRUE(store.recordRun(request, alone));
    auto runs = store.recentRuns(10);
    ASSERT_TRUE(runs) << runs.error().message;
    ASSERT_EQ(runs->size(), 2u);
    EXPECT_EQ((*runs)[0].sandbox, "");
    EXPECT_EQ((*runs)[1].sandbox, "feature-x");
    auto found = store.findRun(inSandbox.runId);
    ASSERT_TRUE(found && found->has_value());
    EXPECT_EQ((**found).sandbox, "feature-x");
    RawDb raw(dbPath());
    EXPECT_EQ(raw.text("SELECT json_extract(details, '$.sandbox') FROM audit_log WHERE subject = '" + inSandbox.runId + "'"),
              "feature-x");
    EXPECT_EQ(raw.integer("SELECT count(*) FROM audit_log WHERE subject = '" + alone.runId
                          + "' AND json_extract(details, '$.sandbox') IS NULL"),
              1);
}

// A run's message comes back as its pattern and arguments, for the window to translate, and runs.message keeps
// the English sentence for every other reader. A row whose parts are malformed or say something else than its
// message (edited by hand) comes back as its message, whole.
TEST_F(StoreTest, ARunsMessageKeepsItsPatternAndArguments)
{
    Store store = openStore();
    RunRequest request;
    RunResult result = makeResult("6f1c0c1e-4a4b-4d5e-8f00-0000000000b1", 1'700'000'000'000, Outcome::Error, 5);
    result.message = Message(SB_TR("run outcome", "exited with status {}"), {"3"});
    ASSERT_TRUE(store.recordRun(request, result));
    auto back = [&] {
        auto found = store.findRun(result.runId);
        EXPECT_TRUE(found && found->has_value());
        return found && found->has_value() ? (**found).result.message : Message{};
    };
    EXPECT_EQ(back(), result.message);
    RawDb raw(dbPath());
    EXPECT_EQ(raw.text("SELECT message FROM runs"), "exited with status 3");
    EXPECT_EQ(raw.text("SELECT message_parts FROM runs"),
              R"({"args":["3"],"context":"run outcome","pattern":"exited with status {}"})");

    raw.exec("UPDATE runs SET message = 'exited with status 4'");
    EXPECT_EQ(back(), Message::plain("exited with status 4"));
    raw.exec(R"(UPDATE runs SET message = 'exited with status 3', message_parts = '{"context":"run outcome"')");
    EXPECT_EQ(back(), Message::plain("exited with status 3"));
    raw.exec(R"(UPDATE runs SET message_parts = '{"context":"run outcome","pattern":"exited with status {}","args":[3]}')");
    EXPECT_EQ(back(), Message::plain("exited with status 3"));
    raw.exec("UPDATE runs SET message_parts = ''");
    EXPECT_EQ(back(), Message::plain("exited with status 3"));
}

TEST_F(StoreTest, BinaryAndInvalidUtf8OutputComesBackByteForByte)
{
    Store store = openStore();
    std::string everyByte;
    for (int i = 0; i < 256; ++i)
        everyByte.push_back(static_cast<char>(i));
    const std::string withNul = "before\0after\0\0end"s;
    const std::string invalidUtf8 = "ok \xff\xfe overlong \xc0\xaf surrogate \xed\xa0\x80 cut \xe2\x82"s;

    RunRequest request = makeRequest("print('a\\0b')\0trailing"s);
    request.label = invalidUtf8;
    RunResult result = makeResult("binary-run", 1);
    result.stdoutText = everyByte + withNul;
    result.stderrText = invalidUtf8;
    result.message = Message::plain(withNul);
    result.blocked = {{"path", "/tmp/\xff\x00x"s}};

    ASSERT_TRUE(store.recordRun(request, result));
    auto found = store.findRun("binary-run");
    ASSERT_TRUE(found && found->has_value());
    const StoredRun& run = **found;
    EXPECT_EQ(run.result.stdoutText, result.stdoutText);
    EXPECT_EQ(run.result.stdoutText.size(), 256u + withNul.size());
    EXPECT_EQ(run.result.stderrText, invalidUtf8);
    EXPECT_EQ(run.result.message.text(), withNul);
    EXPECT_EQ(run.request.source, request.source);
    EXPECT_EQ(run.request.label, invalidUtf8);
    EXPECT_EQ(run.result.blocked, result.blocked);

    // A run id that is not text still finds its own row, and only it.
    RunResult odd = makeResult("id\xff\0"s, 2);
    ASSERT_TRUE(store.recordRun(request, odd));
    auto oddFound = store.findRun("id\xff\0"s);
    ASSERT_TRUE(oddFound && oddFound->has_value());
    EXPECT_EQ((*oddFound)->result.runId, "id\xff\0"s);
    auto prefix = store.findRun("id\xff"s);
    ASSERT_TRUE(prefix);
    EXPECT_FALSE(prefix->has_value());

    // Plain text stays TEXT, so the file reads well in other tools.
    RawDb raw(dbPath());
    EXPECT_EQ(raw.text("SELECT typeof(stdout) FROM runs WHERE run_id = 'binary-run'"), "blob");
    EXPECT_EQ(raw.text("SELECT typeof(run_id) FROM runs WHERE run_id = 'binary-run'"), "text");
    EXPECT_EQ(raw.text("SELECT typeof(p.yaml) FROM runs AS r JOIN policies AS p ON p.id = r.policy_id "
                       "WHERE r.run_id = 'binary-run'"),
              "text");
}

TEST_F(StoreTest, EveryOutcomeIsAccepted)
{
    // The schema's CHECK list is spelled out; it must name every outcome the engine can produce.
    Store store = openStore();
    int n = 0;
    for (Outcome outcome : kAllOutcomes) {
        const std::string runId = "run-" + std::string(toString(outcome));
        auto id = store.recordRun(makeRequest(), makeResult(runId, ++n, outcome));
        ASSERT_TRUE(id) << toString(outcome) << ": " << id.error().message;
        auto found = store.findRun(runId);
        ASSERT_TRUE(found && found->has_value());
        EXPECT_EQ((*found)->result.outcome, outcome);
    }
    RawDb raw(dbPath());
    EXPECT_EQ(raw.integer("SELECT count(*) FROM runs"), static_cast<std::int64_t>(kAllOutcomes.size()));
}

TEST_F(StoreTest, RecentRunsAreNewestFirst)
{
    Store store = openStore();
    ASSERT_TRUE(store.recordRun(makeRequest(), makeResult("a", 100)));
    ASSERT_TRUE(store.recordRun(makeRequest(), makeResult("b", 300)));
    ASSERT_TRUE(store.recordRun(makeRequest(), makeResult("c", 200)));
    ASSERT_TRUE(store.recordRun(makeRequest(), makeResult("d", 300))); // same start as b, recorded later

    auto runs = store.recentRuns(10);
    ASSERT_TRUE(runs) << runs.error().message;
    std::vector<std::string> ids;
    for (const auto& run : *runs)
        ids.push_back(run.result.runId);
    EXPECT_EQ(ids, (std::vector<std::string>{"d", "b", "c", "a"}));

    auto two = store.recentRuns(2);
    ASSERT_TRUE(two);
    ASSERT_EQ(two->size(), 2u);
    EXPECT_EQ((*two)[0].result.runId, "d");
    EXPECT_EQ((*two)[1].result.runId, "b");

    auto none = store.recentRuns(0);
    ASSERT_TRUE(none);
    EXPECT_TRUE(none->empty());
}

TEST_F(StoreTest, FindRunOfAnUnknownIdIsEmpty)
{
    Store store = openStore();
    auto found = store.findRun("nope");
    ASSERT_TRUE(found) << found.error().message;
    EXPECT_FALSE(found->has_value());
}

TEST_F(StoreTest, AFailedRecordLeavesNothingBehind)
{
    Store store = openStore();
    RunResult first = makeResult("same", 1);
    first.blocked = {{"import", "os"}};
    ASSERT_TRUE(store.recordRun(makeRequest(), first));

    RunResult second = makeResult("same", 2);
    second.blocked = {{"import", "socket"}, {"import", "ctypes"}};
    auto again = store.recordRun(makeRequest(), second);
    ASSERT_FALSE(again);
    EXPECT_NE(again.error().message.find(dbPath().string()), std::string::npos) << again.error().message;
    EXPECT_NE(again.error().message.find("UNIQUE"), std::string::npos) << again.error().message;

    RawDb raw(dbPath());
    EXPECT_EQ(raw.integer("SELECT count(*) FROM runs"), 1);
    EXPECT_EQ(raw.integer("SELECT count(*) FROM blocked_events"), 1);
    // And the store is still usable (the transaction was rolled back, not left open).
    EXPECT_TRUE(store.recordRun(makeRequest(), makeResult("other", 3)));
}

TEST_F(StoreTest, UnreadablePolicyKeepsTheRun)
{
    Store store = openStore();
    RunRequest request = makeRequest();
    request.policy.name = "custom";
    ASSERT_TRUE(store.recordRun(request, makeResult("r", 1)));
    {
        RawDb raw(dbPath());
        raw.exec("UPDATE policies SET yaml = 'limits: [unclosed' WHERE name = 'custom'");
    }
    auto found = store.findRun("r");
    ASSERT_TRUE(found) << found.error().message;
    ASSERT_TRUE(found->has_value());
    EXPECT_EQ((*found)->request.policy.name, Policy{}.name);
    EXPECT_EQ((*found)->request.source, request.source);
    // Which version is wrong, and where in its YAML.
    EXPECT_EQ((*found)->policy.name, "custom");
    EXPECT_EQ((*found)->policy.version, 1);
    const std::string& error = (*found)->policyError;
    EXPECT_NE(error.find(dbPath().string()), std::string::npos) << error;
    EXPECT_NE(error.find("run r"), std::string::npos) << error;
    EXPECT_NE(error.find("custom@1"), std::string::npos) << error;
    EXPECT_NE(error.find("yaml:1:"), std::string::npos) << error;
    auto recent = store.recentRuns(5);
    ASSERT_TRUE(recent);
    EXPECT_EQ(recent->size(), 1u);
}

TEST_F(StoreTest, DeletingARunDeletesItsEvents)
{
    Store store = openStore();
    RunResult result = makeResult("r", 1);
    result.blocked = {{"import", "os"}, {"syscall", "ptrace"}};
    ASSERT_TRUE(store.recordRun(makeRequest(), result));
    RawDb raw(dbPath());
    raw.exec("PRAGMA foreign_keys = ON; DELETE FROM runs WHERE run_id = 'r'");
    EXPECT_EQ(raw.integer("SELECT count(*) FROM blocked_events"), 0);
}

// ---------------------------------------------------------------------------------------------------------
// Metrics over the store

TEST_F(StoreTest, MetricsOnKnownData)
{
    Store store = openStore();
    // 10 runs: durations 10, 20, ..., 100 ms; outcomes 5 ok, 2 error, 2 blocked, 1 timeout.
    const std::vector<Outcome> outcomes = {Outcome::Ok,      Outcome::Ok,      Outcome::Error, Outcome::Blocked,
                                           Outcome::Ok,      Outcome::Timeout, Outcome::Ok,    Outcome::Error,
                                           Outcome::Blocked, Outcome::Ok};
    for (int i = 0; i < 10; ++i) {
        RunResult result = makeResult("run-" + std::to_string(i), 1000 + i, outcomes[static_cast<std::size_t>(i)],
                                      10.0 * (i + 1));
        if (result.outcome == Outcome::Blocked)
            result.blocked = {{"import", "socket-" + std::to_string(i)}, {"syscall", "connect"}};
        result.message = Message::plain("message-" + std::to_string(i));
        RunRequest request = makeRequest();
        request.label = "label-" + std::to_string(i);
        request.language = i % 2 ? Language::Shell : Language::Python;
        ASSERT_TRUE(store.recordRun(request, result));
    }

    auto metrics = store.metrics(3);
    ASSERT_TRUE(metrics) << metrics.error().message;
    EXPECT_EQ(metrics->total, 10);
    ASSERT_EQ(metrics->outcomes.size(), kAllOutcomes.size());
    const std::vector<std::int64_t> expectedCounts = {5, 2, 2, 1, 0, 0, 0};
    for (std::size_t i = 0; i < kAllOutcomes.size(); ++i) {
        EXPECT_EQ(metrics->outcomes[i].outcome, kAllOutcomes[i]);
        EXPECT_EQ(metrics->outcomes[i].count, expectedCounts[i]) << toString(kAllOutcomes[i]);
        EXPECT_DOUBLE_EQ(metrics->outcomes[i].rate, static_cast<double>(expectedCounts[i]) / 10.0);
    }
    EXPECT_DOUBLE_EQ(metrics->p50Ms, 50);
    EXPECT_DOUBLE_EQ(metrics->p95Ms, 100);
    EXPECT_DOUBLE_EQ(metrics->p99Ms, 100);

    ASSERT_EQ(metrics->durationHistogram.size(), 10u);
    const std::vector<std::int64_t> expectedBins = {0, 2, 2, 5, 1, 0, 0, 0, 0, 0}; // 10,20|30,40|50..90|100
    for (std::size_t i = 0; i < expectedBins.size(); ++i)
        EXPECT_EQ(metrics->durationHistogram[i].count, expectedBins[i]) << "bin " << i;

    ASSERT_EQ(metrics->recent.size(), 3u);
    EXPECT_EQ(metrics->recent[0].runId, "run-9");
    EXPECT_EQ(metrics->recent[0].detail, "message-9");
    EXPECT_EQ(metrics->recent[0].label, "label-9");
    EXPECT_EQ(metrics->recent[0].language, toString(Language::Shell));
    EXPECT_EQ(metrics->recent[0].outcome, Outcome::Ok);
    EXPECT_EQ(metrics->recent[0].startedAtMs, 1009);
    EXPECT_DOUBLE_EQ(metrics->recent[0].durationMs, 100);
    EXPECT_EQ(metrics->recent[1].runId, "run-8");
    EXPECT_EQ(metrics->recent[1].outcome, Outcome::Blocked);
    EXPECT_EQ(metrics->recent[1].detail, "import: socket-8"); // the first blocked event, not the message
    EXPECT_EQ(metrics->recent[1].language, toString(Language::Python));
    EXPECT_EQ(metrics->recent[2].runId, "run-7");

    auto noRecent = store.metrics(0);
    ASSERT_TRUE(noRecent);
    EXPECT_TRUE(noRecent->recent.empty());
    EXPECT_EQ(noRecent->total, 10);
}

TEST_F(StoreTest, RunPointsAreEveryRunOldestFirst)
{
    Store store = openStore();
    auto none = runPoints(store);
    ASSERT_TRUE(none) << none.error().message;
    EXPECT_TRUE(none->empty());
    // Recorded out of order: the points come back by start time.
    ASSERT_TRUE(store.recordRun(makeRequest(), makeResult("late", 3000, Outcome::Blocked, 7.5)));
    ASSERT_TRUE(store.recordRun(makeRequest(), makeResult("early", 1000, Outcome::Ok, 12)));
    ASSERT_TRUE(store.recordRun(makeRequest(), makeResult("middle", 2000, Outcome::Timeout, 5000)));
    auto points = runPoints(store);
    ASSERT_TRUE(points) << points.error().message;
    ASSERT_EQ(points->size(), 3u);
    EXPECT_EQ((*points)[0].startedAtMs, 1000);
    EXPECT_EQ((*points)[0].outcome, Outcome::Ok);
    EXPECT_DOUBLE_EQ((*points)[0].durationMs, 12);
    EXPECT_EQ((*points)[1].outcome, Outcome::Timeout);
    EXPECT_EQ((*points)[2].startedAtMs, 3000);
    EXPECT_EQ((*points)[2].outcome, Outcome::Blocked);
    EXPECT_DOUBLE_EQ((*points)[2].durationMs, 7.5);
}

TEST_F(StoreTest, MetricsOfAnEmptyStore)
{
    Store store = openStore();
    auto metrics = store.metrics();
    ASSERT_TRUE(metrics) << metrics.error().message;
    EXPECT_EQ(metrics->total, 0);
    ASSERT_EQ(metrics->outcomes.size(), kAllOutcomes.size());
    for (std::size_t i = 0; i < kAllOutcomes.size(); ++i) {
        EXPECT_EQ(metrics->outcomes[i].outcome, kAllOutcomes[i]);
        EXPECT_EQ(metrics->outcomes[i].count, 0);
        EXPECT_EQ(metrics->outcomes[i].rate, 0);
    }
    EXPECT_EQ(metrics->p50Ms, 0);
    EXPECT_EQ(metrics->p95Ms, 0);
    EXPECT_EQ(metrics->p99Ms, 0);
    EXPECT_EQ(metrics->durationHistogram.size(), 10u);
    EXPECT_TRUE(metrics->recent.empty());
}

// ---------------------------------------------------------------------------------------------------------
// Where the store lives

// Sets or unsets environment variables for one test and puts the old values back.
class EnvGuard {
public:
    explicit EnvGuard(std::vector<std::string> names) : m_names(std::move(names))
    {
        for (const auto& name : m_names) {
            const char* value = std::getenv(name.c_str());
            m_saved.push_back(value ? std::optional<std::string>(value) : std::nullopt);
        }
    }
    ~EnvGuard()
    {
        for (std::size_t i = 0; i < m_names.size(); ++i) {
            if (m_saved[i])
                setenv(m_names[i].c_str(), m_saved[i]->c_str(), 1);
            else
                unsetenv(m_names[i].c_str());
        }
    }
    EnvGuard(const EnvGuard&) = delete;
    EnvGuard& operator=(const EnvGuard&) = delete;

    static void set(const char* name, const char* value) { setenv(name, value, 1); }
    static void unset(const char* name) { unsetenv(name); }

private:
    std::vector<std::string> m_names;
    std::vector<std::optional<std::string>> m_saved;
};

TEST(StoreDefaultPath, EnvironmentPrecedence)
{
    EnvGuard guard({"SANDBENCH_STORE", "XDG_DATA_HOME", "HOME"});

    EnvGuard::set("SANDBENCH_STORE", "/srv/explicit.db");
    EnvGuard::set("XDG_DATA_HOME", "/xdg/data");
    EnvGuard::set("HOME", "/home/someone");
    EXPECT_EQ(Store::defaultPath(), fs::path("/srv/explicit.db"));

    EnvGuard::set("SANDBENCH_STORE", ""); // empty counts as unset
    EXPECT_EQ(Store::defaultPath(), fs::path("/xdg/data/sandbench/workbench.db"));

    EnvGuard::unset("SANDBENCH_STORE");
    EXPECT_EQ(Store::defaultPath(), fs::path("/xdg/data/sandbench/workbench.db"));

    EnvGuard::set("XDG_DATA_HOME", "relative/data"); // the XDG spec says: ignore relative paths
    EXPECT_EQ(Store::defaultPath(), fs::path("/home/someone/.local/share/sandbench/workbench.db"));

    EnvGuard::set("XDG_DATA_HOME", "");
    EXPECT_EQ(Store::defaultPath(), fs::path("/home/someone/.local/share/sandbench/workbench.db"));

    EnvGuard::unset("XDG_DATA_HOME");
    EXPECT_EQ(Store::defaultPath(), fs::path("/home/someone/.local/share/sandbench/workbench.db"));

    // Without HOME the account's home folder from the password database is used.
    EnvGuard::unset("HOME");
    const fs::path fallback = Store::defaultPath();
    EXPECT_EQ(fallback.filename(), "workbench.db");
    EXPECT_TRUE(fallback.string().ends_with(".local/share/sandbench/workbench.db")) << fallback;
    EXPECT_TRUE(fallback.is_absolute()) << fallback;
}

TEST(StoreDefaultPath, EnvironmentIsRestored)
{
    // Runs after the test above in the same process: nothing it set may leak.
    const char* store = std::getenv("SANDBENCH_STORE");
    EXPECT_TRUE(store == nullptr || std::string(store) != "/srv/explicit.db");
}

// ---------------------------------------------------------------------------------------------------------
// Opening, schema, migration

TEST_F(StoreTest, AFreshStoreIsTheLatestVersionInWalMode)
{
    const fs::path nested = m_dir.path() / "a" / "b" / "workbench.db";
    auto store = Store::open(StoreLocation{nested, true}); // the default location: its folders are made
    ASSERT_TRUE(store) << store.error().message;
    EXPECT_EQ(store->schemaVersion(), Store::kSchemaVersion);
    EXPECT_EQ(store->path(), nested);

    // Folders made for the store are private; so is the file.
    struct stat info {};
    ASSERT_EQ(stat((m_dir.path() / "a").c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0700u);
    ASSERT_EQ(stat((m_dir.path() / "a" / "b").c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0700u);
    ASSERT_EQ(stat(nested.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0077, 0u);

    RawDb raw(nested);
    EXPECT_EQ(raw.text("PRAGMA journal_mode"), "wal");
    EXPECT_EQ(raw.integer("PRAGMA user_version"), Store::kSchemaVersion);
    EXPECT_EQ(raw.integer("PRAGMA application_id"), Store::kApplicationId);
    EXPECT_EQ(raw.integer("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND sql LIKE '%started_at_ms%'"),
              1);
    EXPECT_EQ(raw.integer("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND sql LIKE '%(outcome)%'"), 1);
    EXPECT_EQ(raw.text("PRAGMA quick_check"), "ok");
}

// A store a person named (--store, $SANDBENCH_STORE) is taken as given: when its folder does not exist (a
// typo), it is refused naming the folder, and nothing is made.
TEST_F(StoreTest, ANamedStoreInAMissingFolderIsRefusedNamingTheFolder)
{
    const fs::path folder = m_dir.path() / "no" / "such";
    for (const auto& location : {Store::locate(folder / "store.db"), StoreLocation{folder / "store.db", false}}) {
        EXPECT_FALSE(location.isDefault);
        auto store = Store::open(location);
        ASSERT_FALSE(store);
        EXPECT_NE(store.error().message.find("the folder " + folder.string() + " does not exist"), std::string::npos)
            << store.error().message;
    }
    auto byPath = Store::open(folder / "store.db");
    ASSERT_FALSE(byPath);
    EXPECT_FALSE(fs::exists(m_dir.path() / "no"));

    // A store file that is missing in a folder that exists is made.
    auto fresh = Store::open(m_dir.path() / "fresh.db");
    ASSERT_TRUE(fresh) << fresh.error().message;
}

TEST(StoreLocate, OnlyTheDefaultLocationIsDefault)
{
    EnvGuard guard({"SANDBENCH_STORE", "XDG_DATA_HOME", "HOME"});
    EnvGuard::set("SANDBENCH_STORE", "/srv/explicit.db");
    EnvGuard::set("XDG_DATA_HOME", "/xdg/data");
    EXPECT_EQ(Store::locate("/given.db").path, fs::path("/given.db"));
    EXPECT_FALSE(Store::locate("/given.db").isDefault);
    EXPECT_EQ(Store::locate().path, fs::path("/srv/explicit.db"));
    EXPECT_FALSE(Store::locate().isDefault);
    EnvGuard::unset("SANDBENCH_STORE");
    EXPECT_EQ(Store::locate().path, fs::path("/xdg/data/sandbench/workbench.db"));
    EXPECT_TRUE(Store::locate().isDefault);
}

TEST_F(StoreTest, ReopenIsIdempotent)
{
    {
        Store store = openStore();
        ASSERT_TRUE(store.recordRun(makeRequest(), makeResult("kept", 1)));
    }
    for (int i = 0; i < 3; ++i) {
        Store store = openStore();
        EXPECT_EQ(store.schemaVersion(), Store::kSchemaVersion);
        auto runs = store.recentRuns(10);
        ASSERT_TRUE(runs) << runs.error().message;
        ASSERT_EQ(runs->size(), 1u);
        EXPECT_EQ((*runs)[0].result.runId, "kept");
    }
    RawDb raw(dbPath());
    EXPECT_EQ(raw.integer("PRAGMA user_version"), Store::kSchemaVersion);
    EXPECT_EQ(raw.integer("SELECT count(*) FROM sqlite_master WHERE name = 'runs'"), 1);
    EXPECT_EQ(raw.integer("SELECT count(*) FROM policies"), 1);
}

TEST_F(StoreTest, MigratesAnEmptyVersionZeroFile)
{
    // A zero-byte file...
    writeBytes(dbPath(), "");
    {
        Store store = openStore();
        EXPECT_EQ(store.schemaVersion(), Store::kSchemaVersion);
        EXPECT_TRUE(store.recordRun(makeRequest(), makeResult("r", 1)));
    }
    // ...and a real but empty SQLite database (header written, no tables, user_version 0).
    const fs::path other = m_dir.path() / "empty.db";
    {
        RawDb raw(other);
        raw.exec("CREATE TABLE scratch(x); DROP TABLE scratch;");
        EXPECT_EQ(raw.integer("PRAGMA user_version"), 0);
    }
    auto store = Store::open(other);
    ASSERT_TRUE(store) << store.error().message;
    EXPECT_EQ(store->schemaVersion(), Store::kSchemaVersion);
    EXPECT_TRUE(store->recordRun(makeRequest(), makeResult("r", 1)));
}

TEST_F(StoreTest, MovedFromStoreFailsCleanly)
{
    Store first = openStore();
    Store second = std::move(first);
    EXPECT_TRUE(second.recordRun(makeRequest(), makeResult("r", 1)));
    // NOLINTBEGIN(bugprone-use-after-move): a moved-from store must report, not crash.
    EXPECT_FALSE(first.recentRuns(5));
    EXPECT_FALSE(first.recordRun(makeRequest(), makeResult("s", 2)));
    EXPECT_FALSE(first.metrics());
    EXPECT_EQ(first.schemaVersion(), -1);
    // NOLINTEND(bugprone-use-after-move)

    Store third = openStore();
    third = std::move(second);
    auto runs = third.recentRuns(5);
    ASSERT_TRUE(runs);
    EXPECT_EQ(runs->size(), 1u);
}

// Each command opens the store, writes once and exits. The WAL must not grow with every such command: a new
// process re-reads all of it at open (a log that kept every command's frames would hold 11 MB after 150).
TEST_F(StoreTest, TheWalStaysShortAcrossManyOneWriteOpens)
{
    for (int i = 0; i < 300; ++i) {
        Store store = openStore();
        RunResult result = makeResult("run-" + std::to_string(i), i);
        result.stdoutText = std::string(3000, 'x'); // about a page of its own per run
        ASSERT_TRUE(store.recordRun(makeRequest(), result));
    }
    const fs::path wal = dbPath().string() + "-wal";
    std::error_code ec;
    const auto walBytes = fs::exists(wal) ? fs::file_size(wal, ec) : 0;
    // 128 pages of 4 KiB (and their frame headers) before a checkpoint empties it, plus one command's frames.
    EXPECT_LT(walBytes, 192u * (4096 + 24)) << "the WAL kept growing: " << walBytes << " bytes";
    RawDb raw(dbPath());
    EXPECT_EQ(raw.integer("SELECT count(*) FROM runs"), 300);
    EXPECT_EQ(raw.text("PRAGMA quick_check"), "ok");
}

// ---------------------------------------------------------------------------------------------------------
// Refusing files that are not ours, never touching them

TEST_F(StoreTest, RefusesATextFile)
{
    const fs::path path = m_dir.path() / "notes.txt";
    writeBytes(path, "These are my notes, not a database.\n");
    expectRefused(path, "not a SQLite database");
}

TEST_F(StoreTest, RefusesRandomBytes)
{
    const fs::path path = m_dir.path() / "random.bin";
    std::mt19937 random(42);
    std::string bytes(64 * 1024, '\0');
    for (auto& byte : bytes)
        byte = static_cast<char>(random() & 0xff);
    writeBytes(path, bytes);
    expectRefused(path, "not a SQLite database");
}

TEST_F(StoreTest, RefusesAForeignSqliteDatabase)
{
    const fs::path path = m_dir.path() / "accounts.db";
    {
        RawDb raw(path);
        raw.exec("CREATE TABLE accounts(id INTEGER PRIMARY KEY, owner TEXT); INSERT INTO accounts VALUES (1, 'x');");
    }
    expectRefused(path, "not a Sandbench store");
}

TEST_F(StoreTest, RefusesAForeignApplicationId)
{
    const fs::path path = m_dir.path() / "other-app.db";
    {
        RawDb raw(path);
        raw.exec("PRAGMA application_id = 1234; CREATE TABLE runs(x);");
    }
    expectRefused(path, "application_id");
}

TEST_F(StoreTest, RefusesAForeignDatabaseInWalMode)
{
    // Closing a WAL database normally checkpoints into it; a refused file must not even get that.
    const fs::path path = m_dir.path() / "wal-app.db";
    {
        RawDb raw(path);
        raw.exec("PRAGMA journal_mode = WAL; CREATE TABLE notes(x); INSERT INTO notes VALUES (1);");
    }
    expectRefused(path, "not a Sandbench store");
}

TEST_F(StoreTest, RefusesANewerSchema)
{
    {
        Store store = openStore();
        ASSERT_TRUE(store.recordRun(makeRequest(), makeResult("r", 1)));
    }
    const std::string ours = std::to_string(Store::kSchemaVersion);
    const std::string next = std::to_string(Store::kSchemaVersion + 1);
    {
        RawDb raw(dbPath());
        raw.exec("PRAGMA user_version = " + next);
    }
    expectRefused(dbPath(),
                  "has schema version " + next + ", newer than this Sandbench (" + ours + "); upgrade Sandbench");

    // Also a file that is nothing but a newer version number.
    const fs::path bare = m_dir.path() / "bare.db";
    {
        RawDb raw(bare);
        raw.exec("PRAGMA user_version = 70");
    }
    expectRefused(bare, "has schema version 70, newer than this Sandbench (" + ours + ")");
}

TEST_F(StoreTest, RefusesTablesWithoutAVersion)
{
    const fs::path path = m_dir.path() / "half.db";
    {
        RawDb raw(path);
        raw.exec("CREATE TABLE runs(x)");
    }
    expectRefused(path, "not a Sandbench store");
}

TEST_F(StoreTest, RefusesAFolder)
{
    const fs::path path = m_dir.path() / "folder.db";
    fs::create_directory(path);
    auto store = Store::open(path);
    ASSERT_FALSE(store);
    EXPECT_NE(store.error().message.find(path.string()), std::string::npos) << store.error().message;
}

TEST_F(StoreTest, ACorruptedStoreIsAnErrorNotACrash)
{
    recordRuns(200, 3000, true);
    // The store keeps its WAL between opens: it is folded into the main file, which is then damaged where
    // only a real check finds it (the header and the schema intact).
    const std::string bytes = damageStore(1.0 / 3, 7);
    ASSERT_FALSE(fs::exists(dbPath().string() + "-wal") && fs::file_size(dbPath().string() + "-wal") > 0);
    ASSERT_GT(bytes.size(), 20u * 4096);

    auto store = Store::open(dbPath());
    ASSERT_FALSE(store) << "a damaged store opened";
    EXPECT_NE(store.error().message.find(dbPath().string()), std::string::npos) << store.error().message;
    EXPECT_NE(store.error().message.find("corrupt"), std::string::npos) << store.error().message;
    EXPECT_EQ(readBytes(dbPath()), bytes);
}

// Above the size that gets quick_check at every open (kQuickCheckMaxBytes), damage deep in a table is found
// when a read reaches it: an error naming the damage, not a crash, and the file is left as it was.
TEST_F(StoreTest, DamageInALargeStoreIsAnErrorWhenRead)
{
    recordRuns(1100, 5000);
    // Where a read of the runs must go: a leaf page of their table (not an overflow page, whose content SQLite
    // cannot check), past the middle of the file.
    RawDb(dbPath()).exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const std::int64_t leaf = RawDb(dbPath()).integer(
        "SELECT min(pageno) FROM dbstat WHERE name = 'runs' AND pagetype = 'leaf' AND "
        "pageno > (SELECT page_count / 2 FROM pragma_page_count)");
    const std::string bytes =
        damageStore(static_cast<double>((leaf - 1) * 4096) / static_cast<double>(fs::file_size(dbPath())), 11);
    ASSERT_GT(bytes.size(), 5u * 1024 * 1024) << "the store is not past the open-time check's size";

    auto store = Store::open(dbPath());
    ASSERT_TRUE(store) << "its schema is intact: " << store.error().message;
    auto runs = store->recentRuns(5000);
    ASSERT_FALSE(runs) << "every run read back from a damaged table";
    const std::string& message = runs.error().message;
    EXPECT_NE(message.find(dbPath().string()), std::string::npos) << message;
    EXPECT_TRUE(message.find("malformed") != std::string::npos || message.find("corrupt") != std::string::npos)
        << message;
    EXPECT_EQ(readBytes(dbPath()), bytes);
}

TEST_F(StoreTest, ATruncatedStoreIsAnErrorNotACrash)
{
    {
        Store store = openStore();
        for (int i = 0; i < 100; ++i) {
            RunResult result = makeResult("run-" + std::to_string(i), i);
            result.stdoutText = std::string(2000, 'y');
            ASSERT_TRUE(store.recordRun(makeRequest(), result));
        }
    }
    // The store keeps its WAL between opens: fold it into the main file, which the test then damages.
    RawDb(dbPath()).exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const std::string bytes = readBytes(dbPath());
    writeBytes(dbPath(), bytes.substr(0, bytes.size() / 2 + 100)); // not even on a page boundary
    auto store = Store::open(dbPath());
    ASSERT_FALSE(store) << "a truncated store opened";
    EXPECT_NE(store.error().message.find(dbPath().string()), std::string::npos) << store.error().message;
}

TEST_F(StoreTest, ADamagedHeaderIsAnErrorNotACrash)
{
    {
        Store store = openStore();
        ASSERT_TRUE(store.recordRun(makeRequest(), makeResult("r", 1)));
    }
    // The store keeps its WAL between opens: fold it into the main file, which the test then damages.
    RawDb(dbPath()).exec("PRAGMA wal_checkpoint(TRUNCATE)");
    std::string bytes = readBytes(dbPath());
    for (std::size_t i = 100; i < 4096 && i < bytes.size(); ++i) // page 1 after the header: the schema
        bytes[i] = static_cast<char>(0xA5);
    writeBytes(dbPath(), bytes);
    auto store = Store::open(dbPath());
    ASSERT_FALSE(store);
    EXPECT_NE(store.error().message.find(dbPath().string()), std::string::npos) << store.error().message;
    EXPECT_EQ(readBytes(dbPath()), bytes);
}

// ---------------------------------------------------------------------------------------------------------
// Two stores on one file (the CLI while the GUI is open; tests)

TEST_F(StoreTest, TwoStoresOnOneFileSeeEachOther)
{
    Store first = openStore();
    Store second = openStore();
    ASSERT_TRUE(first.recordRun(makeRequest(), makeResult("from-first", 1)));
    auto seen = second.findRun("from-first");
    ASSERT_TRUE(seen && seen->has_value());
    ASSERT_TRUE(second.recordRun(makeRequest(), makeResult("from-second", 2)));
    auto runs = first.recentRuns(10);
    ASSERT_TRUE(runs);
    ASSERT_EQ(runs->size(), 2u);
    EXPECT_EQ((*runs)[0].result.runId, "from-second");
}

TEST_F(StoreTest, ConcurrentWritersOnOneFile)
{
    { Store create = openStore(); }
    constexpr int kPerThread = 40;
    std::vector<std::string> errors(3);
    std::vector<std::thread> threads;
    for (int t = 0; t < 3; ++t) {
        threads.emplace_back([this, t, &errors] {
            auto store = Store::open(dbPath());
            if (!store) {
                errors[static_cast<std::size_t>(t)] = store.error().message;
                return;
            }
            for (int i = 0; i < kPerThread; ++i) {
                RunResult result = makeResult(std::to_string(t) + "-" + std::to_string(i), i);
                result.blocked = {{"import", "os"}};
                if (auto id = store->recordRun(makeRequest(), result); !id) {
                    errors[static_cast<std::size_t>(t)] = id.error().message;
                    return;
                }
                if (auto metrics = store->metrics(5); !metrics) {
                    errors[static_cast<std::size_t>(t)] = metrics.error().message;
                    return;
                }
            }
        });
    }
    for (auto& thread : threads)
        thread.join();
    for (const auto& error : errors)
        EXPECT_EQ(error, "");
    Store store = openStore();
    auto metrics = store.metrics();
    ASSERT_TRUE(metrics);
    EXPECT_EQ(metrics->total, 3 * kPerThread);
    RawDb raw(dbPath());
    EXPECT_EQ(raw.integer("SELECT count(*) FROM blocked_events"), 3 * kPerThread);
}

TEST_F(StoreTest, ConcurrentFirstOpensMigrateOnce)
{
    // Several Stores racing to create the same new file: all succeed, the schema is made once.
    std::vector<std::string> errors(4);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([this, t, &errors] {
            auto store = Store::open(dbPath());
            if (!store)
                errors[static_cast<std::size_t>(t)] = store.error().message;
            else if (store->schemaVersion() != Store::kSchemaVersion)
                errors[static_cast<std::size_t>(t)] = "version " + std::to_string(store->schemaVersion());
        });
    }
    for (auto& thread : threads)
        thread.join();
    for (const auto& error : errors)
        EXPECT_EQ(error, "");
}

} // namespace
} // namespace sb
