#pragma once

// The rule sets among the changes of a checkpoint diff, compared rule by rule, for every front end.
//
// A changed .yaml or .yml file is a rule set when either side of it looks like one (rules::looksLikeRuleSet)
// and is at most input::kRuleSet.maxBytes; a side is read from the store, or from the live workspace when the
// diff runs to a sandbox's workspace.

#include "rules/ruleset.h"
#include "rules/ruleset_diff.h"
#include "sandboxes/sandbox_engine.h"

#include <map>
#include <memory>
#include <string>

namespace sb {

// A rule-set file of a diff, compared rule by rule.
struct RuleSetFileDiff {
    std::unique_ptr<rules::ParsedRuleSet> before; // null: no rule set on that side
    std::unique_ptr<rules::ParsedRuleSet> after;
    rules::RuleSetDiff diff;
};

// The rule-set files among a diff's changes, by path.
std::map<std::string, RuleSetFileDiff> checkpointRuleSetDiffs(SandboxEngine& engine, const DiffResult& diff);

} // namespace sb
