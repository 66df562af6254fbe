// A recorded session browsed and written out: step summaries, search, the checkpoints around a step, JSON Lines
// and the HTML report (core/agents/session_browse, session_export).

#include "agents/session_browse.h"
#include "agents/session_export.h"
#include "agents/session_store.h"
#include "store/store.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

namespace fs = std::filesystem;
using sb::Store;
using sb::agents::Json;
using sb::agents::LiveSession;
using sb::agents::SessionInfo;
using sb::agents::SessionStore;
using sb::agents::StepRecord;
using sb::agents::Verdict;

class SessionExportTest : public ::testing::Test {
protected:
    SessionExportTest()
    {
        std::string pattern = (fs::temp_directory_path() / "sandbench-export-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr)
            throw std::runtime_error("mkdtemp failed");
        m_dir = pattern;
        ::setenv("SANDBENCH_AUDIT_KEYS", (m_dir / "keys").c_str(), 1);
        auto opened = Store::open(m_dir / "store.db");
        if (!opened)
            throw std::runtime_error(opened.error().message);
        m_store = std::make_unique<Store>(std::move(*opened));
    }
    ~SessionExportTest() override
    {
        m_store.reset();
        std::error_code ec;
        fs::remove_all(m_dir, ec);
    }

    // A closed session of these steps; returns it as the store has it.
    SessionInfo record(std::vector<StepRecord> steps, std::string firstCheckpoint = {})
    {
        SessionStore sessions(*m_store);
        SessionInfo info;
        info.command = {"python3", "agent.py"};
        info.sandbox = "try";
        info.policyRef = "preset:agent";
        auto live = sessions.begin(info);
        if (!live)
            throw std::runtime_error(live.error().message);
        if (!firstCheckpoint.empty()) {
            EXPECT_TRUE(live->update({.firstCheckpoint = firstCheckpoint}));
        }
        EXPECT_TRUE(live->addSteps(steps));
        EXPECT_TRUE(live->end(sb::agents::SessionStatus::Completed, "done"));
        auto found = sessions.find(live->info().id);
        if (!found)
            throw std::runtime_error(found.error().message);
        return *found;
    }

    static StepRecord call(std::string tool, Json arguments, Json result = Json{{"content", Json::array()}})
    {
        StepRecord step;
        step.tool = std::move(tool);
        step.arguments = std::move(arguments);
        step.result = std::move(result);
        step.startedAtMs = 1000;
        step.endedAtMs = 1010;
        step.requestFrame = R"({"jsonrpc":"2.0","id":1,"method":"tools/call"})";
        return step;
    }

    std::string written(const std::function<sb::Result<void>(const sb::agents::ShowSink&)>& write)
    {
        std::string out;
        auto ok = write([&](std::string_view text) -> sb::Result<void> {
            out += text;
            return {};
        });
        EXPECT_TRUE(ok) << (ok ? "" : ok.error().message);
        return out;
    }

    fs::path m_dir;
    std::unique_ptr<Store> m_store;
};

TEST_F(SessionExportTest, JsonLinesHoldTheSessionThenEveryStepInOrder)
{
    std::vector<StepRecord> steps;
    for (int i = 1; i <= 2503; ++i) // more than one batch of reads
        steps.push_back(call(i % 2 ? "read_file" : "write_file", {{"path", "f" + std::to_string(i)}}));
    const SessionInfo session = record(steps);
    SessionStore sessions(*m_store);
    const std::string text =
        written([&](const auto& sink) { return sb::agents::writeSessionJsonLines(sessions, session, sink); });
    std::istringstream lines(text);
    std::string line;
    ASSERT_TRUE(std::getline(lines, line));
    const Json head = Json::parse(line);
    EXPECT_EQ(head["record"], "session");
    EXPECT_EQ(head["id"], session.id);
    EXPECT_EQ(head["steps"], 2503);
    const auto all = sessions.allSteps(session.id);
    ASSERT_TRUE(all);
    std::size_t count = 0;
    while (std::getline(lines, line)) {
        Json step = Json::parse(line);
        EXPECT_EQ(step["record"], "step");
        EXPECT_EQ(step["session_id"], session.id);
        step.erase("record");
        step.erase("session_id");
        ASSERT_LT(count, all->size());
        EXPECT_EQ(step, sb::agents::stepJson((*all)[count]));
        ++count;
    }
    EXPECT_EQ(count, 2503u);
    EXPECT_EQ(text.back(), '\n');
}

TEST_F(SessionExportTest, TheHtmlReportEscapesWhatTheAgentSent)
{
    StepRecord hostile = call("<script>alert(1)</script>", {{"path", "a&b \"quoted\""}});
    hostile.verdict = Verdict::Blocked;
    hostile.rule = "blocked_tools: <script>*";
    hostile.message = std::string("bad bytes \xff\xfe here");
    hostile.reasoning = "<img src=x onerror=alert(1)>";
    const SessionInfo session = record({call("read_file", {{"path", "app.py"}}), hostile});
    SessionStore sessions(*m_store);
    const std::string html = written([&](const auto& sink) {
        return sb::agents::writeSessionHtml(sessions, session, sink, {.timelineImage = "data:image/png;base64,QUJD"});
    });
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_EQ(html.find("<script>"), std::string::npos);
    EXPECT_EQ(html.find("<img src=x"), std::string::npos);
    EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
    EXPECT_NE(html.find("blocked_tools: &lt;script&gt;*"), std::string::npos);
    EXPECT_NE(html.find("bad bytes \xEF\xBF\xBD\xEF\xBF\xBD here"), std::string::npos);
    EXPECT_NE(html.find("src=\"data:image/png;base64,QUJD\""), std::string::npos);
    EXPECT_NE(html.find("<tr id=\"step-2\">"), std::string::npos);
    EXPECT_NE(html.find(std::string(sb::agents::verdictColor(Verdict::Blocked))), std::string::npos);
}

TEST_F(SessionExportTest, SummariesSayWhatAListShows)
{
    StepRecord failed = call("run_command", {{"command", "make test"}}, Json{{"isError", true}, {"content", Json::array()}});
    failed.checkpointBefore = "c1";
    failed.checkpointAfter = "c2";
    failed.cost = 0.5;
    StepRecord rpcError = call("http_get", {{"url", "https://example.com"}}, Json{{"code", -32000}, {"message", "no"}});
    rpcError.result = Json{{"error", {{"code", -32000}, {"message", "no"}}}};
    StepRecord inFlight = call("write_file", {{"path", "x"}});
    inFlight.result.reset();
    inFlight.endedAtMs = 0;
    const SessionInfo session = record({call("read_file", {{"path", "app.py"}}), failed, rpcError, inFlight});
    auto all = sb::agents::stepSummaries(*m_store, session.id, 0, -1);
    ASSERT_TRUE(all) << all.error().message;
    ASSERT_EQ(all->size(), 4u);
    EXPECT_EQ((*all)[0].arguments, "path=app.py");
    EXPECT_FALSE((*all)[0].isError);
    EXPECT_TRUE((*all)[1].isError);
    EXPECT_TRUE((*all)[1].checkpointBefore);
    EXPECT_TRUE((*all)[1].checkpointAfter);
    EXPECT_EQ((*all)[1].arguments, "command=\"make test\"");
    EXPECT_EQ((*all)[1].cost, 0.5);
    EXPECT_TRUE((*all)[2].isError);
    EXPECT_FALSE((*all)[3].isError);
    EXPECT_EQ((*all)[3].endedAtMs, 0);
    auto some = sb::agents::stepSummaries(*m_store, session.id, 1, 2);
    ASSERT_TRUE(some);
    ASSERT_EQ(some->size(), 2u);
    EXPECT_EQ(some->front().index, 2);
    EXPECT_FALSE(sb::agents::stepSummaries(*m_store, "00000000-0000-4000-8000-000000000000", 0, -1));
}

TEST_F(SessionExportTest, SearchFindsToolsArgumentsAndResultsInEitherCase)
{
    const SessionInfo session =
        record({call("read_file", {{"path", "README.md"}}),
                call("run_command", {{"command", "pytest"}}, Json{{"content", {{{"type", "text"}, {"text", "2 FAILED"}}}}}),
                call("http_get", {{"url", "https://example.com"}})});
    const auto search = [&](std::string_view text) {
        auto found = sb::agents::searchSteps(*m_store, session.id, text);
        EXPECT_TRUE(found);
        return found.value_or(std::vector<std::int64_t>{});
    };
    EXPECT_EQ(search("readme"), (std::vector<std::int64_t>{1}));
    EXPECT_EQ(search("failed"), (std::vector<std::int64_t>{2}));
    EXPECT_EQ(search("HTTP_GET"), (std::vector<std::int64_t>{3}));
    EXPECT_EQ(search("_"), (std::vector<std::int64_t>{1, 2, 3}));
    EXPECT_TRUE(search("nowhere").empty());
}

TEST_F(SessionExportTest, TheWorkspaceChangeOfAStepIsBetweenTheCheckpointsAroundIt)
{
    StepRecord first = call("write_file", {{"path", "a"}});
    first.checkpointBefore = "cp-a";
    first.checkpointAfter = "cp-b";
    StepRecord reads = call("read_file", {{"path", "a"}}); // no checkpoint: read-only
    StepRecord edits = call("edit_file", {{"path", "a"}});
    edits.checkpointBefore = "cp-c";
    StepRecord last = call("write_file", {{"path", "b"}}); // nothing taken after it
    const SessionInfo session = record({first, reads, edits, last}, "cp-first");
    SessionStore sessions(*m_store);
    const auto change = [&](std::int64_t step) {
        auto found = sb::agents::stepWorkspaceChange(sessions, *m_store, session, step);
        EXPECT_TRUE(found) << (found ? "" : found.error().message);
        return found ? std::pair(found->before, found->after) : std::pair<std::string, std::string>();
    };
    using Pair = std::pair<std::string, std::string>;
    EXPECT_EQ(change(1), Pair("cp-a", "cp-b"));
    EXPECT_EQ(change(2), Pair("cp-b", "cp-c"));
    EXPECT_EQ(change(3), Pair("", "")); // nothing taken after it: nothing to compare
    EXPECT_EQ(change(4).second, "");
    EXPECT_FALSE(sb::agents::stepWorkspaceChange(sessions, *m_store, session, 5));
    EXPECT_FALSE(sb::agents::stepWorkspaceChange(sessions, *m_store, session, 0));
}

} // namespace
