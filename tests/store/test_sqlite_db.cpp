// Below the store's API: what a write that finds no room reports, and a transaction SQLite has already
// rolled back (as it does on SQLITE_FULL) is reported as that, not as "no transaction is active".

#include "store_fixture.h"

#include "store/sqlite_db.h"
#include "store/store.h"

#include <gtest/gtest.h>

#include <string>

namespace sb {
namespace {

using namespace storetest;

class SqliteDbTest : public StoreTest {
protected:
    // A store whose file may grow by only a few pages more: SQLite then fails writes with SQLITE_FULL, as on
    // a full disk (PRAGMA max_page_count).
    void capTheFile(const sqlite::Db& db)
    {
        ASSERT_TRUE(db.exec("CREATE TABLE IF NOT EXISTS filler (x BLOB)", "make a table"));
        auto pages = db.pragmaInt("page_count");
        ASSERT_TRUE(pages);
        ASSERT_TRUE(db.exec("PRAGMA max_page_count = " + std::to_string(*pages + 2), "cap the file"));
    }
};

TEST_F(SqliteDbTest, AWriteThatFindsNoRoomNamesTheFileSystemAndItsFreeSpace)
{
    Store store = openStore();
    const sqlite::Db db = sqlite::connectionOf(store).value();
    capTheFile(db);
    auto failed = db.exec("INSERT INTO filler VALUES (zeroblob(1000000))", "store a large row");
    ASSERT_FALSE(failed);
    const std::string& message = failed.error().message;
    EXPECT_NE(message.find("database or disk is full"), std::string::npos) << message;
    // The cap, not the disk, is what is full here: the note says how much the file system has.
    EXPECT_NE(message.find("the file system holding " + m_dir.path().string() + " has "), std::string::npos)
        << message;
    EXPECT_NE(message.find(" bytes free of "), std::string::npos) << message;
}

TEST_F(SqliteDbTest, ACommitAfterSqliteRolledTheTransactionBackSaysSoAndStoresNothing)
{
    Store store = openStore();
    const sqlite::Db db = sqlite::connectionOf(store).value();
    capTheFile(db);
    {
        sqlite::Transaction transaction(db);
        ASSERT_TRUE(transaction.begin());
        ASSERT_TRUE(db.exec("INSERT INTO filler VALUES (x'01')", "store a small row"));
        // A caller that goes past the failure, as the checkpoint walk once did.
        EXPECT_FALSE(db.exec("INSERT INTO filler VALUES (zeroblob(1000000))", "store a large row"));
        auto committed = transaction.commit();
        ASSERT_FALSE(committed);
        const std::string& message = committed.error().message;
        EXPECT_NE(message.find("SQLite rolled the whole change back; nothing of it was stored"), std::string::npos)
            << message;
        EXPECT_EQ(message.find("no transaction is active"), std::string::npos) << message;
    }
    auto rows = db.prepare("SELECT count(*) FROM filler");
    ASSERT_TRUE(rows);
    ASSERT_EQ(sqlite3_step(rows->get()), SQLITE_ROW);
    EXPECT_EQ(sqlite3_column_int64(rows->get(), 0), 0) << "the small row went with the rest";
}

// The connection's statement cache: a statement done with is reset, its bindings cleared, and lent again for
// the same SQL text; text with more after its statement is never cached (another text would not find it); and
// a statement that outlives its store is finalized, not cached in a closed cache.
TEST_F(SqliteDbTest, StatementsAreReusedResetAndCleared)
{
    Store store = openStore();
    const sqlite::Db db = sqlite::connectionOf(store).value();
    ASSERT_TRUE(db.exec("CREATE TABLE t (x INTEGER)", "make a table"));
    ASSERT_TRUE(db.exec("INSERT INTO t VALUES (1), (2), (3)", "fill it"));
    const char* select = "SELECT x FROM t WHERE x >= ?1 ORDER BY x";
    sqlite3_stmt* first = nullptr;
    {
        auto statement = db.prepare(select);
        ASSERT_TRUE(statement);
        first = statement->get();
        ASSERT_EQ(sqlite3_bind_int64(first, 1, 2), SQLITE_OK);
        ASSERT_EQ(sqlite3_step(first), SQLITE_ROW); // left mid-query
        EXPECT_EQ(sqlite3_column_int64(first, 0), 2);
    }
    {
        auto again = db.prepare(select);
        ASSERT_TRUE(again);
        EXPECT_EQ(again->get(), first) << "the same SQL text is served from the cache";
        // Reset and unbound: ?1 is NULL, which nothing is >= to.
        EXPECT_EQ(sqlite3_step(again->get()), SQLITE_DONE);
        // Two in use at once are two statements.
        auto second = db.prepare(select);
        ASSERT_TRUE(second);
        EXPECT_NE(second->get(), again->get());
    }
    // The reset released the read snapshot: a write and a new read see each other.
    ASSERT_TRUE(db.exec("INSERT INTO t VALUES (4)", "add a row"));
    {
        auto count = db.prepare("SELECT count(*) FROM t");
        ASSERT_TRUE(count);
        ASSERT_EQ(sqlite3_step(count->get()), SQLITE_ROW);
        EXPECT_EQ(sqlite3_column_int64(count->get(), 0), 4);
    }
    // With text after the statement, not cached: each prepare is a new statement.
    {
        auto statement = db.prepare("SELECT 1; ");
        ASSERT_TRUE(statement);
        EXPECT_FALSE(statement.value().get_deleter().cache) << "trailing text: finalized when done, not cached";
    }
    {
        auto statement = db.prepare("SELECT 1;");
        ASSERT_TRUE(statement);
        EXPECT_TRUE(statement.value().get_deleter().cache);
    }
    // A statement that outlives its store: the store closes, the statement is finalized when it is done
    // (under ASan, a use of the closed cache or a double finalize would be caught here).
    auto outliving = db.prepare(select);
    ASSERT_TRUE(outliving);
    {
        Store gone = std::move(store);
    }
    outliving->reset();
}

// The write-ahead log's length in pages, as its file says (a 32-byte header, then frames of 24 + 4096 bytes).
std::uintmax_t walPages(const std::filesystem::path& db)
{
    std::error_code ec;
    const auto bytes = std::filesystem::file_size(db.string() + "-wal", ec);
    return ec || bytes < 32 ? 0 : (bytes - 32) / (24 + 4096);
}

// Commits that each dirty one more page of a table of their own: the log grows by about two pages a commit.
void commitPages(const sqlite::Db& db, int commits)
{
    ASSERT_TRUE(db.exec("CREATE TABLE IF NOT EXISTS filler (x BLOB)", "make a table"));
    for (int i = 0; i < commits; ++i)
        ASSERT_TRUE(db.exec("INSERT INTO filler VALUES (zeroblob(3000))", "store a row"));
}

TEST_F(SqliteDbTest, TheLogIsCheckpointedByTheCommitThatFillsItOrLaterWhenDeferred)
{
    Store store = openStore();
    const sqlite::Db db = sqlite::connectionOf(store).value();
    commitPages(db, 300);
    EXPECT_LT(walPages(dbPath()), static_cast<std::uintmax_t>(Store::kWalCheckpointPages))
        << "a commit truncates the log once it is kWalCheckpointPages long";
    EXPECT_FALSE(store.checkpointWal()) << "the log is short: nothing to do";

    store.deferWalCheckpoints();
    commitPages(db, 300);
    const auto deferred = walPages(dbPath());
    EXPECT_GT(deferred, static_cast<std::uintmax_t>(Store::kWalCheckpointPages)) << "the commits left it long";
    EXPECT_LT(deferred, static_cast<std::uintmax_t>(Store::kDeferredWalPages));

    // Another connection reading holds the log: the checkpoint does not wait for it, and truncates nothing.
    {
        RawDb reader(dbPath());
        reader.exec("BEGIN");
        reader.exec("SELECT count(*) FROM filler");
        EXPECT_FALSE(store.checkpointWal());
        reader.exec("COMMIT");
    }
    EXPECT_TRUE(store.checkpointWal());
    EXPECT_EQ(walPages(dbPath()), 0U);
    auto pages = db.pragmaInt("page_count");
    ASSERT_TRUE(pages);
    EXPECT_GT(*pages, 600) << "every row is in the database file";

    // Deferred is not forever: a commit still checkpoints once the log reaches kDeferredWalPages.
    commitPages(db, 1200);
    EXPECT_LT(walPages(dbPath()), static_cast<std::uintmax_t>(Store::kDeferredWalPages));
}

} // namespace
} // namespace sb
