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

#include "rules/dataset.h"
#include "util/error.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <vector>

namespace sb::rules {

struct Shard {
    std::filesystem::path path;
    std::int64_t lineOffset = 0; // ReadOptions::lineOffset
    bool atInputStart = false;   // the first shard
    std::uint64_t bytes = 0;     // of the input's, the header not counted
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

// The options to read a shard of the input `options` read, under the input's name `source`.
ReadOptions readOptionsFor(const Shard& shard, ReadOptions options, const std::string& source);

} // namespace sb::rules
