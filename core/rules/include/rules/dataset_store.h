#pragma once

// Dataset snapshots in the store: an import reads a CSV or JSON Lines file (optionally sampled or cut),
// and stores the records as they were read, immutable, under a name. A snapshot is Sandbench's columnar
// format (a JSON header with the schema, then each column's values) compressed with zstd; its SHA-256 is of
// the uncompressed snapshot, so the same records with the same schema always hash the same, and a load checks
// it. Importing appends a `dataset.import` entry to the audit log in the same transaction.

#include "rules/dataset.h"
#include "util/error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sb {
class Store;
}

namespace sb::rules {

struct DatasetInfo {
    std::int64_t id = 0;
    std::string name;
    std::string sha256; // of the uncompressed snapshot, lower-case hex
    std::int64_t rows = 0;
    Schema schema;
    std::string idColumn;     // empty: records are numbered
    std::string source;       // the file it was imported from, as given
    std::string sourceFormat; // csv, jsonl
    double sampleRatio = 1.0;
    std::uint64_t seed = 0;
    std::uint64_t maxRows = 0;
    std::int64_t badRows = 0; // skipped at import
    std::int64_t createdAtMs = 0;
    std::int64_t size = 0;       // bytes of the uncompressed snapshot
    std::int64_t storedSize = 0; // bytes stored (compressed)
};

// A name for a snapshot: 1 to 100 letters, digits, '_', '-', '.', not ending in a data file's extension
// (so --data NAME never means a file).
bool isValidDatasetName(std::string_view name);

struct ImportResult {
    DatasetInfo info;
    ReadReport report;
};

// Reads `file` with `options` and stores it as `name` (refused when the name is taken: snapshots are
// immutable).
Result<ImportResult> importDataset(Store& store, const std::filesystem::path& file, const std::string& name,
                                   const ReadOptions& options);

// A new snapshot `name` of the records of the stored snapshot `from` that sampling keeps: record N (counted
// from 0) when sampleKeeps(seed, N, ratio), so the same snapshot, ratio and seed always give the same records.
// Audited as dataset.sample.
Result<DatasetInfo> sampleDataset(Store& store, std::string_view from, const std::string& name, double ratio,
                                  std::uint64_t seed);
// Removes a snapshot (audited as dataset.remove, with `why`).
Result<void> removeDataset(Store& store, std::string_view name, std::string_view why);

// The snapshot format itself (for tests and tools): encode() gives the bytes the hash is of.
std::string encodeSnapshot(const Dataset& data);
// The records [first, first + count) of `data` as a snapshot of their own: decoded, they are those records with
// their values, lines, columns and id column.
std::string encodeSnapshot(const Dataset& data, std::size_t first, std::size_t count);
Result<Dataset> decodeSnapshot(std::string_view bytes, std::string source);
// A snapshot compressed as the store keeps it (zstd), and back: `size` is the uncompressed snapshot's, known
// beforehand; a frame of another size, or one that does not decompress, is a damaged snapshot of `source`.
Result<std::string> compressSnapshot(std::string_view snapshot);
Result<std::string> decompressSnapshot(std::string_view packed, std::uint64_t size, const std::string& source);

Result<std::vector<DatasetInfo>> listDatasets(const Store& store);
Result<std::optional<DatasetInfo>> findDataset(const Store& store, std::string_view name);
// The records of a stored snapshot, their hash checked.
Result<Dataset> loadDataset(const Store& store, std::string_view name, DatasetInfo* info = nullptr);

} // namespace sb::rules
