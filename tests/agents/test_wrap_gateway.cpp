// The gateway of `mcp wrap` (agents/wrap_gateway.h) between a client and a scripted MCP server, each on a pair
// of pipes: what is forwarded as it came, what the mediator answers itself, and what the session records.

#include "agents/agent_policy.h"
#include "agents/framing.h"
#include "agents/mediator.h"
#include "agents/session_store.h"
#include "agents/wrap_gateway.h"
#include "isolation/policy.h"
#include "store/store.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <fcntl.h>
#include <filesystem>
#include <mutex>
#include <poll.h>
#include <thread>
#include <unistd.h>

namespace sb::agents {
namespace {

namespace fs = std::filesystem;

struct PipePair {
    int read = -1;
    int write = -1;
    PipePair()
    {
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC) == 0) {
            read = fds[0];
            write = fds[1];
        }
    }
};

void closeFd(int& fd)
{
    if (fd >= 0)
        ::close(fd);
    fd = -1;
}

// Reads one line from `fd` within `timeoutMs`; nullopt at EOF or timeout.
class LineReader {
public:
    explicit LineReader(int fd) : m_fd(fd) {}
    std::optional<std::string> next(int timeoutMs = 5000)
    {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeoutMs);
        for (;;) {
            if (const auto nl = m_buffer.find('\n'); nl != std::string::npos) {
                std::string line = m_buffer.substr(0, nl);
                m_buffer.erase(0, nl + 1);
                return line;
            }
            const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            if (left.count() <= 0)
                return std::nullopt;
            pollfd p{m_fd, POLLIN, 0};
            if (::poll(&p, 1, static_cast<int>(left.count())) <= 0)
                continue;
            char buffer[65536];
            const ssize_t n = ::read(m_fd, buffer, sizeof buffer);
            if (n <= 0)
                return std::nullopt;
            m_buffer.append(buffer, static_cast<std::size_t>(n));
        }
    }

private:
    int m_fd;
    std::string m_buffer;
};

// A scripted MCP server: initialize, tools/list (with annotations), and tools/call of "echo" (answers with its
// arguments), "fail" (a JSON-RPC error), "silent" (never answers), "die" (ends the server); every line it
// receives is kept.
class ScriptedServer {
public:
    ScriptedServer(int in, int out) : m_in(in), m_out(out), m_thread([this] { serve(); }) {}
    ~ScriptedServer()
    {
        if (m_thread.joinable())
            m_thread.join();
    }
    std::vector<Json> received()
    {
        const std::lock_guard lock(m_mutex);
        return m_received;
    }
    void join()
    {
        if (m_thread.joinable())
            m_thread.join();
    }

private:
    void send(const Json& message) { (void)!::write(m_out, encodeFrame(message).data(), encodeFrame(message).size()); }
    void serve()
    {
        LineReader lines(m_in);
        while (auto line = lines.next(30000)) {
            const Json message = Json::parse(*line);
            {
                const std::lock_guard lock(m_mutex);
                m_received.push_back(message);
            }
            const std::string method = message.value("method", "");
            if (!message.contains("id") || !message.contains("method"))
                continue;
            const Json& id = message["id"];
            if (method == "initialize") {
                send(resultResponse(id, {{"protocolVersion", "2025-11-25"},
                                         {"capabilities", {{"tools", Json::object()}}},
                                         {"serverInfo", {{"name", "scripted"}, {"version", "1"}}}}));
            } else if (method == "tools/list") {
                send(resultResponse(
                    id, {{"tools",
                          {{{"name", "echo"}, {"annotations", {{"readOnlyHint", true}}}},
                           {{"name", "wipe"}, {"annotations", {{"destructiveHint", true}}}}}}}));
            } else if (method == "tools/call") {
                const std::string tool = message["params"]["name"];
                if (tool == "silent")
                    continue;
                if (tool == "die")
                    break;
                if (tool == "fail") {
                    send(errorResponse(invalidParams(id, "no such tool")));
                    continue;
                }
                // A notification before the answer, as a server reporting progress does.
                send(notificationMessage("notifications/progress", Json{{"progressToken", 1}, {"progress", 1}}));
                send(resultResponse(id, {{"content", {{{"type", "text"}, {"text", message["params"].value("arguments", Json::object()).dump()}}}}}));
            } else {
                send(resultResponse(id, Json::object()));
            }
        }
        ::close(m_out);
        ::close(m_in);
    }

    int m_in;
    int m_out;
    std::mutex m_mutex;
    std::vector<Json> m_received;
    std::thread m_thread;
};

class WrapGatewayTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        std::string pattern = (fs::temp_directory_path() / "sandbench-wrap-XXXXXX").string();
        ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
        m_dir = pattern;
        auto store = Store::open(m_dir / "store.db");
        ASSERT_TRUE(store) << store.error().message;
        m_store.emplace(std::move(*store));
    }
    void TearDown() override
    {
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }

    // Starts the gateway and the server with the policy's agent section; the test speaks as the client.
    void start(std::string_view agentYaml, ApprovalSource approvals = {})
    {
        auto policy = parsePolicy(agentYaml, "test.yaml");
        ASSERT_TRUE(policy) << policy.error().message;
        auto rules = AgentRules::compile(policy->agent.value_or(AgentPolicy{}));
        ASSERT_TRUE(rules) << rules.error().message;
        SessionStore sessions(*m_store);
        SessionInfo info;
        info.kind = SessionKind::Wrap;
        info.command = {"scripted"};
        info.sandbox = "test";
        info.workspace = "/work";
        auto live = sessions.begin(info);
        ASSERT_TRUE(live) << live.error().message;
        m_session.emplace(std::move(*live));
        Checkpointer checkpoint = [this](std::string_view label, std::string_view) -> Result<std::string> {
            m_checkpoints.push_back(std::string(label));
            return "cp" + std::to_string(m_checkpoints.size());
        };
        m_mediator.emplace(std::move(*rules), *m_session, "/work", checkpoint);
        m_server.emplace(m_toServer.read, m_fromServer.write);
        m_options.approvals = std::move(approvals);
        m_options.serverGraceMs = 500;
        m_gateway = std::thread([this] {
            m_outcome = forwardSession({m_fromClient.read, m_toClient.write, m_toServer.write, m_fromServer.read},
                                       *m_mediator, *m_session, m_options);
            ::close(m_toClient.write);
        });
        m_replies.emplace(m_toClient.read);
    }

    void send(const Json& message) { sendLine(encodeFrame(message)); }
    void sendLine(std::string_view line) { ASSERT_EQ(::write(m_fromClient.write, line.data(), line.size()), static_cast<ssize_t>(line.size())); }
    Json reply()
    {
        auto line = m_replies->next();
        EXPECT_TRUE(line) << "no reply from the gateway";
        return line ? Json::parse(*line) : Json();
    }
    Json call(int id, std::string_view tool, Json args = Json::object(), Json meta = nullptr)
    {
        Json params{{"name", tool}, {"arguments", std::move(args)}};
        if (!meta.is_null())
            params["_meta"] = std::move(meta);
        send(requestMessage(id, "tools/call", params));
        Json r = reply();
        while (r.contains("method")) // notifications on the way (progress)
            r = reply();
        return r;
    }
    WrapOutcome finish()
    {
        closeFd(m_fromClient.write);
        m_gateway.join();
        m_server->join();
        return m_outcome;
    }
    std::vector<StepRecord> steps()
    {
        SessionStore sessions(*m_store);
        auto all = sessions.allSteps(m_session->info().id);
        EXPECT_TRUE(all) << all.error().message;
        return all ? *all : std::vector<StepRecord>{};
    }

    fs::path m_dir;
    std::optional<Store> m_store;
    std::optional<LiveSession> m_session;
    std::optional<Mediator> m_mediator;
    std::optional<ScriptedServer> m_server;
    std::optional<LineReader> m_replies;
    std::vector<std::string> m_checkpoints;
    PipePair m_fromClient, m_toClient, m_toServer, m_fromServer;
    WrapOptions m_options;
    WrapOutcome m_outcome;
    std::thread m_gateway;
};

TEST_F(WrapGatewayTest, ForwardsTheProtocolAndRecordsBothSides)
{
    start("agent: {}\n");
    const std::string initialize =
        R"({"jsonrpc":"2.0","id":"a-1","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"tester","version":"9"}}})";
    sendLine(initialize + "\n");
    const Json answer = reply();
    EXPECT_EQ(answer["id"], "a-1");
    EXPECT_EQ(answer["result"]["serverInfo"]["name"], "scripted");
    send(notificationMessage("notifications/initialized"));
    send(requestMessage(2, "tools/list"));
    EXPECT_EQ(reply()["result"]["tools"].size(), 2u);
    const Json echoed = call(3, "echo", {{"text", "hi"}});
    EXPECT_EQ(echoed["id"], 3);
    EXPECT_EQ(echoed["result"]["content"][0]["text"], R"({"text":"hi"})");
    EXPECT_EQ(finish().status, SessionStatus::Completed);

    const auto seen = m_server->received();
    ASSERT_EQ(seen.size(), 4u);
    EXPECT_EQ(seen[0], Json::parse(initialize)); // as it came
    EXPECT_EQ(seen[1]["method"], "notifications/initialized");
    const SessionInfo info = m_session->info();
    EXPECT_EQ(info.protocolVersion, "2025-11-25");
    EXPECT_EQ(info.clientInfo["name"], "tester");
    EXPECT_EQ(info.serverInfo["name"], "scripted");
    const auto recorded = steps();
    ASSERT_EQ(recorded.size(), 1u);
    EXPECT_EQ(recorded[0].tool, "echo");
    EXPECT_EQ(recorded[0].verdict, Verdict::Allowed);
    EXPECT_EQ(recorded[0].arguments, Json({{"text", "hi"}}));
    ASSERT_TRUE(recorded[0].result);
    EXPECT_EQ((*recorded[0].result)["content"][0]["text"], R"({"text":"hi"})");
    EXPECT_GT(recorded[0].endedAtMs, 0);
    // The server called echo read-only: a third party's word, so the checkpoint is still taken.
    EXPECT_EQ(recorded[0].checkpointBefore, "cp1");
    EXPECT_EQ(recorded[0].checkpointAfter, "cp2");
}

TEST_F(WrapGatewayTest, ARefusedCallNeverReachesTheServer)
{
    start("agent:\n  blocked_tools: [wipe]\n  argument_rules: ['!has(args.path) || args.path.startsWith(workspace + \"/\")']\n");
    const Json wiped = call(1, "wipe");
    EXPECT_EQ(wiped["result"]["isError"], true);
    EXPECT_EQ(wiped["result"]["content"][0]["text"], "the policy blocks the tool 'wipe' (blocked_tools: wipe)");
    const Json outside = call(2, "echo", {{"path", "/etc/passwd"}});
    EXPECT_EQ(outside["result"]["isError"], true);
    const Json inside = call(3, "echo", {{"path", "/work/a"}});
    EXPECT_FALSE(inside["result"].contains("isError"));
    finish();
    const auto seen = m_server->received();
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_EQ(seen[0]["params"]["arguments"]["path"], "/work/a");
    const auto recorded = steps();
    ASSERT_EQ(recorded.size(), 3u);
    EXPECT_EQ(recorded[0].verdict, Verdict::Blocked);
    EXPECT_EQ(recorded[0].rule, "blocked_tools: wipe");
    EXPECT_TRUE(recorded[0].checkpointBefore.empty()); // nothing ran: nothing to keep
    EXPECT_EQ(recorded[1].verdict, Verdict::Blocked);
    EXPECT_EQ(recorded[1].rule, "argument_rules[0]");
    EXPECT_EQ(recorded[2].verdict, Verdict::Allowed);
}

TEST_F(WrapGatewayTest, MalformedFramesGetJsonRpcErrors)
{
    start("agent: {}\n");
    sendLine("{not json\n");
    Json r = reply();
    EXPECT_EQ(r["error"]["code"], kParseError);
    EXPECT_TRUE(r["id"].is_null());
    sendLine(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])" "\n");
    EXPECT_EQ(reply()["error"]["code"], kInvalidRequest);
    send(requestMessage(7, "tools/call", Json{{"name", 5}}));
    r = reply();
    EXPECT_EQ(r["id"], 7);
    EXPECT_EQ(r["error"]["code"], kInvalidParams);
    send(requestMessage(8, "tools/call", Json{{"name", "echo"}, {"arguments", "text"}}));
    EXPECT_EQ(reply()["error"]["code"], kInvalidParams);
    sendLine(std::string(5u << 20, 'x') + "\n"); // over the 4 MiB cap
    EXPECT_EQ(reply()["error"]["code"], kInvalidRequest);
    // The stream goes on after all of that.
    EXPECT_EQ(call(9, "echo")["id"], 9);
    finish();
    EXPECT_EQ(m_server->received().size(), 1u);
    EXPECT_EQ(steps().size(), 1u);
}

TEST_F(WrapGatewayTest, MaxStepsEndsTheSessionBlockedWithAFinalStep)
{
    start("agent: {max_steps: 2, checkpoint_before: never}\n");
    call(1, "echo");
    call(2, "echo");
    const Json third = call(3, "echo");
    EXPECT_EQ(third["result"]["isError"], true);
    m_gateway.join(); // the gateway ends the session by itself
    closeFd(m_fromClient.write);
    m_server.reset();
    EXPECT_EQ(m_outcome.status, SessionStatus::Blocked);
    const auto recorded = steps();
    ASSERT_EQ(recorded.size(), 3u);
    EXPECT_EQ(recorded[2].verdict, Verdict::Blocked);
    EXPECT_EQ(recorded[2].rule, "max_steps");
    EXPECT_TRUE(m_checkpoints.empty());
}

TEST_F(WrapGatewayTest, CostReportedInMetaCountsAndEndsTheSession)
{
    start("agent: {max_cost: 10, tool_costs: {echo: 2}}\n");
    call(1, "echo", Json::object(), {{"cost", 3}, {"reasoning", "I need to echo"}});
    const Json over = call(2, "echo", Json::object(), {{"sandbench/cost", 4}});
    EXPECT_EQ(over["result"]["isError"], true);
    m_gateway.join();
    closeFd(m_fromClient.write);
    m_server.reset();
    EXPECT_EQ(m_outcome.status, SessionStatus::Blocked);
    const auto recorded = steps();
    ASSERT_EQ(recorded.size(), 2u);
    EXPECT_DOUBLE_EQ(recorded[0].cost, 5);
    EXPECT_EQ(recorded[0].reasoning, "I need to echo");
    EXPECT_EQ(recorded[1].rule, "max_cost");
    EXPECT_DOUBLE_EQ(recorded[1].cost, 4); // the agent's tokens were spent; the tool never ran
}

TEST_F(WrapGatewayTest, AServerThatDiesMidCallFailsTheStepAndTheSession)
{
    start("agent: {checkpoint_before: never}\n");
    send(requestMessage(1, "tools/call", Json{{"name", "silent"}}));
    send(requestMessage(2, "tools/call", Json{{"name", "die"}}));
    const Json first = reply();
    const Json second = reply();
    EXPECT_EQ(first["error"]["code"], kInternalError);
    EXPECT_EQ(second["error"]["code"], kInternalError);
    m_gateway.join();
    closeFd(m_fromClient.write);
    m_server.reset();
    EXPECT_EQ(m_outcome.status, SessionStatus::Failed);
    const auto recorded = steps();
    ASSERT_EQ(recorded.size(), 2u);
    for (const auto& step : recorded) {
        EXPECT_EQ(step.verdict, Verdict::Failed) << step.tool;
        EXPECT_GT(step.endedAtMs, 0);
    }
}

TEST_F(WrapGatewayTest, AServerErrorFailsTheStepAndIsForwarded)
{
    start("agent: {checkpoint_before: never}\n");
    const Json failed = call(1, "fail");
    EXPECT_EQ(failed["error"]["code"], kInvalidParams);
    finish();
    const auto recorded = steps();
    ASSERT_EQ(recorded.size(), 1u);
    EXPECT_EQ(recorded[0].verdict, Verdict::Failed);
    EXPECT_EQ((*recorded[0].result)["code"], kInvalidParams);
}

TEST_F(WrapGatewayTest, AnApprovalWithEditedArgumentsIsRecordedAsEdited)
{
    start("agent: {require_approval: [echo], checkpoint_before: never}\n",
          [](std::int64_t step, const ToolCallRequest& call) -> std::optional<ApprovalDecision> {
              EXPECT_EQ(step, 1);
              EXPECT_EQ(call.tool, "echo");
              return ApprovalDecision{true, "reviewer", Json{{"text", "edited"}}};
          });
    const Json r = call(1, "echo", {{"text", "original"}});
    EXPECT_EQ(r["result"]["content"][0]["text"], R"({"text":"edited"})");
    finish();
    const auto recorded = steps();
    ASSERT_EQ(recorded.size(), 1u);
    EXPECT_EQ(recorded[0].verdict, Verdict::Approved);
    EXPECT_TRUE(recorded[0].edited);
    EXPECT_EQ(recorded[0].originalArguments, Json({{"text", "original"}}));
    EXPECT_EQ(recorded[0].arguments, Json({{"text", "edited"}}));
}

TEST_F(WrapGatewayTest, AnUnansweredApprovalIsDeniedAfterItsTimeoutAndHoldsTheCallsBehindIt)
{
    start("agent: {require_approval: [wipe], approval_timeout_ms: 200, checkpoint_before: never}\n");
    send(requestMessage(1, "tools/call", Json{{"name", "wipe"}}));
    send(requestMessage(2, "tools/call", Json{{"name", "echo"}}));
    send(requestMessage(3, "ping"));
    // The ping is not held; the echo waits behind the wipe.
    Json r = reply();
    EXPECT_EQ(r["id"], 3);
    r = reply();
    EXPECT_EQ(r["id"], 1);
    EXPECT_EQ(r["result"]["isError"], true);
    do
        r = reply();
    while (r.contains("method"));
    EXPECT_EQ(r["id"], 2);
    finish();
    const auto recorded = steps();
    ASSERT_EQ(recorded.size(), 2u);
    EXPECT_EQ(recorded[0].verdict, Verdict::Denied);
    EXPECT_EQ(recorded[0].tool, "wipe");
    EXPECT_EQ(recorded[1].verdict, Verdict::Allowed);
}

TEST_F(WrapGatewayTest, ACancelledCallEndsItsStepAndTheSessionDoesNotWaitForIt)
{
    start("agent: {checkpoint_before: never}\n");
    send(requestMessage(1, "tools/call", Json{{"name", "silent"}}));
    // Once the server has it (a call cancelled while still queued never reaches the server at all).
    for (int i = 0; i < 500 && m_server->received().empty(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    send(notificationMessage("notifications/cancelled", Json{{"requestId", 1}, {"reason", "user pressed stop"}}));
    EXPECT_EQ(call(2, "echo")["id"], 2); // the session goes on
    const auto started = std::chrono::steady_clock::now();
    EXPECT_EQ(finish().status, SessionStatus::Completed);
    // No grace spent waiting for an answer MCP says will not come.
    EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::milliseconds(m_options.serverGraceMs));
    const auto seen = m_server->received();
    ASSERT_EQ(seen.size(), 3u);
    EXPECT_EQ(seen[1]["method"], "notifications/cancelled");
    const auto recorded = steps();
    ASSERT_EQ(recorded.size(), 2u);
    EXPECT_EQ(recorded[0].verdict, Verdict::Failed);
    EXPECT_EQ(recorded[0].message, "cancelled by the client");
    EXPECT_EQ((*recorded[0].result)["reason"], "user pressed stop");
    EXPECT_EQ(recorded[1].verdict, Verdict::Allowed);
}

TEST_F(WrapGatewayTest, ServerRequestsAndNotificationsReachTheClient)
{
    start("agent: {}\n");
    // The server's progress notification comes before the result; the test's call() skips it, so read by hand.
    send(requestMessage(1, "tools/call", Json{{"name", "echo"}}));
    const Json progress = reply();
    EXPECT_EQ(progress["method"], "notifications/progress");
    EXPECT_EQ(reply()["id"], 1);
    finish();
}

} // namespace
} // namespace sb::agents
