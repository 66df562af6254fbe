#pragma once

// Rule sets compared on a data file as it is read (`sandbench rules impact | ab` on a file): the records are
// read in parts (rules::readDatasetInParts), each part is evaluated by every rule set and tallied against the
// baseline on the thread that converted it, then dropped; the parts' evaluations and tallies are added up in
// record order. The result is the one a cluster's shards give (usecases/sharded_rules.h), figure for figure
// what evaluating the whole data in memory gives: memory is bounded by the parts in flight, not by the file.
//
// Only the columns the rules read, declare, identify records by or label them with are kept; the others are
// checked as any read checks them, and their types are inferred for the schema reported.
//
// Errors come in the order a read of the whole file meets them: an error reading the file (a bad row refused,
// cancelling) before a rule set that does not compile, before an error of the evaluation or the impact.

#include "rules/dataset.h"
#include "rules/evaluate.h"
#include "rules/ruleset.h"
#include "usecases/dataset_source.h"
#include "usecases/sharded_rules.h"
#include "util/error.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace sb {

struct StreamedRuleSet {
    std::string file; // as named: messages use it
    const rules::RuleSet* ruleSet = nullptr;
};

struct StreamedRulesRequest {
    std::vector<StreamedRuleSet> ruleSets; // the baseline first, then the candidates
    FileReading data;                      // a file (not a folder), and how it is read (fileReading)
    rules::ImpactOptions impact;
    bool allRules = true; // rules::EvalOptions::allRules
    unsigned threads = 0; // reading and evaluating; 0: one per core
    const std::atomic<bool>* cancel = nullptr;
    // Once the whole file is read, before the warnings and any error of the rule sets: what the read found
    // (the bad rows it skipped, say), and the file as messages name it.
    std::function<void(const std::string& source, const rules::ReadReport&)> read;
    // Then the compiler's warnings of each rule set (by index) that compiled.
    std::function<void(std::size_t, const std::vector<rules::Diagnostic>&)> warnings;
};

// The schema and report of the result are the whole file's (every column, kept or not); the evaluations have
// no records; tallies[v] is candidate v+1's against the baseline.
Result<ShardedRulesResult> runStreamedRules(const StreamedRulesRequest& request);

} // namespace sb
