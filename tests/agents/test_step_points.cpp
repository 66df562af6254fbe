// The dashboard's query of agent steps (agents/step_points.h): every step's time, verdict and tool, counted by
// verdict over a span of time, and the refused tool calls as blocked events; from an empty store, from steps
// as the session store writes them, and from rows a hand edit left with a verdict this version does not know.

#include "agents/step_points.h"
#include "store/store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdlib>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;
using sb::BlockedPoint;
using sb::Store;
using sb::agents::StepPoint;
using sb::agents::Verdict;

class StepPointsTest : public ::testing::Test {
protected:
    StepPointsTest()
    {
        std::string pattern = (fs::temp_directory_path() / "sandbench-steps-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr)
            throw std::runtime_error("mkdtemp failed");
        m_dir = pattern;
        ::setenv("SANDBENCH_AUDIT_KEYS", (m_dir / "keys").c_str(), 1);
    }
    ~StepPointsTest() override
    {
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }

    fs::path dbPath() const { return m_dir / "workbench.db"; }

    Store openStore()
    {
        auto store = Store::open(dbPath());
        if (!store)
            throw std::runtime_error(store.error().message);
        return std::move(*store);
    }

    // SQL on the store's file, below its API.
    void exec(const std::string& sql)
    {
        sqlite3* db = nullptr;
        ASSERT_EQ(sqlite3_open(dbPath().c_str(), &db), SQLITE_OK);
        char* error = nullptr;
        const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
        EXPECT_EQ(rc, SQLITE_OK) << sql << ": " << (error ? error : "?");
        sqlite3_free(error);
        sqlite3_close(db);
    }

    // A session with steps (started at, verdict, tool), as the session store keeps them.
    void addSession(const std::string& id, const std::vector<std::tuple<std::int64_t, std::string, std::string>>& steps)
    {
        std::string sql = "INSERT INTO agent_sessions (session_id, kind, status, started_at_ms) VALUES ('" + id
                          + "', 'agent', 'completed', 0);";
        int idx = 0;
        for (const auto& [at, verdict, tool] : steps)
            sql += "INSERT INTO agent_steps (session_id, idx, tool, arguments, started_at_ms, verdict) SELECT id, "
                   + std::to_string(++idx) + ", '" + tool + "', '{}', " + std::to_string(at) + ", '" + verdict
                   + "' FROM agent_sessions WHERE session_id = '" + id + "';";
        exec(sql);
    }

    fs::path m_dir;
};

TEST_F(StepPointsTest, AnEmptyStoreHasNoSteps)
{
    Store store = openStore();
    auto points = sb::agents::stepPoints(store);
    ASSERT_TRUE(points) << points.error().message;
    EXPECT_TRUE(points->empty());
    const auto counts = sb::agents::countVerdicts(*points, 0, 0);
    EXPECT_EQ(counts.total, 0);
    EXPECT_EQ(counts.unknown, 0);
    EXPECT_TRUE(sb::agents::blockedToolPoints(*points).empty());
}

TEST_F(StepPointsTest, StepsOfEverySessionOldestFirstCountedByVerdict)
{
    { Store store = openStore(); }
    addSession("s1", {{1000, "allowed", "read_file"}, {3000, "blocked", "write_file"}, {4000, "approved", "run"}});
    addSession("s2", {{2000, "denied", "delete"}, {5000, "failed", "read_file"}, {6000, "blocked", "write_file"}});
    Store store = openStore();
    auto points = sb::agents::stepPoints(store);
    ASSERT_TRUE(points) << points.error().message;
    ASSERT_EQ(points->size(), 6u);
    EXPECT_EQ((*points)[0], (StepPoint{1000, Verdict::Allowed, "read_file"}));
    EXPECT_EQ((*points)[1], (StepPoint{2000, Verdict::Denied, "delete"}));
    EXPECT_EQ((*points)[5], (StepPoint{6000, Verdict::Blocked, "write_file"}));

    const auto all = sb::agents::countVerdicts(*points, 0, 0);
    EXPECT_EQ(all.total, 6);
    EXPECT_EQ(all.of(Verdict::Allowed), 1);
    EXPECT_EQ(all.of(Verdict::Blocked), 2);
    EXPECT_EQ(all.of(Verdict::Approved), 1);
    EXPECT_EQ(all.of(Verdict::Denied), 1);
    EXPECT_EQ(all.of(Verdict::Failed), 1);
    // [2000, 5000): the denied, blocked and approved steps.
    const auto span = sb::agents::countVerdicts(*points, 2000, 5000);
    EXPECT_EQ(span.total, 3);
    EXPECT_EQ(span.of(Verdict::Allowed), 0);
    EXPECT_EQ(span.of(Verdict::Blocked), 1);
    EXPECT_EQ(span.of(Verdict::Denied), 1);
    EXPECT_EQ(span.of(Verdict::Approved), 1);

    // Refused calls (blocked by the policy, denied by a person) are blocked events of kind "tool".
    const std::vector<BlockedPoint> tools = {
        {2000, "tool", "delete"}, {3000, "tool", "write_file"}, {6000, "tool", "write_file"}};
    EXPECT_EQ(sb::agents::blockedToolPoints(*points), tools);
    const auto counts = sb::countBlocked(tools, 0, 0, 10);
    ASSERT_EQ(counts.topTargets.size(), 2u);
    EXPECT_EQ(counts.topTargets[0], (sb::TargetCount{"tool", "write_file", 2}));
}

TEST_F(StepPointsTest, AVerdictThisVersionDoesNotKnowIsCountedApart)
{
    { Store store = openStore(); }
    // The table's CHECK refuses it; a hand edit with the checks off does not.
    addSession("s1", {{1000, "allowed", "read_file"}});
    exec("PRAGMA ignore_check_constraints = ON; "
         "INSERT INTO agent_steps (session_id, idx, tool, arguments, started_at_ms, verdict) "
         "SELECT id, 2, '', '{}', 2000, 'teleported' FROM agent_sessions;"
         "INSERT INTO agent_steps (session_id, idx, tool, arguments, started_at_ms, verdict) "
         "SELECT id, 3, X'00', '{}', -5, '' FROM agent_sessions;");
    Store store = openStore();
    auto points = sb::agents::stepPoints(store);
    ASSERT_TRUE(points) << points.error().message;
    ASSERT_EQ(points->size(), 3u);
    EXPECT_EQ((*points)[0].atMs, -5);
    EXPECT_FALSE((*points)[0].verdict.has_value());
    EXPECT_FALSE((*points)[2].verdict.has_value());
    const auto counts = sb::agents::countVerdicts(*points, std::numeric_limits<std::int64_t>::min(), 0);
    EXPECT_EQ(counts.total, 3);
    EXPECT_EQ(counts.unknown, 2);
    EXPECT_EQ(counts.of(Verdict::Allowed), 1);
    EXPECT_TRUE(sb::agents::blockedToolPoints(*points).empty());
}

} // namespace
