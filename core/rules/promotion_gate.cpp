#include "rules/promotion_gate.h"

#include "rules/evaluate.h"
#include "rules/ruleset_diff.h"
#include "rules/ruleset.h"
#include "util/input_file.h"
#include "util/printable.h"
#include "checkpoints/path_filter.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

namespace sb::rules {

namespace {

bool isYamlName(std::string_view path)
{
    return path.ends_with(".yaml") || path.ends_with(".yml");
}

// The merged tree's policy files are the policy check's, never rule sets.
std::optional<PathFilter> policyFilter(const PromotionSubject& subject)
{
    if (!subject.config || subject.config->policyPaths.empty())
        return std::nullopt;
    auto filter = PathFilter::make(subject.config->policyPaths, {});
    if (!filter)
        return std::nullopt;
    return std::move(*filter);
}

bool isPolicy(const std::optional<PathFilter>& policies, const std::string& path)
{
    return policies && policies->takes(path);
}

// A file entry's text when it is a rule set; nullopt otherwise (not a file, too large, not a rule set).
Result<std::optional<std::string>> ruleSetText(const PromotionSubject& subject, const std::string& path,
                                               const std::optional<TreeEntry>& entry)
{
    if (!entry || entry->type != EntryType::File || entry->size > input::kRuleSet.maxBytes || !isYamlName(path))
        return std::optional<std::string>{};
    auto text = subject.read(*entry, input::kRuleSet.maxBytes);
    if (!text)
        return std::unexpected(text.error());
    if (!looksLikeRuleSet(path, *text))
        return std::optional<std::string>{};
    return std::optional<std::string>(std::move(*text));
}

// The first problem that blocks, as "FILE:LINE:COL: message", with how many more there are; "" when none.
// With data, a declared field the data lacks blocks too (every rule reading it would fail on every record).
std::string blockingProblems(const std::vector<Diagnostic>& diagnostics, const std::string& shown)
{
    std::string first;
    std::size_t count = 0;
    for (const auto& d : diagnostics) {
        if (d.severity != Severity::Error && d.code != "data")
            continue;
        if (count++ == 0)
            first = printable(d.format(shown), 400);
    }
    if (count > 1)
        first += fmt::format(" (and {} more)", count - 1);
    return first;
}

struct Compiled {
    ParsedRuleSet parsed;
    std::optional<CompiledRuleSet> compiled;
};

// Parses and compiles against the data; the CompiledRuleSet points into `out.parsed`, so `out` is filled in
// place and must not move afterwards.
bool compileText(const std::string& text, const std::string& path, const Dataset& data, Compiled& out)
{
    out.parsed = parseRuleSet(text, path);
    if (out.parsed.hasErrors())
        return false;
    auto result = compileRuleSet(out.parsed.ruleSet, &data.schema());
    if (!result.compiled)
        return false;
    out.compiled.emplace(std::move(*result.compiled));
    return true;
}

} // namespace

CompatibilityCheck ruleSetCompatibilityCheck(std::shared_ptr<const Dataset> data)
{
    return [data](const PromotionSubject& subject) -> Result<std::vector<CompatibilityResult>> {
        std::vector<CompatibilityResult> results;
        auto files = subject.mergedFiles();
        if (!files)
            return std::unexpected(files.error());
        const auto policies = policyFilter(subject);
        for (const auto& [path, entry] : *files) {
            if (entry.type != EntryType::File || isPolicy(policies, path))
                continue;
            auto text = ruleSetText(subject, path, entry);
            if (!text)
                return std::unexpected(text.error());
            if (!*text)
                continue;
            const std::string shown = printable(path, 200);
            CompatibilityResult result{"rules", path, true, {}};
            ParsedRuleSet parsed = parseRuleSet(**text, shown);
            std::string problem = blockingProblems(parsed.diagnostics, shown);
            if (problem.empty()) {
                const auto compiled = compileRuleSet(parsed.ruleSet, data ? &data->schema() : nullptr);
                problem = blockingProblems(compiled.diagnostics, shown);
            }
            if (!problem.empty()) {
                result.ok = false;
                result.message = std::move(problem);
            } else {
                result.message = fmt::format("{}: {} rules{}", shown, parsed.ruleSet.rules.size(),
                                             data ? fmt::format(", every field found in {}", printable(data->source(), 120))
                                                  : std::string());
            }
            results.push_back(std::move(result));
        }
        return results;
    };
}

namespace {

// The level a rule set's change reaches whatever its impact: the configured rule_set_changed rules.
RiskLevel changedRuleSetLevel(const RiskConfig& config)
{
    return config.high.ruleSetChanged ? RiskLevel::High
           : config.medium.ruleSetChanged ? RiskLevel::Medium
                                          : RiskLevel::Low;
}

// A change to the decisions production makes whose impact cannot be measured (a new rule set, no dataset, one
// that does not compile against it) is graded high, failing closed: nothing shows the decisions it flips are
// few. Unless the configuration says rule-set changes are no risk at all.
RiskLevel unmeasuredRuleSetLevel(const RiskConfig& config)
{
    return changedRuleSetLevel(config) == RiskLevel::Low ? RiskLevel::Low : RiskLevel::High;
}

} // namespace

RiskInput ruleSetImpactRisk(std::shared_ptr<const Dataset> data)
{
    return [data](const PromotionSubject& subject) -> Result<std::vector<RiskFinding>> {
        std::vector<RiskFinding> findings;
        if (!subject.changes)
            return findings;
        const auto policies = policyFilter(subject);
        const RiskConfig defaults;
        const RiskConfig& config = subject.config ? *subject.config : defaults;
        const RiskLevel changedLevel = changedRuleSetLevel(config);
        const RiskLevel unmeasured = unmeasuredRuleSetLevel(config);
        for (const auto& change : *subject.changes) {
            const std::string& path = change.change.path;
            if (isPolicy(policies, path))
                continue;
            auto after = ruleSetText(subject, path, change.change.after);
            if (!after)
                return std::unexpected(after.error());
            if (!*after)
                continue; // removed, or not a rule set: the file thresholds cover it
            const std::string shown = printable(path, 200);
            auto before = ruleSetText(subject, path, change.change.before);
            if (!before)
                return std::unexpected(before.error());
            if (!*before) {
                findings.push_back({unmeasured,
                                    Message(SB_TR("promotion risk",
                                                  "rule set {} is new: production decides by it from now on, and "
                                                  "there is no current version to measure its impact against"),
                                            {shown}),
                                    std::nullopt});
                continue;
            }
            if (!data) {
                findings.push_back({unmeasured,
                                    Message(SB_TR("promotion risk",
                                                  "rule set {} changed; its impact is not measured (no dataset: name "
                                                  "one with --data, or refer the sandbox to one)"),
                                            {shown}),
                                    std::nullopt});
                continue;
            }
            Compiled baseline;
            Compiled candidate;
            if (!compileText(**before, shown, *data, baseline) || !compileText(**after, shown, *data, candidate)) {
                // The compatibility check names what does not compile.
                findings.push_back({unmeasured,
                                    Message(SB_TR("promotion risk", "rule set {} changed; its impact cannot be "
                                                                    "measured: it does not compile against {}"),
                                            {shown, printable(data->source(), 120)}),
                                    std::nullopt});
                continue;
            }
            EvalOptions options;
            options.allRules = false;
            auto baseEval = evaluate(*baseline.compiled, *data, options);
            if (!baseEval)
                return std::unexpected(baseEval.error());
            auto candEval = evaluate(*candidate.compiled, *data, options);
            if (!candEval)
                return std::unexpected(candEval.error());
            auto impact = computeImpact(*baseline.compiled, *baseEval, *candidate.compiled, *candEval, *data);
            if (!impact)
                return std::unexpected(impact.error());
            RiskLevel level = changedLevel;
            std::vector<std::string> args = {shown, std::to_string(impact->affected), std::to_string(impact->total),
                                              printable(data->source(), 120),
                                              fmt::format("{:.2f}", impact->impactRate * 100)};
            Message reason(SB_TR("promotion risk",
                                 "rule set {} changes the decision of {} of {} records in {} (impact rate {} %)"));
            if (config.high.impactRate && impact->impactRate > *config.high.impactRate) {
                level = RiskLevel::High;
                args.push_back(fmt::format("{:.4g}", *config.high.impactRate * 100));
                reason = Message(SB_TR("promotion risk", "rule set {} changes the decision of {} of {} records in {} "
                                                         "(impact rate {} %, above the high threshold of {} %)"));
            } else if (config.medium.impactRate && impact->impactRate > *config.medium.impactRate) {
                level = std::max(level, RiskLevel::Medium);
                args.push_back(fmt::format("{:.4g}", *config.medium.impactRate * 100));
                reason = Message(SB_TR("promotion risk", "rule set {} changes the decision of {} of {} records in {} "
                                                         "(impact rate {} %, above the medium threshold of {} %)"));
            }
            reason.args = std::move(args);
            DecisionImpact decisions{path, data->source(), static_cast<std::uint64_t>(impact->affected),
                                     static_cast<std::uint64_t>(impact->total), impact->impactRate};
            findings.push_back({level, std::move(reason), std::move(decisions)});
        }
        return findings;
    };
}

} // namespace sb::rules
