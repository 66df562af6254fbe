#pragma once

// Rule sets at the promotion gate (core/workspace/promote.h): what a promotion that touches rule sets must
// pass, and what it may risk.
//
// A file of the merged tree is a rule set when it is YAML (.yaml, .yml) whose top level is a map with a
// `rules` list, and it is not a policy (RiskConfig::policyPaths). Such files are found by their content, so a
// rule set is checked wherever the sandbox keeps it.

#include "rules/dataset.h"
#include "workspace/promote.h"

#include <memory>
#include <string_view>

namespace sb::rules {

// Whether `text` (of a file named `path`) is a rule set in the sense above.
bool looksLikeRuleSet(std::string_view path, std::string_view text);

// Compatibility ("rules"): every rule set of the merged tree parses and its conditions compile against its
// declared fields — and, when `data` is given, against the data's columns (every field a rule reads exists
// there, with the declared type). A failure names FILE:LINE:COL; a rule set that does not parse blocks the
// promotion like a broken policy.
CompatibilityCheck ruleSetCompatibilityCheck(std::shared_ptr<const Dataset> data = nullptr);

// Risk: for each rule set the promotion modifies, its impact on `data` — the target's version as baseline,
// the merged one as candidate, the share of records whose decision changes — graded by the RiskConfig's
// `impact_rate` thresholds (high above 5 %, medium above 1 % by default). An added rule set has no baseline:
// it is reported, graded medium. Evaluation runs on every core.
RiskInput ruleSetImpactRisk(std::shared_ptr<const Dataset> data);

} // namespace sb::rules
