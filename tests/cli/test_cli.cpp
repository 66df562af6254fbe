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
#include <sys/stat.h>
#include <sys/wait.h>

#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

using sb::clitest::Cli;
using sb::clitest::cli;
using sb::clitest::editStore;
using sb::clitest::shell;

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

// The command a person types (sandbench, app/client) becomes the command line's own program beside it; without
// that program it says what is missing rather than doing less.
TEST_F(Cli, TheCommandWithoutItsProgramSaysWhatIsMissing)
{
    const fs::path alone = m_dir / "alone";
    fs::create_directories(alone);
    fs::copy_file(SANDBENCH_CLIENT, alone / "sandbench");
    for (const char* args : {" --version", " exec --level process -- /bin/true"}) {
        const auto r = shell((alone / "sandbench").string() + args + " 2>&1");
        EXPECT_EQ(r.status, 1) << args << "\n" << r.out;
        EXPECT_NE(r.out.find("sandbench-cli not found beside " + (alone / "sandbench").string()), std::string::npos)
            << r.out;
        EXPECT_NE(r.out.find("an incomplete installation"), std::string::npos) << r.out;
    }
    // Where an installation puts it (PREFIX/libexec/sandbench) is found too.
    fs::create_directories(m_dir / "prefix/bin");
    fs::create_directories(m_dir / "prefix/libexec/sandbench");
    fs::copy_file(SANDBENCH_CLIENT, m_dir / "prefix/bin/sandbench");
    for (const char* program : {"sandbench-cli", "sandbench-launcher"})
        fs::copy_file(fs::path(SANDBENCH_CLIENT).parent_path() / program, m_dir / "prefix/libexec/sandbench" / program);
    const auto installed = shell((m_dir / "prefix/bin/sandbench").string() + " exec --level process --json" + store()
                                 + " -- /bin/echo installed 2>/dev/null");
    EXPECT_EQ(installed.status, 0) << installed.out;
    EXPECT_NE(installed.out.find("installed\\n"), std::string::npos) << installed.out;
}

// main() makes only the family of the command named first (app/cli/main.cpp): every command --help lists, and the
// hidden ones Slurm's tasks run, must be found in the family it makes for that name.
TEST_F(Cli, EveryCommandsHelpIsItsFamilys)
{
    const auto help = cli("--help");
    ASSERT_EQ(help.status, 0);
    std::istringstream lines(help.out.substr(help.out.find("Subcommands:")));
    std::vector<std::string> commands = {"batch-task", "agent-task"};
    for (std::string line; std::getline(lines, line);) {
        if (line.starts_with("  ") && line.size() > 2 && line[2] != ' ')
            commands.push_back(line.substr(2, line.find(' ', 2) - 2));
    }
    EXPECT_GE(commands.size(), 20u) << help.out;
    for (const auto& command : commands) {
        const auto h = cli(command + " --help", true);
        EXPECT_EQ(h.status, 0) << command << ": " << h.out;
        EXPECT_NE(h.out.find("sandbench " + command), std::string::npos) << command << ": " << h.out;
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

// What is named as a file but is none (a folder, a FIFO, a device, endless stdin) is refused at once: never
// read until the machine runs out of memory, never waited on, never a crash.
TEST_F(Cli, InputsThatAreNotFilesAreRefusedWithoutHangingOrCrashing)
{
    const auto folder = (m_dir / "a-folder.yaml").string();
    fs::create_directories(folder);
    const auto fifo = (m_dir / "fifo.yaml").string();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    for (const auto& policy : {folder, fifo, std::string("/dev/zero")}) {
        for (const std::string& command : {"exec --policy " + policy + store() + " -- /bin/true",
                                          "run --policy " + policy + store() + " " + write("ok.py", "print(1)\n")}) {
            const auto r = cli(command, true);
            EXPECT_EQ(r.status, 1) << command << "\n" << r.out;
            EXPECT_NE(r.out.find("not a regular file"), std::string::npos) << command << "\n" << r.out;
        }
    }
    const auto endless = cli("run --lang sh" + store() + " - < /dev/zero", true);
    EXPECT_EQ(endless.status, 1) << endless.out;
    EXPECT_NE(endless.out.find("stdin: the snippet is larger than 1 MiB"), std::string::npos) << endless.out;
    const auto snippetFolder = cli("run" + store() + " " + folder, true);
    EXPECT_EQ(snippetFolder.status, 1) << snippetFolder.out;
    EXPECT_NE(snippetFolder.out.find("not a regular file"), std::string::npos) << snippetFolder.out;

    std::string bomb = "name: &a \"" + std::string(100000, 'A') + "\"\nenv: {pass: [*a";
    for (int i = 1; i < 100; ++i)
        bomb += ", *a";
    const auto aliases = cli("exec --policy " + write("bomb.yaml", bomb + "]}\n") + store() + " -- /bin/true", true);
    EXPECT_EQ(aliases.status, 1) << aliases.out.substr(0, 300);
    EXPECT_NE(aliases.out.find("more than 4 MiB"), std::string::npos) << aliases.out.substr(0, 300);
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
    // Every case's run, and the worked example's: its agent's own run and the commands it ran.
    std::size_t exampleRuns = 0;
    if (const auto example = j.value("agent_session", nlohmann::json::object()); example.contains("id")) {
        const auto shown = nlohmann::json::parse(cli("sessions show " + example["id"].get<std::string>()
                                                     + " --json" + store()).out);
        exampleRuns = 1;
        for (const auto& step : shown["steps"])
            exampleRuns += step["tool"] == "run_command" && step["verdict"] == "allowed" ? 1 : 0;
    }
    EXPECT_EQ(metrics["total"], j["cases"].size() + exampleRuns);
    for (const char* o : {"ok", "error", "blocked", "timeout", "memory_limit", "crashed"})
        EXPECT_GT(metrics["outcomes"][o].get<int>(), 0) << o;
    EXPECT_FALSE(metrics["recent"].empty());
    EXPECT_GT(metrics["duration_ms"]["p95"].get<double>(), 0.0);
}

// The demo records the worked example (examples/agents: upgrade_agent.py in upgrade-repo under policy.yaml),
// built into the binary, as an agent session; so the agent workspace has a session to show after a demo.
TEST_F(Cli, DemoRecordsTheWorkedExampleAsAnAgentSession)
{
    const auto demo = cli("demo --json" + store());
    ASSERT_EQ(demo.status, 0) << demo.out;
    const auto j = nlohmann::json::parse(demo.out);
    const auto example = j.value("agent_session", nlohmann::json::object());
    EXPECT_TRUE(example.value("as_expected", false)) << example.dump(2);
    EXPECT_EQ(example["status"], "completed") << example.dump(2);
    EXPECT_EQ(example["steps"], 14);
    EXPECT_EQ(example["sandbox"], "demo-upgrade");
    ASSERT_TRUE(example["id"].is_string()) << example.dump(2);
    const std::string id = example["id"];
    const auto shown = nlohmann::json::parse(cli("sessions show " + id + " --json" + store()).out);
    EXPECT_EQ(shown["session"]["status"], "completed");
    EXPECT_TRUE(shown["session"]["first_checkpoint"].is_string());
    const auto& steps = shown["steps"];
    ASSERT_EQ(steps.size(), 14u);
    int blocked = 0;
    int checkpointed = 0;
    for (const auto& step : steps) {
        blocked += step["verdict"] == "blocked" ? 1 : 0;
        checkpointed += step["checkpoint_before"].is_string() ? 1 : 0;
    }
    EXPECT_EQ(blocked, 1);
    EXPECT_EQ(steps[11]["tool"], "http_get"); // the download from a host the policy does not list
    EXPECT_EQ(steps[11]["verdict"], "blocked");
    EXPECT_EQ(steps[11]["rule"], "network.allow");
    EXPECT_EQ(steps[10]["tool"], "rewind");   // back to the checkpoint before the migration
    EXPECT_GT(checkpointed, 0);
    // The agent's sandbox keeps its checkpoints, made from the repository's sandbox: the promotion gate shows
    // the agent's change alone.
    const auto preview = run("promote demo-upgrade --to demo-upgrade-repo --dry-run");
    std::vector<std::string> changed;
    for (const auto& file : preview["files"])
        changed.push_back(file["path"]);
    EXPECT_EQ(changed, (std::vector<std::string>{"app.py", "requirements.txt", "vendor/minilib.py"})) << preview.dump(2);

    // A second demo does not trip over the first one's sandboxes; both sessions stay, as history. Its text
    // names the session.
    const auto again = cli("demo" + store());
    ASSERT_EQ(again.status, 0) << again.out;
    const auto sessions = nlohmann::json::parse(cli("sessions list --json" + store()).out);
    ASSERT_EQ(sessions.size(), 2u);
    const std::string newest = sessions[0]["id"];
    EXPECT_NE(newest, id);
    EXPECT_EQ(sessions[0]["status"], "completed");
    EXPECT_NE(again.out.find("worked example: agent session " + newest + " completed: 14 steps in sandbox demo-upgrade"),
              std::string::npos)
        << again.out;
}

// scripts/run (and CI through it) relies on the demo's exit status: it is a failure when a case ends otherwise
// than expected. Here python3 is /bin/false, in a mount namespace of this command alone, so every Python case
// ends in `error`.
TEST_F(Cli, TheDemoFailsWhenACaseEndsOtherwise)
{
    if (::geteuid() != 0)
        GTEST_SKIP() << "replacing /usr/bin/python3 for one command takes a mount namespace of root's";
    const std::string command = "unshare --mount --propagation private sh -c 'mount --bind /bin/false /usr/bin/python3 "
                                "&& exec \"$0\" \"$@\"' "
                                + std::string(SANDBENCH_CLI) + " demo --json" + store();
    FILE* pipe = ::popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string out;
    std::array<char, 4096> buf{};
    for (size_t n = 0; (n = std::fread(buf.data(), 1, buf.size(), pipe)) > 0;)
        out.append(buf.data(), n);
    const int rc = ::pclose(pipe);
    ASSERT_TRUE(WIFEXITED(rc)) << out;
    EXPECT_EQ(WEXITSTATUS(rc), 1) << out;
    const auto j = nlohmann::json::parse(out, nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << out;
    EXPECT_FALSE(j["all_as_expected"].get<bool>());
    for (const auto& c : j["cases"]) {
        if (c["case"] == "arithmetic") {
            EXPECT_FALSE(c["as_expected"].get<bool>()) << c.dump();
        }
    }
    // The worked example's agent is a Python program too: its session failed, and says so.
    const auto example = j.value("agent_session", nlohmann::json::object());
    EXPECT_FALSE(example.value("as_expected", true)) << example.dump();
    EXPECT_TRUE(example.contains("status")) << example.dump();
    EXPECT_NE(example.value("status", nlohmann::json()), "completed") << example.dump();
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
    // policy check shows the level such a run gets.
    const auto checked = nlohmann::json::parse(cli("policy check --json " + silent).out);
    EXPECT_EQ(checked["level_named"], false);
    EXPECT_NE(checked["policy"].get<std::string>().find("level: " + defaultLevel() + "\n"), std::string::npos)
        << checked.dump();

    // --level may ask more of a policy that names its level, never less unless the policy allows it.
    const auto raised = nlohmann::json::parse(
        cli("run --json --level container --policy " + policy + store() + " " + script).out);
    EXPECT_EQ(raised["isolation"]["level"], "container");
    const auto strict = write("s.yaml", "level: strict\n");
    const auto lowered = cli("run --json --level process --policy " + strict + store() + " " + script, true);
    EXPECT_EQ(lowered.status, 1) << lowered.out;
    EXPECT_NE(lowered.out.find("--level process is below the level the policy"), std::string::npos) << lowered.out;
    const auto allowed = write("a.yaml", "level: strict\nallow_lower_level: true\n");
    const auto lowerAllowed = nlohmann::json::parse(
        cli("run --json --level process --policy " + allowed + store() + " " + script).out);
    EXPECT_EQ(lowerAllowed["isolation"]["level"], "process");
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

TEST_F(Cli, AuditListsEveryRecordedRunAndPolicyVersion)
{
    const auto script = write("a.py", "print(1)\n");
    const auto policy = write("mine.yaml", "name: mine\nlevel: process\n");
    const auto first = nlohmann::json::parse(cli("run --json --policy " + policy + store() + " " + script).out);
    const auto second = nlohmann::json::parse(
        cli("run --json --policy " + policy + " --timeout-ms 3000" + store() + " " + script).out);

    const auto listed = cli("audit list --json" + store());
    ASSERT_EQ(listed.status, 0) << listed.out;
    const auto entries = nlohmann::json::parse(listed.out);
    ASSERT_TRUE(entries.is_array());
    ASSERT_EQ(entries.size(), 4u); // policy.version, run, policy.version, run
    std::string previous(64, '0');
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const auto& entry = entries[i];
        for (const char* field :
             {"seq", "at_ms", "at", "actor", "operation", "subject", "details", "prev_hash", "hash", "mac"})
            EXPECT_TRUE(entry.contains(field)) << field;
        EXPECT_EQ(entry["mac"].get<std::string>().size(), 64u);
        EXPECT_EQ(entry["seq"], i + 1);
        EXPECT_EQ(entry["prev_hash"], previous);
        EXPECT_EQ(entry["hash"].get<std::string>().size(), 64u);
        EXPECT_TRUE(entry["details"].is_object());
        EXPECT_FALSE(entry["actor"].get<std::string>().empty());
        EXPECT_FALSE(entry.contains("problem"));
        previous = entry["hash"];
    }
    EXPECT_EQ(entries[0]["operation"], "policy.version");
    EXPECT_EQ(entries[0]["subject"], "mine@1");
    EXPECT_EQ(entries[1]["operation"], "run");
    EXPECT_EQ(entries[1]["subject"], first["run_id"]);
    EXPECT_EQ(entries[1]["details"]["outcome"], "ok");
    EXPECT_EQ(entries[1]["details"]["policy"], "mine@1");
    EXPECT_EQ(entries[3]["subject"], second["run_id"]);
    EXPECT_EQ(entries[3]["details"]["policy"], "mine@2");

    auto count = [&](const std::string& filters) {
        const auto r = cli("audit list --json " + filters + store());
        EXPECT_EQ(r.status, 0) << filters << r.out;
        return nlohmann::json::parse(r.out).size();
    };
    EXPECT_EQ(count("--operation run"), 2u);
    EXPECT_EQ(count("--operation policy"), 2u); // the family
    EXPECT_EQ(count("--operation policy.version --limit 1"), 1u);
    EXPECT_EQ(count("--subject " + first["run_id"].get<std::string>()), 1u);
    EXPECT_EQ(count("--subject mine@2"), 1u);
    EXPECT_EQ(count("--actor " + entries[0]["actor"].get<std::string>()), 4u);
    EXPECT_EQ(count("--actor nobody-at-all"), 0u);
    EXPECT_EQ(count("--since 1h"), 4u);
    EXPECT_EQ(count("--since 2000-01-01 --until 2000-12-31T23:59:59Z"), 0u);
    EXPECT_EQ(count("--until now"), 4u);
    EXPECT_EQ(count("--text MINE@2"), 2u); // the version entry and the run under it
    EXPECT_EQ(count("--operation \"'; DROP TABLE audit_log; --\""), 0u);
    const auto limited = nlohmann::json::parse(cli("audit list --json --limit 2" + store()).out);
    ASSERT_EQ(limited.size(), 2u);
    EXPECT_EQ(limited[0]["seq"], 3); // the most recent, oldest first
    EXPECT_EQ(limited[1]["seq"], 4);

    // --json and --store also before the subcommand.
    EXPECT_EQ(nlohmann::json::parse(cli("audit --json" + store() + " list").out).size(), 4u);

    const auto text = cli("audit list" + store());
    ASSERT_EQ(text.status, 0) << text.out;
    EXPECT_NE(text.out.find("policy.version"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find(first["run_id"].get<std::string>()), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("outcome=ok"), std::string::npos) << text.out;
}

TEST_F(Cli, AuditVerifyProvesTheLogAndPrintsItsHead)
{
    const auto script = write("v.py", "print(2)\n");
    ASSERT_EQ(cli("run" + store() + " " + script).status, 0);
    ASSERT_EQ(cli("run" + store() + " " + script).status, 0);

    const auto verified = cli("audit verify --json" + store());
    ASSERT_EQ(verified.status, 0) << verified.out;
    const auto j = nlohmann::json::parse(verified.out);
    EXPECT_TRUE(j["intact"].get<bool>());
    EXPECT_EQ(j["entries"], 3);
    EXPECT_EQ(j["head"]["seq"], 3);
    const std::string head = j["head"]["hash"];
    EXPECT_EQ(head.size(), 64u);
    EXPECT_TRUE(j["first_broken"].is_null());
    EXPECT_EQ(j["store"], m_store);
    // Signed with the store's key, kept under $XDG_CONFIG_HOME, not in the store.
    ASSERT_TRUE(j["key"].is_object()) << j.dump();
    EXPECT_TRUE(j["key"]["found"].get<bool>());
    EXPECT_EQ(j["key"]["first_seq"], 1);
    EXPECT_EQ(j["key"]["file"].get<std::string>().rfind((m_dir / "config" / "sandbench" / "audit-keys").string(), 0),
              0u)
        << j.dump();
    EXPECT_EQ(j["signed_entries"], 3);
    EXPECT_EQ(j["entries_before_key"], 0);
    EXPECT_TRUE(j["witness"].is_null()) << "the first verification";
    EXPECT_TRUE(j["warnings"].is_array());
    EXPECT_EQ(nlohmann::json::parse(cli("audit verify --json" + store()).out)["witness"]["seq"], 3);

    const auto text = cli("audit verify" + store());
    EXPECT_EQ(text.status, 0) << text.out;
    EXPECT_NE(text.out.find("intact"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find(head), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("signatures: 3 entries signed by the store's key"), std::string::npos) << text.out;

    // An anchor: the head kept elsewhere is still in the log; a hash the log never had is not.
    EXPECT_EQ(cli("audit verify --anchor " + head + store()).status, 0);
    std::string upper = head;
    for (char& c : upper)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    EXPECT_EQ(cli("audit verify --anchor " + upper + store()).status, 0);
    const auto foreign = cli("audit verify --json --anchor " + std::string(64, 'a') + store());
    EXPECT_EQ(foreign.status, 1) << foreign.out;
    EXPECT_EQ(nlohmann::json::parse(foreign.out)["first_broken"]["kind"], "anchor_missing");

    // A fresh store has an empty, intact log whose head is the genesis hash.
    const auto empty = cli("audit verify --json --store " + (m_dir / "empty.db").string());
    ASSERT_EQ(empty.status, 0) << empty.out;
    EXPECT_EQ(nlohmann::json::parse(empty.out)["head"]["hash"], std::string(64, '0'));
    EXPECT_EQ(nlohmann::json::parse(cli("audit list --json --store " + (m_dir / "empty.db").string()).out).size(), 0u);
}

TEST_F(Cli, AuditVerifyNamesTheFirstAlteredOrRemovedEntry)
{
    const auto script = write("t.py", "print(3)\n");
    for (int i = 0; i < 4; ++i)
        ASSERT_EQ(cli("run" + store() + " " + script).status, 0); // entries: policy.version, then 4 runs

    editStore(m_store, "UPDATE audit_log SET actor = 'mallory' WHERE seq = 3");
    const auto altered = cli("audit verify --json" + store());
    EXPECT_EQ(altered.status, 1) << altered.out;
    const auto a = nlohmann::json::parse(altered.out);
    EXPECT_FALSE(a["intact"].get<bool>());
    EXPECT_EQ(a["first_broken"]["seq"], 3);
    EXPECT_EQ(a["first_broken"]["kind"], "altered");
    EXPECT_NE(a["first_broken"]["message"].get<std::string>().find("entry 3"), std::string::npos);
    const auto alteredText = cli("audit verify" + store());
    EXPECT_EQ(alteredText.status, 1);
    EXPECT_NE(alteredText.out.find("entry 3 was altered"), std::string::npos) << alteredText.out;
    editStore(m_store, "UPDATE audit_log SET actor = (SELECT actor FROM audit_log WHERE seq = 1) WHERE seq = 3");
    EXPECT_EQ(cli("audit verify" + store()).status, 0) << "the edit undone";

    editStore(m_store, "DELETE FROM audit_log WHERE seq = 2");
    const auto removed = nlohmann::json::parse(cli("audit verify --json" + store()).out);
    EXPECT_EQ(removed["first_broken"]["seq"], 2);
    EXPECT_EQ(removed["first_broken"]["kind"], "removed");

    // Entries removed from the end: the head, kept apart, still records them.
    const std::string tail = " --store " + (m_dir / "tail.db").string();
    for (int i = 0; i < 2; ++i)
        ASSERT_EQ(cli("run" + tail + " " + script).status, 0);
    editStore((m_dir / "tail.db").string(), "DELETE FROM audit_log WHERE seq >= 2");
    const auto truncated = cli("audit verify --json" + tail);
    EXPECT_EQ(truncated.status, 1) << truncated.out;
    const auto t = nlohmann::json::parse(truncated.out);
    EXPECT_EQ(t["first_broken"]["kind"], "truncated");
    EXPECT_EQ(t["first_broken"]["seq"], 2);
}

TEST_F(Cli, AuditOfACorruptTableNamesTheEntryAndNeverCrashes)
{
    const auto script = write("c.py", "print(4)\n");
    ASSERT_EQ(cli("run" + store() + " " + script).status, 0);
    ASSERT_EQ(cli("run" + store() + " " + script).status, 0);
    editStore(m_store, "UPDATE audit_log SET hash = NULL, at_ms = 'soon' WHERE seq = 2");

    const auto verified = cli("audit verify --json" + store());
    EXPECT_EQ(verified.status, 1) << verified.out;
    const auto j = nlohmann::json::parse(verified.out);
    EXPECT_EQ(j["first_broken"]["seq"], 2);
    EXPECT_EQ(j["first_broken"]["kind"], "malformed");
    const std::string message = j["first_broken"]["message"];
    EXPECT_NE(message.find("entry 2"), std::string::npos) << message;
    EXPECT_NE(message.find("hash is NULL"), std::string::npos) << message;
    EXPECT_NE(message.find("at_ms is text"), std::string::npos) << message;

    // Still listed, the problem named in the JSON and as a warning.
    const auto listed = cli("audit list --json" + store());
    ASSERT_EQ(listed.status, 0) << listed.out;
    const auto entries = nlohmann::json::parse(listed.out);
    ASSERT_EQ(entries.size(), 3u);
    EXPECT_NE(entries[1]["problem"].get<std::string>().find("entry 2"), std::string::npos);
    const auto warned = cli("audit list" + store(), true);
    EXPECT_EQ(warned.status, 0);
    EXPECT_NE(warned.out.find("warning"), std::string::npos) << warned.out;

    // A head record edited into nonsense: verify says so, and the next run is not recorded.
    editStore(m_store, "UPDATE log_heads SET seq = 'x'");
    EXPECT_EQ(nlohmann::json::parse(cli("audit verify --json" + store()).out)["first_broken"]["kind"], "malformed");
    editStore(m_store, "UPDATE audit_log SET hash = '" + std::string(64, '0') + "', at_ms = 0 WHERE seq = 2");
    EXPECT_EQ(nlohmann::json::parse(cli("audit verify --json" + store()).out)["first_broken"]["kind"], "altered");
    const auto next = cli("run" + store() + " " + script, true);
    EXPECT_NE(next.out.find("could not be recorded"), std::string::npos) << next.out;
}

TEST_F(Cli, AuditUsageErrorsExitTwo)
{
    EXPECT_EQ(cli("audit" + store()).status, 2);
    EXPECT_EQ(cli("audit frobnicate" + store()).status, 2);
    EXPECT_EQ(cli("audit list --since yesterday" + store()).status, 2);
    EXPECT_EQ(cli("audit list --until 2024-02-30" + store()).status, 2);
    EXPECT_EQ(cli("audit list --limit 0" + store()).status, 2);
    EXPECT_EQ(cli("audit list --limit -3" + store()).status, 2);
    EXPECT_EQ(cli("audit list --limit lots" + store()).status, 2);
    EXPECT_EQ(cli("audit verify --anchor nothex" + store()).status, 2);
    EXPECT_EQ(cli("audit verify --bogus" + store()).status, 2);
    const auto since = cli("audit list --since yesterday" + store(), true);
    EXPECT_NE(since.out.find("not a time"), std::string::npos) << since.out;
    for (const char* sub : {"audit ", "audit list ", "audit verify "}) {
        const auto h = cli(std::string(sub) + "--help");
        EXPECT_EQ(h.status, 0) << sub;
        EXPECT_NE(h.out.find("--json"), std::string::npos) << sub << h.out;
        EXPECT_NE(h.out.find("--store"), std::string::npos) << sub << h.out;
    }
}

namespace {

TEST_F(Cli, RulesExprPrintsTheValue)
{
    auto o = cli("rules expr '1 + 2 * 3'");
    EXPECT_EQ(o.status, 0);
    EXPECT_EQ(o.out, "7\n");
    o = cli("rules expr 'amount > 100.0 && country in [\"US\", \"CA\"] && ts.getHours() == 10' "
            "--record '{\"amount\": 150.5, \"country\": \"US\", \"ts\": \"2024-01-01T10:00:00Z\"}'");
    EXPECT_EQ(o.status, 0);
    EXPECT_EQ(o.out, "true\n");
}

TEST_F(Cli, RulesExprJsonHasTheContractFields)
{
    auto o = cli("rules expr '[1, 2u, 2.5, \"a\"].size()' --json");
    EXPECT_EQ(o.status, 0);
    auto j = nlohmann::json::parse(o.out);
    EXPECT_TRUE(j["ok"].get<bool>());
    EXPECT_EQ(j["value"], 4);
    EXPECT_EQ(j["type"], "int");
    EXPECT_EQ(j["text"], "4");

    o = cli("rules expr 'x.filter(i, i > 1)' --record '{\"x\": [1, 2, 3]}' --json");
    j = nlohmann::json::parse(o.out);
    EXPECT_EQ(j["value"], nlohmann::json::parse("[2, 3]"));
    EXPECT_EQ(j["type"], "list");
}

TEST_F(Cli, RulesExprErrorsNameLineAndColumn)
{
    // A parse error, a type error and an evaluation error: exit 1, the place in the message and in JSON.
    auto o = cli("rules expr '1 +'", true);
    EXPECT_EQ(o.status, 1);
    EXPECT_NE(o.out.find("1:4: "), std::string::npos) << o.out;
    o = cli("rules expr 'amount > 1.0 && amout < 5.0' --record '{\"amount\": 2.0}'", true);
    EXPECT_EQ(o.status, 1);
    EXPECT_NE(o.out.find("1:17: undeclared reference to 'amout'"), std::string::npos) << o.out;
    o = cli("rules expr 'x / 0 > 1' --record '{\"x\": 3}' --json");
    EXPECT_EQ(o.status, 1);
    auto j = nlohmann::json::parse(o.out);
    EXPECT_FALSE(j["ok"].get<bool>());
    EXPECT_EQ(j["error"]["stage"], "evaluation");
    EXPECT_EQ(j["error"]["line"], 1);
    EXPECT_EQ(j["error"]["column"], 3);
    EXPECT_EQ(j["error"]["message"], "division by zero");
    o = cli("rules expr 'a +\n  b' --record '{\"a\": 1, \"b\": \"x\"}' --json");
    EXPECT_EQ(o.status, 1);
    j = nlohmann::json::parse(o.out);
    EXPECT_EQ(j["error"]["stage"], "check");
    EXPECT_EQ(j["error"]["line"], 1);
    EXPECT_EQ(j["error"]["column"], 3);
    EXPECT_EQ(j["diagnostics"].size(), 1u);
}

TEST_F(Cli, RulesExprRefusesBadRecordsAndUsage)
{
    EXPECT_EQ(cli("rules expr 'x' --record '[1]'").status, 1);
    EXPECT_EQ(cli("rules expr 'x' --record '{bad json'").status, 1);
    EXPECT_EQ(cli("rules expr 'x' --record '{\"for\": 1}'").status, 1);
    EXPECT_EQ(cli("rules expr").status, 2);
    EXPECT_EQ(cli("rules").status, 2);
    const std::string file = write("record.json", "{\"n\": 41}");
    auto o = cli("rules expr 'n + 1' --record @" + file);
    EXPECT_EQ(o.status, 0);
    EXPECT_EQ(o.out, "42\n");
}

} // namespace
