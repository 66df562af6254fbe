#include "store/schema.h"

#include <array>
#include <string_view>

// The checkpoints' table in the store (blob_store.h), which Store::open creates and migrates (store/schema.h).

namespace sb {

namespace {

// blobs: every stored piece of content -- a whole file, a chunk of a large one, a large file's chunk list, a
// directory listing -- once, under the SHA-256 of its uncompressed bytes, zstd-compressed when that is
// smaller. Schema version 4 creates it before the sandboxes' tables (core/sandboxes/store_tables.cpp).
constexpr std::string_view kSchemaV4 = R"sql(
CREATE TABLE blobs (
    id INTEGER PRIMARY KEY,
    hash BLOB NOT NULL UNIQUE CHECK (length(hash) = 32),
    kind INTEGER NOT NULL CHECK (kind IN (0, 1, 2)),
    size INTEGER NOT NULL CHECK (size >= 0),
    codec INTEGER NOT NULL CHECK (codec IN (0, 1)),
    data BLOB NOT NULL
);
)sql";

constexpr std::array<std::string_view, 1> kObjectsV4 = {"blobs"};
// Each blob is checked against the SHA-256 of its bytes whenever it is read (BlobStore), so the open-time check
// leaves them out: they are most of a store with checkpoints.
constexpr std::array<std::string_view, 1> kSelfCheckingV4 = {"blobs"};

constexpr std::array kSteps = {
    SchemaStep{.version = 4,
               .part = 1,
               .parts = 2,
               .sql = kSchemaV4,
               .objects = kObjectsV4,
               .selfCheckingTables = kSelfCheckingV4},
};

[[maybe_unused]] const bool kRegistered = registerModuleSchema(ModuleSchema{"checkpoints", kSteps});

} // namespace

} // namespace sb
