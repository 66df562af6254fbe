#include "session_setup.h"

#include "usecases/policy_reference.h"
#include "usecases/run.h"
#include "util/uuid.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

namespace sb::agents {

Result<std::string> sessionSandbox(SandboxEngine& engine, const std::string& asked)
{
    if (!asked.empty())
        return asked;
    auto id = randomUuid();
    if (!id)
        return std::unexpected(id.error());
    CreateSandboxRequest create;
    create.name = "agent-" + id->substr(0, 8);
    auto made = engine.createSandbox(create);
    if (!made)
        return std::unexpected(made.error());
    return made->sandbox.name;
}

Result<SessionPolicy> sessionPolicy(const Store& store, SandboxEngine& engine, const std::string& sandboxName,
                                    const std::string& asked)
{
    SandboxInfo sandbox;
    if (!sandboxName.empty()) {
        auto found = engine.sandbox(sandboxName);
        if (!found)
            return std::unexpected(found.error());
        sandbox = std::move(*found);
    }
    Result<Policy> policy = fail("");
    std::string reference;
    if (!asked.empty() || sandbox.policy.empty()) {
        reference = asked.empty() ? "agent" : asked;
        policy = resolveRunPolicy(RunPolicyRequest{.policy = reference});
    } else {
        reference = sandbox.policy;
        policy = policyFromReference(store, sandbox.policy);
        if (!policy)
            policy = fail(fmt::format("sandbox '{}': its policy {}: {}", sandbox.name, sandbox.policy,
                                      policy.error().message));
    }
    if (!policy)
        return std::unexpected(policy.error());
    auto rules = AgentRules::compile(policy->agent.value_or(AgentPolicy{}), reference);
    if (!rules)
        return std::unexpected(rules.error());
    return SessionPolicy{std::move(*policy), std::move(reference), std::move(*rules)};
}

Result<SessionGround> settleSession(Store& store, const std::string& sandbox, const std::string& policy)
{
    auto engine = SandboxEngine::open(store);
    if (!engine)
        return std::unexpected(engine.error());
    auto settled = sessionPolicy(store, **engine, sandbox, policy);
    if (!settled)
        return std::unexpected(settled.error());
    auto name = sessionSandbox(**engine, sandbox);
    if (!name)
        return std::unexpected(name.error());
    return SessionGround{std::move(*engine), std::move(*settled), std::move(*name)};
}

Checkpointer workspaceCheckpointer(SandboxEngine& engine, std::string sandbox, const SandboxHold* held)
{
    return [&engine, sandbox = std::move(sandbox), held](std::string_view label,
                                                         std::string_view message) -> Result<std::string> {
        const CheckpointRequest request{.sandbox = sandbox,
                                        .label = std::string(label),
                                        .message = std::string(message),
                                        .author = {},
                                        .onlyWhenChanged = true};
        auto made = held ? engine.checkpoint(request, *held) : engine.checkpoint(request);
        if (!made)
            return std::unexpected(made.error());
        return made->checkpoint.id;
    };
}

Result<OpenedSession> openSession(Store& store, SessionInfo info, const Policy& policy, bool stepMode,
                                  const Checkpointer& checkpoint, const std::function<void(std::string_view)>& log)
{
    auto version = store.recordPolicy(policy);
    if (!version)
        return std::unexpected(version.error());
    info.policy = *version;
    // A step per call for as long as the session runs: the log's checkpoints wait for idle moments
    // (LiveSession::idle) instead of delaying the call whose commit fills the log.
    store.deferWalCheckpoints();
    SessionStore sessions(store);
    auto live = sessions.begin(std::move(info));
    if (!live)
        return std::unexpected(live.error());
    auto control = SessionControl::listen(live->info().id, stepMode, live->info().workspace);
    if (control) {
        (void)live->update(SessionUpdate{.controlSocket = (*control)->path().string()});
    } else if (stepMode) {
        return abandon(*live, Error{fmt::format("stepping needs live control, which cannot listen: {}",
                                                control.error().message)});
    } else if (log) {
        log("no live control for this session: " + control.error().message);
    }
    auto first = checkpoint("session start", fmt::format("the workspace as session {} began", live->info().id));
    if (!first)
        return abandon(*live, first.error());
    (void)live->update(SessionUpdate{.firstCheckpoint = *first});
    return OpenedSession{std::move(*live), control ? std::move(*control) : nullptr};
}

std::unexpected<Error> abandon(LiveSession& session, const Error& error)
{
    (void)session.end(SessionStatus::Failed, error.message);
    return std::unexpected(error);
}

Result<SessionPipe> SessionPipe::make()
{
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        return fail(fmt::format("cannot create a pipe: {}", std::strerror(errno)));
    return SessionPipe{fds[0], fds[1]};
}

void closeDescriptor(int& fd)
{
    if (fd >= 0)
        ::close(fd);
    fd = -1;
}

} // namespace sb::agents
