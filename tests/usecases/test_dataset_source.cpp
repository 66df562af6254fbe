// Which data a rule set runs on (usecases/dataset_source.h) and what a sandbox's dataset references are made
// of (usecases/sandbox_datasets.h).

#include "usecases/dataset_source.h"

#include "usecase_fixture.h"
#include "usecases/sandbox_datasets.h"
#include "usecases/sandbox_setup.h"

#include "rules/dataset_store.h"
#include "rules/demo_data.h"
#include "sandboxes/sandbox_engine.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <unistd.h>

namespace sb {
namespace {

namespace fs = std::filesystem;

class DatasetSourceTest : public usecasetest::StoreTest {
protected:
    void import(const std::string& name, std::uint64_t rows, std::uint64_t seed)
    {
        const fs::path file = m_dir / (name + ".csv");
        {
            std::ofstream out(file);
            rules::writeDemoTransactions(out, rows, seed);
        }
        rules::ReadOptions read;
        auto imported = rules::importDataset(*m_store, file, name, read);
        ASSERT_TRUE(imported) << imported.error().message;
    }
    // A sandbox that refers to `datasets` as they are now.
    void sandboxWith(const std::string& sandbox, const std::vector<std::string>& datasets)
    {
        auto engine = SandboxEngine::open(*m_store);
        ASSERT_TRUE(engine) << engine.error().message;
        CreateSandboxRequest request;
        request.name = sandbox;
        for (const auto& name : datasets) {
            auto ref = datasetReference(*m_store, name);
            ASSERT_TRUE(ref) << ref.error().message;
            request.datasets.push_back(*ref);
        }
        auto made = (*engine)->createSandbox(request);
        ASSERT_TRUE(made) << made.error().message;
    }
};

rules::RuleSet declaring(const std::string& yaml)
{
    auto parsed = rules::parseRuleSet(yaml, "rules.yaml");
    return parsed.ruleSet;
}

const char* const kHead = "name: t\nversion: 1\nstrategy: first_match\ndefault: {decision: allow, score: 0}\n";

TEST_F(DatasetSourceTest, FieldsAreMergedAcrossRuleSetsAndFlags)
{
    const auto a = declaring(std::string(kHead) + "fields:\n  amount: double\nrules: []\n");
    const auto b = declaring(std::string(kHead) + "fields:\n  country: string\n  amount: double\nrules: []\n");
    auto fields = declaredFields({{"a.yaml", &a}, {"b.yaml", &b}}, {"age:int"});
    ASSERT_TRUE(fields) << fields.error().message;
    ASSERT_EQ(fields->size(), 3u);
    EXPECT_EQ((*fields)[0].name, "age");
    EXPECT_EQ((*fields)[1].name, "amount");
    EXPECT_EQ((*fields)[2].name, "country");
}

TEST_F(DatasetSourceTest, OneNameWithTwoTypesIsAnErrorNamingBothPlaces)
{
    const auto a = declaring(std::string(kHead) + "fields:\n  amount: double\nrules: []\n");
    const auto b = declaring(std::string(kHead) + "fields:\n  amount: string\nrules: []\n");
    auto fields = declaredFields({{"a.yaml", &a}, {"b.yaml", &b}});
    ASSERT_FALSE(fields);
    EXPECT_NE(fields.error().message.find("b.yaml:"), std::string::npos) << fields.error().message;
    EXPECT_NE(fields.error().message.find("in a.yaml"), std::string::npos) << fields.error().message;
    EXPECT_FALSE(parseFieldFlags({"amount"}));
    EXPECT_FALSE(parseFieldFlags({"amount:decimal"}));
}

TEST_F(DatasetSourceTest, AFileIsReadWithTheBadRowPolicy)
{
    const fs::path file = write("t.csv", "id,amount\n1,5\n2,x\n3,7\n");
    DatasetRequest request;
    request.data = file.string();
    request.declared = {rules::Field{"amount", rules::FieldType::Double}};
    auto failing = resolveDataset(request, opener());
    EXPECT_FALSE(failing);
    request.onBadRow = "skip";
    auto skipping = resolveDataset(request, opener());
    ASSERT_TRUE(skipping) << skipping.error().message;
    EXPECT_EQ(skipping->data.rowCount(), 2u);
    EXPECT_EQ(skipping->report.badRows, 1);
    EXPECT_FALSE(skipping->stored);
    request.onBadRow = "ignore";
    auto bad = resolveDataset(request, opener());
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().message, "--on-bad-row: expected skip or fail");
}

TEST_F(DatasetSourceTest, AFileNeedsNoStoreAndAMissingOneIsNamed)
{
    const StoreOpener never = []() -> Result<Store> { return fail("opened"); };
    DatasetRequest request;
    request.data = (m_dir / "missing.csv").string();
    auto missing = resolveDataset(request, never);
    ASSERT_FALSE(missing);
    EXPECT_EQ(missing.error().message, request.data + ": no such file");
    request.data = write("notes.txt", "x").string();
    auto unknown = resolveDataset(request, never);
    ASSERT_FALSE(unknown);
    EXPECT_NE(unknown.error().message.find("unknown data format"), std::string::npos);
}

TEST_F(DatasetSourceTest, ANameIsAStoredSnapshot)
{
    import("small", 300, 3);
    DatasetRequest request;
    request.data = "small";
    auto resolved = resolveDataset(request, opener());
    ASSERT_TRUE(resolved) << resolved.error().message;
    EXPECT_EQ(resolved->data.rowCount(), 300u);
    ASSERT_TRUE(resolved->stored);
    EXPECT_EQ(resolved->stored->name, "small");
    EXPECT_EQ(resolved->report.kept, 300);
    request.data = "absent";
    auto absent = resolveDataset(request, opener());
    ASSERT_FALSE(absent);
    EXPECT_NE(absent.error().message.find("no dataset of that name in store"), std::string::npos);
    auto names = storedDatasetNames(*m_store);
    ASSERT_TRUE(names) << names.error().message;
    EXPECT_EQ(*names, std::vector<std::string>{"small"});
}

TEST_F(DatasetSourceTest, InASandboxANameIsOneOfItsReferences)
{
    import("small", 300, 3);
    import("other", 100, 4);
    sandboxWith("exp", {"small"});
    DatasetRequest request;
    request.sandbox = "exp";
    request.data = "small";
    auto resolved = resolveDataset(request, opener());
    ASSERT_TRUE(resolved) << resolved.error().message;
    EXPECT_EQ(resolved->data.rowCount(), 300u);
    request.data = "other";
    auto unreferenced = resolveDataset(request, opener());
    ASSERT_FALSE(unreferenced);
    EXPECT_EQ(unreferenced.error().message, "sandbox 'exp' has no dataset 'other' (its datasets: small; see: sandbench "
                                            "sandbox set exp --dataset NAME)");
    request.storeIfNotReferenced = true;
    auto fromStore = resolveDataset(request, opener());
    ASSERT_TRUE(fromStore) << fromStore.error().message;
    EXPECT_EQ(fromStore->data.rowCount(), 100u);
}

TEST_F(DatasetSourceTest, ASandboxsReferenceChecksTheSnapshotsSha256)
{
    import("small", 300, 3);
    sandboxWith("exp", {"small"});
    // The snapshot of that name is replaced by other records: the sandbox's reference no longer matches.
    ASSERT_TRUE(rules::removeDataset(*m_store, "small", "test"));
    import("small", 200, 5);
    DatasetRequest request;
    request.sandbox = "exp";
    request.data = "small";
    auto resolved = resolveDataset(request, opener());
    ASSERT_FALSE(resolved);
    EXPECT_NE(resolved.error().message.find("sandbox 'exp' refers to dataset small with SHA-256"), std::string::npos)
        << resolved.error().message;
}

TEST_F(DatasetSourceTest, ASampledReferenceIsTheSandboxsOwnSnapshotMadeOnce)
{
    import("small", 1000, 3);
    std::vector<std::string> made;
    auto first = sampledDatasetReference(*m_store, "exp", "small", 0.5, 9, made);
    ASSERT_TRUE(first) << first.error().message;
    EXPECT_EQ(first->snapshot, "exp.small");
    EXPECT_TRUE(first->sampled);
    EXPECT_EQ(made, std::vector<std::string>{"exp.small"});
    // Asked again with the same ratio and seed: the same snapshot, not made again.
    std::vector<std::string> again;
    auto second = sampledDatasetReference(*m_store, "exp", "small", 0.5, 9, again);
    ASSERT_TRUE(second) << second.error().message;
    EXPECT_EQ(second->sha256, first->sha256);
    EXPECT_TRUE(again.empty());
    // Another seed under the same name is refused.
    auto other = sampledDatasetReference(*m_store, "exp", "small", 0.5, 10, again);
    EXPECT_FALSE(other);
    removeSampledForUncreated(*m_store, "exp", made);
    auto found = rules::findDataset(*m_store, "exp.small");
    ASSERT_TRUE(found);
    EXPECT_FALSE(*found);
    EXPECT_FALSE(datasetReference(*m_store, "absent"));
}

TEST_F(DatasetSourceTest, ASandboxMadeWithASampleKeepsItAndOneNotMadeLeavesNone)
{
    import("small", 1000, 3);
    auto engine = SandboxEngine::open(*m_store);
    ASSERT_TRUE(engine) << engine.error().message;
    SandboxCreation creation;
    creation.request.name = "exp";
    creation.datasets = {"small"};
    creation.sample = 0.5;
    creation.seed = 9;
    creation.policy = "untrusted-strict";
    auto made = createSandbox(*m_store, **engine, creation);
    ASSERT_TRUE(made) << made.error().message;
    ASSERT_EQ(made->sandbox.datasets.size(), 1u);
    EXPECT_EQ(made->sandbox.datasets[0].snapshot, "exp.small");
    EXPECT_EQ(made->sandbox.policy, "preset:untrusted-strict");
    // The name is taken: refused before anything is sampled.
    auto again = createSandbox(*m_store, **engine, creation);
    ASSERT_FALSE(again);
    EXPECT_EQ(again.error().message, "a sandbox named 'exp' exists already");
    // A dataset that does not exist: refused before anything is made.
    creation.request.name = "other";
    creation.datasets = {"small", "absent"};
    EXPECT_FALSE(createSandbox(*m_store, **engine, creation));
    EXPECT_FALSE((*engine)->sandbox("other"));
    auto found = rules::findDataset(*m_store, "other.small");
    ASSERT_TRUE(found);
    EXPECT_FALSE(*found);
}

TEST_F(DatasetSourceTest, ASandboxsPolicyAndDatasetsChangeAsTheCommandLineChangesThem)
{
    import("small", 100, 3);
    auto engine = SandboxEngine::open(*m_store);
    ASSERT_TRUE(engine) << engine.error().message;
    SandboxCreation creation;
    creation.request.name = "exp";
    creation.policy = "untrusted-strict";
    ASSERT_TRUE(createSandbox(*m_store, **engine, creation));
    SandboxChange change;
    change.settings.name = "exp";
    change.datasets = {"small"};
    auto changed = changeSandbox(*m_store, **engine, change);
    ASSERT_TRUE(changed) << changed.error().message;
    EXPECT_EQ(changed->policy, "preset:untrusted-strict"); // empty: unchanged
    ASSERT_EQ(changed->datasets.size(), 1u);
    change.policy = "none";
    change.datasets.clear();
    changed = changeSandbox(*m_store, **engine, change);
    ASSERT_TRUE(changed) << changed.error().message;
    EXPECT_TRUE(changed->policy.empty());
    change.datasets = {"absent"};
    EXPECT_FALSE(changeSandbox(*m_store, **engine, change));
}

TEST_F(DatasetSourceTest, AnImportReadsTheFileWithItsOptionsAndStoresItOnce)
{
    const fs::path file = write("t.csv", "id,amount\n1,5\n2,x\n3,7\n");
    DatasetImport request;
    request.file = file.string();
    request.name = "t";
    request.fieldFlags = {"amount:double"};
    auto refused = importDatasetFile(request, opener());
    EXPECT_FALSE(refused); // a bad row, and bad rows fail by default
    request.onBadRow = "skip";
    auto imported = importDatasetFile(request, opener());
    ASSERT_TRUE(imported) << imported.error().message;
    EXPECT_EQ(imported->info.rows, 2);
    EXPECT_EQ(imported->report.badRows, 1);
    EXPECT_FALSE(importDatasetFile(request, opener())); // snapshots are immutable
    request.fieldFlags = {"amount"};
    auto badFlag = importDatasetFile(request, opener());
    ASSERT_FALSE(badFlag);
    EXPECT_NE(badFlag.error().message.find("expected NAME:TYPE"), std::string::npos);
    request.file = write("t.txt", "x").string();
    auto unknown = importDatasetFile(request, opener());
    ASSERT_FALSE(unknown);
    EXPECT_NE(unknown.error().message.find("unknown data format"), std::string::npos);
}

} // namespace
} // namespace sb
