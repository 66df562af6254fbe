// Dataset snapshots in the store (core/rules/dataset_store.h).

#include "rules/dataset_store.h"

#include "store/audit.h"
#include "store/store.h"

#include "rules_test_util.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

namespace sb::rules {
namespace {

const char* const kCsv = "id,amount,country,when,ok\n"
                         "a,1.5,US,2024-05-01T00:00:00Z,true\n"
                         "b,,FR,2024-05-02T00:00:00.25Z,false\n"
                         "c,3,\"Côte, d'Ivoire\",,\n";

TEST(DatasetStore, SnapshotRoundTripsByteForByte)
{
    ReadOptions o;
    auto data = readDatasetText(kCsv, "x.csv", o);
    ASSERT_TRUE(data);
    const std::string bytes = encodeSnapshot(*data);
    auto back = decodeSnapshot(bytes, "dataset x");
    ASSERT_TRUE(back) << back.error().message;
    EXPECT_EQ(back->schema(), data->schema());
    ASSERT_EQ(back->rowCount(), 3u);
    for (std::size_t r = 0; r < 3; ++r) {
        EXPECT_EQ(back->sourceLine(r), data->sourceLine(r));
        for (std::size_t c = 0; c < data->columnCount(); ++c)
            EXPECT_EQ(cellText(back->value(r, c)), cellText(data->value(r, c))) << r << "," << c;
    }
    EXPECT_TRUE(back->isMissing(1, 1));
    EXPECT_EQ(back->recordId(2), "c");
    EXPECT_EQ(encodeSnapshot(*back), bytes);
    // Damage anywhere is refused, not crashed on.
    for (std::size_t cut : {std::size_t{3}, bytes.size() / 2, bytes.size() - 1})
        EXPECT_FALSE(decodeSnapshot(bytes.substr(0, cut), "dataset x"));
}

TEST(DatasetStore, ImportListShowLoad)
{
    TempFolder dir;
    const auto csv = dir.write("tx.csv", kCsv);
    auto store = Store::open(dir.path() / "store.db");
    ASSERT_TRUE(store) << store.error().message;
    ReadOptions o;
    auto imported = importDataset(*store, csv, "tx", o);
    ASSERT_TRUE(imported) << imported.error().message;
    EXPECT_EQ(imported->info.rows, 3);
    EXPECT_EQ(imported->info.sha256.size(), 64u);
    EXPECT_EQ(imported->info.idColumn, "id");

    // The same content hashes the same; names are taken once (snapshots are immutable).
    auto again = importDataset(*store, csv, "tx2", o);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->info.sha256, imported->info.sha256);
    auto taken = importDataset(*store, csv, "tx", o);
    ASSERT_FALSE(taken);
    EXPECT_NE(taken.error().message.find("exists already"), std::string::npos);
    EXPECT_FALSE(importDataset(*store, csv, "bad name", o));
    EXPECT_FALSE(importDataset(*store, csv, "looks.csv", o));

    auto list = listDatasets(*store);
    ASSERT_TRUE(list);
    ASSERT_EQ(list->size(), 2u);
    EXPECT_EQ((*list)[0].name, "tx");
    EXPECT_EQ((*list)[0].schema.size(), 5u);

    DatasetInfo info;
    auto loaded = loadDataset(*store, "tx", &info);
    ASSERT_TRUE(loaded) << loaded.error().message;
    EXPECT_EQ(loaded->rowCount(), 3u);
    EXPECT_EQ(loaded->source(), "dataset tx");
    EXPECT_EQ(cellText(loaded->value(2, 2)), "Côte, d'Ivoire");
    EXPECT_EQ(info.sha256, imported->info.sha256);
    EXPECT_FALSE(loadDataset(*store, "nope"));

    auto audit = listAudit(*store, {.operation = "dataset.import"});
    ASSERT_TRUE(audit);
    ASSERT_EQ(audit->size(), 2u);
    EXPECT_EQ((*audit)[0].subject, "tx");
    EXPECT_NE((*audit)[0].details.find(imported->info.sha256), std::string::npos);
    auto verified = verifyAudit(*store);
    ASSERT_TRUE(verified);
    EXPECT_TRUE(verified->intact());
}

TEST(DatasetStore, SamplingIsDeterministicAcrossImports)
{
    TempFolder dir;
    std::string content = "id,v\n";
    for (int i = 0; i < 1000; ++i)
        content += std::to_string(i) + "," + std::to_string(i % 7) + "\n";
    const auto csv = dir.write("n.csv", content);
    auto store = Store::open(dir.path() / "store.db");
    ASSERT_TRUE(store);
    ReadOptions o;
    o.sample = 0.3;
    o.seed = 99;
    auto a = importDataset(*store, csv, "a", o);
    auto b = importDataset(*store, csv, "b", o);
    o.seed = 100;
    auto c = importDataset(*store, csv, "c", o);
    ASSERT_TRUE(a && b && c);
    EXPECT_EQ(a->info.sha256, b->info.sha256);
    EXPECT_NE(a->info.sha256, c->info.sha256);
    EXPECT_EQ(a->report.kept + a->report.sampledOut, 1000);
    EXPECT_DOUBLE_EQ(a->info.sampleRatio, 0.3);
}

TEST(DatasetStore, AlteredSnapshotIsRefused)
{
    TempFolder dir;
    const auto csv = dir.write("tx.csv", kCsv);
    {
        auto store = Store::open(dir.path() / "store.db");
        ASSERT_TRUE(store);
        ASSERT_TRUE(importDataset(*store, csv, "tx", ReadOptions{}));
    }
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open((dir.path() / "store.db").c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "UPDATE datasets SET sha256 = replace(sha256, substr(sha256, 1, 1), 'f')", nullptr,
                           nullptr, nullptr),
              SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(
                  db, "UPDATE datasets SET sha256 = '0000000000000000000000000000000000000000000000000000000000000000'",
                  nullptr, nullptr, nullptr),
              SQLITE_OK);
    sqlite3_close(db);
    auto store = Store::open(dir.path() / "store.db");
    ASSERT_TRUE(store);
    auto loaded = loadDataset(*store, "tx");
    ASSERT_FALSE(loaded);
    EXPECT_NE(loaded.error().message.find("does not match its SHA-256"), std::string::npos) << loaded.error().message;
}

} // namespace
} // namespace sb::rules
