#include "store/schema.h"

#include "schema_migration.h"
#include "store/store.h"

#include <fmt/format.h>

#include <algorithm>
#include <mutex>
#include <set>

namespace sb {

namespace {

// The modules registered so far, by name. Static initializers of several libraries may register at once.
struct Registry {
    std::mutex mutex;
    std::vector<ModuleSchema> modules;
};

Registry& registry()
{
    static Registry instance; // made on first use: registrations may run before this file's initializers
    return instance;
}

std::string joined(const std::set<std::string_view>& names)
{
    std::string text;
    for (std::string_view name : names) {
        if (!text.empty())
            text += ", ";
        text += name;
    }
    return text;
}

std::string newerError(const sqlite::Db& db, std::int64_t version)
{
    return fmt::format("store {} has schema version {}, newer than this Sandbench ({}); upgrade Sandbench",
                       db.path().string(), version, Store::kSchemaVersion);
}

// One version: its parts in order, in the caller's transaction.
Result<void> applyVersion(const sqlite::Db& db, std::span<const RegisteredStep> parts)
{
    for (const RegisteredStep& registered : parts) {
        const SchemaStep& step = *registered.step;
        const std::string what =
            fmt::format("migrating to schema version {} failed ({})", step.version, stepName(registered));
        if (auto ok = db.exec(step.sql, what); !ok)
            return ok;
        if (step.moveData) {
            if (auto ok = step.moveData(db); !ok)
                return fail(fmt::format("{} ({})", ok.error().message, stepName(registered)));
        }
    }
    return {};
}

} // namespace

bool registerModuleSchema(const ModuleSchema& schema)
{
    Registry& instance = registry();
    const std::lock_guard lock(instance.mutex);
    const bool known = std::any_of(instance.modules.begin(), instance.modules.end(),
                                   [&](const ModuleSchema& module) { return module.module == schema.module; });
    if (!known)
        instance.modules.push_back(schema);
    return true;
}

std::vector<RegisteredStep> registeredSchemaSteps()
{
    std::vector<ModuleSchema> modules{storeSchema()};
    {
        Registry& instance = registry();
        const std::lock_guard lock(instance.mutex);
        modules.insert(modules.end(), instance.modules.begin(), instance.modules.end());
    }
    return schemaSteps(modules);
}

std::vector<RegisteredStep> schemaSteps(std::span<const ModuleSchema> modules)
{
    std::vector<RegisteredStep> steps;
    for (const ModuleSchema& module : modules) {
        for (const SchemaStep& step : module.steps)
            steps.push_back(RegisteredStep{module.module, &step});
    }
    std::stable_sort(steps.begin(), steps.end(), [](const RegisteredStep& a, const RegisteredStep& b) {
        return std::pair(a.step->version, a.step->part) < std::pair(b.step->version, b.step->part);
    });
    return steps;
}

Result<void> checkSchemaComplete(std::span<const RegisteredStep> steps)
{
    for (int version = 1; version <= Store::kSchemaVersion; ++version) {
        std::vector<const RegisteredStep*> parts;
        for (const RegisteredStep& registered : steps) {
            if (registered.step->version == version)
                parts.push_back(&registered);
        }
        if (parts.empty())
            return fail(fmt::format("schema version {} has no step in this program (the module that defines it "
                                    "is not part of it)",
                                    version));
        const int count = parts.front()->step->parts;
        std::set<std::string_view> modules;
        for (const RegisteredStep* registered : parts) {
            modules.insert(registered->module);
            if (registered->step->parts != count)
                return fail(fmt::format("schema version {}: {} says the version has {} parts, another step {}", version,
                                        stepName(*registered), registered->step->parts, count));
        }
        for (int part = 1; part <= count; ++part) {
            const auto matching = std::count_if(parts.begin(), parts.end(), [&](const RegisteredStep* registered) {
                return registered->step->part == part;
            });
            if (matching == 0)
                return fail(fmt::format("schema version {}: part {} of {} is missing (this program has the parts "
                                        "of module {})",
                                        version, part, count, joined(modules)));
            if (matching > 1)
                return fail(fmt::format("schema version {}: part {} of {} is defined more than once (modules {})",
                                        version, part, count, joined(modules)));
        }
        if (static_cast<int>(parts.size()) != count)
            return fail(fmt::format("schema version {}: {} steps for {} parts (modules {})", version, parts.size(),
                                    count, joined(modules)));
    }
    for (const RegisteredStep& registered : steps) {
        if (registered.step->version < 1 || registered.step->version > Store::kSchemaVersion)
            return fail(fmt::format("{} has a step for schema version {}, outside this Sandbench's 1 to {}",
                                    stepName(registered), registered.step->version, Store::kSchemaVersion));
    }
    return {};
}

std::string stepName(const RegisteredStep& step)
{
    if (step.step->parts == 1)
        return fmt::format("module {}", step.module);
    return fmt::format("module {}, part {} of {}", step.module, step.step->part, step.step->parts);
}

std::vector<std::string_view> schemaObjects(std::span<const RegisteredStep> steps)
{
    return schemaObjectsUpTo(steps, Store::kSchemaVersion);
}

std::vector<std::string_view> schemaObjectsUpTo(std::span<const RegisteredStep> steps, int version)
{
    std::vector<std::string_view> objects;
    for (const RegisteredStep& registered : steps) {
        if (registered.step->version <= version)
            objects.insert(objects.end(), registered.step->objects.begin(), registered.step->objects.end());
    }
    return objects;
}

std::vector<std::string_view> selfCheckingTables(std::span<const RegisteredStep> steps)
{
    std::vector<std::string_view> tables;
    for (const RegisteredStep& registered : steps)
        tables.insert(tables.end(), registered.step->selfCheckingTables.begin(),
                      registered.step->selfCheckingTables.end());
    return tables;
}

Result<void> migrateSchema(const sqlite::Db& db, std::span<const RegisteredStep> steps)
{
    // An up-to-date store needs no write lock at all (a read-only file or a busy writer elsewhere is fine).
    auto before = db.pragmaInt("user_version");
    if (!before)
        return std::unexpected(before.error());
    if (*before >= Store::kSchemaVersion)
        return {};
    if (auto complete = checkSchemaComplete(steps); !complete)
        return fail(fmt::format("store {}: cannot migrate: {}", db.path().string(), complete.error().message));

    for (auto first = steps.begin(); first != steps.end();) {
        const int version = first->step->version;
        const auto end = std::find_if(
            first, steps.end(), [&](const RegisteredStep& registered) { return registered.step->version != version; });
        const std::span<const RegisteredStep> parts(first, end);
        first = end;

        sqlite::Transaction transaction(db);
        if (auto ok = transaction.begin(); !ok)
            return ok;
        // Read inside the write transaction: another Store may have migrated since we validated.
        auto current = db.pragmaInt("user_version");
        if (!current)
            return std::unexpected(current.error());
        if (*current > Store::kSchemaVersion)
            return fail(newerError(db, *current));
        if (*current >= version)
            continue;
        if (auto ok = applyVersion(db, parts); !ok)
            return ok;
        if (auto ok = db.exec(
                fmt::format("PRAGMA application_id = {}; PRAGMA user_version = {}", Store::kApplicationId, version),
                fmt::format("migrating to schema version {} failed", version));
            !ok)
            return ok;
        if (auto ok = transaction.commit(); !ok)
            return ok;
    }
    return {};
}

} // namespace sb
