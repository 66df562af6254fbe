// Two sessions' steps side by side: what differs at each index, in one line of each side.

#include "agents/session_compare.h"

#include "agents/session_browse.h"
#include "agents/session_replay.h"

#include <algorithm>

namespace sb::agents {

namespace {

// `text` on one line (each run of whitespace one space) of at most `maxChars` code points, with "…" when cut.
std::string oneLine(std::string_view text, std::size_t maxChars)
{
    std::string line;
    std::size_t points = 0;
    bool space = false;
    for (std::size_t at = 0; at < text.size(); ++at) {
        const char c = text[at];
        if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
            space = !line.empty();
            continue;
        }
        const bool continuation = (static_cast<unsigned char>(c) & 0xC0) == 0x80;
        if (!continuation) {
            if (points + (space ? 1 : 0) >= maxChars)
                return line + "…";
            if (space) {
                line += ' ';
                ++points;
            }
            ++points;
        }
        space = false;
        line += c;
    }
    return line;
}

ComparedSide sideOf(const StepRecord& step)
{
    ComparedSide side;
    side.tool = step.tool;
    side.arguments = argumentSummary(step.arguments);
    side.verdict = std::string(toString(step.verdict));
    side.rule = step.rule;
    side.message = step.message;
    side.result = resultSummary(step.result);
    side.isError = step.result && step.result->is_object()
                   && ((step.result->contains("isError") && (*step.result)["isError"] == true)
                       || (step.result->contains("code") && step.result->contains("message")));
    return side;
}

} // namespace

std::string resultSummary(const std::optional<Json>& result, std::size_t maxChars)
{
    if (!result || result->is_null())
        return {};
    const Json& value = *result;
    if (value.is_object() && value.contains("content") && value["content"].is_array()) {
        std::string texts;
        for (const Json& part : value["content"])
            if (part.is_object() && part.contains("text") && part["text"].is_string()) {
                if (!texts.empty())
                    texts += ' ';
                texts += part["text"].get<std::string>();
                if (texts.size() > maxChars * 4)
                    break; // already past what is shown
            }
        if (!texts.empty())
            return oneLine(texts, maxChars);
    }
    if (value.is_object() && value.contains("message") && value["message"].is_string() && value.contains("code"))
        return oneLine(value["message"].get<std::string>(), maxChars);
    return oneLine(value.dump(-1, ' ', false, Json::error_handler_t::replace), maxChars);
}

Json comparableResult(const std::optional<Json>& result)
{
    if (!result)
        return Json();
    Json copy = *result;
    if (copy.is_object() && copy.contains("structuredContent") && copy["structuredContent"].is_object())
        copy["structuredContent"].erase("run_id");
    return copy;
}

ComparedStep compareStep(std::int64_t index, const StepRecord* left, const StepRecord* right)
{
    ComparedStep out;
    out.index = index;
    if (left)
        out.left = sideOf(*left);
    if (right)
        out.right = sideOf(*right);
    if (!left || !right) {
        out.change = left ? "only_left" : right ? "only_right" : "same";
        return out;
    }
    out.callDiffers = left->tool != right->tool || left->arguments != right->arguments;
    out.verdictDiffers = left->verdict != right->verdict;
    out.resultDiffers = comparableResult(left->result) != comparableResult(right->result);
    out.change = out.callDiffers      ? "call"
                 : out.verdictDiffers ? "verdict"
                 : out.resultDiffers  ? "result"
                                      : "same";
    return out;
}

SessionComparison compareSessions(std::span<const StepRecord> left, std::span<const StepRecord> right)
{
    SessionComparison comparison;
    const std::size_t count = std::max(left.size(), right.size());
    comparison.steps.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        ComparedStep step = compareStep(static_cast<std::int64_t>(i + 1), i < left.size() ? &left[i] : nullptr,
                                        i < right.size() ? &right[i] : nullptr);
        comparison.differing += step.differs();
        comparison.steps.push_back(std::move(step));
    }
    return comparison;
}

ComparedStep compareReplayedStep(const ReplayedStep& replayed, const StepRecord* original, const StepRecord* replay)
{
    ComparedStep out;
    out.index = replayed.index;
    if (original)
        out.left = sideOf(*original);
    ComparedSide now = replay ? sideOf(*replay) : ComparedSide{};
    now.tool = replayed.tool;
    if (!replay && original)
        now.arguments = out.left->arguments;
    now.verdict = replayed.verdict;
    now.rule = replayed.rule;
    now.message = replayed.message;
    out.right = std::move(now);
    out.callDiffers = original && replay && original->arguments != replay->arguments;
    out.verdictDiffers = std::string(toString(replayed.recorded)) != replayed.verdict;
    out.resultDiffers = replayed.resultChanged;
    out.change = replayed.change;
    return out;
}

SessionComparison compareReplay(const ReplayReport& report, std::span<const StepRecord> original,
                                std::span<const StepRecord> replay)
{
    // Each side's step by index: a session's steps are numbered 1, 2, ... without gaps.
    const auto at = [](std::span<const StepRecord> steps, std::int64_t index) -> const StepRecord* {
        const auto i = static_cast<std::size_t>(index - 1);
        return index >= 1 && i < steps.size() && steps[i].index == index ? &steps[i] : nullptr;
    };
    SessionComparison comparison;
    comparison.steps.reserve(report.steps.size());
    for (const ReplayedStep& replayed : report.steps) {
        ComparedStep step =
            compareReplayedStep(replayed, at(original, replayed.index), at(replay, replayed.index));
        comparison.differing += step.differs();
        comparison.steps.push_back(std::move(step));
    }
    return comparison;
}

} // namespace sb::agents
