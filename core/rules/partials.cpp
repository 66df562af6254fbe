#include "rules/partials.h"

#include <fmt/format.h>

#include <charconv>

namespace sb::rules {

namespace {

using Json = nlohmann::json;

// Reading a partial result: a field of the wrong kind or missing is nlohmann's type_error or out_of_range,
// turned into one error naming what was being read.
template <typename F> auto parsing(std::string_view what, F&& parse) -> Result<decltype(parse())>
{
    try {
        return parse();
    } catch (const nlohmann::json::exception& e) {
        return fail(fmt::format("not a partial result ({}): {}", what, e.what()));
    }
}

void checkVersion(const Json& json)
{
    if (!json.is_object() || json.at("version").get<int>() != kPartialsVersion)
        throw nlohmann::json::other_error::create(501, "another version of partial results", nullptr);
}

Json outcomeToJson(const RecordOutcome& o)
{
    return Json::array({o.rule, o.decision, o.errors, o.score});
}

RecordOutcome outcomeFromJson(const Json& j)
{
    RecordOutcome o;
    o.rule = j.at(0).get<std::int32_t>();
    o.decision = j.at(1).get<std::uint16_t>();
    o.errors = j.at(2).get<std::uint16_t>();
    o.score = j.at(3).get<double>();
    return o;
}

Json sumsToJson(const std::vector<ExactSum>& sums)
{
    Json out = Json::array();
    for (const auto& s : sums)
        out.push_back(s.toText());
    return out;
}

ExactSum sumFromJson(const Json& j)
{
    auto sum = ExactSum::fromText(j.get<std::string>());
    if (!sum)
        throw nlohmann::json::other_error::create(502, "an exact sum that is not one", nullptr);
    return *sum;
}

std::vector<ExactSum> sumsFromJson(const Json& j)
{
    std::vector<ExactSum> out;
    for (const auto& s : j)
        out.push_back(sumFromJson(s));
    return out;
}

} // namespace

namespace {

void renumber(std::string& recordId, std::int64_t before)
{
    std::int64_t n = 0;
    const auto [end, error] = std::from_chars(recordId.data(), recordId.data() + recordId.size(), n);
    if (error == std::errc() && end == recordId.data() + recordId.size())
        recordId = std::to_string(n + before);
}

} // namespace

void renumberRecords(Evaluation& evaluation, std::int64_t before)
{
    for (RuleStats& s : evaluation.rules) {
        if (!s.firstErrorRecord.empty())
            renumber(s.firstErrorRecord, before);
    }
}

void renumberRecords(ImpactTally& tally, std::int64_t before)
{
    for (ChangedRecord& c : tally.changed)
        renumber(c.recordId, before);
}

Json columnScanToJson(const ColumnScan& scan)
{
    Json columns = Json::array();
    for (const auto& c : scan.columns)
        columns.push_back({{"name", c.name},
                           {"declared", c.declared ? Json(std::string(toString(*c.declared))) : Json(nullptr)},
                           {"allowed", c.allowed},
                           {"saw_value", c.sawValue},
                           {"first_line", c.firstLine}});
    return {{"version", kPartialsVersion},
            {"format", std::string(toString(scan.format))},
            {"source", scan.source},
            {"needed", scan.needed},
            {"columns", columns},
            {"error", scan.error},
            {"error_line", scan.errorLine}};
}

Result<ColumnScan> columnScanFromJson(const Json& json)
{
    return parsing("column scan", [&]() -> ColumnScan {
        checkVersion(json);
        ColumnScan scan;
        const auto format = json.at("format").get<std::string>();
        if (format != "csv" && format != "jsonl")
            throw nlohmann::json::other_error::create(503, "an unknown format", nullptr);
        scan.format = format == "csv" ? DataFormat::Csv : DataFormat::JsonLines;
        scan.source = json.at("source").get<std::string>();
        scan.needed = json.at("needed").get<bool>();
        for (const auto& c : json.at("columns")) {
            ColumnScan::Column column;
            column.name = c.at("name").get<std::string>();
            if (!c.at("declared").is_null()) {
                auto type = fieldTypeFromString(c.at("declared").get<std::string>());
                if (!type)
                    throw nlohmann::json::other_error::create(504, "an unknown column type", nullptr);
                column.declared = *type;
            }
            column.allowed = c.at("allowed").get<std::uint8_t>();
            column.sawValue = c.at("saw_value").get<bool>();
            column.firstLine = c.at("first_line").get<std::int64_t>();
            scan.columns.push_back(std::move(column));
        }
        scan.error = json.at("error").get<std::string>();
        scan.errorLine = json.at("error_line").get<std::int64_t>();
        return scan;
    });
}

Json readReportToJson(const ReadReport& report)
{
    Json examples = Json::array();
    for (const auto& bad : report.badRowExamples)
        examples.push_back({bad.line, bad.message, bad.file});
    return {{"version", kPartialsVersion},
            {"records", report.records},
            {"kept", report.kept},
            {"sampled_out", report.sampledOut},
            {"bad_rows", report.badRows},
            {"examples", examples}};
}

Result<ReadReport> readReportFromJson(const Json& json)
{
    return parsing("read report", [&]() -> ReadReport {
        checkVersion(json);
        ReadReport report;
        report.records = json.at("records").get<std::int64_t>();
        report.kept = json.at("kept").get<std::int64_t>();
        report.sampledOut = json.at("sampled_out").get<std::int64_t>();
        report.badRows = json.at("bad_rows").get<std::int64_t>();
        for (const auto& e : json.at("examples"))
            report.badRowExamples.push_back(
                BadRow{e.at(0).get<std::int64_t>(), e.at(1).get<std::string>(), e.at(2).get<std::string>()});
        return report;
    });
}

void addReadReport(ReadReport& into, const ReadReport& next, std::size_t maxExamples)
{
    into.records += next.records;
    into.kept += next.kept;
    into.sampledOut += next.sampledOut;
    into.badRows += next.badRows;
    for (const auto& bad : next.badRowExamples) {
        if (into.badRowExamples.size() >= maxExamples)
            break;
        into.badRowExamples.push_back(bad);
    }
    into.stoppedAtMaxRows = into.stoppedAtMaxRows || next.stoppedAtMaxRows;
}

Json evaluationToJson(const Evaluation& ev)
{
    Json rules = Json::array();
    for (const auto& s : ev.rules) {
        Json shadowed = Json::array();
        for (const auto& [by, count] : s.shadowedBy)
            shadowed.push_back({by, count});
        rules.push_back({{"hits", s.hits},
                         {"decided", s.decided},
                         {"errors", s.errors},
                         {"first_error", s.firstError},
                         {"first_error_record", s.firstErrorRecord},
                         {"shadowed_by", shadowed}});
    }
    return {{"version", kPartialsVersion},
            {"rules", rules},
            {"decision_counts", ev.decisionCounts},
            {"records_with_errors", ev.recordsWithErrors},
            {"conditions_evaluated", ev.conditionsEvaluated},
            {"seconds", ev.seconds},
            {"threads", ev.threads}};
}

Result<Evaluation> evaluationFromJson(const Json& json)
{
    return parsing("evaluation", [&]() -> Evaluation {
        checkVersion(json);
        Evaluation ev;
        for (const auto& r : json.at("rules")) {
            RuleStats s;
            s.hits = r.at("hits").get<std::int64_t>();
            s.decided = r.at("decided").get<std::int64_t>();
            s.errors = r.at("errors").get<std::int64_t>();
            s.firstError = r.at("first_error").get<std::string>();
            s.firstErrorRecord = r.at("first_error_record").get<std::string>();
            for (const auto& p : r.at("shadowed_by"))
                s.shadowedBy[p.at(0).get<std::size_t>()] += p.at(1).get<std::int64_t>();
            ev.rules.push_back(std::move(s));
        }
        ev.decisionCounts = json.at("decision_counts").get<std::vector<std::int64_t>>();
        ev.recordsWithErrors = json.at("records_with_errors").get<std::int64_t>();
        ev.conditionsEvaluated = json.at("conditions_evaluated").get<std::int64_t>();
        ev.seconds = json.at("seconds").get<double>();
        ev.threads = json.at("threads").get<unsigned>();
        return ev;
    });
}

Json impactTallyToJson(const ImpactTally& t)
{
    Json transitions = Json::array();
    for (const auto& [pair, count] : t.transitions)
        transitions.push_back({pair.first, pair.second, count});
    Json changed = Json::array();
    for (const auto& c : t.changed)
        changed.push_back({c.recordId, outcomeToJson(c.before), outcomeToJson(c.after)});
    Json sides = Json::array();
    for (const auto& s : t.sides)
        sides.push_back({{"pos", s.pos},
                         {"neg", s.neg},
                         {"pos_amount", sumsToJson(s.posAmount)},
                         {"neg_amount", sumsToJson(s.negAmount)},
                         {"flagged_pos", s.flaggedPos},
                         {"flagged_neg", s.flaggedNeg},
                         {"flagged_pos_amount", s.flaggedPosAmount.toText()},
                         {"flagged_neg_amount", s.flaggedNegAmount.toText()}});
    return {{"version", kPartialsVersion},
            {"decisions", t.decisions},
            {"total", t.total},
            {"affected", t.affected},
            {"score_changed", t.scoreChanged},
            {"transitions", transitions},
            {"changed", changed},
            {"max_changed", t.maxChanged},
            {"has_labels", t.hasLabels},
            {"has_amounts", t.hasAmounts},
            {"label_column", t.labelColumn},
            {"amount_column", t.amountColumn},
            {"positives", t.positives},
            {"negatives", t.negatives},
            {"unlabeled", t.unlabeled},
            {"sides", sides}};
}

Result<ImpactTally> impactTallyFromJson(const Json& json)
{
    return parsing("impact", [&]() -> ImpactTally {
        checkVersion(json);
        ImpactTally t;
        t.decisions = json.at("decisions").get<std::vector<std::string>>();
        t.total = json.at("total").get<std::int64_t>();
        t.affected = json.at("affected").get<std::int64_t>();
        t.scoreChanged = json.at("score_changed").get<std::int64_t>();
        for (const auto& tr : json.at("transitions")) {
            const auto from = tr.at(0).get<std::size_t>(), to = tr.at(1).get<std::size_t>();
            if (from >= t.decisions.size() || to >= t.decisions.size())
                throw nlohmann::json::other_error::create(505, "a transition between unknown decisions", nullptr);
            t.transitions[{from, to}] += tr.at(2).get<std::int64_t>();
        }
        for (const auto& c : json.at("changed"))
            t.changed.push_back({c.at(0).get<std::string>(), outcomeFromJson(c.at(1)), outcomeFromJson(c.at(2))});
        t.maxChanged = json.at("max_changed").get<std::size_t>();
        t.hasLabels = json.at("has_labels").get<bool>();
        t.hasAmounts = json.at("has_amounts").get<bool>();
        t.labelColumn = json.at("label_column").get<std::string>();
        t.amountColumn = json.at("amount_column").get<std::string>();
        t.positives = json.at("positives").get<std::int64_t>();
        t.negatives = json.at("negatives").get<std::int64_t>();
        t.unlabeled = json.at("unlabeled").get<std::int64_t>();
        const auto& sides = json.at("sides");
        if (sides.size() != 2)
            throw nlohmann::json::other_error::create(506, "an impact of other than two rule sets", nullptr);
        for (std::size_t s = 0; s < 2; ++s) {
            ImpactTally::Side& side = t.sides[s];
            const auto& j = sides[s];
            side.pos = j.at("pos").get<std::vector<std::int64_t>>();
            side.neg = j.at("neg").get<std::vector<std::int64_t>>();
            side.posAmount = sumsFromJson(j.at("pos_amount"));
            side.negAmount = sumsFromJson(j.at("neg_amount"));
            side.flaggedPos = j.at("flagged_pos").get<std::int64_t>();
            side.flaggedNeg = j.at("flagged_neg").get<std::int64_t>();
            side.flaggedPosAmount = sumFromJson(j.at("flagged_pos_amount"));
            side.flaggedNegAmount = sumFromJson(j.at("flagged_neg_amount"));
            const std::size_t n = t.decisions.size();
            if (side.pos.size() != n || side.neg.size() != n
                || side.posAmount.size() != (t.hasAmounts ? n : 0) || side.negAmount.size() != side.posAmount.size())
                throw nlohmann::json::other_error::create(507, "counts of other decisions than its own", nullptr);
        }
        return t;
    });
}

} // namespace sb::rules
