#pragma once

// Private to core/sandboxes: SandboxEngine::Impl, the state and the steps the engine's source files share.
// Its parts, each in its own file:
//   locks and folders          engine_locks.cpp
//   operations and rows        engine_rows.cpp (commits with their audit entries, sandboxes, checkpoints)
//   governance                 engine_governance.cpp (quota, expiry, idle archive, holding a sandbox for use)
//   the stat cache             engine_stat_cache.cpp
//   walking and saving         engine_sandboxes.cpp (also main, trees, making and destroying sandboxes)
//   garbage                    engine_garbage.cpp (removing checkpoints, collecting blobs)
//   restore and recovery       engine_restore.cpp
//   promotion                  engine_promote.cpp
// sandbox_engine.cpp holds the public calls. Not part of the engine's interface.

#include "engine_records.h"
#include "engine_support.h"

#include "checkpoints/blob_store.h"
#include "checkpoints/files.h"
#include "checkpoints/materialize.h"
#include "checkpoints/merge.h"
#include "checkpoints/path_filter.h"
#include "checkpoints/tree_reader.h"
#include "checkpoints/workspace_watch.h"
#include "sandboxes/sandbox_engine.h"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <cerrno>
#include <map>
#include <set>
#include <unordered_set>

namespace sb {

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

    // --- locks and folders (engine_locks.cpp) --------------------------------------------------------------------

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
    // Several sandboxes, each once, in name order: two operations that lock the same pair cannot wait on each other.
    Result<std::vector<FileLock>> lockSandboxes(std::vector<std::string> names);
    Result<FileLock> lockGarbage(FileLock::Mode mode);

    Result<void> prepareFolders();

    // Moves a folder out of the way (into trash/) and removes it: the rename is atomic, so a crash during the
    // removal leaves it in trash/ for the next sweep, never half in place.
    Result<void> discardFolder(const std::filesystem::path& folder);

    // --- operations (engine_rows.cpp) ----------------------------------------------------------------------------

    std::string actorOr(const std::string& given) const { return given.empty() ? engine::currentUser() : given; }

    Result<void> commit(sqlite::Transaction& transaction, const Operation& operation);
    // Several operations that commit together (a promotion and its approval).
    Result<void> commit(sqlite::Transaction& transaction, const std::vector<Operation>& operations);

    // --- rows (engine_rows.cpp) ----------------------------------------------------------------------------------

    engine::SandboxRow readSandbox(sqlite3_stmt* s) const;

    Result<std::vector<engine::SandboxRow>> sandboxRows(std::optional<std::string_view> name,
                                                        engine::CheckpointCount count = engine::CheckpointCount::Counted);

    Result<std::optional<engine::SandboxRow>> findSandbox(std::string_view name,
                                                          engine::CheckpointCount count = engine::CheckpointCount::Counted);

    Result<engine::SandboxRow> requireSandbox(std::string_view name,
                                              engine::CheckpointCount count = engine::CheckpointCount::Counted);

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

    // The nearest common ancestor of two checkpoint rows (fewest steps from both together).
    Result<std::optional<engine::CheckpointRow>> commonAncestor(std::int64_t a, std::int64_t b);

    // Writes listings the store does not hold yet (in the caller's transaction).
    Result<void> storeListings(const TreeReader::Listings& listings);

    // A new sandbox's row; its id.
    Result<std::int64_t> insertSandbox(const std::string& name, const std::string& owner, std::int64_t createdAtMs,
                                       std::optional<std::int64_t> expiresAtMs, const std::string& origin,
                                       const std::vector<std::string>& includes,
                                       const std::vector<std::string>& excludes);

    // --- governance (engine_governance.cpp) ----------------------------------------------------------------------

    // The lock of a sandbox about to be used (main made first if need be), and use() itself with it held.
    Result<FileLock> lockForUse(std::string_view name);
    Result<SandboxInfo> useLocked(std::string_view name);

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

    // --- the stat cache (engine_stat_cache.cpp) ------------------------------------------------------------------

    Result<StatCache> loadStatCache(std::int64_t sandboxId);

    Result<void> writeStatRow(std::int64_t sandboxId, const std::string& path, const std::string& data);

    // Brings the cache in line with a walk: one row per directory, written only where it changed.
    Result<void> updateStatCache(std::int64_t sandboxId, const StatCache& old, const ScanResult& scan);

    // Forgets every path at or below `prefix` ("" = all): a restore rewrote them.
    Result<void> dropStatCacheUnder(std::int64_t sandboxId, const std::string& prefix);

    // --- walking and saving a workspace (engine_sandboxes.cpp) ---------------------------------------------------

    ScanOptions scanOptions(const StatCache* cache, BlobStore* into, const ProgressCallback& progress) const;

    // Walks a workspace through its stat cache. Listings taken from the cache must be in the store; should
    // one be missing (a collection removed what only a pruned checkpoint held) the walk is done again building
    // every listing. `prefetch`: one started on the workspace before the cache was read (scan.h).
    Result<ScanResult> walkWorkspace(const std::filesystem::path& workspace, const StatCache& cache, BlobStore* into,
                                     const ProgressCallback& progress, StatPrefetch* prefetch = nullptr,
                                     const std::set<std::string>* changed = nullptr);

    // --- watched workspaces (engine_watch.cpp) --------------------------------------------------------------------

    // What the last walk of a watched workspace left, as the store holds it: while the head is still that row and
    // no other connection wrote to the store since (SQLite's data_version, read before that walk), the stat cache
    // is this one, and the watch's changes since are all that changed, but for the directories with skipped
    // entries (a mount or an unreadable file changes nothing a watch sees), which are walked every time.
    struct KnownWalk {
        engine::CheckpointRow head;
        std::int64_t dataVersion = 0;
        StatCache cache;
        std::set<std::string> skippedIn;
    };
    struct WatchedWorkspace {
        std::filesystem::path workspace;
        std::unique_ptr<WorkspaceWatch> watch;
        std::optional<std::chrono::steady_clock::time_point> refusedAt; // the watch could not start
        std::optional<KnownWalk> known;
        std::uint64_t lastUse = 0;
    };
    bool watching = false;
    std::map<std::int64_t, WatchedWorkspace> watched; // by sandbox id
    std::uint64_t watchUses = 0;

    // Before a walk of a watched workspace: the watch's changes, taken (so must any walk that follows them be),
    // with what the last walk left when it still holds. `dataVersion` is the store's before the walk.
    struct WalkGuide {
        std::int64_t dataVersion = 0;
        std::optional<KnownWalk> known;
        std::set<std::string> changed; // with known: the watch's changes and the directories with skipped entries
    };
    std::optional<WalkGuide> guideWalk(const engine::SandboxRow& sandbox);
    // After a walk that `guide` led, whose stat cache the store now holds as `cache`, with `head` the sandbox's
    // head.
    void rememberWalk(std::int64_t sandboxId, const WalkGuide& guide, engine::CheckpointRow head, StatCache cache,
                      const std::vector<Skipped>& skipped);
    void forgetWalk(std::int64_t sandboxId);
    Result<std::int64_t> dataVersion();

    struct Saved {
        ScanResult scan;
        StatCache cache;                           // the stat cache the walk started from
        bool cacheSaved = false;                   // false: the caller is to save it (deferred)
        engine::CheckpointRow head;                // the sandbox's head afterwards
        std::optional<engine::CheckpointRow> made; // the checkpoint made, if any
        ChangeCounts changes;
        std::optional<WalkGuide> guide; // a watched workspace: what led the walk, for rememberWalk
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
        // Start from the head and stat cache the last save of this sandbox left (lastSave) when the head is
        // still that row. Only for a caller that holds the sandbox's lock across saves (a SandboxHold): the
        // result's cache and scan.directories are then left empty, kept for the next save instead.
        bool reuseLast = false;
        // The caller's read transaction, ended before the walk (which writes blobs).
        sqlite::ReadTransaction* reading = nullptr;
    };

    // What the last saveWorkspace with reuseLast left: the sandbox's head and its stat cache, as the store
    // holds them. While the sandbox's lock is held nobody else changes either, and a checkpoint row never
    // changes (but for a relabel, which a save does not read), so a head that is still this row vouches for
    // both. Whatever else writes the stat cache drops it.
    struct LastSave {
        std::int64_t sandboxId = 0;
        engine::CheckpointRow head;
        StatCache cache;
    };
    std::optional<LastSave> lastSave;


    // Walks the sandbox's workspace, storing new content, and records a checkpoint of it (always, or only when
    // it differs from the head). Call with the sandbox and the shared garbage lock held.
    Result<Saved> saveWorkspace(const engine::SandboxRow& sandbox, const SaveRequest& request,
                                const ProgressCallback& progress);

    // --- main (engine_sandboxes.cpp) -----------------------------------------------------------------------------

    Result<engine::SandboxRow> ensureMain();

    // --- trees (engine_sandboxes.cpp) ----------------------------------------------------------------------------

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

    // --- making and destroying sandboxes (engine_sandboxes.cpp, engine_garbage.cpp) ------------------------------

    struct Source {
        std::optional<engine::CheckpointRow> checkpoint; // the checkpoint the new sandbox starts from
        std::optional<CheckpointInfo> saved;             // unsaved changes of a source sandbox, saved first
        std::string origin;
        ContentHash tree{};
        std::vector<Skipped> skipped;
        TreeReader::Listings listings; // listings to store with the new sandbox
        // What the new sandbox inherits of its source: the policy and dataset references (a sandbox's now, a
        // checkpoint's as they were when it was made; none of an imported folder).
        std::string policy;
        std::vector<DatasetRef> datasets;
    };

    Result<CreateSandboxResult> create(const CreateSandboxRequest& request, std::string_view kind,
                                       const ProgressCallback& progress);
    // What a new sandbox comes from, looked up before anything is locked: a sandbox (`fromSandbox`, main made
    // first if need be), a checkpoint (`fromCheckpoint`), or (neither) the folder the request imports.
    Result<void> findOrigin(const CreateSandboxRequest& request, std::string& fromSandbox,
                            std::optional<engine::CheckpointRow>& fromCheckpoint);
    // The tree the new sandbox starts with, filtered, and what it inherits; a source sandbox is revived and its
    // unsaved changes saved first.
    Result<Source> takeSource(const CreateSandboxRequest& request, const std::string& fromSandbox,
                              std::optional<engine::CheckpointRow>& fromCheckpoint, const PathFilter& filter,
                              TreeReader& reader, const ProgressCallback& progress);
    // The new sandbox's rows, its governance, its first checkpoint as head and the audit entry, in one
    // transaction; the checkpoint.
    Result<engine::CheckpointRow> recordNewSandbox(const CreateSandboxRequest& request, std::string_view kind,
                                                   const Source& source, const Totals& totals,
                                                   SandboxInfo& governance);

    Result<Source> importFolder(const std::filesystem::path& folder, const PathFilter& filter,
                                const ProgressCallback& progress);

    // Removes checkpoints (in the caller's transaction), keeping the graph connected: a child of a removed
    // checkpoint gets the removed one's parents instead.
    Result<void> removeCheckpoints(const std::set<std::int64_t>& doomed);

    Result<std::set<std::int64_t>> checkpointRowsOfSandbox(std::int64_t sandboxId);

    // Removes the sandbox's rows and its folder; the blobs stay for the caller's garbage collection.
    Result<std::uint64_t> destroyLocked(const engine::SandboxRow& sandbox, const std::string& action, std::int64_t now,
                                        std::vector<std::string>* datasetsRemoved = nullptr);

    // --- garbage (engine_garbage.cpp) ----------------------------------------------------------------------------

    Result<GarbageStats> collect();

    Result<void> distrustMissing(const std::unordered_set<ContentHash, ContentHashHasher>& live);

    // --- restore (engine_restore.cpp) ----------------------------------------------------------------------------

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

    // --- promotion (engine_promote.cpp) --------------------------------------------------------------------------

    Result<PromotionReport> promote(const PromotionRequest& request, const ProgressCallback& progress);
    // The request's risk configuration, else the store's promotion.yaml, else the defaults.
    Result<RiskConfig> promotionRiskConfig(const PromotionRequest& request);
    // Unsaved work of both sides saved first (a preview walks without recording, and takes an archived
    // sandbox's head as it is); the checkpoints made are noted in the report.
    Result<std::pair<Saved, Saved>> savePromotionSides(const engine::SandboxRow& source,
                                                       const engine::SandboxRow& target, bool preview,
                                                       const ProgressCallback& progress, PromotionReport& report);
    // The compatibility checks and the risk grade of the merged tree.
    Result<void> gradePromotion(const PromotionRequest& request, const RiskConfig& config, TreeReader& reader,
                                const ContentHash& mergedTree, PromotionReport& report);
    // The merged tree into the target: built beside the workspace, journaled, swapped in by one rename and
    // recorded with the audit entries in one transaction.
    Result<void> applyPromotion(const PromotionRequest& request, const engine::SandboxRow& target,
                                const Saved& savedTarget, const engine::CheckpointRow& sourceHead, TreeReader& reader,
                                const MergeResult& merged, const ProgressCallback& progress,
                                const engine::StepTrace& trace, PromotionReport& report);

    // Writes the changed entries of the merged tree below `folder`/files and the report as manifest.json.
    Result<void> writeExport(const PromotionReport& report, const std::filesystem::path& folder);

    // --- recovery (engine_restore.cpp) ---------------------------------------------------------------------------

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
