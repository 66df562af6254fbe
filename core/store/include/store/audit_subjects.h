#pragma once

// What an audit entry is about, for people: the run, sandbox, checkpoint, session, policy version or dataset
// its subject (or its details) names, with a short readable name in place of a UUID, and the outcome the
// entry records. Names come from the log itself (a run's label from its entry, a checkpoint's label from the
// entries that made and relabelled it, a session's command from its start), so they are as trustworthy as
// the chain and need no other module's tables.

#include "store/audit.h"
#include "util/error.h"

#include <span>
#include <string>
#include <vector>

namespace sb {

class Store;

enum class AuditSubjectKind { Other, Run, Sandbox, Checkpoint, Session, Policy, Dataset };
std::string_view toString(AuditSubjectKind kind);

struct AuditSubject {
    AuditSubjectKind kind = AuditSubjectKind::Other;
    std::string id;      // in full: a run's or a session's UUID, a checkpoint's id, a sandbox's name, "name@version"
    std::string sandbox; // a checkpoint's sandbox ("" for other kinds)
    std::string name;    // for people, one line, printable: "run 3f2a91c · print(1).py", "trial · checkpoint …"
    std::string outcome; // what the entry records as its result: a run's outcome, a session's status; "" none
};

// How many characters of an id are shown: enough to tell ids apart by eye.
inline constexpr std::size_t kAuditShortId = 7;

// The subject of each record, in the same order. Reads the log for the names of checkpoints and sessions the
// records name (one query each, whatever the number of records).
Result<std::vector<AuditSubject>> describeAuditSubjects(const Store& store, std::span<const AuditRecord> records);

// The subject of one record from the record alone (no names looked up in other entries).
AuditSubject auditSubjectOf(const AuditRecord& record);

} // namespace sb
