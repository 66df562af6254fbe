#pragma once

// Rule sets compared rule by rule: what a checkpoint diff shows beside the unified text diff of a rule-set
// file, so a reviewer sees "rule large_amount: condition and score changed" rather than lines.

#include "rules/ruleset.h"

#include <string>
#include <string_view>
#include <vector>

namespace sb::rules {

// Whether `text` (of a file named `path`) is a rule set: YAML (.yaml, .yml) whose top level is a map with a
// `rules` list. Text that is not YAML counts when a top-level `rules:` key is plainly there (so that a
// broken rule set is still recognised, and reported).
bool looksLikeRuleSet(std::string_view path, std::string_view text);

struct RuleChange {
    enum class Kind { Added, Removed, Changed };
    Kind kind = Kind::Changed;
    std::string id;
    // Changed: which of condition, decision, score, enabled, description, tags differ (in that order).
    std::vector<std::string> fields;
    const Rule* before = nullptr; // Removed, Changed
    const Rule* after = nullptr;  // Added, Changed
};
std::string_view toString(RuleChange::Kind kind); // "added", "removed", "changed"

struct RuleSetDiff {
    std::vector<RuleChange> rules; // removed and changed in the old file's order, then added in the new's
    // The rule set's own settings that differ: name, version, strategy, default, fields.
    std::vector<std::string> settings;
    bool reordered = false;        // the rules both files have come in another order (first_match cares)
    bool empty() const { return rules.empty() && settings.empty() && !reordered; }
};

// `before` or `after` may be null (a rule set added or removed): every rule of the other is added / removed.
RuleSetDiff diffRuleSets(const RuleSet* before, const RuleSet* after);

} // namespace sb::rules
