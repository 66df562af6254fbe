#pragma once

// What the rules and data commands share: loading rule sets (problems printed as FILE:LINE:COL), resolving
// --data (a stored snapshot's name or a file), and their JSON renderings.

#include "commands.h"

#include "rules/dataset.h"
#include "rules/dataset_store.h"
#include "rules/evaluate.h"
#include "rules/ruleset.h"
#include "usecases/dataset_source.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sb::cli {

using OrderedJson = nlohmann::ordered_json;

struct LoadedRuleSet {
    std::string path;
    std::unique_ptr<rules::ParsedRuleSet> parsed; // at a stable address: compiled rule sets point into it
    const rules::RuleSet& ruleSet() const { return parsed->ruleSet; }
};

// The rule set at `path`; an error when it cannot be read or has errors (the error's message lists every
// error diagnostic as FILE:LINE:COL: error: message, one a line).
Result<LoadedRuleSet> loadRules(const std::string& path);

using LoadedData = sb::ResolvedDataset;

// The fields every rule set declares, plus the flags (usecases/dataset_source.h).
Result<std::vector<rules::Field>> declaredFields(const std::vector<const LoadedRuleSet*>& ruleSets,
                                                 const std::vector<std::string>& flags);

// --data, resolved as usecases/dataset_source.h says.
Result<LoadedData> loadData(const DataSourceOptions& options, const std::vector<rules::Field>& declared);

// Compiles against the data; an error listing the error diagnostics when it does not compile.
Result<rules::CompiledRuleSet> compileFor(const LoadedRuleSet& rules, const rules::Dataset& data,
                                          std::vector<rules::Diagnostic>* warnings = nullptr);

// What reports say of the data (dataToJson, the text reports' headings): of data read here, or merged from a
// cluster's shards.
struct DataFacts {
    std::string source; // rules::Dataset::source(): the file or folder as named, or "dataset NAME"
    bool folder = false; // a folder of data files
    std::optional<rules::DatasetInfo> stored;
    std::size_t rows = 0;
    std::optional<std::string> idColumn;
    rules::Schema schema;
    rules::ReadReport report;
};
DataFacts dataFacts(const LoadedData& data);

// Skipped bad rows, on stderr (never silent), unless there were none.
void reportBadRows(const LoadedData& data);
void reportBadRows(const std::string& source, const rules::ReadReport& report);

OrderedJson diagnosticToJson(const rules::Diagnostic& d, const std::string& file);
OrderedJson ruleSetToJson(const LoadedRuleSet& rules);
OrderedJson dataToJson(const LoadedData& data);
OrderedJson dataToJson(const DataFacts& data);
OrderedJson schemaToJson(const rules::Schema& schema);
OrderedJson datasetInfoToJson(const rules::DatasetInfo& info);

// A JSON number for a score: integral values as integers (90, not 90.0).
OrderedJson scoreJson(double score);
std::string formatScore(double score);

} // namespace sb::cli
