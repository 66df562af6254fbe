#pragma once

// What a shard's task hands back to the command that merges (rules/shards.h): its column scan, its read
// report, its evaluations and impact tallies, as JSON files in a folder both see. Every figure is kept
// exactly (counts as integers, amounts as exact sums, scores as doubles that read back bit for bit), so that
// the merge of the shards' results is the whole data's result.
//
// Reading one back checks its form: a partial result that is not of it (a truncated file, another version)
// is an error naming what is wrong, never a zero.

#include "rules/dataset.h"
#include "rules/evaluate.h"
#include "util/error.h"

#include <nlohmann/json.hpp>

namespace sb::rules {

inline constexpr int kPartialsVersion = 3;

nlohmann::json columnScanToJson(const ColumnScan& scan);
Result<ColumnScan> columnScanFromJson(const nlohmann::json& json);

nlohmann::json readReportToJson(const ReadReport& report);
Result<ReadReport> readReportFromJson(const nlohmann::json& json);
// The reports of the shards in order as the whole input's: counts added, the first bad rows kept.
void addReadReport(ReadReport& into, const ReadReport& next, std::size_t maxExamples);

// An evaluation without its records (addEvaluation's form).
nlohmann::json evaluationToJson(const Evaluation& evaluation);
Result<Evaluation> evaluationFromJson(const nlohmann::json& json);

// A tally without its rows (ImpactTally::add's form).
nlohmann::json impactTallyToJson(const ImpactTally& tally);
Result<ImpactTally> impactTallyFromJson(const nlohmann::json& json);

// Records of data without an id column are named by their number, from 1 in the data evaluated: a shard's
// results name them from 1 in the shard. These make them the whole input's, `before` being the records of
// the shards before it.
void renumberRecords(Evaluation& evaluation, std::int64_t before);
void renumberRecords(ImpactTally& tally, std::int64_t before);

} // namespace sb::rules
