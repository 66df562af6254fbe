// store/store_changes.h: a commit of another connection is noticed once, reading is never a change, a locked store
// is "busy" rather than waited for, and asking holds no lock that would keep the log from being truncated.

#include "store_fixture.h"

#include "store/store.h"
#include "store/store_changes.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

namespace sb {
namespace {

using namespace storetest;

class StoreChangesTest : public StoreTest {
protected:
    StoreChanges openChanges()
    {
        auto changes = StoreChanges::open(dbPath());
        if (!changes) {
            ADD_FAILURE() << changes.error().message;
            std::abort();
        }
        return std::move(*changes);
    }

    static StoreChanges::Poll poll(StoreChanges& changes)
    {
        auto polled = changes.poll();
        EXPECT_TRUE(polled) << (polled ? "" : polled.error().message);
        return polled ? *polled : StoreChanges::Poll::Busy;
    }
};

TEST_F(StoreChangesTest, ACommitOfAnotherConnectionIsSeenOnce)
{
    Store writer = openStore();
    StoreChanges changes = openChanges();
    EXPECT_EQ(poll(changes), StoreChanges::Poll::Unchanged);

    ASSERT_TRUE(writer.recordRun(makeRequest(), makeResult("run-1", 1)));
    EXPECT_EQ(poll(changes), StoreChanges::Poll::Changed);
    EXPECT_EQ(poll(changes), StoreChanges::Poll::Unchanged);

    // Two commits between polls are one change.
    ASSERT_TRUE(writer.recordRun(makeRequest(), makeResult("run-2", 2)));
    ASSERT_TRUE(writer.recordRun(makeRequest(), makeResult("run-3", 3)));
    EXPECT_EQ(poll(changes), StoreChanges::Poll::Changed);
    EXPECT_EQ(poll(changes), StoreChanges::Poll::Unchanged);
}

TEST_F(StoreChangesTest, ReadingAndOpeningTheStoreAreNoChange)
{
    {
        Store writer = openStore();
        ASSERT_TRUE(writer.recordRun(makeRequest(), makeResult("run-1", 1)));
    }
    StoreChanges changes = openChanges();
    for (int i = 0; i < 3; ++i) {
        Store reader = openStore(); // what every pane's worker does before it reads
        ASSERT_TRUE(reader.recentRuns(10));
        ASSERT_TRUE(reader.metrics());
    }
    EXPECT_EQ(poll(changes), StoreChanges::Poll::Unchanged);
}

TEST_F(StoreChangesTest, AWriteUnderWayIsNoChangeUntilItCommits)
{
    Store writer = openStore();
    ASSERT_TRUE(writer.recordRun(makeRequest(), makeResult("run-1", 1)));
    StoreChanges changes = openChanges();
    RawDb other(dbPath());
    other.exec("BEGIN IMMEDIATE; DELETE FROM runs");
    EXPECT_EQ(poll(changes), StoreChanges::Poll::Unchanged); // the write lock held elsewhere is not waited for
    other.exec("ROLLBACK");
    EXPECT_EQ(poll(changes), StoreChanges::Poll::Unchanged);
    ASSERT_TRUE(writer.recordRun(makeRequest(), makeResult("run-2", 2)));
    EXPECT_EQ(poll(changes), StoreChanges::Poll::Changed);
}

TEST_F(StoreChangesTest, ALockedFileIsBusyAtOnceAndAskedAgainLater)
{
    // A WAL store's readers are never locked out while its connections are open; a file in rollback-journal
    // mode, which an exclusive writer locks, shows what a locked store answers.
    const fs::path plain = m_dir.path() / "plain.db";
    RawDb holder(plain);
    holder.exec("CREATE TABLE t(v); INSERT INTO t VALUES (1)");
    auto opened = StoreChanges::open(plain);
    ASSERT_TRUE(opened) << opened.error().message;
    StoreChanges changes = std::move(*opened);
    EXPECT_EQ(poll(changes), StoreChanges::Poll::Unchanged);
    holder.exec("BEGIN EXCLUSIVE; INSERT INTO t VALUES (2)");
    EXPECT_EQ(poll(changes), StoreChanges::Poll::Busy);
    holder.exec("COMMIT");
    EXPECT_EQ(poll(changes), StoreChanges::Poll::Changed);
    EXPECT_EQ(poll(changes), StoreChanges::Poll::Unchanged);
}

TEST_F(StoreChangesTest, AskingLeavesTheLogFreeToBeTruncated)
{
    Store writer = openStore();
    StoreChanges changes = openChanges();
    ASSERT_TRUE(writer.recordRun(makeRequest(), makeResult("run-1", 1)));
    EXPECT_EQ(poll(changes), StoreChanges::Poll::Changed);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(dbPath().c_str(), &db), SQLITE_OK);
    sqlite3_busy_timeout(db, 0);
    // A connection knows its file is in WAL mode once it has read it.
    ASSERT_EQ(sqlite3_exec(db, "SELECT count(*) FROM runs", nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
    EXPECT_EQ(sqlite3_wal_checkpoint_v2(db, "main", SQLITE_CHECKPOINT_TRUNCATE, nullptr, nullptr), SQLITE_OK)
        << sqlite3_errmsg(db);
    sqlite3_close(db);
    EXPECT_EQ(fs::file_size(fs::path(dbPath().string() + "-wal")), 0U);
}

TEST_F(StoreChangesTest, AMissingStoreIsAnErrorNamingIt)
{
    auto changes = StoreChanges::open(m_dir.path() / "absent.db");
    ASSERT_FALSE(changes);
    EXPECT_NE(changes.error().message.find("absent.db"), std::string::npos) << changes.error().message;
}

} // namespace
} // namespace sb
