#pragma once

// Private to core/workspace: what the engine's source files share (sandbox_engine.cpp for the public calls,
// engine_rows.cpp for rows and the stat cache, engine_sandboxes.cpp for walking, saving and making
// sandboxes, engine_restore.cpp for restores and their recovery, engine_garbage.cpp for removing checkpoints
// and collecting blobs). Not part of the engine's interface.

#include "util/user_account.h"
#include "checkpoints/blob_store.h"
#include "checkpoints/files.h"
#include "checkpoints/materialize.h"
#include "checkpoints/path_filter.h"
#include "sandboxes/sandbox_engine.h"
#include "checkpoints/tree_reader.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <sys/random.h>
#include <unistd.h>
#include <unordered_set>

namespace sb {

namespace engine {

namespace fs = std::filesystem;

inline constexpr int kSandboxLockWaitMs = 30'000;
inline constexpr int kGarbageLockWaitMs = 60'000;
inline constexpr std::string_view kWorkspaceFolder = "workspace";
inline constexpr std::string_view kStagingPrefix = ".restore-";
inline constexpr std::string_view kNewWorkspaceFolder = "workspace.new";

// SANDBENCH_TRACE_WORKSPACE=1: each step of a checkpoint or restore prints its time (milliseconds since the
// operation began, and since the process's static initialisation: what a command spent before it) to
// stderr, to see where a slow one spends it.
class StepTrace {
public:
    static std::chrono::steady_clock::time_point processStart();
    explicit StepTrace(std::string_view operation)
        : m_enabled(std::getenv("SANDBENCH_TRACE_WORKSPACE") != nullptr), m_operation(operation),
          m_start(std::chrono::steady_clock::now())
    {
    }
    void operator()(std::string_view step) const
    {
        if (!m_enabled)
            return;
        using Ms = std::chrono::duration<double, std::milli>;
        const auto now = std::chrono::steady_clock::now();
        std::fprintf(stderr, "[trace] %s %-12s %8.2f ms (%.2f ms into the process)\n", m_operation.c_str(),
                     std::string(step).c_str(), Ms(now - m_start).count(), Ms(now - processStart()).count());
    }

private:
    bool m_enabled;
    std::string m_operation;
    std::chrono::steady_clock::time_point m_start;
};

template <typename T> inline std::unexpected<Error> errorOf(const Result<T>& result)
{
    return std::unexpected(result.error());
}

inline std::string currentUser()
{
    if (auto name = accountName(::geteuid()))
        return *name;
    if (const char* user = std::getenv("USER"); user && *user)
        return user;
    return fmt::format("uid {}", ::geteuid());
}

inline std::string randomHex(std::size_t bytes)
{
    std::vector<std::uint8_t> random(bytes);
    std::size_t got = 0;
    while (got < bytes) {
        const ssize_t n = ::getrandom(random.data() + got, bytes - got, 0);
        if (n <= 0) {
            // getrandom cannot fail here short of a broken kernel; fall back on the time and pid.
            const auto seed =
                static_cast<std::uint64_t>(wallClockNs()) ^ (static_cast<std::uint64_t>(::getpid()) << 32);
            for (std::size_t i = got; i < bytes; ++i)
                random[i] = static_cast<std::uint8_t>(seed >> ((i % 8) * 8));
            break;
        }
        got += static_cast<std::size_t>(n);
    }
    return toHex(random);
}

inline std::string_view asChars(const ContentHash& hash)
{
    return {reinterpret_cast<const char*>(hash.data()), hash.size()};
}

inline ContentHash hashFromColumn(sqlite3_stmt* statement, int column)
{
    ContentHash hash{};
    const std::string bytes = sqlite::columnString(statement, column);
    if (bytes.size() == hash.size())
        std::copy(bytes.begin(), bytes.end(), hash.begin());
    return hash;
}

inline std::string parentPath(std::string_view path)
{
    const auto slash = path.rfind('/');
    return slash == std::string_view::npos ? std::string() : std::string(path.substr(0, slash));
}

inline std::string baseName(std::string_view path)
{
    const auto slash = path.rfind('/');
    return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

inline bool isHexPrefix(std::string_view text)
{
    return !text.empty() && text.size() <= 64 && std::all_of(text.begin(), text.end(), [](char c) {
        return std::isxdigit(static_cast<unsigned char>(c));
    });
}

inline std::string lower(std::string_view text)
{
    std::string out(text);
    for (char& c : out)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

inline std::string jsonText(const nlohmann::json& value)
{
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

inline Result<std::vector<std::string>> patternsFromJson(const std::string& text)
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

inline ChangeCounts countChanges(const std::vector<TreeChange>& changes)
{
    ChangeCounts counts;
    for (const auto& change : changes) {
        switch (change.kind) {
        case ChangeKind::Added: ++counts.added; break;
        case ChangeKind::Removed: ++counts.removed; break;
        case ChangeKind::Modified: ++counts.modified; break;
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
    std::string meta; // the sandbox's policy and dataset references (metaText); "" in checkpoints before schema 6
};

// The id: SHA-256 of everything the checkpoint says, each text field length-prefixed so that no label can
// pass for another field.
inline std::string checkpointIdOf(const NewCheckpoint& c)
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
    // Later than the fields above and only when there is any, so every older checkpoint keeps its id.
    if (!c.meta.empty())
        field("meta", c.meta);
    auto hex = sha256Hex(text);
    return hex ? *hex : std::string();
}

inline nlohmann::json toJson(const NewCheckpoint& c, const std::string& id)
{
    return {{"id", id},
            {"sandbox_id", c.sandboxId},
            {"sandbox", c.sandboxName},
            {"tree", hashHex(c.tree)},
            {"parents", c.parents},
            {"kind", c.kind},
            {"label", c.label},
            {"message", c.message},
            {"author", c.author},
            {"created_at_ms", c.createdAtMs},
            {"source", c.source},
            {"files", c.files},
            {"bytes", c.bytes},
            {"meta", c.meta}};
}

inline Result<std::pair<NewCheckpoint, std::string>> newCheckpointFromJson(const std::string& text)
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
        c.meta = j.value("meta", std::string()); // journals written before schema 6 have none
        return std::pair{std::move(c), j.at("id").get<std::string>()};
    } catch (const std::exception& e) {
        return fail(fmt::format("the journal's plan is damaged: {}", e.what()));
    }
}

inline nlohmann::json datasetsToJson(const std::vector<DatasetRef>& refs)
{
    nlohmann::json out = nlohmann::json::array();
    for (const auto& r : refs) {
        nlohmann::json item = {{"name", r.name}, {"snapshot", r.snapshot}, {"sha256", r.sha256}};
        if (r.sampled) {
            item["sampled"] = true;
            item["sample"] = r.sample;
            item["seed"] = r.seed;
        }
        out.push_back(std::move(item));
    }
    return out;
}

inline std::vector<DatasetRef> datasetsFromJson(const nlohmann::json& j)
{
    std::vector<DatasetRef> refs;
    if (!j.is_array())
        return refs;
    for (const auto& item : j) {
        if (!item.is_object())
            continue;
        DatasetRef r;
        r.name = item.value("name", std::string());
        r.snapshot = item.value("snapshot", std::string());
        r.sha256 = item.value("sha256", std::string());
        r.sampled = item.value("sampled", false);
        r.sample = item.value("sample", 1.0);
        r.seed = item.value("seed", std::uint64_t{0});
        if (!r.name.empty())
            refs.push_back(std::move(r));
    }
    return refs;
}

// A checkpoint's `meta`: the sandbox's policy and dataset references. Every checkpoint made since schema 6
// has one; "" marks an older checkpoint, which says nothing about them (a restore of it leaves them be).
inline std::string metaText(const std::string& policy, const std::vector<DatasetRef>& datasets)
{
    return jsonText(nlohmann::json{{"policy", policy}, {"datasets", datasetsToJson(datasets)}});
}

inline void readMeta(const std::string& text, std::string& policy, std::vector<DatasetRef>& datasets)
{
    if (text.empty())
        return;
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object())
        return;
    policy = j.value("policy", std::string());
    if (j.contains("datasets"))
        datasets = datasetsFromJson(j["datasets"]);
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
    std::string meta; // as stored ("" before schema 6)
};

inline constexpr std::string_view kSandboxSelect =
    "SELECT s.id, s.name, s.owner, s.created_at_ms, s.expires_at_ms, s.origin, s.includes, s.excludes, s.head_id, "
    "h.checkpoint_id, (SELECT count(*) FROM checkpoints WHERE sandbox_id = s.id), h.files, h.bytes, "
    "s.quota_bytes, s.idle_timeout_ms, coalesce(s.last_activity_ms, s.created_at_ms), s.state, s.policy, s.datasets "
    "FROM sandboxes AS s LEFT JOIN checkpoints AS h ON h.id = s.head_id";

inline constexpr std::string_view kCheckpointSelect =
    "SELECT c.id, c.sandbox_id, c.checkpoint_id, c.sandbox_name, c.tree, c.kind, coalesce(c.relabel, c.label), "
    "c.message, c.author, c.created_at_ms, src.checkpoint_id, c.files, c.bytes, c.meta "
    "FROM checkpoints AS c LEFT JOIN checkpoints AS src ON src.id = c.source_id";

} // namespace engine

struct SandboxEngine::Impl {
    Impl(Store& s, std::filesystem::path folder) : store(s), db(sqlite::connectionOf(s).value()), root(std::move(folder)), blobs(db) {}

    Store& store;
    sqlite::Db db;
    std::filesystem::path root; // <store>.d, absolute
    BlobStore blobs;
    OperationObserver* observer = nullptr;
    std::uint64_t maxFileSize = 1ULL << 30;
    std::function<std::int64_t()> clock = [] { return sb::nowMs(); };
    std::function<void(std::string_view)> faultHook;

    void step(std::string_view name) const
    {
        if (faultHook)
            faultHook(name);
    }

    // --- places ------------------------------------------------------------------------------------------

    std::filesystem::path sandboxFolder(std::string_view name) const { return root / "sandboxes" / std::string(name); }
    std::filesystem::path workspaceOf(std::string_view name) const
    {
        return sandboxFolder(name) / engine::kWorkspaceFolder;
    }
    std::filesystem::path lockOf(std::string_view name) const { return root / "locks" / std::string(name); }

    // Also takes back what a run that died left lent in the sandbox's workspace (reclaimWorkspace).
    Result<FileLock> lockSandbox(std::string_view name);
    // With the sandbox's lock held: a workspace left lent to a run's identity is given back to the owner of the
    // sandbox's folder, and job folders of runs that did not finish are removed (isolation/workspace_lending.h).
    Result<void> reclaimWorkspace(std::string_view name);
    // The lock of a sandbox about to be used (main made first if need be), and use() itself with it held.
    Result<FileLock> lockForUse(std::string_view name);
    Result<SandboxInfo> useLocked(std::string_view name);
    // Several sandboxes, each once, in name order: two operations that lock the same pair cannot wait on each other.
    Result<std::vector<FileLock>> lockSandboxes(std::vector<std::string> names);
    Result<FileLock> lockGarbage(FileLock::Mode mode);

    Result<void> prepareFolders();

    // Moves a folder out of the way (into trash/) and removes it: the rename is atomic, so a crash during the
    // removal leaves it in trash/ for the next sweep, never half in place.
    Result<void> discardFolder(const std::filesystem::path& folder);

    // --- operations --------------------------------------------------------------------------------------

    std::string actorOr(const std::string& given) const { return given.empty() ? engine::currentUser() : given; }

    Result<void> commit(sqlite::Transaction& transaction, const Operation& operation);
    // Several operations that commit together (a promotion and its approval).
    Result<void> commit(sqlite::Transaction& transaction, const std::vector<Operation>& operations);

    // --- rows --------------------------------------------------------------------------------------------

    engine::SandboxRow readSandbox(sqlite3_stmt* s) const;

    Result<std::vector<engine::SandboxRow>> sandboxRows(std::optional<std::string_view> name);

    Result<std::optional<engine::SandboxRow>> findSandbox(std::string_view name);

    Result<engine::SandboxRow> requireSandbox(std::string_view name);

    Result<std::vector<std::string>> parentIds(std::int64_t row);

    Result<std::vector<engine::CheckpointRow>> checkpointRows(std::string_view where,
                                                              const std::function<void(sqlite3_stmt*)>& bind);

    Result<engine::CheckpointRow> checkpointByRow(std::int64_t id);

    Result<engine::CheckpointRow> resolveCheckpoint(std::string_view text);

    Result<std::optional<std::int64_t>> checkpointRowOf(const std::string& id);

    // Inserts the checkpoint (in the caller's transaction) under `id`; parents must exist, a source that is gone
    // is left out.
    Result<engine::CheckpointRow> insertCheckpoint(const engine::NewCheckpoint& c, const std::string& id);

    // A fresh id for `c`: its time moves on by a millisecond should the id exist already.
    Result<std::string> freshId(engine::NewCheckpoint& c);

    Result<engine::CheckpointRow> addCheckpoint(engine::NewCheckpoint c);

    Result<void> setHead(std::int64_t sandboxId, std::int64_t checkpointRow);

    // --- governance (engine_governance.cpp) ----------------------------------------------------------------

    // Writes the sandbox's quota, idle timeout, expiry, owner, policy and dataset references (in the caller's
    // transaction).
    Result<void> writeGovernance(std::int64_t sandboxId, const SandboxInfo& info);
    // Policy and dataset references of a checkpoint's meta, when it has one (in the caller's transaction).
    Result<void> applyMeta(std::int64_t sandboxId, const std::string& meta);
    // An archived sandbox's workspace written again from its head; a no-op for an active one. Call with the
    // sandbox's lock and the shared garbage lock held; `sandbox` is updated.
    Result<void> revive(engine::SandboxRow& sandbox);
    // Saves unsaved changes (auto), records the sandbox as archived and removes its workspace folder. Call with
    // the sandbox's lock and the shared garbage lock held. The auto checkpoint made, if any.
    Result<std::optional<CheckpointInfo>> archive(const engine::SandboxRow& sandbox, std::int64_t now);
    // The live workspace's bytes, as a walk counts them (nothing stored).
    Result<std::uint64_t> liveBytes(const engine::SandboxRow& sandbox);
    // The sampled dataset references of a sandbox and of its checkpoints (one it dropped is still its own).
    Result<std::vector<DatasetRef>> sampledDatasetsOf(const engine::SandboxRow& sandbox);
    // Removes those of `candidates` that nothing but the sandbox being destroyed refers to (in the caller's
    // transaction, after its checkpoints are gone); their names.
    Result<std::vector<std::string>> dropSampledDatasets(const engine::SandboxRow& sandbox,
                                                         const std::vector<DatasetRef>& candidates);

    // Writes listings the store does not hold yet (in the caller's transaction).
    Result<void> storeListings(const TreeReader::Listings& listings);

    // --- the stat cache ----------------------------------------------------------------------------------

    Result<StatCache> loadStatCache(std::int64_t sandboxId);

    Result<void> writeStatRow(std::int64_t sandboxId, const std::string& path, const std::string& data);

    // Brings the cache in line with a walk: one row per directory, written only where it changed.
    Result<void> updateStatCache(std::int64_t sandboxId, const StatCache& old, const ScanResult& scan);

    // Forgets every path at or below `prefix` ("" = all): a restore rewrote them.
    Result<void> dropStatCacheUnder(std::int64_t sandboxId, const std::string& prefix);

    // --- walking and saving a workspace ------------------------------------------------------------------

    ScanOptions scanOptions(const StatCache* cache, BlobStore* into, const ProgressCallback& progress) const;

    // Walks a workspace through its stat cache. Listings taken from the cache must be in the store; should
    // one be missing (a collection removed what only a pruned checkpoint held) the walk is done again building
    // every listing. `prefetch`: one started on the workspace before the cache was read (scan.h).
    Result<ScanResult> walkWorkspace(const std::filesystem::path& workspace, const StatCache& cache, BlobStore* into,
                                     const ProgressCallback& progress, StatPrefetch* prefetch = nullptr);

    struct Saved {
        ScanResult scan;
        StatCache cache;                           // the stat cache the walk started from
        bool cacheSaved = false;                   // false: the caller is to save it (deferred)
        engine::CheckpointRow head;                // the sandbox's head afterwards
        std::optional<engine::CheckpointRow> made; // the checkpoint made, if any
        ChangeCounts changes;
    };

    struct SaveRequest {
        bool always = true; // false: only when the workspace differs from the head
        // With no checkpoint to make, leave the stat cache to the caller's next transaction (a restore saves
        // it with its record: one commit less).
        bool deferCache = false;
        std::string kind = "checkpoint";
        std::string label;
        std::string message;
        std::string author;
        std::optional<std::uint64_t> quotaBytes; // refuse a workspace larger than this (nothing recorded)
        // false (a preview): only walk, storing new content (unreferenced, a collection takes it); no
        // checkpoint, stat cache or audit entry is written, and the result's scan holds the live tree.
        bool record = true;
    };

    // Walks the sandbox's workspace, storing new content, and records a checkpoint of it (always, or only when
    // it differs from the head). Call with the sandbox and the shared garbage lock held.
    Result<Saved> saveWorkspace(const engine::SandboxRow& sandbox, const SaveRequest& request,
                                const ProgressCallback& progress);

    // --- main ----------------------------------------------------------------------------------------------

    Result<engine::SandboxRow> ensureMain();

    Result<std::int64_t> insertSandbox(const std::string& name, const std::string& owner, std::int64_t createdAtMs,
                                       std::optional<std::int64_t> expiresAtMs, const std::string& origin,
                                       const std::vector<std::string>& includes,
                                       const std::vector<std::string>& excludes);

    // --- trees ----------------------------------------------------------------------------------------------

    struct Totals {
        std::uint64_t files = 0;
        std::uint64_t bytes = 0;
    };

    Result<Totals> totalsOf(TreeReader& reader, const ContentHash& tree);

    // The part of `tree` a filter takes, as new listings added to `out`; nullopt for a subdirectory of which
    // it takes nothing (the root is kept, empty at worst).
    Result<std::optional<TreeEntry>> filterTree(TreeReader& reader, const ContentHash& tree, const PathFilter& filter,
                                                const std::string& prefix, TreeReader::Listings& out);

    // Writes `tree` as a new workspace of `folder`'s sandbox: into workspace.new, then renamed into place.
    Result<WriteStats> writeWorkspace(TreeReader& reader, const ContentHash& tree, const std::filesystem::path& folder,
                                      const ProgressCallback& progress);

    // --- sandboxes -------------------------------------------------------------------------------------------

    struct Source {
        std::optional<engine::CheckpointRow> checkpoint; // the checkpoint the new sandbox starts from
        std::optional<CheckpointInfo> saved;             // unsaved changes of a source sandbox, saved first
        std::string origin;
        ContentHash tree{};
        std::vector<Skipped> skipped;
        TreeReader::Listings listings; // listings to store with the new sandbox
    };

    Result<CreateSandboxResult> create(const CreateSandboxRequest& request, std::string_view kind,
                                       const ProgressCallback& progress);

    Result<Source> importFolder(const std::filesystem::path& folder, const PathFilter& filter,
                                const ProgressCallback& progress);

    // Removes checkpoints (in the caller's transaction), keeping the graph connected: a child of a removed
    // checkpoint gets the removed one's parents instead.
    Result<void> removeCheckpoints(const std::set<std::int64_t>& doomed);

    Result<std::set<std::int64_t>> checkpointRowsOfSandbox(std::int64_t sandboxId);

    // Removes the sandbox's rows and its folder; the blobs stay for the caller's garbage collection.
    Result<std::uint64_t> destroyLocked(const engine::SandboxRow& sandbox, const std::string& action, std::int64_t now,
                                        std::vector<std::string>* datasetsRemoved = nullptr);

    // --- garbage ----------------------------------------------------------------------------------------------

    Result<GarbageStats> collect();

    Result<void> distrustMissing(const std::unordered_set<ContentHash, ContentHashHasher>& live);

    // --- restore --------------------------------------------------------------------------------------------

    // What one rename will swap to make the workspace equal to the target: the deepest directory holding
    // every difference; within it, the one entry that differs when there is only one (a file rewritten, a
    // name added or removed), else the directory itself.
    struct SwapPlan {
        enum class Kind { Exchange, Add, Remove };
        Kind kind = Kind::Exchange;
        std::string path;                // relative to the workspace; "" = the workspace folder
        std::optional<TreeEntry> live;   // what is there now (Exchange, Remove)
        std::optional<TreeEntry> target; // what goes there (Exchange, Add)
    };

    static std::string_view toString(SwapPlan::Kind kind)
    {
        return kind == SwapPlan::Kind::Add ? "add" : kind == SwapPlan::Kind::Remove ? "remove" : "exchange";
    }

    Result<SwapPlan> planSwap(TreeReader& reader, const ContentHash& liveRoot, const ContentHash& targetRoot);

    // The swap of a restore is done: record the restore checkpoint, move the head, forget the stat cache
    // below the swapped folder, settle the journal row (if any), all in one transaction.
    // A promotion (plan.kind "promote") records its `promotion` details instead: audit entries `approve`
    // (when approved) and `promote`.
    Result<engine::CheckpointRow> finishRestore(const engine::NewCheckpoint& plan, const std::string& id,
                                                const Saved* deferred,
                                                const std::string& swapped, std::optional<std::int64_t> journalRow,
                                                bool recovered, const nlohmann::json* promotion = nullptr);

    Result<RestoreResult> restore(std::string_view checkpointText, const ProgressCallback& progress,
                                  std::string_view intoSandbox);

    struct PreparedSwap {
        std::filesystem::path staging; // <sandbox folder>/.restore-XXXX: the new entry, later the old one
        std::uint64_t inode = 0;       // of the new entry (0 when the swap removes)
        WriteStats stats;
    };

    // Builds the new entry beside the workspace, in the sandbox's folder (the same file system), linking
    // unchanged files from the live workspace.
    Result<PreparedSwap> prepareSwap(const engine::SandboxRow& sandbox, TreeReader& reader, const SwapPlan& plan,
                                     const ScanResult& scan, const ProgressCallback& progress);

    // The folder holding the swapped entry, opened without following symlinks, and the entry's name there.
    Result<std::pair<Fd, std::string>> swapPlace(const engine::SandboxRow& sandbox, const std::string& swapped);

    // The one step that changes the workspace: a single rename (renameat2), so the workspace is wholly before
    // or wholly after at every moment.
    Result<void> swap(const engine::SandboxRow& sandbox, const SwapPlan& plan, const std::filesystem::path& staging);

    // What the journal keeps of the swap, beside the checkpoint to record.
    static std::string journalPlan(const engine::NewCheckpoint& plan, const std::string& id, SwapPlan::Kind kind,
                                   const nlohmann::json* promotion = nullptr)
    {
        nlohmann::json j = engine::toJson(plan, id);
        j["swap"] = toString(kind);
        if (promotion)
            j["promotion"] = *promotion;
        return engine::jsonText(j);
    }

    // --- promotion --------------------------------------------------------------------------------------------

    // The nearest common ancestor of two checkpoint rows (fewest steps from both together).
    Result<std::optional<engine::CheckpointRow>> commonAncestor(std::int64_t a, std::int64_t b);

    Result<PromotionReport> promote(const PromotionRequest& request, const ProgressCallback& progress);

    // Writes the changed entries of the merged tree below `folder`/files and the report as manifest.json.
    Result<void> writeExport(const PromotionReport& report, const std::filesystem::path& folder);

    // --- recovery -----------------------------------------------------------------------------------------------

    // Settles restores a killed process left in the journal: finished when the swap happened, undone when not.
    Result<void> recover();

    // Whether the restored entry is (now) in place. A two-rename exchange (file systems without
    // RENAME_EXCHANGE) cut between its renames is finished here, the journal being written.
    bool settleSwap(const engine::SandboxRow& sandbox, const std::string& swapped, SwapPlan::Kind kind,
                    std::uint64_t inode, const std::filesystem::path& staging);

    // Staging folders of restores that never reached the journal, and half-written new workspaces, of
    // sandboxes no one is working on; a workspace folder that is missing is written again from its head.
    Result<void> cleanLeftovers();
    // The same for one sandbox, with its lock held and its row read under it.
    Result<void> cleanLeftoversLocked(const engine::SandboxRow& sandbox);
};

} // namespace sb
