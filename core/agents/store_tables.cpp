#include "store/schema.h"

#include <array>
#include <string_view>

// The agent sessions' tables in the store (agents/session_store.h), which Store::open creates and migrates
// (store/schema.h).

namespace sb {

namespace {

// Agent sessions and their steps. A session points at the policy version it ran under (policies, the store's);
// its sandbox, checkpoints and replayed session are kept by name and id as text, for they may be gone later
// while the record stays. steps and cost are the sums of its steps, kept with each step so that a list reads
// no step. JSON values (command, client_info, server_info, a step's arguments, result and original_arguments)
// are JSON text; a step's result and original_arguments are NULL when there are none. A step's idx is 1, 2, ...
// in its session: agent_steps_order reads a session's steps in order, and a range of them, by the index alone.
constexpr std::string_view kSchemaV9 = R"sql(
CREATE TABLE agent_sessions (
    id INTEGER PRIMARY KEY,
    session_id TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL CHECK (kind IN ('agent', 'wrap')),
    command TEXT NOT NULL DEFAULT '[]',
    sandbox TEXT NOT NULL DEFAULT '',
    policy_id INTEGER REFERENCES policies(id),
    policy_ref TEXT NOT NULL DEFAULT '',
    workspace TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'blocked', 'failed', 'interrupted')),
    message TEXT NOT NULL DEFAULT '',
    started_at_ms INTEGER NOT NULL,
    ended_at_ms INTEGER NOT NULL DEFAULT 0,
    steps INTEGER NOT NULL DEFAULT 0 CHECK (steps >= 0),
    cost REAL NOT NULL DEFAULT 0,
    first_checkpoint TEXT NOT NULL DEFAULT '',
    protocol_version TEXT NOT NULL DEFAULT '',
    client_info TEXT NOT NULL DEFAULT 'null',
    server_info TEXT NOT NULL DEFAULT 'null',
    run_id TEXT NOT NULL DEFAULT '',
    control_socket TEXT NOT NULL DEFAULT '',
    replay_of TEXT NOT NULL DEFAULT ''
);
CREATE TABLE agent_steps (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES agent_sessions(id) ON DELETE CASCADE,
    idx INTEGER NOT NULL CHECK (idx >= 1),
    tool TEXT NOT NULL,
    arguments TEXT NOT NULL,
    result TEXT,
    reasoning TEXT NOT NULL DEFAULT '',
    started_at_ms INTEGER NOT NULL,
    ended_at_ms INTEGER NOT NULL DEFAULT 0,
    cost REAL NOT NULL DEFAULT 0,
    verdict TEXT NOT NULL CHECK (verdict IN ('allowed', 'blocked', 'approved', 'denied', 'failed')),
    rule TEXT NOT NULL DEFAULT '',
    message TEXT NOT NULL DEFAULT '',
    checkpoint_before TEXT NOT NULL DEFAULT '',
    checkpoint_after TEXT NOT NULL DEFAULT '',
    request_frame TEXT NOT NULL DEFAULT '',
    response_frame TEXT NOT NULL DEFAULT '',
    edited INTEGER NOT NULL DEFAULT 0 CHECK (edited IN (0, 1)),
    original_arguments TEXT
);
CREATE UNIQUE INDEX agent_steps_order ON agent_steps(session_id, idx);
)sql";

constexpr std::array<std::string_view, 3> kObjectsV9 = {"agent_sessions", "agent_steps", "agent_steps_order"};

constexpr std::array kSteps = {
    SchemaStep{.version = 9, .sql = kSchemaV9, .objects = kObjectsV9},
};

[[maybe_unused]] const bool kRegistered = registerModuleSchema(ModuleSchema{"agents", kSteps});

} // namespace

} // namespace sb
