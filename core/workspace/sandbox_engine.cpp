#include "workspace/sandbox_engine.h"

#include "workspace/blob_store.h"
#include "workspace/files.h"
#include "workspace/materialize.h"
#include "workspace/path_filter.h"
#include "workspace/tree_reader.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cerrno>
#include <cstdlib>
#include <deque>
#include <fcntl.h>
#include <map>
#include <pwd.h>
#include <set>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>
#include <unordered_set>

namespace sb {

namespace fs = std::filesystem;

namespace {

constexpr int kSandboxLockWaitMs = 30'000;
constexpr int kGarbageLockWaitMs = 60'000;
constexpr std::string_view kWorkspaceFolder = "workspace";
constexpr std::string_view kStagingPrefix = ".restore-";
constexpr std::string_view kNewWorkspaceFolder = "workspace.new";

// SANDBENCH_TRACE_WORKSPACE=1: each step of a checkpoint or restore prints its time (milliseconds since the
// operation began) to stderr, to see where a slow one spends it.
class StepTrace {
public:
    explicit StepTrace(std::string_view operation)
        : m_enabled(std::getenv("SANDBENCH_TRACE_WORKSPACE") != nullptr), m_operation(operation),
          m_start(std::chrono::steady_clock::now())
    {
    }
    void operator()(std::string_view step) const
    {
        if (!m_enabled)
            return;
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - m_start).count();
        std::fprintf(stderr, "[trace] %s %-12s %8.2f ms\n", m_operation.c_str(), std::string(step).c_str(), ms);
    }

private:
    bool m_enabled;
    std::string m_operation;
    std::chrono::steady_clock::time_point m_start;
};

template <typename T>
std::unexpected<Error> errorOf(const Result<T>& result)
{
    return std::unexpected(result.error());
}

std::string currentUser()
{
    long size = ::sysconf(_SC_GETPW_R_SIZE_MAX);
    std::vector<char> buffer(static_cast<std::size_t>(size > 0 ? size : 16384));
    passwd entry{};
    passwd* found = nullptr;
    if (::getpwuid_r(::geteuid(), &entry, buffer.data(), buffer.size(), &found) == 0 && found && found->pw_name
        && *found->pw_name)
        return found->pw_name;
    if (const char* user = std::getenv("USER"); user && *user)
        return user;
    return fmt::format("uid {}", ::geteuid());
}

std::string randomHex(std::size_t bytes)
{
    std::vector<std::uint8_t> random(bytes);
    std::size_t got = 0;
    while (got < bytes) {
        const ssize_t n = ::getrandom(random.data() + got, bytes - got, 0);
        if (n <= 0) {
            // getrandom cannot fail here short of a broken kernel; fall back on the time and pid.
            const auto seed = static_cast<std::uint64_t>(wallClockNs()) ^ (static_cast<std::uint64_t>(::getpid()) << 32);
            for (std::size_t i = got; i < bytes; ++i)
                random[i] = static_cast<std::uint8_t>(seed >> ((i % 8) * 8));
            break;
        }
        got += static_cast<std::size_t>(n);
    }
    return toHex(random);
}

std::string_view asChars(const ContentHash& hash)
{
    return {reinterpret_cast<const char*>(hash.data()), hash.size()};
}

ContentHash hashFromColumn(sqlite3_stmt* statement, int column)
{
    ContentHash hash{};
    const std::string bytes = sql::columnString(statement, column);
    if (bytes.size() == hash.size())
        std::copy(bytes.begin(), bytes.end(), hash.begin());
    return hash;
}

std::string parentPath(std::string_view path)
{
    const auto slash = path.rfind('/');
    return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash));
}

std::string baseName(std::string_view path)
{
    const auto slash = path.rfind('/');
    return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

bool isHexPrefix(std::string_view text)
{
    return !text.empty() && text.size() <= 64
           && std::all_of(text.begin(), text.end(), [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
}

std::string lower(std::string_view text)
{
    std::string out(text);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string jsonText(const nlohmann::json& value)
{
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Result<std::vector<std::string>> patternsFromJson(const std::string& text)
{
    std::vector<std::string> patterns;
    const auto parsed = nlohmann::json::parse(text, nullptr, false);
    if (!parsed.is_array())
        return patterns;
    for (const auto& item : parsed) {
        if (item.is_string())
            patterns.push_back(item.get<std::string>());
    }
    return patterns;
}

ChangeCounts countChanges(const std::vector<TreeChange>& changes)
{
    ChangeCounts counts;
    for (const auto& change : changes) {
        switch (change.kind) {
        case ChangeKind::Added:
            ++counts.added;
            break;
        case ChangeKind::Removed:
            ++counts.removed;
            break;
        case ChangeKind::Modified:
            ++counts.modified;
            break;
        }
    }
    return counts;
}

// What a new checkpoint row holds; parents and source by checkpoint id.
struct NewCheckpoint {
    std::int64_t sandboxId = 0;
    std::string sandboxName;
    ContentHash tree{};
    std::vector<std::string> parents;
    std::string kind;
    std::string label;
    std::string message;
    std::string author;
    std::int64_t createdAtMs = 0;
    std::string source;
    std::uint64_t files = 0;
    std::uint64_t bytes = 0;
};

// The id: SHA-256 of everything the checkpoint says, each text field length-prefixed so that no label can
// pass for another field.
std::string checkpointIdOf(const NewCheckpoint& c)
{
    std::string text = "sandbench checkpoint 1\n";
    auto field = [&](std::string_view name, std::string_view value) {
        text += fmt::format("{} {}:", name, value.size());
        text += value;
        text += '\n';
    };
    field("tree", hashHex(c.tree));
    for (const auto& parent : c.parents)
        field("parent", parent);
    field("sandbox", c.sandboxName);
    field("kind", c.kind);
    field("author", c.author);
    field("created", std::to_string(c.createdAtMs));
    field("label", c.label);
    field("message", c.message);
    field("source", c.source);
    auto hex = sha256Hex(text);
    return hex ? *hex : std::string();
}

nlohmann::json toJson(const NewCheckpoint& c, const std::string& id)
{
    return {{"id", id},           {"sandbox_id", c.sandboxId},   {"sandbox", c.sandboxName}, {"tree", hashHex(c.tree)},
            {"parents", c.parents}, {"kind", c.kind},             {"label", c.label},         {"message", c.message},
            {"author", c.author}, {"created_at_ms", c.createdAtMs}, {"source", c.source},     {"files", c.files},
            {"bytes", c.bytes}};
}

Result<std::pair<NewCheckpoint, std::string>> newCheckpointFromJson(const std::string& text)
{
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object())
        return fail("the journal's plan is not JSON");
    try {
        NewCheckpoint c;
        c.sandboxId = j.at("sandbox_id").get<std::int64_t>();
        c.sandboxName = j.at("sandbox").get<std::string>();
        auto tree = hashFromHex(j.at("tree").get<std::string>());
        if (!tree)
            return errorOf(tree);
        c.tree = *tree;
        c.parents = j.at("parents").get<std::vector<std::string>>();
        c.kind = j.at("kind").get<std::string>();
        c.label = j.at("label").get<std::string>();
        c.message = j.at("message").get<std::string>();
        c.author = j.at("author").get<std::string>();
        c.createdAtMs = j.at("created_at_ms").get<std::int64_t>();
        c.source = j.at("source").get<std::string>();
        c.files = j.at("files").get<std::uint64_t>();
        c.bytes = j.at("bytes").get<std::uint64_t>();
        return std::pair{std::move(c), j.at("id").get<std::string>()};
    } catch (const std::exception& e) {
        return fail(fmt::format("the journal's plan is damaged: {}", e.what()));
    }
}

struct SandboxRow {
    std::int64_t id = 0;
    std::optional<std::int64_t> headRow;
    SandboxInfo info;
};

struct CheckpointRow {
    std::int64_t id = 0;
    std::optional<std::int64_t> sandboxId;
    CheckpointInfo info;
};

constexpr std::string_view kSandboxSelect =
    "SELECT s.id, s.name, s.owner, s.created_at_ms, s.expires_at_ms, s.origin, s.includes, s.excludes, s.head_id, "
    "h.checkpoint_id, (SELECT count(*) FROM checkpoints WHERE sandbox_id = s.id) "
    "FROM sandboxes AS s LEFT JOIN checkpoints AS h ON h.id = s.head_id";

constexpr std::string_view kCheckpointSelect =
    "SELECT c.id, c.sandbox_id, c.checkpoint_id, c.sandbox_name, c.tree, c.kind, c.label, c.message, c.author, "
    "c.created_at_ms, src.checkpoint_id, c.files, c.bytes "
    "FROM checkpoints AS c LEFT JOIN checkpoints AS src ON src.id = c.source_id";

} // namespace

// -----------------------------------------------------------------------------------------------------------

struct SandboxEngine::Impl {
    Impl(Store& s, fs::path folder) : store(s), db(s.database()), root(std::move(folder)), blobs(db) {}

    Store& store;
    sql::Db db;
    fs::path root; // <store>.d, absolute
    BlobStore blobs;
    OperationObserver* observer = nullptr;
    std::uint64_t maxFileSize = 1ULL << 30;
    std::function<std::int64_t()> clock = [] { return nowMs(); };
    std::function<void(std::string_view)> faultHook;

    void step(std::string_view name) const
    {
        if (faultHook)
            faultHook(name);
    }

    // --- places ------------------------------------------------------------------------------------------

    fs::path sandboxFolder(std::string_view name) const { return root / "sandboxes" / std::string(name); }
    fs::path workspaceOf(std::string_view name) const { return sandboxFolder(name) / kWorkspaceFolder; }
    fs::path lockOf(std::string_view name) const { return root / "locks" / std::string(name); }

    Result<FileLock> lockSandbox(std::string_view name)
    {
        return FileLock::acquire(lockOf(name), FileLock::Mode::Exclusive, kSandboxLockWaitMs,
                                 fmt::format("sandbox '{}'", name));
    }
    Result<FileLock> lockGarbage(FileLock::Mode mode)
    {
        return FileLock::acquire(root / "locks" / ".gc", mode, kGarbageLockWaitMs, "the store's garbage collection");
    }

    Result<void> prepareFolders()
    {
        for (const char* sub : {"sandboxes", "locks", "trash"}) {
            if (auto ok = makeDirectories(root / sub); !ok)
                return ok;
        }
        return {};
    }

    // Moves a folder out of the way (into trash/) and removes it: the rename is atomic, so a crash during the
    // removal leaves it in trash/ for the next sweep, never half in place.
    Result<void> discardFolder(const fs::path& folder)
    {
        std::error_code ec;
        if (!fs::exists(fs::symlink_status(folder, ec)))
            return {};
        const fs::path trash = root / "trash" / fmt::format("{}-{}", folder.filename().string(), randomHex(6));
        if (::rename(folder.c_str(), trash.c_str()) != 0)
            return fail(fmt::format("cannot move {} away: {}", folder.string(), errnoText(errno)));
        return removeTree(trash);
    }

    // --- operations --------------------------------------------------------------------------------------

    std::string actorOr(const std::string& given) const { return given.empty() ? currentUser() : given; }

    Result<void> commit(sql::Transaction& transaction, const Operation& operation)
    {
        if (observer) {
            if (auto ok = observer->committing(db, operation); !ok)
                return ok;
        }
        if (auto ok = transaction.commit(); !ok)
            return ok;
        if (observer)
            observer->committed(operation);
        return {};
    }

    // --- rows --------------------------------------------------------------------------------------------

    SandboxRow readSandbox(sqlite3_stmt* s) const
    {
        SandboxRow row;
        row.id = sqlite3_column_int64(s, 0);
        row.info.name = sql::columnString(s, 1);
        row.info.owner = sql::columnString(s, 2);
        row.info.createdAtMs = sqlite3_column_int64(s, 3);
        if (sqlite3_column_type(s, 4) != SQLITE_NULL)
            row.info.expiresAtMs = sqlite3_column_int64(s, 4);
        row.info.origin = sql::columnString(s, 5);
        row.info.includes = patternsFromJson(sql::columnString(s, 6)).value_or(std::vector<std::string>{});
        row.info.excludes = patternsFromJson(sql::columnString(s, 7)).value_or(std::vector<std::string>{});
        if (sqlite3_column_type(s, 8) != SQLITE_NULL)
            row.headRow = sqlite3_column_int64(s, 8);
        row.info.head = sql::columnString(s, 9);
        row.info.checkpoints = sqlite3_column_int64(s, 10);
        row.info.workspace = workspaceOf(row.info.name);
        return row;
    }

    Result<std::vector<SandboxRow>> sandboxRows(std::optional<std::string_view> name)
    {
        auto statement =
            db.prepare(fmt::format("{} {} ORDER BY s.name", kSandboxSelect, name ? "WHERE s.name = ?1" : ""));
        if (!statement)
            return errorOf(statement);
        if (name && sql::bindString(statement->get(), 1, *name) != SQLITE_OK)
            return db.error("cannot look up a sandbox");
        std::vector<SandboxRow> rows;
        int rc = 0;
        while ((rc = sqlite3_step(statement->get())) == SQLITE_ROW)
            rows.push_back(readSandbox(statement->get()));
        if (rc != SQLITE_DONE)
            return db.error("cannot read sandboxes");
        return rows;
    }

    Result<std::optional<SandboxRow>> findSandbox(std::string_view name)
    {
        auto rows = sandboxRows(name);
        if (!rows)
            return errorOf(rows);
        if (rows->empty())
            return std::optional<SandboxRow>{};
        return std::optional<SandboxRow>(std::move(rows->front()));
    }

    Result<SandboxRow> requireSandbox(std::string_view name)
    {
        if (name == kMain)
            return ensureMain();
        if (auto ok = validateName(name); !ok)
            return errorOf(ok);
        auto row = findSandbox(name);
        if (!row)
            return errorOf(row);
        if (!*row)
            return fail(fmt::format("no sandbox named '{}'", name));
        return std::move(**row);
    }

    Result<std::vector<std::string>> parentIds(std::int64_t row)
    {
        auto statement = db.prepare("SELECT p.checkpoint_id FROM checkpoint_parents AS cp JOIN checkpoints AS p "
                                    "ON p.id = cp.parent_id WHERE cp.child_id = ?1 ORDER BY cp.seq");
        if (!statement)
            return errorOf(statement);
        sqlite3_bind_int64(statement->get(), 1, row);
        std::vector<std::string> ids;
        int rc = 0;
        while ((rc = sqlite3_step(statement->get())) == SQLITE_ROW)
            ids.push_back(sql::columnString(statement->get(), 0));
        if (rc != SQLITE_DONE)
            return db.error("cannot read a checkpoint's parents");
        return ids;
    }

    Result<std::vector<CheckpointRow>> checkpointRows(std::string_view where, const std::function<void(sqlite3_stmt*)>& bind)
    {
        auto statement = db.prepare(fmt::format("{} {}", kCheckpointSelect, where));
        if (!statement)
            return errorOf(statement);
        sqlite3_stmt* s = statement->get();
        if (bind)
            bind(s);
        std::vector<CheckpointRow> rows;
        int rc = 0;
        while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
            CheckpointRow row;
            row.id = sqlite3_column_int64(s, 0);
            if (sqlite3_column_type(s, 1) != SQLITE_NULL)
                row.sandboxId = sqlite3_column_int64(s, 1);
            row.info.id = sql::columnString(s, 2);
            row.info.sandbox = sql::columnString(s, 3);
            row.info.tree = hashFromColumn(s, 4);
            row.info.kind = sql::columnString(s, 5);
            row.info.label = sql::columnString(s, 6);
            row.info.message = sql::columnString(s, 7);
            row.info.author = sql::columnString(s, 8);
            row.info.createdAtMs = sqlite3_column_int64(s, 9);
            row.info.source = sql::columnString(s, 10);
            row.info.files = static_cast<std::uint64_t>(sqlite3_column_int64(s, 11));
            row.info.bytes = static_cast<std::uint64_t>(sqlite3_column_int64(s, 12));
            rows.push_back(std::move(row));
        }
        if (rc != SQLITE_DONE)
            return db.error("cannot read checkpoints");
        for (auto& row : rows) {
            auto parents = parentIds(row.id);
            if (!parents)
                return errorOf(parents);
            row.info.parents = std::move(*parents);
        }
        return rows;
    }

    Result<CheckpointRow> checkpointByRow(std::int64_t id)
    {
        auto rows = checkpointRows("WHERE c.id = ?1", [&](sqlite3_stmt* s) { sqlite3_bind_int64(s, 1, id); });
        if (!rows)
            return errorOf(rows);
        if (rows->empty())
            return fail(fmt::format("store {}: checkpoint row {} is missing", db.path().string(), id));
        return std::move(rows->front());
    }

    Result<CheckpointRow> resolveCheckpoint(std::string_view text)
    {
        const std::string prefix = lower(text);
        if (!isHexPrefix(prefix) || prefix.size() < 4)
            return fail(fmt::format("'{}' is not a checkpoint id (at least 4 of its hex digits)", text));
        const std::string upper = prefix + "g"; // 'g' sorts after every hex digit
        auto rows = checkpointRows("WHERE c.checkpoint_id >= ?1 AND c.checkpoint_id < ?2 ORDER BY c.checkpoint_id LIMIT 6",
                                   [&](sqlite3_stmt* s) {
                                       sql::bindString(s, 1, prefix);
                                       sql::bindString(s, 2, upper);
                                   });
        if (!rows)
            return errorOf(rows);
        if (rows->empty())
            return fail(fmt::format("no checkpoint '{}'", text));
        if (rows->size() > 1) {
            std::string candidates;
            for (const auto& row : *rows)
                candidates += (candidates.empty() ? "" : ", ") + row.info.id.substr(0, 16);
            return fail(fmt::format("checkpoint '{}' is ambiguous: it starts {}", text, candidates));
        }
        return std::move(rows->front());
    }

    Result<std::optional<std::int64_t>> checkpointRowOf(const std::string& id)
    {
        auto statement = db.prepare("SELECT id FROM checkpoints WHERE checkpoint_id = ?1");
        if (!statement)
            return errorOf(statement);
        sql::bindString(statement->get(), 1, id);
        const int rc = sqlite3_step(statement->get());
        if (rc == SQLITE_ROW)
            return std::optional<std::int64_t>(sqlite3_column_int64(statement->get(), 0));
        if (rc != SQLITE_DONE)
            return db.error("cannot look up a checkpoint");
        return std::optional<std::int64_t>{};
    }

    // Inserts the checkpoint (in the caller's transaction) under `id`; parents must exist, a source that is gone
    // is left out.
    Result<CheckpointRow> insertCheckpoint(const NewCheckpoint& c, const std::string& id)
    {
        std::optional<std::int64_t> source;
        if (!c.source.empty()) {
            auto found = checkpointRowOf(c.source);
            if (!found)
                return errorOf(found);
            source = *found;
        }
        auto insert = db.prepare(
            "INSERT INTO checkpoints (checkpoint_id, sandbox_id, sandbox_name, tree, kind, label, message, author, "
            "created_at_ms, source_id, files, bytes) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
        if (!insert)
            return errorOf(insert);
        sql::Binder bind(insert->get());
        bind.text(1, id)
            .integer(2, c.sandboxId)
            .text(3, c.sandboxName)
            .blob(4, asChars(c.tree))
            .text(5, c.kind)
            .text(6, c.label)
            .text(7, c.message)
            .text(8, c.author)
            .integer(9, c.createdAtMs)
            .integer(11, static_cast<std::int64_t>(c.files))
            .integer(12, static_cast<std::int64_t>(c.bytes));
        if (source)
            bind.integer(10, *source);
        else
            bind.null(10);
        if (!bind.ok() || sqlite3_step(insert->get()) != SQLITE_DONE)
            return db.error("cannot record a checkpoint");
        const std::int64_t row = db.lastInsertId();
        auto link = db.prepare("INSERT INTO checkpoint_parents (child_id, seq, parent_id) VALUES (?1, ?2, ?3)");
        if (!link)
            return errorOf(link);
        for (std::size_t seq = 0; seq < c.parents.size(); ++seq) {
            auto parent = checkpointRowOf(c.parents[seq]);
            if (!parent)
                return errorOf(parent);
            if (!*parent)
                return fail(fmt::format("checkpoint {} is gone; cannot record a child of it", c.parents[seq]));
            sqlite3_reset(link->get());
            sqlite3_bind_int64(link->get(), 1, row);
            sqlite3_bind_int64(link->get(), 2, static_cast<std::int64_t>(seq));
            sqlite3_bind_int64(link->get(), 3, **parent);
            if (sqlite3_step(link->get()) != SQLITE_DONE)
                return db.error("cannot record a checkpoint's parent");
        }
        CheckpointRow out;
        out.id = row;
        out.sandboxId = c.sandboxId;
        out.info = CheckpointInfo{id,        c.sandboxName, c.parents, c.kind,  c.label, c.message, c.author,
                                  c.createdAtMs, c.source,  c.tree,    c.files, c.bytes};
        return out;
    }

    // A fresh id for `c`: its time moves on by a millisecond should the id exist already.
    Result<std::string> freshId(NewCheckpoint& c)
    {
        for (int attempt = 0; attempt < 1000; ++attempt) {
            const std::string id = checkpointIdOf(c);
            auto existing = checkpointRowOf(id);
            if (!existing)
                return errorOf(existing);
            if (!*existing)
                return id;
            ++c.createdAtMs;
        }
        return fail("cannot find a free checkpoint id");
    }

    Result<CheckpointRow> addCheckpoint(NewCheckpoint c)
    {
        auto id = freshId(c);
        if (!id)
            return errorOf(id);
        return insertCheckpoint(c, *id);
    }

    Result<void> setHead(std::int64_t sandboxId, std::int64_t checkpointRow)
    {
        auto update = db.prepare("UPDATE sandboxes SET head_id = ?1 WHERE id = ?2");
        if (!update)
            return errorOf(update);
        sqlite3_bind_int64(update->get(), 1, checkpointRow);
        sqlite3_bind_int64(update->get(), 2, sandboxId);
        if (sqlite3_step(update->get()) != SQLITE_DONE)
            return db.error("cannot move a sandbox's head");
        return {};
    }

    // Writes listings the store does not hold yet (in the caller's transaction).
    Result<void> storeListings(const TreeReader::Listings& listings)
    {
        for (const auto& [hash, bytes] : listings) {
            if (auto added = blobs.put(hash, BlobKind::Tree, bytes); !added)
                return errorOf(added);
        }
        return {};
    }

    // --- the stat cache ----------------------------------------------------------------------------------

    Result<StatCache> loadStatCache(std::int64_t sandboxId)
    {
        auto statement = db.prepare("SELECT path, data FROM workspace_stat WHERE sandbox_id = ?1");
        if (!statement)
            return errorOf(statement);
        sqlite3_stmt* s = statement->get();
        sqlite3_bind_int64(s, 1, sandboxId);
        StatCache cache;
        int rc = 0;
        while ((rc = sqlite3_step(s)) == SQLITE_ROW)
            cache.emplace(sql::columnString(s, 0), sql::columnString(s, 1));
        if (rc != SQLITE_DONE)
            return db.error("cannot read the stat cache");
        return cache;
    }

    Result<void> writeStatRow(std::int64_t sandboxId, const std::string& path, const std::string& data)
    {
        auto upsert = db.prepare("INSERT INTO workspace_stat (sandbox_id, path, data) VALUES (?1, ?2, ?3) "
                                 "ON CONFLICT (sandbox_id, path) DO UPDATE SET data = excluded.data");
        if (!upsert)
            return errorOf(upsert);
        sql::Binder bind(upsert->get());
        bind.integer(1, sandboxId).blob(2, path).blob(3, data);
        if (!bind.ok() || sqlite3_step(upsert->get()) != SQLITE_DONE)
            return db.error("cannot update the stat cache");
        return {};
    }

    // Brings the cache in line with a walk: one row per directory, written only where it changed.
    Result<void> updateStatCache(std::int64_t sandboxId, const StatCache& old, const ScanResult& scan)
    {
        for (const auto& [path, packed] : scan.directories) {
            if (auto before = old.find(path); before != old.end() && before->second == packed)
                continue;
            if (auto ok = writeStatRow(sandboxId, path, packed); !ok)
                return ok;
        }
        auto remove = db.prepare("DELETE FROM workspace_stat WHERE sandbox_id = ?1 AND path = ?2");
        if (!remove)
            return errorOf(remove);
        for (const auto& [path, packed] : old) {
            if (scan.directories.contains(path))
                continue;
            sqlite3_reset(remove->get());
            sql::Binder bind(remove->get());
            bind.integer(1, sandboxId).blob(2, path);
            if (!bind.ok() || sqlite3_step(remove->get()) != SQLITE_DONE)
                return db.error("cannot update the stat cache");
        }
        return {};
    }

    // Forgets every path at or below `prefix` ("" = all): a restore rewrote them.
    Result<void> dropStatCacheUnder(std::int64_t sandboxId, const std::string& prefix)
    {
        Result<sql::Statement> statement =
            prefix.empty() ? db.prepare("DELETE FROM workspace_stat WHERE sandbox_id = ?1")
                           : db.prepare("DELETE FROM workspace_stat WHERE sandbox_id = ?1 AND "
                                        "(path = ?2 OR (path >= ?3 AND path < ?4))");
        if (!statement)
            return errorOf(statement);
        const std::string below = prefix + "/";
        const std::string after = prefix + "0"; // '0' follows '/'
        sql::Binder bind(statement->get());
        bind.integer(1, sandboxId);
        if (!prefix.empty())
            bind.blob(2, prefix).blob(3, below).blob(4, after);
        if (!bind.ok() || sqlite3_step(statement->get()) != SQLITE_DONE)
            return db.error("cannot update the stat cache");
        return {};
    }

    // --- walking and saving a workspace ------------------------------------------------------------------

    ScanOptions scanOptions(const StatCache* cache, BlobStore* into, const ProgressCallback& progress) const
    {
        ScanOptions options;
        options.store = into;
        options.cache = cache;
        options.maxFileSize = maxFileSize;
        if (progress) {
            options.progress = [progress](const ScanProgress& p) {
                return progress(Progress{"scanning", p.files, 0, p.path});
            };
        }
        return options;
    }

    // Walks a workspace through its stat cache. Listings taken from the cache must be in the store; should
    // one be missing (a collection removed what only a pruned checkpoint held) the walk is done again building
    // every listing.
    Result<ScanResult> walkWorkspace(const fs::path& workspace, const StatCache& cache, BlobStore* into,
                                     const ProgressCallback& progress)
    {
        ScanOptions options = scanOptions(&cache, into, progress);
        auto scan = scanFolder(workspace, options);
        if (!scan)
            return scan;
        for (const auto& listing : scan->reusedListings) {
            auto present = blobs.contains(listing);
            if (!present)
                return errorOf(present);
            if (!*present) {
                options.reuseListings = false;
                return scanFolder(workspace, options);
            }
        }
        return scan;
    }

    struct Saved {
        ScanResult scan;
        CheckpointRow head;                  // the sandbox's head afterwards
        std::optional<CheckpointRow> made;   // the checkpoint made, if any
        ChangeCounts changes;
    };

    struct SaveRequest {
        bool always = true;                  // false: only when the workspace differs from the head
        std::string kind = "checkpoint";
        std::string label;
        std::string message;
        std::string author;
    };

    // Walks the sandbox's workspace, storing new content, and records a checkpoint of it (always, or only when
    // it differs from the head). Call with the sandbox and the shared garbage lock held.
    Result<Saved> saveWorkspace(const SandboxRow& sandbox, const SaveRequest& request, const ProgressCallback& progress)
    {
        if (!sandbox.headRow)
            return fail(fmt::format("sandbox '{}' has no head checkpoint (the store was edited?)", sandbox.info.name));
        const StepTrace trace("save");
        auto head = checkpointByRow(*sandbox.headRow);
        if (!head)
            return errorOf(head);
        // The stat cache only saves reading files: one that cannot be read is walked without.
        const StatCache cache = loadStatCache(sandbox.id).value_or(StatCache{});
        trace("cache loaded");
        if (auto ok = blobs.beginBatch(); !ok)
            return errorOf(ok);
        auto scan = walkWorkspace(sandbox.info.workspace, cache, &blobs, progress);
        if (!scan) {
            (void)blobs.endBatch(); // what was stored is kept: unreferenced, the next collection takes it
            return errorOf(scan);
        }
        trace("walked");
        if (auto ok = blobs.endBatch(); !ok)
            return errorOf(ok);

        step("checkpoint.stored");
        Saved saved;
        saved.head = std::move(*head);
        const bool unchanged = scan->root == saved.head.info.tree;
        sql::Transaction transaction(db);
        if (auto ok = transaction.begin(); !ok)
            return errorOf(ok);
        if (auto ok = updateStatCache(sandbox.id, cache, *scan); !ok)
            return errorOf(ok);
        trace("cache saved");
        if (unchanged && !request.always) {
            if (auto ok = transaction.commit(); !ok)
                return errorOf(ok);
            saved.scan = std::move(*scan);
            return saved;
        }

        if (auto ok = storeListings(scan->trees); !ok)
            return errorOf(ok);
        TreeReader reader(blobs);
        reader.addUnstored(&scan->trees);
        auto changes = diffTrees(reader, saved.head.info.tree, scan->root);
        if (!changes)
            return errorOf(changes);
        saved.changes = countChanges(*changes);

        NewCheckpoint c;
        c.sandboxId = sandbox.id;
        c.sandboxName = sandbox.info.name;
        c.tree = scan->root;
        c.parents = {saved.head.info.id};
        c.kind = request.kind;
        c.label = request.label;
        c.message = request.message;
        c.author = actorOr(request.author);
        c.createdAtMs = clock();
        c.files = scan->files;
        c.bytes = scan->bytes;
        auto made = addCheckpoint(c);
        if (!made)
            return errorOf(made);
        if (auto ok = setHead(sandbox.id, made->id); !ok)
            return errorOf(ok);
        const nlohmann::json details = {{"kind", c.kind},
                                        {"label", c.label},
                                        {"parent", saved.head.info.id},
                                        {"tree", hashHex(c.tree)},
                                        {"files", c.files},
                                        {"bytes", c.bytes},
                                        {"added", saved.changes.added},
                                        {"removed", saved.changes.removed},
                                        {"modified", saved.changes.modified}};
        if (auto ok = commit(transaction, Operation{"checkpoint.create", sandbox.info.name, made->info.id, c.author,
                                                    c.createdAtMs, jsonText(details)});
            !ok)
            return errorOf(ok);
        trace("committed");
        saved.head = *made;
        saved.made = std::move(*made);
        saved.scan = std::move(*scan);
        return saved;
    }

    // --- main ----------------------------------------------------------------------------------------------

    Result<SandboxRow> ensureMain()
    {
        auto existing = findSandbox(kMain);
        if (!existing)
            return errorOf(existing);
        if (*existing)
            return std::move(**existing);
        auto lock = lockSandbox(kMain);
        if (!lock)
            return errorOf(lock);
        auto garbage = lockGarbage(FileLock::Mode::Shared);
        if (!garbage)
            return errorOf(garbage);
        existing = findSandbox(kMain); // another process may have made it while we waited
        if (!existing)
            return errorOf(existing);
        if (*existing)
            return std::move(**existing);

        // Whatever is already in main's folder (a store made anew beside an old folder) is its first state.
        if (auto ok = makeDirectories(workspaceOf(kMain)); !ok)
            return errorOf(ok);
        if (auto ok = blobs.beginBatch(); !ok)
            return errorOf(ok);
        auto scan = scanFolder(workspaceOf(kMain), scanOptions(nullptr, &blobs, {}));
        if (!scan) {
            (void)blobs.endBatch();
            return errorOf(scan);
        }
        if (auto ok = blobs.endBatch(); !ok)
            return errorOf(ok);

        const std::string author = currentUser();
        const std::int64_t now = clock();
        sql::Transaction transaction(db);
        if (auto ok = transaction.begin(); !ok)
            return errorOf(ok);
        auto sandboxId = insertSandbox(std::string(kMain), author, now, std::nullopt, "", {}, {});
        if (!sandboxId)
            return errorOf(sandboxId);
        if (auto ok = storeListings(scan->trees); !ok)
            return errorOf(ok);
        NewCheckpoint c;
        c.sandboxId = *sandboxId;
        c.sandboxName = std::string(kMain);
        c.tree = scan->root;
        c.kind = "create";
        c.message = "main, the production sandbox, first used";
        c.author = author;
        c.createdAtMs = now;
        c.files = scan->files;
        c.bytes = scan->bytes;
        auto made = addCheckpoint(c);
        if (!made)
            return errorOf(made);
        if (auto ok = setHead(*sandboxId, made->id); !ok)
            return errorOf(ok);
        if (auto ok = updateStatCache(*sandboxId, {}, *scan); !ok)
            return errorOf(ok);
        const nlohmann::json details = {{"origin", ""}, {"checkpoint", made->info.id}, {"implicit", true}};
        if (auto ok = commit(transaction, Operation{"sandbox.create", std::string(kMain), made->info.id, author, now,
                                                    jsonText(details)});
            !ok)
            return errorOf(ok);
        auto row = findSandbox(kMain);
        if (!row)
            return errorOf(row);
        if (!*row)
            return fail("main vanished right after it was created");
        return std::move(**row);
    }

    Result<std::int64_t> insertSandbox(const std::string& name, const std::string& owner, std::int64_t createdAtMs,
                                       std::optional<std::int64_t> expiresAtMs, const std::string& origin,
                                       const std::vector<std::string>& includes,
                                       const std::vector<std::string>& excludes)
    {
        auto insert = db.prepare("INSERT INTO sandboxes (name, owner, created_at_ms, expires_at_ms, origin, includes, "
                                 "excludes) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
        if (!insert)
            return errorOf(insert);
        const std::string includesJson = jsonText(includes);
        const std::string excludesJson = jsonText(excludes);
        sql::Binder bind(insert->get());
        bind.text(1, name).text(2, owner).integer(3, createdAtMs).text(5, origin).text(6, includesJson).text(7, excludesJson);
        if (expiresAtMs)
            bind.integer(4, *expiresAtMs);
        else
            bind.null(4);
        if (!bind.ok() || sqlite3_step(insert->get()) != SQLITE_DONE)
            return db.error(fmt::format("cannot record sandbox '{}'", name));
        return db.lastInsertId();
    }

    // --- trees ----------------------------------------------------------------------------------------------

    struct Totals {
        std::uint64_t files = 0;
        std::uint64_t bytes = 0;
    };

    Result<Totals> totalsOf(TreeReader& reader, const ContentHash& tree)
    {
        auto listing = reader.read(tree);
        if (!listing)
            return errorOf(listing);
        Totals totals;
        for (const auto& entry : (*listing)->entries) {
            totals.files += entry.type == EntryType::Directory ? entry.files : 1;
            totals.bytes += entry.size;
        }
        return totals;
    }

    // The part of `tree` a filter takes, as new listings added to `out`; nullopt-free: an empty tree at worst.
    Result<std::optional<TreeEntry>> filterTree(TreeReader& reader, const ContentHash& tree, const PathFilter& filter,
                                                const std::string& prefix, TreeReader::Listings& out)
    {
        auto listing = reader.read(tree);
        if (!listing)
            return errorOf(listing);
        Tree kept;
        std::uint64_t files = 0;
        std::uint64_t bytes = 0;
        // Copied: the recursion reads more listings (the reader's map keeps references valid, but be plain).
        const std::vector<TreeEntry> entries = (*listing)->entries;
        for (const auto& entry : entries) {
            const std::string path = prefix.empty() ? entry.name : prefix + "/" + entry.name;
            if (entry.type == EntryType::Directory) {
                if (filter.skipsDirectory(path))
                    continue;
                auto child = filterTree(reader, entry.hash, filter, path, out);
                if (!child)
                    return errorOf(child);
                if (!*child)
                    continue;
                TreeEntry copy = entry;
                copy.hash = (*child)->hash;
                copy.files = (*child)->files;
                copy.size = (*child)->size;
                files += copy.files;
                bytes += copy.size;
                kept.entries.push_back(std::move(copy));
            } else if (filter.takes(path)) {
                files += 1;
                bytes += entry.size;
                kept.entries.push_back(entry);
            }
        }
        if (kept.entries.empty() && !prefix.empty() && !filter.takes(prefix))
            return std::optional<TreeEntry>{};
        std::string bytesOut = serializeTree(kept);
        auto digest = sha256(bytesOut);
        if (!digest)
            return errorOf(digest);
        out.try_emplace(*digest, std::move(bytesOut));
        TreeEntry summary;
        summary.type = EntryType::Directory;
        summary.hash = *digest;
        summary.files = files;
        summary.size = bytes;
        return std::optional<TreeEntry>(std::move(summary));
    }

    // Writes `tree` as a new workspace of `folder`'s sandbox: into workspace.new, then renamed into place.
    Result<WriteStats> writeWorkspace(TreeReader& reader, const ContentHash& tree, const fs::path& folder,
                                      const ProgressCallback& progress)
    {
        const fs::path staging = folder / kNewWorkspaceFolder;
        if (auto ok = removeTree(staging); !ok)
            return errorOf(ok);
        if (::mkdir(staging.c_str(), 0700) != 0)
            return fail(fmt::format("cannot create {}: {}", staging.string(), errnoText(errno)));
        auto fd = openDirectory(staging);
        if (!fd)
            return errorOf(fd);
        std::function<bool(std::uint64_t)> onFile;
        if (progress)
            onFile = [&](std::uint64_t files) { return progress(Progress{"writing", files, 0, {}}); };
        auto stats = writeTree(reader, tree, fd->get(), nullptr, onFile);
        if (!stats)
            return errorOf(stats);
        const fs::path workspace = folder / kWorkspaceFolder;
        if (::rename(staging.c_str(), workspace.c_str()) != 0)
            return fail(fmt::format("cannot move {} into place: {}", staging.string(), errnoText(errno)));
        return stats;
    }

    // --- sandboxes -------------------------------------------------------------------------------------------

    struct Source {
        std::optional<CheckpointRow> checkpoint;  // the checkpoint the new sandbox starts from
        std::optional<CheckpointInfo> saved;      // unsaved changes of a source sandbox, saved first
        std::string origin;
        ContentHash tree{};
        std::vector<Skipped> skipped;
        TreeReader::Listings listings;            // listings to store with the new sandbox
    };

    Result<CreateSandboxResult> create(const CreateSandboxRequest& request, std::string_view kind,
                                       const ProgressCallback& progress)
    {
        if (auto ok = validateName(request.name); !ok)
            return errorOf(ok);
        if (request.name == kMain)
            return fail("'main' is the production sandbox: it exists from the first use of the store and is not "
                        "created");
        if (request.importFrom && !request.from.empty())
            return fail("a sandbox comes from a sandbox or checkpoint, or from an imported folder: not both");
        if (request.expiresInMs && *request.expiresInMs <= 0)
            return fail("an expiry must lie in the future");
        auto filter = PathFilter::make(request.includes, request.excludes);
        if (!filter)
            return errorOf(filter);
        if (auto ok = prepareFolders(); !ok)
            return errorOf(ok);

        // What the sandbox comes from: a sandbox (its current workspace), a checkpoint, or a folder.
        std::string fromSandbox;
        std::optional<CheckpointRow> fromCheckpoint;
        if (!request.importFrom) {
            const std::string from = request.from.empty() ? std::string(kMain) : request.from;
            bool isSandbox = from == kMain;
            if (!isSandbox && validateName(from)) {
                auto row = findSandbox(from);
                if (!row)
                    return errorOf(row);
                isSandbox = row->has_value();
            }
            if (isSandbox) {
                fromSandbox = from;
                if (from == kMain) {
                    if (auto main = ensureMain(); !main)
                        return errorOf(main);
                }
            } else if (isHexPrefix(from) && from.size() >= 4) {
                auto checkpoint = resolveCheckpoint(from);
                if (!checkpoint)
                    return errorOf(checkpoint);
                fromCheckpoint = std::move(*checkpoint);
            } else {
                return fail(fmt::format("no sandbox or checkpoint named '{}'", from));
            }
        }

        // Both names locked, in name order, so two creations from each other cannot wait on each other.
        std::vector<std::string> names = {request.name};
        if (!fromSandbox.empty() && fromSandbox != request.name)
            names.push_back(fromSandbox);
        std::sort(names.begin(), names.end());
        std::vector<FileLock> locks;
        for (const auto& name : names) {
            auto lock = lockSandbox(name);
            if (!lock)
                return errorOf(lock);
            locks.push_back(std::move(*lock));
        }
        auto garbage = lockGarbage(FileLock::Mode::Shared);
        if (!garbage)
            return errorOf(garbage);

        auto existing = findSandbox(request.name);
        if (!existing)
            return errorOf(existing);
        if (*existing)
            return fail(fmt::format("a sandbox named '{}' exists already", request.name));

        Source source;
        TreeReader reader(blobs);
        if (request.importFrom) {
            auto imported = importFolder(*request.importFrom, *filter, progress);
            if (!imported)
                return errorOf(imported);
            source = std::move(*imported);
        } else if (!fromSandbox.empty()) {
            auto row = requireSandbox(fromSandbox);
            if (!row)
                return errorOf(row);
            SaveRequest save;
            save.always = false;
            save.kind = "auto";
            save.message = fmt::format("unsaved changes, saved before sandbox '{}' was made from it", request.name);
            auto saved = saveWorkspace(*row, save, progress);
            if (!saved)
                return errorOf(saved);
            if (saved->made)
                source.saved = saved->made->info;
            source.tree = saved->head.info.tree;
            source.origin = fromSandbox == kMain ? std::string(kMain) : fmt::format("sandbox {}", fromSandbox);
            source.checkpoint = std::move(saved->head);
        } else {
            source.tree = fromCheckpoint->info.tree;
            source.origin = fmt::format("checkpoint {}", fromCheckpoint->info.id);
            source.checkpoint = std::move(*fromCheckpoint);
        }
        if (!request.importFrom && !filter->empty()) {
            auto filtered = filterTree(reader, source.tree, *filter, "", source.listings);
            if (!filtered)
                return errorOf(filtered);
            source.tree = (*filtered)->hash;
        }
        reader.addUnstored(&source.listings);
        auto totals = totalsOf(reader, source.tree);
        if (!totals)
            return errorOf(totals);

        // The folder: anything left under this name (a crash, a destroy cut short) goes first.
        const fs::path folder = sandboxFolder(request.name);
        if (auto ok = discardFolder(folder); !ok)
            return errorOf(ok);
        if (::mkdir(folder.c_str(), 0700) != 0)
            return fail(fmt::format("cannot create {}: {}", folder.string(), errnoText(errno)));
        auto cleanup = [&](const Error& error) -> std::unexpected<Error> {
            (void)removeTree(folder);
            return std::unexpected(error);
        };
        if (auto written = writeWorkspace(reader, source.tree, folder, progress); !written)
            return cleanup(written.error());
        step("create.written");

        const std::string author = actorOr(request.owner);
        const std::int64_t now = clock();
        sql::Transaction transaction(db);
        if (auto ok = transaction.begin(); !ok)
            return cleanup(ok.error());
        const std::optional<std::int64_t> expires =
            request.expiresInMs ? std::optional<std::int64_t>(now + *request.expiresInMs) : std::nullopt;
        auto sandboxId = insertSandbox(request.name, author, now, expires, source.origin, request.includes,
                                       request.excludes);
        if (!sandboxId)
            return cleanup(sandboxId.error());
        if (auto ok = storeListings(source.listings); !ok)
            return cleanup(ok.error());
        NewCheckpoint c;
        c.sandboxId = *sandboxId;
        c.sandboxName = request.name;
        c.tree = source.tree;
        if (source.checkpoint)
            c.parents = {source.checkpoint->info.id};
        c.kind = std::string(kind);
        c.message = fmt::format("sandbox '{}' made from {}", request.name,
                                request.importFrom ? fmt::format("folder {}", request.importFrom->string()) : source.origin);
        c.author = author;
        c.createdAtMs = now;
        c.source = source.checkpoint ? source.checkpoint->info.id : std::string();
        c.files = totals->files;
        c.bytes = totals->bytes;
        auto made = addCheckpoint(c);
        if (!made)
            return cleanup(made.error());
        if (auto ok = setHead(*sandboxId, made->id); !ok)
            return cleanup(ok.error());
        const nlohmann::json details = {{"origin", source.origin},
                                        {"checkpoint", made->info.id},
                                        {"source", c.source},
                                        {"includes", request.includes},
                                        {"excludes", request.excludes},
                                        {"expires_at_ms", expires ? nlohmann::json(*expires) : nlohmann::json()},
                                        {"files", c.files},
                                        {"bytes", c.bytes},
                                        {"skipped", source.skipped.size()}};
        const std::string action = kind == "fork" ? "checkpoint.fork" : "sandbox.create";
        if (auto ok = commit(transaction, Operation{action, request.name, made->info.id, author, now, jsonText(details)});
            !ok)
            return cleanup(ok.error());

        auto row = findSandbox(request.name);
        if (!row)
            return errorOf(row);
        if (!*row)
            return fail(fmt::format("sandbox '{}' vanished right after it was created", request.name));
        CreateSandboxResult result;
        result.sandbox = std::move((*row)->info);
        result.checkpoint = std::move(made->info);
        result.savedSource = std::move(source.saved);
        result.skipped = std::move(source.skipped);
        return result;
    }

    Result<Source> importFolder(const fs::path& folder, const PathFilter& filter, const ProgressCallback& progress)
    {
        std::error_code ec;
        const fs::path absolute = fs::absolute(folder, ec);
        struct stat st {};
        if (::stat(absolute.c_str(), &st) != 0)
            return fail(fmt::format("cannot import {}: {}", folder.string(), errnoText(errno)));
        if (!S_ISDIR(st.st_mode))
            return fail(fmt::format("cannot import {}: not a folder", folder.string()));
        ScanOptions options = scanOptions(nullptr, &blobs, progress);
        options.filter = &filter;
        options.followRoot = true;
        // The store's own files are never imported (importing a folder that holds the store).
        for (const fs::path& own : {store.path(), fs::path(store.path().string() + "-wal"),
                                    fs::path(store.path().string() + "-shm"), root}) {
            struct stat ownStat {};
            if (::stat(own.c_str(), &ownStat) == 0)
                options.ignore.emplace_back(static_cast<std::uint64_t>(ownStat.st_dev),
                                            static_cast<std::uint64_t>(ownStat.st_ino));
        }
        if (auto ok = blobs.beginBatch(); !ok)
            return errorOf(ok);
        auto scan = scanFolder(absolute, options);
        if (!scan) {
            (void)blobs.endBatch();
            return errorOf(scan);
        }
        if (auto ok = blobs.endBatch(); !ok)
            return errorOf(ok);
        Source source;
        source.tree = scan->root;
        source.origin = fmt::format("import {}", absolute.string());
        source.skipped = std::move(scan->skipped);
        source.listings = std::move(scan->trees);
        return source;
    }

    // Removes checkpoints (in the caller's transaction), keeping the graph connected: a child of a removed
    // checkpoint gets the removed one's parents instead.
    Result<void> removeCheckpoints(const std::set<std::int64_t>& doomed)
    {
        if (doomed.empty())
            return {};
        auto parentsOf = db.prepare("SELECT parent_id FROM checkpoint_parents WHERE child_id = ?1 ORDER BY seq");
        auto childrenOf = db.prepare("SELECT child_id FROM checkpoint_parents WHERE parent_id = ?1");
        auto remove = db.prepare("DELETE FROM checkpoints WHERE id = ?1");
        if (!parentsOf || !childrenOf || !remove)
            return db.error("cannot prepare the removal of checkpoints");
        auto rows = [&](sql::Statement& statement, std::int64_t id) -> Result<std::vector<std::int64_t>> {
            sqlite3_reset(statement.get());
            sqlite3_bind_int64(statement.get(), 1, id);
            std::vector<std::int64_t> out;
            int rc = 0;
            while ((rc = sqlite3_step(statement.get())) == SQLITE_ROW)
                out.push_back(sqlite3_column_int64(statement.get(), 0));
            if (rc != SQLITE_DONE)
                return db.error("cannot read the checkpoint graph");
            return out;
        };
        // The nearest ancestors of each doomed checkpoint that survive. A parent is always recorded before its
        // child, so its row id is smaller: in ascending order, every doomed parent is resolved before its children.
        std::map<std::int64_t, std::vector<std::int64_t>> survivingParents;
        auto resolve = [&](std::int64_t id) -> Result<std::vector<std::int64_t>> {
            auto parents = rows(*parentsOf, id);
            if (!parents)
                return parents;
            std::vector<std::int64_t> out;
            auto add = [&](std::int64_t p) {
                if (std::find(out.begin(), out.end(), p) == out.end())
                    out.push_back(p);
            };
            for (std::int64_t parent : *parents) {
                if (!doomed.contains(parent)) {
                    add(parent);
                } else if (auto it = survivingParents.find(parent); it != survivingParents.end()) {
                    for (std::int64_t p : it->second)
                        add(p);
                }
            }
            return out;
        };
        for (std::int64_t id : doomed) { // std::set: ascending
            auto parents = resolve(id);
            if (!parents)
                return errorOf(parents);
            survivingParents[id] = std::move(*parents);
        }
        auto surviving = [&](std::int64_t child) { return resolve(child); };
        // Children outside the doomed set get new parent lists.
        std::set<std::int64_t> affected;
        for (std::int64_t id : doomed) {
            auto children = rows(*childrenOf, id);
            if (!children)
                return errorOf(children);
            for (std::int64_t child : *children) {
                if (!doomed.contains(child))
                    affected.insert(child);
            }
        }
        for (std::int64_t child : affected) {
            auto parents = surviving(child);
            if (!parents)
                return errorOf(parents);
            if (auto ok = db.exec(fmt::format("DELETE FROM checkpoint_parents WHERE child_id = {}", child),
                                  "cannot relink a checkpoint");
                !ok)
                return ok;
            for (std::size_t seq = 0; seq < parents->size(); ++seq) {
                if (auto ok = db.exec(fmt::format("INSERT INTO checkpoint_parents (child_id, seq, parent_id) VALUES "
                                                  "({}, {}, {})",
                                                  child, seq, (*parents)[seq]),
                                      "cannot relink a checkpoint");
                    !ok)
                    return ok;
            }
        }
        for (std::int64_t id : doomed) {
            sqlite3_reset(remove->get());
            sqlite3_bind_int64(remove->get(), 1, id);
            if (sqlite3_step(remove->get()) != SQLITE_DONE)
                return db.error("cannot remove a checkpoint");
        }
        return {};
    }

    Result<std::set<std::int64_t>> checkpointRowsOfSandbox(std::int64_t sandboxId)
    {
        auto statement = db.prepare("SELECT id FROM checkpoints WHERE sandbox_id = ?1");
        if (!statement)
            return errorOf(statement);
        sqlite3_bind_int64(statement->get(), 1, sandboxId);
        std::set<std::int64_t> ids;
        int rc = 0;
        while ((rc = sqlite3_step(statement->get())) == SQLITE_ROW)
            ids.insert(sqlite3_column_int64(statement->get(), 0));
        if (rc != SQLITE_DONE)
            return db.error("cannot list a sandbox's checkpoints");
        return ids;
    }

    // Removes the sandbox's rows and its folder; the blobs stay for the caller's garbage collection.
    Result<std::uint64_t> destroyLocked(const SandboxRow& sandbox, const std::string& action, std::int64_t now)
    {
        auto doomed = checkpointRowsOfSandbox(sandbox.id);
        if (!doomed)
            return errorOf(doomed);
        sql::Transaction transaction(db);
        if (auto ok = transaction.begin(); !ok)
            return errorOf(ok);
        // The head goes with the sandbox; unlink it first so no row points at a removed checkpoint.
        if (auto ok = db.exec(fmt::format("UPDATE sandboxes SET head_id = NULL WHERE id = {}", sandbox.id),
                              "cannot destroy a sandbox");
            !ok)
            return errorOf(ok);
        if (auto ok = removeCheckpoints(*doomed); !ok)
            return errorOf(ok);
        if (auto ok = db.exec(fmt::format("DELETE FROM sandboxes WHERE id = {}", sandbox.id), "cannot destroy a sandbox");
            !ok)
            return errorOf(ok);
        const nlohmann::json details = {{"checkpoints_removed", doomed->size()},
                                        {"expired", sandbox.info.expired(now)},
                                        {"expires_at_ms", sandbox.info.expiresAtMs ? nlohmann::json(*sandbox.info.expiresAtMs)
                                                                                   : nlohmann::json()}};
        if (auto ok = commit(transaction, Operation{action, sandbox.info.name, "", currentUser(), now, jsonText(details)});
            !ok)
            return errorOf(ok);
        step("destroy.recorded");
        if (auto ok = discardFolder(sandboxFolder(sandbox.info.name)); !ok)
            return errorOf(ok);
        return doomed->size();
    }

    // --- garbage ----------------------------------------------------------------------------------------------

    Result<GarbageStats> collect()
    {
        auto lock = lockGarbage(FileLock::Mode::Exclusive);
        if (!lock)
            return errorOf(lock);
        sql::Transaction transaction(db);
        if (auto ok = transaction.begin(); !ok)
            return errorOf(ok);

        std::unordered_set<ContentHash, ContentHashHasher> live;
        std::vector<ContentHash> roots;
        {
            auto statement = db.prepare("SELECT DISTINCT tree FROM checkpoints");
            if (!statement)
                return errorOf(statement);
            int rc = 0;
            while ((rc = sqlite3_step(statement->get())) == SQLITE_ROW)
                roots.push_back(hashFromColumn(statement->get(), 0));
            if (rc != SQLITE_DONE)
                return db.error("cannot list checkpoint trees");
        }
        {
            // An interrupted restore's plan names a tree that must survive until the journal is settled.
            auto statement = db.prepare("SELECT plan FROM workspace_journal");
            if (!statement)
                return errorOf(statement);
            while (sqlite3_step(statement->get()) == SQLITE_ROW) {
                if (auto plan = newCheckpointFromJson(sql::columnString(statement->get(), 0)))
                    roots.push_back(plan->first.tree);
            }
        }
        std::vector<ContentHash> pending = roots;
        while (!pending.empty()) {
            const ContentHash tree = pending.back();
            pending.pop_back();
            if (!live.insert(tree).second)
                continue;
            auto bytes = blobs.get(tree);
            if (!bytes)
                return errorOf(bytes);
            auto listing = parseTree(*bytes);
            if (!listing)
                return errorOf(listing);
            for (const auto& entry : listing->entries) {
                if (entry.type == EntryType::Directory) {
                    pending.push_back(entry.hash);
                } else if (entry.type == EntryType::File && entry.storage == Storage::Whole) {
                    live.insert(entry.hash);
                } else if (entry.type == EntryType::File && entry.storage == Storage::Chunked) {
                    if (!live.insert(entry.hash).second)
                        continue;
                    auto chunks = chunksOf(blobs, entry.hash);
                    if (!chunks)
                        return errorOf(chunks);
                    live.insert(chunks->begin(), chunks->end());
                }
            }
        }

        GarbageStats stats;
        std::vector<std::int64_t> dead;
        {
            auto statement = db.prepare("SELECT id, hash, length(data) FROM blobs");
            if (!statement)
                return errorOf(statement);
            int rc = 0;
            while ((rc = sqlite3_step(statement->get())) == SQLITE_ROW) {
                if (!live.contains(hashFromColumn(statement->get(), 1))) {
                    dead.push_back(sqlite3_column_int64(statement->get(), 0));
                    stats.bytesRemoved += static_cast<std::uint64_t>(sqlite3_column_int64(statement->get(), 2));
                }
            }
            if (rc != SQLITE_DONE)
                return db.error("cannot list blobs");
        }
        auto remove = db.prepare("DELETE FROM blobs WHERE id = ?1");
        if (!remove)
            return errorOf(remove);
        for (std::int64_t id : dead) {
            sqlite3_reset(remove->get());
            sqlite3_bind_int64(remove->get(), 1, id);
            if (sqlite3_step(remove->get()) != SQLITE_DONE)
                return db.error("cannot remove a blob");
        }
        stats.blobsRemoved = dead.size();
        // A stat cache entry vouching for content that is gone would let a checkpoint name a missing blob:
        // such entries lose their trust (the file is read again next time).
        if (!dead.empty()) {
            if (auto ok = distrustMissing(live); !ok)
                return errorOf(ok);
        }
        if (auto ok = transaction.commit(); !ok)
            return errorOf(ok);
        return stats;
    }

    Result<void> distrustMissing(const std::unordered_set<ContentHash, ContentHashHasher>& live)
    {
        struct Row {
            std::int64_t id = 0;
            std::string data;
        };
        std::vector<Row> rows;
        {
            auto statement = db.prepare("SELECT id, data FROM workspace_stat");
            if (!statement)
                return errorOf(statement);
            while (sqlite3_step(statement->get()) == SQLITE_ROW)
                rows.push_back(Row{sqlite3_column_int64(statement->get(), 0), sql::columnString(statement->get(), 1)});
        }
        auto update = db.prepare("UPDATE workspace_stat SET data = ?1 WHERE id = ?2");
        if (!update)
            return errorOf(update);
        for (auto& row : rows) {
            auto directory = unpackDirectoryStat(row.data);
            bool changed = !directory;
            DirectoryStat fixed = directory ? std::move(*directory) : DirectoryStat{};
            if (fixed.listing && !live.contains(fixed.listing->hash)) {
                fixed.listing.reset();
                changed = true;
            }
            for (auto& entry : fixed.entries) {
                if (entry.kind != StatEntry::Kind::File || !entry.trusted || entry.storage == Storage::Inline)
                    continue;
                ContentHash hash{};
                std::copy(entry.content.begin(), entry.content.end(), hash.begin());
                if (!live.contains(hash)) {
                    entry.trusted = false;
                    changed = true;
                }
            }
            if (!changed)
                continue;
            // A row that cannot be read is replaced by an empty, untrusted one: the next walk lists and reads.
            const std::string packed = packDirectoryStat(fixed);
            sqlite3_reset(update->get());
            sql::Binder bind(update->get());
            bind.blob(1, packed).integer(2, row.id);
            if (!bind.ok() || sqlite3_step(update->get()) != SQLITE_DONE)
                return db.error("cannot update the stat cache");
        }
        return {};
    }

    // --- restore --------------------------------------------------------------------------------------------

    // What one rename will swap to make the workspace equal to the target: the deepest directory holding
    // every difference; within it, the one entry that differs when there is only one (a file rewritten, a
    // name added or removed), else the directory itself.
    struct SwapPlan {
        enum class Kind { Exchange, Add, Remove };
        Kind kind = Kind::Exchange;
        std::string path;                   // relative to the workspace; "" = the workspace folder
        std::optional<TreeEntry> live;      // what is there now (Exchange, Remove)
        std::optional<TreeEntry> target;    // what goes there (Exchange, Add)
    };

    static std::string_view toString(SwapPlan::Kind kind)
    {
        return kind == SwapPlan::Kind::Add ? "add" : kind == SwapPlan::Kind::Remove ? "remove" : "exchange";
    }

    Result<SwapPlan> planSwap(TreeReader& reader, const ContentHash& liveRoot, const ContentHash& targetRoot)
    {
        ContentHash live = liveRoot;
        ContentHash target = targetRoot;
        std::string path;
        for (;;) {
            auto a = reader.read(live);
            if (!a)
                return errorOf(a);
            auto b = reader.read(target);
            if (!b)
                return errorOf(b);
            const auto& left = (*a)->entries;
            const auto& right = (*b)->entries;
            std::vector<std::pair<const TreeEntry*, const TreeEntry*>> differing;
            std::size_t i = 0;
            std::size_t j = 0;
            while ((i < left.size() || j < right.size()) && differing.size() < 2) {
                if (j == right.size() || (i < left.size() && left[i].name < right[j].name)) {
                    differing.emplace_back(&left[i++], nullptr);
                } else if (i == left.size() || right[j].name < left[i].name) {
                    differing.emplace_back(nullptr, &right[j++]);
                } else {
                    if (!left[i].sameAs(right[j]))
                        differing.emplace_back(&left[i], &right[j]);
                    ++i;
                    ++j;
                }
            }
            if (differing.size() == 1) {
                const auto [before, after] = differing.front();
                const std::string& name = before ? before->name : after->name;
                const std::string childPath = path.empty() ? name : path + "/" + name;
                if (before && after && before->type == EntryType::Directory && after->type == EntryType::Directory
                    && before->mode == after->mode) {
                    path = childPath; // every difference is further down
                    live = before->hash;
                    target = after->hash;
                    continue;
                }
                SwapPlan plan;
                plan.kind = !before ? SwapPlan::Kind::Add : !after ? SwapPlan::Kind::Remove : SwapPlan::Kind::Exchange;
                plan.path = childPath;
                if (before)
                    plan.live = *before;
                if (after)
                    plan.target = *after;
                return plan;
            }
            // Several differences here: this directory is swapped whole.
            SwapPlan plan;
            plan.path = path;
            TreeEntry liveFolder;
            liveFolder.type = EntryType::Directory;
            liveFolder.hash = live;
            TreeEntry targetFolder = liveFolder;
            targetFolder.hash = target;
            if (!path.empty()) {
                auto found = reader.find(targetRoot, path);
                if (!found)
                    return errorOf(found);
                if (*found)
                    targetFolder.mode = (*found)->mode;
            } else {
                targetFolder.mode = 0700;
            }
            plan.live = liveFolder;
            plan.target = targetFolder;
            return plan;
        }
    }

    // The swap of a restore is done: record the restore checkpoint, move the head, forget the stat cache
    // below the swapped folder, settle the journal row (if any), all in one transaction.
    Result<CheckpointRow> finishRestore(const NewCheckpoint& plan, const std::string& id, const std::string& swapped,
                                        std::optional<std::int64_t> journalRow, bool recovered)
    {
        sql::Transaction transaction(db);
        if (auto ok = transaction.begin(); !ok)
            return errorOf(ok);
        auto made = insertCheckpoint(plan, id);
        if (!made)
            return errorOf(made);
        if (auto ok = setHead(plan.sandboxId, made->id); !ok)
            return errorOf(ok);
        // Cache rows of folders at or below the swapped entry describe the replaced tree (a restore that
        // changed nothing swapped nothing and keeps them all).
        if (journalRow) {
            if (auto ok = dropStatCacheUnder(plan.sandboxId, swapped); !ok)
                return errorOf(ok);
            if (auto ok = db.exec(fmt::format("DELETE FROM workspace_journal WHERE id = {}", *journalRow),
                                  "cannot settle the restore journal");
                !ok)
                return errorOf(ok);
        }
        const nlohmann::json details = {{"restored", plan.source},
                                        {"parent", plan.parents.empty() ? std::string() : plan.parents.front()},
                                        {"tree", hashHex(plan.tree)},
                                        {"swapped", swapped},
                                        {"recovered", recovered}};
        if (auto ok = commit(transaction, Operation{"checkpoint.restore", plan.sandboxName, id, plan.author,
                                                    plan.createdAtMs, jsonText(details)});
            !ok)
            return errorOf(ok);
        return made;
    }

    Result<RestoreResult> restore(std::string_view checkpointText, const ProgressCallback& progress,
                                  std::string_view intoSandbox)
    {
        const StepTrace trace("restore");
        auto target = resolveCheckpoint(checkpointText);
        if (!target)
            return errorOf(target);
        std::string name(intoSandbox);
        if (name.empty()) {
            if (!target->sandboxId)
                return fail(fmt::format("checkpoint {} belongs to sandbox '{}', which was destroyed; fork it into a "
                                        "new sandbox instead",
                                        target->info.id, target->info.sandbox));
            name = target->info.sandbox;
        }
        if (name == kMain) {
            if (auto main = ensureMain(); !main)
                return errorOf(main);
        }
        auto lock = lockSandbox(name);
        if (!lock)
            return errorOf(lock);
        auto garbage = lockGarbage(FileLock::Mode::Shared);
        if (!garbage)
            return errorOf(garbage);
        auto sandbox = requireSandbox(name);
        if (!sandbox)
            return errorOf(sandbox);

        // 1. Unsaved changes become a checkpoint first: a restore never loses work.
        SaveRequest save;
        save.always = false;
        save.kind = "auto";
        save.message = fmt::format("unsaved changes, saved before restoring {}", target->info.id);
        auto saved = saveWorkspace(*sandbox, save, progress);
        if (!saved)
            return errorOf(saved);

        trace("saved");
        RestoreResult result;
        result.sandbox = name;
        result.restored = target->info;
        if (saved->made)
            result.saved = saved->made->info;
        result.skipped = saved->scan.skipped;

        TreeReader reader(blobs);
        reader.addUnstored(&saved->scan.trees);
        const ContentHash live = saved->scan.root;
        auto changes = diffTrees(reader, live, target->info.tree);
        if (!changes)
            return errorOf(changes);
        result.changes = countChanges(*changes);

        NewCheckpoint plan;
        plan.sandboxId = sandbox->id;
        plan.sandboxName = name;
        plan.tree = target->info.tree;
        plan.parents = {saved->head.info.id};
        plan.kind = "restore";
        plan.message = fmt::format("restored {}", target->info.id);
        plan.author = currentUser();
        plan.createdAtMs = clock();
        plan.source = target->info.id;
        plan.files = target->info.files;
        plan.bytes = target->info.bytes;
        auto id = freshId(plan);
        if (!id)
            return errorOf(id);

        std::optional<std::int64_t> journalRow;
        fs::path staging;
        if (!changes->empty()) {
            auto swapPlan = planSwap(reader, live, target->info.tree);
            if (!swapPlan)
                return errorOf(swapPlan);
            result.swapped = swapPlan->path;
            auto prepared = prepareSwap(*sandbox, reader, *swapPlan, saved->scan, progress);
            if (!prepared)
                return errorOf(prepared);
            staging = prepared->staging;
            step("restore.staged");
            trace("staged");
            result.filesWritten = prepared->stats.filesWritten;
            result.filesLinked = prepared->stats.filesLinked;

            // 2. The journal names the built tree before anything in the workspace changes.
            sql::Transaction transaction(db);
            if (auto ok = transaction.begin(); !ok)
                return errorOf(ok);
            auto insert = db.prepare("INSERT INTO workspace_journal (sandbox_id, staging, target_path, staging_inode, "
                                     "plan, created_at_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
            if (!insert)
                return errorOf(insert);
            const std::string planText = journalPlan(plan, *id, swapPlan->kind);
            const std::string stagingName = staging.filename().string();
            sql::Binder bind(insert->get());
            bind.integer(1, sandbox->id)
                .text(2, stagingName)
                .blob(3, result.swapped)
                .integer(4, static_cast<std::int64_t>(prepared->inode))
                .text(5, planText)
                .integer(6, plan.createdAtMs);
            if (!bind.ok() || sqlite3_step(insert->get()) != SQLITE_DONE)
                return db.error("cannot write the restore journal");
            journalRow = db.lastInsertId();
            if (auto ok = transaction.commit(); !ok)
                return errorOf(ok);
            step("restore.journaled");
            trace("journaled");

            // 3. One rename swaps the whole change in.
            if (auto ok = swap(*sandbox, *swapPlan, staging); !ok)
                return errorOf(ok);
            step("restore.swapped");
            trace("swapped");
        }

        // 4. Recorded; what was replaced (now the staging entry) goes.
        auto made = finishRestore(plan, *id, result.swapped, journalRow, false);
        if (!made)
            return errorOf(made);
        result.recorded = made->info;
        step("restore.recorded");
        trace("recorded");
        if (!staging.empty()) {
            (void)removeTree(staging);
            (void)removeTree(staging.string() + ".old");
        }
        trace("cleaned");
        return result;
    }

    struct PreparedSwap {
        fs::path staging;           // <sandbox folder>/.restore-XXXX: the new entry, later the old one
        std::uint64_t inode = 0;    // of the new entry (0 when the swap removes)
        WriteStats stats;
    };

    // Builds the new entry beside the workspace, in the sandbox's folder (the same file system), linking
    // unchanged files from the live workspace.
    Result<PreparedSwap> prepareSwap(const SandboxRow& sandbox, TreeReader& reader, const SwapPlan& plan,
                                     const ScanResult& scan, const ProgressCallback& progress)
    {
        PreparedSwap prepared;
        const std::string name = std::string(kStagingPrefix) + randomHex(8);
        prepared.staging = sandboxFolder(sandbox.info.name) / name;
        if (plan.kind == SwapPlan::Kind::Remove)
            return prepared;
        auto folder = openDirectory(sandboxFolder(sandbox.info.name));
        if (!folder)
            return errorOf(folder);
        auto cleanup = [&](const Error& error) -> std::unexpected<Error> {
            (void)removeTree(prepared.staging);
            return std::unexpected(error);
        };
        const TreeEntry& entry = *plan.target;
        if (entry.type == EntryType::Symlink) {
            if (::symlinkat(entry.data.c_str(), folder->get(), name.c_str()) != 0)
                return cleanup(Error{fmt::format("cannot create the restored link: {}", errnoText(errno))});
        } else if (entry.type == EntryType::File) {
            const int fd = ::openat(folder->get(), name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
            if (fd < 0)
                return cleanup(Error{fmt::format("cannot create the restored file: {}", errnoText(errno))});
            Fd guard(fd);
            auto ok = sb::readFile(blobs, entry, [&](std::string_view bytes) -> Result<void> {
                while (!bytes.empty()) {
                    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
                    if (n < 0 && errno == EINTR)
                        continue;
                    if (n < 0)
                        return fail(errnoText(errno));
                    bytes.remove_prefix(static_cast<std::size_t>(n));
                }
                return {};
            });
            if (!ok)
                return cleanup(Error{fmt::format("{}: {}", plan.path, ok.error().message)});
            if (::fchmod(fd, entry.mode) != 0)
                return cleanup(Error{fmt::format("cannot set the restored file's mode: {}", errnoText(errno))});
            prepared.stats.filesWritten = 1;
            prepared.stats.bytesWritten = entry.size;
        } else {
            if (::mkdirat(folder->get(), name.c_str(), 0700) != 0)
                return cleanup(Error{fmt::format("cannot create the restored folder: {}", errnoText(errno))});
            auto treeFd = openDirectoryAt(folder->get(), name);
            if (!treeFd)
                return cleanup(treeFd.error());
            // Unchanged files come from the live folder at the same place, when there is one.
            Fd liveFd;
            LinkSource link;
            if (plan.live && plan.live->type == EntryType::Directory) {
                auto workspaceFd = openDirectory(sandbox.info.workspace);
                if (!workspaceFd)
                    return cleanup(workspaceFd.error());
                auto opened = openRelativeDirectory(workspaceFd->get(), plan.path);
                if (!opened)
                    return cleanup(opened.error());
                liveFd = std::move(*opened);
                link.folder = liveFd.get();
                link.tree = plan.live->hash;
                link.prefix = plan.path;
                link.scan = &scan;
            }
            std::function<bool(std::uint64_t)> onFile;
            if (progress)
                onFile = [&](std::uint64_t files) { return progress(Progress{"writing", files, 0, plan.path}); };
            auto stats = writeTree(reader, entry.hash, treeFd->get(), liveFd.valid() ? &link : nullptr, onFile);
            if (!stats)
                return cleanup(stats.error());
            prepared.stats = *stats;
            if (::fchmod(treeFd->get(), entry.mode) != 0)
                return cleanup(Error{fmt::format("cannot set the restored folder's mode: {}", errnoText(errno))});
        }
        struct stat st {};
        if (::fstatat(folder->get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0)
            return cleanup(Error{errnoText(errno)});
        prepared.inode = static_cast<std::uint64_t>(st.st_ino);
        return prepared;
    }

    // The folder holding the swapped entry, opened without following symlinks, and the entry's name there.
    Result<std::pair<Fd, std::string>> swapPlace(const SandboxRow& sandbox, const std::string& swapped)
    {
        if (swapped.empty()) {
            auto folder = openDirectory(sandboxFolder(sandbox.info.name));
            if (!folder)
                return errorOf(folder);
            return std::pair{std::move(*folder), std::string(kWorkspaceFolder)};
        }
        auto workspaceFd = openDirectory(sandbox.info.workspace);
        if (!workspaceFd)
            return errorOf(workspaceFd);
        auto parent = openRelativeDirectory(workspaceFd->get(), parentPath(swapped));
        if (!parent)
            return errorOf(parent);
        return std::pair{std::move(*parent), baseName(swapped)};
    }

    // The one step that changes the workspace: a single rename (renameat2), so the workspace is wholly before
    // or wholly after at every moment.
    Result<void> swap(const SandboxRow& sandbox, const SwapPlan& plan, const fs::path& staging)
    {
        auto place = swapPlace(sandbox, plan.path);
        if (!place)
            return errorOf(place);
        auto folder = openDirectory(staging.parent_path());
        if (!folder)
            return errorOf(folder);
        const std::string name = staging.filename().string();
        switch (plan.kind) {
        case SwapPlan::Kind::Add:
            if (::renameat2(folder->get(), name.c_str(), place->first.get(), place->second.c_str(), RENAME_NOREPLACE) != 0)
                return fail(fmt::format("cannot move the restored {} in: {}", plan.path, errnoText(errno)));
            return {};
        case SwapPlan::Kind::Remove:
            if (::renameat2(place->first.get(), place->second.c_str(), folder->get(), name.c_str(), RENAME_NOREPLACE) != 0)
                return fail(fmt::format("cannot move {} out: {}", plan.path, errnoText(errno)));
            return {};
        case SwapPlan::Kind::Exchange:
            break;
        }
        int error = 0;
        if (exchangeAt(place->first.get(), place->second, folder->get(), name, error))
            return {};
        if (error != EINVAL && error != ENOSYS && error != ENOTSUP)
            return fail(fmt::format("cannot swap the restored {} in: {}", plan.path.empty() ? "workspace" : plan.path,
                                    errnoText(error)));
        // No RENAME_EXCHANGE on this file system: two renames; the journal lets the next open finish them.
        const std::string old = name + ".old";
        if (::renameat(place->first.get(), place->second.c_str(), folder->get(), old.c_str()) != 0)
            return fail(fmt::format("cannot move the old {} aside: {}", plan.path, errnoText(errno)));
        if (::renameat(folder->get(), name.c_str(), place->first.get(), place->second.c_str()) != 0)
            return fail(fmt::format("cannot move the restored {} in: {}", plan.path, errnoText(errno)));
        return {};
    }

    // What the journal keeps of the swap, beside the checkpoint to record.
    static std::string journalPlan(const NewCheckpoint& plan, const std::string& id, SwapPlan::Kind kind)
    {
        nlohmann::json j = toJson(plan, id);
        j["swap"] = toString(kind);
        return jsonText(j);
    }

    // --- recovery -----------------------------------------------------------------------------------------------

    // Settles restores a killed process left in the journal: finished when the swap happened, undone when not.
    Result<void> recover()
    {
        struct Entry {
            std::int64_t id = 0;
            std::int64_t sandboxId = 0;
            std::string staging;
            std::string swapped;
            std::uint64_t inode = 0;
            std::string plan;
        };
        std::vector<Entry> entries;
        {
            auto statement = db.prepare("SELECT id, sandbox_id, staging, target_path, staging_inode, plan FROM workspace_journal");
            if (!statement)
                return errorOf(statement);
            int rc = 0;
            while ((rc = sqlite3_step(statement->get())) == SQLITE_ROW) {
                sqlite3_stmt* s = statement->get();
                entries.push_back(Entry{sqlite3_column_int64(s, 0), sqlite3_column_int64(s, 1), sql::columnString(s, 2),
                                        sql::columnString(s, 3), static_cast<std::uint64_t>(sqlite3_column_int64(s, 4)),
                                        sql::columnString(s, 5)});
            }
            if (rc != SQLITE_DONE)
                return db.error("cannot read the restore journal");
        }
        for (const auto& entry : entries) {
            auto plan = newCheckpointFromJson(entry.plan);
            if (!plan)
                return errorOf(plan);
            const std::string& name = plan->first.sandboxName;
            if (!validateName(name) || entry.staging.find('/') != std::string::npos || !entry.staging.starts_with(kStagingPrefix))
                return fail(fmt::format("store {}: restore journal row {} is damaged", db.path().string(), entry.id));
            auto lock = FileLock::tryAcquire(lockOf(name), FileLock::Mode::Exclusive);
            if (!lock)
                return errorOf(lock);
            if (!lock->valid())
                continue; // its restore is still running
            auto garbage = lockGarbage(FileLock::Mode::Shared);
            if (!garbage)
                return errorOf(garbage);
            // Settled by another process while we waited for the lock?
            auto still = db.prepare(fmt::format("SELECT 1 FROM workspace_journal WHERE id = {}", entry.id));
            if (!still)
                return errorOf(still);
            if (sqlite3_step(still->get()) != SQLITE_ROW)
                continue;
            auto sandbox = findSandbox(name);
            if (!sandbox)
                return errorOf(sandbox);
            const fs::path staging = sandboxFolder(name) / entry.staging;
            if (!*sandbox) {
                (void)db.exec(fmt::format("DELETE FROM workspace_journal WHERE id = {}", entry.id), "settle the journal");
                continue;
            }
            const auto planJson = nlohmann::json::parse(entry.plan, nullptr, false);
            const std::string kindText = planJson.is_object() && planJson.contains("swap") && planJson["swap"].is_string()
                                             ? planJson["swap"].get<std::string>()
                                             : std::string("exchange");
            const SwapPlan::Kind kind = kindText == "add"      ? SwapPlan::Kind::Add
                                        : kindText == "remove" ? SwapPlan::Kind::Remove
                                                               : SwapPlan::Kind::Exchange;
            const bool swappedIn = settleSwap(**sandbox, entry.swapped, kind, entry.inode, staging);
            if (swappedIn) {
                auto made = finishRestore(plan->first, plan->second, entry.swapped, entry.id, true);
                if (!made)
                    return errorOf(made);
            } else if (auto ok = db.exec(fmt::format("DELETE FROM workspace_journal WHERE id = {}", entry.id),
                                         "cannot settle the restore journal");
                       !ok) {
                return ok;
            }
            (void)removeTree(staging);
            (void)removeTree(staging.string() + ".old");
        }
        return cleanLeftovers();
    }

    // Whether the restored entry is (now) in place. A two-rename exchange (file systems without
    // RENAME_EXCHANGE) cut between its renames is finished here, the journal being written.
    bool settleSwap(const SandboxRow& sandbox, const std::string& swapped, SwapPlan::Kind kind, std::uint64_t inode,
                    const fs::path& staging)
    {
        auto place = swapPlace(sandbox, swapped);
        if (!place)
            return false;
        struct stat st {};
        if (::fstatat(place->first.get(), place->second.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0)
            return kind != SwapPlan::Kind::Remove && static_cast<std::uint64_t>(st.st_ino) == inode;
        if (errno != ENOENT)
            return false;
        if (kind == SwapPlan::Kind::Remove)
            return true;
        if (kind == SwapPlan::Kind::Add)
            return false;
        auto folder = openDirectory(staging.parent_path());
        if (!folder)
            return false;
        const std::string name = staging.filename().string();
        if (::renameat(folder->get(), name.c_str(), place->first.get(), place->second.c_str()) == 0)
            return true;
        (void)::renameat(folder->get(), (name + ".old").c_str(), place->first.get(), place->second.c_str());
        return false;
    }

    // Staging folders of restores that never reached the journal, and half-written new workspaces, of
    // sandboxes no one is working on; a workspace folder that is missing is written again from its head.
    Result<void> cleanLeftovers()
    {
        auto rows = sandboxRows(std::nullopt);
        if (!rows)
            return errorOf(rows);
        std::set<std::pair<std::int64_t, std::string>> journaled;
        {
            auto statement = db.prepare("SELECT sandbox_id, staging FROM workspace_journal");
            if (!statement)
                return errorOf(statement);
            while (sqlite3_step(statement->get()) == SQLITE_ROW)
                journaled.emplace(sqlite3_column_int64(statement->get(), 0), sql::columnString(statement->get(), 1));
        }
        for (const auto& row : *rows) {
            const fs::path folder = sandboxFolder(row.info.name);
            std::error_code ec;
            const bool workspaceMissing = !fs::exists(fs::symlink_status(row.info.workspace, ec));
            bool leftovers = workspaceMissing;
            for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
                const std::string entryName = it->path().filename().string();
                if (entryName.starts_with(kStagingPrefix) || entryName == kNewWorkspaceFolder)
                    leftovers = true;
            }
            if (!leftovers)
                continue;
            auto lock = FileLock::tryAcquire(lockOf(row.info.name), FileLock::Mode::Exclusive);
            if (!lock)
                return errorOf(lock);
            if (!lock->valid())
                continue;
            for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
                const std::string entryName = it->path().filename().string();
                const std::string owner = entryName.ends_with(".old") ? entryName.substr(0, entryName.size() - 4) : entryName;
                if ((entryName.starts_with(kStagingPrefix) && !journaled.contains({row.id, owner}))
                    || entryName == kNewWorkspaceFolder)
                    (void)removeTree(it->path());
            }
            if (workspaceMissing && row.headRow) {
                auto head = checkpointByRow(*row.headRow);
                if (!head)
                    return errorOf(head);
                if (auto ok = makeDirectories(folder); !ok)
                    return ok;
                TreeReader reader(blobs);
                if (auto written = writeWorkspace(reader, head->info.tree, folder, {}); !written)
                    return errorOf(written);
                (void)dropStatCacheUnder(row.id, "");
            }
        }
        return {};
    }
};

// -----------------------------------------------------------------------------------------------------------

fs::path SandboxEngine::dataFolder(const fs::path& storePath)
{
    std::error_code ec;
    fs::path absolute = fs::absolute(storePath, ec);
    if (ec)
        absolute = storePath;
    return fs::path(absolute.lexically_normal().string() + ".d");
}

Result<void> SandboxEngine::validateName(std::string_view name)
{
    auto ok = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-'; };
    if (name.empty() || name.size() > 64 || !std::isalnum(static_cast<unsigned char>(name.front()))
        || !std::all_of(name.begin(), name.end(), ok))
        return fail(fmt::format("'{}' is not a valid sandbox name: use 1 to 64 letters, digits, '.', '_' or '-', "
                                "starting with a letter or digit",
                                name));
    return {};
}

SandboxEngine::SandboxEngine(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
SandboxEngine::~SandboxEngine() = default;

Result<std::unique_ptr<SandboxEngine>> SandboxEngine::open(Store& store)
{
    auto impl = std::make_unique<Impl>(store, dataFolder(store.path()));
    if (auto ok = impl->prepareFolders(); !ok)
        return errorOf(ok);
    if (auto ok = impl->recover(); !ok)
        return errorOf(ok);
    return std::unique_ptr<SandboxEngine>(new SandboxEngine(std::move(impl)));
}

void SandboxEngine::setObserver(OperationObserver* observer)
{
    m_impl->observer = observer;
}

void SandboxEngine::setMaxFileSize(std::uint64_t bytes)
{
    m_impl->maxFileSize = bytes;
}

void SandboxEngine::setClock(std::function<std::int64_t()> clock)
{
    m_impl->clock = std::move(clock);
}

void SandboxEngine::setFaultHook(std::function<void(std::string_view step)> hook)
{
    m_impl->faultHook = std::move(hook);
}

Result<CreateSandboxResult> SandboxEngine::createSandbox(const CreateSandboxRequest& request,
                                                         const ProgressCallback& progress)
{
    return m_impl->create(request, request.importFrom ? "import" : "create", progress);
}

Result<std::vector<SandboxInfo>> SandboxEngine::sandboxes()
{
    if (auto main = m_impl->ensureMain(); !main)
        return errorOf(main);
    auto rows = m_impl->sandboxRows(std::nullopt);
    if (!rows)
        return errorOf(rows);
    std::vector<SandboxInfo> out;
    for (auto& row : *rows)
        out.push_back(std::move(row.info));
    return out;
}

Result<SandboxInfo> SandboxEngine::sandbox(std::string_view name)
{
    auto row = m_impl->requireSandbox(name);
    if (!row)
        return errorOf(row);
    return std::move(row->info);
}

Result<DestroyResult> SandboxEngine::destroySandbox(std::string_view name)
{
    if (auto ok = validateName(name); !ok)
        return errorOf(ok);
    if (name == kMain)
        return fail("'main' is the production sandbox and cannot be destroyed");
    DestroyResult result;
    result.sandbox = std::string(name);
    {
        auto lock = m_impl->lockSandbox(name);
        if (!lock)
            return errorOf(lock);
        auto row = m_impl->requireSandbox(name);
        if (!row)
            return errorOf(row);
        auto removed = m_impl->destroyLocked(*row, "sandbox.destroy", m_impl->clock());
        if (!removed)
            return errorOf(removed);
        result.checkpointsRemoved = *removed;
    }
    auto garbage = m_impl->collect();
    if (!garbage)
        return errorOf(garbage);
    result.garbage = *garbage;
    return result;
}

Result<SweepResult> SandboxEngine::sweep()
{
    SweepResult result;
    const std::int64_t now = m_impl->clock();
    auto rows = m_impl->sandboxRows(std::nullopt);
    if (!rows)
        return errorOf(rows);
    for (const auto& row : *rows) {
        if (row.info.name == kMain || !row.info.expired(now))
            continue;
        auto lock = m_impl->lockSandbox(row.info.name);
        if (!lock)
            return errorOf(lock);
        auto current = m_impl->findSandbox(row.info.name); // destroyed or renewed meanwhile?
        if (!current)
            return errorOf(current);
        if (!*current || !(*current)->info.expired(now))
            continue;
        auto removed = m_impl->destroyLocked(**current, "sandbox.sweep", now);
        if (!removed)
            return errorOf(removed);
        result.destroyed.push_back(row.info.name);
        result.checkpointsRemoved += *removed;
    }
    // Folders of sandboxes that have no row (a destroy or create cut short), unless someone works on that name
    // now, and whatever such a cut left in trash/.
    std::set<std::string> known;
    if (auto current = m_impl->sandboxRows(std::nullopt)) {
        for (const auto& row : *current)
            known.insert(row.info.name);
    }
    std::error_code ec;
    for (fs::directory_iterator it(m_impl->root / "sandboxes", ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (known.contains(name) || !validateName(name))
            continue;
        auto lock = FileLock::tryAcquire(m_impl->lockOf(name), FileLock::Mode::Exclusive);
        if (!lock || !lock->valid())
            continue;
        auto row = m_impl->findSandbox(name);
        if (row && !*row)
            (void)m_impl->discardFolder(it->path());
    }
    for (fs::directory_iterator it(m_impl->root / "trash", ec), end; !ec && it != end; it.increment(ec))
        (void)removeTree(it->path());
    auto garbage = m_impl->collect();
    if (!garbage)
        return errorOf(garbage);
    result.garbage = *garbage;
    return result;
}

Result<CheckpointResult> SandboxEngine::checkpoint(const CheckpointRequest& request, const ProgressCallback& progress)
{
    if (request.sandbox == kMain) {
        if (auto main = m_impl->ensureMain(); !main)
            return errorOf(main);
    } else if (auto ok = validateName(request.sandbox); !ok) {
        return errorOf(ok);
    }
    auto lock = m_impl->lockSandbox(request.sandbox);
    if (!lock)
        return errorOf(lock);
    auto garbage = m_impl->lockGarbage(FileLock::Mode::Shared);
    if (!garbage)
        return errorOf(garbage);
    auto sandbox = m_impl->requireSandbox(request.sandbox);
    if (!sandbox)
        return errorOf(sandbox);
    Impl::SaveRequest save;
    save.label = request.label;
    save.message = request.message;
    save.author = request.author;
    auto saved = m_impl->saveWorkspace(*sandbox, save, progress);
    if (!saved)
        return errorOf(saved);
    CheckpointResult result;
    result.checkpoint = saved->made->info;
    result.changes = saved->changes;
    result.skipped = std::move(saved->scan.skipped);
    result.filesRead = saved->scan.filesRead;
    result.bytesRead = saved->scan.bytesRead;
    result.newBlobs = saved->scan.newBlobs;
    result.newBytes = saved->scan.newBytes;
    return result;
}

Result<std::vector<CheckpointInfo>> SandboxEngine::checkpoints(std::string_view name)
{
    auto sandbox = m_impl->requireSandbox(name);
    if (!sandbox)
        return errorOf(sandbox);
    auto rows = m_impl->checkpointRows("WHERE c.sandbox_id = ?1 ORDER BY c.created_at_ms DESC, c.id DESC",
                                       [&](sqlite3_stmt* s) { sqlite3_bind_int64(s, 1, sandbox->id); });
    if (!rows)
        return errorOf(rows);
    std::vector<CheckpointInfo> out;
    for (auto& row : *rows)
        out.push_back(std::move(row.info));
    return out;
}

Result<CheckpointInfo> SandboxEngine::findCheckpoint(std::string_view idOrPrefix)
{
    auto row = m_impl->resolveCheckpoint(idOrPrefix);
    if (!row)
        return errorOf(row);
    return std::move(row->info);
}

namespace {

// Reads a file of a live workspace (no symlink followed on the way), at most `limit` bytes.
Result<std::string> readLiveFile(const fs::path& workspace, const std::string& path, std::uint64_t limit)
{
    auto root = openDirectory(workspace);
    if (!root)
        return errorOf(root);
    auto folder = openRelativeDirectory(root->get(), parentPath(path));
    if (!folder)
        return errorOf(folder);
    const int fd = ::openat(folder->get(), baseName(path).c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return fail(fmt::format("{}: {}", path, errnoText(errno)));
    Fd guard(fd);
    std::string bytes;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return fail(fmt::format("{}: {}", path, errnoText(errno)));
        }
        if (n == 0)
            break;
        bytes.append(buffer, static_cast<std::size_t>(n));
        if (bytes.size() > limit)
            return fail(fmt::format("{}: larger than {} bytes", path, limit));
    }
    return bytes;
}

} // namespace

Result<DiffResult> SandboxEngine::diff(std::string_view from, std::string_view to, const DiffOptions& options,
                                       const ProgressCallback& progress, std::string_view liveSandbox)
{
    auto a = m_impl->resolveCheckpoint(from);
    if (!a)
        return errorOf(a);
    DiffResult result;
    result.from = a->info.id;
    TreeReader reader(m_impl->blobs);
    ContentHash toTree{};
    std::optional<ScanResult> scan;
    fs::path workspace;
    if (!to.empty()) {
        auto b = m_impl->resolveCheckpoint(to);
        if (!b)
            return errorOf(b);
        result.to = b->info.id;
        toTree = b->info.tree;
    } else {
        std::string name(liveSandbox);
        if (name.empty()) {
            if (!a->sandboxId)
                return fail(fmt::format("checkpoint {} belongs to sandbox '{}', which was destroyed: name a second "
                                        "checkpoint to compare with",
                                        a->info.id, a->info.sandbox));
            name = a->info.sandbox;
        }
        auto sandbox = m_impl->requireSandbox(name);
        if (!sandbox)
            return errorOf(sandbox);
        const StatCache cache = m_impl->loadStatCache(sandbox->id).value_or(StatCache{});
        // Read only: nothing is stored, the references are computed the way a checkpoint would.
        auto walked = m_impl->walkWorkspace(sandbox->info.workspace, cache, nullptr, progress);
        if (!walked)
            return errorOf(walked);
        scan = std::move(*walked);
        reader.addUnstored(&scan->trees);
        toTree = scan->root;
        result.to = "workspace";
        result.sandbox = name;
        result.skipped = scan->skipped;
        workspace = sandbox->info.workspace;
    }
    auto changes = diffTrees(reader, a->info.tree, toTree);
    if (!changes)
        return errorOf(changes);
    result.counts = countChanges(*changes);

    auto contentOf = [&](const TreeEntry& entry, const std::string& path, bool live) -> Result<std::string> {
        if (entry.type == EntryType::Symlink)
            return entry.data + "\n";
        if (live)
            return readLiveFile(workspace, path, options.maxTextBytes);
        return readFileBytes(m_impl->blobs, entry, options.maxTextBytes);
    };
    for (auto& change : *changes) {
        FileDiff file;
        const TreeEntry* before = change.before ? &*change.before : nullptr;
        const TreeEntry* after = change.after ? &*change.after : nullptr;
        const bool textual = options.text && (!before || before->type != EntryType::Directory)
                             && (!after || after->type != EntryType::Directory) && (!before || !after || !before->sameContent(*after));
        if (textual) {
            const std::uint64_t largest = std::max(before ? before->size : 0, after ? after->size : 0);
            if (largest > options.maxTextBytes) {
                file.tooLarge = true;
            } else {
                std::string left;
                std::string right;
                if (before) {
                    auto bytes = contentOf(*before, change.path, false);
                    if (!bytes)
                        return errorOf(bytes);
                    left = std::move(*bytes);
                }
                if (after) {
                    auto bytes = contentOf(*after, change.path, scan.has_value());
                    if (!bytes)
                        return errorOf(bytes);
                    right = std::move(*bytes);
                }
                if (looksBinary(left) || looksBinary(right)) {
                    file.binary = true;
                } else {
                    file.unified = unifiedDiff(left, right, before ? "a/" + change.path : "/dev/null",
                                               after ? "b/" + change.path : "/dev/null", options.context);
                }
            }
        }
        file.change = std::move(change);
        result.files.push_back(std::move(file));
    }
    return result;
}

Result<RestoreResult> SandboxEngine::restore(std::string_view checkpoint, const ProgressCallback& progress,
                                             std::string_view intoSandbox)
{
    return m_impl->restore(checkpoint, progress, intoSandbox);
}

Result<CreateSandboxResult> SandboxEngine::fork(std::string_view checkpoint, std::string_view newName,
                                                const ProgressCallback& progress)
{
    auto source = m_impl->resolveCheckpoint(checkpoint);
    if (!source)
        return errorOf(source);
    CreateSandboxRequest request;
    request.name = std::string(newName);
    request.from = source->info.id;
    return m_impl->create(request, "fork", progress);
}

Result<PruneResult> SandboxEngine::prune(std::string_view name, const PrunePolicy& policy)
{
    if (policy.keepLast && *policy.keepLast < 0)
        return fail("--keep-last must be 0 or more");
    PruneResult result;
    result.sandbox = std::string(name);
    {
        if (name == kMain) {
            if (auto main = m_impl->ensureMain(); !main)
                return errorOf(main);
        }
        auto lock = m_impl->lockSandbox(name);
        if (!lock)
            return errorOf(lock);
        auto sandbox = m_impl->requireSandbox(name);
        if (!sandbox)
            return errorOf(sandbox);
        auto rows = m_impl->checkpointRows("WHERE c.sandbox_id = ?1 ORDER BY c.created_at_ms DESC, c.id DESC",
                                           [&](sqlite3_stmt* s) { sqlite3_bind_int64(s, 1, sandbox->id); });
        if (!rows)
            return errorOf(rows);
        // Checkpoints another sandbox's checkpoints descend from directly (where it was made or forked).
        std::set<std::int64_t> forkPoints;
        {
            auto statement = m_impl->db.prepare(
                "SELECT DISTINCT cp.parent_id FROM checkpoint_parents AS cp JOIN checkpoints AS child ON child.id = "
                "cp.child_id JOIN checkpoints AS parent ON parent.id = cp.parent_id WHERE parent.sandbox_id = ?1 AND "
                "(child.sandbox_id IS NULL OR child.sandbox_id != ?1)");
            if (!statement)
                return errorOf(statement);
            sqlite3_bind_int64(statement->get(), 1, sandbox->id);
            while (sqlite3_step(statement->get()) == SQLITE_ROW)
                forkPoints.insert(sqlite3_column_int64(statement->get(), 0));
        }
        const std::int64_t now = m_impl->clock();
        std::set<std::int64_t> doomed;
        for (std::size_t i = 0; i < rows->size(); ++i) {
            const CheckpointRow& row = (*rows)[i];
            const bool keep = (sandbox->headRow && row.id == *sandbox->headRow) || forkPoints.contains(row.id)
                              || (policy.keepLast && static_cast<std::int64_t>(i) < *policy.keepLast)
                              || (policy.keepLabelled && !row.info.label.empty())
                              || (policy.youngerThanMs && now - row.info.createdAtMs < *policy.youngerThanMs);
            if (keep) {
                ++result.kept;
            } else {
                doomed.insert(row.id);
                result.removed.push_back(row.info.id);
            }
        }
        if (!doomed.empty()) {
            sql::Transaction transaction(m_impl->db);
            if (auto ok = transaction.begin(); !ok)
                return errorOf(ok);
            if (auto ok = m_impl->removeCheckpoints(doomed); !ok)
                return errorOf(ok);
            nlohmann::json details = {{"removed", result.removed},
                                      {"kept", result.kept},
                                      {"keep_last", policy.keepLast ? nlohmann::json(*policy.keepLast) : nlohmann::json()},
                                      {"keep_labelled", policy.keepLabelled},
                                      {"younger_than_ms",
                                       policy.youngerThanMs ? nlohmann::json(*policy.youngerThanMs) : nlohmann::json()}};
            if (auto ok = m_impl->commit(transaction, Operation{"checkpoint.prune", result.sandbox, "", currentUser(), now,
                                                                jsonText(details)});
                !ok)
                return errorOf(ok);
        }
    }
    auto garbage = m_impl->collect();
    if (!garbage)
        return errorOf(garbage);
    result.garbage = *garbage;
    return result;
}

Result<GarbageStats> SandboxEngine::collectGarbage()
{
    return m_impl->collect();
}

Result<void> SandboxEngine::verifyCheckpoint(std::string_view checkpoint)
{
    auto row = m_impl->resolveCheckpoint(checkpoint);
    if (!row)
        return errorOf(row);
    TreeReader reader(m_impl->blobs);
    return reader.walk(row->info.tree, [&](const std::string& path, const TreeEntry& entry) -> Result<bool> {
        if (entry.type != EntryType::File)
            return true;
        auto ok = sb::readFile(m_impl->blobs, entry, [](std::string_view) -> Result<void> { return {}; });
        if (!ok)
            return fail(fmt::format("checkpoint {}: {}: {}", row->info.id, path, ok.error().message));
        return true;
    });
}

Result<std::optional<CheckpointInfo>> SandboxEngine::commonAncestor(std::string_view a, std::string_view b)
{
    auto left = m_impl->resolveCheckpoint(a);
    if (!left)
        return errorOf(left);
    auto right = m_impl->resolveCheckpoint(b);
    if (!right)
        return errorOf(right);
    // Breadth-first from both sides by generations; the first checkpoint both reach, nearest to `a`.
    auto ancestors = [&](std::int64_t start) -> Result<std::map<std::int64_t, int>> {
        std::map<std::int64_t, int> distance{{start, 0}};
        std::deque<std::int64_t> queue{start};
        auto parents = m_impl->db.prepare("SELECT parent_id FROM checkpoint_parents WHERE child_id = ?1");
        if (!parents)
            return errorOf(parents);
        while (!queue.empty()) {
            const std::int64_t id = queue.front();
            queue.pop_front();
            sqlite3_reset(parents->get());
            sqlite3_bind_int64(parents->get(), 1, id);
            while (sqlite3_step(parents->get()) == SQLITE_ROW) {
                const std::int64_t parent = sqlite3_column_int64(parents->get(), 0);
                if (distance.try_emplace(parent, distance[id] + 1).second)
                    queue.push_back(parent);
            }
        }
        return distance;
    };
    auto fromLeft = ancestors(left->id);
    if (!fromLeft)
        return errorOf(fromLeft);
    auto fromRight = ancestors(right->id);
    if (!fromRight)
        return errorOf(fromRight);
    std::optional<std::int64_t> best;
    int bestDistance = 0;
    for (const auto& [id, distance] : *fromLeft) {
        auto other = fromRight->find(id);
        if (other == fromRight->end())
            continue;
        const int total = distance + other->second;
        if (!best || total < bestDistance) {
            best = id;
            bestDistance = total;
        }
    }
    if (!best)
        return std::optional<CheckpointInfo>{};
    auto row = m_impl->checkpointByRow(*best);
    if (!row)
        return errorOf(row);
    return std::optional<CheckpointInfo>(std::move(row->info));
}

Result<std::vector<PathEntry>> SandboxEngine::files(std::string_view checkpoint)
{
    auto row = m_impl->resolveCheckpoint(checkpoint);
    if (!row)
        return errorOf(row);
    TreeReader reader(m_impl->blobs);
    std::vector<PathEntry> out;
    auto ok = reader.walk(row->info.tree, [&](const std::string& path, const TreeEntry& entry) -> Result<bool> {
        out.push_back(PathEntry{path, entry});
        return true;
    });
    if (!ok)
        return errorOf(ok);
    return out;
}

Result<std::optional<TreeEntry>> SandboxEngine::entryAt(std::string_view checkpoint, std::string_view path)
{
    auto row = m_impl->resolveCheckpoint(checkpoint);
    if (!row)
        return errorOf(row);
    TreeReader reader(m_impl->blobs);
    return reader.find(row->info.tree, path);
}

Result<std::string> SandboxEngine::readFile(const TreeEntry& entry, std::uint64_t limit)
{
    return readFileBytes(m_impl->blobs, entry, limit);
}

} // namespace sb
