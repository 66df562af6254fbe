#include "rules/evaluate.h"

#include "cel/batch.h"
#include "cel/json.h"
#include "util/threads.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <map>
#include <thread>
#include <type_traits>
#include <unordered_map>

namespace sb::rules {

namespace {

// Where each slot of the rule set's activation comes from.
struct Gather {
    std::size_t slot;
    const cel::Value* column;
};

Result<void> checkCompiledFor(const CompiledRuleSet& rs, const Dataset& data)
{
    const auto vars = rs.declarations.variables();
    for (std::size_t s = 0; s < rs.columnSlots && s < rs.slotColumn.size(); ++s) {
        const int c = rs.slotColumn[s];
        if (c < 0)
            continue;
        if (static_cast<std::size_t>(c) >= data.columnCount() || s >= vars.size()
            || vars[s].name != data.schema().fields[static_cast<std::size_t>(c)].name)
            return fail("the rule set was compiled against other data than " + data.source());
    }
    return {};
}

std::vector<Gather> gatherFor(const CompiledRuleSet& rs, const Dataset& data, bool allColumns)
{
    std::vector<Gather> out;
    for (std::size_t s = 0; s < rs.columnSlots; ++s) {
        const int c = rs.slotColumn[s];
        if (c < 0)
            continue;
        if (!allColumns && !std::binary_search(rs.referencedColumns.begin(), rs.referencedColumns.end(), c))
            continue;
        out.push_back(Gather{s, data.column(static_cast<std::size_t>(c)).data()});
    }
    return out;
}

std::string notBoolMessage(const cel::Value& v)
{
    return fmt::format("the condition is {}, not a bool", cel::kindName(v.kind()));
}

// How many records each rule matched that another rule decided, for allRules: a dense table for a few rules,
// so that the evaluation's inner loop stays an increment, and a hash map of the pairs that occur for many (a
// dense table of 40 000 rules would take 12.8 GB per thread).
class ShadowCounts {
public:
    static constexpr std::size_t kMaxDenseRules = 256; // 512 KiB per thread

    ShadowCounts(std::size_t rules, bool wanted) : m_rules(wanted ? rules : 0)
    {
        if (wanted && rules <= kMaxDenseRules)
            m_dense.assign(rules * rules, 0);
    }

    // Rule `matched` matched a record that rule `decider` decided.
    void add(std::size_t matched, std::size_t decider)
    {
        if (!m_dense.empty())
            ++m_dense[matched * m_rules + decider];
        else
            ++m_sparse[(std::uint64_t{matched} << 32) | decider];
    }

    // Adds these counts to the rules' shadowedBy.
    void addTo(std::vector<RuleStats>& rules) const
    {
        for (std::size_t i = 0; i < m_dense.size(); ++i) {
            if (m_dense[i] != 0)
                rules[i / m_rules].shadowedBy[i % m_rules] += m_dense[i];
        }
        for (const auto& [pair, count] : m_sparse)
            rules[pair >> 32].shadowedBy[pair & 0xffffffffu] += count;
    }

private:
    std::size_t m_rules;
    std::vector<std::int64_t> m_dense;
    std::unordered_map<std::uint64_t, std::int64_t> m_sparse;
};

// A thread's own counters. Cache-line aligned: the threads' counters sit side by side in one vector, and one
// thread's `conditions` (written for every condition) shared a line with the next thread's vector headers
// (read for every condition), which cost the second thread most of its speed.
struct alignas(64) ThreadTotals {
    std::vector<std::int64_t> hits, decided, errors, firstErrorRow;
    std::vector<std::string> firstError;
    ShadowCounts shadowedBy;
    std::vector<std::int64_t> decisionCounts;
    std::int64_t recordsWithErrors = 0;
    std::int64_t conditions = 0;

    ThreadTotals(std::size_t rules, std::size_t decisions, bool shadows)
        : hits(rules), decided(rules), errors(rules), firstErrorRow(rules, -1), firstError(rules),
          shadowedBy(rules, shadows), decisionCounts(decisions)
    {
    }
};

// A thread's working buffers: the activation the interpreter reads and the batches' results.
struct ThreadScratch {
    cel::EvalContext ctx;
    cel::BatchScratch batch;
    std::vector<cel::Value> slots;
    cel::Activation activation{slots};
    std::vector<std::uint32_t> matched;
    std::vector<std::uint8_t> results; // by active rule, then row of the batch
    std::vector<std::uint8_t> any;     // by row of the batch: the OR of the rules' results

    ThreadScratch(std::size_t columnSlots, std::size_t activeRules)
        : slots(columnSlots), results(activeRules * cel::kBatchRows), any(cel::kBatchRows)
    {
        matched.reserve(activeRules);
    }
};

// One evaluation of a rule set over a dataset: what every thread shares, and the work of one thread.
class Evaluator {
public:
    Evaluator(const CompiledRuleSet& rs, const Dataset& data, const EvalOptions& options, Evaluation& out)
        : m_rs(rs), m_options(options), m_records(out.records.data()), m_rows(data.rowCount()),
          m_gather(gatherFor(rs, data, false)), m_firstMatch(rs.strategy == Strategy::FirstMatch),
          m_stopAtFirst(m_firstMatch && !options.allRules), m_chunk(std::max<std::size_t>(options.chunk, 64))
    {
        for (std::size_t k = 0; k < rs.rules.size(); ++k) {
            if (rs.rules[k].enabled && rs.rules[k].program)
                m_active.push_back(static_cast<std::uint32_t>(k));
        }
        // Every rule in the batch evaluator's subset runs column by column over batches of records; the
        // rest, and the records a batch defers (errors, unexpected kinds), through the interpreter record
        // by record.
        m_batches.resize(m_active.size());
        for (std::size_t a = 0; a < m_active.size() && options.batch; ++a)
            m_batches[a] = cel::BatchProgram::build(*rs.rules[m_active[a]].program, rs.declarations);
        m_columnsBySlot.assign(rs.declarations.size(), nullptr);
        for (const Gather& g : m_gather)
            m_columnsBySlot[g.slot] = g.column;
        m_allBatched = m_active.size() <= 64
                       && std::all_of(m_batches.begin(), m_batches.end(), [](const auto& b) { return b.has_value(); });
    }

    std::size_t chunk() const { return m_chunk; }
    bool cancelled() const { return m_cancelled; }

    // Takes chunks of records until none is left (or the evaluation is cancelled); the thread that reports
    // calls the progress callback after each chunk.
    void work(ThreadTotals& L, bool reports)
    {
        ThreadScratch scratch(m_rs.columnSlots, m_active.size());
        for (;;) {
            const std::size_t start = m_next.fetch_add(m_chunk, std::memory_order_relaxed);
            if (start >= m_rows)
                break;
            if (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed)) {
                m_cancelled = true;
                break;
            }
            const std::size_t end = std::min(m_rows, start + m_chunk);
            for (std::size_t base = start; base < end; base += cel::kBatchRows)
                evaluateBatch(L, scratch, base, std::min(cel::kBatchRows, end - base));
            const std::size_t now = m_done.fetch_add(end - start, std::memory_order_relaxed) + (end - start);
            if (reports && m_options.progress)
                m_options.progress(now, m_rows);
        }
    }

private:
    void evaluateBatch(ThreadTotals& L, ThreadScratch& s, std::size_t base, std::size_t rows)
    {
        const std::size_t activeRules = m_active.size();
        for (std::size_t a = 0; a < activeRules; ++a) {
            if (m_batches[a])
                m_batches[a]->eval(m_columnsBySlot, base, rows, s.batch, &s.results[a * cel::kBatchRows]);
        }
        // Rows every condition of which the batches decided: the rules that matched as a bit mask, the
        // strategy from it. The others (and all rows when a rule is not batched) record by record.
        if (m_allBatched) {
            // Most records match no rule: a byte per record, the OR of the rules' results, finds the ones
            // that matched or were deferred (false is 0) with loops that vectorize.
            std::uint8_t* const any = s.any.data();
            std::fill_n(any, rows, 0);
            for (std::size_t a = 0; a < activeRules; ++a) {
                const std::uint8_t* r = &s.results[a * cel::kBatchRows];
                for (std::size_t i = 0; i < rows; ++i)
                    any[i] |= r[i];
            }
        }
        for (std::size_t i = 0; i < rows; ++i) {
            const std::size_t row = base + i;
            if (m_allBatched) {
                if (!s.any[i]) {
                    decideFromMask(L, 0, m_records[row]);
                    continue;
                }
                std::uint64_t mask = 0;
                bool deferred = false;
                for (std::size_t a = 0; a < activeRules; ++a) {
                    const std::uint8_t r = s.results[a * cel::kBatchRows + i];
                    mask |= std::uint64_t{r == cel::kBatchTrue} << a;
                    deferred |= r == cel::kBatchDefer;
                }
                if (!deferred) {
                    decideFromMask(L, mask, m_records[row]);
                    continue;
                }
            }
            decideRecordByRecord(L, s, row, i);
        }
    }

    // A record without errors, from the mask of the active rules that matched it: what
    // decideRecordByRecord does rule by rule, with the same counts.
    void decideFromMask(ThreadTotals& L, std::uint64_t mask, RecordOutcome& o) const
    {
        std::int32_t best = -1;
        if (mask == 0) {
            L.conditions += static_cast<std::int64_t>(m_active.size());
        } else if (m_stopAtFirst) {
            const int a = std::countr_zero(mask);
            L.conditions += a + 1;
            best = static_cast<std::int32_t>(m_active[static_cast<std::size_t>(a)]);
            ++L.hits[static_cast<std::size_t>(best)];
        } else {
            L.conditions += static_cast<std::int64_t>(m_active.size());
            double bestScore = 0;
            for (std::uint64_t m = mask; m; m &= m - 1) {
                const std::uint32_t k = m_active[static_cast<std::size_t>(std::countr_zero(m))];
                ++L.hits[k];
                if (best < 0 || (!m_firstMatch && m_rs.rules[k].score > bestScore)) {
                    best = static_cast<std::int32_t>(k);
                    bestScore = m_rs.rules[k].score;
                }
            }
            if (m_options.allRules) {
                for (std::uint64_t m = mask; m; m &= m - 1) {
                    const std::uint32_t k = m_active[static_cast<std::size_t>(std::countr_zero(m))];
                    if (k != static_cast<std::uint32_t>(best))
                        L.shadowedBy.add(k, static_cast<std::size_t>(best));
                }
            }
        }
        o.errors = 0;
        record(L, best, o);
    }

    // A record some condition of which the batches deferred (or was not batched): the interpreter evaluates
    // those conditions on the record's values.
    void decideRecordByRecord(ThreadTotals& L, ThreadScratch& s, std::size_t row, std::size_t i) const
    {
        bool gathered = false;
        std::int32_t best = -1;
        double bestScore = 0;
        unsigned errors = 0;
        s.matched.clear();
        for (std::size_t a = 0; a < m_active.size(); ++a) {
            const std::uint32_t k = m_active[a];
            const CompiledRule& r = m_rs.rules[k];
            const std::uint8_t fast = m_batches[a] ? s.results[a * cel::kBatchRows + i] : cel::kBatchDefer;
            cel::Value v = cel::Value::boolean(fast == cel::kBatchTrue);
            if (fast == cel::kBatchDefer) {
                if (!gathered) {
                    for (const Gather& g : m_gather)
                        s.slots[g.slot] = g.column[row];
                    gathered = true;
                }
                v = r.program->eval(s.activation, s.ctx);
            }
            ++L.conditions;
            if (v.isTrue()) {
                ++L.hits[k];
                if (best < 0) {
                    best = static_cast<std::int32_t>(k);
                    bestScore = r.score;
                    if (m_stopAtFirst)
                        break;
                } else if (!m_firstMatch && r.score > bestScore) {
                    best = static_cast<std::int32_t>(k);
                    bestScore = r.score;
                }
                if (m_options.allRules)
                    s.matched.push_back(k);
            } else if (!v.isBool()) {
                ++errors;
                ++L.errors[k];
                if (L.firstErrorRow[k] < 0) {
                    L.firstErrorRow[k] = static_cast<std::int64_t>(row);
                    L.firstError[k] = v.isError() ? r.program->errorMessage(v) : notBoolMessage(v);
                }
            }
        }
        RecordOutcome& o = m_records[row];
        o.errors = static_cast<std::uint16_t>(std::min(errors, 65535u));
        record(L, best, o);
        if (best >= 0) {
            for (const std::uint32_t k : s.matched) {
                if (k != static_cast<std::uint32_t>(best))
                    L.shadowedBy.add(k, static_cast<std::size_t>(best));
            }
        }
        if (errors)
            ++L.recordsWithErrors;
    }

    // The record's outcome: the deciding rule's decision and score, or the rule set's default.
    void record(ThreadTotals& L, std::int32_t best, RecordOutcome& o) const
    {
        o.rule = best;
        if (best >= 0) {
            const CompiledRule& r = m_rs.rules[static_cast<std::size_t>(best)];
            o.decision = r.decision;
            o.score = r.score;
            ++L.decided[static_cast<std::size_t>(best)];
        } else {
            o.decision = m_rs.defaultDecision;
            o.score = m_rs.defaultScore;
        }
        ++L.decisionCounts[o.decision];
    }

    const CompiledRuleSet& m_rs;
    const EvalOptions& m_options;
    RecordOutcome* const m_records;
    const std::size_t m_rows;
    const std::vector<Gather> m_gather;
    const bool m_firstMatch;
    const bool m_stopAtFirst;
    const std::size_t m_chunk;
    std::vector<std::uint32_t> m_active; // the enabled rules that compiled, in order
    std::vector<std::optional<cel::BatchProgram>> m_batches; // by active rule
    std::vector<const cel::Value*> m_columnsBySlot;
    bool m_allBatched = false;
    std::atomic<std::size_t> m_next{0};
    std::atomic<std::size_t> m_done{0};
    std::atomic<bool> m_cancelled{false};
};

// The threads' counters added up into the evaluation's.
void addUp(const std::vector<ThreadTotals>& totals, std::size_t ruleCount, std::size_t decisions, Evaluation& out)
{
    out.rules.resize(ruleCount);
    out.decisionCounts.assign(decisions, 0);
    for (std::size_t k = 0; k < ruleCount; ++k) {
        RuleStats& s = out.rules[k];
        for (const ThreadTotals& L : totals) {
            s.hits += L.hits[k];
            s.decided += L.decided[k];
            s.errors += L.errors[k];
            if (L.firstErrorRow[k] >= 0 && (s.firstErrorRow < 0 || L.firstErrorRow[k] < s.firstErrorRow)) {
                s.firstErrorRow = L.firstErrorRow[k];
                s.firstError = L.firstError[k];
            }
        }
    }
    for (const ThreadTotals& L : totals) {
        L.shadowedBy.addTo(out.rules);
        for (std::size_t d = 0; d < out.decisionCounts.size(); ++d)
            out.decisionCounts[d] += L.decisionCounts[d];
        out.recordsWithErrors += L.recordsWithErrors;
        out.conditionsEvaluated += L.conditions;
    }
}

} // namespace

Result<Evaluation> evaluate(const CompiledRuleSet& rs, const Dataset& data, const EvalOptions& options)
{
    if (auto ok = checkCompiledFor(rs, data); !ok)
        return std::unexpected(ok.error());
    const auto started = std::chrono::steady_clock::now();
    const std::size_t n = data.rowCount();

    Evaluation out;
    // Left unwritten here (RowsAllocator): every row is written by the thread that evaluates it.
    static_assert(std::is_aggregate_v<RecordOutcome> && std::is_trivially_destructible_v<RecordOutcome>);
    out.records.resize(n);
    Evaluator evaluator(rs, data, options, out);
    unsigned threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    threads = std::min(threads, 64u);
    if (n < 2 * evaluator.chunk())
        threads = 1;
    out.threads = threads;

    std::vector<ThreadTotals> totals;
    totals.reserve(threads);
    for (unsigned t = 0; t < threads; ++t)
        totals.emplace_back(rs.rules.size(), rs.decisions.size(), options.allRules);
    // On the other cores at once: this thread works too, and a new thread would wait behind it (threads.h).
    std::vector<std::thread> pool;
    for (unsigned t = 1; t < threads; ++t)
        pool.push_back(startThreadElsewhere([&evaluator, &totals, t] { evaluator.work(totals[t], false); }));
    evaluator.work(totals[0], true);
    for (auto& t : pool)
        t.join();
    if (evaluator.cancelled())
        return fail("evaluation cancelled");

    addUp(totals, rs.rules.size(), rs.decisions.size(), out);
    for (RuleStats& s : out.rules) {
        if (s.firstErrorRow >= 0)
            s.firstErrorRecord = data.recordId(static_cast<std::size_t>(s.firstErrorRow));
    }
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return out;
}

Result<void> addEvaluation(Evaluation& into, const Evaluation& next)
{
    if (into.rules.size() != next.rules.size() || into.decisionCounts.size() != next.decisionCounts.size())
        return fail("the evaluations are not of the same rule set");
    for (std::size_t k = 0; k < into.rules.size(); ++k) {
        RuleStats& s = into.rules[k];
        const RuleStats& t = next.rules[k];
        if (s.errors == 0 && t.errors > 0) {
            s.firstError = t.firstError;
            s.firstErrorRecord = t.firstErrorRecord;
            s.firstErrorRow = -1; // a row of another part's data
        }
        s.hits += t.hits;
        s.decided += t.decided;
        s.errors += t.errors;
        for (const auto& [by, count] : t.shadowedBy)
            s.shadowedBy[by] += count;
    }
    for (std::size_t d = 0; d < into.decisionCounts.size(); ++d)
        into.decisionCounts[d] += next.decisionCounts[d];
    into.recordsWithErrors += next.recordsWithErrors;
    into.conditionsEvaluated += next.conditionsEvaluated;
    into.seconds = std::max(into.seconds, next.seconds);
    into.threads = std::max(into.threads, next.threads);
    into.records.clear();
    return {};
}

std::vector<Diagnostic> dataDiagnostics(const CompiledRuleSet& rs, const Evaluation& ev, const Dataset& data)
{
    std::vector<Diagnostic> out;
    for (std::size_t k = 0; k < rs.rules.size() && k < ev.rules.size(); ++k) {
        const CompiledRule& cr = rs.rules[k];
        const Rule& rule = rs.rule(k);
        const RuleStats& s = ev.rules[k];
        if (!cr.enabled)
            continue;
        if (s.hits > 0 && s.decided == 0) {
            std::string by;
            // The first of the rules that decided most of its records.
            const auto most = std::max_element(s.shadowedBy.begin(), s.shadowedBy.end(),
                                               [](const auto& a, const auto& b) { return a.second < b.second; });
            if (most != s.shadowedBy.end()) {
                const Rule& other = rs.rule(most->first);
                by = fmt::format(" (most often by '{}', line {})", other.id, other.pos.line);
            }
            const std::string message =
                rs.strategy == Strategy::FirstMatch
                    ? fmt::format("rule '{}' is fully shadowed on {}: each of the {} records it matches was "
                                  "already matched by an earlier rule{}",
                                  rule.id, data.source(), s.hits, by)
                    : fmt::format("rule '{}' never decides on {}: on each of the {} records it matches, a rule with "
                                  "a higher score (or an earlier one with the same) wins{}",
                                  rule.id, data.source(), s.hits, by);
            out.push_back(Diagnostic{Severity::Warning, rule.pos, message, rule.id, "shadowed"});
        }
        if (s.errors > 0) {
            out.push_back(Diagnostic{
                Severity::Warning, rule.whenPos,
                fmt::format("rule '{}' failed on {} of {} records of {} (counted as not matching); first at record "
                            "{}: {}",
                            rule.id, s.errors, data.rowCount(), data.source(),
                            data.recordId(static_cast<std::size_t>(s.firstErrorRow)), s.firstError),
                rule.id, "eval_error"});
        }
    }
    return out;
}

// ---- Impact -----------------------------------------------------------------------------------------------

namespace {

char lowerAscii(char c)
{
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

std::optional<bool> labelOf(const cel::Value& v)
{
    switch (v.kind()) {
    case cel::Kind::Bool: return v.asBool();
    case cel::Kind::Int: return v.asInt() != 0;
    case cel::Kind::Uint: return v.asUint() != 0;
    case cel::Kind::Double: return v.asDouble() != 0;
    case cel::Kind::String: {
        std::string s(v.asString());
        std::transform(s.begin(), s.end(), s.begin(), lowerAscii);
        for (const char* t : {"1", "true", "yes", "y", "t", "fraud", "positive", "bad"}) {
            if (s == t)
                return true;
        }
        for (const char* f : {"0", "false", "no", "n", "f", "legit", "negative", "good"}) {
            if (s == f)
                return false;
        }
        return std::nullopt;
    }
    default: return std::nullopt;
    }
}

double amountOf(const cel::Value& v)
{
    switch (v.kind()) {
    case cel::Kind::Int: return static_cast<double>(v.asInt());
    case cel::Kind::Uint: return static_cast<double>(v.asUint());
    case cel::Kind::Double: return std::isfinite(v.asDouble()) ? v.asDouble() : 0.0;
    default: return 0;
    }
}

std::string columnList(const Dataset& data)
{
    std::string list;
    for (const auto& f : data.schema().fields)
        list += (list.empty() ? "" : ", ") + f.name;
    return list;
}

Result<int> findColumn(const Dataset& data, const std::string& name, std::string_view what)
{
    const int c = data.schema().find(name);
    if (c < 0)
        return fail(
            fmt::format("{}: no column '{}' for the {} (columns: {})", data.source(), name, what, columnList(data)));
    return c;
}

void finishFigures(LabelFigures& f, std::int64_t positives, std::int64_t negatives)
{
    f.fn = positives - f.tp;
    f.tn = negatives - f.fp;
    if (f.tp + f.fp > 0)
        f.precision = static_cast<double>(f.tp) / static_cast<double>(f.tp + f.fp);
    if (positives > 0)
        f.recall = static_cast<double>(f.tp) / static_cast<double>(positives);
    if (negatives > 0)
        f.fpr = static_cast<double>(f.fp) / static_cast<double>(negatives);
}

struct LabelColumns {
    const cel::Value* label = nullptr;
    const cel::Value* amount = nullptr;
};

Result<LabelColumns> labelColumns(const Dataset& data, const ImpactOptions& options)
{
    LabelColumns out;
    if (options.labelColumn.empty()) {
        if (!options.amountColumn.empty())
            return fail("--amount-column needs --label-column: amounts are counted as caught or hurt by the label");
        return out;
    }
    auto label = findColumn(data, options.labelColumn, "label");
    if (!label)
        return std::unexpected(label.error());
    out.label = data.column(static_cast<std::size_t>(*label)).data();
    if (!options.amountColumn.empty()) {
        auto amount = findColumn(data, options.amountColumn, "amount");
        if (!amount)
            return std::unexpected(amount.error());
        const FieldType t = data.schema().fields[static_cast<std::size_t>(*amount)].type;
        if (t != FieldType::Int && t != FieldType::Double)
            return fail(fmt::format("{}: the amount column '{}' is {}, not a number", data.source(),
                                    options.amountColumn, toString(t)));
        out.amount = data.column(static_cast<std::size_t>(*amount)).data();
    }
    return out;
}

nlohmann::ordered_json number(double v)
{
    if (std::trunc(v) == v && std::fabs(v) < 9007199254740992.0)
        return static_cast<std::int64_t>(v);
    return v;
}

nlohmann::ordered_json optionalNumber(const std::optional<double>& v)
{
    return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json figuresToJson(const LabelFigures& f, bool amounts)
{
    nlohmann::ordered_json j = {{"tp", f.tp},
                                {"fp", f.fp},
                                {"fn", f.fn},
                                {"tn", f.tn},
                                {"precision", optionalNumber(f.precision)},
                                {"recall", optionalNumber(f.recall)},
                                {"fpr", optionalNumber(f.fpr)}};
    if (amounts) {
        j["amount_caught"] = number(std::round(f.amountCaught * 100) / 100);
        j["amount_hurt"] = number(std::round(f.amountHurt * 100) / 100);
    }
    return j;
}

std::optional<double> difference(const std::optional<double>& a, const std::optional<double>& b)
{
    if (!a || !b)
        return std::nullopt;
    return *b - *a;
}

nlohmann::ordered_json deltaToJson(const LabelFigures& a, const LabelFigures& b, bool amounts)
{
    nlohmann::ordered_json j = {{"tp", b.tp - a.tp},
                                {"fp", b.fp - a.fp},
                                {"fn", b.fn - a.fn},
                                {"tn", b.tn - a.tn},
                                {"precision", optionalNumber(difference(a.precision, b.precision))},
                                {"recall", optionalNumber(difference(a.recall, b.recall))},
                                {"fpr", optionalNumber(difference(a.fpr, b.fpr))}};
    if (amounts) {
        j["amount_caught"] = number(std::round((b.amountCaught - a.amountCaught) * 100) / 100);
        j["amount_hurt"] = number(std::round((b.amountHurt - a.amountHurt) * 100) / 100);
    }
    return j;
}

nlohmann::ordered_json ruleOf(const CompiledRuleSet& rs, const RecordOutcome& o)
{
    if (o.rule < 0)
        return nullptr;
    return rs.rule(static_cast<std::size_t>(o.rule)).id;
}

} // namespace

Result<ImpactTally> tallyImpact(const CompiledRuleSet& base, const Evaluation& be, const CompiledRuleSet& cand,
                                const Evaluation& ce, const Dataset& data, const ImpactOptions& options)
{
    const std::size_t n = data.rowCount();
    if (be.records.size() != n || ce.records.size() != n)
        return fail("the evaluations are not of the same data");
    auto columns = labelColumns(data, options);
    if (!columns)
        return std::unexpected(columns.error());

    ImpactTally out;
    // Decisions of both rule sets in one list: the baseline's, then the candidate's new ones.
    out.decisions = base.decisions;
    std::vector<std::size_t> candToUnion(cand.decisions.size());
    for (std::size_t d = 0; d < cand.decisions.size(); ++d) {
        const auto it = std::find(out.decisions.begin(), out.decisions.end(), cand.decisions[d]);
        candToUnion[d] = static_cast<std::size_t>(it - out.decisions.begin());
        if (it == out.decisions.end())
            out.decisions.push_back(cand.decisions[d]);
    }
    const std::size_t names = out.decisions.size();
    const std::size_t notFlagged = base.defaultDecision; // its index in `decisions` too
    out.total = static_cast<std::int64_t>(n);
    out.maxChanged = options.maxChanged;
    out.hasLabels = columns->label != nullptr;
    out.hasAmounts = columns->amount != nullptr;
    if (out.hasLabels) {
        out.labelColumn = options.labelColumn;
        out.amountColumn = options.amountColumn;
    }
    for (auto& side : out.sides) {
        side.pos.assign(names, 0);
        side.neg.assign(names, 0);
        side.posAmount.assign(out.hasAmounts ? names : 0, ExactSum());
        side.negAmount.assign(out.hasAmounts ? names : 0, ExactSum());
    }
    ImpactTally::Side& sb = out.sides[0];
    ImpactTally::Side& sc = out.sides[1];
    for (std::size_t row = 0; row < n; ++row) {
        const RecordOutcome& b = be.records[row];
        const RecordOutcome& c = ce.records[row];
        const std::size_t ub = b.decision;
        const std::size_t uc = candToUnion[c.decision];
        if (ub != uc) {
            ++out.affected;
            out.changedRows.push_back(row);
            if (options.maxChanged == 0 || out.changed.size() < options.maxChanged)
                out.changed.push_back({data.recordId(row), b, c});
            ++out.transitions[{ub, uc}];
        } else if (b.score != c.score) {
            ++out.scoreChanged;
        }
        if (!columns->label)
            continue;
        const auto label = labelOf(columns->label[row]);
        if (!label) {
            ++out.unlabeled;
            continue;
        }
        const bool flaggedB = ub != notFlagged, flaggedC = uc != notFlagged;
        if (*label) {
            ++out.positives;
            ++sb.pos[ub];
            ++sc.pos[uc];
            sb.flaggedPos += flaggedB;
            sc.flaggedPos += flaggedC;
        } else {
            ++out.negatives;
            ++sb.neg[ub];
            ++sc.neg[uc];
            sb.flaggedNeg += flaggedB;
            sc.flaggedNeg += flaggedC;
        }
        if (columns->amount) {
            const double amount = amountOf(columns->amount[row]);
            auto& b1 = *label ? sb.posAmount : sb.negAmount;
            auto& c1 = *label ? sc.posAmount : sc.negAmount;
            b1[ub].add(amount);
            c1[uc].add(amount);
            if (flaggedB)
                (*label ? sb.flaggedPosAmount : sb.flaggedNegAmount).add(amount);
            if (flaggedC)
                (*label ? sc.flaggedPosAmount : sc.flaggedNegAmount).add(amount);
        }
    }
    return out;
}

Result<void> ImpactTally::add(const ImpactTally& next)
{
    if (next.decisions != decisions || next.hasLabels != hasLabels || next.hasAmounts != hasAmounts
        || next.maxChanged != maxChanged)
        return fail("the impacts are not of the same rule sets and options");
    total += next.total;
    affected += next.affected;
    scoreChanged += next.scoreChanged;
    for (const auto& [pair, count] : next.transitions)
        transitions[pair] += count;
    for (const ChangedRecord& c : next.changed) {
        if (maxChanged != 0 && changed.size() >= maxChanged)
            break;
        changed.push_back(c);
    }
    changedRows.clear();
    positives += next.positives;
    negatives += next.negatives;
    unlabeled += next.unlabeled;
    for (int s = 0; s < 2; ++s) {
        Side& a = sides[s];
        const Side& b = next.sides[s];
        if (a.pos.size() != b.pos.size() || a.posAmount.size() != b.posAmount.size())
            return fail("the impacts are not of the same rule sets and options");
        for (std::size_t d = 0; d < a.pos.size(); ++d) {
            a.pos[d] += b.pos[d];
            a.neg[d] += b.neg[d];
        }
        for (std::size_t d = 0; d < a.posAmount.size(); ++d) {
            a.posAmount[d].add(b.posAmount[d]);
            a.negAmount[d].add(b.negAmount[d]);
        }
        a.flaggedPos += b.flaggedPos;
        a.flaggedNeg += b.flaggedNeg;
        a.flaggedPosAmount.add(b.flaggedPosAmount);
        a.flaggedNegAmount.add(b.flaggedNegAmount);
    }
    return {};
}

Impact finishImpact(const ImpactTally& tally, const CompiledRuleSet& base, const Evaluation& be,
                    const CompiledRuleSet& cand, const Evaluation& ce)
{
    Impact out;
    out.total = tally.total;
    out.affected = tally.affected;
    out.scoreChanged = tally.scoreChanged;
    out.changedRows = tally.changedRows;
    out.changed = tally.changed;
    out.impactRate = out.total ? static_cast<double>(out.affected) / static_cast<double>(out.total) : 0.0;
    for (std::size_t d = 0; d < base.decisions.size(); ++d) {
        if (be.decisionCounts[d] > 0)
            out.baselineDistribution.emplace_back(base.decisions[d], be.decisionCounts[d]);
    }
    for (std::size_t d = 0; d < cand.decisions.size(); ++d) {
        if (ce.decisionCounts[d] > 0)
            out.candidateDistribution.emplace_back(cand.decisions[d], ce.decisionCounts[d]);
    }
    for (const auto& [pair, count] : tally.transitions)
        out.transitions.push_back({{tally.decisions[pair.first], tally.decisions[pair.second]}, count});
    std::stable_sort(out.transitions.begin(), out.transitions.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    if (!tally.hasLabels)
        return out;

    out.hasLabels = true;
    out.hasAmounts = tally.hasAmounts;
    out.labelColumn = tally.labelColumn;
    out.amountColumn = tally.amountColumn;
    out.positives = tally.positives;
    out.negatives = tally.negatives;
    out.unlabeled = tally.unlabeled;
    for (std::size_t d = 0; d < tally.decisions.size(); ++d) {
        DecisionLabels dl;
        dl.decision = tally.decisions[d];
        LabelFigures* figures[2] = {&dl.baseline, &dl.candidate};
        for (int s = 0; s < 2; ++s) {
            const ImpactTally::Side& side = tally.sides[s];
            figures[s]->tp = side.pos[d];
            figures[s]->fp = side.neg[d];
            if (tally.hasAmounts) {
                figures[s]->amountCaught = side.posAmount[d].value();
                figures[s]->amountHurt = side.negAmount[d].value();
            }
            finishFigures(*figures[s], out.positives, out.negatives);
        }
        out.labels.push_back(std::move(dl));
    }
    std::optional<LabelFigures>* flagged[2] = {&out.baselineFlagged, &out.candidateFlagged};
    for (int s = 0; s < 2; ++s) {
        const ImpactTally::Side& side = tally.sides[s];
        LabelFigures f;
        f.tp = side.flaggedPos;
        f.fp = side.flaggedNeg;
        f.amountCaught = side.flaggedPosAmount.value();
        f.amountHurt = side.flaggedNegAmount.value();
        finishFigures(f, out.positives, out.negatives);
        *flagged[s] = f;
    }
    return out;
}

Result<Impact> computeImpact(const CompiledRuleSet& base, const Evaluation& be, const CompiledRuleSet& cand,
                             const Evaluation& ce, const Dataset& data, const ImpactOptions& options)
{
    auto tally = tallyImpact(base, be, cand, ce, data, options);
    if (!tally)
        return std::unexpected(tally.error());
    return finishImpact(*tally, base, be, cand, ce);
}

nlohmann::ordered_json impactToJson(const Impact& impact, const CompiledRuleSet& base, const CompiledRuleSet& cand)
{
    using Json = nlohmann::ordered_json;
    Json baseline = Json::object(), candidate = Json::object();
    for (const auto& [d, count] : impact.baselineDistribution)
        baseline[d] = count;
    for (const auto& [d, count] : impact.candidateDistribution)
        candidate[d] = count;
    Json transitions = Json::array();
    for (const auto& [pair, count] : impact.transitions)
        transitions.push_back({{"from", pair.first}, {"to", pair.second}, {"count", count}});
    Json changed = Json::array();
    for (const ChangedRecord& c : impact.changed) {
        changed.push_back({{"record_id", c.recordId},
                           {"old_decision", base.decisions[c.before.decision]},
                           {"new_decision", cand.decisions[c.after.decision]},
                           {"old_score", number(c.before.score)},
                           {"new_score", number(c.after.score)},
                           {"old_rule", ruleOf(base, c.before)},
                           {"new_rule", ruleOf(cand, c.after)}});
    }
    Json j = {{"total", impact.total},
              {"affected", impact.affected},
              {"impact_rate", impact.impactRate},
              {"score_changed", impact.scoreChanged},
              {"distribution", {{"baseline", baseline}, {"candidate", candidate}}},
              {"transitions", transitions},
              {"changed", changed},
              {"changed_truncated", static_cast<std::int64_t>(impact.changed.size()) < impact.affected}};
    if (impact.hasLabels) {
        Json decisions = Json::object();
        for (const auto& dl : impact.labels)
            decisions[dl.decision] = {{"baseline", figuresToJson(dl.baseline, impact.hasAmounts)},
                                      {"candidate", figuresToJson(dl.candidate, impact.hasAmounts)},
                                      {"delta", deltaToJson(dl.baseline, dl.candidate, impact.hasAmounts)}};
        j["labels"] = {{"label_column", impact.labelColumn},
                       {"amount_column", impact.hasAmounts ? Json(impact.amountColumn) : Json(nullptr)},
                       {"positives", impact.positives},
                       {"negatives", impact.negatives},
                       {"unlabeled", impact.unlabeled},
                       {"decisions", decisions}};
    }
    return j;
}

LabelFigures flaggedFigures(const CompiledRuleSet& rs, const Evaluation& ev, const Dataset& data,
                            const ImpactOptions& options, std::string_view notFlagged)
{
    LabelFigures f;
    auto columns = labelColumns(data, options);
    if (!columns || !columns->label)
        return f;
    const int pass = rs.findDecision(notFlagged);
    std::int64_t positives = 0, negatives = 0;
    ExactSum caught, hurt;
    for (std::size_t row = 0; row < ev.records.size(); ++row) {
        const auto label = labelOf(columns->label[row]);
        if (!label)
            continue;
        const bool flagged = static_cast<int>(ev.records[row].decision) != pass;
        const double amount = columns->amount ? amountOf(columns->amount[row]) : 0.0;
        if (*label) {
            ++positives;
            if (flagged) {
                ++f.tp;
                caught.add(amount);
            }
        } else {
            ++negatives;
            if (flagged) {
                ++f.fp;
                hurt.add(amount);
            }
        }
    }
    f.amountCaught = caught.value();
    f.amountHurt = hurt.value();
    finishFigures(f, positives, negatives);
    return f;
}

std::vector<std::size_t> rankVariants(const std::vector<VariantSummary>& variants, bool byLabels)
{
    std::vector<std::size_t> order(variants.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        const VariantSummary& x = variants[a];
        const VariantSummary& y = variants[b];
        if (byLabels) {
            const double fx = x.f1.value_or(-1), fy = y.f1.value_or(-1);
            if (fx != fy)
                return fx > fy;
        }
        return x.impactRate < y.impactRate;
    });
    return order;
}

// ---- Explanations -----------------------------------------------------------------------------------------

namespace {

struct TraceIndex {
    std::unordered_map<std::int32_t, cel::Value> values; // the first value each node had
};

class Explainer {
public:
    Explainer(const RuleSet& rs, const Rule& rule, const cel::Program& program, const TraceIndex& trace)
        : m_rs(rs), m_rule(rule), m_ast(program.ast()), m_trace(trace)
    {
    }

    void explain(std::int32_t node, std::vector<ExplainStep>& out)
    {
        const cel::Node& n = m_ast.node(node);
        const auto value = find(node);
        if (!value)
            return;
        if (n.kind == cel::NodeKind::Call && (n.name == "_&&_" || n.name == "_||_") && n.args.size() == 2) {
            const bool isAnd = n.name == "_&&_";
            const auto l = find(n.args[0]);
            const auto r = find(n.args[1]);
            if (value->isBool() && value->asBool() == !isAnd) {
                // Decided by one side: the first that had the deciding value.
                if (l && l->isBool() && l->asBool() == !isAnd)
                    explain(n.args[0], out);
                else if (r)
                    explain(n.args[1], out);
                return;
            }
            if (value->isBool()) {
                // Both sides were needed.
                explain(n.args[0], out);
                explain(n.args[1], out);
                return;
            }
            // An error: the side(s) that were errors.
            if (l && !l->isBool())
                explain(n.args[0], out);
            if (r && !r->isBool())
                explain(n.args[1], out);
            return;
        }
        ExplainStep step;
        step.expression = std::string(m_ast.text(node));
        step.value = cel::toJson(*value);
        step.text = cel::toDebugString(*value);
        step.pos = m_rs.positionInWhen(m_rule, n.begin);
        auto operand = [&](std::int32_t child) {
            if (child < 0 || m_ast.node(child).kind == cel::NodeKind::Literal
                || m_ast.node(child).kind == cel::NodeKind::List)
                return;
            if (const auto v = find(child))
                step.operands.emplace_back(std::string(m_ast.text(child)), cel::toDebugString(*v));
        };
        if (n.kind == cel::NodeKind::Call) {
            operand(n.target);
            for (auto a : n.args)
                operand(a);
        } else if (n.kind == cel::NodeKind::Select) {
            // a dotted field read: the value is the step itself
        }
        out.push_back(std::move(step));
    }

private:
    std::optional<cel::Value> find(std::int32_t node) const
    {
        const auto it = m_trace.values.find(node);
        if (it == m_trace.values.end())
            return std::nullopt;
        return it->second;
    }

    const RuleSet& m_rs;
    const Rule& m_rule;
    const cel::Ast& m_ast;
    const TraceIndex& m_trace;
};

} // namespace

Result<Explanation> explainRecord(const CompiledRuleSet& rs, const Dataset& data, std::size_t row)
{
    if (auto ok = checkCompiledFor(rs, data); !ok)
        return std::unexpected(ok.error());
    if (row >= data.rowCount())
        return fail(fmt::format("{}: no record {}", data.source(), row + 1));
    Explanation out;
    out.row = row;
    out.recordId = data.recordId(row);
    out.line = data.sourceLine(row);

    std::vector<cel::Value> slots(rs.columnSlots);
    for (const Gather& g : gatherFor(rs, data, true))
        slots[g.slot] = g.column[row];
    for (const int c : rs.referencedColumns) {
        const auto& field = data.schema().fields[static_cast<std::size_t>(c)];
        const cel::Value& v = data.value(row, static_cast<std::size_t>(c));
        out.fields.emplace_back(field.name, v.isError() ? std::string("(missing)") : cel::toDebugString(v));
    }
    const cel::Activation activation{slots};
    cel::EvalContext ctx;
    cel::Trace trace;
    std::int32_t best = -1;
    double bestScore = 0;
    unsigned errors = 0;
    for (std::size_t k = 0; k < rs.rules.size(); ++k) {
        const CompiledRule& cr = rs.rules[k];
        const Rule& rule = rs.rule(k);
        RuleExplanation re;
        re.rule = k;
        re.enabled = cr.enabled;
        if (!cr.enabled || !cr.program) {
            out.rules.push_back(std::move(re));
            continue;
        }
        const cel::Value v = cr.program->evalTraced(activation, ctx, trace);
        re.result = cel::toDebugString(v);
        if (v.isBool()) {
            re.matched = v.asBool();
        } else {
            ++errors;
            re.error = v.isError() ? cr.program->errorMessage(v) : notBoolMessage(v);
        }
        TraceIndex index;
        for (const cel::TraceStep& s : trace.steps)
            index.values.emplace(s.node, s.value);
        Explainer explainer(*rs.source, rule, *cr.program, index);
        explainer.explain(cr.program->ast().root, re.steps);
        std::stable_sort(re.steps.begin(), re.steps.end(), [](const ExplainStep& a, const ExplainStep& b) {
            return a.pos.line != b.pos.line ? a.pos.line < b.pos.line : a.pos.column < b.pos.column;
        });
        if (re.matched.value_or(false)) {
            if (best < 0 || (rs.strategy == Strategy::MaxScore && cr.score > bestScore)) {
                best = static_cast<std::int32_t>(k);
                bestScore = cr.score;
            }
        }
        out.rules.push_back(std::move(re));
    }
    out.outcome.rule = best;
    out.outcome.errors = static_cast<std::uint16_t>(std::min(errors, 65535u));
    if (best >= 0) {
        out.outcome.decision = rs.rules[static_cast<std::size_t>(best)].decision;
        out.outcome.score = rs.rules[static_cast<std::size_t>(best)].score;
        out.rules[static_cast<std::size_t>(best)].decided = true;
    } else {
        out.outcome.decision = rs.defaultDecision;
        out.outcome.score = rs.defaultScore;
    }
    return out;
}

} // namespace sb::rules
