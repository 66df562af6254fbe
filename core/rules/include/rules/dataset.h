#pragma once

// Datasets: the records rule sets are evaluated on, read from CSV (a header row, RFC 4180 quoting, LF or
// CRLF, an optional UTF-8 BOM) or JSON Lines (one object per line; nested objects become dotted fields,
// "merchant": {"country": "FR"} is merchant.country), streamed from the file in blocks.
//
// Every column has one type (schema.h): declared by the caller (a rule set's `fields:`, --field), else
// inferred from the values of the records read: int when every value is an integer, double when every value
// is a number, bool (true/false), timestamp (RFC 3339), else string. An empty CSV cell of a non-string column
// and a JSON null or absent field are missing values; a rule condition that reads one gets an error ("no
// value for 'amount'"), counted per rule, never a crash. The id column (`id`, or the one named) is a string
// unless declared otherwise; without one, records are identified by their number (1, 2, ...).
//
// In memory a dataset is columnar: one array of CEL values per column (16 bytes a cell, strings viewing the
// dataset's own arena, repeated strings stored once), so an evaluation reads a record's fields without
// converting anything.
//
// Reading is two passes over the file when some column's type must be inferred (the first only checks
// values), one pass otherwise. A record that cannot be read (wrong number of fields, a value that is not
// of its column's declared type, invalid UTF-8, broken quoting, invalid JSON) is a bad row: reported with
// its line, and either refused (the read fails naming it) or skipped and counted — the caller chooses, and
// skipped rows are always reported. Input that is not text at all (a NUL byte), a record longer than the
// limit or a quote never closed fails the read whatever the choice, naming the line.

#include "cel/value.h"
#include "rules/schema.h"
#include "util/error.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sb::rules {

enum class DataFormat : std::uint8_t { Csv, JsonLines };
std::string_view toString(DataFormat format); // "csv", "jsonl"
// By extension: .csv, .jsonl, .ndjson (any case); empty for anything else.
std::optional<DataFormat> formatForPath(const std::filesystem::path& path);

enum class BadRowPolicy : std::uint8_t { Fail, Skip };
std::string_view toString(BadRowPolicy policy); // "fail", "skip"

struct ReadOptions {
    DataFormat format = DataFormat::Csv;
    std::vector<Field> declared; // types of these columns; a declared name the input lacks is an error
    std::string idColumn;        // empty: `id` when the input has that column, else record numbers
    BadRowPolicy onBadRow = BadRowPolicy::Fail;
    // Deterministic sampling: the n-th record of the input (0-based, bad ones included) is kept when a hash
    // of (seed, n) falls below `sample`, so the same file, ratio and seed always keep the same records.
    double sample = 1.0;
    std::uint64_t seed = 0;
    std::uint64_t maxRows = 0; // stop after this many records kept; 0: no limit
    std::size_t maxRecordBytes = 1u << 20;
    std::size_t maxColumns = 4096;
    std::size_t maxBadRowExamples = 20;
    // CSV is split into records on the calling thread and checked and converted on `threads` (0: one per
    // core) when the input is at least parallelMinBytes long and there is no row limit; the result is the
    // same as on one thread. batchRecords: records handed to a thread at a time.
    unsigned threads = 0;
    std::uint64_t parallelMinBytes = 4u << 20;
    std::size_t batchRecords = 8192;
    const std::atomic<bool>* cancel = nullptr;
    // Called every few megabytes with the bytes read so far and the input's size (0 when unknown); the
    // first pass counts for half when there are two.
    std::function<void(std::uint64_t done, std::uint64_t total)> progress;

    // A shard of a larger input (rules/shards.h). lineOffset is added to the line numbers of its records (not
    // to a CSV header's), so that messages and records name the whole input's lines. A shard that does not
    // start where the whole input does has no byte-order mark to skip and no first block of the input to
    // check for binary content (the whole input's was checked where it was split).
    std::int64_t lineOffset = 0;
    bool atInputStart = true;
    // What messages and Dataset::source() call the input instead of its path (a shard: the whole input).
    std::string sourceName;
    // The columns in order and their types, as a scan of the whole input settled them (settleColumns): read
    // in one pass, nothing inferred. A CSV header naming other columns is an error.
    std::optional<std::vector<Field>> columns;
    // CSV: the columns to keep (empty: every one). The others are read as ever (a record's field count, its
    // UTF-8, a declared type checked, an undeclared type inferred for ReadReport::columns) but their values
    // are not kept, and the dataset has only the columns kept, the id column and the declared ones, in the
    // input's order. A first pass is needed only when a column kept has no declared type.
    std::function<bool(std::string_view column)> keepColumn;
};

struct BadRow {
    std::int64_t line = 0; // where the record starts (1-based)
    std::string message;
    std::string file; // the file of a folder the line is in (empty: the one input the report is of)
};

struct ReadReport {
    std::int64_t records = 0;           // data records in the input (blank lines are not records)
    std::int64_t kept = 0;              // records in the dataset
    std::int64_t sampledOut = 0;        // left out by sampling
    std::int64_t badRows = 0;           // skipped as bad
    std::vector<BadRow> badRowExamples; // the first ReadOptions::maxBadRowExamples of them
    bool stoppedAtMaxRows = false;
    // Every column of the input in order, with its type (declared, or inferred), the ones
    // ReadOptions::keepColumn left out of the dataset included.
    std::vector<Field> columns;
};

class DatasetBuilder;

class Dataset {
public:
    Dataset() = default;
    Dataset(Dataset&&) noexcept = default;
    Dataset& operator=(Dataset&&) noexcept = default;
    Dataset(const Dataset&) = delete;
    Dataset& operator=(const Dataset&) = delete;

    const Schema& schema() const { return m_schema; }
    std::size_t rowCount() const { return m_lines.size(); }
    std::size_t columnCount() const { return m_columns.size(); }
    std::span<const cel::Value> column(std::size_t index) const { return m_columns[index]; }
    const cel::Value& value(std::size_t row, std::size_t column) const { return m_columns[column][row]; }
    bool isMissing(std::size_t row, std::size_t column) const { return value(row, column).isError(); }

    // The column that identifies records, or -1 (records are then identified by their number, from 1).
    int idColumn() const { return m_idColumn; }
    // The record's id as text: the id column's value (a string as it is, a number in decimal), else "N".
    std::string recordId(std::size_t row) const;
    // The first record with this id, if any.
    std::optional<std::size_t> findRecord(std::string_view id) const;
    // The line of the source file the record starts on (for messages), 0 when not known.
    std::int64_t sourceLine(std::size_t row) const { return m_lines[row]; }
    // What the records were read from, for messages: a file path, a folder or "dataset NAME".
    const std::string& source() const { return m_source; }
    // What the record was read from: of data read from several files (a folder), the file; else source().
    const std::string& recordSource(std::size_t row) const;

    // The value a missing field of `column` has: an error naming the field.
    cel::Value missing(std::size_t column) const { return m_missing[column]; }

    // Gives the columns `declared` names the declared type where that loses nothing (an int column declared
    // double); any other difference is an error naming the column. Names the data lacks are left alone.
    Result<void> adaptTo(const std::vector<Field>& declared);

private:
    friend class DatasetBuilder;
    Schema m_schema;
    std::vector<std::vector<cel::Value>> m_columns;
    std::vector<cel::Value> m_missing;
    std::vector<std::int64_t> m_lines;
    int m_idColumn = -1;
    std::string m_source;
    // Of data read from several files: where each file's records start (row) and its name; else empty.
    std::vector<std::pair<std::size_t, std::string>> m_parts;
    cel::Arena m_strings;                  // the bytes string cells view
    std::vector<cel::Arena> m_moreStrings; // the same, of parts read on other threads
};

// Fills a Dataset column by column or row by row (readers, snapshots, the demo generator).
class DatasetBuilder {
public:
    // `idColumn`: the index of the id column in `schema`, or -1.
    DatasetBuilder(Schema schema, int idColumn, std::string source);
    ~DatasetBuilder();
    DatasetBuilder(const DatasetBuilder&) = delete;
    DatasetBuilder& operator=(const DatasetBuilder&) = delete;

    const Schema& schema() const { return m_data.m_schema; }
    int idColumn() const { return m_data.m_idColumn; }
    void reserve(std::size_t rows);
    // One record's cells, by column; strings are copied (repeated ones stored once).
    void addRow(std::span<const cel::Value> cells, std::int64_t line);
    cel::Value string(std::size_t column, std::string_view text);
    cel::Value missing(std::size_t column) const { return m_data.m_missing[column]; }
    // Whole columns at once (snapshots): cells of strings must view strings made by string().
    std::vector<cel::Value>& columnCells(std::size_t column) { return m_data.m_columns[column]; }
    std::vector<std::int64_t>& lines() { return m_data.m_lines; }
    // Appends the rows of a part built with the same schema (its strings move along).
    void append(DatasetBuilder&& part);
    // Appends the records of a dataset read from another file with the same columns and id column (its strings
    // move along); recordSource names that file for them.
    void append(Dataset&& part);
    std::size_t rowCount() const { return m_data.m_lines.size(); }
    Dataset finish();

private:
    Dataset m_data;
    struct Interner;
    std::vector<std::unique_ptr<Interner>> m_interners;
};

// Reads a CSV or JSON Lines file (format from options.format). Errors name the file and the line:
// "data.csv:7: expected 5 fields, found 4".
Result<Dataset> readDataset(const std::filesystem::path& path, const ReadOptions& options,
                            ReadReport* report = nullptr);
// The same from text in memory; `sourceName` stands for the file in messages.
Result<Dataset> readDatasetText(std::string_view text, std::string_view sourceName, const ReadOptions& options,
                                ReadReport* report = nullptr);

// ---- Reading in parts -------------------------------------------------------------------------------------
//
// Work that needs each record once (an evaluation, an impact's tally) need not hold them all: the records go to
// a PartConsumer in parts as they are read, each part is worked on by the thread that converted it and then
// dropped, and the consumer adds up what it made of the parts in record order. Memory is then bounded by the
// parts in flight, not by the input.
class PartConsumer {
public:
    // What process() made of a part.
    struct Done {
        virtual ~Done() = default;
    };
    virtual ~PartConsumer() = default;
    // Once, on the calling thread, before any part: the columns the parts have (those kept) and the id
    // column among them (-1: none). An error ends the read with it.
    virtual Result<void> start(const Schema& schema, int idColumn) = 0;
    // On any reading thread, in any order: one part's records (rows from 0; records without an id are
    // named by their number in the part).
    virtual std::unique_ptr<Done> process(const Dataset& part) = 0;
    // On the calling thread, in record order: what process() made of the next part, and the number of
    // records kept before that part. An error ends the read with it.
    virtual Result<void> merge(std::unique_ptr<Done> done, std::int64_t recordsBefore) = 0;
};

// Reads as readDataset does, but hands the records to `consumer`: a CSV file of at least
// ReadOptions::parallelMinBytes read on several threads in parts of about ReadOptions::batchRecords records;
// anything else read whole and handed on as one part. The dataset returned has the schema, id column and source
// of the parts, and no records. Bad rows, errors and the report are those of readDataset.
Result<Dataset> readDatasetInParts(const std::filesystem::path& path, const ReadOptions& options,
                                   PartConsumer& consumer, ReadReport* report = nullptr);

// ---- Scans: the first pass on its own, for an input read in shards -------------------------------------------

// What the first pass over an input, or over a shard of it, finds: the columns in order of first appearance,
// and what each undeclared column's values allow. The scans of an input's shards, merged in order, are the
// scan of the whole input, so the types settled from them are those one read of the whole input gives.
struct ColumnScan {
    struct Column {
        std::string name;
        std::optional<FieldType> declared;
        std::uint8_t allowed = 0;   // CSV: the types every value could be; JSON Lines: the kinds of value seen
        bool sawValue = false;      // CSV: a non-empty value was seen
        std::int64_t firstLine = 0; // JSON Lines: the line it first appears on
    };
    DataFormat format = DataFormat::Csv;
    std::vector<Column> columns;
    std::string source; // what the lines are lines of: ReadOptions::sourceName, else the path scanned
    bool needed = true; // false: every column is declared (a CSV file), and one pass reads it
    // JSON Lines: the scan stopped at this error on this line (a line too long, binary content); `columns` are
    // those seen before it. A scan past ReadOptions::maxColumns distinct fields stops with one more column.
    std::string error;
    std::int64_t errorLine = 0;
};

// The first pass of readDataset over `path` (options as for reading it): its columns and what their values
// allow. Fails as reading would fail in that pass (a record longer than the limit, binary content, ...).
// headerOnly: no records are read, only whether a scan is needed (ColumnScan::needed) and, of a CSV file,
// its header is learnt; it fails as reading would on the input's first bytes and header.
Result<ColumnScan> scanColumns(const std::filesystem::path& path, const ReadOptions& options, bool headerOnly = false);

// The scans of the shards of one input, in the input's order, as the scan of the whole of it; its error is the
// whole input's first: more distinct fields than options.maxColumns (named by the line the first one too many
// appears on, in the file its scan names) or a shard's scan's error, whichever comes first. `source` names the
// input in messages. The files of a folder are one input of this kind (rules/data_folder.h).
Result<ColumnScan> mergeScans(const std::vector<ColumnScan>& parts, const ReadOptions& options,
                              std::string_view source);

// The columns' types as a read of the whole input settles them (for ReadOptions::columns).
std::vector<Field> settleColumns(const ColumnScan& scan);

// Text of a value as a dataset would read it back: integers in decimal, doubles in the shortest form that
// reads back the same, bools as true/false, timestamps in RFC 3339, strings as they are; missing: empty.
std::string cellText(const cel::Value& value);

// Whether sampling keeps the `ordinal`-th record (see ReadOptions::sample).
bool sampleKeeps(std::uint64_t seed, std::uint64_t ordinal, double ratio);

} // namespace sb::rules
