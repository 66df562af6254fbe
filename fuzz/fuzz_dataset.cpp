// libFuzzer target for the dataset readers (core/rules/dataset.h): CSV and JSON Lines files come from anywhere,
// so reading must survive any bytes — no crash, no hang, no sanitizer report — and what it returns must hold
// together:
// - every record has one cell per column, of its column's type (or the column's "no value" error), every
//   string valid UTF-8, source lines ascending;
// - the report adds up: records read = kept + skipped as bad + left out by sampling;
// - a refused input names the source and a line;
// - the snapshot encoding reads back to the same bytes.
//
// - CSV read on several threads (bit 4 of the first byte) gives exactly what one thread gives.
// - The input cut into shards (bits 5 and 6, without sampling), each scanned, the scans merged and each shard
//   read with the merged columns (rules/shards.h, as a Slurm array job reads it) gives what one read of it
//   gives: the same first error, or the same records, lines, cells and report. (One input in eight: it writes
//   files, which costs the replay's time budget under the sanitizers.)
//
// The first byte picks the format and options: bit 0 JSON Lines (else CSV), bit 1 skip bad rows (else fail),
// bit 2 declare some columns' types, bit 3 sample half the records, bit 4 read on three threads in batches of
// three records and compare with one thread, bits 5 and 6 read in shards (bit 7: 2 or 3 of them) and compare.

#include "cel/utf8.h"
#include "rules/dataset.h"
#include "rules/dataset_store.h"
#include "rules/shards.h"

#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <vector>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

namespace rules = sb::rules;
namespace cel = sb::cel;

[[noreturn]] void die(const char* what, std::string_view input, const std::string& detail)
{
    std::fprintf(stderr, "%s\n--- input (%zu bytes) ---\n%.*s\n--- detail ---\n%s\n", what, input.size(),
                 static_cast<int>(input.size() > 2000 ? 2000 : input.size()), input.data(), detail.c_str());
    std::abort();
}

cel::Kind kindOf(rules::FieldType type)
{
    switch (type) {
    case rules::FieldType::Int: return cel::Kind::Int;
    case rules::FieldType::Double: return cel::Kind::Double;
    case rules::FieldType::Bool: return cel::Kind::Bool;
    case rules::FieldType::Timestamp: return cel::Kind::Timestamp;
    case rules::FieldType::String: return cel::Kind::String;
    }
    return cel::Kind::Null;
}

// A folder of this process's for the input and its shards (scratch()/shards), written over at each input.
const std::filesystem::path& scratch()
{
    static const std::filesystem::path dir = [] {
        std::string pattern = (std::filesystem::temp_directory_path() / "fuzz-dataset-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr)
            std::abort();
        std::filesystem::create_directory(std::filesystem::path(pattern) / "shards");
        return std::filesystem::path(pattern);
    }();
    return dir;
}

// The input read as a cluster reads it: cut into `n` shards, scanned, the scans merged, each shard read with
// the merged columns; the first error, or the shards' records and their reports merged.
struct Sharded {
    std::string error;
    std::vector<rules::Dataset> parts;
    rules::ReadReport report;
};

Sharded readInShards(std::string_view text, const std::string& source, const rules::ReadOptions& options, std::size_t n)
{
    Sharded out;
    const auto file = scratch() / source;
    std::ofstream(file, std::ios::binary).write(text.data(), static_cast<std::streamsize>(text.size()));
    rules::ReadOptions whole = options;
    whole.sourceName = source;
    auto head = rules::scanColumns(file, whole, true);
    if (!head) {
        out.error = head.error().message;
        return out;
    }
    auto shards = rules::splitDataFile(file, scratch() / "shards", {n, options.format, nullptr, {}});
    if (!shards) {
        out.error = "cannot cut: " + shards.error().message;
        return out;
    }
    rules::ReadOptions read = options;
    if (head->needed) {
        std::vector<rules::ColumnScan> scans;
        for (const auto& shard : *shards) {
            auto scan = rules::scanColumns(shard.path, rules::readOptionsFor(shard, options, source));
            if (!scan) {
                out.error = scan.error().message;
                return out;
            }
            scans.push_back(std::move(*scan));
        }
        auto merged = rules::mergeScans(scans, whole, source);
        if (!merged) {
            out.error = merged.error().message;
            return out;
        }
        read.columns = rules::settleColumns(*merged);
    }
    for (std::size_t k = 0; k < shards->size(); ++k) {
        rules::ReadReport report;
        auto data = rules::readDataset((*shards)[k].path, rules::readOptionsFor((*shards)[k], read, source), &report);
        if (!data) {
            out.error = data.error().message;
            return out;
        }
        out.report.records += report.records;
        out.report.kept += report.kept;
        out.report.badRows += report.badRows;
        out.parts.push_back(std::move(*data));
    }
    return out;
}

void compareWithShards(std::string_view text, const std::string& source, const rules::ReadOptions& options,
                       std::size_t n, const rules::Dataset* d, const rules::ReadReport& report, const std::string& error)
{
    const Sharded sharded = readInShards(text, source, options, n);
    if (sharded.error != error)
        die("read in shards, the first error is another", text, "whole: " + error + "\nshards: " + sharded.error);
    if (!d)
        return;
    if (sharded.report.records != report.records || sharded.report.kept != report.kept
        || sharded.report.badRows != report.badRows)
        die("read in shards, the report is another", text, std::to_string(sharded.report.kept));
    std::size_t row = 0;
    for (const rules::Dataset& part : sharded.parts) {
        if (part.schema() != d->schema() || part.idColumn() != d->idColumn())
            die("a shard read with other columns", text, "");
        const std::size_t before = row;
        for (std::size_t r = 0; r < part.rowCount(); ++r, ++row) {
            // Without an id column records are numbered, in a shard from 1 (renumberRecords makes them whole).
            const std::string id = part.idColumn() < 0 ? std::to_string(before + r + 1) : part.recordId(r);
            if (row >= d->rowCount() || part.sourceLine(r) != d->sourceLine(row) || id != d->recordId(row))
                die("a shard's record is not the whole input's", text, std::to_string(row));
            for (std::size_t c = 0; c < d->columnCount(); ++c) {
                if (rules::cellText(part.value(r, c)) != rules::cellText(d->value(row, c))
                    || part.isMissing(r, c) != d->isMissing(row, c))
                    die("a shard's cell is not the whole input's", text, std::to_string(row));
            }
        }
    }
    if (row != d->rowCount())
        die("the shards hold another number of records", text, std::to_string(row));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 1 || size > 64 * 1024)
        return 0;
    const std::uint8_t selector = data[0];
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);

    rules::ReadOptions options;
    options.format = (selector & 1) ? rules::DataFormat::JsonLines : rules::DataFormat::Csv;
    options.onBadRow = (selector & 2) ? rules::BadRowPolicy::Skip : rules::BadRowPolicy::Fail;
    if (selector & 4)
        options.declared = {{"amount", rules::FieldType::Double},
                            {"n", rules::FieldType::Int},
                            {"ok", rules::FieldType::Bool},
                            {"t", rules::FieldType::Timestamp},
                            {"id", rules::FieldType::Int}};
    if (selector & 8) {
        options.sample = 0.5;
        options.seed = selector;
    }
    options.maxRecordBytes = 2048; // small, so the limit is reached too
    options.maxColumns = 64;
    const std::string source = options.format == rules::DataFormat::Csv ? "fuzz.csv" : "fuzz.jsonl";

    rules::ReadOptions parallel = options;
    parallel.threads = 3;
    parallel.parallelMinBytes = 0;
    parallel.batchRecords = 3;

    rules::ReadReport report;
    auto read = rules::readDatasetText(text, source, options, &report);
    const bool inShards = (selector & 0x60) == 0x60 && !(selector & 8);
    const std::size_t shards = 2 + ((selector >> 7) & 1);
    if (!read) {
        const std::string& message = read.error().message;
        if (message.rfind(source + ":", 0) != 0)
            die("an error that does not name the source", text, message);
        if (inShards)
            compareWithShards(text, source, options, shards, nullptr, report, message);
        if (selector & 16) {
            auto again = rules::readDatasetText(text, source, parallel);
            if (again || again.error().message != message)
                die("three threads fail otherwise than one", text, message);
        }
        return 0;
    }
    const rules::Dataset& d = *read;
    if (static_cast<std::int64_t>(d.rowCount()) != report.kept)
        die("rows differ from the report's kept", text, std::to_string(d.rowCount()));
    if (report.records != report.kept + report.badRows + report.sampledOut && !report.stoppedAtMaxRows)
        die("the report does not add up", text, std::to_string(report.records));
    if (options.onBadRow == rules::BadRowPolicy::Fail && report.badRows != 0)
        die("bad rows skipped although the policy is fail", text, "");
    std::int64_t previousLine = 0;
    for (std::size_t row = 0; row < d.rowCount(); ++row) {
        if (d.sourceLine(row) <= previousLine)
            die("source lines not ascending", text, std::to_string(d.sourceLine(row)));
        previousLine = d.sourceLine(row);
        (void)d.recordId(row);
        for (std::size_t c = 0; c < d.columnCount(); ++c) {
            const cel::Value& v = d.value(row, c);
            if (v.isError())
                continue;
            if (v.kind() != kindOf(d.schema().fields[c].type))
                die("a cell of another type than its column", text, d.schema().fields[c].name);
            if (v.kind() == cel::Kind::String && !cel::isValidUtf8(v.asString()))
                die("a string cell that is not UTF-8", text, d.schema().fields[c].name);
        }
    }
    if (d.rowCount() > 0 && !d.findRecord(d.recordId(0)))
        die("the first record's id does not find a record", text, d.recordId(0));
    if (selector & 16) {
        rules::ReadReport parallelReport;
        auto again = rules::readDatasetText(text, source, parallel, &parallelReport);
        if (!again)
            die("fails on three threads but not on one", text, again.error().message);
        if (again->schema() != d.schema() || again->rowCount() != d.rowCount()
            || parallelReport.badRows != report.badRows || parallelReport.records != report.records)
            die("three threads read other records than one", text, "");
        for (std::size_t row = 0; row < d.rowCount(); ++row) {
            if (again->sourceLine(row) != d.sourceLine(row))
                die("three threads read other lines than one", text, std::to_string(row));
            for (std::size_t c = 0; c < d.columnCount(); ++c) {
                if (rules::cellText(again->value(row, c)) != rules::cellText(d.value(row, c)))
                    die("three threads read another cell than one", text, std::to_string(row));
            }
        }
    }
    if (inShards)
        compareWithShards(text, source, options, shards, &d, report, "");
    const std::string encoded = rules::encodeSnapshot(d);
    auto decoded = rules::decodeSnapshot(encoded, "dataset fuzz");
    if (!decoded)
        die("a snapshot that does not decode", text, decoded.error().message);
    if (rules::encodeSnapshot(*decoded) != encoded)
        die("a snapshot that does not read back the same", text, "");
    return 0;
}
