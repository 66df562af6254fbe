#pragma once

// The audit log: an append-only, hash-chained, signed record of every operation on the store.
//
// Each entry has a sequence number (1, 2, 3, … with no gaps), a time, an actor, an operation, a subject and
// details (a JSON object), plus prev_hash (the previous entry's hash; 64 zeros for entry 1) and its own hash,
// SHA-256 over auditHashInput(): a length-prefixed encoding of every field and prev_hash. Each entry also
// carries a MAC: HMAC-SHA256 of its hash under the store's audit key, a secret kept outside the store
// (store/audit_key.h); entries written before the store had a key have none. The last entry's sequence
// number, hash and the key's MAC of both are also kept apart from the entries (the log's head), updated in
// the same transaction as each append, with the id of the store's key.
//
// What verifyAudit() can tell from the file alone: an edited field, a deleted, inserted or reordered entry, a
// row of the wrong types, entries removed from the end, entries appended by hand. With the key, also what
// someone who can write the file but does not hold the key did however consistently (a forged entry, a
// rewritten chain, the head moved back), and, with the witness kept beside the key, the store put back to an
// older copy of itself. What it cannot: whoever holds the key too can rewrite the whole log; only a hash
// kept elsewhere (an anchor: `sandbench audit verify --json` prints the head's) shows that.
// docs/THREAT_MODEL.md ("The audit log") has the whole list.

#include "store/audit_key.h"
#include "util/error.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sb {

class Store;
namespace sqlite {
class Db;
}

// Operation names: stable, lower case, dotted by family. Scripts filter on them (audit list --operation).
namespace audit_op {
inline constexpr std::string_view kRun = "run";
inline constexpr std::string_view kPolicyVersion = "policy.version"; // a new version of a policy was stored
inline constexpr std::string_view kSandboxCreate = "sandbox.create";
inline constexpr std::string_view kSandboxDestroy = "sandbox.destroy";
inline constexpr std::string_view kSandboxSweep = "sandbox.sweep";
inline constexpr std::string_view kCheckpointCreate = "checkpoint.create";
inline constexpr std::string_view kCheckpointRestore = "checkpoint.restore";
inline constexpr std::string_view kCheckpointFork = "checkpoint.fork";
inline constexpr std::string_view kCheckpointPrune = "checkpoint.prune";
inline constexpr std::string_view kPromote = "promote";
inline constexpr std::string_view kApprove = "approve";
inline constexpr std::string_view kDatasetImport = "dataset.import"; // a dataset snapshot was stored
inline constexpr std::string_view kDatasetSample = "dataset.sample"; // a sampled snapshot of a stored one
inline constexpr std::string_view kDatasetRemove = "dataset.remove"; // a sampled snapshot no longer wanted
inline constexpr std::string_view kSandboxSet = "sandbox.set";         // quota, idle, expiry, policy, datasets
inline constexpr std::string_view kSandboxArchive = "sandbox.archive"; // idle: saved, workspace folder removed
inline constexpr std::string_view kSandboxRevive = "sandbox.revive";   // archived, used again
inline constexpr std::string_view kCheckpointLabel = "checkpoint.label";
inline constexpr std::string_view kSessionStart = "session.start"; // an agent session began (agents/session_store.h)
inline constexpr std::string_view kSessionEnd = "session.end";     // it ended, or was found interrupted
} // namespace audit_op

// 1 to 64 characters: a lower-case letter, then lower-case letters, digits, '.', '_' or '-'.
bool isValidAuditOperation(std::string_view operation);

// What a caller appends: appendAudit(db, AuditEntry(audit_op::kSandboxCreate, name, {{"from", "main"}})).
struct AuditEntry {
    AuditEntry(std::string_view operation_, std::string subject_, nlohmann::json details_ = nlohmann::json::object())
        : operation(operation_), subject(std::move(subject_)), details(std::move(details_))
    {
    }

    std::string operation;                             // an audit_op name
    std::string subject;                               // what it was done to: a run id, "name@version", a sandbox
    nlohmann::json details = nlohmann::json::object(); // more facts; an object (null means {})
    std::string actor;                                 // who; empty: currentAuditActor()
    std::int64_t atMs = 0;                             // when (Unix epoch ms); 0: now
};

// An entry as the log holds it.
struct AuditRecord {
    std::int64_t seq = 0;
    std::int64_t atMs = 0;
    std::string actor;
    std::string operation;
    std::string subject;
    std::string details;  // the JSON text exactly as stored (and hashed)
    std::string prevHash; // lower-case hex
    std::string hash;     // lower-case hex
    std::string mac;      // lower-case hex; empty for an entry written before the store had a key
    // Empty for a row as Sandbench writes it; otherwise what is wrong with its types or hashes (a hand edit),
    // naming the entry. Such a row is still listed, with what could be read.
    std::string problem;
};

// The hash that starts the chain: entry 1's prev_hash, and the head of an empty log.
inline constexpr std::string_view kAuditGenesisHash =
    "0000000000000000000000000000000000000000000000000000000000000000";

// Details for people, on one line and safe to print (sb::printable): key=value in key order, empty values
// left out, SHA-256 values cut to their first 12 digits; details that are not a JSON object (a hand edit)
// as they are stored.
std::string auditDetailsLine(std::string_view detailsJson, std::size_t maxChars = 200);

// The OS user who runs this process (the name of the real uid), else "uid N".
std::string currentAuditActor();

// The bytes an entry's hash is taken of, one field a line:
//   "sandbench-audit-v1", seq, at_ms (decimal), then actor, operation, subject and details each as
//   "<byte length>:<bytes>", then prev_hash.
std::string auditHashInput(const AuditRecord& record);
// SHA-256 (lower-case hex) of auditHashInput(record).
Result<std::string> auditHash(const AuditRecord& record);

// Appends one entry and returns it as stored. Called while the caller holds a transaction on the store's
// connection (see sqlite::connectionOf), the entry joins it: it commits with the caller's change and is
// undone with it. Otherwise the entry is a transaction of its own. Refused when the log's head record is
// missing or behind the entries (the file was edited outside Sandbench): `sandbench audit verify` says where.
Result<AuditRecord> appendAudit(Store& store, const AuditEntry& entry);
Result<AuditRecord> appendAudit(const sqlite::Db& db, const AuditEntry& entry);

// Every field has an initializer so that designated initializers may name only some: {.operation = "run"}.
struct AuditFilter {
    std::string operation{};               // exact, or a family: "sandbox" also matches "sandbox.create"
    std::string actor{};                   // exact
    std::string subject{};                 // exact
    std::string text{};                    // anywhere in actor, operation, subject or details (ASCII case-insensitive)
    std::optional<std::int64_t> sinceMs{}; // at or after (inclusive)
    std::optional<std::int64_t> untilMs{}; // at or before (inclusive)
    std::optional<std::int64_t> beforeSeq{}; // numbered below this (exclusive): the page before one already read
    std::int64_t limit = 0;                // the most recent `limit` matches; 0: every match
};

// The matching entries in log order (oldest first).
Result<std::vector<AuditRecord>> listAudit(const Store& store, const AuditFilter& filter = {});

// The distinct operations and actors in the log, sorted: the choices of a filter.
struct AuditFacets {
    std::vector<std::string> operations;
    std::vector<std::string> actors;
};
Result<AuditFacets> auditFacets(const Store& store);

// What verifyAudit found wrong first. The names are a contract (audit verify --json).
enum class AuditDamage {
    Malformed,     // a row of the wrong types, a NULL, a hash that is not a SHA-256
    Altered,       // an entry's content no longer matches its hash, or its successor was chained to another one
    Removed,       // an entry is missing: a gap in the sequence
    Inserted,      // an entry that cannot be part of the log (numbered below 1)
    Truncated,     // entries removed from the end: the head records more
    Unrecorded,    // entries after the recorded head: appended outside Sandbench
    HeadMissing,   // the head record is gone or damaged
    AnchorMissing, // the chain is whole but the anchor given is in no entry: rewritten since
    Forged,        // an entry the store's key did not sign: added or rewritten by someone without the key
    KeyMissing,    // the store's key is not where it is looked for (or cannot be read): no MAC was checked
};
std::string_view toString(AuditDamage damage);

struct AuditBreak {
    AuditDamage damage = AuditDamage::Altered;
    std::int64_t seq = 0; // the first altered or removed entry (0: none in particular)
    std::string message;  // what is wrong, naming the entry
};

// The store's audit key, as verifyAudit found it.
struct AuditKeyFound {
    std::string id;             // the key the store names
    std::filesystem::path file; // where it is, or was looked for
    bool found = false;         // false: no MAC could be checked (AuditDamage::KeyMissing says why)
    std::int64_t firstSeq = 0;  // the first entry it signs (when found)
};

struct AuditVerification {
    std::int64_t entries = 0;                              // rows checked
    std::int64_t headSeq = 0;                              // the last entry read (0: empty log)
    std::string headHash = std::string(kAuditGenesisHash); // its hash, as stored
    std::optional<AuditBreak> broken;
    bool cancelled = false; // stopped early: nothing is known about the rest
    // nullopt: the store has no key yet (its entries, if any, were written before keys existed, and only
    // their chain was checked).
    std::optional<AuditKeyFound> key;
    std::int64_t signedEntries = 0;      // entries whose MAC was checked with the key
    std::int64_t entriesBeforeKey = 0;   // entries from before the key, pinned by its record of the last of them
    std::optional<AuditWitness> witness; // the head found intact last time, before this verification
    std::vector<std::string> warnings;   // what could not be done but breaks nothing (the witness kept)
    bool intact() const { return !broken && !cancelled; }
};

struct AuditVerifyOptions {
    // A hash of an entry recorded outside the store earlier (e.g. a head printed by audit verify --json);
    // the log must still hold an entry with that hash. Empty: no anchor.
    std::string anchor;
    // Where the store's key is looked for; empty: auditKeyFolder() (store/audit_key.h).
    std::filesystem::path keyFolder;
    // Keep the head of a log found intact, with its key, as the witness for the next verification.
    bool recordWitness = true;
    const std::atomic<bool>* cancel = nullptr;
    // Called now and then with the entries checked so far and about how many there are.
    std::function<void(std::int64_t done, std::int64_t total)> progress;
};

// Walks the whole chain in one read transaction (a concurrent append is either wholly seen or not at all).
// An error value means the log could not be read at all; a broken chain is a result, not an error.
Result<AuditVerification> verifyAudit(const Store& store, const AuditVerifyOptions& options = {});

} // namespace sb
