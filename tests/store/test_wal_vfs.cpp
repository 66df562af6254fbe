// The store's VFS (core/store/wal_vfs.h): a commit's WAL frames go to the file in one write, and nothing a
// commit promises changes: other connections read it at once, a killed writer leaves every commit it made, an
// error writing the frames fails the commit and keeps the ones before it, and the file is plain SQLite.

#include "store_fixture.h"

#include "store/sqlite_db.h"
#include "store/store.h"
#include "wal_vfs.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <csignal>
#include <cstdint>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace sb {
namespace {

using namespace storetest;

class WalVfsTest : public StoreTest {
protected:
    static void exec(const sqlite::Db& db, const std::string& sql)
    {
        auto done = db.exec(sql, "run the test's SQL");
        ASSERT_TRUE(done) << sql << ": " << done.error().message;
    }

    // Rows and the sum of their lengths, read through SQLite's own default VFS.
    static std::pair<std::int64_t, std::int64_t> countWithDefaultVfs(const fs::path& path)
    {
        RawDb raw(path);
        const std::string rows = raw.text("SELECT count(*) FROM t");
        const std::string bytes = raw.text("SELECT coalesce(sum(length(v)), 0) FROM t");
        return {std::stoll(rows), std::stoll(bytes)};
    }

    static std::string integrity(const fs::path& path)
    {
        RawDb raw(path);
        return raw.text("PRAGMA integrity_check");
    }
};

TEST_F(WalVfsTest, TheStoreUsesItAndACommitOfManyPagesIsOneWrite)
{
    ASSERT_NE(store_vfs::name(), nullptr);
    Store store = openStore();
    const sqlite::Db db = sqlite::connectionOf(store).value();
    exec(db, "CREATE TABLE t (k INTEGER PRIMARY KEY, v BLOB)");

    const auto before = store_vfs::walCounters();
    exec(db, "BEGIN; " + std::string() +
                 "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20) "
                 "INSERT INTO t (v) SELECT randomblob(3000) FROM n; COMMIT");
    const auto after = store_vfs::walCounters();
    // 20 rows of 3000 bytes: at least 20 pages, each a header and a page, in fewer bytes than one write may
    // hold (wal_vfs.cpp).
    EXPECT_GE(after.requested - before.requested, 40U);
    EXPECT_EQ(after.made - before.made, 1U);
    EXPECT_EQ(countWithDefaultVfs(dbPath()), (std::pair<std::int64_t, std::int64_t>{20, 20 * 3000}));
}

TEST_F(WalVfsTest, ATransactionLargerThanWhatIsHeldSpillsRollsBackAndCommitsIntact)
{
    Store store = openStore();
    const sqlite::Db db = sqlite::connectionOf(store).value();
    // A small page cache makes SQLite write a large transaction's pages to the log before its commit.
    exec(db, "PRAGMA cache_size = 20; CREATE TABLE t (k INTEGER PRIMARY KEY, v BLOB)");
    exec(db, "INSERT INTO t (v) VALUES (randomblob(100))");
    const std::string sixMegabytes = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1500) "
                                     "INSERT INTO t (v) SELECT randomblob(4000) FROM n";
    exec(db, "BEGIN; " + sixMegabytes + "; UPDATE t SET v = randomblob(10) WHERE k % 7 = 0; ROLLBACK");
    EXPECT_EQ(countWithDefaultVfs(dbPath()), (std::pair<std::int64_t, std::int64_t>{1, 100}));
    const auto before = store_vfs::walCounters();
    exec(db, "BEGIN; " + sixMegabytes + "; UPDATE t SET v = randomblob(10) WHERE k % 2 = 0; COMMIT");
    // Held frames are written once they reach the bound, and what a spilled page is rewritten with in place.
    EXPECT_GT(store_vfs::walCounters().made - before.made, 1U);
    EXPECT_EQ(integrity(dbPath()), "ok");
    EXPECT_EQ(countWithDefaultVfs(dbPath()).first, 1501);
    RawDb raw(dbPath());
    EXPECT_EQ(raw.text("SELECT sum(length(v)) FROM t WHERE k % 2 = 0"), std::to_string(750 * 10));
}

// A child commits and tells the parent after each commit; the parent reads each through another connection
// at once. Then the child is killed mid-transaction: every commit it reported is in the file.
TEST_F(WalVfsTest, EveryCommitIsSeenAtOnceAndSurvivesAKilledWriter)
{
    {
        Store store = openStore();
        exec(sqlite::connectionOf(store).value(), "CREATE TABLE t (k INTEGER PRIMARY KEY, v BLOB)");
    }
    int toParent[2];
    int toChild[2];
    ASSERT_EQ(pipe(toParent), 0);
    ASSERT_EQ(pipe(toChild), 0);
    constexpr int kCommits = 60;
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        close(toParent[0]);
        close(toChild[1]);
        auto store = Store::open(dbPath());
        if (!store)
            _exit(2);
        const sqlite::Db db = sqlite::connectionOf(*store).value();
        for (int i = 1; i <= kCommits; ++i) {
            const int size = (i % 5 == 0) ? 20000 : 50 * i;
            if (!db.exec("INSERT INTO t (v) VALUES (randomblob(" + std::to_string(size) + "))", "insert"))
                _exit(3);
            if (write(toParent[1], &i, sizeof i) != sizeof i)
                _exit(4);
            char go = 0;
            if (read(toChild[0], &go, 1) != 1)
                _exit(5);
        }
        // Killed with a transaction's frames written or held, never committed.
        (void)db.exec("BEGIN; INSERT INTO t (v) VALUES (randomblob(300000))", "insert");
        const int last = 0;
        [[maybe_unused]] const ssize_t told = write(toParent[1], &last, sizeof last);
        pause();
        _exit(0);
    }
    close(toParent[1]);
    close(toChild[0]);
    RawDb reader(dbPath());
    for (int i = 1; i <= kCommits; ++i) {
        int committed = -1;
        ASSERT_EQ(read(toParent[0], &committed, sizeof committed), static_cast<ssize_t>(sizeof committed));
        ASSERT_EQ(committed, i);
        EXPECT_EQ(reader.text("SELECT count(*) FROM t"), std::to_string(i));
        ASSERT_EQ(write(toChild[1], "g", 1), 1);
    }
    int last = -1;
    ASSERT_EQ(read(toParent[0], &last, sizeof last), static_cast<ssize_t>(sizeof last));
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status));
    close(toParent[0]);
    close(toChild[1]);

    std::int64_t bytes = 0;
    for (int i = 1; i <= kCommits; ++i)
        bytes += (i % 5 == 0) ? 20000 : 50 * i;
    EXPECT_EQ(integrity(dbPath()), "ok");
    EXPECT_EQ(countWithDefaultVfs(dbPath()), (std::pair<std::int64_t, std::int64_t>{kCommits, bytes}));
}

// The log cannot grow (RLIMIT_FSIZE, as a full disk would refuse it): the commit whose frames cannot be written
// fails with an error, and what was committed before it stays.
TEST_F(WalVfsTest, ACommitWhoseFramesCannotBeWrittenFailsAndKeepsTheOnesBefore)
{
    {
        Store store = openStore();
        const sqlite::Db db = sqlite::connectionOf(store).value();
        exec(db, "CREATE TABLE t (k INTEGER PRIMARY KEY, v BLOB); INSERT INTO t (v) VALUES (randomblob(1000))");
    }
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        auto store = Store::open(dbPath());
        if (!store)
            _exit(2);
        const sqlite::Db db = sqlite::connectionOf(*store).value();
        std::signal(SIGXFSZ, SIG_IGN);
        struct stat wal {};
        const fs::path walPath = dbPath().string() + "-wal";
        const off_t size = ::stat(walPath.c_str(), &wal) == 0 ? wal.st_size : 0;
        const rlimit limit{static_cast<rlim_t>(size + 64 * 1024), static_cast<rlim_t>(size + 64 * 1024)};
        if (setrlimit(RLIMIT_FSIZE, &limit) != 0)
            _exit(3);
        if (!db.exec("INSERT INTO t (v) VALUES (randomblob(10))", "a small commit"))
            _exit(4);
        if (db.exec("INSERT INTO t (v) VALUES (randomblob(400000))", "a commit the log has no room for"))
            _exit(5);
        if (!db.exec("INSERT INTO t (v) VALUES (randomblob(20))", "a small commit after it"))
            _exit(6);
        _exit(0);
    }
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 0);
    EXPECT_EQ(integrity(dbPath()), "ok");
    EXPECT_EQ(countWithDefaultVfs(dbPath()), (std::pair<std::int64_t, std::int64_t>{3, 1030}));
}

} // namespace
} // namespace sb
