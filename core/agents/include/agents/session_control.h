#pragma once

// Live control of a running agent session: a Unix socket only its owner can open, and what it decides.
//
// The socket is <runtime>/<session id>.sock, where <runtime> is $XDG_RUNTIME_DIR/sandbench when that is set,
// else /tmp/sandbench-<uid>: a folder of mode 0700 that must belong to the user (refused otherwise: another
// user could have made it to listen in). The socket is 0600, and a peer whose uid is neither the owner's nor
// root is refused by its credentials (SO_PEERCRED) all the same.
//
// The protocol: one command per connection, one line of text; one JSON line back ({"ok": true, ...} or
// {"ok": false, "error": "..."}), then the connection closes.
//   status              the session's state: paused or running, the call waiting and why, breakpoints
//   step                let the waiting call go on, and pause before the next one
//   continue            let the waiting call go on, and stop pausing (breakpoints still hold)
//   pause               pause before the next call
//   approve N | deny N  decide step N (the call waiting) for a person
//   set-args N JSON     go on with step N with these arguments instead (recorded as edited)
//   break TOOL-OR-CEL   pause before calls of a tool (a name or glob) or calls a CEL condition holds for
//                       (over tool, args, step, workspace, as in argument_rules)
//   clear               remove every breakpoint

#include "agents/json.h"
#include "agents/mediator.h"
#include "agents/wrap_gateway.h"
#include "util/error.h"

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace sb::agents {

// The folder of live-control sockets for this user, made (0700) when missing; refused when it is not this
// user's own.
Result<std::filesystem::path> controlFolder();
std::filesystem::path controlSocketPath(const std::filesystem::path& folder, std::string_view sessionId);

// Why a call waits, when it does.
enum class WaitReason { None, Step, Breakpoint, Approval };
std::string_view toString(WaitReason reason);

// Whether a call waits for a person before it is ruled: `pause` (step mode, a breakpoint) stops before every call
// but one that asks for approval, which waits for that on its own. A call the policy will refuse stops too, so
// that stepping shows it coming; going on then records what the policy says.
bool pausesBefore(WaitReason pause, const Ruling& coming);
// Why a call waits, in words for the control's status and the log: the approval the policy asks for; or the pause,
// with what the policy will do with the call when it refuses it.
std::string waitingWhy(WaitReason reason, const Ruling& ruling);

// A breakpoint as `break` reads it: a CEL condition over the call (tool, args, step, workspace) when the text
// compiles as one, else a tool's name or glob when it is spelled as one; anything else is refused, saying why.
// The window checks its breakpoint field with it as the person types.
struct Breakpoint {
    std::string text;
    std::optional<AgentRules> condition; // nullopt: a tool name or glob
};
Result<Breakpoint> parseBreakpoint(std::string_view text);

class SessionControl {
public:
    // Listens on the session's socket. `stepMode`: pause before every call from the start (agent run --step).
    static Result<std::unique_ptr<SessionControl>> listen(std::string_view sessionId, bool stepMode,
                                                          std::string workspace);
    ~SessionControl();
    SessionControl(const SessionControl&) = delete;
    SessionControl& operator=(const SessionControl&) = delete;

    const std::filesystem::path& path() const { return m_path; }
    // The listening socket, for the gateway's poll(); service() when it is readable.
    int fd() const { return m_fd; }
    // Accepts and answers the commands waiting on the socket.
    void service();

    // Whether the call that would be step `step` pauses before it goes on (step mode, a breakpoint).
    WaitReason pauses(std::int64_t step, const ToolCallRequest& call) const;
    // The gateway waits on step `step` for `reason` (shown by status); None when it no longer waits.
    void waiting(std::int64_t step, const ToolCallRequest* call, WaitReason reason, std::string why = {});
    // The decision on the waiting step, once someone has given one (taken: the next call asks anew).
    std::optional<ApprovalDecision> takeDecision(std::int64_t step);

private:
    SessionControl(std::filesystem::path path, int fd, bool stepMode, std::string workspace);
    Json handle(std::string_view command);

    std::filesystem::path m_path;
    int m_fd = -1;
    bool m_stepMode = false;
    std::string m_workspace;
    std::vector<std::string> m_toolBreaks;
    std::vector<std::pair<std::string, AgentRules>> m_conditionBreaks; // CEL text, compiled as an argument rule
    std::int64_t m_waitingStep = 0;
    WaitReason m_waitReason = WaitReason::None;
    std::string m_waitWhy;
    Json m_waitingCall;
    std::optional<ApprovalDecision> m_decision;
};

// The client side (`sandbench sessions control`): sends one command to the socket, returns the JSON answer.
Result<Json> sendControlCommand(const std::filesystem::path& socket, std::string_view command);

} // namespace sb::agents
