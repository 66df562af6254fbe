// sandbench rules check | eval | impact | ab | explain: rule sets against data — problems with line:column,
// decisions and hit counts, what a candidate would change (and with labels, what it would catch and whom it
// would hurt), A/B variants ranked, and why one record got its decision.

#include "commands.h"

#include "report.h"
#include "rules_support.h"

#include "usecases/rule_comparison.h"
#include "usecases/sharded_rules.h"
#include "usecases/streamed_rules.h"

#include "cel/json.h"
#include "util/printable.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <iostream>

namespace sb::cli {

namespace {

namespace rules = sb::rules;
namespace cel = sb::cel;

// An input error: on stderr (and as JSON on stdout with --json), exit status 1.
int inputError(const RulesOptions& o, const std::string& message)
{
    if (o.json)
        std::cout << dumpJson({{"ok", false}, {"error", message}}) << '\n';
    std::cerr << "sandbench: " << message << '\n';
    return kExitFailure;
}

std::string percent(double ratio)
{
    return fmt::format("{:.2f} %", ratio * 100.0);
}

std::string plural(std::int64_t n, std::string_view one, std::string_view many)
{
    return fmt::format("{} {}", n, n == 1 ? one : many);
}

rules::EvalOptions evalOptions(const RulesOptions& o, bool allRules)
{
    rules::EvalOptions e;
    e.allRules = allRules;
    e.threads = o.threads;
    return e;
}

// Only what concerns the data (a declared field it lacks): the rest is for `rules check`.
void printWarnings(const std::vector<rules::Diagnostic>& warnings, const std::string& file)
{
    for (const auto& w : warnings) {
        if (w.code == "data")
            std::cerr << printable(w.format(file)) << '\n';
    }
}

OrderedJson evaluationJson(const rules::CompiledRuleSet& rs, const rules::Evaluation& ev, std::size_t rows)
{
    OrderedJson distribution = OrderedJson::object();
    for (std::size_t d = 0; d < rs.decisions.size(); ++d) {
        if (ev.decisionCounts[d] > 0)
            distribution[rs.decisions[d]] = ev.decisionCounts[d];
    }
    OrderedJson perRule = OrderedJson::array();
    std::int64_t conditionErrors = 0;
    OrderedJson errorsByRule = OrderedJson::object();
    for (std::size_t k = 0; k < rs.rules.size(); ++k) {
        const rules::Rule& rule = rs.rule(k);
        const rules::RuleStats& s = ev.rules[k];
        conditionErrors += s.errors;
        OrderedJson entry = {{"id", rule.id},
                             {"decision", rule.decision},
                             {"score", scoreJson(rule.score)},
                             {"enabled", rule.enabled},
                             {"hits", s.hits},
                             {"decided", s.decided},
                             {"errors", s.errors}};
        if (s.errors > 0) {
            entry["first_error"] = {{"record_id", s.firstErrorRecord}, {"message", s.firstError}};
            errorsByRule[rule.id] = s.errors;
        }
        perRule.push_back(std::move(entry));
    }
    const double rate = ev.seconds > 0 ? static_cast<double>(ev.conditionsEvaluated) / ev.seconds : 0.0;
    return {{"total", rows},
            {"distribution", distribution},
            {"rules", perRule},
            {"errors", {{"records", ev.recordsWithErrors}, {"conditions", conditionErrors}, {"by_rule", errorsByRule}}},
            {"timing",
             {{"seconds", ev.seconds},
              {"threads", ev.threads},
              {"conditions_evaluated", ev.conditionsEvaluated},
              {"records_x_rules_per_second", std::round(rate)}}}};
}

// ---- check ------------------------------------------------------------------------------------------------

int checkCommand(const RulesOptions& o)
{
    auto parsed = rules::loadRuleSetFile(o.file);
    if (!parsed) {
        if (o.json)
            std::cout << dumpJson({{"file", o.file},
                                   {"ok", false},
                                   {"errors", OrderedJson::array({{{"message", parsed.error().message}}})},
                                   {"warnings", OrderedJson::array()}})
                      << '\n';
        std::cerr << "sandbench: " << printable(parsed.error().message) << '\n';
        return kExitFailure;
    }
    std::vector<rules::Diagnostic> diagnostics = parsed->diagnostics;
    std::optional<LoadedData> data;
    std::optional<rules::CompiledRuleSet> compiled;
    std::optional<rules::Evaluation> evaluation;
    if (!parsed->hasErrors()) {
        if (!o.data.data.empty()) {
            LoadedRuleSet view; // declaredFields reads the rule set through a LoadedRuleSet
            view.path = o.file;
            view.parsed = std::make_unique<rules::ParsedRuleSet>(*parsed);
            auto declared = declaredFields({&view}, o.data.fields);
            if (!declared)
                return inputError(o, declared.error().message);
            auto loaded = loadData(o.data, *declared);
            if (!loaded)
                return inputError(o, loaded.error().message);
            data = std::move(*loaded);
            reportBadRows(*data);
        }
        auto result = rules::compileRuleSet(parsed->ruleSet, data ? &data->data.schema() : nullptr);
        diagnostics.insert(diagnostics.end(), result.diagnostics.begin(), result.diagnostics.end());
        compiled = std::move(result.compiled);
        if (compiled && data) {
            auto ev = rules::evaluate(*compiled, data->data, evalOptions(o, true));
            if (!ev)
                return inputError(o, ev.error().message);
            evaluation = std::move(*ev);
            const auto more = rules::dataDiagnostics(*compiled, *evaluation, data->data);
            diagnostics.insert(diagnostics.end(), more.begin(), more.end());
        }
    }
    rules::sortDiagnostics(diagnostics);
    const auto counts = rules::countDiagnostics(diagnostics);
    const rules::RuleSet& rs = parsed->ruleSet;

    if (o.json) {
        OrderedJson errors = OrderedJson::array(), warnings = OrderedJson::array();
        for (const auto& d : diagnostics)
            (d.severity == rules::Severity::Error ? errors : warnings).push_back(diagnosticToJson(d, o.file));
        OrderedJson out = {{"file", o.file},
                           {"ok", counts.errors == 0},
                           {"errors", errors},
                           {"warnings", warnings},
                           {"ruleset",
                            {{"name", rs.name},
                             {"version", rs.version},
                             {"strategy", rules::toString(rs.strategy)},
                             {"rules", rs.rules.size()},
                             {"decisions", compiled ? OrderedJson(compiled->decisions) : OrderedJson(nullptr)}}}};
        if (data)
            out["data"] = dataToJson(*data);
        if (evaluation) {
            OrderedJson coverage = OrderedJson::array();
            for (std::size_t k = 0; k < compiled->rules.size(); ++k)
                coverage.push_back({{"rule", compiled->rule(k).id},
                                    {"hits", evaluation->rules[k].hits},
                                    {"decided", evaluation->rules[k].decided},
                                    {"errors", evaluation->rules[k].errors}});
            out["coverage"] = coverage;
        }
        std::cout << dumpOrderedJson(out) << '\n';
        return counts.errors ? kExitFailure : 0;
    }

    for (const auto& d : diagnostics)
        std::cout << printable(d.format(o.file)) << '\n';
    if (evaluation) {
        std::cout << fmt::format("\ncoverage on {} ({}):\n", printable(data->data.source()),
                                 plural(static_cast<std::int64_t>(data->data.rowCount()), "record", "records"));
        std::cout << fmt::format("  {:<32} {:>9} {:>9} {:>8}\n", "rule", "matched", "decided", "errors");
        for (std::size_t k = 0; k < compiled->rules.size(); ++k) {
            const auto& s = evaluation->rules[k];
            std::cout << fmt::format("  {:<32} {:>9} {:>9} {:>8}{}\n", printable(compiled->rule(k).id, 32), s.hits,
                                     s.decided, s.errors, compiled->rules[k].enabled ? "" : "  (disabled)");
        }
        std::cout << '\n';
    }
    if (counts.errors)
        std::cout << fmt::format("{}: {}, {}\n", printable(o.file),
                                 plural(static_cast<std::int64_t>(counts.errors), "error", "errors"),
                                 plural(static_cast<std::int64_t>(counts.warnings), "warning", "warnings"));
    else
        std::cout << fmt::format(
            "{}: ok{} ({}, {}{})\n", printable(o.file),
            counts.warnings ? ", " + plural(static_cast<std::int64_t>(counts.warnings), "warning", "warnings") : "",
            plural(static_cast<std::int64_t>(rs.rules.size()), "rule", "rules"), rules::toString(rs.strategy),
            compiled ? ", decisions " + fmt::format("{}", fmt::join(compiled->decisions, ", ")) : "");
    return counts.errors ? kExitFailure : 0;
}

// ---- eval -------------------------------------------------------------------------------------------------

// How a command reads its --data file, with the fields its rule sets declare: as a cluster's shards read their
// parts, and as a file read in parts here reads it.
Result<FileReading> fileReadingFor(const RulesOptions& o, const std::vector<rules::Field>& declared)
{
    DatasetRequest data;
    data.data = o.data.data;
    data.declared = declared;
    data.idColumn = o.data.idColumn;
    data.onBadRow = o.data.onBadRow;
    return fileReading(data);
}

// The rule sets and data of a command with --backend slurm: evaluated by the cluster's tasks, merged. A file or
// folder is cut as it is; a stored snapshot (or a sandbox's reference to one) is loaded here as a local run
// loads it, then cut by records.
Result<ShardedRulesResult> onCluster(const RulesOptions& o, const std::vector<const LoadedRuleSet*>& ruleSets,
                                     const std::vector<rules::Field>& declared, bool compare, bool allRules,
                                     const rules::ImpactOptions& impact)
{
    auto settings = slurmSettings();
    if (!settings)
        return std::unexpected(settings.error());
    auto shards = shardCount(o.backend, *settings);
    if (!shards)
        return std::unexpected(shards.error());
    ShardedRulesRequest request;
    std::optional<LoadedData> snapshot;
    if (namesDataFile(o.data.data)) {
        auto reading = fileReadingFor(o, declared);
        if (!reading)
            return std::unexpected(reading.error());
        request.data = std::move(*reading);
        request.source = o.data.data;
    } else {
        auto loaded = loadData(o.data, declared);
        if (!loaded)
            return std::unexpected(loaded.error());
        snapshot = std::move(*loaded);
        request.snapshot = &*snapshot;
    }

    for (const LoadedRuleSet* rs : ruleSets) {
        auto text = rules::readRuleSetFile(rs->path);
        if (!text)
            return std::unexpected(text.error());
        request.ruleSets.push_back({rs->path, std::move(*text), &rs->ruleSet()});
    }
    request.compare = compare;
    request.impact = impact;
    request.allRules = allRules;
    request.threads = o.threads;
    request.shards = *shards;
    request.partition = o.backend.partition;
    request.settings = *settings;
    request.cancel = catchCancel();
    request.title = commandTitle();
    ClusterProgress progress;
    request.progress = [&progress](ShardedPhase phase, const cluster::StageProgress& p) {
        progress.show(toString(phase), p);
    };
    request.warnings = [&ruleSets](std::size_t s, const std::vector<rules::Diagnostic>& warnings) {
        printWarnings(warnings, ruleSets[s]->path);
    };
    auto result = runShardedRules(request);
    progress.finish();
    if (result)
        std::cerr << fmt::format("slurm: {} (job {}{}): cut {:.2f} s, scan {:.2f} s, evaluate {:.2f} s (the longest task "
                                 "{:.2f} s), merge {:.2f} s\n",
                                 plural(static_cast<std::int64_t>(result->shards), "shard", "shards"),
                                 fmt::join(result->jobs, ", "),
                                 result->retried ? fmt::format("; {} retried", result->retried) : std::string(),
                                 result->splitSeconds, result->scanSeconds, result->evalSeconds, result->taskSeconds,
                                 result->mergeSeconds);
    return result;
}

DataFacts clusterDataFacts(const ShardedRulesResult& r)
{
    DataFacts facts;
    facts.source = r.source;
    facts.folder = r.folder;
    facts.stored = r.stored;
    facts.rows = static_cast<std::size_t>(r.report.kept);
    if (r.idColumn >= 0)
        facts.idColumn = r.schema.fields[static_cast<std::size_t>(r.idColumn)].name;
    facts.schema = r.schema;
    facts.report = r.report;
    return facts;
}

void printEvaluation(const RulesOptions& o, const LoadedRuleSet& loaded, const DataFacts& data,
                     const rules::CompiledRuleSet& compiled, const rules::Evaluation& ev)
{
    OrderedJson report = evaluationJson(compiled, ev, data.rows);
    if (o.json) {
        OrderedJson out = {{"ruleset", ruleSetToJson(loaded)}, {"data", dataToJson(data)}};
        for (auto& [key, value] : report.items())
            out[key] = value;
        std::cout << dumpOrderedJson(out) << '\n';
        return;
    }
    const auto total = static_cast<std::int64_t>(data.rows);
    std::cout << fmt::format("{} on {}: {}, {} ({})\n\n", printable(loaded.path), printable(data.source),
                             plural(total, "record", "records"),
                             plural(static_cast<std::int64_t>(compiled.rules.size()), "rule", "rules"),
                             rules::toString(compiled.strategy));
    std::cout << fmt::format("  {:<20} {:>10} {:>9}\n", "decision", "records", "share");
    for (std::size_t d = 0; d < compiled.decisions.size(); ++d) {
        const std::int64_t count = ev.decisionCounts[d];
        if (count == 0)
            continue;
        std::cout << fmt::format("  {:<20} {:>10} {:>9}\n", printable(compiled.decisions[d], 20), count,
                                 percent(total ? static_cast<double>(count) / static_cast<double>(total) : 0.0));
    }
    std::cout << fmt::format("\n  {:<32} {:<12} {:>6} {:>9} {:>9} {:>8}\n", "rule", "decision", "score", "matched",
                             "decided", "errors");
    for (std::size_t k = 0; k < compiled.rules.size(); ++k) {
        const rules::Rule& rule = compiled.rule(k);
        const auto& s = ev.rules[k];
        std::cout << fmt::format("  {:<32} {:<12} {:>6} {:>9} {:>9} {:>8}{}\n", printable(rule.id, 32),
                                 printable(rule.decision, 12), formatScore(rule.score), s.hits, s.decided, s.errors,
                                 rule.enabled ? "" : "  (disabled)");
    }
    std::cout << '\n';
    if (ev.recordsWithErrors == 0) {
        std::cout << "errors: none\n";
    } else {
        std::cout << fmt::format("errors: {} had a condition that failed (counted as not matching):\n",
                                 plural(ev.recordsWithErrors, "record", "records"));
        for (std::size_t k = 0; k < compiled.rules.size(); ++k) {
            const auto& s = ev.rules[k];
            if (s.errors)
                std::cout << fmt::format("  {}: {} (first at record {}: {})\n", printable(compiled.rule(k).id),
                                         plural(s.errors, "record", "records"), printable(s.firstErrorRecord),
                                         printable(s.firstError));
        }
    }
    const double rate = ev.seconds > 0 ? static_cast<double>(ev.conditionsEvaluated) / ev.seconds : 0.0;
    std::cout << fmt::format("evaluated {} conditions in {:.3f} s on {} ({:.1f} M records×rules/s)\n",
                             ev.conditionsEvaluated, ev.seconds, plural(ev.threads, "thread", "threads"), rate / 1e6);
}

int evalCommand(const RulesOptions& o)
{
    auto loaded = loadRules(o.rules);
    if (!loaded)
        return inputError(o, loaded.error().message);
    auto declared = declaredFields({&*loaded}, o.data.fields);
    if (!declared)
        return inputError(o, declared.error().message);
    if (o.backend.slurm()) {
        auto result = onCluster(o, {&*loaded}, *declared, false, true, {});
        if (!result)
            return inputError(o, result.error().message);
        const DataFacts facts = clusterDataFacts(*result);
        reportBadRows(facts.source, facts.report);
        printEvaluation(o, *loaded, facts, result->compiled[0], result->evaluations[0]);
        return 0;
    }
    auto data = loadData(o.data, *declared);
    if (!data)
        return inputError(o, data.error().message);
    reportBadRows(*data);
    std::vector<rules::Diagnostic> warnings;
    auto compiled = compileFor(*loaded, data->data, &warnings);
    if (!compiled)
        return inputError(o, compiled.error().message);
    printWarnings(warnings, loaded->path);
    auto ev = rules::evaluate(*compiled, data->data, evalOptions(o, true));
    if (!ev)
        return inputError(o, ev.error().message);
    printEvaluation(o, *loaded, dataFacts(*data), *compiled, *ev);
    return 0;
}

// ---- impact and A/B ---------------------------------------------------------------------------------------

struct Side {
    const LoadedRuleSet* loaded = nullptr;
    std::optional<rules::CompiledRuleSet> compiled;
    std::optional<rules::Evaluation> evaluation; // on a cluster, without its records
};

// Loads the rule sets, the data (read with the fields all of them declare) and evaluates each: here, or with
// --backend slurm on the cluster, where the candidates' impacts are tallied too.
struct Comparison {
    std::vector<LoadedRuleSet> ruleSets; // [0]: baseline
    std::optional<LoadedData> data;      // read here
    DataFacts facts;
    std::vector<Side> sides;
    std::vector<rules::Impact> impacts; // merged from parts (a cluster's, a file's): per candidate
};

// The sides and the candidates' impacts of a comparison whose parts were evaluated and tallied apart (on the
// cluster, or a file read in parts), from their merged result.
void takeMergedSides(Comparison& c, ShardedRulesResult& result)
{
    for (std::size_t s = 0; s < c.ruleSets.size(); ++s) {
        Side side;
        side.loaded = &c.ruleSets[s];
        side.compiled = std::move(result.compiled[s]);
        side.evaluation = std::move(result.evaluations[s]);
        c.sides.push_back(std::move(side));
    }
    for (std::size_t v = 0; v < result.tallies.size(); ++v)
        c.impacts.push_back(rules::finishImpact(result.tallies[v], *c.sides[0].compiled, *c.sides[0].evaluation,
                                                *c.sides[v + 1].compiled, *c.sides[v + 1].evaluation));
}

rules::ImpactOptions impactOptions(const RulesOptions& o)
{
    // Changed records listed: all in JSON unless --limit, 20 in text unless --limit.
    const std::size_t limit = o.json ? (o.limit > 0 ? static_cast<std::size_t>(o.limit) : 0)
                                     : static_cast<std::size_t>(o.limit >= 0 ? o.limit : 20);
    return {o.labelColumn, o.amountColumn, limit};
}

Result<Comparison> prepare(const RulesOptions& o, const std::vector<std::string>& files)
{
    Comparison c;
    c.ruleSets.reserve(files.size());
    for (const auto& f : files) {
        auto loaded = loadRules(f);
        if (!loaded)
            return std::unexpected(loaded.error());
        c.ruleSets.push_back(std::move(*loaded));
    }
    std::vector<const LoadedRuleSet*> all;
    for (const auto& rs : c.ruleSets)
        all.push_back(&rs);
    auto declared = declaredFields(all, o.data.fields);
    if (!declared)
        return std::unexpected(declared.error());
    if (o.backend.slurm()) {
        auto result = onCluster(o, all, *declared, true, false, impactOptions(o));
        if (!result)
            return std::unexpected(result.error());
        c.facts = clusterDataFacts(*result);
        reportBadRows(c.facts.source, c.facts.report);
        takeMergedSides(c, *result);
        return c;
    }
    std::error_code ec;
    if (namesDataFile(o.data.data) && !std::filesystem::is_directory(o.data.data, ec)) {
        // A file: read in parts, each evaluated and tallied as it is read (usecases/streamed_rules.h).
        auto reading = fileReadingFor(o, *declared);
        if (!reading)
            return std::unexpected(reading.error());
        StreamedRulesRequest request;
        for (const auto& rs : c.ruleSets)
            request.ruleSets.push_back({rs.path, &rs.ruleSet()});
        request.data = std::move(*reading);
        request.impact = impactOptions(o);
        request.allRules = false;
        request.threads = o.threads;
        // On stderr as a read of the whole file first prints them: its bad rows, then each rule set's warnings.
        request.read = [](const std::string& source, const rules::ReadReport& report) { reportBadRows(source, report); };
        request.warnings = [&c](std::size_t s, const std::vector<rules::Diagnostic>& warnings) {
            printWarnings(warnings, c.ruleSets[s].path);
        };
        auto result = runStreamedRules(request);
        if (!result)
            return std::unexpected(result.error());
        c.facts = clusterDataFacts(*result);
        takeMergedSides(c, *result);
        return c;
    }
    auto data = loadData(o.data, *declared);
    if (!data)
        return std::unexpected(data.error());
    c.data = std::move(*data);
    c.facts = dataFacts(*c.data);
    reportBadRows(*c.data);
    for (const auto& rs : c.ruleSets) {
        auto evaluated = evaluateOn(rs.ruleSet(), rs.path, c.data->data, evalOptions(o, false),
                                    [&rs](const std::vector<rules::Diagnostic>& warnings) {
                                        printWarnings(warnings, rs.path);
                                    });
        if (!evaluated)
            return std::unexpected(evaluated.error());
        Side side;
        side.loaded = &rs;
        side.compiled = std::move(evaluated->compiled);
        side.evaluation = std::move(evaluated->evaluation);
        c.sides.push_back(std::move(side));
    }
    return c;
}

ComparedRuleSet sideOf(const Side& side, std::string name)
{
    return {std::move(name), &*side.compiled, &*side.evaluation};
}

OrderedJson figuresJson(const rules::LabelFigures& f, bool amounts)
{
    auto opt = [](const std::optional<double>& v) { return v ? OrderedJson(*v) : OrderedJson(nullptr); };
    OrderedJson j = {{"tp", f.tp},
                     {"fp", f.fp},
                     {"fn", f.fn},
                     {"tn", f.tn},
                     {"precision", opt(f.precision)},
                     {"recall", opt(f.recall)},
                     {"fpr", opt(f.fpr)}};
    if (amounts) {
        j["amount_caught"] = std::round(f.amountCaught * 100) / 100;
        j["amount_hurt"] = std::round(f.amountHurt * 100) / 100;
    }
    return j;
}

OrderedJson flaggedJson(const rules::LabelFigures& b, const rules::LabelFigures& c, bool amounts,
                        const std::string& notFlagged)
{
    OrderedJson delta = figuresJson(c, amounts);
    auto diff = [](const std::optional<double>& x, const std::optional<double>& y) {
        return x && y ? OrderedJson(*y - *x) : OrderedJson(nullptr);
    };
    delta["tp"] = c.tp - b.tp;
    delta["fp"] = c.fp - b.fp;
    delta["fn"] = c.fn - b.fn;
    delta["tn"] = c.tn - b.tn;
    delta["precision"] = diff(b.precision, c.precision);
    delta["recall"] = diff(b.recall, c.recall);
    delta["fpr"] = diff(b.fpr, c.fpr);
    if (amounts) {
        delta["amount_caught"] = std::round((c.amountCaught - b.amountCaught) * 100) / 100;
        delta["amount_hurt"] = std::round((c.amountHurt - b.amountHurt) * 100) / 100;
    }
    return {{"not_flagged", notFlagged},
            {"baseline", figuresJson(b, amounts)},
            {"candidate", figuresJson(c, amounts)},
            {"delta", delta}};
}

std::string optPercent(const std::optional<double>& v)
{
    return v ? fmt::format("{:.1f} %", *v * 100) : "n/a";
}

std::string optDeltaPoints(const std::optional<double>& a, const std::optional<double>& b)
{
    if (!a || !b)
        return "n/a";
    return fmt::format("{:+.1f} pp", (*b - *a) * 100);
}

std::string money(double v)
{
    // 1234567.891 -> 1,234,567.89
    const std::string digits = fmt::format("{:.2f}", std::fabs(v));
    const std::size_t dot = digits.find('.');
    std::string whole = digits.substr(0, dot);
    std::string grouped;
    for (std::size_t i = 0; i < whole.size(); ++i) {
        if (i > 0 && (whole.size() - i) % 3 == 0)
            grouped += ',';
        grouped += whole[i];
    }
    return (v < 0 ? "-" : "") + grouped + digits.substr(dot);
}

void printFiguresTable(const std::string& title, const rules::LabelFigures& b, const rules::LabelFigures& c,
                       bool amounts)
{
    std::cout << fmt::format("  {:<22} {:>14} {:>14} {:>12}\n", title, "Current", "Proposed", "Δ");
    std::cout << fmt::format("  {:<22} {:>14} {:>14} {:>+12}\n", "caught (true pos.)", b.tp, c.tp, c.tp - b.tp);
    std::cout << fmt::format("  {:<22} {:>14} {:>14} {:>+12}\n", "hurt (false pos.)", b.fp, c.fp, c.fp - b.fp);
    std::cout << fmt::format("  {:<22} {:>14} {:>14} {:>+12}\n", "missed (false neg.)", b.fn, c.fn, c.fn - b.fn);
    std::cout << fmt::format("  {:<22} {:>14} {:>14} {:>12}\n", "precision", optPercent(b.precision),
                             optPercent(c.precision), optDeltaPoints(b.precision, c.precision));
    std::cout << fmt::format("  {:<22} {:>14} {:>14} {:>12}\n", "recall", optPercent(b.recall), optPercent(c.recall),
                             optDeltaPoints(b.recall, c.recall));
    std::cout << fmt::format("  {:<22} {:>14} {:>14} {:>12}\n", "false-positive rate", optPercent(b.fpr),
                             optPercent(c.fpr), optDeltaPoints(b.fpr, c.fpr));
    if (amounts) {
        std::cout << fmt::format(
            "  {:<22} {:>14} {:>14} {:>12}\n", "amount caught", money(b.amountCaught), money(c.amountCaught),
            (c.amountCaught >= b.amountCaught ? "+" : "") + money(c.amountCaught - b.amountCaught));
        std::cout << fmt::format("  {:<22} {:>14} {:>14} {:>12}\n", "amount hurt", money(b.amountHurt),
                                 money(c.amountHurt),
                                 (c.amountHurt >= b.amountHurt ? "+" : "") + money(c.amountHurt - b.amountHurt));
    }
}

void printImpactText(const Comparison& c, const Side& base, const Side& cand, const rules::Impact& impact)
{
    std::cout << fmt::format("Impact of {} against {} on {} ({})\n", printable(cand.loaded->path),
                             printable(base.loaded->path), printable(c.facts.source),
                             plural(impact.total, "record", "records"));
    std::cout << fmt::format("  affected: {} ({} of all)", plural(impact.affected, "record", "records"),
                             percent(impact.impactRate));
    if (impact.scoreChanged)
        std::cout << fmt::format("; {} kept the decision with another score", impact.scoreChanged);
    std::cout << "\n\n";

    std::vector<std::string> names = base.compiled->decisions;
    for (const auto& d : cand.compiled->decisions) {
        if (std::find(names.begin(), names.end(), d) == names.end())
            names.push_back(d);
    }
    auto countOf = [](const std::vector<std::pair<std::string, std::int64_t>>& dist, const std::string& d) {
        for (const auto& [name, n] : dist) {
            if (name == d)
                return n;
        }
        return std::int64_t{0};
    };
    std::cout << fmt::format("  {:<20} {:>12} {:>12} {:>10}\n", "decision", "Current", "Proposed", "Δ");
    for (const auto& d : names) {
        const auto b = countOf(impact.baselineDistribution, d), p = countOf(impact.candidateDistribution, d);
        std::cout << fmt::format("  {:<20} {:>12} {:>12} {:>+10}\n", printable(d, 20), b, p, p - b);
    }
    if (!impact.transitions.empty()) {
        std::cout << "\n  changes:";
        std::size_t shown = 0;
        for (const auto& [pair, count] : impact.transitions) {
            if (shown++ == 6) {
                std::cout << " …";
                break;
            }
            std::cout << fmt::format(" {} → {} {};", printable(pair.first), printable(pair.second), count);
        }
        std::cout << '\n';
    }
    if (impact.hasLabels) {
        std::cout << fmt::format(
            "\nCaught vs hurt (label {}: {} positive, {} negative{}{})\n", printable(impact.labelColumn),
            impact.positives, impact.negatives, impact.unlabeled ? fmt::format(", {} unlabeled", impact.unlabeled) : "",
            impact.hasAmounts ? fmt::format("; amounts from {}", printable(impact.amountColumn)) : "");
        const std::string& pass = base.compiled->decisions[base.compiled->defaultDecision];
        std::cout << '\n';
        printFiguresTable(fmt::format("flagged (not {})", printable(pass, 10)), *impact.baselineFlagged,
                          *impact.candidateFlagged, impact.hasAmounts);
        for (const auto& dl : impact.labels) {
            if (dl.decision == pass || (dl.baseline.tp + dl.baseline.fp + dl.candidate.tp + dl.candidate.fp) == 0)
                continue;
            std::cout << '\n';
            printFiguresTable(fmt::format("decision {}", printable(dl.decision, 12)), dl.baseline, dl.candidate,
                              impact.hasAmounts);
        }
    }
    if (!impact.changed.empty()) {
        const auto shown = static_cast<std::int64_t>(impact.changed.size());
        std::cout << fmt::format("\nChanged records ({} of {}{}):\n", shown, impact.affected,
                                 shown < impact.affected ? "; --limit N for more, --json for all" : "");
        std::cout << fmt::format("  {:<16} {:<26} {:<16} {}\n", "record", "decision", "score", "rule");
        auto ruleName = [](const rules::CompiledRuleSet& rs, const rules::RecordOutcome& out) {
            return out.rule < 0 ? std::string("(default)") : rs.rule(static_cast<std::size_t>(out.rule)).id;
        };
        for (const rules::ChangedRecord& changed : impact.changed) {
            const auto& b = changed.before;
            const auto& n = changed.after;
            std::cout << fmt::format(
                "  {:<16} {:<26} {:<16} {} → {}\n", printable(changed.recordId, 16),
                printable(base.compiled->decisions[b.decision] + " → " + cand.compiled->decisions[n.decision], 26),
                formatScore(b.score) + " → " + formatScore(n.score), printable(ruleName(*base.compiled, b)),
                printable(ruleName(*cand.compiled, n)));
        }
    }
}

std::string variantName(const std::string& path)
{
    return std::filesystem::path(path).stem().string();
}

OrderedJson impactJson(const Side& base, const Side& cand, const rules::Impact& impact)
{
    OrderedJson j = rules::impactToJson(impact, *base.compiled, *cand.compiled);
    if (impact.hasLabels) {
        const std::string& pass = base.compiled->decisions[base.compiled->defaultDecision];
        j["labels"]["flagged"] = flaggedJson(*impact.baselineFlagged, *impact.candidateFlagged, impact.hasAmounts, pass);
    }
    return j;
}

// The candidates' impacts against the baseline: computed here on the data, or merged from the cluster.
Result<RuleComparison> compare(const RulesOptions& o, Comparison& c, const std::vector<std::string>& names)
{
    const Side& base = c.sides[0];
    if (!c.data)
        return summarizeComparison(*base.compiled, names, std::move(c.impacts), !o.labelColumn.empty());
    std::vector<ComparedRuleSet> variants;
    for (std::size_t v = 1; v < c.sides.size(); ++v)
        variants.push_back(sideOf(c.sides[v], names[v - 1]));
    return compareRuleSets(sideOf(base, variantName(base.loaded->path)), variants, c.data->data, impactOptions(o));
}

int impactCommand(const RulesOptions& o)
{
    auto c = prepare(o, {o.baseline, o.candidate});
    if (!c)
        return inputError(o, c.error().message);
    auto compared = compare(o, *c, {std::string()});
    if (!compared)
        return inputError(o, compared.error().message);
    const Side& base = c->sides[0];
    const Side& cand = c->sides[1];
    const rules::Impact& impact = compared->impacts.front();
    if (o.json) {
        OrderedJson out = impactJson(base, cand, impact);
        out["rulesets"] = {{"baseline", ruleSetToJson(*base.loaded)}, {"candidate", ruleSetToJson(*cand.loaded)}};
        out["data"] = dataToJson(c->facts);
        std::cout << dumpOrderedJson(out) << '\n';
        return 0;
    }
    printImpactText(*c, base, cand, impact);
    return 0;
}

OrderedJson rankedJson(const RulesOptions& o, const RuleComparison& compared)
{
    OrderedJson ranked = OrderedJson::array();
    for (std::size_t r = 0; r < compared.ranking.size(); ++r) {
        const auto& s = compared.summaries[compared.ranking[r]];
        OrderedJson entry = {{"rank", r + 1}, {"name", s.name}, {"impact_rate", s.impactRate}, {"affected", s.affected}};
        if (s.flagged) {
            entry["f1"] = s.f1 ? OrderedJson(*s.f1) : OrderedJson(nullptr);
            entry["precision"] = s.flagged->precision ? OrderedJson(*s.flagged->precision) : OrderedJson(nullptr);
            entry["recall"] = s.flagged->recall ? OrderedJson(*s.flagged->recall) : OrderedJson(nullptr);
            entry["fpr"] = s.flagged->fpr ? OrderedJson(*s.flagged->fpr) : OrderedJson(nullptr);
            entry["tp"] = s.flagged->tp;
            entry["fp"] = s.flagged->fp;
            if (!o.amountColumn.empty()) {
                entry["amount_caught"] = std::round(s.flagged->amountCaught * 100) / 100;
                entry["amount_hurt"] = std::round(s.flagged->amountHurt * 100) / 100;
            }
        }
        ranked.push_back(std::move(entry));
    }
    return ranked;
}

void printAbJson(const RulesOptions& o, const Comparison& c, const RuleComparison& compared)
{
    const Side& base = c.sides[0];
    OrderedJson baseDist = OrderedJson::object();
    for (std::size_t d = 0; d < base.compiled->decisions.size(); ++d) {
        if (base.evaluation->decisionCounts[d] > 0)
            baseDist[base.compiled->decisions[d]] = base.evaluation->decisionCounts[d];
    }
    OrderedJson baseline = {
        {"name", variantName(base.loaded->path)}, {"ruleset", ruleSetToJson(*base.loaded)}, {"distribution", baseDist}};
    if (compared.baselineFlagged) {
        baseline["flagged"] = figuresJson(*compared.baselineFlagged, !o.amountColumn.empty());
        const auto f1 = f1Of(*compared.baselineFlagged);
        baseline["f1"] = f1 ? OrderedJson(*f1) : OrderedJson(nullptr);
    }
    OrderedJson variants = OrderedJson::array();
    for (std::size_t v = 0; v < compared.impacts.size(); ++v) {
        const Side& cand = c.sides[v + 1];
        OrderedJson entry = {{"name", compared.summaries[v].name}, {"ruleset", ruleSetToJson(*cand.loaded)}};
        OrderedJson figures = impactJson(base, cand, compared.impacts[v]);
        for (auto& [key, value] : figures.items())
            entry[key] = value;
        if (compared.summaries[v].f1)
            entry["f1"] = *compared.summaries[v].f1;
        variants.push_back(std::move(entry));
    }
    const bool labels = !o.labelColumn.empty();
    const OrderedJson best = compared.ranking.empty() ? OrderedJson(nullptr)
                                                      : OrderedJson(compared.summaries[compared.ranking[0]].name);
    OrderedJson out = {{"baseline", baseline},
                       {"variants", variants},
                       {"summary",
                        {{"ranking_metric", labels ? "f1" : "impact_rate"},
                         {"flagged_means", fmt::format("decision other than {}", compared.notFlagged)},
                         {"best", best},
                         {"ranking", rankedJson(o, compared)}}},
                       {"data", dataToJson(c.facts)}};
    std::cout << dumpOrderedJson(out) << '\n';
}

// Each decision's count under the baseline and under every variant: the decisions of all of them, the
// baseline's first.
void printAbDistribution(const Comparison& c, const RuleComparison& compared)
{
    const Side& base = c.sides[0];
    std::vector<std::string> decisions = base.compiled->decisions;
    for (std::size_t v = 1; v < c.sides.size(); ++v) {
        for (const auto& d : c.sides[v].compiled->decisions) {
            if (std::find(decisions.begin(), decisions.end(), d) == decisions.end())
                decisions.push_back(d);
        }
    }
    std::string header = fmt::format("  {:<20} {:>12}", "decision", "baseline");
    for (const auto& s : compared.summaries)
        header += fmt::format(" {:>14}", printable(s.name, 14));
    std::cout << header << '\n';
    for (const auto& d : decisions) {
        std::string line = fmt::format("  {:<20}", printable(d, 20));
        for (std::size_t v = 0; v < c.sides.size(); ++v) {
            std::int64_t n = 0;
            if (const int i = c.sides[v].compiled->findDecision(d); i >= 0)
                n = c.sides[v].evaluation->decisionCounts[static_cast<std::size_t>(i)];
            line += fmt::format(" {:>{}}", n, v == 0 ? 12 : 14);
        }
        std::cout << line << '\n';
    }
    std::string affected = fmt::format("  {:<20} {:>12}", "affected", "");
    std::string rate = fmt::format("  {:<20} {:>12}", "impact rate", "");
    for (const auto& s : compared.summaries) {
        affected += fmt::format(" {:>14}", s.affected);
        rate += fmt::format(" {:>14}", percent(s.impactRate));
    }
    std::cout << affected << '\n' << rate << '\n';
}

// Flagged (any decision but the baseline's default) against the label column, baseline and variants.
void printAbLabelFigures(const RulesOptions& o, const RuleComparison& compared)
{
    std::cout << fmt::format("\n  flagged (not {}) vs label {}\n", printable(compared.notFlagged),
                             printable(o.labelColumn));
    auto row = [&](std::string_view title, auto get) {
        std::string line = fmt::format("  {:<20} {:>12}", title, get(*compared.baselineFlagged));
        for (const auto& s : compared.summaries)
            line += fmt::format(" {:>14}", get(*s.flagged));
        std::cout << line << '\n';
    };
    row("caught", [](const rules::LabelFigures& f) { return std::to_string(f.tp); });
    row("hurt", [](const rules::LabelFigures& f) { return std::to_string(f.fp); });
    row("precision", [](const rules::LabelFigures& f) { return optPercent(f.precision); });
    row("recall", [](const rules::LabelFigures& f) { return optPercent(f.recall); });
    row("false-positive rate", [](const rules::LabelFigures& f) { return optPercent(f.fpr); });
    row("F1", [](const rules::LabelFigures& f) {
        const auto v = f1Of(f);
        return v ? fmt::format("{:.3f}", *v) : std::string("n/a");
    });
    if (!o.amountColumn.empty()) {
        row("amount caught", [](const rules::LabelFigures& f) { return money(f.amountCaught); });
        row("amount hurt", [](const rules::LabelFigures& f) { return money(f.amountHurt); });
    }
}

void printAbText(const RulesOptions& o, const Comparison& c, const RuleComparison& compared)
{
    const bool labels = !o.labelColumn.empty();
    std::cout << fmt::format("A/B on {} ({}): baseline {}, {}\n\n", printable(c.facts.source),
                             plural(static_cast<std::int64_t>(c.facts.rows), "record", "records"),
                             printable(c.sides[0].loaded->path),
                             plural(static_cast<std::int64_t>(compared.impacts.size()), "variant", "variants"));
    printAbDistribution(c, compared);
    if (labels)
        printAbLabelFigures(o, compared);
    std::cout << fmt::format("\nranking (by {}):\n",
                             labels ? "F1 of flagged vs the label" : "impact rate, lowest first");
    for (std::size_t r = 0; r < compared.ranking.size(); ++r) {
        const auto& s = compared.summaries[compared.ranking[r]];
        std::cout << fmt::format("  {}. {:<24} impact {}{}\n", r + 1, printable(s.name, 24), percent(s.impactRate),
                                 s.f1 ? fmt::format(", F1 {:.3f}", *s.f1) : "");
    }
}

int abCommand(const RulesOptions& o)
{
    std::vector<std::string> files = {o.baseline};
    files.insert(files.end(), o.variants.begin(), o.variants.end());
    auto c = prepare(o, files);
    if (!c)
        return inputError(o, c.error().message);
    // Each variant by its file's stem, or its path when another variant has the same stem.
    std::vector<std::string> names;
    for (std::size_t v = 1; v < c->sides.size(); ++v) {
        std::string name = variantName(c->sides[v].loaded->path);
        if (std::find(names.begin(), names.end(), name) != names.end())
            name = c->sides[v].loaded->path;
        names.push_back(name);
    }
    auto compared = compare(o, *c, names);
    if (!compared)
        return inputError(o, compared.error().message);
    if (o.json)
        printAbJson(o, *c, *compared);
    else
        printAbText(o, *c, *compared);
    return 0;
}

// ---- explain ----------------------------------------------------------------------------------------------

int explainCommand(const RulesOptions& o)
{
    auto loaded = loadRules(o.rules);
    if (!loaded)
        return inputError(o, loaded.error().message);
    auto declared = declaredFields({&*loaded}, o.data.fields);
    if (!declared)
        return inputError(o, declared.error().message);
    auto data = loadData(o.data, *declared);
    if (!data)
        return inputError(o, data.error().message);
    reportBadRows(*data);
    std::vector<rules::Diagnostic> warnings;
    auto compiled = compileFor(*loaded, data->data, &warnings);
    if (!compiled)
        return inputError(o, compiled.error().message);
    const auto row = data->data.findRecord(o.record);
    if (!row)
        return inputError(
            o,
            fmt::format("{}: no record with id {}{}", data->data.source(), printable(o.record),
                        data->data.idColumn() < 0 ? " (records are numbered from 1: the data has no id column)" : ""));
    auto ex = rules::explainRecord(*compiled, data->data, *row);
    if (!ex)
        return inputError(o, ex.error().message);
    const std::string& decision = compiled->decisions[ex->outcome.decision];
    const std::string decidedBy =
        ex->outcome.rule < 0 ? "" : compiled->rule(static_cast<std::size_t>(ex->outcome.rule)).id;

    if (o.json) {
        OrderedJson fields = OrderedJson::object();
        for (std::size_t c = 0; c < data->data.columnCount(); ++c) {
            const auto& v = data->data.value(*row, c);
            fields[data->data.schema().fields[c].name] =
                v.isError() ? OrderedJson(nullptr) : OrderedJson(cel::toJson(v));
        }
        OrderedJson ruleList = OrderedJson::array();
        for (const auto& re : ex->rules) {
            const rules::Rule& rule = compiled->rule(re.rule);
            OrderedJson steps = OrderedJson::array();
            for (const auto& s : re.steps) {
                OrderedJson operands = OrderedJson::array();
                for (const auto& [expr, value] : s.operands)
                    operands.push_back({{"expression", expr}, {"value", value}});
                steps.push_back({{"expression", s.expression},
                                 {"value", s.value},
                                 {"text", s.text},
                                 {"line", s.pos.line},
                                 {"column", s.pos.column},
                                 {"operands", operands}});
            }
            OrderedJson entry = {{"id", rule.id},
                                 {"enabled", re.enabled},
                                 {"matched", re.matched ? OrderedJson(*re.matched) : OrderedJson(nullptr)},
                                 {"decided", re.decided},
                                 {"decision", rule.decision},
                                 {"score", scoreJson(rule.score)},
                                 {"when", rule.when},
                                 {"line", rule.whenPos.line},
                                 {"column", rule.whenPos.column},
                                 {"value", re.enabled ? OrderedJson(re.result) : OrderedJson(nullptr)},
                                 {"error", re.error.empty() ? OrderedJson(nullptr) : OrderedJson(re.error)},
                                 {"steps", steps}};
            ruleList.push_back(std::move(entry));
        }
        OrderedJson out = {{"record_id", ex->recordId},
                           {"line", ex->line},
                           {"decision", decision},
                           {"score", scoreJson(ex->outcome.score)},
                           {"rule", decidedBy.empty() ? OrderedJson(nullptr) : OrderedJson(decidedBy)},
                           {"strategy", rules::toString(compiled->strategy)},
                           {"fields", fields},
                           {"rules", ruleList},
                           {"ruleset", ruleSetToJson(*loaded)},
                           {"data", dataToJson(*data)}};
        // A record of a folder's file: which file the line is of.
        if (const std::string& file = data->data.recordSource(ex->row); file != data->data.source())
            out["file"] = file;
        std::cout << dumpOrderedJson(out) << '\n';
        return 0;
    }
    std::cout << fmt::format(
        "record {} ({} line {}): {}, score {}, {}\n", printable(ex->recordId),
        printable(data->data.recordSource(ex->row)), ex->line,
        printable(decision), formatScore(ex->outcome.score),
        decidedBy.empty() ? std::string("no rule matched (the default)")
                          : fmt::format("by rule {} ({})", printable(decidedBy), rules::toString(compiled->strategy)));
    if (!ex->fields.empty()) {
        std::string line = "fields:";
        for (const auto& [name, value] : ex->fields)
            line += fmt::format(" {} = {},", name, value);
        line.pop_back();
        std::cout << printable(line) << '\n';
    }
    std::cout << '\n';
    for (const auto& re : ex->rules) {
        const rules::Rule& rule = compiled->rule(re.rule);
        if (!re.enabled) {
            std::cout << fmt::format("  - {}  (disabled)\n", printable(rule.id));
            continue;
        }
        const char* mark = re.matched ? (*re.matched ? "✓" : "✗") : "!";
        std::cout << fmt::format("  {} {}  → {} ({}){}\n", mark, printable(rule.id), printable(rule.decision),
                                 formatScore(rule.score), re.decided ? "  ← decided" : "");
        if (!re.error.empty())
            std::cout << fmt::format("      error: {}\n", printable(re.error));
        for (const auto& s : re.steps) {
            std::string operands;
            for (const auto& [expr, value] : s.operands)
                operands += (operands.empty() ? "" : ", ") + expr + " = " + value;
            std::cout << fmt::format("      {}:{}:{}  {:<40} {:<8} {}\n", printable(loaded->path), s.pos.line,
                                     s.pos.column, printable(s.expression, 40), printable(s.text, 30),
                                     printable(operands, 80));
        }
    }
    return 0;
}

// ---- task: one task of a Slurm job ------------------------------------------------------------------------

int taskCommand(const RulesOptions& o)
{
    const auto shard = o.shard >= 0 ? std::optional<std::size_t>(static_cast<std::size_t>(o.shard)) : slurmArrayTaskId();
    if (!shard) {
        std::cerr << "sandbench: rules task: no --shard and no SLURM_ARRAY_TASK_ID\n";
        return kExitUsage;
    }
    auto ok = runShardedRulesTask(o.job, o.stage, *shard);
    if (!ok) {
        std::cerr << "sandbench: rules task: " << printable(ok.error().message) << '\n';
        return kExitFailure;
    }
    return 0;
}

} // namespace

int rulesCommand(const RulesOptions& options)
{
    if (options.action == "check")
        return checkCommand(options);
    if (options.action == "eval")
        return evalCommand(options);
    if (options.action == "impact")
        return impactCommand(options);
    if (options.action == "ab")
        return abCommand(options);
    if (options.action == "explain")
        return explainCommand(options);
    if (options.action == "task")
        return taskCommand(options);
    return kExitUsage;
}

} // namespace sb::cli
