#include "rules_support.h"

#include "util/printable.h"
#include "util/time_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iostream>

namespace sb::cli {

namespace rules = sb::rules;

Result<LoadedRuleSet> loadRules(const std::string& path)
{
    auto parsed = rules::loadRuleSetFile(path);
    if (!parsed)
        return std::unexpected(parsed.error());
    LoadedRuleSet out;
    out.path = path;
    out.parsed = std::make_unique<rules::ParsedRuleSet>(std::move(*parsed));
    if (out.parsed->hasErrors()) {
        std::string message;
        for (const auto& d : out.parsed->diagnostics) {
            if (d.severity == rules::Severity::Error)
                message += (message.empty() ? "" : "\n") + printable(d.format(path));
        }
        return fail(message);
    }
    return out;
}

Result<std::vector<rules::Field>> parseFieldFlags(const std::vector<std::string>& flags)
{
    std::vector<rules::Field> out;
    for (const auto& flag : flags) {
        const auto colon = flag.rfind(':');
        const auto type =
            colon == std::string::npos ? std::nullopt : rules::fieldTypeFromString(flag.substr(colon + 1));
        if (colon == std::string::npos || colon == 0 || !type)
            return fail(fmt::format("--field {}: expected NAME:TYPE, TYPE one of int, double, bool, string, timestamp",
                                    printable(flag)));
        out.push_back(rules::Field{flag.substr(0, colon), *type});
    }
    return out;
}

Result<std::vector<rules::Field>> declaredFields(const std::vector<const LoadedRuleSet*>& ruleSets,
                                                 const std::vector<std::string>& flags)
{
    auto fromFlags = parseFieldFlags(flags);
    if (!fromFlags)
        return std::unexpected(fromFlags.error());
    std::vector<rules::Field> out = *fromFlags;
    std::vector<std::string> origin(out.size(), "--field");
    for (const LoadedRuleSet* rs : ruleSets) {
        for (const auto& decl : rs->ruleSet().fields) {
            const auto it =
                std::find_if(out.begin(), out.end(), [&](const rules::Field& f) { return f.name == decl.field.name; });
            if (it == out.end()) {
                out.push_back(decl.field);
                origin.push_back(rs->path);
                continue;
            }
            if (it->type != decl.field.type)
                return fail(fmt::format("{}:{}:{}: error: field '{}' is declared {} here but {} in {}", rs->path,
                                        decl.pos.line, decl.pos.column, decl.field.name,
                                        rules::toString(decl.field.type), rules::toString(it->type),
                                        origin[static_cast<std::size_t>(it - out.begin())]));
        }
    }
    return out;
}

Result<rules::BadRowPolicy> badRowPolicy(const std::string& text)
{
    if (text == "fail")
        return rules::BadRowPolicy::Fail;
    if (text == "skip")
        return rules::BadRowPolicy::Skip;
    return fail("--on-bad-row: expected skip or fail");
}

Result<LoadedData> loadData(const DataSourceOptions& options, const std::vector<rules::Field>& declared)
{
    LoadedData out;
    std::error_code ec;
    const std::filesystem::path path(options.data);
    const auto format = rules::formatForPath(path);
    const bool isFile = std::filesystem::exists(path, ec);
    if (isFile || format || options.data.find('/') != std::string::npos) {
        if (!isFile)
            return fail(fmt::format("{}: no such file", printable(options.data)));
        if (!format)
            return fail(fmt::format("{}: unknown data format (expected a .csv, .jsonl or .ndjson file, or the "
                                    "name of a stored dataset)",
                                    printable(options.data)));
        auto policy = badRowPolicy(options.onBadRow);
        if (!policy)
            return std::unexpected(policy.error());
        rules::ReadOptions read;
        read.format = *format;
        read.declared = declared;
        read.idColumn = options.idColumn;
        read.onBadRow = *policy;
        auto data = rules::readDataset(path, read, &out.report);
        if (!data)
            return std::unexpected(data.error());
        out.data = std::move(*data);
        return out;
    }
    if (!rules::isValidDatasetName(options.data))
        return fail(fmt::format("{}: no such file, and not a dataset name", printable(options.data)));
    auto store = openStore(options.store);
    if (!store)
        return std::unexpected(store.error());
    // In a sandbox, a name is one of its dataset references: the snapshot it was given (or sampled for it).
    std::string snapshot = options.data;
    std::string expectedSha256;
    if (!options.sandbox.empty()) {
        auto engine = SandboxEngine::open(*store);
        if (!engine)
            return std::unexpected(engine.error());
        auto sandbox = (*engine)->sandbox(options.sandbox);
        if (!sandbox)
            return std::unexpected(sandbox.error());
        const auto ref = std::find_if(sandbox->datasets.begin(), sandbox->datasets.end(),
                                      [&](const DatasetRef& r) { return r.name == options.data; });
        if (ref == sandbox->datasets.end() && options.storeIfNotReferenced) {
            // not one of its references: the store's dataset of that name, below
        } else if (ref == sandbox->datasets.end()) {
            std::string names;
            for (const auto& r : sandbox->datasets)
                names += (names.empty() ? "" : ", ") + r.name;
            return fail(fmt::format("sandbox '{}' has no dataset '{}' ({}; see: sandbench sandbox set {} --dataset NAME)",
                                    options.sandbox, printable(options.data),
                                    names.empty() ? "it refers to none" : "its datasets: " + names, options.sandbox));
        } else {
            snapshot = ref->snapshot;
            expectedSha256 = ref->sha256;
        }
    }
    rules::DatasetInfo info;
    auto data = rules::loadDataset(*store, snapshot, &info);
    if (data && !expectedSha256.empty() && info.sha256 != expectedSha256)
        return fail(fmt::format("sandbox '{}' refers to dataset {} with SHA-256 {}, but the store's snapshot of that "
                                "name is {}",
                                options.sandbox, snapshot, expectedSha256, info.sha256));
    if (!data && !expectedSha256.empty())
        return fail(fmt::format("sandbox '{}': dataset '{}' (snapshot {}): {}", options.sandbox,
                                printable(options.data), snapshot, data.error().message));
    if (!data) {
        if (auto found = rules::findDataset(*store, options.data); found && !*found)
            return fail(fmt::format("{}: no such file, and no dataset of that name in store {} (see: sandbench "
                                    "data list)",
                                    printable(options.data), printable(store->path().string())));
        return std::unexpected(data.error());
    }
    if (auto ok = data->adaptTo(declared); !ok)
        return std::unexpected(ok.error());
    if (!options.idColumn.empty() && data->idColumn() >= 0
        && data->schema().fields[static_cast<std::size_t>(data->idColumn())].name != options.idColumn)
        return fail(fmt::format("dataset {} identifies records by '{}', fixed at import; --id-column applies to "
                                "files",
                                info.name, info.idColumn));
    out.data = std::move(*data);
    out.report.records = info.rows;
    out.report.kept = info.rows;
    out.stored = std::move(info);
    return out;
}

Result<rules::CompiledRuleSet> compileFor(const LoadedRuleSet& loaded, const rules::Dataset& data,
                                          std::vector<rules::Diagnostic>* warnings)
{
    auto result = rules::compileRuleSet(loaded.ruleSet(), &data.schema());
    std::string message;
    for (const auto& d : result.diagnostics) {
        if (d.severity == rules::Severity::Error)
            message += (message.empty() ? "" : "\n") + printable(d.format(loaded.path));
        else if (warnings)
            warnings->push_back(d);
    }
    if (!result.compiled)
        return fail(message.empty() ? loaded.path + ": does not compile" : message);
    return std::move(*result.compiled);
}

void reportBadRows(const LoadedData& data)
{
    if (data.report.badRows == 0)
        return;
    std::cerr << fmt::format("sandbench: warning: {}: skipped {} bad {} (--on-bad-row skip):\n",
                             printable(data.data.source()), data.report.badRows,
                             data.report.badRows == 1 ? "row" : "rows");
    for (const auto& bad : data.report.badRowExamples)
        std::cerr << fmt::format("  line {}: {}\n", bad.line, printable(bad.message));
    if (data.report.badRows > static_cast<std::int64_t>(data.report.badRowExamples.size()))
        std::cerr << fmt::format("  … and {} more\n",
                                 data.report.badRows - static_cast<std::int64_t>(data.report.badRowExamples.size()));
}

OrderedJson diagnosticToJson(const rules::Diagnostic& d, const std::string& file)
{
    return {{"file", file},           {"line", d.pos.line},
            {"column", d.pos.column}, {"severity", rules::toString(d.severity)},
            {"code", d.code},         {"rule", d.rule.empty() ? OrderedJson(nullptr) : OrderedJson(d.rule)},
            {"message", d.message}};
}

OrderedJson ruleSetToJson(const LoadedRuleSet& loaded)
{
    const rules::RuleSet& rs = loaded.ruleSet();
    return {{"file", loaded.path},
            {"name", rs.name},
            {"version", rs.version},
            {"strategy", rules::toString(rs.strategy)},
            {"default", {{"decision", rs.defaultDecision}, {"score", scoreJson(rs.defaultScore)}}},
            {"rules", rs.rules.size()}};
}

OrderedJson schemaToJson(const rules::Schema& schema)
{
    OrderedJson out = OrderedJson::array();
    for (const auto& f : schema.fields)
        out.push_back({{"name", f.name}, {"type", rules::toString(f.type)}});
    return out;
}

namespace {

OrderedJson badRowsToJson(const rules::ReadReport& report)
{
    OrderedJson examples = OrderedJson::array();
    for (const auto& bad : report.badRowExamples)
        examples.push_back({{"line", bad.line}, {"message", bad.message}});
    return {{"skipped", report.badRows}, {"examples", examples}};
}

} // namespace

OrderedJson dataToJson(const LoadedData& d)
{
    OrderedJson out = {{"source", d.stored ? d.stored->name : d.data.source()},
                       {"kind", d.stored ? "dataset" : "file"},
                       {"rows", d.data.rowCount()},
                       {"id_column", d.data.idColumn() >= 0 ? OrderedJson(
                                         d.data.schema().fields[static_cast<std::size_t>(d.data.idColumn())].name)
                                                            : OrderedJson(nullptr)},
                       {"schema", schemaToJson(d.data.schema())}};
    if (d.stored)
        out["sha256"] = d.stored->sha256;
    else
        out["bad_rows"] = badRowsToJson(d.report);
    return out;
}

OrderedJson datasetInfoToJson(const rules::DatasetInfo& info)
{
    return {{"name", info.name},
            {"sha256", info.sha256},
            {"rows", info.rows},
            {"schema", schemaToJson(info.schema)},
            {"id_column", info.idColumn.empty() ? OrderedJson(nullptr) : OrderedJson(info.idColumn)},
            {"source", info.source},
            {"format", info.sourceFormat},
            {"sample", info.sampleRatio},
            {"seed", info.seed},
            {"max_rows", info.maxRows},
            {"bad_rows_skipped", info.badRows},
            {"created_at_ms", info.createdAtMs},
            {"created_at", formatIsoUtc(info.createdAtMs)},
            {"size", info.size},
            {"stored_size", info.storedSize}};
}

OrderedJson scoreJson(double score)
{
    if (std::trunc(score) == score && std::fabs(score) < 9007199254740992.0)
        return static_cast<std::int64_t>(score);
    return score;
}

std::string formatScore(double score)
{
    if (std::trunc(score) == score && std::fabs(score) < 1e15)
        return fmt::format("{}", static_cast<std::int64_t>(score));
    return fmt::format("{:g}", score);
}

} // namespace sb::cli
