#pragma once

// Rule sets at the promotion gate (core/promotion/promote.h): what a promotion that touches rule sets must
// pass, and what it may risk.
//
// A file of the merged tree is a rule set when looksLikeRuleSet() (ruleset_diff.h) says so and it is not a
// policy (RiskConfig::policyPaths): found by content, so a rule set is checked wherever the sandbox keeps it.

#include "rules/dataset.h"
#include "promotion/promote.h"

#include <memory>
#include <string_view>

namespace sb::rules {

// Compatibility ("rules"): every rule set of the merged tree parses and its conditions compile against its
// declared fields — and, when `data` is given, against the data's columns (every field a rule reads exists
// there, with the declared type). A failure names FILE:LINE:COL; a rule set that does not parse blocks the
// promotion like a broken policy.
CompatibilityCheck ruleSetCompatibilityCheck(std::shared_ptr<const Dataset> data = nullptr);

// Risk: every rule set the promotion adds or changes reaches the RiskConfig's `rule_set_changed` level
// (medium by default). With `data`, each changed one is measured — the target's version as baseline, the
// merged one as candidate, the records whose decision changes, as `rules impact` counts them — carried in the
// finding's DecisionImpact and graded by the `impact_rate` thresholds (high above 5 %, medium above 1 % by
// default). An added rule set has no baseline: it is reported without a figure. Without data, a changed one
// is reported as not measured. Evaluation runs on every core.
RiskInput ruleSetImpactRisk(std::shared_ptr<const Dataset> data);

} // namespace sb::rules
