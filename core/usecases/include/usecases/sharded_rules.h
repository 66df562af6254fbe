#pragma once

// Rule sets evaluated on a data file, a folder of them or a stored snapshot through a cluster (`sandbench rules
// eval | impact | ab --backend slurm`), for every front end. The file, or the folder's files as one input, is cut
// into shards in a job folder of the spool (rules/shards.h); when some column's type must be inferred, a first
// array job scans every shard's columns and the scans are merged into the whole file's types. A stored snapshot
// is loaded here as a local run loads it (resolveDataset: its hash checked) and cut into row ranges, each
// written as a snapshot of its records: its types are known, and no scan is needed. An array job then reads
// every shard with those types, evaluates every rule set on it and, to compare, tallies each candidate's impact
// against the baseline (rules/partials.h). The partial results are merged in record order into what evaluating
// the whole data here gives, figure for figure: the same schema, read report, evaluations and impacts, and the
// same first error when there is one (an error reading a shard before a compile error, before an error of the
// impact, as a local run meets them).
//
// A task is `sandbench rules task --job FOLDER --stage scan|eval`, SLURM_ARRAY_TASK_ID its shard. It writes
// its result to the job folder at once (written aside, then renamed), and its progress every half second.
// The job folder is removed when the command ends, but for a failed stage: its logs are kept then, and
// the error names the folder. Its status says how far the command is, and a cancel file left in it cancels the
// jobs as `cancel` does (cluster/job_status.h).

#include "cluster/config.h"
#include "cluster/slurm.h"
#include "rules/dataset.h"
#include "rules/evaluate.h"
#include "rules/ruleset.h"
#include "usecases/dataset_source.h"
#include "util/error.h"

#include <atomic>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sb {

struct ShardedRuleSet {
    std::string file; // as named: messages use it
    std::string text; // the rule set as read (the nodes need not see the file)
    const rules::RuleSet* ruleSet = nullptr;
};

enum class ShardedPhase { Splitting, Scanning, Evaluating, Merging };
std::string_view toString(ShardedPhase phase); // "splitting", "scanning", "evaluating", "merging"

struct ShardedRulesRequest {
    std::vector<ShardedRuleSet> ruleSets; // to compare: the baseline first
    bool compare = false;                 // tally each later rule set's impact against the first
    FileReading data;                     // the file or folder and how it is read (fileReading)
    std::string source;                   // the file or folder as named
    // Else a stored snapshot, loaded by resolveDataset (`data` and `source` are then not read): cut by records.
    const ResolvedDataset* snapshot = nullptr;
    rules::ImpactOptions impact;          // to compare
    bool allRules = true;                 // rules::EvalOptions::allRules
    unsigned threads = 0;                 // per task; 0: one per core of the node
    std::size_t shards = 2;
    std::string partition;                // empty: the configuration's, else Slurm's default
    cluster::SlurmSettings settings;
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(ShardedPhase, const cluster::StageProgress&)> progress;
    std::string title; // what was asked, for the job's status in the spool (cluster/job_status.h)
    // The compiler's warnings of each rule set (by index), once the data's columns are known.
    std::function<void(std::size_t, const std::vector<rules::Diagnostic>&)> warnings;
};

struct ShardedRulesResult {
    std::string source;  // the file or folder as named, or the snapshot's Dataset::source()
    bool folder = false; // the data is a folder's files
    std::optional<rules::DatasetInfo> stored; // the data is this stored snapshot
    rules::Schema schema;
    int idColumn = -1;
    rules::ReadReport report;
    std::vector<rules::CompiledRuleSet> compiled; // per rule set, against the schema
    std::vector<rules::Evaluation> evaluations;   // per rule set, without records
    std::vector<rules::ImpactTally> tallies;      // to compare: per later rule set
    std::size_t shards = 0;
    std::vector<std::string> jobs; // the Slurm jobs it ran
    std::size_t retried = 0;       // tasks submitted again
    // Wall time of each part: cutting the file, each stage from submission to the last result, the merge.
    double splitSeconds = 0, scanSeconds = 0, evalSeconds = 0, mergeSeconds = 0;
    double taskSeconds = 0; // the longest evaluating task's own time: reading its shard, evaluating, writing
};

Result<ShardedRulesResult> runShardedRules(const ShardedRulesRequest& request);

// One task of a stage ("scan" or "eval") of the job in `folder`, on shard `shard`.
Result<void> runShardedRulesTask(const std::filesystem::path& folder, std::string_view stage, std::size_t shard);

} // namespace sb
