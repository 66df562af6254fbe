#include "store/schema.h"

#include <array>
#include <string_view>

// The sandboxes' tables in the store (sandbox_engine.h), which Store::open creates and migrates
// (store/schema.h). docs/CHECKPOINTS.md describes the design.

namespace sb {

namespace {

// Sandboxes and their checkpoints, after the checkpoints' blobs (core/checkpoints/store_tables.cpp) in the same
// schema version. checkpoints: immutable snapshots (a root tree hash plus who, when, why), linked to their
// parents in checkpoint_parents (first parent seq 0; a merge has more). workspace_stat: per sandbox, what each
// file looked like when last hashed, one row per directory, so a checkpoint after a small change reads only
// the changed files.
// workspace_journal: a restore between swapping the workspace folder and recording it, for the next open to
// finish or undo.
constexpr std::string_view kSchemaV4 = R"sql(
CREATE TABLE sandboxes (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    owner TEXT NOT NULL DEFAULT '',
    created_at_ms INTEGER NOT NULL,
    expires_at_ms INTEGER,
    origin TEXT NOT NULL DEFAULT '',
    includes TEXT NOT NULL DEFAULT '[]',
    excludes TEXT NOT NULL DEFAULT '[]',
    head_id INTEGER REFERENCES checkpoints(id) ON DELETE SET NULL
);
CREATE TABLE checkpoints (
    id INTEGER PRIMARY KEY,
    checkpoint_id TEXT NOT NULL UNIQUE CHECK (length(checkpoint_id) = 64),
    sandbox_id INTEGER REFERENCES sandboxes(id) ON DELETE SET NULL,
    sandbox_name TEXT NOT NULL,
    tree BLOB NOT NULL CHECK (length(tree) = 32),
    kind TEXT NOT NULL CHECK (kind IN ('checkpoint', 'auto', 'restore', 'fork', 'create', 'import', 'promote')),
    label TEXT NOT NULL DEFAULT '',
    message TEXT NOT NULL DEFAULT '',
    author TEXT NOT NULL DEFAULT '',
    created_at_ms INTEGER NOT NULL,
    source_id INTEGER REFERENCES checkpoints(id) ON DELETE SET NULL,
    files INTEGER NOT NULL DEFAULT 0,
    bytes INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE checkpoint_parents (
    child_id INTEGER NOT NULL REFERENCES checkpoints(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    parent_id INTEGER NOT NULL REFERENCES checkpoints(id) ON DELETE CASCADE,
    PRIMARY KEY (child_id, seq)
) WITHOUT ROWID;
CREATE TABLE workspace_stat (
    id INTEGER PRIMARY KEY,
    sandbox_id INTEGER NOT NULL REFERENCES sandboxes(id) ON DELETE CASCADE,
    path BLOB NOT NULL,
    data BLOB NOT NULL,
    UNIQUE (sandbox_id, path)
);
CREATE TABLE workspace_journal (
    id INTEGER PRIMARY KEY,
    sandbox_id INTEGER NOT NULL REFERENCES sandboxes(id) ON DELETE CASCADE,
    staging TEXT NOT NULL,
    target_path BLOB NOT NULL,
    staging_inode INTEGER NOT NULL,
    plan TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL
);
CREATE INDEX checkpoints_sandbox ON checkpoints(sandbox_id, created_at_ms);
CREATE INDEX checkpoints_source ON checkpoints(source_id);
CREATE INDEX checkpoint_parents_parent ON checkpoint_parents(parent_id);
CREATE INDEX sandboxes_head ON sandboxes(head_id);
)sql";

constexpr std::array<std::string_view, 9> kObjectsV4 = {
    "sandboxes",           "checkpoints",        "checkpoint_parents",        "workspace_stat", "workspace_journal",
    "checkpoints_sandbox", "checkpoints_source", "checkpoint_parents_parent", "sandboxes_head"};
// The workspaces' stat cache, which a walk ignores when it cannot read it: the open-time check leaves it out.
constexpr std::array<std::string_view, 1> kSelfCheckingV4 = {"workspace_stat"};

// Sandbox governance (docs/CHECKPOINTS.md): a size quota on the live workspace, an idle
// timeout with the last activity it is measured from (NULL: the creation time), a state (an archived
// sandbox's workspace folder is removed, its head checkpoint kept, and written again on its next use), the
// policy its runs use ("" none, "preset:NAME" or "NAME@VERSION" of the policies table) and the dataset
// snapshots it refers to (JSON). A checkpoint keeps the policy and dataset references of its moment in
// `meta` (JSON, "" for none and for every older checkpoint, whose ids are thus unchanged), and a label given
// or cleared after it was made in `relabel` (NULL: the label it was made with), apart from what its id hashes.
constexpr std::string_view kSchemaV6 = R"sql(
ALTER TABLE sandboxes ADD COLUMN quota_bytes INTEGER CHECK (quota_bytes IS NULL OR quota_bytes > 0);
ALTER TABLE sandboxes ADD COLUMN idle_timeout_ms INTEGER CHECK (idle_timeout_ms IS NULL OR idle_timeout_ms > 0);
ALTER TABLE sandboxes ADD COLUMN last_activity_ms INTEGER;
ALTER TABLE sandboxes ADD COLUMN state TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'archived'));
ALTER TABLE sandboxes ADD COLUMN policy TEXT NOT NULL DEFAULT '';
ALTER TABLE sandboxes ADD COLUMN datasets TEXT NOT NULL DEFAULT '[]';
ALTER TABLE checkpoints ADD COLUMN meta TEXT NOT NULL DEFAULT '';
ALTER TABLE checkpoints ADD COLUMN relabel TEXT;
)sql";

constexpr std::array kSteps = {
    SchemaStep{.version = 4,
               .part = 2,
               .parts = 2,
               .sql = kSchemaV4,
               .objects = kObjectsV4,
               .selfCheckingTables = kSelfCheckingV4},
    SchemaStep{.version = 6, .sql = kSchemaV6},
};

[[maybe_unused]] const bool kRegistered = registerModuleSchema(ModuleSchema{"sandboxes", kSteps});

} // namespace

} // namespace sb
