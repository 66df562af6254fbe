// The command-line contract of sandbox governance: sandbox set|show, create --quota/--idle/--policy/--dataset/
// --sample, sweep archiving, checkpoint label, runs held to a sandbox's policy and quota, and rules commands
// reading a sandbox's datasets.

#include "cli_fixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

namespace sb::clitest {
namespace {

using nlohmann::json;

const char* const kData = "id,amount,country,hour\n"
                          "r1,50,US,12\n"
                          "r2,1500,US,3\n"
                          "r3,2500,NG,14\n"
                          "r4,20,NG,2\n"
                          "r5,900,FR,23\n"
                          "r6,3000,US,13\n"
                          "r7,10,US,9\n"
                          "r8,77,FR,8\n"
                          "r9,4000,NG,1\n"
                          "r10,5,US,4\n";
const char* const kRules = "name: baseline\n"
                           "version: 1\n"
                           "default: {decision: allow, score: 0}\n"
                           "fields: {amount: double}\n"
                           "rules:\n"
                           "  - id: big\n"
                           "    when: amount > 2000.0\n"
                           "    decision: block\n"
                           "    score: 90\n";

class GovernanceCli : public Cli {
protected:
    json sandboxNamed(const std::string& name)
    {
        const json list = run("sandbox list");
        for (const auto& s : list) {
            if (s["name"] == name)
                return s;
        }
        return json();
    }
    Output failing(const std::string& args) { return cli(args + store(), true); }
    // exec OPTIONS -- COMMAND: --json and --store go before the command.
    json exec(const std::string& options, const std::string& command, int expectStatus = 0)
    {
        const auto r = cli("exec --json" + store() + " " + options + " -- " + command);
        EXPECT_EQ(r.status, expectStatus) << command << "\n" << r.out;
        auto parsed = json::parse(r.out, nullptr, false);
        EXPECT_FALSE(parsed.is_discarded()) << r.out;
        return parsed;
    }
};

TEST_F(GovernanceCli, QuotasHoldAtCreationCheckpointAndRuns)
{
    writeFile(path("main") / "data.bin", std::string(2000, 'x'));

    const auto tooSmall = failing("sandbox create q --quota 1K");
    EXPECT_EQ(tooSmall.status, 1) << tooSmall.out;
    EXPECT_NE(tooSmall.out.find("'q' would hold 2000 bytes, over its quota of 1024 bytes"), std::string::npos)
        << tooSmall.out;
    EXPECT_TRUE(sandboxNamed("q").is_null());
    const auto badSize = failing("sandbox create q --quota 5X");
    EXPECT_EQ(badSize.status, 2);
    EXPECT_NE(badSize.out.find("'5X' is not a size"), std::string::npos) << badSize.out;
    const auto badIdle = failing("sandbox create q --idle soon");
    EXPECT_EQ(badIdle.status, 2);
    EXPECT_NE(badIdle.out.find("'soon'"), std::string::npos) << badIdle.out;
    EXPECT_EQ(failing("sandbox create q --quota 0").status, 2);
    EXPECT_TRUE(sandboxNamed("q").is_null());

    const json made = run("sandbox create q --quota 3M");
    const json listed = sandboxNamed("q");
    ASSERT_TRUE(listed.is_object());
    EXPECT_EQ(listed["quota_bytes"], 3 << 20);
    EXPECT_EQ(listed["usage_bytes"], 2000);
    EXPECT_EQ(listed["state"], "active");
    EXPECT_TRUE(listed["idle_ms"].is_number());
    EXPECT_TRUE(listed["idle_timeout_ms"].is_null());
    EXPECT_TRUE(listed["policy"].is_null());
    EXPECT_TRUE(listed["datasets"].is_array());

    // A run in it may add what is left of the quota, not the policy's 256 MiB (it lingers so that the
    // launcher's sampling of the disk sees the file whatever the load).
    const json runJson = exec("--sandbox q", "/bin/sh -c 'head -c 5000000 /dev/zero > big.bin; sleep 3'", 11);
    EXPECT_EQ(runJson["outcome"], "blocked");
    EXPECT_LE(runJson["disk_mb"].get<int>(), 3);
    EXPECT_EQ(runJson["disk_mb_source"], "quota");
    EXPECT_NE(runJson["message"].get<std::string>().find("disk quota"), std::string::npos) << runJson["message"];

    // Now over its quota: a checkpoint is refused with a message, nothing is recorded; so is another run.
    const auto before = run("checkpoint list --sandbox q").size();
    const auto refused = failing("checkpoint create --sandbox q");
    EXPECT_EQ(refused.status, 1);
    EXPECT_NE(refused.out.find("sandbox 'q' holds"), std::string::npos) << refused.out;
    EXPECT_NE(refused.out.find("over its quota of 3145728 bytes"), std::string::npos) << refused.out;
    EXPECT_EQ(run("checkpoint list --sandbox q").size(), before);
    const auto noRoom = cli("exec" + store() + " --sandbox q -- /bin/true", true);
    EXPECT_EQ(noRoom.status, 1);
    EXPECT_NE(noRoom.out.find("quota"), std::string::npos) << noRoom.out;

    // Raising the quota lets it through; `sandbox show` tells usage against it.
    run("sandbox set q --quota 10M");
    const json shown = run("sandbox show q");
    EXPECT_EQ(shown["quota_bytes"], 10 << 20);
    EXPECT_GT(shown["usage_bytes"].get<std::int64_t>(), 2000);
    EXPECT_EQ(cli("checkpoint create --sandbox q" + store()).status, 0);
    run("sandbox set q --quota none");
    EXPECT_TRUE(run("sandbox show q")["quota_bytes"].is_null());
    (void)made;
}

TEST_F(GovernanceCli, RunsInASandboxUseItsPolicyUnlessAFlagSaysOtherwise)
{
    const json made = run("sandbox create p --policy shell-snippet");
    EXPECT_EQ(made["policy"], "preset:shell-snippet");
    const json inSandbox = exec("--sandbox p", "/bin/true");
    EXPECT_EQ(inSandbox["disk_mb_source"], "policy");
    EXPECT_EQ(inSandbox["policy"], "shell-snippet");
    EXPECT_EQ(inSandbox["policy_source"], "sandbox");
    EXPECT_EQ(inSandbox["sandbox_policy"], "preset:shell-snippet");
    const json overridden = exec("--sandbox p --policy agent", "/bin/true");
    EXPECT_EQ(overridden["policy"], "agent");
    EXPECT_EQ(overridden["policy_source"], "option");
    EXPECT_EQ(exec("", "/bin/true")["policy_source"], "default");

    // A policy file is kept as a version in the store; a bad one is refused with its line and field.
    const std::string good = write("mine.yaml", "name: mine\nlimits:\n  wall_ms: 3000\n");
    EXPECT_EQ(run("sandbox set p --policy " + good)["policy"], "mine@1");
    const json withFile = exec("--sandbox p", "/bin/true");
    EXPECT_EQ(withFile["policy"], "mine");
    EXPECT_EQ(withFile["policy_version"]["version"], 1);
    const std::string bad = write("bad.yaml", "name: mine\nlimits:\n  wall_ms: fast\n");
    const auto refused = failing("sandbox set p --policy " + bad);
    EXPECT_EQ(refused.status, 1);
    EXPECT_NE(refused.out.find("bad.yaml:3:"), std::string::npos) << refused.out;
    EXPECT_NE(refused.out.find("limits.wall_ms"), std::string::npos) << refused.out;
    EXPECT_EQ(run("sandbox show p")["policy"], "mine@1");
    const auto unknown = failing("sandbox create p2 --policy no-such-preset");
    EXPECT_EQ(unknown.status, 1);
    EXPECT_NE(unknown.out.find("no-such-preset"), std::string::npos);
    EXPECT_TRUE(sandboxNamed("p2").is_null());
    run("sandbox set p --policy none");
    EXPECT_TRUE(run("sandbox show p")["policy"].is_null());
}

TEST_F(GovernanceCli, DatasetsAreReferencedSampledInheritedAndReadByRules)
{
    const std::string data = write("tx.csv", kData);
    const std::string rules = write("rules.yaml", kRules);
    ASSERT_EQ(cli("data import " + data + " --name tx" + store()).status, 0);

    const auto missing = failing("sandbox create x --dataset nope");
    EXPECT_EQ(missing.status, 1);
    EXPECT_NE(missing.out.find("no dataset named 'nope'"), std::string::npos) << missing.out;
    EXPECT_TRUE(sandboxNamed("x").is_null());
    EXPECT_EQ(failing("sandbox create x --sample 0.5").status, 2); // samples nothing

    const json sampled = run("sandbox create s --dataset tx --sample 0.5 --seed 7");
    ASSERT_EQ(sampled["datasets"].size(), 1u);
    EXPECT_EQ(sampled["datasets"][0]["name"], "tx");
    EXPECT_EQ(sampled["datasets"][0]["snapshot"], "s.tx");
    EXPECT_EQ(sampled["datasets"][0]["sampled"], true);
    const json sample = run("data show s.tx");
    const auto rows = sample["rows"].get<int>();
    EXPECT_GT(rows, 0);
    EXPECT_LT(rows, 10);
    // The same seed keeps the same records.
    const json again = run("sandbox create s2 --dataset tx --sample 0.5 --seed 7");
    EXPECT_EQ(again["datasets"][0]["sha256"], sampled["datasets"][0]["sha256"]);

    // rules --sandbox: the name is the sandbox's reference (its sample), not the store's whole snapshot.
    const json inSandbox = run("rules eval --rules " + rules + " --data tx --sandbox s");
    EXPECT_EQ(inSandbox["total"], rows);
    EXPECT_EQ(run("rules eval --rules " + rules + " --data tx")["total"], 10);
    const auto notThere = failing("rules eval --rules " + rules + " --data other --sandbox s");
    EXPECT_EQ(notThere.status, 1);
    EXPECT_NE(notThere.out.find("sandbox 's' has no dataset 'other'"), std::string::npos) << notThere.out;

    // Made from s, or forked from its checkpoint: the references come along.
    EXPECT_EQ(run("sandbox create child --from s")["datasets"], sampled["datasets"]);
    const json forked = run("checkpoint fork " + sampled["checkpoint"]["id"].get<std::string>() + " --name forked");
    EXPECT_EQ(forked["datasets"], sampled["datasets"]);

    // set --dataset / --drop-dataset; unknown ones change nothing.
    EXPECT_EQ(run("sandbox set child --dataset tx")["datasets"][0]["snapshot"], "tx");
    EXPECT_EQ(failing("sandbox set child --drop-dataset nope").status, 1);
    EXPECT_EQ(failing("sandbox set child --dataset nope").status, 1);
    EXPECT_EQ(run("sandbox show child")["datasets"].size(), 1u);
    EXPECT_TRUE(run("sandbox set child --drop-dataset tx")["datasets"].empty());

    // Destroying s2 removes the sample made for it alone; the shared snapshot stays. s.tx stays with s.
    const json destroyed = run("sandbox destroy s2");
    EXPECT_EQ(destroyed["datasets_removed"], json::array({"s2.tx"}));
    const json left = run("data list");
    std::vector<std::string> names;
    for (const auto& d : left)
        names.push_back(d["name"].get<std::string>());
    EXPECT_EQ(names, (std::vector<std::string>{"s.tx", "tx"}));
    EXPECT_TRUE(run("sandbox destroy s")["datasets_removed"].empty()); // forked still refers to s.tx
    // A sample the sandbox dropped is still its own (its checkpoints refer to it): it goes with it.
    run("sandbox create s3 --dataset tx --sample 0.3 --seed 1");
    EXPECT_TRUE(run("sandbox set s3 --drop-dataset tx")["datasets"].empty());
    EXPECT_EQ(run("sandbox destroy s3")["datasets_removed"], json::array({"s3.tx"}));
    EXPECT_EQ(cli("audit verify" + store()).status, 0);
}

// promote --data NAME measures a changed rule set on the promoted sandbox's own reference of that name (its
// sample); a name it does not refer to is the store's dataset.
TEST_F(GovernanceCli, PromoteMeasuresOnTheSandboxsDatasetReference)
{
    // Amounts with decimals: the rule set declares amount a double, and the gate checks the data agrees.
    std::string decimals = kData;
    for (std::size_t at = decimals.find(",US"); at != std::string::npos; at = decimals.find(",US", at + 5))
        decimals.insert(at, ".5");
    for (std::size_t at = decimals.find(",NG"); at != std::string::npos; at = decimals.find(",NG", at + 5))
        decimals.insert(at, ".5");
    for (std::size_t at = decimals.find(",FR"); at != std::string::npos; at = decimals.find(",FR", at + 5))
        decimals.insert(at, ".5");
    const std::string data = write("tx.csv", decimals);
    ASSERT_EQ(cli("data import " + data + " --name tx" + store()).status, 0);
    ASSERT_EQ(cli("data import " + data + " --name other" + store()).status, 0);
    const std::string main = cli("sandbox path main" + store()).out;
    const std::filesystem::path mainPath = main.substr(0, main.find_last_not_of('\n') + 1);
    {
        std::ofstream out(mainPath / "rules.yaml");
        out << kRules;
    }
    run("checkpoint create --sandbox main");
    const json sandbox = run("sandbox create p --dataset tx --sample 0.5 --seed 7");
    const auto rows = run("data show p.tx")["rows"].get<int>();
    ASSERT_GT(rows, 0);
    ASSERT_LT(rows, 10);
    std::string candidate = kRules;
    candidate.replace(candidate.find("2000.0"), 6, "1000.0");
    {
        std::ofstream out(std::filesystem::path(sandbox["workspace"].get<std::string>()) / "rules.yaml");
        out << candidate;
    }
    auto reasons = [&](const std::string& name) {
        const json report = run("promote p --dry-run --data " + name);
        std::string all;
        for (const auto& r : report["risk_reasons"])
            all += r.get<std::string>() + "\n";
        return all;
    };
    const std::string onSample = reasons("tx");
    EXPECT_NE(onSample.find(" of " + std::to_string(rows) + " records"), std::string::npos) << onSample;
    const std::string onStore = reasons("other");
    EXPECT_NE(onStore.find(" of 10 records"), std::string::npos) << onStore;
}

TEST_F(GovernanceCli, SweepArchivesIdleSandboxesAndUseRevivesThem)
{
    run("sandbox create idle --idle 1ms");
    writeFile(path("idle") / "work/notes.txt", "unsaved\n");
    const fs::path folder = path("idle");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const json swept = run("sandbox sweep");
    EXPECT_EQ(swept["archived"], json::array({"idle"}));
    EXPECT_EQ(swept["destroyed"], json::array());
    ASSERT_EQ(swept["saved"].size(), 1u);
    EXPECT_FALSE(fs::exists(folder));
    const json shown = run("sandbox show idle");
    EXPECT_EQ(shown["state"], "archived");
    EXPECT_EQ(sandboxNamed("main")["state"], "active");
    const json auto_ = run("checkpoint list --sandbox idle")[0];
    EXPECT_EQ(auto_["kind"], "auto");
    EXPECT_NE(auto_["message"].get<std::string>().find("archived"), std::string::npos);

    // sandbox path is a use: the folder comes back, with the unsaved work.
    EXPECT_EQ(readFile(path("idle") / "work/notes.txt"), "unsaved\n");
    EXPECT_EQ(run("sandbox show idle")["state"], "active");
    run("sandbox set idle --idle none");
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    EXPECT_TRUE(run("sandbox sweep")["archived"].empty());
    EXPECT_EQ(failing("sandbox set main --idle 1h").status, 1);
    EXPECT_EQ(failing("sandbox set idle --idle 5").status, 2);
    EXPECT_EQ(failing("sandbox set idle").status, 1);
    EXPECT_EQ(cli("audit verify" + store()).status, 0);
}

TEST_F(GovernanceCli, CheckpointLabelsSetAndClearAndAreAudited)
{
    writeFile(path("main") / "a.txt", "a\n");
    const std::string id = trimmed(cli("checkpoint create --sandbox main --label first" + store()).out);
    const json labelled = run("checkpoint label " + id.substr(0, 10) + " 'release 1'");
    EXPECT_EQ(labelled["id"], id);
    EXPECT_EQ(labelled["label"], "release 1");
    EXPECT_EQ(run("checkpoint list --sandbox main")[0]["label"], "release 1");
    EXPECT_EQ(run("checkpoint label " + id + " ''")["label"], "");
    EXPECT_EQ(run("checkpoint list --sandbox main")[0]["id"], id);
    EXPECT_EQ(run("checkpoint list --sandbox main")[0]["label"], "");
    const auto unknown = failing("checkpoint label ffff0000 x");
    EXPECT_EQ(unknown.status, 1);
    EXPECT_NE(unknown.out.find("ffff0000"), std::string::npos) << unknown.out;
    EXPECT_EQ(failing("checkpoint label " + id).status, 2); // the text is required ("" clears)
    const json audit = run("audit list --operation checkpoint.label");
    EXPECT_EQ(audit.size(), 2u);
    EXPECT_EQ(cli("audit verify" + store()).status, 0);
}

} // namespace
} // namespace sb::clitest
