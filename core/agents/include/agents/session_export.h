#pragma once

// A recorded session written out for someone else: JSON Lines for tools, and an HTML report for a reviewer.
// Both read the steps from the store in batches, so a session of any size is written in bounded memory.

#include "agents/session_store.h"
#include "util/error.h"

#include <string>
#include <string_view>

namespace sb::agents {

// The colour of a verdict as #rrggbb, shared by the window's timeline and the HTML report.
std::string_view verdictColor(Verdict verdict);

// One JSON object per line: first {"record": "session", ...sessionJson}, then one
// {"record": "step", "session_id": ID, ...stepJson} per step, in order. Written to `sink` in pieces.
Result<void> writeSessionJsonLines(SessionStore& sessions, const SessionInfo& session, const ShowSink& sink);

struct HtmlReportOptions {
    // A picture of the session's timeline as a URL an <img> can show (a data: URL, so the report is one file);
    // empty: none.
    std::string timelineImage;
};

// A self-contained HTML page: the session (command, sandbox, policy, status, cost), the timeline picture, and a
// table of every step (tool, arguments, verdict with the rule and message that decided it, duration, cost),
// each with its arguments, result and reasoning folded under it. Every recorded text is escaped.
Result<void> writeSessionHtml(SessionStore& sessions, const SessionInfo& session, const ShowSink& sink,
                              const HtmlReportOptions& options = {});

} // namespace sb::agents
