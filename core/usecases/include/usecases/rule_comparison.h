#pragma once

// Comparing rule sets on one dataset, for every front end: a baseline and variants, each compiled against the
// data and evaluated on it; per variant the records whose decision or score changes (the impact), and with a
// label column how well each rule set's "flagged" (any decision but the baseline's default) matches the label.
// The variants are ranked by F1 when there are labels, else by impact rate, lowest first.

#include "rules/dataset.h"
#include "rules/evaluate.h"
#include "rules/ruleset.h"
#include "util/error.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sb {

// A rule set compiled against the data and evaluated on it.
struct EvaluatedSide {
    std::optional<rules::CompiledRuleSet> compiled; // points into the rule set it was compiled from
    rules::Evaluation evaluation;
};

// The error diagnostics of a compilation, each formatted with `file`, one a line.
std::string errorsText(const std::vector<rules::Diagnostic>& diagnostics, const std::string& file);

// Compiles `ruleSet` (from `file`, for messages) against the data's schema and evaluates it; the compiler's
// warnings are handed to `warnings` (when set) before the evaluation starts.
Result<EvaluatedSide> evaluateOn(const rules::RuleSet& ruleSet, const std::string& file, const rules::Dataset& data,
                                 const rules::EvalOptions& options,
                                 const std::function<void(const std::vector<rules::Diagnostic>&)>& warnings = {});

// One side of a comparison: its name (a file's stem, a tab's title) and its compiled rule set and evaluation.
struct ComparedRuleSet {
    std::string name;
    const rules::CompiledRuleSet* compiled = nullptr;
    const rules::Evaluation* evaluation = nullptr;
};

struct RuleComparison {
    std::string notFlagged;                             // the baseline's default decision
    std::vector<rules::Impact> impacts;                 // per variant
    std::vector<rules::VariantSummary> summaries;       // per variant; flagged and F1 with labels
    std::optional<rules::LabelFigures> baselineFlagged; // with labels
    std::vector<std::size_t> ranking;                   // indices into summaries, best first
};

// F1 of flagged vs the label: 0 when nothing was caught though there was something to catch, none when there
// was nothing at all.
std::optional<double> f1Of(const rules::LabelFigures& figures);

// The summaries and ranking of impacts already computed (one per variant, named by `names`, against
// `baseline`): what compareRuleSets makes of its impacts, and a merge of shards' impacts too.
RuleComparison summarizeComparison(const rules::CompiledRuleSet& baseline, const std::vector<std::string>& names,
                                   std::vector<rules::Impact> impacts, bool labels);

// The variants against the baseline on `data`; labels when options.labelColumn is set.
Result<RuleComparison> compareRuleSets(const ComparedRuleSet& baseline, const std::vector<ComparedRuleSet>& variants,
                                       const rules::Dataset& data, const rules::ImpactOptions& options);

} // namespace sb
