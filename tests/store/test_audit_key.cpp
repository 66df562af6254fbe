// The audit log's key: what someone who can write the store, but does not hold the key kept outside it, can
// no longer do unnoticed (add an entry with a correct hash and move the head, rewrite the chain, cut the tail,
// remove the key record), what a missing key reports, how entries from before the key keep verifying, and what
// the witness beside the key adds (an older copy of the store put back).

#include "store_fixture.h"

#include "store/audit.h"
#include "store/audit_key.h"
#include "store/store.h"
#include "util/hash.h"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

namespace sb {
namespace {

using namespace storetest;

class AuditKeyTest : public StoreTest {
protected:
    void appendSome(Store& store, int count, const std::string& prefix = "s")
    {
        for (int i = 1; i <= count; ++i) {
            auto appended = appendAudit(store, AuditEntry("sandbox.create", prefix + std::to_string(i), {{"n", i}}));
            ASSERT_TRUE(appended) << appended.error().message;
        }
    }

    AuditVerification verify(const AuditVerifyOptions& options = {})
    {
        Store store = openStore();
        auto verification = verifyAudit(store, options);
        if (!verification) {
            ADD_FAILURE() << verification.error().message;
            return {};
        }
        return *verification;
    }

    void expectBroken(const AuditVerification& result, AuditDamage damage, std::int64_t seq,
                      const std::string& fragment = "")
    {
        ASSERT_TRUE(result.broken.has_value()) << "unnoticed";
        EXPECT_EQ(toString(result.broken->damage), toString(damage)) << result.broken->message;
        EXPECT_EQ(result.broken->seq, seq) << result.broken->message;
        EXPECT_FALSE(result.intact());
        if (!fragment.empty()) {
            EXPECT_NE(result.broken->message.find(fragment), std::string::npos) << result.broken->message;
        }
    }

    std::vector<AuditRecord> entries()
    {
        Store store = openStore();
        return listAudit(store).value();
    }

    // What someone with write access to the file and the scheme, but not the key, does: an entry after the
    // last one, its hash computed correctly, and the head moved onto it.
    AuditRecord forgeAppend(const std::string& mac = "NULL")
    {
        const AuditRecord last = entries().back();
        AuditRecord forged = last;
        forged.seq = last.seq + 1;
        forged.subject = "forged";
        forged.prevHash = last.hash;
        forged.hash = auditHash(forged).value();
        RawDb raw(dbPath());
        raw.exec("INSERT INTO audit_log VALUES (" + std::to_string(forged.seq) + ", " + std::to_string(forged.atMs)
                 + ", '" + forged.actor + "', '" + forged.operation + "', 'forged', '" + forged.details + "', '"
                 + forged.prevHash + "', '" + forged.hash + "', " + mac + ")");
        raw.exec("UPDATE log_heads SET seq = " + std::to_string(forged.seq) + ", hash = '" + forged.hash + "'");
        return forged;
    }

    // Entry `from` edited and every hash and link from there recomputed, and the head moved: all the file
    // alone can check stays consistent.
    void rewriteFrom(std::int64_t from, const std::optional<AuditKey>& signer = std::nullopt)
    {
        RawDb raw(dbPath());
        raw.exec("UPDATE audit_log SET actor = 'mallory' WHERE seq = " + std::to_string(from));
        std::string previous;
        for (AuditRecord record : entries()) {
            if (record.seq < from) {
                previous = record.hash;
                continue;
            }
            record.prevHash = previous.empty() ? std::string(kAuditGenesisHash) : previous;
            record.hash = auditHash(record).value();
            const std::string mac = signer ? "'" + auditEntryMac(*signer, record.hash).value() + "'" : "mac";
            raw.exec("UPDATE audit_log SET prev_hash = '" + record.prevHash + "', hash = '" + record.hash
                     + "', mac = " + mac + " WHERE seq = " + std::to_string(record.seq));
            previous = record.hash;
        }
        const std::int64_t last = entries().back().seq;
        const std::string headMac = signer ? "'" + auditHeadMac(*signer, last, previous).value() + "'" : "mac";
        raw.exec("UPDATE log_heads SET hash = '" + previous + "', mac = " + headMac);
    }

    std::string keyId() { return RawDb(dbPath()).text("SELECT key_id FROM log_heads"); }

    AuditKey key()
    {
        auto key = readAuditKey(keyFolder(), keyId());
        EXPECT_TRUE(key && *key);
        return **key;
    }

    static AuditVerifyOptions withoutWitness()
    {
        AuditVerifyOptions options;
        options.recordWitness = false;
        return options;
    }
};

TEST_F(AuditKeyTest, EveryEntryAndTheHeadAreSignedWithAKeyKeptOutsideTheStore)
{
    {
        Store store = openStore();
        appendSome(store, 3);
    }
    const std::string id = keyId();
    ASSERT_TRUE(isAuditKeyId(id)) << id;
    const fs::path file = keyFolder() / (id + ".key");
    ASSERT_TRUE(fs::exists(file));
    EXPECT_EQ(fs::status(file).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);
    EXPECT_EQ(fs::status(keyFolder()).permissions() & fs::perms::all, fs::perms::owner_all);
    // The secret is nowhere in the store.
    const std::string secret = toHex(key().secret);
    EXPECT_EQ(readBytes(dbPath()).find(secret), std::string::npos);
    EXPECT_EQ(readBytes(dbPath().string() + "-wal").find(secret), std::string::npos);

    const AuditKey k = key();
    EXPECT_EQ(k.firstSeq, 1);
    EXPECT_EQ(k.beforeHash, kAuditGenesisHash);
    for (const AuditRecord& record : entries())
        EXPECT_EQ(record.mac, auditEntryMac(k, record.hash).value()) << record.seq;

    const auto result = verify();
    EXPECT_TRUE(result.intact()) << (result.broken ? result.broken->message : "");
    ASSERT_TRUE(result.key);
    EXPECT_EQ(result.key->id, id);
    EXPECT_TRUE(result.key->found);
    EXPECT_EQ(result.key->firstSeq, 1);
    EXPECT_EQ(result.signedEntries, 3);
    EXPECT_EQ(result.entriesBeforeKey, 0);

    // One key per store: a second store gets its own.
    auto other = Store::open(m_dir.path() / "other.db");
    ASSERT_TRUE(other);
    ASSERT_TRUE(appendAudit(*other, AuditEntry("run", "x")));
    EXPECT_NE(RawDb(m_dir.path() / "other.db").text("SELECT key_id FROM log_heads"), id);
}

// The hostile probe: a row appended with a correct hash and the head moved onto it passed verify, with an
// anchor of the old head too.
TEST_F(AuditKeyTest, AForgedAppendWithTheHeadMovedIsCaught)
{
    {
        Store store = openStore();
        appendSome(store, 3);
    }
    const std::string oldHead = entries().back().hash;
    forgeAppend();
    expectBroken(verify(withoutWitness()), AuditDamage::Forged, 4, "entry 4 is not signed by the store's key");
    AuditVerifyOptions anchored = withoutWitness();
    anchored.anchor = oldHead;
    expectBroken(verify(anchored), AuditDamage::Forged, 4);

    // Nor does Sandbench build on it.
    {
        Store store = openStore();
        auto refused = appendAudit(store, AuditEntry("run", "next"));
        ASSERT_FALSE(refused);
        EXPECT_NE(refused.error().message.find("not signed by the store's key"), std::string::npos)
            << refused.error().message;
    }

    // A made-up signature is no better.
    RawDb(dbPath()).exec("DELETE FROM audit_log WHERE seq = 4");
    forgeAppend("'" + std::string(64, 'a') + "'");
    expectBroken(verify(anchored), AuditDamage::Forged, 4, "signature not made by the store's key");
}

TEST_F(AuditKeyTest, AnEntryRewrittenWithEveryHashRecomputedIsCaught)
{
    {
        Store store = openStore();
        appendSome(store, 4);
    }
    rewriteFrom(2);
    expectBroken(verify(withoutWitness()), AuditDamage::Forged, 2, "entry 2");
    // An edit without the hashes is named as before.
    RawDb(dbPath()).exec("UPDATE audit_log SET subject = 'x' WHERE seq = 3");
    expectBroken(verify(withoutWitness()), AuditDamage::Altered, 3, "entry 3 was altered");
}

TEST_F(AuditKeyTest, TheTailCutAndTheHeadMovedBackIsCaught)
{
    {
        Store store = openStore();
        appendSome(store, 5);
    }
    const auto all = entries();
    RawDb raw(dbPath());
    raw.exec("DELETE FROM audit_log WHERE seq >= 4");
    raw.exec("UPDATE log_heads SET seq = 3, hash = '" + all[2].hash + "'");
    expectBroken(verify(withoutWitness()), AuditDamage::Truncated, 4,
                 "the log's head (entry 3) is not signed by the store's key");
    // Cut below the first signed entry (the key records where it began).
    raw.exec("DELETE FROM audit_log");
    raw.exec("UPDATE log_heads SET seq = 0, hash = '" + std::string(kAuditGenesisHash) + "'");
    expectBroken(verify(withoutWitness()), AuditDamage::Truncated, 1);
}

// What the head's signature cannot show: the store put back to an older copy of itself, whose head is signed.
// The witness beside the key, kept by each verification, does.
TEST_F(AuditKeyTest, AnOlderCopyPutBackIsCaughtByTheWitnessOfTheLastVerification)
{
    {
        Store store = openStore();
        appendSome(store, 3);
    }
    RawDb(dbPath()).exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const std::string olderCopy = readBytes(dbPath());
    {
        Store store = openStore();
        appendSome(store, 2, "t");
    }
    // Not verified since entry 3: the copy goes unnoticed (documented).
    RawDb(dbPath()).exec("PRAGMA wal_checkpoint(TRUNCATE)");
    const std::string newer = readBytes(dbPath());
    writeBytes(dbPath(), olderCopy);
    EXPECT_TRUE(verify(withoutWitness()).intact());
    writeBytes(dbPath(), newer);

    const auto seen = verify();
    ASSERT_TRUE(seen.intact());
    EXPECT_FALSE(seen.witness) << "no verification before this one";
    const auto again = verify();
    ASSERT_TRUE(again.witness);
    EXPECT_EQ(again.witness->seq, 5);

    writeBytes(dbPath(), olderCopy);
    expectBroken(verify(), AuditDamage::Truncated, 4, "entries 4–5 were removed from the end");
    // Written to since: entry 5 is there again, but not the one verified.
    {
        Store store = openStore();
        appendSome(store, 2, "u");
    }
    expectBroken(verify(), AuditDamage::Altered, 5, "entry 5 is not the one verified on");
}

TEST_F(AuditKeyTest, AMissingKeyIsReportedAndNothingIsRecordedWithoutIt)
{
    {
        Store store = openStore();
        appendSome(store, 2);
    }
    const std::string id = keyId();
    fs::rename(keyFolder(), m_dir.path() / "elsewhere");
    const auto result = verify();
    expectBroken(result, AuditDamage::KeyMissing, 0, id);
    ASSERT_TRUE(result.key);
    EXPECT_FALSE(result.key->found);
    EXPECT_EQ(result.signedEntries, 0);
    EXPECT_EQ(result.entries, 2) << "the chain was still walked";
    {
        Store store = openStore();
        auto refused = appendAudit(store, AuditEntry("run", "x"));
        ASSERT_FALSE(refused);
        EXPECT_NE(refused.error().message.find(id), std::string::npos) << refused.error().message;
        EXPECT_NE(refused.error().message.find("SANDBENCH_AUDIT_KEYS"), std::string::npos);
    }
    // The key pointed at where it is (another machine's copy, say).
    AuditVerifyOptions options;
    options.keyFolder = m_dir.path() / "elsewhere";
    EXPECT_TRUE(verify(options).intact());

    // A key file that is not the key it is named after.
    fs::create_directories(keyFolder());
    writeBytes(keyFolder() / (id + ".key"), readBytes(m_dir.path() / "elsewhere" / (id + ".key")) + "x");
    expectBroken(verify(), AuditDamage::KeyMissing, 0, "is damaged");
    writeBytes(keyFolder() / (id + ".key"), R"({"format": 7, "secret": []})");
    expectBroken(verify(), AuditDamage::KeyMissing, 0, "is damaged");

    // A witness that is not one is left unused, with a warning, and replaced.
    fs::remove(keyFolder() / (id + ".key"));
    fs::copy_file(m_dir.path() / "elsewhere" / (id + ".key"), keyFolder() / (id + ".key"));
    writeBytes(keyFolder() / (id + ".witness"), R"({"format": ["x"]})");
    const auto warned = verify();
    EXPECT_TRUE(warned.intact()) << (warned.broken ? warned.broken->message : "");
    ASSERT_EQ(warned.warnings.size(), 1u);
    EXPECT_NE(warned.warnings[0].find("witness"), std::string::npos) << warned.warnings[0];
    EXPECT_TRUE(verify().warnings.empty());
}

// A key file that is no file (a FIFO nobody writes, a device) is refused by name, not waited on or read.
TEST_F(AuditKeyTest, AKeyFileThatIsNoFileIsRefusedWithoutBlocking)
{
    {
        Store store = openStore();
        appendSome(store, 1);
    }
    const std::string id = keyId();
    const fs::path file = keyFolder() / (id + ".key");
    fs::remove(file);
    ASSERT_EQ(::mkfifo(file.c_str(), 0600), 0);
    auto key = readAuditKey(keyFolder(), id);
    ASSERT_FALSE(key);
    EXPECT_NE(key.error().message.find("the audit key is not a regular file but a FIFO"), std::string::npos)
        << key.error().message;
    expectBroken(verify(), AuditDamage::KeyMissing, 0, "FIFO");
}

TEST_F(AuditKeyTest, AKeyRecordRemovedIsNamed)
{
    {
        Store store = openStore();
        appendSome(store, 3);
    }
    // Signatures stripped and the key id removed: the store looks as if it never had a key, but the key made
    // for a store here says otherwise.
    RawDb(dbPath()).exec("UPDATE audit_log SET mac = NULL; UPDATE log_heads SET key_id = NULL, mac = NULL");
    expectBroken(verify(), AuditDamage::HeadMissing, 1, "was made for a store here");
    {
        Store store = openStore();
        EXPECT_FALSE(appendAudit(store, AuditEntry("run", "x")));
    }
    // Only the key id removed, in a store moved away from where its key was made: its signed entries say so.
    fs::remove_all(m_dir.path() / "moved");
    fs::create_directories(m_dir.path() / "moved");
    {
        Store store = openStore();
    }
    fs::remove(dbPath());
    fs::remove(dbPath().string() + "-wal");
    fs::remove(dbPath().string() + "-shm");
    {
        Store store = openStore();
        appendSome(store, 2);
    }
    RawDb(dbPath()).exec("PRAGMA wal_checkpoint(TRUNCATE)");
    fs::copy_file(dbPath(), m_dir.path() / "moved" / "store.db");
    RawDb(m_dir.path() / "moved" / "store.db").exec("UPDATE log_heads SET key_id = NULL");
    auto moved = Store::open(m_dir.path() / "moved" / "store.db");
    ASSERT_TRUE(moved);
    auto result = verifyAudit(*moved);
    ASSERT_TRUE(result);
    expectBroken(*result, AuditDamage::HeadMissing, 1, "the log's head names no key");
    EXPECT_FALSE(appendAudit(*moved, AuditEntry("run", "x")));
}

// A store whose entries were written before keys existed (schema version 7) keeps verifying; its first entry
// after that makes its key, which pins the older entries by the hash of the last of them.
TEST_F(AuditKeyTest, EntriesFromBeforeTheKeyKeepVerifyingAndArePinned)
{
    {
        Store store = openStore();
        appendSome(store, 3);
    }
    {
        RawDb raw(dbPath());
        storetest::makeVersion7(raw);
    }
    fs::remove_all(keyFolder()); // an older Sandbench made no key

    const auto migrated = verify();
    EXPECT_TRUE(migrated.intact()) << (migrated.broken ? migrated.broken->message : "");
    EXPECT_FALSE(migrated.key) << "no key yet";
    EXPECT_EQ(migrated.entries, 3);
    EXPECT_EQ(migrated.signedEntries, 0);
    EXPECT_EQ(RawDb(dbPath()).integer("PRAGMA user_version"), Store::kSchemaVersion);

    {
        Store store = openStore();
        appendSome(store, 1, "after");
    }
    const AuditKey k = key();
    EXPECT_EQ(k.firstSeq, 4);
    EXPECT_EQ(k.beforeHash, entries()[2].hash);
    const auto keyed = verify(withoutWitness());
    EXPECT_TRUE(keyed.intact()) << (keyed.broken ? keyed.broken->message : "");
    EXPECT_EQ(keyed.signedEntries, 1);
    EXPECT_EQ(keyed.entriesBeforeKey, 3);

    // The older entries rewritten (their hashes recomputed) and the signed one re-linked: the key's record of
    // entry 3 no longer matches.
    rewriteFrom(2);
    expectBroken(verify(withoutWitness()), AuditDamage::Altered, 3, "entries before the key were rewritten");
}

// Whoever holds the key too can rewrite the whole log: a hash kept elsewhere (an anchor) shows it, as does the
// witness of a verification before the rewrite (see the older copy above).
TEST_F(AuditKeyTest, AKeyHolderRewritingEverythingNeedsAnAnchor)
{
    std::string anchor;
    {
        Store store = openStore();
        appendSome(store, 4);
    }
    anchor = entries().back().hash;
    rewriteFrom(2, key());
    EXPECT_TRUE(verify(withoutWitness()).intact()) << "documented: a key holder can rewrite the log";
    AuditVerifyOptions anchored = withoutWitness();
    anchored.anchor = anchor;
    expectBroken(verify(anchored), AuditDamage::AnchorMissing, 0, anchor);
}

TEST_F(AuditKeyTest, ConcurrentFirstWritersMakeOneKey)
{
    {
        Store store = openStore();
    }
    constexpr int kThreads = 4;
    std::vector<std::thread> threads;
    std::atomic<int> failures{0};
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            auto store = Store::open(dbPath());
            for (int i = 0; store && i < 10; ++i) {
                if (!appendAudit(*store, AuditEntry("run", std::to_string(t) + "-" + std::to_string(i))))
                    ++failures;
            }
            if (!store)
                ++failures;
        });
    }
    for (auto& thread : threads)
        thread.join();
    EXPECT_EQ(failures, 0);
    const auto result = verify();
    EXPECT_TRUE(result.intact()) << (result.broken ? result.broken->message : "");
    EXPECT_EQ(result.signedEntries, kThreads * 10);
    int keys = 0;
    for (const auto& file : fs::directory_iterator(keyFolder()))
        keys += file.path().extension() == ".key" ? 1 : 0;
    EXPECT_EQ(keys, 1);
}

TEST_F(AuditKeyTest, NoFolderForKeysRecordsNothingAndSaysWhy)
{
    // A file where the folder should be.
    writeBytes(m_dir.path() / "not-a-folder", "x");
    ::setenv("SANDBENCH_AUDIT_KEYS", (m_dir.path() / "not-a-folder" / "keys").c_str(), 1);
    Store store = openStore();
    auto refused = appendAudit(store, AuditEntry("run", "x"));
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().message.find("not-a-folder"), std::string::npos) << refused.error().message;
    EXPECT_TRUE(listAudit(store).value().empty());
}

} // namespace
} // namespace sb
