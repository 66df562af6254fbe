#include "agents/worked_example_session.h"

#include "demo/demo_sandboxes.h"
#include "demo/worked_example.h"
#include "sandboxes/sandbox_engine.h"
#include "usecases/sandbox_setup.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <utility>

namespace sb::agents {

namespace {

namespace fs = std::filesystem;

constexpr std::int64_t kWeekMs = 7LL * 24 * 3600 * 1000;

// Whether `path` is `folder` or lies below it, by their text.
bool below(const fs::path& path, const fs::path& folder)
{
    const fs::path relative = path.lexically_normal().lexically_relative(folder.lexically_normal());
    return !relative.empty() && *relative.begin() != "..";
}

// A folder of this process's own under the temporary folder, removed with this.
class TemporaryFolder {
public:
    static Result<TemporaryFolder> make()
    {
        std::error_code ec;
        fs::path base = fs::temp_directory_path(ec);
        if (ec)
            return fail(fmt::format("no temporary folder for the worked example: {}", ec.message()));
        // The agent's run has its own work dir at /work, which hides a folder below it on the host.
        if (below(base, kAgentWorkspace))
            base = "/tmp";
        std::string pattern = (base / "sandbench-worked-example-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr)
            return fail(fmt::format("cannot make a folder for the worked example in {}: {}", base.string(),
                                    std::strerror(errno)));
        TemporaryFolder folder;
        folder.m_path = pattern;
        // The agent's sandbox may run it as another user (a transient one under root): it reads, it never writes.
        fs::permissions(folder.m_path,
                        fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec | fs::perms::others_read
                            | fs::perms::others_exec,
                        ec);
        if (ec)
            return fail(fmt::format("cannot open {} to the agent's sandbox: {}", folder.m_path.string(), ec.message()));
        return folder;
    }
    TemporaryFolder() = default;
    TemporaryFolder(TemporaryFolder&& other) noexcept : m_path(std::exchange(other.m_path, {})) {}
    TemporaryFolder& operator=(TemporaryFolder&&) = delete;
    TemporaryFolder(const TemporaryFolder&) = delete;
    TemporaryFolder& operator=(const TemporaryFolder&) = delete;
    ~TemporaryFolder()
    {
        std::error_code ec;
        if (!m_path.empty())
            fs::remove_all(m_path, ec);
    }
    const fs::path& path() const { return m_path; }

private:
    fs::path m_path;
};

// The repository's sandbox, imported under the example's policy, and the agent's, made from it; what an earlier
// demo left of them destroyed first.
Result<void> makeSandboxes(Store& store, const fs::path& example)
{
    auto engine = SandboxEngine::open(store);
    if (!engine)
        return std::unexpected(engine.error());
    if (auto destroyed = destroyEarlierDemoSandboxes(**engine, {kWorkedExampleSandbox, kWorkedExampleRepoSandbox});
        !destroyed)
        return destroyed;
    SandboxCreation repository;
    repository.request.name = std::string(kWorkedExampleRepoSandbox);
    repository.request.importFrom = example / kWorkedExampleRepo;
    repository.request.expiresInMs = kWeekMs;
    repository.policy = (example / kWorkedExamplePolicy).string();
    if (auto made = createSandbox(store, **engine, repository); !made)
        return std::unexpected(made.error());
    SandboxCreation agents;
    agents.request.name = std::string(kWorkedExampleSandbox);
    agents.request.from = std::string(kWorkedExampleRepoSandbox);
    agents.request.expiresInMs = kWeekMs;
    if (auto made = createSandbox(store, **engine, agents); !made)
        return std::unexpected(made.error());
    return {};
}

} // namespace

Result<WorkedExampleResult> runWorkedExample(Store& store, const Runner& runner, const WorkedExampleRequest& request)
{
    const auto phase = [&](WorkedExamplePhase reached) {
        if (request.progress)
            request.progress(reached);
    };
    phase(WorkedExamplePhase::WritingFiles);
    auto folder = TemporaryFolder::make();
    if (!folder)
        return std::unexpected(folder.error());
    if (auto written = writeWorkedExample(folder->path()); !written)
        return std::unexpected(written.error());

    phase(WorkedExamplePhase::MakingSandboxes);
    if (auto made = makeSandboxes(store, folder->path()); !made)
        return std::unexpected(Error{"the worked example's sandboxes: " + made.error().message});

    phase(WorkedExamplePhase::RunningAgent);
    AgentSessionRequest session;
    session.agentCommand = {"python3", (folder->path() / kWorkedExampleAgent).string()};
    session.sandbox = std::string(kWorkedExampleSandbox); // under its policy, the example's, unless one is named
    session.policy = request.policy;
    session.stepMode = request.stepMode;
    session.readPaths = {folder->path().string()};
    session.log = request.log;
    session.started = request.started;
    session.stop = request.stop;
    auto run = runAgentSession(store, runner, session);
    if (!run)
        return std::unexpected(run.error());
    phase(WorkedExamplePhase::Done);
    const bool completed = run->session.status == SessionStatus::Completed;
    return WorkedExampleResult{std::move(*run), completed};
}

} // namespace sb::agents
