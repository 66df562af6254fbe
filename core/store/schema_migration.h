#pragma once

// How the store runs the modules' schema steps (store/schema.h) on a file.

#include "store/schema.h"
#include "store/sqlite_db.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sb {

// The store's own tables: runs, policy versions and the audit log (store_tables.cpp).
const ModuleSchema& storeSchema();

// The steps of `modules` in the order they run: by version, then part. registeredSchemaSteps() is this of the
// store's own and every registered module.
std::vector<RegisteredStep> schemaSteps(std::span<const ModuleSchema> modules);

// Brings the file of `db` to the newest version of `steps` (in the order they run, whole: checkSchemaComplete).
// Each version runs in a transaction of its own, with every part of it, and sets the version; a step that fails
// leaves the file at the version before it, and the error names the version, the module and its part. A file
// at the newest version already is not written to.
Result<void> migrateSchema(const sqlite::Db& db, std::span<const RegisteredStep> steps);

// Every table and index the steps create.
std::vector<std::string_view> schemaObjects(std::span<const RegisteredStep> steps);
// The tables and indexes a file at `version` must have.
std::vector<std::string_view> schemaObjectsUpTo(std::span<const RegisteredStep> steps, int version);
// The tables the open-time integrity check leaves out (SchemaStep::selfCheckingTables).
std::vector<std::string_view> selfCheckingTables(std::span<const RegisteredStep> steps);

// "module NAME" or "module NAME, part P of N": which step, in errors.
std::string stepName(const RegisteredStep& step);

} // namespace sb
