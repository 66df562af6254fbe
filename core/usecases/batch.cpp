#include "usecases/batch.h"

#include "isolation/policy.h"
#include "isolation/run_json.h"
#include "cluster/job_status.h"
#include "cluster/spool.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>


namespace sb {

namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;

fs::path resultFile(const fs::path& folder, std::size_t index)
{
    return folder / fmt::format("result-{:04}.json", index);
}

Json requestToJson(const RunRequest& r)
{
    return {{"language", std::string(toString(r.language))},
            {"source", r.source},
            {"label", r.label},
            {"command", r.command},
            {"policy", renderPolicy(r.policy)}};
}

Result<RunRequest> requestFromJson(const Json& json, const std::string& where)
{
    try {
        RunRequest r;
        const auto language = languageFromString(json.at("language").get<std::string>());
        if (!language)
            return fail(fmt::format("{}: unknown language", where));
        r.language = *language;
        r.source = json.at("source").get<std::string>();
        r.label = json.at("label").get<std::string>();
        r.command = json.at("command").get<std::vector<std::string>>();
        auto policy = parsePolicy(json.at("policy").get<std::string>(), where);
        if (!policy)
            return std::unexpected(policy.error());
        r.policy = std::move(*policy);
        return r;
    } catch (const Json::exception& e) {
        return fail(fmt::format("{}: not a run of a batch: {}", where, e.what()));
    }
}

Result<BatchResult> runHere(Store& store, const Runner& runner, const BatchRequest& request)
{
    BatchResult out;
    for (std::size_t i = 0; i < request.orders.size(); ++i) {
        if (request.cancel && request.cancel->load())
            break;
        BatchEntry entry;
        auto record = runAndRecord(store, runner, request.orders[i], request.cancel);
        if (record) {
            if (request.recorded)
                request.recorded(i, *record);
            entry.record = std::move(*record);
        } else {
            entry.error = record.error().message;
        }
        out.entries.push_back(std::move(entry));
    }
    return out;
}

Result<BatchResult> runOnSlurm(Store& store, const BatchRequest& request)
{
    const cluster::SlurmSettings& settings = *request.slurm;
    if (auto ok = cluster::checkSpool(settings.spool); !ok)
        return std::unexpected(ok.error());
    auto partition = cluster::choosePartition(settings, request.partition);
    if (!partition)
        return std::unexpected(partition.error());
    auto program = cluster::programForNodes(settings);
    if (!program)
        return std::unexpected(program.error());

    // Every run's policy settled here, as a local run's is; those refused are not submitted.
    BatchResult out;
    out.entries.resize(request.orders.size());
    std::vector<std::optional<PreparedRun>> prepared(request.orders.size());
    Json runs = Json::array();
    std::vector<std::size_t> taskOf; // task -> order
    for (std::size_t i = 0; i < request.orders.size(); ++i) {
        if (!request.orders[i].sandbox.empty()) {
            out.entries[i].error = "a run in a sandbox's workspace runs on this machine, not on a cluster's node";
            continue;
        }
        auto p = prepareRun(store, request.orders[i]);
        if (!p) {
            out.entries[i].error = p.error().message;
            continue;
        }
        runs.push_back(requestToJson(p->order.request));
        taskOf.push_back(i);
        prepared[i] = std::move(*p);
    }
    if (taskOf.empty())
        return out;

    auto made = cluster::JobFolder::create(settings.spool, "batch");
    if (!made)
        return std::unexpected(made.error());
    cluster::JobFolder folder = std::move(*made);
    cluster::JobStatusWriter status(folder.path(), "batch", request.title);
    if (auto ok = cluster::writeSpoolFile(folder.path() / "job.json", Json{{"version", 1}, {"runs", runs}}.dump()); !ok)
        return std::unexpected(ok.error());

    cluster::StageRequest stage;
    stage.name = "sandbench-batch";
    stage.folder = folder.path();
    stage.command = {program->string(), "batch-task", "--job", folder.path().string()};
    stage.tasks = taskOf.size();
    stage.partition = *partition;
    const fs::path dir = folder.path();
    stage.finished = [dir](std::size_t k) {
        std::error_code e;
        return fs::exists(resultFile(dir, k), e);
    };
    stage.cancelFile = folder.path() / cluster::kCancelFile;
    auto report = cluster::runArrayStage(settings, stage, request.cancel, [&](const cluster::StageProgress& p) {
        status.update("running", p);
        if (request.progress)
            request.progress(p);
    });
    if (!report) {
        if (report.error().message.rfind("cancelled", 0) != 0) {
            folder.keep();
            status.fail(report.error().message);
            return fail(fmt::format("{} (the job's folder, with each task's log, is kept: {})", report.error().message,
                                    folder.path().string()));
        }
        return std::unexpected(report.error());
    }
    out.jobs = report->jobs;
    out.retried = report->retried;
    for (std::size_t k = 0; k < taskOf.size(); ++k) {
        const std::size_t i = taskOf[k];
        auto json = cluster::readSpoolJson(resultFile(folder.path(), k));
        Result<RunResult> result = json ? runResultFromJson(*json) : std::unexpected(json.error());
        if (!result) {
            out.entries[i].error = fmt::format("{}: {}", resultFile(folder.path(), k).string(), result.error().message);
            continue;
        }
        RunRecord record = recordRun(store, std::move(*prepared[i]), std::move(*result));
        if (request.recorded)
            request.recorded(i, record);
        out.entries[i].record = std::move(record);
    }
    return out;
}

} // namespace

Result<BatchResult> runBatch(Store& store, const Runner& runner, const BatchRequest& request)
{
    if (store.readOnly())
        return fail(fmt::format("store {} is read-only: no run was started, as none could be recorded",
                                store.path().string()));
    return request.slurm ? runOnSlurm(store, request) : runHere(store, runner, request);
}

Result<void> runBatchTask(const fs::path& folder, std::size_t index)
{
    auto job = cluster::readSpoolJson(folder / "job.json");
    if (!job)
        return std::unexpected(job.error());
    if (!job->is_object() || job->value("version", 0) != 1 || !job->contains("runs") || !(*job)["runs"].is_array())
        return fail(fmt::format("{}: not a batch's job", (folder / "job.json").string()));
    const Json& runs = (*job)["runs"];
    if (index >= runs.size())
        return fail(fmt::format("the batch has {} runs: no run {}", runs.size(), index));
    auto request = requestFromJson(runs[index], (folder / "job.json").string());
    if (!request)
        return std::unexpected(request.error());
    const Runner runner;
    const RunResult result = runner.run(*request);
    return cluster::writeSpoolFile(resultFile(folder, index), runResultToJson(result).dump());
}

} // namespace sb
