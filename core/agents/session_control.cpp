#include "agents/session_control.h"

#include "agents/agent_policy.h"
#include "util/peer_process.h"
#include "util/runtime_folder.h"

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

namespace sb::agents {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxCommandBytes = 1 << 20;

Result<sockaddr_un> addressOf(const fs::path& path)
{
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    const std::string text = path.string();
    if (text.size() >= sizeof address.sun_path)
        return fail(fmt::format("the control socket's path is too long for a Unix socket: {}", text));
    std::memcpy(address.sun_path, text.c_str(), text.size() + 1);
    return address;
}

std::string shownCall(const ToolCallRequest& call)
{
    return call.tool + " " + call.arguments.dump(-1, ' ', false, Json::error_handler_t::replace);
}

// "approve 12" -> 12; 0 when the word after the command is not a step number.
std::int64_t stepNumber(std::string_view text)
{
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size() && value > 0 ? value : 0;
}

Json failure(std::string message)
{
    return Json{{"ok", false}, {"error", std::move(message)}};
}

} // namespace

Result<Breakpoint> parseBreakpoint(std::string_view text)
{
    Breakpoint breakpoint;
    breakpoint.text = std::string(text);
    if (breakpoint.text.empty())
        return fail("break needs a tool (name or glob) or a CEL condition");
    AgentPolicy policy;
    AgentArgumentRule rule;
    rule.condition = "!(" + breakpoint.text + ")";
    policy.argumentRules.push_back(std::move(rule));
    if (auto compiled = AgentRules::compile(policy, "break")) {
        breakpoint.condition = std::move(*compiled);
        return breakpoint;
    }
    if (breakpoint.text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.*?[]/:")
        == std::string::npos)
        return breakpoint;
    policy.argumentRules.front().condition = breakpoint.text;
    const auto problems = AgentRules::check(policy);
    return fail(problems.empty() ? "not a tool name or a CEL condition"
                                 : "not a CEL condition: " + problems.front().message);
}

std::string_view toString(WaitReason reason)
{
    switch (reason) {
    case WaitReason::None: return "none";
    case WaitReason::Step: return "step";
    case WaitReason::Breakpoint: return "breakpoint";
    case WaitReason::Approval: return "approval";
    }
    return "none";
}

bool pausesBefore(WaitReason pause, const Ruling& coming)
{
    return pause != WaitReason::None && coming.kind != Ruling::Kind::Ask;
}

std::string waitingWhy(WaitReason reason, const Ruling& ruling)
{
    if (reason == WaitReason::Approval)
        return ruling.message;
    std::string why = reason == WaitReason::Step ? "step mode" : "a breakpoint";
    if (ruling.kind == Ruling::Kind::Refuse || ruling.kind == Ruling::Kind::EndSession)
        why += fmt::format("; the policy {} it ({}): {}",
                           ruling.kind == Ruling::Kind::Refuse ? "refuses" : "ends the session at", ruling.rule,
                           ruling.message);
    return why;
}

Result<fs::path> controlFolder()
{
    auto folder = privateRuntimeFolder();
    if (!folder)
        return fail(folder.error().message + ": live control refuses to listen there");
    return folder;
}

fs::path controlSocketPath(const fs::path& folder, std::string_view sessionId)
{
    return folder / (std::string(sessionId) + ".sock");
}

Result<std::unique_ptr<SessionControl>> SessionControl::listen(std::string_view sessionId, bool stepMode,
                                                               std::string workspace)
{
    auto folder = controlFolder();
    if (!folder)
        return std::unexpected(folder.error());
    const fs::path path = controlSocketPath(*folder, sessionId);
    auto address = addressOf(path);
    if (!address)
        return std::unexpected(address.error());
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (fd < 0)
        return fail(fmt::format("cannot create the control socket: {}", std::strerror(errno)));
    ::unlink(path.c_str());
    const mode_t before = ::umask(0177);
    const int bound = ::bind(fd, reinterpret_cast<const sockaddr*>(&*address), sizeof *address);
    ::umask(before);
    if (bound != 0 || ::listen(fd, 8) != 0) {
        const int error = errno;
        ::close(fd);
        return fail(fmt::format("cannot listen on {}: {}", path.string(), std::strerror(error)));
    }
    return std::unique_ptr<SessionControl>(new SessionControl(path, fd, stepMode, std::move(workspace)));
}

SessionControl::SessionControl(fs::path path, int fd, bool stepMode, std::string workspace)
    : m_path(std::move(path)), m_fd(fd), m_stepMode(stepMode), m_workspace(std::move(workspace))
{
}

SessionControl::~SessionControl()
{
    ::close(m_fd);
    ::unlink(m_path.c_str());
}

void SessionControl::service()
{
    for (;;) {
        const int client = ::accept4(m_fd, nullptr, nullptr, SOCK_CLOEXEC);
        if (client < 0)
            return;
        ucred peer{};
        socklen_t size = sizeof peer;
        std::string reply;
        if (::getsockopt(client, SOL_SOCKET, SO_PEERCRED, &peer, &size) != 0
            || (peer.uid != ::getuid() && peer.uid != 0)) {
            reply = failure("only the session's owner may control it").dump() + "\n";
        } else if (auto confined = whyConfined(peer.pid)) {
            // A sandboxed program (the agent itself, say) does not approve its own calls.
            reply = failure("a confined process may not control the session: " + *confined).dump() + "\n";
        } else {
            // One line, read within a second: a peer that says nothing does not hold the session up.
            std::string command;
            for (int waited = 0; command.find('\n') == std::string::npos && command.size() < kMaxCommandBytes;) {
                pollfd p{client, POLLIN, 0};
                if (::poll(&p, 1, 1000 - waited) <= 0)
                    break;
                char buffer[4096];
                const ssize_t n = ::read(client, buffer, sizeof buffer);
                if (n <= 0)
                    break;
                command.append(buffer, static_cast<std::size_t>(n));
                waited += 10;
            }
            if (const auto nl = command.find('\n'); nl != std::string::npos)
                command.resize(nl);
            reply = handle(command).dump(-1, ' ', false, Json::error_handler_t::replace) + "\n";
        }
        (void)!::write(client, reply.data(), reply.size());
        ::close(client);
    }
}

Json SessionControl::handle(std::string_view line)
{
    const auto space = line.find(' ');
    const std::string verb(line.substr(0, space));
    const std::string_view rest = space == std::string_view::npos ? std::string_view() : line.substr(space + 1);
    if (verb == "status") {
        Json breaks = m_toolBreaks;
        for (const auto& [text, rules] : m_conditionBreaks)
            breaks.push_back(text);
        return Json{{"ok", true},
                    {"step_mode", m_stepMode},
                    {"waiting", m_waitReason == WaitReason::None ? Json() : Json(m_waitingStep)},
                    {"reason", std::string(toString(m_waitReason))},
                    {"why", m_waitWhy},
                    {"call", m_waitingCall},
                    {"breakpoints", breaks}};
    }
    if (verb == "pause") {
        m_stepMode = true;
        return Json{{"ok", true}};
    }
    if (verb == "clear") {
        m_toolBreaks.clear();
        m_conditionBreaks.clear();
        return Json{{"ok", true}};
    }
    if (verb == "break") {
        auto breakpoint = parseBreakpoint(rest);
        if (!breakpoint)
            return failure(breakpoint.error().message);
        const bool condition = breakpoint->condition.has_value();
        if (condition)
            m_conditionBreaks.emplace_back(breakpoint->text, std::move(*breakpoint->condition));
        else
            m_toolBreaks.push_back(breakpoint->text);
        return Json{{"ok", true}, {"breakpoint", breakpoint->text}, {"kind", condition ? "condition" : "tool"}};
    }
    const bool go = verb == "step" || verb == "continue";
    if (!go && verb != "approve" && verb != "deny" && verb != "set-args")
        return failure(fmt::format("unknown command '{}' (status, step, continue, pause, approve N, deny N, set-args N "
                                   "JSON, break TOOL-OR-CEL, clear)",
                                   verb));
    if (m_waitReason == WaitReason::None)
        return failure("no call is waiting");
    std::string_view numberText = rest.substr(0, rest.find(' '));
    if (!go && stepNumber(numberText) != m_waitingStep)
        return failure(fmt::format("step {} is the one waiting, not '{}'", m_waitingStep, numberText));
    ApprovalDecision decision{verb != "deny", "the session's owner (live control)", std::nullopt};
    if (verb == "set-args") {
        const auto json = numberText.size() < rest.size() ? rest.substr(numberText.size() + 1) : std::string_view();
        Json arguments = Json::parse(json, nullptr, false);
        if (arguments.is_discarded() || !arguments.is_object())
            return failure("set-args needs the arguments as a JSON object");
        decision.arguments = std::move(arguments);
    }
    if (verb == "continue")
        m_stepMode = false;
    m_decision = std::move(decision);
    return Json{{"ok", true}, {"step", m_waitingStep}};
}

WaitReason SessionControl::pauses(std::int64_t step, const ToolCallRequest& call) const
{
    if (m_stepMode)
        return WaitReason::Step;
    if (matchesAny(call.tool, m_toolBreaks))
        return WaitReason::Breakpoint;
    const ToolCall seen{call.tool, call.arguments, step, m_workspace};
    for (const auto& [text, rules] : m_conditionBreaks) {
        if (rules.rule(seen).kind != Ruling::Kind::Allow)
            return WaitReason::Breakpoint;
    }
    return WaitReason::None;
}

void SessionControl::waiting(std::int64_t step, const ToolCallRequest* call, WaitReason reason, std::string why)
{
    if (reason != WaitReason::None && (m_waitReason == WaitReason::None || m_waitingStep != step))
        m_decision.reset();
    m_waitingStep = step;
    m_waitReason = reason;
    m_waitWhy = std::move(why);
    m_waitingCall = call ? Json{{"tool", call->tool}, {"arguments", call->arguments}, {"summary", shownCall(*call)}} : Json();
}

std::optional<ApprovalDecision> SessionControl::takeDecision(std::int64_t step)
{
    if (step != m_waitingStep || !m_decision)
        return std::nullopt;
    auto decision = std::move(m_decision);
    m_decision.reset();
    return decision;
}

Result<Json> sendControlCommand(const fs::path& socket, std::string_view command)
{
    auto address = addressOf(socket);
    if (!address)
        return std::unexpected(address.error());
    const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return fail(fmt::format("cannot create a socket: {}", std::strerror(errno)));
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&*address), sizeof *address) != 0) {
        const int error = errno;
        ::close(fd);
        return fail(fmt::format("cannot reach the session at {}: {} (has it ended?)", socket.string(),
                                std::strerror(error)));
    }
    std::string line(command);
    line += '\n';
    // A session that refuses this process answers without reading the command and closes: the refusal is
    // still there to read, and the command must not die of SIGPIPE before it reads it.
    (void)!::send(fd, line.data(), line.size(), MSG_NOSIGNAL);
    std::string reply;
    char buffer[4096];
    for (;;) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 10000) <= 0)
            break;
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n <= 0)
            break;
        reply.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fd);
    const Json answer = Json::parse(reply, nullptr, false);
    if (answer.is_discarded())
        return fail(fmt::format("the session answered something that is not JSON: {}", reply.substr(0, 200)));
    return answer;
}

} // namespace sb::agents
