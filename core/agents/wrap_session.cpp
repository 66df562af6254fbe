#include "agents/wrap_session.h"

#include "agents/agent_policy.h"
#include "agents/mediator.h"
#include "agents/session_control.h"
#include "session_setup.h"
#include "isolation/doctor.h"
#include "sandboxes/sandbox_engine.h"
#include "usecases/run.h"
#include "util/uuid.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace sb::agents {

namespace {

// The level the server's run gets here.
IsolationLevel levelOf(const Policy& policy)
{
    const IsolationLevel available = highestAvailableLevel();
    return policy.level > available && policy.allowLowerLevel ? available : policy.level;
}

// Where the server sees its workspace.
std::string workspaceAsSeen(const Policy& policy, const std::filesystem::path& workspace)
{
    return levelOf(policy) >= IsolationLevel::Container ? std::string(kContainerWorkDir) : workspace.string();
}

// A root caller's run at the process level is a transient user (isolation/runner.h) that works in the workspace
// through the folder it starts in, but cannot reach it by its path when a folder above it is closed to other
// users, as the store's own folders are. A server that names its folders by path (server-filesystem given ".")
// fails then; the note says why and what works. "" when the path is reachable.
std::string unreachableWorkspaceNote(const Policy& policy, const std::filesystem::path& workspace)
{
    if (::geteuid() != 0 || levelOf(policy) >= IsolationLevel::Container)
        return {};
    for (std::filesystem::path folder = workspace.parent_path(); !folder.empty(); folder = folder.parent_path()) {
        struct stat status {};
        if (::stat(folder.c_str(), &status) == 0 && (status.st_mode & S_IXOTH) == 0)
            return fmt::format("note: at the process level the server runs as a transient user that works in its "
                               "workspace but cannot reach it by its path {} ({} is closed to other users); a server "
                               "that resolves its folders by path fails so. Run it at the container level (policy "
                               "level: container), where the workspace is {}, or as a user other than root.",
                               workspace.string(), folder.string(), kContainerWorkDir);
        if (folder == folder.root_path())
            break;
    }
    return {};
}

struct Prepared {
    PreparedRun run;
    SessionPolicy policy;
};

Result<Prepared> prepare(Store& store, SessionPolicy policy, const WrapSessionRequest& request,
                         const std::string& sandbox)
{
    RunOrder order;
    order.sandbox = sandbox;
    order.asked.level = policy.policy.level; // the session's policy, already settled
    order.request.language = Language::Command;
    order.request.command = request.serverCommand;
    order.request.source = fmt::format("{}", fmt::join(request.serverCommand, " "));
    order.request.label = "mcp wrap";
    order.request.policy = policy.policy;
    auto prepared = prepareRun(store, std::move(order));
    if (!prepared)
        return std::unexpected(prepared.error());
    return Prepared{std::move(*prepared), std::move(policy)};
}

} // namespace

Result<WrapSessionResult> runWrapSession(Store& store, const Runner& runner, const WrapSessionRequest& request)
{
    if (request.serverCommand.empty())
        return fail("no MCP server to start: give its command after --");
    auto ground = settleSession(store, request.sandbox, request.policy);
    if (!ground)
        return std::unexpected(ground.error());
    std::unique_ptr<SandboxEngine>* engine = &ground->engine;
    SessionPolicy* policy = &ground->policy;
    const std::string* sandbox = &ground->sandbox;
    auto prepared = prepare(store, std::move(*policy), request, *sandbox);
    if (!prepared)
        return std::unexpected(prepared.error());
    PreparedRun& run = prepared->run;
    const SandboxHold& held = *run.held;

    SessionInfo info;
    info.kind = SessionKind::Wrap;
    info.command = request.serverCommand;
    info.sandbox = *sandbox;
    info.policyRef = prepared->policy.reference;
    info.workspace = workspaceAsSeen(run.order.request.policy, held.sandbox.workspace);
    const Checkpointer checkpoint = workspaceCheckpointer(**engine, *sandbox, &held);
    auto opened = openSession(store, info, run.order.request.policy, false, checkpoint, request.log);
    if (!opened)
        return std::unexpected(opened.error());
    LiveSession* session = &opened->live;
    SessionControl* control = opened->control.get();

    auto toServer = SessionPipe::make();
    auto fromServer = toServer ? SessionPipe::make() : Result<SessionPipe>(std::unexpected(toServer.error()));
    if (!fromServer)
        return abandon(*session, fromServer.error());
    run.order.request.channelIn = toServer->read;   // the run closes them once its launcher has them
    run.order.request.channelOut = fromServer->write;
    WrapEndpoints endpoints{request.clientIn, request.clientOut, toServer->write, fromServer->read};

    // A peer that goes away must not take the gateway with it: its writes fail with EPIPE instead.
    std::signal(SIGPIPE, SIG_IGN);
    std::atomic<bool> cancelServer{false};
    RunResult server;
    std::atomic<bool> serverEnded{false};
    std::thread serverThread([&] {
        server = runner.run(run.order.request, &cancelServer);
        serverEnded = true;
    });

    if (const std::string note = unreachableWorkspaceNote(run.order.request.policy, held.sandbox.workspace);
        !note.empty() && request.log)
        request.log(note);
    Mediator mediator(prepared->policy.rules, *session, info.workspace, checkpoint);
    WrapOptions options;
    options.log = request.log;
    options.stop = request.stop;
    options.approvals = request.approvals;
    options.control = control;
    WrapOutcome outcome = forwardSession(endpoints, mediator, *session, options);

    // The server's stdin is closed: it may end on its own, as servers do at EOF, before it is stopped.
    const auto stopped = [&] { return request.stop && request.stop->load(); };
    for (int waited = 0; !serverEnded && !stopped() && waited < options.serverGraceMs; waited += 10)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    cancelServer = true;
    serverThread.join();
    closeDescriptor(endpoints.serverOut);
    RunRecord record = recordRun(store, std::move(run), server);
    (void)session->update(SessionUpdate{.runId = record.result.runId});
    if (record.result.outcome == Outcome::InternalError && outcome.status != SessionStatus::Blocked) {
        outcome.status = SessionStatus::Failed;
        outcome.message = fmt::format("the MCP server could not run in the sandbox: {}", record.result.message.text());
    }
    if (auto ended = session->end(outcome.status, outcome.message); !ended)
        return std::unexpected(ended.error());
    WrapSessionResult result;
    result.session = session->info();
    result.server = std::move(record.result);
    return result;
}

} // namespace sb::agents
