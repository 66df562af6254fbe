// The command-line contract: names, JSON fields and exit statuses that scripts rely on.

#include "cli_fixture.h"
#include "isolation/outcome.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sqlite3.h>
#include <sys/wait.h>

namespace fs = std::filesystem;

using sb::clitest::Cli;
using sb::clitest::cli;

namespace {

// The level a run gets when nothing names one: the deepest the machine offers (as doctor reports it).
std::string defaultLevel()
{
    const auto doctor = nlohmann::json::parse(cli("doctor --json").out);
    for (const char* level : {"strict", "container"}) {
        if (doctor["levels"][level].get<bool>())
            return level;
    }
    return "process";
}

} // namespace

TEST_F(Cli, VersionAndHelp)
{
    const auto v = cli("--version");
    EXPECT_EQ(v.status, 0);
    EXPECT_NE(v.out.find("sandbench "), std::string::npos);
    for (const char* sub : {"", "run ", "exec ", "demo ", "metrics ", "doctor ", "history ", "policy versions ",
                            "policy show ", "sandbox ", "sandbox create ", "sandbox list ", "sandbox path ",
                            "sandbox destroy ", "sandbox sweep ", "checkpoint ", "checkpoint create ",
                            "checkpoint list ", "checkpoint diff ", "checkpoint restore ", "checkpoint fork ",
                            "checkpoint prune "}) {
        const auto h = cli(std::string(sub) + "--help");
        EXPECT_EQ(h.status, 0) << sub;
        EXPECT_NE(h.out.find("--"), std::string::npos) << sub;
    }
}

TEST_F(Cli, UsageErrorsExitTwo)
{
    EXPECT_EQ(cli("").status, 2);
    EXPECT_EQ(cli("frobnicate").status, 2);
    EXPECT_EQ(cli("run").status, 2);
    EXPECT_EQ(cli("run --lang cobol x.py").status, 2);
    EXPECT_EQ(cli("run --timeout-ms -4 " + write("a.py", "print(1)")).status, 2);
    EXPECT_EQ(cli("run --timeout-ms abc " + write("b.py", "print(1)")).status, 2);
}

TEST_F(Cli, RunJsonHasTheContractFields)
{
    const auto r = cli("run --json" + store() + " " + write("ok.py", "print(6*7)\n"));
    ASSERT_EQ(r.status, 0) << r.out;
    const auto j = nlohmann::json::parse(r.out);
    for (const char* field : {"run_id", "outcome", "exit_code", "signal", "stdout", "stderr", "stdout_truncated",
                              "stderr_truncated", "duration_ms", "cpu_ms", "peak_rss_kb", "blocked", "isolation",
                              "message", "language", "policy", "policy_version", "started_at_ms"})
        EXPECT_TRUE(j.contains(field)) << field;
    EXPECT_EQ(j["policy"], "default"); // the name, as before policies were versioned
    EXPECT_EQ(j["policy_version"]["name"], "default");
    EXPECT_EQ(j["policy_version"]["version"], 1);
    EXPECT_EQ(j["policy_version"]["sha256"].get<std::string>().size(), 64u);
    EXPECT_EQ(j["outcome"], "ok");
    EXPECT_EQ(j["stdout"], "42\n");
    EXPECT_TRUE(j["blocked"].is_array());
    EXPECT_EQ(j["isolation"]["level"], defaultLevel());
    EXPECT_TRUE(j["isolation"]["layers"]["seccomp"].get<bool>());
    EXPECT_TRUE(j["isolation"]["layers"]["landlock"].get<bool>());
}

TEST_F(Cli, ExitStatusPerOutcome)
{
    struct Case {
        std::string file, source, flags;
        sb::Outcome outcome;
    };
    const std::vector<Case> cases = {
        {"e.py", "raise SystemExit(4)\n", "", sb::Outcome::Error},
        {"b.py", "import socket\n", "", sb::Outcome::Blocked},
        {"t.py", "while True: pass\n", "--timeout-ms 300", sb::Outcome::Timeout},
        {"m.py", "x = bytearray(512 * 1024 * 1024)\n", "--memory-mb 64", sb::Outcome::MemoryLimit},
        {"c.sh", "kill -ABRT $$\n", "", sb::Outcome::Crashed},
    };
    for (const auto& c : cases) {
        const auto r = cli("run --json " + c.flags + store() + " " + write(c.file, c.source));
        EXPECT_EQ(r.status, sb::exitStatusFor(c.outcome)) << c.file << r.out;
        const auto j = nlohmann::json::parse(r.out);
        EXPECT_EQ(j["outcome"], std::string(sb::toString(c.outcome))) << c.file;
    }
    const auto blocked = nlohmann::json::parse(cli("run --json" + store() + " " + write("b2.py", "import os\n")).out);
    ASSERT_EQ(blocked["blocked"].size(), 1u);
    EXPECT_EQ(blocked["blocked"][0]["kind"], "import");
    EXPECT_EQ(blocked["blocked"][0]["detail"], "os");
}

TEST_F(Cli, ReadsStandardInputAndLanguageFlag)
{
    const auto r = cli("run --lang sh --json" + store() + " -", false, "echo from-stdin");
    ASSERT_EQ(r.status, 0) << r.out;
    EXPECT_EQ(nlohmann::json::parse(r.out)["stdout"], "from-stdin\n");
}

TEST_F(Cli, BadInputFilesAreRefusedClearly)
{
    auto missing = cli("run" + store() + " " + (m_dir / "nope.py").string(), true);
    EXPECT_NE(missing.status, 0);
    EXPECT_NE(missing.out.find("nope.py"), std::string::npos) << missing.out;

    const auto bin = (m_dir / "bin.py").string();
    {
        std::ofstream out(bin, std::ios::binary);
        out.write("print(1)\0\0\xff", 11);
    }
    auto binary = cli("run" + store() + " " + bin, true);
    EXPECT_EQ(binary.status, 1);
    EXPECT_NE(binary.out.find("binary"), std::string::npos) << binary.out;

    auto badPolicy = cli("run --policy " + write("p.yaml", "limits:\n  wall_ms: never\n") + store() + " "
                             + write("ok.py", "print(1)\n"),
                         true);
    EXPECT_EQ(badPolicy.status, 1);
    EXPECT_NE(badPolicy.out.find("p.yaml:2:12"), std::string::npos) << badPolicy.out;
}

TEST_F(Cli, PolicyFileIsApplied)
{
    const auto policy = write("p.yaml", "limits:\n  wall_ms: 250\n");
    const auto r = cli("run --json --policy " + policy + store() + " " + write("loop.py", "while True: pass\n"));
    EXPECT_EQ(r.status, sb::exitStatusFor(sb::Outcome::Timeout)) << r.out;
}

TEST_F(Cli, StoreFromEnvironmentAndMetrics)
{
    const auto envStore = (m_dir / "env.db").string();
    ASSERT_EQ(::setenv("SANDBENCH_STORE", envStore.c_str(), 1), 0);
    const auto recorded = cli("run --json " + write("ok3.py", "print(3)\n"));
    EXPECT_EQ(recorded.status, 0);
    const auto metrics = cli("metrics --json");
    ::unsetenv("SANDBENCH_STORE");
    ASSERT_EQ(metrics.status, 0) << metrics.out;
    const auto j = nlohmann::json::parse(metrics.out);
    EXPECT_EQ(j["total"], 1);
    EXPECT_EQ(j["outcomes"]["ok"], 1);
    EXPECT_TRUE(fs::exists(envStore));
}

TEST_F(Cli, DemoMovesEveryOutcomeItCovers)
{
    const auto demo = cli("demo --json" + store());
    ASSERT_EQ(demo.status, 0) << demo.out;
    const auto j = nlohmann::json::parse(demo.out);
    EXPECT_TRUE(j["all_as_expected"].get<bool>());
    const auto metrics = nlohmann::json::parse(cli("metrics --json" + store()).out);
    EXPECT_EQ(metrics["total"], j["cases"].size());
    for (const char* o : {"ok", "error", "blocked", "timeout", "memory_limit", "crashed"})
        EXPECT_GT(metrics["outcomes"][o].get<int>(), 0) << o;
    EXPECT_FALSE(metrics["recent"].empty());
    EXPECT_GT(metrics["duration_ms"]["p95"].get<double>(), 0.0);
}

TEST_F(Cli, CorruptStoreIsRefusedAndUntouched)
{
    const auto bad = write("corrupt.db", std::string(8192, 'Z'));
    const auto before = fs::file_size(bad);
    const auto r = cli("run --store " + bad + " " + write("ok.py", "print(1)\n"), true);
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_NE(r.out.find(bad), std::string::npos) << r.out;
    EXPECT_EQ(fs::file_size(bad), before);
    std::ifstream in(bad, std::ios::binary);
    const std::string content((std::istreambuf_iterator<char>(in)), {});
    EXPECT_EQ(content, std::string(8192, 'Z'));
}

TEST_F(Cli, DoctorReportsLayers)
{
    const auto r = cli("doctor --json");
    ASSERT_EQ(r.status, 0) << r.out;
    const auto j = nlohmann::json::parse(r.out);
    for (const char* layer : {"seccomp", "landlock", "rlimits", "unprivileged", "user_namespaces", "cgroups"}) {
        ASSERT_TRUE(j["layers"].contains(layer)) << layer;
        EXPECT_TRUE(j["layers"][layer].contains("detail")) << layer;
    }
    EXPECT_TRUE(j["levels"]["process"].get<bool>());
    EXPECT_EQ(j["levels"]["container"].get<bool>(), j["layers"]["user_namespaces"]["available"].get<bool>());
    EXPECT_EQ(j["levels"]["strict"].get<bool>(), j["levels"]["container"].get<bool>());
}

TEST_F(Cli, ExecRunsACommandInTheSandbox)
{
    const auto r = cli("exec --json" + store() + " -- sh -c 'echo $0-ran' probe");
    ASSERT_EQ(r.status, 0) << r.out;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["stdout"], "probe-ran\n");
    EXPECT_EQ(j["language"], "command");
    EXPECT_EQ(j["isolation"]["level"], defaultLevel());

    const auto missing = cli("exec --json" + store() + " -- sandbench-no-such-program");
    EXPECT_EQ(missing.status, sb::exitStatusFor(sb::Outcome::InternalError)) << missing.out;
    EXPECT_EQ(nlohmann::json::parse(missing.out)["outcome"], "internal_error");
    EXPECT_EQ(cli("exec" + store()).status, 2) << "a command is required";
    EXPECT_EQ(cli("exec --level sideways" + store() + " -- true").status, 2);
}

TEST_F(Cli, LevelFromFlagOrPolicy)
{
    const auto script = write("lvl.sh", "echo hi\n");
    const auto flagged = nlohmann::json::parse(cli("run --json --level process" + store() + " " + script).out);
    EXPECT_EQ(flagged["isolation"]["level"], "process");
    const auto policy = write("p.yaml", "level: process\n");
    const auto fromPolicy = nlohmann::json::parse(cli("run --json --policy " + policy + store() + " " + script).out);
    EXPECT_EQ(fromPolicy["isolation"]["level"], "process");
    const auto silent = write("q.yaml", "limits:\n  wall_ms: 2000\n");
    const auto unnamed = nlohmann::json::parse(cli("run --json --policy " + silent + store() + " " + script).out);
    EXPECT_EQ(unnamed["isolation"]["level"], defaultLevel());
}

TEST_F(Cli, PolicyVersionsAreRecordedListedAndShown)
{
    const auto script = write("v.py", "print(1)\n");
    const auto policy = write("mine.yaml", "name: mine\nlevel: process\nlimits:\n  wall_ms: 2000\n");
    auto runWith = [&](const std::string& flags) {
        const auto r = cli("run --json --policy " + policy + " " + flags + store() + " " + script);
        EXPECT_EQ(r.status, 0) << r.out;
        return nlohmann::json::parse(r.out)["policy_version"];
    };
    const auto first = runWith("");
    EXPECT_EQ(first["name"], "mine");
    EXPECT_EQ(first["version"], 1);
    const auto second = runWith("--timeout-ms 3000"); // different content: the next version
    EXPECT_EQ(second["version"], 2);
    EXPECT_NE(second["sha256"], first["sha256"]);
    const auto third = runWith(""); // the first content again: its version, not a new one
    EXPECT_EQ(third["version"], 1);
    EXPECT_EQ(third["sha256"], first["sha256"]);

    const auto execed = nlohmann::json::parse(cli("exec --json --policy " + policy + store() + " -- true").out);
    EXPECT_EQ(execed["policy_version"]["name"], "mine");
    EXPECT_EQ(execed["policy_version"]["version"], 1);

    const auto listed = cli("policy versions mine --json" + store());
    ASSERT_EQ(listed.status, 0) << listed.out;
    const auto versions = nlohmann::json::parse(listed.out);
    ASSERT_EQ(versions.size(), 2u);
    EXPECT_EQ(versions[0]["version"], 1);
    EXPECT_EQ(versions[0]["runs"], 3);
    EXPECT_EQ(versions[0]["sha256"], first["sha256"]);
    EXPECT_GT(versions[0]["created_at_ms"].get<std::int64_t>(), 0);
    EXPECT_EQ(versions[1]["version"], 2);
    EXPECT_EQ(versions[1]["runs"], 1);

    // Text: a short hash (the full one is in --json); every name without NAME.
    const auto text = cli("policy versions" + store());
    ASSERT_EQ(text.status, 0) << text.out;
    const std::string sha = first["sha256"];
    EXPECT_NE(text.out.find("mine"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find(sha.substr(0, 12)), std::string::npos) << text.out;
    EXPECT_EQ(text.out.find(sha), std::string::npos) << text.out;
    EXPECT_EQ(nlohmann::json::parse(cli("policy versions nobody --json" + store()).out).size(), 0u);

    const auto shown = cli("policy show mine --version 2" + store());
    ASSERT_EQ(shown.status, 0) << shown.out;
    EXPECT_NE(shown.out.find("name: mine"), std::string::npos) << shown.out;
    EXPECT_NE(shown.out.find("wall_ms: 3000"), std::string::npos) << shown.out;
    const auto shownJson = nlohmann::json::parse(cli("policy show mine --version 1 --json" + store()).out);
    EXPECT_EQ(shownJson["sha256"], first["sha256"]);
    EXPECT_NE(shownJson["yaml"].get<std::string>().find("wall_ms: 2000"), std::string::npos);
    EXPECT_TRUE(shownJson["sha256_matches"].get<bool>());

    const auto missing = cli("policy show mine --version 3" + store(), true);
    EXPECT_EQ(missing.status, 1) << missing.out;
    EXPECT_NE(missing.out.find("no version 3 of policy 'mine'"), std::string::npos) << missing.out;
    EXPECT_EQ(cli("policy show mine --version 0" + store()).status, 2);
    EXPECT_EQ(cli("policy show mine" + store()).status, 2) << "--store needs --version";

    // Presets are still shown by name.
    const auto preset = cli("policy show python-snippet");
    EXPECT_EQ(preset.status, 0);
    EXPECT_NE(preset.out.find("python-snippet"), std::string::npos) << preset.out;

    const auto history = cli("history" + store());
    EXPECT_NE(history.out.find("mine@2"), std::string::npos) << history.out;
    EXPECT_NE(history.out.find("mine@1"), std::string::npos) << history.out;
    const auto historyJson = nlohmann::json::parse(cli("history --json" + store()).out);
    ASSERT_EQ(historyJson.size(), 4u);
    EXPECT_EQ(historyJson[0]["policy_version"]["name"], "mine"); // the exec, newest first
    EXPECT_FALSE(historyJson[0].contains("policy_error"));
}

TEST_F(Cli, AStoredPolicyEditedIntoNonsenseIsNamedAndTheRunKept)
{
    const auto script = write("n.py", "print(1)\n");
    const auto policy = write("mine.yaml", "name: mine\nlevel: process\n");
    ASSERT_EQ(cli("run --policy " + policy + store() + " " + script).status, 0);
    {
        sqlite3* db = nullptr;
        ASSERT_EQ(sqlite3_open(m_store.c_str(), &db), SQLITE_OK);
        ASSERT_EQ(sqlite3_exec(db, "UPDATE policies SET yaml = 'limits: {wall_ms: soon}'", nullptr, nullptr, nullptr),
                  SQLITE_OK);
        sqlite3_close(db);
    }
    const auto history = cli("history --json" + store(), false);
    ASSERT_EQ(history.status, 0) << history.out;
    const auto runs = nlohmann::json::parse(history.out);
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(runs[0]["stdout"], "1\n");
    EXPECT_EQ(runs[0]["policy_version"]["name"], "mine");
    const std::string error = runs[0]["policy_error"];
    EXPECT_NE(error.find(m_store), std::string::npos) << error;
    EXPECT_NE(error.find("mine@1"), std::string::npos) << error;
    EXPECT_NE(error.find("yaml:1:"), std::string::npos) << error;

    const auto text = cli("history" + store(), true);
    EXPECT_EQ(text.status, 0) << text.out;
    EXPECT_NE(text.out.find("warning"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("mine@1"), std::string::npos) << text.out;

    // show still prints what is stored, and says the text no longer matches its hash.
    const auto shown = cli("policy show mine --version 1" + store(), true);
    EXPECT_EQ(shown.status, 0) << shown.out;
    EXPECT_NE(shown.out.find("wall_ms: soon"), std::string::npos) << shown.out;
    EXPECT_NE(shown.out.find("does not match its sha256"), std::string::npos) << shown.out;
}
