#include "rules_support.h"

#include "usecases/rule_comparison.h"
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

Result<std::vector<rules::Field>> declaredFields(const std::vector<const LoadedRuleSet*>& ruleSets,
                                                 const std::vector<std::string>& flags)
{
    std::vector<DeclaringRuleSet> declaring;
    declaring.reserve(ruleSets.size());
    for (const LoadedRuleSet* rs : ruleSets)
        declaring.push_back(DeclaringRuleSet{rs->path, &rs->ruleSet()});
    return sb::declaredFields(declaring, flags);
}

Result<LoadedData> loadData(const DataSourceOptions& options, const std::vector<rules::Field>& declared)
{
    DatasetRequest request;
    request.data = options.data;
    request.declared = declared;
    request.idColumn = options.idColumn;
    request.onBadRow = options.onBadRow;
    request.sandbox = options.sandbox;
    request.storeIfNotReferenced = options.storeIfNotReferenced;
    return resolveDataset(request, [&options] { return openStore(options.store); });
}

Result<rules::CompiledRuleSet> compileFor(const LoadedRuleSet& loaded, const rules::Dataset& data,
                                          std::vector<rules::Diagnostic>* warnings)
{
    auto result = rules::compileRuleSet(loaded.ruleSet(), &data.schema());
    const std::string message = errorsText(result.diagnostics, loaded.path);
    for (const auto& d : result.diagnostics) {
        if (d.severity != rules::Severity::Error && warnings)
            warnings->push_back(d);
    }
    if (!result.compiled)
        return fail(message.empty() ? loaded.path + ": does not compile" : message);
    return std::move(*result.compiled);
}

void reportBadRows(const LoadedData& data)
{
    reportBadRows(data.data.source(), data.report);
}

void reportBadRows(const std::string& source, const rules::ReadReport& report)
{
    if (report.badRows == 0)
        return;
    std::cerr << fmt::format("sandbench: warning: {}: skipped {} bad {} (--on-bad-row skip):\n",
                             printable(source), report.badRows,
                             report.badRows == 1 ? "row" : "rows");
    for (const auto& bad : report.badRowExamples) {
        if (bad.file.empty())
            std::cerr << fmt::format("  line {}: {}\n", bad.line, printable(bad.message));
        else
            std::cerr << fmt::format("  {}:{}: {}\n", printable(bad.file), bad.line, printable(bad.message));
    }
    if (report.badRows > static_cast<std::int64_t>(report.badRowExamples.size()))
        std::cerr << fmt::format("  … and {} more\n",
                                 report.badRows - static_cast<std::int64_t>(report.badRowExamples.size()));
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
    for (const auto& bad : report.badRowExamples) {
        OrderedJson example;
        if (!bad.file.empty()) // a file of a folder
            example["file"] = bad.file;
        example["line"] = bad.line;
        example["message"] = bad.message;
        examples.push_back(std::move(example));
    }
    return {{"skipped", report.badRows}, {"examples", examples}};
}

} // namespace

DataFacts dataFacts(const LoadedData& d)
{
    DataFacts facts;
    facts.source = d.data.source();
    facts.folder = d.folder;
    facts.stored = d.stored;
    facts.rows = d.data.rowCount();
    if (d.data.idColumn() >= 0)
        facts.idColumn = d.data.schema().fields[static_cast<std::size_t>(d.data.idColumn())].name;
    facts.schema = d.data.schema();
    facts.report = d.report;
    return facts;
}

OrderedJson dataToJson(const DataFacts& d)
{
    OrderedJson out = {{"source", d.stored ? d.stored->name : d.source},
                       {"kind", d.stored ? "dataset" : d.folder ? "folder" : "file"},
                       {"rows", d.rows},
                       {"id_column", d.idColumn ? OrderedJson(*d.idColumn) : OrderedJson(nullptr)},
                       {"schema", schemaToJson(d.schema)}};
    if (d.stored)
        out["sha256"] = d.stored->sha256;
    else
        out["bad_rows"] = badRowsToJson(d.report);
    return out;
}

OrderedJson dataToJson(const LoadedData& d)
{
    return dataToJson(dataFacts(d));
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
