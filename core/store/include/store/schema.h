#pragma once

// The store's schema, made of the modules' parts. Each module that keeps tables in the store defines them and
// their migrations in its own folder, as steps, and registers them here; the store runs every registered step
// when it opens a file (Store::open).
//
// The store has one schema version (PRAGMA user_version, Store::kSchemaVersion): step N brings a file from
// version N - 1 to N. A version may be made of parts of several modules (version 4 creates the checkpoints'
// blobs and the sandboxes' tables); its parts run in their order, in one transaction, which sets the version.
// A step is never edited once released: a change to a module's tables is a new step, with the next version, one
// module's whole (version 4 is the one made of two modules' parts).

#include "util/error.h"

#include <span>
#include <string_view>
#include <vector>

namespace sb {

namespace sqlite {
class Db;
}

// One module's part of one schema version.
struct SchemaStep {
    int version = 0;           // the schema version this step brings a file to
    int part = 1;              // which part of that version this is, 1 ... parts: the order they run in
    int parts = 1;             // how many parts, of all modules, make the version
    std::string_view sql = {}; // run first
    // The tables and indexes it creates: a file without an application id is recognised as ours by them, and
    // a file claiming this version must have them all.
    std::span<const std::string_view> objects = {};
    // Tables whose content the module checks itself whenever it reads it (a hash per row, or a cache it can do
    // without): the open-time integrity check leaves them out, for they are most of a large store.
    std::span<const std::string_view> selfCheckingTables = {};
    // Data the SQL alone cannot move (it needs C++: hashing, YAML), run after `sql` in the same transaction.
    Result<void> (*moveData)(const sqlite::Db& db) = nullptr;
};

// A module's tables in the store: its name (in errors) and its steps, by version.
struct ModuleSchema {
    std::string_view module;
    std::span<const SchemaStep> steps;
};

// A step with the module it belongs to.
struct RegisteredStep {
    std::string_view module;
    const SchemaStep* step = nullptr;
};

// Adds a module's steps to those every Store::open runs. Called by a static initializer of the module's
// store_tables.cpp when the program starts: every program that links the store links every module's steps
// whole (sandbench_module_schema, core/store/CMakeLists.txt). A second registration of a module is ignored.
// Returns true, for use in that initializer.
bool registerModuleSchema(const ModuleSchema& schema);

// Every registered step, the store's own included, in the order they run: by version, then part.
std::vector<RegisteredStep> registeredSchemaSteps();

// Whether `steps` (in the order they run) make every version 1 ... Store::kSchemaVersion whole: every part of
// every version, and nothing past the newest. The error names the version, and the part or module, that is
// missing or extra.
Result<void> checkSchemaComplete(std::span<const RegisteredStep> steps);

} // namespace sb
