// sandbench mcp wrap | agent run | sessions list | show | control | rewind | fork | replay

#include "cluster_support.h"
#include "command_line.h"
#include "commands.h"
#include "report.h"

#include "agents/agent_cluster.h"
#include "agents/agent_session.h"
#include "agents/session_control.h"
#include "agents/session_replay.h"
#include "agents/session_store.h"
#include "agents/wrap_session.h"
#include "isolation/runner.h"
#include "util/printable.h"
#include "util/time_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <atomic>
#include <csignal>
#include <iostream>
#include <memory>

namespace sb::cli {

namespace {

struct SessionOptions {
    std::string store;
    bool json = false;
    std::string policy;
    std::string sandbox;
    std::vector<std::string> command;
    std::string id;
    bool stepMode = false;
    std::vector<std::string> readPaths;
    std::vector<std::string> control; // sessions control: the command and its words
    std::int64_t step = 0;            // rewind --to-step, fork --at-step
    std::string name;                 // fork --name
    BackendOptions backend;           // agent run
    std::string job;                  // agent-task
};

std::atomic<bool> g_stop{false};

extern "C" void onStopSignal(int)
{
    g_stop = true;
}

void catchStopSignals()
{
    struct sigaction stop {};
    stop.sa_handler = onStopSignal;
    ::sigaction(SIGINT, &stop, nullptr);
    ::sigaction(SIGTERM, &stop, nullptr);
}

int wrapCommand(const SessionOptions& options)
{
    auto store = openStore(options.store);
    if (!store)
        return reportError(store.error().message);
    const Runner runner;
    agents::WrapSessionRequest request;
    request.serverCommand = options.command;
    request.policy = options.policy;
    request.sandbox = options.sandbox;
    request.log = [](std::string_view line) { std::cerr << "sandbench mcp wrap: " << line << '\n'; };
    request.stop = &g_stop;
    // stdout is the client's channel: nothing else may be written there.
    catchStopSignals();
    auto result = agents::runWrapSession(*store, runner, request);
    if (!result)
        return reportError(result.error().message);
    std::cerr << fmt::format("sandbench mcp wrap: session {} {}: {} steps{}\n", result->session.id,
                             agents::toString(result->session.status), result->session.steps,
                             result->session.message.empty() ? "" : " (" + result->session.message + ")");
    return result->session.status == agents::SessionStatus::Completed ? 0 : kExitFailure;
}

int agentRunOnSlurm(const SessionOptions& options)
{
    agents::ClusterAgentRequest request;
    request.session.agentCommand = options.command;
    request.session.policy = options.policy;
    request.session.sandbox = options.sandbox;
    request.session.readPaths = options.readPaths;
    request.session.stepMode = options.stepMode;
    auto settings = slurmSettings();
    if (!settings)
        return reportError(settings.error().message);
    request.slurm = *settings;
    request.partition = options.backend.partition;
    auto store = openStore(options.store);
    if (!store)
        return reportError(store.error().message);
    request.cancel = catchCancel();
    request.title = commandTitle();
    ClusterProgress progress;
    request.progress = [&progress](const cluster::StageProgress& p) { progress.show("running", p); };
    auto result = agents::runAgentSessionOnSlurm(*store, request);
    progress.finish();
    if (!result)
        return reportError(result.error().message);
    const agents::SessionInfo& s = result->result.session;
    if (options.json) {
        auto out = agentSessionToJson(result->result);
        out["slurm"] = {{"job", result->job}, {"node", result->node}, {"retried", result->retried}};
        std::cout << dumpJson(out) << '\n';
    } else {
        std::cout << fmt::format("session {} {}: {} steps, cost {:g}{} (Slurm job {} on {}{})\n", s.id,
                                 agents::toString(s.status), s.steps, s.cost,
                                 s.message.empty() ? "" : " (" + s.message + ")", result->job, result->node,
                                 result->retried ? fmt::format("; run {} more times", result->retried) : "");
        if (!result->result.agent.stderrText.empty())
            std::cerr << result->result.agent.stderrText;
    }
    return s.status == agents::SessionStatus::Completed ? 0 : kExitFailure;
}

int agentTaskCommand(const SessionOptions& options)
{
    // Slurm's cancel is a SIGTERM: the session ends and the task's scratch store is removed.
    auto ok = agents::runAgentTask(options.job, catchCancel());
    if (!ok) {
        std::cerr << "sandbench: agent-task: " << printable(ok.error().message) << '\n';
        return kExitFailure;
    }
    return 0;
}

int agentRunCommand(const SessionOptions& options)
{
    if (options.backend.slurm())
        return agentRunOnSlurm(options);
    auto store = openStore(options.store);
    if (!store)
        return reportError(store.error().message);
    const Runner runner;
    agents::AgentSessionRequest request;
    request.agentCommand = options.command;
    request.policy = options.policy;
    request.sandbox = options.sandbox;
    request.readPaths = options.readPaths;
    request.stepMode = options.stepMode;
    request.stop = &g_stop;
    const bool json = options.json;
    request.log = [](std::string_view line) { std::cerr << "sandbench agent run: " << line << '\n'; };
    request.started = [json](const agents::SessionInfo& session) {
        if (!json)
            std::cerr << fmt::format("sandbench agent run: session {} in sandbox {}{}\n", session.id, session.sandbox,
                                     session.controlSocket.empty() ? ""
                                                                   : " (control: sandbench sessions control " +
                                                                         session.id.substr(0, 8) + " ...)");
    };
    catchStopSignals();
    auto result = agents::runAgentSession(*store, runner, request);
    if (!result)
        return reportError(result.error().message);
    const agents::SessionInfo& s = result->session;
    if (json) {
        std::cout << dumpJson(agentSessionToJson(*result)) << '\n';
    } else {
        std::cout << fmt::format("session {} {}: {} steps, cost {:g}{}\n", s.id, agents::toString(s.status), s.steps,
                                 s.cost, s.message.empty() ? "" : " (" + s.message + ")");
        if (!result->agent.stderrText.empty())
            std::cerr << result->agent.stderrText;
    }
    return s.status == agents::SessionStatus::Completed ? 0 : kExitFailure;
}

int controlCommand(const SessionOptions& options)
{
    auto store = openStore(options.store);
    if (!store)
        return reportError(store.error().message);
    agents::SessionStore sessions(*store);
    auto session = sessions.find(options.id);
    if (!session)
        return reportError(session.error().message);
    if (session->status != agents::SessionStatus::Running)
        return reportError(fmt::format("session {} is {}: only a running session can be controlled", session->id,
                                       agents::toString(session->status)));
    if (session->controlSocket.empty())
        return reportError(fmt::format("session {} has no live control", session->id));
    auto answer = agents::sendControlCommand(session->controlSocket, fmt::format("{}", fmt::join(options.control, " ")));
    if (!answer)
        return reportError(answer.error().message);
    std::cout << dumpJson(*answer) << '\n';
    return answer->value("ok", false) ? 0 : kExitFailure;
}

int rewindCommand(const SessionOptions& options)
{
    auto store = openStore(options.store);
    if (!store)
        return reportError(store.error().message);
    auto restored = agents::rewindSession(*store, options.id, options.step);
    if (!restored)
        return reportError(restored.error().message);
    if (options.json)
        std::cout << dumpJson({{"sandbox", restored->sandbox},
                               {"restored", restored->restored.id},
                               {"recorded", restored->recorded.id},
                               {"saved", restored->saved ? nlohmann::json(restored->saved->id) : nlohmann::json()}})
                  << '\n';
    else
        std::cout << fmt::format("sandbox {} is as it was before step {} (checkpoint {}){}\n", restored->sandbox,
                                 options.step, restored->restored.id.substr(0, 12),
                                 restored->saved ? "; its changes since were saved as " + restored->saved->id.substr(0, 12)
                                                 : "");
    return 0;
}

int forkCommand(const SessionOptions& options)
{
    auto store = openStore(options.store);
    if (!store)
        return reportError(store.error().message);
    auto forked = agents::forkSession(*store, options.id, options.step, options.name);
    if (!forked)
        return reportError(forked.error().message);
    if (options.json)
        std::cout << dumpJson({{"sandbox", forked->sandbox.name},
                               {"checkpoint", forked->checkpoint.id},
                               {"workspace", forked->sandbox.workspace.string()}})
                  << '\n';
    else
        std::cout << fmt::format("sandbox {} made from the workspace before step {}: {}\n", forked->sandbox.name,
                                 options.step, forked->sandbox.workspace.string());
    return 0;
}

int replayCommand(const SessionOptions& options)
{
    auto store = openStore(options.store);
    if (!store)
        return reportError(store.error().message);
    const Runner runner;
    // Ctrl-C stops the replay between two steps: its session is recorded as interrupted.
    catchStopSignals();
    auto report = agents::replaySession(*store, runner, options.id, options.policy, {.stop = &g_stop, .progress = {}});
    if (!report)
        return reportError(report.error().message);
    if (options.json) {
        std::cout << dumpJson(agents::replayJson(*report)) << '\n';
        return 0;
    }
    std::cout << fmt::format("replay {} of session {} under {} (sandbox {}): {} of {} steps differ\n\n",
                             report->replay.id, report->original.id, report->policyRef, report->replay.sandbox,
                             report->changed, report->steps.size());
    std::cout << fmt::format("{:>5}  {:<16}  {:<9}  {:<15}  {:<16}  {}\n", "STEP", "TOOL", "WAS", "NOW", "CHANGE", "WHY");
    for (const auto& step : report->steps)
        std::cout << fmt::format("{:>5}  {:<16}  {:<9}  {:<15}  {:<16}  {}\n", step.index, step.tool,
                                 agents::toString(step.recorded), step.verdict, step.change, step.message);
    return 0;
}

std::string whenText(std::int64_t ms)
{
    return ms > 0 ? formatIsoUtc(ms) : "-";
}

int listCommand(const SessionOptions& options)
{
    auto store = openStore(options.store);
    if (!store)
        return reportError(store.error().message);
    agents::SessionStore sessions(*store);
    auto list = sessions.list();
    if (!list)
        return reportError(list.error().message);
    if (options.json) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& session : *list)
            out.push_back(agents::sessionJson(session));
        std::cout << dumpJson(out) << '\n';
        return 0;
    }
    if (list->empty()) {
        std::cout << "no agent sessions yet (sandbench agent run, sandbench mcp wrap)\n";
        return 0;
    }
    std::cout << fmt::format("{:<36}  {:<5}  {:<11}  {:>6}  {:<20}  {:<24}  {}\n", "ID", "KIND", "STATUS", "STEPS",
                             "SANDBOX", "STARTED", "COMMAND");
    for (const auto& s : *list)
        std::cout << fmt::format("{:<36}  {:<5}  {:<11}  {:>6}  {:<20}  {:<24}  {}\n", s.id, agents::toString(s.kind),
                                 agents::toString(s.status), s.steps, s.sandbox, whenText(s.startedAtMs),
                                 fmt::join(s.command, " "));
    return 0;
}

void printStep(const agents::StepRecord& step)
{
    const std::int64_t ms = step.endedAtMs > 0 ? step.endedAtMs - step.startedAtMs : -1;
    std::cout << fmt::format("{:>5}  {:<9}  {:<16}  {:>7}  {}\n", step.index, agents::toString(step.verdict),
                             step.tool, ms >= 0 ? fmt::format("{} ms", ms) : "…",
                             step.message.empty() ? step.arguments.dump(-1, ' ', false,
                                                                        nlohmann::json::error_handler_t::replace)
                                                  : step.message);
}

int showCommand(const SessionOptions& options)
{
    auto store = openStore(options.store);
    if (!store)
        return reportError(store.error().message);
    agents::SessionStore sessions(*store);
    auto session = sessions.find(options.id);
    if (!session)
        return reportError(session.error().message);
    if (options.json) {
        auto written = sessions.writeShowJson(*session, [](std::string_view text) -> Result<void> {
            std::cout.write(text.data(), static_cast<std::streamsize>(text.size()));
            return {};
        });
        std::cout << '\n';
        return written ? 0 : reportError(written.error().message);
    }
    const agents::SessionInfo& s = *session;
    std::cout << fmt::format("session   {}\nkind      {}\nstatus    {}{}\ncommand   {}\nsandbox   {}\npolicy    {}{}\n"
                             "workspace {}\nstarted   {}\nended     {}\nsteps     {}\ncost      {:g}\n",
                             s.id, agents::toString(s.kind), agents::toString(s.status),
                             s.message.empty() ? "" : " (" + s.message + ")", fmt::join(s.command, " "), s.sandbox,
                             s.policy.name.empty() ? "-" : fmt::format("{}@{}", s.policy.name, s.policy.version),
                             s.policyRef.empty() ? "" : " (" + s.policyRef + ")", s.workspace, whenText(s.startedAtMs),
                             whenText(s.endedAtMs), s.steps, s.cost);
    auto steps = sessions.allSteps(s.id);
    if (!steps)
        return reportError(steps.error().message);
    if (!steps->empty())
        std::cout << fmt::format("\n{:>5}  {:<9}  {:<16}  {:>7}  {}\n", "STEP", "VERDICT", "TOOL", "TIME", "DETAIL");
    for (const auto& step : *steps)
        printStep(step);
    return 0;
}

} // namespace

void addAgentCommands(CommandLine& commandLine)
{
    auto options = std::make_shared<SessionOptions>();
    auto* mcpCmd = commandLine.app().add_subcommand("mcp", "MCP: put a third-party MCP server behind Sandbench's gateway");
    mcpCmd->require_subcommand(1);
    auto* wrapCmd = mcpCmd->add_subcommand(
        "wrap", "Start an MCP server in a sandbox and stand between it and the client on this process's stdio: "
                "every tools/call is ruled by the policy's agent section, checkpointed and recorded");
    wrapCmd->add_option("--policy", options->policy, "Policy file or preset (default: the sandbox's, else agent)");
    wrapCmd->add_option("--sandbox", options->sandbox, "Sandbox to work in (default: a new one made from main)")
        ->check(sandboxNameValidator());
    addStoreOption(wrapCmd, options->store);
    wrapCmd->add_option("command", options->command, "The MCP server's command line (after --)")->required();
    commandLine.onParsed(wrapCmd, [options] { return wrapCommand(*options); });

    auto* agentCmd = commandLine.app().add_subcommand("agent", "Agents: run an agent program with Sandbench as its MCP server");
    agentCmd->require_subcommand(1);
    auto* runCmd = agentCmd->add_subcommand(
        "run", "Start an agent program in a sandbox with Sandbench as the MCP server on its stdio, offering the "
               "sandbox's tools; every tools/call is ruled by the policy's agent section, checkpointed and recorded");
    runCmd->add_option("--policy", options->policy, "Policy file or preset (default: the sandbox's, else agent)");
    runCmd->add_option("--sandbox", options->sandbox, "Sandbox whose workspace the tools work in (default: a new one "
                                                      "made from main)")
        ->check(sandboxNameValidator());
    runCmd->add_flag("--step", options->stepMode, "Pause before every tool call until told to go on "
                                              "(sandbench sessions control ID step|continue)");
    runCmd->add_option("--read", options->readPaths, "A path the agent program may read (its own files), repeatable");
    addJsonFlag(runCmd, options->json, "Print the session as JSON at its end");
    addStoreOption(runCmd, options->store);
    addBackendOptions(runCmd, options->backend, "the session a task of a Slurm job, run on its node in a copy of the "
                                                "sandbox's workspace under the same policy and recorded here (no "
                                                "live control: approvals time out as denied)",
                      false);
    runCmd->add_option("command", options->command, "The agent's command line (after --)")->required();
    commandLine.onParsed(runCmd, [options] { return agentRunCommand(*options); });
    // The task of an agent session's Slurm job (agents/agent_cluster.h): not for people.
    auto* taskCmd = commandLine.app().add_subcommand("agent-task", "A task of a Slurm job of sandbench agent run")->group("");
    taskCmd->add_option("--job", options->job, "The job's folder in the spool")->required();
    commandLine.onParsed(taskCmd, [options] { return agentTaskCommand(*options); });

    auto* sessionsCmd = commandLine.app().add_subcommand("sessions", "Agent sessions: list and show their steps, "
                                                                     "control a running one");
    sessionsCmd->require_subcommand(1);
    auto* listCmd = sessionsCmd->add_subcommand("list", "Every agent session, newest first");
    auto* showCmd = sessionsCmd->add_subcommand("show", "A session and its steps (--json: the session and `steps`)");
    showCmd->add_option("id", options->id, "Session id, or a unique prefix of at least 4 characters")->required();
    for (auto* sub : {sessionsCmd, listCmd, showCmd}) {
        addJsonFlag(sub, options->json);
        addStoreOption(sub, options->store);
    }
    auto* controlCmd = sessionsCmd->add_subcommand(
        "control", "Drive a running session: status | step | continue | pause | approve N | deny N | set-args N JSON "
                   "| break TOOL-OR-CEL | clear");
    controlCmd->add_option("id", options->id, "Session id, or a unique prefix")->required();
    controlCmd->add_option("command", options->control, "The command and its arguments")->required();
    addStoreOption(controlCmd, options->store);
    commandLine.onParsed(controlCmd, [options] { return controlCommand(*options); });
    auto* rewindCmd = sessionsCmd->add_subcommand("rewind", "Make the session's sandbox as it was before a step");
    rewindCmd->add_option("id", options->id, "Session id, or a unique prefix")->required();
    rewindCmd->add_option("--to-step", options->step, "The step (the workspace before it)")->required()->check(CLI::PositiveNumber);
    auto* forkCmd = sessionsCmd->add_subcommand("fork", "A new sandbox from the session's workspace before a step");
    forkCmd->add_option("id", options->id, "Session id, or a unique prefix")->required();
    forkCmd->add_option("--at-step", options->step, "The step (the workspace before it)")->required()->check(CLI::PositiveNumber);
    forkCmd->add_option("--name", options->name, "The new sandbox's name")->required()->check(sandboxNameValidator());
    auto* replayCmd = sessionsCmd->add_subcommand(
        "replay", "The session's calls again from its first checkpoint, under another policy: what would now be "
                  "blocked, need approval or end differently");
    replayCmd->add_option("id", options->id, "Session id, or a unique prefix")->required();
    replayCmd->add_option("--policy", options->policy, "Policy file or preset (default: the session's own)");
    for (auto* sub : {rewindCmd, forkCmd, replayCmd}) {
        addJsonFlag(sub, options->json);
        addStoreOption(sub, options->store);
    }
    commandLine.onParsed(rewindCmd, [options] { return rewindCommand(*options); });
    commandLine.onParsed(forkCmd, [options] { return forkCommand(*options); });
    commandLine.onParsed(replayCmd, [options] { return replayCommand(*options); });
    commandLine.onParsed(listCmd, [options] { return listCommand(*options); });
    commandLine.onParsed(showCmd, [options] { return showCommand(*options); });
}

} // namespace sb::cli
