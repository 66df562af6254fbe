#pragma once

// A folder of data files as one dataset: the CSV or JSON Lines files directly in it (.csv, .jsonl, .ndjson, any
// case), sorted by name byte for byte, read one after another as if they were one file. Subfolders are not
// read, nor hidden files (a name starting with '.'), nor files of other extensions (a _SUCCESS marker, a
// README): a folder a job wrote its parts to reads as the parts. Anything else with a data extension (a FIFO, a
// device, a file above the data file cap) is refused on reading, as the same file named alone is.
//
// All the files have one format (a folder of CSV and JSON Lines files is refused, naming one of each), and CSV
// files one header (a file whose header differs is refused, naming it and the first column that differs).
// Each file is read as itself: its byte-order mark, its own line numbers in every message and bad row, named
// by its path (FOLDER/part-002.csv:17: ...). As one input, the columns' types are inferred over all the files
// together, and records without an id column are numbered across the folder (1, 2, ... in file order).

#include "rules/dataset.h"
#include "rules/shards.h"
#include "util/error.h"

#include <filesystem>
#include <string>
#include <vector>

namespace sb::rules {

struct DataFolder {
    std::filesystem::path path;
    DataFormat format = DataFormat::Csv;
    std::vector<std::filesystem::path> files; // path / name, in name order
};

// The data files of `folder` as above; refused when it cannot be listed, has none, or has two formats.
Result<DataFolder> listDataFolder(const std::filesystem::path& folder);

// What reading the files would refuse on their first bytes (binary content, no header, a header that is not
// UTF-8, a declared column a CSV header lacks), checked file by file, and that every CSV file has the first
// one's header. The first file's header-only scan (scanColumns): ColumnScan::needed says whether types must
// be inferred.
Result<ColumnScan> scanFolderHeads(const DataFolder& folder, const ReadOptions& options);

// The folder's files as the shards of one input, each read whole and named by its path (readShards).
std::vector<Shard> wholeFiles(const DataFolder& folder);

// Reads the folder's files as one input named `source` (the folder as named): heads checked, then readShards.
Result<Dataset> readDataFolder(const DataFolder& folder, const ReadOptions& options, const std::string& source,
                               ReadReport* report = nullptr);

} // namespace sb::rules
