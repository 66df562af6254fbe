#include "agents/session_import.h"

#include "isolation/policy.h"
#include "store/audit.h"
#include "store/sqlite_db.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>
#include <set>
#include <vector>

namespace sb::agents {

namespace {

constexpr std::string_view kNode = "node_session";

// The columns of `table` here, but `leftOut`, as a list for INSERT and SELECT.
Result<std::string> columnsOf(const sqlite::Db& db, std::string_view table, const std::set<std::string>& leftOut)
{
    auto info = db.prepare(fmt::format("PRAGMA main.table_info({})", table));
    if (!info)
        return std::unexpected(info.error());
    std::vector<std::string> names;
    int rc = SQLITE_ROW;
    while ((rc = sqlite3_step(info->get())) == SQLITE_ROW) {
        std::string name = sqlite::columnString(info->get(), 1);
        if (!leftOut.count(name))
            names.push_back(std::move(name));
    }
    if (rc != SQLITE_DONE)
        return db.error(fmt::format("cannot read the columns of {}", table));
    return fmt::format("{}", fmt::join(names, ", "));
}

Result<void> step(const sqlite::Db& db, sqlite::Statement& statement, std::string_view what)
{
    if (sqlite3_step(statement.get()) != SQLITE_DONE)
        return std::unexpected(db.error(what).error());
    return {};
}

std::string mapIds(std::string text, const std::map<std::string, std::string>& ids)
{
    for (const auto& [from, to] : ids) {
        if (from == to)
            continue;
        for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
            text.replace(at, from.size(), to);
    }
    return text;
}

struct NodePolicy {
    std::int64_t id = 0;
    std::string yaml;
    std::string version; // NAME@VERSION there
};

Result<std::vector<NodePolicy>> nodePolicies(const sqlite::Db& db)
{
    auto rows = db.prepare(fmt::format("SELECT id, yaml, name || '@' || version FROM {}.policies ORDER BY id", kNode));
    if (!rows)
        return std::unexpected(rows.error());
    std::vector<NodePolicy> out;
    int rc = SQLITE_ROW;
    while ((rc = sqlite3_step(rows->get())) == SQLITE_ROW)
        out.push_back({sqlite3_column_int64(rows->get(), 0), sqlite::columnString(rows->get(), 1), sqlite::columnString(rows->get(), 2)});
    if (rc != SQLITE_DONE)
        return db.error("cannot read the node's policies");
    return out;
}

class Importer {
public:
    Importer(Store& store, const sqlite::Db& db, const NodeSession& node, std::map<std::string, std::string> ids)
        : m_store(store), m_db(db), m_node(node), m_ids(std::move(ids))
    {
    }

    // Before the transaction: every policy version of the node's, recorded here (each in its own).
    Result<void> policies();
    Result<void> runs();
    Result<std::int64_t> session();
    Result<void> steps(std::int64_t nodeRow, std::int64_t row);
    Result<void> audit();

private:
    Result<std::int64_t> nodeSessionRow();

    Store& m_store;
    const sqlite::Db& m_db;
    const NodeSession& m_node;
    std::map<std::string, std::string> m_ids;    // checkpoints: the node's id -> this store's
    std::map<std::int64_t, std::int64_t> m_policy; // policies: the node's row -> this store's
    std::map<std::string, std::string> m_versions; // policies: NAME@VERSION there -> here
};

Result<void> Importer::policies()
{
    auto list = nodePolicies(m_db);
    if (!list)
        return std::unexpected(list.error());
    for (const NodePolicy& p : *list) {
        const std::string where = fmt::format("{}: policy {}", m_node.database.string(), p.id);
        auto policy = parsePolicy(p.yaml, where);
        if (!policy)
            return std::unexpected(policy.error());
        auto version = m_store.recordPolicy(*policy);
        if (!version)
            return std::unexpected(version.error());
        m_policy[p.id] = version->id;
        m_versions[p.version] = fmt::format("{}@{}", version->name, version->version);
    }
    return {};
}

Result<void> Importer::runs()
{
    auto columns = columnsOf(m_db, "runs", {"id", "policy_id"});
    if (!columns)
        return std::unexpected(columns.error());
    auto list = m_db.prepare(fmt::format("SELECT id, run_id, policy_id FROM {}.runs ORDER BY id", kNode));
    auto exists = m_db.prepare("SELECT 1 FROM main.runs WHERE run_id = ?1");
    auto insert = m_db.prepare(fmt::format("INSERT INTO main.runs ({0}, policy_id) SELECT {0}, ?2 FROM {1}.runs "
                                           "WHERE id = ?1",
                                           *columns, kNode));
    auto events = m_db.prepare(fmt::format("INSERT INTO main.blocked_events (run_id, seq, kind, detail) SELECT ?2, "
                                           "seq, kind, detail FROM {}.blocked_events WHERE run_id = ?1 ORDER BY seq",
                                           kNode));
    for (auto* s : {&list, &exists, &insert, &events}) {
        if (!*s)
            return std::unexpected(s->error());
    }
    int rc = SQLITE_ROW;
    while ((rc = sqlite3_step(list->get())) == SQLITE_ROW) {
        const std::int64_t nodeRow = sqlite3_column_int64(list->get(), 0);
        const std::string runId = sqlite::columnString(list->get(), 1);
        sqlite3_reset(exists->get());
        sqlite::Binder(exists->get()).text(1, runId);
        if (sqlite3_step(exists->get()) == SQLITE_ROW)
            return fail(fmt::format("run {} is recorded here already: the session was imported before", runId));
        sqlite3_reset(insert->get());
        sqlite::Binder bind(insert->get());
        bind.integer(1, nodeRow);
        if (sqlite3_column_type(list->get(), 2) == SQLITE_NULL)
            bind.null(2);
        else
            bind.integer(2, m_policy[sqlite3_column_int64(list->get(), 2)]);
        if (auto ok = step(m_db, *insert, "cannot record a run of the session"); !ok)
            return ok;
        const std::int64_t row = m_db.lastInsertId();
        sqlite3_reset(events->get());
        sqlite::Binder(events->get()).integer(1, nodeRow).integer(2, row);
        if (auto ok = step(m_db, *events, "cannot record a run's blocked events"); !ok)
            return ok;
    }
    if (rc != SQLITE_DONE)
        return std::unexpected(m_db.error("cannot read the node's runs").error());
    return {};
}

Result<std::int64_t> Importer::nodeSessionRow()
{
    auto find = m_db.prepare(fmt::format("SELECT id FROM {}.agent_sessions WHERE session_id = ?1", kNode));
    if (!find)
        return std::unexpected(find.error());
    sqlite::Binder(find->get()).text(1, m_node.sessionId);
    if (sqlite3_step(find->get()) != SQLITE_ROW)
        return fail(fmt::format("{}: it holds no session {}", m_node.database.string(), m_node.sessionId));
    return sqlite3_column_int64(find->get(), 0);
}

Result<std::int64_t> Importer::session()
{
    auto nodeRow = nodeSessionRow();
    if (!nodeRow)
        return nodeRow;
    auto here = m_db.prepare("SELECT 1 FROM main.agent_sessions WHERE session_id = ?1");
    if (!here)
        return std::unexpected(here.error());
    sqlite::Binder(here->get()).text(1, m_node.sessionId);
    if (sqlite3_step(here->get()) == SQLITE_ROW)
        return fail(fmt::format("session {} is recorded here already", m_node.sessionId));
    auto columns =
        columnsOf(m_db, "agent_sessions", {"id", "policy_id", "policy_ref", "first_checkpoint", "control_socket"});
    if (!columns)
        return std::unexpected(columns.error());
    auto insert = m_db.prepare(fmt::format(
        "INSERT INTO main.agent_sessions ({0}, policy_id, policy_ref, first_checkpoint, control_socket) "
        "SELECT {0}, ?2, ?3, ?4, '' FROM {1}.agent_sessions WHERE id = ?1",
        *columns, kNode));
    auto facts = m_db.prepare(fmt::format("SELECT policy_id, first_checkpoint FROM {}.agent_sessions WHERE id = ?1",
                                          kNode));
    if (!insert || !facts)
        return std::unexpected(!insert ? insert.error() : facts.error());
    sqlite::Binder(facts->get()).integer(1, *nodeRow);
    if (sqlite3_step(facts->get()) != SQLITE_ROW)
        return std::unexpected(m_db.error("cannot read the node's session").error());
    sqlite::Binder bind(insert->get());
    bind.integer(1, *nodeRow);
    if (sqlite3_column_type(facts->get(), 0) == SQLITE_NULL)
        bind.null(2);
    else
        bind.integer(2, m_policy[sqlite3_column_int64(facts->get(), 0)]);
    const std::string first = mapIds(sqlite::columnString(facts->get(), 1), m_ids); // bound without a copy
    bind.text(3, m_node.policyRef).text(4, first);
    if (auto ok = step(m_db, *insert, "cannot record the session"); !ok)
        return std::unexpected(ok.error());
    const std::int64_t row = m_db.lastInsertId();
    if (auto ok = steps(*nodeRow, row); !ok)
        return std::unexpected(ok.error());
    return row;
}

Result<void> Importer::steps(std::int64_t nodeRow, std::int64_t row)
{
    auto columns = columnsOf(m_db, "agent_steps", {"id", "session_id"});
    if (!columns)
        return std::unexpected(columns.error());
    auto insert = m_db.prepare(fmt::format("INSERT INTO main.agent_steps (session_id, {0}) SELECT ?2, {0} FROM "
                                           "{1}.agent_steps WHERE session_id = ?1 ORDER BY idx",
                                           *columns, kNode));
    if (!insert)
        return std::unexpected(insert.error());
    sqlite::Binder(insert->get()).integer(1, nodeRow).integer(2, row);
    if (auto ok = step(m_db, *insert, "cannot record the session's steps"); !ok)
        return ok;
    // The checkpoints the steps name, by their ids here.
    for (const auto* column : {"checkpoint_before", "checkpoint_after"}) {
        auto update = m_db.prepare(fmt::format("UPDATE main.agent_steps SET {0} = ?3 WHERE session_id = ?1 AND "
                                               "{0} = ?2",
                                               column));
        if (!update)
            return std::unexpected(update.error());
        for (const auto& [from, to] : m_ids) {
            if (from == to)
                continue;
            sqlite3_reset(update->get());
            sqlite::Binder(update->get()).integer(1, row).text(2, from).text(3, to);
            if (auto ok = step(m_db, *update, "cannot record a step's checkpoints"); !ok)
                return ok;
        }
    }
    return {};
}

Result<void> Importer::audit()
{
    // This store audits its own sandboxes, checkpoints, policy versions and datasets; the node's are of its
    // private store.
    auto rows = m_db.prepare(fmt::format(
        "SELECT at_ms, actor, operation, subject, details FROM {}.audit_log WHERE operation NOT LIKE 'sandbox.%' "
        "AND operation NOT LIKE 'checkpoint.%' AND operation NOT LIKE 'policy.%' AND operation NOT LIKE "
        "'dataset.%' ORDER BY seq",
        kNode));
    if (!rows)
        return std::unexpected(rows.error());
    std::vector<AuditEntry> entries;
    int rc = SQLITE_ROW;
    while ((rc = sqlite3_step(rows->get())) == SQLITE_ROW) {
        sqlite3_stmt* s = rows->get();
        nlohmann::json details = nlohmann::json::parse(mapIds(sqlite::columnString(s, 4), m_ids), nullptr, false);
        if (!details.is_object())
            details = nlohmann::json::object();
        // Policies by their versions here, the session's as it was named here.
        if (const auto policy = details.find("policy"); policy != details.end() && policy->is_string()) {
            if (const auto here = m_versions.find(policy->get<std::string>()); here != m_versions.end())
                *policy = here->second;
        }
        if (details.contains("policy_ref"))
            details["policy_ref"] = m_node.policyRef;
        for (const auto& [key, value] : m_node.provenance.items())
            details[key] = value;
        AuditEntry entry(sqlite::columnString(s, 2), mapIds(sqlite::columnString(s, 3), m_ids), std::move(details));
        entry.atMs = sqlite3_column_int64(s, 0);
        entry.actor = sqlite::columnString(s, 1);
        entries.push_back(std::move(entry));
    }
    if (rc != SQLITE_DONE)
        return std::unexpected(m_db.error("cannot read the node's audit log").error());
    rows->reset();
    for (const auto& entry : entries) {
        if (!isValidAuditOperation(entry.operation))
            return fail(fmt::format("{}: an audit entry of operation '{}'", m_node.database.string(), entry.operation));
        if (auto appended = appendAudit(m_db, entry); !appended)
            return std::unexpected(appended.error());
    }
    return {};
}

} // namespace

Result<SessionInfo> importNodeSession(Store& store, SandboxEngine& engine, const NodeSession& node)
{
    if (store.readOnly())
        return fail(fmt::format("store {} is read-only: the session cannot be recorded", store.path().string()));
    auto db = sqlite::connectionOf(store);
    if (!db)
        return std::unexpected(db.error());
    {
        auto here = SessionStore(store).find(node.sessionId);
        if (here && here->id == node.sessionId)
            return fail(fmt::format("session {} is recorded here already", node.sessionId));
    }
    auto adopted = engine.adoptCheckpoints(AdoptRequest{node.sandbox, node.database, node.startCheckpoint,
                                                        node.provenance.dump()});
    if (!adopted)
        return std::unexpected(adopted.error());

    {
        auto attached = sqlite::Attachment::attach(*db, node.database, std::string(kNode));
        if (!attached)
            return std::unexpected(attached.error());
        Importer importer(store, *db, node, adopted->ids);
        if (auto ok = importer.policies(); !ok)
            return std::unexpected(ok.error());
        sqlite::Transaction transaction(*db);
        if (auto ok = transaction.begin(); !ok)
            return std::unexpected(ok.error());
        if (auto ok = importer.runs(); !ok)
            return std::unexpected(ok.error());
        if (auto ok = importer.session(); !ok)
            return std::unexpected(ok.error());
        if (auto ok = importer.audit(); !ok)
            return std::unexpected(ok.error());
        if (auto ok = transaction.commit(); !ok)
            return std::unexpected(ok.error());
    }
    if (adopted->head != node.startCheckpoint) {
        if (auto restored = engine.restore(adopted->head, {}, node.sandbox); !restored)
            return fail(fmt::format("session {} is recorded, but its sandbox '{}' could not be made as the session "
                                    "left it (checkpoint {}): {}",
                                    node.sessionId, node.sandbox, adopted->head, restored.error().message));
    }
    return SessionStore(store).find(node.sessionId);
}

} // namespace sb::agents
