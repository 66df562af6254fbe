#include "usecases/streamed_rules.h"

#include "rules/partials.h"
#include "usecases/rule_comparison.h"

#include <algorithm>
#include <chrono>
#include <optional>

namespace sb {

namespace {

// The rule sets compiled against the parts' columns, each part evaluated and tallied, the parts added up.
class Comparer final : public rules::PartConsumer {
public:
    explicit Comparer(const StreamedRulesRequest& request) : m_request(request) {}

    Result<void> start(const rules::Schema& schema, int idColumn) override
    {
        m_idColumn = idColumn;
        for (const StreamedRuleSet& rs : m_request.ruleSets) {
            auto result = rules::compileRuleSet(*rs.ruleSet, &schema);
            std::vector<rules::Diagnostic> warnings;
            for (auto& d : result.diagnostics) {
                if (d.severity != rules::Severity::Error)
                    warnings.push_back(std::move(d));
            }
            if (!result.compiled) {
                // Reported once the file is read, as a read of the whole file meets it.
                const std::string message = errorsText(result.diagnostics, rs.file);
                m_compileError = message.empty() ? rs.file + ": does not compile" : message;
                m_compiled.clear();
                return {};
            }
            m_warnings.push_back(std::move(warnings));
            m_compiled.push_back(std::move(*result.compiled));
        }
        return {};
    }

    std::unique_ptr<Done> process(const rules::Dataset& part) override
    {
        auto done = std::make_unique<PartDone>();
        if (m_compiled.empty())
            return done;
        rules::EvalOptions options;
        options.allRules = m_request.allRules;
        options.threads = 1; // the part's own thread: the reader runs one part per core
        options.cancel = m_request.cancel;
        for (const rules::CompiledRuleSet& compiled : m_compiled) {
            auto evaluation = rules::evaluate(compiled, part, options);
            if (!evaluation) {
                done->error = evaluation.error();
                return done;
            }
            done->evaluations.push_back(std::move(*evaluation));
        }
        for (std::size_t v = 1; v < m_compiled.size(); ++v) {
            auto tally = rules::tallyImpact(m_compiled[0], done->evaluations[0], m_compiled[v], done->evaluations[v],
                                            part, m_request.impact);
            if (!tally) {
                done->error = tally.error();
                return done;
            }
            // Rows of this part, which ImpactTally::add does not carry over; dropped here, on the part's thread,
            // so a part waiting for its turn to merge holds only its counts and changed records.
            tally->changedRows.clear();
            done->tallies.push_back(std::move(*tally));
        }
        // Each record's outcome is what the tally above needed; the merged evaluation keeps the counts and the
        // per-rule figures, as a cluster shard's does (the printers read outcomes only from the whole dataset).
        for (auto& evaluation : done->evaluations)
            evaluation.records = {};
        return done;
    }

    Result<void> merge(std::unique_ptr<Done> finished, std::int64_t recordsBefore) override
    {
        auto& done = static_cast<PartDone&>(*finished);
        if (m_compiled.empty() || m_error)
            return {};
        if (done.error) {
            m_error = std::move(done.error); // after the read's own errors, as when the whole file is read first
            return {};
        }
        if (m_idColumn < 0) {
            for (auto& evaluation : done.evaluations)
                rules::renumberRecords(evaluation, recordsBefore);
            for (auto& tally : done.tallies)
                rules::renumberRecords(tally, recordsBefore);
        }
        if (m_evaluations.empty()) {
            m_evaluations = std::move(done.evaluations);
            m_tallies = std::move(done.tallies);
            return {};
        }
        for (std::size_t s = 0; s < m_evaluations.size(); ++s) {
            if (auto ok = rules::addEvaluation(m_evaluations[s], done.evaluations[s]); !ok)
                return ok;
        }
        for (std::size_t v = 0; v < m_tallies.size(); ++v) {
            if (auto ok = m_tallies[v].add(done.tallies[v]); !ok)
                return ok;
        }
        return {};
    }

    // After the read: the warnings of the rule sets compiled, then the first one's error that did not, then
    // the first error of a part's evaluation or tally.
    Result<void> finish(ShardedRulesResult& out, const rules::Dataset& noRecords)
    {
        if (m_request.warnings) {
            for (std::size_t s = 0; s < m_warnings.size(); ++s)
                m_request.warnings(s, m_warnings[s]);
        }
        if (!m_compileError.empty())
            return fail(m_compileError);
        if (m_evaluations.empty() && !m_error) {
            // No part had a record: the evaluations and tallies of none.
            if (auto ok = merge(process(noRecords), 0); !ok)
                return ok;
        }
        if (m_error)
            return std::unexpected(*m_error);
        out.compiled = std::move(m_compiled);
        out.evaluations = std::move(m_evaluations);
        out.tallies = std::move(m_tallies);
        return {};
    }

private:
    struct PartDone final : Done {
        std::vector<rules::Evaluation> evaluations; // per rule set, without records
        std::vector<rules::ImpactTally> tallies;    // per candidate
        std::optional<Error> error;
    };

    const StreamedRulesRequest& m_request;
    int m_idColumn = -1;
    std::vector<rules::CompiledRuleSet> m_compiled; // empty when one does not compile
    std::vector<std::vector<rules::Diagnostic>> m_warnings;
    std::string m_compileError;
    std::optional<Error> m_error; // the first part's that failed
    std::vector<rules::Evaluation> m_evaluations;
    std::vector<rules::ImpactTally> m_tallies;
};

} // namespace

Result<ShardedRulesResult> runStreamedRules(const StreamedRulesRequest& request)
{
    if (request.data.folder)
        return fail(request.data.path.string() + ": a folder: its files are read whole");
    rules::ReadOptions options = request.data.options;
    options.threads = request.threads;
    if (!options.cancel)
        options.cancel = request.cancel;
    std::vector<std::string> names;
    for (const StreamedRuleSet& rs : request.ruleSets) {
        for (auto& name : rules::namesRead(*rs.ruleSet))
            names.push_back(std::move(name));
    }
    const rules::ImpactOptions& impact = request.impact;
    options.keepColumn = [&names, &impact](std::string_view column) {
        return rules::readsColumn(names, column) || column == impact.labelColumn || column == impact.amountColumn;
    };

    const auto started = std::chrono::steady_clock::now();
    Comparer comparer(request);
    ShardedRulesResult out;
    auto parts = rules::readDatasetInParts(request.data.path, options, comparer, &out.report);
    if (!parts)
        return std::unexpected(parts.error());
    if (request.read)
        request.read(parts->source(), out.report);
    if (auto ok = comparer.finish(out, *parts); !ok)
        return std::unexpected(ok.error());
    out.source = parts->source();
    out.schema.fields = out.report.columns;
    if (parts->idColumn() >= 0) {
        const std::string& id = parts->schema().fields[static_cast<std::size_t>(parts->idColumn())].name;
        out.idColumn = out.schema.find(id);
    }
    out.shards = 1;
    out.evalSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return out;
}

} // namespace sb
