#pragma once

// Evaluating a compiled rule set over a dataset, and what analysts compare: the impact of a candidate rule set
// against a baseline (decisions that change, and with labels what is caught and who is hurt), A/B variants,
// and the explanation of one record's decision.
//
// evaluate() runs on every core: the records are cut into chunks that threads take in turn, each thread with
// its own EvalContext and counters, merged at the end. Within a chunk, the conditions the batch evaluator
// supports are evaluated a batch of records at a time (cel/batch.h); the others, and the records a batch
// defers to the interpreter (errors among them), record by record, with the same results either way. A record's decision follows the strategy:
// first_match — the first enabled rule (in file order) whose condition is true; max_score — the highest score
// among the enabled rules whose condition is true (ties: the first); no match — the default. A condition
// that evaluates to an error (a missing value, an overflow, a non-bool result) counts as not matching; the
// error is counted for its rule (with the first message, by record order) and never stops the evaluation.

#include "rules/dataset.h"
#include "rules/ruleset.h"
#include "util/error.h"
#include "util/exact_sum.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sb::rules {

// One record's result: 16 bytes, one per record per rule set.
struct RecordOutcome {
    std::int32_t rule = -1;     // the deciding rule (index in CompiledRuleSet::rules); -1: the default
    std::uint16_t decision = 0; // index in CompiledRuleSet::decisions
    std::uint16_t errors = 0;   // conditions that were errors on this record (saturates at 65535)
    double score = 0;
};

// The allocator of Evaluation::records: a default-constructed element is left as allocated, so that the
// evaluation's threads are the first to touch (and fault in) the rows they write, in parallel, instead of
// one thread zeroing them all first (2 ms of a 10 ms evaluation of 200 000 records). Every other
// construction is the usual one.
template <typename T> struct RowsAllocator {
    using value_type = T;
    RowsAllocator() = default;
    template <typename U> RowsAllocator(const RowsAllocator<U>&) noexcept {}
    T* allocate(std::size_t n) { return std::allocator<T>().allocate(n); }
    void deallocate(T* p, std::size_t n) noexcept { std::allocator<T>().deallocate(p, n); }
    template <typename U> void construct(U*) noexcept {}
    template <typename U, typename... Args> void construct(U* p, Args&&... args)
    {
        std::construct_at(p, std::forward<Args>(args)...);
    }
    template <typename U> bool operator==(const RowsAllocator<U>&) const noexcept { return true; }
};

struct RuleStats {
    std::int64_t hits = 0;    // records its condition was true for (see EvalOptions::allRules)
    std::int64_t decided = 0; // records it decided
    std::int64_t errors = 0;  // records its condition was an error for
    std::string firstError;   // the first error's message ("1:8: no value for 'amount'"), by record order
    std::int64_t firstErrorRow = -1;
    std::string firstErrorRecord; // the id of that record
    // allRules: the rules that decided records this one matched, by index, with how many such records (only
    // rules with at least one: a rule set of 40 000 rules has no room for every pair).
    std::map<std::size_t, std::int64_t> shadowedBy;
};

struct EvalOptions {
    // Evaluate every enabled rule on every record: hit counts and shadowing are exact. When false,
    // first_match stops at the first match (hits then count only rules up to the decider).
    bool allRules = true;
    unsigned threads = 0; // 0: one per core
    std::size_t chunk = 4096;
    // Conditions in the batch evaluator's subset (cel/batch.h) run column by column over batches of records;
    // false: every condition through the interpreter, record by record (the reference the tests compare with).
    bool batch = true;
    const std::atomic<bool>* cancel = nullptr;
    // Called from the calling thread with the records done so far.
    std::function<void(std::size_t done, std::size_t total)> progress;
};

struct Evaluation {
    // by row; RecordOutcome is an aggregate (implicit-lifetime), so rows written before they are read need
    // no construction (evaluate() writes every row)
    std::vector<RecordOutcome, RowsAllocator<RecordOutcome>> records;
    std::vector<RuleStats> rules;             // by CompiledRuleSet::rules
    std::vector<std::int64_t> decisionCounts; // by CompiledRuleSet::decisions
    std::int64_t recordsWithErrors = 0;
    std::int64_t conditionsEvaluated = 0;
    double seconds = 0; // wall time of the evaluation
    unsigned threads = 1;
};

// `ruleSet` must have been compiled against `data`'s schema.
Result<Evaluation> evaluate(const CompiledRuleSet& ruleSet, const Dataset& data, const EvalOptions& options = {});

// Warnings that need the data: rules fully shadowed by earlier ones (first_match: every record they match
// was matched by an earlier rule; max_score: they never win), and rules whose condition failed on records.
std::vector<Diagnostic> dataDiagnostics(const CompiledRuleSet& ruleSet, const Evaluation& evaluation,
                                        const Dataset& data);

// ---- Impact -----------------------------------------------------------------------------------------------

struct ImpactOptions {
    std::string labelColumn;  // truthy (true, 1, "yes", "fraud", ...) is a positive; missing: unlabeled
    std::string amountColumn; // a number column: the money caught (true positives) and hurt (false positives)
    std::size_t maxChanged = 0; // changed records to report (Impact::changed); 0: all
};

// How well "decision == D" predicts the label. Amounts are summed exactly (util/exact_sum.h) and rounded once,
// so that they do not depend on the order records were added in, nor on how the data was cut into shards.
struct LabelFigures {
    std::int64_t tp = 0, fp = 0, fn = 0, tn = 0;
    std::optional<double> precision, recall, fpr; // empty when undefined (no denominator)
    double amountCaught = 0;                      // amounts of the true positives
    double amountHurt = 0;                        // amounts of the false positives
};

// A record whose decision changed, as reports name it.
struct ChangedRecord {
    std::string recordId;
    RecordOutcome before, after;
};

struct DecisionLabels {
    std::string decision;
    LabelFigures baseline, candidate;
};

struct Impact {
    std::int64_t total = 0;
    std::int64_t affected = 0;     // records whose decision changed
    double impactRate = 0;         // affected / total
    std::int64_t scoreChanged = 0; // records whose decision stayed but whose score changed
    // decision -> records, decisions with at least one record, in the rule set's order
    std::vector<std::pair<std::string, std::int64_t>> baselineDistribution, candidateDistribution;
    // decision changes old -> new, most frequent first
    std::vector<std::pair<std::pair<std::string, std::string>, std::int64_t>> transitions;
    std::vector<std::size_t> changedRows; // rows of the data, in record order (an impact computed on the data)
    std::vector<ChangedRecord> changed;   // the first ImpactOptions::maxChanged of them (0: all), in record order

    bool hasLabels = false;
    bool hasAmounts = false;
    std::string labelColumn, amountColumn;
    std::int64_t positives = 0, negatives = 0, unlabeled = 0;
    std::vector<DecisionLabels> labels; // per decision of either rule set
    // With labels, "flagged" (any decision but the baseline's default) against the label, for each rule set.
    std::optional<LabelFigures> baselineFlagged, candidateFlagged;
};

// An impact's counts before they are finished into an Impact: what evaluating part of the data yields, and
// what the parts' tallies add up to (ImpactTally::add), in record order — the same as the whole data's.
struct ImpactTally {
    std::vector<std::string> decisions; // the baseline's decisions, then the candidate's others
    std::int64_t total = 0, affected = 0, scoreChanged = 0;
    std::map<std::pair<std::size_t, std::size_t>, std::int64_t> transitions; // by index in `decisions`
    std::vector<std::size_t> changedRows;
    std::vector<ChangedRecord> changed; // at most maxChanged (0: all)
    std::size_t maxChanged = 0;
    bool hasLabels = false, hasAmounts = false;
    std::string labelColumn, amountColumn;
    std::int64_t positives = 0, negatives = 0, unlabeled = 0;
    // Per rule set (baseline, candidate), per decision in `decisions`: positives and negatives it took, and
    // their amounts; and those flagged.
    struct Side {
        std::vector<std::int64_t> pos, neg;
        std::vector<ExactSum> posAmount, negAmount;
        std::int64_t flaggedPos = 0, flaggedNeg = 0;
        ExactSum flaggedPosAmount, flaggedNegAmount;
    };
    Side sides[2];

    // Adds the tally of the records that follow these (changedRows are not carried over: they are rows of
    // another part's data). An error when the two are not of the same rule sets and options.
    Result<void> add(const ImpactTally& next);
};

// The impact of going from `baseline` to `candidate`, both evaluated on `data`.
Result<Impact> computeImpact(const CompiledRuleSet& baseline, const Evaluation& baselineEval,
                             const CompiledRuleSet& candidate, const Evaluation& candidateEval, const Dataset& data,
                             const ImpactOptions& options = {});

// The same in two steps: the counts over `data`, and the impact they make with the evaluations' decision counts
// (the evaluations of the whole data, or their parts' added up: records are not read).
Result<ImpactTally> tallyImpact(const CompiledRuleSet& baseline, const Evaluation& baselineEval,
                                const CompiledRuleSet& candidate, const Evaluation& candidateEval,
                                const Dataset& data, const ImpactOptions& options = {});
Impact finishImpact(const ImpactTally& tally, const CompiledRuleSet& baseline, const Evaluation& baselineEval,
                    const CompiledRuleSet& candidate, const Evaluation& candidateEval);

// JSON as `sandbench rules impact --json` prints it (README.md, "Impact"): total, affected, impact_rate,
// distribution, changed (Impact::changed), and labels when there are.
nlohmann::ordered_json impactToJson(const Impact& impact, const CompiledRuleSet& baseline,
                                    const CompiledRuleSet& candidate);

// ---- A/B --------------------------------------------------------------------------------------------------

struct VariantSummary {
    std::string name;
    double impactRate = 0;
    std::int64_t affected = 0;
    // With labels: everything but the baseline's default decision counts as flagged.
    std::optional<LabelFigures> flagged;
    std::optional<double> f1;
};

// Ranks the variants: by F1 of "flagged" when there are labels (ties: lower impact rate first), else by
// impact rate, lowest first. Returns indices into `variants`, best first.
std::vector<std::size_t> rankVariants(const std::vector<VariantSummary>& variants, bool byLabels);

// Flagged (decision other than `notFlaggedDecision`) against the label, over the whole evaluation.
LabelFigures flaggedFigures(const CompiledRuleSet& ruleSet, const Evaluation& evaluation, const Dataset& data,
                            const ImpactOptions& options, std::string_view notFlaggedDecision);

// Evaluations of parts of the data added up, in record order: counts summed, each rule's first error taken
// from the first part that has one (its row is the part's: firstErrorRecord names it). Records are not
// carried over; seconds and threads are the largest part's. An error when they are not of one rule set.
Result<void> addEvaluation(Evaluation& into, const Evaluation& next);

// ---- Explanations -----------------------------------------------------------------------------------------

struct ExplainStep {
    std::string expression; // the sub-expression's source text
    nlohmann::json value;   // its value as JSON ({"error": message} for an error)
    std::string text;       // its value in CEL syntax
    SourcePos pos;          // in the rule set's file
    // The values it compared or tested: fields and computed operands, e.g. amount = 1500.5.
    std::vector<std::pair<std::string, std::string>> operands;
};

struct RuleExplanation {
    std::size_t rule = 0; // index in CompiledRuleSet::rules
    bool enabled = true;
    std::optional<bool> matched; // empty: disabled, or the condition was an error / not a bool
    std::string error;           // the error, if it was one
    std::string result;          // the condition's value in CEL syntax
    bool decided = false;
    std::vector<ExplainStep> steps; // the sub-expressions that decided the value, in source order
};

struct Explanation {
    std::size_t row = 0;
    std::string recordId;
    std::int64_t line = 0;
    RecordOutcome outcome;
    std::vector<std::pair<std::string, std::string>> fields; // the fields the rules read, in CEL syntax
    std::vector<RuleExplanation> rules;
};

// Evaluates every rule on the one record, traced (Program::evalTraced), so bulk evaluation pays nothing.
Result<Explanation> explainRecord(const CompiledRuleSet& ruleSet, const Dataset& data, std::size_t row);

} // namespace sb::rules
