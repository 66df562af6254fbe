// The audit log: appends chain, filters find, and every way a person with the file can tamper with it is named
// by verify (what the store's key adds: test_audit_key.cpp).

#include "store_fixture.h"

#include "store/audit.h"
#include "store/sqlite_db.h"
#include "store/store.h"
#include "util/hash.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <vector>

namespace sb {
namespace {

using namespace storetest;
using namespace std::string_literals;

class AuditTest : public StoreTest {
protected:
    // Appends `count` entries with distinct subjects s1, s2, … at times 1000, 2000, …
    void appendSome(Store& store, int count, std::string_view operation = "sandbox.create")
    {
        for (int i = 1; i <= count; ++i) {
            AuditEntry entry(operation, "s" + std::to_string(i), {{"n", i}});
            entry.actor = i % 2 ? "alice" : "bob";
            entry.atMs = 1000 * static_cast<std::int64_t>(i);
            auto appended = appendAudit(store, entry);
            ASSERT_TRUE(appended) << appended.error().message;
        }
    }

    AuditVerification verify(const Store& store, const AuditVerifyOptions& options = {})
    {
        auto verification = verifyAudit(store, options);
        if (!verification) {
            ADD_FAILURE() << verification.error().message;
            return {};
        }
        return *verification;
    }

    // Opens the store anew (as `sandbench audit verify` would after the edit) and expects a break.
    void expectBroken(AuditDamage damage, std::int64_t seq, const std::string& fragment = "")
    {
        Store store = openStore();
        const AuditVerification result = verify(store);
        ASSERT_TRUE(result.broken.has_value()) << "the tampering went unnoticed";
        EXPECT_EQ(result.broken->damage, damage) << result.broken->message;
        EXPECT_EQ(result.broken->seq, seq) << result.broken->message;
        EXPECT_FALSE(result.intact());
        if (seq > 0) {
            EXPECT_NE(result.broken->message.find("entr"), std::string::npos) << result.broken->message;
        }
        if (!fragment.empty()) {
            EXPECT_NE(result.broken->message.find(fragment), std::string::npos) << result.broken->message;
        }
    }

    // Rewrites entry `seq`'s hash (and the next entry's link, and the head when it is the last) as someone who
    // knows the scheme would, after editing its content.
    void rehash(std::int64_t seq, bool relinkNext)
    {
        Store store = openStore();
        auto all = listAudit(store);
        ASSERT_TRUE(all);
        for (const auto& record : *all) {
            if (record.seq != seq)
                continue;
            const std::string hash = auditHash(record).value();
            RawDb raw(dbPath());
            raw.exec("UPDATE audit_log SET hash = '" + hash + "' WHERE seq = " + std::to_string(seq));
            if (relinkNext)
                raw.exec("UPDATE audit_log SET prev_hash = '" + hash + "' WHERE seq = " + std::to_string(seq + 1));
            return;
        }
        FAIL() << "no entry " << seq;
    }
};

TEST_F(AuditTest, AFreshStoreHasAnEmptyIntactLog)
{
    Store store = openStore();
    const auto result = verify(store);
    EXPECT_TRUE(result.intact());
    EXPECT_EQ(result.entries, 0);
    EXPECT_EQ(result.headSeq, 0);
    EXPECT_EQ(result.headHash, kAuditGenesisHash);
    EXPECT_TRUE(listAudit(store).value().empty());
}

TEST_F(AuditTest, AppendsChainAndHashTheCanonicalEncoding)
{
    Store store = openStore();
    AuditEntry first(audit_op::kSandboxCreate, "experiment", {{"zeta", 1}, {"alpha", "x"}});
    first.atMs = 1'700'000'000'123;
    auto a = appendAudit(store, first);
    ASSERT_TRUE(a) << a.error().message;
    EXPECT_EQ(a->seq, 1);
    EXPECT_EQ(a->prevHash, kAuditGenesisHash);
    EXPECT_EQ(a->actor, currentAuditActor());           // the OS user by default
    EXPECT_EQ(a->details, R"({"alpha":"x","zeta":1})"); // keys sorted: equal details are equal text
    EXPECT_EQ(a->hash, auditHash(*a).value());
    EXPECT_EQ(auditHashInput(*a), "sandbench-audit-v1\n1\n1700000000123\n" + std::to_string(a->actor.size()) + ":"
                                      + a->actor
                                      + "\n14:sandbox.create\n10:experiment\n22:{\"alpha\":\"x\",\"zeta\":1}\n"
                                      + std::string(kAuditGenesisHash) + "\n");

    AuditEntry second(audit_op::kApprove, "experiment", nullptr);
    second.actor = "reviewer";
    auto b = appendAudit(store, second);
    ASSERT_TRUE(b) << b.error().message;
    EXPECT_EQ(b->seq, 2);
    EXPECT_EQ(b->prevHash, a->hash);
    EXPECT_EQ(b->actor, "reviewer");
    EXPECT_EQ(b->details, "{}");
    EXPECT_GT(b->atMs, 1'700'000'000'123); // now

    auto listed = listAudit(store).value();
    ASSERT_EQ(listed.size(), 2u);
    EXPECT_EQ(listed[0].hash, a->hash);
    EXPECT_EQ(listed[1].hash, b->hash);
    EXPECT_TRUE(listed[0].problem.empty());

    const auto result = verify(store);
    EXPECT_TRUE(result.intact());
    EXPECT_EQ(result.entries, 2);
    EXPECT_EQ(result.headSeq, 2);
    EXPECT_EQ(result.headHash, b->hash);
}

TEST_F(AuditTest, RefusesBadOperationsAndDetails)
{
    Store store = openStore();
    for (const std::string& operation : {""s, "Run"s, "sandbox create"s, ".run"s, "1run"s, std::string(65, 'a'),
                                         "run\n"s, "r\0n"s, "sandbox.créer"s}) {
        auto appended = appendAudit(store, AuditEntry(operation, "x"));
        ASSERT_FALSE(appended) << operation;
        EXPECT_NE(appended.error().message.find("operation name"), std::string::npos) << appended.error().message;
    }
    for (const nlohmann::json& details : {nlohmann::json::array({1, 2}), nlohmann::json("text"), nlohmann::json(3)}) {
        auto appended = appendAudit(store, AuditEntry("run", "x", details));
        ASSERT_FALSE(appended);
        EXPECT_NE(appended.error().message.find("JSON object"), std::string::npos) << appended.error().message;
    }
    EXPECT_TRUE(appendAudit(store, AuditEntry(std::string(64, 'a'), "x")));
    // Odd bytes in subject and actor are kept byte for byte; in details they are replaced, never thrown.
    AuditEntry odd("run", "sub\0ject\xff"s, {{"bad", "\xff\xfe"}});
    odd.actor = "act\xc3\x28or";
    auto appended = appendAudit(store, odd);
    ASSERT_TRUE(appended) << appended.error().message;
    auto listed = listAudit(store).value();
    ASSERT_EQ(listed.size(), 2u);
    EXPECT_EQ(listed[1].subject, "sub\0ject\xff"s);
    EXPECT_EQ(listed[1].actor, "act\xc3\x28or");
    EXPECT_TRUE(verify(store).intact());
    // The rejected appends left nothing behind.
    EXPECT_EQ(verify(store).entries, 2);
}

TEST_F(AuditTest, RunsAndNewPolicyVersionsAreRecordedWithThem)
{
    Store store = openStore();
    RunRequest request = makeRequest("print('audited')\n");
    request.policy.name = "mine";
    PolicyVersion version;
    ASSERT_TRUE(store.recordRun(request, makeResult("run-1", 100), &version));
    ASSERT_TRUE(store.recordRun(request, makeResult("run-2", 200))); // same policy: no new version
    request.policy.limits.wallMs = 1234;
    ASSERT_TRUE(store.recordRun(request, makeResult("run-3", 300, Outcome::Timeout))); // a new version

    auto listed = listAudit(store).value();
    ASSERT_EQ(listed.size(), 5u);
    EXPECT_EQ(listed[0].operation, "policy.version");
    EXPECT_EQ(listed[0].subject, "mine@1");
    EXPECT_EQ(listed[1].operation, "run");
    EXPECT_EQ(listed[1].subject, "run-1");
    EXPECT_EQ(listed[2].subject, "run-2");
    EXPECT_EQ(listed[3].subject, "mine@2");
    EXPECT_EQ(listed[4].subject, "run-3");
    for (const auto& record : listed)
        EXPECT_EQ(record.actor, currentAuditActor());

    const auto policyDetails = nlohmann::json::parse(listed[0].details);
    EXPECT_EQ(policyDetails["name"], "mine");
    EXPECT_EQ(policyDetails["version"], 1);
    EXPECT_EQ(policyDetails["sha256"], version.sha256);
    const auto runDetails = nlohmann::json::parse(listed[4].details);
    EXPECT_EQ(runDetails["outcome"], "timeout");
    EXPECT_EQ(runDetails["policy"], "mine@2");
    EXPECT_EQ(runDetails["source_sha256"], sha256Hex(request.source).value());

    // recordPolicy: an entry for a new version only.
    Policy other;
    other.name = "other";
    ASSERT_TRUE(store.recordPolicy(other));
    ASSERT_TRUE(store.recordPolicy(other));
    auto policies = listAudit(store, AuditFilter{.operation = "policy.version"}).value();
    ASSERT_EQ(policies.size(), 3u);
    EXPECT_EQ(policies[2].subject, "other@1");
    EXPECT_TRUE(verify(store).intact());
}

TEST_F(AuditTest, AFailedRecordLeavesNoEntry)
{
    Store store = openStore();
    ASSERT_TRUE(store.recordRun(makeRequest(), makeResult("same", 1)));
    EXPECT_FALSE(store.recordRun(makeRequest(), makeResult("same", 2))); // run_id is unique
    EXPECT_EQ(listAudit(store, AuditFilter{.operation = "run"}).value().size(), 1u);
    EXPECT_TRUE(verify(store).intact());
}

TEST_F(AuditTest, AnEntryCommitsAndRollsBackWithTheCallersTransaction)
{
    Store store = openStore();
    appendSome(store, 1);
    auto db = sqlite::connectionOf(store);
    ASSERT_TRUE(db);
    {
        sqlite::Transaction transaction(*db);
        ASSERT_TRUE(transaction.begin());
        ASSERT_TRUE(db->exec("INSERT INTO policies (name, version, sha256, yaml) VALUES ('t', 1, '"
                                 + std::string(64, 'e') + "', '')",
                             "insert"));
        ASSERT_TRUE(appendAudit(*db, AuditEntry("sandbox.create", "rolled-back")));
        // No commit: the caller's change and its entry go together.
    }
    EXPECT_EQ(listAudit(store).value().size(), 1u);
    EXPECT_TRUE(verify(store).intact());
    {
        sqlite::Transaction transaction(*db);
        ASSERT_TRUE(transaction.begin());
        ASSERT_TRUE(appendAudit(*db, AuditEntry("sandbox.create", "kept")));
        auto bad = appendAudit(*db, AuditEntry("Not Valid", "refused"));
        EXPECT_FALSE(bad);
        ASSERT_TRUE(appendAudit(*db, AuditEntry("sandbox.destroy", "kept")));
        ASSERT_TRUE(transaction.commit());
    }
    auto listed = listAudit(store).value();
    ASSERT_EQ(listed.size(), 3u);
    EXPECT_EQ(listed[1].seq, 2);
    EXPECT_EQ(listed[2].operation, "sandbox.destroy");
    EXPECT_TRUE(verify(store).intact());
}

TEST_F(AuditTest, AFailedAppendIsUndoneAloneInsideTheCallersTransaction)
{
    Store store = openStore();
    appendSome(store, 1);
    // The head moves after the insert: make the move fail, as a full disk or a broken file would.
    RawDb(dbPath()).exec("CREATE TRIGGER refuse BEFORE UPDATE ON log_heads BEGIN SELECT RAISE(ABORT, 'no'); END");
    auto db = sqlite::connectionOf(store).value();
    {
        sqlite::Transaction transaction(db);
        ASSERT_TRUE(transaction.begin());
        ASSERT_TRUE(db.exec("INSERT INTO policies (name, version, sha256, yaml) VALUES ('kept', 1, '"
                                + std::string(64, 'f') + "', '')",
                            "insert"));
        EXPECT_FALSE(appendAudit(db, AuditEntry("run", "half")));
        // The caller may go on: its own change is still there, the half-appended entry is not.
        ASSERT_TRUE(transaction.commit());
    }
    RawDb raw(dbPath());
    EXPECT_EQ(raw.integer("SELECT count(*) FROM policies WHERE name = 'kept'"), 1);
    EXPECT_EQ(raw.integer("SELECT count(*) FROM audit_log"), 1);
    // On its own, the failed append leaves nothing either.
    EXPECT_FALSE(appendAudit(store, AuditEntry("run", "alone")));
    EXPECT_EQ(raw.integer("SELECT count(*) FROM audit_log"), 1);
    raw.exec("DROP TRIGGER refuse");
    EXPECT_TRUE(verify(store).intact());
    EXPECT_TRUE(appendAudit(store, AuditEntry("run", "after")));
    EXPECT_EQ(verify(store).entries, 2);
}

TEST_F(AuditTest, FiltersFindExactlyWhatTheySay)
{
    Store store = openStore();
    appendSome(store, 6); // s1..s6 at 1000..6000, alice on odd, bob on even
    appendSome(store, 2, "sandbox.destroy");
    AuditEntry other("sandboxes.other", "x%y", {{"note", "Needle in the DETAILS"}});
    other.atMs = 9000;
    ASSERT_TRUE(appendAudit(store, other));

    auto subjects = [&](const AuditFilter& filter) {
        std::vector<std::string> out;
        const auto records = listAudit(store, filter).value();
        for (const auto& record : records)
            out.push_back(record.subject);
        return out;
    };
    using V = std::vector<std::string>;
    EXPECT_EQ(subjects({.operation = "sandbox.destroy"}), (V{"s1", "s2"}));
    EXPECT_EQ(subjects({.operation = "sandbox"}).size(), 8u); // a family: not "sandboxes.other"
    EXPECT_EQ(subjects({.operation = "sandboxes"}), (V{"x%y"}));
    EXPECT_EQ(subjects({.operation = "sand"}).size(), 0u);
    EXPECT_EQ(subjects({.actor = "bob", .subject = "s2"}).size(), 2u);
    EXPECT_EQ(subjects({.operation = "sandbox.create", .actor = "alice"}), (V{"s1", "s3", "s5"}));
    EXPECT_EQ(subjects({.sinceMs = 5000, .untilMs = 6000}), (V{"s5", "s6"}));
    EXPECT_EQ(subjects({.text = "needle in the details"}), (V{"x%y"}));
    EXPECT_EQ(subjects({.text = "%"}), (V{"x%y"}));      // a wildcard of LIKE means itself
    EXPECT_TRUE(subjects({.text = "s_"}).empty());       // nor does '_' match any one character
    EXPECT_EQ(subjects({.limit = 2}), (V{"s2", "x%y"})); // the most recent, in log order
    EXPECT_EQ(subjects({.operation = "sandbox.create", .limit = 1}), (V{"s6"}));
    for (const std::string& hostile : {"' OR 1=1 --"s, "\0"s, "\xff\xfe"s, "s1' --"s, std::string(10000, 'a')}) {
        EXPECT_TRUE(subjects({.operation = hostile}).empty()) << hostile;
        EXPECT_TRUE(subjects({.actor = hostile}).empty()) << hostile;
        EXPECT_TRUE(subjects({.subject = hostile}).empty()) << hostile;
        EXPECT_TRUE(subjects({.text = hostile}).empty()) << hostile;
    }

    auto facets = auditFacets(store).value();
    EXPECT_EQ(facets.operations, (V{"sandbox.create", "sandbox.destroy", "sandboxes.other"}));
    V actors{"alice", "bob", currentAuditActor()};
    std::sort(actors.begin(), actors.end());
    EXPECT_EQ(facets.actors, actors);
}

// ---------------------------------------------------------------------------------------------------------
// Tampering, as a person with the file and the sqlite3 C API would do it.

TEST_F(AuditTest, AnEditedFieldNamesItsEntry)
{
    for (const std::string& edit : {"actor = 'mallory'"s, "operation = 'sandbox.destroy'"s, "subject = 's9'"s,
                                    "details = '{\"n\":33}'"s, "at_ms = at_ms + 1"s, "prev_hash = hash"s}) {
        SCOPED_TRACE(edit);
        fs::remove(dbPath());
        {
            Store store = openStore();
            appendSome(store, 5);
            EXPECT_TRUE(verify(store).intact());
        }
        RawDb(dbPath()).exec("UPDATE audit_log SET " + edit + " WHERE seq = 3");
        expectBroken(AuditDamage::Altered, 3, "entry 3");
    }
}

TEST_F(AuditTest, ARemovedEntryIsNamed)
{
    {
        Store store = openStore();
        appendSome(store, 6);
    }
    RawDb(dbPath()).exec("DELETE FROM audit_log WHERE seq = 3");
    expectBroken(AuditDamage::Removed, 3, "entry 3 was removed");
    RawDb(dbPath()).exec("DELETE FROM audit_log WHERE seq = 4");
    expectBroken(AuditDamage::Removed, 3, "entries 3–4 were removed");
    RawDb(dbPath()).exec("DELETE FROM audit_log WHERE seq = 1");
    expectBroken(AuditDamage::Removed, 1, "entry 1 was removed");
}

TEST_F(AuditTest, RemovingTheTailIsCaughtByTheHead)
{
    {
        Store store = openStore();
        appendSome(store, 5);
    }
    RawDb(dbPath()).exec("DELETE FROM audit_log WHERE seq >= 4");
    expectBroken(AuditDamage::Truncated, 4, "entries 4–5 were removed from the end");
    {
        // Further appends continue from the head, so the gap stays visible.
        Store store = openStore();
        ASSERT_TRUE(appendAudit(store, AuditEntry("run", "after")));
        EXPECT_EQ(listAudit(store).value().back().seq, 6);
    }
    expectBroken(AuditDamage::Removed, 4, "entries 4–5 were removed");
    RawDb(dbPath()).exec("DELETE FROM audit_log");
    expectBroken(AuditDamage::Truncated, 1, "the log is empty");
}

TEST_F(AuditTest, ReorderedInsertedAndRelinkedEntriesAreNamed)
{
    {
        Store store = openStore();
        appendSome(store, 5);
    }
    // Swap the contents of entries 2 and 3, hashes and all.
    {
        RawDb raw(dbPath());
        raw.exec("UPDATE audit_log SET seq = 100 WHERE seq = 2");
        raw.exec("UPDATE audit_log SET seq = 2 WHERE seq = 3");
        raw.exec("UPDATE audit_log SET seq = 3 WHERE seq = 100");
    }
    expectBroken(AuditDamage::Altered, 2, "entry 2");
    {
        RawDb raw(dbPath());
        raw.exec("UPDATE audit_log SET seq = 100 WHERE seq = 2");
        raw.exec("UPDATE audit_log SET seq = 2 WHERE seq = 3");
        raw.exec("UPDATE audit_log SET seq = 3 WHERE seq = 100");
    }
    {
        Store store = openStore();
        EXPECT_TRUE(verify(store).intact()) << "swapped back";
    }
    // An entry placed before the first one.
    RawDb(dbPath()).exec("INSERT INTO audit_log SELECT 0, at_ms, actor, operation, subject, details, prev_hash, hash, "
                         "mac FROM audit_log WHERE seq = 1");
    expectBroken(AuditDamage::Inserted, 0, "entry 0");
    RawDb(dbPath()).exec("DELETE FROM audit_log WHERE seq = 0");

    // Entry 3 edited and its hash recomputed: entry 4 still points at the original.
    RawDb(dbPath()).exec("UPDATE audit_log SET actor = 'mallory' WHERE seq = 3");
    rehash(3, false);
    expectBroken(AuditDamage::Altered, 3, "entry 4 was chained to a different entry 3");
}

TEST_F(AuditTest, HandAppendedAndRewrittenLastEntriesAreCaughtByTheHead)
{
    {
        Store store = openStore();
        appendSome(store, 3);
    }
    // An entry appended by hand with a correct hash and link.
    {
        Store store = openStore();
        const AuditRecord last = listAudit(store).value().back();
        AuditRecord forged = last;
        forged.seq = 4;
        forged.subject = "forged";
        forged.prevHash = last.hash;
        forged.hash = auditHash(forged).value();
        RawDb(dbPath()).exec("INSERT INTO audit_log VALUES (4, " + std::to_string(forged.atMs) + ", '" + forged.actor
                             + "', '" + forged.operation + "', 'forged', '" + forged.details + "', '" + forged.prevHash
                             + "', '" + forged.hash + "', NULL)");
    }
    expectBroken(AuditDamage::Unrecorded, 4, "entry 4 was added outside Sandbench");
    {
        Store store = openStore();
        auto refused = appendAudit(store, AuditEntry("run", "next"));
        ASSERT_FALSE(refused);
        EXPECT_NE(refused.error().message.find("audit verify"), std::string::npos) << refused.error().message;
        EXPECT_FALSE(store.recordRun(makeRequest(), makeResult("not-recorded", 1)))
            << "a run is not recorded without its audit entry";
        EXPECT_FALSE(store.findRun("not-recorded").value().has_value());
    }
    RawDb(dbPath()).exec("DELETE FROM audit_log WHERE seq = 4");

    // The last entry rewritten, hash recomputed: the head still has the old hash.
    RawDb(dbPath()).exec("UPDATE audit_log SET subject = 'other' WHERE seq = 3");
    rehash(3, false);
    expectBroken(AuditDamage::Altered, 3, "head records a different hash");
}

TEST_F(AuditTest, AMissingHeadIsReportedAndStopsAppends)
{
    {
        Store store = openStore();
        appendSome(store, 2);
    }
    RawDb(dbPath()).exec("DELETE FROM log_heads");
    expectBroken(AuditDamage::HeadMissing, 3, "head record is missing");
    Store store = openStore();
    EXPECT_FALSE(appendAudit(store, AuditEntry("run", "x")));
    RawDb(dbPath()).exec("INSERT INTO log_heads VALUES ('audit', 'two', NULL, NULL, NULL)");
    EXPECT_FALSE(appendAudit(store, AuditEntry("run", "x")));
    expectBroken(AuditDamage::HeadMissing, 3);
}

TEST_F(AuditTest, WrongTypesNullsAndGarbageHashesAreNamedNotCrashed)
{
    struct Case {
        std::string edit;
        std::string fragment;
    };
    const std::vector<Case> cases = {
        {"at_ms = 'yesterday'", "at_ms is text ('yesterday')"},
        {"at_ms = NULL", "at_ms is NULL"},
        {"at_ms = 1.5", "at_ms is a real number"},
        {"actor = NULL", "actor is NULL"},
        {"details = NULL", "details is NULL"},
        {"hash = NULL", "hash is NULL"},
        {"hash = 'zz'", "hash 'zz' is not a SHA-256"},
        {"hash = upper(hash)", "is not a SHA-256"},
        {"hash = x'00ff'", "is not a SHA-256"},
        {"prev_hash = char(27) || '[31mred'", "prev_hash '\\x1b[31mred' is not a SHA-256"},
        {"prev_hash = 7", "is not a SHA-256"},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.edit);
        fs::remove(dbPath());
        {
            Store store = openStore();
            appendSome(store, 4);
        }
        RawDb(dbPath()).exec("UPDATE audit_log SET " + c.edit + " WHERE seq = 2");
        expectBroken(AuditDamage::Malformed, 2, "entry 2: ");
        expectBroken(AuditDamage::Malformed, 2, c.fragment);
        // Listing still shows the row, with what is wrong.
        Store store = openStore();
        auto listed = listAudit(store);
        ASSERT_TRUE(listed) << listed.error().message;
        ASSERT_EQ(listed->size(), 4u);
        EXPECT_NE((*listed)[1].problem.find(c.fragment), std::string::npos) << (*listed)[1].problem;
        EXPECT_TRUE((*listed)[0].problem.empty());
    }
}

// A rewrite of the whole chain from entry 2 on, every hash, link and the head recomputed, is consistent as far
// as the file alone goes: the store's key (test_audit_key.cpp) shows it, and so does an anchor kept elsewhere.
TEST_F(AuditTest, AWholeRewriteIsCaughtByTheKeyWithOrWithoutAnAnchor)
{
    std::string anchor;
    {
        Store store = openStore();
        appendSome(store, 4);
        anchor = verify(store).headHash;
        AuditVerifyOptions options;
        options.anchor = anchor;
        EXPECT_TRUE(verify(store, options).intact());
    }
    RawDb(dbPath()).exec("UPDATE audit_log SET actor = 'mallory' WHERE seq = 2");
    for (int seq = 2; seq <= 4; ++seq)
        rehash(seq, true);
    {
        Store store = openStore();
        const std::string newHead = listAudit(store).value().back().hash;
        RawDb(dbPath()).exec("UPDATE log_heads SET hash = '" + newHead + "'");
    }
    expectBroken(AuditDamage::Forged, 2, "entry 2 has a signature not made by the store's key");
    Store store = openStore();
    AuditVerifyOptions options;
    options.anchor = anchor;
    const auto anchored = verify(store, options);
    ASSERT_TRUE(anchored.broken);
    EXPECT_EQ(anchored.broken->damage, AuditDamage::Forged);

    options.anchor = "not-a-hash";
    EXPECT_FALSE(verifyAudit(store, options));
}

// The proof the issue asks for: edit a row with the sqlite3 shell, then verify names it.
TEST_F(AuditTest, AnEditWithTheSqlite3ShellIsNamed)
{
    const std::string shell = SANDBENCH_SQLITE3_SHELL;
    if (shell.empty() || !fs::exists(shell))
        GTEST_SKIP() << "no sqlite3 shell on this machine (apt-get install sqlite3)";
    {
        Store store = openStore();
        ASSERT_TRUE(store.recordRun(makeRequest(), makeResult("r1", 1)));
        ASSERT_TRUE(store.recordRun(makeRequest(), makeResult("r2", 2)));
        ASSERT_TRUE(store.recordRun(makeRequest(), makeResult("r3", 3)));
    }
    const std::string command = shell + " '" + dbPath().string()
                                + "' \"UPDATE audit_log SET details = replace(details, 'ok', 'error') "
                                  "WHERE subject = 'r2'\"";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    Store store = openStore();
    const auto r2 = listAudit(store, AuditFilter{.subject = "r2"}).value();
    ASSERT_EQ(r2.size(), 1u);
    expectBroken(AuditDamage::Altered, r2[0].seq, "entry " + std::to_string(r2[0].seq) + " was altered");
}

TEST_F(AuditTest, VerifyReportsProgressAndCanBeCancelled)
{
    Store store = openStore();
    {
        auto db = sqlite::connectionOf(store).value();
        sqlite::Transaction transaction(db);
        ASSERT_TRUE(transaction.begin());
        for (int i = 0; i < 3000; ++i)
            ASSERT_TRUE(appendAudit(db, AuditEntry("run", "r" + std::to_string(i))));
        ASSERT_TRUE(transaction.commit());
    }
    std::vector<std::pair<std::int64_t, std::int64_t>> steps;
    AuditVerifyOptions options;
    options.progress = [&](std::int64_t done, std::int64_t total) { steps.emplace_back(done, total); };
    const auto result = verify(store, options);
    EXPECT_TRUE(result.intact());
    EXPECT_EQ(result.entries, 3000);
    ASSERT_GE(steps.size(), 3u);
    EXPECT_EQ(steps.back(), std::make_pair(std::int64_t{3000}, std::int64_t{3000}));
    for (std::size_t i = 1; i < steps.size(); ++i)
        EXPECT_GE(steps[i].first, steps[i - 1].first);

    std::atomic<bool> cancel{false};
    AuditVerifyOptions cancelling;
    cancelling.cancel = &cancel;
    cancelling.progress = [&](std::int64_t done, std::int64_t) {
        if (done >= 1024)
            cancel = true;
    };
    const auto stopped = verify(store, cancelling);
    EXPECT_TRUE(stopped.cancelled);
    EXPECT_FALSE(stopped.intact());
    EXPECT_FALSE(stopped.broken);
    EXPECT_LT(stopped.entries, 3000);
}

TEST_F(AuditTest, ConcurrentWritersKeepOneChain)
{
    {
        Store store = openStore();
    }
    constexpr int kThreads = 4;
    constexpr int kEach = 25;
    std::vector<std::thread> threads;
    std::atomic<int> failures{0};
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            auto store = Store::open(dbPath());
            if (!store) {
                ++failures;
                return;
            }
            for (int i = 0; i < kEach; ++i) {
                if (!appendAudit(*store, AuditEntry("run", std::to_string(t) + "-" + std::to_string(i))))
                    ++failures;
            }
        });
    }
    for (auto& thread : threads)
        thread.join();
    EXPECT_EQ(failures, 0);
    Store store = openStore();
    const auto result = verify(store);
    EXPECT_TRUE(result.intact()) << (result.broken ? result.broken->message : "");
    EXPECT_EQ(result.entries, kThreads * kEach);
}

TEST_F(AuditTest, AClosedStoreIsAnErrorNotACrash)
{
    Store store = openStore();
    Store moved = std::move(store);
    EXPECT_FALSE(appendAudit(store, AuditEntry("run", "x"))); // NOLINT(bugprone-use-after-move): on purpose
    EXPECT_FALSE(listAudit(store));
    EXPECT_FALSE(verifyAudit(store));
    EXPECT_FALSE(auditFacets(store));
}

TEST(AuditOperations, NamesAreStable)
{
    for (std::string_view name :
         {audit_op::kRun, audit_op::kPolicyVersion, audit_op::kSandboxCreate, audit_op::kSandboxDestroy,
          audit_op::kSandboxSweep, audit_op::kCheckpointCreate, audit_op::kCheckpointRestore, audit_op::kCheckpointFork,
          audit_op::kCheckpointPrune, audit_op::kPromote, audit_op::kApprove, audit_op::kDatasetImport,
          audit_op::kDatasetSample, audit_op::kDatasetRemove, audit_op::kSandboxSet, audit_op::kSandboxArchive,
          audit_op::kSandboxRevive, audit_op::kCheckpointLabel, audit_op::kSessionStart, audit_op::kSessionEnd})
        EXPECT_TRUE(isValidAuditOperation(name)) << name;
    EXPECT_EQ(toString(AuditDamage::Malformed), "malformed");
    EXPECT_EQ(toString(AuditDamage::Altered), "altered");
    EXPECT_EQ(toString(AuditDamage::Removed), "removed");
    EXPECT_EQ(toString(AuditDamage::Inserted), "inserted");
    EXPECT_EQ(toString(AuditDamage::Truncated), "truncated");
    EXPECT_EQ(toString(AuditDamage::Unrecorded), "unrecorded");
    EXPECT_EQ(toString(AuditDamage::HeadMissing), "head_missing");
    EXPECT_EQ(toString(AuditDamage::AnchorMissing), "anchor_missing");
}

} // namespace
} // namespace sb

namespace sb {
namespace {

TEST(AuditDetailsLine, IsShortSafeAndKeyOrdered)
{
    const std::string sha(64, 'c');
    EXPECT_EQ(auditDetailsLine(R"({"b":2,"a":"x","empty":"","sha256":")" + sha + R"(","flag":true})"),
              "a=x b=2 flag=true sha256=cccccccccccc");
    EXPECT_EQ(auditDetailsLine("{}"), "");
    EXPECT_EQ(auditDetailsLine("not json \x1b[31m"), "not json \\x1b[31m");
    EXPECT_EQ(auditDetailsLine(R"({"k":"\u001b[2J"})"), "k=\\x1b[2J");
    EXPECT_EQ(auditDetailsLine(R"({"k":"abcdef"})", 4), "k=ab…");
}

} // namespace
} // namespace sb
