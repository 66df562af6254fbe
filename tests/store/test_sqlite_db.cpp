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

} // namespace
} // namespace sb
