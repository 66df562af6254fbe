// sandbench batch FILES… | --from LIST: many snippets, each run and recorded as `sandbench run` records one;
// here one after another, or with --backend slurm as the tasks of one Slurm array job (usecases/batch.h).

#include "cluster_support.h"
#include "command_line.h"
#include "commands.h"
#include "report.h"

#include "usecases/batch.h"
#include "util/input_file.h"
#include "util/printable.h"

#include <fmt/format.h>

#include <cstdlib>
#include <iostream>
#include <memory>
#include <sstream>

namespace sb::cli {

namespace {

struct BatchOptions {
    std::vector<std::string> files;
    std::string from; // a list of files, one a line ("-": standard input)
    std::string language;
    std::int64_t timeoutMs = 0;
    std::int64_t memoryMb = 0;
    std::string policy;
    std::string level;
    std::string store;
    bool json = false;
    BackendOptions backend;
    std::string job; // batch-task
};

// The files of --from: one a line, relative to the list's folder; blank lines and # comments skipped.
Result<std::vector<std::string>> listedFiles(const std::string& list)
{
    auto text = list == "-" ? readStdinText(input::kSnippet) : readInputText(list, input::kSnippet);
    if (!text)
        return std::unexpected(text.error());
    const std::filesystem::path base = list == "-" ? std::filesystem::path() : std::filesystem::path(list).parent_path();
    std::vector<std::string> files;
    std::istringstream in(*text);
    for (std::string line; std::getline(in, line);) {
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t'))
            line.pop_back();
        const auto start = line.find_first_not_of(" \t");
        if (start == std::string::npos || line[start] == '#')
            continue;
        const std::filesystem::path file(line.substr(start));
        files.push_back((file.is_absolute() ? file : base / file).string());
    }
    return files;
}

Result<RunOrder> orderFor(const std::string& file, const BatchOptions& o, const Policy& policy,
                          const RunPolicyRequest& asked)
{
    auto source = readInputText(file, input::kSnippet);
    if (!source)
        return std::unexpected(source.error());
    RunOrder order;
    order.asked = asked;
    order.request.policy = policy;
    if (!o.language.empty()) {
        order.request.language = *languageFromString(o.language); // validated by the parser
    } else {
        const auto ext = std::filesystem::path(file).extension();
        order.request.language = ext == ".sh" || ext == ".bash" ? Language::Shell : Language::Python;
    }
    order.request.source = std::move(*source);
    order.request.label = std::filesystem::path(file).filename().string();
    return order;
}

int batchCommand(const BatchOptions& o)
{
    std::vector<std::string> files = o.files;
    if (!o.from.empty()) {
        auto listed = listedFiles(o.from);
        if (!listed)
            return reportError(listed.error().message);
        files.insert(files.end(), listed->begin(), listed->end());
    }
    if (files.empty())
        return reportError("batch: no files to run (name them, or list them in a file given with --from)");

    RunPolicyRequest asked;
    asked.policy = o.policy;
    if (!o.level.empty())
        asked.level = *isolationLevelFromString(o.level);
    asked.timeoutMs = o.timeoutMs;
    asked.memoryMb = o.memoryMb;
    auto policy = resolveRunPolicy(asked);
    if (!policy)
        return reportError(policy.error().message);
    // Every file is read before anything runs: a missing one refuses the batch, not its last run.
    BatchRequest request;
    for (const auto& file : files) {
        auto order = orderFor(file, o, *policy, asked);
        if (!order)
            return reportError(order.error().message);
        request.orders.push_back(std::move(*order));
    }
    if (o.backend.slurm()) {
        auto settings = slurmSettings();
        if (!settings)
            return reportError(settings.error().message);
        request.slurm = *settings;
        request.partition = o.backend.partition;
    }
    const Runner runner;
    if (!request.slurm)
        runner.prepare();
    auto store = openStore(o.store);
    if (!store)
        return reportError(store.error().message);
    request.cancel = catchCancel();
    request.title = commandTitle();
    ClusterProgress progress;
    request.progress = [&progress](const cluster::StageProgress& p) { progress.show("running", p); };
    if (!o.json) {
        request.recorded = [&](std::size_t i, const RunRecord& r) {
            progress.finish();
            std::cout << fmt::format("{:<28} {:<14} {:>8.0f} ms  run {}{}\n", printable(files[i], 28),
                                     toString(r.result.outcome), r.result.durationMs, r.result.runId,
                                     r.recorded() ? "" : "  (not recorded: " + r.recordError + ")");
        };
    }
    auto result = runBatch(*store, runner, request);
    progress.finish();
    if (!result)
        return reportError(result.error().message);

    // The exit status: 1 when a run was refused or not recorded, else the first run's that did not end ok.
    int status = 0;
    std::map<std::string, int> outcomes;
    nlohmann::json runs = nlohmann::json::array();
    for (std::size_t i = 0; i < result->entries.size(); ++i) {
        const BatchEntry& e = result->entries[i];
        if (!e.record) {
            status = kExitFailure;
            runs.push_back({{"file", files[i]}, {"recorded", false}, {"error", e.error}});
            if (!o.json)
                std::cerr << fmt::format("sandbench: {}: not run: {}\n", printable(files[i]), printable(e.error));
            continue;
        }
        const RunRecord& r = *e.record;
        ++outcomes[std::string(toString(r.result.outcome))];
        auto entry = runToJson(r.request, r.result, r.policy ? &*r.policy : nullptr);
        entry["file"] = files[i];
        entry["recorded"] = r.recorded();
        if (!r.recorded()) {
            entry["record_error"] = r.recordError;
            status = kExitFailure;
        } else if (status == 0 && r.result.outcome != Outcome::Ok) {
            status = exitStatusFor(r.result.outcome);
        }
        runs.push_back(std::move(entry));
    }
    const std::size_t notRun = files.size() - result->entries.size(); // cancelled before they ran
    if (notRun > 0)
        status = kExitFailure;
    if (o.json) {
        nlohmann::json out = {{"backend", o.backend.backend},
                              {"runs", runs},
                              {"outcomes", outcomes},
                              {"not_run", notRun}};
        if (o.backend.slurm())
            out["slurm"] = {{"jobs", result->jobs}, {"retried", result->retried}};
        std::cout << dumpJson(out) << '\n';
    } else {
        std::string summary;
        for (const auto& [outcome, n] : outcomes)
            summary += fmt::format("{}{} {}", summary.empty() ? "" : ", ", n, outcome);
        std::cout << fmt::format("{} {}: {}{}{}\n", files.size(), files.size() == 1 ? "run" : "runs",
                                 summary.empty() ? "none ran" : summary,
                                 notRun ? fmt::format("; {} not run (cancelled)", notRun) : std::string(),
                                 o.backend.slurm() ? fmt::format(" (Slurm job {}{})", fmt::join(result->jobs, ", "),
                                                                 result->retried ? fmt::format("; {} retried", result->retried)
                                                                                 : std::string())
                                                   : std::string());
    }
    return status;
}

int batchTaskCommand(const BatchOptions& o)
{
    const auto index = slurmArrayTaskId();
    if (!index) {
        std::cerr << "sandbench: batch-task: no SLURM_ARRAY_TASK_ID\n";
        return kExitUsage;
    }
    auto ok = runBatchTask(o.job, *index);
    if (!ok) {
        std::cerr << "sandbench: batch-task: " << printable(ok.error().message) << '\n';
        return kExitFailure;
    }
    return 0;
}

} // namespace

void addBatchCommand(CommandLine& commandLine)
{
    auto options = std::make_shared<BatchOptions>();
    auto* batch = commandLine.app().add_subcommand(
        "batch", "Run many snippets, each in the sandbox and recorded as `run` records one: here one after another, "
                 "or each a task of a Slurm array job (--backend slurm)");
    batch->add_option("files", options->files, "Snippet files (.py, .sh)");
    batch->add_option("--from", options->from,
                      "A file listing snippet files, one a line (relative to its folder; # comments), or - for "
                      "standard input");
    batch->add_option("--lang", options->language, "Language of every file (default: from each file's extension, else python)")
        ->check(CLI::IsMember({"python", "sh"}));
    batch->add_option("--timeout-ms", options->timeoutMs, "Wall-clock limit of each run in milliseconds (default 5000)")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{86'400'000}));
    batch->add_option("--memory-mb", options->memoryMb, "Memory limit of each run in MiB (default 256)")
        ->check(CLI::Range(std::int64_t{16}, std::int64_t{1'048'576}));
    auto* policy = batch->add_option("--policy", options->policy, "Policy file or preset every run runs under");
    batch->add_option("--level", options->level, "Isolation level (default: the policy's, else the deepest this machine offers)")
        ->check(CLI::IsMember({"process", "container", "strict"}))
        ->excludes(policy);
    addJsonFlag(batch, options->json, "Print one JSON object: every run as `run --json` prints it, and the outcomes counted");
    addStoreOption(batch, options->store, "Store file (default: see below)");
    addBackendOptions(batch, options->backend, "each run a task of one Slurm array job, run on its node under the same "
                                               "policy and isolation level, recorded here",
                      false);
    commandLine.onParsed(batch, [options] { return batchCommand(*options); });

    // A task of a batch's Slurm job (usecases/batch.h): not for people.
    auto* task = commandLine.app().add_subcommand("batch-task", "A task of a Slurm job of sandbench batch")->group("");
    task->add_option("--job", options->job, "The job's folder in the spool")->required();
    commandLine.onParsed(task, [options] { return batchTaskCommand(*options); });
}

} // namespace sb::cli
