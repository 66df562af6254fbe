// verifyAudit: the walk along the chain, then the head, the store's key and its witness, and an anchor.

#include "store/audit.h"

#include "store/audit_key.h"
#include "audit_rows.h"
#include "store/sqlite_db.h"
#include "store/store.h"
#include "util/hash.h"
#include "util/time_text.h"

#include <fmt/format.h>

#include <algorithm>

namespace sb {

namespace {

using namespace audit_rows;
using sqlite::Db;

std::string range(std::int64_t first, std::int64_t last)
{
    return first == last ? fmt::format("entry {}", first) : fmt::format("entries {}–{}", first, last);
}

// One verification: what is known so far, and the first thing found wrong.
class Verifier {
public:
    Verifier(const Db& db, const AuditVerifyOptions& options) : m_db(db), m_options(options) {}

    Result<AuditVerification> run();

private:
    // The store's key and witness, looked up before the walk; what keeps the key from use is a break for later.
    void findKey(const Head& head);
    // Walks every entry in order; a break ends the walk (`m_result.broken`), a forged entry is remembered
    // (m_forged) and reported after the chain and the head are known to be whole.
    Result<void> walk();
    std::optional<AuditBreak> checkEntry(const AuditRecord& record);
    std::optional<AuditBreak> checkHead(const Head& head) const;
    std::optional<AuditBreak> checkSignatures(const Head& head) const;
    std::optional<AuditBreak> checkWitness(const Head& head) const;
    std::optional<AuditBreak> checkAnchor(const Head& head) const;
    std::optional<AuditBreak> checkKeyRecord(const Head& head) const;
    void keepWitness();

    const Db& m_db;
    const AuditVerifyOptions& m_options;
    AuditVerification m_result;
    std::optional<AuditKey> m_key;              // the store's key, when it was found
    std::optional<AuditKey> m_formerKey;        // a key made for a store here, when the store names none
    std::optional<AuditBreak> m_keyProblem;     // why the key the store names cannot be used
    std::optional<AuditBreak> m_forged;         // the first entry the key did not sign
    std::optional<std::string> m_hashAtWitness; // the hash of the witness's entry, as the walk found it
    std::int64_t m_firstSigned = 0;             // the first entry carrying a MAC (0: none)
    bool m_anchorFound = false;
};

void Verifier::findKey(const Head& head)
{
    auto folder = m_options.keyFolder.empty() ? auditKeyFolder() : Result<std::filesystem::path>(m_options.keyFolder);
    if (head.keyId.empty()) {
        // A store that names no key: new, or with entries from before keys; or its key record was removed.
        if (folder)
            m_formerKey = formerAuditKey(*folder, m_db.path(), head.seq);
        return;
    }
    AuditKeyFound found;
    found.id = head.keyId;
    if (!folder) {
        m_keyProblem = AuditBreak{AuditDamage::KeyMissing, 0,
                                  fmt::format("the store's key {} cannot be looked for: {}; no entry's signature was "
                                              "checked",
                                              head.keyId, folder.error().message)};
        m_result.key = found;
        return;
    }
    found.file = auditKeyFile(*folder, head.keyId);
    auto key = readAuditKey(*folder, head.keyId);
    if (!key) {
        m_keyProblem = AuditBreak{AuditDamage::KeyMissing, 0,
                                  fmt::format("{}; no entry's signature was checked", key.error().message)};
    } else if (!*key) {
        m_keyProblem = AuditBreak{AuditDamage::KeyMissing, 0,
                                  fmt::format("the store's key {} is not in {} (set {} to the folder that holds it): "
                                              "the chain was checked, but no entry's signature",
                                              head.keyId, folder->string(), kAuditKeysEnv)};
    } else {
        found.found = true;
        found.firstSeq = (*key)->firstSeq;
        m_key = std::move(**key);
        auto witness = readAuditWitness(*m_key);
        if (witness)
            m_result.witness = *witness;
        else
            m_result.warnings.push_back(witness.error().message + "; it was not used");
    }
    m_result.key = found;
}

std::optional<AuditBreak> Verifier::checkEntry(const AuditRecord& record)
{
    if (!record.mac.empty() && m_firstSigned == 0)
        m_firstSigned = record.seq;
    if (m_result.witness && record.seq == m_result.witness->seq)
        m_hashAtWitness = record.hash;
    if (!m_key)
        return std::nullopt;
    if (record.seq < m_key->firstSeq) {
        ++m_result.entriesBeforeKey;
        if (record.seq == m_key->firstSeq - 1 && record.hash != m_key->beforeHash)
            return AuditBreak{AuditDamage::Altered, record.seq,
                              fmt::format("entry {} is not the entry the store's key was made after (its key file "
                                          "{} records another hash): entries before the key were rewritten",
                                          record.seq, m_key->file.string())};
        return std::nullopt;
    }
    auto mac = auditEntryMac(*m_key, record.hash);
    if (mac && *mac == record.mac) {
        ++m_result.signedEntries;
    } else if (!m_forged) {
        m_forged = AuditBreak{
            AuditDamage::Forged, record.seq,
            fmt::format("entry {} {} by the store's key {}: it was added or rewritten outside Sandbench, by someone "
                        "without the key",
                        record.seq, record.mac.empty() ? "is not signed" : "has a signature not made", m_key->id)};
    }
    return std::nullopt;
}

Result<void> Verifier::walk()
{
    std::int64_t total = 0;
    if (auto count = m_db.prepare("SELECT max(seq) FROM audit_log"); !count) {
        return std::unexpected(count.error());
    } else if (sqlite3_step(count->get()) == SQLITE_ROW) {
        total = std::max<std::int64_t>(0, sqlite3_column_int64(count->get(), 0));
    }
    auto statement = m_db.prepare(fmt::format("SELECT {} FROM audit_log ORDER BY seq", kEntryColumns));
    if (!statement)
        return std::unexpected(statement.error());

    auto broken = [this](AuditDamage damage, std::int64_t seq, std::string message) {
        m_result.broken = AuditBreak{damage, seq, std::move(message)};
        return Result<void>{};
    };
    Sha256 hasher;
    std::int64_t previousSeq = 0;
    std::string previousHash(kAuditGenesisHash);
    int rc = 0;
    while ((rc = sqlite3_step(statement->get())) == SQLITE_ROW) {
        if (m_options.cancel && m_result.entries % 256 == 0 && m_options.cancel->load()) {
            m_result.cancelled = true;
            return {};
        }
        if (m_options.progress && m_result.entries % 1024 == 0)
            m_options.progress(m_result.entries, total);

        const AuditRecord record = readRecord(statement->get());
        ++m_result.entries;
        if (record.seq < 1)
            return broken(AuditDamage::Inserted, record.seq,
                          fmt::format("entry {} cannot be part of the log (entries are numbered from 1): it was "
                                      "inserted",
                                      record.seq));
        if (record.seq != previousSeq + 1)
            return broken(AuditDamage::Removed, previousSeq + 1,
                          fmt::format("{} {} removed (the log goes from entry {} to entry {})",
                                      range(previousSeq + 1, record.seq - 1),
                                      record.seq - 1 == previousSeq + 1 ? "was" : "were", previousSeq, record.seq));
        if (!record.problem.empty())
            return broken(AuditDamage::Malformed, record.seq, record.problem + " (edited outside Sandbench)");

        hasher.update(auditHashInput(record));
        auto hash = hasher.finishHex();
        if (!hash)
            return fail(
                fmt::format("store {}: verifying the audit log: {}", m_db.path().string(), hash.error().message));
        if (*hash != record.hash)
            return broken(AuditDamage::Altered, record.seq,
                          fmt::format("entry {} was altered: its content no longer matches its hash", record.seq));
        if (record.prevHash != previousHash) {
            if (record.seq == 1)
                return broken(AuditDamage::Altered, 1,
                              "entry 1 was altered: it does not start the chain (its prev_hash is not the genesis "
                              "hash)");
            return broken(AuditDamage::Altered, previousSeq,
                          fmt::format("entry {} was altered or replaced (its hash recomputed): entry {} was chained "
                                      "to a different entry {}",
                                      previousSeq, record.seq, previousSeq));
        }
        if (auto wrong = checkEntry(record)) {
            m_result.broken = std::move(wrong);
            return {};
        }
        if (!m_options.anchor.empty() && record.hash == m_options.anchor)
            m_anchorFound = true;
        previousSeq = record.seq;
        previousHash = record.hash;
        m_result.headSeq = record.seq;
        m_result.headHash = record.hash;
    }
    if (rc != SQLITE_DONE)
        return m_db.error("cannot read the audit log");
    if (m_options.progress)
        m_options.progress(m_result.entries, std::max(total, m_result.entries));
    return {};
}

std::optional<AuditBreak> Verifier::checkHead(const Head& recorded) const
{
    const std::int64_t last = m_result.headSeq;
    if (recorded.seq > last) {
        const std::string ends =
            last == 0 ? std::string("the log is empty") : fmt::format("the log ends at entry {}", last);
        return AuditBreak{AuditDamage::Truncated, last + 1,
                          fmt::format("{} {} removed from the end: {} but its head records entry {}",
                                      range(last + 1, recorded.seq), last + 1 == recorded.seq ? "was" : "were", ends,
                                      recorded.seq)};
    }
    if (recorded.seq < last)
        return AuditBreak{AuditDamage::Unrecorded, recorded.seq + 1,
                          fmt::format("entry {} was added outside Sandbench: the log's head records entry {} as the "
                                      "last",
                                      recorded.seq + 1, recorded.seq)};
    if (recorded.hash != m_result.headHash)
        return AuditBreak{AuditDamage::Altered, last,
                          last == 0 ? std::string("the log's head records a hash but the log is empty: entries were "
                                                  "removed")
                                    : fmt::format("entry {} was altered or replaced (its hash recomputed): the log's "
                                                  "head records a different hash for it",
                                                  last)};
    return std::nullopt;
}

std::optional<AuditBreak> Verifier::checkSignatures(const Head& head) const
{
    if (!m_key)
        return std::nullopt;
    if (m_forged)
        return m_forged;
    const std::int64_t last = m_result.headSeq;
    if (last < m_key->firstSeq)
        return AuditBreak{AuditDamage::Truncated, last + 1,
                          fmt::format("the log ends at entry {}, but the store's key was made to sign entries from "
                                      "entry {} on: entries were removed from the end",
                                      last, m_key->firstSeq)};
    auto mac = auditHeadMac(*m_key, head.seq, head.hash);
    if (!mac || *mac != head.mac)
        return AuditBreak{AuditDamage::Truncated, last + 1,
                          fmt::format("the log's head (entry {}) is not signed by the store's key: it was moved "
                                      "outside Sandbench, by someone without the key; entries after entry {} may "
                                      "have been removed",
                                      last, last)};
    return std::nullopt;
}

std::optional<AuditBreak> Verifier::checkWitness(const Head&) const
{
    if (!m_result.witness)
        return std::nullopt;
    const AuditWitness& witness = *m_result.witness;
    const std::string when = formatIsoUtc(witness.atMs);
    if (witness.seq > m_result.headSeq)
        return AuditBreak{AuditDamage::Truncated, m_result.headSeq + 1,
                          fmt::format("{} {} removed from the end: the log ends at entry {}, but entry {} was verified "
                                      "on {} (an older copy of the store was put back, or its end was cut)",
                                      range(m_result.headSeq + 1, witness.seq),
                                      m_result.headSeq + 1 == witness.seq ? "was" : "were", m_result.headSeq,
                                      witness.seq, when)};
    if (m_hashAtWitness != witness.hash)
        return AuditBreak{AuditDamage::Altered, witness.seq,
                          fmt::format("entry {} is not the one verified on {}: the log was rewritten from there on "
                                      "(or an older copy of the store was put back and written to since)",
                                      witness.seq, when)};
    return std::nullopt;
}

std::optional<AuditBreak> Verifier::checkAnchor(const Head&) const
{
    if (m_options.anchor.empty() || m_anchorFound)
        return std::nullopt;
    return AuditBreak{AuditDamage::AnchorMissing, 0,
                      fmt::format("no entry has the anchor hash {}: the log was rewritten after the anchor was taken, "
                                  "or the anchor belongs to another store",
                                  m_options.anchor)};
}

std::optional<AuditBreak> Verifier::checkKeyRecord(const Head& head) const
{
    if (m_keyProblem)
        return m_keyProblem;
    if (!head.keyId.empty())
        return std::nullopt;
    if (m_formerKey)
        return AuditBreak{AuditDamage::HeadMissing, m_formerKey->firstSeq,
                          fmt::format("the store names no key, but key {} ({}) was made for a store here on {} and "
                                      "signed its entries from entry {} on: the key record was removed, or another "
                                      "store was put in its place",
                                      m_formerKey->id, m_formerKey->file.string(),
                                      formatIsoUtc(m_formerKey->createdAtMs), m_formerKey->firstSeq)};
    if (m_firstSigned != 0)
        return AuditBreak{AuditDamage::HeadMissing, m_firstSigned,
                          fmt::format("entries from entry {} on are signed, but the log's head names no key: the key "
                                      "record was removed",
                                      m_firstSigned)};
    return std::nullopt;
}

void Verifier::keepWitness()
{
    if (!m_key || !m_options.recordWitness || m_result.headSeq == 0)
        return;
    if (auto kept = recordAuditWitness(*m_key, AuditWitness{m_result.headSeq, m_result.headHash, nowEpochMs()}); !kept)
        m_result.warnings.push_back(kept.error().message
                                    + "; the next verification cannot tell an older copy of the store from this one");
}

Result<AuditVerification> Verifier::run()
{
    ReadSnapshot snapshot(m_db);
    if (auto ok = snapshot.begin(); !ok)
        return std::unexpected(ok.error());
    auto head = readHead(m_db);
    if (!head)
        return std::unexpected(head.error());
    if (*head)
        findKey(**head);
    if (auto ok = walk(); !ok)
        return std::unexpected(ok.error());
    if (m_result.broken || m_result.cancelled)
        return m_result;
    if (!*head) {
        m_result.broken = AuditBreak{AuditDamage::HeadMissing, m_result.headSeq + 1,
                                     fmt::format("the log's head record is missing or damaged (log_heads, row '{}'): "
                                                 "entries after entry {} may have been removed",
                                                 kHeadName, m_result.headSeq)};
        return m_result;
    }
    // In order of what they say most about: the chain's own end, the signatures, what was seen before.
    for (auto check : {&Verifier::checkHead, &Verifier::checkSignatures, &Verifier::checkWitness,
                       &Verifier::checkAnchor, &Verifier::checkKeyRecord}) {
        if (auto wrong = (this->*check)(**head)) {
            m_result.broken = std::move(wrong);
            return m_result;
        }
    }
    keepWitness();
    return m_result;
}

} // namespace

Result<AuditVerification> verifyAudit(const Store& store, const AuditVerifyOptions& options)
{
    auto connection = sqlite::connectionOf(store);
    if (!connection)
        return std::unexpected(connection.error());
    const Db& db = *connection;
    if (!options.anchor.empty() && !isSha256Hex(options.anchor))
        return fail(fmt::format("anchor {} is not a SHA-256 (64 lower-case hex digits)", shown(options.anchor)));
    return guarded(db, "verifying the audit log", [&]() -> Result<AuditVerification> {
        Verifier verifier(db, options);
        return verifier.run();
    });
}

} // namespace sb
