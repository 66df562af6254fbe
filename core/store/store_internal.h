#pragma once

// What the files of the Store class share: its error guard, the folder a store is made in, and the policy
// versions that runs and the schema's migration both record.

#include "store/sqlite_db.h"
#include "store/store.h"

#include <fmt/format.h>

#include <cstdint>
#include <exception>
#include <filesystem>
#include <string>
#include <string_view>

namespace sb::detail {

// No exception crosses the public API: yaml-cpp, nlohmann and the allocator may all throw.
template <typename Function>
auto guarded(const std::filesystem::path& path, std::string_view what, Function&& function) -> decltype(function())
{
    try {
        return function();
    } catch (const std::exception& e) {
        return fail(fmt::format("store {}: {} failed: {}", path.string(), what, e.what()));
    } catch (...) {
        return fail(fmt::format("store {}: {} failed", path.string(), what));
    }
}

inline std::unexpected<Error> closedError(const std::filesystem::path& path)
{
    return fail(fmt::format("store {}: the store is closed", path.string()));
}

std::int64_t nowMs();

// store_location.cpp: the folder of the store at `location` made (the default location, private to the user)
// or required to exist (a path a person named).
Result<void> prepareFolder(const StoreLocation& location);

// policy_versions.cpp.
inline constexpr std::string_view kPolicyColumns = "id, name, version, sha256, created_at_ms";

// Reads kPolicyColumns starting at `first`.
PolicyVersion readPolicyVersion(sqlite3_stmt* statement, int first);

struct FoundPolicy {
    PolicyVersion version;
    bool added = false; // a new version: its audit entry is the caller's to append
};

// The version holding exactly `yaml` (found by its hash), added as the next version of `name` when there
// is none yet. Call inside a write transaction: the next version number is read and used under its lock.
Result<FoundPolicy> findOrAddPolicy(const sqlite::Db& db, std::string_view name, std::string_view yaml,
                                    const std::string& sha256, std::int64_t createdAtMs);

// The audit entry of a policy version that was just stored.
Result<void> auditPolicyVersion(const sqlite::Db& db, const PolicyVersion& policy);

// A stored policy back as a Policy. The text is renderPolicy's unless someone edited the file, so whatever
// it holds this returns an error (with line and column inside the YAML) rather than throwing.
Result<Policy> parseStoredPolicy(const std::string& yaml);

// The name a stored text gives its policy, for texts stored before policies had a table: the parsed name,
// else (a text this build cannot parse) the `name` its YAML spells out, else the parser's default.
std::string storedPolicyName(const std::string& yaml);

} // namespace sb::detail
