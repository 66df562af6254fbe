// The command-line contract of `sandbench sandbox ...` and `sandbench checkpoint ...`: names, JSON fields,
// exit statuses (0 ok, 1 cannot be done, 2 usage) and hostile input.

#include "cli_fixture.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>
#include <sys/stat.h>
#include <thread>

namespace sb::clitest {
namespace {

using nlohmann::json;

bool isCheckpointId(const std::string& text)
{
    return text.size() == 64 && text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

class WorkspaceCli : public Cli {
protected:
    std::string checkpoint(const std::string& sandbox, const std::string& extra = {})
    {
        const auto r = cli("checkpoint create --sandbox " + sandbox + " " + extra + store());
        EXPECT_EQ(r.status, 0) << r.out;
        return trimmed(r.out);
    }
};

TEST_F(WorkspaceCli, SandboxesListCreatePathDestroy)
{
    // main exists from the first use.
    const json first = run("sandbox list");
    ASSERT_TRUE(first.is_array());
    ASSERT_EQ(first.size(), 1u);
    for (const char* field : {"name", "owner", "created_at_ms", "expires_at_ms", "expired", "origin", "includes",
                              "excludes", "head", "checkpoints", "files", "bytes", "path", "workspace"})
        EXPECT_TRUE(first[0].contains(field)) << field;
    EXPECT_EQ(first[0]["name"], "main");
    EXPECT_TRUE(first[0]["expires_at_ms"].is_null());

    const fs::path main = path("main");
    EXPECT_TRUE(fs::is_directory(main));
    EXPECT_TRUE(main.is_absolute());
    EXPECT_EQ(main, fs::path(m_store + ".d") / "sandboxes" / "main" / "workspace");
    writeFile(main / "app.py", "print(1)\n");

    const json made = run("sandbox create exp --expires 2h");
    EXPECT_EQ(made["name"], "exp");
    EXPECT_EQ(made["origin"], "main");
    EXPECT_TRUE(made["expires_at_ms"].is_number());
    EXPECT_TRUE(isCheckpointId(made["checkpoint"]["id"].get<std::string>()));
    EXPECT_TRUE(isCheckpointId(made["saved_source"].get<std::string>())); // main's unsaved app.py
    EXPECT_TRUE(made["skipped"].is_array());
    EXPECT_EQ(readFile(fs::path(made["path"].get<std::string>()) / "app.py"), "print(1)\n");
    EXPECT_EQ(path("exp"), fs::path(made["path"].get<std::string>()));
    const json pathJson = run("sandbox path exp");
    EXPECT_EQ(pathJson["path"], made["path"]);

    const auto text = cli("sandbox list" + store());
    EXPECT_EQ(text.status, 0);
    EXPECT_NE(text.out.find("exp"), std::string::npos);

    const json destroyed = run("sandbox destroy exp");
    EXPECT_EQ(destroyed["destroyed"], "exp");
    EXPECT_GE(destroyed["checkpoints_removed"].get<int>(), 1);
    EXPECT_TRUE(destroyed["bytes_freed"].is_number());
    EXPECT_FALSE(fs::exists(made["path"].get<std::string>()));
    EXPECT_EQ(run("sandbox list").size(), 1u);
}

TEST_F(WorkspaceCli, CheckpointCreatePrintsItsIdAndListShowsIt)
{
    writeFile(path("main") / "a.txt", "one\n");
    const std::string id = checkpoint("main", "--label 'before step 12: write_file'");
    EXPECT_TRUE(isCheckpointId(id)) << id;

    writeFile(path("main") / "a.txt", "two\n");
    const json made = run("checkpoint create --sandbox main --label second --message 'why not'");
    for (const char* field : {"id", "sandbox", "parents", "kind", "label", "message", "author", "created_at_ms", "source",
                              "tree", "files", "bytes", "changes", "skipped"})
        EXPECT_TRUE(made.contains(field)) << field;
    EXPECT_EQ(made["parents"], json::array({id}));
    EXPECT_EQ(made["kind"], "checkpoint");
    EXPECT_EQ(made["changes"]["modified"], 1);

    const json list = run("checkpoint list --sandbox main");
    ASSERT_TRUE(list.is_array());
    ASSERT_GE(list.size(), 3u); // main's first, and ours
    EXPECT_EQ(list[0]["id"], made["id"]); // newest first
    EXPECT_EQ(list[1]["id"], id);
    EXPECT_EQ(list[1]["label"], "before step 12: write_file");
    const auto text = cli("checkpoint list --sandbox main" + store());
    EXPECT_NE(text.out.find(id), std::string::npos);
    EXPECT_NE(text.out.find("before step 12: write_file"), std::string::npos);
}

TEST_F(WorkspaceCli, DiffShowsTextAndBinaryAgainstACheckpointOrTheWorkspace)
{
    const fs::path main = path("main");
    writeFile(main / "edit.txt", "a\nb\nc\n");
    writeFile(main / "gone.txt", "x\n");
    writeFile(main / "pic.bin", std::string("\x89PNG\0\x01", 6));
    const std::string a = checkpoint("main");
    writeFile(main / "edit.txt", "a\nB\nc\n");
    fs::remove(main / "gone.txt");
    writeFile(main / "new.txt", "n\n");
    writeFile(main / "pic.bin", std::string("\x89PNG\0\x02", 6));

    const auto text = cli("checkpoint diff " + a + store());
    EXPECT_EQ(text.status, 0);
    EXPECT_NE(text.out.find("M edit.txt"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("A new.txt"), std::string::npos);
    EXPECT_NE(text.out.find("D gone.txt"), std::string::npos);
    EXPECT_NE(text.out.find("--- a/edit.txt\n+++ b/edit.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"), std::string::npos);
    EXPECT_NE(text.out.find("pic.bin: binary differs"), std::string::npos);

    const json live = run("checkpoint diff " + a);
    EXPECT_EQ(live["from"], a);
    EXPECT_EQ(live["to"], "workspace");
    EXPECT_EQ(live["added"], json::array({"new.txt"}));
    EXPECT_EQ(live["removed"], json::array({"gone.txt"}));
    EXPECT_EQ(live["modified"], json::array({"edit.txt", "pic.bin"}));
    ASSERT_EQ(live["files"].size(), 4u);
    for (const auto& file : live["files"]) {
        for (const char* field : {"path", "status", "type", "binary", "diff", "note"})
            EXPECT_TRUE(file.contains(field)) << field;
        if (file["path"] == "pic.bin") {
            EXPECT_TRUE(file["binary"].get<bool>());
            EXPECT_EQ(file["note"], "binary differs");
            EXPECT_TRUE(file["diff"].is_null());
        }
    }

    // Between two checkpoints, by unique prefixes.
    const std::string b = checkpoint("main");
    const json stored = run("checkpoint diff " + a.substr(0, 12) + " " + b.substr(0, 12));
    EXPECT_EQ(stored["to"], b);
    EXPECT_EQ(stored["files"], live["files"]);
    const auto names = cli("checkpoint diff " + a + " " + b + " --name-only" + store());
    EXPECT_EQ(names.out, "M edit.txt\nD gone.txt\nA new.txt\nM pic.bin\n");
}

TEST_F(WorkspaceCli, RestoreForkAndPrune)
{
    const fs::path main = path("main");
    writeFile(main / "f.txt", "v1\n");
    const std::string v1 = checkpoint("main", "--label v1");
    writeFile(main / "f.txt", "v2\n");
    const std::string v2 = checkpoint("main");
    writeFile(main / "f.txt", "unsaved\n");

    const json restored = run("checkpoint restore " + v1);
    for (const char* field : {"sandbox", "restored", "checkpoint", "saved", "added", "removed", "modified", "path"})
        EXPECT_TRUE(restored.contains(field)) << field;
    EXPECT_EQ(restored["restored"], v1);
    EXPECT_TRUE(isCheckpointId(restored["saved"].get<std::string>()));
    EXPECT_EQ(readFile(main / "f.txt"), "v1\n");
    // Nothing was lost: the unsaved state is a checkpoint.
    const json unsaved = run("checkpoint diff " + restored["saved"].get<std::string>() + " " + v2);
    EXPECT_EQ(unsaved["modified"], json::array({"f.txt"}));

    const auto text = cli("checkpoint restore " + v2 + store());
    EXPECT_EQ(text.status, 0);
    EXPECT_EQ(readFile(main / "f.txt"), "v2\n");

    const json forked = run("checkpoint fork " + v1 + " --name branch");
    EXPECT_EQ(forked["name"], "branch");
    EXPECT_EQ(forked["checkpoint"]["kind"], "fork");
    EXPECT_EQ(forked["checkpoint"]["source"], v1);
    EXPECT_EQ(readFile(path("branch") / "f.txt"), "v1\n");

    const json pruned = run("checkpoint prune --sandbox main --keep-last 1 --keep-labelled");
    EXPECT_TRUE(pruned["removed"].is_array());
    EXPECT_GE(pruned["removed"].size(), 1u);
    EXPECT_TRUE(pruned["kept"].is_number());
    EXPECT_TRUE(pruned["bytes_freed"].is_number());
    std::set<std::string> left;
    const json remaining = run("checkpoint list --sandbox main");
    for (const auto& c : remaining)
        left.insert(c["id"].get<std::string>());
    EXPECT_TRUE(left.contains(v1)); // labelled, and a sandbox was forked from it
    const json young = run("checkpoint prune --sandbox main --younger-than 7d");
    EXPECT_TRUE(young["removed"].empty());
}

TEST_F(WorkspaceCli, ExpiredSandboxesAreSwept)
{
    run("sandbox create brief --expires 1s");
    run("sandbox create lasting --expires 7d");
    std::this_thread::sleep_for(std::chrono::milliseconds(1200));
    const json listed = run("sandbox list");
    for (const auto& s : listed) {
        if (s["name"] == "brief") {
            EXPECT_TRUE(s["expired"].get<bool>());
        }
    }
    const json swept = run("sandbox sweep");
    EXPECT_EQ(swept["destroyed"], json::array({"brief"}));
    for (const char* field : {"checkpoints_removed", "blobs_freed", "bytes_freed"})
        EXPECT_TRUE(swept.contains(field)) << field;
    EXPECT_EQ(cli("sandbox path brief" + store()).status, 1);
    EXPECT_EQ(cli("sandbox path lasting" + store()).status, 0);
    EXPECT_TRUE(run("sandbox sweep")["destroyed"].empty());
}

TEST_F(WorkspaceCli, ErrorsAndUsage)
{
    struct Case {
        std::string args;
        int status;
        std::string message;
    };
    const std::vector<Case> cases = {
        {"sandbox path nope", 1, "no sandbox named 'nope'"},
        {"sandbox destroy nope", 1, "no sandbox named 'nope'"},
        {"checkpoint list --sandbox nope", 1, "no sandbox named 'nope'"},
        {"checkpoint create --sandbox nope", 1, "no sandbox named 'nope'"},
        {"checkpoint restore 0123abcd", 1, "no checkpoint '0123abcd'"},
        {"checkpoint diff 0123abcd", 1, "no checkpoint '0123abcd'"},
        {"checkpoint diff not-an-id", 1, "is not a checkpoint id"},
        {"checkpoint fork 0123abcd --name x", 1, "no checkpoint"},
        {"sandbox create x --from nothing-here", 1, "no sandbox or checkpoint named 'nothing-here'"},
        {"sandbox create x --import " + (m_dir / "missing").string(), 1, "cannot import"},
        {"sandbox destroy main", 1, "cannot be destroyed"},
        {"sandbox create main", 1, "production sandbox"},
        {"sandbox create x --expires 5", 2, "not a duration"},
        {"sandbox create x --expires 0m", 2, "not a duration"},
        {"sandbox create x --expires 1y", 2, "is not a unit"},
        {"sandbox create x --expires -2h", 2, "not a duration"},
        {"sandbox create ../evil", 2, "not a valid sandbox name"},
        {"sandbox create " + quoted("a/b"), 2, "not a valid sandbox name"},
        {"sandbox path " + quoted(""), 2, "not a valid sandbox name"},
        {"sandbox create x --from main --import /tmp", 2, "excludes"},
        {"checkpoint create", 2, "--sandbox is required"},
        {"checkpoint fork 0123abcd", 2, "--name is required"},
        {"checkpoint prune --sandbox main", 2, "say what to keep"},
        {"checkpoint prune --sandbox main --keep-last -3", 2, "not in range"},
        {"checkpoint prune --sandbox main --younger-than soon", 2, "not a duration"},
        {"sandbox create x --include ''", 1, "empty pattern"},
        {"sandbox frobnicate", 2, ""},
        {"checkpoint", 2, ""},
    };
    for (const auto& c : cases) {
        const auto r = cli(c.args + store(), true);
        EXPECT_EQ(r.status, c.status) << c.args << "\n" << r.out;
        EXPECT_NE(r.out.find(c.message), std::string::npos) << c.args << "\n" << r.out;
    }
    // Nothing was made by the failed attempts.
    EXPECT_EQ(run("sandbox list").size(), 1u);
}

TEST_F(WorkspaceCli, HostileImportIsHandledWithClearMessages)
{
    const fs::path source = m_dir / "source";
    writeFile(source / "ok.txt", "ok\n");
    writeFile(source / "not-utf8-\xff\xfe.txt", "odd\n");
    writeFile(source / "new\nline.txt", "nl\n");
    writeFile(source / "logs/x.log", "log\n");
    fs::create_directory_symlink("/etc", source / "etc-link");
    ASSERT_EQ(::mkfifo((source / "fifo").c_str(), 0600), 0);

    const auto made = cli("sandbox create imp --import " + quoted(source.string()) + " --exclude '*.log'" + store(), true);
    EXPECT_EQ(made.status, 0) << made.out;
    EXPECT_NE(made.out.find("skipped fifo: a FIFO"), std::string::npos) << made.out;
    const fs::path workspace = path("imp");
    EXPECT_TRUE(fs::is_symlink(workspace / "etc-link"));
    EXPECT_EQ(fs::read_symlink(workspace / "etc-link"), "/etc");
    EXPECT_EQ(readFile(workspace / "not-utf8-\xff\xfe.txt"), "odd\n");
    EXPECT_EQ(readFile(workspace / "new\nline.txt"), "nl\n");
    EXPECT_TRUE(fs::is_empty(workspace / "logs")); // the folder stays, as with rsync --exclude; its logs do not
    EXPECT_FALSE(fs::exists(workspace / "fifo"));

    // Odd names are escaped in text and kept byte for byte in JSON (with path_hex when not UTF-8).
    const std::string base = checkpoint("imp");
    writeFile(workspace / "not-utf8-\xff\xfe.txt", "changed\n");
    writeFile(workspace / "new\nline.txt", "changed\n");
    const auto text = cli("checkpoint diff " + base + " --name-only" + store());
    EXPECT_NE(text.out.find("M new\\x0aline.txt\n"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("M not-utf8-\\xff\\xfe.txt\n"), std::string::npos) << text.out;
    const json diff = run("checkpoint diff " + base);
    bool sawHex = false;
    for (const auto& file : diff["files"]) {
        if (file.contains("path_hex")) {
            sawHex = true;
            EXPECT_EQ(file["path_hex"], "6e6f742d757466382dfffe2e747874");
        }
    }
    EXPECT_TRUE(sawHex);
    // A restore brings them back exactly.
    run("checkpoint restore " + base);
    EXPECT_EQ(readFile(workspace / "not-utf8-\xff\xfe.txt"), "odd\n");
}

TEST_F(WorkspaceCli, RunsWorkInASandboxsWorkspace)
{
    writeFile(path("main") / "in.txt", "seven\n");
    const std::string before = checkpoint("main");
    const fs::path snippet = fs::path(m_store).parent_path() / "job.py";
    writeFile(snippet, "import pathlib\npathlib.Path('out.txt').write_text(pathlib.Path('in.txt').read_text() * 2)\n");
    const json r = run("run --sandbox main " + quoted(snippet.string()));
    EXPECT_EQ(r["outcome"], "ok") << r.dump();
    EXPECT_EQ(r["sandbox"], "main");
    EXPECT_EQ(readFile(path("main") / "out.txt"), "seven\nseven\n");
    const json diff = run("checkpoint diff " + before);
    EXPECT_EQ(diff["added"], json::array({"out.txt"})) << diff.dump();

    const auto cmd = cli("exec --sandbox main --json" + store() + " -- /bin/sh -c 'ls > listing.txt'");
    EXPECT_EQ(cmd.status, 0) << cmd.out;
    EXPECT_NE(readFile(path("main") / "listing.txt").find("out.txt"), std::string::npos);

    const auto unknown = cli("run --sandbox nosuch " + quoted(snippet.string()) + store(), true);
    EXPECT_EQ(unknown.status, 1);
    EXPECT_NE(unknown.out.find("nosuch"), std::string::npos) << unknown.out;
}

TEST_F(WorkspaceCli, RuleSetsAreDiffedRuleByRule)
{
    const fs::path demo = SANDBENCH_DEMO_DIR;
    writeFile(path("main") / "rules/card.yaml", readFile(demo / "rules/current.yaml"));
    const std::string base = checkpoint("main");
    writeFile(path("main") / "rules/card.yaml", readFile(demo / "rules/variant_a.yaml"));
    const json live = run("checkpoint diff " + base);
    ASSERT_EQ(live["files"].size(), 1u);
    const json& rules = live["files"][0]["rules"];
    EXPECT_EQ(rules["added"], json::array({"new_account_foreign_card"})) << rules.dump();
    EXPECT_EQ(rules["removed"], json::array({"legacy_country_list"}));
    ASSERT_FALSE(rules["changed"].empty());
    EXPECT_EQ(rules["changed"][0]["fields"], json::array({"condition"}));
    EXPECT_NE(rules["changed"][0]["old"]["when"], rules["changed"][0]["new"]["when"]);
    const auto text = cli("checkpoint diff " + base + " --name-only" + store());
    EXPECT_NE(text.out.find("rules: ~"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("+new_account_foreign_card"), std::string::npos) << text.out;
    // Between two checkpoints too; a file that is not a rule set has no rule diff.
    writeFile(path("main") / "notes.yaml", "a: 1\n");
    const std::string second = checkpoint("main");
    const json stored = run("checkpoint diff " + base + " " + second);
    for (const auto& file : stored["files"]) {
        if (file["path"] == "notes.yaml")
            EXPECT_TRUE(file["rules"].is_null());
        else
            EXPECT_EQ(file["rules"], rules);
    }
}

TEST_F(WorkspaceCli, TheStoreComesFromTheEnvironmentToo)
{
    ::setenv("SANDBENCH_STORE", m_store.c_str(), 1);
    const auto r = cli("sandbox path main");
    ::unsetenv("SANDBENCH_STORE");
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(fs::path(trimmed(r.out)), fs::path(m_store + ".d") / "sandboxes" / "main" / "workspace");
}

} // namespace
} // namespace sb::clitest
