#include "agents/agent_session.h"

#include "agents/builtin_tools.h"
#include "agents/framing.h"
#include "agents/mcp_version.h"
#include "agents/mediator.h"
#include "agents/session_control.h"
#include "agents/session_replay.h"
#include "outbox.h"
#include "session_setup.h"
#include "usecases/run.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <csignal>
#include <poll.h>
#include <thread>
#include <unistd.h>

namespace sb::agents {

namespace {

std::int64_t steadyMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Sandbench as the MCP server of the agent program: reads its requests, answers them, mediates its tool calls.
class AgentServer {
public:
    AgentServer(int fromAgent, int toAgent, Mediator& mediator, LiveSession& session, const ToolContext& tools,
                const AgentSessionRequest& request, SessionControl* control)
        : m_fromAgent(fromAgent), m_toAgent(toAgent), m_mediator(mediator), m_session(session), m_tools(tools),
          m_request(request), m_control(control)
    {
    }

    WrapOutcome run();

private:
    void log(std::string_view line) const
    {
        if (m_request.log)
            m_request.log(line);
    }
    void end(SessionStatus status, std::string message)
    {
        if (!m_ended)
            m_outcome = {status, std::move(message)};
        m_ended = true;
    }
    void answer(const Json& message) { m_out.push(encodeFrame(message)); }
    void onFrame(const ReadFrame& frame);
    void onRequest(const Message& message, std::string_view frame);
    void onToolCall(const Message& message, std::string_view frame);
    Admission waitForPerson(const ToolCallRequest& call, const ToolFacts& facts, WaitReason reason, Ruling ruling);
    void carryOut(const ToolCallRequest& call, const Admission& admission);
    bool stopped() const { return m_request.stop && m_request.stop->load(); }

    int m_fromAgent;
    int m_toAgent;
    Mediator& m_mediator;
    LiveSession& m_session;
    const ToolContext& m_tools;
    const AgentSessionRequest& m_request;
    SessionControl* m_control;
    Outbox m_out{m_toAgent};
    FrameReader m_reader;
    bool m_ended = false;
    WrapOutcome m_outcome{SessionStatus::Completed, "the agent ended"};
};

ToolFacts builtinFacts(const std::string& tool)
{
    return ToolFacts{builtinToolReadOnly(tool), builtinToolDestructive(tool), isBuiltinTool(tool)};
}

void AgentServer::onRequest(const Message& message, std::string_view frame)
{
    const std::string_view method = message.method();
    const Json& id = message.id();
    if (method == "initialize") {
        auto version = negotiateInitialize(message);
        if (!version) {
            answer(errorResponse(version.error()));
            return;
        }
        SessionUpdate update;
        update.protocolVersion = std::string(*version);
        update.clientInfo = message.params() ? message.params()->value("clientInfo", Json()) : Json();
        update.serverInfo = Json{{"name", "sandbench"}, {"version", SANDBENCH_VERSION}};
        (void)m_session.update(update);
        answer(resultResponse(
            id, {{"protocolVersion", std::string(*version)},
                 {"capabilities", {{"tools", {{"listChanged", false}}}}},
                 {"serverInfo", {{"name", "sandbench"}, {"title", "Sandbench"}, {"version", SANDBENCH_VERSION}}},
                 {"instructions", fmt::format("The tools work in a sandbox's workspace, {}: paths are relative to it "
                                              "or absolute under it. Every call is checked against a policy and "
                                              "recorded; a refused call says why.",
                                              kAgentWorkspace)}}));
    } else if (method == "ping") {
        answer(resultResponse(id, Json::object()));
    } else if (method == "tools/list") {
        answer(resultResponse(id, {{"tools", builtinToolList()}}));
    } else if (method == "tools/call") {
        onToolCall(message, frame);
    } else {
        answer(errorResponse(methodNotFound(id, method)));
    }
}

void AgentServer::carryOut(const ToolCallRequest& call, const Admission& admission)
{
    switch (admission.next) {
    case Admission::Next::GoOn: {
        const Json result = callBuiltinTool(m_tools, call.tool, admission.arguments);
        const std::string frame = encodeFrame(resultResponse(call.id, result));
        if (auto finished = m_mediator.finish(admission.step, result, frame); !finished)
            end(SessionStatus::Failed, finished.error().message);
        m_out.push(frame);
        return;
    }
    case Admission::Next::Answer: answer(resultResponse(call.id, admission.result)); return;
    case Admission::Next::EndSession:
        answer(resultResponse(call.id, admission.result));
        end(SessionStatus::Blocked, admission.ruling.message);
        return;
    case Admission::Next::Fail:
        answer(errorResponse(internalError(call.id, admission.error)));
        end(SessionStatus::Failed, admission.error);
        return;
    case Admission::Next::Wait: return;
    }
}

// Waits (serving live control) until a person decides the call, or an approval's timeout denies it.
Admission AgentServer::waitForPerson(const ToolCallRequest& call, const ToolFacts& facts, WaitReason reason,
                                     Ruling ruling)
{
    const std::int64_t step = m_mediator.nextStep();
    const std::int64_t timeoutMs = m_mediator.rules().policy().approvalTimeoutMs;
    std::int64_t deadline = steadyMs() + timeoutMs;
    const auto announce = [&] {
        const std::string why = waitingWhy(reason, ruling);
        if (m_control)
            m_control->waiting(step, &call, reason, why);
        log(fmt::format("step {} ({}) waits: {}", step, call.tool, why));
    };
    announce();
    for (;;) {
        std::optional<ApprovalDecision> decision;
        if (m_request.approvals)
            decision = m_request.approvals(step, call);
        if (!decision && m_control) {
            pollfd p{m_control->fd(), POLLIN, 0};
            if (::poll(&p, 1, 50) > 0)
                m_control->service();
            decision = m_control->takeDecision(step);
        } else if (!decision) {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        if (!decision && reason == WaitReason::Approval && steadyMs() >= deadline)
            decision = ApprovalDecision{false, fmt::format("the approval timeout ({} ms, nobody answered)", timeoutMs),
                                        std::nullopt};
        if (!decision && stopped())
            decision = ApprovalDecision{false, "the end of the session (a signal)", std::nullopt};
        if (!decision)
            continue;
        Admission admission = reason == WaitReason::Approval || !decision->approve
                                  ? m_mediator.decide(call, facts, decision->approve, decision->who, decision->arguments)
                                  : m_mediator.proceed(call, facts, decision->arguments);
        if (admission.next != Admission::Next::Wait) {
            if (m_control)
                m_control->waiting(0, nullptr, WaitReason::None);
            return admission;
        }
        reason = WaitReason::Approval; // edited into a call that needs approval
        ruling = admission.ruling;
        deadline = steadyMs() + timeoutMs;
        announce();
    }
}

void AgentServer::onToolCall(const Message& message, std::string_view frame)
{
    auto call = readToolCall(message, frame);
    if (!call) {
        answer(errorResponse(call.error()));
        return;
    }
    const ToolFacts facts = builtinFacts(call->tool);
    if (m_control) {
        const WaitReason pause = m_control->pauses(m_mediator.nextStep(), *call);
        if (const Ruling coming = m_mediator.preview(*call); pausesBefore(pause, coming)) {
            carryOut(*call, waitForPerson(*call, facts, pause, coming));
            return;
        }
    }
    Admission admission = m_mediator.admit(*call, facts);
    if (admission.next == Admission::Next::Wait)
        admission = waitForPerson(*call, facts, WaitReason::Approval, admission.ruling);
    carryOut(*call, admission);
}

void AgentServer::onFrame(const ReadFrame& frame)
{
    if (!frame) {
        answer(errorResponse(errorForFrame(frame.error())));
        return;
    }
    auto message = Message::parse(*frame);
    if (!message) {
        answer(errorResponse(message.error()));
        return;
    }
    if (message->isRequest())
        onRequest(*message, *frame);
    // Notifications (initialized, cancelled: a call is carried out at once, there is nothing to cancel) and
    // responses (Sandbench asks the agent nothing) need no answer.
}

WrapOutcome AgentServer::run()
{
    while (!m_ended) {
        if (stopped()) {
            end(SessionStatus::Interrupted, "the gateway was stopped (a signal) while the session ran");
            break;
        }
        pollfd fds[3];
        nfds_t count = 0;
        fds[count++] = {m_fromAgent, POLLIN, 0};
        if (m_out.pending())
            fds[count++] = {m_toAgent, POLLOUT, 0};
        if (m_control)
            fds[count++] = {m_control->fd(), POLLIN, 0};
        const int ready = ::poll(fds, count, 200);
        if (ready < 0 && errno != EINTR)
            break;
        if (ready == 0)
            m_session.idle();
        if (m_control && (fds[count - 1].revents & POLLIN))
            m_control->service();
        if (fds[0].revents) {
            char buffer[65536];
            const ssize_t n = ::read(m_fromAgent, buffer, sizeof buffer);
            if (n > 0) {
                for (const auto& frame : m_reader.feed(std::string_view(buffer, static_cast<std::size_t>(n)))) {
                    onFrame(frame);
                    if (m_ended)
                        break;
                }
            } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
                if (const auto last = m_reader.finish())
                    onFrame(std::unexpected(*last));
                break; // the agent closed its stdout: it has ended, or is ending
            }
        }
        m_out.flush();
        if (m_out.broken())
            break;
    }
    m_out.drain(1000);
    return m_outcome;
}

} // namespace

Result<AgentSessionResult> runAgentSession(Store& store, const Runner& runner, const AgentSessionRequest& request)
{
    if (request.agentCommand.empty())
        return fail("no agent to start: give its command after --");
    for (const auto& path : request.readPaths) {
        if (path.empty() || path.front() != '/')
            return fail(fmt::format("--read {}: give an absolute path", path));
    }
    auto ground = settleSession(store, request.sandbox, request.policy);
    if (!ground)
        return std::unexpected(ground.error());
    std::unique_ptr<SandboxEngine>* engine = &ground->engine;
    SessionPolicy* policy = &ground->policy;
    const std::string* sandbox = &ground->sandbox;

    // The agent's own run: a private work dir, no network, the paths it needs to read its program.
    RunOrder order;
    order.request.language = Language::Command;
    order.request.command = request.agentCommand;
    order.request.source = fmt::format("{}", fmt::join(request.agentCommand, " "));
    order.request.label = "agent run";
    order.request.policy = policy->policy;
    order.request.policy.network = NetworkMode::None;
    order.request.policy.networkAllow.clear();
    for (const auto& path : request.readPaths)
        order.request.policy.readPaths.push_back(path);
    order.asked.level = order.request.policy.level;
    auto prepared = prepareRun(store, std::move(order));
    if (!prepared)
        return std::unexpected(prepared.error());

    SessionInfo info;
    info.kind = SessionKind::Agent;
    info.command = request.agentCommand;
    info.sandbox = *sandbox;
    info.policyRef = policy->reference;
    info.workspace = kAgentWorkspace;
    const Checkpointer checkpoint = workspaceCheckpointer(**engine, *sandbox);
    auto opened = openSession(store, info, policy->policy, request.stepMode, checkpoint, request.log);
    if (!opened)
        return std::unexpected(opened.error());
    LiveSession* session = &opened->live;
    SessionControl* control = opened->control.get();
    SessionStore sessions(store);
    if (request.started)
        request.started(session->info());

    auto toAgent = SessionPipe::make();
    auto fromAgent = toAgent ? SessionPipe::make() : Result<SessionPipe>(std::unexpected(toAgent.error()));
    if (!fromAgent)
        return abandon(*session, fromAgent.error());
    prepared->order.request.channelIn = toAgent->read;
    prepared->order.request.channelOut = fromAgent->write;
    std::signal(SIGPIPE, SIG_IGN);
    std::atomic<bool> cancelAgent{false};
    std::atomic<bool> agentEnded{false};
    RunResult agent;
    std::thread agentThread([&] {
        agent = runner.run(prepared->order.request, &cancelAgent);
        agentEnded = true;
    });

    ToolContext tools{&store, &runner, *sandbox, kAgentWorkspace, &policy->policy, request.stop};
    tools.rewind = [&](std::int64_t step) -> Result<std::string> {
        return rewindWorkspace(sessions, session->info(), **engine, step);
    };
    Mediator mediator(policy->rules, *session, info.workspace, checkpoint);
    mediator.setToolCheck([&tools](const ToolCallRequest& call) { return checkBuiltinCall(tools, call); });
    WrapOutcome outcome =
        AgentServer(fromAgent->read, toAgent->write, mediator, *session, tools, request, control)
            .run();
    // The agent's stdin closes: an agent reading its requests' answers sees the end, and has a moment to go.
    closeDescriptor(toAgent->write);
    for (int waited = 0; !agentEnded && waited < 2000; waited += 10)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    cancelAgent = true;
    agentThread.join();
    closeDescriptor(fromAgent->read);
    RunRecord record = recordRun(store, std::move(*prepared), agent);
    (void)session->update(SessionUpdate{.runId = record.result.runId});
    if (record.result.outcome == Outcome::InternalError && outcome.status == SessionStatus::Completed) {
        outcome = {SessionStatus::Failed, fmt::format("the agent could not run in its sandbox: {}", record.result.message.text())};
    } else if (outcome.status == SessionStatus::Completed && record.result.outcome != Outcome::Ok) {
        // An agent that exited 0 finished its work, even when its run recorded something the policy refused
        // on the way (Node's runtime probing a cgroup file the sandbox has not): the run keeps that record.
        const bool exitedWell = record.result.exitCode == 0 && record.result.signal == 0
                                && record.result.outcome == Outcome::Blocked;
        outcome = {exitedWell ? SessionStatus::Completed : SessionStatus::Failed,
                   fmt::format("the agent ended; its run: {}{}", toString(record.result.outcome),
                               record.result.message.empty() ? "" : " (" + record.result.message.text() + ")")};
    }
    if (auto ended = session->end(outcome.status, outcome.message); !ended)
        return std::unexpected(ended.error());
    return AgentSessionResult{session->info(), std::move(record.result)};
}

} // namespace sb::agents
