#pragma once

// Sandboxes and their checkpoints: the named worlds of a store, each with a real workspace folder, and the
// immutable, content-addressed snapshots of them kept in the store's SQLite file. The design (blobs, trees,
// chunks, the stat cache, the swap that makes a restore atomic, retention) is described in
// docs/CHECKPOINTS.md.
//
// Every public call is one operation; each commits in its own transaction and reports it to the
// OperationObserver (the audit log's seam) inside that transaction. Long calls take a ProgressCallback that
// can cancel them. Operations on one sandbox, and runs in its workspace (holdForRun), are serialized across
// processes by a lock file; a process killed midway leaves nothing half done: the next SandboxEngine::open
// finishes or undoes an interrupted restore, storage of an interrupted checkpoint is reclaimed by the next
// garbage collection, and whoever takes a sandbox's lock next takes back a workspace a run that died left lent
// to its identity (isolation/workspace_lending.h).

#include "store/store.h"
#include "util/error.h"
#include "util/message.h"
#include "checkpoints/diff.h"
#include "checkpoints/files.h"
#include "sandboxes/operation.h"
#include "promotion/promote.h"
#include "checkpoints/scan.h"
#include "checkpoints/tree.h"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sb {

// A dataset snapshot (the store's `datasets` table) a sandbox refers to: `name` is what the sandbox calls it
// (what `--data NAME` means in it), `snapshot` the stored snapshot's name and `sha256` its content, so a
// reference never silently follows another snapshot. A sampled reference points at a snapshot made for the
// sandbox (ratio and seed as it was made).
struct DatasetRef {
    std::string name;
    std::string snapshot;
    std::string sha256;
    bool sampled = false;
    double sample = 1.0;
    std::uint64_t seed = 0;
    bool operator==(const DatasetRef&) const = default;
};

struct SandboxInfo {
    std::string name;
    std::string owner;
    std::int64_t createdAtMs = 0;
    std::optional<std::int64_t> expiresAtMs;   // nullopt: never
    std::string origin;                        // "main", "sandbox NAME", "checkpoint ID", "import DIR", ""
    std::vector<std::string> includes;
    std::vector<std::string> excludes;
    std::string head;                          // the checkpoint the workspace was last saved as or restored to
    std::filesystem::path workspace;
    std::int64_t checkpoints = 0;              // checkpoints made in this sandbox (still kept)
    std::uint64_t files = 0;                   // files and symlinks of its head checkpoint
    std::uint64_t bytes = 0;                   // and their bytes
    // Governance.
    std::optional<std::uint64_t> quotaBytes;   // bounds the live workspace's bytes; nullopt: none
    std::optional<std::int64_t> idleTimeoutMs; // archived by a sweep after this long without use; nullopt: never
    std::int64_t lastActivityMs = 0;           // the last operation or run in it
    bool archived = false;                     // its workspace folder is removed until its next use
    std::string policy;                        // for its runs: "" none, "preset:NAME" or "NAME@VERSION"
    std::vector<DatasetRef> datasets;

    bool expired(std::int64_t nowMs) const { return expiresAtMs && *expiresAtMs <= nowMs; }
    std::int64_t idleMs(std::int64_t nowMs) const { return nowMs > lastActivityMs ? nowMs - lastActivityMs : 0; }
    bool idleTooLong(std::int64_t nowMs) const { return idleTimeoutMs && idleMs(nowMs) >= *idleTimeoutMs; }
    std::string_view state() const { return archived ? "archived" : "active"; }
};

struct CheckpointInfo {
    std::string id;                  // 64 hex digits
    std::string sandbox;             // the sandbox it was made in (kept after that sandbox is destroyed)
    std::vector<std::string> parents;
    std::string kind;                // checkpoint, auto, restore, fork, create, import, promote
    std::string label;
    std::string message;             // why (set by Sandbench for the checkpoints it makes itself)
    std::string author;
    std::int64_t createdAtMs = 0;
    std::string source;              // restore, fork, create: the checkpoint it was made from ("" if none)
    ContentHash tree{};
    std::uint64_t files = 0;
    std::uint64_t bytes = 0;
    // The sandbox's policy and dataset references when it was made (restored by a restore, copied by a fork).
    std::string policy;
    std::vector<DatasetRef> datasets;
};

// What long work reports; `total` 0 when not known in advance.
struct Progress {
    MessagePattern phase;            // "scanning", "writing", in the context "checkpoint progress"
    std::uint64_t done = 0;
    std::uint64_t total = 0;
    std::string_view path;
};
// Returning false cancels the operation (it then fails with the message "cancelled" and changes nothing).
using ProgressCallback = std::function<bool(const Progress&)>;

struct ChangeCounts {
    std::uint64_t added = 0;
    std::uint64_t removed = 0;
    std::uint64_t modified = 0;
};

struct CreateSandboxRequest {
    std::string name;
    std::string from;                              // "": main (unless importing); a sandbox or checkpoint id
    std::optional<std::filesystem::path> importFrom; // copy this folder in (never mounted)
    std::vector<std::string> includes;
    std::vector<std::string> excludes;
    std::optional<std::int64_t> expiresInMs;
    std::string owner;                             // "": the current user
    std::optional<std::uint64_t> quotaBytes;       // refused when the new workspace would be larger
    std::optional<std::int64_t> idleTimeoutMs;
    std::optional<std::string> policy;             // nullopt: the source's (a sandbox's or checkpoint's), else none
    std::vector<DatasetRef> datasets;              // added to (or replacing, by name) the source's references
};

// What SandboxEngine::adoptCheckpoints records, and what came of it.
struct AdoptRequest {
    std::string sandbox;
    std::filesystem::path source; // the other store's file
    std::string onto;             // a checkpoint of `sandbox` here: the one the other store's sandbox started from
    std::string details;          // a JSON object added to each audit entry
};
struct AdoptedCheckpoints {
    std::map<std::string, std::string> ids; // the other store's id -> the id here
    std::string head;                       // the other store's sandbox's head, by its id here
};

// Changes to a sandbox's governance (SandboxEngine::setSandbox); what is not given stays as it is.
struct SandboxSettings {
    std::string name;
    std::optional<std::optional<std::uint64_t>> quotaBytes;  // inner nullopt: no quota
    std::optional<std::optional<std::int64_t>> idleTimeoutMs;
    std::optional<std::optional<std::int64_t>> expiresInMs;  // from now
    std::optional<std::string> policy;                        // "": none
    std::optional<std::string> owner;
    std::vector<DatasetRef> addDatasets;                      // replacing a reference of the same name
    std::vector<std::string> dropDatasets;
};

struct CreateSandboxResult {
    SandboxInfo sandbox;
    CheckpointInfo checkpoint;                     // its first checkpoint
    std::optional<CheckpointInfo> savedSource;     // unsaved changes of the source sandbox, saved first
    std::vector<Skipped> skipped;                  // what an import did not take
};

struct CheckpointRequest {
    std::string sandbox;
    std::string label;
    std::string message;
    std::string author;                            // "": the current user
    // true: when the workspace is as its head checkpoint holds it, no checkpoint is made and the head is the
    // result (`created` false). An agent session's checkpoints around its calls: most calls change nothing.
    bool onlyWhenChanged = false;
};

struct CheckpointResult {
    CheckpointInfo checkpoint;
    bool created = true;                           // false: the head, the workspace unchanged (onlyWhenChanged)
    ChangeCounts changes;                          // against its parent
    std::vector<Skipped> skipped;
    std::uint64_t filesRead = 0;                   // files whose bytes were read (the rest: stat cache)
    std::uint64_t bytesRead = 0;
    std::uint64_t newBlobs = 0;
    std::uint64_t newBytes = 0;                    // stored (compressed) bytes added
    // The walk followed a watch of the workspace (watchWorkspaces): it walked only what the watch saw change.
    bool watched = false;
};

struct RestoreResult {
    std::string sandbox;
    CheckpointInfo restored;                       // the checkpoint restored
    CheckpointInfo recorded;                       // the new checkpoint recording the restore
    std::optional<CheckpointInfo> saved;           // unsaved changes, checkpointed before the restore
    ChangeCounts changes;                          // what the workspace went through
    std::string swapped;                           // the folder swapped, relative to the workspace ("" = all)
    std::uint64_t filesWritten = 0;
    std::uint64_t filesLinked = 0;
    std::vector<Skipped> skipped;
};

struct GarbageStats {
    std::uint64_t blobsRemoved = 0;
    std::uint64_t bytesRemoved = 0;                // stored bytes
};

struct DestroyResult {
    std::string sandbox;
    std::uint64_t checkpointsRemoved = 0;
    std::vector<std::string> datasetsRemoved;      // snapshots sampled for it that nothing else refers to
    GarbageStats garbage;
};

// A sandbox held for a run in its workspace (SandboxEngine::holdForRun): its lock, the one every operation on
// the sandbox takes, held until this goes. Runs in one sandbox therefore queue behind each other and behind
// its checkpoints and restores (isolation/workspace_lending.h says why they do not run side by side).
struct SandboxHold {
    SandboxInfo sandbox;
    std::optional<std::uint64_t> usedBytes; // the live workspace's bytes when it has a quota, measured under the lock
    FileLock lock;
    // For RunRequest::workspaceLock: the run's launcher holds the lock too, so it lasts as long as the run does.
    int lockDescriptor() const { return lock.descriptor(); }
};

struct SweepResult {
    std::vector<std::string> destroyed;
    std::vector<std::string> archived;             // idle past their timeout: saved, their folders removed
    std::vector<std::string> savedCheckpoints;     // auto checkpoints of unsaved changes made while archiving
    std::uint64_t checkpointsRemoved = 0;
    GarbageStats garbage;
};

struct PrunePolicy {
    std::optional<std::int64_t> keepLast;          // the N newest
    bool keepLabelled = false;
    std::optional<std::int64_t> youngerThanMs;
};

struct PruneResult {
    std::string sandbox;
    std::vector<std::string> removed;
    std::uint64_t kept = 0;
    GarbageStats garbage;
};

// One changed path of a diff, with its text diff.
struct FileDiff {
    TreeChange change;
    bool binary = false;                           // "binary differs": no text diff
    bool tooLarge = false;                         // text, but too large for a line diff
    std::string unified;                           // the unified diff of a text file
};

struct DiffResult {
    std::string from;                              // checkpoint id
    std::string to;                                // checkpoint id, or "workspace"
    std::string sandbox;                           // the workspace's sandbox when `to` is "workspace"
    std::vector<FileDiff> files;
    ChangeCounts counts;
    std::vector<Skipped> skipped;                  // live workspace: what the walk did not take
};

struct DiffOptions {
    bool text = true;                              // compute unified diffs (false: the file list only)
    int context = 3;
    std::uint64_t maxTextBytes = 8ULL << 20;       // larger files are not line-diffed
};

class SandboxEngine {
public:
    static constexpr std::string_view kMain = "main";

    // The folder next to the store that holds the workspaces: "<store>.d".
    static std::filesystem::path dataFolder(const std::filesystem::path& storePath);
    // Sandbox names: 1 to 64 of [A-Za-z0-9._-], starting with a letter or digit.
    static Result<void> validateName(std::string_view name);

    // Finishes or undoes what a killed Sandbench left (an interrupted restore), then is ready. The store must
    // outlive the engine.
    static Result<std::unique_ptr<SandboxEngine>> open(Store& store);
    ~SandboxEngine();
    SandboxEngine(const SandboxEngine&) = delete;
    SandboxEngine& operator=(const SandboxEngine&) = delete;

    void setObserver(OperationObserver* observer);
    // Files larger than this are skipped (with a message) by checkpoints and imports. Default 1 GiB.
    void setMaxFileSize(std::uint64_t bytes);
    // For tests: the clock used for created/expiry times (milliseconds since the epoch).
    void setClock(std::function<std::int64_t()> clock);
    // For tests: called at the named steps between which a crash must leave nothing half done
    // ("checkpoint.stored", "restore.staged", "restore.journaled", "restore.swapped", "restore.recorded",
    // "create.written", "destroy.recorded", "promote.staged", "promote.journaled", "promote.swapped",
    // "promote.recorded", "archive.recorded", "revive.written"), so a test can kill the process exactly there.
    void setFaultHook(std::function<void(std::string_view step)> hook);
    // For a long-lived process that saves the same workspaces again (the run helper): each workspace this engine
    // walks keeps a watch (checkpoints/workspace_watch.h), and the next walk stats only the directories it saw
    // change, while nothing else wrote to the store meanwhile (else, and on any doubt, it walks everything).
    // At most kMaxWatched workspaces, the least recently saved one dropped first.
    static constexpr std::size_t kMaxWatched = 8;
    void watchWorkspaces();

    // --- sandboxes ---------------------------------------------------------------------------------------
    // `main` exists from the first call that needs it: created with an empty workspace and a first checkpoint.
    Result<CreateSandboxResult> createSandbox(const CreateSandboxRequest& request, const ProgressCallback& progress = {});
    Result<std::vector<SandboxInfo>> sandboxes();
    Result<SandboxInfo> sandbox(std::string_view name);
    Result<DestroyResult> destroySandbox(std::string_view name);
    // Destroys every expired sandbox, archives every sandbox idle past its timeout (unsaved changes
    // checkpointed first, then its workspace folder removed), then frees the blobs nothing references any more.
    // main never expires and is never archived.
    Result<SweepResult> sweep();
    // Changes a sandbox's quota, idle timeout, expiry, policy, owner or dataset references; audited as
    // sandbox.set. A policy is stored as given: the caller validates it.
    Result<SandboxInfo> setSandbox(const SandboxSettings& settings);
    // The sandbox about to be used (a run in it, its path asked for): revived when archived (its head
    // checkpoint written again as its workspace) and its activity recorded.
    Result<SandboxInfo> use(std::string_view name);
    // use() for a run in the sandbox's workspace: the sandbox stays locked until the hold goes, and its usage is
    // measured under the lock when it has a quota.
    Result<SandboxHold> holdForRun(std::string_view name);
    // The bytes of the sandbox's live workspace (files and symlinks, as a checkpoint counts them); an archived
    // sandbox's are its head's.
    Result<std::uint64_t> usage(std::string_view name);

    // --- checkpoints -------------------------------------------------------------------------------------
    Result<CheckpointResult> checkpoint(const CheckpointRequest& request, const ProgressCallback& progress = {});
    // The same in a sandbox the caller holds for a run (holdForRun) while that run goes on: an agent session's
    // workspace between two of its tool calls. The run's files are read as they are at that moment.
    Result<CheckpointResult> checkpoint(const CheckpointRequest& request, const SandboxHold& held,
                                        const ProgressCallback& progress = {});
    // Newest first.
    Result<std::vector<CheckpointInfo>> checkpoints(std::string_view sandbox);
    // By id or a unique prefix of at least 4 hex digits.
    Result<CheckpointInfo> findCheckpoint(std::string_view idOrPrefix);
    // Gives a checkpoint a label, or clears it (empty): mutable, like a git tag, and kept apart from what the
    // checkpoint's id hashes, so the id stays. Audited as checkpoint.label.
    Result<CheckpointInfo> setLabel(std::string_view checkpoint, std::string_view label);
    // From checkpoint `from` to checkpoint `to`, or to the live workspace of `from`'s sandbox when `to` is
    // empty (or of `liveSandbox` when given).
    Result<DiffResult> diff(std::string_view from, std::string_view to, const DiffOptions& options = {},
                            const ProgressCallback& progress = {}, std::string_view liveSandbox = {});
    // Makes the workspace of the checkpoint's sandbox (or of `intoSandbox`) equal to the checkpoint, atomically:
    // unsaved changes are checkpointed first, the restore is recorded as a new checkpoint, nothing is deleted.
    Result<RestoreResult> restore(std::string_view checkpoint, const ProgressCallback& progress = {},
                                  std::string_view intoSandbox = {});
    // A new sandbox whose workspace is the checkpoint's tree.
    Result<CreateSandboxResult> fork(std::string_view checkpoint, std::string_view newName,
                                     const ProgressCallback& progress = {});
    // Deletes the sandbox's checkpoints no rule keeps (its head, and any other sandbox was made from, are
    // always kept), then frees the blobs nothing references.
    Result<PruneResult> prune(std::string_view sandbox, const PrunePolicy& policy);
    // Mark and sweep: deletes every blob no checkpoint reaches.
    Result<GarbageStats> collectGarbage();
    // Reads every blob the checkpoint reaches and checks its hash: an error names what is missing or damaged.
    Result<void> verifyCheckpoint(std::string_view checkpoint);
    // Writes the checkpoint's tree into `folder` (empty or missing): what a cluster's node starts an agent
    // session's sandbox from (agents/agent_cluster.h).
    Result<void> writeCheckpoint(std::string_view checkpoint, const std::filesystem::path& folder);
    // Records into `request.sandbox`'s history the checkpoints another store made of a sandbox of the same name
    // (an agent session's, on a cluster's node, in a store of its own): that store's blobs copied in, then each
    // of its checkpoints recorded anew, parents first. A checkpoint there without parents (the sandbox's start,
    // written from `request.onto`) is `onto` itself when their trees are equal, else a child of it. Every
    // tree is read back whole before anything is kept, each checkpoint is audited as checkpoint.create with
    // `request.details` and the id it had, and the sandbox's head and workspace stay as they are (restore()
    // brings the last one back). One transaction: all of it is recorded, or nothing.
    Result<AdoptedCheckpoints> adoptCheckpoints(const AdoptRequest& request);

    // --- promotion (promotion/promote.h) --------------------------------------------------------------------
    // Saves unsaved work of both sandboxes (auto checkpoints), merges what the source changed since the
    // common ancestor into the target, measures, grades and checks it, and then, by the request's mode,
    // applies it (atomically: the target's workspace is wholly before or after even if the process is
    // killed; recorded as a 'promote' checkpoint with both heads as parents and audited with the approval),
    // only reports it, or writes it out as a folder or a patch. A report with a non-empty `blocked` was not
    // applied: conflicts, failed compatibility checks, or high risk without an approval.
    Result<PromotionReport> promote(const PromotionRequest& request, const ProgressCallback& progress = {});
    // promote() in Mode::Preview: what promoting `source` into `target` would do.
    Result<PromotionReport> preview(std::string_view source, std::string_view target = kMain);

    // --- for promotion and the checkpoint browser ---------------------------------------------------------
    // The nearest common ancestor of two checkpoints in the graph (nullopt when they share none).
    Result<std::optional<CheckpointInfo>> commonAncestor(std::string_view a, std::string_view b);
    // Every file, symlink and directory of a checkpoint, in path order.
    Result<std::vector<PathEntry>> files(std::string_view checkpoint);
    // The entry at `path` in a checkpoint; nullopt when there is none.
    Result<std::optional<TreeEntry>> entryAt(std::string_view checkpoint, std::string_view path);
    // A file's bytes; refuses files above `limit` bytes.
    Result<std::string> readFile(const TreeEntry& entry, std::uint64_t limit = 64ULL << 20);

private:
    struct Impl;
    explicit SandboxEngine(std::unique_ptr<Impl> impl);
    // checkpoint() once the sandbox is locked; `lock` (when held here, not by a run) is let go early when a
    // refused checkpoint's storage is freed. `held`: the lock is a SandboxHold's, kept between checkpoints, so
    // each starts from what the last one left (no other writer can have changed it).
    Result<CheckpointResult> checkpointLocked(const CheckpointRequest& request, const ProgressCallback& progress,
                                              FileLock& lock, bool held);
    std::unique_ptr<Impl> m_impl;
};

} // namespace sb
