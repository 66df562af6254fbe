#include "agents/wrap_gateway.h"

#include "agents/framing.h"
#include "outbox.h"
#include "agents/session_control.h"

#include <fmt/format.h>

#include <cerrno>
#include <chrono>
#include <deque>
#include <fcntl.h>
#include <map>
#include <poll.h>
#include <unistd.h>

namespace sb::agents {

namespace {

using Clock = std::chrono::steady_clock;

std::int64_t steadyMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now().time_since_epoch()).count();
}

// A request of the client's that went to the server, until the server answers it.
struct Forwarded {
    std::string method;
    std::int64_t step = 0; // tools/call: its step
    Json id;
};

// A tools/call the mediator has not ruled on yet, or that waits for a person.
struct Queued {
    ToolCallRequest call;
    Json message;                  // the whole request, to forward it with edited arguments
    WaitReason waiting = WaitReason::None;
    std::int64_t deadlineMs = 0;   // steady clock: a call waiting for approval is denied after it
    Ruling ruling;
};

std::string idKey(const Json& id)
{
    return id.dump();
}

class WrapGateway {
public:
    WrapGateway(const WrapEndpoints& endpoints, Mediator& mediator, LiveSession& session, const WrapOptions& options)
        : m_endpoints(endpoints), m_mediator(mediator), m_session(session), m_options(options),
          m_toClient(endpoints.clientOut), m_toServer(endpoints.serverIn), m_fromClient(options.maxClientFrameBytes),
          m_fromServer(options.maxServerFrameBytes)
    {
    }

    WrapOutcome run();

private:
    void log(std::string_view line) const
    {
        if (m_options.log)
            m_options.log(line);
    }
    void end(SessionStatus status, std::string message)
    {
        if (m_ended)
            return;
        m_ended = true;
        m_outcome = {status, std::move(message)};
    }

    bool pollOnce();
    void readClient();
    void readServer();
    void onClientFrame(const ReadFrame& frame);
    void onServerFrame(const ReadFrame& frame);
    void onServerResponse(const Message& message, std::string_view frame);
    void ruleQueued();
    bool startWaiting(Queued& head, std::int64_t step, const ToolFacts& facts);
    void waitFor(Queued& head, std::int64_t step, WaitReason reason, const Ruling& ruling);
    void carryOut(Queued& queued, const Admission& admission);
    void learnTools(const Json& result);
    void closeServerInput();
    void answerUnanswered(std::string_view why);
    ToolFacts factsOf(const std::string& tool) const
    {
        const auto it = m_tools.find(tool);
        return it == m_tools.end() ? ToolFacts{} : it->second;
    }

    WrapEndpoints m_endpoints;
    Mediator& m_mediator;
    LiveSession& m_session;
    const WrapOptions& m_options;
    Outbox m_toClient;
    Outbox m_toServer;
    FrameReader m_fromClient;
    FrameReader m_fromServer;
    std::map<std::string, Forwarded> m_forwarded;
    std::map<std::string, ToolFacts> m_tools;
    std::deque<Queued> m_queue;
    bool m_clientEnded = false;
    bool m_serverEnded = false;
    bool m_serverInputClosed = false;
    std::int64_t m_serverGraceEndsMs = 0;
    bool m_ended = false;
    WrapOutcome m_outcome;
};

void WrapGateway::closeServerInput()
{
    if (m_serverInputClosed)
        return;
    m_toServer.drain(m_options.serverGraceMs);
    m_toServer.release();
    ::close(m_endpoints.serverIn);
    m_serverInputClosed = true;
    m_serverGraceEndsMs = steadyMs() + m_options.serverGraceMs;
}

void WrapGateway::onClientFrame(const ReadFrame& frame)
{
    if (!frame) {
        m_toClient.push(encodeFrame(errorResponse(errorForFrame(frame.error()))));
        log(fmt::format("client line {}: {}", frame.error().line, frame.error().message));
        return;
    }
    auto message = Message::parse(*frame);
    if (!message) {
        m_toClient.push(encodeFrame(errorResponse(message.error())));
        return;
    }
    if (message->isRequest() && message->method() == "tools/call") {
        auto call = readToolCall(*message, *frame);
        if (!call) {
            m_toClient.push(encodeFrame(errorResponse(call.error())));
            return;
        }
        m_queue.push_back(Queued{std::move(*call), message->json(), WaitReason::None, 0, Ruling{}});
        return;
    }
    if (message->isNotification() && message->method() == "notifications/cancelled") {
        if (const Json* params = message->params(); params && params->is_object() && params->contains("requestId")) {
            const std::string key = idKey((*params)["requestId"]);
            // A call still in the queue is dropped here: the server never saw it.
            const auto queued = std::find_if(m_queue.begin(), m_queue.end(),
                                             [&](const Queued& q) { return idKey(q.call.id) == key; });
            if (queued != m_queue.end()) {
                m_queue.erase(queued);
                return;
            }
            // One the server has: the notification goes on to it, and the request is over for the gateway (MCP:
            // a cancelled request gets no answer; one that comes anyway goes to the client, which ignores it).
            if (const auto it = m_forwarded.find(key); it != m_forwarded.end()) {
                if (it->second.step > 0) {
                    const Json reason = params->value("reason", Json());
                    auto finished = m_mediator.finish(it->second.step, Json{{"cancelled", true}, {"reason", reason}},
                                                      "", true, "cancelled by the client");
                    if (!finished)
                        log(finished.error().message);
                }
                m_forwarded.erase(it);
            }
        }
    }
    if (message->isRequest()) {
        m_forwarded[idKey(message->id())] = Forwarded{std::string(message->method()), 0, message->id()};
        if (message->method() == "initialize" && message->params())
            (void)m_session.update(SessionUpdate{.clientInfo = message->params()->value("clientInfo", Json())});
    }
    m_toServer.push(*frame);
}

void WrapGateway::learnTools(const Json& result)
{
    const auto tools = result.find("tools");
    if (tools == result.end() || !tools->is_array())
        return;
    for (const auto& tool : *tools) {
        if (!tool.is_object() || !tool.contains("name") || !tool["name"].is_string())
            continue;
        ToolFacts facts; // the server's word: untrusted
        if (const auto annotations = tool.find("annotations"); annotations != tool.end() && annotations->is_object()) {
            facts.readOnly = annotations->value("readOnlyHint", false) == true;
            facts.destructive = annotations->value("destructiveHint", false) == true;
        }
        m_tools[tool["name"].get<std::string>()] = facts;
    }
}

void WrapGateway::onServerResponse(const Message& message, std::string_view frame)
{
    const auto it = m_forwarded.find(idKey(message.id()));
    if (it == m_forwarded.end()) {
        m_toClient.push(frame); // an answer to nothing the gateway saw: the client decides what it means
        return;
    }
    const Forwarded forwarded = it->second;
    m_forwarded.erase(it);
    if (forwarded.method == "initialize" && message.result() && message.result()->is_object()) {
        const Json& result = *message.result();
        SessionUpdate update;
        update.serverInfo = result.value("serverInfo", Json());
        if (result.contains("protocolVersion") && result["protocolVersion"].is_string())
            update.protocolVersion = result["protocolVersion"].get<std::string>();
        (void)m_session.update(update);
    } else if (forwarded.method == "tools/list" && message.result() && message.result()->is_object()) {
        learnTools(*message.result());
    } else if (forwarded.step > 0) {
        const bool failed = message.error() != nullptr;
        const Json& outcome = failed ? *message.error() : *message.result();
        auto finished = m_mediator.finish(forwarded.step, outcome, frame, failed,
                                          failed ? "the server answered with an error" : std::string());
        if (!finished) {
            log(finished.error().message);
            end(SessionStatus::Failed, finished.error().message);
        }
    }
    m_toClient.push(frame);
}

void WrapGateway::onServerFrame(const ReadFrame& frame)
{
    if (!frame) {
        log(fmt::format("the server's line {} was dropped: {}", frame.error().line, frame.error().message));
        return;
    }
    auto message = Message::parse(*frame);
    if (!message) {
        log(fmt::format("the server sent a line that is not a JSON-RPC message (dropped): {}", message.error().message));
        return;
    }
    if (message->isResponse())
        onServerResponse(*message, *frame);
    else
        m_toClient.push(*frame);
}

void WrapGateway::carryOut(Queued& queued, const Admission& admission)
{
    switch (admission.next) {
    case Admission::Next::GoOn: {
        m_forwarded[idKey(queued.call.id)] = Forwarded{"tools/call", admission.step, queued.call.id};
        if (admission.arguments == queued.call.arguments) {
            m_toServer.push(queued.call.frame);
        } else {
            Json edited = queued.message;
            edited["params"]["arguments"] = admission.arguments;
            m_toServer.push(encodeFrame(edited));
        }
        return;
    }
    case Admission::Next::Answer:
        m_toClient.push(encodeFrame(resultResponse(queued.call.id, admission.result)));
        return;
    case Admission::Next::EndSession:
        m_toClient.push(encodeFrame(resultResponse(queued.call.id, admission.result)));
        end(SessionStatus::Blocked, admission.ruling.message);
        return;
    case Admission::Next::Fail:
        m_toClient.push(encodeFrame(errorResponse(internalError(queued.call.id, admission.error))));
        end(SessionStatus::Failed, admission.error);
        return;
    case Admission::Next::Wait: return;
    }
}

// Rules the queued calls in order; stops at one that waits for a person and has no answer yet.
void WrapGateway::ruleQueued()
{
    while (!m_queue.empty() && !m_ended) {
        Queued& head = m_queue.front();
        const ToolFacts facts = factsOf(head.call.tool);
        const std::int64_t step = m_mediator.nextStep();
        if (head.waiting == WaitReason::None && !startWaiting(head, step, facts))
            continue;
        std::optional<ApprovalDecision> decision;
        if (m_options.approvals)
            decision = m_options.approvals(step, head.call);
        if (!decision && m_options.control)
            decision = m_options.control->takeDecision(step);
        if (!decision && head.waiting == WaitReason::Approval && steadyMs() >= head.deadlineMs)
            decision = ApprovalDecision{false,
                                        fmt::format("the approval timeout ({} ms, nobody answered)",
                                                    m_mediator.rules().policy().approvalTimeoutMs),
                                        std::nullopt};
        if (!decision)
            return;
        Admission admission;
        if (head.waiting == WaitReason::Approval || !decision->approve)
            admission = m_mediator.decide(head.call, facts, decision->approve, decision->who, decision->arguments);
        else
            admission = m_mediator.proceed(head.call, facts, decision->arguments);
        if (admission.next == Admission::Next::Wait) { // edited into a call that needs approval
            waitFor(head, step, WaitReason::Approval, admission.ruling);
            continue;
        }
        if (m_options.control)
            m_options.control->waiting(0, nullptr, WaitReason::None);
        carryOut(head, admission);
        m_queue.pop_front();
    }
}

void WrapGateway::waitFor(Queued& head, std::int64_t step, WaitReason reason, const Ruling& ruling)
{
    head.waiting = reason;
    head.ruling = ruling;
    head.deadlineMs = steadyMs() + m_mediator.rules().policy().approvalTimeoutMs;
    const std::string why = waitingWhy(reason, ruling);
    if (m_options.control)
        m_options.control->waiting(step, &head.call, reason, why);
    log(fmt::format("step {} ({}) waits: {}", step, head.call.tool, why));
}

// A call's first ruling: carried out at once (false), or waiting for a person (true).
bool WrapGateway::startWaiting(Queued& head, std::int64_t step, const ToolFacts& facts)
{
    if (m_options.control) {
        const WaitReason pause = m_options.control->pauses(step, head.call);
        if (const Ruling coming = m_mediator.preview(head.call); pausesBefore(pause, coming)) {
            waitFor(head, step, pause, coming);
            return true;
        }
    }
    const Admission admission = m_mediator.admit(head.call, facts);
    if (admission.next == Admission::Next::Wait) {
        waitFor(head, step, WaitReason::Approval, admission.ruling);
        return true;
    }
    carryOut(head, admission);
    m_queue.pop_front();
    return false;
}

void WrapGateway::readClient()
{
    char buffer[65536];
    const ssize_t n = ::read(m_endpoints.clientIn, buffer, sizeof buffer);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n > 0) {
        for (const auto& frame : m_fromClient.feed(std::string_view(buffer, static_cast<std::size_t>(n))))
            onClientFrame(frame);
        return;
    }
    if (const auto last = m_fromClient.finish())
        onClientFrame(std::unexpected(*last));
    m_clientEnded = true;
}

void WrapGateway::readServer()
{
    char buffer[65536];
    const ssize_t n = ::read(m_endpoints.serverOut, buffer, sizeof buffer);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (n > 0) {
        for (const auto& frame : m_fromServer.feed(std::string_view(buffer, static_cast<std::size_t>(n))))
            onServerFrame(frame);
        return;
    }
    if (const auto last = m_fromServer.finish())
        onServerFrame(std::unexpected(*last));
    m_serverEnded = true;
}

// One round: what is readable is read, what is writable written. False when the session is over.
bool WrapGateway::pollOnce()
{
    ruleQueued();
    if (m_options.stop && m_options.stop->load())
        end(SessionStatus::Interrupted, "the gateway was stopped (a signal) while the session ran");
    if (m_ended || m_serverEnded || m_toClient.broken())
        return false;
    if (m_clientEnded && m_queue.empty()) {
        closeServerInput();
        if (m_forwarded.empty() || steadyMs() >= m_serverGraceEndsMs)
            return false;
    }
    pollfd fds[5];
    nfds_t count = 0;
    const bool readClient = !m_clientEnded && !m_toServer.full();
    const bool readServer = !m_toClient.full();
    if (readClient)
        fds[count++] = {m_endpoints.clientIn, POLLIN, 0};
    if (readServer)
        fds[count++] = {m_endpoints.serverOut, POLLIN, 0};
    if (m_toClient.pending())
        fds[count++] = {m_endpoints.clientOut, POLLOUT, 0};
    if (m_toServer.pending() && !m_serverInputClosed)
        fds[count++] = {m_endpoints.serverIn, POLLOUT, 0};
    if (m_options.control)
        fds[count++] = {m_options.control->fd(), POLLIN, 0};
    const int timeout = !m_queue.empty() ? 20 : 200;
    const int ready = ::poll(fds, count, timeout);
    if (ready < 0 && errno != EINTR)
        return false;
    if (ready == 0 && m_queue.empty())
        m_session.idle();
    for (nfds_t i = 0; i < count; ++i) {
        if (!fds[i].revents)
            continue;
        if (fds[i].fd == m_endpoints.clientIn && (fds[i].events & POLLIN))
            this->readClient();
        else if (fds[i].fd == m_endpoints.serverOut && (fds[i].events & POLLIN))
            this->readServer();
        else if (m_options.control && fds[i].fd == m_options.control->fd())
            m_options.control->service();
    }
    m_toClient.flush();
    if (!m_serverInputClosed) {
        m_toServer.flush();
        if (m_toServer.broken())
            m_serverInputClosed = true; // the server closed its stdin: its answers may still come
    }
    return true;
}

void WrapGateway::answerUnanswered(std::string_view why)
{
    for (const auto& [key, forwarded] : m_forwarded) {
        const RpcError error = internalError(forwarded.id, std::string(why));
        const std::string frame = encodeFrame(errorResponse(error));
        if (forwarded.step > 0)
            (void)m_mediator.finish(forwarded.step, errorResponse(error)["error"], frame, true, std::string(why));
        m_toClient.push(frame);
    }
    m_forwarded.clear();
    for (const auto& queued : m_queue)
        m_toClient.push(encodeFrame(errorResponse(internalError(queued.call.id, std::string(why)))));
    m_queue.clear();
}

WrapOutcome WrapGateway::run()
{
    while (pollOnce()) {
    }
    // Whatever the server still sent before it ended goes to the client first.
    if (m_serverEnded && !m_ended)
        end(m_clientEnded ? SessionStatus::Completed : SessionStatus::Failed,
            m_clientEnded ? "the client ended the session" : "the MCP server ended while the client was still there");
    if (!m_ended)
        end(SessionStatus::Completed, m_toClient.broken() ? "the client went away" : "the client ended the session");
    answerUnanswered(m_serverEnded ? "the MCP server ended before it answered"
                                   : "the session ended before the MCP server answered: " + m_outcome.message);
    m_toClient.drain(1000);
    closeServerInput();
    return m_outcome;
}

} // namespace

WrapOutcome forwardSession(const WrapEndpoints& endpoints, Mediator& mediator, LiveSession& session,
                           const WrapOptions& options)
{
    return WrapGateway(endpoints, mediator, session, options).run();
}

} // namespace sb::agents
