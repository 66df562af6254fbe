// Sessions written out: JSON Lines and an HTML report.

#include "agents/session_export.h"

#include "agents/session_browse.h"
#include "util/time_text.h"
#include "util/utf8.h"

#include <fmt/format.h>

namespace sb::agents {

namespace {

constexpr std::int64_t kBatch = 1000;
constexpr std::size_t kChunkBytes = std::size_t{1} << 20;

std::string jsonLine(const Json& value)
{
    return value.dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
}

// Text buffered and handed to the sink in pieces of about a MiB.
class Writer {
public:
    explicit Writer(const ShowSink& sink) : m_sink(sink) {}
    Result<void> add(std::string_view text)
    {
        m_buffer += text;
        if (m_buffer.size() < kChunkBytes)
            return {};
        return flush();
    }
    Result<void> flush()
    {
        if (m_buffer.empty())
            return {};
        auto ok = m_sink(m_buffer);
        m_buffer.clear();
        return ok;
    }

private:
    const ShowSink& m_sink;
    std::string m_buffer;
};

// Calls `each` with every step of the session, read kBatch at a time.
template <typename Each>
Result<void> forEachStep(SessionStore& sessions, const SessionInfo& session, Each&& each)
{
    for (std::int64_t offset = 0;; offset += kBatch) {
        auto batch = sessions.steps(session.id, offset, kBatch);
        if (!batch)
            return std::unexpected(batch.error());
        for (const StepRecord& step : *batch) {
            if (auto ok = each(step); !ok)
                return ok;
        }
        if (static_cast<std::int64_t>(batch->size()) < kBatch)
            return {};
    }
}

// `text` safe inside HTML: markup characters as entities, bytes that are not UTF-8 as U+FFFD.
std::string html(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    while (!text.empty()) {
        const std::size_t bad = utf8::firstInvalid(text);
        const std::string_view good = text.substr(0, bad);
        for (const char c : good) {
            switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default: out += c;
            }
        }
        if (bad == std::string_view::npos)
            break;
        out += "\xEF\xBF\xBD";
        text.remove_prefix(bad + 1);
    }
    return out;
}

std::string pretty(const Json& value)
{
    return html(value.dump(2, ' ', false, Json::error_handler_t::replace));
}

std::string durationText(const StepRecord& step)
{
    return step.endedAtMs == 0 ? std::string("in flight") : formatDurationExact(step.endedAtMs - step.startedAtMs);
}

constexpr std::string_view kStyle = R"css(
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #1f2328; }
h1 { font-size: 20px; margin: 0 0 12px; }
table { border-collapse: collapse; }
.facts td { padding: 2px 16px 2px 0; vertical-align: top; }
.facts td:first-child { color: #59636e; }
.steps { width: 100%; margin-top: 16px; }
.steps th, .steps td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #d1d9e0; vertical-align: top; }
.steps th { background: #f6f8fa; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.verdict { color: #fff; border-radius: 4px; padding: 0 6px; font-size: 12px; white-space: nowrap; }
.why { color: #59636e; font-size: 12px; }
code, pre { font: 12px/1.4 ui-monospace, monospace; }
pre { background: #f6f8fa; padding: 8px; overflow-x: auto; white-space: pre-wrap; margin: 4px 0; }
details summary { cursor: pointer; color: #0969da; }
.timeline { max-width: 100%; border: 1px solid #d1d9e0; margin-top: 12px; }
.legend span { margin-right: 12px; }
)css";

std::string sessionHeader(const SessionInfo& session, const HtmlReportOptions& options)
{
    std::string command;
    for (const std::string& argument : session.command)
        command += (command.empty() ? "" : " ") + argument;
    const std::string policy =
        session.policy.id != 0 ? fmt::format("{} v{} ({})", session.policy.name, session.policy.version, session.policyRef)
                               : session.policyRef;
    std::string out = fmt::format("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                                  "<title>Agent session {}</title><style>{}</style></head><body>\n",
                                  html(session.id), kStyle);
    out += fmt::format("<h1>Agent session {}</h1>\n<table class=\"facts\">\n", html(session.id));
    const auto fact = [&](std::string_view name, const std::string& value) {
        out += fmt::format("<tr><td>{}</td><td>{}</td></tr>\n", name, value);
    };
    fact("Command", "<code>" + html(command) + "</code>");
    fact("Kind", std::string(toString(session.kind)));
    fact("Sandbox", html(session.sandbox));
    fact("Policy", html(policy));
    fact("Status", fmt::format("{}{}", toString(session.status),
                               session.message.empty() ? "" : ": " + html(session.message)));
    fact("Started", formatIsoUtc(session.startedAtMs));
    if (session.endedAtMs != 0)
        fact("Duration", formatDurationExact(session.endedAtMs - session.startedAtMs));
    fact("Steps", std::to_string(session.steps));
    fact("Cost", fmt::format("{:.4g}", session.cost));
    if (!session.replayOf.empty())
        fact("Replay of", html(session.replayOf));
    out += "</table>\n";
    if (!options.timelineImage.empty())
        out += fmt::format("<img class=\"timeline\" alt=\"The session's timeline\" src=\"{}\">\n",
                           html(options.timelineImage));
    out += "<p class=\"legend\">";
    for (const Verdict verdict :
         {Verdict::Allowed, Verdict::Approved, Verdict::Blocked, Verdict::Denied, Verdict::Failed})
        out += fmt::format("<span><span class=\"verdict\" style=\"background:{}\">{}</span></span>",
                           verdictColor(verdict), toString(verdict));
    out += "</p>\n<table class=\"steps\"><thead><tr><th class=\"num\">#</th><th>Tool</th><th>Arguments</th>"
           "<th>Verdict</th><th class=\"num\">Duration</th><th class=\"num\">Cost</th></tr></thead><tbody>\n";
    return out;
}

std::string stepRow(const StepRecord& step)
{
    std::string why;
    if (!step.rule.empty())
        why += "<div class=\"why\">rule: " + html(step.rule) + "</div>";
    if (!step.message.empty())
        why += "<div class=\"why\">" + html(step.message) + "</div>";
    std::string folded = "<details><summary>arguments, result";
    folded += step.reasoning.empty() ? "" : ", reasoning";
    folded += "</summary>";
    if (!step.reasoning.empty())
        folded += "<div>Reasoning:</div><pre>" + html(step.reasoning) + "</pre>";
    folded += "<div>Arguments" + std::string(step.edited ? " (edited by a person)" : "") + ":</div><pre>"
              + pretty(step.arguments) + "</pre>";
    if (step.originalArguments)
        folded += "<div>As the agent sent them:</div><pre>" + pretty(*step.originalArguments) + "</pre>";
    folded += "<div>Result:</div><pre>" + (step.result ? pretty(*step.result) : std::string("(none)")) + "</pre>";
    folded += "</details>";
    return fmt::format("<tr id=\"step-{}\"><td class=\"num\">{}</td><td><code>{}</code></td><td><code>{}</code>{}</td>"
                       "<td><span class=\"verdict\" style=\"background:{}\">{}</span>{}</td><td class=\"num\">{}</td>"
                       "<td class=\"num\">{:.4g}</td></tr>\n",
                       step.index, step.index, html(step.tool), html(argumentSummary(step.arguments)), folded,
                       verdictColor(step.verdict), toString(step.verdict), why, durationText(step), step.cost);
}

} // namespace

std::string_view verdictColor(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Allowed: return "#2da44e";
    case Verdict::Approved: return "#0969da";
    case Verdict::Blocked: return "#cf222e";
    case Verdict::Denied: return "#8250df";
    case Verdict::Failed: return "#bc4c00";
    }
    return "#59636e";
}

Result<void> writeSessionJsonLines(SessionStore& sessions, const SessionInfo& session, const ShowSink& sink)
{
    Writer writer(sink);
    Json head = sessionJson(session);
    head["record"] = "session";
    if (auto ok = writer.add(jsonLine(head)); !ok)
        return ok;
    auto written = forEachStep(sessions, session, [&](const StepRecord& step) {
        Json line = stepJson(step);
        line["record"] = "step";
        line["session_id"] = session.id;
        return writer.add(jsonLine(line));
    });
    if (!written)
        return written;
    return writer.flush();
}

Result<void> writeSessionHtml(SessionStore& sessions, const SessionInfo& session, const ShowSink& sink,
                              const HtmlReportOptions& options)
{
    Writer writer(sink);
    if (auto ok = writer.add(sessionHeader(session, options)); !ok)
        return ok;
    auto written = forEachStep(sessions, session, [&](const StepRecord& step) { return writer.add(stepRow(step)); });
    if (!written)
        return written;
    if (auto ok = writer.add("</tbody></table>\n</body></html>\n"); !ok)
        return ok;
    return writer.flush();
}

} // namespace sb::agents
