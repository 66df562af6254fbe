#include "agents/agent_cluster.h"

#include "agents/session_import.h"
#include "cluster/job_status.h"
#include "cluster/spool.h"
#include "isolation/policy.h"
#include "isolation/run_json.h"
#include "session_setup.h"
#include "store/sqlite_db.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <iostream>
#include <unistd.h>

namespace sb::agents {

namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;

constexpr int kJobVersion = 1;
constexpr const char* kJobFile = "job.json";
constexpr const char* kSeedFolder = "seed";
constexpr const char* kPolicyFile = "policy.yaml";
constexpr const char* kResultFile = "result.json";
constexpr const char* kSessionFile = "session.db";

std::string hostName()
{
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) != 0)
        return "?";
    return name;
}

struct AgentJob {
    std::vector<std::string> command;
    std::string sandbox;
    std::vector<std::string> readPaths;
};

Result<AgentJob> readJob(const fs::path& folder)
{
    const fs::path file = folder / kJobFile;
    auto json = cluster::readSpoolJson(file);
    if (!json)
        return std::unexpected(json.error());
    try {
        if (!json->is_object() || json->value("version", 0) != kJobVersion)
            return fail(fmt::format("{}: not an agent session's job (version {} expected)", file.string(), kJobVersion));
        AgentJob job;
        job.command = json->at("command").get<std::vector<std::string>>();
        job.sandbox = json->at("sandbox").get<std::string>();
        job.readPaths = json->at("read").get<std::vector<std::string>>();
        if (job.command.empty() || job.sandbox.empty())
            return fail(fmt::format("{}: no command or no sandbox", file.string()));
        return job;
    } catch (const Json::exception& e) {
        return fail(fmt::format("{}: not an agent session's job: {}", file.string(), e.what()));
    }
}

// A folder of the node's own, removed with everything in it when done.
class Scratch {
public:
    static Result<Scratch> make()
    {
        const char* tmp = std::getenv("TMPDIR");
        std::string pattern = (fs::path(tmp && *tmp ? tmp : "/tmp") / "sandbench-agent-XXXXXX").string();
        if (!::mkdtemp(pattern.data()))
            return fail(fmt::format("cannot make a scratch folder like {}: {}", pattern, std::strerror(errno)));
        return Scratch(pattern);
    }
    Scratch(Scratch&& other) noexcept : m_path(std::move(other.m_path)) { other.m_path.clear(); }
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;
    Scratch& operator=(Scratch&&) = delete;
    ~Scratch()
    {
        std::error_code ec;
        if (!m_path.empty())
            fs::remove_all(m_path, ec);
    }
    const fs::path& path() const { return m_path; }

private:
    explicit Scratch(fs::path path) : m_path(std::move(path)) {}
    fs::path m_path;
};

// The whole store, compacted into one file beside `target`, then renamed onto it.
Result<void> copyStore(Store& store, const fs::path& target)
{
    auto db = sqlite::connectionOf(store);
    if (!db)
        return std::unexpected(db.error());
    const fs::path aside = target.string() + fmt::format(".{}.part", ::getpid());
    std::error_code ec;
    fs::remove(aside, ec);
    auto vacuum = db->prepare("VACUUM INTO ?1");
    if (!vacuum)
        return std::unexpected(vacuum.error());
    const std::string file = aside.string(); // bound without a copy
    sqlite::Binder(vacuum->get()).text(1, file);
    if (sqlite3_step(vacuum->get()) != SQLITE_DONE)
        return std::unexpected(db->error(fmt::format("cannot write the session's store to {}", aside.string())).error());
    vacuum->reset();
    fs::rename(aside, target, ec);
    if (ec)
        return fail(fmt::format("{}: cannot write: {}", target.string(), ec.message()));
    return {};
}

} // namespace

Result<ClusterAgentResult> runAgentSessionOnSlurm(Store& store, const ClusterAgentRequest& request)
{
    const AgentSessionRequest& session = request.session;
    if (session.stepMode)
        return fail("--step needs live control of the session, which a Slurm node's session cannot offer: run it "
                    "on this machine (without --backend slurm)");
    if (session.agentCommand.empty())
        return fail("no agent to start: give its command after --");
    for (const auto& path : session.readPaths) {
        if (path.empty() || path.front() != '/')
            return fail(fmt::format("--read {}: give an absolute path", path));
    }
    if (store.readOnly())
        return fail(fmt::format("store {} is read-only: no session was started, as none could be recorded",
                                store.path().string()));
    if (auto ok = cluster::checkSpool(request.slurm.spool); !ok)
        return std::unexpected(ok.error());
    auto partition = cluster::choosePartition(request.slurm, request.partition);
    if (!partition)
        return std::unexpected(partition.error());
    auto program = cluster::programForNodes(request.slurm);
    if (!program)
        return std::unexpected(program.error());

    auto ground = settleSession(store, session.sandbox, session.policy);
    if (!ground)
        return std::unexpected(ground.error());
    // The workspace the node starts from, as a checkpoint here (the head itself when nothing changed).
    auto start = workspaceCheckpointer(*ground->engine, ground->sandbox)(
        "session start", "the workspace as an agent session began on a Slurm node");
    if (!start)
        return std::unexpected(start.error());

    auto made = cluster::JobFolder::create(request.slurm.spool, "agent");
    if (!made)
        return std::unexpected(made.error());
    cluster::JobFolder folder = std::move(*made);
    cluster::JobStatusWriter status(folder.path(), "agent", request.title);
    status.update("submitting", {});
    if (auto ok = ground->engine->writeCheckpoint(*start, folder.path() / kSeedFolder); !ok)
        return std::unexpected(ok.error());
    if (auto ok = cluster::writeSpoolFile(folder.path() / kPolicyFile, renderPolicy(ground->policy.policy)); !ok)
        return std::unexpected(ok.error());
    const Json job = {{"version", kJobVersion},
                      {"command", session.agentCommand},
                      {"sandbox", ground->sandbox},
                      {"read", session.readPaths}};
    if (auto ok = cluster::writeSpoolFile(folder.path() / kJobFile, job.dump()); !ok)
        return std::unexpected(ok.error());

    cluster::StageRequest stage;
    stage.name = "sandbench-agent";
    stage.folder = folder.path();
    stage.command = {program->string(), "agent-task", "--job", folder.path().string()};
    stage.tasks = 1;
    stage.partition = *partition;
    const fs::path dir = folder.path();
    stage.finished = [dir](std::size_t) {
        std::error_code ec;
        return fs::exists(dir / kResultFile, ec);
    };
    stage.cancelFile = folder.path() / cluster::kCancelFile;
    auto report = cluster::runArrayStage(request.slurm, stage, request.cancel, [&](const cluster::StageProgress& p) {
        status.update("running", p);
        if (request.progress)
            request.progress(p);
    });
    const auto keep = [&](const std::string& error) -> std::unexpected<Error> {
        folder.keep();
        status.fail(error);
        return std::unexpected(Error{fmt::format("{} (the job's folder, with its log, is kept: {})", error,
                                                 folder.path().string())});
    };
    if (!report) {
        if (report.error().message.rfind("cancelled", 0) == 0)
            return std::unexpected(report.error());
        return keep(report.error().message);
    }

    auto result = cluster::readSpoolJson(folder.path() / kResultFile);
    if (!result)
        return keep(result.error().message);
    ClusterAgentResult out;
    out.job = report->jobs.empty() ? std::string() : report->jobs.back();
    out.retried = report->retried;
    std::string sessionId;
    try {
        sessionId = result->at("session_id").get<std::string>();
        out.node = result->at("node").get<std::string>();
        auto agent = runResultFromJson(result->at("agent"));
        if (!agent)
            return keep(agent.error().message);
        out.result.agent = std::move(*agent);
    } catch (const Json::exception& e) {
        return keep(fmt::format("{}: not an agent session's result: {}", (folder.path() / kResultFile).string(),
                                e.what()));
    }
    NodeSession node;
    node.database = folder.path() / kSessionFile;
    node.sessionId = sessionId;
    node.sandbox = ground->sandbox;
    node.startCheckpoint = *start;
    node.policyRef = ground->policy.reference;
    node.provenance = {{"cluster", {{"backend", "slurm"}, {"job", out.job}, {"node", out.node}}}};
    auto imported = importNodeSession(store, *ground->engine, node);
    if (!imported)
        return keep(fmt::format("session {} ran on {} but could not be recorded here: {}", sessionId, out.node,
                                imported.error().message));
    out.result.session = std::move(*imported);
    return out;
}

Result<void> runAgentTask(const fs::path& folder, const std::atomic<bool>* stop)
{
    auto job = readJob(folder);
    if (!job)
        return std::unexpected(job.error());
    auto scratch = Scratch::make();
    if (!scratch)
        return std::unexpected(scratch.error());
    auto store = Store::open(scratch->path() / "store.db");
    if (!store)
        return std::unexpected(store.error());
    {
        auto engine = SandboxEngine::open(*store);
        if (!engine)
            return std::unexpected(engine.error());
        CreateSandboxRequest create;
        create.name = job->sandbox;
        create.importFrom = folder / kSeedFolder;
        if (auto made = (*engine)->createSandbox(create); !made)
            return std::unexpected(made.error());
    }
    AgentSessionRequest request;
    request.agentCommand = job->command;
    request.policy = (folder / kPolicyFile).string();
    request.sandbox = job->sandbox;
    request.readPaths = job->readPaths;
    request.log = [](std::string_view line) { std::cerr << "sandbench agent-task: " << line << '\n'; };
    request.stop = stop;
    const Runner runner;
    auto result = runAgentSession(*store, runner, request);
    if (!result)
        return std::unexpected(result.error());
    if (stop && stop->load())
        return fail(fmt::format("session {} was stopped (a signal): nothing is written back", result->session.id));
    std::cerr << fmt::format("sandbench agent-task: session {} {}: {} steps\n", result->session.id,
                             toString(result->session.status), result->session.steps);
    if (auto ok = copyStore(*store, folder / kSessionFile); !ok)
        return ok;
    const Json out = {{"session_id", result->session.id},
                      {"node", hostName()},
                      {"agent", runResultToJson(result->agent)}};
    return cluster::writeSpoolFile(folder / kResultFile, out.dump());
}

} // namespace sb::agents
