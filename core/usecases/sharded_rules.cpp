#include "usecases/sharded_rules.h"

#include "rules/partials.h"
#include "rules/shards.h"
#include "usecases/rule_comparison.h"
#include "cluster/job_status.h"
#include "cluster/spool.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <fstream>

namespace sb {

namespace {

using Json = nlohmann::json;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

Json fieldsToJson(const std::vector<rules::Field>& fields)
{
    Json out = Json::array();
    for (const auto& f : fields)
        out.push_back({f.name, std::string(rules::toString(f.type))});
    return out;
}

std::vector<rules::Field> fieldsFromJson(const Json& json)
{
    std::vector<rules::Field> out;
    for (const auto& f : json) {
        const auto type = rules::fieldTypeFromString(f.at(1).get<std::string>());
        if (!type)
            throw nlohmann::json::other_error::create(510, "an unknown column type", nullptr);
        out.push_back({f.at(0).get<std::string>(), *type});
    }
    return out;
}

fs::path scanFile(const fs::path& folder, std::size_t shard)
{
    return folder / fmt::format("scan-{:03}.json", shard);
}
fs::path partialFile(const fs::path& folder, std::size_t shard)
{
    return folder / fmt::format("partial-{:03}.json", shard);
}
fs::path progressFile(const fs::path& folder, std::size_t shard)
{
    return folder / fmt::format("progress-{:03}", shard);
}

// ---- The job as the tasks read it --------------------------------------------------------------------------

// The data cut into the tasks' shards: of a file or folder, each shard one or more pieces read as one; of a
// stored snapshot, each a row range.
struct Cut {
    std::vector<std::vector<rules::Shard>> pieces;
    std::vector<rules::SnapshotShard> snapshot;
    std::size_t size() const { return snapshot.empty() ? pieces.size() : snapshot.size(); }
};

struct Job {
    std::string source;
    rules::ReadOptions read;
    std::vector<std::pair<std::string, std::string>> ruleSets; // file, text
    bool compare = false;
    bool allRules = true;
    unsigned threads = 0;
    rules::ImpactOptions impact;
    Cut shards;
};

Json jobToJson(const ShardedRulesRequest& r, const std::string& source, const Cut& shards, const fs::path& folder)
{
    Json ruleSets = Json::array();
    for (const auto& rs : r.ruleSets)
        ruleSets.push_back({{"file", rs.file}, {"text", rs.text}});
    Json shardList = Json::array();
    for (const auto& pieces : shards.pieces) {
        Json parts = Json::array();
        for (const auto& s : pieces)
            parts.push_back({{"file", fs::relative(s.path, folder).string()},
                             {"line_offset", s.lineOffset},
                             {"at_input_start", s.atInputStart},
                             {"bytes", s.bytes},
                             {"source", s.source}});
        shardList.push_back(parts);
    }
    Json snapshotList = Json::array();
    for (const auto& s : shards.snapshot)
        snapshotList.push_back({{"file", fs::relative(s.path, folder).string()},
                                {"rows", s.rows},
                                {"size", s.size},
                                {"sha256", s.sha256}});
    return {{"version", rules::kPartialsVersion},
            {"source", source},
            {"format", std::string(rules::toString(r.data.options.format))},
            {"declared", fieldsToJson(r.data.options.declared)},
            {"id_column", r.data.options.idColumn},
            {"on_bad_row", std::string(rules::toString(r.data.options.onBadRow))},
            {"rule_sets", ruleSets},
            {"compare", r.compare},
            {"all_rules", r.allRules},
            {"threads", r.threads},
            {"label_column", r.impact.labelColumn},
            {"amount_column", r.impact.amountColumn},
            {"max_changed", r.impact.maxChanged},
            {"shards", shardList},
            {"snapshot_shards", snapshotList}};
}

Result<Job> loadJob(const fs::path& folder)
{
    auto json = cluster::readSpoolJson(folder / "job.json");
    if (!json)
        return std::unexpected(json.error());
    try {
        if (json->at("version").get<int>() != rules::kPartialsVersion)
            return fail(fmt::format("{}: a job of another version of Sandbench", (folder / "job.json").string()));
        Job job;
        job.source = json->at("source").get<std::string>();
        const auto format = json->at("format").get<std::string>();
        job.read.format = format == "jsonl" ? rules::DataFormat::JsonLines : rules::DataFormat::Csv;
        job.read.declared = fieldsFromJson(json->at("declared"));
        job.read.idColumn = json->at("id_column").get<std::string>();
        job.read.onBadRow =
            json->at("on_bad_row").get<std::string>() == "skip" ? rules::BadRowPolicy::Skip : rules::BadRowPolicy::Fail;
        for (const auto& rs : json->at("rule_sets"))
            job.ruleSets.emplace_back(rs.at("file").get<std::string>(), rs.at("text").get<std::string>());
        job.compare = json->at("compare").get<bool>();
        job.allRules = json->at("all_rules").get<bool>();
        job.threads = json->at("threads").get<unsigned>();
        job.impact.labelColumn = json->at("label_column").get<std::string>();
        job.impact.amountColumn = json->at("amount_column").get<std::string>();
        job.impact.maxChanged = json->at("max_changed").get<std::size_t>();
        for (const auto& parts : json->at("shards")) {
            std::vector<rules::Shard> pieces;
            for (const auto& s : parts) {
                rules::Shard shard;
                shard.path = folder / s.at("file").get<std::string>();
                shard.lineOffset = s.at("line_offset").get<std::int64_t>();
                shard.atInputStart = s.at("at_input_start").get<bool>();
                shard.bytes = s.at("bytes").get<std::uint64_t>();
                shard.source = s.at("source").get<std::string>();
                pieces.push_back(std::move(shard));
            }
            if (pieces.empty())
                return fail(fmt::format("{}: a shard of no pieces", (folder / "job.json").string()));
            job.shards.pieces.push_back(std::move(pieces));
        }
        for (const auto& s : json->at("snapshot_shards")) {
            rules::SnapshotShard shard;
            shard.path = folder / s.at("file").get<std::string>();
            shard.rows = s.at("rows").get<std::uint64_t>();
            shard.size = s.at("size").get<std::uint64_t>();
            shard.sha256 = s.at("sha256").get<std::string>();
            job.shards.snapshot.push_back(std::move(shard));
        }
        if (!job.shards.pieces.empty() && !job.shards.snapshot.empty())
            return fail(fmt::format("{}: shards of a file and of a snapshot", (folder / "job.json").string()));
        if (job.ruleSets.empty())
            return fail(fmt::format("{}: a job without rule sets", (folder / "job.json").string()));
        return job;
    } catch (const nlohmann::json::exception& e) {
        return fail(fmt::format("{}: not a job of Sandbench: {}", (folder / "job.json").string(), e.what()));
    }
}

// ---- The tasks ---------------------------------------------------------------------------------------------

// A task's result that is an error of the input (a bad row, a rule that does not compile): the merge reports
// the first as the command's error. `kind` orders them as a local run meets them: read, compile, impact.
std::string errorResult(std::string_view kind, const std::string& message)
{
    return Json{{"version", rules::kPartialsVersion}, {"ok", false}, {"kind", kind}, {"error", message}}.dump();
}

// The scans of the shard's pieces, in order (the command merges every task's); the first that fails instead.
Result<void> scanTask(const fs::path& folder, const Job& job, std::size_t k)
{
    if (!job.shards.snapshot.empty())
        return fail("a stored snapshot's shards are not scanned: their columns are known");
    Json scans = Json::array();
    for (const rules::Shard& piece : job.shards.pieces[k]) {
        auto scan = rules::scanColumns(piece.path, rules::readOptionsFor(piece, job.read, job.source));
        if (!scan)
            return cluster::writeSpoolFile(scanFile(folder, k), errorResult("read", scan.error().message));
        scans.push_back(rules::columnScanToJson(*scan));
    }
    return cluster::writeSpoolFile(scanFile(folder, k),
                                   Json{{"version", rules::kPartialsVersion}, {"ok", true}, {"scans", scans}}.dump());
}

// The records of shard k: a snapshot's row range as it was written (every record kept), else the shard's
// pieces read with `options`.
Result<rules::Dataset> readShard(const Job& job, std::size_t k, const rules::ReadOptions& options,
                                 rules::ReadReport& report)
{
    if (job.shards.snapshot.empty())
        return rules::readShards(job.shards.pieces[k], options, job.source, &report);
    auto data = rules::readSnapshotShard(job.shards.snapshot[k], job.source);
    if (data) {
        report.records = static_cast<std::int64_t>(data->rowCount());
        report.kept = report.records;
    }
    return data;
}

Result<void> evalTask(const fs::path& folder, const Job& job, std::size_t k)
{
    const auto started = Clock::now();
    rules::ReadOptions options = job.read;
    if (fs::exists(folder / "columns.json")) {
        auto columns = cluster::readSpoolJson(folder / "columns.json");
        if (!columns)
            return std::unexpected(columns.error());
        try {
            options.columns = fieldsFromJson(*columns);
        } catch (const nlohmann::json::exception& e) {
            return fail(fmt::format("{}: not the job's columns: {}", (folder / "columns.json").string(), e.what()));
        }
    }
    // Progress: the records every rule set has been evaluated on, averaged, every half second.
    auto lastWrite = Clock::now();
    std::size_t side = 0, sides = job.ruleSets.size(), rows = 0;
    auto report = [&](std::size_t done) {
        if (Clock::now() - lastWrite < std::chrono::milliseconds(500))
            return;
        lastWrite = Clock::now();
        (void)cluster::writeSpoolFile(progressFile(folder, k), std::to_string((side * rows + done) / sides));
    };

    rules::ReadReport readReport;
    auto data = readShard(job, k, options, readReport);
    if (!data)
        return cluster::writeSpoolFile(partialFile(folder, k), errorResult("read", data.error().message));
    rows = data->rowCount();

    std::vector<rules::ParsedRuleSet> parsed;
    parsed.reserve(job.ruleSets.size());
    for (const auto& [file, text] : job.ruleSets)
        parsed.push_back(rules::parseRuleSet(text, file));
    std::vector<EvaluatedSide> evaluated;
    for (side = 0; side < parsed.size(); ++side) {
        rules::EvalOptions eval;
        eval.allRules = job.allRules;
        eval.threads = job.threads;
        eval.progress = [&](std::size_t done, std::size_t) { report(done); };
        auto one = evaluateOn(parsed[side].ruleSet, job.ruleSets[side].first, *data, eval);
        if (!one)
            return cluster::writeSpoolFile(partialFile(folder, k), errorResult("compile", one.error().message));
        evaluated.push_back(std::move(*one));
    }
    Json tallies = Json::array();
    if (job.compare) {
        for (std::size_t v = 1; v < evaluated.size(); ++v) {
            auto tally = rules::tallyImpact(*evaluated[0].compiled, evaluated[0].evaluation, *evaluated[v].compiled,
                                            evaluated[v].evaluation, *data, job.impact);
            if (!tally)
                return cluster::writeSpoolFile(partialFile(folder, k), errorResult("impact", tally.error().message));
            tallies.push_back(rules::impactTallyToJson(*tally));
        }
    }
    Json evaluations = Json::array();
    for (const auto& e : evaluated)
        evaluations.push_back(rules::evaluationToJson(e.evaluation));
    const int id = data->idColumn();
    const Json result = {{"version", rules::kPartialsVersion},
                         {"ok", true},
                         {"report", rules::readReportToJson(readReport)},
                         {"schema", fieldsToJson(data->schema().fields)},
                         {"id_column", id},
                         {"evaluations", evaluations},
                         {"tallies", tallies},
                         {"seconds", secondsSince(started)}};
    side = sides;
    (void)cluster::writeSpoolFile(progressFile(folder, k), std::to_string(rows));
    return cluster::writeSpoolFile(partialFile(folder, k), result.dump());
}

// ---- The command that submits and merges ------------------------------------------------------------------

// The data cut into the tasks' shards: a file's byte ranges, one a shard; a folder's files as one run of bytes,
// small files grouped and big ones cut (rules::splitDataFiles); a stored snapshot's row ranges.
Result<Cut> splitData(const ShardedRulesRequest& r, const fs::path& folder, const rules::SplitOptions& options)
{
    Cut out;
    if (r.snapshot) {
        auto shards = rules::splitSnapshot(r.snapshot->data, folder, options);
        if (!shards)
            return std::unexpected(shards.error());
        out.snapshot = std::move(*shards);
    } else if (r.data.folder) {
        auto shards = rules::splitDataFiles(r.data.folder->files, folder, options);
        if (!shards)
            return std::unexpected(shards.error());
        out.pieces = std::move(*shards);
    } else {
        auto shards = rules::splitDataFile(r.data.path, folder, options);
        if (!shards)
            return std::unexpected(shards.error());
        for (auto& shard : *shards)
            out.pieces.push_back({std::move(shard)});
    }
    return out;
}

std::uint64_t recordsDone(const fs::path& folder, std::size_t shards)
{
    std::uint64_t total = 0;
    for (std::size_t k = 0; k < shards; ++k) {
        std::ifstream in(progressFile(folder, k));
        std::uint64_t n = 0;
        if (in >> n)
            total += n;
    }
    return total;
}

Result<cluster::StageReport> runStage(const ShardedRulesRequest& r, cluster::JobFolder& folder,
                                      cluster::JobStatusWriter& status, std::string_view stage, std::size_t shards,
                                      const std::string& partition, ShardedPhase phase, const fs::path& program)
{
    cluster::StageRequest stageRequest;
    stageRequest.name = fmt::format("sandbench-{}", stage);
    stageRequest.folder = folder.path();
    stageRequest.command = {program.string(), "rules", "task", "--job", folder.path().string(), "--stage",
                            std::string(stage)};
    stageRequest.tasks = shards;
    stageRequest.partition = partition;
    const fs::path dir = folder.path();
    stageRequest.finished = [dir, stage](std::size_t k) {
        std::error_code ec;
        return fs::exists(stage == "scan" ? scanFile(dir, k) : partialFile(dir, k), ec);
    };
    if (stage == "eval")
        stageRequest.recordsDone = [dir, shards] { return recordsDone(dir, shards); };
    stageRequest.cancelFile = folder.path() / cluster::kCancelFile;
    auto report = cluster::runArrayStage(r.settings, stageRequest, r.cancel, [&](const cluster::StageProgress& p) {
        status.update(toString(phase), p);
        if (r.progress)
            r.progress(phase, p);
    });
    if (!report && report.error().message.rfind("cancelled", 0) != 0) {
        folder.keep();
        status.fail(report.error().message);
        return fail(fmt::format("{} (the job's folder, with each task's log, is kept: {})", report.error().message,
                                folder.path().string()));
    }
    return report;
}

// The results of a stage, in shard order; the first error a local run would meet, when there is one.
Result<std::vector<Json>> stageResults(const fs::path& folder, std::size_t shards, bool scan)
{
    std::vector<Json> results;
    std::optional<std::string> compileError, impactError;
    for (std::size_t k = 0; k < shards; ++k) {
        const fs::path file = scan ? scanFile(folder, k) : partialFile(folder, k);
        auto json = cluster::readSpoolJson(file);
        if (!json)
            return std::unexpected(json.error());
        if (!json->is_object() || !json->contains("ok") || !(*json)["ok"].is_boolean())
            return fail(fmt::format("{}: not a task's result", file.string()));
        if (!(*json)["ok"].get<bool>()) {
            const std::string kind = json->value("kind", "");
            const std::string error = json->value("error", "");
            if (kind == "read")
                return fail(error);
            if (kind == "compile" && !compileError)
                compileError = error;
            else if (kind == "impact" && !impactError)
                impactError = error;
            else if (kind != "compile" && kind != "impact")
                return fail(fmt::format("{}: not a task's result", file.string()));
            continue;
        }
        results.push_back(std::move(*json));
    }
    if (compileError)
        return fail(*compileError);
    if (impactError)
        return fail(*impactError);
    return results;
}

} // namespace

std::string_view toString(ShardedPhase phase)
{
    switch (phase) {
    case ShardedPhase::Splitting: return "splitting";
    case ShardedPhase::Scanning: return "scanning";
    case ShardedPhase::Evaluating: return "evaluating";
    case ShardedPhase::Merging: return "merging";
    }
    return "?";
}

Result<ShardedRulesResult> runShardedRules(const ShardedRulesRequest& r)
{
    if (r.ruleSets.empty() || (r.compare && r.ruleSets.size() < 2))
        return fail("nothing to evaluate");
    if (r.shards < 1 || r.shards > 1000)
        return fail(fmt::format("--shards {}: from 1 to 1000", r.shards));
    if (auto ok = cluster::checkSpool(r.settings.spool); !ok)
        return std::unexpected(ok.error());
    auto partition = cluster::choosePartition(r.settings, r.partition);
    if (!partition)
        return std::unexpected(partition.error());
    auto program = cluster::programForNodes(r.settings);
    if (!program)
        return std::unexpected(program.error());

    // What reading the whole file would refuse at once (binary content, no header; of a folder, files of two
    // headers) is refused here, as it is. A stored snapshot was read whole already: its columns are known.
    rules::ReadOptions whole = r.data.options;
    whole.sourceName = r.source;
    bool scanNeeded = false;
    if (!r.snapshot) {
        auto head = r.data.folder ? rules::scanFolderHeads(*r.data.folder, whole)
                                  : rules::scanColumns(r.data.path, whole, true);
        if (!head)
            return std::unexpected(head.error());
        scanNeeded = head->needed;
    }

    auto made = cluster::JobFolder::create(r.settings.spool, "rules");
    if (!made)
        return std::unexpected(made.error());
    cluster::JobFolder folder = std::move(*made);
    cluster::JobStatusWriter status(folder.path(), "rules", r.title);
    std::error_code ec;
    fs::create_directory(folder.path() / "shards", ec);
    if (ec)
        return fail(fmt::format("{}: cannot make: {}", (folder.path() / "shards").string(), ec.message()));

    ShardedRulesResult out;
    out.source = r.snapshot ? r.snapshot->data.source() : r.source;
    out.folder = !r.snapshot && r.data.folder.has_value();
    if (r.snapshot)
        out.stored = r.snapshot->stored;
    auto started = Clock::now();
    rules::SplitOptions split;
    split.shards = r.shards;
    split.format = r.data.options.format;
    split.cancel = r.cancel;
    split.progress = [&](std::uint64_t, std::uint64_t) {
        status.update(toString(ShardedPhase::Splitting), cluster::StageProgress{});
        if (r.progress)
            r.progress(ShardedPhase::Splitting, cluster::StageProgress{});
    };
    auto shards = splitData(r, folder.path() / "shards", split);
    if (!shards)
        return std::unexpected(shards.error());
    out.shards = shards->size();
    out.splitSeconds = secondsSince(started);
    if (auto ok = cluster::writeSpoolFile(folder.path() / "job.json",
                                          jobToJson(r, out.source, *shards, folder.path()).dump());
        !ok)
        return std::unexpected(ok.error());

    if (scanNeeded) {
        started = Clock::now();
        auto stage = runStage(r, folder, status, "scan", out.shards, *partition, ShardedPhase::Scanning, *program);
        if (!stage)
            return std::unexpected(stage.error());
        out.jobs.insert(out.jobs.end(), stage->jobs.begin(), stage->jobs.end());
        out.retried += stage->retried;
        auto results = stageResults(folder.path(), out.shards, true);
        if (!results)
            return std::unexpected(results.error());
        std::vector<rules::ColumnScan> scans;
        for (const auto& result : *results) {
            for (const auto& json : result.at("scans")) {
                auto scan = rules::columnScanFromJson(json);
                if (!scan)
                    return std::unexpected(scan.error());
                scans.push_back(std::move(*scan));
            }
        }
        auto merged = rules::mergeScans(scans, whole, r.source);
        if (!merged)
            return std::unexpected(merged.error());
        if (auto ok = cluster::writeSpoolFile(folder.path() / "columns.json", fieldsToJson(rules::settleColumns(*merged)).dump());
            !ok)
            return std::unexpected(ok.error());
        out.scanSeconds = secondsSince(started);
    }

    started = Clock::now();
    auto stage = runStage(r, folder, status, "eval", out.shards, *partition, ShardedPhase::Evaluating, *program);
    if (!stage)
        return std::unexpected(stage.error());
    out.jobs.insert(out.jobs.end(), stage->jobs.begin(), stage->jobs.end());
    out.retried += stage->retried;
    out.evalSeconds = secondsSince(started);

    started = Clock::now();
    status.update(toString(ShardedPhase::Merging), cluster::StageProgress{});
    if (r.progress)
        r.progress(ShardedPhase::Merging, cluster::StageProgress{});
    auto results = stageResults(folder.path(), out.shards, false);
    if (!results)
        return std::unexpected(results.error());
    const std::size_t variants = r.compare ? r.ruleSets.size() - 1 : 0;
    std::int64_t recordsBefore = 0; // kept by the shards before this one: records without an id are numbered
    for (std::size_t k = 0; k < results->size(); ++k) {
        const Json& part = (*results)[k];
        const std::string where = partialFile(folder.path(), k).string();
        try {
            if (part.at("version").get<int>() != rules::kPartialsVersion)
                return fail(fmt::format("{}: a result of another version of Sandbench", where));
            auto report = rules::readReportFromJson(part.at("report"));
            if (!report)
                return fail(fmt::format("{}: {}", where, report.error().message));
            rules::Schema schema;
            schema.fields = fieldsFromJson(part.at("schema"));
            const int id = part.at("id_column").get<int>();
            const auto& evaluations = part.at("evaluations");
            const auto& tallies = part.at("tallies");
            if (evaluations.size() != r.ruleSets.size() || tallies.size() != variants)
                return fail(fmt::format("{}: not the results of this job's rule sets", where));
            if (k == 0) {
                out.schema = schema;
                out.idColumn = id;
                out.report = *report;
            } else {
                if (!(schema == out.schema) || id != out.idColumn)
                    return fail(fmt::format("{}: its shard was read with other columns than the first", where));
                rules::addReadReport(out.report, *report, r.data.options.maxBadRowExamples);
            }
            for (std::size_t s = 0; s < evaluations.size(); ++s) {
                auto ev = rules::evaluationFromJson(evaluations[s]);
                if (!ev)
                    return fail(fmt::format("{}: {}", where, ev.error().message));
                if (id < 0)
                    rules::renumberRecords(*ev, recordsBefore);
                if (k == 0)
                    out.evaluations.push_back(std::move(*ev));
                else if (auto ok = rules::addEvaluation(out.evaluations[s], *ev); !ok)
                    return fail(fmt::format("{}: {}", where, ok.error().message));
            }
            for (std::size_t v = 0; v < tallies.size(); ++v) {
                auto tally = rules::impactTallyFromJson(tallies[v]);
                if (!tally)
                    return fail(fmt::format("{}: {}", where, tally.error().message));
                if (id < 0)
                    rules::renumberRecords(*tally, recordsBefore);
                if (k == 0)
                    out.tallies.push_back(std::move(*tally));
                else if (auto ok = out.tallies[v].add(*tally); !ok)
                    return fail(fmt::format("{}: {}", where, ok.error().message));
            }
            out.taskSeconds = std::max(out.taskSeconds, part.at("seconds").get<double>());
            recordsBefore += report->kept;
        } catch (const nlohmann::json::exception& e) {
            return fail(fmt::format("{}: not a task's result: {}", where, e.what()));
        }
    }
    if (out.idColumn >= static_cast<int>(out.schema.fields.size()))
        return fail("the tasks' results name an id column the data does not have");

    // The rule sets compiled against the data's columns, as the tasks compiled them; their figures checked
    // against what the tasks counted.
    for (std::size_t s = 0; s < r.ruleSets.size(); ++s) {
        auto compiled = rules::compileRuleSet(*r.ruleSets[s].ruleSet, &out.schema);
        if (!compiled.compiled)
            return fail(errorsText(compiled.diagnostics, r.ruleSets[s].file));
        if (r.warnings) {
            std::vector<rules::Diagnostic> warnings;
            for (const auto& d : compiled.diagnostics) {
                if (d.severity != rules::Severity::Error)
                    warnings.push_back(d);
            }
            r.warnings(s, warnings);
        }
        const auto& ev = out.evaluations[s];
        if (ev.rules.size() != compiled.compiled->rules.size()
            || ev.decisionCounts.size() != compiled.compiled->decisions.size())
            return fail("the tasks' results are not of these rule sets");
        out.compiled.push_back(std::move(*compiled.compiled));
    }
    for (std::size_t v = 0; v < out.tallies.size(); ++v) {
        const auto& base = out.compiled[0];
        const auto& cand = out.compiled[v + 1];
        for (const auto& c : out.tallies[v].changed) {
            if (c.before.decision >= base.decisions.size() || c.after.decision >= cand.decisions.size()
                || c.before.rule >= static_cast<std::int32_t>(base.rules.size())
                || c.after.rule >= static_cast<std::int32_t>(cand.rules.size()))
                return fail("the tasks' results name decisions or rules these rule sets do not have");
        }
    }
    out.mergeSeconds = secondsSince(started);
    return out;
}

Result<void> runShardedRulesTask(const fs::path& folder, std::string_view stage, std::size_t shard)
{
    auto job = loadJob(folder);
    if (!job)
        return std::unexpected(job.error());
    if (shard >= job->shards.size())
        return fail(fmt::format("the job has {} shards: no shard {}", job->shards.size(), shard));
    if (stage == "scan")
        return scanTask(folder, *job, shard);
    if (stage == "eval")
        return evalTask(folder, *job, shard);
    return fail(fmt::format("no stage {} (scan, eval)", stage));
}

} // namespace sb
