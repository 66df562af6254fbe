#pragma once

// The audit log's key (store/audit.h): a secret kept outside the store, with which Sandbench signs every entry
// and the log's head (HMAC-SHA256). Whoever can write the store but does not hold the key cannot add, rewrite
// or cut entries without `sandbench audit verify` saying so; docs/THREAT_MODEL.md ("The audit log") says what
// it shows and what it cannot.
//
// One key per store, made by the first audit entry of a store that has none, in a file of its own:
// FOLDER/ID.key, where FOLDER is $SANDBENCH_AUDIT_KEYS, else $XDG_CONFIG_HOME/sandbench/audit-keys, else
// ~/.config/sandbench/audit-keys (folders made 0700, the file 0600, never overwritten). ID (32 hex digits,
// derived from the secret) is recorded in the store (log_heads.key_id): the store names its key without
// holding it. The file is JSON: {format, id, secret, first_seq, before_hash, store, created_at_ms}: the first
// entry the key signs; the hash of the entry before it, which pins the entries written before the store had a
// key; the store's path when the key was made.
//
// Beside it, FOLDER/ID.witness keeps the head that `audit verify` last found intact with the key, so that a
// store put back to an older copy of itself (every entry of which is signed) is noticed too.

#include "util/error.h"

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace sb {

// The environment variable naming the folder of audit keys.
inline constexpr std::string_view kAuditKeysEnv = "SANDBENCH_AUDIT_KEYS";

struct AuditKey {
    std::string id;                        // 32 lower-case hex digits, derived from the secret
    std::array<std::uint8_t, 32> secret{}; // never leaves the key file and this process
    std::int64_t firstSeq = 1;             // the first entry it signs
    std::string beforeHash;                // the hash of entry firstSeq - 1 (the genesis hash for entry 1)
    std::string store;                     // the store's path when the key was made
    std::int64_t createdAtMs = 0;
    std::filesystem::path file; // where it was read from or written to
};

// The folder of audit keys (see above); an error when it cannot be told (no home folder and no variable set).
Result<std::filesystem::path> auditKeyFolder();

// Whether `id` can name a key (so that a store's key_id never becomes a path of its choosing).
bool isAuditKeyId(std::string_view id);

// FOLDER/ID.key.
std::filesystem::path auditKeyFile(const std::filesystem::path& folder, std::string_view id);

// The key ID in `folder`; nullopt when there is no such file. An error names a file that is there but cannot
// be read or is not that key.
Result<std::optional<AuditKey>> readAuditKey(const std::filesystem::path& folder, std::string_view id);

// Makes a new key for the store at `store`, signing from entry `firstSeq` on, and writes it (durably) to
// `folder`.
Result<AuditKey> makeAuditKey(const std::filesystem::path& folder, const std::filesystem::path& store,
                              std::int64_t firstSeq, std::string_view beforeHash);

// For a store at `store` that names no key: the oldest readable key in `folder` made for a store at the same
// place that signed an entry the log still has (one numbered `lastSeq` or below): the store had a key, and its
// record was removed. nullopt when there is none (a key made by a change that was then rolled back signed
// nothing the log holds).
std::optional<AuditKey> formerAuditKey(const std::filesystem::path& folder, const std::filesystem::path& store,
                                       std::int64_t lastSeq);

// The MAC of an entry (over its hash, which covers its content and its predecessor's hash) and of the head.
Result<std::string> auditEntryMac(const AuditKey& key, std::string_view entryHash);
Result<std::string> auditHeadMac(const AuditKey& key, std::int64_t seq, std::string_view hash);

// The head last found intact with a key.
struct AuditWitness {
    std::int64_t seq = 0;
    std::string hash;
    std::int64_t atMs = 0; // when it was verified
};

// FOLDER/ID.witness; nullopt when there is none. An error names a file that cannot be read.
Result<std::optional<AuditWitness>> readAuditWitness(const AuditKey& key);
// Records `witness` unless the file already holds a later entry (concurrent verifies keep the latest).
Result<void> recordAuditWitness(const AuditKey& key, const AuditWitness& witness);

} // namespace sb
