// Two sessions' steps side by side (core/agents/session_compare): aligned by index, a step only one side has,
// what differs first named, a run's id not counted as a difference, and a replay ruled by its report.

#include "agents/session_compare.h"

#include "agents/session_replay.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using sb::agents::ComparedStep;
using sb::agents::Json;
using sb::agents::ReplayedStep;
using sb::agents::ReplayReport;
using sb::agents::StepRecord;
using sb::agents::Verdict;

StepRecord step(std::int64_t index, std::string tool, Json arguments, Verdict verdict, std::string text)
{
    StepRecord s;
    s.index = index;
    s.tool = std::move(tool);
    s.arguments = std::move(arguments);
    s.verdict = verdict;
    s.result = Json{{"content", Json::array({Json{{"type", "text"}, {"text", std::move(text)}}})}};
    return s;
}

TEST(SessionCompare, StepsAlignByIndexAndTheFirstDifferenceIsNamed)
{
    const std::vector<StepRecord> left = {
        step(1, "read_file", Json{{"path", "a.py"}}, Verdict::Allowed, "print(1)"),
        step(2, "write_file", Json{{"path", "a.py"}}, Verdict::Allowed, "wrote 8 bytes"),
        step(3, "run_command", Json{{"command", "pytest"}}, Verdict::Allowed, "1 passed"),
        step(4, "http_get", Json{{"url", "https://x"}}, Verdict::Blocked, "refused"),
    };
    const std::vector<StepRecord> right = {
        step(1, "read_file", Json{{"path", "a.py"}}, Verdict::Allowed, "print(1)"),
        step(2, "write_file", Json{{"path", "a.py"}}, Verdict::Blocked, "refused"),
        step(3, "run_command", Json{{"command", "pytest"}}, Verdict::Allowed, "1 failed"),
    };
    const auto comparison = sb::agents::compareSessions(left, right);
    ASSERT_EQ(comparison.steps.size(), 4u);
    EXPECT_EQ(comparison.differing, 3);
    EXPECT_EQ(comparison.steps[0].change, "same");
    EXPECT_FALSE(comparison.steps[0].differs());
    EXPECT_EQ(comparison.steps[1].change, "verdict");
    EXPECT_TRUE(comparison.steps[1].verdictDiffers);
    EXPECT_TRUE(comparison.steps[1].resultDiffers);
    EXPECT_EQ(comparison.steps[1].right->verdict, "blocked");
    EXPECT_EQ(comparison.steps[2].change, "result");
    EXPECT_FALSE(comparison.steps[2].verdictDiffers);
    EXPECT_EQ(comparison.steps[2].left->result, "1 passed");
    EXPECT_EQ(comparison.steps[2].right->result, "1 failed");
    EXPECT_EQ(comparison.steps[3].change, "only_left");
    EXPECT_TRUE(comparison.steps[3].left.has_value());
    EXPECT_FALSE(comparison.steps[3].right.has_value());
    EXPECT_EQ(comparison.steps[3].left->arguments, "url=https://x");
}

TEST(SessionCompare, AnotherCallIsNamedBeforeItsVerdict)
{
    EXPECT_EQ(sb::agents::compareStep(1, nullptr, nullptr).change, "same");
    const StepRecord a = step(1, "read_file", Json{{"path", "a.py"}}, Verdict::Allowed, "x");
    const StepRecord b = step(1, "read_file", Json{{"path", "b.py"}}, Verdict::Blocked, "y");
    const ComparedStep differs = sb::agents::compareStep(1, &a, &b);
    EXPECT_EQ(differs.change, "call");
    EXPECT_TRUE(differs.callDiffers && differs.verdictDiffers && differs.resultDiffers);
    EXPECT_EQ(sb::agents::compareStep(1, nullptr, &b).change, "only_right");
}

TEST(SessionCompare, ARunsIdIsNotADifference)
{
    StepRecord a = step(1, "run_command", Json{{"command", "ls"}}, Verdict::Allowed, "ok");
    StepRecord b = a;
    (*a.result)["structuredContent"] = Json{{"run_id", "r-1"}, {"exit_code", 0}};
    (*b.result)["structuredContent"] = Json{{"run_id", "r-2"}, {"exit_code", 0}};
    EXPECT_EQ(sb::agents::compareStep(1, &a, &b).change, "same");
    (*b.result)["structuredContent"]["exit_code"] = 1;
    EXPECT_EQ(sb::agents::compareStep(1, &a, &b).change, "result");
}

TEST(SessionCompare, ResultsSumUpInOneLine)
{
    EXPECT_EQ(sb::agents::resultSummary(std::nullopt), "");
    const Json text{{"content", Json::array({Json{{"type", "text"}, {"text", "line one\n  line two"}},
                                             Json{{"type", "text"}, {"text", "more"}}})}};
    EXPECT_EQ(sb::agents::resultSummary(text), "line one line two more");
    EXPECT_EQ(sb::agents::resultSummary(text, 8), "line one…");
    EXPECT_EQ(sb::agents::resultSummary(Json{{"code", -32602}, {"message", "bad arguments"}}), "bad arguments");
    EXPECT_EQ(sb::agents::resultSummary(Json{{"ok", true}}), "{\"ok\":true}");
    EXPECT_EQ(sb::agents::resultSummary(Json{{"content", Json::array({Json{{"text", "héllo wörld"}}})}}, 7),
              "héllo w…");
}

TEST(SessionCompare, AReplayIsRuledByItsReport)
{
    const std::vector<StepRecord> original = {
        step(1, "read_file", Json{{"path", "a.py"}}, Verdict::Allowed, "print(1)"),
        step(2, "write_file", Json{{"path", "a.py"}}, Verdict::Allowed, "wrote"),
        step(3, "run_command", Json{{"command", "pytest"}}, Verdict::Allowed, "1 passed"),
    };
    StepRecord blocked = step(2, "write_file", Json{{"path", "a.py"}}, Verdict::Blocked, "refused");
    blocked.rule = "blocked_tools: write_file";
    const std::vector<StepRecord> replay = {original[0], blocked};
    ReplayReport report;
    const auto replayed = [](std::int64_t index, std::string tool, std::string verdict, std::string change) {
        ReplayedStep out;
        out.index = index;
        out.tool = std::move(tool);
        out.verdict = std::move(verdict);
        out.change = std::move(change);
        return out;
    };
    report.steps.push_back(replayed(1, "read_file", "allowed", "same"));
    report.steps.push_back(replayed(2, "write_file", "blocked", "blocked"));
    report.steps.back().rule = "blocked_tools: write_file";
    report.steps.back().message = "write_file is blocked";
    report.steps.push_back(replayed(3, "run_command", "not_reached", "not_reached"));
    report.changed = 2;
    const auto comparison = sb::agents::compareReplay(report, original, replay);
    ASSERT_EQ(comparison.steps.size(), 3u);
    EXPECT_EQ(comparison.differing, report.changed);
    EXPECT_FALSE(comparison.steps[0].differs());
    EXPECT_EQ(comparison.steps[1].change, "blocked");
    EXPECT_TRUE(comparison.steps[1].verdictDiffers);
    EXPECT_EQ(comparison.steps[1].left->verdict, "allowed");
    EXPECT_EQ(comparison.steps[1].right->verdict, "blocked");
    EXPECT_EQ(comparison.steps[1].right->rule, "blocked_tools: write_file");
    EXPECT_EQ(comparison.steps[1].right->message, "write_file is blocked");
    EXPECT_EQ(comparison.steps[1].right->result, "refused");
    // Not reached: the replay recorded no such step; its tool and the call it would have made are shown.
    EXPECT_EQ(comparison.steps[2].right->verdict, "not_reached");
    EXPECT_EQ(comparison.steps[2].right->tool, "run_command");
    EXPECT_EQ(comparison.steps[2].right->arguments, "command=pytest");
    EXPECT_EQ(comparison.steps[2].right->result, "");
}

} // namespace
