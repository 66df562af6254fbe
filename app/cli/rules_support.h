#pragma once

// What the rules and data commands share: loading rule sets (problems printed as FILE:LINE:COL), resolving
// --data (a stored snapshot's name or a file), and their JSON renderings.

#include "commands.h"

#include "rules/dataset.h"
#include "rules/dataset_store.h"
#include "rules/evaluate.h"
#include "rules/ruleset.h"

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

struct LoadedData {
    rules::Dataset data;
    rules::ReadReport report;
    std::optional<rules::DatasetInfo> stored; // set when --data named a stored snapshot
};

// NAME:TYPE flags as fields.
Result<std::vector<rules::Field>> parseFieldFlags(const std::vector<std::string>& flags);
// The fields every rule set declares, plus the flags; one name declared with two types is an error.
Result<std::vector<rules::Field>> declaredFields(const std::vector<const LoadedRuleSet*>& ruleSets,
                                                 const std::vector<std::string>& flags);
Result<rules::BadRowPolicy> badRowPolicy(const std::string& text);

// --data: a file when one exists at that path (or it names one by its extension), else a stored snapshot.
Result<LoadedData> loadData(const DataSourceOptions& options, const std::vector<rules::Field>& declared);

// Compiles against the data; an error listing the error diagnostics when it does not compile.
Result<rules::CompiledRuleSet> compileFor(const LoadedRuleSet& rules, const rules::Dataset& data,
                                          std::vector<rules::Diagnostic>* warnings = nullptr);

// Skipped bad rows, on stderr (never silent), unless there were none.
void reportBadRows(const LoadedData& data);

OrderedJson diagnosticToJson(const rules::Diagnostic& d, const std::string& file);
OrderedJson ruleSetToJson(const LoadedRuleSet& rules);
OrderedJson dataToJson(const LoadedData& data);
OrderedJson schemaToJson(const rules::Schema& schema);
OrderedJson datasetInfoToJson(const rules::DatasetInfo& info);

// A JSON number for a score: integral values as integers (90, not 90.0).
OrderedJson scoreJson(double score);
std::string formatScore(double score);

} // namespace sb::cli
