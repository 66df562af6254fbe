#include "commands.h"

#include "agents/agent_policy.h"
#include "agents/worked_example_session.h"

#include "report.h"

#include "isolation/doctor.h"
#include "isolation/runner.h"
#include "store/store.h"
#include "usecases/demo_run.h"
#include "usecases/run.h"
#include "usecases/run_helper.h"
#include "util/hash.h"
#include "util/input_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <csignal>
#include <ctime>
#include <iostream>
#include <mutex>
#include <sstream>

namespace sb::cli {

Result<Store> openStore(const std::string& path)
{
    return Store::open(Store::locate(path));
}

int reportError(const std::string& message)
{
    std::cerr << "sandbench: " << message << '\n';
    return kExitFailure;
}

std::string formatTime(std::int64_t epochMs)
{
    const std::time_t t = static_cast<std::time_t>(epochMs / 1000);
    std::tm tm{};
    ::localtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
    return buf;
}

namespace {

Result<std::string> readSnippet(const std::string& file)
{
    return file == "-" ? readStdinText(input::kSnippet) : readInputText(file, input::kSnippet);
}

void printSummary(std::ostream& out, const RunResult& r)
{
    out << fmt::format("[sandbench] {} · {:.0f} ms · cpu {:.0f} ms · peak {} · run {}\n", toString(r.outcome),
                       r.durationMs, r.cpuMs, humanBytes(r.peakRssKb), r.runId);
    for (const auto& b : r.blocked)
        out << fmt::format("[sandbench] blocked {}: {}\n", b.kind, b.detail);
    for (const auto& c : r.claims)
        out << fmt::format("[sandbench] the program says (not observed): {}: {}\n", c.kind, c.detail);
    if (!r.message.empty() && r.outcome != Outcome::Ok)
        out << "[sandbench] " << r.message.text() << '\n';
    if (r.stdoutTruncated || r.stderrTruncated)
        out << "[sandbench] output was truncated at the policy's limit\n";
}

} // namespace

namespace {

// What --policy, --level, --timeout-ms and --memory-mb ask of the run's policy.
RunPolicyRequest askedPolicy(const RunOptions& options)
{
    RunPolicyRequest asked;
    asked.policy = options.policyFile;
    if (!options.level.empty())
        asked.level = *isolationLevelFromString(options.level); // validated by the parser
    asked.timeoutMs = options.timeoutMs;
    asked.memoryMb = options.memoryMb;
    return asked;
}

void printRecord(const RunRecord& record, const RunOptions& options, std::ostream& out, std::ostream& err)
{
    const RunRequest& request = record.request;
    const RunResult& result = record.result;
    if (options.json) {
        auto printed = runToJson(request, result, record.policy ? &*record.policy : nullptr);
        printed["recorded"] = record.recorded();
        if (!record.recorded())
            printed["record_error"] = record.recordError;
        if (!options.sandbox.empty()) {
            printed["sandbox"] = options.sandbox;
            printed["sandbox_policy"] = record.sandboxPolicy.empty() ? nlohmann::json(nullptr)
                                                                     : nlohmann::json(record.sandboxPolicy);
            printed["disk_mb"] = request.policy.limits.diskMb;
            printed["disk_mb_source"] = record.quotaCapped ? "quota" : "policy";
        }
        // Where the run's policy came from: the sandbox's, --policy/--level, or the default.
        printed["policy_source"] = std::string(toString(record.policySource));
        out << dumpJson(printed) << '\n';
    } else {
        out << result.stdoutText << std::flush;
        err << result.stderrText;
        printSummary(err, result);
        if (record.quotaCapped && result.outcome == Outcome::Blocked)
            err << fmt::format("[sandbench] disk_mb {} was what is left of sandbox {}'s quota\n",
                                     request.policy.limits.diskMb, options.sandbox);
    }
}

// A recorded run printed as the command prints it, and the command's exit status. A run that could not be
// recorded after all (the disk filled up meanwhile) is printed, and ends in exit status 1: a run the store does
// not hold did not happen as far as history, metrics and the audit log know.
int reportRecord(const RunRecord& record, const RunOptions& options, std::ostream& out, std::ostream& err)
{
    if (!record.recorded())
        err << "sandbench: the run could not be recorded: " << record.recordError << '\n';
    printRecord(record, options, out, err);
    if (!record.recorded())
        return kExitFailure;
    return exitStatusFor(record.result.outcome);
}

// The request the helper is sent for a run: the store located here (its path made absolute: the helper's folder
// is not this command's).
helper::Request requestForHelper(const RunRequest& request, const RunOptions& options, bool policyFromAsked,
                                 helper::Environment context)
{
    StoreLocation store = Store::locate(options.store);
    std::error_code error;
    store.path = std::filesystem::absolute(store.path, error);
    helper::Request asked;
    asked.order = RunOrder{request, askedPolicy(options), options.sandbox};
    asked.policyFromAsked = policyFromAsked;
    asked.store = std::move(store);
    asked.context = std::move(context);
    asked.json = options.json;
    return asked;
}

// The run asked of the user's helper (usecases/run_helper.h), when there is one that takes it: its exit
// status; nullopt when the command runs it itself. A helper that took the run and then failed is reported, and
// the run is not made again.
std::optional<int> runThroughHelper(std::optional<helper::Client>& helper, const RunRequest& request,
                                    const RunOptions& options, bool policyFromAsked)
{
    if (!helper)
        return std::nullopt;
    auto reply = helper->ask(requestForHelper(request, options, policyFromAsked, helper::contextOfThisProcess()));
    helper.reset();
    if (!reply) {
        if (!reply.error().taken)
            return std::nullopt;
        return reportError(reply.error().message);
    }
    std::cout << reply->out << std::flush;
    std::cerr << reply->err << std::flush;
    return reply->status;
}

// Settles the request's policy from --policy, --level, --timeout-ms and --memory-mb, runs it through the run use
// case and prints the result: through the helper when one takes it, else here. Without --policy the helper
// settles the policy itself, as this command would (its probe of the deepest level is done already).
int runAndReport(RunRequest request, const RunOptions& options, std::optional<helper::Client> helper)
{
    const RunPolicyRequest asked = askedPolicy(options);
    const bool helperSettles = helper && asked.policy.empty();
    auto settle = [&]() -> std::optional<int> {
        auto policy = resolveRunPolicy(asked);
        if (!policy)
            return reportError(policy.error().message);
        request.policy = std::move(*policy);
        return std::nullopt;
    };
    if (!helperSettles) {
        if (auto failed = settle())
            return *failed;
    }
    if (auto status = runThroughHelper(helper, request, options, helperSettles))
        return *status;
    if (helperSettles) {
        if (auto failed = settle())
            return *failed;
    }
    const Runner runner;
    // The run's sandbox is prepared on the other core while the store opens (a run in a sandbox, whose policy
    // and workspace the store holds, starts cold).
    std::unique_ptr<SandboxAhead> ahead = options.sandbox.empty() ? runner.prepareAhead(request) : nullptr;
    auto store = openStore(options.store);
    if (!store)
        return reportError(store.error().message);
    auto record = runAndRecord(*store, runner, RunOrder{std::move(request), asked, options.sandbox},
                               std::move(ahead));
    if (!record)
        return reportError(record.error().message);
    return reportRecord(*record, options, std::cout, std::cerr);
}

// A helper to ask for a run that works in a fresh folder, connected before anything else (a few reads of /proc);
// without one, the launcher's zygote starts on the other core while the run is settled.
std::optional<helper::Client> helperFor(const RunOptions& options)
{
    if (options.sandbox.empty()) {
        if (auto client = helper::Client::connect())
            return std::move(*client);
    }
    Runner().prepare();
    return std::nullopt;
}

std::string shellQuote(const std::string& word)
{
    if (!word.empty() && word.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%")
                             == std::string::npos)
        return word;
    std::string out = "'";
    for (char c : word)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

} // namespace

Result<RunRequest> runRequestOf(const RunOptions& options)
{
    RunRequest request;
    if (!options.language.empty()) {
        request.language = *languageFromString(options.language); // validated by the parser
    } else {
        const auto ext = std::filesystem::path(options.file).extension();
        request.language = ext == ".sh" || ext == ".bash" ? Language::Shell : Language::Python;
    }
    auto source = readSnippet(options.file);
    if (!source)
        return std::unexpected(source.error());
    request.source = std::move(*source);
    request.label = options.file == "-" ? "stdin" : std::filesystem::path(options.file).filename().string();
    return request;
}

RunRequest execRequestOf(const RunOptions& options)
{
    RunRequest request;
    request.language = Language::Command;
    request.command = options.command;
    for (const auto& word : options.command)
        request.source += (request.source.empty() ? "" : " ") + shellQuote(word);
    request.label = request.source.substr(0, 80);
    return request;
}

std::expected<helper::Request, std::string> helperRequestOf(RunRequest request, const RunOptions& options,
                                                            helper::Environment context)
{
    const RunPolicyRequest asked = askedPolicy(options);
    // Without --policy the helper settles the policy as the command would; a --policy reference means what it
    // means in the command's folder, so it is settled here (the helper parses command lines in that folder).
    const bool policyFromAsked = asked.policy.empty();
    if (!policyFromAsked) {
        auto policy = resolveRunPolicy(asked);
        if (!policy)
            return std::unexpected(policy.error().message);
        request.policy = std::move(*policy);
    }
    return requestForHelper(request, options, policyFromAsked, std::move(context));
}

int runCommand(const RunOptions& options)
{
    std::optional<helper::Client> helper = helperFor(options);
    auto request = runRequestOf(options);
    if (!request)
        return reportError(request.error().message);
    return runAndReport(std::move(*request), options, std::move(helper));
}

int execCommand(const RunOptions& options)
{
    std::optional<helper::Client> helper = helperFor(options);
    return runAndReport(execRequestOf(options), options, std::move(helper));
}

namespace {

// What the helper does with a run a command asked of it: what the command would have done and printed.
helper::Reply serveRun(Store& store, const Runner& runner, RunOrder order, bool json, const std::atomic<bool>* cancel)
{
    RunOptions options;
    options.json = json;
    std::ostringstream out;
    std::ostringstream err;
    helper::Reply reply;
    auto record = runAndRecord(store, runner, std::move(order), cancel);
    if (!record) {
        err << "sandbench: " << record.error().message << '\n';
        reply.status = kExitFailure;
    } else {
        reply.status = reportRecord(*record, options, out, err);
    }
    reply.out = std::move(out).str();
    reply.err = std::move(err).str();
    return reply;
}

helper::Server* g_serving = nullptr;

void stopServing(int)
{
    if (g_serving)
        g_serving->stop();
}

} // namespace

int serveCommand(std::int64_t idleSeconds)
{
    auto logMutex = std::make_shared<std::mutex>();
    helper::ServerOptions serverOptions;
    serverOptions.idleExit = std::chrono::seconds(idleSeconds);
    serverOptions.log = [logMutex](std::string_view line) {
        const std::lock_guard lock(*logMutex);
        std::cerr << "sandbench serve: " << line << std::endl;
    };
    serverOptions.commandLine = helperRequestOfCommandLine;
    auto server = helper::Server::listen(serverOptions, serveRun);
    if (!server)
        return reportError(server.error().message);
    g_serving = server->get();
    struct sigaction action {};
    action.sa_handler = stopServing;
    ::sigemptyset(&action.sa_mask);
    for (const int signal : {SIGTERM, SIGINT, SIGHUP})
        ::sigaction(signal, &action, nullptr);
    ::signal(SIGPIPE, SIG_IGN); // a log read by nobody any more does not end the helper
    serverOptions.log(fmt::format("listening on {} ({}pid {}){}", (*server)->path().string(),
                                  (*server)->activated() ? "socket activation, " : "", ::getpid(),
                                  idleSeconds > 0 ? fmt::format("; exits after {} s without a command", idleSeconds)
                                                  : std::string()));
    const std::string why = (*server)->serve();
    const auto stats = (*server)->stats();
    server->reset(); // runs under way are cancelled and waited for, the pools' sandboxes end
    g_serving = nullptr;
    serverOptions.log(fmt::format("ended ({}): {} commands served, {} declined", why, stats.served,
                                  stats.refused));
    return 0;
}

namespace {

// The worked example, recorded as an agent session after the cases: as `agent_session` in `out` (with
// `as_expected`; `status` null and `error` when it could not run), or a line on stdout. Whether it completed.
bool demoAgentSession(Store& store, bool json, nlohmann::json& out)
{
    const Runner runner;
    agents::WorkedExampleRequest request;
    request.log = [](std::string_view line) { std::cerr << "sandbench demo: " << line << '\n'; };
    auto example = agents::runWorkedExample(store, runner, request);
    if (!example) {
        out = {{"status", nullptr}, {"error", example.error().message}, {"as_expected", false}};
        if (!json)
            std::cout << fmt::format("\nworked example: could not run: {}  <-- unexpected\n", example.error().message);
        return false;
    }
    const agents::SessionInfo& session = example->run.session;
    out = agentSessionToJson(example->run);
    out["as_expected"] = example->asExpected;
    if (!json) {
        std::cout << fmt::format("\nworked example: agent session {} {}: {} steps in sandbox {}{}\n", session.id,
                                 agents::toString(session.status), session.steps, session.sandbox,
                                 example->asExpected ? "" : "  <-- unexpected (" + session.message + ")");
        if (example->asExpected)
            std::cout << fmt::format("Its steps: sandbench sessions show {} --store {}\n", session.id.substr(0, 8),
                                     store.path().string());
        else if (!example->run.agent.stderrText.empty())
            std::cerr << example->run.agent.stderrText;
    }
    return example->asExpected;
}

} // namespace

int demoCommand(const std::string& storePath, bool json)
{
    auto store = openStore(storePath);
    if (!store)
        return reportError(store.error().message);
    auto demoPolicy = resolveRunPolicy({}); // the default: the deepest level this machine offers
    if (!demoPolicy)
        return reportError(demoPolicy.error().message);
    const DemoRun demo(*demoPolicy);
    nlohmann::json cases = nlohmann::json::array();
    bool allExpected = true;
    if (!json) {
        std::cout << fmt::format("{:<20} {:<15} {:>8}  {}\n", "case", "outcome", "ms", "detail");
        std::cout << std::string(72, '-') << '\n';
    }
    for (std::size_t i = 0; i < demo.size(); ++i) {
        const DemoCaseRun run = demo.runCase(i, &*store);
        if (!run.recordError.empty())
            return reportError("recording the demo run: " + run.recordError);
        const DemoCase& demoCase = *run.demoCase;
        const RunResult& result = run.result;
        allExpected = allExpected && run.asExpected;
        const std::string detail = !result.blocked.empty()
                                       ? result.blocked.front().kind + ": " + result.blocked.front().detail
                                       : result.message.text();
        if (json) {
            nlohmann::json exp = nlohmann::json::array();
            for (auto o : demoCase.expected)
                exp.push_back(toString(o));
            auto entry = runToJson(run.request, result, run.policy ? &*run.policy : nullptr);
            entry["case"] = demoCase.name;
            entry["expected"] = exp;
            entry["as_expected"] = run.asExpected;
            cases.push_back(entry);
        } else {
            std::cout << fmt::format("{:<20} {:<15} {:>8.0f}  {}{}\n", demoCase.name, toString(result.outcome),
                                     result.durationMs, detail.substr(0, 60), run.asExpected ? "" : "  <-- unexpected");
        }
    }
    nlohmann::json agentSession;
    allExpected = demoAgentSession(*store, json, agentSession) && allExpected;
    const std::uint64_t pooled = demo.pooledRuns();
    if (json) {
        std::cout << dumpJson({{"cases", cases},
                               {"agent_session", agentSession},
                               {"all_as_expected", allExpected},
                               {"pooled_runs", pooled},
                               {"store", store->path().string()}})
                  << '\n';
    } else {
        std::cout << fmt::format("\n{} cases recorded in {} ({} in sandboxes prepared ahead).{}\n", demoCases().size(),
                                 store->path().string(), pooled, allExpected ? "" : " Some outcomes were not the expected ones.");
        std::cout << "Open the workbench on these runs with: sandbench-gui --store " << store->path().string() << '\n';
    }
    return allExpected ? 0 : kExitFailure;
}

int metricsCommand(const std::string& storePath, bool json)
{
    auto store = openStore(storePath);
    if (!store)
        return reportError(store.error().message);
    auto metrics = store->metrics(20);
    if (!metrics)
        return reportError(metrics.error().message);
    if (json) {
        std::cout << dumpJson(metricsToJson(*metrics)) << '\n';
        return 0;
    }
    std::cout << fmt::format("{} runs in {}\n\n", metrics->total, store->path().string());
    for (const auto& o : metrics->outcomes)
        std::cout << fmt::format("  {:<15} {:>7}  {:>6.1f} %\n", toString(o.outcome), o.count, o.rate * 100);
    std::cout << fmt::format("\nduration  p50 {:.0f} ms   p95 {:.0f} ms   p99 {:.0f} ms\n", metrics->p50Ms, metrics->p95Ms,
                             metrics->p99Ms);
    if (!metrics->recent.empty()) {
        std::cout << "\nrecent runs\n";
        for (const auto& e : metrics->recent)
            std::cout << fmt::format("  {}  {:<24} {:<15} {:>7.0f} ms  {}\n", formatTime(e.startedAtMs),
                                     e.label.substr(0, 24), toString(e.outcome), e.durationMs, e.detail.substr(0, 50));
    }
    return 0;
}

namespace {

// "name@version" of a stored run's policy; "?" when the run has none.
std::string policyLabel(const StoredRun& run)
{
    return run.policy.id != 0 ? fmt::format("{}@{}", run.policy.name, run.policy.version) : std::string("?");
}

} // namespace

int historyCommand(const std::string& storePath, int limit, bool json)
{
    auto store = openStore(storePath);
    if (!store)
        return reportError(store.error().message);
    auto runs = store->recentRuns(limit);
    if (!runs)
        return reportError(runs.error().message);
    // A run whose stored policy cannot be read is still listed; the reason goes to stderr.
    for (const auto& run : *runs) {
        if (!run.policyError.empty())
            std::cerr << "sandbench: warning: " << run.policyError << '\n';
    }
    if (json) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& run : *runs) {
            auto entry = runToJson(run.request, run.result, run.policy.id != 0 ? &run.policy : nullptr);
            entry["sandbox"] = run.sandbox.empty() ? nlohmann::json(nullptr) : nlohmann::json(run.sandbox);
            if (!run.policyError.empty())
                entry["policy_error"] = run.policyError;
            list.push_back(std::move(entry));
        }
        std::cout << dumpJson(list) << '\n';
        return 0;
    }
    for (const auto& run : *runs)
        std::cout << fmt::format("{}  {}  {:<24} {:<15} {:>7.0f} ms  {}{}\n", formatTime(run.result.startedAtMs),
                                 run.result.runId, run.request.label.substr(0, 24), toString(run.result.outcome),
                                 run.result.durationMs, policyLabel(run),
                                 run.sandbox.empty() ? std::string() : "  in " + run.sandbox);
    return 0;
}

namespace {

constexpr std::size_t kShortSha = 12; // enough to tell versions apart by eye; --json gives all 64

int policyVersionsCommand(const PolicyOptions& options)
{
    auto store = openStore(options.store);
    if (!store)
        return reportError(store.error().message);
    auto versions = store->policyVersions(options.argument);
    if (!versions)
        return reportError(versions.error().message);
    if (options.json) {
        nlohmann::json list = nlohmann::json::array();
        for (const auto& use : *versions) {
            auto entry = policyVersionToJson(use.policy);
            entry["created_at_ms"] = use.policy.createdAtMs;
            entry["runs"] = use.runs;
            list.push_back(std::move(entry));
        }
        std::cout << dumpJson(list) << '\n';
        return 0;
    }
    if (versions->empty()) {
        std::cerr << (options.argument.empty()
                          ? fmt::format("no policy versions in {}\n", store->path().string())
                          : fmt::format("no versions of policy '{}' in {}\n", options.argument, store->path().string()));
        return 0;
    }
    std::cout << fmt::format("{:<24} {:>7}  {:<12}  {:<19}  {:>6}\n", "name", "version", "sha256", "created", "runs");
    for (const auto& use : *versions)
        std::cout << fmt::format("{:<24} {:>7}  {:<12}  {:<19}  {:>6}\n", use.policy.name, use.policy.version,
                                 use.policy.sha256.substr(0, kShortSha), formatTime(use.policy.createdAtMs), use.runs);
    return 0;
}

int policyShowStoredCommand(const PolicyOptions& options)
{
    auto store = openStore(options.store);
    if (!store)
        return reportError(store.error().message);
    auto found = store->findPolicy(options.argument, options.version);
    if (!found)
        return reportError(found.error().message);
    if (!found->has_value())
        return reportError(fmt::format("{}: no version {} of policy '{}' (see: sandbench policy versions {})",
                                       store->path().string(), options.version, options.argument,
                                       shellQuote(options.argument)));
    const StoredPolicy& stored = **found;
    // The hash was taken of this text when it was stored; a difference means the file was edited since.
    auto sha = sha256Hex(stored.yaml);
    const bool intact = sha && *sha == stored.policy.sha256;
    if (!intact)
        std::cerr << fmt::format("sandbench: warning: {}: the text of {}@{} does not match its sha256 (edited "
                                 "by hand?)\n",
                                 store->path().string(), stored.policy.name, stored.policy.version);
    if (options.json) {
        auto entry = policyVersionToJson(stored.policy);
        entry["created_at_ms"] = stored.policy.createdAtMs;
        entry["yaml"] = stored.yaml;
        entry["sha256_matches"] = intact;
        std::cout << dumpJson(entry) << '\n';
    } else {
        std::cout << stored.yaml;
        if (!stored.yaml.empty() && stored.yaml.back() != '\n')
            std::cout << '\n';
    }
    return 0;
}

} // namespace

int policyCommand(const PolicyOptions& options)
{
    const std::string& action = options.action;
    const std::string& argument = options.argument;
    const bool json = options.json;
    if (action == "versions")
        return policyVersionsCommand(options);
    if (action == "show" && options.version > 0)
        return policyShowStoredCommand(options);
    if (action == "presets") {
        if (json) {
            std::cout << dumpJson(builtinPresetNames()) << '\n';
        } else {
            for (const auto& name : builtinPresetNames())
                std::cout << name << '\n';
        }
        return 0;
    }
    if (action == "show") {
        if (auto text = builtinPresetText(argument)) {
            std::cout << *text;
            return 0;
        }
        return reportError(fmt::format("{}: not a preset", argument));
    }
    // check: validate a file (or preset) and print it as Sandbench understands it.
    bool namesLevel = false;
    std::vector<std::string> warnings;
    std::error_code ec;
    auto policy = std::filesystem::exists(argument, ec) ? loadPolicyFile(argument, &warnings, &namesLevel)
                                                        : loadPolicyOrPreset(argument, namesLevel);
    // The agent section's CEL conditions, compiled as a session would (agents/agent_policy.h).
    if (policy && policy->agent) {
        if (auto rules = agents::AgentRules::compile(*policy->agent, argument); !rules)
            policy = std::unexpected(rules.error());
    }
    if (!policy) {
        if (json)
            std::cout << dumpJson({{"valid", false}, {"error", policy.error().message}}) << '\n';
        else
            std::cerr << "sandbench: " << policy.error().message << '\n';
        return kExitFailure;
    }
    // Shown as a run would have it: a policy that names no level gets the deepest this machine offers.
    if (!namesLevel)
        policy->level = highestAvailableLevel();
    if (json) {
        std::cout << dumpJson({{"valid", true},
                               {"warnings", warnings},
                               {"level_named", namesLevel},
                               {"policy", renderPolicy(*policy)}})
                  << '\n';
    } else {
        for (const auto& w : warnings)
            std::cerr << "warning: " << w << '\n';
        if (!namesLevel)
            std::cout << "# the policy names no level: a run gets the deepest this machine offers\n";
        std::cout << renderPolicy(*policy) << '\n';
    }
    return 0;
}

int doctorCommand(bool json)
{
    const DoctorReport report = runDoctor();
    const cluster::SlurmDoctor slurm = cluster::checkSlurm();
    if (json) {
        auto out = doctorToJson(report);
        out["backends"] = {{"slurm", slurmDoctorToJson(slurm)}};
        std::cout << dumpJson(out) << '\n';
    } else {
        for (const auto& l : report.layers)
            std::cout << fmt::format("  {:<18} {:<4} {}\n", l.name, l.available ? "yes" : "no", l.detail);
        std::cout << "\nisolation levels:";
        for (const auto& [level, ok] : report.levels)
            std::cout << fmt::format("  {} {}", toString(level), ok ? "yes" : "no");
        std::cout << '\n';
        for (const auto& n : report.notes)
            std::cout << "note: " << n << '\n';
        std::cout << "\nslurm backend: ";
        if (!slurm.configError.empty())
            std::cout << "the configuration cannot be read: " << slurm.configError << '\n';
        else if (!slurm.configured)
            std::cout << "not configured (" << slurm.config.string() << " has no slurm section; docs/SCALING.md)\n";
        else
            std::cout << (slurm.ok() ? "ready" : "not ready") << " (" << slurm.config.string() << ")\n";
        for (const auto& c : slurm.checks)
            std::cout << fmt::format("  {:<18} {:<4} {}\n", c.name, c.ok ? "yes" : "no", c.detail);
    }
    const bool processLevel = !report.levels.empty() && report.levels.front().second;
    return processLevel ? 0 : kExitFailure;
}

} // namespace sb::cli
