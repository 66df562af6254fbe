// A data file cut into shards (rules/shards.h), each scanned and read on its own with the merged scan's types,
// its rule sets evaluated and impacts tallied, the partial results written as JSON and read back
// (rules/partials.h), then merged: the same records, report, first error, evaluations and impacts as the whole
// file read and evaluated at once. A stored snapshot cut into row ranges reads back as its records, exactly,
// and a shard damaged in the spool is refused. What a Slurm array job does, without the cluster.

#include "rules/dataset_store.h"
#include "rules/evaluate.h"
#include "rules/partials.h"
#include "rules/ruleset.h"
#include "rules/shards.h"

#include "rules_test_util.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <random>

namespace sb::rules {
namespace {

struct Read {
    std::optional<Dataset> data;
    ReadReport report;
    std::string error;
};

ReadOptions optionsFor(const std::string& name, BadRowPolicy policy = BadRowPolicy::Fail,
                       std::vector<Field> declared = {})
{
    ReadOptions o;
    o.format = *formatForPath(name);
    o.onBadRow = policy;
    o.declared = std::move(declared);
    o.maxBadRowExamples = 3;
    return o;
}

Read readWhole(const std::filesystem::path& file, const ReadOptions& options)
{
    Read r;
    auto data = readDataset(file, options, &r.report);
    if (data)
        r.data = std::move(*data);
    else
        r.error = data.error().message;
    return r;
}

// The shards read as the cluster reads them: scanned (when some type must be inferred), the scans merged,
// each shard read with the settled columns; the reports merged. The first error as the command meets it.
struct ShardedRead {
    std::vector<Dataset> parts;
    ReadReport report;
    std::string error;
    std::size_t shards = 0;
};

ShardedRead readSharded(const std::filesystem::path& file, const ReadOptions& options, std::size_t n,
                        const std::filesystem::path& folder)
{
    ShardedRead out;
    ReadOptions whole = options;
    whole.sourceName = file.string();
    auto head = scanColumns(file, whole, true);
    if (!head) {
        out.error = head.error().message;
        return out;
    }
    std::filesystem::remove_all(folder);
    std::filesystem::create_directories(folder);
    auto shards = splitDataFile(file, folder, {n, options.format, nullptr, {}});
    EXPECT_TRUE(shards) << (shards ? "" : shards.error().message);
    if (!shards)
        return out;
    out.shards = shards->size();
    ReadOptions read = options;
    if (head->needed) {
        std::vector<ColumnScan> scans;
        for (const Shard& shard : *shards) {
            auto scan = scanColumns(shard.path, readOptionsFor(shard, options, file.string()));
            if (!scan) {
                out.error = scan.error().message;
                return out;
            }
            auto copied = columnScanFromJson(nlohmann::json::parse(columnScanToJson(*scan).dump()));
            EXPECT_TRUE(copied);
            scans.push_back(std::move(*copied));
        }
        auto merged = mergeScans(scans, whole, file.string());
        if (!merged) {
            out.error = merged.error().message;
            return out;
        }
        read.columns = settleColumns(*merged);
    }
    for (std::size_t k = 0; k < shards->size(); ++k) {
        ReadReport report;
        auto data = readDataset((*shards)[k].path, readOptionsFor((*shards)[k], read, file.string()), &report);
        if (!data) {
            out.error = data.error().message;
            return out;
        }
        auto copied = readReportFromJson(nlohmann::json::parse(readReportToJson(report).dump()));
        EXPECT_TRUE(copied);
        if (k == 0)
            out.report = *copied;
        else
            addReadReport(out.report, *copied, options.maxBadRowExamples);
        out.parts.push_back(std::move(*data));
    }
    return out;
}

void expectSameRead(const std::filesystem::path& file, const ReadOptions& options, std::size_t n,
                    const std::filesystem::path& folder)
{
    SCOPED_TRACE(file.filename().string() + " in " + std::to_string(n) + " shards");
    const Read whole = readWhole(file, options);
    const ShardedRead sharded = readSharded(file, options, n, folder);
    ASSERT_EQ(sharded.error, whole.error);
    if (!whole.data)
        return;
    const Dataset& d = *whole.data;
    EXPECT_LE(sharded.shards, n);
    // Inputs of more than a few lines are cut into as many shards as asked, up to one per record or so.
    if (d.rowCount() >= 100) {
        EXPECT_GE(sharded.shards, std::min<std::size_t>(n, 30)) << "shards";
    }
    std::size_t row = 0;
    for (const Dataset& part : sharded.parts) {
        ASSERT_EQ(part.schema(), d.schema());
        ASSERT_EQ(part.idColumn(), d.idColumn());
        EXPECT_EQ(part.source(), d.source());
        for (std::size_t r = 0; r < part.rowCount(); ++r, ++row) {
            ASSERT_LT(row, d.rowCount());
            EXPECT_EQ(part.recordId(r), d.recordId(row));
            EXPECT_EQ(part.sourceLine(r), d.sourceLine(row)) << "record " << d.recordId(row);
            for (std::size_t c = 0; c < d.columnCount(); ++c) {
                EXPECT_EQ(part.isMissing(r, c), d.isMissing(row, c));
                EXPECT_EQ(cellText(part.value(r, c)), cellText(d.value(row, c)));
            }
        }
    }
    EXPECT_EQ(row, d.rowCount());
    EXPECT_EQ(sharded.report.records, whole.report.records);
    EXPECT_EQ(sharded.report.kept, whole.report.kept);
    EXPECT_EQ(sharded.report.badRows, whole.report.badRows);
    ASSERT_EQ(sharded.report.badRowExamples.size(), whole.report.badRowExamples.size());
    for (std::size_t i = 0; i < whole.report.badRowExamples.size(); ++i) {
        EXPECT_EQ(sharded.report.badRowExamples[i].line, whole.report.badRowExamples[i].line);
        EXPECT_EQ(sharded.report.badRowExamples[i].message, whole.report.badRowExamples[i].message);
    }
}

void expectSameReadInAnyShards(const TempFolder& dir, const std::string& name, const std::string& content,
                               const ReadOptions& options)
{
    const auto file = dir.write(name, content);
    for (std::size_t n : {1, 2, 3, 5, 8, 40})
        expectSameRead(file, options, n, dir.path() / "shards");
}

// Records that cross what the splitter must get right: quoted line ends, "" inside quotes, a quote inside an
// unquoted field, text after a closing quote, CRLF, blank lines, a byte-order mark, types that only a late
// record settles.
std::string trickyCsv(int rows)
{
    std::string s = "\xEF\xBB\xBF\r\nid,amount,note,flag,when,code\r\n";
    for (int i = 0; i < rows; ++i) {
        const std::string id = std::to_string(i);
        switch (i % 7) {
        case 0: s += id + ",12,\"two\nlines, \"\"quoted\"\"\",true,2024-05-01T10:00:00Z,007\r\n"; break;
        case 1: s += id + ",13,5\" screen,false,2024-05-02T10:00:00Z,008\r\n"; break;
        case 2: s += "\r\n" + id + ",,\"\",,,009\n"; break;
        case 3: s += id + ",15,\"a\"\"b\nc\"\"\",true,2024-05-03T10:00:00Z,010\n"; break;
        default: s += id + "," + std::to_string(i * 3) + ",plain " + id + ",false,2024-05-04T10:00:00Z,011\n"; break;
        }
    }
    // Late records that settle the types: amount becomes a double, flag a string.
    s += std::to_string(rows) + ",1.5,late,maybe,2024-05-05T10:00:00Z,012\n";
    return s;
}

TEST(Shards, CsvReadInShardsIsReadWhole)
{
    TempFolder dir;
    expectSameReadInAnyShards(dir, "tricky.csv", trickyCsv(500), optionsFor("tricky.csv"));
    // Every column declared: one pass, no scan.
    expectSameReadInAnyShards(dir, "declared.csv", trickyCsv(300),
                              optionsFor("declared.csv", BadRowPolicy::Fail,
                                         {{"amount", FieldType::Double}, {"note", FieldType::String},
                                          {"flag", FieldType::String}, {"when", FieldType::Timestamp},
                                          {"code", FieldType::String}}));
    // Header only, and no newline at the end.
    expectSameReadInAnyShards(dir, "header.csv", "id,amount\n", optionsFor("header.csv"));
    expectSameReadInAnyShards(dir, "noeol.csv", "id,amount\n1,2\n3,4", optionsFor("noeol.csv"));
}

TEST(Shards, CsvBadRowsAndErrorsAreTheWholeFilesOnTheSameLine)
{
    TempFolder dir;
    std::string bad = "id,amount,note\n";
    for (int i = 0; i < 400; ++i) {
        if (i % 97 == 13)
            bad += std::to_string(i) + ",1\n"; // a field short
        else if (i % 89 == 7)
            bad += std::to_string(i) + ",\"2\"x,after the quote\n"; // text after a closing quote
        else
            bad += std::to_string(i) + "," + std::to_string(i) + ",\"n\n" + std::to_string(i) + "\"\n";
    }
    expectSameReadInAnyShards(dir, "bad-skip.csv", bad, optionsFor("bad-skip.csv", BadRowPolicy::Skip));
    expectSameReadInAnyShards(dir, "bad-fail.csv", bad, optionsFor("bad-fail.csv", BadRowPolicy::Fail));
    // A quote never closed fails the read whatever the policy, naming the line it opened on.
    expectSameReadInAnyShards(dir, "unclosed.csv", bad + "401,2,\"never\n402,3,x\n", optionsFor("unclosed.csv", BadRowPolicy::Skip));
    // The first bad row late in the file, in a later shard than the first.
    std::string late = "id,amount\n";
    for (int i = 0; i < 3000; ++i)
        late += std::to_string(i) + (i == 2400 ? ",1,2\n" : ",1\n");
    expectSameReadInAnyShards(dir, "late-bad.csv", late, optionsFor("late-bad.csv", BadRowPolicy::Fail));
    // Binary content: in the first block (refused before anything is cut) and far after it.
    expectSameReadInAnyShards(dir, "binary.csv", std::string("id,a\n1,2\n3,\0\n", 13), optionsFor("binary.csv"));
    std::string deep = "id,note\n";
    for (int i = 0; i < 20000; ++i)
        deep += std::to_string(i) + ",some text here\n";
    deep += std::string("x,\0\n", 4);
    expectSameReadInAnyShards(dir, "deep-binary.csv", deep, optionsFor("deep-binary.csv", BadRowPolicy::Skip));
    expectSameReadInAnyShards(dir, "empty.csv", "", optionsFor("empty.csv"));
    expectSameReadInAnyShards(dir, "blank.csv", "\n\n\r\n", optionsFor("blank.csv"));
}

TEST(Shards, JsonLinesReadInShardsIsReadWhole)
{
    TempFolder dir;
    std::string s = "\xEF\xBB\xBF{\"id\": \"a0\", \"amount\": 1, \"merchant\": {\"country\": \"FR\"}}\n";
    for (int i = 1; i < 600; ++i) {
        s += "{\"id\": \"a" + std::to_string(i) + "\", \"amount\": " + std::to_string(i);
        if (i % 50 == 0)
            s += ", \"late\": true";
        if (i % 77 == 0)
            s += ", \"merchant\": null";
        s += "}\n";
        if (i % 111 == 0)
            s += "\n   \n";
        if (i % 131 == 0)
            s += "{not json}\n";
    }
    s += "{\"id\": \"last\", \"amount\": 2.5, \"newest\": \"2024-01-01T00:00:00Z\"}";
    expectSameReadInAnyShards(dir, "records.jsonl", s, optionsFor("records.jsonl", BadRowPolicy::Skip));
    expectSameReadInAnyShards(dir, "records-fail.jsonl", s, optionsFor("records-fail.jsonl", BadRowPolicy::Fail));
}

// More distinct fields than the reader takes, spread over the shards, and a line too long: the whole input's
// first error, whichever it is, on its line.
TEST(Shards, JsonLinesTooManyFieldsOrALineTooLongAsWhole)
{
    TempFolder dir;
    auto lines = [](int from, int to, int fieldsFrom) {
        std::string s;
        for (int i = from; i < to; ++i)
            s += "{\"id\": " + std::to_string(i) + ", \"f" + std::to_string(fieldsFrom + i % 5) + "\": 1}\n";
        return s;
    };
    const std::string longLine = "{\"id\": 0, \"text\": \"" + std::string(300, 'x') + "\"}\n";
    ReadOptions o = optionsFor("wide.jsonl", BadRowPolicy::Skip);
    o.maxColumns = 8;
    o.maxRecordBytes = 256;
    // Fields f0-f4 early, f5-f9 late (the ninth distinct field appears late), a line too long between or after.
    const std::string early = lines(0, 200, 0), late = lines(200, 400, 5);
    expectSameReadInAnyShards(dir, "wide.jsonl", early + late, o);
    expectSameReadInAnyShards(dir, "wide-long-after.jsonl", early + late + longLine, o);
    expectSameReadInAnyShards(dir, "wide-long-before.jsonl", early + longLine + late, o);
    expectSameReadInAnyShards(dir, "long-only.jsonl", early + longLine + lines(200, 400, 0), o);
    // Within the limit: read.
    o.maxColumns = 12;
    expectSameReadInAnyShards(dir, "wide-ok.jsonl", early + late, o);
}

// ---- Evaluations and impacts merged --------------------------------------------------------------------

const char* const kBaseline = "name: baseline\n"
                              "default: {decision: allow, score: 0}\n"
                              "rules:\n"
                              "  - {id: big, when: 'amount > 2000.0', decision: block, score: 90}\n"
                              "  - {id: night, when: 'hour < 5', decision: review, score: 50}\n"
                              "  - {id: odd, when: 'note.size() > 7', decision: review, score: 40}\n";
const char* const kCandidate = "name: candidate\n"
                               "default: {decision: allow, score: 0}\n"
                               "rules:\n"
                               "  - {id: big, when: 'amount > 1500.0', decision: block, score: 95}\n"
                               "  - {id: risky, when: \"country == 'NG'\", decision: hold, score: 60}\n"
                               "  - {id: night, when: 'hour < 4 && amount > 100.0', decision: review, score: 50}\n";

std::string transactions(int rows)
{
    std::mt19937 random(11);
    std::uniform_real_distribution<double> amount(0, 4000);
    const char* countries[] = {"US", "NG", "FR", "DE"};
    std::string s = "id,amount,country,hour,note,is_fraud\n";
    for (int i = 0; i < rows; ++i) {
        // Amounts with cents, and some with many more decimals than money has.
        const double a = i % 5 == 0 ? amount(random) : std::round(amount(random) * 100) / 100;
        s += fmt::format("t{},{},{},{},{},{}\n", i, a, countries[random() % 4], random() % 24,
                         i % 13 == 0 ? "" : std::string(random() % 12, 'x'), random() % 7 == 0 ? "true" : "false");
    }
    return s;
}

struct Evaluated {
    std::vector<CompiledRuleSet> compiled;
    std::vector<Evaluation> evaluations;
};

Evaluated evaluateAll(const std::vector<const ParsedRuleSet*>& ruleSets, const Dataset& data)
{
    Evaluated out;
    for (const ParsedRuleSet* rs : ruleSets) {
        auto compiled = compileRuleSet(rs->ruleSet, &data.schema());
        EXPECT_TRUE(compiled.compiled);
        EvalOptions eval;
        eval.allRules = false;
        eval.threads = 2;
        auto ev = evaluate(*compiled.compiled, data, eval);
        EXPECT_TRUE(ev);
        out.compiled.push_back(std::move(*compiled.compiled));
        out.evaluations.push_back(std::move(*ev));
    }
    return out;
}

TEST(Shards, MergedEvaluationsAndImpactsAreTheWholeDatas)
{
    TempFolder dir;
    const auto file = dir.write("tx.csv", transactions(6000));
    const ParsedRuleSet base = parseRuleSet(kBaseline, "baseline.yaml");
    const ParsedRuleSet cand = parseRuleSet(kCandidate, "candidate.yaml");
    ASSERT_FALSE(base.hasErrors());
    ASSERT_FALSE(cand.hasErrors());
    const ReadOptions options = optionsFor("tx.csv");
    for (const std::size_t maxChanged : {std::size_t{0}, std::size_t{7}}) {
        const ImpactOptions impact{"is_fraud", "amount", maxChanged};
        const Read whole = readWhole(file, options);
        ASSERT_TRUE(whole.data) << whole.error;
        const Evaluated w = evaluateAll({&base, &cand}, *whole.data);
        auto wholeImpact = computeImpact(w.compiled[0], w.evaluations[0], w.compiled[1], w.evaluations[1], *whole.data, impact);
        ASSERT_TRUE(wholeImpact);
        const auto expected = impactToJson(*wholeImpact, w.compiled[0], w.compiled[1]);

        for (const std::size_t n : {2, 3, 7}) {
            SCOPED_TRACE(std::to_string(n) + " shards, " + std::to_string(maxChanged) + " changed listed");
            const ShardedRead sharded = readSharded(file, options, n, dir.path() / "shards");
            ASSERT_EQ(sharded.error, "");
            std::vector<Evaluation> merged;
            std::optional<ImpactTally> tally;
            for (const Dataset& part : sharded.parts) {
                const Evaluated e = evaluateAll({&base, &cand}, part);
                auto t = tallyImpact(e.compiled[0], e.evaluations[0], e.compiled[1], e.evaluations[1], part, impact);
                ASSERT_TRUE(t);
                // Through the partial results' JSON, as the tasks hand them over.
                auto copied = impactTallyFromJson(nlohmann::json::parse(impactTallyToJson(*t).dump()));
                ASSERT_TRUE(copied) << copied.error().message;
                if (!tally)
                    tally = std::move(*copied);
                else
                    ASSERT_TRUE(tally->add(*copied));
                for (std::size_t s = 0; s < 2; ++s) {
                    auto ev = evaluationFromJson(nlohmann::json::parse(evaluationToJson(e.evaluations[s]).dump()));
                    ASSERT_TRUE(ev);
                    if (merged.size() < 2)
                        merged.push_back(std::move(*ev));
                    else
                        ASSERT_TRUE(addEvaluation(merged[s], *ev));
                }
            }
            for (std::size_t s = 0; s < 2; ++s) {
                EXPECT_EQ(merged[s].decisionCounts, w.evaluations[s].decisionCounts);
                EXPECT_EQ(merged[s].recordsWithErrors, w.evaluations[s].recordsWithErrors);
                EXPECT_EQ(merged[s].conditionsEvaluated, w.evaluations[s].conditionsEvaluated);
                for (std::size_t k = 0; k < merged[s].rules.size(); ++k) {
                    EXPECT_EQ(merged[s].rules[k].hits, w.evaluations[s].rules[k].hits);
                    EXPECT_EQ(merged[s].rules[k].decided, w.evaluations[s].rules[k].decided);
                    EXPECT_EQ(merged[s].rules[k].errors, w.evaluations[s].rules[k].errors);
                    EXPECT_EQ(merged[s].rules[k].firstError, w.evaluations[s].rules[k].firstError);
                    EXPECT_EQ(merged[s].rules[k].firstErrorRecord, w.evaluations[s].rules[k].firstErrorRecord);
                }
            }
            const Impact mergedImpact = finishImpact(*tally, w.compiled[0], merged[0], w.compiled[1], merged[1]);
            EXPECT_EQ(impactToJson(mergedImpact, w.compiled[0], w.compiled[1]).dump(), expected.dump());
            ASSERT_TRUE(mergedImpact.baselineFlagged && wholeImpact->baselineFlagged);
            EXPECT_EQ(mergedImpact.candidateFlagged->amountCaught, wholeImpact->candidateFlagged->amountCaught);
            EXPECT_EQ(mergedImpact.baselineFlagged->amountHurt, wholeImpact->baselineFlagged->amountHurt);
        }
    }
}

// ---- A stored snapshot cut into row ranges --------------------------------------------------------------

// A snapshot's records as the store gives them: every type, missing values, repeated and distinct strings.
Dataset snapshotOf(const std::string& csv, const std::string& name)
{
    auto data = readDatasetText(csv, name + ".csv", optionsFor(name + ".csv"));
    EXPECT_TRUE(data) << (data ? "" : data.error().message);
    if (!data)
        return {};
    auto stored = decodeSnapshot(encodeSnapshot(*data), "dataset " + name);
    EXPECT_TRUE(stored) << (stored ? "" : stored.error().message);
    return stored ? std::move(*stored) : Dataset();
}

std::string snapshotCsv(int rows, bool ids)
{
    std::string s = ids ? "id,amount,country,when,ok,count\n" : "amount,country,when,ok,count\n";
    for (int i = 0; i < rows; ++i) {
        if (ids)
            s += fmt::format("r{},", i);
        s += fmt::format("{},{},{},{},{}\n", i % 11 == 0 ? "" : fmt::format("{}.{}", i * 7 % 3000, i % 100),
                         i % 5 == 0 ? "" : i % 3 ? "US" : "\"Côte, d'Ivoire\"",
                         i % 13 == 0 ? "" : fmt::format("2024-05-{:02}T10:{:02}:00.{}Z", i % 28 + 1, i % 60, i % 10),
                         i % 17 == 0 ? "" : i % 2 ? "true" : "false", i % 19 == 0 ? "" : std::to_string(i - 500));
    }
    return s;
}

TEST(Shards, ASnapshotCutIntoRowRangesReadsBackAsItsRecords)
{
    TempFolder dir;
    for (const bool ids : {true, false}) {
        const Dataset whole = snapshotOf(snapshotCsv(1003, ids), "tx");
        ASSERT_EQ(whole.rowCount(), 1003u);
        std::vector<FieldType> types;
        for (const Field& f : whole.schema().fields)
            types.push_back(f.type);
        const std::vector<FieldType> expected = {FieldType::Double, FieldType::String, FieldType::Timestamp,
                                                 FieldType::Bool, FieldType::Int};
        ASSERT_EQ(std::vector<FieldType>(types.end() - 5, types.end()), expected);
        for (const std::size_t n : {1, 2, 4, 7, 1003, 5000}) {
            SCOPED_TRACE(fmt::format("{} shards, {}", n, ids ? "ids" : "numbered"));
            const auto folder = dir.path() / fmt::format("cut-{}-{}", n, ids);
            std::filesystem::create_directories(folder);
            std::uint64_t progressed = 0;
            SplitOptions options{n, DataFormat::Csv, nullptr, [&](std::uint64_t done, std::uint64_t total) {
                                     EXPECT_EQ(total, 1003u);
                                     progressed = done;
                                 }};
            auto shards = splitSnapshot(whole, folder, options);
            ASSERT_TRUE(shards) << shards.error().message;
            ASSERT_EQ(shards->size(), std::min<std::size_t>(n, 1003));
            EXPECT_EQ(progressed, 1003u);
            // About the same number of records each, none empty, in order.
            DatasetBuilder joined(whole.schema(), whole.idColumn(), whole.source());
            std::uint64_t first = 0;
            for (const SnapshotShard& shard : *shards) {
                EXPECT_GE(shard.rows, 1003 / shards->size());
                EXPECT_LE(shard.rows, 1003 / shards->size() + 1);
                auto part = readSnapshotShard(shard, whole.source());
                ASSERT_TRUE(part) << part.error().message;
                EXPECT_EQ(part->source(), whole.source());
                ASSERT_EQ(part->rowCount(), shard.rows);
                ASSERT_EQ(part->schema(), whole.schema());
                ASSERT_EQ(part->idColumn(), whole.idColumn());
                // A shard is the row range's snapshot: its bytes are those records', and so its SHA-256.
                EXPECT_EQ(encodeSnapshot(*part), encodeSnapshot(whole, first, shard.rows));
                first += shard.rows;
                joined.append(std::move(*part));
            }
            // The shards one after another are the snapshot, every value, line and type.
            EXPECT_EQ(encodeSnapshot(joined.finish()), encodeSnapshot(whole));
        }
    }
}

TEST(Shards, ASnapshotOfNoRecordsIsOneShard)
{
    TempFolder dir;
    const Dataset empty = snapshotOf("id,amount\n", "empty");
    ASSERT_EQ(empty.rowCount(), 0u);
    auto shards = splitSnapshot(empty, dir.path(), {4, DataFormat::Csv, nullptr, {}});
    ASSERT_TRUE(shards) << shards.error().message;
    ASSERT_EQ(shards->size(), 1u);
    auto part = readSnapshotShard(shards->front(), empty.source());
    ASSERT_TRUE(part) << part.error().message;
    EXPECT_EQ(part->rowCount(), 0u);
    EXPECT_EQ(part->schema(), empty.schema());
}

TEST(Shards, ASnapshotShardDamagedOrMissingIsRefused)
{
    TempFolder dir;
    const Dataset whole = snapshotOf(snapshotCsv(400, true), "tx");
    auto shards = splitSnapshot(whole, dir.path(), {2, DataFormat::Csv, nullptr, {}});
    ASSERT_TRUE(shards) << shards.error().message;
    const SnapshotShard shard = shards->front();
    const std::string packed = readFile(shard.path);
    // Its bytes replaced: refused naming the shard's file and what is wrong (a frame that does not decompress to
    // the size written, or records that are not the ones hashed).
    auto refused = [&](const std::string& bytes, const SnapshotShard& as = SnapshotShard()) {
        std::ofstream(shard.path, std::ios::binary | std::ios::trunc) << bytes;
        auto read = readSnapshotShard(as.path.empty() ? shard : as, whole.source());
        if (read)
            return std::string("read");
        EXPECT_NE(read.error().message.find(shard.path.string() + " (a shard of dataset tx)"), std::string::npos)
            << read.error().message;
        return read.error().message;
    };
    auto says = [](const std::string& message, const std::string& what) {
        return message.find(what) != std::string::npos;
    };
    EXPECT_TRUE(says(refused(""), "damaged (its size)"));
    EXPECT_TRUE(says(refused(packed.substr(0, packed.size() / 2)), "damaged"));
    for (const std::size_t at : {packed.size() / 3, packed.size() / 2, packed.size() - 2}) {
        std::string flipped = packed;
        flipped[at] = static_cast<char>(flipped[at] ^ 0x5a);
        const std::string message = refused(flipped);
        EXPECT_TRUE(says(message, "damaged") || says(message, "does not match the SHA-256")) << message;
    }
    SnapshotShard otherHash = shard;
    otherHash.sha256[0] = otherHash.sha256[0] == '0' ? '1' : '0';
    EXPECT_TRUE(says(refused(packed, otherHash), "does not match the SHA-256 it was written with"));
    EXPECT_EQ(refused(packed), "read");
    // Gone from the spool.
    std::filesystem::remove(shard.path);
    auto missing = readSnapshotShard(shard, whole.source());
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.error().message.find("no such file"), std::string::npos) << missing.error().message;
}

TEST(Shards, PartialResultsThatAreNotOfTheirFormAreRefused)
{
    EXPECT_FALSE(evaluationFromJson(nlohmann::json::parse("{}")));
    EXPECT_FALSE(evaluationFromJson(nlohmann::json::parse(R"({"version": 99})")));
    EXPECT_FALSE(impactTallyFromJson(nlohmann::json::parse(R"({"version": 1, "decisions": ["a"]})")));
    EXPECT_FALSE(readReportFromJson(nlohmann::json::parse(R"({"version": 1, "records": "many"})")));
    EXPECT_FALSE(columnScanFromJson(nlohmann::json::parse(R"({"version": 1, "format": "xml", "needed": true, "columns": []})")));
    // A tally whose transitions name decisions it does not have.
    ImpactTally t;
    t.decisions = {"allow", "block"};
    t.transitions[{0, 1}] = 3;
    for (auto& side : t.sides) {
        side.pos = {0, 0};
        side.neg = {0, 0};
    }
    auto json = impactTallyToJson(t);
    ASSERT_TRUE(impactTallyFromJson(json));
    json["transitions"][0][1] = 5;
    EXPECT_FALSE(impactTallyFromJson(json));
    json = impactTallyToJson(t);
    json["sides"][0]["pos"] = {1};
    EXPECT_FALSE(impactTallyFromJson(json));
    json = impactTallyToJson(t);
    json["sides"][1]["flagged_pos_amount"] = "3:-7";
    EXPECT_FALSE(impactTallyFromJson(json));
}

} // namespace
} // namespace sb::rules
