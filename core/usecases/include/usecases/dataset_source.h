#pragma once

// Which data a rule set runs on, for every front end.
//
// A data argument names a file when a file or folder exists at that path, when its extension names a format
// (.csv, .jsonl, .ndjson) or when it has a '/'; anything else is the name of a stored snapshot. A folder is read
// as one dataset of its data files (rules/data_folder.h). Within a sandbox, a name is
// one of the sandbox's dataset references, and the snapshot it names must still have the SHA-256 the sandbox
// recorded. The fields every rule set declares type the data's columns; one name declared with two types is an
// error.

#include "rules/data_folder.h"
#include "rules/dataset.h"
#include "rules/dataset_store.h"
#include "rules/ruleset.h"
#include "store/store.h"
#include "util/error.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sb {

// A rule set that declares fields, with where it came from (a file's path, a tab's title) for messages.
struct DeclaringRuleSet {
    std::string origin;
    const rules::RuleSet* ruleSet = nullptr;
};

// NAME:TYPE texts as fields.
Result<std::vector<rules::Field>> parseFieldFlags(const std::vector<std::string>& flags);

// The fields the NAME:TYPE texts give, then those every rule set declares, in that order; one name declared
// with two types is an error naming both places.
Result<std::vector<rules::Field>> declaredFields(const std::vector<DeclaringRuleSet>& ruleSets,
                                                 const std::vector<std::string>& flags = {});

// "fail" or "skip".
Result<rules::BadRowPolicy> badRowPolicy(const std::string& text);

struct DatasetRequest {
    std::string data;                     // a file, a folder of them, or a stored snapshot's name
    std::vector<rules::Field> declared;   // the columns' types the rule sets declare
    std::string idColumn;                 // a file's: empty takes `id` when there is one
    std::string onBadRow = "fail";        // a file's bad rows: fail, skip
    std::string sandbox;                  // resolve a name through this sandbox's dataset references
    bool storeIfNotReferenced = false;    // a name the sandbox does not refer to: the store's snapshot of it
    const std::atomic<bool>* cancel = nullptr;                         // reading a file stops when set
    std::function<void(std::uint64_t done, std::uint64_t total)> progress; // reading a file
};

struct ResolvedDataset {
    rules::Dataset data;
    rules::ReadReport report;
    std::optional<rules::DatasetInfo> stored; // set when the request named a stored snapshot
    bool folder = false;                      // set when it named a folder of data files
};

// Opens the store when a request names a stored snapshot (a file needs none).
using StoreOpener = std::function<Result<Store>()>;

// Whether a data argument names a file or a folder (else a stored snapshot), as the rule above says.
bool namesDataFile(const std::string& data);

// How the file or folder a request names is read: its path, the reader's options and, of a folder, its data
// files (an error when there is no such file, its format is not known, or the folder's files are not one
// dataset). What resolveDataset reads it with, and what a cluster's tasks read its shards with.
struct FileReading {
    std::filesystem::path path;
    rules::ReadOptions options;
    std::optional<rules::DataFolder> folder; // set when path is a folder
};
Result<FileReading> fileReading(const DatasetRequest& request);

// The data a request names, read and typed by the declared fields.
Result<ResolvedDataset> resolveDataset(const DatasetRequest& request, const StoreOpener& openStore);

struct DatasetImport {
    std::string file;                   // .csv, .jsonl or .ndjson
    std::string name;                   // the snapshot's
    std::vector<rules::Field> declared; // the columns' types
    std::vector<std::string> fieldFlags; // NAME:TYPE texts, more of them
    std::string idColumn;               // empty: `id` when there is one
    std::string onBadRow = "fail";      // fail, skip
    double sample = 1.0;                // deterministic sampling (rules::ReadOptions)
    std::uint64_t seed = 0;
    std::uint64_t maxRows = 0;          // 0: no limit
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(std::uint64_t done, std::uint64_t total)> progress;
};

// Reads a file and stores it as an immutable snapshot (refused when the name is taken; a folder is refused: a
// snapshot is the import of one file).
Result<rules::ImportResult> importDatasetFile(const DatasetImport& request, const StoreOpener& openStore);

// The names of the store's snapshots, newest last.
Result<std::vector<std::string>> storedDatasetNames(const Store& store);

} // namespace sb
