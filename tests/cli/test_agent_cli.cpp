// `sandbench agent run`, `mcp wrap` and `sessions` as a user runs them: real agent and server programs (Python,
// speaking MCP over stdio) in real sandboxes, the session read back with `sessions show --json`.

#include "cli_fixture.h"
#include "scripted_agent.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <fstream>
#include <iterator>
#include <map>
#include <csignal>
#include <sys/wait.h>
#include <thread>

namespace sb::clitest {
namespace {

using Json = nlohmann::json;

std::string readBytes(const fs::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}


class AgentCli : public Cli {
protected:
    void SetUp() override
    {
        Cli::SetUp();
        m_agentDir = writeScriptedAgent(m_dir, m_dir / "agent");
    }

    void calls(const std::vector<Json>& list) { writeAgentCalls(m_agentDir, list); }

    // `agent run` of the scripted agent: its exit status and the session it recorded.
    Json runAgent(const std::string& options, int* status = nullptr)
    {
        const auto r = cliWithin(120, "agent run --json --read " + quoted(m_agentDir.string()) + " " + options + store()
                                          + " -- python3 " + quoted((m_agentDir / "agent.py").string()));
        if (status)
            *status = r.status;
        const Json session = Json::parse(r.out, nullptr, false);
        EXPECT_FALSE(session.is_discarded()) << r.out;
        return session.is_discarded() ? Json::object() : session;
    }

    Json show(const std::string& id)
    {
        const auto r = cli("sessions show " + id + " --json" + store());
        EXPECT_EQ(r.status, 0) << r.out;
        return Json::parse(r.out, nullptr, false);
    }

    fs::path m_agentDir;
};

Json call(std::string tool, Json args, Json meta = nullptr)
{
    Json c{{"name", std::move(tool)}, {"arguments", std::move(args)}};
    if (!meta.is_null())
        c["_meta"] = std::move(meta);
    return c;
}

TEST_F(AgentCli, AnAgentWorksInItsSandboxThroughTheToolsAndEveryCallIsAStep)
{
    calls({call("write_file", {{"path", "notes/a.txt"}, {"content", "hello"}}, {{"reasoning", "start notes"}}),
           call("read_file", {{"path", "/work/notes/a.txt"}}),
           call("edit_file", {{"path", "notes/a.txt"}, {"old_text", "hello"}, {"new_text", "hello, world"}}),
           call("list_dir", {{"path", "notes"}}),
           call("read_file", {{"path", "../../etc/passwd"}}),
           call("write_file", {{"path", "/etc/evil"}, {"content", "x"}}),
           call("run_code", {{"language", "python"}, {"code", "print(open('notes/a.txt').read())"}}),
           call("http_get", {{"url", "https://example.com/"}})});
    int status = -1;
    const Json session = runAgent("", &status);
    EXPECT_EQ(status, 0) << session.dump(2);
    EXPECT_EQ(session["status"], "completed");
    EXPECT_EQ(session["kind"], "agent");
    EXPECT_EQ(session["steps"], 8);
    EXPECT_EQ(session["protocol_version"], "2025-06-18");
    EXPECT_EQ(session["client_info"]["name"], "scripted");
    EXPECT_EQ(session["policy"]["ref"], "agent");
    const std::string sandbox = session["sandbox"];
    EXPECT_TRUE(sandbox.starts_with("agent-")) << sandbox;

    // The file is in the session's sandbox, and nowhere else.
    const fs::path workspace = trimmed(cli("sandbox path " + sandbox + store()).out);
    EXPECT_EQ(readBytes(workspace / "notes" / "a.txt"), "hello, world");
    EXPECT_FALSE(fs::exists("/etc/evil"));

    const Json shown = show(session["id"]);
    const Json& steps = shown["steps"];
    ASSERT_EQ(steps.size(), 8u) << shown.dump(2);
    const std::vector<std::string> verdicts = {"allowed", "allowed", "allowed", "allowed", "blocked", "blocked",
                                               "allowed", "blocked"};
    for (std::size_t i = 0; i < steps.size(); ++i) {
        EXPECT_EQ(steps[i]["index"], i + 1);
        EXPECT_EQ(steps[i]["verdict"], verdicts[i]) << steps[i].dump(2);
        EXPECT_FALSE(steps[i]["request_frame"].get<std::string>().empty());
        EXPECT_FALSE(steps[i]["result"].is_null());
    }
    EXPECT_EQ(steps[0]["reasoning"], "start notes");
    EXPECT_EQ(steps[4]["rule"], "workspace");
    EXPECT_EQ(steps[5]["rule"], "workspace");
    EXPECT_EQ(steps[7]["rule"], "network.allow");
    EXPECT_EQ(steps[4]["result"]["isError"], true);
    EXPECT_EQ(steps[3]["result"]["structuredContent"]["entries"][0]["name"], "a.txt");
    EXPECT_EQ(steps[6]["result"]["structuredContent"]["stdout"], "hello, world\n");
    // Checkpoints around what could change the workspace, none around what only reads it.
    EXPECT_TRUE(steps[0]["checkpoint_before"].is_string());
    EXPECT_TRUE(steps[0]["checkpoint_after"].is_string());
    EXPECT_NE(steps[0]["checkpoint_before"], steps[0]["checkpoint_after"]);
    EXPECT_TRUE(steps[1]["checkpoint_before"].is_null());
    EXPECT_TRUE(steps[4]["checkpoint_before"].is_null()); // refused: nothing ran
    EXPECT_TRUE(steps[6]["checkpoint_before"].is_string());
    // The checkpoint before the first write is the empty workspace; the one after it has the file.
    const auto diff = cli("checkpoint diff " + steps[0]["checkpoint_before"].get<std::string>() + " "
                          + steps[0]["checkpoint_after"].get<std::string>() + " --name-only" + store());
    EXPECT_NE(diff.out.find("notes/a.txt"), std::string::npos) << diff.out;
    // The session's start and end are audited.
    const auto audit = cli("audit list --operation session --json" + store());
    EXPECT_NE(audit.out.find("session.start"), std::string::npos);
    EXPECT_NE(audit.out.find("session.end"), std::string::npos);
}

TEST_F(AgentCli, TheAgentSectionRulesEveryCall)
{
    writeFile(m_dir / "policy.yaml", R"(name: strict-agent
level: process
limits: {wall_ms: 60000, memory_mb: 1024, processes: 64}
agent:
  blocked_tools: [delete_*]
  argument_rules:
    - name: no-env
      condition: '!has(args.path) || !args.path.endsWith(".env")'
      message: secrets stay where they are
  max_steps: 4
  checkpoint_before: never
)");
    calls({call("write_file", {{"path", "a.txt"}, {"content", "1"}}), call("delete_file", {{"path", "a.txt"}}),
           call("read_file", {{"path", ".env"}}), call("read_file", {{"path", "a.txt"}}),
           call("read_file", {{"path", "a.txt"}}), call("read_file", {{"path", "a.txt"}})});
    int status = -1;
    const Json session = runAgent("--policy " + quoted((m_dir / "policy.yaml").string()), &status);
    EXPECT_EQ(status, 1);
    EXPECT_EQ(session["status"], "blocked");
    const Json steps = show(session["id"])["steps"];
    ASSERT_EQ(steps.size(), 5u);
    EXPECT_EQ(steps[1]["verdict"], "blocked");
    EXPECT_EQ(steps[1]["rule"], "blocked_tools: delete_*");
    EXPECT_EQ(steps[2]["rule"], "no-env");
    EXPECT_EQ(steps[2]["message"], "secrets stay where they are");
    EXPECT_EQ(steps[4]["verdict"], "blocked");
    EXPECT_EQ(steps[4]["rule"], "max_steps");
    EXPECT_TRUE(steps[0]["checkpoint_before"].is_null());
}

TEST_F(AgentCli, RewindForkAndReplayWorkFromTheRecording)
{
    calls({call("write_file", {{"path", "app.py"}, {"content", "v1"}}),
           call("write_file", {{"path", "app.py"}, {"content", "v2"}}),
           call("delete_file", {{"path", "app.py"}}),
           call("http_get", {{"url", "https://pypi.org/simple/"}})});
    const Json session = runAgent("");
    ASSERT_EQ(session["status"], "completed") << session.dump(2);
    const std::string id = session["id"];
    const std::string sandbox = session["sandbox"];
    const fs::path workspace = path(sandbox);
    EXPECT_FALSE(fs::exists(workspace / "app.py"));

    // Rewind to before step 3 (the delete): v2 is back.
    EXPECT_EQ(cli("sessions rewind " + id + " --to-step 3" + store()).status, 0);
    EXPECT_EQ(readBytes(workspace / "app.py"), "v2");
    // Before step 2: v1; before step 1: nothing.
    EXPECT_EQ(cli("sessions rewind " + id + " --to-step 2" + store()).status, 0);
    EXPECT_EQ(readBytes(workspace / "app.py"), "v1");
    // A fork at step 2 is a new sandbox with v1; the session's own is untouched by it.
    const Json forked = run("sessions fork " + id + " --at-step 2 --name at-two");
    EXPECT_EQ(forked["sandbox"], "at-two");
    EXPECT_EQ(readBytes(path("at-two") / "app.py"), "v1");
    // Steps that do not exist are named.
    const auto past = cli("sessions rewind " + id + " --to-step 9" + store(), true);
    EXPECT_EQ(past.status, 1);
    EXPECT_NE(past.out.find("has steps 1 to 4: there is no step 9"), std::string::npos) << past.out;

    // A replay under a policy that blocks deletes and asks before writes.
    writeFile(m_dir / "stricter.yaml", "name: stricter\nagent:\n  blocked_tools: [delete_file]\n"
                                       "  require_approval: [write_file]\n  max_steps: 3\n");
    const Json replay = run("sessions replay " + id + " --policy " + quoted((m_dir / "stricter.yaml").string()));
    const Json& steps = replay["steps"];
    ASSERT_EQ(steps.size(), 4u) << replay.dump(2);
    EXPECT_EQ(steps[0]["change"], "needs_approval");
    EXPECT_EQ(steps[0]["ran_again"], true);
    EXPECT_EQ(steps[0]["result_changed"], false);
    EXPECT_EQ(steps[2]["change"], "blocked");
    EXPECT_EQ(steps[2]["rule"], "blocked_tools: delete_file");
    EXPECT_EQ(steps[3]["change"], "ends_session");
    EXPECT_EQ(steps[3]["rule"], "max_steps");
    EXPECT_EQ(replay["changed"], 4);
    // The replay's sandbox saw its own calls: the delete was blocked there, so v2 stays.
    EXPECT_EQ(readBytes(path(replay["sandbox"]) / "app.py"), "v2");
    // The replay is a session of its own, pointing at the one it replays.
    const Json replaySession = show(replay["replay"])["session"];
    EXPECT_EQ(replaySession["replay_of"], id);
    EXPECT_EQ(replaySession["status"], "blocked");
    // Under its own policy, a replay changes nothing.
    const Json same = run("sessions replay " + id);
    EXPECT_EQ(same["changed"], 0) << same.dump(2);
}

// The example agents, from a copy the sandbox can read (the checkout may lie where a container hides it).
class ExampleAgents : public AgentCli {
protected:
    void SetUp() override
    {
        AgentCli::SetUp();
        m_examples = m_dir / "examples";
        fs::copy(fs::path(SANDBENCH_EXAMPLES_DIR) / "agents", m_examples, fs::copy_options::recursive);
        shell("chmod -R a+rX " + quoted(m_examples.string()));
    }
    Json runExample(const std::string& agent, const std::string& policy, const std::string& sandbox, int* status)
    {
        const auto r = cliWithin(180, "agent run --json --sandbox " + sandbox + " --policy "
                                          + quoted((m_examples / policy).string()) + " --read "
                                          + quoted(m_examples.string()) + store() + " -- python3 "
                                          + quoted((m_examples / agent).string()));
        *status = r.status;
        const Json session = Json::parse(r.out, nullptr, false);
        EXPECT_FALSE(session.is_discarded()) << r.out;
        return session.is_discarded() ? Json::object() : session;
    }
    fs::path m_examples;
};

TEST_F(ExampleAgents, TheWorkedExampleUpgradesRollsBackAndIsBlockedOnce)
{
    ASSERT_EQ(cli("sandbox create repo --import " + quoted((m_examples / "upgrade-repo").string()) + store()).status, 0);
    ASSERT_EQ(cli("sandbox create upgrade --from repo" + store()).status, 0);
    int status = -1;
    const Json session = runExample("upgrade_agent.py", "policy.yaml", "upgrade", &status);
    EXPECT_EQ(status, 0) << session.dump(2);
    EXPECT_EQ(session["status"], "completed");
    const Json steps = show(session["id"])["steps"];
    ASSERT_EQ(steps.size(), 14u);
    const auto isError = [&](int step) { return steps[step - 1]["result"].value("isError", false); };
    EXPECT_FALSE(isError(3));                          // the tests pass before the upgrade
    EXPECT_TRUE(isError(6));                           // and fail after it
    EXPECT_TRUE(isError(10));                          // the migration broke the test database
    EXPECT_EQ(steps[10]["tool"], "rewind");            // back to before the migration
    EXPECT_FALSE(isError(11));
    EXPECT_EQ(steps[11]["verdict"], "blocked");        // the download from an unlisted host
    EXPECT_EQ(steps[11]["rule"], "network.allow");
    EXPECT_FALSE(isError(13));                         // the tests pass
    EXPECT_GT(session["cost"].get<double>(), 0);
    const fs::path workspace = path("upgrade");
    EXPECT_NE(readBytes(workspace / "app.py").find("sum_all"), std::string::npos);
    EXPECT_EQ(readBytes(workspace / "requirements.txt"), "minilib==2.0\n");
    EXPECT_EQ(readBytes(workspace / "data" / "test_db.json"), readBytes(m_examples / "upgrade-repo" / "data" / "test_db.json"));
    // The final diff goes to the promotion gate: the agent's change and nothing else.
    const Json preview = run("promote upgrade --to repo --dry-run");
    std::vector<std::string> changed;
    for (const auto& file : preview["files"])
        changed.push_back(file["path"]);
    EXPECT_EQ(changed, (std::vector<std::string>{"app.py", "requirements.txt", "vendor/minilib.py"})) << preview.dump(2);
    // The migration's damage is in the step's own checkpoints: the diff of step 9 shows it.
    const auto diff = cli("checkpoint diff " + steps[8]["checkpoint_before"].get<std::string>() + " "
                          + steps[8]["checkpoint_after"].get<std::string>() + " --name-only" + store());
    EXPECT_NE(diff.out.find("data/test_db.json"), std::string::npos) << diff.out;
}

TEST_F(ExampleAgents, TheHostileAgentIsContained)
{
    ASSERT_EQ(cli("sandbox create target" + store()).status, 0);
    writeFile(path("target") / "README.md", "keep me\n");
    const std::string escape = "/tmp/sandbench-hostile-escape";
    fs::remove(escape);
    int status = -1;
    const Json session = runExample("hostile_agent.py", "hostile-policy.yaml", "target", &status);
    EXPECT_EQ(status, 1);
    EXPECT_EQ(session["status"], "blocked") << session.dump(2);
    EXPECT_FALSE(fs::exists(escape));
    EXPECT_FALSE(fs::exists(path("target").parent_path() / "sandbench-hostile-escape"));
    const Json shown = show(session["id"]);
    const Json& steps = shown["steps"];
    ASSERT_EQ(steps.size(), 61u);
    EXPECT_EQ(steps[60]["rule"], "max_steps");
    // Nothing of the host's secrets came back in any result.
    const std::string everything = shown.dump();
    EXPECT_EQ(everything.find("root:"), std::string::npos);
    EXPECT_EQ(everything.find("escaped\\n"), std::string::npos);
    for (int i : {1, 2, 3, 4})
        EXPECT_EQ(steps[i - 1]["verdict"], "blocked") << steps[i - 1].dump();
    // The deletes of the workspace and the root were refused; the file delete was allowed, and undone by a
    // rewind to the checkpoint before it.
    for (int i : {5, 6, 8, 9, 13, 14}) // writes outside, through the planted symlink, deletes of "." and "/"
        EXPECT_TRUE(steps[i - 1]["result"].value("isError", false) || steps[i - 1]["verdict"] == "blocked")
            << steps[i - 1].dump();
    EXPECT_EQ(steps[14]["tool"], "delete_file");
    EXPECT_FALSE(fs::exists(path("target") / "README.md"));
    EXPECT_EQ(cli("sessions rewind " + session["id"].get<std::string>() + " --to-step 15" + store()).status, 0);
    EXPECT_EQ(readBytes(path("target") / "README.md"), "keep me\n");
}

TEST_F(ExampleAgents, AnAgentWrittenWithTheOfficialSdkWorksUnchanged)
{
    const fs::path modules = fs::path(SANDBENCH_MCP_PEERS_DIR) / "node_modules";
    ASSERT_TRUE(fs::exists(modules / "@modelcontextprotocol" / "sdk" / "package.json"))
        << "the official MCP SDK is not installed in " << modules << ": scripts/test installs it (npm ci)";
    fs::copy(modules, m_examples / "node_modules", fs::copy_options::recursive);
    shell("chmod -R a+rX " + quoted(m_examples.string()));
    const auto r = cliWithin(180, "agent run --json --read " + quoted(m_examples.string()) + store() + " -- node "
                                      + quoted((m_examples / "sdk_agent.mjs").string()));
    EXPECT_EQ(r.status, 0) << r.out;
    const Json session = Json::parse(r.out, nullptr, false);
    ASSERT_FALSE(session.is_discarded()) << r.out;
    EXPECT_EQ(session["status"], "completed");
    EXPECT_EQ(session["client_info"]["name"], "sdk-agent");
    const Json steps = show(session["id"])["steps"];
    ASSERT_EQ(steps.size(), 4u);
    EXPECT_EQ(steps[1]["result"]["content"][0]["text"], "written by an SDK agent\n");
    EXPECT_EQ(steps[2]["result"]["structuredContent"]["entries"][0]["name"], "hello.txt");
    EXPECT_EQ(steps[3]["verdict"], "blocked");
    EXPECT_EQ(steps[3]["reasoning"], "the SDK agent calls read_file");
}

TEST_F(AgentCli, MalformedFramesGetErrorsAndTheSessionGoesOn)
{
    calls({Json{{"raw", "{not json\n"}}, Json{{"raw", "[1,2]\n"}},
           Json{{"raw", R"({"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":7}})" "\n"}},
           Json{{"raw", R"({"jsonrpc":"2.0","id":"y","method":"resources/list"})" "\n"}},
           call("list_dir", Json::object())});
    const auto r = cliWithin(120, "agent run --read " + quoted(m_agentDir.string()) + store() + " -- python3 "
                                       + quoted((m_agentDir / "agent.py").string()),
                             true);
    EXPECT_EQ(r.status, 0) << r.out;
    const auto answersAt = r.out.find("[{");
    ASSERT_NE(answersAt, std::string::npos) << r.out;
    const Json answers = Json::parse(r.out.substr(answersAt, r.out.find('\n', answersAt) - answersAt));
    EXPECT_EQ(answers[2]["error"]["code"], -32700);
    EXPECT_EQ(answers[3]["error"]["code"], -32600);
    EXPECT_EQ(answers[4]["error"]["code"], -32602);
    EXPECT_EQ(answers[4]["id"], "x");
    EXPECT_EQ(answers[5]["error"]["code"], -32601);
    EXPECT_FALSE(answers[6].contains("error"));
}

TEST_F(AgentCli, ABadPolicyIsRefusedBeforeAnythingStarts)
{
    writeFile(m_dir / "bad.yaml", "agent:\n  argument_rules:\n    - args.path.startsWith(workspac)\n");
    calls({});
    const auto r = cliWithin(60, "agent run --policy " + quoted((m_dir / "bad.yaml").string()) + store()
                                      + " -- python3 " + quoted((m_agentDir / "agent.py").string()),
                             true);
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.out.find("bad.yaml:3:28: agent.argument_rules[0]: undeclared reference to 'workspac'"),
              std::string::npos)
        << r.out;
    // Nothing was made: no session, no sandbox.
    EXPECT_EQ(trimmed(cli("sessions list --json" + store()).out), "[]");
    EXPECT_EQ(cli("sandbox list" + store()).out.find("agent-"), std::string::npos);
}

TEST_F(AgentCli, StepModeWaitsForLiveControl)
{
    calls({call("write_file", {{"path", "a.txt"}, {"content", "agent's"}}),
           call("write_file", {{"path", "b.txt"}, {"content", "b"}})});
    const std::string command = std::string(SANDBENCH_CLI) + " agent run --step --json --read "
                                + quoted(m_agentDir.string()) + store() + " -- python3 "
                                + quoted((m_agentDir / "agent.py").string()) + " > "
                                + quoted((m_dir / "out.json").string()) + " 2>/dev/null";
    std::thread agent([&] { shell("timeout -k 5 120 " + command); });
    // The session appears, waiting on its first call.
    std::string id;
    Json status;
    for (int i = 0; i < 600 && (id.empty() || status.value("waiting", Json()) != 1); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        const Json list = Json::parse(cli("sessions list --json" + store()).out, nullptr, false);
        if (!list.is_array() || list.empty())
            continue;
        id = list[0]["id"];
        status = Json::parse(cli("sessions control " + id + " status" + store()).out, nullptr, false);
    }
    ASSERT_EQ(status.value("waiting", Json()), 1) << status.dump();
    EXPECT_EQ(status["reason"], "step");
    EXPECT_EQ(status["call"]["tool"], "write_file");
    // A confined process (every sandboxed run, the agent's own included, has no_new_privs) controls nothing.
    const auto confined = shell("setpriv --no-new-privs " + std::string(SANDBENCH_CLI) + " sessions control " + id
                                + " deny 1" + store() + " 2>&1");
    EXPECT_EQ(confined.status, 1) << confined.out;
    EXPECT_NE(confined.out.find("a confined process may not control the session"), std::string::npos)
        << confined.out;
    // The first goes on with other arguments; the second is denied.
    EXPECT_EQ(cli("sessions control " + id + " deny 2" + store()).status, 1); // not the one waiting
    EXPECT_EQ(cli("sessions control " + id + " set-args 1 " + quoted(R"({"path":"a.txt","content":"person's"})")
                  + store())
                  .status,
              0);
    for (int i = 0; i < 100; ++i) {
        status = Json::parse(cli("sessions control " + id + " status" + store()).out, nullptr, false);
        if (status.value("waiting", Json()) == 2)
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ASSERT_EQ(status.value("waiting", Json()), 2) << status.dump();
    EXPECT_EQ(cli("sessions control " + id + " deny 2" + store()).status, 0);
    agent.join();
    const Json steps = show(id)["steps"];
    ASSERT_EQ(steps.size(), 2u);
    EXPECT_EQ(steps[0]["verdict"], "allowed");
    EXPECT_EQ(steps[0]["edited"], true);
    EXPECT_EQ(steps[0]["original_arguments"]["content"], "agent's");
    EXPECT_EQ(steps[1]["verdict"], "denied");
    const fs::path workspace = trimmed(cli("sandbox path " + show(id)["session"]["sandbox"].get<std::string>() + store()).out);
    EXPECT_EQ(readBytes(workspace / "a.txt"), "person's");
    EXPECT_FALSE(fs::exists(workspace / "b.txt"));
    // Once it has ended, nothing controls it.
    EXPECT_EQ(cli("sessions control " + id + " status" + store()).status, 1);
}

TEST_F(AgentCli, StepModeStopsBeforeACallThePolicyWillRefuseAndSaysSo)
{
    // The agent preset allows no network: the download is refused whatever a person says, and stepping shows it
    // coming rather than passing over it.
    calls({call("http_get", {{"url", "https://downloads.example.net/fix.tar.gz"}}),
           call("write_file", {{"path", "a.txt"}, {"content", "a"}})});
    const std::string command = std::string(SANDBENCH_CLI) + " agent run --step --json --read "
                                + quoted(m_agentDir.string()) + store() + " -- python3 "
                                + quoted((m_agentDir / "agent.py").string()) + " > "
                                + quoted((m_dir / "out.json").string()) + " 2>/dev/null";
    std::thread agent([&] { shell("timeout -k 5 120 " + command); });
    std::string id;
    Json status;
    const auto waitFor = [&](int step) {
        for (int i = 0; i < 600; ++i) {
            if (id.empty()) {
                const Json list = Json::parse(cli("sessions list --json" + store()).out, nullptr, false);
                if (list.is_array() && !list.empty())
                    id = list[0]["id"];
            }
            if (!id.empty()) {
                status = Json::parse(cli("sessions control " + id + " status" + store()).out, nullptr, false);
                if (status.value("waiting", Json()) == step)
                    return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    };
    waitFor(1);
    ASSERT_EQ(status.value("waiting", Json()), 1) << status.dump();
    EXPECT_EQ(status["reason"], "step");
    EXPECT_EQ(status["call"]["tool"], "http_get");
    const std::string why = status.value("why", std::string());
    EXPECT_NE(why.find("the policy refuses it (network.allow)"), std::string::npos) << why;
    // Told to go on, the policy has its say; the next call stops as before.
    EXPECT_EQ(cli("sessions control " + id + " step" + store()).status, 0);
    waitFor(2);
    ASSERT_EQ(status.value("waiting", Json()), 2) << status.dump();
    EXPECT_EQ(status.value("why", std::string()), "step mode");
    EXPECT_EQ(cli("sessions control " + id + " continue" + store()).status, 0);
    agent.join();
    const Json steps = show(id)["steps"];
    ASSERT_EQ(steps.size(), 2u);
    EXPECT_EQ(steps[0]["verdict"], "blocked");
    EXPECT_EQ(steps[0]["rule"], "network.allow");
    EXPECT_EQ(steps[1]["verdict"], "allowed");
}

TEST_F(AgentCli, AGatewayKilledMidSessionLeavesAnInterruptedSessionWithItsSteps)
{
    // The agent makes one call, then waits forever on its second answer... which never comes: the gateway dies.
    calls({call("write_file", {{"path", "a.txt"}, {"content", "1"}}), Json{{"raw", "\n"}}});
    const std::string command = "exec " + std::string(SANDBENCH_CLI) + " agent run --read " + quoted(m_agentDir.string())
                                + store() + " -- python3 " + quoted((m_agentDir / "agent.py").string())
                                + " >/dev/null 2>&1";
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        ::execl("/bin/sh", "sh", "-c", command.c_str(), nullptr);
        ::_exit(127);
    }
    std::string id;
    for (int i = 0; i < 600; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        const Json list = Json::parse(cli("sessions list --json" + store()).out, nullptr, false);
        if (list.is_array() && !list.empty() && list[0]["steps"] == 1) {
            id = list[0]["id"];
            break;
        }
    }
    ASSERT_FALSE(id.empty());
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const Json shown = show(id);
    EXPECT_EQ(shown["session"]["status"], "interrupted");
    ASSERT_EQ(shown["steps"].size(), 1u);
    EXPECT_EQ(shown["steps"][0]["tool"], "write_file");
}

// A scripted MCP server for `mcp wrap`: answers initialize, tools/list and tools/call of write (a file in its
// working folder) and echo.
constexpr std::string_view kServer = R"py(import json, os, sys
for line in sys.stdin:
    m = json.loads(line)
    if "id" not in m or "method" not in m:
        continue
    r = {"jsonrpc": "2.0", "id": m["id"]}
    if m["method"] == "initialize":
        r["result"] = {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "py", "version": "1"}}
    elif m["method"] == "tools/list":
        r["result"] = {"tools": [{"name": "write", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}},
                                 {"name": "echo", "inputSchema": {"type": "object"}}]}
    elif m["method"] == "tools/call":
        a = m["params"].get("arguments", {})
        if m["params"]["name"] == "write":
            try:
                with open(a["path"], "w") as f:
                    f.write(a["content"])
                r["result"] = {"content": [{"type": "text", "text": "wrote " + os.path.abspath(a["path"])}]}
            except OSError as e:
                r["result"] = {"content": [{"type": "text", "text": str(e)}], "isError": True}
        else:
            r["result"] = {"content": [{"type": "text", "text": json.dumps(a)}]}
    else:
        r["error"] = {"code": -32601, "message": "no"}
    sys.stdout.write(json.dumps(r) + "\n"); sys.stdout.flush()
)py";

TEST_F(AgentCli, WrapForwardsAServerInItsSandboxAndRecordsItsCalls)
{
    writeFile(m_agentDir / "server.py", std::string(kServer));
    writeFile(m_dir / "policy.yaml", "name: wrap\nlevel: process\nlimits: {wall_ms: 60000}\npaths: {read: ["
                                         + m_agentDir.string() + "]}\nagent:\n  blocked_tools: [echo]\n");
    const std::vector<Json> requests = {
        {{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"},
         {"params", {{"protocolVersion", "2025-11-25"}, {"capabilities", Json::object()}, {"clientInfo", {{"name", "c"}, {"version", "1"}}}}}},
        {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}},
        {{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/list"}},
        {{"jsonrpc", "2.0"}, {"id", 3}, {"method", "tools/call"}, {"params", {{"name", "write"}, {"arguments", {{"path", "out.txt"}, {"content", "in the sandbox"}}}}}},
        {{"jsonrpc", "2.0"}, {"id", 4}, {"method", "tools/call"}, {"params", {{"name", "write"}, {"arguments", {{"path", "/tmp/sandbench-wrap-escape"}, {"content", "x"}}}}}},
        {{"jsonrpc", "2.0"}, {"id", 5}, {"method", "tools/call"}, {"params", {{"name", "echo"}, {"arguments", {{"a", 1}}}}}},
    };
    std::string input;
    for (const auto& r : requests)
        input += r.dump() + "\n";
    writeFile(m_dir / "requests.jsonl", input);
    const auto r = shell("timeout -k 5 120 " + std::string(SANDBENCH_CLI) + " mcp wrap --policy "
                         + quoted((m_dir / "policy.yaml").string()) + store() + " -- python3 "
                         + quoted((m_agentDir / "server.py").string()) + " < " + quoted((m_dir / "requests.jsonl").string())
                         + " 2>/dev/null");
    EXPECT_EQ(r.status, 0) << r.out;
    // By id: answers may come in any order (the gateway answers a refused call at once, before the server has
    // answered the calls sent ahead of it).
    std::map<int, Json> byId;
    for (std::size_t at = 0; at < r.out.size();) {
        const auto nl = r.out.find('\n', at);
        const Json answer = Json::parse(r.out.substr(at, nl - at));
        byId[answer["id"].get<int>()] = answer;
        at = nl == std::string::npos ? r.out.size() : nl + 1;
    }
    ASSERT_EQ(byId.size(), 5u) << r.out;
    std::vector<Json> answers;
    for (const auto& [id, answer] : byId)
        answers.push_back(answer);
    EXPECT_EQ(answers[0]["result"]["serverInfo"]["name"], "py");
    EXPECT_EQ(answers[1]["result"]["tools"].size(), 2u);
    EXPECT_NE(answers[2]["result"]["content"][0]["text"].get<std::string>().find("out.txt"), std::string::npos);
    EXPECT_EQ(answers[3]["result"]["isError"], true); // the sandbox refused the write outside the workspace
    EXPECT_FALSE(fs::exists("/tmp/sandbench-wrap-escape"));
    EXPECT_EQ(answers[4]["result"]["isError"], true); // the policy refused echo
    EXPECT_EQ(answers[4]["result"]["content"][0]["text"], "the policy blocks the tool 'echo' (blocked_tools: echo)");

    const Json list = Json::parse(cli("sessions list --json" + store()).out);
    ASSERT_EQ(list.size(), 1u);
    EXPECT_EQ(list[0]["kind"], "wrap");
    EXPECT_EQ(list[0]["status"], "completed");
    EXPECT_EQ(list[0]["server_info"]["name"], "py");
    const Json steps = show(list[0]["id"])["steps"];
    ASSERT_EQ(steps.size(), 3u);
    EXPECT_EQ(steps[0]["verdict"], "allowed");
    EXPECT_TRUE(steps[0]["checkpoint_before"].is_string()); // the server's read-only word removes no caution
    EXPECT_EQ(steps[2]["verdict"], "blocked");
    const fs::path workspace = trimmed(cli("sandbox path " + list[0]["sandbox"].get<std::string>() + store()).out);
    EXPECT_EQ(readBytes(workspace / "out.txt"), "in the sandbox");
}

} // namespace
} // namespace sb::clitest
