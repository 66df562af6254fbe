// The dashboard's queries of the store (store/dashboard_points.h): blocked events by kind and target over a span
// of time, and the promotions the audit log records, from an empty store, from runs and entries as Sandbench
// writes them, and from rows a hand edit left odd (NULLs, unknown kinds, details that are not JSON).

#include "store/audit.h"
#include "store/dashboard_points.h"
#include "store_fixture.h"

#include <string>
#include <vector>

namespace sb::storetest {
namespace {

class DashboardPointsTest : public StoreTest {
protected:
    void recordBlocked(Store& store, const std::string& runId, std::int64_t atMs, std::vector<BlockedEvent> blocked)
    {
        RunResult result = makeResult(runId, atMs, Outcome::Blocked);
        result.blocked = std::move(blocked);
        ASSERT_TRUE(store.recordRun(makeRequest(), result));
    }
};

TEST(BlockedTarget, NamesWhatWasBlocked)
{
    EXPECT_EQ(blockedTarget("import", "numpy"), "numpy");
    EXPECT_EQ(blockedTarget("syscall", "openat(/etc/shadow)"), "openat");
    EXPECT_EQ(blockedTarget("syscall", "ptrace(PTRACE_ATTACH, 1)"), "ptrace");
    EXPECT_EQ(blockedTarget("syscall", "syscall 435"), "syscall 435");
    EXPECT_EQ(blockedTarget("network", "example.com:443 (not on the policy's allowlist)"), "example.com");
    EXPECT_EQ(blockedTarget("network", "[::1]:8080 (not on the policy's allowlist)"), "::1");
    EXPECT_EQ(blockedTarget("network", "socket(AF_INET, SOCK_STREAM)"), "socket(AF_INET, SOCK_STREAM)");
    EXPECT_EQ(blockedTarget("path", "open /etc/shadow (read): outside the policy's readable paths"), "/etc/shadow");
    EXPECT_EQ(blockedTarget("tool", "write_file"), "write_file");
}

TEST(BlockedTarget, OddDetailsStayShortAndPrintable)
{
    EXPECT_EQ(blockedTarget("import", ""), "(none)");
    EXPECT_EQ(blockedTarget("syscall", "   "), "(none)");
    EXPECT_EQ(blockedTarget("network", ":443"), ":443"); // no host before the port: kept as it is
    EXPECT_EQ(blockedTarget("import", "evil\x1b[31mred\n"), "evil?[31mred");
    const std::string longName(500, 'a');
    EXPECT_EQ(blockedTarget("import", longName).size(), kMaxTargetChars);
    // Cut on a character boundary: 119 'a' then 'é' (2 bytes) does not leave half a character.
    const std::string accented = std::string(119, 'a') + "\xc3\xa9" + "tail";
    const std::string cut = blockedTarget("import", accented);
    EXPECT_EQ(cut, std::string(119, 'a'));
}

TEST(CountBlocked, CountsKindsAndTopTargetsInTheSpan)
{
    const std::vector<BlockedPoint> points = {
        {100, "import", "os"},       {200, "import", "os"},       {300, "import", "subprocess"},
        {400, "syscall", "ptrace"},  {500, "network", "evil.com"}, {600, "network", "evil.com"},
        {700, "network", "evil.com"}, {5000, "import", "os"},
    };
    const auto all = countBlocked(points, 0, 0, 10);
    EXPECT_EQ(all.total, 8);
    ASSERT_EQ(all.byKind.size(), 3u);
    EXPECT_EQ(all.byKind[0], (NamedCount{"import", 4}));
    EXPECT_EQ(all.byKind[1], (NamedCount{"network", 3}));
    EXPECT_EQ(all.byKind[2], (NamedCount{"syscall", 1}));
    ASSERT_EQ(all.topTargets.size(), 4u);
    EXPECT_EQ(all.topTargets[0], (TargetCount{"import", "os", 3}));
    EXPECT_EQ(all.topTargets[1], (TargetCount{"network", "evil.com", 3}));
    EXPECT_EQ(all.otherTargets, 0);

    // [200, 5000): the first and the last fall out; two targets kept, the rest counted apart.
    const auto span = countBlocked(points, 200, 5000, 2);
    EXPECT_EQ(span.total, 6);
    ASSERT_EQ(span.topTargets.size(), 2u);
    EXPECT_EQ(span.topTargets[0], (TargetCount{"network", "evil.com", 3}));
    EXPECT_EQ(span.topTargets[1], (TargetCount{"import", "os", 1}));
    EXPECT_EQ(span.otherTargets, 2);

    const auto none = countBlocked(points, 6000, 0, 10);
    EXPECT_EQ(none.total, 0);
    EXPECT_TRUE(none.byKind.empty());
    EXPECT_TRUE(none.topTargets.empty());
    EXPECT_EQ(countBlocked({}, 0, 0, 10).total, 0);
}

TEST_F(DashboardPointsTest, AnEmptyStoreHasNothing)
{
    Store store = openStore();
    auto blocked = blockedPoints(store);
    ASSERT_TRUE(blocked) << blocked.error().message;
    EXPECT_TRUE(blocked->empty());
    auto promotions = recentPromotions(store, 10);
    ASSERT_TRUE(promotions) << promotions.error().message;
    EXPECT_TRUE(promotions->empty());
}

TEST_F(DashboardPointsTest, BlockedPointsAreEveryRunsEventsOldestFirst)
{
    Store store = openStore();
    recordBlocked(store, "late", 3000, {{"network", "evil.com:443 (not on the policy's allowlist)"}});
    recordBlocked(store, "early", 1000, {{"import", "socket"}, {"syscall", "ptrace(PTRACE_TRACEME, 0)"}});
    ASSERT_TRUE(store.recordRun(makeRequest(), makeResult("clean", 2000))); // nothing blocked
    auto points = blockedPoints(store);
    ASSERT_TRUE(points) << points.error().message;
    const std::vector<BlockedPoint> expected = {
        {1000, "import", "socket"}, {1000, "syscall", "ptrace"}, {3000, "network", "evil.com"}};
    EXPECT_EQ(*points, expected);
}

TEST_F(DashboardPointsTest, HandEditedBlockedEventsReadAsUnknown)
{
    {
        Store store = openStore();
        recordBlocked(store, "run", 1000, {{"import", "os"}});
    }
    RawDb raw(dbPath());
    // NOT NULL columns cannot hold NULL, but a hand edit can leave them empty, of another type or unknown.
    raw.exec("INSERT INTO blocked_events (run_id, seq, kind, detail) SELECT id, 2, '', X'00ff' FROM runs");
    raw.exec("INSERT INTO blocked_events (run_id, seq, kind, detail) SELECT id, 3, 'teleport', 42 FROM runs");
    raw.exec("INSERT INTO blocked_events (run_id, seq, kind, detail) SELECT id, 4, 'syscall', '' FROM runs");
    Store store = openStore();
    auto points = blockedPoints(store);
    ASSERT_TRUE(points) << points.error().message;
    ASSERT_EQ(points->size(), 4u);
    EXPECT_EQ((*points)[1].kind, "unknown");
    EXPECT_EQ((*points)[1].target, "?\xff");
    EXPECT_EQ((*points)[2], (BlockedPoint{1000, "teleport", "42"}));
    EXPECT_EQ((*points)[3], (BlockedPoint{1000, "syscall", "(none)"}));
    const auto counts = countBlocked(*points, 0, 0, 10);
    EXPECT_EQ(counts.total, 4);
    EXPECT_EQ(counts.byKind.size(), 4u);
}

TEST_F(DashboardPointsTest, PromotionsNewestFirstWithTheirApproval)
{
    Store store = openStore();
    AuditEntry first(audit_op::kPromote, "main",
                     {{"source", "feature"}, {"target", "main"}, {"risk", "low"}, {"approval", nullptr},
                      {"impact", {{"files", 2}}}, {"checkpoint", "c1"}, {"recovered", false}});
    first.atMs = 1000;
    first.actor = "alice";
    ASSERT_TRUE(appendAudit(store, first));
    AuditEntry other(audit_op::kApprove, "main", {{"by", "bob"}});
    ASSERT_TRUE(appendAudit(store, other));
    AuditEntry second(audit_op::kPromote, "main",
                      {{"source", "risky"}, {"target", "main"}, {"risk", "high"},
                       {"approval", {{"by", "bob"}, {"note", "reviewed"}}}, {"impact", {{"files", 7}}},
                       {"checkpoint", "c2"}, {"recovered", true}});
    second.atMs = 2000;
    ASSERT_TRUE(appendAudit(store, second));

    auto promotions = recentPromotions(store, 10);
    ASSERT_TRUE(promotions) << promotions.error().message;
    ASSERT_EQ(promotions->size(), 2u);
    const PromotionRecord& newest = (*promotions)[0];
    EXPECT_EQ(newest.atMs, 2000);
    EXPECT_EQ(newest.source, "risky");
    EXPECT_EQ(newest.target, "main");
    EXPECT_EQ(newest.risk, "high");
    EXPECT_EQ(newest.approvedBy, "bob");
    EXPECT_EQ(newest.approvalNote, "reviewed");
    EXPECT_EQ(newest.files, 7);
    EXPECT_EQ(newest.checkpoint, "c2");
    EXPECT_TRUE(newest.recovered);
    const PromotionRecord& oldest = (*promotions)[1];
    EXPECT_EQ(oldest.actor, "alice");
    EXPECT_EQ(oldest.source, "feature");
    EXPECT_EQ(oldest.risk, "low");
    EXPECT_TRUE(oldest.approvedBy.empty());
    EXPECT_EQ(oldest.files, 2);
    EXPECT_FALSE(oldest.recovered);

    // A promotion logged later but dated earlier (a recovered one) comes after the newer one.
    AuditEntry backdated(audit_op::kPromote, "main", {{"source", "old"}});
    backdated.atMs = 1500;
    ASSERT_TRUE(appendAudit(store, backdated));
    auto three = recentPromotions(store, 10);
    ASSERT_TRUE(three);
    ASSERT_EQ(three->size(), 3u);
    EXPECT_EQ((*three)[0].source, "risky");
    EXPECT_EQ((*three)[1].source, "old");
    EXPECT_EQ((*three)[2].source, "feature");

    auto one = recentPromotions(store, 1);
    ASSERT_TRUE(one);
    ASSERT_EQ(one->size(), 1u);
    EXPECT_EQ(one->front().source, "risky");
}

TEST_F(DashboardPointsTest, HandEditedPromotionsReadWhatTheyCan)
{
    {
        Store store = openStore();
        ASSERT_TRUE(appendAudit(store, AuditEntry(audit_op::kPromote, "main", {{"source", "s"}})));
    }
    RawDb raw(dbPath());
    // The audit log has no constraints (store/audit.h): NULLs, details that are not JSON, fields of other types.
    raw.exec("INSERT INTO audit_log (seq, at_ms, actor, operation, subject, details) "
             "VALUES (100, NULL, NULL, 'promote', NULL, NULL)");
    raw.exec("INSERT INTO audit_log (seq, at_ms, actor, operation, subject, details) "
             "VALUES (101, 'noon', 7, 'promote', 'staging', 'not json {')");
    raw.exec("INSERT INTO audit_log (seq, at_ms, actor, operation, subject, details) VALUES (102, 5, 'x', 'promote', "
             "'main', '{\"source\": 3, \"risk\": [\"high\"], \"approval\": \"bob\", \"impact\": {\"files\": -9}}')");
    Store store = openStore();
    auto promotions = recentPromotions(store, 10);
    ASSERT_TRUE(promotions) << promotions.error().message;
    ASSERT_EQ(promotions->size(), 4u);
    // Newest first: the entry Sandbench wrote (now), then 102 (at 5), then 101 and 100 (no time: 0) by seq.
    EXPECT_EQ((*promotions)[0].source, "s");
    const PromotionRecord& odd = (*promotions)[1];
    EXPECT_EQ(odd.seq, 102);
    EXPECT_EQ(odd.atMs, 5);
    EXPECT_TRUE(odd.source.empty());
    EXPECT_TRUE(odd.risk.empty());
    EXPECT_TRUE(odd.approvedBy.empty());
    EXPECT_EQ(odd.files, -1);
    EXPECT_EQ(odd.target, "main");
    const PromotionRecord& notJson = (*promotions)[2];
    EXPECT_EQ(notJson.seq, 101);
    EXPECT_EQ(notJson.target, "staging");
    EXPECT_EQ(notJson.actor, "7");
    EXPECT_TRUE(notJson.source.empty());
    const PromotionRecord& nulls = (*promotions)[3];
    EXPECT_EQ(nulls.seq, 100);
    EXPECT_EQ(nulls.atMs, 0);
    EXPECT_TRUE(nulls.target.empty());
}

} // namespace
} // namespace sb::storetest
