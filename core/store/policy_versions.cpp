#include "store_internal.h"

#include "store/audit.h"
#include "util/hash.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sqlite3.h>
#include <yaml-cpp/yaml.h>

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

// Policy versions: one row per distinct canonical YAML, numbered per name in the order of first use.

namespace sb {

using sqlite::Binder;
using sqlite::bindString;
using sqlite::columnString;
using sqlite::Db;
using sqlite::Transaction;

namespace detail {

std::int64_t nowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

PolicyVersion readPolicyVersion(sqlite3_stmt* statement, int first)
{
    PolicyVersion policy;
    policy.id = sqlite3_column_int64(statement, first);
    policy.name = columnString(statement, first + 1);
    policy.version = sqlite3_column_int64(statement, first + 2);
    policy.sha256 = columnString(statement, first + 3);
    policy.createdAtMs = sqlite3_column_int64(statement, first + 4);
    return policy;
}

Result<FoundPolicy> findOrAddPolicy(const Db& db, std::string_view name, std::string_view yaml,
                                    const std::string& sha256, std::int64_t createdAtMs)
{
    auto find = db.prepare(fmt::format("SELECT {} FROM policies WHERE sha256 = ?1", kPolicyColumns));
    if (!find)
        return std::unexpected(find.error());
    if (bindString(find->get(), 1, sha256) != SQLITE_OK)
        return db.error("cannot look up a policy version");
    const int rc = sqlite3_step(find->get());
    if (rc == SQLITE_ROW)
        return FoundPolicy{readPolicyVersion(find->get(), 0), false};
    if (rc != SQLITE_DONE)
        return db.error("cannot look up a policy version");

    auto insert = db.prepare(
        fmt::format("INSERT INTO policies (name, version, sha256, yaml, created_at_ms) "
                    "VALUES (?1, (SELECT coalesce(max(version), 0) + 1 FROM policies WHERE name = ?1), ?2, ?3, ?4) "
                    "RETURNING {}",
                    kPolicyColumns));
    if (!insert)
        return std::unexpected(insert.error());
    Binder row(insert->get());
    row.text(1, name).text(2, sha256).text(3, yaml).integer(4, createdAtMs);
    if (!row.ok() || sqlite3_step(insert->get()) != SQLITE_ROW)
        return db.error(fmt::format("cannot record a version of policy '{}'", name));
    PolicyVersion added = readPolicyVersion(insert->get(), 0);
    if (sqlite3_step(insert->get()) != SQLITE_DONE)
        return db.error(fmt::format("cannot record a version of policy '{}'", name));
    return FoundPolicy{std::move(added), true};
}

Result<void> auditPolicyVersion(const Db& db, const PolicyVersion& policy)
{
    nlohmann::json details = {{"name", policy.name}, {"version", policy.version}, {"sha256", policy.sha256}};
    auto appended = appendAudit(db, AuditEntry(audit_op::kPolicyVersion,
                                               fmt::format("{}@{}", policy.name, policy.version), std::move(details)));
    if (!appended)
        return std::unexpected(appended.error());
    return {};
}

Result<Policy> parseStoredPolicy(const std::string& yaml)
{
    constexpr std::string_view kOrigin = "yaml";
    try {
        // renderPolicy writes an imported profile out as rules, so a stored policy never names a profile
        // file; one that does was edited by hand, and reading the store must not open files it names.
        std::optional<YAML::Node> root;
        try {
            root = YAML::Load(yaml);
        } catch (const YAML::Exception&) {
            // Not YAML: parsePolicy says where, below.
        }
        if (root && root->IsMap()) {
            if (const YAML::Node syscalls = (*root)["syscalls"]; syscalls && syscalls.IsMap() && syscalls["profile"])
                return fail(fmt::format("{}: syscalls.profile: a stored policy names no profile file (its "
                                        "rules are stored with it)",
                                        kOrigin));
        }
        return parsePolicy(yaml, kOrigin);
    } catch (const std::exception& e) {
        return fail(fmt::format("{}: {}", kOrigin, e.what()));
    } catch (...) {
        return fail(fmt::format("{}: cannot be read", kOrigin));
    }
}

std::string storedPolicyName(const std::string& yaml)
{
    if (auto policy = parseStoredPolicy(yaml))
        return policy->name;
    try {
        const YAML::Node root = YAML::Load(yaml);
        if (root.IsMap()) {
            if (const YAML::Node name = root["name"]; name && name.IsScalar())
                return name.Scalar();
        }
    } catch (...) {
        // Not YAML at all.
    }
    return Policy{}.name;
}

} // namespace detail

Result<PolicyVersion> Store::recordPolicy(const Policy& policy)
{
    if (!m_db)
        return detail::closedError(m_path);
    return detail::guarded(m_path, "recording a policy", [&]() -> Result<PolicyVersion> {
        const Db db(m_db, m_path, m_statements);
        const std::string yaml = renderPolicy(policy);
        auto sha = sha256Hex(yaml);
        if (!sha)
            return fail(fmt::format("store {}: {}", m_path.string(), sha.error().message));
        Transaction transaction(db);
        if (auto ok = transaction.begin(); !ok)
            return std::unexpected(ok.error());
        auto stored = detail::findOrAddPolicy(db, policy.name, yaml, *sha, detail::nowMs());
        if (!stored)
            return std::unexpected(stored.error());
        if (stored->added) {
            if (auto audited = detail::auditPolicyVersion(db, stored->version); !audited)
                return std::unexpected(audited.error());
        }
        if (auto ok = transaction.commit(); !ok)
            return std::unexpected(ok.error());
        return std::move(stored->version);
    });
}

Result<std::vector<PolicyVersionUse>> Store::policyVersions(std::string_view name) const
{
    if (!m_db)
        return detail::closedError(m_path);
    return detail::guarded(m_path, "listing policy versions", [&]() -> Result<std::vector<PolicyVersionUse>> {
        const Db db(m_db, m_path, m_statements);
        auto statement = db.prepare(
            fmt::format("SELECT {}, (SELECT count(*) FROM runs WHERE runs.policy_id = policies.id) FROM policies "
                        "WHERE ?1 IS NULL OR name = ?1 ORDER BY name, version",
                        detail::kPolicyColumns));
        if (!statement)
            return std::unexpected(statement.error());
        if (!name.empty() && bindString(statement->get(), 1, name) != SQLITE_OK)
            return db.error("cannot list policy versions");
        std::vector<PolicyVersionUse> versions;
        int rc = 0;
        while ((rc = sqlite3_step(statement->get())) == SQLITE_ROW)
            versions.push_back(PolicyVersionUse{detail::readPolicyVersion(statement->get(), 0),
                                                sqlite3_column_int64(statement->get(), 5)});
        if (rc != SQLITE_DONE)
            return db.error("cannot list policy versions");
        return versions;
    });
}

Result<std::optional<StoredPolicy>> Store::findPolicy(std::string_view name, std::int64_t version) const
{
    if (!m_db)
        return detail::closedError(m_path);
    return detail::guarded(m_path, "finding a policy version", [&]() -> Result<std::optional<StoredPolicy>> {
        const Db db(m_db, m_path, m_statements);
        auto statement = db.prepare(
            fmt::format("SELECT {}, yaml FROM policies WHERE name = ?1 AND version = ?2", detail::kPolicyColumns));
        if (!statement)
            return std::unexpected(statement.error());
        Binder bind(statement->get());
        bind.text(1, name).integer(2, version);
        if (!bind.ok())
            return db.error("cannot find a policy version");
        const int rc = sqlite3_step(statement->get());
        if (rc == SQLITE_DONE)
            return std::optional<StoredPolicy>{};
        if (rc != SQLITE_ROW)
            return db.error("cannot find a policy version");
        return std::optional<StoredPolicy>(
            StoredPolicy{detail::readPolicyVersion(statement->get(), 0), columnString(statement->get(), 5)});
    });
}

} // namespace sb
