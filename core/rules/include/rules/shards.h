#pragma once

// A data file cut into shards, so that its records can be read and evaluated on other machines (a Slurm array
// job, one shard a task) and the results merged into the whole file's.
//
// Shards are cut between records, as the readers split records: a CSV record ends at a line end outside a
// quoted field (a quote only opens a field at the field's start, "" inside one is a quote, text after a
// closing quote makes a broken record that ends at the next line end); a JSON Lines record at any line end.
// Each CSV shard is a file of the input's header followed by its records; a JSON Lines shard holds its lines
// only. Each shard knows where its records start in the whole input, so that reading it with the shard's
// ReadOptions (readOptionsFor) names the whole input's lines, and a merge can put results in record order.
//
// Shards are about the same size in bytes; a small input gives fewer shards than asked (never an empty one).
// An input the readers would refuse (empty, a quote never closed) is still cut; reading its shards fails as
// reading it whole would, on the same line.
//
// Several files read as one input (a folder's, rules/data_folder.h) are cut the same way, as if they were one
// run of bytes: a shard is then a list of pieces, each a row range of one file (a small file whole, a big one
// cut), in the files' order. Each piece is read as that file's shard and named by it in messages.
//
// A stored snapshot, loaded (rules/dataset_store.h), is cut by records instead: into row ranges of about the
// same number of records, each written as a snapshot of its own records, compressed as the store compresses
// them, with its SHA-256. Reading one back checks that hash and gives exactly those records (values, types,
// lines, id column): nothing is parsed or inferred again, so no scan is needed.

#include "rules/dataset.h"
#include "util/error.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace sb::rules {

struct Shard {
    std::filesystem::path path;
    std::int64_t lineOffset = 0; // ReadOptions::lineOffset
    bool atInputStart = false;   // the first shard
    std::uint64_t bytes = 0;     // of the input's, the header not counted
    std::string source;          // the file it is of, in messages, when it is a piece of one of several files
};

struct SplitOptions {
    std::size_t shards = 2;
    DataFormat format = DataFormat::Csv;
    const std::atomic<bool>* cancel = nullptr;
    // The bytes of the input scanned so far, and its size.
    std::function<void(std::uint64_t done, std::uint64_t total)> progress;
};

// Cuts `input` into at most options.shards files in `folder` (shard-000.csv, ...; the folder must exist).
Result<std::vector<Shard>> splitDataFile(const std::filesystem::path& input, const std::filesystem::path& folder,
                                         const SplitOptions& options);

// Cuts the files, as one input in their order, into at most options.shards shards of pieces in `folder`
// (piece-0000.csv, ...): each file's pieces are its shards, named by the file's path (Shard::source).
Result<std::vector<std::vector<Shard>>> splitDataFiles(const std::vector<std::filesystem::path>& files,
                                                       const std::filesystem::path& folder,
                                                       const SplitOptions& options);

// The options to read a shard of the input `options` read, under the input's name `source` (or the shard's own
// source, a piece of one of several files).
ReadOptions readOptionsFor(const Shard& shard, ReadOptions options, const std::string& source);

// A row range of a stored snapshot, as splitSnapshot wrote it.
struct SnapshotShard {
    std::filesystem::path path;
    std::uint64_t rows = 0; // its records
    std::uint64_t size = 0; // bytes of its snapshot, uncompressed
    std::string sha256;     // of its snapshot, uncompressed, lower-case hex
};

// Cuts `data` into at most options.shards row ranges of about the same number of records (one shard when it
// has none), written to `folder` (snapshot-000.zst, ...; the folder must exist). options.progress counts
// records.
Result<std::vector<SnapshotShard>> splitSnapshot(const Dataset& data, const std::filesystem::path& folder,
                                                 const SplitOptions& options);

// The records of a snapshot's shard, named `source` (the whole snapshot's Dataset::source()); an error when its
// file is missing, is not the size it was written at, or does not match its SHA-256.
Result<Dataset> readSnapshotShard(const SnapshotShard& shard, std::string source);

// Reads shards in order as one input named `source`: when options.columns are not given and some column's type
// must be inferred, each is scanned, the scans merged and the types settled, then each is read
// with those columns and the records put one after another. The first error is the one a cluster's tasks meet
// in that order: the first shard's that cannot be scanned, the merge's, the first that cannot be read. The
// report adds up the shards'; a bad row of a piece of one of several files names that file (BadRow::file).
Result<Dataset> readShards(const std::vector<Shard>& shards, ReadOptions options, const std::string& source,
                           ReadReport* report = nullptr);

} // namespace sb::rules
