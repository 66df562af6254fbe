#include "usecases/rule_comparison.h"

#include "util/printable.h"

namespace sb {

std::string errorsText(const std::vector<rules::Diagnostic>& diagnostics, const std::string& file)
{
    std::string message;
    for (const auto& d : diagnostics) {
        if (d.severity == rules::Severity::Error)
            message += (message.empty() ? "" : "\n") + printable(d.format(file));
    }
    return message;
}

Result<EvaluatedSide> evaluateOn(const rules::RuleSet& ruleSet, const std::string& file, const rules::Dataset& data,
                                 const rules::EvalOptions& options,
                                 const std::function<void(const std::vector<rules::Diagnostic>&)>& warnings)
{
    auto result = rules::compileRuleSet(ruleSet, &data.schema());
    if (!result.compiled) {
        const std::string message = errorsText(result.diagnostics, file);
        return fail(message.empty() ? file + ": does not compile" : message);
    }
    if (warnings) {
        std::vector<rules::Diagnostic> only;
        for (const auto& d : result.diagnostics) {
            if (d.severity != rules::Severity::Error)
                only.push_back(d);
        }
        warnings(only);
    }
    EvaluatedSide side;
    side.compiled = std::move(result.compiled);
    auto evaluation = rules::evaluate(*side.compiled, data, options);
    if (!evaluation)
        return std::unexpected(evaluation.error());
    side.evaluation = std::move(*evaluation);
    return side;
}

std::optional<double> f1Of(const rules::LabelFigures& f)
{
    if (!f.precision || !f.recall || *f.precision + *f.recall == 0)
        return f.tp + f.fp + f.fn > 0 ? std::optional<double>(0.0) : std::nullopt;
    return 2 * *f.precision * *f.recall / (*f.precision + *f.recall);
}

RuleComparison summarizeComparison(const rules::CompiledRuleSet& baseline, const std::vector<std::string>& names,
                                   std::vector<rules::Impact> impacts, bool labels)
{
    RuleComparison out;
    out.notFlagged = baseline.decisions[baseline.defaultDecision];
    for (std::size_t v = 0; v < impacts.size(); ++v) {
        const rules::Impact& impact = impacts[v];
        rules::VariantSummary summary;
        summary.name = names[v];
        summary.impactRate = impact.impactRate;
        summary.affected = impact.affected;
        if (labels && impact.candidateFlagged) {
            summary.flagged = impact.candidateFlagged;
            summary.f1 = f1Of(*summary.flagged);
        }
        if (labels && !out.baselineFlagged)
            out.baselineFlagged = impact.baselineFlagged;
        out.summaries.push_back(std::move(summary));
    }
    out.impacts = std::move(impacts);
    out.ranking = rules::rankVariants(out.summaries, labels);
    return out;
}

Result<RuleComparison> compareRuleSets(const ComparedRuleSet& baseline, const std::vector<ComparedRuleSet>& variants,
                                       const rules::Dataset& data, const rules::ImpactOptions& options)
{
    std::vector<rules::Impact> impacts;
    std::vector<std::string> names;
    for (const ComparedRuleSet& variant : variants) {
        auto impact = rules::computeImpact(*baseline.compiled, *baseline.evaluation, *variant.compiled,
                                           *variant.evaluation, data, options);
        if (!impact)
            return std::unexpected(impact.error());
        impacts.push_back(std::move(*impact));
        names.push_back(variant.name);
    }
    return summarizeComparison(*baseline.compiled, names, std::move(impacts), !options.labelColumn.empty());
}

} // namespace sb
