// Agent sessions and their steps in the store (agents/session_store.h): what is recorded comes back whole, in
// order; ids are found by prefix; a session whose gateway died (a real SIGKILL) is found interrupted with every
// step it recorded; edits of the store outside Sandbench are named, never a crash.

#include "agents/session_store.h"

#include "store/audit.h"
#include "store/store.h"
#include "util/uuid.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;
using sb::AuditFilter;
using sb::Store;
using sb::agents::Json;
using sb::agents::LiveSession;
using sb::agents::SessionInfo;
using sb::agents::SessionKind;
using sb::agents::SessionStatus;
using sb::agents::SessionStore;
using sb::agents::SessionUpdate;
using sb::agents::StepEnd;
using sb::agents::StepRecord;
using sb::agents::Verdict;

class SessionStoreTest : public ::testing::Test {
protected:
    SessionStoreTest()
    {
        std::string pattern = (fs::temp_directory_path() / "sandbench-sessions-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr)
            throw std::runtime_error("mkdtemp failed");
        m_dir = pattern;
        // This test's audit keys stay in its folder, never the user's.
        ::setenv("SANDBENCH_AUDIT_KEYS", (m_dir / "keys").c_str(), 1);
    }
    ~SessionStoreTest() override
    {
        m_store.reset();
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }

    fs::path dbPath() const { return m_dir / "workbench.db"; }

    Store& store()
    {
        if (!m_store) {
            auto opened = Store::open(dbPath());
            if (!opened)
                throw std::runtime_error(opened.error().message);
            m_store = std::make_unique<Store>(std::move(*opened));
        }
        return *m_store;
    }

    // A session as `sandbench agent run` would begin it.
    SessionInfo agentSession(std::string id = {})
    {
        sb::Policy policy;
        policy.name = "agent";
        auto version = store().recordPolicy(policy);
        EXPECT_TRUE(version) << version.error().message;
        SessionInfo info;
        info.id = std::move(id);
        info.kind = SessionKind::Agent;
        info.command = {"python3", "agent.py", "--task", "upgrade"};
        info.sandbox = "try-upgrade";
        info.policy = version.value_or(sb::PolicyVersion{});
        info.policyRef = "preset:agent";
        info.workspace = "/workspace";
        return info;
    }

    LiveSession begin(SessionInfo info)
    {
        SessionStore sessions(store());
        auto live = sessions.begin(std::move(info));
        if (!live)
            throw std::runtime_error(live.error().message);
        return std::move(*live);
    }

    static StepRecord call(std::string tool, Json arguments)
    {
        StepRecord step;
        step.tool = std::move(tool);
        step.arguments = std::move(arguments);
        step.requestFrame = Json{{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/call"}}.dump();
        return step;
    }

    // Runs SQL on the store's file directly, as someone editing it by hand would.
    void edit(const std::string& sql)
    {
        sqlite3* db = nullptr;
        ASSERT_EQ(sqlite3_open(dbPath().c_str(), &db), SQLITE_OK);
        sqlite3_busy_timeout(db, 5000);
        char* error = nullptr;
        const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
        EXPECT_EQ(rc, SQLITE_OK) << sql << ": " << (error ? error : "?");
        sqlite3_free(error);
        sqlite3_close(db);
    }

    std::vector<sb::AuditRecord> audit(std::string_view operation)
    {
        auto records = sb::listAudit(store(), AuditFilter{.operation = std::string(operation)});
        EXPECT_TRUE(records) << records.error().message;
        return records.value_or(std::vector<sb::AuditRecord>{});
    }

    fs::path m_dir;
    std::unique_ptr<Store> m_store;
};

bool contains(const std::string& text, std::string_view needle)
{
    return text.find(needle) != std::string::npos;
}

// What writeShowJson writes, whole.
sb::Result<std::string> shownText(SessionStore& sessions, const SessionInfo& session)
{
    std::string text;
    auto written = sessions.writeShowJson(session, [&](std::string_view piece) -> sb::Result<void> {
        text += piece;
        return {};
    });
    if (!written)
        return std::unexpected(written.error());
    return text;
}

// The error of a result that must be one ("" when it is a value).
template <typename T> std::string errorOf(const sb::Result<T>& result)
{
    EXPECT_FALSE(result.has_value());
    return result ? std::string() : result.error().message;
}

TEST(SessionNames, AreTheContractsWords)
{
    const std::vector<std::pair<Verdict, std::string>> verdicts = {{Verdict::Allowed, "allowed"},
                                                                   {Verdict::Blocked, "blocked"},
                                                                   {Verdict::Approved, "approved"},
                                                                   {Verdict::Denied, "denied"},
                                                                   {Verdict::Failed, "failed"}};
    for (const auto& [verdict, name] : verdicts) {
        EXPECT_EQ(toString(verdict), name);
        EXPECT_EQ(sb::agents::verdictFromString(name), verdict);
    }
    const std::vector<std::pair<SessionStatus, std::string>> statuses = {{SessionStatus::Running, "running"},
                                                                         {SessionStatus::Completed, "completed"},
                                                                         {SessionStatus::Blocked, "blocked"},
                                                                         {SessionStatus::Failed, "failed"},
                                                                         {SessionStatus::Interrupted, "interrupted"}};
    for (const auto& [status, name] : statuses) {
        EXPECT_EQ(toString(status), name);
        EXPECT_EQ(sb::agents::sessionStatusFromString(name), status);
    }
    EXPECT_EQ(toString(SessionKind::Agent), "agent");
    EXPECT_EQ(toString(SessionKind::Wrap), "wrap");
    EXPECT_EQ(sb::agents::sessionKindFromString("wrap"), SessionKind::Wrap);

    for (std::string_view unknown : {"", "Allowed", "pending", "needs_approval"})
        EXPECT_FALSE(sb::agents::verdictFromString(unknown)) << unknown;
    EXPECT_FALSE(sb::agents::sessionStatusFromString("done"));
    EXPECT_FALSE(sb::agents::sessionKindFromString("Agent"));
}

TEST_F(SessionStoreTest, ASessionAndItsStepsComeBackAsRecorded)
{
    SessionInfo info = agentSession();
    const sb::PolicyVersion policy = info.policy;
    LiveSession live = begin(info);
    const std::string id = live.info().id;
    EXPECT_TRUE(sb::isCanonicalUuid(id)) << id;
    EXPECT_EQ(live.info().status, SessionStatus::Running);
    EXPECT_GT(live.info().startedAtMs, 0);

    ASSERT_TRUE(live.update(SessionUpdate{.runId = "run-1",
                                          .protocolVersion = "2025-11-25",
                                          .clientInfo = Json{{"name", "sdk"}, {"version", "1.2"}},
                                          .serverInfo = Json{{"name", "sandbench"}},
                                          .firstCheckpoint = std::string(64, 'c')}));

    StepRecord read = call("read_file", {{"path", "/workspace/a.txt"}});
    // Text of every kind: quotes and backslashes, control characters, UTF-8, bytes that are not UTF-8.
    read.reasoning = "look at \"a.txt\" first \\ \x01\t\n ü \xff";
    read.cost = 0.5;
    read.startedAtMs = 1000;
    ASSERT_EQ(live.addStep(read).value(), 1);

    StepRecord write = call("write_file", {{"path", "/workspace/a.txt"}, {"content", "ü\n"}});
    write.startedAtMs = 2000;
    write.cost = 2;
    write.verdict = Verdict::Approved;
    write.rule = "require_approval: write_file";
    write.checkpointBefore = std::string(64, 'a');
    write.edited = true;
    write.originalArguments = Json{{"path", "/etc/passwd"}, {"content", "x"}};
    ASSERT_EQ(live.addStep(write).value(), 2);

    StepRecord blocked = call("delete_file", {{"path", "/"}});
    blocked.startedAtMs = 3000;
    blocked.endedAtMs = 3000;
    blocked.verdict = Verdict::Blocked;
    blocked.rule = "blocked_tools: delete_*";
    blocked.message = "delete_file is blocked by the policy: \"/\" is outside C:\\workspace";
    blocked.result = Json{{"isError", true}, {"content", Json::array({{{"type", "text"}, {"text", "blocked"}}})}};
    ASSERT_EQ(live.addStep(blocked).value(), 3);
    EXPECT_EQ(live.info().steps, 3);
    EXPECT_DOUBLE_EQ(live.info().cost, 2.5);

    const Json readResult = {{"content", Json::array({{{"type", "text"}, {"text", "hello"}}})}};
    ASSERT_TRUE(live.finishStep(1, StepEnd{.result = readResult, .endedAtMs = 1040, .responseFrame = "{\"r\":1}"}));
    ASSERT_TRUE(live.finishStep(2, StepEnd{.result = Json{{"isError", true}},
                                           .endedAtMs = 2100,
                                           .checkpointAfter = std::string(64, 'b'),
                                           .verdict = Verdict::Failed,
                                           .message = std::string("the server failed")}));
    ASSERT_TRUE(live.end(SessionStatus::Completed, "the agent finished"));
    EXPECT_TRUE(live.ended());

    SessionStore sessions(store());
    auto found = sessions.find(id);
    ASSERT_TRUE(found) << found.error().message;
    EXPECT_EQ(found->id, id);
    EXPECT_EQ(found->kind, SessionKind::Agent);
    EXPECT_EQ(found->command, info.command);
    EXPECT_EQ(found->sandbox, "try-upgrade");
    EXPECT_EQ(found->policy.id, policy.id);
    EXPECT_EQ(found->policy.name, "agent");
    EXPECT_EQ(found->policy.version, policy.version);
    EXPECT_EQ(found->policy.sha256, policy.sha256);
    EXPECT_EQ(found->policyRef, "preset:agent");
    EXPECT_EQ(found->workspace, "/workspace");
    EXPECT_EQ(found->status, SessionStatus::Completed);
    EXPECT_EQ(found->message, "the agent finished");
    EXPECT_EQ(found->startedAtMs, live.info().startedAtMs);
    EXPECT_GE(found->endedAtMs, found->startedAtMs);
    EXPECT_EQ(found->steps, 3);
    EXPECT_DOUBLE_EQ(found->cost, 2.5);
    EXPECT_EQ(found->firstCheckpoint, std::string(64, 'c'));
    EXPECT_EQ(found->protocolVersion, "2025-11-25");
    EXPECT_EQ(found->clientInfo, (Json{{"name", "sdk"}, {"version", "1.2"}}));
    EXPECT_EQ(found->serverInfo, (Json{{"name", "sandbench"}}));
    EXPECT_EQ(found->runId, "run-1");
    EXPECT_EQ(found->replayOf, "");

    auto steps = sessions.allSteps(id);
    ASSERT_TRUE(steps) << steps.error().message;
    ASSERT_EQ(steps->size(), 3u);
    const StepRecord& first = (*steps)[0];
    EXPECT_EQ(first.index, 1);
    EXPECT_EQ(first.tool, "read_file");
    EXPECT_EQ(first.arguments, read.arguments);
    EXPECT_EQ(first.result, readResult);
    EXPECT_EQ(first.reasoning, read.reasoning); // byte for byte
    EXPECT_EQ(first.startedAtMs, 1000);
    EXPECT_EQ(first.endedAtMs, 1040);
    EXPECT_DOUBLE_EQ(first.cost, 0.5);
    EXPECT_EQ(first.verdict, Verdict::Allowed);
    EXPECT_EQ(first.requestFrame, read.requestFrame);
    EXPECT_EQ(first.responseFrame, "{\"r\":1}");
    EXPECT_FALSE(first.edited);
    EXPECT_FALSE(first.originalArguments);

    const StepRecord& second = (*steps)[1];
    EXPECT_EQ(second.index, 2);
    EXPECT_EQ(second.arguments, write.arguments); // the edited arguments, as sent on
    EXPECT_EQ(second.verdict, Verdict::Failed);   // changed by the outcome
    EXPECT_EQ(second.message, "the server failed");
    EXPECT_EQ(second.rule, "require_approval: write_file");
    EXPECT_EQ(second.checkpointBefore, std::string(64, 'a'));
    EXPECT_EQ(second.checkpointAfter, std::string(64, 'b'));
    EXPECT_TRUE(second.edited);
    EXPECT_EQ(second.originalArguments, write.originalArguments);

    const StepRecord& third = (*steps)[2];
    EXPECT_EQ(third.verdict, Verdict::Blocked);
    EXPECT_EQ(third.rule, "blocked_tools: delete_*");
    EXPECT_EQ(third.message, blocked.message);
    EXPECT_EQ(third.result, blocked.result);
    EXPECT_EQ(third.endedAtMs, 3000);

    // The JSON of `sessions show --json`.
    const Json shown = sb::agents::sessionShowJson(*found, *steps);
    const Json& session = shown.at("session");
    EXPECT_EQ(session.at("id"), id);
    EXPECT_EQ(session.at("kind"), "agent");
    EXPECT_EQ(session.at("command"), Json(info.command));
    EXPECT_EQ(session.at("policy"), (Json{{"name", "agent"}, {"version", policy.version}, {"ref", "preset:agent"}}));
    EXPECT_EQ(session.at("status"), "completed");
    EXPECT_EQ(session.at("steps"), 3);
    EXPECT_EQ(session.at("cost"), 2.5);
    EXPECT_EQ(session.at("run_id"), "run-1");
    EXPECT_TRUE(session.at("replay_of").is_null());
    EXPECT_EQ(session.at("client_info").at("name"), "sdk");
    for (const char* field : {"sandbox", "workspace", "message", "started_at_ms", "ended_at_ms", "first_checkpoint",
                              "protocol_version", "server_info"})
        EXPECT_TRUE(session.contains(field)) << field;
    ASSERT_EQ(shown.at("steps").size(), 3u);
    const Json& step = shown.at("steps")[1];
    EXPECT_EQ(step.at("index"), 2);
    EXPECT_EQ(step.at("tool"), "write_file");
    EXPECT_EQ(step.at("verdict"), "failed");
    EXPECT_EQ(step.at("started_at_ms"), 2000);
    EXPECT_EQ(step.at("ended_at_ms"), 2100);
    EXPECT_EQ(step.at("duration_ms"), 100);
    EXPECT_EQ(step.at("checkpoint_before"), std::string(64, 'a'));
    EXPECT_EQ(step.at("edited"), true);
    EXPECT_EQ(step.at("original_arguments"), *write.originalArguments);
    for (const char* field : {"arguments", "result", "reasoning", "cost", "rule", "message", "checkpoint_after",
                              "request_frame", "response_frame"})
        EXPECT_TRUE(step.contains(field)) << field;
    EXPECT_TRUE(shown.at("steps")[0].at("checkpoint_before").is_null());
    EXPECT_TRUE(shown.at("steps")[0].at("original_arguments").is_null());

    // The same text, written straight from the store.
    auto text = shownText(sessions, *found);
    ASSERT_TRUE(text) << text.error().message;
    EXPECT_EQ(*text, shown.dump(-1, ' ', false, Json::error_handler_t::replace));
}

TEST_F(SessionStoreTest, AStepInFlightHasNoEndYet)
{
    LiveSession live = begin(agentSession());
    StepRecord step = call("run_command", {{"command", "make test"}});
    step.startedAtMs = 500;
    ASSERT_TRUE(live.addStep(step));
    auto steps = SessionStore(store()).allSteps(live.info().id);
    ASSERT_TRUE(steps) << steps.error().message;
    ASSERT_EQ(steps->size(), 1u);
    EXPECT_EQ((*steps)[0].endedAtMs, 0);
    EXPECT_FALSE((*steps)[0].result);
    const Json json = sb::agents::stepJson((*steps)[0]);
    EXPECT_TRUE(json.at("ended_at_ms").is_null());
    EXPECT_TRUE(json.at("duration_ms").is_null());
    EXPECT_TRUE(json.at("result").is_null());

    const Json session = sb::agents::sessionJson(live.info());
    EXPECT_EQ(session.at("status"), "running");
    EXPECT_TRUE(session.at("ended_at_ms").is_null());
}

TEST_F(SessionStoreTest, StepIndexesAreTheSessionsOwn)
{
    LiveSession live = begin(agentSession());
    StepRecord wrong = call("read_file", Json::object());
    wrong.index = 2;
    auto refused = live.addStep(wrong);
    ASSERT_FALSE(refused);
    EXPECT_TRUE(contains(refused.error().message, "step 2 given where step 1 comes next")) << refused.error().message;
    EXPECT_EQ(live.info().steps, 0);

    // A batch with a wrong index records none of it.
    std::vector<StepRecord> batch(3, call("list_dir", Json::object()));
    batch[2].index = 7;
    EXPECT_FALSE(live.addSteps(batch));
    EXPECT_EQ(live.info().steps, 0);
    EXPECT_EQ(SessionStore(store()).allSteps(live.info().id)->size(), 0u);

    StepRecord first = call("read_file", Json::object());
    first.index = 1;
    EXPECT_EQ(live.addStep(first).value(), 1);
    EXPECT_EQ(live.addStep(call("read_file", Json::object())).value(), 2);

    auto missing = live.finishStep(9, StepEnd{});
    ASSERT_FALSE(missing);
    EXPECT_TRUE(contains(missing.error().message, "has no step 9")) << missing.error().message;
}

TEST_F(SessionStoreTest, AnEndedSessionTakesNothingMore)
{
    LiveSession live = begin(agentSession());
    auto running = live.end(SessionStatus::Running, "");
    ASSERT_FALSE(running);
    EXPECT_TRUE(contains(running.error().message, "cannot end as running")) << running.error().message;

    ASSERT_TRUE(live.end(SessionStatus::Blocked, "max_steps (3) reached"));
    for (const std::string& refused :
         {errorOf(live.addStep(call("read_file", Json::object()))), errorOf(live.finishStep(1, StepEnd{})),
          errorOf(live.update(SessionUpdate{.runId = "x"})), errorOf(live.end(SessionStatus::Completed, "again"))})
        EXPECT_TRUE(contains(refused, "has ended")) << refused;
    auto found = SessionStore(store()).find(live.info().id);
    ASSERT_TRUE(found) << found.error().message;
    EXPECT_EQ(found->status, SessionStatus::Blocked);
    EXPECT_EQ(found->message, "max_steps (3) reached");
    // Its lock is gone with it.
    EXPECT_FALSE(fs::exists(SessionStore::lockFolder(dbPath()) / (live.info().id + ".lock")));
}

TEST_F(SessionStoreTest, TheListIsNewestFirstWithoutSteps)
{
    std::vector<std::string> ids;
    for (std::int64_t started : {3000, 1000, 2000}) {
        SessionInfo info = agentSession();
        info.startedAtMs = started;
        info.kind = started == 2000 ? SessionKind::Wrap : SessionKind::Agent;
        LiveSession live = begin(info);
        ASSERT_TRUE(live.addStep(call("read_file", Json::object())));
        ASSERT_TRUE(live.end(SessionStatus::Completed, "done"));
        ids.push_back(live.info().id);
    }
    auto list = SessionStore(store()).list();
    ASSERT_TRUE(list) << list.error().message;
    ASSERT_EQ(list->size(), 3u);
    EXPECT_EQ((*list)[0].id, ids[0]);
    EXPECT_EQ((*list)[1].id, ids[2]);
    EXPECT_EQ((*list)[1].kind, SessionKind::Wrap);
    EXPECT_EQ((*list)[2].id, ids[1]);
    for (const SessionInfo& session : *list)
        EXPECT_EQ(session.steps, 1);
}

TEST_F(SessionStoreTest, AnIdIsFoundByAUniquePrefixAndAnAmbiguousOneIsRefused)
{
    const std::string a = "abcd1111-0000-4000-8000-000000000001";
    const std::string b = "abcd2222-0000-4000-8000-000000000002";
    for (const std::string& id : {a, b}) {
        LiveSession live = begin(agentSession(id));
        EXPECT_EQ(live.info().id, id);
        ASSERT_TRUE(live.end(SessionStatus::Completed, ""));
    }
    SessionStore sessions(store());
    EXPECT_EQ(sessions.find("abcd1").value().id, a);
    EXPECT_EQ(sessions.find("ABCD2222").value().id, b); // case does not matter
    EXPECT_EQ(sessions.find(a).value().id, a);

    auto ambiguous = sessions.find("abcd");
    ASSERT_FALSE(ambiguous);
    EXPECT_TRUE(contains(ambiguous.error().message, "'abcd' is ambiguous")) << ambiguous.error().message;
    EXPECT_TRUE(contains(ambiguous.error().message, "abcd1111-0000")) << ambiguous.error().message;
    EXPECT_TRUE(contains(ambiguous.error().message, "abcd2222-0000")) << ambiguous.error().message;

    auto unknown = sessions.find("ffff0000");
    ASSERT_FALSE(unknown);
    EXPECT_TRUE(contains(unknown.error().message, "no agent session 'ffff0000'")) << unknown.error().message;
    for (std::string_view bad : {"abc", "", "abcd%", "zzzz"}) {
        auto refused = sessions.find(bad);
        ASSERT_FALSE(refused) << bad;
        EXPECT_TRUE(contains(refused.error().message, "is not a session id")) << refused.error().message;
    }
    auto steps = sessions.allSteps("abcd");
    ASSERT_FALSE(steps); // steps need the whole id
    EXPECT_TRUE(contains(steps.error().message, "no agent session 'abcd'")) << steps.error().message;

    // A given id is a UUID no other session has.
    SessionStore again(store());
    auto taken = again.begin(agentSession(a));
    ASSERT_FALSE(taken);
    EXPECT_TRUE(contains(taken.error().message, a)) << taken.error().message;
    auto notUuid = again.begin(agentSession("my-session"));
    ASSERT_FALSE(notUuid);
    EXPECT_TRUE(contains(notUuid.error().message, "'my-session' is not a session id")) << notUuid.error().message;
}

TEST_F(SessionStoreTest, StepsAreReadByRange)
{
    LiveSession live = begin(agentSession());
    std::vector<StepRecord> batch;
    for (int i = 1; i <= 10; ++i)
        batch.push_back(call("read_file", {{"n", i}}));
    ASSERT_EQ(live.addSteps(batch).value(), 10);
    SessionStore sessions(store());
    auto page = sessions.steps(live.info().id, 3, 4);
    ASSERT_TRUE(page) << page.error().message;
    ASSERT_EQ(page->size(), 4u);
    for (std::size_t i = 0; i < page->size(); ++i) {
        EXPECT_EQ((*page)[i].index, static_cast<std::int64_t>(4 + i));
        EXPECT_EQ((*page)[i].arguments.at("n"), 4 + i);
    }
    EXPECT_EQ(sessions.steps(live.info().id, 8).value().size(), 2u);
    EXPECT_EQ(sessions.steps(live.info().id, 10).value().size(), 0u);
    EXPECT_EQ(sessions.steps(live.info().id, 0, 0).value().size(), 0u);
    EXPECT_FALSE(sessions.steps(live.info().id, -1));
}

TEST_F(SessionStoreTest, BeginAndEndAreAudited)
{
    SessionInfo info = agentSession();
    info.replayOf = "abcd1111-0000-4000-8000-000000000001";
    LiveSession live = begin(info);
    ASSERT_TRUE(live.addStep(call("read_file", Json::object())));
    ASSERT_TRUE(live.end(SessionStatus::Failed, "the sandbox could not start"));

    const auto started = audit(sb::audit_op::kSessionStart);
    ASSERT_EQ(started.size(), 1u);
    EXPECT_EQ(started[0].subject, live.info().id);
    const Json details = Json::parse(started[0].details);
    EXPECT_EQ(details.at("kind"), "agent");
    EXPECT_EQ(details.at("command"), Json(info.command));
    EXPECT_EQ(details.at("sandbox"), "try-upgrade");
    EXPECT_EQ(details.at("policy"), "agent@" + std::to_string(info.policy.version));
    EXPECT_EQ(details.at("policy_sha256"), info.policy.sha256);
    EXPECT_EQ(details.at("policy_ref"), "preset:agent");
    EXPECT_EQ(details.at("replay_of"), info.replayOf);

    const auto ended = audit(sb::audit_op::kSessionEnd);
    ASSERT_EQ(ended.size(), 1u);
    EXPECT_EQ(ended[0].subject, live.info().id);
    const Json end = Json::parse(ended[0].details);
    EXPECT_EQ(end.at("status"), "failed");
    EXPECT_EQ(end.at("message"), "the sandbox could not start");
    EXPECT_EQ(end.at("steps"), 1);
    EXPECT_TRUE(sb::verifyAudit(store()).value().intact());
}

// The child of a fork: begins a session in its own connection, records steps (the last one in flight), tells
// the parent the session's id through `out` and waits to be killed.
[[noreturn]] void recordAndWait(const fs::path& dbPath, int out)
{
    int status = 1;
    {
        auto store = Store::open(dbPath);
        if (store) {
            SessionInfo info;
            info.command = {"agent"};
            auto live = SessionStore(*store).begin(info);
            if (live) {
                bool ok = true;
                for (int i = 1; i <= 3 && ok; ++i) {
                    StepRecord step;
                    step.tool = "write_file";
                    step.arguments = {{"n", i}};
                    step.cost = 1;
                    step.startedAtMs = 1000 * i;
                    ok = live->addStep(step).has_value()
                         && (i == 3
                             || live->finishStep(i, StepEnd{.result = Json{{"ok", i}}, .endedAtMs = 1000 * i + 10})
                                    .has_value());
                }
                if (ok) {
                    const std::string id = live->info().id;
                    if (::write(out, id.data(), id.size()) == static_cast<ssize_t>(id.size()))
                        for (;;)
                            ::pause();
                }
            }
        }
    }
    ::_exit(status);
}

TEST_F(SessionStoreTest, ASessionWhoseGatewayIsKilledIsFoundInterruptedWithEveryStep)
{
    store(); // made, with its tables, before the child opens it
    int pipe[2];
    ASSERT_EQ(::pipe(pipe), 0);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::close(pipe[0]);
        recordAndWait(dbPath(), pipe[1]);
    }
    ::close(pipe[1]);
    std::string id(36, '\0');
    const ssize_t got = ::read(pipe[0], id.data(), id.size());
    ::close(pipe[0]);
    if (got != static_cast<ssize_t>(id.size())) {
        ::kill(child, SIGKILL);
        ::waitpid(child, nullptr, 0);
        FAIL() << "the child recorded no session";
    }

    SessionStore sessions(store());
    // While the child lives, its session is running.
    auto alive = sessions.find(id);
    ASSERT_TRUE(alive) << alive.error().message;
    EXPECT_EQ(alive->status, SessionStatus::Running);
    EXPECT_EQ(alive->steps, 3);
    EXPECT_EQ(sessions.list().value().front().status, SessionStatus::Running);

    ASSERT_EQ(::kill(child, SIGKILL), 0);
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);

    auto list = sessions.list();
    ASSERT_TRUE(list) << list.error().message;
    ASSERT_EQ(list->size(), 1u);
    const SessionInfo& found = list->front();
    EXPECT_EQ(found.id, id);
    EXPECT_EQ(found.status, SessionStatus::Interrupted);
    EXPECT_TRUE(contains(found.message, "the gateway ended without closing the session")) << found.message;
    EXPECT_EQ(found.endedAtMs, std::max<std::int64_t>(found.startedAtMs, 3000)); // its last sign of life
    EXPECT_EQ(found.steps, 3);
    EXPECT_DOUBLE_EQ(found.cost, 3);

    auto steps = sessions.allSteps(id);
    ASSERT_TRUE(steps) << steps.error().message;
    ASSERT_EQ(steps->size(), 3u);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ((*steps)[i].index, i + 1);
        EXPECT_EQ((*steps)[i].arguments, (Json{{"n", i + 1}}));
    }
    EXPECT_EQ((*steps)[1].result, (Json{{"ok", 2}}));
    EXPECT_EQ((*steps)[2].endedAtMs, 0); // in flight when the gateway died
    EXPECT_FALSE((*steps)[2].result);

    // Stored so, and audited once, however often it is read again.
    EXPECT_EQ(sessions.find(id.substr(0, 8)).value().status, SessionStatus::Interrupted);
    const auto ended = audit(sb::audit_op::kSessionEnd);
    ASSERT_EQ(ended.size(), 1u);
    EXPECT_EQ(ended[0].subject, id);
    EXPECT_EQ(Json::parse(ended[0].details).at("status"), "interrupted");
    EXPECT_FALSE(fs::exists(SessionStore::lockFolder(dbPath()) / (id + ".lock")));
    Store reopened = Store::open(dbPath()).value();
    EXPECT_EQ(SessionStore(reopened).find(id).value().status, SessionStatus::Interrupted);
}

TEST_F(SessionStoreTest, ASessionDroppedWithoutAnEndIsInterrupted)
{
    std::string id;
    {
        LiveSession live = begin(agentSession());
        id = live.info().id;
        ASSERT_TRUE(live.addStep(call("read_file", Json::object())));
        // While it lives, in this process too, it runs.
        EXPECT_EQ(SessionStore(store()).find(id).value().status, SessionStatus::Running);
    }
    auto found = SessionStore(store()).find(id);
    ASSERT_TRUE(found) << found.error().message;
    EXPECT_EQ(found->status, SessionStatus::Interrupted);
    EXPECT_EQ(found->steps, 1);
}

TEST_F(SessionStoreTest, ASessionThatLostItsLockIsRefusedMoreSteps)
{
    LiveSession live = begin(agentSession());
    ASSERT_TRUE(live.addStep(call("read_file", Json::object())));
    // Someone removes the lock folder: readers can no longer tell the session lives.
    fs::remove_all(SessionStore::lockFolder(dbPath()));
    EXPECT_EQ(SessionStore(store()).find(live.info().id).value().status, SessionStatus::Interrupted);

    auto refused = live.addStep(call("read_file", Json::object()));
    ASSERT_FALSE(refused);
    EXPECT_TRUE(contains(refused.error().message, "is no longer running in the store")) << refused.error().message;
    EXPECT_FALSE(live.end(SessionStatus::Completed, "done"));
    EXPECT_EQ(SessionStore(store()).find(live.info().id).value().steps, 1);
}

TEST_F(SessionStoreTest, JsonEditedOutsideSandbenchIsNamedNeverACrash)
{
    LiveSession live = begin(agentSession());
    const std::string id = live.info().id;
    ASSERT_TRUE(live.addSteps(std::vector<StepRecord>(3, call("read_file", {{"path", "a"}}))));
    ASSERT_TRUE(live.end(SessionStatus::Completed, ""));
    SessionStore sessions(store());

    edit("UPDATE agent_steps SET arguments = '{\"path\": ' WHERE idx = 2");
    auto steps = sessions.allSteps(id);
    ASSERT_FALSE(steps);
    const std::string& message = steps.error().message;
    EXPECT_TRUE(contains(message, "session " + id + ", step 2: its arguments is not JSON")) << message;
    EXPECT_TRUE(contains(message, dbPath().string())) << message;
    EXPECT_TRUE(sessions.steps(id, 0, 1)); // the steps before it still read
    const SessionInfo session = sessions.find(id).value();
    const std::string written = errorOf(shownText(sessions, session));
    EXPECT_TRUE(contains(written, "session " + id + ", step 2: its arguments is not JSON")) << written;

    // Nesting far past what a message may hold.
    edit("UPDATE agent_steps SET arguments = '{}', result = '" + std::string(100000, '[') + "' WHERE idx = 2");
    auto deep = sessions.allSteps(id);
    ASSERT_FALSE(deep);
    EXPECT_TRUE(contains(deep.error().message, "step 2: its result is not JSON")) << deep.error().message;
    const std::string deepWritten = errorOf(shownText(sessions, session));
    EXPECT_TRUE(contains(deepWritten, "step 2: its result is not JSON")) << deepWritten;
    EXPECT_TRUE(contains(deepWritten, "nested more than 128 deep")) << deepWritten;

    // A verdict Sandbench does not write (past the table's CHECK, as a hand edit can be).
    edit("PRAGMA ignore_check_constraints = 1; UPDATE agent_steps SET verdict = 'maybe' WHERE idx = 3");
    auto verdict = sessions.allSteps(id);
    ASSERT_FALSE(verdict);
    EXPECT_TRUE(contains(verdict.error().message, "step 2")) << verdict.error().message;
    edit("UPDATE agent_steps SET result = NULL WHERE idx = 2");
    verdict = sessions.allSteps(id);
    ASSERT_FALSE(verdict);
    EXPECT_TRUE(contains(verdict.error().message, "session " + id + ", step 3: verdict 'maybe'"))
        << verdict.error().message;
    const std::string verdictWritten = errorOf(shownText(sessions, session));
    EXPECT_TRUE(contains(verdictWritten, "session " + id + ", step 3: verdict 'maybe'")) << verdictWritten;

    edit("UPDATE agent_sessions SET client_info = 'nope'");
    for (const std::string& refused : {errorOf(sessions.list()), errorOf(sessions.find(id))})
        EXPECT_TRUE(contains(refused, "session " + id + ": its client_info is not JSON")) << refused;
    edit("UPDATE agent_sessions SET client_info = 'null', command = '{\"a\": 1}'");
    auto command = sessions.find(id);
    ASSERT_FALSE(command);
    EXPECT_TRUE(contains(command.error().message, "its command is not a list of strings")) << command.error().message;
}

TEST_F(SessionStoreTest, AHundredThousandStepsAreKeptInOrder)
{
    LiveSession live = begin(agentSession());
    constexpr int kSteps = 100000;
    std::vector<StepRecord> batch;
    batch.reserve(kSteps);
    for (int i = 0; i < kSteps; ++i) {
        StepRecord step = call(i % 2 ? "read_file" : "write_file", {{"path", "/workspace/f" + std::to_string(i)}});
        step.startedAtMs = 1000 + i;
        step.endedAtMs = 1001 + i;
        step.result = Json{{"content", Json::array({{{"type", "text"}, {"text", "ok"}}})}};
        step.cost = 1;
        batch.push_back(std::move(step));
    }
    ASSERT_EQ(live.addSteps(batch).value(), kSteps);
    ASSERT_TRUE(live.end(SessionStatus::Completed, ""));

    SessionStore sessions(store());
    auto found = sessions.find(live.info().id);
    ASSERT_TRUE(found) << found.error().message;
    EXPECT_EQ(found->steps, kSteps);
    EXPECT_DOUBLE_EQ(found->cost, kSteps);
    auto steps = sessions.allSteps(found->id);
    ASSERT_TRUE(steps) << steps.error().message;
    ASSERT_EQ(steps->size(), static_cast<std::size_t>(kSteps));
    for (int i = 0; i < kSteps; ++i) {
        const StepRecord& step = (*steps)[static_cast<std::size_t>(i)];
        ASSERT_EQ(step.index, i + 1);
        ASSERT_EQ(step.arguments.at("path"), "/workspace/f" + std::to_string(i));
    }
    const Json shown = sb::agents::sessionShowJson(*found, *steps);
    EXPECT_EQ(shown.at("steps").size(), static_cast<std::size_t>(kSteps));
    EXPECT_EQ(shown.at("steps").back().at("index"), kSteps);

    auto text = shownText(sessions, *found);
    ASSERT_TRUE(text) << text.error().message;
    EXPECT_TRUE(*text == shown.dump(-1, ' ', false, Json::error_handler_t::replace)); // 40 MB: not printed
}

} // namespace
