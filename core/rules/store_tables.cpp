#include "store/schema.h"

#include <array>
#include <string_view>

// The dataset snapshots' table in the store (dataset_store.h), which Store::open creates and migrates
// (store/schema.h).

namespace sb {

namespace {

// Dataset snapshots (dataset_store.h): immutable imports of CSV / JSON Lines records, one row each,
// the records in Sandbench's columnar snapshot format compressed with zstd. sha256 is of the uncompressed
// snapshot (the content: same records, same hash); schema is JSON ([{name, type}]).
constexpr std::string_view kSchemaV5 = R"sql(
CREATE TABLE datasets (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    sha256 TEXT NOT NULL CHECK (length(sha256) = 64),
    row_count INTEGER NOT NULL CHECK (row_count >= 0),
    schema TEXT NOT NULL,
    id_column TEXT NOT NULL DEFAULT '',
    source TEXT NOT NULL DEFAULT '',
    source_format TEXT NOT NULL DEFAULT '',
    sample_ratio REAL NOT NULL DEFAULT 1.0,
    seed INTEGER NOT NULL DEFAULT 0,
    max_rows INTEGER NOT NULL DEFAULT 0,
    bad_rows INTEGER NOT NULL DEFAULT 0,
    created_at_ms INTEGER NOT NULL,
    codec TEXT NOT NULL CHECK (codec IN ('zstd')),
    size INTEGER NOT NULL CHECK (size >= 0),
    data BLOB NOT NULL
);
)sql";

constexpr std::array<std::string_view, 1> kObjectsV5 = {"datasets"};

constexpr std::array kSteps = {
    SchemaStep{.version = 5, .sql = kSchemaV5, .objects = kObjectsV5},
};

[[maybe_unused]] const bool kRegistered = registerModuleSchema(ModuleSchema{"rules", kSteps});

} // namespace

} // namespace sb
